"""Match settings: the teams, scenario, variants, seed and players of a match."""

from __future__ import annotations

import msgspec

from multiversus_core.engine.chance import Chance, Seed
from multiversus_core.engine.commit import SaltSource

__all__ = ["Chance", "MatchSettings", "SaltSource", "Seed"]


class MatchSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What the players agreed to play before set-up begins.

    A team or scenario left as None is chosen by the Set Up Player during
    set-up (rulebook, *Set up*, step 2) from the installed teams.
    """

    heroes: str | None = None
    """Id of the Hero team, or None to let the Set Up Player choose."""
    adversaries: str | None = None
    """Id of the Adversary team, or None to let the Set Up Player choose."""
    scenario: str | None = None
    """Id of a scenario on the Adversary sheet, or None to let the Set Up Player choose."""
    variants: tuple[str, ...] = ()
    """Names of the Alternative Rules in play (R22); none by default."""
    seed: Seed = 0
    """Seeds every die roll and coin flip not supplied by a command (0 <= seed < 2**64), when
    chance is public (``chance`` empty); 0 when chance is secret."""
    players: tuple[str, str] = ("Player 1", "Player 2")
    """Display names of seat 1 and seat 2."""
    salts: SaltSource = "seed"
    """Where commitment salts come from: ``"secrets"`` in real play (each secret command
    carries a fresh salt), or ``"seed"``, derived from the seed, for reproducible logs
    that are **not secret** (anyone who knows the seed can open their commitments)."""
    chance: str = ""
    """The commitment to a secret chance seed (64 hex digits, see
    :func:`~.secrets.chance_commitment`), or empty when chance is
    public and ``seed`` seeds it. The seed itself is the referee's until the end of the
    match, which reveals it."""
