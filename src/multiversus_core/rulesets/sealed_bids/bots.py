"""Bots, and the game as information-set MCTS sees it.

Every bot is given its seat's view and the legal commands only; its
randomness is its own seed's, never the match's chance.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from msgspec.structs import replace

from multiversus_core.engine.bots import BotMaker, UniformBot
from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.sealed_bids.commands import Bid, Command
from multiversus_core.rulesets.sealed_bids.decide import decide, legal_commands, outcome
from multiversus_core.rulesets.sealed_bids.settings import SEATS, TOKENS
from multiversus_core.rulesets.sealed_bids.state import SealedBidsState, to_act
from multiversus_core.rulesets.sealed_bids.views import SealedBidsView, determinize


def win_chance(token: int, others: Sequence[Sequence[int]]) -> float:
    """Return how likely a bid of ``token`` is the highest unique bid, if each other seat
    bids uniformly at random among its ``others`` options."""
    wins = total = 0
    for bids in itertools.product(*others):
        total += 1
        everyone = (token, *bids)
        wins += all(b < token or everyone.count(b) > 1 for b in bids) and token not in bids
    return wins / total if total else 1.0


class GreedyBot:
    """Bids the token most likely to be the round's highest unique bid, supposing the others bid
    at random among their unused tokens; the lowest such token on a tie."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        """Return one of ``legal``.

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if not legal:
            raise IllegalCommandError("there is no legal command to choose from")
        bids = [command for command in legal if isinstance(command, Bid)]
        if not bids or not isinstance(view, SealedBidsView):
            return self._random.choice(legal)  # rolling the prize: the only choice
        me = bids[0].player
        others = [_options(view, seat) for seat in SEATS if seat != me]
        return max(bids, key=lambda bid: (win_chance(bid.token, others), -bid.token))

    def __repr__(self) -> str:
        return "GreedyBot(...)"


def _options(view: SealedBidsView, seat: Seat) -> tuple[int, ...]:
    """The tokens ``seat`` may have bid or may bid this round, as ``view`` knows them."""
    for bid in view.bids:
        if bid.seat == seat and bid.token is not None:
            return (bid.token,)
    return tuple(t for t in TOKENS if t not in view.spent[seat - 1])


BOTS: Final[Mapping[str, BotMaker]] = {"random": UniformBot, "greedy": GreedyBot}
"""The game's bots by name."""


_SEARCH_SALT: Final = "00" * 32
"""The salt a search gives its imagined bids: they are never revealed to anyone."""


class SearchGame:
    """Sealed Bids as :func:`~multiversus_core.engine.ismcts.search` sees it.

    The simultaneous bids are searched one seat after the other, in seat order
    (the search itself gives the root to the searching seat). A playout stops
    at the end of the round and is judged by the score difference. It keeps
    nothing between calls: one instance serves every search.
    """

    def to_move(self, state: SealedBidsState) -> Seat | None:
        """Return the first seat the match waits for, or None once it is over."""
        seats = to_act(state)
        return seats[0] if seats else None

    def legal(self, state: SealedBidsState, player: Seat) -> Sequence[Command]:
        """Return the commands ``player`` may give."""
        return legal_commands(state, player)

    def apply(self, state: SealedBidsState, command: Command) -> SealedBidsState:
        """Return the state after ``command``, salting an imagined bid of a ``"secrets"`` match."""
        if isinstance(command, Bid) and command.salt is None and state.settings.salts == "secrets":
            command = replace(command, salt=_SEARCH_SALT)
        return decide(command, state)[1]

    def determinize(self, view: SealedBidsView, rng: random.Random) -> SealedBidsState:
        """Return a full state consistent with ``view`` (:func:`~.views.determinize`)."""
        return determinize(view, rng)

    def evaluate(self, state: SealedBidsState, player: Seat) -> float:
        """Return the match's result for ``player`` once over; else its lead over the best other
        seat, as a share of the most a match can pay out (-1 to 1)."""
        result = outcome(state)
        if result is not None:
            return result.returns[player - 1]
        mine = state.scores[player - 1]
        best = max(score for seat, score in zip(SEATS, state.scores, strict=True) if seat != player)
        return max(-1.0, min(1.0, (mine - best) / (6 * state.settings.rounds)))

    def is_horizon(self, start: SealedBidsState, state: SealedBidsState) -> bool:
        """True once the round the playout began in is over."""
        return state.ended or state.round != start.round

    def playout(
        self, state: SealedBidsState, legal: Sequence[Command], rng: random.Random
    ) -> Command:
        """Choose at random."""
        return rng.choice(legal)


SEARCH_GAME: Final = SearchGame()
"""The one :class:`SearchGame` every search shares."""
