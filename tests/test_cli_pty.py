"""The real ``multiversus`` program at a pseudo-terminal: play, hot-seat, Ctrl-C and
``--resume``, and stepping through a replay.

Each test spawns ``python -m multiversus_cli.app`` under pexpect, so prompts,
terminal detection, screen clearing and signals are the ones a player meets.
Answering "1" to every prompt is always legal (the first legal command, or
Enter at a hot-seat hand-over), so it plays a match to its end.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from multiversus_core.engine.log import read_log, replay  # noqa: E402

SRC = Path(__file__).resolve().parents[1] / "src"

TIMEOUT = 20
"""Seconds any one expected output may take (a whole match takes about one)."""

MAX_ANSWERS = 1500
"""More prompts than any match asks: a loop that never ends fails instead."""

CHOICE = re.compile(r"Choice \(1-(\d+)(?:, 0 goes back)?, h for help\): ")
HAND_OVER = re.compile(r"press Enter when you are ready\.")
RESULT = re.compile(r"The match ended in round \d of 6: (a draw|the \w+ \(.+?\) win)")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def interruptible() -> None:
    """Let Ctrl-C reach the program (run in the child before it starts): a test run started
    in the background of a shell without job control ignores SIGINT, and so would the
    program, inheriting it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, cwd: Path, columns: int = 120, lines: int = 50) -> pexpect.spawn:
    """Start ``multiversus ARGS`` at a terminal without colours, 120 by 50 unless told."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(SRC),
        "TERM": "dumb",
        "NO_COLOR": "1",
        "COLUMNS": str(columns),
        "LINES": str(lines),
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "multiversus_cli.app", *args],
        env=env,
        cwd=str(cwd),
        encoding="utf-8",
        codec_errors="replace",
        timeout=TIMEOUT,
        dimensions=(lines, columns),
        preexec_fn=interruptible,
    )
    child.delaybeforesend = None  # answers wait for their prompt already
    return child


def expect_words(child: pexpect.spawn, phrase: str) -> None:
    """Expect ``phrase``, its words maybe wrapped onto several lines."""
    child.expect(r"\s+".join(map(re.escape, phrase.split())))


def exit_status(child: pexpect.spawn) -> int | None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus is None, f"killed by signal {child.signalstatus}"
    status: int | None = child.exitstatus
    return status


def answer_ones(
    child: pexpect.spawn,
    *,
    wrong_first: bool = False,
    interrupt_after: int | None = None,
    hand_over_screens: list[str] | None = None,
) -> tuple[int, int]:
    """Answer "1" (Enter at a hand-over) until the match ends, or press Ctrl-C at the
    choice prompt after ``interrupt_after`` answers; return (choices, hand-overs)."""
    choices = hand_overs = 0
    for _ in range(MAX_ANSWERS):
        seen = child.expect([CHOICE, HAND_OVER, RESULT])
        if seen == 2:
            return choices, hand_overs
        if seen == 1:
            if hand_over_screens is not None:
                hand_over_screens.append(child.before)
            child.sendline("")
            hand_overs += 1
            continue
        if interrupt_after is not None and choices == interrupt_after:
            child.sendintr()
            return choices, hand_overs
        if wrong_first and choices == 0:
            wrong_first = False
            child.sendline("x")
            count = int(child.match.group(1))
            only = "1" if count == 1 else f"a number from 1 to {count}"
            child.expect_exact(f"'x' is not a choice. Type {only}, or h for help.")
            continue  # the same prompt comes again
        child.sendline("1")
        choices += 1
    raise AssertionError(f"no result after {MAX_ANSWERS} answers")


def finished(log: Path) -> bool:
    return replay(read_log(log)).is_over


def test_a_human_plays_the_bot_to_the_end_after_a_wrong_input(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    child = spawn("play", "--seed", "7", "--log", str(log), cwd=tmp_path)
    child.expect_exact("Type h at any prompt for help.")
    choices, hand_overs = answer_ones(child, wrong_first=True)
    child.expect_exact(f"The log is saved in {log}")
    assert exit_status(child) == 0
    assert choices > 10
    assert hand_overs == 0  # one human: nobody to hand over to
    assert finished(log)


def test_two_humans_play_hot_seat_to_the_end(tmp_path: Path) -> None:
    log = tmp_path / "hot.jsonl"
    child = spawn("play", "--seed", "7", "--player2", "human", "--log", str(log), cwd=tmp_path)
    child.expect_exact("Hot-seat: pass the keyboard when asked")
    before_hand_overs: list[str] = []
    choices, hand_overs = answer_ones(child, wrong_first=True, hand_over_screens=before_hand_overs)
    assert exit_status(child) == 0
    assert hand_overs > 0
    # the screen (and its scrollback) is cleared before each hand-over, hiding the secrets
    assert all("\x1b[3J" in screen for screen in before_hand_overs)
    assert choices > hand_overs
    assert finished(log)


def test_ctrl_c_keeps_the_log_and_resume_finishes_the_match(tmp_path: Path) -> None:
    log = tmp_path / "cut.jsonl"
    child = spawn("play", "--seed", "11", "--log", str(log), cwd=tmp_path)
    answer_ones(child, interrupt_after=14)
    child.expect_exact("Interrupted.")
    child.expect_exact("To carry on:")
    child.expect_exact(f"multiversus play --resume {log}")
    assert exit_status(child) == 130
    entries = len(read_log(log).entries)
    assert entries > 8
    assert not finished(log)

    again = spawn("play", "--resume", str(log), cwd=tmp_path)
    again.expect(r"Resuming .*: (\d+) commands replayed\.")
    assert int(again.match.group(1)) == entries
    answer_ones(again)
    assert exit_status(again) == 0
    assert finished(log)
    assert len(read_log(log).entries) > entries


# --- learning the game while playing ------------------------------------------------


def answer_ones_until(child: pexpect.spawn, wanted: str) -> None:
    """Answer "1" until the text ``wanted`` comes before a choice prompt."""
    for _ in range(MAX_ANSWERS):
        seen = child.expect([re.escape(wanted), CHOICE])
        if seen == 0:
            child.expect(CHOICE)
            return
        child.sendline("1")
    raise AssertionError(f"{wanted!r} never came")


def test_a_newcomer_is_told_how_to_win_before_the_first_decision(tmp_path: Path) -> None:
    child = spawn("play", "--seed", "7", "--log", str(tmp_path / "m.jsonl"), cwd=tmp_path)
    expect_words(child, "How to win (The Order of the Banner against Smogon and the Dragonkith)")
    expect_words(child, "either side wins at once by eliminating every enemy character")
    expect_words(child, "the side with a character on the Smoke Vent")
    child.expect_exact("Type ? to have the decision in front of you explained.")
    child.expect_exact("to flip the coin")  # the first decision comes after it
    child.sendline("q")
    assert exit_status(child) == 0


def test_at_80_by_24_how_to_win_and_question_mark_wrap_between_words(tmp_path: Path) -> None:
    # A line longer than the screen is folded by the terminal wherever it ends,
    # mid-word ("either s" / "ide wins"): the program's paragraphs must fit.
    log = tmp_path / "m.jsonl"
    child = spawn("play", "--seed", "7", "--log", str(log), cwd=tmp_path, columns=80, lines=24)
    child.expect(CHOICE)
    told = [child.before[child.before.index("How to win") :]]  # before the first decision
    child.sendline("1")
    child.expect(CHOICE)
    child.sendline("?")
    child.expect_exact("Choose the team you control")
    child.expect(CHOICE)
    told.append(child.before)  # the decision explained, how to win again
    child.sendline("q")
    assert exit_status(child) == 0
    for text in told:
        lines = text.replace("\r", "").split("\n")
        assert max(len(line) for line in lines) <= 80, max(lines, key=len)
        words = " ".join(text.split())
        assert "either side wins at once by eliminating every enemy character" in words


def test_a_coin_selection_is_made_in_steps_with_a_way_back(tmp_path: Path) -> None:
    log = tmp_path / "steps.jsonl"
    child = spawn(
        "play", "--seed", "7", "--player2", "random", "--bot-seed", "7", "--log", str(log),
        cwd=tmp_path,
    )  # fmt: skip
    answer_ones_until(child, "to select coins")
    assert "Unit coins:" in child.before
    child.sendline("2")  # a unit coin: its action coins come next
    child.expect(r"\(grey coin\):\s+1 Attack\s+2 Defend\s+3 Move")
    child.expect_exact(" 0 Back: choose another unit coin")
    child.expect_exact("Choice (1-13, 0 goes back, h for help): ")
    child.sendline("?")
    child.expect_exact("Choose the action coins for Banner Knight (grey coin).")
    child.expect(CHOICE)
    child.sendline("0")  # back: nothing is selected yet
    child.expect_exact("Unit coins:")
    child.expect(CHOICE)
    child.sendline("1")
    child.expect(r"\(green coin\):\s+1 Attack")
    child.expect(CHOICE)
    child.sendline("3")  # Move: the whole selection is shown before it is committed
    child.expect_exact(" 1 Commit: Banner Knight (green coin) with Move")
    child.expect_exact(" 0 Back: choose other action coins")
    child.expect(CHOICE)
    child.sendline("0")  # taken back: the action coins again
    child.expect(r"\(green coin\):\s+1 Attack")
    child.expect(CHOICE)
    child.sendline("3")
    child.expect(CHOICE)
    child.sendline("")  # Enter commits it
    child.expect_exact("You select Banner Knight (green coin) with Move.")
    child.expect(CHOICE)
    child.sendline("q")
    assert exit_status(child) == 0
    selections = [
        entry.command
        for entry in read_log(log).entries
        if type(entry.command).__name__ == "SelectCoins"
    ]
    assert [(c.unit, c.colour, c.actions) for c in selections] == [  # type: ignore[attr-defined]
        ("knight", "green", ("move",))
    ]


def test_question_mark_at_the_initiative_roll_gives_the_chance_of_losing_it(
    tmp_path: Path,
) -> None:
    child = spawn("play", "--seed", "7", "--log", str(tmp_path / "r.jsonl"), cwd=tmp_path)
    answer_ones_until(child, "to roll the Initiative die")
    child.sendline("?")
    child.expect(r"you lose it on ([\d, or]+): a 6 always loses \(the automatic six\)")
    faces = re.findall(r"\d", child.match.group(1))
    child.expect(r"Your chance of losing the Initiative now: (\d) in 6 \(\d+%\)\.")
    assert int(child.match.group(1)) == len(faces)
    child.expect_exact("If you keep it, you activate again")
    child.expect(CHOICE)
    child.sendline("h")
    child.expect_exact("?  the decision in front of you, explained")
    child.expect(CHOICE)
    child.sendline("q")
    assert exit_status(child) == 0


def test_two_bots_paced_with_delay_play_to_the_end_and_tell_the_result_once(
    tmp_path: Path,
) -> None:
    log = tmp_path / "paced.jsonl"
    child = spawn(
        "play",
        "--player1",
        "bot",
        "--player2",
        "bot",
        "--seed",
        "7",
        "--delay",
        "0.001",
        "--log",
        str(log),
        cwd=tmp_path,
    )
    child.expect(RESULT)
    shown = child.before + child.after
    child.expect_exact(f"The log is saved in {log}")
    assert exit_status(child) == 0
    assert finished(log)
    assert "The match is over: " not in shown  # the narration leaves it to the last line
    assert re.search(r"The match is over after round \d of 6\.\r?\n", shown)


# --- replay, stepping at a terminal -------------------------------------------------


@pytest.fixture(scope="module")
def bot_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished bot match, seed 7."""
    folder = tmp_path_factory.mktemp("pty-replay")
    log = folder / "bots.jsonl"
    child = spawn(
        "play",
        "--player1",
        "random",
        "--player2",
        "random",
        "--bot-seed",
        "7",
        "--quiet",
        "--seed",
        "7",
        "--log",
        str(log),
        cwd=folder,
    )
    assert exit_status(child) == 0
    return log


