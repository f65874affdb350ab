"""Sealed Bids' commands as action ids (:mod:`multiversus_core.engine.actions`): a bid of each
token, then the prize roll, whose die is a chance point."""

from __future__ import annotations

from multiversus_core.engine.actions import ActionCodec, Kind
from multiversus_core.rulesets.sealed_bids.rules import TOKENS, Bid, Command, RollPrize

CODEC: ActionCodec[Command] = ActionCodec(
    (Kind(Bid, (("token", TOKENS),)), Kind(RollPrize, chance="die", sides=6))
)
"""The one codec of every match: bids 0 to 4 (tokens 1 to 5), the roll 5."""
