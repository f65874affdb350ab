"""Sealed Bids positions as text: written against the match's start
(:mod:`~multiversus_core.engine.position`), every count and token within the rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from multiversus_core.engine.position import Bound, Initial, Known, Limit, PositionError
from multiversus_core.rulesets.sealed_bids.rules import SEATS, TOKENS, SealedBidsState

__all__ = ["NOTATION", "SealedBidsNotation"]

_DIE: Final = 6
"""The prize die's highest face."""


class SealedBidsNotation(Initial):
    """Every count within the rules, every token one a seat holds."""

    def limits(self, state: SealedBidsState) -> Iterator[Limit]:
        """The round within the match's rounds, this round's bids by seats at the table
        with tokens they have not spent, each token spent a token (one a round revealed), and the
        scores and pot within what the prize dice can give."""
        rounds = state.settings.rounds
        yield Bound("round", state.round, 1, rounds)
        for index, bid in enumerate(state.bids):
            path = f"bids.{index}"
            yield Known(f"{path}.seat", bid.seat, SEATS, "a seat")
            yield Bound(f"{path}.round", bid.round, state.round, state.round)
            if bid.seat in SEATS and len(state.spent) == len(SEATS):
                spent = state.spent[bid.seat - 1]
                if state.revealed:  # the reveal spent it
                    yield Known(f"{path}.token", bid.token, spent, "a token its seat spent")
                else:
                    unused = [t for t in TOKENS if t not in spent]
                    yield Known(f"{path}.token", bid.token, unused, "a token its seat holds")
        done = state.round if state.revealed or state.ended else state.round - 1
        for index, tokens in enumerate(state.spent):  # one token a round revealed
            for token in tokens:
                yield Known(f"spent.{index}", token, TOKENS, "a token")
            yield Bound(f"spent.{index}: tokens spent", len(tokens), 0, done)
        most = _DIE * rounds  # every prize of the match, carried or won
        for index, score in enumerate(state.scores):
            yield Bound(f"scores.{index}", score, 0, most)
        yield Bound("pot", state.pot, 0, most)

    def check(self, state: SealedBidsState) -> None:
        """A seat for each pile of spent tokens and each score, one bid a seat, and no
        token spent twice.

        :raises PositionError: naming the field.
        """
        for name in ("spent", "scores"):
            if len(getattr(state, name)) != len(SEATS):
                raise PositionError(f"{name}: one for each of the {len(SEATS)} seats")
        seats = [bid.seat for bid in state.bids]
        if len(set(seats)) != len(seats):
            raise PositionError("bids: one bid a seat")
        for index, tokens in enumerate(state.spent):
            if len(set(tokens)) != len(tokens):
                raise PositionError(f"spent.{index}: a token is spent once")


NOTATION: Final = SealedBidsNotation()
"""Sealed Bids' notation, as its ruleset offers it."""
