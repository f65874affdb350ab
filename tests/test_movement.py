"""Movement: *Free spaces*, *Blocking*, *Spaces and movement*, *Forced Movement*; R19, R20."""

from __future__ import annotations

from itertools import chain, combinations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from multiversus_core.rulesets.multiversus.board import Board, Figure, Tile
from multiversus_core.rulesets.multiversus.geometry import (
    DIRECTIONS,
    ORTHOGONAL,
    figure_squares,
    footprint,
)
from multiversus_core.rulesets.multiversus.movement import (
    can_stand,
    can_stop_here,
    forced_move_options,
    forced_path,
    is_free_for,
    reachable,
    step,
    step_options,
)
from multiversus_core.rulesets.multiversus.terms import Direction, Square
from tests.boards import ENEMY, HERO, LARGE_HERO, Piece, build, terrain, tile

CURTAIN = terrain(blocking=False)
WALL = terrain(blocking=True)
CLOUD = terrain(blocking=False)
LARGE_WALL = terrain(blocking=True, size="large")
NORTH, EAST, SOUTH, WEST = ORTHOGONAL


def _figure(id: str, side: str, square: Square | None, **kw: object) -> Figure:
    return msgspec.convert(
        {"id": id, "name": id, "unit": id[0], "side": side, "square": square, **kw}, Figure
    )


# Free spaces


def test_free_space_terrain_never_shares_with_terrain() -> None:
    # given a Cloud next to a Curtain, then the Curtain's space is not free for the Cloud
    scene = build("[K] [C] [ ]", {"K": CLOUD, "C": CURTAIN})
    cloud = scene.figure("K")
    assert not is_free_for(scene.board, scene.figures, cloud, (1, 0))
    assert is_free_for(scene.board, scene.figures, cloud, (2, 0))


def test_free_space_terrain_never_on_a_special_tile() -> None:
    # given a special tile that is neither blocking nor obscuring (terrain all the same)
    scene = build(
        """
        [K] [ ] [M] [M]
        [h] [ ] [M] [M]
        """,
        {"K": CLOUD, "h": HERO, "M": tile()},
    )
    cloud, hero = scene.figure("K"), scene.figure("h")
    # then the Cloud may not enter it, but a character may
    assert not is_free_for(scene.board, scene.figures, cloud, (2, 0))
    assert is_free_for(scene.board, scene.figures, cloud, (1, 0))
    assert is_free_for(scene.board, scene.figures, hero, (2, 1))


def test_free_space_character_shares_with_non_blocking_curtain() -> None:
    scene = build("[H] [C]", {"H": HERO, "C": CURTAIN})
    hero = scene.figure("H")
    assert is_free_for(scene.board, scene.figures, hero, (1, 0))
    assert can_stand(scene.board, scene.figures, hero, (1, 0))


def test_free_space_blocking_terrain_cannot_be_entered_by_a_character() -> None:
    scene = build(
        """
        [H] [W] [B] [B]
        [ ] [ ] [B] [B]
        """,
        {"H": HERO, "W": WALL, "B": tile(blocking=True)},
    )
    hero = scene.figure("H")
    assert not is_free_for(scene.board, scene.figures, hero, (1, 0))
    assert not is_free_for(scene.board, scene.figures, hero, (3, 1))
    assert is_free_for(scene.board, scene.figures, hero, (1, 1))


def test_r26_a_moved_terrain_piece_never_enters_a_characters_space() -> None:
    # given a character between a Wall and a Curtain
    scene = build("[W] [H] [C]", {"W": WALL, "H": HERO, "C": CURTAIN})
    # then neither piece may enter its space, blocking or not
    assert not is_free_for(scene.board, scene.figures, scene.figure("W"), (1, 0))
    assert not is_free_for(scene.board, scene.figures, scene.figure("C"), (1, 0))
    # but the character may still step into the Curtain's space
    assert is_free_for(scene.board, scene.figures, scene.figure("H"), (2, 0))


