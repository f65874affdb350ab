"""Bots for any game: players that decide from what their seat may know.

A bot is given its seat's view and the legal commands, never the referee's
state, so it cannot peek at hidden choices by accident; its randomness is
its own seed's, never the match's chance. :func:`command_for` computes both
for a seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeAlias

from multiversus_core.engine.errors import IllegalCommandError


class Bot(Protocol):
    """A player that chooses one of the legal commands from its seat's view of the match."""

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        """Return one of ``legal`` (never empty), given the deciding seat's ``view``."""
        ...


BotMaker: TypeAlias = Callable[[int], Bot]
"""Makes a bot with its own random source seeded by the argument."""


class UniformBot:
    """Chooses uniformly at random among the legal commands, in any game."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: object, legal: Sequence[Any]) -> Any:
        """Return one of ``legal``.

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if not legal:
            raise IllegalCommandError("there is no legal command to choose from")
        return self._random.choice(legal)

    def __repr__(self) -> str:
        return "UniformBot(...)"
