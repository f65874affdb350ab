"""Bots for any game: players that decide from what their seat may know.

A bot is given its seat's view and the legal commands, never the referee's
state, so it cannot peek at hidden choices by accident; its randomness is
its own seed's, never the match's chance. :func:`command_for` computes both
for a seat.
"""

from __future__ import annotations

import functools
import inspect
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Protocol, TypeAlias, cast

from multiversus_core.engine.choices import (
    CommandTree,
    Legal,
    is_empty,
    is_tree,
    listed,
    random_command,
)
from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.engine.ismcts import Game, search


class Bot(Protocol):
    """A player that chooses one of the legal commands from its seat's view of the match."""

    def choose(self, view: Any, legal: Any) -> Any:
        """Return one of ``legal`` (never empty), given the deciding seat's ``view``.

        ``legal`` is what the game's ``legal_commands`` gives: a list, or where a decision
        has too many commands to list, a tree of choices (:mod:`.choices`); the engine's
        bots take both, a game's own bots only what its game gives."""
        ...


BotMaker: TypeAlias = Callable[[int], Bot]
"""Makes a bot with its own random source seeded by the argument. A searching bot's maker
also takes ``iterations``, its budget a decision (``mcts:N`` in a spec: :func:`bot_maker`)."""

MOST_ITERATIONS: Final = 1_000_000_000
"""The largest budget a bot spec may give (``mcts:N``)."""


class UnknownBotError(ValueError):
    """A bot spec names no bot of the game."""


def bot_maker(bots: Mapping[str, BotMaker], spec: str) -> BotMaker:
    """The maker of the bot ``spec`` names among a game's ``bots``: ``NAME``, or ``NAME:N``
    for a searching bot given N iterations a decision (``mcts:400``).

    :raises UnknownBotError: if no bot has the name (the message names the game's bots).
    :raises ValueError: in one line, if the bot takes no budget or N is not a whole number
        from 1 to :data:`MOST_ITERATIONS`.
    """
    name, colon, budget = spec.partition(":")
    maker = bots.get(name)
    if maker is None:
        raise UnknownBotError(f"no bot {spec!r}: the bots are {', '.join(bots)}")
    if not colon:
        return maker
    if not takes_budget(maker):
        raise ValueError(f"the {name} bot takes no number of iterations: {spec!r}")
    if not (budget.isascii() and budget.isdigit() and len(budget) <= 10) or not (
        1 <= int(budget) <= MOST_ITERATIONS
    ):
        raise ValueError(
            f"{name}:N takes a whole number of iterations N from 1 to {MOST_ITERATIONS:,}, "
            f"not {budget!r}"
        )
    budgeted = cast(Callable[..., Bot], maker)  # takes_budget: it takes iterations
    return functools.partial(budgeted, iterations=int(budget))


def takes_budget(maker: BotMaker) -> bool:
    """Whether ``maker`` takes an ``iterations`` budget (a searching bot's does)."""
    try:
        parameters = inspect.signature(maker).parameters
    except (TypeError, ValueError):  # a maker Python cannot introspect takes none
        return False
    return "iterations" in parameters


class UniformBot:
    """Chooses uniformly at random among the legal commands, in any game; from a tree of
    choices, uniformly at each choice."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: object, legal: Legal) -> Any:
        """Return one of ``legal``.

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if is_empty(legal):
            raise IllegalCommandError("there is no legal command to choose from")
        return random_command(legal, self._random)

    def __repr__(self) -> str:
        return "UniformBot(...)"


DEFAULT_ITERATIONS: Final = 120
"""A :class:`SearchBot`'s iterations a decision unless it is given another number."""
MOST_CANDIDATES: Final = 64
"""From a tree of choices, a :class:`SearchBot` searches every command if there are at most
this many, else this many drawn from the tree at random."""