@pytest.mark.parametrize("other", ["ally", "enemy"])
def test_r26_a_moved_terrain_piece_never_passes_through_a_character(other: str) -> None:
    # given a Cloud with a character of either side in its way
    scene = build("[K] [x] [ ] [ ]", {"K": CLOUD, "x": HERO if other == "ally" else ENEMY})
    cloud = scene.figure("K")
    # then it can neither step through it nor be pushed through it
    assert step_options(scene.board, scene.figures, cloud, 3, pass_through_allies=True) == ()
    assert (2, 0) not in reachable(scene.board, scene.figures, cloud, 3, pass_through_allies=True)
    assert forced_move_options(scene.board, scene.figures, cloud, EAST, 2) == {(0, 0)}
    # while on an open row it goes as far as it may
    open_row = build("[K] [ ] [ ] [ ]", {"K": CLOUD})
    alone = open_row.figure("K")
    assert step_options(open_row.board, open_row.figures, alone, 3, pass_through_allies=True) == (
        EAST,
    )
    assert forced_move_options(open_row.board, open_row.figures, alone, EAST, 2) == {(2, 0)}


def test_free_space_characters_block_unless_let_through() -> None:
    scene = build("[H] [a] [e]", {"H": HERO, "a": HERO, "e": ENEMY})
    hero = scene.figure("H")
    assert not is_free_for(scene.board, scene.figures, hero, (1, 0))
    assert is_free_for(scene.board, scene.figures, hero, (1, 0), passable=frozenset({"a1"}))
    # but the mover may never end on a character it passes through
    assert not can_stand(scene.board, scene.figures, hero, (1, 0), passable=frozenset({"a1"}))


def test_free_space_off_board_is_never_free() -> None:
    scene = build("[H] [ ]", {"H": HERO})
    hero = scene.figure("H")
    assert not is_free_for(scene.board, scene.figures, hero, (2, 0))
    assert not is_free_for(scene.board, scene.figures, hero, (0, -1))


def test_free_space_mover_and_off_board_figures_are_ignored() -> None:
    scene = build("[H] [ ]", {"H": HERO})
    hero = scene.figure("H")
    gone = _figure("e9", "adversaries", None)
    assert can_stand(scene.board, (*scene.figures, gone), hero, (0, 0))


def test_free_space_large_figure_needs_all_four_spaces_free() -> None:
    scene = build(
        """
        [L] [L] [ ] [ ]
        [L] [L] [ ] [e]
        """,
        {"L": LARGE_HERO, "e": ENEMY},
    )
    large = scene.figure("L")
    assert can_stand(scene.board, scene.figures, large, (1, 0))
    assert not can_stand(scene.board, scene.figures, large, (2, 0))
    assert not can_stand(scene.board, scene.figures, large, (3, 0))  # off the board


# Regular movement (R19)


def test_regular_movement_is_orthogonal_only() -> None:
    scene = build(
        """
        [ ] [ ] [ ]
        [ ] [H] [ ]
        [ ] [ ] [ ]
        """,
        {"H": HERO},
    )
    hero = scene.figure("H")
    options = step_options(scene.board, scene.figures, hero, 3, pass_through_allies=False)
    assert options == ORTHOGONAL
    # and one step reaches only the four orthogonal neighbours
    assert reachable(scene.board, scene.figures, hero, 1, pass_through_allies=False) == {
        (1, 1),
        (1, 0),
        (2, 1),
        (1, 2),
        (0, 1),
    }


def test_regular_movement_up_to_three_spaces_on_open_ground() -> None:
    # given a hero in the middle of an open 7x7 board, when it moves 3, then a diamond
    board = Board(7, 7)
    hero = _figure("h1", "heroes", (3, 3))
    ends = reachable(board, (hero,), hero, 3, pass_through_allies=False)
    assert ends == {(c, r) for c in range(7) for r in range(7) if abs(c - 3) + abs(r - 3) <= 3}
    # and a double move reaches six
    assert len(reachable(board, (hero,), hero, 6, pass_through_allies=False)) == 49


def test_regular_movement_enemies_and_blocking_terrain_block() -> None:
    scene = build(
        """
        [ ] [e] [ ]
        [W] [H] [ ]
        [ ] [ ] [ ]
        """,
        {"H": HERO, "e": ENEMY, "W": WALL},
    )
    hero = scene.figure("H")
    options = step_options(scene.board, scene.figures, hero, 3, pass_through_allies=True)
    assert options == (EAST, SOUTH)
    # the wall's and enemy's spaces are never reached, but spaces around them are
    ends = reachable(scene.board, scene.figures, hero, 3, pass_through_allies=True)
    assert (1, 0) not in ends
    assert (0, 1) not in ends
    assert {(2, 0), (0, 2)} <= ends
    assert (0, 0) not in ends  # walled in by the enemy and the Wall


