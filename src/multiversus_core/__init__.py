"""Multiversus: an event-sourced rules engine for a two-player game of hidden choices.

The public API in brief::

    from multiversus_core import MatchSettings, start_match, legal_commands, apply

    state = start_match(MatchSettings(heroes="banner-knight", adversaries="smogon", seed=7))
    while not state.is_over:
        seat = decider_seat(state)
        command = legal_commands(state, seat)[0]
        state, events = apply(state, command)

Rules are pure functions: :func:`decide` turns a command into events and
:func:`evolve` folds one event into a state. :func:`fold` replays a list of
events; :mod:`multiversus_core.engine.log` reads and writes match logs. Secrets are
committed when chosen and revealed later (:mod:`multiversus_core.rulesets.multiversus.secrets`):
in a match with ``salts="secrets"``, pass each command through :func:`salted`
before applying it. :func:`write_position` and :func:`read_position` write any
game's state as one line of text and read it back (:class:`PositionError` when it
cannot be read).
"""

from multiversus_core._moved import install as _install_moved
from multiversus_core._version import __version__
from multiversus_core.engine.errors import (
    IllegalCommandError,
    InvalidCommandError,
    LogError,
    MultiversusError,
    SettingsError,
    SheetError,
)
from multiversus_core.engine.position import PositionError, read_position, write_position
from multiversus_core.engine.registry import game_ids, load_ruleset
from multiversus_core.engine.render import Renderer, renderer_of
from multiversus_core.engine.ruleset import Ruleset
from multiversus_core.rulesets.multiversus.board import Board, Figure, Tile
from multiversus_core.rulesets.multiversus.commands import (
    AfterAttack,
    Attack,
    BeginAction,
    BlockForcedMove,
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    DeclineReaction,
    EndAction,
    FlipForSetUp,
    GiveUpInitiative,
    React,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
)
from multiversus_core.rulesets.multiversus.decide import decide, decider_seat, waiting_for
from multiversus_core.rulesets.multiversus.events import EVENT_TYPES, Event
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.match import (
    apply,
    check_settings,
    fold,
    secret_chance_settings,
    start_match,
)
from multiversus_core.rulesets.multiversus.secrets import salted
from multiversus_core.rulesets.multiversus.settings import Chance, MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat, Side, Square
from multiversus_core.rulesets.multiversus.views import (
    MatchView,
    PlayerViewer,
    Viewer,
    redact,
    redact_log,
    view,
)

_install_moved()

__all__ = [
    "EVENT_TYPES",
    "AfterAttack",
    "Attack",
    "BeginAction",
    "BlockForcedMove",
    "Board",
    "Chance",
    "ChooseSecret",
    "ChooseSide",
    "ChooseStartingTeam",
    "ChooseTeams",
    "Command",
    "DeclineReaction",
    "EndAction",
    "Event",
    "Figure",
    "FlipForSetUp",
    "GiveUpInitiative",
    "IllegalCommandError",
    "InvalidCommandError",
    "LogError",
    "MatchSettings",
    "MatchState",
    "MatchView",
    "MultiversusError",
    "PlayerViewer",
    "PositionError",
    "React",
    "Renderer",
    "RollInitiative",
    "Ruleset",
    "Seat",
    "SelectCoins",
    "SelectNoReaction",
    "SelectReaction",
    "SettingsError",
    "SheetError",
    "Side",
    "Square",
    "Step",
    "StopForcedMove",
    "Stunt",
    "Tile",
    "Viewer",
    "__version__",
    "apply",
    "check_settings",
    "decide",
    "decider_seat",
    "evolve",
    "fold",
    "game_ids",
    "initial_state",
    "legal_commands",
    "load_ruleset",
    "read_position",
    "redact",
    "redact_log",
    "renderer_of",
    "salted",
    "secret_chance_settings",
    "start_match",
    "view",
    "waiting_for",
    "write_position",
]
