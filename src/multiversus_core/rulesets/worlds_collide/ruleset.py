"""worlds-collide behind the engine's one door: settings, views, chance, bots and
:data:`RULESET`.

Nothing is hidden by default (W20): a viewer sees the state without its chance
seed, no event or command is ever redacted, and no secret is committed. The
dice are the only unknown (and, under "environment-deck", which card comes
next, drawn from the chance as it is needed): every one is a chance point of the
engine's, drawn in the order the rules roll them, or supplied by the command
when rolled at the table.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.actions import ActionCodec
from multiversus_core.engine.bots import BotMaker, UniformBot
from multiversus_core.engine.chance import Chance, opens_chance
from multiversus_core.engine.choices import CommandTree, is_tree
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
from multiversus_core.rulesets.worlds_collide import actions, choices, render, rules, words
from multiversus_core.rulesets.worlds_collide.bots import (
    HeuristicBot,
    SearchBot,
    evaluate,
    legal_or_any,
    quick_command,
)
from multiversus_core.rulesets.worlds_collide.content import find_faction, find_map
from multiversus_core.rulesets.worlds_collide.model import (
    Act,
    Activate,
    AttacksRolled,
    Command,
    DieRerolled,
    EnvironmentRolled,
    Event,
    KeepDice,
    MatchEnded,
    Model,
    Reroll,
    RollOff,
    RollOffRolled,
    Side,
    StartRound,
    TacticRolled,
    WorldsSettings,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.position import NOTATION

VIEWERS: Final[tuple[Viewer, ...]] = ("seat-1", "seat-2", "spectator")
VARIANTS: Final = ("environment-deck",)


class WorldsView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The match as a viewer knows it: everything but the chance seed (W20)."""

    viewer: Viewer
    state: WorldsState
    """The state, with no chance seed and its settings' seed 0."""


def check_settings(settings: WorldsSettings) -> None:
    """Check the settings can start a match: :class:`SettingsError` names the first wrong field."""
    s = settings
    check_table(s, 2)
    if find_map(s.map) is None:
        raise SettingsError(f"map: no map {s.map!r} is installed")
    if len(s.factions) != 2:
        raise SettingsError("factions: name a faction for each seat, seat 1 first")
    for seat, faction in enumerate(s.factions, start=1):
        if find_faction(faction) is None:
            raise SettingsError(f"factions: no faction {faction!r} is installed (seat {seat})")
    for variant in s.variants:
        if variant not in VARIANTS:
            raise SettingsError(f"variants: no variant {variant!r}: {', '.join(VARIANTS)}")
    if len(set(s.variants)) != len(s.variants):
        raise SettingsError("variants: each variant is named once")


def initial_state(settings: WorldsSettings, chance: Chance | None) -> WorldsState:
    """The match before the deployment roll-off: every model of both factions off the board,
    their pages copied into the state (a faction's text is the rule its players read).

    :raises SettingsError: if ``chance`` does not open the settings' commitment.
    """
    if chance is not None and not opens_chance(settings.chance, chance):
        raise SettingsError("chance: the chance seed does not open the settings' commitment")
    game_map = find_map(settings.map)
    assert game_map is not None  # check_settings found it
    sides: list[Side] = []
    models: list[Model] = []
    for seat, faction_id in enumerate(settings.factions, start=1):
        faction = find_faction(faction_id)
        assert faction is not None
        sides.append(Side(faction))
        for fielded in faction.fielded():
            kind = fielded.model_type
            models.append(Model(f"{seat}.{fielded.id}", seat, fielded.name, kind, kind.hp))
    deck = rules.full_deck() if rules.DECK in settings.variants else ()
    return WorldsState(settings, game_map, (sides[0], sides[1]), tuple(models), chance, deck=deck)


def view(state: WorldsState, viewer: Viewer) -> WorldsView:
    """What ``viewer`` may know: the whole state but the chance seed (W20)."""
    if viewer not in VIEWERS:
        raise ValueError(f"no viewer {viewer!r} in worlds-collide: {', '.join(VIEWERS)}")
    return WorldsView(viewer, without_seed(state))


def determinize(seen: WorldsView, rng: random.Random) -> WorldsState:
    """A full state ``seen`` cannot tell from the truth: a fresh chance seed."""
    return with_fresh_seed(seen.state, rng)


def with_recorded_chance(command: Command, events: Sequence[msgspec.Struct]) -> Command:
    """A command supplying the dice its recorded events show (verify before the seed is out)."""
    faces: list[int] = []
    for event in events:
        match event:
            case RollOffRolled(dice=dice):
                faces.extend(dice)
            case EnvironmentRolled(roll=face, card=card):
                faces.append(face if card is None else card)
            case TacticRolled(face=face) | DieRerolled(face=face):
                faces.append(face)
            case AttacksRolled(faces=rolled):
                faces.extend(rolled)
    if isinstance(command, RollOff | StartRound | Activate | Act | Reroll | KeepDice):
        return replace(command, dice=tuple(faces))
    return command


