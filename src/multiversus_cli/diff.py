"""``multiversus diff``: where two match logs part ways.

Settings are compared first, then the entries one by one. At the first entry
that differs (or where one log ends) the command tells both entries in words,
as ``multiversus replay`` tells them (as the referee saw them), and how the
referee states after that entry differ: the top-level fields, and for figures,
which figures' squares or conditions. The records themselves, as JSON, are in
``--format json`` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final

import msgspec
import typer
from rich.console import Console
from rich.text import Text

from multiversus_cli import transcript
from multiversus_cli.presenters.multiversus_text import command_line, event_lines, steps
from multiversus_cli.replay import fail, load_log
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.registry import DEFAULT_GAME, AnyRuleset, load_ruleset
from multiversus_core.engine.ruleset import REFEREE
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.narrate import (
    coin_name,
    condition_name,
    figure_name,
    square,
    unit_name,
)
from multiversus_core.rulesets.multiversus.state import MatchState

EXIT_AGREE: Final = 0
"""The logs have the same settings and the same entries."""
EXIT_DIFFER: Final = 1
"""The logs differ."""
EXIT_USAGE: Final = 2
"""A log cannot be read."""

EPILOG: Final = (
    "Exit codes: 0 the logs agree; 1 they differ (settings, an entry, or one ends first); "
    "2 a log cannot be read."
)

_FIGURE_FIELDS: Final = ("square", "condition")


class DiffFormat(StrEnum):
    """How the comparison is printed."""

    text = "text"
    json = "json"


class Difference(msgspec.Struct, frozen=True, gc=False):
    """The comparison of two logs, as ``--format json`` prints it."""

    agree: bool
    entries_a: int
    entries_b: int
    settings_differences: tuple[str, ...]
    """The settings fields that differ."""
    entry: int | None
    """The 1-based first entry that differs, or where one log ends (None if they agree)."""
    round: int | None
    """The round in the state before that entry."""
    turn: int | None
    """The turn in the state before that entry."""
    a: Any
    """A's record at that entry, or None where A has ended."""
    b: Any
    """B's record at that entry, or None where B has ended."""
    state_differences: tuple[dict[str, Any], ...]
    """How the referee states after that entry differ (a log that ended: its last state)."""


def _fields(struct: msgspec.Struct) -> dict[str, Any]:
    return {name: getattr(struct, name) for name in struct.__struct_fields__}


def settings_differences(a: MatchLog, b: MatchLog) -> tuple[str, ...]:
    """Return the names of the settings fields that differ."""
    left, right = _fields(a.settings), _fields(b.settings)
    return tuple(name for name in left if left[name] != right[name])


def state_differences(a: Any, b: Any) -> tuple[dict[str, Any], ...]:
    """Return the differences of two referee states, field by field.

    Each is ``{"field": name, "a": ..., "b": ...}``; figures are compared one
    by one instead: ``{"field": "figures", "figure": id, "differs": [...], "a": ..., "b": ...}``
    naming which of square and condition differ (or ``"presence"``).
    """
    found: list[dict[str, Any]] = []
    left, right = _fields(a), _fields(b)
    for name, value in left.items():
        if value == right[name]:
            continue
        if name == "figures":
            found.extend(_figure_differences(a.figures, b.figures))
        else:
            found.append(
                {
                    "field": name,
                    "a": msgspec.to_builtins(value),
                    "b": msgspec.to_builtins(right[name]),
                }
            )
    return tuple(found)


def _figure_differences(a: tuple[Figure, ...], b: tuple[Figure, ...]) -> list[dict[str, Any]]:
    left = {f.id: f for f in a}
    right = {f.id: f for f in b}
    found: list[dict[str, Any]] = []
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


def compare(a: MatchLog, b: MatchLog) -> Difference:
    """Return where logs ``a`` and ``b`` (of the same game) first differ, and how (or that
    they agree)."""
    if a.game != DEFAULT_GAME:
        return _compare_game(load_ruleset(a.game), a, b)
    settings = settings_differences(a, b)
    steps_a, steps_b = list(steps(a)), list(steps(b))
    for index in range(max(len(steps_a), len(steps_b))):
        sa = steps_a[index] if index < len(steps_a) else None
        sb = steps_b[index] if index < len(steps_b) else None
        if sa is not None and sb is not None and sa.entry == sb.entry:
            continue
        before = (sa or sb).before  # type: ignore[union-attr]
        after_a = sa.after if sa is not None else steps_a[-1].after if steps_a else before
        after_b = sb.after if sb is not None else steps_b[-1].after if steps_b else before
        return Difference(
            agree=False,
            entries_a=len(steps_a),
            entries_b=len(steps_b),
            settings_differences=settings,
            entry=index + 1,
            round=before.round,
            turn=before.turns_in_round,
            a=None if sa is None else msgspec.to_builtins(sa.entry),
            b=None if sb is None else msgspec.to_builtins(sb.entry),
            state_differences=state_differences(after_a, after_b),
        )
    return Difference(
        agree=not settings,
        entries_a=len(steps_a),
        entries_b=len(steps_b),
        settings_differences=settings,
        entry=None,
        round=None,
        turn=None,
        a=None,
        b=None,
        state_differences=(),
    )


