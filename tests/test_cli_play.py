"""``multiversus play``: bot games, human play by number, quitting, resuming, bad options.

Every test fixes the match seed and the bot seed, so the games are the same
each run. Answering "1" to every prompt is always legal (it is the first
legal command, or Enter at a hot-seat hand-over), so a long run of "1" lines
plays a match to its end.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_core.log import read_log, replay

ONES = "1\n" * 3000
"""Enough answers to play any match to its end."""


def play(*args: str, log: Path | None = None, input: str | None = None) -> Result:
    options = [*args]
    if log is not None:
        options += ["--log", str(log)]
    return CliRunner().invoke(app, ["play", *options], input=input)


def test_a_bot_game_runs_to_the_end_and_writes_a_log_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "bots.jsonl"
    result = play("--player1", "bot", "--player2", "bot", "--seed", "7", "--quiet", log=log)
    assert result.exit_code == 0, result.output
    assert "ended after six rounds" in result.output
    assert len(result.output.strip().splitlines()) == 1  # --quiet prints only the result
    match_log = read_log(log)
    assert match_log.header.settings.seed == 7
    assert replay(match_log).is_over


def test_a_bot_game_without_quiet_tells_rolls_and_turns_and_shows_the_final_board(
    tmp_path: Path,
) -> None:
    result = play("--player1", "bot", "--player2", "bot", "--seed", "7", log=tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.output
    assert "Seed 7" in result.output
    assert re.search(r"roll the Initiative die: \d", result.output)
    assert "take the Initiative die: their turn begins" in result.output
    assert "Smogon (Large)" in result.output  # the final board's legend
    assert "The match ended after six rounds" in result.output


def test_the_same_seeds_play_the_same_bot_game(tmp_path: Path) -> None:
    args = ("--player1", "bot", "--player2", "bot", "--seed", "11", "--bot-seed", "3", "--quiet")
    play(*args, log=tmp_path / "a.jsonl")
    play(*args, log=tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


@pytest.fixture(scope="module")
def human_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """A whole match of a human answering by number (and some wrong input) against the bot."""
    log = tmp_path_factory.mktemp("human") / "human.jsonl"
    # Enter alone (the third line) takes the only choice: the flip.
    answers = "x\n999\n\nb\nd\nl\nu\n?\nm\n" + ONES
    result = play("--seed", "5", "--bot-seed", "1", "--name1", "Alice", log=log, input=answers)
    return result, log


def test_a_human_plays_by_number_to_the_end_and_wrong_input_is_asked_again(
    human_game: tuple[Result, Path],
) -> None:
    result, log = human_game
    out = result.output
    assert result.exit_code == 0, out
    assert "'x' is not a choice. Type 1, or h for help." in out
    assert "There is no choice 999." in out
    assert "Traceback" not in out
    assert "Alice to flip the coin for the Set Up Player" in out
    assert " 1 Flip the coin for the Set Up Player" in out
    assert "Tiles: cr Crag" in out  # b: the board
    assert "Discard (face up)" in out  # d: coin piles
    assert "The match so far" in out  # l: the log in words
    assert "Unit (role)" in out  # u: units
    assert "q  quit" in out  # ?: help
    # Coin selections are grouped by unit coin, one line each.
    assert re.search(r"\(green coin\):\s+\d+ Move\s+\d+ Double-Move", out)
    assert "The match ended after six rounds" in out
    assert replay(read_log(log)).is_over


def test_the_bots_hidden_selection_is_not_shown_before_it_is_revealed(
    human_game: tuple[Result, Path],
) -> None:
    result, _ = human_game
    lines = result.output.splitlines()
    side = "Heroes" if "Alice takes the Heroes" in result.output else "Adversaries"
    bot_side = "Adversaries" if side == "Heroes" else "Heroes"
    assert f"The {bot_side} select their coins in secret." in result.output
    assert f"The {bot_side} select a reaction in secret." in result.output
    # The human's own selections are told to them; the bot's only through reveals.
    assert any(line.strip().startswith("You select") for line in lines)
    assert not any(f"{bot_side} select" in line and " with " in line for line in lines)


def test_quitting_keeps_a_log_that_resume_carries_on_to_the_end(tmp_path: Path) -> None:
    log = tmp_path / "quit.jsonl"
    result = play("--seed", "5", "--bot-seed", "1", log=log, input="1\n1\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert f"multiversus play --resume {log}" in result.output
    kept = read_log(log)
    assert len(kept.entries) >= 3
    assert not replay(kept).is_over

    # A bot takes over seat 1 and plays on to the end.
    resumed = play("--resume", str(log), "--player1", "bot", "--bot-seed", "1")
    assert resumed.exit_code == 0, resumed.output
    assert f"Resuming {log}: {len(kept.entries)} commands replayed." in resumed.output
    assert "The match ended after six rounds" in resumed.output
    final = read_log(log)
    assert final.entries[: len(kept.entries)] == kept.entries
    assert replay(final).is_over


def test_the_end_of_the_input_keeps_a_log_that_bots_can_finish(tmp_path: Path) -> None:
    log = tmp_path / "eof.jsonl"
    result = play("--seed", "9", log=log, input="1\n1\n1\n1\n1\n1\n")
    assert result.exit_code == 0, result.output
    assert "The input ended" in result.output
    assert "--resume" in result.output
    assert "Traceback" not in result.output
    entries = len(read_log(log).entries)
    assert entries >= 6

    # The human comes back and plays on from where the input ended.
    resumed = play("--resume", str(log), input="d\n1\n1\nq\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Discard (face up)" in resumed.output
    assert len(read_log(log).entries) > entries


def test_ctrl_c_keeps_the_log_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt() -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    log = tmp_path / "int.jsonl"
    result = play("--seed", "5", log=log)
    assert result.exit_code == 130, result.output
    assert "Interrupted" in result.output
    assert f"--resume {log}" in result.output
    assert read_log(log).entries == ()


def test_hot_seat_clears_the_screen_before_each_secret_choice(tmp_path: Path) -> None:
    log = tmp_path / "hot.jsonl"
    result = play("--seed", "5", "--player2", "human", log=log, input="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert "the screen is cleared here" in result.output
    assert "for a secret choice. " in result.output
    assert "You select" not in result.output  # nobody's secret is told on a shared screen


def test_an_unknown_team_is_a_one_line_error_with_exit_2(tmp_path: Path) -> None:
    result = play("--heroes", "nobody", log=tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.strip() == "multiversus play: no team 'nobody' is installed"
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--scenario", "nowhere"), "no Adversary sheet has a scenario 'nowhere'"),
        (("--seed", "-1"), "the seed must be from 0"),
        (("--quiet",), "--quiet is for a game between two bots"),
        (("--resume", "missing.jsonl"), "no log file 'missing.jsonl'"),
        (("--resume", "missing.jsonl", "--seed", "3"), "--seed cannot be used with --resume"),
    ],
)
def test_bad_options_are_one_line_errors_with_exit_2(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = play(*args, log=None if "--resume" in args else tmp_path / "x.jsonl")
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_an_existing_log_is_never_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    log.write_text("precious\n")
    result = play("--seed", "1", log=log, input="1\n")
    assert result.exit_code == 2
    assert "already exists" in result.stderr
    assert log.read_text() == "precious\n"


def test_a_broken_log_cannot_be_resumed(tmp_path: Path) -> None:
    log = tmp_path / "broken.jsonl"
    log.write_text("not a log\n")
    result = play("--resume", str(log))
    assert result.exit_code == 2
    assert "cannot carry on from this log" in result.stderr
    assert "line 1" in result.stderr


def test_the_default_log_is_named_for_the_time_and_announced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = play("--player1", "bot", "--player2", "bot", "--seed", "2")
    assert result.exit_code == 0, result.output
    logs = list(tmp_path.glob("multiversus-*.jsonl"))
    assert len(logs) == 1
    assert re.fullmatch(r"multiversus-\d{8}-\d{6}\.jsonl", logs[0].name)
    assert f"Saving the log to {logs[0].name}" in result.output


def test_help_shows_the_options_and_an_example() -> None:
    result = CliRunner().invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    for option in ("--heroes", "--resume", "--player1", "--bot-seed", "--quiet"):
        assert option in result.output
    assert "multiversus play --resume" in result.output