class SearchGame:
    """worlds-collide as information-set MCTS sees it: each seat acts as the heuristic would,
    made quick (:func:`.bots.quick_command`), so that a search weighs the dice; a playout
    runs until the other seat's next activation has ended (or the round, or set-up), and
    is judged by what each side has on the table (:func:`.bots.evaluate`)."""

    determinize = staticmethod(determinize)

    def __init__(self, evaluation: Callable[[WorldsState, Seat], float] = evaluate) -> None:
        self.evaluation = evaluation
        """How a playout's end is judged: :func:`.bots.evaluate`, the hand-made one, unless
        another is given (such as :func:`.bots.fitted_evaluate`)."""

    def legal(self, state: WorldsState, seat: Seat) -> Sequence[Command]:
        """The one command the quick heuristic gives the seat."""
        legal = choices.legal_commands(state, seat)
        if not is_tree(legal) and len(cast(Sequence[Command], legal)) <= 1:
            return tuple(cast(Sequence[Command], legal))
        return (legal_or_any(quick_command(state, seat, legal), legal),)

    def to_move(self, state: WorldsState) -> Seat | None:
        """The seat the match waits for, or None once it is over."""
        return next(iter(rules.to_act(state)), None)

    def apply(self, state: WorldsState, command: Command) -> WorldsState:
        """The state after ``command``."""
        return rules.decide(command, state)[1]

    def evaluate(self, state: WorldsState, player: Seat) -> float:
        """The result once over; else :attr:`evaluation`'s judgement."""
        return self.evaluation(state, player)

    def is_horizon(self, start: WorldsState, state: WorldsState) -> bool:
        """True once the match is over, the round has ended, set-up is done, or an activation
        of the seat that was not to act at ``start`` has ended (of the one that was, if the
        other was out of the round)."""
        if state.phase == "over" or (state.phase == "round" and state.round >= start.round):
            return True
        if start.phase in ("roll_off", "deploy"):
            return state.phase != start.phase
        if state.activation is not None or start.phase != "activations":
            return False
        seat = next(iter(rules.to_act(start)), 1)
        rival = rules.other(seat)
        if not start.sides[rival - 1].out:
            watched = rival
            if state.sides[rival - 1].out:
                return True
        else:
            watched = seat
        return _activated(state, watched) > _activated(start, watched)

    def playout(self, state: WorldsState, legal: Sequence[Command], rng: random.Random) -> Command:
        """The quick heuristic's command."""
        if len(legal) == 1:
            return legal[0]
        seat = legal[0].player
        return quick_command(state, seat, legal)

    def modelled(
        self, state: WorldsState, legal: Sequence[Command], rng: random.Random
    ) -> Command | None:
        """None: every decision is searched (the game has no simultaneous choices)."""
        return None


def _activated(state: WorldsState, seat: Seat) -> int:
    return sum(1 for m in state.models if m.seat == seat and m.activated)


SEARCH_GAME: Final = SearchGame()


class WorldsRuleset(OpenGame):
    """worlds-collide, as the engine sees it."""

    id: Final = "worlds-collide"
    title: Final = "worlds-collide"
    rules_version: Final = 1
    settings_type: Final = WorldsSettings
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
    """The random bot; the heuristic (:class:`.bots.HeuristicBot`); the search over the
    heuristic's best activations (:class:`.bots.SearchBot`, at its default budget)."""

    check_settings = staticmethod(check_settings)
    initial_state = staticmethod(initial_state)
    to_act = staticmethod(rules.to_act)
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

    def legal_commands(
        self, state: WorldsState, seat: Seat
    ) -> Sequence[Command] | CommandTree[Command]:
        """A list, or a tree of choices for an activation and for its moves and attacks."""
        return choices.legal_commands(state, seat)

    def outcome(self, state: WorldsState) -> Outcome | None:
        """The winner on VP, a wipe-out or a draw (W19)."""
        return rules.outcome(state)

    def search_game(self) -> SearchGame:
        """The one :class:`SearchGame` every search shares: it keeps nothing."""
        return SEARCH_GAME

    def action_codec(self, settings: WorldsSettings) -> ActionCodec[Command]:
        """The commands and choice keys as action ids, for the settings' factions and map."""
        return actions.codec(settings)


RULESET: Final = WorldsRuleset()
"""The ruleset of worlds-collide."""

_CONFORMS: Final[Ruleset[WorldsSettings, WorldsState, Command, Event, WorldsView]] = RULESET
"""Proves to the type checker that :data:`RULESET` is a ruleset."""

__all__ = ["RULESET", "VIEWERS", "WorldsRuleset", "WorldsView", "check_settings", "view"]