def _states(ruleset: AnyRuleset, log: MatchLog) -> list[Any]:
    """A log's states through its game's ruleset: the start, then after each entry."""
    states = [transcript.start(ruleset, log)]
    for entry in log.entries:
        states.append(ruleset.fold(states[-1], entry.events))
    return states


def _compare_game(ruleset: AnyRuleset, a: MatchLog, b: MatchLog) -> Difference:
    """:func:`compare` for a game other than Multiversus: its states through its ruleset."""
    settings = settings_differences(a, b)
    count = max(len(a.entries), len(b.entries))
    index = next(
        (
            i
            for i in range(count)
            if i >= len(a.entries) or i >= len(b.entries) or a.entries[i] != b.entries[i]
        ),
        None,
    )
    if index is None:
        return Difference(
            not settings, len(a.entries), len(b.entries), settings, None, None, None, None, None, ()
        )
    states_a, states_b = _states(ruleset, a), _states(ruleset, b)
    after_a = states_a[min(index + 1, len(states_a) - 1)]
    after_b = states_b[min(index + 1, len(states_b) - 1)]
    return Difference(
        agree=False,
        entries_a=len(a.entries),
        entries_b=len(b.entries),
        settings_differences=settings,
        entry=index + 1,
        round=None,
        turn=None,
        a=None if index >= len(a.entries) else msgspec.to_builtins(a.entries[index]),
        b=None if index >= len(b.entries) else msgspec.to_builtins(b.entries[index]),
        state_differences=state_differences(after_a, after_b),
    )


def _entry_lines(label: str, log: MatchLog, index: int, out: list[Text]) -> None:
    """Tell one log's entry at a 0-based index in words, as replay tells it to the referee."""
    if index >= len(log.entries):
        out.append(Text(f"{label}: ends after entry {len(log.entries)}", style="bold"))
        return
    if log.game != DEFAULT_GAME:
        ruleset = load_ruleset(log.game)
        *_, told, _state = transcript.told(ruleset, log, REFEREE, index + 1)
        out.append(Text(f"{label}: {told.number}. {told.command}", style="bold"))
        out.extend(Text(f"     {line}") for line in told.events)
        return
    step = list(steps(log))[index]
    before = step.before
    where = f"round {before.round}, turn {before.turns_in_round}"
    command = command_line(before, step.entry.command, "referee")
    out.append(Text(f"{label}: {step.number}. [{where}] {command}", style="bold"))
    for line in event_lines(before, step.entry.events, "referee"):
        out.append(Text(f"     {line}"))


_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
"""A commitment, salt or digest: 64 hex digits."""


def _words(field: str, value: Any) -> str | None:
    """A state or settings value in words, or None if it is too large to tell in a line."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field == "square" and isinstance(value, (list, tuple)) and len(value) == 2:
        return square((int(value[0]), int(value[1])))
    if field == "condition" and value in ("unharmed", "wounded", "disabled", "eliminated"):
        return condition_name(value)
    if field == "pending" and isinstance(value, str):
        return value.replace("_", " ")  # "after_attack" is the step after an attack
    if isinstance(value, str) and _DIGEST.fullmatch(value):
        return value[:12] + "…"  # a commitment or salt: its start tells them apart
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, str)) for v in value):
        return ", ".join(str(v) for v in value) or "none"
    return None


_MOST_PARTS: Final = 4
"""The most differences inside one field that a line tells; it counts the rest."""


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
}
"""Keys whose values are figure, unit or coin ids, and how to name them."""


def _named(state: MatchState | None, key: str, value: Any) -> Any:
    """A value with its figure, unit or coin ids replaced by their names."""
    namer = _NAMERS.get(key)
    if state is None or namer is None:
        return value
    if isinstance(value, str):
        return namer(state, value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [namer(state, v) for v in value]
    return value


def _nested_differences(
    a: dict[str, Any], b: dict[str, Any], state: MatchState | None
) -> list[str]:
    """The keys of two structs' values that differ, in words where a value is short.

    Nested structs are followed (``action.steps_left``); figures, units and
    coins are named from ``state``; at most four are told, and the rest counted.
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
            wa = _words(key, _named(state, key, left))
            wb = _words(key, _named(state, key, right))
            label = name.replace("_", " ")
            both = wa is not None and wb is not None
            parts.append(f"{label} {wa} in A, {wb} in B" if both else f"{label} differs")

    walk(a, b, "")
    if len(parts) > _MOST_PARTS:
        rest = len(parts) - _MOST_PARTS
        parts = [*parts[:_MOST_PARTS], f"and {rest} more"]
    return parts or ["differs"]


