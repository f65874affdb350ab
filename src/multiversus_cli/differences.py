"""How two matches' states differ, in words: what ``diff`` tells, for any game.

A game's presenter (:mod:`multiversus_cli.presenters`) says how two of its
states differ and tells each difference in a line; these are the pieces
every presenter shares: the differences field by field, and a value in
words when it is short enough for a line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final, TypeAlias

import msgspec

Found: TypeAlias = dict[str, Any]
"""One difference: ``{"field": name, "a": ..., "b": ...}`` (a game may add keys)."""

Words: TypeAlias = Callable[[str, Any], "str | None"]
"""A field's value in words, or None if it is too large to tell in a line."""

DIGEST: Final = re.compile(r"[0-9a-f]{64}")
"""A commitment, salt or digest: 64 hex digits."""

MOST_PARTS: Final = 4
"""The most differences inside one field that a line tells; it counts the rest."""


def fields(struct: msgspec.Struct) -> dict[str, Any]:
    """A struct's fields by name, in order."""
    return {name: getattr(struct, name) for name in struct.__struct_fields__}


def words(field: str, value: Any) -> str | None:
    """A value in words, or None if it is too large to tell in a line."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and DIGEST.fullmatch(value):
        return value[:12] + "…"  # a commitment or salt: its start tells them apart
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, str)) for v in value):
        return ", ".join(str(v) for v in value) or "none"
    return None


def field_differences(
    a: msgspec.Struct,
    b: msgspec.Struct,
    special: Mapping[str, Callable[[Any, Any], list[Found]]] | None = None,
) -> tuple[Found, ...]:
    """The differences of two states of one game, field by field: ``{"field": name, "a": ...,
    "b": ...}``, or what ``special`` gives for a field it names."""
    found: list[Found] = []
    left, right = fields(a), fields(b)
    for name, value in left.items():
        if value == right[name]:
            continue
        if special and name in special:
            found.extend(special[name](value, right[name]))
        else:
            found.append(
                {
                    "field": name,
                    "a": msgspec.to_builtins(value),
                    "b": msgspec.to_builtins(right[name]),
                }
            )
    return tuple(found)


def record_differences(
    field: str,
    key: str,
    a: Mapping[str, msgspec.Struct],
    b: Mapping[str, msgspec.Struct],
    first: Sequence[str] = (),
) -> list[Found]:
    """The records of one field (a game's pieces) that differ, one by one, matched by id:
    ``{"field": field, key: id, "differs": [...], "a": {...}, "b": {...}}`` naming the
    record's fields that differ (``first`` in that order, then the rest in the struct's), or
    ``["presence"]`` with None for the side that lacks the record."""
    found: list[Found] = []
    for ident in [*a, *(i for i in b if i not in a)]:
        ra, rb = a.get(ident), b.get(ident)
        if ra == rb:
            continue
        if ra is None or rb is None:
            differs = ["presence"]
        else:
            names = [*first, *(f for f in ra.__struct_fields__ if f not in first)]
            differs = [f for f in names if getattr(ra, f) != getattr(rb, f)]

        def values(record: msgspec.Struct | None, differs: list[str] = differs) -> Any:
            if record is None:
                return None
            return {f: msgspec.to_builtins(getattr(record, f)) for f in differs if f != "presence"}

        found.append(
            {"field": field, key: ident, "differs": differs, "a": values(ra), "b": values(rb)}
        )
    return found


def named(key: str, value: Any, ids: Collection[str], name: Callable[[str], str]) -> Any:
    """``value`` with the ids it holds told by ``name``, when ``key`` is one of ``ids`` (an
    id, or a list of them)."""
    if key in ids and isinstance(value, str):
        return name(value)
    if key in ids and isinstance(value, (list, tuple)):
        return [name(v) if isinstance(v, str) else v for v in value]
    return value


def record_line(name: str, found: Found, told: Words, labels: Mapping[str, str]) -> str:
    """One of :func:`record_differences` in a line: the record's ``name``, then each field
    that differs (by its label) with both values in words, or that it is in one state only."""
    if found["differs"] == ["presence"]:
        return f"{name}: in {'A only' if found['b'] is None else 'B only'}"
    parts = []
    for field in found["differs"]:
        a, b = told(field, found["a"][field]), told(field, found["b"][field])
        label = labels.get(field, field)
        parts.append(
            f"{label} differs" if a is None or b is None else f"{label} {a} in A, {b} in B"
        )
    return f"{name}: " + "; ".join(parts)


def nested_differences(a: dict[str, Any], b: dict[str, Any], told: Words) -> list[str]:
    """The keys of two structs' values that differ, in words where a value is short.

    Nested structs are followed (``action.steps_left``); at most
    :data:`MOST_PARTS` are told, and the rest counted.
    """
    parts: list[str] = []

    def walk(a: dict[str, Any], b: dict[str, Any], prefix: str) -> None:
        for key in dict.fromkeys([*a, *b]):
            left, right = a.get(key), b.get(key)
            if left == right:
                continue
            name = prefix + key
            if isinstance(left, dict) and isinstance(right, dict):
                walk(left, right, name + ".")
                continue
            wa, wb = told(key, left), told(key, right)
            label = name.replace("_", " ")
            both = wa is not None and wb is not None
            parts.append(f"{label} {wa} in A, {wb} in B" if both else f"{label} differs")

    walk(a, b, "")
    if len(parts) > MOST_PARTS:
        rest = len(parts) - MOST_PARTS
        parts = [*parts[:MOST_PARTS], f"and {rest} more"]
    return parts or ["differs"]


def field_line(found: Found, told: Words, *, records: bool, nested: Words | None = None) -> str:
    """One field's difference in a line: both values in words, the keys of nested values
    that differ (told by ``nested``, else ``told``), or (``records``) both values as JSON
    when short."""
    field = found["field"]
    a, b = told(field, found["a"]), told(field, found["b"])
    what = field.replace("_", " ")
    if a is not None and b is not None:
        return f"{what}: {a} in A, {b} in B"
    if isinstance(found["a"], dict) and isinstance(found["b"], dict):
        parts = nested_differences(found["a"], found["b"], nested or told)
        return f"{what}: " + "; ".join(parts)
    if records:
        a, b = (msgspec.json.encode(found[side]).decode() for side in ("a", "b"))
        if len(a) + len(b) <= 120:
            return f"{what}: {a} in A, {b} in B"
    return f"{what}: differs"
