"""worlds-collide positions as text: written against the match's start, its map and
factions laid out from the ids its settings name (:mod:`~multiversus_core.engine.position`)."""

from __future__ import annotations

from typing import Final

from multiversus_core.engine.position import Initial, check_squares
from multiversus_core.rulesets.worlds_collide.model import WorldsState

__all__ = ["NOTATION", "WorldsNotation"]


class WorldsNotation(Initial):
    """Every standing model on the map, one a square (a fallen model's token lies apart)."""

    def check(self, state: WorldsState) -> None:
        """Every model on the map, and no two standing models on one square.

        :raises PositionError: naming the model.
        """
        game_map = state.game_map
        width, height = game_map.width, len(game_map.rows)
        standing = ((m.id, (m.at,)) for m in state.models if m.at is not None and not m.fallen)
        check_squares(standing, width, height)
        fallen = ((m.id, (m.at,)) for m in state.models if m.at is not None and m.fallen)
        for name, squares in fallen:  # a token may lie under a model, but on the map
            check_squares([(name, squares)], width, height)


NOTATION: Final = WorldsNotation()
"""worlds-collide's notation, as its ruleset offers it."""
