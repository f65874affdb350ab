"""Sealed Bids behind the engine's one door: bots, the search game, and :data:`RULESET`."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.actions import ActionCodec
from multiversus_core.engine.bots import BotMaker, SearchBot, UniformBot
from multiversus_core.engine.chance import Chance, opens_chance
from multiversus_core.engine.choices import Legal
from multiversus_core.engine.commit import STAND_IN_SALT, fresh_salt
from multiversus_core.engine.errors import SettingsError
from multiversus_core.engine.records import Upcast
from multiversus_core.engine.ruleset import Ruleset, Seat, Table, Viewer, table_of, with_table_of
from multiversus_core.rulesets.sealed_bids import actions, hidden, render, rules
from multiversus_core.rulesets.sealed_bids.position import NOTATION
from multiversus_core.rulesets.sealed_bids.rules import (
    Bid,
    Command,
    SealedBidsSettings,
    SealedBidsState,
)


def win_chance(token: int, others: Sequence[Sequence[int]]) -> float:
    """How likely a bid of ``token`` is the highest unique bid, if each other seat bids
    uniformly at random among its ``others`` options."""
    outcomes = list(itertools.product(*others))
    wins = sum(
        token not in bids and all(b < token or bids.count(b) > 1 for b in bids) for bids in outcomes
    )
    return wins / len(outcomes)


class GreedyBot(UniformBot):
    """Bids the token likeliest to be the highest unique bid, supposing the others bid at
    random among their unused tokens (the lowest on a tie); rolls when it must."""

    def choose(self, view: Any, legal: Legal) -> Any:
        """One of ``legal``, chosen from ``view`` (a :class:`~.hidden.SealedBidsView`)."""
        listed: Sequence[Any] = legal  # type: ignore[assignment]  # this game lists them all
        bids = [command for command in listed if isinstance(command, Bid)]
        if not bids:
            return super().choose(view, legal)
        known = {b.seat: (b.token,) for b in view.bids if isinstance(b, rules.BidCommitted)}
        seats = [seat for seat in rules.SEATS if seat != bids[0].player]
        others = [known.get(seat) or rules.unused_tokens(view.public, seat) for seat in seats]
        return max(bids, key=lambda bid: (win_chance(bid.token, others), -bid.token))


class SearchGame:
    """Sealed Bids as information-set MCTS sees it: the bids are searched in seat order, and a
    playout stops at the end of the round, judged by the score difference."""

    legal = staticmethod(rules.legal_commands)
    determinize = staticmethod(hidden.determinize)

    def to_move(self, state: SealedBidsState) -> Seat | None:
        """The first seat the match waits for, or None once it is over."""
        return next(iter(rules.to_act(state)), None)

    def apply(self, state: SealedBidsState, command: Command) -> SealedBidsState:
        """The state after ``command``; an imagined bid's salt is never revealed to anyone."""
        if isinstance(command, Bid) and command.salt is None and state.settings.salts == "secrets":
            command = replace(command, salt=STAND_IN_SALT)
        return rules.decide(command, state)[1]

    def evaluate(self, state: SealedBidsState, player: Seat) -> float:
        """The result once over; else the lead over the best other seat, as a share of the most
        a match can pay out."""
        if (result := rules.outcome(state)) is not None:
            return result.returns[player - 1]
        best = max(score for seat, score in enumerate(state.scores, 1) if seat != player)
        lead = (state.scores[player - 1] - best) / (6 * state.settings.rounds)
        return max(-1.0, min(1.0, lead))

    def is_horizon(self, start: SealedBidsState, state: SealedBidsState) -> bool:
        """True once the round the playout began in is over."""
        return state.ended or state.round != start.round

    def playout(
        self, state: SealedBidsState, legal: Sequence[Command], rng: random.Random
    ) -> Command:
        """Choose at random."""
        return rng.choice(legal)

    def modelled(
        self, state: SealedBidsState, legal: Sequence[Command], rng: random.Random
    ) -> Command | None:
        """None: every bid is searched, in seat order."""
        return None


