"""Sealed Bids positions as text: written against the match's start
(:mod:`~multiversus_core.engine.position`), every count and token within the rules.

A seat's position (:func:`~multiversus_core.engine.position.redact_position`) hides
another seat's bid not revealed yet: it stands in as that seat's first unused token,
with an empty salt (the round's reveal comes with its last bid, so nothing depends
on it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from msgspec.structs import replace

from multiversus_core.engine.audit import Revealed
from multiversus_core.engine.position import Bound, Initial, Known, Limit, PositionError
from multiversus_core.rulesets.sealed_bids.hidden import seat_viewer
from multiversus_core.rulesets.sealed_bids.rules import (
    SEATS,
    TOKENS,
    SealedBidsState,
    unused_tokens,
)

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

    def hide(self, state: SealedBidsState, viewer: str) -> tuple[SealedBidsState, tuple[str, ...]]:
        """``state`` as ``viewer`` may know it: each other seat's bid not revealed yet stood
        in for by that seat's first unused token, with an empty salt; and their audit keys
        (``bid:2:3``: round 2, seat 3)."""
        if state.revealed:
            return state, ()
        keys: list[str] = []
        bids = list(state.bids)
        for index, bid in enumerate(bids):
            if viewer != seat_viewer(bid.seat):
                bids[index] = replace(bid, token=unused_tokens(state, bid.seat)[0], salt="")
                keys.append(f"bid:{bid.round}:{bid.seat}")
        if not keys:
            return state, ()
        return replace(state, bids=tuple(bids)), tuple(keys)

    def fill(
        self, state: SealedBidsState, key: str, revealed: Revealed | None
    ) -> tuple[SealedBidsState, ...]:
        """``state`` with the stand-in bid under ``key`` filled in from its reveal; never
        revealed, the state itself.

        :raises PositionError: if ``key`` names no bid of the state.
        """
        found = [i for i, b in enumerate(state.bids) if f"bid:{b.round}:{b.seat}" == key]
        if not found:
            raise PositionError(f"hidden: no bid {key!r}")
        if revealed is None:
            return (state,)
        (index,) = found
        token = revealed.value[0]
        if not token.isdigit() or int(token) not in TOKENS:
            raise PositionError(f"the reveal of {key!r} gives {token[:8]!r}, not a token")
        bids = list(state.bids)
        bids[index] = replace(bids[index], token=int(token), salt=revealed.salt)
        return (replace(state, bids=tuple(bids)),)


NOTATION: Final = SealedBidsNotation()
"""Sealed Bids' notation, as its ruleset offers it."""
