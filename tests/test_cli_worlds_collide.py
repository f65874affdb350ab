"""Every generic command on worlds-collide, through its presenter: replay in the terminal
(text, board, stepping by round), as HTML and SVG, as a seat's view log; verify; diff;
simulate with its bots."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_cli.presenters import BUNDLED, presenter_for
from multiversus_cli.presenters.worlds_collide import PRESENTER
from tests.cli_checks import verifies_and_agrees_with_itself, view_log_round_trip

REPLAYS = Path(__file__).resolve().parent.parent / "replays" / "worlds-collide"
GOLDENS = sorted(REPLAYS.glob("*.jsonl"))
IDS = [path.stem for path in GOLDENS]
GOLDEN = REPLAYS / "iron-legion--wyldfae--re-roll.jsonl"


def invoke(*args: str, columns: int = 140) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})


def test_the_game_has_its_own_presenter() -> None:
    assert BUNDLED["worlds-collide"] == "multiversus_cli.presenters.worlds_collide:PRESENTER"
    assert presenter_for("worlds-collide") is PRESENTER


@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_replay_tells_each_golden_in_the_game_s_words_and_draws_its_board(path: Path) -> None:
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "1. [the deployment roll-off] Bot 1: roll off for deployment" in text
    assert "[round 1, turn 1]" in text and "[round 5, turn " in text
    assert "The match is over: " in text
    assert "Collision Point: the match is over after round 5" in text or "no models left" in text
    assert "ruin, level 1: blocks sight;" in text  # the legend
    assert "AP," in text and "VP" in text


@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_replay_as_html_and_svg_draws_the_map(path: Path, tmp_path: Path) -> None:
    page = tmp_path / "match.html"
    result = invoke("replay", str(path), "--format", "html", "--out", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert 'svg xmlns=\\"http://www.w3.org/2000/svg\\"' in text  # the boards, in the page's pool
    assert "wc-square" in text and "worlds-collide replay: Bot 1 v Bot 2" in text
    assert "https://" not in text and text.count("http://") == text.count("http://www.w3.org/")
    svg = invoke("replay", str(path), "--format", "svg", "--to", "60")
    assert svg.exit_code == 0, svg.output
    root = ET.fromstring(svg.stdout)
    assert root.tag.endswith("svg")


def test_the_board_format_shows_the_board_alone_in_100_columns() -> None:
    board = invoke("replay", str(GOLDEN), "--format", "board", "--to", "40", columns=100)
    assert board.exit_code == 0, board.output
    text = board.stdout
    assert "Collision Point: round 1 of 5" in text
    assert "Environment, round 1: " in text
    assert "rows 1-3: Bot 1 deploys first" in text
    assert "Bot 1 (seat 1), Iron Legion: " in text and "Bot 2 (seat 2), Wyldfae: " in text
    assert not any(line.startswith(("1. ", "2. ")) for line in text.splitlines())
    # the map and its legend side by side, within 100 columns (prose lines wrap softly)
    rows = [line for line in text.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 17 and "low wall" in rows[0]
    assert all(len(row.rstrip()) <= 100 for row in rows)


def test_stepping_goes_by_rounds_and_turns() -> None:
    result = CliRunner().invoke(
        app,
        ["replay", str(GOLDEN), "--step"],
        input="r 2\nt\nt\nq\n",
        env={"COLUMNS": "140"},
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "[the start of round 2] Bot 1: roll for round 2" in text
    assert "[round 2, turn 1]" in text and "[round 2, turn 2]" in text


def test_a_seat_s_view_log_verifies_and_replays(tmp_path: Path) -> None:
    again = view_log_round_trip(invoke, GOLDEN, tmp_path)
    assert "[round 1, turn " in again.stdout


def test_verify_and_diff_of_a_golden_and_itself() -> None:
    verifies_and_agrees_with_itself(invoke, GOLDEN)


def test_simulate_plays_the_random_bot_against_itself() -> None:
    result = invoke(
        "simulate", "--game", "worlds-collide", "--players", "random,random", "--matches", "2"
    )
    assert result.exit_code == 0, result.output
    assert "2 of 2 matches of worlds-collide" in result.stdout
