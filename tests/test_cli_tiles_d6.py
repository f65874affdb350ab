"""Every generic command on tiles-d6, through its presenter: replay in the terminal (text,
board, stepping by round), as HTML and SVG, as a seat's view log; verify; diff; simulate with
its bots."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from tests.cli_checks import verifies_and_agrees_with_itself, view_log_round_trip

GOLDEN = (
    Path(__file__).resolve().parent.parent
    / "replays"
    / "tiles-d6"
    / "keep-guard--marsh-raiders--wipe-out.jsonl"
)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "140"})


def test_replay_tells_the_match_in_the_game_s_words_and_draws_its_board() -> None:
    result = invoke("replay", str(GOLDEN), "--to", "30")
    assert result.exit_code == 0, result.output
    assert "[set-up]" in result.stdout and "is placed on" in result.stdout
    board = invoke("replay", str(GOLDEN), "--format", "board", "--to", "30")
    assert board.exit_code == 0, board.output
    assert "brambles: leaving it rolls" in board.stdout  # the map's legend
    assert "A-E  Bot 1's units (seat 1)" in board.stdout
    assert "health" in board.stdout and "posture" in board.stdout


def test_replay_as_html_and_svg_draws_the_tiles(tmp_path: Path) -> None:
    page = tmp_path / "match.html"
    result = invoke("replay", str(GOLDEN), "--format", "html", "--out", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert 'svg xmlns=\\"http://www.w3.org/2000/svg\\"' in text  # the boards, in the page's pool
    assert "brambles" in text
    assert "https://" not in text and text.count("http://") == text.count("http://www.w3.org/")
    svg = invoke("replay", str(GOLDEN), "--format", "svg", "--to", "40")
    assert svg.exit_code == 0, svg.output
    root = ET.fromstring(svg.stdout)
    assert root.tag.endswith("svg")


def test_a_seat_s_view_log_verifies_and_replays(tmp_path: Path) -> None:
    view_log_round_trip(invoke, GOLDEN, tmp_path)


def test_verify_and_diff_of_a_golden_and_itself() -> None:
    verifies_and_agrees_with_itself(invoke, GOLDEN)


def test_simulate_plays_the_heuristic_against_random() -> None:
    result = invoke(
        "simulate", "--game", "tiles-d6", "--players", "heuristic,random", "--matches", "2"
    )
    assert result.exit_code == 0, result.output
    assert "4 of 4 matches of tiles-d6" in result.stdout
    assert "heuristic" in result.stdout
