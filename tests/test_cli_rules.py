"""``multiversus rules``: the game on one screen for a newcomer."""

from __future__ import annotations

from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_cli.rules import PRIMER


def test_the_primer_fits_one_screen_of_80_by_24() -> None:
    result = CliRunner().invoke(app, ["rules"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) <= 23  # and the shell prompt after it
    assert max(len(line) for line in lines) <= 80
    assert result.output.strip() == PRIMER.strip()


def test_the_primer_covers_what_a_newcomer_needs_and_points_to_the_sheets() -> None:
    for words in (
        "Eliminate every enemy character",  # the objective
        "win conditions decide after round 6",
        "one green, two grey",  # unit coins
        "two each of Attack, Defend, Move and Stunt",  # action coins
        "In secret, pick a unit coin",  # secret selection
        "You reveal and act",  # and reveal
        "need a trigger",  # reactions and triggers
        "leaves a space",
        "Unharmed > Wounded > Disabled > Eliminated",  # conditions
        "Advantage",
        "a 6, or a roll no higher than your greys in the discard",  # the Initiative die
        "give it up willingly",
        "six rounds",
        "multiversus teams show ID",
        "(!) marks a stunt ability used with one Stunt coin, (!!) one used with",
    ):
        assert words in PRIMER, words


def test_the_program_points_a_newcomer_to_the_rules() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert "multiversus rules" in result.output
