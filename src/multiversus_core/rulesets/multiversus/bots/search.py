"""Multiversus behind the narrow interface a generic search needs (:class:`ismcts.Game`).

States are :class:`MatchState`, views :class:`MatchView`, commands
:class:`Command` and players seats. The game provides:

- the determinization (:func:`~multiversus_core.rulesets.multiversus.bots.determinize.determinize`);
- the evaluation (:func:`~multiversus_core.rulesets.multiversus.bots.evaluation.evaluate`, for the
  side a seat plays);
- the horizon: a playout stops when the turn it began in ends (or the match);
- the playout policy: :class:`~multiversus_core.bots.RandomBot`'s, more
  eager to act.

:class:`SearchBot` is the ``mcts`` bot: ISMCTS from its own view, with an
iteration budget (reproducible with a seed) or a time budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from multiversus_core.engine.ismcts import search
from multiversus_core.rulesets.multiversus.bots.determinize import apply_sampled, determinize
from multiversus_core.rulesets.multiversus.bots.evaluation import evaluate
from multiversus_core.rulesets.multiversus.bots.heuristic import HeuristicBot
from multiversus_core.rulesets.multiversus.bots.random import random_choice
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat
from multiversus_core.rulesets.multiversus.views import MatchView

DEFAULT_ITERATIONS: Final = 120
"""The ``mcts`` bot's iterations a decision unless its spec names another number."""

_SET_UP: Final = frozenset({"flip", "teams", "starting_team", "side", "secret"})


class MultiversusGame:
    """Multiversus as a search sees it: views, legal commands, apply, and the game's own
    determinization, evaluation, horizon and playout policy."""

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
        """A full state consistent with ``view`` (:func:`determinize`)."""
        return determinize(view, rng)

    def evaluate(self, state: MatchState, player: Seat) -> float:
        """How good ``state`` is for the side ``player`` plays, from -1 to 1."""
        side = state.side_of(player)
        return 0.0 if side is None else evaluate(state, side)

    def is_horizon(self, start: MatchState, state: MatchState) -> bool:
        """True once the turn ``start`` was in has ended."""
        return state.is_over or state.round != start.round or state.active != start.active

    def playout(self, state: MatchState, legal: Sequence[Command], rng: random.Random) -> Command:
        """A quick random choice that mostly acts and closes in."""
        return random_choice(state.figures, legal, rng, hold_back=0.05, advance=0.8)


GAME: Final = MultiversusGame()
"""The one instance the search bot uses."""


class SearchBot:
    """The ``mcts`` bot: information-set MCTS from its side's view.

    ``iterations`` bounds each decision; ``seconds``, if given, also stops a
    decision once that much time has passed (then it is no longer
    reproducible). Among many coin selections it searches the ``shortlist``
    the heuristic rates best. Set-up decisions and the steps of a move are the
    heuristic's (:class:`~.bots.heuristic.HeuristicBot`, with its
    own seed): searching each step of a move would cost a search a space.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = 0.3,
        shortlist: int = 6,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"a search needs at least one iteration, not {iterations}")
        self._random = random.Random(seed)
        self._heuristic = HeuristicBot(self._random.getrandbits(64))
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.shortlist = shortlist

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Return one of ``legal`` (never empty), given the deciding side's ``view``."""
        if len(legal) == 1:
            return legal[0]
        if view.pending in _SET_UP or view.pending in ("move", "after_attack"):
            return self._heuristic.choose(view, legal)
        # The heuristic's best few coin selections: the search spends its budget on them.
        candidates = self._heuristic.shortlist(view, legal, self.shortlist)
        result = search(
            GAME,
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


__all__ = ["DEFAULT_ITERATIONS", "GAME", "MultiversusGame", "SearchBot"]
