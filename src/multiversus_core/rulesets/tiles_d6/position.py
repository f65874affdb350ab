"""tiles-d6 positions as text: written against the match's start, its map and rosters
laid out from the ids its settings name (:mod:`~multiversus_core.engine.position`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from multiversus_core.engine.position import Bound, Initial, Known, Limit, check_squares
from multiversus_core.rulesets.tiles_d6.model import ROUNDS, SEATS, TilesState, Unit

__all__ = ["NOTATION", "TilesNotation"]

_DEAREST_STEP: Final = 3
"""The most a step costs: 1, +1 leaving water, +1 leaving a tile next to an enemy."""


class TilesNotation(Initial):
    """Every count within the rules, every unit on the map, one a tile."""

    def limits(self, state: TilesState) -> Iterator[Limit]:
        """The round within the match's 8 (T3), two turns a round, the seats at the table,
        each unit's health within its own (an injured unit's down to what one hit can
        take: T24, T26), a stun or concussion dated to a turn begun, the injuries each
        seat scored within the other's units, and the units named in play."""
        yield Bound("round", state.round, 0, ROUNDS)
        yield Bound("turn", state.turn, 0, 2 * ROUNDS)
        for name in ("first", "north", "active", "winner"):
            seat = getattr(state, name)
            if seat is not None:
                yield Known(name, seat, SEATS, "a seat")
        for unit in state.units:
            yield from _unit_limits(state, unit)
        ids = {u.id for u in state.units}
        for unit_id in state.acted:
            yield Known("acted", unit_id, ids, "a unit")
        if state.action is not None:
            yield Known("action.unit", state.action.unit, ids, "a unit")
            actor = state.unit(state.action.unit)
            if actor is not None:
                # a step needs a point and costs up to 3 (T10, T12, T19): it may overdraw
                low = 1 - _DEAREST_STEP
                yield Bound("action.points", state.action.points, low, actor.stats.move)
                yield Bound("action.steps", state.action.steps, 0, actor.stats.move)
        for seat, count in zip(SEATS, state.injured, strict=True):
            enemies = sum(1 for u in state.units if u.seat != seat)
            yield Bound(f"injured.{seat - 1}", count, 0, enemies)

    def check(self, state: TilesState) -> None:
        """Every placed unit on the map, and no two units on one tile.

        :raises PositionError: naming the unit.
        """
        placed = ((u.id, (u.at,)) for u in state.units if u.at is not None)
        check_squares(placed, len(state.rows[0]) if state.rows else 0, len(state.rows))


def _unit_limits(state: TilesState, unit: Unit) -> Iterator[Limit]:
    path = f"units.{unit.id}"
    yield Known(f"{path}.seat", unit.seat, SEATS, "a seat")
    if unit.injured:
        hardest = max(
            (
                max(1, e.stats.strength - unit.stats.defense, e.stats.power - unit.stats.defense)
                for e in state.units
                if e.seat != unit.seat
            ),
            default=1,
        )
        yield Bound(f"{path}.health", unit.health, 1 - hardest, unit.stats.health)
    else:
        yield Bound(f"{path}.health", unit.health, 1, unit.stats.health)
    yield Bound(f"{path}.stunned", unit.stunned, 0, state.turn)
    yield Bound(f"{path}.concussed", unit.concussed, 0, state.turn)


NOTATION: Final = TilesNotation()
"""tiles-d6's notation, as its ruleset offers it."""
