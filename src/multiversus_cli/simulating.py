"""What every game's ``multiversus simulate`` shares: the plan a grid comes with, the request
the command reads from its options, and the checks and words every grid uses.

A game's presenter (:mod:`multiversus_cli.presenters`) turns a
:class:`SimulateRequest` into a :class:`Plan`: its tasks, its ``--out``
file's codec, its summary and the views of it; the command
(:mod:`multiversus_cli.simulate`) runs any plan the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from multiversus_core.engine.simulation import Codec, Interval
from multiversus_core.engine.simulation import Task as MatchTask


class UsageError(Exception):
    """A bad option or --out file; the message is one line for the user."""


class Plan(Protocol):
    """What the command needs of a grid: its tasks, its file, its summary and views of it."""

    @property
    def grid(self) -> Any:
        """The grid (a frozen struct with ``game``, ``matches`` and ``seed``), as the --out
        file's header records it."""
        ...

    @property
    def codec(self) -> Codec[Any, Any]:
        """Reads and writes the lines of the grid's --out file."""
        ...

    def tasks(self, *, keep_logs: bool = False) -> Sequence[MatchTask]:
        """Every match of the grid."""
        ...

    def summarize(self, records: Iterable[Any]) -> Any:
        """The summary of the records (a struct with ``played`` and ``total``)."""
        ...

    def table(self, summary: Any, records: Sequence[Any]) -> RenderableType:
        """The summary, and how the ``records`` ended, for people."""
        ...

    def report(
        self, summary: Any, records: Sequence[Any], logs: Mapping[Any, str] | None = None
    ) -> str:
        """The summary and the records as one HTML page; ``logs`` links a match's key to its
        log (a relative address), for the matches whose log was written."""
        ...

    def log_name(self, record: Any) -> str:
        """The file name of a match's log."""
        ...


@dataclass(frozen=True)
class SimulateRequest:
    """The grid ``multiversus simulate`` was asked for, handed to the game's presenter."""

    matches: int
    seed: int
    players: str | None = None
    """Another game: the bot at each seat, by seat, comma-separated (``--players``)."""
    fixed_seats: bool = False
    game_options: Mapping[str, Any] = field(default_factory=dict)
    """Multiversus' options (``heroes``, ``adversaries``, ``variants``, ``heroes_bot``,
    ``adversaries_bot``), by parameter name."""
    given: frozenset[str] = frozenset()
    """The parameters given on the command line or in the environment, not defaulted: a
    game refuses another game's options only when they are given."""

    def refuse(self, names: Iterable[str], why: str) -> None:
        """Refuse the first of these parameters that was given, naming its option and ``why``.

        :raises UsageError: for it.
        """
        wrong = next((name for name in names if name in self.given), None)
        if wrong is not None:
            raise UsageError(f"--{wrong.replace('_', '-')} {why}")


def check_run(matches: int, seed: int) -> None:
    """Check the matches per cell and the master seed of any grid.

    :raises UsageError: if either is out of range.
    """
    if matches < 1:
        raise UsageError(f"--matches must be at least 1, not {matches}")
    if not 0 <= seed < 2**64:
        raise UsageError(f"--seed must be from 0 to 2**64 - 1, not {seed}")


def names(values: Sequence[str] | None) -> list[str]:
    return [n.strip() for value in values or () for n in value.split(",") if n.strip()]


def rate_text(rate: float | None, interval: Interval | None) -> str:
    """``"42% (31-54%)"``: a win rate and its interval, or ``"-"`` with no decided match."""
    if rate is None or interval is None:
        return "-"
    return f"{rate:.0%} ({interval.low * 100:.0f}-{interval.high:.0%})"


# --- the summary in the terminal: tables that fit --------------------------------------------


