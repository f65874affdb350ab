"""Movement's and triggers' fast paths agree with plain reference computations.

A Medium figure's step into an ordinary empty space is answered from the
occupancy index without classifying any space; each fast path here is
checked against the plain computation it replaces, on random boards.
"""

from __future__ import annotations

from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from multiversus_core import movement
from multiversus_core.board import Board, Figure
from multiversus_core.geometry import DIRECTIONS, ORTHOGONAL, figure_squares, tile_squares
from multiversus_core.terms import Direction, Square
from tests.test_fast_paths import _ReferenceSpaces, _scenes


def _reference_step_options(
    board: Board,
    figures: tuple[Figure, ...],
    mover: Figure,
    steps: int,
    allies: bool,
    diagonal: bool,
    corners: bool,
    into_terrain: bool,
) -> tuple[Direction, ...]:
    """R19 from the eager sets: a step whose new spaces are free, after which some origin
    within the steps left shares no space with a character passed through."""
    if mover.square is None or steps < 1:
        return ()
    passable = movement._allies(figures, mover) if allies else frozenset()
    spaces = _ReferenceSpaces(board, figures, mover, passable, into_terrain)
    directions = DIRECTIONS if diagonal else ORTHOGONAL
    size = mover.size

    def can_end(start: Square, limit: int) -> bool:
        seen = {start: 0}
        queue = deque((start,))
        while queue:
            origin = queue.popleft()
            if spaces.rests(origin, size):
                return True
            if seen[origin] < limit:
                for direction in directions:
                    new = spaces.advance(origin, size, direction, corners)
                    if new is not None and new not in seen:
                        seen[new] = seen[origin] + 1
                        queue.append(new)
        return False

    options = []
    for direction in directions:
        new = spaces.advance(mover.square, size, direction, corners)
        if new is not None and can_end(new, steps - 1):
            options.append(direction)
    return tuple(options)


@settings(deadline=None)
@given(_scenes(), st.integers(0, 4), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_step_options_with_the_empty_space_shortcut_are_the_plain_ones(
    scene: tuple[Board, tuple[Figure, ...], Figure],
    steps: int,
    allies: bool,
    diagonal: bool,
    corners: bool,
    into_terrain: bool,
) -> None:
    # given any scene and movement rules, with or without a shared index
    board, figures, mover = scene
    expected = _reference_step_options(
        board, figures, mover, steps, allies, diagonal, corners, into_terrain
    )
    for index in (None, movement.Occupancy(board, figures)):
        rules = {
            "pass_through_allies": allies,
            "diagonal": diagonal,
            "corners_block": corners,
            "into_terrain": into_terrain,
            "occupancy": index,
        }
        # then the listed directions, and each one asked alone, are the plain rule's
        assert movement.step_options(board, figures, mover, steps, **rules) == expected
        for direction in DIRECTIONS:
            allowed = movement.can_step(board, figures, mover, direction, steps, **rules)
            assert allowed == (direction in expected)


@settings(deadline=None)
@given(_scenes())
def test_an_empty_space_is_on_the_board_with_no_tile_and_no_figure(
    scene: tuple[Board, tuple[Figure, ...], Figure],
) -> None:
    # given any scene, then the index calls a space empty exactly when the plain scan does
    board, figures, _ = scene
    index = movement.Occupancy(board, figures)
    covered = {s for f in figures for s in figure_squares(f)}
    covered |= {s for t in board.tiles for s in tile_squares(t)}
    for c in range(-2, board.width + 2):
        for r in range(-2, board.height + 2):
            on_board = 0 <= c < board.width and 0 <= r < board.height
            assert index.empty((c, r)) == (on_board and (c, r) not in covered)
