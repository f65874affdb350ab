"""The HTML report of a simulation: one self-contained page, charts drawn as inline SVG.

:func:`render_game_report` (any game's grid) is a pure function from a
summary and its records to text; the page and its charts are shared with
Multiversus' report (:mod:`multiversus_cli.presenters.multiversus_report`).
The page loads nothing (no script, no font, no image, no style sheet from
elsewhere), so it reads the same offline, attached to a mail or archived
with the run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any, Final, NamedTuple

import multiversus_core
from multiversus_cli.simulating import EndTable
from multiversus_core.engine.simulation import GameRecord, GameSummary, Interval, WinRate

PALETTE: Final = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
"""Colours of the end reasons, in order of frequency."""

SHOWN_PER_FLAG: Final = 3
"""Matches listed for each flagged cell (the matches that raised are all listed)."""

_STYLE: Final = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 100%; }
h1 { font-size: 1.5em; overflow-wrap: anywhere; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.9em; display: block; max-width: 100%;
  overflow-x: auto; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right;
  white-space: nowrap; }
th, td.text { white-space: normal; }
td.text { min-width: 8em; }
svg { max-width: 100%; height: auto; }
li { margin: 0.2em 0; }
th:first-child, td:first-child, td.text { text-align: left; }
.unbalanced { color: #c0392b; font-weight: bold; }
.ok { color: #2e7d32; }
.note { color: #555; font-size: 0.9em; }
svg text { font-family: system-ui, sans-serif; font-size: 12px; fill: #222; }
"""


def render_game_report(
    title: str,
    summary: GameSummary,
    records: Sequence[GameRecord],
    logs: Mapping[object, str] | None = None,
) -> str:
    """The whole report of any game's grid (``title`` is the game's name) as one HTML page;
    ``logs`` links the matches whose logs were written (by key) to them."""
    from multiversus_cli.simulate_any import game_ends

    grid = summary.grid
    fair = "-" if summary.fair is None else f"{summary.fair:.1%}"
    totals = [
        Rate(f"seat {seat}", rate, f"seat {seat}") for seat, rate in enumerate(summary.seats, 1)
    ]
    totals += [Rate(bot, rate, bot) for bot, rate in summary.bots.items()]
    seats = [
        Rate(f"{cell.cell.label}: seat {seat}", rate, f"{cell.cell.label}: seat {seat} ({bot})")
        for cell in summary.cells
        for seat, (bot, rate) in enumerate(zip(cell.bots, cell.seats, strict=True), start=1)
    ]
    share = (
        f'<p class="note">The share of the matches played to their end that each won (draws '
        f"count as no win), with its 95% Wilson interval; the line is the fair share, {fair}, "
        "each seat's were every seat alike. One whose interval excludes it is red.</p>"
    )
    cells = [(cell.cell.label, cell.reasons) for cell in summary.cells]
    return page(
        f"Simulation of {title}: {' v '.join(grid.bots)}",
        summary.played,
        summary.total,
        summary.errors,
        grid.matches,
        grid.seed,
        [
            "<h2>Each seat and each bot, over every cell</h2>",
            share,
            rate_chart(totals, summary.fair, "Win rate of each seat and each bot"),
            "<h2>Each seat, cell by cell</h2>",
            rate_chart(seats, summary.fair, "Win rate of each seat per cell"),
            "<h2>Match length</h2>",
            '<p class="note">Commands per match, every cell together; matches that raised '
            "are left out.</p>",
            length_chart([r.commands for r in records if not r.failed]),
            "<h2>End reasons</h2>",
            reasons_chart(cells),
            "<h2>Who won by which end</h2>",
            end_table_html(game_ends(summary, records)),
            "<h2>Matches to look at</h2>",
            flags_html(game_flags(summary, records), logs or {}),
        ],
    )


class Flag(NamedTuple):
    """A match the report points to, and why."""

    record: Any
    why: str


def failed_flags(records: Iterable[Any]) -> list[Flag]:
    """Every match that raised, with its error."""
    return [Flag(r, f"raised: {r.error}") for r in records if r.failed]


def first_flags(records: Iterable[Any], why: str) -> list[Flag]:
    """The first few of ``records`` (:data:`SHOWN_PER_FLAG`, by index), flagged ``why``."""
    picked = sorted(records, key=lambda r: r.index)[:SHOWN_PER_FLAG]
    return [Flag(r, why) for r in picked]


