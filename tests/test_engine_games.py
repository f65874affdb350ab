"""Logs, replay and verify for any game: the engine reads the game from the log's header.

Sealed Bids (three seats, simultaneous sealed bids, a die) stands for every
game that is not Multiversus; a third game is installed here the way another
package would offer one, through the ``multiversus.rulesets`` entry point group.
"""

from __future__ import annotations

import hashlib
import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core.engine.chance import Chance
from multiversus_core.engine.errors import LogError, UnknownGameError
from multiversus_core.engine.log import (
    LogWriter,
    MatchLog,
    decode_log,
    encode_log,
    read_log,
    replay,
)
from multiversus_core.engine.play import play_match
from multiversus_core.engine.registry import game_ids, load_ruleset, ruleset_of
from multiversus_core.engine.ruleset import with_secret_chance
from multiversus_core.engine.verify import verify, verify_data
from multiversus_core.rulesets.sealed_bids import RULESET, SealedBidsSettings
from tests.packages import installed

REPLAYS = Path(__file__).parent.parent / "replays"


def _played(
    settings: SealedBidsSettings | None = None, chance: Chance | None = None, seed: int = 7
) -> tuple[MatchLog, object]:
    bots = {seat: RULESET.bots["greedy"](seed + seat) for seat in (1, 2, 3)}
    return play_match(settings or SealedBidsSettings(seed=seed), bots, chance)


def _secret_chance() -> tuple[SealedBidsSettings, Chance]:
    return with_secret_chance(RULESET, SealedBidsSettings(salts="secrets"))


def test_a_log_names_its_game_and_rules_version_and_reads_back_byte_for_byte() -> None:
    log, state = _played()
    data = encode_log(log)
    header = data.split(b"\n", 1)[0]
    assert header.endswith(b',"game":"sealed-bids","rules":1}')
    read = decode_log(data)
    assert read == log and read.game == "sealed-bids" and read.finished
    assert encode_log(read) == data
    assert replay(read) == state


def test_a_multiversus_log_names_no_game_so_its_bytes_are_as_before() -> None:
    for path in sorted(REPLAYS.glob("*.jsonl")):
        data = path.read_bytes()
        log = decode_log(data, str(path))
        assert log.game == "multiversus"
        assert b'"game"' not in data.split(b"\n", 1)[0]
        assert encode_log(log) == data


def test_a_header_naming_multiversus_is_not_canonical() -> None:
    data = (REPLAYS / "banner-knight--smogon--standard.jsonl").read_bytes()
    header, rest = data.split(b"\n", 1)
    named = header[:-1] + b',"game":"multiversus"}\n' + rest
    with pytest.raises(LogError) as caught:
        decode_log(named)
    assert (caught.value.line, caught.value.code) == (1, "not_canonical")


def test_an_unknown_game_is_a_one_line_error_naming_it_and_the_games() -> None:
    data = encode_log(_played()[0]).replace(b'"game":"sealed-bids"', b'"game":"go-fish"', 1)
    with pytest.raises(LogError) as caught:
        decode_log(data, "match.jsonl")
    error = caught.value
    assert (error.line, error.code) == (1, "unknown_game")
    assert "'go-fish'" in error.reason and "multiversus, sealed-bids" in error.reason
    assert "\n" not in str(error)
    with pytest.raises(UnknownGameError, match="unknown game 'go-fish'"):
        load_ruleset("go-fish")


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        ((b'"rules":1', b'"rules":2'), "newer_version"),
        ((b'"version":4', b'"version":3'), "bad_version"),
        ((b'"game":"sealed-bids"', b'"game":7'), "wrong_type"),
        ((b'"seq":2', b'"seq":3'), "bad_seq"),
        ((b'"token":', b'"token":9,"x":'), "unknown_field"),
    ],
)
def test_a_log_of_another_game_is_read_as_strictly_as_multiversus(
    edit: tuple[bytes, bytes], code: str
) -> None:
    data = encode_log(_played()[0])
    assert edit[0] in data
    with pytest.raises(LogError) as caught:
        decode_log(data.replace(*edit, 1))
    assert caught.value.code == code


def test_the_game_of_settings_is_found_by_their_type() -> None:
    assert ruleset_of(SealedBidsSettings()) is RULESET
    with pytest.raises(UnknownGameError, match="no installed game has settings"):
        ruleset_of(Chance(seed=1, salt="0" * 64))


