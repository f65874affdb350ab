"""The rules: settings, commands and events, the state and ``evolve``, ``decide``, the outcome,
and the match in words."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.audit import Committed, Due, Held, Revealed, SecretFact
from multiversus_core.engine.chance import Chance, Seed, dice_seed, roll
from multiversus_core.engine.commit import SaltSource, check_salt, commit, seeded_salt
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError, SettingsError
from multiversus_core.engine.open_game import check_table
from multiversus_core.engine.ruleset import Outcome, Seat

SEATS: Final = (1, 2, 3)
TOKENS: Final = (1, 2, 3, 4, 5)


class _Struct(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    pass


class SealedBidsSettings(_Struct, frozen=True):
    """The players, the length of the match, and where its chance and salts come from."""

    players: tuple[str, str, str] = ("Seat 1", "Seat 2", "Seat 3")
    rounds: int = 3
    seed: Seed = 0
    """The public chance seed; 0 when chance is secret."""
    salts: SaltSource = "seed"
    chance: str = ""
    """The commitment to a secret chance seed; empty when ``seed`` is public."""


def check_settings(settings: SealedBidsSettings) -> None:
    """Check the settings can start a match: :class:`SettingsError` names the first wrong field."""
    check_table(settings, len(SEATS))
    if not 1 <= settings.rounds <= len(TOKENS):
        raise SettingsError(f"rounds: a match lasts 1 to 5 rounds, not {settings.rounds!r}")


# --- commands and events, and the placeholders a viewer sees for what is hidden from them ----


class _Tagged(_Struct, frozen=True, tag_field="kind"):
    pass


class Bid(_Tagged, frozen=True, tag="bid"):
    """Secretly bid one of your unused tokens (with a salt in a ``"secrets"`` match)."""

    player: Seat
    token: int
    salt: str | None = None


class RollPrize(_Tagged, frozen=True, tag="roll_prize"):
    """Roll the prize die once the bids are revealed; ``die`` is one rolled at the table."""

    player: Seat
    die: int | None = None


class HiddenBid(_Tagged, frozen=True, tag="hidden_bid"):
    """A :class:`Bid` as another viewer sees it: who bid, not what."""

    player: Seat


class BidCommitted(_Tagged, frozen=True, tag="bid_committed"):
    """A seat bid in secret: everyone sees the commitment, only the bidder the token and salt."""

    seat: Seat
    round: int
    token: int
    commitment: str
    salt: str


class HiddenBidCommitted(_Tagged, frozen=True, tag="hidden_bid_committed"):
    """A :class:`BidCommitted` as another viewer sees it: who bid and the commitment."""

    seat: Seat
    round: int
    commitment: str


class RevealedBid(_Struct, frozen=True):
    """One seat's bid as the reveal shows it, with the salt that opens its commitment."""

    seat: Seat
    token: int
    salt: str


class BidsRevealed(_Tagged, frozen=True, tag="bids_revealed"):
    """The third seat bid: every bid of the round is revealed, in seat order."""

    round: int
    bids: tuple[RevealedBid, ...]


class PrizeRolled(_Tagged, frozen=True, tag="prize_rolled"):
    """The prize die was rolled: the prize is the die plus any prize carried over."""

    round: int
    die: int
    prize: int


class RoundWon(_Tagged, frozen=True, tag="round_won"):
    """The highest unique bid won the round's prize."""

    round: int
    seat: Seat
    token: int
    prize: int


class PrizeCarried(_Tagged, frozen=True, tag="prize_carried"):
    """No bid was unique: the prize carries over (and is lost after the last round)."""

    round: int
    prize: int


class MatchEnded(_Tagged, frozen=True, tag="match_ended"):
    """The last round was played: the seats with the top score win (none: a draw)."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]


Command: TypeAlias = Bid | RollPrize
Event: TypeAlias = BidCommitted | BidsRevealed | PrizeRolled | RoundWon | PrizeCarried | MatchEnded
ViewCommand: TypeAlias = Command | HiddenBid
ViewEvent: TypeAlias = Event | HiddenBidCommitted


class BidOpening(_Struct, frozen=True):
    """What a bid's commitment binds: the match (:func:`match_id`), the round, the seat, and the
    token as ``value`` (``("4",)``)."""

    match: str
    round: int
    seat: Seat
    value: tuple[str, ...]


@functools.lru_cache(maxsize=16)
def match_id(settings: SealedBidsSettings) -> str:
    """The hex SHA-256 of the settings' canonical encoding."""
    return hashlib.sha256(msgspec.json.encode(settings)).hexdigest()


