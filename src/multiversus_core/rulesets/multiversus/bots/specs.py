"""Multiversus' bots by spec, and bot matches of Multiversus (:func:`play_out`).

A bot is given its side's :class:`~multiversus_core.rulesets.multiversus.views.MatchView` and the
legal commands, never the referee's state (R4, R23), so it cannot peek at
the opponent's hidden coins or secrets by accident; its randomness is its
own seed's, never the match's chance. :func:`command_for` computes both for
a seat, and :func:`play_out` uses it; :func:`~multiversus_core.engine.play.play_match` plays
and logs any game's match.

Bots are named by spec strings: ``random``, ``heuristic``, ``mcts`` and
``mcts:N`` (N iterations a decision), and any name a package offers through
the ``multiversus.bots`` entry point group (``docs/bots.md``).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol, TypeAlias

from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.rulesets.multiversus.bots.heuristic import HeuristicBot
from multiversus_core.rulesets.multiversus.bots.random import RandomBot, random_choice
from multiversus_core.rulesets.multiversus.bots.search import DEFAULT_ITERATIONS, SearchBot
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.match import apply
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat
from multiversus_core.rulesets.multiversus.views import MatchView, view, viewer_of

__all__ = [
    "BOT_NAMES",
    "ENTRY_POINT_GROUP",
    "Bot",
    "BotFactory",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "bot_names",
    "command_for",
    "make_bot",
    "play_out",
    "random_choice",
]


class Bot(Protocol):
    """A player that chooses one of the legal commands from its side's view of the match."""

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Return one of ``legal`` (never empty), given the deciding side's ``view``."""
        ...


BotFactory: TypeAlias = Callable[[str, int], Bot]
"""What a ``multiversus.bots`` entry point loads to: ``factory(argument, seed)`` returns a
bot, where ``argument`` is the spec's text after its first colon (empty if none).

:raises ValueError: from the factory, for an argument it does not take."""

ENTRY_POINT_GROUP: Final = "multiversus.bots"
"""The entry point group through which other packages offer bots."""

BOT_NAMES: tuple[str, ...] = ("random", "heuristic", "mcts")
"""The names of the bots this library brings, as :func:`make_bot` takes them
(:func:`bot_names` adds those of installed packages)."""


def bot_names() -> tuple[str, ...]:
    """Return every bot name a spec may start with: the built-in ones, then the installed."""
    installed = [p.name for p in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)]
    return (*BOT_NAMES, *sorted(n for n in set(installed) if n not in BOT_NAMES))


def make_bot(spec: str, seed: int) -> Bot:
    """Return the bot a spec string names, with its own random source seeded by ``seed``.

    Specs: ``random``, ``heuristic``, ``mcts`` (its default budget), ``mcts:N``
    (N iterations a decision, N >= 1), or ``NAME[:ARGUMENT]`` for a bot of the
    ``multiversus.bots`` entry point group.

    :raises ValueError: if the spec names no known bot (the message lists the
        known ones), or gives a bot an argument it does not take.
    """
    name, colon, argument = spec.partition(":")
    match name:
        case "random" | "heuristic" if colon:
            raise ValueError(
                f"unknown bot {spec!r}: the {name} bot takes no argument; "
                f"the bots are {', '.join(bot_names())}"
            )
        case "random":
            return RandomBot(seed)
        case "heuristic":
            return HeuristicBot(seed)
        case "mcts":
            iterations = DEFAULT_ITERATIONS
            if colon:
                if not (argument.isascii() and argument.isdigit()) or int(argument) < 1:
                    raise ValueError(
                        f"mcts:N takes a whole number of iterations N >= 1, not {argument!r}"
                    )
                iterations = int(argument)
            return SearchBot(seed, iterations=iterations)
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name):
        factory = point.load()
        if not callable(factory):
            raise ValueError(f"the bot {name!r} ({point.value}) is not callable")
        bot: Bot = factory(argument, seed)
        return bot
    raise ValueError(f"unknown bot {spec!r}: the bots are {', '.join(bot_names())}")


def command_for(bot: Bot, state: MatchState, seat: Seat) -> Command:
    """Ask ``bot`` for ``seat``'s command: it gets that seat's view and legal commands only.

    :raises IllegalCommandError: if the match is not waiting for ``seat``, or
        the bot answers with a command that is not legal.
    """
    legal = legal_commands(state, seat)
    if not legal:
        raise IllegalCommandError(f"the match is not waiting for seat {seat}")
    command = bot.choose(view(state, viewer_of(state, seat)), legal)
    if command not in legal:
        raise IllegalCommandError(f"the bot chose a command that is not legal: {command!r}")
    return command


def play_out(state: MatchState, bots: Mapping[Seat, Bot]) -> MatchState:
    """Play a match to its end with one bot per seat and return the final state."""
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], state, seat))
    return state
