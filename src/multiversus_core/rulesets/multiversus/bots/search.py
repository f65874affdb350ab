"""Multiversus behind the narrow interface a generic search needs (:class:`ismcts.Game`).

States are :class:`MatchState`, views :class:`MatchView`, commands
:class:`Command` and players seats. The game provides:

- the determinization (:func:`~multiversus_core.rulesets.multiversus.bots.determinize.determinize`),
  the opponent's unrevealed coin selection drawn from the model below;
- the model of a hidden coin selection: the active and the reactive
  selections are made at the same time, each unseen by the other, so the
  reactive one is never a node of the tree (it would answer the active one
  it cannot see) and an unrevealed one is never drawn alike from every
  possible one. Either is drawn by how the heuristic rates it
  (:func:`~.bots.heuristic.rate_selections`), mostly its best
  (:data:`MODEL_TEMPERATURE`);
- the evaluation (:func:`~multiversus_core.rulesets.multiversus.bots.evaluation.search_evaluate`,
  for the side a seat plays): the heuristic's, and how far every able
  character stands from its goal, not only the nearest;
- the horizon: a playout stops when the turn it began in ends (or the match);
- the playout policy: :class:`~multiversus_core.bots.RandomBot`'s, more
  eager to act.

:class:`SearchBot` is the ``mcts`` bot: ISMCTS from its own view, with an
iteration budget (reproducible with a seed) or a time budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final, TypeVar

from multiversus_core.engine.bots import check_budget, grown_shortlist
from multiversus_core.engine.ismcts import search
from multiversus_core.rulesets.multiversus.bots.determinize import (
    Selection,
    apply_sampled,
    determinize,
)
from multiversus_core.rulesets.multiversus.bots.evaluation import search_evaluate, search_score
from multiversus_core.rulesets.multiversus.bots.heuristic import (
    HeuristicBot,
    Ratings,
    rate_reactions,
    rate_selections,
)
from multiversus_core.rulesets.multiversus.bots.random import random_choice
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat, Side
from multiversus_core.rulesets.multiversus.units import coin_colour, coin_unit
from multiversus_core.rulesets.multiversus.views import MatchView

DEFAULT_ITERATIONS: Final = 120
"""The ``mcts`` bot's iterations a decision unless its spec names another number."""
SHORTLIST: Final = 6
"""How many of the heuristic's best coin selections a search of the default budget weighs."""
MOST_SHORTLIST: Final = 12
"""The most a larger budget weighs (:func:`~multiversus_core.engine.bots.grown_shortlist`:
eight at twice the default budget, twelve at four times it)."""

_T = TypeVar("_T")

MODEL_TEMPERATURE: Final = 0.1
"""How far the model of a hidden coin selection strays from the heuristic's best: a
selection rated ``d`` below the best is drawn ``exp(-d / MODEL_TEMPERATURE)`` times as often."""

_SET_UP: Final = frozenset({"flip", "teams", "starting_team", "side", "secret"})


RATINGS_KEPT: Final = 20_000
"""The most positions whose selections' ratings a search game remembers, then forgets them."""


