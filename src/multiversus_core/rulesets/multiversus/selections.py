"""Which coins a side may select: the unit coins and action coins a unit can use (R1, R3, R15).

The activation (:mod:`.activation`) and the Initiative (:mod:`.initiative`) both ask
whether a side has a unit that can act or react; this module answers them,
and keeps what it works out in the state's table of lookups shared by states
with the same figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, TypeVar

from multiversus_core.rulesets.multiversus.abilities import stunt_abilities
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.state import MatchState, by_figures, derived
from multiversus_core.rulesets.multiversus.terms import ActionKind, Colour, Side
from multiversus_core.rulesets.multiversus.units import CoinId, Unit, coin_kind

ACTION_SELECTIONS: Final[tuple[tuple[ActionKind, ...], ...]] = (
    ("attack",),
    ("defend",),
    ("move",),
    ("stunt",),
    ("attack", "attack"),
    ("move", "move"),
    ("stunt", "stunt"),
    ("attack", "defend"),
    ("attack", "move"),
    ("attack", "stunt"),
    ("defend", "move"),
    ("defend", "stunt"),
    ("move", "stunt"),
)
"""Action-coin selections of an active unit: one coin, two different, or two alike
except two Defends (Double-Defend is N/A). No coin at all is a Recovery (R3)."""

REACTIVE_SELECTIONS: Final[tuple[tuple[ActionKind, ...], ...]] = ACTION_SELECTIONS[:7]
"""Reactive selections: one action coin, or two alike except two Defends (R3)."""

MOVE_SPACES: Final = 3
"""Spaces a Move lets each figure move."""
DOUBLE_MOVE_SPACES: Final = 6
"""Spaces a Double-Move lets each figure move."""

DIAGONAL_DOUBLE_MOVE_SPACES: Final = 4
"""Spaces a Double-Move allows under the variant diagonal-double-move."""

OVERWATCH: Final = "Overwatch"
"""The ability that keeps range triggers under the variant adjacent-triggers."""

DRIFTING: Final = "Drifting"
"""The ability that lets a Terrain unit's pieces take Move actions and reactions (R1)."""


# --- who can do what --------------------------------------------------------


def figures_of(state: MatchState, unit: Unit) -> tuple[Figure, ...]:
    """Return a unit's figures that are on the board."""
    return by_figures(state, "_figures_of", _on_board_by_unit).get(unit.id, ())


def able_figures(state: MatchState, unit: Unit) -> tuple[Figure, ...]:
    """Return a unit's figures that can take actions: on the board and not Disabled."""
    return by_figures(state, "_able_figures", _able_by_unit).get(unit.id, ())


def _on_board_by_unit(state: MatchState) -> dict[str, tuple[Figure, ...]]:
    """Every unit's figures on the board, in the state's order: one pass for all units."""
    return _by_unit(f for f in state.figures if f.square is not None)


def _able_by_unit(state: MatchState) -> dict[str, tuple[Figure, ...]]:
    """Every unit's figures on the board and not Disabled, in the state's order."""
    return _by_unit(f for f in state.figures if f.square is not None and f.condition != "disabled")


def _by_unit(figures: Iterable[Figure]) -> dict[str, tuple[Figure, ...]]:
    table: dict[str, list[Figure]] = {}
    for figure in figures:
        found = table.get(figure.unit)
        if found is None:
            table[figure.unit] = [figure]
        else:
            found.append(figure)
    return {unit: tuple(found) for unit, found in table.items()}


_Selections = tuple[tuple[ActionKind, ...], ...]


_K = TypeVar("_K", Unit, Figure)
_V = TypeVar("_V")


def _kept(
    known: dict[str, tuple[_K, _V]],
    state: MatchState,
    item: _K,
    compute: Callable[[MatchState, _K], _V],
) -> _V:
    """Return ``compute(state, item)`` from ``known`` (keyed by the unit's or figure's id,
    holding the very unit or figure it was computed for), computing it if it is not there."""
    found = known.get(item.id)
    if found is not None and (found[0] is item or found[0] == item):
        return found[1]
    value = compute(state, item)
    known[item.id] = (item, value)
    return value


