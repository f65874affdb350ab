"""``multiversus play --game ID``: a match of any game, people and bots at its seats."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core.engine.log import read_log
from multiversus_core.engine.verify import verify_file


def test_bots_play_a_whole_match_of_another_game_and_its_log_verifies(tmp_path: Path) -> None:
    log = tmp_path / "bids.jsonl"
    words = ["play", "--game", "sealed-bids", "--players", "random,greedy,mcts", "--log", str(log)]
    result = CliRunner().invoke(app, [*words, "--bot-seed", "5"])
    assert result.exit_code == 0, result.output
    assert "The match is over: " in result.output
    read = read_log(log)
    assert read.game == "sealed-bids" and read.finished
    assert read.header.settings.salts == "secrets" and read.chance is not None  # secret chance
    assert verify_file(log).ok


def test_a_person_chooses_by_number_and_other_seats_bids_stay_sealed(tmp_path: Path) -> None:
    log = tmp_path / "bids.jsonl"
    words = ["play", "--game", "sealed-bids", "--log", str(log), "--seed", "4"]
    result = CliRunner().invoke(app, [*words, "--names", "Ann,Bob,Cy"], input="9\n5\nq\n")
    assert result.exit_code == 0, result.output
    assert "Ann, seat 1: " in result.output  # the menu names its seat once
    assert "  5. bid 5" in result.output  # each command in the game's words, from its view
    assert "Type a number from 1 to 5, or q." in result.output
    assert "Ann: bid in secret" in result.output  # the screen keeps it sealed
    assert "Stopped after" in result.output
    read = read_log(log)
    assert read.entries[0].command.token == 5
    assert read.header.settings.players == ("Ann", "Bob", "Cy") and not read.finished
    assert verify_file(log).ok


def test_a_match_of_another_game_is_carried_on_from_its_log(tmp_path: Path) -> None:
    log = tmp_path / "bids.jsonl"
    runner = CliRunner()
    first = runner.invoke(app, ["play", "--game", "sealed-bids", "--log", str(log)], input="2\nq\n")
    assert first.exit_code == 0, first.output
    assert f"`multiversus play --resume {log}` carries it on" in first.output
    assert len(read_log(log).entries) == 3  # seat 1's bid, then both bots'
    # the log names its game: --resume needs no --game
    words = ["play", "--resume", str(log), "--players", "random,random,random", "--bot-seed", "1"]
    carried = runner.invoke(app, words)
    assert carried.exit_code == 0, carried.output
    assert "carried on after entry 3" in carried.output
    finished = read_log(log)
    assert finished.finished and finished.entries[0].command.token == 2
    assert verify_file(log).ok
    again = runner.invoke(app, [*words[:3], "--seed", "3"], env={"COLUMNS": "200"})
    assert again.exit_code == 2
    assert "--seed cannot be used with --resume: the log fixes the match" in again.output


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--players", "human,random"], "Sealed Bids has 3 seats: --players takes 3 names"),
        (["--players", "human,random,nobody"], "no player 'nobody' in Sealed Bids"),
        (["--heroes", "banner-knight"], "--heroes: Multiversus options, not Sealed Bids'"),
        (["--names", "Ann,Bob"], "players: name all three players"),
    ],
)
def test_play_of_another_game_refuses_bad_options_in_one_line(
    tmp_path: Path, words: list[str], says: str
) -> None:
    log = tmp_path / "x.jsonl"
    result = CliRunner().invoke(
        app, ["play", "--game", "sealed-bids", "--log", str(log), *words], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 2
    assert says in result.output and len(result.output.strip().splitlines()) == 1
    assert not log.exists()


def test_play_of_an_unknown_game_names_the_games() -> None:
    result = CliRunner().invoke(app, ["play", "--game", "go"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert (
        "unknown game 'go': the games are multiversus, sealed-bids, tiles-d6, worlds-collide"
        in result.output
    )


def test_multiversus_takes_its_own_seat_options_not_players() -> None:
    result = CliRunner().invoke(app, ["play", "--players", "human,random"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "--players and --names are for other games" in result.output
