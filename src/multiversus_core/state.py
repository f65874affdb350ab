"""The state of a match: what folding its events gives.

State is immutable all the way down (frozen structs and tuples), so any
state can be kept, compared and shared; :func:`evolve` returns new states
with ``msgspec.structs.replace``.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import msgspec

from multiversus_core.board import Board, Figure
from multiversus_core.settings import MatchSettings
from multiversus_core.terms import ActionKind, Seat, Side
from multiversus_core.units import CoinId, Unit

Pending: TypeAlias = Literal[
    "flip",  # seat 1 flips for the Set Up Player
    "teams",  # the Set Up Player chooses teams and scenario
    "starting_team",  # the Set Up Player chooses who starts with the Initiative
    "side",  # the Other Player chooses a team
    "select",  # the active player selects coins (or gives up the Initiative)
    "react",  # the reactive player selects coins
    "begin_action",  # the active player chooses which of two actions comes first
    "move",  # the active unit is taking a Move action
    "roll",  # the active player rolls the Initiative die
    "over",  # the match has ended
]
"""The decision the match is waiting for."""


class Piles(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One player's unit coins: hidden in the stash, or face up in the discard."""

    stash: tuple[CoinId, ...] = ()
    discard: tuple[CoinId, ...] = ()


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The action the active unit is taking."""

    kind: ActionKind
    double: bool
    allowance: int = 0
    """Move actions: spaces each figure may move (3, or 6 for a Double-Move)."""
    mover: str | None = None
    """Move actions: the figure moving now."""
    steps_left: int = 0
    """Move actions: spaces the current mover may still move."""
    moved: tuple[str, ...] = ()
    """Move actions: figures whose move is over."""


class Activation(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One activation: the active selection, the reactive selection, and progress."""

    side: Side
    unit: str
    coin: CoinId | None
    """The active unit coin; None once discarded."""
    actions: tuple[ActionKind, ...]
    remaining: tuple[ActionKind, ...]
    """Action coins not yet used (a double is used up by one action)."""
    revealed: bool = False
    reaction_coin: CoinId | None = None
    """None if the reactive player selected nothing, or once the coin was settled."""
    reaction_actions: tuple[ActionKind, ...] = ()
    reaction_selected: bool = False
    reaction_revealed: bool = False
    reacted: bool = False
    action: Action | None = None
    """The action under way."""


class MatchState(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Everything known about a match at one point, referee's view."""

    settings: MatchSettings
    pending: Pending = "flip"
    draws: int = 0
    """Chance draws taken from the seed so far (see :mod:`dice`)."""
    set_up_player: Seat | None = None
    heroes_team: str | None = None
    adversaries_team: str | None = None
    scenario: str | None = None
    units: tuple[Unit, ...] = ()
    board: Board | None = None
    figures: tuple[Figure, ...] = ()
    starting_side: Side | None = None
    heroes_seat: Seat | None = None
    round: int = 0
    turns_in_round: int = 0
    """Turns begun in the current round (1 or 2)."""
    active: Side | None = None
    """The side holding the Initiative die."""
    may_give_up: bool = False
    """True after a kept Initiative roll, until the next selection."""
    heroes: Piles = Piles()
    adversaries: Piles = Piles()
    activation: Activation | None = None
    ended: str | None = None
    """Why the match ended, once it has."""

    def piles(self, side: Side) -> Piles:
        """Return a side's unit coin piles."""
        return self.heroes if side == "heroes" else self.adversaries

    def seat_of(self, side: Side) -> Seat | None:
        """Return the seat controlling a side, or None before sides are chosen."""
        if self.heroes_seat is None:
            return None
        if side == "heroes":
            return self.heroes_seat
        return 2 if self.heroes_seat == 1 else 1

    def side_of(self, seat: Seat) -> Side | None:
        """Return the side a seat controls, or None before sides are chosen."""
        if self.heroes_seat is None:
            return None
        return "heroes" if seat == self.heroes_seat else "adversaries"

    def unit(self, unit_id: str) -> Unit:
        """Return a unit in play.

        :raises KeyError: if no unit has this id.
        """
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise KeyError(unit_id)

    def figure(self, figure_id: str) -> Figure:
        """Return a figure in play.

        :raises KeyError: if no figure has this id.
        """
        for figure in self.figures:
            if figure.id == figure_id:
                return figure
        raise KeyError(figure_id)

    @property
    def reactive(self) -> Side | None:
        """The side without the Initiative, during gameplay."""
        if self.active is None:
            return None
        return "adversaries" if self.active == "heroes" else "heroes"

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""
        return self.ended is not None