def test_a_log_of_another_game_is_written_resumed_and_sealed_with_its_secret_chance(
    tmp_path: Path,
) -> None:
    settings, chance = _secret_chance()
    whole, _ = _played(settings, chance)
    path = tmp_path / "bids.jsonl"
    with LogWriter.create(path, settings, chance) as writer:
        for entry in whole.entries[:5]:
            writer.append(entry.command, entry.events)
    assert (tmp_path / "bids.jsonl.chance").exists()
    writer, so_far = LogWriter.resume(path)
    assert so_far.chance == chance and not so_far.finished
    with writer:
        for entry in whole.entries[5:]:
            writer.append(entry.command, entry.events)
    assert path.read_bytes() == encode_log(whole)
    assert not (tmp_path / "bids.jsonl.chance").exists()
    assert read_log(path).chance == chance


def test_verify_reruns_the_rules_of_the_log_s_game() -> None:
    settings, chance = _secret_chance()
    log, _ = _played(settings, chance)
    result = verify(log)
    assert (result.ok, result.finished, result.chance, result.salts) == (
        True,
        True,
        "secret",
        "secrets",
    )
    # before the end: the dice are taken as recorded
    unfinished = msgspec.structs.replace(log, entries=log.entries[:8], chance=None)
    assert verify(unfinished).ok


def test_verify_names_the_entry_where_another_game_s_rules_differ() -> None:
    log, _ = _played()
    # the first prize roll, recorded as another face than the seed gives
    number, entry = next(
        (n, e)
        for n, e in enumerate(log.entries, start=1)
        if any(type(event).__name__ == "PrizeRolled" for event in e.events)
    )
    events = tuple(
        msgspec.structs.replace(event, die=event.die % 6 + 1)
        if type(event).__name__ == "PrizeRolled"
        else event
        for event in entry.events
    )
    entries = list(log.entries)
    entries[number - 1] = msgspec.structs.replace(entry, events=events)
    result = verify_data(encode_log(msgspec.structs.replace(log, entries=tuple(entries))))
    assert (result.ok, result.code, result.entry) == (False, "rules_differ", number)
    assert result.problem is not None
    assert result.problem.startswith(f"entry {number} (line {number + 1}), round 1")
    assert (result.round, result.turn) == (None, None)


def test_verify_names_a_reveal_that_does_not_open_another_game_s_commitment() -> None:
    log, _ = _played(SealedBidsSettings(seed=3, salts="secrets"))
    number, entry = next(
        (n, e)
        for n, e in enumerate(log.entries, start=1)
        if any(type(event).__name__ == "BidsRevealed" for event in e.events)
    )
    events = []
    for event in entry.events:
        if type(event).__name__ == "BidsRevealed":
            first = msgspec.structs.replace(event.bids[0], salt="1" * 64)
            event = msgspec.structs.replace(event, bids=(first, *event.bids[1:]))
        events.append(event)
    entries = list(log.entries)
    entries[number - 1] = msgspec.structs.replace(entry, events=tuple(events))
    result = verify(msgspec.structs.replace(log, entries=tuple(entries)))
    assert (result.ok, result.code, result.entry) == (False, "reveal_mismatch", number)


# --- a game from another package ----------------------------------------------------------

_PACKAGE = '''
"""A third-party game: Sealed Bids under another name, with settings of its own."""

from multiversus_core.rulesets.sealed_bids import SealedBidsSettings
from multiversus_core.rulesets.sealed_bids.ruleset import SealedBidsRuleset


class BidsAgainSettings(SealedBidsSettings, frozen=True):
    """The same settings, a type of the game's own."""


class BidsAgain(SealedBidsRuleset):
    @property
    def id(self) -> str:
        return "bids-again"

    @property
    def settings_type(self) -> type[BidsAgainSettings]:
        return BidsAgainSettings


RULESET = BidsAgain()
'''

_PRESENTER = '''
"""The looks of bids-again: the plain transcript, shouted, and a picture of the scores."""

from multiversus_cli.presenters import Plain


class Loud(Plain):
    def entry(self, folded, number, viewer):
        head, lines = super().entry(folded, number, viewer)
        return head.upper(), lines

    def picture(self, folded, viewer, to):
        scores = folded.states[to].scores
        return f"<svg><text>{' '.join(map(str, scores))}</text></svg>"


PRESENTER = Loud()
'''


@pytest.fixture
def third_party(tmp_path: Path) -> Iterator[Path]:
    """A package offering the game ``bids-again`` through the entry point group."""
    points = {
        "multiversus.rulesets": {"bids-again": "bids_again:RULESET"},
        "multiversus.presenters": {"bids-again": "bids_again_looks:PRESENTER"},
    }
    modules = {
        "bids_again": textwrap.dedent(_PACKAGE),
        "bids_again_looks": textwrap.dedent(_PRESENTER),
    }
    with installed(tmp_path, "bids-again", points, modules):
        yield tmp_path


