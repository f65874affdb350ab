"""Views: a match as one viewer may know it, the one door to hidden information.

Hidden from everyone but the bidder until :class:`~.events.BidsRevealed`:
a bid's token and its salt (which, with the token, opens the commitment; the
commitment itself is public). Hidden from everyone: the chance seed, public
or secret (a view's settings say seed 0), so no viewer can foresee the dice
or, in a ``"seed"`` match, work out the salts. The tokens each seat has left
are public: they follow from the revealed bids.

The referee (:data:`~multiversus_core.engine.ruleset.REFEREE`) sees everything:
the engine shows them the state itself and never asks :func:`view` for them;
redacting an event or command for the referee leaves it whole.
"""

from __future__ import annotations

import random
from typing import Final, TypeAlias

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.chance import Chance
from multiversus_core.engine.ruleset import REFEREE, Seat, Viewer
from multiversus_core.rulesets.sealed_bids.commands import Bid, Command
from multiversus_core.rulesets.sealed_bids.events import BidCommitted, Event
from multiversus_core.rulesets.sealed_bids.settings import SealedBidsSettings
from multiversus_core.rulesets.sealed_bids.state import SealedBid, SealedBidsState, unused_tokens

SPECTATOR: Final = "spectator"
"""The public: what every seat may know."""

VIEWERS: Final[tuple[Viewer, ...]] = ("seat-1", "seat-2", "seat-3", SPECTATOR)
"""Every viewer who may not see everything."""


def seat_viewer(seat: Seat | None) -> Viewer:
    """Return the viewer ``seat`` is (``"seat-2"``), or the spectator for None."""
    return SPECTATOR if seat is None else f"seat-{seat}"


def can_see(viewer: Viewer, seat: Seat) -> bool:
    """True if ``viewer`` may see ``seat``'s bid before it is revealed."""
    return viewer in (REFEREE, seat_viewer(seat))


def _check_viewer(viewer: Viewer, referee: bool = True) -> None:
    if viewer == REFEREE and not referee:
        raise ValueError("the referee has no view: they see the state itself")
    if viewer != REFEREE and viewer not in VIEWERS:
        raise ValueError(f"no viewer {viewer!r} (seat-1, seat-2, seat-3, spectator or referee)")


# --- the redacted state ---------------------------------------------------------------


class BidView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A bid of the round under way, as a viewer may know it."""

    seat: Seat
    commitment: str
    """Public: the reveal must open it."""
    token: int | None
    """None while hidden from the viewer."""
    salt: str | None
    """None while hidden from the viewer."""


class SealedBidsView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A match as one seat, or the public, may know it (:class:`SealedBidsState`, redacted).

    Every field but ``settings`` and ``bids`` is the state's own: public.
    """

    viewer: Viewer
    settings: SealedBidsSettings
    """The settings with seed 0: the seed would tell the dice to come."""
    round: int
    bids: tuple[BidView, ...]
    revealed: bool
    spent: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    pot: int
    draws: int
    ended: bool
    winners: tuple[Seat, ...]


def view(state: SealedBidsState, viewer: Viewer) -> SealedBidsView:
    """Return what ``viewer`` (one of :data:`VIEWERS`) may know of ``state``.

    :raises ValueError: if ``viewer`` is not one of :data:`VIEWERS` (the referee
        included: they see the state itself).
    """
    _check_viewer(viewer, referee=False)
    settings = state.settings
    return SealedBidsView(
        viewer=viewer,
        settings=replace(settings, seed=0) if settings.seed else settings,
        round=state.round,
        bids=tuple(_bid_view(bid, viewer, state.revealed) for bid in state.bids),
        revealed=state.revealed,
        spent=state.spent,
        scores=state.scores,
        pot=state.pot,
        draws=state.draws,
        ended=state.ended,
        winners=state.winners,
    )


def _bid_view(bid: SealedBid, viewer: Viewer, revealed: bool) -> BidView:
    shown = revealed or can_see(viewer, bid.seat)
    return BidView(
        seat=bid.seat,
        commitment=bid.commitment,
        token=bid.token if shown else None,
        salt=bid.salt if shown else None,
    )


def determinize(seen: SealedBidsView, rng: random.Random) -> SealedBidsState:
    """Return a full state consistent with ``seen``, hidden parts drawn from ``rng``.

    A hidden bid becomes one of its seat's unused tokens with a random salt;
    the chance seed is drawn afresh (the settings' seed for public chance).
    """
    settings, chance = seen.settings, None
    if settings.chance:
        chance = Chance(seed=rng.getrandbits(64), salt=_random_salt(rng))
    else:
        settings = replace(settings, seed=rng.getrandbits(64))
    state = SealedBidsState(
        settings=settings,
        chance=chance,
        round=seen.round,
        revealed=seen.revealed,
        spent=seen.spent,
        scores=seen.scores,
        pot=seen.pot,
        draws=seen.draws,
        ended=seen.ended,
        winners=seen.winners,
    )
    bids = tuple(
        SealedBid(
            seat=bid.seat,
            commitment=bid.commitment,
            token=rng.choice(unused_tokens(state, bid.seat)) if bid.token is None else bid.token,
            salt=_random_salt(rng) if bid.salt is None else bid.salt,
        )
        for bid in seen.bids
    )
    return replace(state, bids=bids)


def _random_salt(rng: random.Random) -> str:
    return f"{rng.getrandbits(256):064x}"


# --- redacted events and commands -----------------------------------------------------


class _Hidden(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False, tag_field="kind"):
    pass


class HiddenBidCommitted(_Hidden, frozen=True, tag="hidden_bid_committed"):
    """A :class:`~.events.BidCommitted` the viewer may not see: who bid, and the commitment
    the reveal must open, but not the token."""

    seat: Seat
    round: int
    commitment: str


class HiddenBid(_Hidden, frozen=True, tag="hidden_bid"):
    """A :class:`~.commands.Bid` the viewer may not see: who bid, not what."""

    player: Seat


ViewEvent: TypeAlias = Event | HiddenBidCommitted
"""An event as a viewer may know it."""

ViewCommand: TypeAlias = Command | HiddenBid
"""A command as a viewer may know it."""


def redact_event(event: Event, viewer: Viewer) -> ViewEvent:
    """Return ``event`` as ``viewer`` may know it: itself, or a placeholder.

    :raises ValueError: if ``viewer`` is not a viewer of the game.
    """
    _check_viewer(viewer)
    match event:
        case BidCommitted(seat=seat, round=round, commitment=commitment) if not can_see(
            viewer, seat
        ):
            return HiddenBidCommitted(seat=seat, round=round, commitment=commitment)
        case _:
            return event


def redact_command(command: Command, viewer: Viewer) -> ViewCommand:
    """Return ``command`` as ``viewer`` may know it: a bid is the bidder's alone.

    :raises ValueError: if ``viewer`` is not a viewer of the game.
    """
    _check_viewer(viewer)
    if isinstance(command, Bid) and not can_see(viewer, command.player):
        return HiddenBid(player=command.player)
    return command
