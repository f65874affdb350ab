"""The rules, applied to one command: ``decide``, the legal commands and the outcome.

``decide`` is pure: it reads the command and the state, draws chance from
the state's seed (or takes the die the command supplies), and returns the
events and the state they fold into, folding as it goes. Each rule checks
first that its command is well formed (:class:`InvalidCommandError`), then
that the match waits for it (:class:`IllegalCommandError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from multiversus_core.engine.chance import roll
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.engine.ruleset import Outcome, Seat
from multiversus_core.rulesets.sealed_bids.commands import Bid, Command, RollPrize
from multiversus_core.rulesets.sealed_bids.events import (
    BidCommitted,
    BidsRevealed,
    Event,
    MatchEnded,
    PrizeCarried,
    PrizeRolled,
    RevealedBid,
    RoundWon,
)
from multiversus_core.rulesets.sealed_bids.sealing import check_salt, seal
from multiversus_core.rulesets.sealed_bids.settings import SEATS, TOKENS
from multiversus_core.rulesets.sealed_bids.state import (
    SealedBidsState,
    bid_of,
    evolve,
    roller,
    to_act,
    unused_tokens,
)

DIE_SIDES: Final = 6
"""The prize die is a d6."""


class _Decision:
    """The events of one command so far, and the state they fold into."""

    def __init__(self, state: SealedBidsState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        """Record ``event`` and fold it into the state."""
        self.events.append(event)
        self.state = evolve(self.state, event)


def decide(command: Command, state: SealedBidsState) -> tuple[tuple[Event, ...], SealedBidsState]:
    """Return the events ``command`` causes and the state they fold into.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    if not _is_int(command.player) or command.player not in SEATS:
        raise InvalidCommandError(f"player must be seat 1, 2 or 3, not {command.player!r}")
    d = _Decision(state)
    match command:
        case Bid():
            _bid(d, command)
        case RollPrize():
            _roll(d, command)
        case _:
            raise InvalidCommandError(f"{type(command).__name__} is not a command of Sealed Bids")
    return tuple(d.events), d.state


def _bid(d: _Decision, command: Bid) -> None:
    seat, token, state = command.player, command.token, d.state
    if not _is_int(token) or token not in TOKENS:
        raise InvalidCommandError(f"a bid is one of the tokens 1 to 5, not {token!r}")
    check_salt(command.salt, state.settings)
    _check_going_on(state)
    if state.revealed:
        raise IllegalCommandError(
            f"the bids of round {state.round} are in: seat {roller(state)} rolls the prize"
        )
    if bid_of(state, seat) is not None:
        raise IllegalCommandError(f"seat {seat} has already bid in round {state.round}")
    if token not in unused_tokens(state, seat):
        raise IllegalCommandError(f"seat {seat} has already used its {token} token")
    commitment, salt = seal(state.settings, state.round, seat, token, command.salt)
    d.emit(
        BidCommitted(seat=seat, round=state.round, token=token, commitment=commitment, salt=salt)
    )
    bids = sorted(d.state.bids, key=lambda bid: bid.seat)
    if len(bids) == len(SEATS):  # the last bid reveals them all
        revealed = tuple(RevealedBid(seat=b.seat, token=b.token, salt=b.salt) for b in bids)
        d.emit(BidsRevealed(round=state.round, bids=revealed))


def _roll(d: _Decision, command: RollPrize) -> None:
    die, state = command.die, d.state
    if die is not None and (not _is_int(die) or not 1 <= die <= DIE_SIDES):
        raise InvalidCommandError(f"the prize die shows 1 to {DIE_SIDES}, not {die!r}")
    _check_going_on(state)
    if not state.revealed:
        raise IllegalCommandError(
            f"the prize of round {state.round} is rolled once all three seats have bid"
        )
    if command.player != roller(state):
        raise IllegalCommandError(
            f"seat {roller(state)} rolls the prize of round {state.round}, "
            f"not seat {command.player}"
        )
    if die is None:
        die = roll(_seed(state), state.draws, DIE_SIDES)
    round, last = state.round, state.round >= state.settings.rounds
    d.emit(PrizeRolled(round=round, die=die, prize=state.pot + die))
    prize = d.state.pot
    tokens = [bid.token for bid in state.bids]
    unique = [bid for bid in state.bids if tokens.count(bid.token) == 1]
    if unique:
        best = max(unique, key=lambda bid: bid.token)
        d.emit(RoundWon(round=round, seat=best.seat, token=best.token, prize=prize))
    else:
        d.emit(PrizeCarried(round=round, prize=prize))
    if last:
        scores = d.state.scores
        top = max(scores)
        winners = tuple(seat for seat, score in zip(SEATS, scores, strict=True) if score == top)
        d.emit(MatchEnded(scores=scores, winners=() if len(winners) == len(SEATS) else winners))


def _seed(state: SealedBidsState) -> int:
    """The seed of the match's chance: public in the settings, or the referee's secret."""
    if not state.settings.chance:
        return state.settings.seed
    if state.chance is None:
        raise IllegalCommandError(
            "this match's chance is secret and not known here: supply the die as rolled"
        )
    return state.chance.seed


def _check_going_on(state: SealedBidsState) -> None:
    if state.ended:
        raise IllegalCommandError("the match is over")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def legal_commands(state: SealedBidsState, seat: Seat) -> Sequence[Command]:
    """Return every command ``seat`` may give now (empty if the match does not wait for it).

    A bid is listed without a salt: in a ``"secrets"`` match, pass it through
    :func:`~.sealing.salted` before deciding it.
    """
    if seat not in to_act(state):
        return ()
    if state.revealed:
        return (RollPrize(player=seat),)
    return tuple(Bid(player=seat, token=token) for token in unused_tokens(state, seat))


def outcome(state: SealedBidsState) -> Outcome | None:
    """Return how the match ended, or None while it goes on.

    Winners score 1 and the others -1; if all three tie, it is a draw and all score 0.
    """
    if not state.ended:
        return None
    winners, top = state.winners, max(state.scores)
    if not winners:
        return Outcome(winners=(), returns=(0.0,) * len(SEATS), reason=f"all three tied on {top}")
    returns = tuple(1.0 if seat in winners else -1.0 for seat in SEATS)
    if len(winners) == 1:
        reason = f"seat {winners[0]} scored the most, {top}"
    else:
        reason = f"seats {winners[0]} and {winners[1]} shared the top score, {top}"
    return Outcome(winners=winners, returns=returns, reason=reason)
