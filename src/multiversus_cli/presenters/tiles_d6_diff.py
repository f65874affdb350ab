"""How two tiles-d6 matches' states differ, in the game's words, for ``diff``: units one by
one (which of square, health, posture and statuses), squares by name ("c4"), units by name."""

from __future__ import annotations

from typing import Any, Final

from multiversus_cli.differences import (
    Found,
    field_differences,
    field_line,
    named,
    record_differences,
    record_line,
    words,
)
from multiversus_core.engine.grid import square_name as square
from multiversus_core.rulesets.tiles_d6.model import TilesState, Unit
from multiversus_core.rulesets.tiles_d6.words import unit_name

_UNIT_FIELDS: Final = ("at", "health", "prone", "stunned", "concussed", "injured")
"""A unit's fields that change in play, in the order a line tells them."""
_LABELS: Final = {"at": "square", "prone": "prone", "stunned": "stunned turns"}
_UNIT_IDS: Final = frozenset({"unit", "acted"})
"""Keys whose values are unit ids."""


def state_differences(a: TilesState, b: TilesState) -> tuple[Found, ...]:
    """The differences of two referee states, field by field; units one by one instead:
    ``{"field": "units", "unit": id, "name": ..., "differs": [...], "a": ..., "b": ...}``
    naming the unit's fields that differ (or ``"presence"``)."""

    def units(ua: tuple[Unit, ...], ub: tuple[Unit, ...]) -> list[Found]:
        found = record_differences(
            "units", "unit", {u.id: u for u in ua}, {u.id: u for u in ub}, _UNIT_FIELDS
        )
        for one in found:
            one["name"] = unit_name(a if a.unit(one["unit"]) else b, one["unit"])
        return found

    return field_differences(a, b, {"units": units})


def tiles_words(field: str, value: Any) -> str | None:
    """A value in words, squares named as on the board."""
    if field in ("at", "to") and isinstance(value, (list, tuple)) and len(value) == 2:
        return square((int(value[0]), int(value[1])))
    if field == "at" and value is None:
        return "off the board"
    if field == "injured" and isinstance(value, (list, tuple)):
        return " and ".join(f"{n} by seat {seat}" for seat, n in enumerate(value, start=1))
    if value == "":
        return "none"
    if field == "rows":
        return None  # the map: too large for a line
    return words(field, value)


def _action_words(state: TilesState, value: Any) -> str | None:
    if not isinstance(value, dict):
        return None if value is not None else "none"
    kind = "charge" if value.get("charge") else "move"
    return f"the {kind} of {unit_name(state, value['unit'])}, {value['points']} points left"


def difference_line(found: Found, state: TilesState) -> str:
    """One difference in a line, units named from ``state``."""
    if found["field"] != "units":

        def told(key: str, value: Any) -> str | None:
            if key == "action":
                return _action_words(state, value)
            return nested(key, value)

        def nested(key: str, value: Any) -> str | None:
            return tiles_words(key, named(key, value, _UNIT_IDS, lambda u: unit_name(state, u)))

        return field_line(found, told, records=False, nested=nested)
    name = found.get("name") or unit_name(state, found["unit"])
    return record_line(name, found, tiles_words, _LABELS)
