"""``multiversus replay``: a bot match replayed as each viewer, without leaking hidden coins."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_core.events import CoinsSelected
from multiversus_core.log import read_log

VIEWERS = ("heroes", "adversaries", "spectator", "referee")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def bot_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished bot match, seed 7."""
    log = tmp_path_factory.mktemp("replay") / "bots.jsonl"
    result = run(
        "play", "--player1", "bot", "--player2", "bot", "--quiet", "--seed", "7", "--log", str(log)
    )
    assert result.exit_code == 0, result.output
    return log


def first_selection(log: Path) -> tuple[int, CoinsSelected]:
    """The 1-based entry of the first active coin selection, and its event."""
    for number, entry in enumerate(read_log(log).entries, start=1):
        for event in entry.events:
            if isinstance(event, CoinsSelected):
                return number, event
    raise AssertionError("no coin selection in the log")


def view_json(log: Path, viewer: str, to: int) -> Any:
    result = run("replay", str(log), "--as", viewer, "--to", str(to), "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_json_gives_the_view_at_an_entry_for_each_viewer(bot_log: Path, viewer: str) -> None:
    seen = view_json(bot_log, viewer, 10)
    assert seen["round"] >= 1
    if viewer == "referee":
        assert "viewer" not in seen  # the referee gets the state itself
    else:
        assert seen["viewer"] == viewer


def test_a_hidden_selection_is_hidden_from_the_spectator_and_the_opponent(bot_log: Path) -> None:
    number, selected = first_selection(bot_log)
    other = "adversaries" if selected.side == "heroes" else "heroes"
    referee = view_json(bot_log, "referee", number)
    assert referee["activation"]["coin"] == selected.coin
    own = view_json(bot_log, selected.side, number)
    assert own["activation"]["coin"] == selected.coin
    assert own[selected.side]["stash"] is not None
    for viewer in ("spectator", other):
        seen = view_json(bot_log, viewer, number)
        assert seen["activation"]["hidden"] is True
        assert seen["activation"]["coin"] is None
        assert seen["activation"]["unit"] is None
        assert seen[selected.side]["stash"] is None
        assert selected.coin not in json.dumps(seen["activation"])


def test_text_tells_each_entry_and_ends_with_the_board(bot_log: Path) -> None:
    number, _ = first_selection(bot_log)
    result = run("replay", str(bot_log), "--to", str(number + 3))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("1. [round 0, turn 0]")
    assert "The coin is flipped" in out
    assert "select their coins in secret" in out
    assert f"{number + 3}. [round 1" in out
    assert f"After entry {number + 3} of" in out
    assert "Tiles:" in out  # the board's legend


def entry_lines(output: str, number: int) -> list[str]:
    """The lines a text replay prints for one entry: its heading and its events."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{number}. ["))
    rest = lines[start + 1 :]
    end = next(i for i, line in enumerate(rest) if not line.startswith("   "))
    return [lines[start], *rest[:end]]


def test_text_tells_a_selection_only_to_its_own_side(bot_log: Path) -> None:
    number, selected = first_selection(bot_log)
    other = "adversaries" if selected.side == "heroes" else "heroes"
    own = run("replay", str(bot_log), "--as", selected.side, "--to", str(number))
    assert own.exit_code == 0, own.output
    told = entry_lines(own.output, number)
    assert "in secret" not in told[0]
    assert any("You select" in line for line in told[1:])
    for viewer in ("spectator", other):
        hidden = run("replay", str(bot_log), "--as", viewer, "--to", str(number))
        told = entry_lines(hidden.output, number)
        assert told[0].endswith("select coins in secret")
        assert told[1:] == [f"   The {selected.side.capitalize()} select their coins in secret."]


def test_the_whole_log_by_default_and_board_format(bot_log: Path) -> None:
    count = len(read_log(bot_log).entries)
    result = run("replay", str(bot_log))
    assert result.exit_code == 0, result.output
    assert f"After entry {count} of {count}, as the spectator" in result.output
    board = run("replay", str(bot_log), "--format", "board")
    assert board.exit_code == 0, board.output
    assert "The match is over" in board.output
    assert "1. [" not in board.output


@pytest.mark.parametrize("to", ["-1", "100000"])
def test_to_out_of_range_is_a_one_line_error(bot_log: Path, to: str) -> None:
    result = run("replay", str(bot_log), "--to", to)
    assert result.exit_code == 2
    assert "out of range" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_bad_log_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a log\n")
    for path in (bad, tmp_path / "missing.jsonl"):
        result = run("replay", str(path))
        assert result.exit_code == 2
        assert result.output.startswith("multiversus replay: ")
        assert len(result.output.strip().splitlines()) == 1
