"""tiles-d6 behind the engine's one door: settings, views, chance, bots and :data:`RULESET`.

Nothing is hidden (T28): a viewer sees the state without its chance seed,
no event or command is ever redacted, and no secret is committed. The dice
are the only unknown: every one is a chance point of the engine's, drawn in
the order the rules roll them, or supplied by the command when rolled at the
table.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.actions import ActionCodec
from multiversus_core.engine.bots import BotMaker, UniformBot
from multiversus_core.engine.chance import Chance, opens_chance
from multiversus_core.engine.errors import SettingsError
from multiversus_core.engine.open_game import (
    OpenGame,
    check_table,
    with_fresh_seed,
    without_seed,
)
from multiversus_core.engine.records import Upcast
from multiversus_core.engine.ruleset import (
    Outcome,
    Ruleset,
    Seat,
    Viewer,
)
from multiversus_core.rulesets.tiles_d6 import actions, render, rules, words
from multiversus_core.rulesets.tiles_d6.bots import (
    HeuristicBot,
    SearchBot,
    evaluate,
    heuristic_command,
)
from multiversus_core.rulesets.tiles_d6.content import find_map, find_roster
from multiversus_core.rulesets.tiles_d6.model import (
    Attack,
    Attacked,
    BramblesRolled,
    Command,
    ConcussionRolled,
    EndTurn,
    Event,
    Fire,
    Fired,
    MatchEnded,
    RollOff,
    RollOffRolled,
    Stats,
    StepTo,
    TilesSettings,
    TilesState,
    Unit,
    WithdrawRolled,
)
from multiversus_core.rulesets.tiles_d6.position import NOTATION

VIEWERS: Final[tuple[Viewer, ...]] = ("seat-1", "seat-2", "spectator")


class TilesView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The match as a viewer knows it: everything but the chance seed (T28)."""

    viewer: Viewer
    state: TilesState
    """The state, with no chance seed and its settings' seed 0."""


def check_settings(settings: TilesSettings) -> None:
    """Check the settings can start a match: :class:`SettingsError` names the first wrong field."""
    s = settings
    check_table(s, 2)
    if find_map(s.map) is None:
        raise SettingsError(f"map: no map {s.map!r} is installed")
    if len(s.rosters) != 2:
        raise SettingsError("rosters: name a roster for each seat, seat 1 first")
    for seat, roster in enumerate(s.rosters, start=1):
        if find_roster(roster) is None:
            raise SettingsError(f"rosters: no roster {roster!r} is installed (seat {seat})")


def initial_state(settings: TilesSettings, chance: Chance | None) -> TilesState:
    """The match before the roll-off: every unit of both rosters off the board.

    :raises SettingsError: if ``chance`` does not open the settings' commitment.
    """
    if chance is not None and not opens_chance(settings.chance, chance):
        raise SettingsError("chance: the chance seed does not open the settings' commitment")
    game_map = find_map(settings.map)
    assert game_map is not None  # check_settings found it
    units: list[Unit] = []
    for seat, roster_id in enumerate(settings.rosters, start=1):
        roster = find_roster(roster_id)
        assert roster is not None
        for fielded in roster.fielded():
            kind = fielded.unit_type
            stats = Stats(
                kind.id,
                kind.name,
                kind.move,
                kind.combat,
                kind.strength,
                kind.ranged,
                kind.power,
                kind.evade,
                kind.health,
                kind.defense,
                tuple(kind.traits),
            )
            units.append(Unit(f"{seat}.{fielded.id}", seat, stats, kind.health))
    return TilesState(settings, tuple(game_map.rows), tuple(units), chance)


def view(state: TilesState, viewer: Viewer) -> TilesView:
    """What ``viewer`` may know: the whole state but the chance seed (T28)."""
    if viewer not in VIEWERS:
        raise ValueError(f"no viewer {viewer!r} in tiles-d6: {', '.join(VIEWERS)}")
    return TilesView(viewer, without_seed(state))


def determinize(seen: TilesView, rng: random.Random) -> TilesState:
    """A full state ``seen`` cannot tell from the truth: a fresh chance seed."""
    return with_fresh_seed(seen.state, rng)


def with_recorded_chance(command: Command, events: Sequence[msgspec.Struct]) -> Command:
    """A command supplying the dice its recorded events show (verify before the seed is out)."""
    match command:
        case RollOff(dice=None):
            rolled = [e.dice for e in events if isinstance(e, RollOffRolled)]
            return replace(command, dice=rolled[0]) if rolled else command
        case StepTo(dice=None):
            dice = tuple(e.die for e in events if isinstance(e, BramblesRolled | WithdrawRolled))
            return replace(command, dice=dice)
        case Attack(die=None):
            faces = [e.die for e in events if isinstance(e, Attacked)]
            return replace(command, die=faces[0]) if faces else command
        case Fire(die=None):
            faces = [e.die for e in events if isinstance(e, Fired)]
            return replace(command, die=faces[0]) if faces else command
        case EndTurn(dice=None):
            dice = tuple(e.die for e in events if isinstance(e, ConcussionRolled))
            return replace(command, dice=dice)
    return command


