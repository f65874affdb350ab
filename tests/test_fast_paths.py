"""The engine's fast paths agree with plain reference computations.

Movement classifies spaces lazily from a shared occupancy index; states cache
lookups (figures by id and unit, coin kinds in a stash, step options, the
seat to decide) and carry those that depend only on figures and units to the
next state. Each is checked here against the plain computation it replaces.
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.rulesets.multiversus import activation, movement, selections
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.decide import _decider_seat, _expect, decider_seat
from multiversus_core.rulesets.multiversus.geometry import (
    DIRECTIONS,
    are_adjacent,
    figure_squares,
    footprint,
    tile_squares,
)
from multiversus_core.rulesets.multiversus.initiative import greys_in_discard
from multiversus_core.rulesets.multiversus.match import apply, fold, start_match
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState, Pending, Piles
from multiversus_core.rulesets.multiversus.terms import Direction, Seat, Side, Size, Square
from multiversus_core.rulesets.multiversus.units import coin_colour, coin_unit, is_grey
from tests.boards import random_scenes
from tests.support import plain_decider_seat


class _ReferenceSpaces:
    """The eager classification movement used before the occupancy index: sets of spaces."""

    def __init__(
        self,
        board: Board,
        figures: tuple[Figure, ...],
        mover: Figure,
        passable: frozenset[str],
        into_terrain: bool = False,
    ) -> None:
        blocked: set[Square] = set()
        soft: set[Square] = set()
        terrain: set[Square] = set()
        into_terrain = into_terrain and not mover.terrain
        for tile in board.tiles:
            if (tile.blocking and not into_terrain) or mover.terrain:
                blocked.update(tile_squares(tile))
            if tile.blocking:
                terrain.update(tile_squares(tile))
        for other in figures:
            if other.id == mover.id or other.square is None:
                continue
            squares = figure_squares(other)
            if other.terrain:
                if (other.blocking and not into_terrain) or mover.terrain:
                    blocked.update(squares)
                if other.blocking:
                    terrain.update(squares)
            elif mover.terrain:
                blocked.update(squares)  # a moved terrain piece never enters a character (R26)
            elif other.id in passable or not other.blocking:
                soft.update(squares)
            else:
                blocked.update(squares)
        self.width, self.height = board.width, board.height
        self.blocked, self.soft, self.terrain = blocked, soft - blocked, terrain

    def free(self, square: Square) -> bool:
        c, r = square
        return 0 <= c < self.width and 0 <= r < self.height and square not in self.blocked

    def rests(self, origin: Square, size: Size) -> bool:
        return self.soft.isdisjoint(footprint(origin, size))

    def stands(self, origin: Square, size: Size) -> bool:
        squares = footprint(origin, size)
        return all(self.free(s) for s in squares) and self.soft.isdisjoint(squares)

    def advance(
        self, origin: Square, size: Size, direction: Direction, corners: bool
    ) -> Square | None:
        new = (origin[0] + direction[0], origin[1] + direction[1])
        old = footprint(origin, size)
        if not all(self.free(s) for s in footprint(new, size) if s not in old):
            return None
        if corners and direction[0] and direction[1]:
            for corner in (
                (origin[0] + direction[0], origin[1]),
                (origin[0], origin[1] + direction[1]),
            ):
                if any(s in self.terrain for s in footprint(corner, size) if s not in old):
                    return None
        return new


@settings(deadline=None)
@given(random_scenes(), st.data())
def test_lazy_spaces_classify_every_space_as_the_eager_sets_do(
    scene: tuple[Board, tuple[Figure, ...], Figure], data: st.DataObject
) -> None:
    # given any board, figures and mover, whether passable figures are listed or are its allies
    board, figures, mover = scene
    listed = frozenset(data.draw(st.sets(st.sampled_from([f.id for f in figures]))))
    into_terrain = data.draw(st.booleans())
    allies = movement._allies(figures, mover)
    index = movement.Occupancy(board, figures)
    for passable, reference_passable in ((listed, listed), (None, allies)):
        fast = movement._Spaces(board, figures, mover, passable, into_terrain, index)
        reference = _ReferenceSpaces(board, figures, mover, reference_passable, into_terrain)
        # then every space, on the board and just off it, is classified alike
        for c in range(-2, board.width + 2):
            for r in range(-2, board.height + 2):
                assert fast.free((c, r)) == reference.free((c, r))
                for size in ("medium", "large"):
                    assert fast.rests((c, r), size) == reference.rests((c, r), size)
                    assert fast.stands((c, r), size) == reference.stands((c, r), size)
                    for direction in DIRECTIONS:
                        for corners in (False, True):
                            fast.corners = corners
                            assert fast.advance((c, r), size, direction) == reference.advance(
                                (c, r), size, direction, corners
                            )
        assert set(index.tiles) == {s for t in board.tiles for s in tile_squares(t)}


@settings(deadline=None)
@given(random_scenes(), st.integers(0, 4), st.booleans(), st.booleans())
def test_movement_with_a_shared_index_equals_movement_without(
    scene: tuple[Board, tuple[Figure, ...], Figure],
    steps: int,
    allies: bool,
    diagonal: bool,
) -> None:
    # given any scene, then passing its occupancy index changes no answer
    board, figures, mover = scene
    index = movement.Occupancy(board, figures)
    assert movement.step_options(
        board, figures, mover, steps, pass_through_allies=allies, diagonal=diagonal
    ) == movement.step_options(
        board,
        figures,
        mover,
        steps,
        pass_through_allies=allies,
        diagonal=diagonal,
        occupancy=index,
    )
    assert movement.reachable(
        board, figures, mover, steps, pass_through_allies=allies
    ) == movement.reachable(
        board, figures, mover, steps, pass_through_allies=allies, occupancy=index
    )
    assert movement.can_stop_here(
        board, figures, mover, pass_through_allies=allies
    ) == movement.can_stop_here(board, figures, mover, pass_through_allies=allies, occupancy=index)


def _fresh(state: MatchState) -> MatchState:
    """The same state without anything cached on it."""
    return msgspec.structs.replace(state)


def _check_lookups(state: MatchState) -> None:
    """Every cached lookup of ``state`` equals the plain computation on a fresh copy."""
    plain = _fresh(state)
    for figure in state.figures:
        assert state.figure(figure.id) is next(f for f in state.figures if f.id == figure.id)
    for unit in state.units:
        assert state.unit(unit.id) is next(u for u in state.units if u.id == unit.id)
        on_board = tuple(f for f in state.figures if f.unit == unit.id and f.square is not None)
        assert selections.figures_of(state, unit) == on_board
        assert selections.able_figures(state, unit) == tuple(
            f for f in on_board if f.condition != "disabled"
        )
        if state.activation is not None:
            assert selections.reactive_selections(state, unit) == selections._reactive_selections(
                plain, unit
            )
            assert selections.active_selections(state, unit) == selections._active_selections(
                plain, unit
            )
    for side in ("heroes", "adversaries"):
        stashed = [state.unit(coin_unit(c)) for c in state.piles(side).stash]
        ours = [unit for unit in stashed if unit.side == side]
        assert selections.has_legal_activation(state, side) == any(
            selections._active_selections(plain, unit) for unit in ours
        )
        assert selections.can_react(state, side) == any(
            selections._reactive_selections(plain, unit) for unit in ours
        )
    for piles in (state.heroes, state.adversaries):
        kinds = list(dict.fromkeys((coin_unit(c), coin_colour(c)) for c in piles.stash))
        assert list(piles.stash_kinds) == kinds
        assert piles.stash_units == {coin_unit(c) for c in piles.stash}
    assert decider_seat(state) == _decider_seat(plain)
    if state.pending == "move":
        for figure in state.figures:
            assert activation.step_options(state, figure) == activation._step_options(plain, figure)
        assert activation.can_end_move(state) == activation._can_end_move(plain)
    if state.pending == "offer" or (state.activation and state.activation.reaction_coin):
        assert activation._candidates(state) == activation._find_candidates(plain)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_cached_lookups_agree_with_plain_scans_through_random_matches(seed: int) -> None:
    # given a random match, then at every state each cached lookup is the plain answer,
    # and applying commands gives the state that folding their events gives
    rng = random.Random(seed)
    state = start_match(MatchSettings(seed=seed))
    bots = {1: RandomBot(rng.getrandbits(32)), 2: RandomBot(rng.getrandbits(32))}
    while not state.is_over:
        _check_lookups(state)
        seat = decider_seat(state)
        assert seat is not None
        before = state
        state, events = apply(state, command_for(bots[seat], state, seat))
        assert state == fold(events, _fresh(before))


def _reference_expect(state: MatchState, player: Seat, *pending: Pending) -> Side | str:
    """What _expect checks, by the deciding seat: the player's side, or the refusal."""
    if state.pending == "over":
        return "the match is over"
    if state.pending not in pending or plain_decider_seat(state) != player:
        return "not waiting"
    return state.side_of(player) or "heroes"


