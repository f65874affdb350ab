"""Multiversus' grid for ``multiversus simulate``: each Hero team against each Adversary team
under each variant set (:mod:`multiversus_core.rulesets.multiversus.simulation`), its table
and its logs' names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final, NamedTuple

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from multiversus_cli import simulating
from multiversus_cli.simulating import (
    Fitted,
    SimulateRequest,
    UsageError,
    check_run,
    names,
    rate_text,
)
from multiversus_core.engine.errors import MultiversusError
from multiversus_core.engine.simulation import Interval, bot_seed, play_recorded, wilson
from multiversus_core.engine.simulation import Task as MatchTask
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, make_bot
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.narrate import side_name
from multiversus_core.rulesets.multiversus.simulation import (
    CODEC,
    Grid,
    MatchRecord,
    Summary,
    summarize,
    variants_label,
)
from multiversus_core.rulesets.multiversus.simulation import MatchTask as Task
from multiversus_core.rulesets.multiversus.terms import SIDES, Side
from multiversus_core.rulesets.multiversus.variants import VARIANTS
from multiversus_core.rulesets.multiversus.views import MatchView

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
        self._starters: dict[object, Side | None] = {}

    def tasks(self, *, keep_logs: bool = False) -> Sequence[MatchTask]:
        return self.grid.tasks(keep_logs=keep_logs)

    def summarize(self, records: Iterable[MatchRecord]) -> Summary:
        return summarize(self.grid, records)

    def table(self, summary: Summary, records: Sequence[MatchRecord]) -> RenderableType:
        """The cells, who won by which end, and what the starting Initiative did."""
        return Group(
            Fitted(summary_table(summary)),
            "",
            simulating.end_table_view(ends(records), "Who won by which end (every match)"),
            "",
            Fitted(initiative_table(initiative_rows(records, self.starters(records)))),
        )

    def report(
        self,
        summary: Summary,
        records: Sequence[MatchRecord],
        logs: Mapping[object, str] | None = None,
    ) -> str:
        from multiversus_cli.presenters.multiversus_report import render_report  # when asked

        starts = initiative_rows(records, self.starters(records))
        return render_report(summary, records, logs or {}, starts)

    def starters(self, records: Iterable[MatchRecord]) -> Mapping[object, Side | None]:
        """The side that started each round with the Initiative in each match (by key),
        found once per match (:func:`starting_side`)."""
        tasks = {task.key: task for task in self.grid.tasks()}
        for record in records:
            if record.key not in self._starters and record.key in tasks:
                self._starters[record.key] = starting_side(tasks[record.key])
        return self._starters

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
    table.add_column("end reasons")
    table.add_column("balance")
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


WINNERS: Final = {"heroes": "Heroes", "adversaries": "Adversaries", "draw": "draw"}
"""A match's winner as the end table names it."""


def ends(records: Iterable[MatchRecord]) -> simulating.EndTable:
    """Who won by which end reason: the Heroes, the Adversaries, draws (and errors, if any)."""
    return simulating.end_table(
        ((r.reason, "error" if r.winner is None else WINNERS[r.winner]) for r in records),
        list(WINNERS.values()),
    )


# --- the starting Initiative ------------------------------------------------------------------


class _SidesPlay(Exception):
    """The set-up is over: a side's bot is asked to choose."""


class _SetUpOnly:
    """The set-up chooser of a simulated match (a random bot of the match seed's own, as
    :func:`~multiversus_core.rulesets.multiversus.simulation.play_task` makes it), stopping
    the match once a side is asked."""

    def __init__(self, seed: int) -> None:
        self._set_up = RandomBot(bot_seed(seed, "set-up"))

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        if view.viewer in SIDES:
            raise _SidesPlay
        return self._set_up.choose(view, legal)


