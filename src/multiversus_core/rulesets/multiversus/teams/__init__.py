"""The bundled teams' rules: one module per team sheet in ``data/teams``.

Each module lists its abilities (``ABILITIES``) and win conditions
(``WIN_CONDITIONS``); :func:`register_bundled` registers them all, and
loading the Multiversus ruleset calls it before any sheet is read. A team
from another package registers its own in its module, with
:func:`~multiversus_core.rulesets.multiversus.abilities.register` and
:func:`~multiversus_core.rulesets.multiversus.scoring.register_win_condition`,
and offers its sheets through the ``multiversus.teams`` entry point group
(``docs/teams.md``).
"""

from __future__ import annotations

from multiversus_core.rulesets.multiversus.abilities import register
from multiversus_core.rulesets.multiversus.scoring import register_win_condition
from multiversus_core.rulesets.multiversus.teams import (
    banner_knight,
    black_goblins,
    smogon,
    swartzblak,
    witch_hunters,
)

__all__ = [
    "banner_knight",
    "black_goblins",
    "register_bundled",
    "smogon",
    "swartzblak",
    "witch_hunters",
]


def register_bundled() -> None:
    """Register every bundled team's abilities and win conditions (again: no change)."""
    for team in (banner_knight, black_goblins, smogon, swartzblak, witch_hunters):
        for ability in team.ABILITIES:
            register(ability)
        for name, text, condition in team.WIN_CONDITIONS:
            register_win_condition(name, text)(condition)
