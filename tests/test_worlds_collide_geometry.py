"""worlds-collide geometry, each test named for the ruling it proves: steps and climbing (W2,
W37), fallen tokens (W32), sight (W3, W38), cover (W4, W31) and formations (W10, W13, W35).

On the bundled map "collision-point" (W26) and on small maps made by hand.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multiversus_core.engine.grid import Coord, connected, line_of_sight
from multiversus_core.rulesets.worlds_collide.content import Deployment, GameMap, Mission, find_map
from multiversus_core.rulesets.worlds_collide.geometry import (
    can_complete,
    ends,
    formation_connected,
    in_sight,
    moves,
    obscured,
    step_cost,
)

POINT = find_map("collision-point")
assert isinstance(POINT, GameMap)
NOBODY: frozenset[Coord] = frozenset()


def _map(*rows: str) -> GameMap:
    """A small map made by hand (W2's legend); its deployment and mission play no part here."""
    return GameMap(
        id="test",
        name="Test",
        rows=rows,
        deployment=Deployment(first=(0,), second=(len(rows) - 1,)),
        mission=Mission(id="collision-point", name="Test"),
    )


OPEN = _map(".....", ".....", ".....", ".....", ".....")
CORRIDOR = _map(
    "#####",
    ".....",
    "#####",
)
"""A corridor between ruins: the way round a model in it is over the ruins."""


def _cost(game_map: GameMap, a: Coord, b: Coord, enemies: Iterable[Coord] = ()) -> int | None:
    return step_cost(game_map, a, b, enemies=enemies)


# W2: a step, climbing, friends and enemies


def test_w2_a_step_to_any_of_the_8_neighbours_costs_1() -> None:
    for b in [(1, 1), (2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3), (3, 3)]:
        assert _cost(OPEN, (2, 2), b) == 1
    assert _cost(OPEN, (2, 2), (2, 2)) is None  # staying put is not a step
    assert _cost(OPEN, (2, 2), (4, 2)) is None
    assert _cost(OPEN, (0, 0), (-1, 0)) is None  # off the map
    assert _cost(OPEN, (5, 0), (4, 0)) is None


def test_w2_climbing_onto_and_off_a_ruin_costs_2_more() -> None:
    assert POINT.square((4, 3)) == "#"
    assert _cost(POINT, (5, 3), (4, 3)) == 3  # up
    assert _cost(POINT, (5, 2), (4, 3)) == 3  # up, diagonally
    assert _cost(POINT, (4, 3), (3, 3)) == 1  # along the top
    assert _cost(POINT, (3, 3), (2, 3)) == 3  # down
    assert _cost(POINT, (4, 3), (5, 4)) == 3


def test_w2_a_low_wall_and_an_objective_are_ground() -> None:
    assert POINT.square((12, 3)) == ":"
    assert POINT.square((2, 8)) == "O"
    assert _cost(POINT, (11, 3), (12, 3)) == 1
    assert _cost(POINT, (12, 3), (12, 4)) == 1
    assert _cost(POINT, (1, 8), (2, 8)) == 1


def test_w2_a_move_pays_the_climb() -> None:
    costs = moves(POINT, (5, 3), 3, enemies=NOBODY)
    assert costs[(5, 3)] == 0
    assert costs[(4, 3)] == 3
    assert (3, 3) not in costs  # 3 up, then 1 along
    assert (4, 3) not in moves(POINT, (5, 3), 2, enemies=NOBODY)
    assert moves(POINT, (5, 3), 4, enemies=NOBODY)[(3, 3)] == 4
    # round the 2x2 ruin by row 2 at 1 a step is cheaper than over it (3 + 1 + 3)
    assert moves(POINT, (2, 3), 6, enemies=NOBODY)[(5, 3)] == 3


def test_w2_a_model_passes_through_a_friend_but_does_not_end_on_it() -> None:
    friend = (1, 1)
    costs = moves(CORRIDOR, (0, 1), 3, enemies=NOBODY)
    assert costs[friend] == 1
    assert costs[(3, 1)] == 3
    assert friend not in ends(costs, {friend})
    assert ends(moves(CORRIDOR, (0, 1), 2, enemies=NOBODY), {friend}) == ((0, 1), (2, 1))


def test_w2_a_model_never_passes_through_an_enemy() -> None:
    enemy = {(1, 1)}
    costs = moves(CORRIDOR, (0, 1), 5, enemies=enemy)
    assert (1, 1) not in costs
    assert (2, 1) not in costs
    # the way round is over the ruins: up 3, down 3
    assert moves(CORRIDOR, (0, 1), 6, enemies=enemy)[(2, 1)] == 6
    assert step_cost(CORRIDOR, (0, 1), (1, 1), enemies=enemy) is None


def test_w2_a_model_may_pass_through_an_enemy_with_glamour_but_not_end_on_it() -> None:
    enemy = {(1, 1)}
    costs = moves(CORRIDOR, (0, 1), 2, enemies=enemy, through_enemies=True)
    assert costs[(1, 1)] == 1
    assert costs[(2, 1)] == 2
    assert (1, 1) not in ends(costs, enemy)
    assert step_cost(CORRIDOR, (0, 1), (1, 1), enemies=enemy, through_enemies=True) == 1


def test_w2_ends_are_in_reading_order_and_may_stay_put() -> None:
    costs = moves(OPEN, (2, 2), 1, enemies=NOBODY)
    assert ends(costs, {(1, 1), (3, 3)}) == (
        (2, 1),
        (3, 1),
        (1, 2),
        (2, 2),
        (3, 2),
        (1, 3),
        (2, 3),
    )


@given(
    st.tuples(st.integers(0, 16), st.integers(0, 16)),
    st.integers(0, 8),
    st.frozensets(st.tuples(st.integers(0, 16), st.integers(0, 16)), max_size=8),
)
def test_w2_a_move_costs_its_cheapest_path_of_steps(
    start: Coord, budget: int, enemies: frozenset[Coord]
) -> None:
    enemies = enemies - {start}
    costs = moves(POINT, start, budget, enemies=enemies)
    assert costs[start] == 0
    for at, spent in costs.items():
        assert at not in enemies
        if at != start:
            before = [
                costs[b] + step
                for b in costs
                if (step := step_cost(POINT, b, at, enemies=enemies)) is not None
            ]
            assert spent == min(before)


# W37: the corner rule for steps


def test_w37_a_diagonal_between_two_ruins_is_barred() -> None:
    pinched = _map(".#", "#.")
    assert _cost(pinched, (0, 0), (1, 1)) is None
    assert _cost(pinched, (1, 1), (0, 0)) is None
    assert moves(pinched, (0, 0), 2, enemies=NOBODY) == {(0, 0): 0}
    assert moves(pinched, (0, 0), 6, enemies=NOBODY)[(1, 1)] == 6  # over a ruin, 3 up, 3 down


def test_w37_a_diagonal_beside_one_ruin_is_allowed() -> None:
    assert _cost(_map(".#", ".."), (0, 0), (1, 1)) == 1
    assert _cost(_map("..", "#."), (0, 0), (1, 1)) == 1
    assert _cost(_map(".#", "#."), (1, 0), (0, 1)) == 1  # the other diagonal, ruin to ruin


def test_w37_a_diagonal_across_the_top_of_a_ruin_block_is_barred_too() -> None:
    assert [POINT.square(at) for at in [(8, 5), (9, 5), (8, 6), (9, 6)]] == ["#"] * 4
    assert _cost(POINT, (8, 5), (9, 6)) is None
    assert _cost(POINT, (8, 5), (9, 5)) == 1
    assert moves(POINT, (8, 5), 2, enemies=NOBODY)[(9, 6)] == 2


def test_w37_models_never_bar_a_diagonal() -> None:
    beside = {(1, 0), (0, 1)}
    assert step_cost(OPEN, (0, 0), (1, 1), enemies=beside) == 1
    assert step_cost(_map(".#", ".."), (0, 0), (1, 1), enemies={(0, 1)}) == 1


# W32: fallen tokens


def test_w32_fallen_tokens_block_nothing() -> None:
    # The geometry is never told of fallen tokens: a token's square is an empty square.
    for function in (step_cost, moves, in_sight, obscured, ends):
        assert not any(
            "token" in name or "fallen" in name for name in inspect.signature(function).parameters
        )
    token = (2, 1)
    costs = moves(CORRIDOR, (0, 1), 3, enemies=NOBODY)
    assert costs[(3, 1)] == 3  # crossed
    assert token in ends(costs, occupied=NOBODY)  # and ended on
    assert not obscured(CORRIDOR, (0, 1), (4, 1), models=NOBODY)


# W3 and W38: sight


def test_w3_a_ruin_between_blocks_sight() -> None:
    assert not in_sight(POINT, (0, 3), (7, 3))  # through (3, 3) and (4, 3)
    assert not in_sight(POINT, (3, 2), (3, 5))
    assert not in_sight(POINT, (7, 3), (0, 3))


def test_w3_a_model_on_a_ruin_sees_and_is_seen() -> None:
    assert in_sight(POINT, (3, 3), (3, 0))
    assert in_sight(POINT, (3, 0), (3, 3))
    assert in_sight(POINT, (4, 4), (4, 3))  # ruin to ruin, nothing between


def test_w3_a_low_wall_or_a_model_does_not_block_sight() -> None:
    assert in_sight(POINT, (9, 3), (15, 3))  # over the low wall (12, 3)
    assert in_sight(POINT, (0, 7), (5, 7))  # over (1, 7)
    assert "models" not in inspect.signature(in_sight).parameters


def test_w3_a_corner_blocks_sight_only_when_both_squares_are_ruins() -> None:
    assert not in_sight(_map(".#", "#."), (0, 0), (1, 1))
    assert in_sight(_map(".#", ".."), (0, 0), (1, 1))
    assert in_sight(_map("..", "#."), (1, 1), (0, 0))
    # a long diagonal passes two corners: both ruins at one of them block it
    assert not in_sight(_map("...", "..#", ".#."), (0, 0), (2, 2))
    assert in_sight(_map("...", "..#", "#.."), (0, 0), (2, 2))
    assert in_sight(_map(".#.", "..#", "..."), (2, 2), (0, 0))


def test_w3_sight_off_the_map_is_an_error() -> None:
    with pytest.raises(IndexError, match="not on the 17x17 map"):
        in_sight(POINT, (0, 0), (17, 0))


squares = st.tuples(st.integers(0, 16), st.integers(0, 16))


@given(squares, squares, st.none() | st.integers(1, 20))
def test_w3_sight_is_the_shared_line_of_sight_over_ruins_and_symmetric(
    a: Coord, b: Coord, limit: int | None
) -> None:
    seen = in_sight(POINT, a, b, limit)
    assert seen == in_sight(POINT, b, a, limit)
    if limit is None:
        assert seen == line_of_sight(a, b, POINT.blocks_sight)
    else:
        assert seen == (in_sight(POINT, a, b) and max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= limit)


def test_w38_a_sight_limit_of_n_includes_distance_n() -> None:
    assert in_sight(POINT, (0, 0), (4, 0), limit=4)
    assert not in_sight(POINT, (0, 0), (5, 0), limit=4)
    assert in_sight(POINT, (10, 0), (14, 4), limit=4)  # distance is the larger difference (W1)
    assert not in_sight(POINT, (10, 0), (14, 5), limit=4)
    assert in_sight(POINT, (10, 0), (14, 5), limit=5)
    assert in_sight(POINT, (2, 2), (2, 2), limit=1)
    assert not in_sight(POINT, (0, 3), (5, 3), limit=8)  # a limit never lends sight through a ruin


# W4 and W31: cover


def test_w4_a_low_wall_between_gives_cover() -> None:
    assert obscured(POINT, (9, 3), (15, 3), models=NOBODY)
    assert obscured(POINT, (15, 3), (9, 3), models=NOBODY)
    assert not obscured(POINT, (9, 2), (15, 2), models=NOBODY)


def test_w4_a_model_between_gives_cover_whichever_side_it_is_on() -> None:
    assert obscured(OPEN, (0, 2), (4, 2), models={(2, 2)})
    assert obscured(OPEN, (0, 0), (4, 4), models=[(3, 3)])
    assert not obscured(OPEN, (0, 2), (4, 2), models={(2, 1), (2, 3)})


def test_w31_the_target_s_own_low_wall_gives_cover() -> None:
    assert obscured(POINT, (8, 3), (12, 3), models=NOBODY)
    assert obscured(POINT, (12, 2), (12, 3), models=NOBODY)  # even from next to it


def test_w31_the_attacker_s_own_low_wall_never_does() -> None:
    assert not obscured(POINT, (12, 3), (15, 3), models=NOBODY)
    assert not obscured(POINT, (12, 3), (12, 0), models=NOBODY)
    assert obscured(POINT, (12, 3), (12, 0), models={(12, 1)})


def test_w31_a_corner_graze_gives_no_cover() -> None:
    # (0, 0) to (2, 2) crosses (1, 1) and touches (1, 0), (0, 1), (2, 1) and (1, 2) at corners
    grazed = _map(".:.", ":.:", ".:.")
    assert not obscured(grazed, (0, 0), (2, 2), models=NOBODY)
    assert not obscured(OPEN, (0, 0), (2, 2), models={(1, 0), (2, 1)})
    assert obscured(_map("...", ".:.", "..."), (0, 0), (2, 2), models=NOBODY)
    assert obscured(OPEN, (0, 0), (2, 2), models={(1, 1)})


def test_w31_only_squares_the_line_crosses_count() -> None:
    # (0, 0) to (2, 1) crosses (1, 0) and (1, 1), not (0, 1) or (2, 0)
    assert obscured(_map(".:..", "....", "...."), (0, 0), (2, 1), models=NOBODY)
    assert not obscured(_map("..:.", ":...", "...."), (0, 0), (2, 1), models=NOBODY)
    assert obscured(OPEN, (0, 0), (2, 1), models={(1, 1)})
    assert not obscured(OPEN, (0, 0), (2, 1), models={(0, 1), (2, 0), (3, 1)})


def test_w31_the_two_models_themselves_never_give_cover() -> None:
    assert not obscured(OPEN, (0, 2), (4, 2), models={(0, 2), (4, 2)})
    assert not obscured(OPEN, (1, 1), (1, 2), models={(1, 1), (1, 2)})
    assert not obscured(OPEN, (1, 1), (1, 1), models=NOBODY)


# W10, W13, W35: formations


def test_w10_a_formation_is_one_group_by_adjacency() -> None:
    assert formation_connected([(3, 3), (4, 4), (5, 3)])
    assert formation_connected([(3, 3)])
    assert formation_connected([])
    assert not formation_connected([(3, 3), (5, 3)])


def test_w13_a_line_translating_as_a_whole_can_be_completed() -> None:
    line = [(column, 14) for column in range(4, 9)]
    ahead = [{(column, 13)} for column, _ in line]
    assert can_complete(set(), ahead)
    assert can_complete({(4, 13), (5, 13)}, ahead[2:])
    # each model of Move 1, every end open to it
    reach = [set(moves(POINT, at, 1, enemies=NOBODY)) for at in line]
    assert can_complete({(4, 13)}, reach[1:])
    assert can_complete({(4, 12)}, reach[1:])  # one square ahead of the rest: (5, 13) joins
    assert not can_complete({(4, 11)}, reach[1:])  # too far ahead for the rest to follow


def test_w13_two_models_that_cannot_reach_each_other_cannot_complete() -> None:
    assert not can_complete(set(), [{(0, 0), (1, 0)}, {(10, 10), (10, 11)}])
    assert not can_complete({(0, 0)}, [{(10, 10)}])
    assert can_complete(set(), [{(0, 0), (9, 9)}, {(10, 10), (10, 11)}])


def test_w13_the_models_still_to_move_must_bridge_the_placed_ones() -> None:
    placed = {(0, 0), (4, 0)}
    assert not can_complete(placed, [{(1, 0), (2, 0)}, {(2, 0), (3, 0)}])
    assert can_complete(placed, [{(1, 0), (2, 0)}, {(2, 0), (3, 0)}, {(3, 0), (3, 1)}])
    assert can_complete(placed, [{(1, 1)}, {(2, 1)}, {(3, 1)}])


def test_w13_can_complete_is_exact_where_a_greedy_attach_would_refuse() -> None:
    # Giving the first model (1, 0), next to the group, leaves the second nowhere.
    placed = {(0, 0), (3, 0)}
    assert can_complete(placed, [{(1, 0), (2, 0)}, {(1, 0)}])
    assert can_complete(placed, [{(1, 0)}, {(1, 0), (2, 0)}])


def test_w13_two_models_never_end_on_one_square() -> None:
    assert not can_complete({(0, 0)}, [{(1, 0)}, {(1, 0)}])
    assert not can_complete({(0, 0)}, [{(0, 0)}])  # nor on a placed one
    assert can_complete({(0, 0)}, [{(0, 0), (1, 1)}])


def test_w13_with_no_model_left_the_placed_squares_decide() -> None:
    assert can_complete(set(), [])
    assert can_complete({(0, 0), (1, 1)}, [])
    assert not can_complete({(0, 0), (5, 5)}, [])


def test_w35_a_model_with_nowhere_to_end_cannot_complete() -> None:
    assert not can_complete({(0, 0)}, [{(1, 1)}, set()])
    assert can_complete(set(), [{(3, 3)}])


def test_w13_a_move_built_one_model_at_a_time_never_dead_ends() -> None:
    # A block of 10 of Move 4 near the first deployment rows, each taking the last
    # square it may in reading order: every choice leaves the rest completable.
    block = [(column, row) for row in (1, 2) for column in range(6, 11)]
    enemies = {(8, 4), (9, 4)}
    options = [set(ends(moves(POINT, at, 4, enemies=enemies), enemies)) for at in block]
    placed: set[Coord] = set()
    for index, squares in enumerate(options):
        fits = [
            at
            for at in sorted(squares - placed)
            if can_complete(placed | {at}, options[index + 1 :])
        ]
        assert fits
        placed.add(max(fits, key=lambda at: (at[1], at[0])))
    assert len(placed) == 10
    assert formation_connected(placed)


def _brute(placed: set[Coord], remaining: list[set[Coord]]) -> bool:
    choices = [sorted(squares - placed) for squares in remaining]
    return any(
        len(set(chosen)) == len(chosen) and connected(placed | set(chosen))
        for chosen in itertools.product(*choices)
    )


small = st.tuples(st.integers(0, 4), st.integers(0, 4))


@given(
    st.sets(small, max_size=3),
    st.lists(st.sets(small, max_size=7), max_size=4),
)
def test_w13_can_complete_finds_a_completion_whenever_there_is_one(
    placed: set[Coord], remaining: list[set[Coord]]
) -> None:
    assert can_complete(placed, remaining) == _brute(placed, remaining)
