"""Terminal safety: names from files reach the screen neutralised, in every command.

A player name in a log's header, a team, unit or figure name, a file name:
any may hold terminal escape sequences, carriage returns, newlines, bidi
overrides or rich markup. Every command prints them through
:func:`multiversus_core.engine.text.printable`: each unprintable character as its
visible escape, and never read as markup.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from msgspec.structs import replace
from rich.console import Console
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_cli.render import render_units
from multiversus_core import MatchSettings, start_match
from multiversus_core.engine.log import read_log
from multiversus_core.engine.text import printable
from tests.positions import at
from tests.support import SETTINGS, set_up

HOSTILE = "Eve\x1b[31m\x1b]0;pwned\x07[bold red]loud[/]\r\nOK\u202egnp"
"""An escape sequence, an OSC title change, rich markup, CR LF and a bidi override."""
SHOWN = "Eve\\x1b[31m\\x1b]0;pwned\\x07[bold red]loud[/]\\x0d\\x0aOK\\u202egnp"
"""How it is printed."""


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def assert_neutralised(output: str) -> None:
    """No escape, control or bidi character is printed, and the name shows as written."""
    assert "\x1b" not in output and "\x07" not in output and "\r" not in output
    assert "\u202e" not in output
    assert SHOWN in output


def test_printable_escapes_every_control_format_and_separator_character() -> None:
    assert printable(HOSTILE) == SHOWN
    assert printable("Town Militia 3") == "Town Militia 3"
    assert printable("\t\x00\x7f\x9b\u2028\u200b\U000e0001") == (
        "\\x09\\x00\\x7f\\x9b\\u2028\\u200b\\U000e0001"
    )
    assert printable(printable(HOSTILE)) == SHOWN  # idempotent


@pytest.fixture(scope="module")
def hostile_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished bot match whose header names a hostile player, in a hostile file name."""
    folder = tmp_path_factory.mktemp("names")
    log = folder / "[red]match\x1b[2J.jsonl"
    result = run(
        "play", "--player1", "bot", "--player2", "bot", "--seed", "5", "--bot-seed", "5",
        "--seeded-salts",
        "--name1", HOSTILE, "--log", str(log),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert_neutralised(result.output)
    assert "[red]match\\x1b[2J.jsonl" in result.output
    assert read_log(log).header.settings.players[0] == HOSTILE
    return log


def test_play_prints_a_hostile_player_name_and_log_name_neutralised(hostile_log: Path) -> None:
    pass  # the fixture plays the match and checks its output


def test_replay_prints_the_hostile_name_from_the_log_header_neutralised(
    hostile_log: Path,
) -> None:
    result = run("replay", str(hostile_log), "--to", "3")
    assert result.exit_code == 0, result.output
    assert_neutralised(result.output)


def test_replay_errors_print_a_hostile_file_name_neutralised(tmp_path: Path) -> None:
    bad = tmp_path / "bad[bold]\x1b[31m\n.jsonl"
    bad.write_text("not a log\n")
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert "\x1b" not in result.output
    assert "bad[bold]\\x1b[31m\\x0a.jsonl" in result.output


def test_verify_prints_hostile_file_names_neutralised(hostile_log: Path, tmp_path: Path) -> None:
    wide = CliRunner().invoke(app, ["verify", str(hostile_log)], env={"COLUMNS": "500"})
    assert wide.exit_code == 0, wide.output
    assert "\x1b" not in wide.output
    assert "[red]match\\x1b[2J.jsonl" in wide.output  # the file column, not folded
    broken = tmp_path / "[bold red]x\x1b[31m.jsonl"
    broken.write_bytes(hostile_log.read_bytes()[:-40])
    result = run("verify", str(broken))
    assert result.exit_code == 1
    assert "\x1b" not in result.output
    (failure,) = [line for line in result.output.splitlines() if "x1b[31m.jsonl: " in line]
    assert failure.count("x1b[31m.jsonl") == 1  # named once, then the entry and the reason
    assert "/[bold red]x\\x1b[31m.jsonl: " in failure


def test_diff_prints_hostile_player_names_neutralised(hostile_log: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    played = run(
        "play", "--player1", "bot", "--player2", "bot", "--seed", "5", "--bot-seed", "5",
        "--seeded-salts",
        "--name1", "Ann", "--log", str(other), "--quiet",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    result = run("diff", str(hostile_log), str(other))
    assert result.exit_code == 1, result.output
    assert "The settings differ: players." in result.output
    assert "\x1b" not in result.output and "\r" not in result.output
    assert "\u202e" not in result.output


def test_play_resume_prints_the_hostile_name_from_the_log_neutralised(tmp_path: Path) -> None:
    log = tmp_path / "cut.jsonl"
    played = run(
        "play", "--player1", "bot", "--player2", "bot", "--seed", "9", "--seeded-salts",
        "--name2", HOSTILE, "--log", str(log), "--quiet",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    result = run("play", "--resume", str(log), "--player1", "bot", "--player2", "bot")
    assert result.exit_code == 0, result.output
    assert_neutralised(result.output)


def test_units_and_figures_named_in_a_log_are_rendered_neutralised() -> None:
    """Replay folds a log's own events, so unit and figure names may come from the file."""
    state = set_up(replace(SETTINGS, players=(HOSTILE, "Bob")))
    units = {u.id: {"name": HOSTILE} for u in state.units}
    figures = {f.id: {"name": HOSTILE} for f in state.figures}
    state = at(state, f"units={json.dumps(units)} figures={json.dumps(figures)}")
    console = Console(width=400, record=True, highlight=False, soft_wrap=True)
    console.print(render_units(state, None))
    assert_neutralised(console.export_text())


def test_teams_validate_prints_a_hostile_file_name_and_field_neutralised(tmp_path: Path) -> None:
    sheet = tmp_path / "[bold red]\x1b[31m.toml"
    sheet.write_text('id = "x"\nname = "\\u001b[31mRed\\u202e"\nside = "heroes"\nunits = []\n')
    result = run("teams", "validate", str(sheet))
    assert result.exit_code == 1
    # Both its problems, each on its line, neither letting a control character through.
    name, units = result.output.strip().splitlines()
    assert not any(c in name + units for c in "\x1b\u202e")
    assert "/[bold red]\\x1b[31m.toml: name: holds the control or format character" in name
    assert units.endswith("/[bold red]\\x1b[31m.toml: units: a team needs at least one unit")


def test_settings_keep_names_as_given() -> None:
    """Neutralising is for the screen only: the log keeps the name as the player typed it."""
    assert start_match(MatchSettings(players=(HOSTILE, "Bob"))).settings.players[0] == HOSTILE
