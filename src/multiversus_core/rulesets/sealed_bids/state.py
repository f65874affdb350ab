"""The state of a match, and how each event changes it (``evolve``)."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.chance import Chance
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.sealed_bids.events import (
    BidCommitted,
    BidsRevealed,
    Event,
    MatchEnded,
    PrizeCarried,
    PrizeRolled,
    RoundWon,
)
from multiversus_core.rulesets.sealed_bids.settings import SEATS, TOKENS, SealedBidsSettings


class SealedBid(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A bid of the round under way, as the referee knows it."""

    seat: Seat
    token: int
    commitment: str
    salt: str


class SealedBidsState(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Everything about a match, hidden parts included: the referee's state."""

    settings: SealedBidsSettings
    chance: Chance | None = None
    """The secret chance seed, when the settings commit to one and it is known."""
    round: int = 1
    """The round under way, from 1 (the last round once the match is over)."""
    bids: tuple[SealedBid, ...] = ()
    """This round's bids, in the order they were given."""
    revealed: bool = False
    """This round's bids are revealed: the prize waits to be rolled."""
    spent: tuple[tuple[int, ...], ...] = ((), (), ())
    """The tokens each seat has revealed (so used up), seat 1 first."""
    scores: tuple[int, ...] = (0, 0, 0)
    """Each seat's score, seat 1 first."""
    pot: int = 0
    """The prize at stake: what was carried over, plus the die once rolled."""
    draws: int = 0
    """How many chance draws the match has taken (the counter of the next roll)."""
    ended: bool = False
    winners: tuple[Seat, ...] = ()
    """The seats that won, once the match is over (empty for a draw)."""


def unused_tokens(state: SealedBidsState, seat: Seat) -> tuple[int, ...]:
    """Return the tokens ``seat`` has not revealed yet (public: its own hidden bid included)."""
    spent = state.spent[seat - 1]
    return tuple(t for t in TOKENS if t not in spent)


def bid_of(state: SealedBidsState, seat: Seat) -> SealedBid | None:
    """Return ``seat``'s bid this round, or None if it has not bid yet."""
    for bid in state.bids:
        if bid.seat == seat:
            return bid
    return None


def roller(state: SealedBidsState) -> Seat:
    """Return the seat that rolls this round's prize: seat 1 in round 1, then in turn."""
    return SEATS[(state.round - 1) % len(SEATS)]


def to_act(state: SealedBidsState) -> tuple[Seat, ...]:
    """Return the seats the match waits for: every seat yet to bid, or the roller."""
    if state.ended:
        return ()
    if state.revealed:
        return (roller(state),)
    bidden = {bid.seat for bid in state.bids}
    return tuple(seat for seat in SEATS if seat not in bidden)


def evolve(state: SealedBidsState, event: Event) -> SealedBidsState:
    """Return the state after one event. Never fails, never draws, never checks."""
    match event:
        case BidCommitted(seat=seat, token=token, commitment=commitment, salt=salt):
            bid = SealedBid(seat=seat, token=token, commitment=commitment, salt=salt)
            return replace(state, bids=(*state.bids, bid))
        case BidsRevealed(bids=bids):
            tokens = {bid.seat: bid.token for bid in bids}
            spent = tuple(
                (*used, tokens[seat]) if seat in tokens else used
                for seat, used in zip(SEATS, state.spent, strict=True)
            )
            return replace(state, revealed=True, spent=spent)
        case PrizeRolled(prize=prize):
            return replace(state, pot=prize, draws=state.draws + 1)
        case RoundWon(seat=seat, prize=prize):
            scores = tuple(
                score + prize if i == seat else score
                for i, score in zip(SEATS, state.scores, strict=True)
            )
            return _next_round(replace(state, scores=scores, pot=0))
        case PrizeCarried():
            if state.round >= state.settings.rounds:
                state = replace(state, pot=0)  # nothing to carry it to: lost
            return _next_round(state)
        case MatchEnded(winners=winners):
            return replace(state, ended=True, winners=winners)


def _next_round(state: SealedBidsState) -> SealedBidsState:
    last = state.round >= state.settings.rounds
    return replace(state, round=state.round if last else state.round + 1, bids=(), revealed=False)


def fold(state: SealedBidsState, events: Iterable[Event]) -> SealedBidsState:
    """Return the state after these events, in order."""
    for event in events:
        state = evolve(state, event)
    return state
