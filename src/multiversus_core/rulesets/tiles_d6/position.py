"""tiles-d6 positions as text: written against the match's start, its map and rosters
laid out from the ids its settings name (:mod:`~multiversus_core.engine.position`)."""

from __future__ import annotations

from typing import Final

from multiversus_core.engine.position import Initial, check_squares
from multiversus_core.rulesets.tiles_d6.model import TilesState

__all__ = ["NOTATION", "TilesNotation"]


class TilesNotation(Initial):
    """Every unit on the map, one a tile."""

    def check(self, state: TilesState) -> None:
        """Every placed unit on the map, and no two units on one tile.

        :raises PositionError: naming the unit.
        """
        placed = ((u.id, (u.at,)) for u in state.units if u.at is not None)
        check_squares(placed, len(state.rows[0]) if state.rows else 0, len(state.rows))


NOTATION: Final = TilesNotation()
"""tiles-d6's notation, as its ruleset offers it."""
