"""``multiversus join --player human`` at a pseudo-terminal: a person plays a seat of a match
a real referee holds, through the game's own screens, as at ``multiversus play``.

The referee is ``multiversus serve`` on 127.0.0.1 and the other seat a bot ``join``, so the
person's screens are drawn from the state the seat's view log fills in; its chance is
fresh, so the tests read the screens rather than expect one match.
"""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from multiversus_core.engine.viewlog import read_view_log  # noqa: E402
from tests.test_cli_pty import CHOICE, MAX_ANSWERS, exit_status, spawn  # noqa: E402
from tests.test_serve import create, finish, free_port, join_process, serve_process  # noqa: E402

ENDED = re.compile(r"The match ended in round \d of 6: ")
LEFT = re.compile(r"you left the match; the view log is kept in (\S+), and `(.+?)` carries it on")


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """A referee (``multiversus serve``) listening on a free port."""
    number = free_port()
    server = serve_process(number, tmp_path / "data")
    try:
        yield number
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)


def seated(port: int, game: str, tmp_path: Path) -> tuple[str, subprocess.Popen[str]]:
    """A new match of ``game``: seat 1's link, and a random bot joined at seat 2."""
    links = create(port, {"game": game})
    bot = join_process(links["seats"][1], "random", tmp_path / "bot.jsonl", 2)
    return links["seats"][0], bot


def test_a_person_joins_multiversus_with_its_menus_confirm_step_and_letters_quits_and_rejoins(
    tmp_path: Path, port: int
) -> None:
    link, bot = seated(port, "multiversus", tmp_path)
    view = tmp_path / "seat-1.jsonl"
    child = spawn("join", link, "--log", str(view), cwd=tmp_path)
    try:
        child.expect_exact("Type ? to have the decision in front of you explained.")
        child.expect(CHOICE)
        child.sendline("h")  # play's own help, not a numbered list's hint
        child.expect_exact("A coin selection takes three steps")
        child.expect_exact("or join's link again, carries it on")
        child.expect(CHOICE)
        child.sendline("l")
        child.expect(r"The match so far \(\d+ commands\):")
        child.expect(CHOICE)
        for _ in range(MAX_ANSWERS):  # on to the seat's first coin selection
            if "Unit coins:" in child.before:
                break
            child.sendline("1")
            child.expect(CHOICE)
        else:
            raise AssertionError("no coin selection came")
        child.sendline("1")  # a unit coin: its action coins come next
        child.expect_exact(" 0 Back: choose another unit coin")
        child.expect(CHOICE)
        child.sendline("?")  # the decision explained, from the seat's own state
        child.expect(r"Choose the (action coins for|reaction of) ([^(]+) \((\w+) coin\)")
        unit, colour = child.match.group(2), child.match.group(3)
        child.expect(CHOICE)
        child.sendline("1")  # an action: the whole selection is shown before it is committed
        child.expect(r" 1 Commit: (.+?) with (\w+)")
        assert child.match.group(1) == f"{unit} ({colour} coin)"
        action = child.match.group(2)
        child.expect_exact(" 0 Back: choose other action coins")
        child.expect(CHOICE)
        child.sendline("")  # Enter commits it, as at play
        child.expect(CHOICE)
        child.sendline("q")
        child.expect(LEFT)
        kept, again = child.match.group(1), child.match.group(2)
        assert exit_status(child) == 2
    finally:
        child.close(force=True)
    assert kept == str(view) and again.split()[1:] == ["join", link, "--log", str(view)]
    shown = read_view_log(view)
    selected = [
        entry.command
        for entry in shown.entries
        if entry.command.__struct_config__.tag in ("select_coins", "select_reaction")
        and entry.command.player == 1
    ]
    assert len(selected) == 1 and not shown.finished
    assert selected[0].colour == colour and selected[0].actions == (action.lower(),)
    # the same link, the same view log: the person carries on to the end, closed as at play
    child = spawn("join", link, "--log", str(view), cwd=tmp_path)
    try:
        for _ in range(MAX_ANSWERS):
            if child.expect([CHOICE, ENDED], timeout=60) == 1:
                break
            child.sendline("1")
        else:
            raise AssertionError(f"no end after {MAX_ANSWERS} answers")
        child.expect_exact("The cross-check passed")
        assert exit_status(child) == 0
    finally:
        child.close(force=True)
    assert read_view_log(view).finished
    assert finish(bot)[0] == 0


TILES_PROMPT = "Choice (? odds, h help, q quits): "
SQUARES = re.compile(r"Type a square to place it on: ([a-z]+\d+)")


def test_a_person_joins_tiles_d6_sees_its_board_and_plays_to_the_end(
    tmp_path: Path, port: int
) -> None:
    link, bot = seated(port, "tiles-d6", tmp_path)
    view = tmp_path / "seat-1.jsonl"
    child = spawn("join", link, "--log", str(view), cwd=tmp_path)
    try:
        child.expect_exact("ground: no effect")  # the board's legend, drawn first
        child.expect_exact("A-E  Player 1's units (seat 1)")
        child.expect_exact("Type ? for the odds of the choices at hand, h for help.")
        child.expect_exact("Player 1, seat 1: roll off for who goes first")
        child.expect_exact(TILES_PROMPT)
        child.sendline("?")
        child.expect_exact("1 in 2 to be player one")
        child.expect_exact(TILES_PROMPT)
        placed = 0
        for _ in range(MAX_ANSWERS):
            typed = SQUARES.search(child.before)
            if typed is not None:
                child.sendline(typed.group(1))  # a square typed by name, as at play
                placed += 1
            elif "0  end the turn" in child.before:
                child.sendline("0")
            else:
                child.sendline("1")
            if child.expect_exact([TILES_PROMPT, "The match is over: "], timeout=60) == 1:
                break
        else:
            raise AssertionError(f"no end after {MAX_ANSWERS} answers")
        child.expect_exact("ground: no effect")  # the board as it ended, as at play
        child.expect_exact("The match is over: ")
        child.expect_exact("The cross-check passed")
        assert exit_status(child) == 0
    finally:
        child.close(force=True)
    assert placed == 5  # every unit placed on a square typed
    shown = read_view_log(view)
    assert shown.finished
    places = [e.command for e in shown.entries if e.command.__struct_config__.tag == "place"]
    assert sum(command.player == 1 for command in places) == placed
    assert finish(bot)[0] == 0


def test_ctrl_c_at_a_person_s_prompt_stops_join_at_once_and_keeps_the_view_log(
    tmp_path: Path, port: int
) -> None:
    link, bot = seated(port, "tiles-d6", tmp_path)
    view = tmp_path / "seat-1.jsonl"
    child = spawn("join", link, "--log", str(view), cwd=tmp_path)
    try:
        child.expect_exact(TILES_PROMPT)
        child.sendintr()  # the prompt waits in a thread of its own: nothing waits for it
        child.expect(r"interrupted; the view log is kept in (\S+), and `.+?` carries it on")
        assert child.match.group(1) == str(view)
        assert exit_status(child) == 130
    finally:
        child.close(force=True)
        bot.kill()
        bot.wait(10)
    assert not read_view_log(view).finished
