"""A match in words: where it stands, and one line of plain English per event."""

from __future__ import annotations

import msgspec

from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.sealed_bids.events import (
    BidCommitted,
    BidsRevealed,
    MatchEnded,
    PrizeCarried,
    PrizeRolled,
    RoundWon,
)
from multiversus_core.rulesets.sealed_bids.state import SealedBidsState, roller, to_act
from multiversus_core.rulesets.sealed_bids.views import HiddenBidCommitted, can_see, seat_viewer


def where(state: SealedBidsState) -> str:
    """Say where the match stands ("round 2, seats 1 and 3 to bid")."""
    if state.ended:
        return "the match is over"
    if state.revealed:
        return f"round {state.round}, seat {roller(state)} to roll the prize"
    seats = to_act(state)
    if len(seats) == 1:
        return f"round {state.round}, seat {seats[0]} to bid"
    listed = ", ".join(str(seat) for seat in seats[:-1])
    return f"round {state.round}, seats {listed} and {seats[-1]} to bid"


def narrate(event: msgspec.Struct, state: SealedBidsState, seat: Seat | None = None) -> str:
    """Tell one event (or a placeholder), as it happened in ``state``, in one line, as the
    player in ``seat`` (None: the public) may know it: another seat's bid is told sealed,
    its token untold."""

    def name(seat: Seat) -> str:
        return state.settings.players[seat - 1]

    match event:
        case BidCommitted(seat=bidder, round=round, token=token) if can_see(
            seat_viewer(seat), bidder
        ):
            return f"{name(bidder)} sealed a bid of {token} in round {round}."
        case BidCommitted(seat=seat, round=round) | HiddenBidCommitted(seat=seat, round=round):
            return f"{name(seat)} sealed a bid in round {round}."
        case BidsRevealed(round=round, bids=bids):
            shown = ", ".join(f"{name(bid.seat)} {bid.token}" for bid in bids)
            return f"The bids of round {round} are revealed: {shown}."
        case PrizeRolled(die=die, prize=prize):
            carried = prize - die
            extra = f" ({die} plus {carried} carried over)" if carried else ""
            return f"{name(roller(state))} rolled a {die}: the prize is {prize}{extra}."
        case RoundWon(round=round, seat=seat, token=token, prize=prize):
            return f"{name(seat)} won round {round} with the highest unique bid, {token}: +{prize}."
        case PrizeCarried(round=round, prize=prize):
            if round >= state.settings.rounds:
                return f"No bid of round {round} was unique: the prize of {prize} is lost."
            return f"No bid of round {round} was unique: the prize of {prize} carries over."
        case MatchEnded(scores=scores, winners=winners):
            tally = ", ".join(f"{name(i + 1)} {score}" for i, score in enumerate(scores))
            if not winners:
                return f"The match ended in a draw: {tally}."
            names = " and ".join(name(seat) for seat in winners)
            verb = "wins" if len(winners) == 1 else "share the win"
            return f"The match is over: {names} {verb} ({tally})."
        case _:
            return f"An event Sealed Bids does not know: {type(event).__name__}."
