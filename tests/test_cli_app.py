"""The program's root: commands are imported when used, and the root help lists them all."""

from __future__ import annotations

import subprocess
import sys

import typer
from typer.testing import CliRunner

from multiversus_cli.app import COMMANDS, app


def test_root_help_lists_every_command_with_its_own_one_line_help() -> None:
    # given the root group, then its table of one-line helps is each command's own short help
    group = typer.main.get_command(app)
    context = typer.Context(group)
    assert group.list_commands(context) == list(COMMANDS)
    for name, short in COMMANDS.items():
        command = group.get_command(context, name)
        assert command is not None
        assert command.get_short_help_str(limit=200) == short
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


def test_root_help_imports_neither_rich_nor_the_rules() -> None:
    # given a fresh Python, when the root help is shown, then no command module was imported
    code = (
        "import sys; from multiversus_cli.app import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('rich', 'multiversus_core'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"