def test_a_game_from_another_package_is_found_through_the_entry_point_group(
    third_party: Path,
) -> None:
    assert "bids-again" in game_ids()
    ruleset = load_ruleset("bids-again")
    settings = ruleset.settings_type(seed=5)
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, state = play_match(settings, bots)
    path = third_party / "match.jsonl"
    path.write_bytes(encode_log(log))
    assert b'"game":"bids-again"' in path.read_bytes().split(b"\n", 1)[0]
    read = read_log(path)
    assert read.game == "bids-again" and replay(read) == state
    assert verify(read).ok


def test_the_commands_play_verify_and_replay_a_game_from_another_package(
    third_party: Path,
) -> None:
    runner = CliRunner()
    log = third_party / "cli.jsonl"
    played = runner.invoke(
        app,
        ["play", "--game", "bids-again", "--players", "random,greedy,mcts", "--log", str(log)],
    )
    assert played.exit_code == 0, played.output
    assert "The match is over: " in played.output
    assert read_log(log).game == "bids-again"
    verified = runner.invoke(app, ["verify", str(log)], env={"COLUMNS": "120"})
    assert verified.exit_code == 0, verified.output
    assert "1 of 1 logs passed" in verified.output
    replayed = runner.invoke(app, ["replay", str(log), "--as", "seat-1"])
    assert replayed.exit_code == 0, replayed.output
    assert "After entry " in replayed.output
    assert "1. [ROUND 1" in replayed.output  # its own presenter tells the entries
    picture = runner.invoke(app, ["replay", str(log), "--format", "svg"])
    assert picture.exit_code == 0, picture.output
    assert picture.output.startswith("<svg><text>")
    listed = runner.invoke(app, ["games", "--format", "json"])
    assert {"id": "bids-again", "source": "package (bids_again:RULESET)"}.items() <= next(
        game for game in json.loads(listed.output) if game["id"] == "bids-again"
    ).items()


# --- a game that draws through its renderer alone ---------------------------------------------

_DRAWN = '''
"""Sealed Bids with a board of its scores, drawn by a renderer, and no presenter."""

from multiversus_core.rulesets.sealed_bids import SealedBidsSettings
from multiversus_core.rulesets.sealed_bids.ruleset import SealedBidsRuleset


class BidsDrawnSettings(SealedBidsSettings, frozen=True):
    """The same settings, a type of the game's own."""


class Scores:
    def board_svg(self, view):
        scores = " ".join(map(str, view.public.scores))
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{scores}</text></svg>'

    def board_text(self, view):
        return "Scores: " + " ".join(map(str, view.public.scores))

    def command_words(self, command, view):
        return f"offer {command.token}" if hasattr(command, "token") else "roll"


class BidsDrawn(SealedBidsRuleset):
    id = "bids-drawn"
    settings_type = BidsDrawnSettings
    renderer = Scores()


RULESET = BidsDrawn()
'''


def test_a_game_with_a_renderer_and_no_presenter_is_drawn_and_told_by_its_renderer(
    tmp_path: Path,
) -> None:
    points = {"multiversus.rulesets": {"bids-drawn": "bids_drawn:RULESET"}}
    with installed(tmp_path, "bids-drawn", points, {"bids_drawn": textwrap.dedent(_DRAWN)}):
        runner = CliRunner()
        log = tmp_path / "drawn.jsonl"
        words = ["play", "--game", "bids-drawn", "--log", str(log), "--seed", "4"]
        played = runner.invoke(app, [*words, "--players", "human,random,random"], input="5\nq\n")
        assert played.exit_code == 0, played.output
        assert "  5. offer 5" in played.output  # the menu in the renderer's words
        ruleset = load_ruleset("bids-drawn")
        state = replay(read_log(log))
        scores = " ".join(map(str, state.scores))
        picture = runner.invoke(app, ["replay", str(log), "--format", "svg", "--as", "seat-2"])
        assert picture.exit_code == 0, picture.output
        assert picture.output.endswith(f"<text>{scores}</text></svg>")
        board = runner.invoke(app, ["replay", str(log), "--as", "seat-1", "--format", "text"])
        assert board.exit_code == 0, board.output
        assert f"Scores: {scores}" in board.output
        refused = runner.invoke(app, ["replay", str(log), "--format", "svg", "--as", "referee"])
        assert refused.exit_code == 2
        assert ruleset.title in refused.output


