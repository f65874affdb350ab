"""Hidden information: views, redaction and determinization.

A bid's token and salt are seen by the bidder alone until the reveal; the
chance seed by nobody (a view's settings say seed 0). The referee sees the
state itself: the engine never asks :func:`view` for them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.audit import Revealed
from multiversus_core.engine.chance import Chance
from multiversus_core.engine.commit import STAND_IN_SALT
from multiversus_core.engine.ruleset import REFEREE, Seat, Viewer
from multiversus_core.rulesets.sealed_bids.rules import (
    Bid,
    BidCommitted,
    Command,
    Event,
    HiddenBid,
    HiddenBidCommitted,
    SealedBidsState,
    ViewCommand,
    ViewEvent,
    unused_tokens,
)

VIEWERS: Final[tuple[Viewer, ...]] = ("seat-1", "seat-2", "seat-3", "spectator")


def seat_viewer(seat: Seat | None) -> Viewer:
    """The viewer ``seat`` is (``"seat-2"``), or the spectator for None."""
    return "spectator" if seat is None else f"seat-{seat}"


def _seen(bid: BidCommitted, viewer: Viewer) -> BidCommitted | HiddenBidCommitted:
    if viewer in (REFEREE, seat_viewer(bid.seat)):
        return bid
    return HiddenBidCommitted(bid.seat, bid.round, bid.commitment)


def redact_event(event: Event, viewer: Viewer) -> ViewEvent:
    """``event`` as ``viewer`` may know it: another seat's bid becomes a placeholder."""
    return _seen(event, viewer) if isinstance(event, BidCommitted) else event


def redact_command(command: Command, state: SealedBidsState, viewer: Viewer) -> ViewCommand:
    """``command`` as ``viewer`` may know it: a bid is the bidder's alone."""
    if isinstance(command, Bid) and viewer not in (REFEREE, seat_viewer(command.player)):
        return HiddenBid(command.player)
    return command


class SealedBidsView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A match as one seat, or the public, may know it."""

    viewer: Viewer
    public: SealedBidsState
    """The state without its secrets: no bids, no chance seed (seed 0)."""
    bids: tuple[BidCommitted | HiddenBidCommitted, ...]
    """This round's bids as the viewer may see them."""


def view(state: SealedBidsState, viewer: Viewer) -> SealedBidsView:
    """What ``viewer`` may know of ``state``."""
    if viewer == REFEREE:
        raise ValueError("the referee has no view: they see the state itself")
    public = replace(state, settings=replace(state.settings, seed=0), chance=None, bids=())
    bids = state.bids if state.revealed else tuple(_seen(b, viewer) for b in state.bids)
    return SealedBidsView(viewer, public, bids)


def _salt(rng: random.Random) -> str:
    return f"{rng.getrandbits(256):064x}"


def determinize(seen: SealedBidsView, rng: random.Random) -> SealedBidsState:
    """A full state ``seen`` cannot tell from the truth: a hidden bid is one of its seat's unused
    tokens, and the chance seed is drawn afresh."""
    state, settings = seen.public, seen.public.settings
    if settings.chance:
        state = replace(state, chance=Chance(rng.getrandbits(64), _salt(rng)))
    else:
        state = replace(state, settings=replace(settings, seed=rng.getrandbits(64)))
    bids = tuple(
        BidCommitted(
            b.seat, b.round, rng.choice(unused_tokens(state, b.seat)), b.commitment, _salt(rng)
        )
        if isinstance(b, HiddenBidCommitted)
        else b
        for b in seen.bids
    )
    return replace(state, bids=bids)


def fill_event(
    placeholder: msgspec.Struct, revealed: Revealed | None, state: SealedBidsState
) -> tuple[BidCommitted]:
    """The bid a hidden one was, as its reveal opens it; never revealed, a stand-in: the seat's
    first unused token (the round's reveal comes with its last bid, so nothing depends on it)."""
    if not isinstance(placeholder, HiddenBidCommitted):
        raise ValueError(f"not a placeholder of a Sealed Bids event: {placeholder!r}")
    seat, round, commitment = placeholder.seat, placeholder.round, placeholder.commitment
    if revealed is not None:
        return (BidCommitted(seat, round, int(revealed.value[0]), commitment, revealed.salt),)
    return (BidCommitted(seat, round, unused_tokens(state, seat)[0], commitment, ""),)


def fill_command(
    placeholder: msgspec.Struct, events: Sequence[msgspec.Struct], state: SealedBidsState
) -> Bid | None:
    """The bid a hidden one was, from its filled-in event, salted as given in a ``"secrets"``
    match."""
    if not isinstance(placeholder, HiddenBid):
        raise ValueError(f"not a placeholder of a Sealed Bids command: {placeholder!r}")
    for event in events:
        if isinstance(event, BidCommitted):
            salt = (event.salt or STAND_IN_SALT) if state.settings.salts == "secrets" else None
            return Bid(placeholder.player, event.token, salt)
    return None
