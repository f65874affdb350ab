"""How two worlds-collide matches' states differ, in the game's words, for ``diff``: models one
by one (which of square, HP, fallen and activated), each side's AP, VP and whether it is out,
squares by name ("c4"), models by name ("Ann's Rifleman 2")."""

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
from multiversus_core.engine.grid import square_name
from multiversus_core.rulesets.worlds_collide.model import Model, Side, WorldsState
from multiversus_core.rulesets.worlds_collide.words import PLAN_WORDS, model_name

_MODEL_FIELDS: Final = ("at", "hp", "fallen", "activated")
"""A model's fields that change in play, in the order a line tells them."""
_SIDE_FIELDS: Final = ("ap", "vp", "out")
"""A side's fields that change in play, in the order a line tells them."""
_LABELS: Final = {
    "at": "square",
    "to": "square",
    "hp": "HP",
    "ap": "AP",
    "vp": "VP",
    "out": "out of the round",
}
_MODEL_IDS: Final = frozenset({"model", "target", "models"})
"""Keys whose values are model ids."""


def state_differences(a: WorldsState, b: WorldsState) -> tuple[Found, ...]:
    """The differences of two referee states, field by field; models one by one instead
    (``{"field": "models", "model": id, "name": ..., "differs": [...], "a": ..., "b": ...}``,
    naming the model's fields that differ, or ``"presence"``), and the sides seat by seat
    (``"field": "sides", "seat": "1"``)."""

    def models(ma: tuple[Model, ...], mb: tuple[Model, ...]) -> list[Found]:
        found = record_differences(
            "models", "model", {m.id: m for m in ma}, {m.id: m for m in mb}, _MODEL_FIELDS
        )
        for one in found:
            one["name"] = model_name(a if a.model(one["model"]) else b, one["model"])
        return found

    def sides(sa: tuple[Side, ...], sb: tuple[Side, ...]) -> list[Found]:
        return record_differences(
            "sides",
            "seat",
            {str(seat): side for seat, side in enumerate(sa, start=1)},
            {str(seat): side for seat, side in enumerate(sb, start=1)},
            _SIDE_FIELDS,
        )

    return field_differences(a, b, {"models": models, "sides": sides})


def worlds_words(field: str, value: Any) -> str | None:
    """A value in words: squares named as on the board, an environment entry or a faction by
    its name."""
    if field in ("at", "to") and isinstance(value, (list, tuple)) and len(value) == 2:
        return square_name((int(value[0]), int(value[1])))
    if field == "at" and value is None:
        return "off the board"
    if field in ("environment", "faction") and isinstance(value, dict) and "name" in value:
        return str(value["name"])
    if value == "":
        return "none"
    if field in ("rows", "game_map", "deck"):
        return None  # the map, the cards: too large for a line
    return words(field, value)


def _activation_words(state: WorldsState, value: Any) -> str | None:
    """The activation under way in words: "Ann's activation of Ann's Rifleman 1 (move, then
    attack)"."""
    if value is None:
        return "none"
    if not isinstance(value, dict):
        return None
    seat = int(value["seat"])
    models = ", ".join(model_name(state, m) for m in value["models"])
    plan = PLAN_WORDS.get(value["plan"], value["plan"])
    return f"{state.settings.players[seat - 1]}'s activation of {models} ({plan})"


def difference_line(found: Found, state: WorldsState) -> str:
    """One difference in a line, models named from ``state``."""
    field = found["field"]
    if field not in ("models", "sides"):

        def told(key: str, value: Any) -> str | None:
            if key == "activation" and (found["a"] is None or found["b"] is None):
                return _activation_words(state, value)
            return worlds_words(key, value)

        def nested(key: str, value: Any) -> str | None:
            value = named(key, value, _MODEL_IDS, lambda m: model_name(state, m))
            if key == "moves" and isinstance(value, (list, tuple)):
                return (
                    ", ".join(
                        f"{model_name(state, m['model'])} to {worlds_words('to', m['to'])}"
                        for m in value
                    )
                    or "none"
                )
            elif key == "attacks" and isinstance(value, (list, tuple)):
                return f"{len(value)} to roll"
            elif key == "roll" and isinstance(value, dict):
                return "dice " + ", ".join(map(str, value["faces"]))
            return worlds_words(key, value)

        return field_line(found, told, records=False, nested=nested)
    if field == "models":
        name = found.get("name") or model_name(state, found["model"])
    else:
        seat = int(found["seat"])
        name = f"{state.settings.players[seat - 1]}'s side (seat {seat})"
    return record_line(name, found, worlds_words, _LABELS)


__all__ = ["difference_line", "state_differences", "worlds_words"]
