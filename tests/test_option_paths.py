"""Deciding a stunt, an attack or a choice after an attack checks the one option named.

The listing builds every option of a figure (or of the attacker after its
attack); deciding one command needs only the option it names. Each check is
compared here with membership in the plain listing, for every candidate
option, valid or not, in states of random matches under random variants, as
played and with the figures scattered over the board; and once the listing
has been made, the checks read it rather than work anything out again.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core.rulesets.multiversus import activation, combat, movement, selections
from multiversus_core.rulesets.multiversus.abilities import REGISTRY
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.geometry import DIRECTIONS, are_adjacent
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.match import apply, start_match
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState, Pending
from multiversus_core.rulesets.multiversus.terms import Direction
from multiversus_core.rulesets.multiversus.variants import VARIANTS
from tests.positions import at

OPTIONS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PHASES: tuple[Pending, ...] = ("stunt", "attack", "after_attack")


def _fresh(state: MatchState) -> MatchState:
    """The same state without anything cached on it."""
    return msgspec.structs.replace(state)


def _phase_states(seed: int, variants: tuple[str, ...]) -> Iterator[MatchState]:
    """The states of a random match that wait for a stunt, an attack or an after-attack
    choice, as played: listed before each command, as the engine does."""
    state = start_match(MatchSettings(seed=seed, variants=variants))
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        if state.pending in PHASES:
            yield state
        state, _ = apply(state, command_for(bots[seat], _fresh(state), seat))


def _scattered(state: MatchState, rng: random.Random) -> MatchState:
    """``state`` with every figure somewhere else on the board (sharing spaces or not),
    off it, or in another condition."""
    assert state.board is not None
    width, height = state.board.width, state.board.height
    figures = {}
    for figure in state.figures:
        large = figure.size == "large"
        square = (
            None
            if rng.random() < 0.1
            else [rng.randrange(width - large), rng.randrange(height - large)]
        )
        condition = figure.condition
        if not figure.terrain and rng.random() < 0.3:
            condition = rng.choice(("unharmed", "wounded", "disabled"))
        figures[figure.id] = {"square": square, "condition": condition}
    scattered: MatchState = at(state, f"figures={json.dumps(figures)}")
    return scattered


def _random_states(seed: int, variants: tuple[str, ...], scatter: bool) -> list[MatchState]:
    rng = random.Random(seed)
    found = list(_phase_states(seed, variants))
    if scatter:
        found = [_scattered(state, rng) for state in found]
    return found


MATCHES = st.tuples(
    st.integers(0, 2**32),
    st.sets(st.sampled_from(sorted(VARIANTS))).map(lambda v: tuple(sorted(v))),
    st.booleans(),
)


def _unlisted(figure: Figure) -> Figure:
    """A figure with ``figure``'s id that is not the state's: never an option."""
    return msgspec.structs.replace(figure, name=figure.name + "'")


def _stunts(state: MatchState) -> list[tuple[str | None, str | None]]:
    """Every stunt worth asking about: each known ability, each figure, neither or both."""
    names = sorted(REGISTRY)
    ids = [f.id for f in state.figures]
    return [
        *((name, None) for name in names),
        *((None, figure) for figure in ids),
        (None, None),
        (None, "nobody"),
        (names[0], ids[0]),
    ]


def _follow_ups() -> list[tuple[activation.FollowUp, Direction | None]]:
    """Every choice after an attack, with no direction, a step's and some that are not."""
    directions: list[Direction | None] = [None, *DIRECTIONS, (0, 0), (2, 0)]
    choices: tuple[activation.FollowUp, ...] = ("stay", "step", "push")
    return [(choice, direction) for choice in choices for direction in directions]


def _check_stunts(state: MatchState) -> None:
    listing = _fresh(state)  # listed figure by figure, as the engine lists before deciding
    for figure in state.figures:
        listed = activation._stunt_options(_fresh(state), figure)
        assert activation.stunt_options(listing, figure) == listed
        for ability, target in _stunts(state):
            expected = (ability, target) in listed
            assert activation.can_stunt(_fresh(state), figure, ability, target) == expected
            assert activation.can_stunt(listing, figure, ability, target) == expected


