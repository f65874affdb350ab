"""Every command's --help at 80 columns: its paragraphs wrap between words, once."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app

COMMANDS = [
    ["play"],
    ["replay"],
    ["verify"],
    ["diff"],
    ["rules"],
    ["games"],
    ["simulate"],
    ["serve"],
    ["join"],
    ["teams"],
    ["teams", "show"],
    ["teams", "validate"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_paragraphs_fill_an_80_column_screen(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    prose = result.output.split("╭")[0]  # the text above the options' boxes
    lines = [line.rstrip() for line in prose.splitlines()]
    paragraphs = [p.strip("\n").splitlines() for p in "\n".join(lines).split("\n\n") if p.strip()]
    for lines in paragraphs:
        # A line wrapped for the source and folded again at 80 columns leaves a
        # short line in mid-paragraph (" takes" / " two steps ...").
        for line in lines[:-1]:
            assert len(line.rstrip()) > 60, (command, line)
