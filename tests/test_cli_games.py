"""``multiversus games``: the games the engine plays, bundled and installed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core.engine.registry import load_ruleset
from tests.packages import installed


def test_games_lists_each_bundled_game_with_its_name_and_seats() -> None:
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines()]
    assert ["multiversus", "Multiversus", "2", "bundled"] in rows
    assert ["sealed-bids", "Sealed", "Bids", "3", "bundled"] in rows


def test_games_as_json_gives_one_object_a_game() -> None:
    result = CliRunner().invoke(app, ["games", "--format", "json"])
    assert result.exit_code == 0, result.output
    found = {game["id"]: game for game in json.loads(result.output)}
    assert found["sealed-bids"] == {
        "id": "sealed-bids",
        "title": "Sealed Bids",
        "seats": 3,
        "source": "bundled",
        "problem": None,
    }


@pytest.fixture
def broken_package(tmp_path: Path) -> Iterator[None]:
    """A package whose game's module cannot be imported, offered through the entry point."""
    points = {"multiversus.rulesets": {"broken": "no_such_module_here:RULESET"}}
    with installed(tmp_path, "broken-game", points):
        yield


@pytest.mark.usefixtures("broken_package")
def test_a_game_that_cannot_be_loaded_is_listed_with_why_and_exits_1() -> None:
    result = CliRunner().invoke(app, ["games", "--format", "json"])
    assert result.exit_code == 1
    (broken,) = [game for game in json.loads(result.output) if game["id"] == "broken"]
    assert broken["source"] == "package (no_such_module_here:RULESET)"
    assert "no_such_module_here" in broken["problem"]


def _bids_log(folder: Path, **settings: object) -> Path:
    from multiversus_core.engine.log import encode_log
    from multiversus_core.engine.play import play_match

    ruleset = load_ruleset("sealed-bids")
    log, _ = play_match(
        ruleset.settings_type(**{"seed": 4, **settings}),
        {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)},
    )
    path = folder / "bids.jsonl"
    path.write_bytes(encode_log(log))
    return path


def test_verify_checks_a_log_of_any_game(tmp_path: Path) -> None:
    path = _bids_log(tmp_path)
    verified = CliRunner().invoke(app, ["verify", str(path)], env={"COLUMNS": "100"})
    assert verified.exit_code == 0, verified.output
    assert "1 of 1 logs passed" in verified.output


def test_diff_tells_where_two_matches_of_another_game_part_ways(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = _bids_log(tmp_path / "a")
    b = _bids_log(tmp_path / "b", seed=5)
    runner = CliRunner()
    same = runner.invoke(app, ["diff", str(a), str(a)])
    assert same.exit_code == 0 and "The logs agree: " in same.output
    differ = runner.invoke(app, ["diff", str(a), str(b)], env={"COLUMNS": "200"})
    assert differ.exit_code == 1, differ.output
    assert "The settings differ: seed." in differ.output
    as_json = json.loads(runner.invoke(app, ["diff", str(a), str(b), "--format", "json"]).output)
    assert as_json["agree"] is False and as_json["settings_differences"] == ["seed"]
    assert (as_json["round"], as_json["turn"]) == (None, None)


def test_diff_of_two_games_says_there_is_nothing_to_compare(tmp_path: Path) -> None:
    golden = Path(__file__).parent.parent / "replays" / "banner-knight--smogon--standard.jsonl"
    result = CliRunner().invoke(
        app, ["diff", str(_bids_log(tmp_path)), str(golden)], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 2
    assert "A is a match of sealed-bids and B of multiversus" in result.output


def test_replay_tells_another_game_s_match_as_one_seat_knew_it(tmp_path: Path) -> None:
    path = _bids_log(tmp_path, salts="secrets")
    result = CliRunner().invoke(app, ["replay", str(path), "--as", "seat-2", "--to", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("1. [round 1")
    assert "After entry 2 of " in result.output and "as the seat-2" in result.output
    # the bids of seats 1 and 3 are sealed: seat 2 sees neither token nor salt of theirs
    view = json.loads(result.output[result.output.index("{") :])
    assert view == json.loads(
        CliRunner()
        .invoke(app, ["replay", str(path), "--as", "seat-2", "--to", "2", "--format", "json"])
        .output
    )


def test_replay_as_the_referee_shows_the_state_and_the_outcome(tmp_path: Path) -> None:
    path = _bids_log(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path), "--as", "referee"])
    assert result.exit_code == 0, result.output
    assert "The match is over: " in result.output


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--as", "heroes"], "--as heroes: the viewers of Sealed Bids are seat-1, seat-2"),
        (["--format", "svg"], "--format svg: Sealed Bids draws no picture of its board"),
        (["--as", "referee", "--format", "log"], "--format log writes one viewer's view: use"),
        (["--to", "99"], "--to 99 is out of range"),
    ],
)
def test_replay_of_another_game_refuses_what_it_cannot_show_in_one_line(
    tmp_path: Path, words: list[str], says: str
) -> None:
    path = _bids_log(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path), *words], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert says in result.output and len(result.output.strip().splitlines()) == 1