def _check_attacks(state: MatchState) -> None:
    listing = _fresh(state)
    for attacker in state.figures:
        listed = activation._attack_targets(_fresh(state), attacker)
        assert activation.attack_targets(listing, attacker) == listed
        for target in (*state.figures, *map(_unlisted, state.figures[:2])):
            expected = target in listed
            assert activation.can_attack_target(_fresh(state), attacker, target) == expected
            assert activation.can_attack_target(listing, attacker, target) == expected


def _check_follow_ups(state: MatchState) -> None:
    listed = activation._follow_up_options(_fresh(state))
    listing = _fresh(state)
    assert activation.follow_up_options(listing) == listed
    for choice, direction in _follow_ups():
        expected = (choice, direction) in listed
        assert activation.can_follow_up(_fresh(state), choice, direction) == expected
        assert activation.can_follow_up(listing, choice, direction) == expected


@OPTIONS
@given(MATCHES)
def test_checking_one_option_agrees_with_the_listing_for_every_candidate(
    match: tuple[int, tuple[str, ...], bool],
) -> None:
    # given random states waiting for a stunt, an attack or an after-attack choice (as played
    # under random variants, or with the figures scattered), then for every figure and every
    # candidate option, valid or not, the one-option check says what the plain listing says
    seen = set()
    for state in _random_states(*match):
        # Stunts and attacks are asked about in every state of an action (none is listed
        # while the attacker chooses what to do after its attack).
        _check_stunts(state)
        _check_attacks(state)
        if state.pending == "after_attack":
            _check_follow_ups(state)
        seen.add(state.pending)
    assert seen  # a random match always stunts or attacks at least once


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("worked out again after the listing")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MATCHES)
def test_checking_a_listed_option_reads_the_listing(
    match: tuple[int, tuple[str, ...], bool],
) -> None:
    # given random states as above, listed as the engine lists before applying a command,
    # then checking any option of a listed figure works nothing out again: it reads what
    # the listing found
    listed: list[tuple[MatchState, tuple[Figure, ...]]] = []
    for state in _random_states(*match):
        seat = decider_seat(state)
        assert seat is not None
        legal_commands(state, seat)
        if state.pending == "stunt":
            listed.append((state, activation.stunters(state)))
        elif state.pending == "attack":
            listed.append((state, activation.attackers(state)))
        else:
            listed.append((state, ()))
    with pytest.MonkeyPatch.context() as patch:
        for owner, name in (
            (activation, "current"),
            (activation, "occupancy"),
            (activation, "_push_destination"),
            (combat, "can_attack"),
            (movement, "can_step"),
        ):
            patch.setattr(owner, name, _refuse)
        for state, figures in listed:
            for figure in figures:
                if state.pending == "stunt":
                    for ability, target in _stunts(state):
                        activation.can_stunt(state, figure, ability, target)
                else:
                    for other in state.figures:
                        activation.can_attack_target(state, figure, other)
            if state.pending == "after_attack":
                for choice, direction in _follow_ups():
                    activation.can_follow_up(state, choice, direction)


def _plain_in_range(state: MatchState, unit_id: str, figure: Figure) -> bool:
    """R7's range, pair by pair: a character of the unit could attack ``figure`` (under the
    variant adjacent-triggers, without Overwatch: one is adjacent to it, Disabled or not,
    R24)."""
    unit = state.unit(unit_id)
    if (
        "adjacent-triggers" in state.settings.variants
        and selections.OVERWATCH not in unit.abilities
    ):
        on_board = [f for f in state.figures if f.unit == unit_id and f.square is not None]
        return any(are_adjacent(figure, r) for r in on_board if not r.terrain)
    able = selections.able_figures(state, unit)
    return any(combat.can_attack(state, r, figure) for r in able)


@OPTIONS
@given(MATCHES)
def test_the_range_of_a_trigger_agrees_with_asking_every_character_whether_it_could_attack(
    match: tuple[int, tuple[str, ...], bool],
) -> None:
    # given random states of an action (as played under random variants, or scattered),
    # then for every unit and every figure, the range a stunt, an attack or a recovery
    # triggers in (R7) is what asking each of the unit's able characters says
    checked = 0
    for state in _random_states(*match):
        for unit in state.units:
            for figure in state.figures:
                expected = _plain_in_range(state, unit.id, figure)
                assert activation._in_range(_fresh(state), unit, figure) == expected
                checked += 1
    assert checked > 0