def test_regular_movement_passes_through_ally_only_when_it_can_get_off() -> None:
    # given an ally between the hero and an open space
    scene = build("[H] [a] [ ]", {"H": HERO, "a": HERO})
    hero = scene.figure("H")
    # when the hero has one step left, then it cannot step onto the ally
    assert step_options(scene.board, scene.figures, hero, 1, pass_through_allies=True) == ()
    # when it has two, then it can (and get off beyond)
    assert step_options(scene.board, scene.figures, hero, 2, pass_through_allies=True) == (EAST,)
    # and only if the player lets it through
    assert step_options(scene.board, scene.figures, hero, 2, pass_through_allies=False) == ()


def test_regular_movement_never_ends_on_an_ally() -> None:
    scene = build("[H] [a] [ ]", {"H": HERO, "a": HERO})
    hero = scene.figure("H")
    assert reachable(scene.board, scene.figures, hero, 3, pass_through_allies=True) == {
        (0, 0),
        (2, 0),
    }
    # and standing on the ally mid-move, it may not stop
    on_ally, figures = scene.moved(hero, (1, 0))
    assert not can_stop_here(scene.board, figures, on_ally, pass_through_allies=True)
    assert can_stop_here(scene.board, scene.figures, hero, pass_through_allies=True)
    # so a move from there never ends where it started (project ruling P14 relies on it)
    assert reachable(scene.board, figures, on_ally, 1, pass_through_allies=True) == {
        (0, 0),
        (2, 0),
    }


def test_regular_movement_enemy_is_never_passed_through() -> None:
    scene = build("[H] [e] [ ]", {"H": HERO, "e": ENEMY})
    hero = scene.figure("H")
    assert reachable(scene.board, scene.figures, hero, 3, pass_through_allies=True) == {(0, 0)}


def test_regular_movement_terrain_piece_is_not_let_through_by_characters() -> None:
    # given the Adversaries' Wall next to an adversary character (project ruling)
    scene = build("[W] [e] [ ]", {"W": WALL, "e": ENEMY})
    wall = scene.figure("W")
    assert reachable(scene.board, scene.figures, wall, 3, pass_through_allies=True) == {(0, 0)}


def test_regular_movement_large_moves_whole_footprint() -> None:
    # given a Large hero with an enemy in its path one row down
    scene = build(
        """
        [L] [L] [ ] [ ]
        [L] [L] [ ] [ ]
        [ ] [ ] [ ] [e]
        """,
        {"L": LARGE_HERO, "e": ENEMY},
    )
    large = scene.figure("L")
    # then it can step east (its own spaces never block it) and south
    options = step_options(scene.board, scene.figures, large, 1, pass_through_allies=False)
    assert options == (EAST, SOUTH)
    # but never onto the enemy: (2,1) would cover (3,2)
    ends = reachable(scene.board, scene.figures, large, 3, pass_through_allies=False)
    assert ends == {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)}


def test_regular_movement_large_passes_through_a_medium_ally() -> None:
    scene = build(
        """
        [L] [L] [a] [ ] [ ]
        [L] [L] [ ] [ ] [ ]
        """,
        {"L": LARGE_HERO, "a": HERO},
    )
    large = scene.figure("L")
    assert reachable(scene.board, scene.figures, large, 2, pass_through_allies=True) == {(0, 0)}
    assert reachable(scene.board, scene.figures, large, 3, pass_through_allies=True) == {
        (0, 0),
        (3, 0),
    }


def test_regular_step_returns_new_origin() -> None:
    hero = _figure("h1", "heroes", (2, 2))
    assert step(hero, NORTH) == (2, 1)
    with pytest.raises(ValueError, match="off the board"):
        step(_figure("h2", "heroes", None), NORTH)


# Forced movement (R20)


