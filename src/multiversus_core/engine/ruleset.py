"""The one door between the engine and a game: the :class:`Ruleset` protocol.

A game is one object that answers the few questions the engine asks: how a
match starts, who is to act, which commands are legal, what a command
causes (``decide``) and how a fact changes the state (``evolve``, ``fold``),
how it ends, what each viewer may see, which secrets its events commit to
and reveal, and how to tell it in words. The engine keeps every other
promise itself, the same way for every game: logs and their chain,
commitments and their audit, secret chance, verify, replay, bots and
search, simulation, view logs.

Nothing here assumes a turn order or two players: :meth:`Ruleset.to_act`
names every seat whose decision the match waits for, and several seats at
once are simultaneous decisions (each commits its choice; a later event
reveals them). Seats are numbered from 1.

A game's commands and events are frozen msgspec structs with explicit tags;
every command carries its ``player``, the seat that gives it; its settings
are a frozen struct of a type of the game's own (the engine finds the game
from it). The engine never looks inside them except through this protocol.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, TypeVar

import msgspec

from multiversus_core.engine.audit import Auditor, Revealed
from multiversus_core.engine.bots import BotMaker
from multiversus_core.engine.chance import Chance, chance_commitment, fresh_chance
from multiversus_core.engine.choices import CommandTree
from multiversus_core.engine.commit import SaltSource
from multiversus_core.engine.ismcts import Game
from multiversus_core.engine.records import Upcast

Seat: TypeAlias = int
"""A seat at the table, from 1."""

Viewer: TypeAlias = str
"""Whoever a view is for: a name the ruleset lists in :attr:`Ruleset.viewers`, or
:data:`REFEREE`, who sees everything."""

REFEREE: Viewer = "referee"
"""The viewer who sees the whole state: a view for the referee is the state itself."""

SettingsT = TypeVar("SettingsT", bound=msgspec.Struct)
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)
ViewT = TypeVar("ViewT")


class Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What the engine reads of a game's settings: its chance, salts and players."""

    seed: int
    """The public chance seed (0 when chance is secret)."""
    chance: str
    """The commitment to a secret chance seed, or empty when ``seed`` is public."""
    salts: SaltSource
    """Where commitment salts come from."""
    players: tuple[str, ...]
    """The players' names, by seat (seat 1 first)."""


