"""worlds-collide positions as text: written against the match's start, its map and
factions laid out from the ids its settings name (:mod:`~multiversus_core.engine.position`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from multiversus_core.engine.position import Bound, Initial, Known, Limit, check_squares
from multiversus_core.rulesets.worlds_collide.model import ROUNDS, SEATS, WorldsState

__all__ = ["MOST_POINTS", "NOTATION", "WorldsNotation"]

MOST_POINTS: Final = 999
"""The most AP or VP a side holds in a position: the rules set no cap, and no match of
five rounds comes near it; it keeps a count from being absurd."""


class WorldsNotation(Initial):
    """Every count within the rules, every standing model on the map, one a square (a
    fallen model's token lies apart)."""

    def limits(self, state: WorldsState) -> Iterator[Limit]:
        """The round within the match's 5, the seats at the table, each side's AP and VP,
        each model's HP within its type's (W17), the environment deck's rolls a d6's, and
        the models, tactic and dice of the activation under way."""
        yield Bound("round", state.round, 0, ROUNDS)
        for name in ("first_deployer", "environment_seat", "active", "winner"):
            seat = getattr(state, name)
            if seat is not None:
                yield Known(name, seat, SEATS, "a seat")
        for index, side in enumerate(state.sides):
            yield Bound(f"sides.{index}.ap", side.ap, 0, MOST_POINTS)
            yield Bound(f"sides.{index}.vp", side.vp, 0, MOST_POINTS)
        for model in state.models:
            yield Known(f"models.{model.id}.seat", model.seat, SEATS, "a seat")
            yield Bound(f"models.{model.id}.hp", model.hp, 0, model.kind.hp)
        for index, (seat, roll) in enumerate(state.deck):
            yield Known(f"deck.{index}", seat, SEATS, "a seat")
            yield Bound(f"deck.{index}", roll, 1, 6)
        activation = state.activation
        if activation is None:
            return
        ids = {m.id for m in state.models if m.seat == activation.seat}
        yield Known("activation.seat", activation.seat, SEATS, "a seat")
        if activation.tactic is not None and activation.seat in SEATS:
            tactics = {t.id for t in state.sides[activation.seat - 1].faction.tactics}
            yield Known("activation.tactic", activation.tactic, tactics, "a tactic of its faction")
        for model_id in activation.models:
            yield Known("activation.models", model_id, ids, "a model of its seat")
        models = {m.id for m in state.models}
        for move in activation.moves:
            yield Known("activation.moves", move.model, ids, "a model of its seat")
        for attack in activation.attacks:
            yield Known("activation.attacks", attack.model, ids, "a model of its seat")
            yield Known("activation.attacks", attack.target, models, "a model")
        if activation.roll is not None:
            for face in activation.roll.faces:
                yield Bound("activation.roll.faces", face, 1, 6)

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