class SealedBidsRuleset:
    """The game of Sealed Bids, as the engine sees it: each member of the
    :class:`~multiversus_core.engine.ruleset.Ruleset` protocol, handed to the function of
    :mod:`.rules` or :mod:`.hidden` that holds it."""

    id: Final = "sealed-bids"
    title: Final = "Sealed Bids"
    rules_version: Final = 1
    settings_type: Final = SealedBidsSettings
    command_type: Final[Any] = Command
    event_type: Final[Any] = rules.Event
    end_event: Final = rules.MatchEnded
    view_event_type: Final[Any] = rules.ViewEvent
    view_command_type: Final[Any] = rules.ViewCommand
    viewers: Final = hidden.VIEWERS
    log_upcasts: Final[Mapping[int, Upcast]] = {}
    """Rules version 1 is the first: nothing to upcast."""
    bots: Final[Mapping[str, BotMaker]] = {
        "random": UniformBot,
        "greedy": GreedyBot,
        "mcts": functools.partial(SearchBot, SearchGame(), iterations=200),
    }

    check_settings = staticmethod(rules.check_settings)
    to_act = staticmethod(rules.to_act)
    legal_commands = staticmethod(rules.legal_commands)
    decide = staticmethod(rules.decide)
    evolve = staticmethod(rules.evolve)
    fold = staticmethod(rules.fold)
    outcome = staticmethod(rules.outcome)
    where = staticmethod(rules.where)
    narrate = staticmethod(rules.narrate)
    describe_command = staticmethod(rules.describe_command)
    renderer: Final = render.RENDERER
    """No board; its commands in words (:mod:`.render`)."""
    notation: Final = NOTATION
    """Its positions' limits (:mod:`.position`)."""
    view = staticmethod(hidden.view)
    redact_event = staticmethod(hidden.redact_event)
    redact_command = staticmethod(hidden.redact_command)
    determinize = staticmethod(hidden.determinize)
    fill_event = staticmethod(hidden.fill_event)
    fill_command = staticmethod(hidden.fill_command)
    auditor = staticmethod(rules.BidAuditor)

    def table(self, settings: SealedBidsSettings) -> Table:
        """The settings' seed, chance commitment, salt source and players."""
        return table_of(settings)

    def with_table(self, settings: SealedBidsSettings, table: Table) -> SealedBidsSettings:
        """``settings`` with the table's seed, chance, salts and players."""
        return with_table_of(settings, table)

    def initial_state(self, settings: SealedBidsSettings, chance: Chance | None) -> SealedBidsState:
        """Round 1, nobody has bid yet."""
        if chance is not None and not opens_chance(settings.chance, chance):
            raise SettingsError("chance: the chance seed does not open the settings' commitment")
        return SealedBidsState(settings, chance)

    def viewer_of(self, state: SealedBidsState, seat: Seat | None) -> Viewer:
        """``"seat-N"`` for seat N, ``"spectator"`` for None."""
        return hidden.seat_viewer(seat)

    def salted(self, command: Command, settings: SealedBidsSettings) -> Command:
        """A bid of a ``"secrets"`` match with a fresh salt; anything else unchanged."""
        if settings.salts == "secrets" and isinstance(command, Bid) and command.salt is None:
            return replace(command, salt=fresh_salt())
        return command

    def with_recorded_chance(self, command: Command, events: Sequence[msgspec.Struct]) -> Command:
        """A prize roll supplying the die its recorded events show; anything else unchanged."""
        dice = [event.die for event in events if isinstance(event, rules.PrizeRolled)]
        if isinstance(command, rules.RollPrize) and command.die is None and dice:
            return replace(command, die=dice[0])
        return command

    def search_game(self) -> SearchGame:
        """The one :class:`SearchGame` every search shares: it keeps nothing."""
        return SEARCH_GAME

    def action_codec(self, settings: SealedBidsSettings) -> ActionCodec[Command]:
        """The commands as action ids (:mod:`.actions`): the same for every match."""
        return actions.CODEC


SEARCH_GAME: Final = SearchGame()
RULESET: Final = SealedBidsRuleset()
"""The ruleset of Sealed Bids."""

_CONFORMS: Final[
    Ruleset[SealedBidsSettings, SealedBidsState, Command, rules.Event, hidden.SealedBidsView]
] = RULESET
"""Proves to the type checker that :data:`RULESET` is a ruleset."""
