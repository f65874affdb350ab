"""worlds-collide's commands and choice keys as action ids
(:mod:`multiversus_core.engine.actions`), for one settings' factions and map.

The few decisions given as lists (the roll-off, the start of a round, a
re-roll or keeping the dice) have an id per command; deploying, activating
and acting are trees of choices (:mod:`.choices`), whose option keys (model
ids, rows, squares, plans, tactics and the trees' words) have an id each.
Every roll (the roll-off, pair after pair until untied; the environment and
Initiative dice of a round; the tactic die; the attack dice; a re-roll and
the dice after it) is a chance point.
"""

from __future__ import annotations

import functools
from typing import Final

from multiversus_core.engine.actions import ActionCodec, Kind, domain
from multiversus_core.engine.grid import square_name
from multiversus_core.rulesets.worlds_collide.choices import DONE, NONE, PLANS
from multiversus_core.rulesets.worlds_collide.content import find_faction, find_map
from multiversus_core.rulesets.worlds_collide.model import (
    Act,
    Activate,
    Command,
    Deploy,
    KeepDice,
    Pass,
    Reroll,
    RollOff,
    StartRound,
    WorldsSettings,
)

MOST_DICE: Final = 100
"""The most dice one roll is taken to hold: a re-roll names one of them by position."""


@functools.lru_cache(maxsize=16)
def codec(settings: WorldsSettings) -> ActionCodec[Command]:
    """The codec of every match of ``settings``' factions and map (settings already checked).

    A command built by a tree (deploy, activate, act) has one id of its kind, never offered
    as an action: the tree's keys are.
    """
    game_map = find_map(settings.map)
    assert game_map is not None  # checked with the settings
    models: list[str] = []
    tactics: list[str] = []
    for seat, faction_id in enumerate(settings.factions, start=1):
        faction = find_faction(faction_id)
        assert faction is not None
        models.extend(f"{seat}.{fielded.id}" for fielded in faction.fielded())
        tactics.extend(tactic.id for tactic in faction.tactics)
    squares = (square_name((x, y)) for y in range(game_map.height) for x in range(game_map.width))
    keys = domain(
        "activate",
        "pass",
        DONE,
        NONE,
        *(key for key, _ in PLANS),
        *(str(row + 1) for row in range(game_map.height)),
        *squares,
        *models,
        *tactics,
    )
    return ActionCodec(
        (
            Kind(RollOff, chance="dice", dice="many"),
            Kind(StartRound, chance="dice", dice="many"),
            Kind(Reroll, (("die", tuple(range(MOST_DICE))),), chance="dice", dice="many"),
            Kind(KeepDice, chance="dice", dice="many"),
            Kind(Pass),
            Kind(Deploy, built=True),
            Kind(Activate, chance="dice", dice="many", built=True),
            Kind(Act, chance="dice", dice="many", built=True),
        ),
        keys,
    )