def opening(settings: SealedBidsSettings, round: int, seat: Seat, token: int) -> BidOpening:
    """The opening of ``seat``'s bid of ``token`` in ``round``."""
    return BidOpening(match_id(settings), round, seat, (str(token),))


class BidAuditor:
    """Reads one log's events (the whole log, or a viewer's) for the bids' secrets: a bid (or its
    placeholder) commits, the reveal opens the round's bids, the end makes every bid due."""

    audited: Final = frozenset({BidCommitted, HiddenBidCommitted, BidsRevealed, MatchEnded})

    def __init__(self, settings: SealedBidsSettings) -> None:
        self.match = match_id(settings)

    def read(self, event: msgspec.Struct) -> Sequence[SecretFact]:
        """What one event says about the bids' secrets."""
        match event:
            case BidCommitted(seat=seat, round=round) | HiddenBidCommitted(seat=seat, round=round):
                key, what = _secret(round, seat)
                blank = BidOpening(self.match, round, seat, ())
                committed = Committed(key, event.commitment, blank, what)
                if isinstance(event, HiddenBidCommitted):
                    return (committed,)
                return committed, Revealed(key, event.salt, (str(event.token),), what, own=True)
            case BidsRevealed(round=round, bids=bids):
                facts: list[SecretFact] = []
                for bid in bids:
                    key, what = _secret(round, bid.seat)
                    facts.append(Revealed(key, bid.salt, (str(bid.token),), what))
                return (*facts, Due((f"bid:{round}:",), f"with the other bids of round {round}"))
            case MatchEnded():
                return (Due(("bid:",), "by the end of the match"),)
        return ()

    def start_at(self, state: SealedBidsState) -> Sequence[Held]:
        """This round's bids not revealed yet, each held with its token and salt."""
        if state.revealed:
            return ()
        held = []
        for bid in state.bids:
            key, what = _secret(bid.round, bid.seat)
            held.append(Held(key, bid.salt, (str(bid.token),), what))
        return tuple(held)


def _secret(round: int, seat: Seat) -> tuple[str, str]:
    """A bid's key in the audit (``"bid:2:3"``), and the bid in words."""
    return f"bid:{round}:{seat}", f"seat {seat}'s bid in round {round}"


# --- the state, and evolve --------------------------------------------------------------------


class SealedBidsState(_Struct, frozen=True):
    """Everything about a match, hidden parts included: the referee's state."""

    settings: SealedBidsSettings
    chance: Chance | None = None
    """The secret chance seed, when the settings commit to one and it is known."""
    round: int = 1
    bids: tuple[BidCommitted, ...] = ()
    """This round's bids, in the order they were given."""
    revealed: bool = False
    spent: tuple[tuple[int, ...], ...] = ((), (), ())
    """The tokens each seat has revealed, seat 1 first."""
    scores: tuple[int, ...] = (0, 0, 0)
    pot: int = 0
    """The prize carried over, plus the die once rolled."""
    draws: int = 0
    """The counter of the next chance draw."""
    ended: bool = False


def unused_tokens(state: SealedBidsState, seat: Seat) -> tuple[int, ...]:
    """The tokens ``seat`` has not revealed yet (public)."""
    return tuple(t for t in TOKENS if t not in state.spent[seat - 1])


def roller(state: SealedBidsState) -> Seat:
    """The seat that rolls this round's prize: seat 1 in round 1, then each in turn."""
    return SEATS[(state.round - 1) % len(SEATS)]


def to_act(state: SealedBidsState) -> tuple[Seat, ...]:
    """The seats the match waits for: every seat yet to bid, or the roller."""
    if state.ended:
        return ()
    if state.revealed:
        return (roller(state),)
    return tuple(seat for seat in SEATS if all(bid.seat != seat for bid in state.bids))