def starting_side(task: Task) -> Side | None:
    """The side that starts each round with the Initiative in the match of ``task``; None if
    its set-up does not say.

    The set-up's choices, that side among them, are made before the sides' bots play, by a
    random chooser of the match seed's own; so the set-up alone is played again, not the match,
    and old --out files are read as well as new ones.
    """
    _, state, _ = play_recorded(task.settings(), dict.fromkeys((1, 2), _SetUpOnly(task.seed)))
    return None if state is None else state.starting_side


class InitiativeRow(NamedTuple):
    """The matches played to their end whose rounds one side started (or either did)."""

    label: str
    matches: int
    starter: int
    """Won by the side that started each round with the Initiative."""
    other: int
    draws: int
    overall: bool = False
    """The row of either side: the only one judged, as a row of one side mixes in that side's
    own strength."""

    @property
    def interval(self) -> Interval | None:
        """The starter's share of the decided matches, its 95% Wilson interval."""
        return wilson(self.starter, self.starter + self.other)

    @property
    def rate(self) -> float | None:
        """The starter's share of the decided matches."""
        decided = self.starter + self.other
        return self.starter / decided if decided else None

    @property
    def verdict(self) -> str:
        """Whether the starter wins more often than chance explains ("favours the starter"),
        less often ("favours the other side"), or neither ("ok"); "" for a row of one side."""
        interval = self.interval
        if not self.overall:
            return ""
        if interval is None or interval.low <= 0.5 <= interval.high:
            return "ok"
        return "favours the starter" if interval.low > 0.5 else "favours the other side"


def initiative_rows(
    records: Iterable[MatchRecord], starters: Mapping[object, Side | None]
) -> list[InitiativeRow]:
    """A row for each side that started, then one for either: its matches played to their
    end, and how many the starter won, the other side won, and were drawn."""
    counts: dict[Side, list[int]] = {side: [0, 0, 0] for side in SIDES}
    for record in records:
        start = starters.get(record.key)
        if record.winner is None or start is None:
            continue
        won = 2 if record.winner == "draw" else 0 if record.winner == start else 1
        counts[start][won] += 1
    rows = [InitiativeRow(side_name(side), sum(c), c[0], c[1], c[2]) for side, c in counts.items()]
    won, lost, drawn = (sum(c[i] for c in counts.values()) for i in range(3))
    either = InitiativeRow("either side", won + lost + drawn, won, lost, drawn, overall=True)
    return [*rows, either]


def initiative_table(rows: Sequence[InitiativeRow]) -> Table:
    """What the starting Initiative did: per starting side, and for either."""
    table = Table(
        title="The starting Initiative: the side that starts each round with it",
        title_justify="left",
        caption="Starter, other: the matches won by the side that started each round with the "
        "Initiative, and by the other side. Starter's win rate: its share of decided matches "
        "(draws left out), with its 95% Wilson interval. Balance: whether either side's "
        "start wins more (or less) often than chance explains; a row of one side mixes in "
        "that side's own strength.",
        caption_justify="left",
    )
    table.add_column("started by", no_wrap=True)
    table.add_column("matches", justify="right", no_wrap=True)
    table.add_column("starter", justify="right", no_wrap=True)
    table.add_column("other", justify="right", no_wrap=True)
    table.add_column("draw", justify="right", no_wrap=True)
    table.add_column("starter's win\nrate (95% CI)", justify="right", no_wrap=True)
    table.add_column("balance")
    for row in rows:
        verdict = row.verdict
        table.add_row(
            row.label,
            str(row.matches),
            str(row.starter),
            str(row.other),
            str(row.draws),
            rate_text(row.rate, row.interval),
            Text(verdict, style="bold red" if verdict.startswith("favours") else "green"),
        )
    return table


__all__ = [
    "DEFAULT_BOT",
    "InitiativeRow",
    "MultiversusPlan",
    "ends",
    "initiative_rows",
    "initiative_table",
    "log_name",
    "make_grid",
    "plan_for",
    "starting_side",
    "summary_table",
]