def grown_shortlist(base: int, iterations: int, default_iterations: int, most: int) -> int:
    """How many of a heuristic's best commands a search of ``iterations`` weighs: ``base``
    up to the bot's ``default_iterations``, then more with the square root of the budget
    (twice as many at four times the default), ``most`` at the most, so that a larger budget
    also weighs commands the default leaves out rather than only narrowing the same means."""
    if iterations <= default_iterations:
        return base
    return min(most, round(base * math.sqrt(iterations / default_iterations)))


def check_budget(iterations: int, shortlist: int | None = None) -> None:
    """Refuse, in one line, a search of no iteration or of a shortlist of no command.

    :raises ValueError: if ``iterations`` or ``shortlist`` (if given) is below 1.
    """
    if iterations < 1:
        raise ValueError(f"a search needs at least one iteration, not {iterations}")
    if shortlist is not None and shortlist < 1:
        raise ValueError(f"a search weighs 1 command or more, not {shortlist}")


class _Searcher:
    """What a search bot holds: the game it searches, its own random source and its budget."""

    def __init__(
        self, game: Game[Any, Any, Any, Any], seed: int, iterations: int, exploration: float
    ) -> None:
        check_budget(iterations)
        self._game = game
        self._random = random.Random(seed)
        self.iterations = iterations
        """The iterations of a decision's search."""
        self.exploration = exploration
        """UCB's exploration constant (:func:`.ismcts.search`)."""

    def _search(
        self,
        game: Game[Any, Any, Any, Any],
        view: Any,
        commands: Sequence[Any],
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> Any:
        """The most visited of ``commands`` (two or more) after searching ``game`` from the
        seat the commands name."""
        found = search(
            game,
            view,
            commands,
            commands[0].player,
            self._random,
            iterations=self.iterations,
            seconds=seconds,
            clock=clock,
            exploration=self.exploration,
        )
        return found.command

    def __repr__(self) -> str:
        return f"{type(self).__name__}(iterations={self.iterations})"


class SearchBot(_Searcher):
    """Information-set MCTS (:mod:`.ismcts`) from the seat's view, for any game's search game.

    The seat is the one the legal commands name (every command carries its
    ``player``). ``iterations`` bounds each decision; with ``seconds`` and a
    ``clock``, a decision also stops once that much time has passed (it is
    then no longer reproducible).
    """

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        seed: int = 0,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
        exploration: float = 0.3,
    ) -> None:
        super().__init__(game, seed, iterations, exploration)
        self.seconds = seconds
        self.clock = clock

    def choose(self, view: object, legal: Legal) -> Any:
        """Return the most visited of ``legal`` after the search; of a tree of choices, of
        its commands when few, else of some drawn from it (:data:`MOST_CANDIDATES`).

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if is_empty(legal):
            raise IllegalCommandError("there is no legal command to choose from")
        commands = self._candidates(legal) if is_tree(legal) else cast(Sequence[Any], legal)
        if len(commands) == 1:
            return commands[0]
        return self._search(self._game, view, commands, self.seconds, self.clock)

    def _candidates(self, tree: CommandTree[Any]) -> list[Any]:
        every = listed(tree, MOST_CANDIDATES)
        if every is not None:
            return list(every)
        drawn: dict[bytes, Any] = {}
        for _ in range(4 * MOST_CANDIDATES):
            command = random_command(tree, self._random)
            drawn.setdefault(repr(command).encode(), command)
            if len(drawn) == MOST_CANDIDATES:
                break
        return list(drawn.values())


class GuidedGame:
    """A search game that is another's but for :meth:`legal`, which a subclass narrows (to
    the commands a heuristic would give, say): the search then judges a command by what the
    bot would go on to do."""

    def __init__(self, game: Game[Any, Any, Any, Any]) -> None:
        self.game = game
        """The game guided."""

    def legal(self, state: Any, player: Any) -> Sequence[Any]:
        """The guided game's legal commands (a subclass narrows them)."""
        return self.game.legal(state, player)

    def to_move(self, state: Any) -> Any:
        return self.game.to_move(state)

    def apply(self, state: Any, command: Any) -> Any:
        return self.game.apply(state, command)

    def determinize(self, view: Any, rng: random.Random) -> Any:
        return self.game.determinize(view, rng)

    def evaluate(self, state: Any, player: Any) -> float:
        return self.game.evaluate(state, player)

    def is_horizon(self, start: Any, state: Any) -> bool:
        return self.game.is_horizon(start, state)

    def playout(self, state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return self.game.playout(state, legal, rng)

    def modelled(self, state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return self.game.modelled(state, legal, rng)


class ShortlistBot(_Searcher):
    """Information-set MCTS (:mod:`.ismcts`) over the few commands a heuristic rates best,
    for a game with a heuristic bot; the heuristic decides where there is no shortlist.

    A subclass gives its :meth:`heuristic`, its :meth:`shortlist` (None: leave the
    decision to the heuristic) and its default budget, and may guide the search
    (:meth:`guided`). The heuristic bot is seeded from the bot's own random
    source, which then drives the search.
    """

    default_iterations: ClassVar[int] = DEFAULT_ITERATIONS
    """The iterations of a decision unless the bot is given another number."""
    default_shortlist: ClassVar[int] = 6
    """The most commands a search of the default budget weighs unless the bot is given
    another number."""
    most_shortlist: ClassVar[int | None] = None
    """The most commands a larger budget weighs (:func:`grown_shortlist`); None: the
    default shortlist at any budget."""
    work_per_iteration: ClassVar[float | None] = None
    """The most work, counted by :meth:`work_done`, a decision's search does for each
    iteration of its budget: a search that costs more stops early, after the iteration that
    passes it (the count is the game's, so the search stays reproducible); None: no limit."""

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        seed: int = 0,
        *,
        iterations: int | None = None,
        shortlist: int | None = None,
        exploration: float = 0.3,
    ) -> None:
        budget = self.default_iterations if iterations is None else iterations
        super().__init__(game, seed, budget, exploration)
        self._heuristic = self.heuristic(self._random.getrandbits(64))
        check_budget(budget, shortlist)
        if shortlist is None:
            shortlist = self.default_shortlist
            if self.most_shortlist is not None:
                shortlist = grown_shortlist(
                    shortlist, budget, self.default_iterations, self.most_shortlist
                )
        self.shortlist_size = shortlist
        """The most commands searched (:func:`grown_shortlist` of the budget unless given)."""
        self.memory: dict[Any, Any] = {}
        """What a subclass's guided game keeps from one decision to the next."""

    def heuristic(self, seed: int) -> Bot:
        """The heuristic bot, seeded with ``seed``."""
        raise NotImplementedError

    def shortlist(self, view: Any, legal: Legal) -> Sequence[Any] | None:
        """The commands to search, best first, or None to let the heuristic choose."""
        raise NotImplementedError

    def guided(self, view: Any, candidates: Sequence[Any]) -> Game[Any, Any, Any, Any]:
        """The game to search for ``candidates``: the bot's own unless a subclass guides it."""
        return self._game

    def work_done(self, game: Game[Any, Any, Any, Any]) -> Callable[[], float] | None:
        """What counts the work of a search of ``game`` (from :meth:`guided`) for
        :attr:`work_per_iteration`; None: nothing does."""
        return None

    def choose(self, view: Any, legal: Legal) -> Any:
        """Return the most visited of the shortlist after the search, or the heuristic's
        command where there is no shortlist.

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if is_empty(legal):
            raise IllegalCommandError("there is no legal command to choose from")
        candidates = self.shortlist(view, legal)
        if candidates is None:
            return self._heuristic.choose(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        game = self.guided(view, candidates)
        limit, done = self.work_per_iteration, self.work_done(game)
        if limit is None or done is None:
            return self._search(game, view, candidates)
        return self._search(game, view, candidates, limit * self.iterations, done)
