"""Seats' contributions to a match's secret chance (docs/log-format.md, *Contributions*).

The referee commits to its seed in the header; each seat contributes 32
random bytes when it joins; the dice come from the seed and every
contribution, and the end record reveals them all, so verify re-derives
every roll and fails if one contribution was altered.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from multiversus_core.engine.chance import (
    Chance,
    chance_commitment,
    dice_seed,
)
from multiversus_core.engine.log import LogWriter, decode_log, encode_log, read_log
from multiversus_core.engine.play import play_match
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.verify import verify
from multiversus_core.rulesets.tiles_d6.model import TilesSettings

SALT = "00" * 31 + "01"
GIVEN = ("11" * 32, "22" * 32)


def test_without_contributions_the_dice_come_from_the_seed_alone() -> None:
    assert dice_seed(Chance(7, SALT)) == 7


def test_with_contributions_the_dice_seed_is_the_documented_hash() -> None:
    # SHA-256(seed 8 bytes big-endian || 11 x 32 || 22 x 32) =
    # 04ad9c788998f609 00b9f893..., whose first 8 bytes are the dice seed
    assert dice_seed(Chance(7, SALT, GIVEN)) == 0x04AD9C788998F609


def test_a_missing_contribution_draws_no_dice() -> None:
    with pytest.raises(ValueError, match="has not contributed"):
        dice_seed(Chance(7, SALT, (GIVEN[0], "")))


def test_a_chance_without_contributions_encodes_as_before() -> None:
    assert msgspec.json.encode(Chance(7, SALT)) == b'{"seed":7,"salt":"' + SALT.encode() + b'"}'
    assert b'"contributions":["11' in msgspec.json.encode(Chance(7, SALT, GIVEN))


def test_a_contribution_is_64_lower_case_hex_digits_or_empty() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(
            b'{"seed":7,"salt":"' + SALT.encode() + b'","contributions":["AB"]}', type=Chance
        )


def settings_and_chance(chance: Chance) -> TilesSettings:
    ruleset = load_ruleset("tiles-d6")
    default = ruleset.settings_type()
    table = ruleset.table(default)
    secret = msgspec.structs.replace(table, seed=0, chance=chance_commitment(chance))
    settings: TilesSettings = ruleset.with_table(default, secret)
    return settings


def bots_match(chance: Chance) -> tuple[TilesSettings, bytes]:
    settings = settings_and_chance(chance)
    bots = {seat: load_ruleset("tiles-d6").bots["random"](seat) for seat in (1, 2)}
    log, _ = play_match(settings, bots, chance)
    return settings, encode_log(log)


def test_a_match_played_from_contributions_verifies_and_reads_back_byte_for_byte() -> None:
    _, data = bots_match(Chance(7, SALT, GIVEN))
    assert b'"contributions":["' + GIVEN[0].encode() in data.splitlines()[-1]
    log = decode_log(data)
    assert log.chance == Chance(7, SALT, GIVEN)
    assert encode_log(log) == data
    assert verify(log).ok


def test_verify_fails_when_a_contribution_was_altered() -> None:
    _, data = bots_match(Chance(7, SALT, GIVEN))
    # A fixed other contribution: a fresh one at random rolls the same roll-off now and then,
    # and the rules then differ at a later entry.
    altered = data.replace(GIVEN[1].encode(), b"44" * 32)
    # the end record still opens the header's commitment (the seed and salt are unchanged)
    result = verify(decode_log(altered))
    assert not result.ok and result.code == "rules_differ" and result.entry == 1


def test_verify_fails_when_a_seat_s_contribution_is_missing() -> None:
    _, data = bots_match(Chance(7, SALT, GIVEN))
    log = decode_log(data)
    assert log.chance is not None
    short = msgspec.structs.replace(log.chance, contributions=GIVEN[:1])
    result = verify(msgspec.structs.replace(log, chance=short))
    assert result.code == "bad_chance"
    assert result.problem == "the chance has 1 contributions, but the match has 2 seats"


def test_the_writer_keeps_each_contribution_beside_the_log_until_the_end(tmp_path: Path) -> None:
    chance = Chance(7, SALT)
    settings = settings_and_chance(chance)
    path = tmp_path / "match.jsonl"
    with LogWriter.create(path, settings, chance) as writer:
        writer.contribute(2, 2, GIVEN[1])
        with pytest.raises(ValueError, match="seat 2 has contributed"):
            writer.contribute(2, 2, GIVEN[0])
        with pytest.raises(ValueError, match="64 lower-case hex digits"):
            writer.contribute(1, 2, "AB")
        with pytest.raises(ValueError, match="no seat 3"):
            writer.contribute(3, 2, GIVEN[0])
    # killed here, and resumed: the contribution is read back from the chance file
    writer, log = LogWriter.resume(path)
    with writer:
        assert log.chance == Chance(7, SALT, ("", GIVEN[1]))
        chance = writer.contribute(1, 2, GIVEN[0])
        assert chance == Chance(7, SALT, GIVEN)
        ruleset = load_ruleset("tiles-d6")
        state = ruleset.initial_state(settings, chance)
        command = ruleset.legal_commands(state, ruleset.to_act(state)[0])[0]
        events, _ = ruleset.decide(command, state)
        writer.append(command, events)
        with pytest.raises(ValueError, match="has begun"):
            writer.contribute(1, 2, GIVEN[0])
    assert read_log(path).entries[0].events == events


def test_a_public_chance_takes_no_contribution(tmp_path: Path) -> None:
    settings = load_ruleset("tiles-d6").settings_type()
    with (
        LogWriter.create(tmp_path / "match.jsonl", settings) as writer,
        pytest.raises(ValueError, match="public"),
    ):
        writer.contribute(1, 2, GIVEN[0])


@pytest.mark.parametrize("game", ["multiversus", "sealed-bids", "tiles-d6", "worlds-collide"])
def test_every_game_draws_its_dice_from_the_seed_and_every_contribution(game: str) -> None:
    # a game that drew from the seed alone would verify with any contributions;
    # fixed contributions, since a short match's few dice can come out the same
    # under another contribution by chance (Sealed Bids rolls three d6)
    ruleset = load_ruleset(game)
    default = ruleset.settings_type()
    seats = len(ruleset.table(default).players)
    given = tuple(str(seat) * 64 for seat in range(1, seats + 1))
    chance = Chance(11, SALT, given)
    table = msgspec.structs.replace(
        ruleset.table(default), seed=0, chance=chance_commitment(chance)
    )
    settings = ruleset.with_table(default, table)
    bots = {seat: ruleset.bots["random"](seat) for seat in range(1, seats + 1)}
    log, _ = play_match(settings, bots, chance)
    assert verify(log).ok
    for seat in range(seats):
        changed = tuple("ab" * 32 if s == seat else c for s, c in enumerate(given))
        altered = msgspec.structs.replace(chance, contributions=changed)
        result = verify(msgspec.structs.replace(log, chance=altered))
        assert result.code == "rules_differ", f"seat {seat + 1}'s contribution is not drawn from"
