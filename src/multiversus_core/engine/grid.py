"""Square-grid geometry and line of sight, for every game played on a board of tiles.

Rulings of tiles-d6 (T4, T5, T6, T31, T33, T34); later games reuse them (worlds-collide:
W1, W3, W37). :func:`reach` and :func:`connected` serve any game's movement and groups.

A board is a rectangle of square tiles, one unit per tile. A tile is a
:data:`Coord`, ``(column, row)`` counted from 0 at the top left (T31); tiles
outside the board do not exist. Every tile has up to 8 neighbours, and the
distance between two tiles is the Chebyshev distance (T4).

Everything here is a pure function of coordinates and of predicates the caller
passes in (which tiles block movement, which block sight): the module knows no
terrain and no units. Arithmetic is exact: coordinates are doubled, so tile
centres are odd integers, tile edges even ones, and a lattice corner has two
even coordinates; no float is ever compared.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Final, NamedTuple, TypeAlias

import msgspec

Coord: TypeAlias = tuple[int, int]
"""A tile: ``(column, row)``, counted from 0 at the top left (T31)."""

Corner: TypeAlias = tuple[Coord, Coord]
"""The two tiles that touch a line of sight at a lattice corner without containing it."""

NEIGHBOUR_OFFSETS: Final[tuple[Coord, ...]] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)
"""The 8 ``(column, row)`` offsets of a tile's neighbours in reading order: north-west,
north, north-east, west, east, south-west, south, south-east (the order of
:meth:`Grid.tiles`)."""


class Grid(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A rectangular board of square tiles (T4).

    :raises ValueError: if ``width`` or ``height`` is below 1.
    """

    width: Annotated[int, msgspec.Meta(ge=1)]
    """The number of columns (at least 1)."""
    height: Annotated[int, msgspec.Meta(ge=1)]
    """The number of rows (at least 1)."""

    def __post_init__(self) -> None:
        # The schema's bounds hold only when decoding; this holds for constructors too.
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a grid is at least 1 by 1, not {self.width} by {self.height}")

    def contains(self, at: Coord) -> bool:
        """True if the tile is on the board."""
        column, row = at
        return 0 <= column < self.width and 0 <= row < self.height

    def tiles(self) -> Iterator[Coord]:
        """Every tile of the board, row by row from the top, each row left to right."""
        for row in range(self.height):
            for column in range(self.width):
                yield (column, row)


def square_name(at: Coord) -> str:
    """A square as players name it: a column letter (``a``, ..., ``z``, ``aa``, ...) and the row
    counted from 1: ``"c4"`` for (2, 3)."""
    column, row = at
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{row + 1}"


def parse_square_name(text: str) -> Coord | None:
    """The square a player's name for it stands for (``"c4"`` is (2, 3)), whatever the case
    and surrounding blanks; None if ``text`` is no square name. The board may not hold it."""
    text = text.strip().lower()
    letters = text.rstrip("0123456789")
    digits = text[len(letters) :]
    if not letters or not digits or not letters.isascii() or not letters.isalpha():
        return None
    if len(letters) > 2 or len(digits) > 3 or int(digits) < 1:
        return None
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - ord("a") + 1
    return column - 1, int(digits) - 1


