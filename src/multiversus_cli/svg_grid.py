"""A square board in SVG, any game's: the grid's lines, its files and ranks named as players
name squares (:func:`~multiversus_core.engine.grid.square_name`), and short labels that tell
pieces apart on their tokens."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from multiversus_cli.grid_text import file_name


def grid_lines(left: int, top: int, columns: int, rows: int, cell: int) -> str:
    """The lines between the squares of a board whose top left corner is at (``left``,
    ``top``), as one path."""
    right, bottom = left + columns * cell, top + rows * cell
    lines = [f"M{left + c * cell},{top}V{bottom}" for c in range(columns + 1)]
    lines += [f"M{left},{top + r * cell}H{right}" for r in range(rows + 1)]
    return f'<path d="{"".join(lines)}" stroke="#00000033" stroke-width="1" fill="none"/>'


def grid_names(left: int, top: int, columns: int, rows: int, cell: int, css: str) -> str:
    """The file letters above the board and the rank numbers left of it, each a ``<text>`` of
    class ``css``, centred in the margin (``left`` and ``top`` wide)."""
    out = []
    for c in range(columns):
        x = left + c * cell + cell // 2
        out.append(f'<text class="{css}" x="{x}" y="{top // 2}">{file_name(c)}</text>')
    for r in range(rows):
        y = top + r * cell + cell // 2
        out.append(f'<text class="{css}" x="{left // 2}" y="{y}">{r + 1}</text>')
    return "".join(out)


class Piece(NamedTuple):
    """A piece to label: its id, its side, its type's name, and its number among its type
    ("" when it is the only one)."""

    id: str
    side: int
    kind: str
    number: str


def short_labels(pieces: Iterable[Piece]) -> dict[str, str]:
    """Each piece's short label, by id: the fewest first letters of its type's name that tell
    its side's types apart (two at least), then its number ("Go2" for Goblin 2)."""
    every = list(pieces)
    out: dict[str, str] = {}
    for side in {p.side for p in every}:
        names = {p.kind for p in every if p.side == side}
        for piece in (p for p in every if p.side == side):
            name = piece.kind
            size = next(
                (n for n in range(2, len(name)) if all(o[:n] != name[:n] for o in names - {name})),
                len(name),
            )
            out[piece.id] = name[:size].capitalize() + piece.number
    return out


__all__ = ["Piece", "grid_lines", "grid_names", "short_labels"]