def _difference_line(found: dict[str, Any], state: MatchState | None) -> str:
    field = found["field"]
    if field != "figures":
        a, b = _words(field, found["a"]), _words(field, found["b"])
        what = field.replace("_", " ")
        if a is not None and b is not None:
            return f"{what}: {a} in A, {b} in B"
        if isinstance(found["a"], dict) and isinstance(found["b"], dict):
            return f"{what}: " + "; ".join(_nested_differences(found["a"], found["b"], state))
        if state is None:  # another game: its values as they are, if short
            a, b = (msgspec.json.encode(found[side]).decode() for side in ("a", "b"))
            if len(a) + len(b) <= 120:
                return f"{what}: {a} in A, {b} in B"
        return f"{what}: differs"
    name = found["figure"]
    if state is not None:
        name = figure_name(state, name)
    if found["differs"] == ["presence"]:
        where = "A only" if found["b"] is None else "B only"
        return f"{name}: in {where}"
    parts = []
    for f in found["differs"]:
        a, b = _words(f, found["a"][f]), _words(f, found["b"][f])
        parts.append(f"{f} differs" if a is None or b is None else f"{f} {a} in A, {b} in B")
    return f"{name}: " + "; ".join(parts)


def diff(
    log_a: Annotated[
        Path, typer.Argument(metavar="A", help="A match log (*.jsonl).", show_default=False)
    ],
    log_b: Annotated[
        Path, typer.Argument(metavar="B", help="Another match log.", show_default=False)
    ],
    output: Annotated[
        DiffFormat,
        typer.Option(
            "--format",
            help="text for people; json for tools (one object: agree, entry, round, turn, "
            "a, b, state_differences, ...).",
            case_sensitive=False,
        ),
    ] = DiffFormat.text,
) -> None:
    """Compare two match logs: the settings, then entry by entry, up to the first difference.

    Examples:

    multiversus diff mine.jsonl theirs.jsonl

    multiversus diff mine.jsonl theirs.jsonl --format json
    """
    a = load_log("diff", log_a)
    b = load_log("diff", log_b)
    if a.game != b.game:
        games = f"A is a match of {a.game} and B of {b.game}"
        raise fail("diff", f"{games}: there is nothing to compare")
    found = compare(a, b)
    out = Console(highlight=False, soft_wrap=True)
    if output is DiffFormat.json:
        out.print(msgspec.json.encode(found).decode(), markup=False)
        raise typer.Exit(EXIT_AGREE if found.agree else EXIT_DIFFER)
    if found.agree:
        out.print(f"The logs agree: {found.entries_a} entries.", markup=False)
        raise typer.Exit(EXIT_AGREE)
    lines: list[Text] = []
    if found.settings_differences:
        fields = ", ".join(found.settings_differences)
        lines.append(Text(f"The settings differ: {fields}.", style="bold red"))
        for name in found.settings_differences:
            left = _words(name, msgspec.to_builtins(getattr(a.settings, name)))
            right = _words(name, msgspec.to_builtins(getattr(b.settings, name)))
            if left is None or right is None:
                lines.append(Text(f"  {name}: differs"))
            else:
                lines.append(Text(f"  {name}: {left} in A, {right} in B"))
    if found.entry is None:
        lines.append(Text(f"The entries agree: {found.entries_a} entries."))
    else:
        index = found.entry - 1
        if found.a is None or found.b is None:
            ended = "A" if found.a is None else "B"
            shorter = found.entries_a if found.a is None else found.entries_b
            lines.append(
                Text(
                    f"{ended} ends after entry {shorter}; the other goes on "
                    f"(A has {found.entries_a} entries, B {found.entries_b}).",
                    style="bold red",
                )
            )
        else:
            where = "" if found.round is None else f" (round {found.round}, turn {found.turn})"
            lines.append(Text(f"The logs differ at entry {found.entry}{where}.", style="bold red"))
        lines.append(Text("The entries there, as the referee saw them:"))
        told_a: list[Text] = []
        told_b: list[Text] = []
        _entry_lines("A", a, index, told_a)
        _entry_lines("B", b, index, told_b)
        lines += told_a + told_b
        if [t.plain[1:] for t in told_a] == [t.plain[1:] for t in told_b]:
            lines.append(
                Text(
                    "They read the same: they differ in what words do not tell (a salt, a "
                    "commitment); --format json gives the records."
                )
            )
        state = None
        for log in (a, b):
            if index < len(log.entries) and log.game == DEFAULT_GAME:
                state = list(steps(log))[index].after
        if found.state_differences:
            lines.append(Text("The states after it differ:", style="bold"))
            for item in found.state_differences:
                lines.append(Text(f"  {_difference_line(item, state)}"))
        else:
            lines.append(Text("The states after it are the same."))
    for line in lines:
        out.print(Text(printable(line.plain), style=line.style))
    raise typer.Exit(EXIT_DIFFER)


__all__ = [
    "EPILOG",
    "EXIT_AGREE",
    "EXIT_DIFFER",
    "EXIT_USAGE",
    "DiffFormat",
    "Difference",
    "compare",
    "diff",
    "settings_differences",
    "state_differences",
]