class MultiversusGame:
    """Multiversus as a search sees it: views, legal commands, apply, and the game's own
    determinization, evaluation, horizon, playout policy and model of hidden selections.

    It remembers the model's ratings by position (:data:`RATINGS_KEPT`): a search meets a
    position many times, and the next decision some of them again.
    """

    def __init__(self) -> None:
        self._ratings: Ratings = {}

    def to_move(self, state: MatchState) -> Seat | None:
        """The seat whose decision ``state`` waits for; None once it is over."""
        return decider_seat(state)

    def legal(self, state: MatchState, player: Seat) -> Sequence[Command]:
        """The commands ``player`` may give."""
        return legal_commands(state, player)

    def apply(self, state: MatchState, command: Command) -> MatchState:
        """The state after ``command``."""
        return apply_sampled(state, command)[0]

    def determinize(self, view: MatchView, rng: random.Random) -> MatchState:
        """A full state consistent with ``view`` (:func:`determinize`), an unrevealed coin
        selection drawn from the model."""
        return determinize(view, rng, self._modelled_selection)

    def evaluate(self, state: MatchState, player: Seat) -> float:
        """How good ``state`` is for the side ``player`` plays, from -1 to 1."""
        side = state.side_of(player)
        return 0.0 if side is None else search_evaluate(state, side)

    def is_horizon(self, start: MatchState, state: MatchState) -> bool:
        """True once the turn ``start`` was in has ended."""
        return state.is_over or state.round != start.round or state.active != start.active

    def playout(self, state: MatchState, legal: Sequence[Command], rng: random.Random) -> Command:
        """A quick random choice that mostly acts and closes in."""
        return random_choice(state.figures, legal, rng, hold_back=0.05, advance=0.8)

    def modelled(
        self, state: MatchState, legal: Sequence[Command], rng: random.Random
    ) -> Command | None:
        """A reactive coin selection, drawn from the model; None for every other decision."""
        if state.pending != "react":
            return None
        side = state.side_of(legal[0].player)
        if side is None:
            return None
        return _likely(rate_reactions(state, side, legal, self._memo()), rng)

    def _modelled_selection(
        self,
        state: MatchState,
        side: Side,
        options: Sequence[Selection],
        active: bool,
        rng: random.Random,
    ) -> Selection:
        """One of the coin selections ``side`` could have made, drawn by how the heuristic
        rates them (:data:`MODEL_TEMPERATURE`)."""
        selections = [(coin_unit(c), a, coin_colour(c)) for c, a in options]
        values = rate_selections(state, side, selections, active=active, memo=self._memo())
        return _likely(list(zip(values, options, strict=True)), rng)

    def _memo(self) -> Ratings:
        if len(self._ratings) > RATINGS_KEPT:
            self._ratings.clear()
        return self._ratings


def _likely(scored: Sequence[tuple[float, _T]], rng: random.Random) -> _T:
    """One of ``scored``'s items, drawn with weight ``exp(value / MODEL_TEMPERATURE)``."""
    top = max(value for value, _ in scored)
    weights = [math.exp((value - top) / MODEL_TEMPERATURE) for value, _ in scored]
    return rng.choices([item for _, item in scored], weights)[0]


GAME: Final = MultiversusGame()
"""An instance for any search (the ruleset's ``search_game``); each :class:`SearchBot` has its
own, with its own memory."""


class SearchBot:
    """The ``mcts`` bot: information-set MCTS from its side's view.

    ``iterations`` bounds each decision; ``seconds``, if given, also stops a
    decision once that much time has passed (then it is no longer
    reproducible). Among many coin selections it searches the ``shortlist``
    the heuristic rates best (:data:`SHORTLIST` at the default budget, more for
    a larger one: :data:`MOST_SHORTLIST`). Set-up decisions are the heuristic's
    (:class:`~.bots.heuristic.HeuristicBot`, with its own seed), and so are the
    steps of a move, judged one ahead by the search's evaluation
    (:func:`~.bots.evaluation.search_score`): searching each step of a move
    would cost a search a space.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = 0.3,
        shortlist: int | None = None,
    ) -> None:
        check_budget(iterations, shortlist)
        self._random = random.Random(seed)
        self._heuristic = HeuristicBot(self._random.getrandbits(64), judge=search_score)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.shortlist = (
            grown_shortlist(SHORTLIST, iterations, DEFAULT_ITERATIONS, MOST_SHORTLIST)
            if shortlist is None
            else shortlist
        )
        """How many of the heuristic's best coin selections it weighs."""
        self._game = MultiversusGame()

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Return one of ``legal`` (never empty), given the deciding side's ``view``."""
        if len(legal) == 1:
            return legal[0]
        if view.pending in _SET_UP or view.pending in ("move", "after_attack"):
            return self._heuristic.choose(view, legal)
        # The heuristic's best few coin selections: the search spends its budget on them.
        candidates = self._heuristic.shortlist(view, legal, self.shortlist)
        result = search(
            self._game,
            view,
            candidates,
            legal[0].player,
            self._random,
            iterations=self.iterations,
            seconds=self.seconds,
            clock=time.perf_counter if self.seconds is not None else None,
            exploration=self.exploration,
        )
        return result.command

    def __repr__(self) -> str:
        return f"SearchBot(iterations={self.iterations})"


__all__ = [
    "DEFAULT_ITERATIONS",
    "GAME",
    "MODEL_TEMPERATURE",
    "MOST_SHORTLIST",
    "RATINGS_KEPT",
    "SHORTLIST",
    "MultiversusGame",
    "SearchBot",
]
