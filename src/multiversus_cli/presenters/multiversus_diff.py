"""How two Multiversus matches' states differ, in Multiversus' words, for ``diff``: figures
one by one (which of square and condition), squares, conditions, and figures, units and coins
by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec

from multiversus_cli.differences import Found, field_differences, field_line, words
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.narrate import (
    coin_name,
    condition_name,
    figure_name,
    square,
    unit_name,
)
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.units import coin_unit

_FIGURE_FIELDS: Final = ("square", "condition")


def state_differences(a: MatchState, b: MatchState) -> tuple[Found, ...]:
    """Return the differences of two referee states, field by field.

    Each is ``{"field": name, "a": ..., "b": ...}``; figures are compared one
    by one instead: ``{"field": "figures", "figure": id, "differs": [...], "a": ..., "b": ...}``
    naming which of square and condition differ (or ``"presence"``).
    """
    return field_differences(a, b, {"figures": _figure_differences})


def _figure_differences(a: tuple[Figure, ...], b: tuple[Figure, ...]) -> list[Found]:
    left = {f.id: f for f in a}
    right = {f.id: f for f in b}
    found: list[Found] = []
    for figure_id in [*left, *(i for i in right if i not in left)]:
        fa, fb = left.get(figure_id), right.get(figure_id)
        if fa == fb:
            continue
        if fa is None or fb is None:
            differs = ["presence"]
        else:
            differs = [f for f in _FIGURE_FIELDS if getattr(fa, f) != getattr(fb, f)]
            differs += [
                f
                for f in fa.__struct_fields__
                if f not in _FIGURE_FIELDS and getattr(fa, f) != getattr(fb, f)
            ]
        found.append(
            {
                "field": "figures",
                "figure": figure_id,
                "differs": differs,
                "a": None
                if fa is None
                else {f: msgspec.to_builtins(getattr(fa, f)) for f in differs if f != "presence"},
                "b": None
                if fb is None
                else {f: msgspec.to_builtins(getattr(fb, f)) for f in differs if f != "presence"},
            }
        )
    return found


def mv_words(field: str, value: Any) -> str | None:
    """A value in words, squares and conditions as Multiversus says them."""
    if field == "square" and isinstance(value, (list, tuple)) and len(value) == 2:
        return square((int(value[0]), int(value[1])))
    if field == "condition" and value in ("unharmed", "wounded", "disabled", "eliminated"):
        return condition_name(value)
    if field == "pending" and isinstance(value, str):
        return value.replace("_", " ")  # "after_attack" is the step after an attack
    return words(field, value)


_NAMERS: Final[dict[str, Callable[[MatchState, str], str]]] = {
    "mover": figure_name,
    "figure": figure_name,
    "done": figure_name,
    "ally": figure_name,
    "unit": unit_name,
    "target_unit": unit_name,
    "attacked_units": unit_name,
    "coin": coin_name,
    "reaction_coin": coin_name,
    "stash": coin_name,
    "discard": coin_name,
    "removed": coin_name,
}
"""Keys whose values are figure, unit or coin ids, and how to name them."""


def _named(states: tuple[MatchState, ...], key: str, value: Any) -> Any:
    """A value with its figure, unit or coin ids replaced by their names, from the first of
    ``states`` that knows them (A's team may not be B's)."""
    namer = _NAMERS.get(key)
    if namer is None:
        return value
    if isinstance(value, str):
        return _name(namer, states, value)
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return [_name(namer, states, v) for v in value]
    return value


def _name(namer: Callable[[MatchState, str], str], states: tuple[MatchState, ...], id: str) -> str:
    """``id`` named from the first of ``states`` that has it (a figure, a unit, a unit's coin)."""
    unit = coin_unit(id) if namer is coin_name else id
    for state in states:
        if any(f.id == id for f in state.figures) or any(u.id == unit for u in state.units):
            return namer(state, id)
    return namer(states[0], id)


def difference_line(found: Found, state: MatchState, other: MatchState | None = None) -> str:
    """One difference in a line, figures, units and coins named from ``state``, or from
    ``other`` (the other log's state) for those ``state`` does not know."""
    states = (state,) if other is None else (state, other)
    if found["field"] != "figures":

        def nested(key: str, value: Any) -> str | None:
            return mv_words(key, _named(states, key, value))

        return field_line(found, mv_words, records=False, nested=nested)
    name = _name(figure_name, states, found["figure"])
    if found["differs"] == ["presence"]:
        where = "A only" if found["b"] is None else "B only"
        return f"{name}: in {where}"
    parts = []
    for f in found["differs"]:
        a, b = mv_words(f, found["a"][f]), mv_words(f, found["b"][f])
        parts.append(f"{f} differs" if a is None or b is None else f"{f} {a} in A, {b} in B")
    return f"{name}: " + "; ".join(parts)