def prompt(number: int) -> str:
    return f"Entry {number} of "


def test_replay_at_a_terminal_steps_forward_back_and_to_an_entry(bot_log: Path) -> None:
    count = len(read_log(bot_log).entries)
    child = spawn("replay", str(bot_log), cwd=bot_log.parent)
    child.expect_exact(f"Stepping through {count} entries as the spectator.")
    child.expect_exact("Before the first entry")
    child.expect_exact(prompt(0))
    child.sendline("")
    child.expect_exact("1. [round 0, turn 0]")
    child.expect_exact(prompt(1))
    child.sendline("n")
    child.expect_exact("2. [round 0")
    child.expect_exact(prompt(2))
    child.sendline("p")
    child.expect_exact("1. [round 0, turn 0]")
    child.expect_exact(prompt(1))
    child.sendline("g 12")
    child.expect(r"12\. \[round \d, turn \d\]")
    child.expect_exact("Tiles:")  # the board
    child.expect_exact(prompt(12))
    child.sendline("zz")
    child.expect_exact("'zz' is not a key here. Type h for help.")
    child.expect_exact(prompt(12))
    child.sendline("g 99999")
    child.expect_exact(f"There is no entry '99999': type g and 0 to {count}.")
    child.expect_exact(prompt(12))
    child.sendline("h")
    child.expect_exact("Keys (then Enter):")
    child.expect_exact(prompt(12))
    child.sendline("q")
    assert exit_status(child) == 0


def test_replay_at_a_terminal_ends_cleanly_on_ctrl_d(bot_log: Path) -> None:
    child = spawn("replay", str(bot_log), "--as", "heroes", cwd=bot_log.parent)
    child.expect_exact(prompt(0))
    child.sendeof()
    assert exit_status(child) == 0


def test_replay_with_to_at_a_terminal_prints_without_asking(bot_log: Path) -> None:
    child = spawn("replay", str(bot_log), "--to", "5", cwd=bot_log.parent)
    child.expect_exact("After entry 5 of")
    assert exit_status(child) == 0
    assert "(h for help)" not in (child.before or "")
