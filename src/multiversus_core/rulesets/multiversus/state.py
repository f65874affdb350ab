"""The state of a match: what folding its events gives.

State is immutable all the way down (frozen structs and tuples), so any
state can be kept, compared and shared; :func:`evolve` returns new states
with ``msgspec.structs.replace``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, TypeAlias, TypeVar

import msgspec

from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.settings import Chance, MatchSettings
from multiversus_core.rulesets.multiversus.terms import (
    ActionKind,
    Colour,
    Count,
    Direction,
    Seat,
    Side,
    Square,
)
from multiversus_core.rulesets.multiversus.units import CoinId, Unit, coin_kind

Pending: TypeAlias = Literal[
    "flip",  # seat 1 flips for the Set Up Player
    "teams",  # the Set Up Player chooses teams and scenario
    "starting_team",  # the Set Up Player chooses who starts with the Initiative
    "side",  # the Other Player chooses a team
    "select",  # the active player selects coins (or gives up the Initiative)
    "react",  # the reactive player selects coins
    "begin_action",  # the active player chooses which of two actions comes first
    "move",  # a unit is taking a Move action or reaction
    "attack",  # a unit is taking an Attack action or reaction
    "after_attack",  # an attacker chooses to Step, Push or neither
    "stunt",  # a unit is taking a Stunt action or reaction
    "offer",  # the reactive player may react to a trigger
    "forced",  # a player chooses for a forced move: an ally blocks or not, or where it stops
    "secret",  # a player chooses a set-up secret
    "roll",  # the active player rolls the Initiative die
    "over",  # the match has ended
]
"""The decision the match is waiting for."""


class SecretOffer(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A secret a sheet lets its player choose at set-up (R23)."""

    side: Side
    name: str
    options: tuple[str, ...]


