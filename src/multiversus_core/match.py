"""The small public API: start a match, list legal commands, apply a command, fold a log."""

from __future__ import annotations

from collections.abc import Iterable

from multiversus_core.commands import Command
from multiversus_core.decide import decide
from multiversus_core.errors import SettingsError
from multiversus_core.events import Event
from multiversus_core.evolve import evolve_all, initial_state
from multiversus_core.settings import MatchSettings
from multiversus_core.sheets import find_team, installed_teams, missing_team
from multiversus_core.state import MatchState
from multiversus_core.variants import VARIANTS


def start_match(settings: MatchSettings | None = None) -> MatchState:
    """Return the state of a new match, before the set-up coin flip.

    :raises SettingsError: if the settings name an unknown team, scenario or
        variant, or a seed out of range.
    """
    settings = settings or MatchSettings()
    check_settings(settings)
    return initial_state(settings)


def check_settings(settings: MatchSettings) -> None:
    """Check that every name in the settings exists.

    :raises SettingsError: naming the first unknown team, scenario or variant.
    """
    for team_id, side in ((settings.heroes, "heroes"), (settings.adversaries, "adversaries")):
        if team_id is None:
            continue
        sheet = find_team(team_id)
        if sheet is None:
            raise SettingsError(missing_team(team_id))
        if sheet.side != side:
            raise SettingsError(f"{sheet.name} plays the {sheet.side}, not the {side}")
    if settings.scenario is not None:
        if settings.adversaries is not None:
            sheets = [find_team(settings.adversaries)]
        else:
            sheets = [t for t in installed_teams() if t.side == "adversaries"]
        if not any(s and settings.scenario in {sc.id for sc in s.scenarios} for s in sheets):
            raise SettingsError(f"no Adversary sheet has a scenario {settings.scenario!r}")
    for name in settings.variants:
        if name not in VARIANTS:
            known = ", ".join(sorted(VARIANTS)) or "none yet"
            raise SettingsError(f"no variant {name!r} (known variants: {known})")
    if list(settings.variants) != sorted(set(settings.variants)):
        raise SettingsError("list each variant once, in alphabetical order")
    if not 0 <= settings.seed < 2**64:
        raise SettingsError(f"the seed must be from 0 to 2**64 - 1, not {settings.seed}")
    if len(settings.players) != 2 or not all(p.strip() for p in settings.players):
        raise SettingsError("name both players")


def apply(state: MatchState, command: Command) -> tuple[MatchState, tuple[Event, ...]]:
    """Decide a command and fold its events.

    Returns the new state and the events the command caused.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    events = decide(command, state)
    return fold(events, state), events


def fold(events: Iterable[Event], state: MatchState | MatchSettings) -> MatchState:
    """Apply events in order to a state (or to a new match with these settings)."""
    if isinstance(state, MatchSettings):
        state = initial_state(state)
    return evolve_all(state, events)