@pytest.mark.parametrize("mover", [LARGE_HERO, LARGE_WALL], ids=["character", "terrain"])
@pytest.mark.parametrize("blocker", [WALL, ENEMY], ids=["terrain", "character"])
def test_large_diagonal_forced_movement_example(mover: Piece, blocker: Piece) -> None:
    # given the rulebook's Large X and the two blockers A
    before = """
        [ ] [ ] [ ] [A]
        [ ] [ ] [X] [X]
        [ ] [A] [X] [X]
        """
    after = build(
        """
        [ ] [X] [X] [A]
        [ ] [X] [X] [ ]
        [ ] [A] [ ] [ ]
        """,
        {},
    )
    scene = build(before, {"X": mover, "A": blocker})
    x = scene.figure("X")
    # when it is forced one space up-left, then it slips between them
    path = forced_path(scene.board, scene.figures, x, (-1, -1), 1)
    assert path == ((1, 0),)
    assert set(footprint(path[-1], "large")) == after.squares("X")
    assert scene.squares("A") == after.squares("A")
    assert forced_move_options(scene.board, scene.figures, x, (-1, -1), 1) == {(1, 0)}


def test_orc_and_goblin_push_example() -> None:
    # given an Orc pushed four spaces east, with an allied Goblin in the third space
    scene = build("[O] [ ] [ ] [G] [ ] [ ]", {"O": ENEMY, "G": ENEMY})
    orc, goblin = scene.figure("O"), scene.figure("G")
    # when the Goblin blocks, then the Orc stops in the second space
    assert forced_path(scene.board, scene.figures, orc, EAST, 4) == ((1, 0), (2, 0))
    # when it lets the Orc through, then the Orc stops in the fourth space
    through = frozenset({goblin.id})
    assert forced_path(scene.board, scene.figures, orc, EAST, 4, passable=through)[-1] == (4, 0)
    # and the options list both
    assert forced_move_options(scene.board, scene.figures, orc, EAST, 4) == {(2, 0), (4, 0)}


def test_forced_movement_never_ends_on_an_ally_it_passed() -> None:
    # given the Goblin in the third space and a push of exactly three
    scene = build("[O] [ ] [ ] [G] [ ]", {"O": ENEMY, "G": ENEMY})
    orc = scene.figure("O")
    # then letting the Orc through would end it on the Goblin: it stops in the second
    through = frozenset({"G1"})
    assert forced_path(scene.board, scene.figures, orc, EAST, 3, passable=through) == (
        (1, 0),
        (2, 0),
    )
    assert forced_move_options(scene.board, scene.figures, orc, EAST, 3) == {(2, 0)}


def test_forced_movement_stops_before_the_first_non_free_space() -> None:
    scene = build("[e] [ ] [C] [W] [ ]", {"e": ENEMY, "C": CURTAIN, "W": WALL})
    enemy = scene.figure("e")
    # then it passes the Curtain (free for a character) and stops before the Wall
    assert forced_path(scene.board, scene.figures, enemy, EAST, 4) == ((1, 0), (2, 0))


def test_forced_movement_enemy_always_blocks() -> None:
    scene = build("[e] [ ] [H] [ ]", {"e": ENEMY, "H": HERO})
    enemy = scene.figure("e")
    assert forced_move_options(scene.board, scene.figures, enemy, EAST, 3) == {(1, 0)}


def test_forced_movement_stops_at_the_board_edge() -> None:
    scene = build(
        """
        [ ] [ ] [ ]
        [ ] [e] [ ]
        [ ] [ ] [ ]
        """,
        {"e": ENEMY},
    )
    enemy = scene.figure("e")
    assert forced_path(scene.board, scene.figures, enemy, (1, 1), 3) == ((2, 2),)


def test_forced_movement_options_include_start_when_it_cannot_move() -> None:
    scene = build("[G] [e]", {"G": ENEMY, "e": ENEMY})
    goblin = scene.figure("G")
    assert forced_path(scene.board, scene.figures, goblin, WEST, 2) == ()
    assert forced_move_options(scene.board, scene.figures, goblin, WEST, 2) == {(0, 0)}
    # an adjacent ally may stop it at once too
    assert forced_move_options(scene.board, scene.figures, goblin, EAST, 1) == {(0, 0)}


def test_forced_movement_of_terrain_piece_is_stopped_by_terrain_and_characters() -> None:
    scene = build("[W] [ ] [C] [ ]", {"W": WALL, "C": CURTAIN})
    wall = scene.figure("W")
    assert forced_path(scene.board, scene.figures, wall, EAST, 3) == ((1, 0),)


# Property tests


