"""A seeded random bot, and bot matches: a bot picks among the legal commands."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

from multiversus_core.commands import Command, DeclineReaction, EndAction, Step
from multiversus_core.commitments import salted
from multiversus_core.decide import decider_seat
from multiversus_core.errors import IllegalCommandError
from multiversus_core.legal import legal_commands
from multiversus_core.log import LogEntry, MatchLog, new_header
from multiversus_core.match import apply, start_match
from multiversus_core.settings import Chance, MatchSettings
from multiversus_core.state import MatchState
from multiversus_core.terms import Seat

_HOLDING_BACK = (EndAction, DeclineReaction)


class RandomBot:
    """Plays any seat of any match by choosing a legal command at random.

    When it could do something else, it ends an action or lets a trigger pass
    only with probability ``hold_back``, and with probability ``advance`` a
    step goes toward the nearest enemy, so its figures meet and fight rather
    than wander. Two bots made with the same seed choose the same
    commands in the same states, so bot games are reproducible.
    """

    def __init__(self, seed: int = 0, *, hold_back: float = 0.15, advance: float = 0.6) -> None:
        self._random = random.Random(seed)
        self._hold_back = hold_back
        self._advance = advance

    def choose(self, state: MatchState, player: Seat) -> Command:
        """Return a legal command for ``player``.

        :raises IllegalCommandError: if the match is not waiting for ``player``.
        """
        commands = legal_commands(state, player)
        if not commands:
            raise IllegalCommandError(f"the match is not waiting for seat {player}")
        active = [c for c in commands if not isinstance(c, _HOLDING_BACK)]
        if active and len(active) < len(commands) and self._random.random() >= self._hold_back:
            commands = tuple(active)
        steps = [c for c in commands if isinstance(c, Step)]
        if steps and len(steps) == len(commands) and self._random.random() < self._advance:
            # Most of the time, close in on the enemy.
            best = min(_distance_after(state, c) for c in steps)
            commands = tuple(c for c in steps if _distance_after(state, c) == best)
        return self._random.choice(commands)

    def __repr__(self) -> str:
        return "RandomBot(...)"


def _distance_after(state: MatchState, command: Step) -> int:
    figure = state.figure(command.figure)
    assert figure.square is not None
    column = figure.square[0] + command.direction[0]
    row = figure.square[1] + command.direction[1]
    enemies = [
        f.square
        for f in state.figures
        if f.side != figure.side and not f.terrain and f.square is not None
    ]
    return min((abs(c - column) + abs(r - row) for c, r in enemies), default=0)


class Bot(Protocol):
    """Anything that chooses a command for a seat, as :class:`RandomBot` does."""

    def choose(self, state: MatchState, player: Seat) -> Command:
        """Return a legal command for ``player``."""
        ...


BOT_NAMES: tuple[str, ...] = ("random",)
"""The names a bot spec may start with, as :func:`make_bot` takes them."""


def make_bot(spec: str, seed: int) -> Bot:
    """Return the bot a spec string names, with its own random source seeded by ``seed``.

    :raises ValueError: if the spec names no known bot; the message lists the known ones.
    """
    name, _, argument = spec.partition(":")
    if name == "random" and not argument:
        return RandomBot(seed)
    raise ValueError(f"unknown bot {spec!r}: the bots are {', '.join(BOT_NAMES)}")


def play_out(state: MatchState, bots: Mapping[Seat, Bot]) -> MatchState:
    """Play a match to its end with one bot per seat and return the final state."""
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, bots[seat].choose(state, seat))
    return state


def play_match(
    settings: MatchSettings, bots: Mapping[Seat, Bot], chance: Chance | None = None
) -> tuple[MatchLog, MatchState]:
    """Play a whole match with one bot per seat; return its log and its final state.

    For example, ``play_match(MatchSettings(seed=7), {1: RandomBot(7), 2: RandomBot(8)})``.
    Secret commands get fresh salts when the settings ask for them; ``chance`` is
    the secret chance seed of settings that commit to one
    (:func:`~multiversus_core.match.secret_chance_settings`).
    """
    state = start_match(settings, chance)
    entries = []
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        command = salted(bots[seat].choose(state, seat), settings)
        state, events = apply(state, command)
        entries.append(LogEntry(command=command, events=events))
    log = MatchLog(header=new_header(settings), entries=tuple(entries), chance=chance)
    return log, state
