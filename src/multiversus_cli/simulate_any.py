"""``multiversus simulate --game ID``: any game's grid from the options, and its summary.

The grid is :class:`~multiversus_core.engine.simulation.GameGrid`: one of the
game's bots at each seat (``--players``), every rotation of them over the
seats unless ``--fixed-seats``. Nothing here names a game: the seats and the
bots are the ruleset's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from multiversus_cli.simulating import (
    EndTable,
    Fitted,
    SimulateRequest,
    UsageError,
    check_run,
    end_table,
    end_table_view,
    rate_text,
)
from multiversus_core.engine.bots import UnknownBotError, bot_maker
from multiversus_core.engine.registry import AnyRuleset
from multiversus_core.engine.simulation import (
    GAME_CODEC,
    GameGrid,
    GameRecord,
    GameSummary,
    GameTask,
    WinRate,
    summarize_game,
)

DEFAULT_BOT: Final = "random"
"""The bot at every seat unless --players says otherwise."""

REASONS_SHOWN: Final = 3
"""End reasons a cell shows in the table (the JSON summary and the report have them all)."""


MULTIVERSUS_OPTIONS: Final = ("heroes", "adversaries", "variants", "heroes_bot", "adversaries_bot")
"""The parameters of the options that make Multiversus' grid, which another game refuses."""


def plan_for(ruleset: AnyRuleset, request: SimulateRequest) -> GamePlan:
    """The game's plan for the request.

    :raises UsageError: for a Multiversus option given, the wrong number of bots, a bot the
        game does not have, or a count or seed out of range.
    """
    request.refuse(MULTIVERSUS_OPTIONS, f"is for multiversus only; {ruleset.id} takes --players")
    grid = make_game_grid(
        ruleset, request.players, request.fixed_seats, request.matches, request.seed
    )
    return GamePlan(ruleset, grid)


class GamePlan:
    """Any game's grid, as ``simulate`` runs it."""

    codec: Final = GAME_CODEC

    def __init__(self, ruleset: AnyRuleset, grid: GameGrid) -> None:
        self.ruleset = ruleset
        self.grid = grid

    def tasks(self, *, keep_logs: bool = False) -> Sequence[GameTask]:
        return self.grid.tasks(keep_logs=keep_logs)

    def summarize(self, records: Iterable[GameRecord]) -> GameSummary:
        return summarize_game(self.grid, records)

    def table(self, summary: GameSummary, records: Sequence[GameRecord]) -> RenderableType:
        return game_tables(self.ruleset.title, summary, records)

    def report(
        self,
        summary: GameSummary,
        records: Sequence[GameRecord],
        logs: Mapping[object, str] | None = None,
    ) -> str:
        from multiversus_cli.simulate_report import render_game_report

        return render_game_report(self.ruleset.title, summary, records, logs or {})

    def log_name(self, record: GameRecord) -> str:
        return game_log_name(record)


def make_game_grid(
    ruleset: AnyRuleset, players: str | None, fixed_seats: bool, matches: int, seed: int
) -> GameGrid:
    """The grid of ``ruleset``'s game the options name.

    :raises UsageError: for the wrong number of bots, a bot the game does
        not have, or a count or seed out of range.
    """
    check_run(matches, seed)
    seats = len(ruleset.table(ruleset.settings_type()).players)
    if players is None:
        bots = [DEFAULT_BOT] * seats
    else:
        bots = [spec.strip().lower() for spec in players.split(",")]
    if len(bots) != seats:
        raise UsageError(
            f"{ruleset.title} has {seats} seats: --players takes {seats} bots, one a seat, "
            f"such as {','.join([DEFAULT_BOT] * seats)}"
        )
    for bot in bots:
        try:
            bot_maker(ruleset.bots, bot)
        except UnknownBotError:
            raise UsageError(
                f"--players: no bot {bot!r} in {ruleset.title}: {', '.join(ruleset.bots)}"
            ) from None
        except ValueError as exc:
            raise UsageError(f"--players: {exc}") from None
    return GameGrid(
        game=ruleset.id, bots=tuple(bots), matches=matches, seed=seed, rotate=not fixed_seats
    )


def game_log_name(record: GameRecord) -> str:
    """The file name of a match's log: its bots by seat and its index."""
    return f"{'-'.join(record.bots)}-{record.index:05d}.jsonl"


def game_tables(
    title: str, summary: GameSummary, records: Sequence[GameRecord] = ()
) -> RenderableType:
    """One table of the cells (each seat's wins in each), one of each seat and each bot, and
    one of who won by which end; each a list where the window is too narrow for it."""
    ends = end_table_view(game_ends(summary, records), "Who won by which end (every match)")
    return Group(Fitted(cells_table(title, summary)), "", Fitted(totals_table(summary)), "", ends)


