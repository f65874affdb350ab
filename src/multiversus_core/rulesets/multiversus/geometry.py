"""Board geometry: footprints, lines, adjacency, line of sight and push directions.

Rulebook: *Board*, *Lines*, *Adjacency*, *Sizes*, *Line of sight and obscuring
terrain and characters*, *Ranged*, *Large*; rulings R9, R17, R18, R21.

Everything here is a pure function of a :class:`~multiversus_core.rulesets.multiversus.board.Board`
and the figures on it. Spaces are ``(column, row)`` tuples counted from the
top-left space; a figure's ``square`` is its top-left space.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

from multiversus_core.rulesets.multiversus.board import Board, Figure, Tile
from multiversus_core.rulesets.multiversus.terms import Direction, Size, Square

ORTHOGONAL: Final[tuple[Direction, ...]] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""North, east, south and west, in that order."""

DIAGONAL: Final[tuple[Direction, ...]] = ((1, -1), (1, 1), (-1, 1), (-1, -1))
"""North-east, south-east, south-west and north-west, in that order."""

DIRECTIONS: Final[tuple[Direction, ...]] = ORTHOGONAL + DIAGONAL
"""All eight directions a line can take: orthogonal first, then diagonal."""

Ranks: TypeAlias = tuple[tuple[Square, ...], ...]
"""The successive ranks (cross-sections) of a line, nearest first."""


def footprint(origin: Square, size: Size) -> tuple[Square, ...]:
    """Return the spaces a figure of that size covers with its top-left space at origin."""
    c, r = origin
    if size == "medium":
        return (origin,)
    return ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1))


def figure_squares(figure: Figure) -> tuple[Square, ...]:
    """Return the spaces the figure covers, or () when it is off the board."""
    if figure.square is None:
        return ()
    return footprint(figure.square, figure.size)


def on_board(board: Board, square: Square) -> bool:
    """Return whether the space lies on the board."""
    c, r = square
    return 0 <= c < board.width and 0 <= r < board.height


def tile_at(board: Board, square: Square) -> Tile | None:
    """Return the special tile covering the space, or None if the space is ordinary."""
    c, r = square
    for tile in board.tiles:
        tc, tr = tile.origin
        if tc <= c <= tc + 1 and tr <= r <= tr + 1:
            return tile
    return None


def tile_squares(tile: Tile) -> tuple[Square, ...]:
    """Return the four spaces a special tile covers."""
    return footprint(tile.origin, "large")


