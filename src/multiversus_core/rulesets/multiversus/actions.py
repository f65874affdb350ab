"""Multiversus' commands as action ids (:mod:`multiversus_core.engine.actions`).

The fields' values come from the installed team sheets: every unit, figure,
ability and secret any match of them can name (an Adversary unit whose id
clashes with a Hero unit's is named ``<team>-<unit>`` in a match, so both
names are listed). The set-up coin (seat 1 or 2 wins it) and the Initiative
die are the chance points.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from multiversus_core.engine.actions import ActionCodec, Kind, domain
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.commands import (
    AfterAttack,
    Attack,
    BeginAction,
    BlockForcedMove,
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    DeclineReaction,
    EndAction,
    FlipForSetUp,
    GiveUpInitiative,
    React,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
)
from multiversus_core.rulesets.multiversus.sheets import TeamSheet, UnitSheet
from multiversus_core.rulesets.multiversus.terms import ACTION_KINDS, SEATS, SIDES

DIRECTIONS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
"""Every direction a step or a push may take."""

LONGEST_FORCED_STOP = 24
"""The most spaces a forced move that may stop short is offered (0 to this)."""

COIN_SELECTIONS = (
    (),
    *((kind,) for kind in ACTION_KINDS),
    *((first, second) for n, first in enumerate(ACTION_KINDS) for second in ACTION_KINDS[n:]),
)
"""Every set of action coins a selection may hold, in canonical order."""


def _unit_names(teams: Iterable[TeamSheet]) -> Iterable[tuple[str, UnitSheet]]:
    for team in teams:
        for unit in team.units:
            yield unit.id, unit
            if team.side == "adversaries":
                yield f"{team.id}-{unit.id}", unit


@functools.cache
def codec() -> ActionCodec[Command]:
    """The codec of every match of the installed teams."""
    teams = installed_teams()
    named = tuple(_unit_names(teams))
    units = domain(*(name for name, _ in named))
    figures = domain(
        *(
            figure
            for name, unit in named
            for figure in (
                (name,)
                if unit.characters == 1
                else tuple(f"{name}-{i}" for i in range(1, unit.characters + 1))
            )
        )
    )
    abilities = domain(*(ability for _, unit in named for ability in unit.abilities))
    heroes = tuple(t.id for t in teams if t.side == "heroes")
    adversaries = tuple(t.id for t in teams if t.side == "adversaries")
    scenarios = domain(*(s.id for t in teams for s in t.scenarios))
    secret_names = domain(*(s.name for t in teams for s in t.secrets))
    secret_choices = domain(*(o for t in teams for s in t.secrets for o in s.options))
    selection = (
        ("unit", units),
        ("colour", ("green", "grey")),
        ("actions", COIN_SELECTIONS),
    )
    return ActionCodec(
        (
            Kind(FlipForSetUp, chance="winner", sides=len(SEATS)),
            Kind(
                ChooseTeams,
                (("heroes", heroes), ("adversaries", adversaries), ("scenario", scenarios)),
            ),
            Kind(ChooseStartingTeam, (("side", SIDES),)),
            Kind(ChooseSide, (("side", SIDES),)),
            Kind(ChooseSecret, (("name", secret_names), ("choice", secret_choices))),
            Kind(SelectCoins, selection),
            Kind(SelectReaction, selection),
            Kind(SelectNoReaction),
            Kind(BeginAction, (("action", ACTION_KINDS),)),
            Kind(Step, (("figure", figures), ("direction", DIRECTIONS))),
            Kind(EndAction),
            Kind(Attack, (("attacker", figures), ("target", figures))),
            Kind(
                AfterAttack,
                (("choice", ("step", "push", "stay")), ("direction", (None, *DIRECTIONS))),
            ),
            Kind(Stunt, (("figure", figures), ("ability", abilities)), fixed=(("target", None),)),
            Kind(Stunt, (("figure", figures), ("target", figures)), fixed=(("ability", None),)),
            Kind(React),
            Kind(DeclineReaction),
            Kind(RollInitiative, chance="die", sides=6),
            Kind(GiveUpInitiative),
            Kind(BlockForcedMove, (("ally", figures), ("block", (True, False)))),
            Kind(StopForcedMove, (("spaces", tuple(range(LONGEST_FORCED_STOP + 1))),)),
        )
    )
