"""Mistakes on the command line: one plain line and exit 2, whatever Typer's version; bare
``multiversus`` shows the help; ``--version``; one sentence for a missing file everywhere.

CI runs this module under the newest Typer the project allows and under the oldest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli import usage
from multiversus_cli.app import COMMANDS, app
from multiversus_core._version import __version__

GOLDEN = str(Path(__file__).parent.parent / "replays" / "banner-knight--smogon--standard.jsonl")


def _run(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output.splitlines()


def test_bare_multiversus_shows_the_help_and_exits_0() -> None:
    code, lines = _run()
    assert code == 0
    assert lines[0].startswith("Usage:")
    text = "\n".join(lines)
    assert all(name in text for name in COMMANDS)


def test_bare_multiversus_as_a_program_shows_the_help() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "multiversus_cli.app"], capture_output=True, text=True, timeout=60
    )
    assert ran.returncode == 0, ran.stderr
    assert "Commands" in ran.stdout and "play" in ran.stdout


def test_version_names_the_program_and_its_version() -> None:
    assert _run("--version") == (0, [f"multiversus {__version__}"])


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("replay", "--format", "nope", GOLDEN),
            "multiversus replay: --format: 'nope' is not one of text, board, json, log, html, svg",
        ),
        (
            ("replay", "--format=nope", GOLDEN),
            "multiversus replay: --format: 'nope' is not one of text, board, json, log, html, svg",
        ),
        (
            ("simulate", "--matches", "abc"),
            "multiversus simulate: --matches: 'abc' is not a whole number",
        ),
        (("play", "--lgo", "x.jsonl"), "multiversus play: no option --lgo (did you mean --log?)"),
        (
            ("play", "--zzzzzz"),
            "multiversus play: no option --zzzzzz; see multiversus play --help",
        ),
        (("plya",), "multiversus: no command 'plya' (did you mean play?)"),
        (("replay",), "multiversus replay: missing argument LOG"),
        (("replay", GOLDEN, "extra"), "multiversus replay: one argument too many: extra"),
        (("teams", "shwo"), "multiversus teams: no command 'shwo' (did you mean show?)"),
    ],
)
def test_a_mistake_on_the_command_line_is_one_plain_line_and_exit_2(
    args: tuple[str, ...], line: str
) -> None:
    assert _run(*args) == (2, [line])


def test_a_bad_option_as_a_program_is_one_line_on_stderr() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "multiversus_cli.app", "simulate", "--matches", "x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 2
    assert ran.stdout == ""
    assert ran.stderr.splitlines() == [
        "python -m multiversus_cli.app simulate: --matches: 'x' is not a whole number"
    ]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("replay", "{missing}"), "multiversus replay: {missing}: no such file"),
        (("replay", "--as", "heroes", "{missing}"), "multiversus replay: {missing}: no such file"),
        (("diff", "{missing}", GOLDEN), "multiversus diff: {missing}: no such file"),
        (("verify", "{missing}"), "multiversus verify: {missing}: no such file or folder"),
        (
            ("verify", "--against", "{missing}", GOLDEN),
            "multiversus verify: {missing}: no such file",
        ),
        (("teams", "validate", "{missing}"), "multiversus teams validate: {missing}: no such file"),
        (("play", "--resume", "{missing}"), "multiversus play: {missing}: no such file"),
        (
            ("play", "--game", "tiles-d6", "--resume", "{missing}"),
            "multiversus play: {missing}: no such file",
        ),
    ],
)
def test_a_missing_file_is_one_sentence_and_exit_2_in_every_command(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    missing = str(tmp_path / "nope.jsonl")
    code, lines = _run(*(a.format(missing=missing) for a in args))
    assert (code, lines) == (2, [said.format(missing=missing)])


def test_hints_name_the_program_as_the_shell_can_run_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Installed in a virtual environment that is not activated: the path it was run by.
    program = tmp_path / ".venv" / "bin" / "multiversus"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    monkeypatch.setattr(sys, "argv", [".venv/bin/multiversus", "play"])
    monkeypatch.chdir(tmp_path)
    assert usage.program() == ".venv/bin/multiversus"
    # On the PATH: its name.
    monkeypatch.setenv("PATH", str(program.parent) + os.pathsep + os.environ["PATH"])
    monkeypatch.setattr(sys, "argv", [str(program), "play"])
    assert usage.program() == "multiversus"
    # Run some other way (python -m, tests): the usual name.
    monkeypatch.setattr(sys, "argv", ["/usr/lib/python3/runpy.py"])
    assert usage.program() == "multiversus"


def test_the_hint_after_play_says_how_to_run_the_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", [".venv/bin/multiversus", "play"])
    monkeypatch.setenv("PATH", str(tmp_path))
    log = tmp_path / "tiles.jsonl"
    result = CliRunner().invoke(
        app,
        ["play", "--game", "tiles-d6", "--players", "random,random", "--quiet", "--log", str(log)],
    )
    assert result.exit_code == 0, result.output
    assert "`.venv/bin/multiversus verify` checks it" in " ".join(result.output.split())


def test_a_chance_file_in_the_way_of_a_new_log_is_named(tmp_path: Path) -> None:
    log = tmp_path / "x.jsonl"
    (tmp_path / "x.jsonl.chance").write_text("left over\n", encoding="utf-8")
    code, lines = _run("play", "--player1", "random", "--player2", "random", "--log", str(log))
    assert code == 2
    assert lines == [
        f"multiversus play: cannot write the log {str(log)!r}: "
        f"{str(log) + '.chance'!r}: the file already exists"
    ]
    assert not log.exists()