def chebyshev(a: Square, b: Square) -> int:
    """Return the number of king's steps between two spaces."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def are_adjacent(a: Figure, b: Figure) -> bool:
    """Return whether two figures are adjacent (rulebook *Adjacency*, R21).

    Two figures are adjacent when a space of one is exactly one space from a
    space of the other, orthogonally or diagonally (for a Large figure one
    space is enough). A character sharing a space with a terrain piece is
    adjacent to it. A figure is never adjacent to itself, and a figure off the
    board is adjacent to nothing. Project ruling: two characters sharing a
    space (only possible mid pass-through) are adjacent only if some other
    pair of their spaces is one apart.
    """
    if a.id == b.id:
        return False
    if a.size == "medium" and b.size == "medium":
        sa, sb = a.square, b.square
        if sa is None or sb is None:
            return False
        # chebyshev(sa, sb), inlined: this is among the engine's most frequent calls
        dc = sa[0] - sb[0]
        dr = sa[1] - sb[1]
        if -1 <= dc <= 1 and -1 <= dr <= 1:
            return bool(dc or dr) or a.terrain != b.terrain
        return False
    squares_a = figure_squares(a)
    squares_b = figure_squares(b)
    if not squares_a or not squares_b:
        return False
    shared = False
    for sa in squares_a:
        for sb in squares_b:
            distance = chebyshev(sa, sb)
            if distance == 1:
                return True
            if distance == 0:
                shared = True
    # Only a character inside a terrain piece counts as adjacent by sharing.
    return shared and a.terrain != b.terrain


def adjacent_figures(figures: Sequence[Figure], figure: Figure) -> tuple[Figure, ...]:
    """Return the figures (in the given order) adjacent to figure."""
    return tuple(other for other in figures if are_adjacent(figure, other))


def line_starts(origin: Square, size: Size, direction: Direction) -> tuple[Square, ...]:
    """Return the spaces of a figure at origin that a line in direction is drawn from.

    A Medium figure draws from its one space. A Large figure draws an
    orthogonal line from the two spaces of its side that faces the direction,
    and a diagonal line from the one corner that faces it.
    """
    if size == "medium":
        return (origin,)
    dc, dr = direction
    c, r = origin
    if dc != 0 and dr != 0:
        return ((c + (1 if dc > 0 else 0), r + (1 if dr > 0 else 0)),)
    squares = footprint(origin, size)
    return tuple(s for s in squares if (s[0] + dc, s[1] + dr) not in squares)


def line(board: Board, origin: Square, size: Size, direction: Direction) -> Ranks:
    """Return the ranks of the straight line from a figure at origin up to the board edge.

    Each rank holds the on-board spaces one step further out: two spaces for
    an orthogonal line from a Large figure, otherwise one (rulebook *Lines*).
    The line stops at the first rank entirely off the board.
    """
    dc, dr = direction
    starts = line_starts(origin, size, direction)
    ranks: list[tuple[Square, ...]] = []
    k = 1
    while True:
        rank = tuple(
            (c + k * dc, r + k * dr) for c, r in starts if on_board(board, (c + k * dc, r + k * dr))
        )
        if not rank:
            return tuple(ranks)
        ranks.append(rank)
        k += 1


def _obscuring_squares(
    board: Board, figures: Iterable[Figure], exclude: frozenset[str]
) -> tuple[frozenset[Square], frozenset[Square]]:
    """Return the spaces holding obscuring terrain and those holding obscuring characters."""
    terrain: set[Square] = set()
    for tile in board.tiles:
        if tile.obscuring:
            terrain.update(tile_squares(tile))
    characters: set[Square] = set()
    for figure in figures:
        if figure.obscuring and figure.id not in exclude:
            (terrain if figure.terrain else characters).update(figure_squares(figure))
    return frozenset(terrain), frozenset(characters)


def _aligned(a: Square, b: Square) -> Direction | None:
    """Return the unit step from a toward b if they share a row, column or diagonal."""
    dc, dr = b[0] - a[0], b[1] - a[1]
    if (dc, dr) == (0, 0):
        return None
    if dc == 0 or dr == 0 or abs(dc) == abs(dr):
        return ((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))
    return None


def _clear(
    a: Square,
    b: Square,
    terrain: frozenset[Square],
    characters: frozenset[Square],
) -> bool:
    """Return whether R18 gives line of sight from space a to space b."""
    unit = _aligned(a, b)
    if unit is None or b in terrain:
        return False
    c, r = a[0] + unit[0], a[1] + unit[1]
    while (c, r) != b:
        if (c, r) in terrain or (c, r) in characters:
            return False
        c, r = c + unit[0], r + unit[1]
    return True


def has_line_of_sight(
    board: Board, figures: Sequence[Figure], source: Figure, target: Square | Figure
) -> bool:
    """Return whether source has line of sight to a space or a figure (R18).

    There is line of sight from one space to another when both lie on one
    line (same row, column or diagonal), no space strictly between them holds
    obscuring terrain (an obscuring special tile or terrain piece) or an
    obscuring character, and the far space holds no obscuring terrain. A
    Large figure may use any of its spaces, as origin or as target.

    Project ruling: the source and the target figure never obscure a line to
    or from themselves (a Large figure's own body does not block its own
    sight lines). The source's own spaces are never targets, so a target
    space inside the source gives False. A figure off the board sees nothing
    and is seen by nothing.
    """
    origins = figure_squares(source)
    if isinstance(target, Figure):
        targets = figure_squares(target)
        exclude = frozenset((source.id, target.id))
    else:
        targets = (target,) if on_board(board, target) else ()
        exclude = frozenset((source.id,))
    targets = tuple(t for t in targets if t not in origins)
    if not origins or not targets:
        return False
    terrain, characters = _obscuring_squares(board, figures, exclude)
    return any(_clear(o, t, terrain, characters) for o in origins for t in targets)


def squares_in_sight(board: Board, figures: Sequence[Figure], source: Figure) -> frozenset[Square]:
    """Return every board space, other than its own, that source has line of sight to (R18).

    Agrees with :func:`has_line_of_sight` for a target space.
    """
    origins = figure_squares(source)
    terrain, characters = _obscuring_squares(board, figures, frozenset((source.id,)))
    seen: set[Square] = set()
    for c0, r0 in origins:
        for dc, dr in DIRECTIONS:
            c, r = c0 + dc, r0 + dr
            # Walk out until the first space that stops the line.
            while 0 <= c < board.width and 0 <= r < board.height:
                if (c, r) in terrain:
                    break  # Obscuring terrain hides its own space too.
                seen.add((c, r))
                if (c, r) in characters:
                    break  # An obscuring character is seen but hides what is beyond.
                c, r = c + dc, r + dr
    return frozenset(seen).difference(origins)


def _axis_sign(lo_a: int, hi_a: int, lo_b: int, hi_b: int) -> int:
    """Return +1 if span b lies wholly after span a, -1 if wholly before, else 0."""
    if lo_b > hi_a:
        return 1
    if hi_b < lo_a:
        return -1
    return 0


def push_direction(source: Figure, target: Figure) -> Direction:
    """Return the direction directly away from source for target (R9).

    The direction is the sign of the column difference and the sign of the
    row difference between the nearest spaces of the two figures. Where
    several pairs are nearest, an orthogonal pair is used (R9): the pairs at
    minimum orthogonal (Manhattan) distance, which all give the same signs:
    along each axis the sign is 0 when the two figures' spans overlap, else
    the side the target lies on. (Pairs merely tied on Chebyshev distance can
    disagree, e.g. a Medium figure two columns left of a Large one: the
    answer is due east, not south-east.)

    :raises ValueError: if either figure is off the board or they overlap.
    """
    if source.square is None or target.square is None:
        raise ValueError(f"no push direction: {source.id} or {target.id} is off the board")
    extent_s = 1 if source.size == "large" else 0
    extent_t = 1 if target.size == "large" else 0
    (sc, sr), (tc, tr) = source.square, target.square
    dc = _axis_sign(sc, sc + extent_s, tc, tc + extent_t)
    dr = _axis_sign(sr, sr + extent_s, tr, tr + extent_t)
    if (dc, dr) == (0, 0):
        raise ValueError(f"no push direction: {source.id} and {target.id} overlap")
    return (dc, dr)


def pull_direction(source: Figure, target: Figure) -> Direction:
    """Return the direction directly toward source for target (R20).

    :raises ValueError: if either figure is off the board or they overlap.
    """
    dc, dr = push_direction(source, target)
    return (-dc, -dr)
