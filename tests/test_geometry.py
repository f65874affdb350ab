"""Board geometry: rulebook *Lines*, *Adjacency*, *Line of sight*; rulings R9, R18, R21."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multiversus_core.rulesets.multiversus.board import Board, Figure, Tile
from multiversus_core.rulesets.multiversus.geometry import (
    DIAGONAL,
    DIRECTIONS,
    ORTHOGONAL,
    adjacent_figures,
    are_adjacent,
    chebyshev,
    figure_squares,
    footprint,
    has_line_of_sight,
    line,
    on_board,
    pull_direction,
    push_direction,
    squares_in_sight,
    tile_at,
)
from multiversus_core.rulesets.multiversus.terms import Size, Square
from tests.boards import ENEMY, HERO, LARGE_ENEMY, LARGE_HERO, build, terrain, tile

OBSCURING_TERRAIN = terrain(obscuring=True)


def _hero(square: Square | None, *, id: str = "h1", large: bool = False) -> Figure:
    size: Size = "large" if large else "medium"
    return Figure(id=id, name=id, unit="h", side="heroes", square=square, size=size)


def _enemy(square: Square | None, *, id: str = "e1", large: bool = False) -> Figure:
    size: Size = "large" if large else "medium"
    return Figure(id=id, name=id, unit="e", side="adversaries", square=square, size=size)


# Directions, footprints and the board


def test_directions_are_four_orthogonal_then_four_diagonal_unit_steps() -> None:
    # given the direction tables, then they are N, E, S, W then the diagonals
    assert ORTHOGONAL == ((0, -1), (1, 0), (0, 1), (-1, 0))
    assert set(DIAGONAL) == {(1, -1), (1, 1), (-1, 1), (-1, -1)}
    assert DIRECTIONS == ORTHOGONAL + DIAGONAL


def test_sizes_medium_takes_one_space_large_takes_two_by_two() -> None:
    # given an origin, when taking footprints, then Medium is 1 space and Large 4
    assert footprint((3, 2), "medium") == ((3, 2),)
    assert set(footprint((3, 2), "large")) == {(3, 2), (4, 2), (3, 3), (4, 3)}


def test_figure_off_board_has_no_spaces() -> None:
    # given an eliminated figure, then it covers no spaces
    assert figure_squares(_hero(None)) == ()
    assert figure_squares(_hero((1, 1), large=True)) == footprint((1, 1), "large")


def test_board_spaces_counted_from_top_left_r17() -> None:
    # given a 4x2 board, then (0,0)..(3,1) are on it and nothing else
    board = Board(4, 2)
    assert on_board(board, (0, 0))
    assert on_board(board, (3, 1))
    assert not on_board(board, (4, 0))
    assert not on_board(board, (0, -1))


def test_special_tile_covers_its_two_by_two_spaces() -> None:
    # given a special tile at (2,0), then it covers (2..3, 0..1) and no other space
    marsh = Tile((2, 0), "Marsh")
    board = Board(4, 4, (marsh,))
    assert tile_at(board, (3, 1)) == marsh
    assert tile_at(board, (1, 1)) is None
    assert tile_at(board, (2, 2)) is None


def test_chebyshev_counts_king_steps() -> None:
    assert chebyshev((0, 0), (3, 1)) == 3
    assert chebyshev((2, 2), (1, 1)) == 1


# Lines


def test_large_line_widths_example_grid() -> None:
    # given the rulebook's Large figure (the As)
    scene = build(
        """
        [A] [A] [c] [c] [c]
        [A] [A] [c] [c] [c]
        [b] [b] [x] [ ] [ ]
        [b] [b] [ ] [x] [ ]
        [b] [b] [ ] [ ] [x]
        """,
        {"A": LARGE_HERO},
    )
    a = scene.figure("A")
    assert a.square is not None
    # when drawing lines east, south and south-east
    east = line(scene.board, a.square, a.size, (1, 0))
    south = line(scene.board, a.square, a.size, (0, 1))
    south_east = line(scene.board, a.square, a.size, (1, 1))
    # then orthogonal lines are two wide and the diagonal one wide
    assert all(len(rank) == 2 for rank in east + south)
    assert all(len(rank) == 1 for rank in south_east)
    assert {s for rank in east for s in rank} == scene.squares("c")
    assert {s for rank in south for s in rank} == scene.squares("b")
    assert {s for rank in south_east for s in rank} == scene.squares("x")
    assert east[0] == ((2, 0), (2, 1))


def test_large_diagonal_lines_start_from_the_facing_corner() -> None:
    # given a Large figure in the middle of a board
    board = Board(6, 6)
    # when drawing each diagonal, then its first space touches the facing corner
    assert line(board, (2, 2), "large", (1, -1))[0] == ((4, 1),)
    assert line(board, (2, 2), "large", (-1, -1))[0] == ((1, 1),)
    assert line(board, (2, 2), "large", (-1, 1))[0] == ((1, 4),)
    assert line(board, (2, 2), "large", (1, 1))[0] == ((4, 4),)


def test_medium_line_is_one_wide_and_stops_at_the_board_edge() -> None:
    # given a Medium figure at (1,1) on a 4x4 board
    board = Board(4, 4)
    # when drawing lines, then ranks are single spaces up to the edge
    assert line(board, (1, 1), "medium", (1, 0)) == (((2, 1),), ((3, 1),))
    assert line(board, (1, 1), "medium", (-1, -1)) == (((0, 0),),)
    assert line(board, (0, 0), "medium", (-1, 0)) == ()


# Adjacency


def test_adjacency_medium_figures_one_space_away_orthogonally_or_diagonally() -> None:
    # given a hero, when another figure is one space away in any direction, then adjacent
    hero = _hero((2, 2))
    for dc, dr in DIRECTIONS:
        assert are_adjacent(hero, _enemy((2 + dc, 2 + dr)))
    # and two spaces away is not
    assert not are_adjacent(hero, _enemy((4, 2)))
    assert not are_adjacent(hero, _enemy((4, 3)))


def test_adjacency_large_needs_only_one_space_adjacent() -> None:
    # given a Large figure and a Medium one two spaces from its far side
    large = _enemy((0, 0), large=True)
    medium = _hero((2, 0))
    # then they are adjacent (the near side is one space away)
    assert are_adjacent(large, medium)
    assert are_adjacent(medium, large)
    assert not are_adjacent(large, _hero((3, 1)))
    assert are_adjacent(large, _hero((2, 2)))


def test_adjacency_never_with_itself_r21() -> None:
    # given a figure, then it is not adjacent to itself, Medium or Large
    assert not are_adjacent(_hero((1, 1)), _hero((1, 1)))
    assert not are_adjacent(_hero((1, 1), large=True), _hero((1, 1), large=True))


def test_adjacency_character_in_terrain_piece_is_adjacent_to_it() -> None:
    # given a character sharing its space with a (Large or Medium) terrain piece
    scene = build(
        """
        [C] [ ] [ ]
        [ ] [ ] [ ]
        """,
        {"C": terrain()},
    )
    curtain = scene.figure("C")
    hero = _hero((0, 0))
    boulder = Figure(
        id="b1", name="b1", unit="b", side="adversaries", square=(0, 0), size="large", terrain=True
    )
    # then they are adjacent
    assert are_adjacent(hero, curtain)
    assert are_adjacent(curtain, hero)
    assert are_adjacent(_hero((1, 1)), boulder)


def test_adjacency_two_characters_sharing_a_space_are_not_adjacent() -> None:
    # given an ally mid pass-through on another (project ruling), then not adjacent
    assert not are_adjacent(_hero((1, 1)), _hero((1, 1), id="h2"))


def test_adjacency_figure_off_board_is_adjacent_to_nothing() -> None:
    assert not are_adjacent(_hero(None), _enemy((0, 0)))
    assert not are_adjacent(_enemy((0, 0)), _hero(None))


def test_adjacent_figures_lists_only_adjacent_figures_in_order() -> None:
    scene = build(
        """
        [e] [ ] [e]
        [ ] [H] [ ]
        [ ] [ ] [ ]
        [e] [ ] [ ]
        """,
        {"H": HERO, "e": ENEMY},
    )
    assert [f.id for f in adjacent_figures(scene.figures, scene.figure("H"))] == ["e1", "e2"]


# Line of sight (R18)


def test_line_of_sight_example_grid() -> None:
    # given the rulebook's grid, the As being obscuring terrain
    scene = build(
        """
        [X] [s] [s] [s] [s]
        [s] [s] [ ] [ ] [ ]
        [s] [ ] [s] [ ] [ ]
        [A] [ ] [ ] [A] [ ]
        [ ] [ ] [ ] [ ] [ ]
        """,
        {"X": HERO, "A": OBSCURING_TERRAIN},
    )
    x = scene.figure("X")
    # when listing the spaces X sees, then they are exactly the s spaces
    assert squares_in_sight(scene.board, scene.figures, x) == scene.squares("s")
    for r in range(5):
        for c in range(5):
            expected = (c, r) in scene.squares("s")
            assert has_line_of_sight(scene.board, scene.figures, x, (c, r)) == expected


def test_line_of_sight_obscuring_character_between_blocks() -> None:
    # given an enemy behind another character in a row
    scene = build("[X] [b] [t] [ ]", {"X": HERO, "b": ENEMY, "t": ENEMY})
    x, blocker, target = scene.figure("X"), scene.figure("b"), scene.figure("t")
    # then X sees the nearer character but not the one behind it
    assert has_line_of_sight(scene.board, scene.figures, x, blocker)
    assert not has_line_of_sight(scene.board, scene.figures, x, target)
    assert squares_in_sight(scene.board, scene.figures, x) == {(1, 0)}


def test_line_of_sight_obscuring_character_at_far_end_is_seen() -> None:
    scene = build("[X] [ ] [t]", {"X": HERO, "t": ENEMY})
    assert has_line_of_sight(scene.board, scene.figures, scene.figure("X"), scene.figure("t"))


def test_line_of_sight_obscuring_terrain_at_far_end_is_not_seen() -> None:
    # given obscuring terrain two spaces away, then its space is not seen
    scene = build("[X] [ ] [A] [ ]", {"X": HERO, "A": OBSCURING_TERRAIN})
    x = scene.figure("X")
    assert not has_line_of_sight(scene.board, scene.figures, x, (2, 0))
    assert not has_line_of_sight(scene.board, scene.figures, x, (3, 0))
    assert has_line_of_sight(scene.board, scene.figures, x, (1, 0))


def test_line_of_sight_non_obscuring_terrain_does_not_block() -> None:
    scene = build("[X] [C] [t]", {"X": HERO, "C": terrain(obscuring=False), "t": ENEMY})
    assert has_line_of_sight(scene.board, scene.figures, scene.figure("X"), scene.figure("t"))


def test_line_of_sight_from_obscuring_terrain_sees_out_but_is_not_seen() -> None:
    # given a hero on an obscuring special tile and an enemy in the open
    scene = build(
        """
        [W] [W] [ ] [ ]
        [W] [H] [ ] [e]
        """,
        {"W": tile(obscuring=True), "H": HERO, "e": ENEMY},
    )
    hero, enemy = scene.figure("H"), scene.figure("e")
    # then the hero sees the enemy, but the enemy does not see the hero
    assert has_line_of_sight(scene.board, scene.figures, hero, enemy)
    assert not has_line_of_sight(scene.board, scene.figures, enemy, hero)
    # and a character sharing an obscuring terrain piece's space is not seen either
    hidden = build("[X] [ ] [A]", {"X": HERO, "A": OBSCURING_TERRAIN})
    lurker = _enemy((2, 0))
    figures = (*hidden.figures, lurker)
    assert not has_line_of_sight(hidden.board, figures, hidden.figure("X"), lurker)


def test_line_of_sight_large_source_uses_any_of_its_spaces() -> None:
    # given a Large hero and an enemy only on a line with its lower-right space
    scene = build(
        """
        [L] [L] [ ] [ ] [ ]
        [L] [L] [ ] [ ] [ ]
        [ ] [ ] [ ] [ ] [ ]
        [ ] [ ] [ ] [ ] [e]
        """,
        {"L": LARGE_HERO, "e": ENEMY},
    )
    large, enemy = scene.figure("L"), scene.figure("e")
    # then it sees the enemy, and the enemy sees it
    assert has_line_of_sight(scene.board, scene.figures, large, enemy)
    assert has_line_of_sight(scene.board, scene.figures, enemy, large)


def test_line_of_sight_large_target_seen_through_any_of_its_spaces() -> None:
    # given a Large enemy whose only space on a line with X is its lower-left one
    legend = {"X": HERO, "A": OBSCURING_TERRAIN, "L": LARGE_ENEMY}
    open_diagonal = build(
        """
        [X] [A] [ ] [ ]
        [ ] [ ] [L] [L]
        [ ] [ ] [L] [L]
        """,
        legend,
    )
    blocked_diagonal = build(
        """
        [X] [ ] [ ] [ ]
        [ ] [A] [L] [L]
        [ ] [ ] [L] [L]
        """,
        legend,
    )
    # then X sees it along the clear diagonal, and not when that diagonal is obscured
    scene = open_diagonal
    assert has_line_of_sight(scene.board, scene.figures, scene.figure("X"), scene.figure("L"))
    scene = blocked_diagonal
    assert not has_line_of_sight(scene.board, scene.figures, scene.figure("X"), scene.figure("L"))


def test_line_of_sight_never_to_spaces_off_every_line() -> None:
    # given an open board, then a knight's-move space is never seen
    scene = build(
        """
        [X] [ ] [ ]
        [ ] [ ] [n]
        """,
        {"X": HERO},
    )
    x = scene.figure("X")
    assert not has_line_of_sight(scene.board, scene.figures, x, (2, 1))
    assert (2, 1) not in squares_in_sight(scene.board, scene.figures, x)


def test_line_of_sight_source_and_target_never_obscure_themselves() -> None:
    # given a Large hero whose body lies between two of its spaces and the target
    scene = build(
        """
        [L] [L] [ ] [t]
        [L] [L] [ ] [ ]
        """,
        {"L": LARGE_HERO, "t": OBSCURING_TERRAIN},
    )
    large = scene.figure("L")
    # then it sees along its rows, and sees an obscuring terrain piece itself
    assert has_line_of_sight(scene.board, scene.figures, large, scene.figure("t"))
    assert not has_line_of_sight(scene.board, scene.figures, large, (3, 0))
    assert squares_in_sight(scene.board, scene.figures, large) == {(2, 0), (2, 1), (3, 1)}


def test_line_of_sight_off_board_figure_sees_nothing() -> None:
    board = Board(2, 2)
    ghost = _hero(None)
    assert squares_in_sight(board, (ghost,), ghost) == frozenset()
    assert not has_line_of_sight(board, (ghost,), ghost, (1, 1))
    assert not has_line_of_sight(board, (), _hero((0, 0)), ghost)


@st.composite
def _sight_boards(draw: st.DrawFn) -> tuple[Board, tuple[Figure, ...], Figure]:
    width = draw(st.integers(2, 6))
    height = draw(st.integers(2, 6))
    cells = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    tiles = tuple(
        Tile((2 * c, 2 * r), "Fog", obscuring=True)
        for c, r in draw(st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2)), max_size=2))
        if 2 * c < width and 2 * r < height
    )
    figures: list[Figure] = []
    for n, square in enumerate(draw(st.lists(cells, max_size=6, unique=True))):
        kind = draw(st.sampled_from(["character", "wall", "curtain"]))
        figures.append(
            Figure(
                id=f"f{n}",
                name=f"f{n}",
                unit="u",
                side="adversaries",
                square=square,
                terrain=kind != "character",
                obscuring=kind != "curtain",
            )
        )
    large = draw(st.booleans())
    origin = draw(st.tuples(st.integers(0, width - 1 - large), st.integers(0, height - 1 - large)))
    source = _hero(origin, id="source", large=large)
    return Board(width, height, tiles), (*figures, source), source


@given(_sight_boards())
def test_squares_in_sight_agrees_with_has_line_of_sight(
    case: tuple[Board, tuple[Figure, ...], Figure],
) -> None:
    # given any board, then the spaces in sight are exactly those with line of sight
    board, figures, source = case
    seen = squares_in_sight(board, figures, source)
    for r in range(board.height):
        for c in range(board.width):
            assert ((c, r) in seen) == has_line_of_sight(board, figures, source, (c, r))
    assert seen.isdisjoint(figure_squares(source))


# Push and pull directions (R9)


def test_push_direction_is_directly_away_orthogonally_r9() -> None:
    assert push_direction(_hero((2, 2)), _enemy((2, 3))) == (0, 1)
    assert push_direction(_hero((2, 2)), _enemy((0, 2))) == (-1, 0)


def test_push_direction_diagonal_is_sign_of_each_difference_r9() -> None:
    # given a target down-right of the attacker, even off the diagonal, then push south-east
    assert push_direction(_hero((2, 2)), _enemy((3, 3))) == (1, 1)
    assert push_direction(_hero((2, 2)), _enemy((5, 3))) == (1, 1)
    assert push_direction(_hero((2, 2)), _enemy((1, 0))) == (-1, -1)


def test_push_direction_large_measured_between_nearest_spaces_r9() -> None:
    # given a Large attacker and a Medium target level with its lower row
    large = _hero((0, 0), large=True)
    # then the push is straight east, not south-east
    assert push_direction(large, _enemy((3, 1))) == (1, 0)
    assert push_direction(large, _enemy((2, 2))) == (1, 1)
    assert push_direction(large, _enemy((1, 3))) == (0, 1)


def test_r9_push_direction_medium_beside_large_is_straight_despite_chebyshev_ties() -> None:
    # given a Medium attacker two columns left of a Large target's upper row,
    # when (0,0)-(2,0) and (0,0)-(2,1) tie on Chebyshev distance (R9),
    # then the nearest pair is the orthogonally nearest one: push due east
    assert push_direction(_hero((0, 0)), _enemy((2, 0), large=True)) == (1, 0)
    assert push_direction(_hero((0, 0), large=True), _enemy((3, 0), large=True)) == (1, 0)
    assert push_direction(_hero((0, 0), large=True), _enemy((3, 2), large=True)) == (1, 1)


def test_push_direction_of_overlapping_figures_raises() -> None:
    with pytest.raises(ValueError, match="overlap"):
        push_direction(_hero((1, 1), large=True), _enemy((2, 2)))
    with pytest.raises(ValueError, match="off the board"):
        push_direction(_hero(None), _enemy((2, 2)))


def test_pull_direction_is_directly_toward_the_source() -> None:
    assert pull_direction(_hero((2, 2)), _enemy((4, 3))) == (-1, -1)
    assert pull_direction(_hero((0, 0), large=True), _enemy((3, 1))) == (-1, 0)


@given(
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
    st.booleans(),
    st.booleans(),
)
def test_push_direction_matches_a_nearest_pair_of_spaces(
    a: Square, b: Square, a_large: bool, b_large: bool
) -> None:
    # given two figures, then the push follows a pair at minimum distance
    source = _hero(a, large=a_large)
    target = _enemy(b, large=b_large)
    pairs = [(s, t) for s in figure_squares(source) for t in figure_squares(target)]
    if any(s == t for s, t in pairs):
        with pytest.raises(ValueError, match="overlap"):
            push_direction(source, target)
        return
    nearest = min(abs(s[0] - t[0]) + abs(s[1] - t[1]) for s, t in pairs)
    signs = {
        ((t[0] > s[0]) - (t[0] < s[0]), (t[1] > s[1]) - (t[1] < s[1]))
        for s, t in pairs
        if abs(s[0] - t[0]) + abs(s[1] - t[1]) == nearest
    }
    assert signs == {push_direction(source, target)}
    assert min(chebyshev(s, t) for s, t in pairs) == min(
        chebyshev(s, t) for s, t in pairs if abs(s[0] - t[0]) + abs(s[1] - t[1]) == nearest
    )
    assert pull_direction(source, target) == tuple(-d for d in push_direction(source, target))
