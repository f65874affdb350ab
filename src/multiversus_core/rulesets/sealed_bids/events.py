"""Events: the facts a match is made of, in the past tense.

Frozen msgspec structs with an explicit snake_case tag; :data:`Event` is
their union. The placeholders a viewer sees for a bid they may not see are
in :mod:`.views`.
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from multiversus_core.engine.ruleset import Seat


class _Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False, tag_field="kind"):
    pass


class BidCommitted(_Event, frozen=True, tag="bid_committed"):
    """A seat bid a token in secret, committing to it.

    Only the bidder (and the referee) sees ``token`` and ``salt`` before
    :class:`BidsRevealed`; everyone sees ``commitment``.
    """

    seat: Seat
    round: int
    token: int
    commitment: str
    """SHA-256 of the salt and the bid's opening (:func:`~.sealing.opening`)."""
    salt: str
    """The salt, 64 hex digits: secret until revealed."""


class RevealedBid(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One seat's bid as the reveal shows it."""

    seat: Seat
    token: int
    salt: str
    """Opens the commitment of the seat's :class:`BidCommitted`."""


class BidsRevealed(_Event, frozen=True, tag="bids_revealed"):
    """All three seats had bid: every bid of the round was revealed with its salt."""

    round: int
    bids: tuple[RevealedBid, ...]
    """The bids in seat order."""


class PrizeRolled(_Event, frozen=True, tag="prize_rolled"):
    """The prize die was rolled: the round's prize is the die plus any prize carried over."""

    round: int
    die: int
    prize: int


class RoundWon(_Event, frozen=True, tag="round_won"):
    """The highest unique bid won the round's prize."""

    round: int
    seat: Seat
    token: int
    prize: int


class PrizeCarried(_Event, frozen=True, tag="prize_carried"):
    """No bid was unique: nobody scored, and the prize carries over to the next round
    (after the last round, it is lost)."""

    round: int
    prize: int


class MatchEnded(_Event, frozen=True, tag="match_ended"):
    """The last round was played: the seats with the top score win."""

    scores: tuple[int, ...]
    """Each seat's score, seat 1 first."""
    winners: tuple[Seat, ...]
    """The seats that won; empty if all three tied (a draw)."""


Event: TypeAlias = BidCommitted | BidsRevealed | PrizeRolled | RoundWon | PrizeCarried | MatchEnded
"""Every kind of event."""
