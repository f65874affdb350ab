"""Settings: what the three players agree before a match of Sealed Bids."""

from __future__ import annotations

from typing import Final

import msgspec

from multiversus_core.engine.chance import Seed
from multiversus_core.engine.commit import SaltSource, is_salt
from multiversus_core.engine.errors import SettingsError

SEATS: Final = (1, 2, 3)
"""The three seats, in seat order."""

TOKENS: Final = (1, 2, 3, 4, 5)
"""The bid tokens each seat holds at the start of a match."""

MAX_ROUNDS: Final = len(TOKENS)
"""A match lasts at most one round per token."""


class SealedBidsSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The players, the length of the match, and where its chance and salts come from."""

    players: tuple[str, str, str] = ("Seat 1", "Seat 2", "Seat 3")
    """The players' names, seat 1 first."""
    rounds: int = 3
    """How many rounds the match lasts (1 to 5)."""
    seed: Seed = 0
    """The public chance seed (0 <= seed < 2**64); 0 when chance is secret."""
    salts: SaltSource = "seed"
    """Where bid salts come from: ``"secrets"`` in real play (each bid carries a fresh salt),
    or ``"seed"``, derived from the seed, for reproducible logs that are **not secret**."""
    chance: str = ""
    """The commitment to a secret chance seed (64 hex digits), or empty when ``seed`` is public."""


def check_settings(settings: SealedBidsSettings) -> None:
    """Check the settings can start a match.

    :raises SettingsError: naming the first field that is wrong.
    """
    players = settings.players
    if len(players) != len(SEATS) or not all(isinstance(p, str) and p.strip() for p in players):
        raise SettingsError("players: name all three players, seat 1 first")
    if not 1 <= settings.rounds <= MAX_ROUNDS:
        raise SettingsError(f"rounds: a match lasts 1 to 5 rounds, not {settings.rounds!r}")
    if not 0 <= settings.seed < 2**64:
        raise SettingsError(f"seed: the seed is from 0 to 2**64 - 1, not {settings.seed}")
    if settings.salts not in ("seed", "secrets"):
        raise SettingsError(f"salts: salts come from 'seed' or 'secrets', not {settings.salts!r}")
    if settings.chance and not is_salt(settings.chance):
        raise SettingsError("chance: a chance commitment is 64 lower-case hex digits")
    if settings.chance and settings.seed != 0:
        raise SettingsError("seed: the seed is 0 when chance is secret")
