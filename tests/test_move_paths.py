"""Movement's fast paths agree with plain reference computations.

A Medium figure's step into an ordinary empty space is answered from the
occupancy index without classifying any space; the abilities that change a
unit's allowance, let it into blocking terrain or make it Ranged are found
once per unit; an attacker's choices after its attack are kept per state,
its push path found from the state's index. Each is checked here against
the plain computation it replaces, on random boards and through random
matches.
"""

from __future__ import annotations

from collections import deque

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from multiversus_core.rulesets.multiversus import activation, combat, movement, selections
from multiversus_core.rulesets.multiversus.abilities import abilities_of
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.geometry import (
    DIRECTIONS,
    ORTHOGONAL,
    figure_squares,
    push_direction,
    tile_squares,
)
from multiversus_core.rulesets.multiversus.match import apply, start_match
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Direction, Square
from multiversus_core.rulesets.multiversus.variants import VARIANTS, is_on
from tests.boards import random_scenes
from tests.test_fast_paths import _ReferenceSpaces


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
@given(
    random_scenes(), st.integers(0, 4), st.booleans(), st.booleans(), st.booleans(), st.booleans()
)
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
@given(random_scenes())
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


def _plain_allowance(state: MatchState, figure: Figure, double: bool) -> int:
    """A Move's allowance from every ability of the unit, one after the other."""
    spaces = selections.DOUBLE_MOVE_SPACES if double else selections.MOVE_SPACES
    if double and is_on(state, "diagonal-double-move"):
        spaces = selections.DIAGONAL_DOUBLE_MOVE_SPACES
    for ability in abilities_of(state.unit(figure.unit)):
        spaces = ability.movement(state, figure, spaces)
    return spaces


def _plain_follow_ups(state: MatchState) -> tuple[tuple[str, Direction | None], ...]:
    """The attacker's choices after an attack, from the plain step rule and a push path
    found without the state's index."""
    action = activation.current(state)
    assert action is not None and action.follow_up is not None and state.board is not None
    attacker = state.figure(action.follow_up[0])
    target = state.figure(action.follow_up[1])
    options: list[tuple[str, Direction | None]] = [("stay", None)]
    if attacker.condition != "disabled":
        steps = _reference_step_options(
            state.board, state.figures, attacker, 1, False, False, False, False
        )
        options.extend(("step", d) for d in steps)
    if (
        target.square is not None
        and attacker.square is not None
        and target.condition != "eliminated"
        and not set(figure_squares(attacker)) & set(figure_squares(target))
    ):
        path = movement.forced_path(
            state.board, state.figures, target, push_direction(attacker, target), 1
        )
        if path:
            options.append(("push", None))
    return tuple(options)


_ADVERSARIES = sorted(t.id for t in installed_teams() if t.side == "adversaries")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    adversaries=st.sampled_from(_ADVERSARIES),
    variants=st.sets(st.sampled_from(sorted(VARIANTS))),
)
@example(seed=3, adversaries="swartzblak", variants=set())  # Skulk: cats beside a Curtain
def test_movement_and_attack_rules_kept_per_unit_and_state_are_the_plain_ones(
    seed: int, adversaries: str, variants: set[str]
) -> None:
    # given a random match against any team under any variants, then at every state each
    # figure's allowance, whether it enters blocking terrain and whether it is Ranged, and
    # an attacker's choices after its attack, are what the plain rules give
    state = start_match(
        MatchSettings(seed=seed, adversaries=adversaries, variants=tuple(sorted(variants)))
    )
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    while not state.is_over:
        for figure in state.figures:
            if figure.square is None:
                continue
            abilities = abilities_of(state.unit(figure.unit))
            for double in (False, True):
                assert activation.move_allowance(state, figure, double) == _plain_allowance(
                    state, figure, double
                )
            assert activation.enters_blocking_terrain(state, figure) == any(
                a.enters_blocking_terrain() for a in abilities
            )
            assert combat.is_ranged(state, figure) == any(a.is_ranged() for a in abilities)
        if state.pending == "after_attack":
            assert activation.follow_up_options(state) == _plain_follow_ups(state)
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], state, seat))
