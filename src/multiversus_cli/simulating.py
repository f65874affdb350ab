"""What every game's ``multiversus simulate`` shares: the plan a grid comes with, the request
the command reads from its options, and the checks and words every grid uses.

A game's presenter (:mod:`multiversus_cli.presenters`) turns a
:class:`SimulateRequest` into a :class:`Plan`: its tasks, its ``--out``
file's codec, its summary and the views of it; the command
(:mod:`multiversus_cli.simulate`) runs any plan the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.console import RenderableType

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

    def table(self, summary: Any) -> RenderableType:
        """The summary for people."""
        ...

    def report(self, summary: Any, records: Sequence[Any]) -> str:
        """The summary and the records as one HTML page."""
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


__all__ = [
    "Plan",
    "SimulateRequest",
    "UsageError",
    "check_run",
    "names",
    "rate_text",
]
