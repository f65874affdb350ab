"""``multiversus diff``: where two match logs part ways.

Settings are compared first, then the entries one by one. At the first entry
that differs (or where one log ends) the command tells both entries in words,
as ``multiversus replay`` tells them (as the referee saw them), and how the
referee states after that entry differ, as the game's presenter tells it
(:mod:`multiversus_cli.presenters`; for Multiversus the top-level fields,
and for figures, which figures' squares or conditions). The records
themselves, as JSON, are in ``--format json`` only.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final

import msgspec
import typer
from rich.console import Console
from rich.text import Text

from multiversus_cli.differences import fields, words
from multiversus_cli.jsontext import ascii_json
from multiversus_cli.presenters import Folded, presenter_for
from multiversus_cli.replay import fail, load_log
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.registry import ruleset_of
from multiversus_core.engine.ruleset import REFEREE
from multiversus_core.engine.text import printable

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
    """The 1-based first entry where play differs (a command or an event, salts and
    commitments aside), or where one log ends; None if play agrees."""
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
    salts_from: int | None = None
    """The 1-based first entry whose salts or commitments differ, where that comes before
    :attr:`entry` (or play agrees): each match draws its own unless they were seeded."""


SECRET_KEYS: Final = frozenset({"salt", "commitment"})
"""The keys of a log entry's records that hold a salt or a commitment: drawn for each match,
no part of its play."""


def _played(record: Any) -> Any:
    """A record's builtins without its salts and commitments: what was played."""
    if isinstance(record, dict):
        return {k: _played(v) for k, v in record.items() if k not in SECRET_KEYS}
    if isinstance(record, list | tuple):
        return [_played(v) for v in record]
    return record


def settings_differences(a: MatchLog, b: MatchLog) -> tuple[str, ...]:
    """Return the names of the settings fields that differ."""
    left, right = fields(a.settings), fields(b.settings)
    return tuple(name for name in left if left[name] != right[name])


def state_differences(a: Any, b: Any) -> tuple[dict[str, Any], ...]:
    """Return how two referee states of one game differ, as its presenter says
    (:meth:`~multiversus_cli.presenters.Presenter.differences`)."""
    return presenter_for(ruleset_of(a.settings).id).differences(a, b)


def compare(a: MatchLog, b: MatchLog) -> Difference:
    """Return where logs ``a`` and ``b`` (of the same game) first differ, and how (or that
    they agree)."""
    settings = settings_differences(a, b)
    count = max(len(a.entries), len(b.entries))
    first = next(
        (
            i
            for i in range(count)
            if i >= len(a.entries) or i >= len(b.entries) or a.entries[i] != b.entries[i]
        ),
        None,
    )
    index = (
        None
        if first is None
        else next(
            (
                i
                for i in range(first, count)
                if i >= len(a.entries)
                or i >= len(b.entries)
                or _played(msgspec.to_builtins(a.entries[i]))
                != _played(msgspec.to_builtins(b.entries[i]))
            ),
            None,
        )
    )
    salts_from = None if first is None or first == index else first + 1
    if index is None:
        agree = not settings and first is None
        return Difference(
            agree, len(a.entries), len(b.entries), settings, None, None, None, None, None, (),
            salts_from,
        )  # fmt: skip
    presenter = presenter_for(a.game)
    folded_a, folded_b = Folded.of(a), Folded.of(b)
    progress = presenter.progress(folded_a if index < len(a.entries) else folded_b, index)
    after_a = folded_a.states[min(index + 1, folded_a.count)]
    after_b = folded_b.states[min(index + 1, folded_b.count)]
    return Difference(
        agree=False,
        entries_a=len(a.entries),
        entries_b=len(b.entries),
        settings_differences=settings,
        entry=index + 1,
        round=None if progress is None else progress[0],
        turn=None if progress is None else progress[1],
        a=None if index >= len(a.entries) else msgspec.to_builtins(a.entries[index]),
        b=None if index >= len(b.entries) else msgspec.to_builtins(b.entries[index]),
        state_differences=presenter.differences(after_a, after_b),
        salts_from=salts_from,
    )


def _entry_lines(label: str, folded: Folded, index: int, out: list[Text]) -> None:
    """Tell one log's entry at a 0-based index in words, as replay tells it to the referee."""
    if index >= folded.count:
        out.append(Text(f"{label}: ends after entry {folded.count}", style="bold"))
        return
    head, lines = presenter_for(folded.log.game).entry(folded, index + 1, REFEREE)
    out.append(Text(f"{label}: {head}", style="bold"))
    out.extend(Text(f"     {line}") for line in lines)


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
        out.print(ascii_json(msgspec.json.encode(found)), markup=False)
        raise typer.Exit(EXIT_AGREE if found.agree else EXIT_DIFFER)
    if found.agree:
        out.print(f"The logs agree: {found.entries_a} entries.", markup=False)
        raise typer.Exit(EXIT_AGREE)
    lines: list[Text] = []
    if found.settings_differences:
        fields = ", ".join(found.settings_differences)
        lines.append(Text(f"The settings differ: {fields}.", style="bold red"))
        for name in found.settings_differences:
            left = words(name, msgspec.to_builtins(getattr(a.settings, name)))
            right = words(name, msgspec.to_builtins(getattr(b.settings, name)))
            if left is None or right is None:
                lines.append(Text(f"  {name}: differs"))
            else:
                lines.append(Text(f"  {name}: {left} in A, {right} in B"))
    if found.entry is None and found.salts_from is not None:
        lines.append(
            Text(
                f"The play agrees over {found.entries_a} entries; only salts and commitments "
                f"differ, from entry {found.salts_from} (each match draws its own).",
                style="bold",
            )
        )
    elif found.entry is None:
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
            lines.append(Text(f"The play differs at entry {found.entry}{where}.", style="bold red"))
        if found.salts_from is not None:
            lines.append(
                Text(
                    f"Before it, from entry {found.salts_from}, only salts and commitments "
                    "differ (each match draws its own)."
                )
            )
        lines.append(Text("The entries there, as the referee saw them:"))
        told_a: list[Text] = []
        told_b: list[Text] = []
        folded_a, folded_b = Folded.of(a), Folded.of(b)
        _entry_lines("A", folded_a, index, told_a)
        _entry_lines("B", folded_b, index, told_b)
        lines += told_a + told_b
        if [t.plain[1:] for t in told_a] == [t.plain[1:] for t in told_b]:
            lines.append(
                Text(
                    "They read the same: they differ in what words do not tell; "
                    "--format json gives the records."
                )
            )
        # Names come from the states after the entry: B's first, then A's (or its last).
        state_b = folded_b.states[min(index + 1, folded_b.count)]
        state_a = folded_a.states[min(index + 1, folded_a.count)]
        presenter = presenter_for(a.game)
        if found.state_differences:
            lines.append(Text("The states after it differ:", style="bold"))
            for item in found.state_differences:
                lines.append(Text(f"  {presenter.difference(item, state_b, state_a)}"))
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