@st.composite
def _crowded_boards(draw: st.DrawFn) -> tuple[Board, tuple[Figure, ...], Figure]:
    """Draw a small board with allies, enemies, terrain and a mover standing legally."""
    width = draw(st.integers(2, 6))
    height = draw(st.integers(2, 6))
    cells = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    tiles = tuple(
        Tile((c - c % 2, r - r % 2), "Rubble", blocking=True)
        for c, r in draw(st.sets(cells, max_size=1))
    )
    large = draw(st.booleans())
    origin = draw(st.tuples(st.integers(0, width - 1 - large), st.integers(0, height - 1 - large)))
    mover = _figure("mover", "heroes", origin, size="large" if large else "medium")
    others: list[Figure] = []
    taken = set(footprint(origin, mover.size))
    for n, square in enumerate(draw(st.lists(cells, max_size=8, unique=True))):
        if square in taken:
            continue
        kind = draw(st.sampled_from(["ally", "enemy", "wall", "curtain"]))
        side = "heroes" if kind == "ally" else "adversaries"
        is_terrain = kind in ("wall", "curtain")
        others.append(
            _figure(f"x{n}", side, square, terrain=is_terrain, blocking=kind != "curtain")
        )
    board = Board(width, height, tiles)
    figures = (*others, mover)
    if not can_stand(board, figures, mover, origin):
        mover = msgspec.structs.replace(mover, square=None)
        figures = (*others, mover)
    return board, figures, mover


def _exhaustive_ends(
    board: Board, figures: tuple[Figure, ...], mover: Figure, max_steps: int
) -> set[Square]:
    """Return every end origin found by taking step_options one step at a time."""
    assert mover.square is not None
    ends: set[Square] = set()
    seen: set[tuple[Square, int]] = set()
    frontier = [(mover, max_steps)]
    while frontier:
        current, left = frontier.pop()
        assert current.square is not None
        if (current.square, left) in seen:
            continue
        seen.add((current.square, left))
        moved = tuple(current if f.id == current.id else f for f in figures)
        if can_stop_here(board, moved, current, pass_through_allies=True):
            ends.add(current.square)
        if left == 0:
            continue
        for direction in step_options(board, moved, current, left, pass_through_allies=True):
            nxt = msgspec.structs.replace(current, square=step(current, direction))
            frontier.append((nxt, left - 1))
    return ends


@given(_crowded_boards(), st.integers(0, 4))
def test_reachable_equals_exhaustive_step_options(
    case: tuple[Board, tuple[Figure, ...], Figure], max_steps: int
) -> None:
    # given any legal position, then reachable() is what step-by-step play can reach
    board, figures, mover = case
    ends = reachable(board, figures, mover, max_steps, pass_through_allies=True)
    if mover.square is None:
        assert ends == frozenset()
        return
    assert ends == _exhaustive_ends(board, figures, mover, max_steps)
    # and every end is a legal place to stand, with the footprint on the board
    for origin in ends:
        assert can_stand(board, figures, mover, origin, passable=frozenset())
        placed = msgspec.structs.replace(mover, square=origin)
        assert all(
            0 <= c < board.width and 0 <= r < board.height for c, r in figure_squares(placed)
        )


def _subsets(ids: list[str]) -> chain[tuple[str, ...]]:
    return chain.from_iterable(combinations(ids, n) for n in range(len(ids) + 1))


@given(_crowded_boards(), st.sampled_from(DIRECTIONS), st.integers(0, 5))
def test_forced_move_options_are_the_allies_choices(
    case: tuple[Board, tuple[Figure, ...], Figure], direction: Direction, distance: int
) -> None:
    # given any position, then the options are the ends over every choice of passing allies
    board, figures, mover = case
    options = forced_move_options(board, figures, mover, direction, distance)
    if mover.square is None:
        assert options == frozenset()
        return
    allies = [f.id for f in figures if f.side == mover.side and f.is_character and f.id != mover.id]
    ends = set()
    for passing in _subsets(allies):
        path = forced_path(board, figures, mover, direction, distance, passable=frozenset(passing))
        ends.add(path[-1] if path else mover.square)
        # a forced move keeps a Large footprint whole and on the board
        for origin in path:
            assert all(
                0 <= c < board.width and 0 <= r < board.height
                for c, r in footprint(origin, mover.size)
            )
    assert options == ends
    for origin in options:
        assert can_stand(board, figures, mover, origin)
