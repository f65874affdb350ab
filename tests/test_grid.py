"""Square-grid geometry and line of sight: rulings T4, T5, T6, T27, T31, T33 and T34 of tiles-d6;
reach (least step costs) and connected groups, for any game."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable
from fractions import Fraction

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from multiversus_core.engine.grid import (
    NEIGHBOUR_OFFSETS,
    Coord,
    Corner,
    Grid,
    centre_tiles,
    connected,
    corner_closed,
    corners,
    crossed,
    distance,
    is_adjacent,
    line_of_sight,
    neighbours,
    reach,
    step_open,
)

MAP = """\
..T....#....
..T....#.~~.
.......+.~~.
###=##......
......^^..T.
.T....^^....
....^^....T.
.T..^^......
......##=###
.~~.+.......
.~~.#....T..
....#....T..
"""
"""The first tiles-d6 map. Only its trees ``T`` and walls ``#`` (movement and sight),
doors ``+`` (sight only) and windows ``=`` (movement only) matter here."""

ROWS = MAP.splitlines()
MAP_GRID = Grid(width=len(ROWS[0]), height=len(ROWS))


def _on_map(at: Coord) -> str:
    column, row = at
    return ROWS[row][column]


def _map_blocks_movement(at: Coord) -> bool:
    return _on_map(at) in "T#="


def _map_blocks_sight(at: Coord) -> bool:
    return _on_map(at) in "T#+"


def _blocking(*tiles: Coord) -> Callable[[Coord], bool]:
    """A tile predicate: true on exactly the given tiles."""
    blocked = frozenset(tiles)
    return lambda at: at in blocked


OPEN = _blocking()
"""Open ground everywhere."""

coords = st.tuples(st.integers(-4, 9), st.integers(-4, 9))
walls = st.frozensets(st.tuples(st.integers(-4, 9), st.integers(-4, 9)), max_size=60)


# An independent reference: every tile and corner tested against the segment with fractions.


def _times_inside(start: int, delta: int, low: int, high: int) -> tuple[Fraction, Fraction] | None:
    """The open interval of t where low < start + t * delta < high, or None if it is empty."""
    if delta == 0:
        return (Fraction(-1), Fraction(2)) if low < start < high else None
    a, b = Fraction(low - start, delta), Fraction(high - start, delta)
    return (min(a, b), max(a, b))


def _entry(start: Coord, end: Coord, tile: Coord) -> Fraction | None:
    """When the doubled segment enters the open interior of ``tile``, or None if it never does."""
    x = _times_inside(2 * start[0] + 1, 2 * (end[0] - start[0]), 2 * tile[0], 2 * tile[0] + 2)
    y = _times_inside(2 * start[1] + 1, 2 * (end[1] - start[1]), 2 * tile[1], 2 * tile[1] + 2)
    if x is None or y is None:
        return None
    low, high = max(x[0], y[0]), min(x[1], y[1])
    return low if low < high and low < 1 and high > 0 else None


def _box(start: Coord, end: Coord, margin: int = 1) -> list[Coord]:
    return [
        (column, row)
        for column in range(min(start[0], end[0]) - margin, max(start[0], end[0]) + margin + 1)
        for row in range(min(start[1], end[1]) - margin, max(start[1], end[1]) + margin + 1)
    ]


def _reference_crossed(start: Coord, end: Coord) -> tuple[Coord, ...]:
    entered = [
        (when, tile)
        for tile in _box(start, end)
        if tile != start and (when := _entry(start, end, tile)) is not None
    ]
    return tuple(tile for _, tile in sorted(entered))


def _reference_corners(start: Coord, end: Coord) -> list[frozenset[Coord]]:
    """Each lattice corner strictly inside the segment, as the set of its two untouched tiles."""
    if start == end:
        return []
    (x0, y0), (x1, y1) = (2 * start[0] + 1, 2 * start[1] + 1), (2 * end[0] + 1, 2 * end[1] + 1)
    found = []
    for column, row in _box(start, end):
        x, y = 2 * column, 2 * row  # the top-left corner of that tile
        if (x - x0) * (y1 - y0) != (y - y0) * (x1 - x0):
            continue
        t = Fraction(x - x0, x1 - x0) if x1 != x0 else Fraction(y - y0, y1 - y0)
        if 0 < t < 1:
            around = [(column - 1, row - 1), (column, row - 1), (column - 1, row), (column, row)]
            untouched = frozenset(tile for tile in around if _entry(start, end, tile) is None)
            found.append((t, untouched))
    return [tiles for _, tiles in sorted(found, key=lambda item: item[0])]


def _reference_sight(start: Coord, end: Coord, blocks: Callable[[Coord], bool]) -> bool:
    return not any(blocks(tile) for tile in crossed(start, end)[:-1]) and not any(
        blocks(a) and blocks(b) for a, b in corners(start, end)
    )


# T4 and T31: the board, its coordinates, neighbours and distance


def test_t31_coordinates_are_column_then_row_from_0_at_the_top_left() -> None:
    grid = Grid(width=3, height=2)
    assert list(grid.tiles()) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    assert grid.contains((2, 1))
    assert not grid.contains((1, 2))  # row 2 of a 2-row board
    assert _on_map((2, 0)) == "T"  # the tree in column 2 of the top row
    assert _on_map((7, 2)) == "+"  # the door in column 7 of the third row


def test_t4_tiles_outside_the_board_do_not_exist() -> None:
    grid = Grid(width=4, height=3)
    outside = [(-1, 0), (0, -1), (4, 0), (0, 3), (4, 3), (-1, -1)]
    assert not any(grid.contains(at) for at in outside)
    assert all(grid.contains(at) for at in grid.tiles())
    assert len(list(grid.tiles())) == 12


@pytest.mark.parametrize(("width", "height"), [(0, 1), (1, 0), (-2, 3)])
def test_t4_a_board_has_at_least_one_tile(width: int, height: int) -> None:
    with pytest.raises(ValueError, match="at least 1 by 1"):
        Grid(width=width, height=height)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"width": width, "height": height}, Grid)


def test_t4_a_board_decodes_and_encodes_as_its_two_sides() -> None:
    grid = msgspec.json.decode(b'{"width":12,"height":12}', type=Grid)
    assert grid == MAP_GRID
    assert msgspec.json.encode(grid) == b'{"width":12,"height":12}'


def test_t4_neighbours_are_the_8_around_in_reading_order() -> None:
    assert NEIGHBOUR_OFFSETS == (
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    )
    assert neighbours(Grid(width=5, height=5), (2, 2)) == (
        (1, 1),
        (2, 1),
        (3, 1),
        (1, 2),
        (3, 2),
        (1, 3),
        (2, 3),
        (3, 3),
    )


def test_t4_a_corner_tile_has_3_neighbours_on_the_board() -> None:
    grid = Grid(width=4, height=3)
    assert neighbours(grid, (0, 0)) == ((1, 0), (0, 1), (1, 1))
    assert neighbours(grid, (3, 0)) == ((2, 0), (2, 1), (3, 1))
    assert neighbours(grid, (0, 2)) == ((0, 1), (1, 1), (1, 2))
    assert neighbours(grid, (3, 2)) == ((2, 1), (3, 1), (2, 2))


def test_t4_an_edge_tile_has_5_neighbours_on_the_board() -> None:
    grid = Grid(width=4, height=3)
    assert neighbours(grid, (1, 0)) == ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1))
    assert neighbours(grid, (0, 1)) == ((0, 0), (1, 0), (1, 1), (0, 2), (1, 2))
    assert neighbours(grid, (3, 1)) == ((2, 0), (3, 0), (2, 1), (2, 2), (3, 2))
    assert neighbours(grid, (2, 2)) == ((1, 1), (2, 1), (3, 1), (1, 2), (3, 2))


def test_t4_a_one_tile_board_has_no_neighbours_and_nothing_off_the_board_has_any() -> None:
    assert neighbours(Grid(width=1, height=1), (0, 0)) == ()
    assert neighbours(Grid(width=4, height=3), (4, 0)) == ()
    assert neighbours(Grid(width=4, height=3), (-1, -1)) == ()


@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_t4_neighbours_are_exactly_the_tiles_on_the_board_at_distance_1(
    width: int, height: int, data: st.DataObject
) -> None:
    grid = Grid(width=width, height=height)
    at = data.draw(st.sampled_from(list(grid.tiles())))
    found = neighbours(grid, at)
    assert set(found) == {tile for tile in grid.tiles() if distance(at, tile) == 1}
    assert all(is_adjacent(at, tile) for tile in found)
    assert list(found) == sorted(found, key=lambda tile: (tile[1], tile[0]))  # reading order


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (1, 0), 1),
        ((0, 0), (1, 1), 1),
        ((0, 0), (3, 1), 3),
        ((2, 5), (4, 1), 4),
        ((0, 0), (11, 11), 11),
        ((7, 3), (0, 3), 7),
        ((1, 9), (10, 2), 9),
    ],
)
def test_t4_distance_is_chebyshev(a: Coord, b: Coord, expected: int) -> None:
    assert distance(a, b) == expected
    assert distance(b, a) == expected


def test_t4_adjacent_means_distance_1_never_the_tile_itself() -> None:
    assert is_adjacent((3, 3), (4, 4))
    assert is_adjacent((3, 3), (3, 2))
    assert not is_adjacent((3, 3), (3, 3))
    assert not is_adjacent((3, 3), (5, 4))


# T5 and T33: a step


GRID = Grid(width=6, height=6)


def test_t5_a_step_goes_to_one_of_the_8_neighbours() -> None:
    assert all(step_open(GRID, (2, 2), end, OPEN) for end in neighbours(GRID, (2, 2)))
    assert not step_open(GRID, (2, 2), (2, 2), OPEN)  # staying put is not a step
    assert not step_open(GRID, (2, 2), (4, 2), OPEN)
    assert not step_open(GRID, (2, 2), (4, 4), OPEN)


def test_t5_a_step_may_not_leave_the_board() -> None:
    assert not step_open(GRID, (0, 0), (-1, 0), OPEN)
    assert not step_open(GRID, (0, 0), (-1, -1), OPEN)
    assert not step_open(GRID, (5, 5), (6, 5), OPEN)
    assert not step_open(GRID, (6, 5), (5, 5), OPEN)  # nor start off it


def test_t5_a_step_may_not_enter_a_tile_that_blocks_movement() -> None:
    blocks = _blocking((3, 2), (3, 3))
    assert not step_open(GRID, (2, 2), (3, 2), blocks)
    assert not step_open(GRID, (2, 2), (3, 3), blocks)
    assert step_open(GRID, (2, 2), (2, 3), blocks)


def test_t5_a_diagonal_step_past_one_blocking_tile_is_open() -> None:
    # from (2, 2) to (3, 3) the step passes between (3, 2) and (2, 3)
    assert step_open(GRID, (2, 2), (3, 3), _blocking((3, 2)))
    assert step_open(GRID, (2, 2), (3, 3), _blocking((2, 3)))


def test_t5_a_diagonal_step_between_two_blocking_tiles_is_barred() -> None:
    wall = _blocking((3, 2), (2, 3))  # a wall joined at a corner is solid
    assert not step_open(GRID, (2, 2), (3, 3), wall)
    assert not step_open(GRID, (3, 3), (2, 2), wall)
    # the other diagonal through that corner passes between the other two tiles
    assert not step_open(GRID, (3, 2), (2, 3), _blocking((2, 2), (3, 3)))
    assert step_open(GRID, (3, 2), (2, 3), _blocking((2, 2), (4, 4)))


@pytest.mark.parametrize(
    ("start", "end", "orthogonals"),
    [
        ((2, 2), (1, 1), ((1, 2), (2, 1))),
        ((2, 2), (3, 1), ((3, 2), (2, 1))),
        ((2, 2), (1, 3), ((1, 2), (2, 3))),
        ((2, 2), (3, 3), ((3, 2), (2, 3))),
    ],
)
def test_t5_the_corner_rule_holds_in_every_diagonal_direction(
    start: Coord, end: Coord, orthogonals: tuple[Coord, Coord]
) -> None:
    first, second = orthogonals
    assert step_open(GRID, start, end, _blocking(first))
    assert step_open(GRID, start, end, _blocking(second))
    assert not step_open(GRID, start, end, _blocking(first, second))


def test_t5_an_orthogonal_step_ignores_the_tiles_beside_it() -> None:
    assert step_open(GRID, (2, 2), (3, 2), _blocking((2, 1), (3, 1), (2, 3), (3, 3)))


def test_t5_a_window_blocks_movement_and_a_door_does_not() -> None:
    assert not step_open(MAP_GRID, (3, 2), (3, 3), _map_blocks_movement)  # the window
    assert not step_open(MAP_GRID, (2, 2), (3, 3), _map_blocks_movement)
    assert step_open(MAP_GRID, (6, 2), (7, 2), _map_blocks_movement)  # the door
    assert step_open(MAP_GRID, (7, 2), (8, 1), _map_blocks_movement)
    assert not step_open(MAP_GRID, (6, 1), (7, 1), _map_blocks_movement)  # the wall


def _can_step(start: Coord, end: Coord, blocks: Callable[[Coord], bool], units: set[Coord]) -> bool:
    """How a game combines the tiles and its units (T5, T33)."""
    return step_open(GRID, start, end, blocks) and end not in units


def test_t33_units_beside_a_diagonal_step_never_bar_it() -> None:
    units = {(3, 2), (2, 3)}  # on both orthogonal tiles
    assert _can_step((2, 2), (3, 3), OPEN, units)
    # one unit and one wall do not make a corner either: the rule counts tiles only
    assert _can_step((2, 2), (3, 3), _blocking((3, 2)), {(2, 3)})


def test_t33_a_unit_bars_a_step_only_by_standing_on_its_destination() -> None:
    assert not _can_step((2, 2), (3, 3), OPEN, {(3, 3)})
    assert not _can_step((2, 2), (2, 3), OPEN, {(2, 3)})


def test_t33_the_step_rule_is_asked_about_tiles_only() -> None:
    assert list(inspect.signature(step_open).parameters) == [
        "grid",
        "start",
        "end",
        "blocks_movement",
    ]
    asked: list[Coord] = []

    def blocks(at: Coord) -> bool:
        asked.append(at)
        return False

    assert step_open(GRID, (2, 2), (3, 3), blocks)
    assert set(asked) <= {(3, 3), (3, 2), (2, 3)}  # the destination and the two orthogonals


# T6: line of sight


def test_t6_a_tile_sees_itself() -> None:
    assert line_of_sight((2, 2), (2, 2), _blocking((2, 2)))


def test_t6_open_ground_never_blocks() -> None:
    assert line_of_sight((0, 0), (11, 5), OPEN)
    assert line_of_sight((0, 0), (0, 11), OPEN)


def test_t6_a_wall_between_blocks() -> None:
    assert not line_of_sight((0, 0), (4, 0), _blocking((2, 0)))
    assert not line_of_sight((0, 0), (0, 4), _blocking((0, 3)))
    assert not line_of_sight((0, 0), (3, 3), _blocking((2, 2)))
    assert not line_of_sight((0, 0), (2, 1), _blocking((1, 0)))
    assert not line_of_sight((0, 0), (2, 1), _blocking((1, 1)))


def test_t6_a_wall_on_an_end_tile_does_not_block() -> None:
    assert line_of_sight((0, 0), (4, 0), _blocking((0, 0)))
    assert line_of_sight((0, 0), (4, 0), _blocking((4, 0)))
    assert line_of_sight((0, 0), (4, 0), _blocking((0, 0), (4, 0)))
    assert line_of_sight((1, 1), (4, 3), _blocking((1, 1), (4, 3)))


def test_t6_a_wall_beside_the_line_does_not_block() -> None:
    assert line_of_sight((0, 0), (4, 0), _blocking((2, 1)))
    # (0, 0) to (2, 1) crosses (1, 0) and (1, 1) but not (0, 1) or (2, 0)
    assert line_of_sight((0, 0), (2, 1), _blocking((0, 1), (2, 0)))


def test_t6_a_corner_between_two_walls_blocks() -> None:
    # (0, 0) to (1, 1) passes exactly through the corner where (1, 0) and (0, 1) meet
    assert not line_of_sight((0, 0), (1, 1), _blocking((1, 0), (0, 1)))
    assert not line_of_sight((1, 1), (0, 0), _blocking((1, 0), (0, 1)))


def test_t6_a_corner_between_a_wall_and_open_ground_does_not_block() -> None:
    assert line_of_sight((0, 0), (1, 1), _blocking((1, 0)))
    assert line_of_sight((0, 0), (1, 1), _blocking((0, 1)))
    # nor do two walls at different corners of a long diagonal
    assert line_of_sight((0, 0), (3, 3), _blocking((1, 0), (1, 2)))


def test_t6_a_long_shallow_line_through_a_corner() -> None:
    # centres (0.5, 0.5) to (5.5, 1.5): crosses (1, 0) and (2, 0), passes exactly
    # through the corner (3, 1) between (3, 0) and (2, 1), then crosses (3, 1), (4, 1)
    start, end = (0, 0), (5, 1)
    assert crossed(start, end) == ((1, 0), (2, 0), (3, 1), (4, 1), (5, 1))
    assert corners(start, end) == (((3, 0), (2, 1)),)
    for tile in [(1, 0), (2, 0), (3, 1), (4, 1)]:
        assert not line_of_sight(start, end, _blocking(tile))
    assert line_of_sight(start, end, _blocking((3, 0)))
    assert line_of_sight(start, end, _blocking((2, 1)))
    assert not line_of_sight(start, end, _blocking((3, 0), (2, 1)))
    assert line_of_sight(start, end, _blocking((0, 1), (1, 1), (4, 0), (5, 0)))


def test_t6_a_long_shallow_line_without_a_corner() -> None:
    # centres (0.5, 0.5) to (6.5, 1.5): the line rises to row 1 at x = 3.5, inside column 3
    start, end = (0, 0), (6, 1)
    assert crossed(start, end) == ((1, 0), (2, 0), (3, 0), (3, 1), (4, 1), (5, 1), (6, 1))
    assert corners(start, end) == ()
    assert not line_of_sight(start, end, _blocking((3, 0)))
    assert not line_of_sight(start, end, _blocking((3, 1)))
    assert line_of_sight(start, end, _blocking((4, 0), (2, 1), (0, 1), (6, 0)))


def test_t6_units_never_block_sight() -> None:
    # the rule is asked about tiles only; a game passes its terrain, never its units
    assert list(inspect.signature(line_of_sight).parameters) == ["start", "end", "blocks_sight"]
    assert "units never block" in (line_of_sight.__doc__ or "")


def test_t6_a_door_blocks_sight_and_a_window_does_not() -> None:
    assert not line_of_sight((6, 2), (8, 2), _map_blocks_sight)  # through the door
    assert line_of_sight((3, 2), (3, 4), _map_blocks_sight)  # through the window
    assert not line_of_sight((2, 2), (2, 4), _map_blocks_sight)  # through the wall


def test_t6_the_long_diagonal_of_the_map_sees_through_both_windows() -> None:
    # (0, 0) to (11, 11) crosses the windows (3, 3) and (8, 8) and passes wall corners
    # that have open ground on the other side
    assert (3, 3) in crossed((0, 0), (11, 11))
    assert (8, 8) in crossed((0, 0), (11, 11))
    assert line_of_sight((0, 0), (11, 11), _map_blocks_sight)
    assert not all(
        step_open(MAP_GRID, (k, k), (k + 1, k + 1), _map_blocks_movement) for k in range(11)
    )


@given(coords, coords, walls)
def test_t6_line_of_sight_is_symmetric(a: Coord, b: Coord, blocked: frozenset[Coord]) -> None:
    blocks = _blocking(*blocked)
    assert line_of_sight(a, b, blocks) == line_of_sight(b, a, blocks)


@given(coords, coords, walls)
def test_t6_line_of_sight_is_its_crossed_tiles_and_its_corners(
    a: Coord, b: Coord, blocked: frozenset[Coord]
) -> None:
    blocks = _blocking(*blocked)
    assert line_of_sight(a, b, blocks) == _reference_sight(a, b, blocks)


@given(coords, coords, walls)
def test_t6_line_of_sight_asks_only_about_tiles_between_its_ends(
    a: Coord, b: Coord, blocked: frozenset[Coord]
) -> None:
    asked: set[Coord] = set()

    def blocks(at: Coord) -> bool:
        asked.add(at)
        return at in blocked

    line_of_sight(a, b, blocks)
    low = (min(a[0], b[0]), min(a[1], b[1]))
    high = (max(a[0], b[0]), max(a[1], b[1]))
    assert all(low[0] <= c <= high[0] and low[1] <= r <= high[1] for c, r in asked)
    assert a not in asked
    assert b not in asked


# T34: the tiles a line crosses


def test_t34_a_diagonal_crosses_the_diagonal_tiles_only() -> None:
    assert crossed((0, 0), (2, 2)) == ((1, 1), (2, 2))
    assert corners((0, 0), (2, 2)) == (((1, 0), (0, 1)), ((2, 1), (1, 2)))


def test_t34_a_knight_s_line_crosses_three_tiles() -> None:
    # centres (0.5, 0.5) to (2.5, 1.5): x = 1 at y = 0.75, y = 1 at x = 1.5, x = 2 at y = 1.25
    assert crossed((0, 0), (2, 1)) == ((1, 0), (1, 1), (2, 1))
    assert corners((0, 0), (2, 1)) == ()
    assert crossed((2, 1), (0, 0)) == ((1, 1), (1, 0), (0, 0))


def test_t34_the_shooter_s_tile_never_counts_and_the_target_s_does() -> None:
    assert crossed((3, 3), (4, 3)) == ((4, 3),)
    assert crossed((3, 3), (2, 2)) == ((2, 2),)
    assert crossed((3, 3), (3, 3)) == ()
    assert crossed((5, 1), (1, 1)) == ((4, 1), (3, 1), (2, 1), (1, 1))


def test_t34_a_tile_touched_only_at_a_corner_is_not_crossed() -> None:
    line = crossed((0, 0), (3, 3))
    assert line == ((1, 1), (2, 2), (3, 3))
    assert not {(1, 0), (0, 1), (2, 1), (1, 2), (3, 2), (2, 3)} & set(line)
    assert crossed((0, 0), (3, 1)) == (
        (1, 0),
        (2, 1),
        (3, 1),
    )  # corner (2, 1) between (2, 0), (1, 1)
    assert corners((0, 0), (3, 1)) == (((2, 0), (1, 1)),)


def test_t34_steep_and_backward_lines_are_the_shallow_ones_turned() -> None:
    assert crossed((0, 0), (1, 2)) == ((0, 1), (1, 1), (1, 2))
    assert crossed((4, 4), (2, 3)) == ((3, 4), (3, 3), (2, 3))
    assert crossed((4, 4), (3, 1)) == ((4, 3), (3, 2), (3, 1))
    assert corners((4, 4), (3, 1)) == (((3, 3), (4, 2)),)


@given(coords, coords)
def test_t34_crossed_is_every_tile_whose_interior_the_line_enters(a: Coord, b: Coord) -> None:
    assert crossed(a, b) == _reference_crossed(a, b)


@given(coords, coords)
def test_t34_corners_are_every_lattice_corner_the_line_passes_through(a: Coord, b: Coord) -> None:
    assert [frozenset(pair) for pair in corners(a, b)] == _reference_corners(a, b)


@given(coords, coords)
def test_t34_a_line_crosses_the_same_tiles_both_ways(a: Coord, b: Coord) -> None:
    there = (a, *crossed(a, b))
    back = (b, *crossed(b, a))
    assert back == tuple(reversed(there))
    assert {frozenset(pair) for pair in corners(b, a)} == {
        frozenset(pair) for pair in corners(a, b)
    }


@given(coords, coords)
def test_t34_a_line_goes_tile_to_neighbouring_tile(a: Coord, b: Coord) -> None:
    path = (a, *crossed(a, b))
    diagonal = [
        step
        for step in itertools.pairwise(path)
        if step[0][0] != step[1][0] and step[0][1] != step[1][1]
    ]
    assert all(is_adjacent(p, q) for p, q in itertools.pairwise(path))
    assert len(diagonal) == len(corners(a, b))  # a diagonal move only through a corner
    pairs: tuple[Corner, ...] = corners(a, b)
    for ((c0, r0), (c1, r1)), (first, second) in zip(diagonal, pairs, strict=True):
        assert first == (c1, r0)
        assert second == (c0, r1)


# T27: the centre of the board


def test_t27_the_centre_of_the_12_by_12_map_is_columns_5_6_and_rows_5_6() -> None:
    assert Grid(width=12, height=12) == MAP_GRID
    assert centre_tiles(MAP_GRID) == ((5, 5), (6, 5), (5, 6), (6, 6))


@pytest.mark.parametrize(
    ("width", "height", "expected"),
    [
        (1, 1, ((0, 0),)),
        (5, 5, ((2, 2),)),
        (4, 3, ((1, 1), (2, 1))),
        (3, 4, ((1, 1), (1, 2))),
        (2, 2, ((0, 0), (1, 0), (0, 1), (1, 1))),
    ],
)
def test_t27_an_odd_side_has_one_middle_line_and_an_even_side_two(
    width: int, height: int, expected: tuple[Coord, ...]
) -> None:
    assert centre_tiles(Grid(width=width, height=height)) == expected


# reach: the least cost of every tile within a budget


def _flat(a: Coord, b: Coord) -> int | None:
    return 1


def test_reach_on_open_ground_is_the_distance() -> None:
    grid = Grid(width=7, height=7)
    costs = reach(grid, (3, 3), 2, _flat)
    assert costs == {at: distance((3, 3), at) for at in grid.tiles() if distance((3, 3), at) <= 2}
    assert costs[(3, 3)] == 0


def test_reach_stays_within_the_budget_and_the_board() -> None:
    grid = Grid(width=4, height=3)
    assert reach(grid, (0, 0), 0, _flat) == {(0, 0): 0}
    assert set(reach(grid, (0, 0), 1, _flat)) == {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert len(reach(grid, (0, 0), 99, _flat)) == 12


def test_reach_from_off_the_board_or_with_a_negative_budget_is_nothing() -> None:
    grid = Grid(width=4, height=3)
    assert reach(grid, (4, 0), 5, _flat) == {}
    assert reach(grid, (1, 1), -1, _flat) == {}


def test_reach_goes_round_a_step_that_cannot_be_taken_or_costs_more() -> None:
    grid = Grid(width=5, height=3)
    wall = {(2, 0), (2, 1)}

    def cost(a: Coord, b: Coord) -> int | None:
        if b in wall:
            return None
        return 5 if b == (2, 2) and a == (1, 1) else 1

    costs = reach(grid, (0, 0), 10, cost)
    assert not wall & set(costs)
    # (1, 1) to (2, 2) costs 5: round by (1, 2) instead, 3 steps of 1
    assert costs[(2, 2)] == 3
    assert costs[(4, 0)] == 5  # round the wall by row 2
    assert reach(grid, (0, 0), 3, cost).keys() == {at for at, spent in costs.items() if spent <= 3}


def test_reach_takes_steps_that_cost_nothing() -> None:
    grid = Grid(width=5, height=1)
    costs = reach(grid, (0, 0), 0, lambda a, b: 0 if b[0] <= 2 else 1)
    assert costs == {(0, 0): 0, (1, 0): 0, (2, 0): 0}


def test_reach_refuses_a_negative_step() -> None:
    with pytest.raises(ValueError, match="below 0"):
        reach(Grid(width=3, height=3), (1, 1), 4, lambda a, b: -1)


def test_reach_is_the_same_for_the_same_arguments() -> None:
    grid = Grid(width=9, height=9)

    def cost(a: Coord, b: Coord) -> int | None:
        return 1 + (b[0] * 7 + b[1] * 3) % 4

    first = reach(grid, (4, 4), 9, cost)
    assert list(reach(grid, (4, 4), 9, cost).items()) == list(first.items())


step_weights = st.dictionaries(
    st.tuples(st.integers(0, 5), st.integers(0, 5)), st.none() | st.integers(0, 4), max_size=36
)


@given(st.tuples(st.integers(0, 5), st.integers(0, 5)), st.integers(0, 12), step_weights)
def test_reach_costs_are_shortest_paths(
    start: Coord, budget: int, weights: dict[Coord, int | None]
) -> None:
    # A step costs what its destination weighs (1 unless drawn), diagonals 1 more; None: no step.
    grid = Grid(width=6, height=6)

    def cost(a: Coord, b: Coord) -> int | None:
        weight = weights.get(b, 1)
        if weight is None:
            return None
        return weight + (a[0] != b[0] and a[1] != b[1])

    costs = reach(grid, start, budget, cost)
    assert costs[start] == 0
    for at, spent in costs.items():
        assert 0 <= spent <= budget
        steps = [
            costs[b] + step
            for b in neighbours(grid, at)
            if b in costs and (step := cost(b, at)) is not None
        ]
        if at != start:
            assert spent == min(steps)  # reached by its cheapest step from a reached tile
        for b in neighbours(grid, at):
            step = cost(at, b)
            if step is not None and spent + step <= budget:
                assert costs.get(b, budget + 1) <= spent + step  # nothing cheaper is left out


# the corner rule on its own, and connected groups


def test_corner_closed_asks_only_about_the_two_tiles_a_diagonal_passes_between() -> None:
    asked: list[Coord] = []

    def closes(at: Coord) -> bool:
        asked.append(at)
        return at in {(3, 2), (2, 3)}

    assert corner_closed((2, 2), (3, 3), closes)
    assert set(asked) == {(3, 2), (2, 3)}
    assert not corner_closed((2, 2), (3, 3), _blocking((3, 2)))
    assert not corner_closed((2, 2), (3, 2), _blocking((2, 2), (3, 2), (2, 3), (3, 3)))


def test_connected_joins_tiles_by_8_adjacency() -> None:
    assert connected([])
    assert connected([(4, 4)])
    assert connected([(0, 0), (1, 1), (2, 2)])  # corner to corner
    assert connected([(0, 0), (1, 0), (0, 0)])
    assert not connected([(0, 0), (2, 0)])
    assert not connected([(0, 0), (1, 1), (5, 5), (6, 5)])
    assert connected(iter([(0, 0), (1, 0), (2, 1), (3, 0)]))


@given(st.frozensets(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=12))
def test_connected_is_one_walk_from_any_tile(tiles: frozenset[Coord]) -> None:
    grid = Grid(width=5, height=5)
    if tiles:
        start = min(tiles)
        walk = reach(grid, start, 25, lambda a, b: 1 if b in tiles else None)
        assert connected(tiles) == (set(walk) == tiles)
    else:
        assert connected(tiles)
