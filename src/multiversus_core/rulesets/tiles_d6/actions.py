"""tiles-d6's commands as action ids (:mod:`multiversus_core.engine.actions`), for one
settings' rosters and map: units by their match ids (``"1.spearman-2"``), tiles by
(column, row). The roll-off, the brambles and withdraw rolls of a step, the attack and
fire dice and the concussion rolls at the end of a turn are its chance points."""

from __future__ import annotations

import functools

from multiversus_core.engine.actions import ActionCodec, Kind
from multiversus_core.rulesets.tiles_d6.content import find_map, find_roster
from multiversus_core.rulesets.tiles_d6.model import (
    Attack,
    ChooseHalf,
    Command,
    EndAction,
    EndTurn,
    Fire,
    Place,
    RollOff,
    StandUp,
    StartCharge,
    StartMove,
    StepTo,
    TilesSettings,
)


@functools.lru_cache(maxsize=16)
def codec(settings: TilesSettings) -> ActionCodec[Command]:
    """The codec of every match of ``settings``' rosters and map (settings already checked)."""
    game_map = find_map(settings.map)
    assert game_map is not None  # checked with the settings
    units: list[str] = []
    for seat, roster_id in enumerate(settings.rosters, start=1):
        roster = find_roster(roster_id)
        assert roster is not None
        units.extend(f"{seat}.{fielded.id}" for fielded in roster.fielded())
    tiles = tuple((x, y) for y in range(game_map.height) for x in range(game_map.width))
    named = tuple(units)
    return ActionCodec(
        (
            Kind(RollOff, chance="dice", dice="many", rolls=2),
            Kind(ChooseHalf, (("half", ("north", "south")),)),
            Kind(Place, (("at", tiles),)),
            Kind(StartMove, (("unit", named),)),
            Kind(StartCharge, (("unit", named),)),
            Kind(StandUp),
            Kind(StepTo, (("to", tiles),), chance="dice", dice="many"),
            Kind(Attack, (("unit", named), ("target", named)), chance="die"),
            Kind(Fire, (("unit", named), ("target", named)), chance="die"),
            Kind(EndAction),
            Kind(EndTurn, chance="dice", dice="many"),
        )
    )
