"""A square board in SVG, any game's: where its squares and the strip of pieces off it are
drawn (:class:`Layout`), the grid's lines, its files and ranks named as players name squares
(:func:`~multiversus_core.engine.grid.square_name`), short labels that tell pieces apart on
their tokens, a piece's health as a bar, and the ring round a square a piece was placed on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Final, NamedTuple

from multiversus_cli.grid_text import file_name
from multiversus_cli.svg_marks import ARROWS
from multiversus_core.engine.grid import Coord, square_name

MARGIN: Final = 24
"""Room for the file letters above a board and the rank numbers left of it."""
OFF_LEFT: Final = 110
"""Where the pieces off the board begin, right of the strip's name."""
ROW: Final = 20
"""The height of a legend line."""
SEAT_COLOURS: Final[Mapping[int, str]] = {1: "#1d4ed8", 2: "#b91c1c"}
"""Each seat's pieces in a two-seat game: blue and red, as the terminal shows them."""


class Layout(NamedTuple):
    """Where a board is drawn: its squares from the top left corner (``margin``, ``margin``),
    ``cell`` units a side, then a strip below for the pieces off the board, a line of it
    ``strip`` high, the pieces from ``off_left`` on."""

    cell: int
    margin: int
    columns: int
    rows: int
    width: int
    """The picture's width."""
    strip: int
    off_left: int = OFF_LEFT

    def xy(self, at: Coord) -> tuple[int, int]:
        """The top left corner of a square."""
        return self.margin + at[0] * self.cell, self.margin + at[1] * self.cell

    def centre(self, at: Coord) -> tuple[float, float]:
        """The centre of a square."""
        x, y = self.xy(at)
        return x + self.cell / 2, y + self.cell / 2

    @property
    def bottom(self) -> int:
        """The bottom edge of the board."""
        return self.margin + self.rows * self.cell

    def per_line(self) -> int:
        """How many pieces a line of the strip holds."""
        return max((self.width - self.margin - self.off_left) // (self.cell - 2), 1)

    def off_xy(self, slot: int) -> tuple[int, int]:
        """Where the ``slot``-th piece off the board is drawn."""
        line, place = divmod(slot, self.per_line())
        x = self.margin + self.off_left + place * (self.cell - 2)
        return x, self.bottom + 6 + line * self.strip

    def below_strip(self, pieces: int) -> int:
        """Below the strip, with a line for each piece it may have to hold at once."""
        return self.bottom + 6 + self.strip * -(-pieces // self.per_line())


def health_bar(x: int, y: int, width: int, left: float, height: int = 4) -> str:
    """A piece's health as a bar, red for what was lost, green for the share ``left`` (0 to
    1) that remains."""
    return (
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="#dc2626"/>'
        f'<rect x="{x}" y="{y}" width="{width * max(left, 0.0):g}" height="{height}" '
        'fill="#16a34a"/>'
    )


def placed_mark(layout: Layout, at: Coord, css: str) -> str:
    """A ring round the square a piece was placed on in an entry."""
    cx, cy = layout.centre(at)
    return (
        f'<g class="mv-change {css}" data-square="{square_name(at)}">'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{layout.cell / 2 - 1:g}" fill="none" '
        'stroke="#f59e0b" stroke-width="3"/></g>'
    )


def board_head(
    css: str,
    size: tuple[int, int],
    title: str,
    symbols: Iterable[tuple[str, str]],
    box: int,
    style: str,
) -> tuple[str, str, str]:
    """A board's SVG document begun: its opening tag (classes ``mv-board`` and
    ``{css}-board``, labelled by its title), its title, and its definitions (each kind of
    square of ``symbols``, a kind and its drawing, as a symbol ``{css}-{kind}`` drawn in a
    ``box`` by ``box`` square; the arrow heads of :mod:`multiversus_cli.svg_marks`) with
    ``style`` and the background."""
    width, height = size
    drawn = "".join(
        f'<symbol id="{css}-{kind}" viewBox="0 0 {box} {box}">{symbol}</symbol>'
        for kind, symbol in symbols
    )
    opening = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mv-board {css}-board" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{css}-board-title">'
    )
    titled = f'<title id="{css}-board-title">{escape(title)}</title>'
    defs = f'<defs>{drawn}{ARROWS}</defs>{style}<rect width="100%" height="100%" fill="#fafafa"/>'
    return opening, titled, defs


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


__all__ = [
    "MARGIN",
    "OFF_LEFT",
    "ROW",
    "SEAT_COLOURS",
    "Layout",
    "Piece",
    "board_head",
    "grid_lines",
    "grid_names",
    "health_bar",
    "placed_mark",
    "short_labels",
]