_EXPECTED: tuple[tuple[Pending, ...], ...] = (
    *[(p,) for p in ("flip", "teams", "starting_team", "side", "select", "react")],
    *[(p,) for p in ("begin_action", "offer", "forced", "secret", "roll", "after_attack")],
    ("move", "attack", "stunt"),
)
"""The decisions each command expects (EndAction expects any of three)."""


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_deciding_seat_and_side_agree_with_the_rules_through_random_matches(
    seed: int,
) -> None:
    # given a random match, then at every state the deciding seat is the one the rules name,
    # and each command's check of who decides (by sides during play) accepts exactly that seat
    rng = random.Random(seed)
    state = start_match(MatchSettings(seed=seed, variants=("secret-schemes",)))
    bots = {1: RandomBot(rng.getrandbits(32)), 2: RandomBot(rng.getrandbits(32))}
    while True:
        assert _decider_seat(_fresh(state)) == plain_decider_seat(state)
        for player in (1, 2):
            for pending in _EXPECTED:
                try:
                    got: Side | str = _expect(_fresh(state), player, *pending)
                except IllegalCommandError as refusal:
                    got = "the match is over" if "over" in str(refusal) else "not waiting"
                assert got == _reference_expect(state, player, *pending)
        if state.is_over:
            break
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], state, seat))


