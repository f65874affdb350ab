"""What every game of open information shares: nothing to redact, commit, salt or fill in.

A game whose only unknown is its dice (tiles-d6, worlds-collide) shows every
viewer the whole state but its chance seed. Its ruleset takes the members
here as they are (:class:`OpenGame`), and its views from
:func:`without_seed` and :func:`with_fresh_seed`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, Protocol, TypeVar

import msgspec
from msgspec.structs import replace

from multiversus_core.engine.audit import Held, Revealed, SecretFact
from multiversus_core.engine.chance import Chance
from multiversus_core.engine.commit import is_salt
from multiversus_core.engine.errors import SettingsError
from multiversus_core.engine.ruleset import Seat, Table, Viewer, table_of, with_table_of


class _Seeded(Protocol):
    """A state with the settings and the chance seed of its match."""

    @property
    def settings(self) -> Any: ...

    @property
    def chance(self) -> Chance | None: ...


S = TypeVar("S", bound=_Seeded)


def without_seed(state: S) -> S:
    """The state as any viewer may know it: its settings' seed 0 and no chance seed."""
    return replace(state, settings=replace(state.settings, seed=0), chance=None)  # type: ignore[type-var]


def with_fresh_seed(state: S, rng: random.Random) -> S:
    """A state a viewer of :func:`without_seed` cannot tell from the truth: a fresh chance
    seed (opening no commitment: a search plays it, never a log)."""
    settings = state.settings
    if settings.chance:
        chance = Chance(rng.getrandbits(64), f"{rng.getrandbits(256):064x}")
        return replace(state, chance=chance)  # type: ignore[type-var]
    return replace(state, settings=replace(settings, seed=rng.getrandbits(64)))  # type: ignore[type-var]


def check_table(settings: Any, seats: int) -> None:
    """Check what every game's settings hold alike: a name for each seat, the seed, the salt
    source and the chance commitment.

    :raises SettingsError: naming the first wrong field.
    """
    s = settings
    if len(s.players) != seats or not all(isinstance(p, str) and p.strip() for p in s.players):
        counted = {3: "three", 4: "four", 5: "five", 6: "six"}.get(seats, str(seats))
        everyone = "both players" if seats == 2 else f"all {counted} players"
        raise SettingsError(f"players: name {everyone}, seat 1 first")
    check_names(s.players)
    if not 0 <= s.seed < 2**64:
        raise SettingsError(f"seed: the seed is from 0 to 2**64 - 1, not {s.seed}")
    if s.salts not in ("seed", "secrets"):
        raise SettingsError(f"salts: salts come from 'seed' or 'secrets', not {s.salts!r}")
    if s.chance and not is_salt(s.chance):
        raise SettingsError("chance: a chance commitment is 64 lower-case hex digits")
    if s.chance and s.seed != 0:
        raise SettingsError("seed: the seed is 0 when chance is secret")


MAX_PLAYER_NAME: Final = 64
"""The longest player's name, in characters."""


def check_names(players: Sequence[str]) -> None:
    """Check each player's name is at most :data:`MAX_PLAYER_NAME` characters.

    :raises SettingsError: naming the seat.
    """
    for seat, name in enumerate(players, start=1):
        if len(name) > MAX_PLAYER_NAME:
            raise SettingsError(
                f"players: the name of seat {seat} is longer than {MAX_PLAYER_NAME} characters"
            )


class NoSecrets:
    """The audit of a game that commits to nothing."""

    audited: Final[frozenset[type]] = frozenset()

    def __init__(self, settings: object) -> None:
        del settings  # nothing to bind a secret to

    def read(self, event: msgspec.Struct) -> Sequence[SecretFact]:
        """Nothing: no event commits, reveals or makes anything due."""
        return ()

    def start_at(self, state: object) -> Sequence[Held]:
        """Nothing: no secret is ever held."""
        return ()


class OpenGame:
    """The members of a ruleset whose game hides nothing but its future dice: every command
    and event shown as it is, nothing salted or committed, seats seen as ``"seat-N"``."""

    auditor = staticmethod(NoSecrets)

    def table(self, settings: Any) -> Table:
        """The settings' seed, chance commitment, salt source and players."""
        return table_of(settings)

    def with_table(self, settings: Any, table: Table) -> Any:
        """``settings`` with the table's seed, chance, salts and players."""
        return with_table_of(settings, table)

    def viewer_of(self, state: Any, seat: Seat | None) -> Viewer:
        """``"seat-N"`` for seat N, ``"spectator"`` for None."""
        return "spectator" if seat is None else f"seat-{seat}"

    def redact_event(self, event: Any, viewer: Viewer) -> msgspec.Struct:
        """The event itself: nothing is hidden."""
        event_struct: msgspec.Struct = event
        return event_struct

    def redact_command(self, command: Any, state: Any, viewer: Viewer) -> msgspec.Struct:
        """The command itself: nothing is hidden."""
        command_struct: msgspec.Struct = command
        return command_struct

    def fill_event(
        self, placeholder: msgspec.Struct, revealed: Revealed | None, state: Any
    ) -> Sequence[Any]:
        """Never asked: a view log of this game holds no placeholder."""
        raise ValueError(f"{self._name()} has no placeholders, not {placeholder!r}")

    def fill_command(self, placeholder: msgspec.Struct, events: Sequence[Any], state: Any) -> Any:
        """Never asked: a view log of this game holds no placeholder."""
        raise ValueError(f"{self._name()} has no placeholders, not {placeholder!r}")

    def _name(self) -> str:
        return str(vars(type(self)).get("id", "this game"))

    def salted(self, command: Any, settings: Any) -> Any:
        """The command itself: nothing is secret, so nothing is salted."""
        return command


__all__ = [
    "MAX_PLAYER_NAME",
    "NoSecrets",
    "OpenGame",
    "check_names",
    "check_table",
    "with_fresh_seed",
    "without_seed",
]
