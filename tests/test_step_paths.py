"""The step path's fast paths agree with plain reference computations.

Deciding a step asks about one direction only; a state after a step takes
its occupancy index, trigger candidates and spaces beside the reactive units
from the state before; whether a figure is beside a unit is read from the
spaces around the unit's characters; a step reads the movement it has left from
the rules that let it step, and builds its held step only when it triggers.
Each is checked here against the plain computation it replaces, on random
boards and through random matches.
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core.rulesets.multiversus import activation, movement, selections
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.commands import Step
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.geometry import (
    DIRECTIONS,
    ORTHOGONAL,
    are_adjacent,
    figure_squares,
)
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.match import apply, start_match
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState, Suspended
from multiversus_core.rulesets.multiversus.terms import Square
from multiversus_core.rulesets.multiversus.units import coin_unit
from tests.boards import random_scenes


def _covering(index: movement.Occupancy) -> dict[Square, set[str]]:
    """The ids of the figures covering each space, as the index holds them."""
    return {square: {f.id for f in found} for square, found in index.at.items()}


@settings(deadline=None)
@given(random_scenes(), st.data())
def test_an_index_moved_by_one_figure_equals_the_index_built_afresh(
    scene: tuple[Board, tuple[Figure, ...], Figure], data: st.DataObject
) -> None:
    # given any scene, when one figure moves anywhere (or leaves the board)
    board, figures, mover = scene
    square = data.draw(
        st.none() | st.tuples(st.integers(0, board.width - 1), st.integers(0, board.height - 1))
    )
    after = msgspec.structs.replace(mover, square=square)
    moved = tuple(after if f.id == mover.id else f for f in figures)
    units = {f.unit for f in figures}
    before = movement.Occupancy(board, figures)
    for unit in data.draw(st.sets(st.sampled_from(sorted(units)))):
        before.beside(unit)  # some computed before the move, some not
    index = before.moved(mover, after, moved)
    fresh = movement.Occupancy(board, moved)
    # then the updated index holds exactly the figures a new index holds, space by space,
    # and the same spaces beside each unit
    assert _covering(index) == _covering(fresh)
    assert all(f in moved for found in index.at.values() for f in found)
    assert index.tiles == fresh.tiles and index.figures is moved and index.board is board
    for unit in units:
        assert index.beside(unit) == fresh.beside(unit)


@settings(deadline=None)
@given(random_scenes())
def test_the_spaces_beside_a_unit_give_adjacency_to_its_characters(
    scene: tuple[Board, tuple[Figure, ...], Figure],
) -> None:
    # given any scene, then a figure of another unit is beside a unit's characters exactly
    # when it is adjacent to one of them (pair by pair, rulebook Adjacency, R21)
    board, figures, _ = scene
    index = movement.Occupancy(board, figures)
    for unit in {f.unit for f in figures}:
        ring, covered = index.beside(unit)
        for figure in figures:
            adjacent = any(
                are_adjacent(figure, other)
                for other in figures
                if other.unit == unit and other.square is not None and not other.terrain
            )
            assert index.is_beside(figure, unit) == adjacent
            if figure.unit == unit or figure.square is None:
                continue
            squares = set(figure_squares(figure))
            near = bool(ring & squares) or (figure.terrain and bool(covered & squares))
            assert near == adjacent


@settings(deadline=None)
@given(random_scenes())
def test_the_figures_near_one_are_those_adjacent_to_it_or_sharing_a_space(
    scene: tuple[Board, tuple[Figure, ...], Figure],
) -> None:
    # given any scene, then the index's figures near a figure are exactly the other
    # on-board figures adjacent to it or sharing one of its spaces
    board, figures, _ = scene
    index = movement.Occupancy(board, figures)
    for figure in figures:
        mine = set(figure_squares(figure))
        assert index.near(figure) == {
            other.id
            for other in figures
            if other.id != figure.id
            and other.square is not None
            and (are_adjacent(figure, other) or bool(mine & set(figure_squares(other))))
        }
        alone = not any(
            other.id != figure.id and mine & set(figure_squares(other)) for other in figures
        )
        assert index.alone(figure) == alone


@settings(deadline=None)
@given(random_scenes(), st.booleans())
def test_stopping_with_a_shared_index_agrees_with_stopping_without(
    scene: tuple[Board, tuple[Figure, ...], Figure], allies: bool
) -> None:
    # given any scene, then the index's quick answer for a figure alone in its spaces is
    # the answer of the full classification
    board, figures, mover = scene
    index = movement.Occupancy(board, figures)
    spaces = movement._regular_spaces(board, figures, mover, allies)
    expected = mover.square is not None and spaces.rests(mover.square, mover.size)
    assert (
        movement.can_stop_here(board, figures, mover, pass_through_allies=allies, occupancy=index)
        == expected
    )


@settings(deadline=None)
@given(random_scenes(), st.integers(0, 4), st.booleans(), st.booleans())
def test_the_search_for_a_resting_origin_stops_early_and_agrees_with_the_full_search(
    scene: tuple[Board, tuple[Figure, ...], Figure], limit: int, allies: bool, diagonal: bool
) -> None:
    # given any scene, then from every start some origin within the limit rests exactly
    # when one of all the origins within the limit does
    board, figures, mover = scene
    spaces = movement._regular_spaces(board, figures, mover, allies)
    directions = DIRECTIONS if diagonal else ORTHOGONAL
    for c in range(board.width):
        for r in range(board.height):
            found = spaces.distances((c, r), mover.size, limit, directions)
            everywhere = any(spaces.rests(o, mover.size) for o in found if o != (c, r))
            assert spaces.escapes((c, r), mover.size, limit, directions) == everywhere


@settings(deadline=None)
@given(
    random_scenes(), st.integers(0, 4), st.booleans(), st.booleans(), st.booleans(), st.booleans()
)
def test_asking_about_one_direction_agrees_with_listing_every_direction(
    scene: tuple[Board, tuple[Figure, ...], Figure],
    steps: int,
    allies: bool,
    diagonal: bool,
    corners: bool,
    into_terrain: bool,
) -> None:
    # given any scene and movement rules, then a direction may be stepped exactly when listed
    board, figures, mover = scene
    listed = movement.step_options(
        board,
        figures,
        mover,
        steps,
        pass_through_allies=allies,
        diagonal=diagonal,
        corners_block=corners,
        into_terrain=into_terrain,
    )
    for direction in DIRECTIONS:
        allowed = movement.can_step(
            board,
            figures,
            mover,
            direction,
            steps,
            pass_through_allies=allies,
            diagonal=diagonal,
            corners_block=corners,
            into_terrain=into_terrain,
        )
        assert allowed == (direction in listed)


def _fresh(state: MatchState) -> MatchState:
    """The same state without anything cached on it."""
    return msgspec.structs.replace(state)


def _check_step_values(state: MatchState) -> None:
    """Every value the step path caches or carries on ``state`` equals the plain computation."""
    plain = _fresh(state)
    cache = state.__dict__
    if "_candidates" in cache:
        assert cache["_candidates"] == activation._find_candidates(plain)
    # the able figures by unit, if kept or carried, and the figures on the board by unit
    able = cache.get("_by_figures", {}).get("_able_figures")
    if able is not None:
        assert able == selections._able_by_unit(plain)
    for unit in state.units:
        on_board = tuple(f for f in state.figures if f.unit == unit.id and f.square is not None)
        assert selections.figures_of(state, unit) == on_board
    index = cache.get("_by_figures", {}).get("_occupancy")
    if index is not None:
        assert _covering(index) == _covering(activation._occupancy(plain))
        assert index.figures is state.figures
    for unit in state.units:
        for figure in state.figures:
            # the plain rule: adjacent to one of the unit's characters on the board
            near = any(
                are_adjacent(figure, other)
                for other in state.figures
                if other.unit == unit.id and other.square is not None and not other.terrain
            )
            assert activation._beside(state, figure, unit) == near
    if state.pending == "attack":
        for attacker in activation.attackers(state):
            targets = activation._attack_targets(plain, attacker)
            assert activation.attack_targets(state, attacker) == targets
    if state.pending == "stunt":
        for figure in activation.stunters(state):
            options = activation._stunt_options(plain, figure)
            assert activation.stunt_options(state, figure) == options
    if state.pending == "move":
        for figure in activation.movers(state):
            listed = activation._step_options(plain, figure)
            for direction in DIRECTIONS:
                assert activation.can_step(state, figure, direction) == (direction in listed)
                assert activation.can_step(_fresh(state), figure, direction) == (
                    direction in listed
                )


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), listing=st.booleans())
def test_values_carried_through_steps_agree_with_plain_computations(
    seed: int, listing: bool
) -> None:
    # given a random match, deciding each command with or without listing first,
    # then after every command the cached and carried values are those computed afresh
    rng = random.Random(seed)
    state = start_match(MatchSettings(seed=seed))
    bots = {1: RandomBot(rng.getrandbits(32)), 2: RandomBot(rng.getrandbits(32))}
    steps = 0
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        if listing:
            legal_commands(state, seat)  # as the engine does before deciding
            command = command_for(bots[seat], state, seat)
        else:
            command = command_for(bots[seat], _fresh(state), seat)  # as when verifying
        state, _ = apply(state, command)
        steps += isinstance(command, Step)
        _check_step_values(state)
    assert steps > 0


def _move_states(seed: int, variants: tuple[str, ...]) -> list[MatchState]:
    """The states of a random match under ``variants`` that wait for a move, as verified:
    each decided without listing first."""
    state = start_match(MatchSettings(seed=seed, variants=variants))
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    found = []
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        if state.pending == "move":
            found.append(state)
        state, _ = apply(state, command_for(bots[seat], _fresh(state), seat))
    return found


_STEP_VARIANTS = (
    "diagonal-double-move",
    "diagonal-movement",
    "disengage-trigger",
    "move-reaction-at-end",
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    variants=st.sets(st.sampled_from(_STEP_VARIANTS)).map(lambda v: tuple(sorted(v))),
)
def test_a_step_offers_and_takes_what_the_plain_held_step_would(
    seed: int, variants: tuple[str, ...]
) -> None:
    # given the states of a random match that wait for a move, for every step a mover may take
    checked = 0
    for state in _move_states(seed, variants):
        action = activation.current(state)
        act = state.activation
        assert action is not None and act is not None
        # then every figure is a terrain piece exactly when its unit is the Terrain unit (what
        # the step's offer reads from the figure)
        assert all(f.terrain == state.unit(f.unit).is_terrain for f in state.figures)
        for figure in activation.movers(state):
            rules = activation._step_rules(state, figure, action)
            # and the movement left that the step path reads from the step's rules is the
            # move's own: the mover's steps left, or a new mover's allowance
            if rules is not None:
                left = (
                    action.steps_left
                    if action.mover == figure.id
                    else activation.move_allowance(state, figure, action.double)
                )
                assert rules[0] == left
            if action.side != act.side:
                continue  # a reaction's steps are never offered
            for direction in activation.step_options(_fresh(state), figure):
                to = movement.step(figure, direction)
                # and the step's offer, its held step built only when it triggers, is the
                # plain offer of the held step: the same answer and the same events
                quick, plain = Builder(_fresh(state)), Builder(_fresh(state))
                offered = activation._offer_step(quick, act, figure, to)
                held = Suspended(step="step", figure=figure.id, to=to)
                assert offered == activation._offer(plain, held)
                assert quick.events == plain.events
                checked += 1
    assert checked > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_trigger_candidates_are_the_units_the_reactive_player_might_have_selected(
    seed: int,
) -> None:
    # given the states of a random match with a reactive selection made and not revealed
    checked = 0
    state = start_match(MatchSettings(seed=seed))
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    while not state.is_over:
        act = state.activation
        if act is not None and act.reaction_coin is not None and not act.reaction_revealed:
            # then the candidates are, plainly, the reactive side's units with a coin in the
            # stash (or the one selected), each with every kind of coin it could select
            side = "adversaries" if act.side == "heroes" else "heroes"
            stash = state.piles(side).stash_units | {coin_unit(act.reaction_coin)}
            plain = []
            for unit in state.units:
                options = selections.reactive_selections(_fresh(state), unit)
                kinds = frozenset(k for coins in options for k in coins)
                if unit.side == side and unit.id in stash and kinds:
                    plain.append((unit, kinds))
            assert activation._find_candidates(_fresh(state)) == tuple(plain)
            checked += 1
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], _fresh(state), seat))
    assert checked > 0