class Outcome(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """How a match ended."""

    winners: tuple[Seat, ...]
    """The seats that won; empty for a draw."""
    returns: tuple[float, ...]
    """Each seat's result from -1 (lost) to 1 (won), seat 1 first: what a search maximises."""
    reason: str
    """Why, in the game's words."""


class Ruleset(Protocol[SettingsT, StateT, CommandT, EventT, ViewT]):
    """A game, as the engine sees it. One instance per game, registered by :attr:`id`."""

    @property
    def id(self) -> str:
        """The game's id, as logs name it: lower-case letters, digits and hyphens."""
        ...

    @property
    def title(self) -> str:
        """The game's name, for people."""
        ...

    @property
    def rules_version(self) -> int:
        """The version of the game's payload (commands, events, settings) that logs record."""
        ...

    @property
    def settings_type(self) -> type[SettingsT]:
        """The game's settings struct: what the players agree before the match."""
        ...

    @property
    def command_type(self) -> Any:
        """The union of the game's command structs (tagged), for decoding."""
        ...

    @property
    def event_type(self) -> Any:
        """The union of the game's event structs (tagged), for decoding."""
        ...

    @property
    def end_event(self) -> type[EventT]:
        """The event that ends a match: a log whose last entry holds it is finished."""
        ...

    @property
    def view_event_type(self) -> Any:
        """The union of the event structs and their redacted placeholders, for decoding a
        viewer's log."""
        ...

    @property
    def view_command_type(self) -> Any:
        """The union of the command structs and their redacted placeholders."""
        ...

    @property
    def log_upcasts(self) -> Mapping[int, Upcast]:
        """The steps that read the game's logs of older payload versions, by the version
        each reads (its rules version; the log format version for a game whose rules
        version is 0): empty for a game whose payload never changed."""
        ...

    @property
    def viewers(self) -> tuple[Viewer, ...]:
        """Every viewer who may not see everything (each side or seat, and the public)."""
        ...

    # --- a match ----------------------------------------------------------------------

    def check_settings(self, settings: SettingsT) -> None:
        """Check the settings can start a match.

        :raises SettingsError: naming the first thing wrong.
        """
        ...

    def table(self, settings: SettingsT) -> Table:
        """Return what the engine needs of the settings: chance, salts, players."""
        ...

    def with_table(self, settings: SettingsT, table: Table) -> SettingsT:
        """Return ``settings`` with the table's seed, chance commitment, salts and players.

        A front end starts any game's match this way.
        """
        ...

    def initial_state(self, settings: SettingsT, chance: Chance | None) -> StateT:
        """Return the state of a new match (settings already checked).

        ``chance`` is the secret chance seed the settings commit to, when known.

        :raises SettingsError: if ``chance`` does not open the settings' commitment.
        """
        ...

    def to_act(self, state: StateT) -> tuple[Seat, ...]:
        """Return the seats whose decisions the match waits for, in seat order.

        Empty once the match is over; several for simultaneous decisions, which
        the seats may give in any order.
        """
        ...

    def legal_commands(
        self, state: StateT, seat: Seat
    ) -> Sequence[CommandT] | CommandTree[CommandT]:
        """Return every command ``seat`` may give now (empty if it is not to act): as a list,
        or for a decision too big to list as a tree of small choices
        (:mod:`~multiversus_core.engine.choices`)."""
        ...

    def decide(self, command: CommandT, state: StateT) -> tuple[tuple[EventT, ...], StateT]:
        """Return the events ``command`` causes and the state they fold into.

        Chance is drawn from the state's seed, or taken from the command when
        it supplies the outcome (a die rolled at the table).

        :raises InvalidCommandError: if the command is not well formed.
        :raises IllegalCommandError: if the rules do not allow it now.
        """
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Return the state after one event. Never fails, never draws, never checks."""
        ...

    def fold(self, state: StateT, events: Iterable[EventT]) -> StateT:
        """Return the state after these events in order (the ruleset owns the hot loop)."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """Return how the match ended, or None while it goes on."""
        ...

    def where(self, state: StateT) -> str:
        """Say where the match stands, for messages ("round 3, turn 2")."""
        ...

    # --- hidden information: the one door ---------------------------------------------

    def viewer_of(self, state: StateT, seat: Seat | None) -> Viewer:
        """Return the viewer ``seat`` is now (None: the public)."""
        ...

    def view(self, state: StateT, viewer: Viewer) -> ViewT:
        """Return what ``viewer`` (one of :attr:`viewers`) may know of ``state``.

        A view never carries the chance seed nor an unrevealed secret of another
        viewer. The engine never asks it for the :data:`REFEREE`, who sees the state.
        """
        ...

    def redact_event(self, event: EventT, viewer: Viewer) -> msgspec.Struct:
        """Return the event as ``viewer`` may see it: itself, or a placeholder of its place."""
        ...

    def redact_command(self, command: CommandT, state: StateT, viewer: Viewer) -> msgspec.Struct:
        """Return the command (given in ``state``) as ``viewer`` may see it."""
        ...

    def fill_event(
        self, placeholder: msgspec.Struct, revealed: Revealed | None, state: StateT
    ) -> Sequence[EventT]:
        """Return the events an event's placeholder in a viewer's log may stand for, in ``state``.

        ``revealed`` is what the reveal that later opens its secret gives (the salt
        and the value), paired with it by the engine through :meth:`auditor`'s keys:
        then the one event it opens. None when the log never reveals it: stand-ins
        the viewer cannot tell from the truth, the most natural first, and every one
        the rules could later tell apart (the engine checks a view log against each;
        one is enough for a secret nothing later depends on).
        """
        ...

    def fill_command(
        self, placeholder: msgspec.Struct, events: Sequence[EventT], state: StateT
    ) -> CommandT | None:
        """Return the command a command's placeholder stands for, given in ``state``, from its
        entry's filled-in events, with the salt it was given (a stand-in's:
        :data:`.commit.STAND_IN_SALT`); None if the events hold no secret it chose."""
        ...

    def determinize(self, view: ViewT, rng: random.Random) -> StateT:
        """Return a full state consistent with ``view``: hidden parts and chance from ``rng``."""
        ...

    # --- secrets and chance -------------------------------------------------------------

    def salted(self, command: CommandT, settings: SettingsT) -> CommandT:
        """Return ``command`` with a fresh salt if it carries a secret of a ``"secrets"`` match."""
        ...

    def auditor(self, settings: SettingsT) -> Auditor:
        """Return a reader of one log's events for what they commit, reveal and make due
        (:mod:`.audit`): the engine checks every reveal opens its commitment."""
        ...

    def with_recorded_chance(self, command: CommandT, events: Sequence[msgspec.Struct]) -> CommandT:
        """Return ``command`` supplying the chance its recorded ``events`` drew.

        Verify re-runs a log whose chance seed is not revealed yet this way.
        """
        ...

    # --- bots ---------------------------------------------------------------------------

    @property
    def bots(self) -> Mapping[str, BotMaker]:
        """The game's bots by name (``"random"`` at least): each is given a seat's view only."""
        ...

    def search_game(self) -> Game[StateT, ViewT, CommandT, Seat]:
        """Return the game as information-set MCTS sees it (:mod:`.ismcts`)."""
        ...

    # --- words ------------------------------------------------------------------------

    def describe_command(self, shown: msgspec.Struct, state: StateT) -> str:
        """Tell who gave a command, or its redacted placeholder, in ``state``, and what it was
        (a placeholder: that a secret choice was made)."""
        ...

    def narrate(self, event: msgspec.Struct, state: StateT, seat: Seat | None) -> str | None:
        """Tell one event (or a redacted placeholder) that happened in ``state``, in words, as
        the player in ``seat`` (None: the public) may know it; None for one not worth a line."""
        ...


def table_of(settings: Any) -> Table:
    """The table of settings that name its four fields as :class:`Table` does (``seed``,
    ``chance``, ``salts``, ``players``): what most games' ``Ruleset.table`` is."""
    return Table(settings.seed, settings.chance, settings.salts, tuple(settings.players))


def with_table_of(settings: SettingsT, table: Table) -> SettingsT:
    """``settings`` (naming the table's fields as :func:`table_of` reads them) with the
    table's seed, chance, salts and players: what most games' ``Ruleset.with_table`` is."""
    return msgspec.structs.replace(
        settings,
        seed=table.seed,
        chance=table.chance,
        salts=table.salts,
        players=tuple(table.players),
    )


def with_secret_chance(ruleset: Any, settings: SettingsT) -> tuple[SettingsT, Chance]:
    """Return ``settings`` with a fresh secret chance seed (seed 0, and the commitment to the
    seed), and that seed: the referee's until the match ends (:func:`.chance.fresh_chance`)."""
    chance = fresh_chance()
    table = ruleset.table(settings)
    secret = Table(0, chance_commitment(chance), table.salts, table.players)
    return ruleset.with_table(settings, secret), chance
