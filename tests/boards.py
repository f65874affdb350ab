"""ASCII boards for tests, written the way the rulebook draws them.

A map is rows of bracketed cells separated by spaces, one letter (or a blank)
per cell, the top row first::

    [X] [s] [s] [s] [s]
    [s] [s] [ ] [ ] [ ]

:func:`parse_map` gives each letter's squares, as ``(column, row)``, and the
map's size. :func:`build` adds a legend saying which letters are figures or
special tiles and returns a :class:`Scene` (a Board plus its Figures); letters
not in the legend are plain marks (expected squares, say) left in the grid.

Figure ids are the letter plus a count in reading order ("g1", "g2", ...); a
letter's figures form one unit named by the letter. A Large figure is drawn as
its four spaces; a special tile by any of its spaces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import msgspec
from hypothesis import strategies as st

from multiversus_core.rulesets.multiversus.board import Board, Figure, Tile
from multiversus_core.rulesets.multiversus.terms import Side, Size, Square

_CELL = re.compile(r"\[(.?)\]")


@dataclass(frozen=True)
class Grid:
    """A parsed map: its size and the squares each letter marks."""

    width: int
    height: int
    marks: Mapping[str, frozenset[Square]]

    def squares(self, letter: str) -> frozenset[Square]:
        """Return the squares marked with letter (empty if none)."""
        return self.marks.get(letter, frozenset())


def parse_map(text: str) -> Grid:
    """Return the grid drawn in text; blank lines are ignored.

    :raises ValueError: if a line has no cells or rows differ in length.
    """
    rows = [_CELL.findall(line) for line in text.splitlines() if line.strip()]
    if not rows or any(not row for row in rows):
        raise ValueError(f"not a map: {text!r}")
    width = len(rows[0])
    if any(len(row) != width for row in rows):
        raise ValueError("map rows differ in length")
    marks: dict[str, set[Square]] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.strip():
                marks.setdefault(cell, set()).add((c, r))
    return Grid(width, len(rows), {k: frozenset(v) for k, v in marks.items()})


@dataclass(frozen=True)
class Piece:
    """What a legend letter stands for: a character, a terrain piece or a special tile."""

    kind: str  # "character", "terrain" or "tile"
    side: Side = "heroes"
    size: Size = "medium"
    blocking: bool = True
    obscuring: bool = True


HERO = Piece("character", "heroes")
ENEMY = Piece("character", "adversaries")
LARGE_HERO = Piece("character", "heroes", "large")
LARGE_ENEMY = Piece("character", "adversaries", "large")


def terrain(*, blocking: bool = False, obscuring: bool = False, size: Size = "medium") -> Piece:
    """Return a terrain piece (Adversaries' Terrain unit, R1) legend entry."""
    return Piece("terrain", "adversaries", size, blocking, obscuring)


def tile(*, blocking: bool = False, obscuring: bool = False) -> Piece:
    """Return a special (face-up) tile legend entry.

    A tile is drawn on any of its spaces (figures may stand on the others); tiles
    lie on even columns and rows (R17), so each drawn space names its tile.
    """
    return Piece("tile", blocking=blocking, obscuring=obscuring)


@dataclass(frozen=True)
class Scene:
    """A board and the figures on it, built from a map."""

    grid: Grid
    board: Board
    figures: tuple[Figure, ...]

    def squares(self, letter: str) -> frozenset[Square]:
        """Return the squares marked with letter in the map."""
        return self.grid.squares(letter)

    def all(self, letter: str) -> tuple[Figure, ...]:
        """Return the figures drawn with letter, in reading order."""
        return tuple(f for f in self.figures if f.unit == letter)

    def figure(self, letter: str) -> Figure:
        """Return the one figure drawn with letter.

        :raises ValueError: if there is not exactly one.
        """
        found = self.all(letter)
        if len(found) != 1:
            raise ValueError(f"{len(found)} figures drawn with {letter!r}")
        return found[0]

    def moved(self, figure: Figure, square: Square | None) -> tuple[Figure, tuple[Figure, ...]]:
        """Return the figure at square, and all figures with it so replaced."""
        new = msgspec.structs.replace(figure, square=square)
        return new, tuple(new if f.id == figure.id else f for f in self.figures)


def _large_origins(squares: frozenset[Square]) -> list[Square]:
    """Split a Large letter's squares into two-by-two blocks; return their top-left spaces.

    :raises ValueError: if some square is not part of a whole block.
    """
    left = set(squares)
    origins: list[Square] = []
    while left:
        c, r = min(left, key=lambda s: (s[1], s[0]))
        block = {(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)}
        if not block <= left:
            raise ValueError(f"squares at {sorted(block)} are not a whole two-by-two block")
        left -= block
        origins.append((c, r))
    return origins


def _tile_origins(squares: frozenset[Square]) -> list[Square]:
    """Return the top-left spaces of the tiles (aligned on even spaces) the squares lie in."""
    return sorted({(c - c % 2, r - r % 2) for c, r in squares}, key=lambda s: (s[1], s[0]))


def build(text: str, legend: Mapping[str, Piece]) -> Scene:
    """Return the scene a map draws, reading letters through legend.

    :raises ValueError: if a Large figure is not drawn as whole two-by-two blocks.
    """
    grid = parse_map(text)
    tiles: list[Tile] = []
    figures: list[Figure] = []
    for letter, piece in sorted(legend.items()):
        squares = grid.squares(letter)
        if piece.kind == "tile":
            tiles.extend(
                Tile(origin, letter, piece.blocking, piece.obscuring)
                for origin in _tile_origins(squares)
            )
            continue
        if piece.size == "large":
            origins = _large_origins(squares)
        else:
            origins = sorted(squares, key=lambda s: (s[1], s[0]))
        figures.extend(
            Figure(
                id=f"{letter}{n}",
                name=f"{letter}{n}",
                unit=letter,
                side=piece.side,
                square=origin,
                size=piece.size,
                terrain=piece.kind == "terrain",
                blocking=piece.blocking,
                obscuring=piece.obscuring,
            )
            for n, origin in enumerate(origins, start=1)
        )
    board = Board(grid.width, grid.height, tuple(tiles))
    return Scene(grid, board, tuple(figures))


@st.composite
def random_scenes(draw: st.DrawFn) -> tuple[Board, tuple[Figure, ...], Figure]:
    """A small board with special tiles, and characters and terrain pieces of every kind."""
    width, height = 2 * draw(st.integers(1, 4)), 2 * draw(st.integers(1, 4))
    tiles = tuple(
        Tile((2 * c, 2 * r), "Tile", blocking=draw(st.booleans()))
        for c, r in draw(
            st.sets(st.tuples(st.integers(0, width // 2 - 1), st.integers(0, height // 2 - 1)))
        )
    )
    figures: list[Figure] = []
    for n in range(draw(st.integers(1, 8))):
        large = draw(st.booleans())
        square = draw(
            st.none()
            | st.tuples(st.integers(0, width - 1 - large), st.integers(0, height - 1 - large))
        )
        figures.append(
            Figure(
                id=f"f{n}",
                name=f"F{n}",
                unit=f"u{draw(st.integers(0, 2))}",
                side=draw(st.sampled_from(["heroes", "adversaries"])),
                square=square,
                size="large" if large else "medium",
                terrain=draw(st.booleans()),
                blocking=draw(st.booleans()),
            )
        )
    mover = draw(st.sampled_from(figures))
    return Board(width, height, tiles), tuple(figures), mover
