"""Multiversus' grid for ``multiversus simulate``: each Hero team against each Adversary team
under each variant set (:mod:`multiversus_core.rulesets.multiversus.simulation`), its table
and its logs' names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from multiversus_cli.simulating import (
    SimulateRequest,
    UsageError,
    check_run,
    names,
    rate_text,
)
from multiversus_core.engine.errors import MultiversusError
from multiversus_core.engine.simulation import Task as MatchTask
from multiversus_core.rulesets.multiversus.bots.specs import make_bot
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.simulation import (
    CODEC,
    Grid,
    MatchRecord,
    Summary,
    summarize,
    variants_label,
)
from multiversus_core.rulesets.multiversus.variants import VARIANTS

DEFAULT_BOT: Final = "heuristic"
"""The bot each side gets unless --heroes-bot or --adversaries-bot says otherwise."""

GAME_OPTIONS: Final = ("players", "fixed_seats")
"""The parameters of the options that make another game's grid."""


def plan_for(request: SimulateRequest) -> MultiversusPlan:
    """Multiversus' plan for the request.

    :raises UsageError: for another game's option given, an unknown team, variant or bot, a
        team of the wrong side, or a count or seed out of range.
    """
    request.refuse(
        GAME_OPTIONS, "is for other games; multiversus takes --heroes-bot and --adversaries-bot"
    )
    options = request.game_options
    return MultiversusPlan(
        make_grid(
            options.get("heroes"),
            options.get("adversaries"),
            options.get("variants"),
            options.get("heroes_bot") or DEFAULT_BOT,
            options.get("adversaries_bot") or DEFAULT_BOT,
            request.matches,
            request.seed,
        )
    )


class MultiversusPlan:
    """Multiversus' grid: each Hero team against each Adversary team under each variant set."""

    codec: Final = CODEC

    def __init__(self, grid: Grid) -> None:
        self.grid = grid

    def tasks(self, *, keep_logs: bool = False) -> Sequence[MatchTask]:
        return self.grid.tasks(keep_logs=keep_logs)

    def summarize(self, records: Iterable[MatchRecord]) -> Summary:
        return summarize(self.grid, records)

    def table(self, summary: Summary) -> RenderableType:
        return summary_table(summary)

    def report(self, summary: Summary, records: Sequence[MatchRecord]) -> str:
        from multiversus_cli.presenters.multiversus_report import render_report  # when asked

        return render_report(summary, records)

    def log_name(self, record: MatchRecord) -> str:
        return log_name(record)


def make_grid(
    heroes: Sequence[str] | None,
    adversaries: Sequence[str] | None,
    variants: Sequence[str] | None,
    heroes_bot: str,
    adversaries_bot: str,
    matches: int,
    seed: int,
) -> Grid:
    """The grid the options name.

    :raises UsageError: for an unknown team, variant or bot, a team of the
        wrong side, or a count or seed out of range.
    """
    check_run(matches, seed)
    for spec in (heroes_bot, adversaries_bot):
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return Grid(
        heroes=_teams(heroes, "heroes"),
        adversaries=_teams(adversaries, "adversaries"),
        variants=_variant_sets(variants),
        heroes_bot=heroes_bot,
        adversaries_bot=adversaries_bot,
        matches=matches,
        seed=seed,
    )


def _teams(values: Sequence[str] | None, side: str) -> tuple[str, ...]:
    try:
        teams = {t.id: t for t in installed_teams()}
    except MultiversusError as exc:
        raise UsageError(str(exc)) from None
    given = names(values)
    if not given:
        return tuple(t for t, sheet in teams.items() if sheet.side == side)
    for name in given:
        if name not in teams:
            known = ", ".join(t for t, sheet in teams.items() if sheet.side == side)
            raise UsageError(f"no team {name!r} is installed (the {side}: {known})")
        if teams[name].side != side:
            raise UsageError(f"{name} plays the {teams[name].side}, not the {side}")
    return tuple(dict.fromkeys(given))


def _variant_sets(values: Sequence[str] | None) -> tuple[tuple[str, ...], ...]:
    sets: list[tuple[str, ...]] = []
    for value in values or ["standard"]:
        word = value.strip()
        if word == "standard":
            sets.append(())
        elif word == "all":
            sets.extend([(), *((name,) for name in sorted(VARIANTS))])
        else:
            chosen = names([word])
            for name in chosen:
                if name not in VARIANTS:
                    known = ", ".join(sorted(VARIANTS))
                    raise UsageError(f"no variant {name!r} (known: standard, all, {known})")
            sets.append(tuple(sorted(set(chosen))))
    return tuple(dict.fromkeys(sets))


def log_name(record: MatchRecord) -> str:
    """The file name of a match's log: its cell and its index."""
    variants = variants_label(record.variants)
    return f"{record.heroes}-v-{record.adversaries}-{variants}-{record.index:05d}.jsonl"


def summary_table(summary: Summary) -> Table:
    """One row per cell: matches, wins, draws, the Heroes' win rate and its interval."""
    grid = summary.grid
    title = (
        f"{summary.played} of {summary.total} matches, {grid.heroes_bot} (Heroes) v "
        f"{grid.adversaries_bot} (Adversaries), seed {grid.seed}"
    )
    table = Table(
        title=title,
        title_justify="left",
        caption="H, A: the Heroes' and the Adversaries' wins. H win rate: the Heroes' share of "
        "decided matches (draws left out), with its 95% Wilson interval. Unbalanced: the "
        "interval excludes 50%; H or A is the side favoured. Rounds: the mean round the "
        "matches ended in.",
        caption_justify="left",
    )
    table.add_column("heroes v\nadversaries", no_wrap=True)
    with_variants = grid.variants != ((),)
    if with_variants:
        table.add_column("variants", no_wrap=True)
    table.add_column("matches", justify="right", no_wrap=True)
    table.add_column("H", justify="right", no_wrap=True)
    table.add_column("A", justify="right", no_wrap=True)
    table.add_column("draw", justify="right", no_wrap=True)
    if summary.errors:
        table.add_column("error", justify="right", style="red", no_wrap=True)
    table.add_column("H win rate\n(95% CI)", justify="right", no_wrap=True)
    table.add_column("rounds", justify="right", no_wrap=True)
    table.add_column("end reasons", no_wrap=True)
    table.add_column("balance", no_wrap=True)
    for cell in summary.cells:
        row: list[str | Text] = [f"{cell.heroes} v\n{cell.adversaries}"]
        if with_variants:
            row.append(variants_label(cell.variants))
        row += [
            str(cell.matches),
            str(cell.heroes_wins),
            str(cell.adversaries_wins),
            str(cell.draws),
        ]
        if summary.errors:
            row.append(str(cell.errors))
        row += [
            rate_text(cell.win_rate, cell.interval),
            f"{cell.mean_rounds:.2f}" if cell.mean_rounds is not None else "-",
            "\n".join(f"{reason} {count}" for reason, count in cell.reasons.items()),
            Text(f"unbalanced: {'H' if cell.favoured == 'heroes' else 'A'}", style="bold red")
            if cell.unbalanced
            else Text("ok", style="green"),
        ]
        table.add_row(*row)
    return table


__all__ = [
    "DEFAULT_BOT",
    "MultiversusPlan",
    "log_name",
    "make_grid",
    "plan_for",
    "summary_table",
]