def evolve(state: SealedBidsState, event: Event) -> SealedBidsState:
    """The state after one event."""
    match event:
        case BidCommitted():
            return replace(state, bids=(*state.bids, event))
        case BidsRevealed(bids=bids):
            shown = {bid.seat: (bid.token,) for bid in bids}
            spent = tuple((*used, *shown.get(seat, ())) for seat, used in enumerate(state.spent, 1))
            return replace(state, revealed=True, spent=spent)
        case PrizeRolled(prize=prize):
            return replace(state, pot=prize, draws=state.draws + 1)
        case RoundWon(seat=won, prize=prize):
            scores = tuple(
                s + prize if seat == won else s for seat, s in enumerate(state.scores, 1)
            )
            return _next_round(replace(state, scores=scores), pot=0)
        case PrizeCarried():
            return _next_round(state, pot=state.pot)
        case MatchEnded():
            return replace(state, ended=True)


def _next_round(state: SealedBidsState, pot: int) -> SealedBidsState:
    if state.round == state.settings.rounds:  # nothing to carry the prize to: it is lost
        return replace(state, bids=(), revealed=False, pot=0)
    return replace(state, round=state.round + 1, bids=(), revealed=False, pot=pot)


def fold(state: SealedBidsState, events: Iterable[Event]) -> SealedBidsState:
    """The state after these events, in order."""
    return functools.reduce(evolve, events, state)


# --- decide, the legal commands and the outcome -----------------------------------------------


