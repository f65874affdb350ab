"""Match settings: the teams, scenario, variants, seed and players of a match."""

from __future__ import annotations

import msgspec


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
    seed: int = 0
    """Seeds every die roll and coin flip not supplied by a command (0 <= seed < 2**64)."""
    players: tuple[str, str] = ("Player 1", "Player 2")
    """Display names of seat 1 and seat 2."""