def _new_table(state: MatchState) -> dict[Any, Any]:
    return {}


def can_move(unit: Unit) -> bool:
    """True if the unit's figures may move: characters, or Drifting terrain (R1)."""
    return not unit.is_terrain or DRIFTING in unit.abilities


def _terrain_selections(unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    """The selections of a Terrain unit: found once per unit, from its abilities alone."""
    return derived(unit, "_terrain_selections", _find_terrain_selections)


def _terrain_reactions(unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    return derived(unit, "_terrain_reactions", _find_terrain_reactions)


def _find_terrain_selections(unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    # Terrain pieces move and stunt only as their abilities allow (R1).
    kinds: list[ActionKind] = []
    if can_move(unit):
        kinds.append("move")
    if stunt_abilities(unit, double=False) or stunt_abilities(unit, double=True):
        kinds.append("stunt")
    return tuple(a for a in ACTION_SELECTIONS if set(a) <= set(kinds))


def _find_terrain_reactions(unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    return tuple(a for a in _terrain_selections(unit) if a in REACTIVE_SELECTIONS)


def needs_recovery(state: MatchState, unit: Unit) -> bool:
    """True if a character of the unit is Wounded or Disabled."""
    return any(f.condition in ("wounded", "disabled") for f in figures_of(state, unit))


def active_selections(state: MatchState, unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    """Return the action-coin selections the unit may make as the active unit.

    ``()`` stands for a Recovery. A unit whose characters are all Disabled
    can only Recover.
    """
    # Computed once per unit for the states that share the same figures (by_figures).
    return _kept(
        by_figures(state, "_active_selections", _new_table), state, unit, _active_selections
    )


def _active_selections(state: MatchState, unit: Unit) -> _Selections:
    if not figures_of(state, unit):
        return ()
    if unit.is_terrain:
        return _terrain_selections(unit)
    recovery = needs_recovery(state, unit)
    if not able_figures(state, unit):
        return _RECOVERY if recovery else ()
    return _RECOVERY_OR_ACTIONS if recovery else ACTION_SELECTIONS


_RECOVERY: Final[_Selections] = ((),)
_RECOVERY_OR_ACTIONS: Final[_Selections] = _RECOVERY + ACTION_SELECTIONS


def reactive_selections(state: MatchState, unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    """Return the action-coin selections the unit may make as the reactive unit."""
    return _kept(
        by_figures(state, "_reactive_selections", _new_table), state, unit, _reactive_selections
    )


def _reactive_selections(state: MatchState, unit: Unit) -> _Selections:
    if not able_figures(state, unit):
        return ()
    if unit.is_terrain:
        return _terrain_reactions(unit)
    return REACTIVE_SELECTIONS


def coin_in_stash(state: MatchState, side: Side, unit: Unit, colour: Colour) -> CoinId | None:
    """Return the first coin of that unit and colour in the side's stash, or None."""
    kind = (unit.id, colour)
    for coin in state.piles(side).stash:
        if coin_kind(coin) == kind:
            return coin
    return None


def units_of(state: MatchState, side: Side) -> tuple[Unit, ...]:
    """Return a side's units."""
    return tuple(u for u in state.units if u.side == side)


def has_legal_activation(state: MatchState, side: Side) -> bool:
    """True if the side has a unit coin in its stash for a unit that can act (R15)."""
    return _any_stashed(state, side, "_active_selections", _active_selections)


def can_react(state: MatchState, side: Side) -> bool:
    """True if the side has a unit coin in its stash for a unit that can react (R3)."""
    return _any_stashed(state, side, "_reactive_selections", _reactive_selections)


def _any_stashed(
    state: MatchState,
    side: Side,
    key: str,
    selections: Callable[[MatchState, Unit], _Selections],
) -> bool:
    """True if a unit of the side with a coin in its stash has any of these selections
    (kept in the state's table ``key``, as active_selections and reactive_selections do)."""
    known = by_figures(state, key, _new_table)
    # Coin by coin, so that the usual answer (the first unit can) needs no set of units.
    for coin in state.piles(side).stash:
        unit = state.unit(coin_kind(coin)[0])
        if unit.side == side and _kept(known, state, unit, selections):
            return True
    return False