class SearchGame:
    """tiles-d6 as information-set MCTS sees it: both seats play as the heuristic would
    (:func:`.bots.heuristic_command`), so that a search weighs the dice and the heuristic
    opponent's answer; a playout runs to the end of the enemy's turn after the one it began
    in, and is judged by what each side has left and how its units stand
    (:func:`.bots.evaluate`)."""

    determinize = staticmethod(determinize)

    def __init__(self, evaluation: Callable[[TilesState, int], float] = evaluate) -> None:
        self.evaluation = evaluation
        """How a playout's end is judged: :func:`.bots.evaluate`, the hand-made one, unless
        another is given (such as :func:`.bots.fitted_evaluate`)."""

    def to_move(self, state: TilesState) -> Seat | None:
        """The seat the match waits for, or None once it is over."""
        return next(iter(rules.to_act(state)), None)

    def legal(self, state: TilesState, player: Seat) -> Sequence[Command]:
        """In play, the one command the heuristic gives; else every legal one."""
        legal = rules.legal_commands(state, player)
        if state.phase != "play" or len(legal) <= 1:
            return legal
        return (heuristic_command(state, legal),)

    def apply(self, state: TilesState, command: Command) -> TilesState:
        """The state after ``command``."""
        return rules.decide(command, state)[1]

    def evaluate(self, state: TilesState, player: Seat) -> float:
        """The result once over; else :attr:`evaluation`'s judgement."""
        return self.evaluation(state, player)

    def is_horizon(self, start: TilesState, state: TilesState) -> bool:
        """True once the match is over or the enemy's turn after the one the playout began in
        has ended."""
        return state.phase == "over" or state.turn >= start.turn + 2

    def playout(self, state: TilesState, legal: Sequence[Command], rng: random.Random) -> Command:
        """The heuristic's command (the one :meth:`legal` gives in play); at random outside
        play."""
        return legal[0] if len(legal) == 1 else rng.choice(legal)

    def modelled(
        self, state: TilesState, legal: Sequence[Command], rng: random.Random
    ) -> Command | None:
        """None: every decision is searched (the game has no simultaneous choices)."""
        return None


SEARCH_GAME: Final = SearchGame()


class TilesRuleset(OpenGame):
    """tiles-d6, as the engine sees it."""

    id: Final = "tiles-d6"
    title: Final = "tiles-d6"
    rules_version: Final = 1
    settings_type: Final = TilesSettings
    command_type: Final[Any] = Command
    event_type: Final[Any] = Event
    end_event: Final = MatchEnded
    view_event_type: Final[Any] = Event
    view_command_type: Final[Any] = Command
    viewers: Final = VIEWERS
    log_upcasts: Final[Mapping[int, Upcast]] = {}
    """Rules version 1 is the first: nothing to upcast."""
    notation: Final = NOTATION
    """How its positions are written (:mod:`~multiversus_core.engine.position`)."""
    bots: Final[Mapping[str, BotMaker]] = {
        "random": UniformBot,
        "heuristic": HeuristicBot,
        "mcts": functools.partial(SearchBot, SEARCH_GAME),
    }

    check_settings = staticmethod(check_settings)
    initial_state = staticmethod(initial_state)
    to_act = staticmethod(rules.to_act)
    legal_commands = staticmethod(rules.legal_commands)
    decide = staticmethod(rules.decide)
    evolve = staticmethod(rules.evolve)
    fold = staticmethod(rules.fold)
    where = staticmethod(words.where)
    describe_command = staticmethod(words.describe_command)
    narrate = staticmethod(words.narrate)
    renderer: Final = render.RENDERER
    """Its board in SVG and text, and a command in words (:mod:`.render`)."""
    view = staticmethod(view)
    determinize = staticmethod(determinize)
    with_recorded_chance = staticmethod(with_recorded_chance)

    def outcome(self, state: TilesState) -> Outcome | None:
        """The winner of a wipe-out or of the injuries after round 8, or a draw (T3)."""
        return rules.outcome(state)

    def search_game(self) -> SearchGame:
        """The one :class:`SearchGame` every search shares: it keeps nothing."""
        return SEARCH_GAME

    def action_codec(self, settings: TilesSettings) -> ActionCodec[Command]:
        """The commands as action ids, for the settings' rosters and map (:mod:`.actions`)."""
        return actions.codec(settings)


RULESET: Final = TilesRuleset()
"""The ruleset of tiles-d6."""

_CONFORMS: Final[Ruleset[TilesSettings, TilesState, Command, Event, TilesView]] = RULESET
"""Proves to the type checker that :data:`RULESET` is a ruleset."""

__all__ = ["RULESET", "VIEWERS", "TilesRuleset", "TilesView", "check_settings", "view"]
