"""Multiversus behind the engine's :class:`~multiversus_core.engine.ruleset.Ruleset` protocol.

Each member hands over to the module that holds the rule: the engine asks
through here, and the game's own API (:mod:`multiversus_core`) stays as it is.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import msgspec

from multiversus_core.engine.actions import ActionCodec
from multiversus_core.engine.audit import Auditor as AnyAuditor
from multiversus_core.engine.audit import Revealed
from multiversus_core.engine.bots import BotMaker
from multiversus_core.engine.chance import Chance, opens_chance
from multiversus_core.engine.errors import SettingsError
from multiversus_core.engine.ismcts import Game
from multiversus_core.engine.records import Upcast
from multiversus_core.engine.ruleset import (
    Outcome,
    Ruleset,
    Seat,
    Table,
    Viewer,
    table_of,
    with_table_of,
)
from multiversus_core.rulesets.multiversus import (
    chance,
    decide,
    fill,
    legal,
    match,
    narrate,
    render,
    views,
)
from multiversus_core.rulesets.multiversus.actions import codec
from multiversus_core.rulesets.multiversus.audit import Auditor
from multiversus_core.rulesets.multiversus.bots.determinize import determinize
from multiversus_core.rulesets.multiversus.bots.heuristic import HeuristicBot
from multiversus_core.rulesets.multiversus.bots.random import RandomBot
from multiversus_core.rulesets.multiversus.bots.search import GAME, SearchBot
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.events import Event, MatchEnded
from multiversus_core.rulesets.multiversus.evolve import evolve, evolve_all, initial_state
from multiversus_core.rulesets.multiversus.position import NOTATION
from multiversus_core.rulesets.multiversus.secrets import salted
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.upcast import UPCASTS

_NOBODY: Final[tuple[Seat, ...]] = ()
_SEATS: Final[dict[int, tuple[Seat, ...]]] = {1: (1,), 2: (2,)}
"""The one seat to act, interned: the engine asks every state."""


class MultiversusRuleset:
    """Multiversus, as the engine sees it."""

    id: Final = "multiversus"
    title: Final = "Multiversus"
    rules_version: Final = 0
    """Logs of Multiversus carry no rules version: the format version is the payload's."""
    settings_type: Final = MatchSettings
    command_type: Final[Any] = Command
    event_type: Final[Any] = Event
    end_event: Final = MatchEnded
    view_event_type: Final[Any] = views.ViewEvent
    view_command_type: Final[Any] = views.ViewCommand
    viewers: Final[tuple[Viewer, ...]] = views.PLAYER_VIEWERS
    log_upcasts: Final[Mapping[int, Upcast]] = UPCASTS
    notation: Final = NOTATION
    """How its positions are written (:mod:`~multiversus_core.engine.position`)."""
    """Logs of format versions 1 to 3 (:mod:`.upcast`)."""
    renderer: Final = render.RENDERER
    """Its board in SVG and text, and a command in words (:mod:`.render`)."""

    def check_settings(self, settings: MatchSettings) -> None:
        """The teams, scenario and variants exist; the seed, chance and players are sound."""
        match.check_settings(settings)

    def table(self, settings: MatchSettings) -> Table:
        """The settings' seed, chance commitment, salt source and players."""
        return table_of(settings)

    def with_table(self, settings: MatchSettings, table: Table) -> MatchSettings:
        """``settings`` with the table's seed, chance, salts and players."""
        return with_table_of(settings, table)

    def initial_state(self, settings: MatchSettings, chance: Chance | None) -> MatchState:
        """The match before the set-up coin flip: :func:`~.match.start_match` without the
        check of the settings, which :meth:`check_settings` makes.

        :raises SettingsError: if ``chance`` does not open the settings' commitment.
        """
        if chance is not None and not opens_chance(settings.chance, chance):
            raise SettingsError("the chance seed does not open the settings' chance commitment")
        state = initial_state(settings)
        return state if chance is None else msgspec.structs.replace(state, chance=chance)

    def to_act(self, state: MatchState) -> tuple[Seat, ...]:
        """The one seat whose decision the match waits for; none once it is over."""
        seat = decide.decider_seat(state)
        return _NOBODY if seat is None else _SEATS[seat]

    def legal_commands(self, state: MatchState, seat: Seat) -> Sequence[Command]:
        """Every command ``seat`` may give now."""
        return legal.legal_commands(state, seat)  # type: ignore[arg-type]

    def decide(self, command: Command, state: MatchState) -> tuple[tuple[Event, ...], MatchState]:
        """The events of ``command`` and the state they fold into."""
        return decide.decide_and_fold(command, state)

    def evolve(self, state: MatchState, event: Event) -> MatchState:
        """The state after one event."""
        return evolve(state, event)

    def fold(self, state: MatchState, events: Iterable[Event]) -> MatchState:
        """The state after these events."""
        return evolve_all(state, events)

    def outcome(self, state: MatchState) -> Outcome | None:
        """Who won and why, once the match is over."""
        if not state.is_over:
            return None
        winner = None if state.winner is None else state.seat_of(state.winner)
        winners: tuple[Seat, ...] = () if winner is None else (winner,)
        returns = tuple(0.0 if not winners else 1.0 if s in winners else -1.0 for s in (1, 2))
        return Outcome(winners, returns, narrate.result_text(state))

    def where(self, state: MatchState) -> str:
        """Set-up, or the round and the turn in it ("round 3, turn 2")."""
        if state.round == 0:
            return "set-up"
        return f"round {state.round}, turn {state.turns_in_round}"

    def viewer_of(self, state: MatchState, seat: Seat | None) -> Viewer:
        """The side ``seat`` plays, or the spectator (before sides are chosen, or the public)."""
        return views.viewer_of(state, seat)  # type: ignore[arg-type]

    def view(self, state: MatchState, viewer: Viewer) -> views.MatchView:
        """What a side, or the spectator, may know of the match."""
        if viewer not in self.viewers:
            raise ValueError(f"no viewer {viewer!r} in Multiversus: {', '.join(self.viewers)}")
        return views.view(state, viewer)  # type: ignore[call-overload,no-any-return]

    def redact_event(self, event: Event, viewer: Viewer) -> msgspec.Struct:
        """The event, or the placeholder of a secret the viewer may not see."""
        return views.redact_event(event, viewer)  # type: ignore[arg-type]

    def redact_command(self, command: Command, state: MatchState, viewer: Viewer) -> msgspec.Struct:
        """The command, or the placeholder of a secret choice the viewer may not see."""
        return views.redact_command(command, state.side_of(command.player), viewer)  # type: ignore[arg-type]

    def fill_event(
        self, placeholder: msgspec.Struct, revealed: Revealed | None, state: MatchState
    ) -> Sequence[Event]:
        """A hidden selection or secret as its reveal opens it, or stand-ins (:mod:`.fill`)."""
        return fill.fill_event(placeholder, revealed, state)

    def fill_command(
        self, placeholder: msgspec.Struct, events: Sequence[Event], state: MatchState
    ) -> Command | None:
        """A hidden selection or secret command, from its filled-in event (:mod:`.fill`)."""
        return fill.fill_command(placeholder, events, state)

    def determinize(self, view: views.MatchView, rng: random.Random) -> MatchState:
        """A full state consistent with a side's view, hidden parts drawn from ``rng``."""
        return determinize(view, rng)

    def salted(self, command: Command, settings: MatchSettings) -> Command:
        """The command with a fresh salt, if it carries a secret of a ``"secrets"`` match."""
        return salted(command, settings)

    def auditor(self, settings: MatchSettings) -> AnyAuditor:
        """What Multiversus' selections, secrets and reveals commit and open."""
        return Auditor(settings)

    def with_recorded_chance(self, command: Command, events: Sequence[msgspec.Struct]) -> Command:
        """A coin flip or Initiative roll supplying what its events recorded."""
        return chance.with_recorded_chance(command, events)

    @property
    def bots(self) -> Mapping[str, BotMaker]:
        """The random, heuristic and search (``mcts``) bots."""
        return _BOTS

    def search_game(self) -> Game[MatchState, views.MatchView, Command, Seat]:
        """Multiversus as the search sees it."""
        return GAME  # type: ignore[return-value]

    def action_codec(self, settings: MatchSettings) -> ActionCodec[Command]:
        """The commands as action ids, the same for every match of the installed teams."""
        return codec()

    def describe_command(self, shown: msgspec.Struct, state: MatchState) -> str:
        """Who gave the command and what it was; a hidden choice as made in secret."""
        return narrate.shown_command(state, shown)  # type: ignore[arg-type]

    def narrate(self, event: msgspec.Struct, state: MatchState, seat: Seat | None) -> str | None:
        """One event told as the player in ``seat`` (None: the public) may know it."""
        return narrate.describe_event(state, event, seat)  # type: ignore[arg-type]


_BOTS: Final[Mapping[str, BotMaker]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "mcts": SearchBot,
}

RULESET: Final = MultiversusRuleset()
"""The one Multiversus ruleset, as the registry names it."""

_CONFORMS: Ruleset[MatchSettings, MatchState, Command, Event, views.MatchView] = RULESET
