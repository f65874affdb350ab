"""Commands: a player's intent, one decision each.

Commands are frozen msgspec structs with an explicit snake_case tag. Each
names the seat that gives it. Legal commands at any point are listed by
:func:`multiversus_core.legal_commands`; :func:`multiversus_core.rulesets.multiversus.decide`
turns an accepted command into events.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import msgspec

from multiversus_core.rulesets.multiversus.terms import (
    ActionKind,
    Colour,
    Count,
    Direction,
    Face,
    Seat,
    Side,
)


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
    salt: str | None = None
    """The commitment's salt, 64 hex digits: needed when the match's salts come from
    ``secrets`` (see :func:`~multiversus_core.salted`), refused when they come from the seed."""


class SelectReaction(_Command, frozen=True, tag="select_reaction"):
    """As the reactive player, secretly select a unit coin and one action coin, or two alike."""

    unit: str
    colour: Colour
    actions: tuple[ActionKind, ...]
    salt: str | None = None
    """The commitment's salt, as for :class:`SelectCoins`."""


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


class EndAction(_Command, frozen=True, tag="end_action"):
    """End the action or reaction under way; figures that have not acted do nothing."""


class ChooseSecret(_Command, frozen=True, tag="choose_secret"):
    """At set-up, secretly choose what a secret on your sheet will be (R23)."""

    name: str
    choice: str
    salt: str | None = None
    """The commitment's salt, as for :class:`SelectCoins`."""


class Attack(_Command, frozen=True, tag="attack"):
    """Have one character of the acting unit attack one target (R8)."""

    attacker: str
    target: str


class AfterAttack(_Command, frozen=True, tag="after_attack"):
    """After an attack, Step the attacker one space, Push the target away, or stay (R9).

    ``direction`` is needed for a step only.
    """

    choice: Literal["step", "push", "stay"]
    direction: Direction | None = None


class Stunt(_Command, frozen=True, tag="stunt"):
    """Have one figure of the acting unit use a stunt-based ability or interact with a figure.

    Give ``ability`` (a (!) or (!!) ability of the unit) or ``target`` (an adjacent figure).
    """

    figure: str
    ability: str | None = None
    target: str | None = None


class React(_Command, frozen=True, tag="react"):
    """As the reactive player, react to the trigger just offered (R5, R6)."""


class DeclineReaction(_Command, frozen=True, tag="decline_reaction"):
    """As the reactive player, let the trigger just offered pass."""


class BlockForcedMove(_Command, frozen=True, tag="block_forced_move"):
    """As the player of an allied character in the way of a forced move, choose whether it
    blocks (the moved figure stops before it) or lets the figure through (R20)."""

    ally: str
    block: bool


class StopForcedMove(_Command, frozen=True, tag="stop_forced_move"):
    """Choose how many spaces a forced move you may stop short ("up to N spaces") moves."""

    spaces: Count


class RollInitiative(_Command, frozen=True, tag="roll_initiative"):
    """Roll the Initiative die at the end of an activation.

    ``die`` is the value of a physical die rolled at the table; leave it None
    to roll the match's seeded die.
    """

    die: Face | None = None


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
    | EndAction
    | ChooseSecret
    | Attack
    | AfterAttack
    | Stunt
    | React
    | DeclineReaction
    | RollInitiative
    | GiveUpInitiative
    | BlockForcedMove
    | StopForcedMove
)
"""Every kind of command."""
