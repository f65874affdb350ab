"""Commit and reveal: how a bid enters the log before anyone else may see it.

A bid is recorded as the engine's commitment (:func:`~multiversus_core.engine.commit.commit`)
over a :class:`BidOpening`: the match, the round, the seat, and the token as
its ``value``. The reveal gives the salt, and anyone can check it opens the
commitment. Salts come from the command (``"secrets"`` matches) or from the
seed (``"seed"`` matches, reproducible but not secret).

:class:`BidAuditor` tells the engine's audit (:mod:`multiversus_core.engine.audit`)
what each event commits, reveals and makes due.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from typing import Final

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.audit import Committed, Due, Revealed, SecretFact
from multiversus_core.engine.commit import commit, fresh_salt, is_salt, seeded_salt
from multiversus_core.engine.errors import InvalidCommandError
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.sealed_bids.commands import Bid, Command
from multiversus_core.rulesets.sealed_bids.events import BidCommitted, BidsRevealed, MatchEnded
from multiversus_core.rulesets.sealed_bids.settings import SealedBidsSettings
from multiversus_core.rulesets.sealed_bids.views import HiddenBidCommitted

_encoder: Final = msgspec.json.Encoder()


class BidOpening(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What a bid's commitment binds, in this field order (the canonical encoding)."""

    match: str
    """:func:`match_id` of the match's settings."""
    round: int
    seat: Seat
    value: tuple[str, ...]
    """The secret: the token, as one decimal string (``("4",)``)."""


@functools.lru_cache(maxsize=16)
def match_id(settings: SealedBidsSettings) -> str:
    """Return the hex SHA-256 of the settings' canonical encoding."""
    return hashlib.sha256(_encoder.encode(settings)).hexdigest()


def opening(settings: SealedBidsSettings, round: int, seat: Seat, token: int) -> BidOpening:
    """Return the opening of ``seat``'s bid of ``token`` in ``round``."""
    return BidOpening(match=match_id(settings), round=round, seat=seat, value=(str(token),))


def check_salt(salt: str | None, settings: SealedBidsSettings) -> None:
    """Check a bid's salt against the match's salt source.

    :raises InvalidCommandError: if the salt is malformed, missing in a ``"secrets"`` match,
        or given in a ``"seed"`` match.
    """
    if salt is not None and not is_salt(salt):
        raise InvalidCommandError("a salt is 64 lower-case hex digits (32 bytes)")
    if settings.salts == "secrets" and salt is None:
        raise InvalidCommandError("this match salts its bids from `secrets`: the bid needs a salt")
    if settings.salts == "seed" and salt is not None:
        raise InvalidCommandError("this match derives its salts from the seed: leave the salt out")


def seal(
    settings: SealedBidsSettings, round: int, seat: Seat, token: int, salt: str | None
) -> tuple[str, str]:
    """Return ``(commitment, salt)`` for a bid; a salt of None is derived from the seed."""
    what = opening(settings, round, seat, token)
    if salt is None:
        salt = seeded_salt(settings.seed, what)
    return commit(salt, what), salt


def salted(command: Command, settings: SealedBidsSettings) -> Command:
    """Return ``command`` with a fresh salt if it is a bid of a ``"secrets"`` match without one."""
    if settings.salts == "secrets" and isinstance(command, Bid) and command.salt is None:
        return replace(command, salt=fresh_salt())
    return command


def bid_key(round: int, seat: Seat) -> str:
    """Return the name of a bid's secret in the match (``"bid:2:3"``: round 2, seat 3)."""
    return f"{round_prefix(round)}{seat}"


def round_prefix(round: int) -> str:
    """Return the start of the name of every bid's secret of ``round`` (``"bid:2:"``)."""
    return f"bid:{round}:"


_END_OF_MATCH: Final = Due(("bid:",), "by the end of the match")

AUDITED: Final = frozenset({BidCommitted, HiddenBidCommitted, BidsRevealed, MatchEnded})
"""The events :meth:`BidAuditor.read` looks at: the audit passes every other kind by."""


class BidAuditor:
    """Reads one Sealed Bids log's events (the whole log or a viewer's) for its secrets.

    A bid commits under :func:`bid_key`; seen in full (by the bidder or the
    referee), it also carries the bidder's own copy, checked at once. The
    reveal opens all three bids of the round and makes the round's bids due;
    the end of the match makes every bid due.
    """

    audited: Final = AUDITED

    def __init__(self, settings: SealedBidsSettings) -> None:
        self.match = match_id(settings)

    def read(self, event: msgspec.Struct) -> Sequence[SecretFact]:
        """Return what one event of the kinds in :data:`AUDITED` commits, reveals or makes due."""
        match event:
            case BidCommitted() | HiddenBidCommitted():
                key, what = bid_key(event.round, event.seat), _what(event.round, event.seat)
                blank = BidOpening(match=self.match, round=event.round, seat=event.seat, value=())
                committed = Committed(key, event.commitment, blank, what)
                if isinstance(event, BidCommitted):
                    own = Revealed(key, event.salt, (str(event.token),), what, own=True)
                    return (committed, own)
                return (committed,)
            case BidsRevealed(round=round, bids=bids):
                reveals = (
                    Revealed(bid_key(round, b.seat), b.salt, (str(b.token),), _what(round, b.seat))
                    for b in bids
                )
                due = Due((round_prefix(round),), f"with the other bids of round {round}")
                return (*reveals, due)
            case MatchEnded():
                return (_END_OF_MATCH,)
            case _:
                return ()


def _what(round: int, seat: Seat) -> str:
    return f"seat {seat}'s bid in round {round}"
