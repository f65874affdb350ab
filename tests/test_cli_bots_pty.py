"""``multiversus play`` at a pseudo-terminal offers every bot, plays each, shows a spinner
while a bot thinks, and Ctrl-C during its thinking keeps the log."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from multiversus_core.engine.log import read_log
from multiversus_core.rulesets.multiversus.bots.specs import BOT_NAMES
from tests.test_cli_pty import (
    SRC,
    TIMEOUT,
    answer_ones,
    exit_status,
    finished,
    interruptible,
    spawn,
)

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def spawn_xterm(*args: str, cwd: Path) -> pexpect.spawn:
    """Start ``multiversus ARGS`` at a terminal that can animate (a dumb one shows no spinner)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(SRC),
        "TERM": "xterm",
        "NO_COLOR": "1",
        "COLUMNS": "120",
        "LINES": "50",
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "multiversus_cli.app", *args],
        env=env,
        cwd=str(cwd),
        encoding="utf-8",
        codec_errors="replace",
        timeout=TIMEOUT,
        dimensions=(50, 120),
        preexec_fn=interruptible,
    )


def test_play_help_offers_every_bot_and_the_bot_alias(tmp_path: Path) -> None:
    child = spawn("play", "--help", cwd=tmp_path)
    child.expect(pexpect.EOF)
    text = " ".join(child.before.split())
    for name in BOT_NAMES:
        assert name in text
    assert "bot means heuristic" in text
    child.close()


@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts:8", "bot"])
def test_a_human_plays_each_bot_to_the_end(tmp_path: Path, spec: str) -> None:
    log = tmp_path / "match.jsonl"
    child = spawn("play", "--seed", "3", "--player2", spec, "--log", str(log), cwd=tmp_path)
    shown = "heuristic" if spec == "bot" else spec
    child.expect_exact(f"Seat 2: Bot ({shown} bot)")
    choices, _ = answer_ones(child)
    assert exit_status(child) == 0
    assert choices > 10
    assert finished(log)


def test_a_spinner_shows_while_a_bot_thinks_and_ctrl_c_keeps_the_log(tmp_path: Path) -> None:
    log = tmp_path / "thinking.jsonl"
    args = ("play", "--player1", "heuristic", "--player2", "mcts:100000", "--seed", "5")
    child = spawn_xterm(*args, "--log", str(log), cwd=tmp_path)
    child.expect_exact("Bot 2 is thinking")
    child.sendintr()
    child.expect_exact("Interrupted.")
    child.expect_exact(f"multiversus play --resume {log} --player1 heuristic --player2 mcts:100000")
    assert exit_status(child) == 130
    assert read_log(log).entries
    assert not finished(log)


def test_an_unknown_player_is_refused_in_one_line_naming_the_bots(tmp_path: Path) -> None:
    child = spawn("play", "--player2", "grandmaster", cwd=tmp_path)
    child.expect(pexpect.EOF)
    lines = [line for line in child.before.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "unknown bot 'grandmaster'" in lines[0]
    assert "random, heuristic, mcts" in lines[0]
    child.close()
    assert child.exitstatus == 2
