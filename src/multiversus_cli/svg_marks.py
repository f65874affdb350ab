"""Marks any game's SVG board draws over its pieces: the way a piece went, and an attack from
one piece to another, with their arrow heads (:data:`ARROWS`, for the board's ``<defs>``)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Final, Literal

ARROWS: Final = (
    '<marker id="mv-arrow-move" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#f59e0b"/>'
    "</marker>"
    '<marker id="mv-arrow-push" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#0d9488"/>'
    "</marker>"
    '<marker id="mv-arrow-attack" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#dc2626"/>'
    "</marker>"
)
"""The arrow heads of :func:`path_mark` and :func:`attack_mark`, for a board's ``<defs>``."""


def path_mark(
    figure: str, kind: Literal["move", "push"], points: Sequence[tuple[float, float]]
) -> str:
    """Return the way a piece went in one entry, through ``points`` (its start first), as a
    line with an arrow head (:data:`ARROWS`): ``move`` solid, ``push`` dashed."""
    colour = "#f59e0b" if kind == "move" else "#0d9488"
    line = " ".join(f"{x:g},{y:g}" for x, y in points)
    x0, y0 = points[0]
    dash = ' stroke-dasharray="7 4"' if kind == "push" else ""
    return (
        f'<g class="mv-change mv-{kind}" data-figure="{escape(figure)}">'
        f'<circle cx="{x0:g}" cy="{y0:g}" r="5" fill="{colour}"/>'
        f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="5" '
        f'stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.85"{dash} '
        f'marker-end="url(#mv-arrow-{kind})"/></g>'
    )


def attack_mark(
    attacker: str,
    target: str,
    word: str,
    source: tuple[tuple[float, float], float],
    aim: tuple[tuple[float, float], float],
    kind: str = "attack",
) -> str:
    """Return an attack as an arrow from the attacker to a ring round the target, ``word``
    (``"hit"``, ``"miss"``) above it. ``source`` and ``aim`` are each piece's centre and the
    room to leave round it, so that the arrow covers neither piece's label."""
    (x1, y1), start = source
    (x2, y2), end = aim
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    x1, y1 = x1 + ux * min(start, length / 2), y1 + uy * min(start, length / 2)
    tx, ty = x2, y2
    x2, y2 = x2 - ux * min(end, length / 2), y2 - uy * min(end, length / 2)
    return (
        f'<g class="mv-change mv-{kind} mv-{word}" data-figure="{escape(attacker)}" '
        f'data-target="{escape(target)}">'
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#dc2626" '
        'stroke-width="4" stroke-dasharray="2 5" stroke-linecap="round" '
        'marker-end="url(#mv-arrow-attack)"/>'
        f'<circle cx="{tx:g}" cy="{ty:g}" r="{end:g}" fill="none" stroke="#dc2626" '
        f'stroke-width="3"/><text class="mv-mark" x="{tx:g}" y="{ty - end - 8:g}" '
        f'fill="#dc2626">{word}</text></g>'
    )


__all__ = ["ARROWS", "attack_mark", "path_mark"]
