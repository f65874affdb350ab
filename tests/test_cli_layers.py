"""The commands' layers: a command that works for every game holds no game's code.

Such a command reaches a game through its ruleset and its presenter
(:mod:`multiversus_cli.presenters`) alone. Imports are read from the source,
as in ``tests/test_layers.py``.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_layers import _imports

CLI = Path(__file__).parent.parent / "src" / "multiversus_cli"

GENERIC = (
    "diff",
    "differences",
    "games",
    "html_any",
    "play",
    "play_any",
    "presenters/__init__",
    "replay",
    "runners",
    "transcript",
    "verify",
)
"""The modules of the commands (and what they share) that work for every game."""

STILL_MIXED = ("simulate", "simulate_any")
"""Commands that work for every game but still hold Multiversus' own path beside the generic
one (its grid of teams and variants), not yet behind its presenter. This list only shrinks."""

GAME_SPECIFIC = (
    "multiversus_core.rulesets",
    "multiversus_cli.presenters.multiversus",
    "multiversus_cli.presenters.multiversus_diff",
    "multiversus_cli.presenters.multiversus_play",
    "multiversus_cli.presenters.multiversus_text",
    "multiversus_cli.render",
    "multiversus_cli.svg",
    "multiversus_cli.html",
    "multiversus_cli.guide",
    "multiversus_cli.menu",
    "multiversus_cli.teams",
    "multiversus_cli.simulate",
)
"""One game's code: its ruleset, and Multiversus' looks and commands."""


def test_the_generic_commands_import_no_game_s_code() -> None:
    found = [
        f"{name} imports {imported}"
        for name in GENERIC
        for imported, _ in _imports(CLI / f"{name}.py")
        if any(imported == mod or imported.startswith(f"{mod}.") for mod in GAME_SPECIFIC)
    ]
    assert not found


def test_every_module_listed_is_there() -> None:
    assert all((CLI / f"{name}.py").is_file() for name in (*GENERIC, *STILL_MIXED))


def test_the_play_command_s_help_names_multiversus_defaults_as_the_game_has_them() -> None:
    from multiversus_cli import play
    from multiversus_cli.presenters.multiversus_play import DEFAULT_BOT
    from multiversus_core.rulesets.multiversus.catalog import DEFAULT_ADVERSARIES, DEFAULT_HEROES

    assert (play.MULTIVERSUS_HEROES, play.MULTIVERSUS_ADVERSARIES, play.MULTIVERSUS_BOT) == (
        DEFAULT_HEROES,
        DEFAULT_ADVERSARIES,
        DEFAULT_BOT,
    )
