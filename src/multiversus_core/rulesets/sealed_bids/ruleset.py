"""Sealed Bids behind the engine's one door: :class:`SealedBidsRuleset` and :data:`RULESET`."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.audit import Auditor
from multiversus_core.engine.bots import BotMaker
from multiversus_core.engine.chance import Chance, opens_chance
from multiversus_core.engine.errors import SettingsError
from multiversus_core.engine.ismcts import Game
from multiversus_core.engine.ruleset import Outcome, Seat, Table, Viewer
from multiversus_core.rulesets.sealed_bids import decide as rules
from multiversus_core.rulesets.sealed_bids import sealing, views, words
from multiversus_core.rulesets.sealed_bids.bots import BOTS, SEARCH_GAME
from multiversus_core.rulesets.sealed_bids.commands import Command, RollPrize
from multiversus_core.rulesets.sealed_bids.events import Event, MatchEnded, PrizeRolled
from multiversus_core.rulesets.sealed_bids.settings import SealedBidsSettings, check_settings
from multiversus_core.rulesets.sealed_bids.state import SealedBidsState, evolve, fold, to_act
from multiversus_core.rulesets.sealed_bids.views import SealedBidsView, ViewCommand, ViewEvent


class SealedBidsRuleset:
    """The game of Sealed Bids, as the engine sees it
    (:class:`~multiversus_core.engine.ruleset.Ruleset`)."""

    @property
    def id(self) -> str:
        """``"sealed-bids"``."""
        return "sealed-bids"

    @property
    def title(self) -> str:
        """``"Sealed Bids"``."""
        return "Sealed Bids"

    @property
    def rules_version(self) -> int:
        """The version of the commands, events and settings that logs record."""
        return 1

    @property
    def settings_type(self) -> type[SealedBidsSettings]:
        """:class:`~.settings.SealedBidsSettings`."""
        return SealedBidsSettings

    @property
    def command_type(self) -> Any:
        """The union of the commands, :data:`~.commands.Command`."""
        return Command

    @property
    def event_type(self) -> Any:
        """The union of the events, :data:`~.events.Event`."""
        return Event

    @property
    def end_event(self) -> type[MatchEnded]:
        """:class:`~.events.MatchEnded`: the last event of every match."""
        return MatchEnded

    @property
    def view_event_type(self) -> Any:
        """The events and the placeholder of a hidden bid, :data:`~.views.ViewEvent`."""
        return ViewEvent

    @property
    def view_command_type(self) -> Any:
        """The commands and the placeholder of a hidden bid, :data:`~.views.ViewCommand`."""
        return ViewCommand

    @property
    def viewers(self) -> tuple[Viewer, ...]:
        """Each seat (``"seat-1"`` to ``"seat-3"``) and the ``"spectator"``."""
        return views.VIEWERS

    # --- a match ----------------------------------------------------------------------

    def check_settings(self, settings: SealedBidsSettings) -> None:
        """Check the settings can start a match.

        :raises SettingsError: naming the first field that is wrong.
        """
        check_settings(settings)

    def table(self, settings: SealedBidsSettings) -> Table:
        """Return the settings' chance, salts and players."""
        s = settings
        return Table(seed=s.seed, chance=s.chance, salts=s.salts, players=s.players)

    def with_chance(self, settings: SealedBidsSettings, commitment: str) -> SealedBidsSettings:
        """Return ``settings`` with seed 0 and this chance commitment."""
        return replace(settings, seed=0, chance=commitment)

    def initial_state(self, settings: SealedBidsSettings, chance: Chance | None) -> SealedBidsState:
        """Return round 1 with nobody bid yet.

        :raises SettingsError: if ``chance`` does not open the settings' chance commitment.
        """
        if chance is not None and not opens_chance(settings.chance, chance):
            raise SettingsError("chance: the chance seed does not open the settings' commitment")
        return SealedBidsState(settings=settings, chance=chance)

    def to_act(self, state: SealedBidsState) -> tuple[Seat, ...]:
        """Return every seat yet to bid this round, or the seat to roll the prize."""
        return to_act(state)

    def legal_commands(self, state: SealedBidsState, seat: Seat) -> Sequence[Command]:
        """Return every command ``seat`` may give now (bids unsalted)."""
        return rules.legal_commands(state, seat)

    def decide(
        self, command: Command, state: SealedBidsState
    ) -> tuple[tuple[Event, ...], SealedBidsState]:
        """Return the events ``command`` causes and the state they fold into.

        :raises InvalidCommandError: if the command is not well formed.
        :raises IllegalCommandError: if the rules do not allow it now.
        """
        return rules.decide(command, state)

    def evolve(self, state: SealedBidsState, event: Event) -> SealedBidsState:
        """Return the state after one event."""
        return evolve(state, event)

    def fold(self, state: SealedBidsState, events: Iterable[Event]) -> SealedBidsState:
        """Return the state after these events, in order."""
        return fold(state, events)

    def outcome(self, state: SealedBidsState) -> Outcome | None:
        """Return how the match ended, or None while it goes on."""
        return rules.outcome(state)

    def where(self, state: SealedBidsState) -> str:
        """Say where the match stands ("round 2, seats 1 and 3 to bid")."""
        return words.where(state)

    # --- hidden information -------------------------------------------------------------

    def viewer_of(self, state: SealedBidsState, seat: Seat | None) -> Viewer:
        """Return ``"seat-N"`` for seat N, or ``"spectator"`` for None."""
        return views.seat_viewer(seat)

    def view(self, state: SealedBidsState, viewer: Viewer) -> SealedBidsView:
        """Return what ``viewer`` may know of ``state``: a bid is hidden until the reveal.

        :raises ValueError: if ``viewer`` is not one of :attr:`viewers` (the referee sees
            the state itself).
        """
        return views.view(state, viewer)

    def redact_event(self, event: Event, viewer: Viewer) -> msgspec.Struct:
        """Return the event as ``viewer`` may see it: a hidden bid becomes a placeholder.

        :raises ValueError: if ``viewer`` is not a viewer of the game.
        """
        return views.redact_event(event, viewer)

    def redact_command(
        self, command: Command, state: SealedBidsState, viewer: Viewer
    ) -> msgspec.Struct:
        """Return the command as ``viewer`` may see it: a bid is the bidder's alone.

        :raises ValueError: if ``viewer`` is not a viewer of the game.
        """
        return views.redact_command(command, viewer)

    def determinize(self, view: SealedBidsView, rng: random.Random) -> SealedBidsState:
        """Return a full state consistent with ``view``, hidden bids and chance from ``rng``."""
        return views.determinize(view, rng)

    # --- secrets and chance -------------------------------------------------------------

    def salted(self, command: Command, settings: SealedBidsSettings) -> Command:
        """Return a bid of a ``"secrets"`` match with a fresh salt; anything else unchanged."""
        return sealing.salted(command, settings)

    def auditor(self, settings: SealedBidsSettings) -> Auditor:
        """Return a :class:`~.sealing.BidAuditor`: a bid commits, the reveal opens the round's
        bids and makes them due."""
        return sealing.BidAuditor(settings)

    def with_recorded_chance(self, command: Command, events: Sequence[msgspec.Struct]) -> Command:
        """Return a prize roll supplying the die its recorded events show; else ``command``."""
        if isinstance(command, RollPrize) and command.die is None:
            for event in events:
                if isinstance(event, PrizeRolled):
                    return replace(command, die=event.die)
        return command

    # --- bots ---------------------------------------------------------------------------

    @property
    def bots(self) -> Mapping[str, BotMaker]:
        """``"random"`` and ``"greedy"``."""
        return BOTS

    def search_game(self) -> Game[SealedBidsState, SealedBidsView, Command, Seat]:
        """Return the :class:`~.bots.SearchGame` every search shares."""
        return SEARCH_GAME

    # --- words --------------------------------------------------------------------------

    def narrate(self, event: msgspec.Struct, state: SealedBidsState, seat: Seat | None) -> str:
        """Tell one event (or a placeholder), as it happened in ``state``, in one line, as the
        player in ``seat`` (None: the public) may know it: every event is worth its line."""
        return words.narrate(event, state, seat)

    def __repr__(self) -> str:
        return "RULESET"


RULESET: Final = SealedBidsRuleset()
"""The ruleset of Sealed Bids."""
