"""Multiversus' simulation report: its grid's charts and table as one HTML page, on the charts
every game's report draws (:mod:`multiversus_cli.simulate_report`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from multiversus_cli.presenters.multiversus_simulate import InitiativeRow, ends
from multiversus_cli.simulate_report import (
    Flag,
    Row,
    chart,
    end_table_html,
    failed_flags,
    first_flags,
    flags_html,
    length_chart,
    page,
    reasons_chart,
)
from multiversus_core.rulesets.multiversus.narrate import side_name
from multiversus_core.rulesets.multiversus.simulation import (
    Cell,
    CellSummary,
    MatchRecord,
    Summary,
    variants_label,
)


def _label(cell: CellSummary) -> str:
    return f"{cell.heroes} v {cell.adversaries}, {variants_label(cell.variants)}"


def render_report(
    summary: Summary,
    records: Sequence[MatchRecord],
    logs: Mapping[object, str] | None = None,
    starts: Sequence[InitiativeRow] = (),
) -> str:
    """The whole report as one HTML page; ``logs`` links the matches whose logs were written
    (by key) to them, ``starts`` is what the starting Initiative did."""
    grid = summary.grid
    title = f"Simulation: {grid.heroes_bot} (Heroes) v {grid.adversaries_bot} (Adversaries)"
    return page(
        title,
        summary.played,
        summary.total,
        summary.errors,
        grid.matches,
        grid.seed,
        [
            "<h2>The Heroes' win rate</h2>",
            '<p class="note">The Heroes\' share of decided matches (draws left out), with its '
            "95% Wilson interval. A cell whose interval excludes 50% is unbalanced (red).</p>",
            win_rate_chart(summary.cells),
            "<h2>Cells</h2>",
            cell_table(summary.cells),
            "<h2>Match length</h2>",
            '<p class="note">Commands per match (set-up included), every cell together; '
            "matches that raised are left out.</p>",
            length_chart([r.commands for r in records if not r.failed]),
            "<h2>End reasons</h2>",
            cell_reasons_chart(summary.cells),
            "<h2>Who won by which end</h2>",
            end_table_html(ends(records)),
            "<h2>The starting Initiative</h2>",
            '<p class="note">The side that starts each round with the Initiative: how often it '
            "won the decided matches (draws left out), with its 95% Wilson interval. Only the "
            "row of either side is judged: a row of one side mixes in that side's own "
            "strength.</p>",
            initiative_html(starts),
            "<h2>Matches to look at</h2>",
            flags_html(flags(summary, records), logs or {}),
        ],
    )


def flags(summary: Summary, records: Sequence[MatchRecord]) -> list[Flag]:
    """The matches that raised, then, in each cell flagged unbalanced, a few of the favoured
    side's wins."""
    found = failed_flags(records)
    for cell in summary.cells:
        if not cell.unbalanced or cell.favoured is None:
            continue
        side, here = cell.favoured, Cell(cell.heroes, cell.adversaries, cell.variants)
        won = [r for r in records if r.cell == here and r.winner == side]
        found += first_flags(won, f"won by the {side_name(side)}, whom this cell favours")
    return found


def initiative_html(rows: Sequence[InitiativeRow]) -> str:
    """What the starting Initiative did, per starting side and for either, as a table."""
    head = (
        "<tr><th>started by</th><th>matches</th><th>starter won</th><th>other won</th>"
        "<th>draws</th><th>starter's win rate</th><th>95% interval</th><th>balance</th></tr>"
    )
    out = [head]
    for row in rows:
        rate = f"{row.rate:.1%}" if row.rate is not None else "-"
        interval = row.interval
        within = f"{interval.low:.1%} to {interval.high:.1%}" if interval else "-"
        verdict = row.verdict
        style = "unbalanced" if verdict.startswith("favours") else "ok"
        out.append(
            f"<tr><td>{escape(row.label)}</td><td>{row.matches}</td><td>{row.starter}</td>"
            f"<td>{row.other}</td><td>{row.draws}</td><td>{rate}</td><td>{within}</td>"
            f'<td class="text"><span class="{style}">{escape(verdict)}</span></td></tr>'
        )
    return '<table class="initiative">' + "".join(out) + "</table>"


def cell_table(cells: Sequence[CellSummary]) -> str:
    """The per-cell table, as the terminal shows it."""
    head = (
        "<tr><th>heroes v adversaries</th><th>variants</th><th>matches</th><th>Heroes</th>"
        "<th>Adversaries</th><th>draws</th><th>errors</th><th>Heroes' win rate</th>"
        "<th>95% interval</th><th>mean rounds</th><th>end reasons</th><th>balance</th></tr>"
    )
    rows = [head]
    for cell in cells:
        rate = f"{cell.win_rate:.1%}" if cell.win_rate is not None else "-"
        interval = f"{cell.interval.low:.1%} to {cell.interval.high:.1%}" if cell.interval else "-"
        rounds = f"{cell.mean_rounds:.2f}" if cell.mean_rounds is not None else "-"
        reasons = ", ".join(f"{escape(k)} {v}" for k, v in cell.reasons.items())
        balance = (
            f'<span class="unbalanced">unbalanced: favours the {cell.favoured}</span>'
            if cell.unbalanced
            else '<span class="ok">ok</span>'
        )
        rows.append(
            f'<tr><td>{escape(cell.heroes)} v {escape(cell.adversaries)}</td><td class="text">'
            f"{escape(variants_label(cell.variants))}</td><td>{cell.matches}</td>"
            f"<td>{cell.heroes_wins}</td><td>{cell.adversaries_wins}</td><td>{cell.draws}</td>"
            f"<td>{cell.errors}</td><td>{rate}</td><td>{interval}</td><td>{rounds}</td>"
            f'<td class="text">{reasons}</td><td class="text">{balance}</td></tr>'
        )
    return "<table>" + "".join(rows) + "</table>"


def win_rate_chart(cells: Sequence[CellSummary]) -> str:
    """Each cell's win rate as a dot on its 95% interval, against a line at 50%."""
    rows = [
        Row(
            _label(c),
            c.win_rate,
            c.interval,
            c.unbalanced,
            f"{c.heroes_wins} of {c.heroes_wins + c.adversaries_wins} decided",
            "no decided match",
        )
        for c in cells
    ]
    return chart(rows, 0.5, "The Heroes' win rate per cell")


def cell_reasons_chart(cells: Sequence[CellSummary]) -> str:
    """Each cell's end reasons as one bar, split by reason, with a legend."""
    return reasons_chart([(_label(cell), cell.reasons) for cell in cells])
