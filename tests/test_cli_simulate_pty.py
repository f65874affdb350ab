"""``multiversus simulate`` at a pseudo-terminal: the progress bar, --quiet, and Ctrl-C.

Each test spawns ``python -m multiversus_cli.app simulate`` under pexpect,
so terminal detection and the interrupt are the ones a person meets.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core.rulesets.multiversus.simulation import decode_header, decode_record, play_task
from tests.test_cli_pty import interruptible

pexpect = pytest.importorskip("pexpect")

SRC = Path(__file__).resolve().parents[1] / "src"
TIMEOUT = 60
"""Seconds any one expected output may take (the machine may be busy)."""
ONE_CELL = (
    "--heroes", "banner-knight", "--adversaries", "smogon",
    "--heroes-bot", "random", "--adversaries-bot", "random", "--workers", "1",
)  # fmt: skip

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(SRC),
        "TERM": "xterm",
        "NO_COLOR": "1",
        "COLUMNS": "120",
        "LINES": "40",
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "multiversus_cli.app", "simulate", *args],
        env=env,
        cwd=str(cwd),
        encoding="utf-8",
        codec_errors="replace",
        timeout=TIMEOUT,
        dimensions=(40, 120),
        preexec_fn=interruptible,
    )


def test_at_a_terminal_a_progress_bar_shows_matches_rate_and_time_left(tmp_path: Path) -> None:
    child = spawn(*ONE_CELL, "--matches", "12", cwd=tmp_path)
    child.expect(r"Simulating.*\d+/12.*matches/s")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "12 of 12 matches" in child.before


def test_quiet_turns_the_progress_bar_off(tmp_path: Path) -> None:
    child = spawn(*ONE_CELL, "--matches", "10", "--quiet", cwd=tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "10 of 10 matches" in child.before
    assert "Simulating" not in child.before


def test_ctrl_c_keeps_every_finished_match_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    args = (*ONE_CELL, "--matches", "120", "--out", str(out))
    child = spawn(*args, cwd=tmp_path)
    child.logfile_read = seen = io.StringIO()
    child.expect(r"Simulating.*\b([1-9]\d*)/120")
    child.sendintr()
    child.expect(r"interrupted after (\d+) of 120 matches; run the same command to resume")
    kept = int(child.match.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in seen.getvalue()
    lines = out.read_bytes().splitlines()
    grid = decode_header(lines[0]).grid
    assert 0 < len(lines) - 1 == kept < 120
    # The same command carries on: every match once, as if never stopped.
    result = CliRunner().invoke(app, ["simulate", *args, "--quiet"])
    assert result.exit_code == 0, result.output
    lines = out.read_bytes().splitlines()
    played = {r.key: r for r in map(decode_record, lines[1:])}
    assert len(played) == len(lines) - 1 == 120
    tasks = grid.tasks()
    assert played.keys() == {t.key for t in tasks}
    for task in tasks[kept - 2 : kept + 2]:  # either side of the interruption
        assert played[task.key] == play_task(task).record
    assert re.search(r"120 of 120 matches", result.stdout)