class Secret(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A set-up secret a side chose (R23): hidden from the opponent until revealed."""

    side: Side
    name: str
    """The secret's name on the sheet, for example "shapeshifter"."""
    choice: str
    revealed: bool = False
    commitment: str = ""
    salt: str = ""


class Piles(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """One player's unit coins: hidden in the stash, or face up in the discard."""

    stash: tuple[CoinId, ...] = ()
    discard: tuple[CoinId, ...] = ()
    removed: tuple[CoinId, ...] = ()
    """Coins out of the match (variant costly-recovery)."""

    @property
    def stash_kinds(self) -> tuple[tuple[str, Colour], ...]:
        """The (unit, colour) of the coins in the stash, each once, in stash order."""
        return derived(self, "_stash_kinds", _stash_kinds)

    @property
    def stash_units(self) -> frozenset[str]:
        """The units with a coin in the stash."""
        return derived(self, "_stash_units", _stash_units)


def _stash_kinds(piles: Piles) -> tuple[tuple[str, Colour], ...]:
    return tuple(dict.fromkeys(map(coin_kind, piles.stash)))


def _stash_units(piles: Piles) -> frozenset[str]:
    return frozenset([unit for unit, _ in map(coin_kind, piles.stash)])


ActionName: TypeAlias = Literal["attack", "defend", "move", "stunt", "recovery"]
"""An action coin's kind, or a Recovery (a unit coin with no action coin)."""

Trigger: TypeAlias = Literal[
    "left_adjacent",  # left a square adjacent to a reactive character
    "attacked_other",  # in range of a reactive character, attacked a character outside its unit
    "stunted",  # in range of a reactive character, performed a stunt
    "recovered",  # attempted a recovery in range of a reactive character
    "double_attacked",  # double-attacked the reactive unit
    "concluded",  # the active unit's actions are over (variant move-reaction-at-end)
    "targeted",  # attacked the reactive unit (a Defend reaction needs no more)
]
"""What made a reaction possible (rulebook: Reactions; R5, R6)."""


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """An action of the active unit, or a reaction of the reactive unit, under way."""

    kind: ActionName
    double: bool
    side: Side
    unit: str
    mover: str | None = None
    """Move: the figure moving now."""
    steps_left: Count = 0
    """Move: spaces the current mover may still move."""
    done: tuple[str, ...] = ()
    """Figures whose part in this action is over (moved, attacked or stunted)."""
    target_unit: str | None = None
    """Attack: the unit every attack of this action targets."""
    stunt: str | None = None
    """Stunt: the ability used ("!Name") or the figure interacted with, fixed by the first stunt."""
    follow_up: tuple[str, str] | None = None
    """Attack: (attacker, target) waiting for the attacker's Step, Push or neither (R9)."""


class Suspended(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """An active step held back while the reactive player may react to it (R6)."""

    step: Literal["step", "follow_step", "attack", "stunt", "recovery", "conclude"]
    figure: str
    """The active figure taking the step (the unit's first figure for a recovery)."""
    to: Square | None = None
    """Step: the origin the figure is moving to."""
    target: str | None = None
    """Attack: the target; Stunt: the figure interacted with."""
    ability: str | None = None
    """Stunt: the ability used."""


ForcedHow: TypeAlias = Literal["push", "pull", "slide"]
"""The kinds of forced movement (R20)."""


class ForcedMove(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A push, pull or slide: one figure moved in a straight line (R20).

    Abilities queue forced moves; the engine carries them out one at a time,
    in the order queued, and pauses where a player has a choice.
    """

    figure: str
    """The figure moved."""
    how: ForcedHow
    direction: Direction
    distance: Count
    """The most spaces it moves."""
    up_to: Side | None = None
    """The side that may stop it short ("up to N spaces"); None: it goes as far as it can."""
    ability: str | None = None
    """The ability whose ``after_forced_move`` hook runs once it has moved."""
    let_through: tuple[str, ...] = ()
    """Allied characters in the way whose player let it through (R20)."""
    blocked: bool = False
    """An allied character in the way blocked it: no ally is asked again."""


class ForcedChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A forced move waiting for a player's choice (R20): public, like the move itself."""

    side: Side
    """The side that chooses."""
    move: ForcedMove
    ally: str | None
    """The allied character in the way, whose player chooses to block or let it through;
    None when the choice is where the move stops (``move.up_to``)."""
    queue: tuple[ForcedMove, ...] = ()
    """Forced moves still to come after this one, in order."""


class Offer(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Triggers the reactive player may react to, and the step they hold back."""

    triggers: tuple[Trigger, ...]
    """Every trigger the step raises for any unit the reactive player might have selected."""
    figure: str
    """The active figure whose step triggered it."""
    held: Suspended


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
    """The reactive unit reacted at least once (its coin stays in the discard)."""
    action: Action | None = None
    """The active unit's action under way."""
    reaction: Action | None = None
    """The reactive unit's reaction under way."""
    offer: Offer | None = None
    """A trigger waiting for the reactive player to react or decline."""
    reacted_to_action: bool = False
    """The reactive unit already reacted to the current action (R5)."""
    defending: bool = False
    """The reactive unit revealed a Defend reaction: it covers the rest of the activation (R5)."""
    braced: bool = False
    """The active unit took a Defend action: attack reactions do not harm it (R10)."""
    struck: bool = False
    """The active unit was subject to an attack reaction during the current action (R11, R12)."""
    attacked_units: tuple[str, ...] = ()
    """Units the active unit's characters attacked in this activation."""
    number: int = 0
    """The activation's number in the match, from 1 (bound into commitments)."""
    commitment: str = ""
    """The active selection's commitment."""
    salt: str = ""
    """The active selection's salt: secret until revealed."""
    reaction_commitment: str = ""
    """The reactive selection's commitment; empty if nothing was selected."""
    reaction_salt: str = ""
    """The reactive selection's salt: secret until revealed."""
    forced: ForcedChoice | None = None
    """A forced move waiting for a player's choice (R20)."""


class MatchState(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """Everything known about a match at one point, referee's view.

    Values derived from a state (lookups by id, movement options, the seat to
    decide) are cached on it by :func:`derived`, outside its fields: they
    take no part in equality or encoding, and a new state starts with none.
    """

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
    winner: Side | None = None
    """The winning side, once the match has ended; None for a draw."""
    secret_offers: tuple[SecretOffer, ...] = ()
    """Set-up secrets the sheets offer (R23)."""
    secrets: tuple[Secret, ...] = ()
    """Set-up secrets chosen so far (R23)."""
    activations: int = 0
    """Activations begun in the match so far."""
    chance: Chance | None = None
    """The secret chance seed of a match whose settings hold only its commitment: the
    referee's, never in a view; None when chance is public, or not known here."""

    def __repr__(self) -> str:
        """Where the match stands, in angle brackets: a state is too large to paste back (its
        log replays it: :func:`~multiversus_core.engine.log.replay`)."""
        return f"<MatchState {standing(self)}>"

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
        # by_figures(self, "_unit_index", _index_units), its usual hit inlined.
        table = self.__dict__.get("_by_figures")
        units: dict[str, Unit] | None = None if table is None else table.get("_unit_index")
        if units is None:
            units = by_figures(self, "_unit_index", _index_units)
        return units[unit_id]

    def figure(self, figure_id: str) -> Figure:
        """Return a figure in play.

        :raises KeyError: if no figure has this id.
        """
        # by_figures(self, "_figure_index", _index_figures), its usual hit inlined: rules
        # look figures up by id several times a command.
        table = self.__dict__.get("_by_figures")
        index: dict[str, Figure] | None = None if table is None else table.get("_figure_index")
        if index is None:
            index = by_figures(self, "_figure_index", _index_figures)
        return index[figure_id]

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


_T = TypeVar("_T")
_O = TypeVar("_O")


def derived(owner: _O, key: str, compute: Callable[[_O], _T]) -> _T:
    """Return ``compute(owner)``, computed once per owner and cached on it.

    ``owner`` is an immutable struct with room for a cache (``dict=True``):
    a state, a board or piles. ``key`` names the value (one name for one
    function, with a leading underscore, so that it can never shadow a
    method). The owner is immutable, so the value never goes stale, and it
    lives as long as the owner does.
    """
    cache = owner.__dict__
    value: _T = cache.get(key, _MISSING)
    if value is _MISSING:
        value = cache[key] = compute(owner)
    return value


_MISSING: Final[Any] = object()


def by_figures(state: MatchState, key: str, compute: Callable[[MatchState], _T]) -> _T:
    """Return ``compute(state)`` for a value that depends only on the state's units, board
    and figures, computed once for them.

    Such values are kept in one table, ``_by_figures``, that deciding
    (:meth:`~.builder.Builder.emit`) passes on to the next state while it
    keeps the very same units, board and figures, and a step passes on with the stepped
    figure in its place: most events leave them alone, so most states find these values
    computed already, by a state before or after them.
    """
    cache = state.__dict__
    table = cache.get("_by_figures")
    if table is None:
        table = cache["_by_figures"] = {}
    value: _T = table.get(key, _MISSING)
    if value is _MISSING:
        value = table[key] = compute(state)
    return value


def _index_figures(state: MatchState) -> dict[str, Figure]:
    return {f.id: f for f in state.figures}


def _index_units(state: MatchState) -> dict[str, Unit]:
    return {u.id: u for u in state.units}


def standing(state: MatchState | Any) -> str:
    """Where a state or a view stands, in a line: the teams, the round and turn, the decision
    waited for, and how many activations were made."""
    s = state.settings
    teams = f"{s.heroes or '?'} v {s.adversaries or '?'}"
    if state.ended is not None:
        where = f"over after round {state.round}: {state.ended}"
    elif state.round == 0:
        where = f"set-up, pending {state.pending}"
    else:
        turn = f"turn {state.turns_in_round} of the {state.active or '?'}"
        where = f"round {state.round}, {turn}, pending {state.pending}"
    return f"{teams}, {where}, {state.activations} activations"
