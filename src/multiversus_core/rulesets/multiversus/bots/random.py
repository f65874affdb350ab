"""The ``random`` bot of Multiversus: legal commands at random, mostly acting and closing in."""

from __future__ import annotations

import random
from collections.abc import Sequence

from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.commands import (
    Command,
    DeclineReaction,
    EndAction,
    Step,
)
from multiversus_core.rulesets.multiversus.views import MatchView

_HOLDING_BACK = (EndAction, DeclineReaction)


class RandomBot:
    """Plays any seat of any match by choosing a legal command at random.

    When it could do something else, it ends an action or lets a trigger pass
    only with probability ``hold_back``, and with probability ``advance`` a
    step goes toward the nearest enemy, so its figures meet and fight rather
    than wander. Two bots made with the same seed choose the same
    commands in the same views, so bot games are reproducible.
    """

    def __init__(self, seed: int = 0, *, hold_back: float = 0.15, advance: float = 0.6) -> None:
        self._random = random.Random(seed)
        self._hold_back = hold_back
        self._advance = advance

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Return one of ``legal``.

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        return random_choice(view.figures, legal, self._random, self._hold_back, self._advance)

    def __repr__(self) -> str:
        return "RandomBot(...)"


def random_choice(
    figures: Sequence[Figure],
    legal: Sequence[Command],
    rng: random.Random,
    hold_back: float = 0.15,
    advance: float = 0.6,
) -> Command:
    """Choose as :class:`RandomBot` does among ``legal``, given the figures on the board.

    Also the playout policy of the search bot, which has full states.

    :raises IllegalCommandError: if ``legal`` is empty.
    """
    if not legal:
        raise IllegalCommandError("there is no legal command to choose from")
    commands = tuple(legal)
    active = [c for c in commands if not isinstance(c, _HOLDING_BACK)]
    if active and len(active) < len(commands) and rng.random() >= hold_back:
        commands = tuple(active)
    steps = [c for c in commands if isinstance(c, Step)]
    if steps and len(steps) == len(commands) and rng.random() < advance:
        # Most of the time, close in on the enemy.
        distances = [_distance_after(figures, c) for c in steps]
        best = min(distances)
        commands = tuple(c for c, d in zip(steps, distances, strict=True) if d == best)
    return rng.choice(commands)


def _distance_after(figures: Sequence[Figure], command: Step) -> int:
    figure = next(f for f in figures if f.id == command.figure)
    assert figure.square is not None
    column = figure.square[0] + command.direction[0]
    row = figure.square[1] + command.direction[1]
    enemies = [
        f.square
        for f in figures
        if f.side != figure.side and not f.terrain and f.square is not None
    ]
    return min((abs(c - column) + abs(r - row) for c, r in enemies), default=0)