_coins = st.builds(
    lambda unit, colour, number: f"{unit}.{colour}{number}",
    st.text(alphabet="ab.-_1", min_size=1, max_size=6),
    st.sampled_from(("green", "grey")),
    st.integers(1, 3),
)


@given(discard=st.lists(_coins | st.text(max_size=8), max_size=10).map(tuple))
def test_greys_in_discard_counts_the_coins_is_grey_names(discard: tuple[str, ...]) -> None:
    # given any discard, then the count by cached coin kinds is the count of is_grey coins
    state = MatchState(settings=MatchSettings(), heroes=Piles(discard=discard))
    assert greys_in_discard(state, "heroes") == sum(map(is_grey, discard))
    assert greys_in_discard(state, "adversaries") == 0


def test_a_step_keeps_nothing_cached_from_the_old_figures() -> None:
    # given a match in a Move, when a figure steps, then the new state's lookups see the step
    state = start_match(MatchSettings(seed=5))
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    stepped = 0
    while not state.is_over and stepped < 20:
        seat = decider_seat(state)
        assert seat is not None
        command = command_for(bots[seat], state, seat)
        state, _ = apply(state, command)
        if type(command).__name__ == "Step":
            stepped += 1
            _check_lookups(state)
    assert stepped == 20 or state.is_over


def _reference_adjacent(a: Figure, b: Figure) -> bool:
    """Adjacency from the figures' spaces, pair by pair (rulebook *Adjacency*, R21)."""
    if a.id == b.id:
        return False
    pairs = [(sa, sb) for sa in figure_squares(a) for sb in figure_squares(b)]
    distances = {max(abs(sa[0] - sb[0]), abs(sa[1] - sb[1])) for sa, sb in pairs}
    return 1 in distances or (0 in distances and a.terrain != b.terrain)


_squares = st.none() | st.tuples(st.integers(0, 5), st.integers(0, 5))


@settings(deadline=None)
@given(
    a_square=_squares,
    b_square=_squares,
    a_size=st.sampled_from(["medium", "large"]),
    b_size=st.sampled_from(["medium", "large"]),
    a_terrain=st.booleans(),
    b_terrain=st.booleans(),
    same=st.booleans(),
)
def test_adjacency_fast_path_agrees_with_the_pairwise_definition(
    a_square: Square | None,
    b_square: Square | None,
    a_size: Size,
    b_size: Size,
    a_terrain: bool,
    b_terrain: bool,
    same: bool,
) -> None:
    a = Figure("a", "A", "u", "heroes", a_square, size=a_size, terrain=a_terrain)
    b = Figure("a" if same else "b", "B", "v", "adversaries", b_square, b_size, b_terrain)
    assert are_adjacent(a, b) == _reference_adjacent(a, b)
