"""Chance kept secret until it is used, and checked after (log format version 4).

In real play the seed of every die roll and coin flip is drawn fresh; the
settings (and so every header, view and view log) hold only a salted
commitment to it; the end record reveals it and verify re-derives every roll
from it. A match played from a public seed is marked so.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from multiversus_core import (
    Chance,
    FlipForSetUp,
    IllegalCommandError,
    MatchSettings,
    RollInitiative,
    SettingsError,
    secret_chance_settings,
    start_match,
)
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import (
    LogEntry,
    LogWriter,
    MatchLog,
    decode_log,
    encode_log,
    new_header,
    read_log,
)
from multiversus_core.engine.play import play_match
from multiversus_core.engine.verify import verify, verify_data
from multiversus_core.engine.viewlog import decode_view_log, encode_view_log
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.decide import decide, decider_seat
from multiversus_core.rulesets.multiversus.events import InitiativeRolled
from multiversus_core.rulesets.multiversus.match import apply
from multiversus_core.rulesets.multiversus.secrets import chance_commitment, opens_chance, salted
from multiversus_core.rulesets.multiversus.views import redact_log
from tests.support import rechained

BASE = MatchSettings(heroes="banner-knight", adversaries="smogon", salts="secrets")


def secret_match(bot_seed: int = 1) -> MatchLog:
    settings, chance = secret_chance_settings(BASE)
    return play_match(settings, {1: RandomBot(bot_seed), 2: RandomBot(bot_seed + 1)}, chance)[0]


def test_the_header_holds_only_a_salted_commitment_to_a_fresh_seed() -> None:
    (a, chance_a), (_, chance_b) = secret_chance_settings(BASE), secret_chance_settings(BASE)
    assert chance_a.seed != chance_b.seed and chance_a.salt != chance_b.salt
    assert a.seed == 0 and a.chance == chance_commitment(chance_a)
    assert opens_chance(a.chance, chance_a) and not opens_chance(a.chance, chance_b)
    header = encode_log(MatchLog(header=secret_match().header))
    assert b'"seed":0,' in header and a.chance.encode() not in header


def test_the_commitment_is_sha256_of_the_salt_bytes_then_the_seed_big_endian() -> None:
    chance = Chance(seed=7, salt="00" * 31 + "01")
    expected = hashlib.sha256(bytes.fromhex(chance.salt) + (7).to_bytes(8, "big")).hexdigest()
    assert chance_commitment(chance) == expected


def test_no_view_or_unfinished_view_log_holds_the_seed() -> None:
    log = secret_match()
    assert log.chance is not None
    seed = str(log.chance.seed).encode()
    for cut in (10, 60, len(log.entries) - 1):
        part = msgspec.structs.replace(log, entries=log.entries[:cut])
        for viewer in ("heroes", "adversaries", "spectator"):
            data = encode_view_log(redact_log(part, viewer))  # type: ignore[arg-type]
            assert seed not in data and log.chance.salt.encode() not in data
            assert decode_view_log(data).chance is None


def test_the_end_record_reveals_the_seed_in_match_and_view_logs() -> None:
    log = secret_match()
    assert log.chance is not None
    end = json.loads(encode_log(log).splitlines()[-1])
    assert end["chance"] == {"seed": log.chance.seed, "salt": log.chance.salt}
    for viewer in ("heroes", "adversaries", "spectator"):
        data = encode_view_log(redact_log(log, viewer))  # type: ignore[arg-type]
        assert json.loads(data.splitlines()[-1])["chance"] == end["chance"]
        assert decode_view_log(data).chance == log.chance
    assert decode_log(encode_log(log)).chance == log.chance


def test_verify_re_derives_every_roll_from_the_revealed_seed() -> None:
    log = secret_match()
    assert verify(log).ok and verify(log).chance == "secret"
    # a die changed to another face, the chain recomputed: the seed says otherwise
    data = encode_log(log)
    lines = data.split(b"\n")
    number = next(i for i, line in enumerate(lines) if b'"kind":"initiative_rolled"' in line)
    record = json.loads(lines[number])
    for event in record["events"]:
        if event["kind"] == "initiative_rolled":
            event["die"] = event["die"] % 6 + 1
    lines[number] = json.dumps(record, separators=(",", ":")).encode()
    forged = rechained(b"\n".join(lines))
    for data in (forged, encode_view_log(redact_log(decode_log(forged), "heroes"))):
        result = verify_data(data)
        assert (result.ok, result.code, result.entry) == (False, "rules_differ", number)


def test_a_wrong_seed_in_the_end_record_is_refused_at_read() -> None:
    log = secret_match()
    assert log.chance is not None
    wrong = msgspec.structs.replace(log.chance, seed=(log.chance.seed + 1) % 2**64)
    for data in (
        encode_log(msgspec.structs.replace(log, chance=wrong)),
        encode_view_log(msgspec.structs.replace(redact_log(log, "heroes"), chance=wrong)),
    ):
        result = verify_data(data, "forged.jsonl")
        assert (result.ok, result.code) == (False, "log_error")
        assert result.problem is not None and "(bad_end)" in result.problem
        assert "does not open the header's chance commitment" in result.problem


def test_before_the_end_rolls_are_taken_as_recorded_and_must_be_faces() -> None:
    log = secret_match()
    part = msgspec.structs.replace(log, entries=log.entries[:40], chance=None)
    assert verify(part).ok
    data = encode_log(part)
    assert b'"die":' in data
    bad = data
    for face in (b"0", b"7", b"-1"):
        lines = bad.split(b"\n")
        number = next(i for i, line in enumerate(lines) if b'"kind":"initiative_rolled"' in line)
        record = json.loads(lines[number])
        for event in record["events"]:
            if event["kind"] == "initiative_rolled":
                event["die"] = int(face)
        lines[number] = json.dumps(record, separators=(",", ":")).encode()
        with pytest.raises(LogError) as caught:
            decode_log(rechained(b"\n".join(lines)))
        assert (caught.value.line, caught.value.code) == (number + 1, "out_of_range")
        assert "$.events" in caught.value.reason and ".die" in caught.value.reason


def test_the_engine_without_the_seed_refuses_to_draw_it() -> None:
    settings, _ = secret_chance_settings(BASE)
    state = start_match(settings)  # a log checked before the end: the seed is unknown
    with pytest.raises(IllegalCommandError, match="chance is secret"):
        decide(FlipForSetUp(player=1), state)
    assert decide(FlipForSetUp(player=1, winner=2), state)  # a real coin needs no seed


def test_a_chance_seed_that_does_not_open_the_commitment_is_refused() -> None:
    settings, _ = secret_chance_settings(BASE)
    with pytest.raises(SettingsError, match="does not open"):
        start_match(settings, Chance(seed=1, salt="00" * 32))


def test_a_real_die_at_the_table_still_works_in_a_secret_match() -> None:
    settings, chance = secret_chance_settings(BASE)
    state = start_match(settings, chance)
    entries = []
    bot = RandomBot(3)
    while state.pending != "roll":
        seat = decider_seat(state)
        assert seat is not None
        command = salted(command_for(bot, state, seat), settings)
        state, events = apply(state, command)
        entries.append(LogEntry(command=command, events=events))
    player = decider_seat(state)
    assert player is not None
    state, events = apply(state, RollInitiative(player=player, die=4))
    entries.append(LogEntry(command=RollInitiative(player=player, die=4), events=events))
    rolled = [e for e in events if isinstance(e, InitiativeRolled)]
    assert rolled and rolled[0].die == 4
    log = MatchLog(header=new_header(settings), entries=tuple(entries))
    assert verify(log).ok
    assert b'"kind":"roll_initiative","player":%d,"die":4' % player in encode_log(log)


def test_a_match_from_a_public_seed_is_marked_public() -> None:
    log = play_match(msgspec.structs.replace(BASE, seed=5), {1: RandomBot(1), 2: RandomBot(2)})[0]
    assert log.settings.chance == "" and verify(log).chance == "public"
    assert json.loads(encode_log(log).splitlines()[-1])["chance"] is None


def test_resume_reads_the_secret_seed_kept_beside_the_log(tmp_path: Path) -> None:
    log = secret_match()
    assert log.chance is not None
    path = tmp_path / "m.jsonl"
    with LogWriter.create(path, log.settings, log.chance) as writer:
        for entry in log.entries[:30]:
            writer.append(entry.command, entry.events)
    aside = tmp_path / "m.jsonl.chance"
    assert aside.exists() and aside.stat().st_mode & 0o077 == 0
    assert str(log.chance.seed).encode() not in path.read_bytes()
    writer, resumed = LogWriter.resume(path)
    with writer:
        assert resumed.chance == log.chance
        for entry in log.entries[30:]:
            writer.append(entry.command, entry.events)
    assert not aside.exists()  # the end record reveals it now
    assert path.read_bytes() == encode_log(log)
    assert read_log(path).chance == log.chance


def test_resume_without_the_secret_seed_says_why(tmp_path: Path) -> None:
    log = secret_match()
    path = tmp_path / "m.jsonl"
    with LogWriter.create(path, log.settings, log.chance) as writer:
        writer.append(log.entries[0].command, log.entries[0].events)
    (tmp_path / "m.jsonl.chance").unlink()
    with pytest.raises(LogError, match="chance is secret and its seed must be in"):
        LogWriter.resume(path)