def distance(a: Coord, b: Coord) -> int:
    """The distance between two tiles in steps: the Chebyshev distance (T4)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def is_adjacent(a: Coord, b: Coord) -> bool:
    """True if the tiles are neighbours: distance 1 (a tile is not its own neighbour)."""
    return distance(a, b) == 1


def neighbours(grid: Grid, at: Coord) -> tuple[Coord, ...]:
    """The neighbours of a tile that are on the board, in the order of :data:`NEIGHBOUR_OFFSETS`.

    A tile off the board does not exist, so it has no neighbours: ``()``.
    """
    if not grid.contains(at):
        return ()
    column, row = at
    return tuple(
        (column + dc, row + dr)
        for dc, dr in NEIGHBOUR_OFFSETS
        if grid.contains((column + dc, row + dr))
    )


def centre_tiles(grid: Grid) -> tuple[Coord, ...]:
    """The centre of the board (T27): the middle column(s) by the middle row(s), row by row.

    A side of odd length has one middle line, a side of even length the two middle
    ones, so the centre is 1, 2 or 4 tiles.
    """
    return tuple((column, row) for row in _middle(grid.height) for column in _middle(grid.width))


def _middle(length: int) -> tuple[int, ...]:
    half = length // 2
    return (half,) if length % 2 else (half - 1, half)


def step_open(
    grid: Grid, start: Coord, end: Coord, blocks_movement: Callable[[Coord], bool]
) -> bool:
    """True if the terrain lets a unit step from ``start`` to ``end`` (T5, T33).

    The step must go from a tile on the board to one of its neighbours on the
    board, and ``end`` must not block movement. A diagonal step is barred only
    when *both* orthogonal tiles it passes between block movement (a wall joined
    at a corner is solid); one of them blocking is not enough.

    ``blocks_movement`` is about tiles only: never count units in it. Units bar
    a step only by standing on its destination (T33), and that check, with the
    rule that a unit may not pass through any unit, is the caller's.
    """
    if not (grid.contains(start) and grid.contains(end) and is_adjacent(start, end)):
        return False
    if blocks_movement(end):
        return False
    return not corner_closed(start, end, blocks_movement)


def corner_closed(start: Coord, end: Coord, closes: Callable[[Coord], bool]) -> bool:
    """True if a diagonal step passes between two tiles that both close the corner (T5, W37).

    The two tiles are the orthogonal ones the step passes between; one of them
    closing is not enough. An orthogonal step never passes a corner: False.
    Only those two tiles are asked about, never ``start`` or ``end``.
    """
    (c0, r0), (c1, r1) = start, end
    if c0 == c1 or r0 == r1:
        return False
    return closes((c1, r0)) and closes((c0, r1))


@functools.lru_cache(maxsize=16)
def _neighbour_table(width: int, height: int) -> dict[Coord, tuple[Coord, ...]]:
    grid = Grid(width, height)
    return {at: neighbours(grid, at) for at in grid.tiles()}


def reach(
    grid: Grid,
    start: Coord,
    budget: int,
    step_cost: Callable[[Coord, Coord], int | None],
) -> dict[Coord, int]:
    """The least cost of reaching every tile within ``budget`` of ``start``, by steps to neighbours.

    ``step_cost(a, b)`` is the cost of one step from ``a`` to its neighbour ``b``
    on the board, or None if that step cannot be taken; it may depend on
    anything the caller likes (terrain, levels, units), so long as it is never
    negative. ``start`` costs 0. A start off the board, or a negative budget,
    reaches nothing: ``{}``. The tiles are keyed in the order they were first
    found, the same for the same arguments.

    Dijkstra's algorithm on a bucket queue: costs are small integers, so the
    tiles wait in one list per cost and no heap is needed.

    :raises ValueError: if ``step_cost`` gives a negative cost.
    """
    if budget < 0 or not grid.contains(start):
        return {}
    table = _neighbour_table(grid.width, grid.height)
    best = {start: 0}
    buckets: list[list[Coord]] = [[start]]
    cost = 0
    while cost < len(buckets):
        bucket = buckets[cost]
        i = 0
        while i < len(bucket):  # a step costing 0 adds to the bucket being read
            at = bucket[i]
            i += 1
            if best[at] != cost:  # found again later at a lower cost
                continue
            for to in table[at]:
                step = step_cost(at, to)
                if step is None:
                    continue
                total = cost + step
                if total > budget:
                    continue
                if total < cost:
                    raise ValueError(f"a step from {at} to {to} costs {step}, below 0")
                known = best.get(to)
                if known is None or total < known:
                    best[to] = total
                    while len(buckets) <= total:
                        buckets.append([])
                    buckets[total].append(to)
        cost += 1
    return best


def connected(squares: Iterable[Coord]) -> bool:
    """True if the tiles form one group, joined tile to tile by 8-adjacency (distance 1).

    No tile, or one, is a group: True. A tile given twice counts once.
    """
    rest = set(squares)
    if len(rest) <= 1:
        return True
    stack = [rest.pop()]
    while stack:
        column, row = stack.pop()
        for dc, dr in NEIGHBOUR_OFFSETS:
            near = (column + dc, row + dr)
            if near in rest:
                rest.remove(near)
                stack.append(near)
    return not rest


class _Trace(NamedTuple):
    """A centre-to-centre segment, every tile given as an offset from its start tile."""

    crossed: tuple[Coord, ...]
    """The tiles whose interior it passes through, start excluded, end included, in order."""
    between: tuple[Coord, ...]
    """``crossed`` without its end tile: the tiles that can block sight (T6)."""
    corners: tuple[Corner, ...]
    """The tile pairs of the lattice corners it passes exactly through, in order."""


@functools.lru_cache(maxsize=4096)
def _trace(dc: int, dr: int) -> _Trace:
    # A segment depends only on the offset between its ends: a board of side n has
    # (2n - 1) ** 2 of them, so the cache holds every segment of boards up to 32 a side.
    # Doubled coordinates: the segment runs from (1, 1) to (2 * dc + 1, 2 * dr + 1),
    # and the i-th vertical edge it meets is at distance 2i - 1 of the start along x,
    # i.e. at t = (2i - 1) / (2 |dc|); likewise for horizontal edges. Comparing the
    # crossing times cross-multiplied keeps everything in integers. An edge never
    # holds a centre, so the segment never runs along one: it only meets edges
    # one at a time or, at a lattice corner, two at once.
    sc = 1 if dc > 0 else -1
    sr = 1 if dr > 0 else -1
    ac, ar = abs(dc), abs(dr)
    column = row = 0
    i = j = 1  # the next vertical and horizontal edge the segment meets
    crossed: list[Coord] = []
    corners: list[Corner] = []
    while i <= ac or j <= ar:
        if j > ar:
            order = -1
        elif i > ac:
            order = 1
        else:
            order = (2 * i - 1) * ar - (2 * j - 1) * ac
        if order < 0:  # through a vertical edge
            column += sc
            i += 1
        elif order > 0:  # through a horizontal edge
            row += sr
            j += 1
        else:  # exactly through a corner: the two other tiles there only touch it
            corners.append(((column + sc, row), (column, row + sr)))
            column += sc
            row += sr
            i += 1
            j += 1
        crossed.append((column, row))
    return _Trace(tuple(crossed), tuple(crossed[:-1]), tuple(corners))


def crossed(start: Coord, end: Coord) -> tuple[Coord, ...]:
    """The tiles a line from the centre of ``start`` to the centre of ``end`` crosses (T34).

    A tile is crossed when the segment passes through its interior; a tile it
    only touches at a corner is not crossed. In order from ``start`` to ``end``:
    the start tile is never included (the shooter's own tile never counts), the
    end tile always is (the target's tile does). ``start == end`` crosses nothing.
    Every tile returned lies in the rectangle spanned by the two ends.
    """
    c0, r0 = start
    trace = _trace(end[0] - c0, end[1] - r0)
    return tuple((c0 + dc, r0 + dr) for dc, dr in trace.crossed)


def corners(start: Coord, end: Coord) -> tuple[Corner, ...]:
    """The lattice corners the centre-to-centre segment passes exactly through, in order.

    Each corner is given as the pair of tiles that touch the segment there
    without containing it: the two tiles the corner rule of T6 asks about. The
    first tile of a pair shares a row with the tile the segment leaves at that
    corner, the second shares its column. Corners at the segment's ends cannot
    occur (its ends are tile centres). Both tiles lie in the rectangle spanned
    by the two ends.
    """
    c0, r0 = start
    trace = _trace(end[0] - c0, end[1] - r0)
    return tuple(((c0 + a[0], r0 + a[1]), (c0 + b[0], r0 + b[1])) for a, b in trace.corners)


def line_of_sight(start: Coord, end: Coord, blocks_sight: Callable[[Coord], bool]) -> bool:
    """True if there is line of sight from the centre of ``start`` to the centre of ``end`` (T6).

    Sight is blocked when the segment passes through the interior of a tile that
    blocks sight, other than the two end tiles (see :func:`crossed`), or passes
    exactly through a corner where both tiles touching it there block sight (see
    :func:`corners`); a corner with one open tile lets sight through.

    ``blocks_sight`` is about tiles only: units never block line of sight. The
    answer is symmetric: ``line_of_sight(a, b, f) == line_of_sight(b, a, f)``, and
    a tile sees itself. Only tiles between the two ends are asked about, so two
    tiles on the board never make it ask about a tile off the board.
    """
    c0, r0 = start
    trace = _trace(end[0] - c0, end[1] - r0)
    for dc, dr in trace.between:
        if blocks_sight((c0 + dc, r0 + dr)):
            return False
    for (ac, ar), (bc, br) in trace.corners:
        if blocks_sight((c0 + ac, r0 + ar)) and blocks_sight((c0 + bc, r0 + br)):
            return False
    return True
