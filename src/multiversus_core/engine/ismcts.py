"""Information-set Monte Carlo tree search, for any game behind a narrow interface.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012; OpenSpiel's
``ismcts.py`` is a reference): each iteration samples a full state
consistent with the observer's view (the game's *determinization*), walks
one shared tree keyed by commands, choosing among the commands legal in that
sample by UCB with *availability counts* (a child is judged against the
number of times it could have been chosen, not its parent's visits),
expands one new node, plays out with the game's playout policy until the
game's horizon (for example the end of the turn), and backs up the game's
evaluation of where the playout stopped.

A decision the game *models* (:meth:`Game.modelled`) has no node: the model's
command is played, in the tree and in the playout alike. This is for a hidden
choice made at the same time as a choice above it in the tree (Multiversus'
reactive coin selection): as a node it would be chosen knowing what it cannot
know, and the search would expect every choice of its own to be answered
perfectly.

The game is anything with the few operations of :class:`Game`: it knows
nothing of Multiversus (:mod:`~.bots.search` adapts Multiversus).
With an iteration budget and a seed the search is reproducible; a budget in
seconds reads the clock it is given.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, Protocol, TypeVar

S = TypeVar("S")
"""A full game state."""
V = TypeVar("V", contravariant=True)
"""What the observer may know: its view."""
C = TypeVar("C", bound=Hashable)
"""A command (a move)."""
P = TypeVar("P", bound=Hashable)
"""A player."""


class Game(Protocol[S, V, C, P]):
    """The operations the search needs from a game, and nothing more."""

    def to_move(self, state: S) -> P | None:
        """Return the player whose decision ``state`` waits for, or None once it is over."""
        ...

    def legal(self, state: S, player: P) -> Sequence[C]:
        """Return the commands ``player`` may give in ``state`` (never empty if it is to move)."""
        ...

    def apply(self, state: S, command: C) -> S:
        """Return the state after ``command`` (chance drawn from the state)."""
        ...

    def determinize(self, view: V, rng: random.Random) -> S:
        """Return a full state consistent with ``view``, hidden parts and chance drawn from
        ``rng``."""
        ...

    def evaluate(self, state: S, player: P) -> float:
        """Return how good ``state`` is for ``player``, from -1 (lost) to 1 (won)."""
        ...

    def is_horizon(self, start: S, state: S) -> bool:
        """True if a playout begun at ``start`` stops at ``state`` to be evaluated."""
        ...

    def playout(self, state: S, legal: Sequence[C], rng: random.Random) -> C:
        """Choose a command during a playout (the default policy)."""
        ...

    def modelled(self, state: S, legal: Sequence[C], rng: random.Random) -> C | None:
        """Return the command the game's model of the player gives, played without a node of
        the tree, or None to search the decision (never asked at the root)."""
        ...


class _Node(Generic[C, P]):
    """A node of the shared tree: the command that led to it and its statistics."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: P | None) -> None:
        self.mover = mover
        """The player whose command led here."""
        self.children: dict[C, _Node[C, P]] = {}
        self.visits = 0
        self.total = 0.0
        """Sum of the rewards backed up, from the mover's point of view."""
        self.available = 1
        """Iterations in which this node's command was legal at its parent."""

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


class SearchResult(Generic[C]):
    """What a search found: the command chosen and the statistics of the root's children."""

    def __init__(self, command: C, iterations: int, visits: dict[C, int], values: dict[C, float]):
        self.command = command
        self.iterations = iterations
        """Iterations run."""
        self.visits = visits
        """Visits of each root command."""
        self.values = values
        """Mean reward of each root command, for the observer."""


def search(
    game: Game[S, V, C, P],
    view: V,
    legal: Sequence[C],
    observer: P,
    rng: random.Random,
    *,
    iterations: int,
    seconds: float | None = None,
    clock: Callable[[], float] | None = None,
    exploration: float = 0.3,
    max_playout: int = 80,
) -> SearchResult[C]:
    """Search from ``observer``'s ``view`` and return the most visited of ``legal``.

    Stops after ``iterations``, or earlier once ``seconds`` have passed on
    ``clock`` (both needed for a time budget); at least one iteration runs.

    :raises ValueError: if ``legal`` is empty or ``iterations`` is below 1.
    """
    if not legal:
        raise ValueError("there is no legal command to search")
    if iterations < 1:
        raise ValueError(f"a search needs at least one iteration, not {iterations}")
    deadline = None if seconds is None or clock is None else clock() + seconds
    root: _Node[C, P] = _Node(None)
    done = 0
    for done in range(1, iterations + 1):  # noqa: B007 (done counts the iterations run)
        _iterate(game, view, legal, observer, rng, root, exploration, max_playout)
        if deadline is not None and clock is not None and clock() >= deadline:
            break
    visits = {c: root.children[c].visits for c in legal if c in root.children}
    values = {c: root.children[c].total / root.children[c].visits for c in visits}
    best = max(legal, key=lambda c: (visits.get(c, -1), values.get(c, -2.0)))
    return SearchResult(best, done, visits, values)


def _iterate(
    game: Game[S, V, C, P],
    view: V,
    legal: Sequence[C],
    observer: P,
    rng: random.Random,
    root: _Node[C, P],
    exploration: float,
    max_playout: int,
) -> None:
    state = game.determinize(view, rng)
    start = state
    node = root
    path: list[_Node[C, P]] = []
    while True:  # selection and expansion
        # The root's commands are the observer's, even where several seats decide at once
        # and another seat comes first.
        player = observer if node is root else game.to_move(state)
        if player is None or (node is not root and game.is_horizon(start, state)):
            break
        moves = legal if node is root else game.legal(state, player)
        if node is not root:
            model = game.modelled(state, moves, rng)
            if model is not None:
                state = game.apply(state, model)
                continue
        untried = [m for m in moves if m not in node.children]
        for m in moves:
            if m in node.children:
                node.children[m].available += 1
        if untried:
            move = rng.choice(untried)
            child: _Node[C, P] = _Node(player)
            node.children[move] = child
            node = child
        else:
            children = node.children
            move = max(moves, key=lambda m: children[m].ucb(exploration))
            node = children[move]
        path.append(node)
        state = game.apply(state, move)
        if node.visits == 0:
            break
    for _ in range(max_playout):  # playout
        player = game.to_move(state)
        if player is None or game.is_horizon(start, state):
            break
        moves = game.legal(state, player)
        model = game.modelled(state, moves, rng)
        state = game.apply(state, game.playout(state, moves, rng) if model is None else model)
    reward = game.evaluate(state, observer)
    for visited in path:
        visited.visits += 1
        visited.total += reward if visited.mover == observer else -reward


__all__ = ["Game", "SearchResult", "search"]
