"""The small public API: start a match, list legal commands, apply a command, fold a log."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from multiversus_core.engine.errors import SettingsError
from multiversus_core.engine.open_game import check_names
from multiversus_core.engine.position import read_position
from multiversus_core.rulesets.multiversus.catalog import find_team, installed_teams, missing_team
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.decide import decide_and_fold
from multiversus_core.rulesets.multiversus.events import Event
from multiversus_core.rulesets.multiversus.evolve import evolve_all, initial_state
from multiversus_core.rulesets.multiversus.secrets import (
    chance_commitment,
    fresh_chance,
    is_salt,
    opens_chance,
)
from multiversus_core.rulesets.multiversus.settings import Chance, MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.variants import VARIANTS


def start_match(
    settings: MatchSettings | None = None,
    chance: Chance | None = None,
    *,
    position: str | None = None,
) -> MatchState:
    """Return the state of a new match, before the set-up coin flip, or at ``position``.

    ``chance`` is the secret chance seed whose commitment the settings hold
    (:func:`~multiversus_core.rulesets.multiversus.secrets.fresh_chance`); leave it None for a
    match whose seed is public, or to check a log whose chance is not revealed
    yet (its rolls must then be supplied).

    ``position`` is a position text (:mod:`~multiversus_core.engine.position`): the match
    is exactly the state it names, its settings and chance included (give no
    ``settings`` then). :func:`~multiversus_core.engine.position.start_position`
    starts a match there with fresh chance instead.

    :raises SettingsError: if the settings name an unknown team, scenario or
        variant, or a seed out of range, or ``chance`` does not open the
        settings' chance commitment.
    :raises PositionError: if ``position`` cannot be read or is not of Multiversus.
    """
    if position is not None:
        if settings is not None:
            raise SettingsError("give settings or a position, not both: a position holds its own")
        found: MatchState = read_position(position, "multiversus")
        if chance is None:
            return found
        if not opens_chance(found.settings.chance, chance):
            raise SettingsError("the chance seed does not open the settings' chance commitment")
        return msgspec.structs.replace(found, chance=chance)
    settings = settings or MatchSettings()
    check_settings(settings)
    if chance is not None and not opens_chance(settings.chance, chance):
        raise SettingsError("the chance seed does not open the settings' chance commitment")
    state = initial_state(settings)
    return state if chance is None else msgspec.structs.replace(state, chance=chance)


def secret_chance_settings(settings: MatchSettings) -> tuple[MatchSettings, Chance]:
    """Return ``settings`` with a fresh secret chance seed in place of their seed, and the seed.

    The settings keep only the commitment to it (``chance``), their ``seed``
    becomes 0; pass the returned :class:`Chance` to :func:`start_match`.
    """
    chance = fresh_chance()
    secret = msgspec.structs.replace(settings, seed=0, chance=chance_commitment(chance))
    return secret, chance


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
    if settings.chance and (settings.seed != 0 or not is_salt(settings.chance)):
        raise SettingsError(
            "a chance commitment is 64 lower-case hex digits, and the seed is then 0"
        )
    if len(settings.players) != 2 or not all(p.strip() for p in settings.players):
        raise SettingsError("name both players")
    check_names(settings.players)


def apply(state: MatchState, command: Command) -> tuple[MatchState, tuple[Event, ...]]:
    """Decide a command and fold its events.

    Returns the new state and the events the command caused.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    events, state = decide_and_fold(command, state)
    return state, events


def fold(events: Iterable[Event], state: MatchState | MatchSettings) -> MatchState:
    """Apply events in order to a state (or to a new match with these settings)."""
    if isinstance(state, MatchSettings):
        state = initial_state(state)
    return evolve_all(state, events)