def winner_label(record: GameRecord) -> str:
    """Who won a match, for the end table: "seat 2", "seats 1+3", "draw" or "error"."""
    if record.winners is None:
        return "error"
    if not record.winners:
        return "draw"
    seats = "+".join(str(seat) for seat in record.winners)
    return f"seat{'s' if len(record.winners) > 1 else ''} {seats}"


def game_ends(summary: GameSummary, records: Iterable[GameRecord]) -> EndTable:
    """Who won by which end reason: a column per seat, then draws (and errors, if any)."""
    seats = [f"seat {seat}" for seat in range(1, len(summary.grid.bots) + 1)]
    return end_table(((r.reason, winner_label(r)) for r in records), [*seats, "draw"])


def cells_table(title: str, summary: GameSummary) -> Table:
    """One row per cell: matches, draws, each seat's bot and win rate, length, end reasons."""
    grid = summary.grid
    table = _table(
        f"{summary.played} of {summary.total} matches of {title}, seed {grid.seed}",
        "Each seat: its bot, its wins, and its share of the matches played to their end "
        "(draws count as no win), with its 95% Wilson interval; ! marks an interval that "
        "excludes the fair share. Commands: the mean commands a match.",
    )
    table.add_column("seating", no_wrap=True)
    table.add_column("matches", justify="right", no_wrap=True)
    table.add_column("draw", justify="right", no_wrap=True)
    if summary.errors:
        table.add_column("error", justify="right", style="red", no_wrap=True)
    for seat in range(1, len(grid.bots) + 1):
        table.add_column(f"seat {seat}", justify="right", no_wrap=True)
    table.add_column("commands", justify="right", no_wrap=True)
    table.add_column("end reasons", min_width=16)
    for cell in summary.cells:
        row: list[str | Text] = [cell.cell.label, str(cell.matches), str(cell.draws)]
        if summary.errors:
            row.append(str(cell.errors))
        for bot, rate in zip(cell.bots, cell.seats, strict=True):
            row.append(_rate(f"{bot} {rate.wins}\n", rate))
        reasons = [f"{reason} ({count})" for reason, count in cell.reasons.items()]
        if len(reasons) > REASONS_SHOWN:
            reasons[REASONS_SHOWN:] = [f"and {len(reasons) - REASONS_SHOWN} other reasons"]
        row += [
            f"{cell.mean_commands:.2f}" if cell.mean_commands is not None else "-",
            "\n".join(reasons),
        ]
        table.add_row(*row)
    return table


def totals_table(summary: GameSummary) -> Table:
    """Each seat over every cell (whatever bot sat there), then each bot (wherever it sat)."""
    fair = "-" if summary.fair is None else f"{summary.fair:.0%}"
    table = _table(
        "Over every cell",
        f"The fair share is {fair}: each seat's share of the wins were every seat alike. A "
        "seat or bot whose interval excludes it wins more (or less) often than chance explains.",
    )
    table.add_column("", no_wrap=True)
    table.add_column("matches", justify="right", no_wrap=True)
    table.add_column("wins", justify="right", no_wrap=True)
    table.add_column("win rate\n(95% CI)", justify="right", no_wrap=True)
    table.add_column("balance", no_wrap=True)
    rows = [(f"seat {seat}", rate) for seat, rate in enumerate(summary.seats, start=1)]
    rows += [(bot, rate) for bot, rate in summary.bots.items()]
    for name, rate in rows:
        table.add_row(
            name,
            str(rate.matches),
            str(rate.wins),
            rate_text(rate.rate, rate.interval),
            _balance(rate, summary.fair),
        )
    return table


def _table(title: str, caption: str) -> Table:
    return Table(title=title, title_justify="left", caption=caption, caption_justify="left")


def _rate(prefix: str, rate: WinRate) -> Text:
    text = Text(prefix + rate_text(rate.rate, rate.interval))
    if rate.unbalanced:
        text.append("!")
        text.stylize("bold red")
    return text


def _balance(rate: WinRate, fair: float | None) -> Text:
    if not rate.unbalanced or rate.rate is None or fair is None:
        return Text("ok", style="green")
    return Text("above fair" if rate.rate > fair else "below fair", style="bold red")


__all__ = [
    "DEFAULT_BOT",
    "GamePlan",
    "cells_table",
    "game_ends",
    "game_log_name",
    "game_tables",
    "make_game_grid",
    "plan_for",
    "totals_table",
    "winner_label",
]
