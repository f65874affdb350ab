"""Commands: a player's intent, one decision each.

Commands are frozen msgspec structs with an explicit snake_case tag. Each
names the seat that gives it. Legal commands at any point are listed by
:func:`multiversus_core.legal_commands`; :func:`multiversus_core.decide`
turns an accepted command into events.
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from multiversus_core.terms import ActionKind, Colour, Direction, Seat, Side


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False, tag_field="kind"):
    player: Seat
    """The seat giving the command."""


class FlipForSetUp(_Command, frozen=True, tag="flip_for_set_up"):
    """Flip the coin that decides the Set Up Player (seat 1 flips).

    ``winner`` is the seat the coin favoured, when a real coin was flipped at
    the table; leave it None to flip the match's seeded coin.
    """

    winner: Seat | None = None


class ChooseTeams(_Command, frozen=True, tag="choose_teams"):
    """As the Set Up Player, choose the two teams and the scenario to lay out."""

    heroes: str
    adversaries: str
    scenario: str


class ChooseStartingTeam(_Command, frozen=True, tag="choose_starting_team"):
    """As the Set Up Player, choose the team that begins each round with the Initiative."""

    side: Side


class ChooseSide(_Command, frozen=True, tag="choose_side"):
    """As the Other Player, choose the team you will control."""

    side: Side


class SelectCoins(_Command, frozen=True, tag="select_coins"):
    """As the active player, secretly select a unit coin and up to two action coins.

    Zero action coins is a Recovery; two of one kind is one amplified action.
    ``actions`` is in canonical (sorted) order; the order in which two
    different actions are taken is chosen later with :class:`BeginAction`.
    """

    unit: str
    colour: Colour
    actions: tuple[ActionKind, ...]


class SelectReaction(_Command, frozen=True, tag="select_reaction"):
    """As the reactive player, secretly select a unit coin and one action coin, or two alike."""

    unit: str
    colour: Colour
    actions: tuple[ActionKind, ...]


class SelectNoReaction(_Command, frozen=True, tag="select_no_reaction"):
    """As the reactive player with no unit coin for a unit that can react, select nothing (R3)."""


class BeginAction(_Command, frozen=True, tag="begin_action"):
    """As the active player with two different actions, choose which to take next."""

    action: ActionKind


class Step(_Command, frozen=True, tag="step"):
    """Move one figure of the active unit one space orthogonally, as part of a Move action.

    Stepping a different figure ends the previous figure's move.
    """

    figure: str
    direction: Direction


class EndMove(_Command, frozen=True, tag="end_move"):
    """End the current Move action; figures that have not moved stay where they are."""


class RollInitiative(_Command, frozen=True, tag="roll_initiative"):
    """Roll the Initiative die at the end of an activation.

    ``die`` is the value of a physical die rolled at the table; leave it None
    to roll the match's seeded die.
    """

    die: int | None = None


class GiveUpInitiative(_Command, frozen=True, tag="give_up_initiative"):
    """Having kept the Initiative on the die, give it up willingly."""


Command: TypeAlias = (
    FlipForSetUp
    | ChooseTeams
    | ChooseStartingTeam
    | ChooseSide
    | SelectCoins
    | SelectReaction
    | SelectNoReaction
    | BeginAction
    | Step
    | EndMove
    | RollInitiative
    | GiveUpInitiative
)
"""Every kind of command."""