# --- a game's older logs: upcast by the steps its ruleset lists ----------------------------

_VERSION_2 = '''
"""Sealed Bids at rules version 2, whose step from version 1 names the players anew."""

import msgspec

from multiversus_core.engine.records import Upcast
from multiversus_core.rulesets.sealed_bids import SealedBidsSettings
from multiversus_core.rulesets.sealed_bids.ruleset import SealedBidsRuleset


class BidsTwoSettings(SealedBidsSettings, frozen=True):
    """The same settings, a type of the game's own."""


def _one_to_two(header, entries):
    settings = header.settings
    players = tuple(name.upper() for name in settings.players)
    settings = msgspec.structs.replace(settings, players=players)
    return msgspec.structs.replace(header, rules=2, settings=settings), entries


class BidsTwo(SealedBidsRuleset):
    id = "bids-two"
    rules_version = 2
    settings_type = BidsTwoSettings
    log_upcasts = {1: Upcast(_one_to_two)}


RULESET = BidsTwo()
'''


def _as_rules_version(data: bytes, rules: int) -> bytes:
    """A log rewritten as if written at another rules version, its chain made anew."""
    lines = data.split(b"\n")[:-1]
    header = json.loads(lines[0])
    header["rules"] = rules
    if rules == 0:
        del header["rules"]
    lines[0] = json.dumps(header, separators=(",", ":")).encode()
    for number in range(1, len(lines)):
        record = json.loads(lines[number])
        link = "prev" if record["record"] == "entry" else "head"
        record[link] = hashlib.sha256(lines[number - 1]).hexdigest()
        lines[number] = json.dumps(record, separators=(",", ":")).encode()
    return b"\n".join(lines) + b"\n"


@pytest.fixture
def rules_two(tmp_path: Path) -> Iterator[Path]:
    points = {"multiversus.rulesets": {"bids-two": "bids_two:RULESET"}}
    with installed(tmp_path, "bids-two", points, {"bids_two": textwrap.dedent(_VERSION_2)}):
        yield tmp_path


def test_a_log_of_an_older_rules_version_is_upcast_by_the_games_steps(rules_two: Path) -> None:
    ruleset = load_ruleset("bids-two")
    settings = ruleset.settings_type(seed=5)
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_match(settings, bots)
    current = encode_log(log)
    assert b'"rules":2' in current.split(b"\n", 1)[0]
    older = decode_log(_as_rules_version(current, 1))
    assert older.upcast_from == 1 and older.header.rules == 2
    assert older.header.settings.players == tuple(n.upper() for n in settings.players)
    assert older.entries == log.entries


def test_a_log_older_than_a_games_oldest_step_is_refused_naming_the_versions(
    rules_two: Path,
) -> None:
    ruleset = load_ruleset("bids-two")
    bots = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_match(ruleset.settings_type(seed=5), bots)
    with pytest.raises(LogError) as raised:
        decode_log(_as_rules_version(encode_log(log), 0))
    assert (raised.value.line, raised.value.code) == (1, "bad_version")
    assert "bids-two rules version 0; this engine reads versions 1 to 2" in raised.value.reason


def test_a_game_with_no_steps_reads_only_its_own_rules_version() -> None:
    bots = {seat: RULESET.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_match(SealedBidsSettings(seed=5), bots)
    with pytest.raises(LogError) as raised:
        decode_log(_as_rules_version(encode_log(log), 0))
    assert raised.value.code == "bad_version"
    assert "sealed-bids rules version 0; this engine reads version 1 only" in raised.value.reason


_OLD_PROTOCOL = '''
"""A ruleset written before the protocol gained log_upcasts."""

from multiversus_core.rulesets.sealed_bids.ruleset import SealedBidsRuleset


class Older(SealedBidsRuleset):
    id = "bids-old"

    def __getattribute__(self, name):
        if name == "log_upcasts":
            raise AttributeError(name)
        return super().__getattribute__(name)


RULESET = Older()
'''


def test_a_ruleset_lacking_a_protocol_member_is_refused_in_one_line_naming_it(
    tmp_path: Path,
) -> None:
    points = {"multiversus.rulesets": {"bids-old": "bids_old:RULESET"}}
    modules = {"bids_old": textwrap.dedent(_OLD_PROTOCOL)}
    with (
        installed(tmp_path, "bids-old", points, modules),
        pytest.raises(UnknownGameError) as raised,
    ):
        load_ruleset("bids-old")
    assert str(raised.value) == (
        "bids_old:RULESET is not a whole ruleset of the game 'bids-old': it lacks "
        "log_upcasts (see docs/engine.md)"
    )