def decide(command: Command, state: SealedBidsState) -> tuple[tuple[Event, ...], SealedBidsState]:
    """The events ``command`` causes and the state they fold into.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    _check_well_formed(command, state.settings)
    if state.ended:
        raise IllegalCommandError("the match is over")
    events = _bid(command, state) if isinstance(command, Bid) else _roll(command, state)
    return events, fold(state, events)


def _check_well_formed(command: Command, settings: SealedBidsSettings) -> None:
    if type(command.player) is not int or command.player not in SEATS:
        raise InvalidCommandError(f"player must be seat 1, 2 or 3, not {command.player!r}")
    if isinstance(command, RollPrize):
        if command.die is not None and (type(command.die) is not int or not 1 <= command.die <= 6):
            raise InvalidCommandError(f"the prize die shows 1 to 6, not {command.die!r}")
        return
    if type(command.token) is not int or command.token not in TOKENS:
        raise InvalidCommandError(f"a bid is one of the tokens 1 to 5, not {command.token!r}")
    check_salt(command.salt, settings.salts, salted="its bids", needs="the bid needs a salt")


def _bid(command: Bid, state: SealedBidsState) -> tuple[Event, ...]:
    seat, token, round = command.player, command.token, state.round
    if state.revealed:
        raise IllegalCommandError(
            f"the bids of round {round} are in: seat {roller(state)} rolls the prize"
        )
    if seat not in to_act(state):
        raise IllegalCommandError(f"seat {seat} has already bid in round {round}")
    if token not in unused_tokens(state, seat):
        raise IllegalCommandError(f"seat {seat} has already used its {token} token")
    what = opening(state.settings, round, seat, token)
    salt = command.salt or seeded_salt(state.settings.seed, what)
    bid = BidCommitted(seat, round, token, commit(salt, what), salt)
    if len(state.bids) < len(SEATS) - 1:
        return (bid,)
    bids = sorted((*state.bids, bid), key=lambda b: b.seat)  # the last bid reveals them all
    return bid, BidsRevealed(round, tuple(RevealedBid(b.seat, b.token, b.salt) for b in bids))


def _roll(command: RollPrize, state: SealedBidsState) -> tuple[Event, ...]:
    die, round = command.die, state.round
    if not state.revealed:
        raise IllegalCommandError(
            f"the prize of round {round} is rolled once all three seats have bid"
        )
    if command.player != roller(state):
        raise IllegalCommandError(
            f"seat {roller(state)} rolls the prize of round {round}, not seat {command.player}"
        )
    if die is None:
        if state.settings.chance and state.chance is None:
            raise IllegalCommandError(
                "this match's chance is secret and not known here: supply the die as rolled"
            )
        die = roll(dice_seed(state.chance) if state.chance else state.settings.seed, state.draws, 6)
    prize = state.pot + die
    tokens = [bid.token for bid in state.bids]
    unique = [bid for bid in state.bids if tokens.count(bid.token) == 1]
    best = max(unique, key=lambda bid: bid.token, default=None)
    won: Event = (
        RoundWon(round, best.seat, best.token, prize) if best else PrizeCarried(round, prize)
    )
    events = (PrizeRolled(round, die, prize), won)
    if round < state.settings.rounds:
        return events
    scores = fold(state, events).scores
    return (*events, MatchEnded(scores, _winners(scores)))


def _winners(scores: tuple[int, ...]) -> tuple[Seat, ...]:
    top = tuple(seat for seat, score in enumerate(scores, 1) if score == max(scores))
    return () if len(top) == len(SEATS) else top


def legal_commands(state: SealedBidsState, seat: Seat) -> Sequence[Command]:
    """Every command ``seat`` may give now; bids unsalted (``salted`` adds a salt)."""
    if seat not in to_act(state):
        return ()
    if state.revealed:
        return (RollPrize(seat),)
    return tuple(Bid(seat, token) for token in unused_tokens(state, seat))


def outcome(state: SealedBidsState) -> Outcome | None:
    """How the match ended: winners score 1, the others -1; a three-way tie is a draw."""
    if not state.ended:
        return None
    top, winners = max(state.scores), _winners(state.scores)
    if not winners:
        return Outcome((), (0.0, 0.0, 0.0), f"all three tied on {top}")
    returns = tuple(1.0 if seat in winners else -1.0 for seat in SEATS)
    if len(winners) == 1:
        return Outcome(winners, returns, f"seat {winners[0]} scored the most, {top}")
    why = f"seats {winners[0]} and {winners[1]} shared the top score"
    return Outcome(winners, returns, f"{why}, {top}")


# --- words ------------------------------------------------------------------------------------


def where(state: SealedBidsState) -> str:
    """Where the match stands ("round 2, seats 1 and 3 to bid")."""
    if state.ended:
        return "the match is over"
    if state.revealed:
        return f"round {state.round}, seat {roller(state)} to roll the prize"
    *first, last = to_act(state)
    seats = f"seats {', '.join(map(str, first))} and {last}" if first else f"seat {last}"
    return f"round {state.round}, {seats} to bid"


def describe_command(shown: msgspec.Struct, state: SealedBidsState) -> str:
    """Who gave a command (or its placeholder) and what it was."""
    match shown:
        case Bid(player=seat) | HiddenBid(player=seat) | RollPrize(player=seat):
            return f"{state.settings.players[seat - 1]}: {command_words(shown)}"
    return type(shown).__name__


def command_words(command: msgspec.Struct) -> str:
    """What a command (or its placeholder) does, in words, for the player choosing it
    ("bid 4")."""
    match command:
        case Bid(token=token):
            return f"bid {token}"
        case HiddenBid():
            return "bid in secret"
        case RollPrize(die=die):
            return "roll the prize" + ("" if die is None else f" (a {die}, rolled at the table)")
    return type(command).__name__


def narrate(event: msgspec.Struct, state: SealedBidsState, seat: Seat | None) -> str | None:
    """One event (or placeholder) in one line, as the player in ``seat`` (None: the public) may
    know it."""
    name = state.settings.players
    match event:
        case BidCommitted(seat=bidder, round=round, token=token) if bidder == seat:
            return f"{name[bidder - 1]} sealed a bid of {token} in round {round}."
        case BidCommitted(seat=bidder, round=round) | HiddenBidCommitted(seat=bidder, round=round):
            return f"{name[bidder - 1]} sealed a bid in round {round}."
        case BidsRevealed(round=round, bids=bids):
            shown = ", ".join(f"{name[bid.seat - 1]} {bid.token}" for bid in bids)
            return f"The bids of round {round} are revealed: {shown}."
        case PrizeRolled(die=die, prize=prize):
            carried = f" ({die} plus {prize - die} carried over)" if prize > die else ""
            return f"{name[roller(state) - 1]} rolled a {die}: the prize is {prize}{carried}."
        case RoundWon(round=round, seat=won, token=token, prize=prize):
            won_it = f"won round {round} with the highest unique bid"
            return f"{name[won - 1]} {won_it}, {token}: +{prize}."
        case PrizeCarried(round=round, prize=prize):
            fate = "is lost" if round == state.settings.rounds else "carries over"
            return f"No bid of round {round} was unique: the prize of {prize} {fate}."
        case MatchEnded(scores=scores, winners=winners):
            tally = ", ".join(f"{who} {score}" for who, score in zip(name, scores, strict=True))
            if not winners:
                return f"The match ended in a draw: {tally}."
            names = " and ".join(name[w - 1] for w in winners)
            verb = "wins" if len(winners) == 1 else "share the win"
            return f"The match is over: {names} {verb} ({tally})."
    return None