def test_replay_of_multiversus_names_its_viewers_for_an_unknown_one() -> None:
    golden = Path(__file__).parent.parent / "replays" / "banner-knight--smogon--standard.jsonl"
    result = CliRunner().invoke(app, ["replay", str(golden), "--as", "seat-1"])
    assert result.exit_code == 2
    assert (
        "--as seat-1: the viewers of Multiversus are heroes, adversaries, spectator, referee"
        in result.output
    )


def _bids_view_log(tmp_path: Path, viewer: str, *words: str) -> Path:
    """Seat ``viewer``'s view log of a sealed-bids match, written by ``replay --format log``."""
    path = _bids_log(tmp_path, salts="secrets")
    result = CliRunner().invoke(
        app, ["replay", str(path), "--as", viewer, "--format", "log", *words]
    )
    assert result.exit_code == 0, result.output
    view = tmp_path / f"{viewer}.jsonl"
    view.write_bytes(result.stdout_bytes)
    return view


def test_a_view_log_of_another_game_is_written_verified_and_cross_checked(
    tmp_path: Path,
) -> None:
    view = _bids_view_log(tmp_path, "seat-2")
    header = json.loads(view.read_bytes().splitlines()[0])
    assert (header["record"], header["game"], header["viewer"]) == ("view", "sealed-bids", "seat-2")
    verified = CliRunner().invoke(app, ["verify", str(view), "--format", "json"])
    assert verified.exit_code == 0, verified.output
    (result,) = json.loads(verified.output)
    assert (result["ok"], result["view"], result["finished"]) == (True, "seat-2", True)
    match_log = tmp_path / "bids.jsonl"
    crossed = CliRunner().invoke(
        app, ["verify", str(match_log), "--against", str(view), "--format", "json"]
    )
    assert crossed.exit_code == 0, crossed.output
    assert [r["ok"] for r in json.loads(crossed.output)] == [True, True]


def test_a_rewritten_bid_in_the_match_log_is_caught_by_another_seat_s_view_log(
    tmp_path: Path,
) -> None:
    from multiversus_core.engine.log import decode_log, encode_log

    view = _bids_view_log(tmp_path, "seat-2")
    path = tmp_path / "bids.jsonl"
    log = decode_log(path.read_bytes())
    # Seat 1's first bid, commitment and all, rewritten as a forger holding the log would.
    first = log.entries[0]
    (bid,) = first.events[:1]
    forged = msgspec.structs.replace(bid, commitment="f" * 64)
    entries = (msgspec.structs.replace(first, events=(forged, *first.events[1:])), *log.entries[1:])
    path.write_bytes(encode_log(msgspec.structs.replace(log, entries=entries)))
    crossed = CliRunner().invoke(
        app, ["verify", str(path), "--against", str(view), "--format", "json"]
    )
    assert crossed.exit_code == 1
    results = json.loads(crossed.output)
    assert results[1]["code"] == "views_differ" and results[1]["entry"] == 1


def test_a_view_log_of_another_game_replays_as_its_seat_or_the_public_only(
    tmp_path: Path,
) -> None:
    view = _bids_view_log(tmp_path, "seat-2", "--to", "4")
    own = CliRunner().invoke(app, ["replay", str(view)])
    assert own.exit_code == 0, own.output
    assert "After entry 4 of 4, as the seat-2:" in own.output
    public = CliRunner().invoke(app, ["replay", str(view), "--as", "spectator"])
    assert public.exit_code == 0, public.output
    other = CliRunner().invoke(app, ["replay", str(view), "--as", "seat-1"])
    assert other.exit_code == 2
    assert "this is the seat-2's view log, which holds only what the seat-2 saw" in other.output


def test_stepping_through_another_game_s_match_goes_by_entry_and_says_it_has_no_rounds(
    tmp_path: Path,
) -> None:
    path = _bids_log(tmp_path)
    result = CliRunner().invoke(
        app, ["replay", str(path), "--as", "seat-1", "--step"], input="n\nr 1\ng 3\nb\nq\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Stepping through 12 entries as the seat-1. Type h for help.")
    assert "\n1. [round 1" in out and "\n3. [round 1" in out
    assert "A match of Sealed Bids is not stepped by rounds and turns: use n, p or g." in out
    assert "Entry 3 of 12 (h for help): " in out


def test_the_board_format_shows_another_game_s_view_and_its_outcome(tmp_path: Path) -> None:
    path = _bids_log(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path), "--format", "board"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("The match is over: ")
    assert json.loads(result.output[result.output.index("{") :])["viewer"] == "spectator"