class Fitted:
    """A table where it fits the width at hand without cutting a word, or else each of its rows
    as a short list (its first cell, then each column's header and value): never a word cut,
    never an ellipsis."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if needed_width(self.table, console, options) <= options.max_width:
            yield self.table
        else:
            yield from listed(self.table)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table)


def needed_width(table: Table, console: Console, options: ConsoleOptions) -> int:
    """The width ``table`` needs so that no word of it is cut: each column as wide as its
    longest word, or its longest line if it does not wrap, with the padding and the rules."""
    _, right, _, left = table.padding
    widths = []
    for column in table.columns:
        sizes = [Measurement.get(console, options, cell) for cell in (column.header, *column.cells)]
        widths.append(
            max(
                column.min_width or 0,
                *(m.maximum if column.no_wrap else m.minimum for m in sizes),
            )
            + left
            + right
        )
    rules = 0
    if table.box is not None and table.columns:
        rules = len(table.columns) - 1 + (2 if table.show_edge else 0)
    return sum(widths) + rules


def listed(table: Table) -> Iterator[RenderableType]:
    """``table`` as a list: its title, each row (its first cell, then ``header: value`` for each
    other column, a value's lines joined with "; ", in a paragraph), and its caption; the words
    wrap, whole."""
    if table.title:
        yield _flat(table.title)
    heads = [_flat(column.header) for column in table.columns]
    for row in zip(*(column.cells for column in table.columns), strict=True):
        pairs = [
            Text.assemble(head, ": ", _flat(cell, "; "))
            for head, cell in zip(heads[1:], row[1:], strict=True)
            if _flat(cell).plain.strip()
        ]
        yield Text.assemble("• ", _flat(row[0]), style="bold")
        yield Padding(Text(" · ").join(pairs), (0, 0, 0, 2))
    if table.caption:
        yield _flat(table.caption)


def _flat(cell: Any, joiner: str = " ") -> Text:
    """A cell's text on one line: its lines joined with ``joiner``."""
    text = cell if isinstance(cell, Text) else Text(str(cell))
    return Text(joiner).join(text.split("\n"))


# --- who won by which end ---------------------------------------------------------------------


class EndTable(NamedTuple):
    """How each match ended: a row per end reason, a count per winner in it."""

    winners: tuple[str, ...]
    """The columns: who won ("draw" for none, "error" for a match that raised)."""
    rows: tuple[tuple[str, tuple[int, ...]], ...]
    """Each end reason, most frequent first, with its count under each winner."""

    @property
    def total(self) -> int:
        """Every match counted: one per match, whatever its end."""
        return sum(sum(counts) for _, counts in self.rows)


def end_table(ends: Iterable[tuple[str, str]], order: Sequence[str]) -> EndTable:
    """The end table of ``(reason, winner)`` pairs, one a match: the winners ``order`` names
    first (each a column, even if empty), then any other in the order met."""
    pairs = Counter(ends)
    winners = list(order)
    winners += [w for w in dict.fromkeys(w for _, w in pairs) if w not in winners]
    reasons = Counter[str]()
    for (reason, _), count in pairs.items():
        reasons[reason] += count
    rows = tuple(
        (reason, tuple(pairs[(reason, winner)] for winner in winners))
        for reason, _ in reasons.most_common()
    )
    return EndTable(tuple(winners), rows)


def end_table_view(ends: EndTable, title: str) -> Fitted:
    """The end table for people: a row per end reason, a column per winner, and the total."""
    table = Table(title=title, title_justify="left")
    table.add_column("end reason")
    for winner in ends.winners:
        table.add_column(winner, justify="right", no_wrap=True)
    table.add_column("total", justify="right", no_wrap=True)
    for reason, counts in ends.rows:
        table.add_row(reason, *(str(n) for n in counts), str(sum(counts)))
    return Fitted(table)


__all__ = [
    "EndTable",
    "Fitted",
    "Plan",
    "SimulateRequest",
    "UsageError",
    "check_run",
    "end_table",
    "end_table_view",
    "listed",
    "names",
    "needed_width",
    "rate_text",
]
