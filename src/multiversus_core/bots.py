"""A seeded random bot: picks uniformly among the legal commands."""

from __future__ import annotations

import random

from multiversus_core.commands import Command
from multiversus_core.decide import decider_seat
from multiversus_core.errors import IllegalCommandError
from multiversus_core.legal import legal_commands
from multiversus_core.match import apply
from multiversus_core.state import MatchState
from multiversus_core.terms import Seat


class RandomBot:
    """Plays any seat of any match by choosing a legal command at random.

    Two bots made with the same seed choose the same commands in the same
    states, so bot games are reproducible.
    """

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, state: MatchState, player: Seat) -> Command:
        """Return a legal command for ``player``.

        :raises IllegalCommandError: if the match is not waiting for ``player``.
        """
        commands = legal_commands(state, player)
        if not commands:
            raise IllegalCommandError(f"the match is not waiting for seat {player}")
        return self._random.choice(commands)

    def __repr__(self) -> str:
        return "RandomBot(...)"


def play_out(state: MatchState, bots: dict[Seat, RandomBot]) -> MatchState:
    """Play a match to its end with one bot per seat and return the final state."""
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, bots[seat].choose(state, seat))
    return state
