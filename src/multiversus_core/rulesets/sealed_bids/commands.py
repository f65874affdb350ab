"""Commands: what a seat asks to do, one decision each.

Frozen msgspec structs with an explicit snake_case tag; each names the seat
that gives it (``player``).
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from multiversus_core.engine.ruleset import Seat


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False, tag_field="kind"):
    player: Seat
    """The seat giving the command (1 to 3)."""


class Bid(_Command, frozen=True, tag="bid"):
    """Secretly bid one of your unused tokens this round."""

    token: int
    """The token bid, 1 to 5."""
    salt: str | None = None
    """The commitment's salt, 64 hex digits: needed when the match's salts come from
    ``"secrets"`` (:func:`~.sealing.salted` fills it in), refused when they come from the seed."""


class RollPrize(_Command, frozen=True, tag="roll_prize"):
    """Roll the round's prize die, once all three bids are revealed.

    ``die`` is a physical die rolled at the table (1 to 6); leave it None to
    roll the match's seeded die.
    """

    die: int | None = None


Command: TypeAlias = Bid | RollPrize
"""Every kind of command."""