def game_flags(summary: GameSummary, records: Sequence[GameRecord]) -> list[Flag]:
    """The matches that raised, then, in each cell where a seat wins more often than its fair
    share explains, a few of that seat's wins."""
    flags = failed_flags(records)
    for cell in summary.cells:
        for seat, (bot, rate) in enumerate(zip(cell.bots, cell.seats, strict=True), start=1):
            if not rate.unbalanced or rate.rate is None or summary.fair is None:
                continue
            if rate.rate <= summary.fair:
                continue
            won = [r for r in records if r.cell == cell.cell and seat_won(r, seat)]
            why = f"won by seat {seat} ({bot}), which wins more than its fair share here"
            flags += first_flags(won, why)
    return flags


def seat_won(record: GameRecord, seat: int) -> bool:
    """Whether ``seat`` is among the match's winners."""
    return record.winners is not None and seat in record.winners


def flags_html(flags: Sequence[Flag], logs: Mapping[object, str]) -> str:
    """The flagged matches as a list, each linked to its log where it was written."""
    if not flags:
        return '<p class="note">No match raised, and no cell is flagged.</p>'
    items = []
    for flag in flags:
        r = flag.record
        name = f"{r.cell.label}, match {r.index} (seed {r.seed})"
        href = logs.get(r.key)
        shown = f'<a href="{escape(href)}">{escape(name)}</a>' if href else escape(name)
        items.append(f"<li>{shown}: {escape(flag.why)}</li>")
    kept = any(logs.get(f.record.key) for f in flags)
    note = (
        "Each links to its log (replay it with multiversus replay)."
        if kept
        else "Run with --keep-logs DIR to link each to its log."
    )
    return f'<p class="note">{note}</p><ul class="flags">{"".join(items)}</ul>'


def end_table_html(ends: EndTable) -> str:
    """The end table: a row per end reason, a column per winner, and the totals."""
    head = "".join(f"<th>{escape(w)}</th>" for w in ("end reason", *ends.winners, "total"))
    rows = [f"<tr>{head}</tr>"]
    for reason, counts in ends.rows:
        cells = "".join(f"<td>{n}</td>" for n in (*counts, sum(counts)))
        rows.append(f'<tr><td class="text">{escape(reason)}</td>{cells}</tr>')
    totals = [sum(counts[i] for _, counts in ends.rows) for i in range(len(ends.winners))]
    cells = "".join(f"<td>{n}</td>" for n in (*totals, ends.total))
    rows.append(f"<tr><th>every end</th>{cells}</tr>")
    return '<table class="ends">' + "".join(rows) + "</table>"


def page(
    title: str, played: int, total: int, errors: int, matches: int, seed: int, body: list[str]
) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">{played} of {total} matches played '
        f"({matches} per cell), {errors} errors; master seed {seed}; "
        f"engine {escape(multiversus_core.__version__)}.</p>",
        *body,
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


class Rate(NamedTuple):
    label: str
    rate: WinRate
    tip: str


def rate_chart(rates: Sequence[Rate], fair: float | None, title: str) -> str:
    rows = [
        Row(
            r.label,
            r.rate.rate,
            r.rate.interval,
            r.rate.unbalanced,
            f"{r.tip}: {r.rate.wins} of {r.rate.matches} won",
            "no match ended",
        )
        for r in rates
    ]
    return chart(rows, fair, title)


class Row(NamedTuple):
    label: str
    rate: float | None
    interval: Interval | None
    unbalanced: bool
    detail: str
    empty: str


