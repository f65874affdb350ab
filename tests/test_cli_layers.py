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
    "grid_text",
    "html_any",
    "join",
    "jsontext",
    "odds",
    "play",
    "play_any",
    "presenters/__init__",
    "replay",
    "replay_page",
    "runners",
    "serve",
    "simulate",
    "simulate_any",
    "simulate_report",
    "simulating",
    "transcript",
    "usage",
    "verify",
)
"""The modules of the commands (and what they share) that work for every game."""


GAME_SPECIFIC = (
    "multiversus_core.rulesets",
    "multiversus_cli.presenters.multiversus",
    "multiversus_cli.presenters.multiversus_diff",
    "multiversus_cli.presenters.multiversus_moves",
    "multiversus_cli.presenters.multiversus_play",
    "multiversus_cli.presenters.multiversus_report",
    "multiversus_cli.presenters.multiversus_simulate",
    "multiversus_cli.presenters.multiversus_text",
    "multiversus_cli.render",
    "multiversus_cli.html",
    "multiversus_cli.guide",
    "multiversus_cli.menu",
    "multiversus_cli.teams",
    "multiversus_cli.presenters.tiles_d6",
    "multiversus_cli.presenters.tiles_d6_diff",
    "multiversus_cli.presenters.tiles_d6_html",
    "multiversus_cli.presenters.tiles_d6_play",
    "multiversus_cli.presenters.tiles_d6_text",
    "multiversus_cli.presenters.worlds_collide",
    "multiversus_cli.presenters.worlds_collide_diff",
    "multiversus_cli.presenters.worlds_collide_html",
    "multiversus_cli.presenters.worlds_collide_play",
    "multiversus_cli.presenters.worlds_collide_text",
)
"""One game's code: its ruleset, Multiversus' looks and commands, and the looks of tiles-d6 and
worlds-collide."""


def test_the_generic_commands_import_no_game_s_code() -> None:
    found = [
        f"{name} imports {imported}"
        for name in GENERIC
        for imported, _ in _imports(CLI / f"{name}.py")
        if any(imported == mod or imported.startswith(f"{mod}.") for mod in GAME_SPECIFIC)
    ]
    assert not found


OWN_COMMANDS = ("rules", "teams")
"""Multiversus' own commands (``multiversus rules``, ``multiversus teams``): about its rules and
its team sheets, not any game's."""

ROOT = ("__init__", "app")
"""The package and the root command, which loads each command's module by name."""


def test_every_module_is_generic_or_one_game_s() -> None:
    found = {str(path.relative_to(CLI).with_suffix("")) for path in CLI.rglob("*.py")}
    game_s = {
        mod.removeprefix("multiversus_cli.").replace(".", "/")
        for mod in GAME_SPECIFIC
        if mod.startswith("multiversus_cli.")
    }
    assert found == {*GENERIC, *game_s, *OWN_COMMANDS, *ROOT}


def test_the_commands_help_names_multiversus_defaults_as_the_game_has_them() -> None:
    from multiversus_cli import play, simulate
    from multiversus_cli.presenters import multiversus_play, multiversus_simulate
    from multiversus_core.rulesets.multiversus.catalog import DEFAULT_ADVERSARIES, DEFAULT_HEROES

    assert (play.MULTIVERSUS_HEROES, play.MULTIVERSUS_ADVERSARIES, play.MULTIVERSUS_BOT) == (
        DEFAULT_HEROES,
        DEFAULT_ADVERSARIES,
        multiversus_play.DEFAULT_BOT,
    )
    assert simulate.DEFAULT_BOT == multiversus_simulate.DEFAULT_BOT
