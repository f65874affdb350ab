"""Multiversus' chance points: the set-up coin flip and the Initiative die (R13).

Each is drawn in ``decide`` from the match's seed (public, or the referee's
secret until the end), or taken from the command that supplies it (a coin
flipped or a die rolled at the table), and recorded in its event.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from multiversus_core.rulesets.multiversus.commands import Command, FlipForSetUp, RollInitiative
from multiversus_core.rulesets.multiversus.events import InitiativeRolled, SetUpCoinFlipped


def with_recorded_chance(command: Command, events: Sequence[object]) -> Command:
    """Return a command that drew chance with the outcome its events record, as if supplied.

    For a log whose chance is secret and not revealed yet: its rolls cannot be
    derived, only taken as recorded (and checked to be faces of the die by
    :func:`~multiversus_core.rulesets.multiversus.decide`).
    """
    match command:
        case FlipForSetUp(winner=None):
            for event in events:
                if isinstance(event, SetUpCoinFlipped):
                    return msgspec.structs.replace(command, winner=event.set_up_player)
        case RollInitiative(die=None):
            for event in events:
                if isinstance(event, InitiativeRolled):
                    return msgspec.structs.replace(command, die=event.die)
        case _:
            pass
    return command