def chart(rows: Sequence[Row], centre: float | None, title: str) -> str:
    """Each row's rate as a dot on its 95% interval, against a solid line at ``centre``."""
    left, width, row = 330, 420, 24
    height = row * len(rows) + 40
    x = _scale(0.0, 1.0, left, left + width)
    parts = [_svg_open(left + width + 70, height, title)]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        dash = "" if tick == centre else ' stroke-dasharray="2,3"'
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="10" x2="{x(tick):.1f}" y2="{height - 25}" '
            f'stroke="#999"{dash}/>'
            f'<text x="{x(tick):.1f}" y="{height - 8}" text-anchor="middle">{tick:.0%}</text>'
        )
    if centre is not None and centre not in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{x(centre):.1f}" y1="10" x2="{x(centre):.1f}" y2="{height - 25}" '
            'stroke="#999"/>'
        )
    for i, cell in enumerate(rows):
        y = 20 + i * row
        parts.append(
            f'<text x="{left - 10}" y="{y + 4}" text-anchor="end">{escape(cell.label)}</text>'
        )
        if cell.rate is None or cell.interval is None:
            parts.append(f'<text x="{x(0.5) + 6:.1f}" y="{y + 4}">{cell.empty}</text>')
            continue
        colour = "#c0392b" if cell.unbalanced else "#2c3e50"
        tip = (
            f"{cell.label}: {cell.rate:.1%} ({cell.interval.low:.1%} to "
            f"{cell.interval.high:.1%}), {cell.detail}"
        )
        parts.append(
            f"<g><title>{escape(tip)}</title>"
            f'<line x1="{x(cell.interval.low):.1f}" y1="{y}" x2="{x(cell.interval.high):.1f}" '
            f'y2="{y}" stroke="{colour}" stroke-width="2"/>'
            f'<circle cx="{x(cell.rate):.1f}" cy="{y}" r="4" fill="{colour}"/></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def length_chart(lengths: Sequence[int], bins: int = 20) -> str:
    """A histogram of match lengths, in commands."""
    if not lengths:
        return '<p class="note">No match ended.</p>'
    low, high = min(lengths), max(lengths)
    step = max(1, -(-(high - low + 1) // bins))
    counts = Counter((n - low) // step for n in lengths)
    slots = (high - low) // step + 1
    left, width, height, top = 50, 700, 220, 10
    bar = width / slots
    peak = max(counts.values())
    y = _scale(0, peak, top + height, top)
    parts = [_svg_open(left + width + 20, top + height + 45, "Match length in commands")]
    parts.append(
        f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" '
        'stroke="#999"/>'
        f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">{peak}</text>'
        f'<text x="{left - 6}" y="{top + height}" text-anchor="end">0</text>'
    )
    for slot in range(slots):
        count = counts.get(slot, 0)
        start = low + slot * step
        label = f"{start}-{start + step - 1} commands: {count} matches"
        parts.append(
            f'<rect x="{left + slot * bar + 1:.1f}" y="{y(count):.1f}" width="{bar - 2:.1f}" '
            f'height="{top + height - y(count):.1f}" fill="#4e79a7">'
            f"<title>{escape(label)}</title></rect>"
        )
    for slot in range(0, slots, max(1, slots // 5)):
        parts.append(
            f'<text x="{left + slot * bar:.1f}" y="{top + height + 16}">{low + slot * step}</text>'
        )
    parts.append(
        f'<text x="{left + width / 2:.1f}" y="{top + height + 38}" text-anchor="middle">'
        "commands per match</text></svg>"
    )
    return "".join(parts)


def reasons_chart(cells: Sequence[tuple[str, Mapping[str, int]]]) -> str:
    totals: Counter[str] = Counter()
    for _, reasons_of in cells:
        totals.update(reasons_of)
    reasons = [reason for reason, _ in totals.most_common()]
    colour = {r: PALETTE[i % len(PALETTE)] for i, r in enumerate(reasons)}
    left, width, row = 330, 420, 24
    legend = 20 * len(reasons)
    height = row * len(cells) + legend + 20
    parts = [_svg_open(left + width + 20, height, "End reasons per cell")]
    for i, (label, counts) in enumerate(cells):
        y = 10 + i * row
        parts.append(f'<text x="{left - 10}" y="{y + 12}" text-anchor="end">{escape(label)}</text>')
        total = sum(counts.values())
        start = float(left)
        for reason in reasons:
            count = counts.get(reason, 0)
            if not count:
                continue
            span = width * count / total
            tip = f"{label}: {reason} {count} of {total}"
            parts.append(
                f'<rect x="{start:.1f}" y="{y}" width="{span:.1f}" height="16" '
                f'fill="{colour[reason]}"><title>{escape(tip)}</title></rect>'
            )
            start += span
    for j, reason in enumerate(reasons):
        y = row * len(cells) + 20 + j * 20
        parts.append(
            f'<rect x="{left}" y="{y - 11}" width="12" height="12" fill="{colour[reason]}"/>'
            f'<text x="{left + 18}" y="{y}">{escape(reason)} ({totals[reason]})</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _svg_open(width: float, height: float, title: str) -> str:
    return (
        f'<svg width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>"
    )


def _scale(domain_low: float, domain_high: float, range_low: float, range_high: float) -> _Linear:
    return _Linear(domain_low, domain_high, range_low, range_high)


class _Linear:
    def __init__(self, d0: float, d1: float, r0: float, r1: float) -> None:
        self._d0, self._r0 = d0, r0
        self._k = (r1 - r0) / (d1 - d0) if d1 != d0 else 0.0

    def __call__(self, value: float) -> float:
        return self._r0 + (value - self._d0) * self._k


__all__ = [
    "Flag",
    "Rate",
    "Row",
    "chart",
    "end_table_html",
    "failed_flags",
    "first_flags",
    "flags_html",
    "game_flags",
    "length_chart",
    "page",
    "rate_chart",
    "reasons_chart",
    "render_game_report",
    "seat_won",
]
