"""Property tests over random legal play: folding, invariants, and the legal listing."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from multiversus_core import (
    AfterAttack,
    Attack,
    BeginAction,
    BlockForcedMove,
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    DeclineReaction,
    EndAction,
    Event,
    FlipForSetUp,
    GiveUpInitiative,
    MatchSettings,
    MatchState,
    MultiversusError,
    React,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
    apply,
    decide,
    decider_seat,
    evolve,
    fold,
    legal_commands,
    start_match,
)
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.multiversus.abilities import REGISTRY
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.geometry import DIRECTIONS, figure_squares, on_board
from multiversus_core.rulesets.multiversus.terms import (
    ACTION_KINDS,
    SEATS,
    SIDES,
    ActionKind,
    Colour,
)
from multiversus_core.rulesets.multiversus.variants import VARIANTS

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_match(seed: int) -> tuple[MatchState, list[tuple[Command, tuple[Event, ...]]]]:
    """Play a whole match between two random bots, over a pairing the seed picks."""
    log, state = play_match(MatchSettings(seed=seed), {1: RandomBot(seed), 2: RandomBot(seed + 1)})
    return state, [(entry.command, entry.events) for entry in log.entries]


def check_invariants(state: MatchState) -> None:
    """The invariants that must hold after every event."""
    # Each unit coin is in exactly one place: stash, discard, or in play.
    for side in SIDES:
        piles = state.piles(side)
        places = list(piles.stash) + list(piles.discard) + list(piles.removed)
        act = state.activation
        if act is not None:
            if act.side == side and act.coin is not None:
                places.append(act.coin)
            if act.side != side and act.reaction_coin is not None:
                places.append(act.reaction_coin)
        owned = [c for u in state.units if u.side == side for c in u.coins]
        assert Counter(places) == Counter(owned), (side, places, owned)
    # No two characters share a space, and every footprint lies on the board.
    if state.board is not None:
        seen: dict[tuple[int, int], str] = {}
        for figure in state.figures:
            squares = figure_squares(figure)
            if figure.condition == "eliminated":
                continue
            assert len(squares) == (4 if figure.size == "large" else 1)
            for square in squares:
                assert on_board(state.board, square)
                if figure.is_character:
                    # Mid-move, a character may stand on an ally it is passing.
                    act = state.activation
                    movers = {a.mover for a in (act.action, act.reaction) if a} if act else set()
                    if square in seen and not movers & {figure.id, seen[square]}:
                        raise AssertionError(f"{figure.id} shares {square} with {seen[square]}")
                    seen[square] = figure.id
    # Eliminated characters are off the board, and only characters are ever harmed (R1).
    for figure in state.figures:
        assert (figure.condition == "eliminated") == (figure.square is None), figure
        assert not figure.terrain or figure.condition == "unharmed"
    # The round never exceeds six; from set-up step 3 to the end, exactly one side
    # holds the Initiative die.
    assert 0 <= state.round <= 6
    if state.starting_side is not None and not state.is_over:
        assert state.active in SIDES


@PROPERTY
@given(seed=SEEDS)
def test_folding_a_log_equals_applying_its_events_one_by_one(seed: int) -> None:
    live, log = random_match(seed)
    events = [e for _, es in log for e in es]
    assert fold(events, MatchSettings(seed=seed)) == live


@PROPERTY
@given(seed=SEEDS)
@example(seed=1_046_238_299_401)  # a Disabled character was once placed back on the ally it passed
def test_random_legal_play_keeps_the_invariants_after_every_event(seed: int) -> None:
    _, log = random_match(seed)
    state = start_match(MatchSettings(seed=seed))
    for _, events in log:
        for event in events:
            state = evolve(state, event)
            check_invariants(state)
    assert state.is_over
    assert state.round == 6 or state.ended == "elimination"


TEAM_IDS = sorted({t.id for t in installed_teams()})


def candidate_commands(state: MatchState) -> list[Command]:
    """A superset of the legal commands: every command shape with every plausible value."""
    actions: list[tuple[ActionKind, ...]] = [()]
    actions += [(a,) for a in ACTION_KINDS]
    actions += [tuple(sorted(p)) for p in itertools.combinations_with_replacement(ACTION_KINDS, 2)]  # type: ignore[misc]
    colours: tuple[Colour, Colour] = ("green", "grey")
    out: list[Command] = []
    for seat in SEATS:
        out += [
            FlipForSetUp(player=seat),
            RollInitiative(player=seat),
            GiveUpInitiative(player=seat),
        ]
        out += [EndAction(player=seat), SelectNoReaction(player=seat)]
        out += [React(player=seat), DeclineReaction(player=seat)]
        out += [AfterAttack(player=seat, choice="stay"), AfterAttack(player=seat, choice="push")]
        out += [AfterAttack(player=seat, choice="step", direction=d) for d in DIRECTIONS]
        for offer in state.secret_offers:
            out += [ChooseSecret(player=seat, name=offer.name, choice=c) for c in offer.options]
        out += [ChooseStartingTeam(player=seat, side=s) for s in SIDES]
        for heroes, adversaries in itertools.product(TEAM_IDS, TEAM_IDS):
            scenarios = {sc.id for t in installed_teams() for sc in t.scenarios} | {"nowhere"}
            out += [
                ChooseTeams(player=seat, heroes=heroes, adversaries=adversaries, scenario=sc)
                for sc in sorted(scenarios)
            ]
        out += [ChooseSide(player=seat, side=s) for s in SIDES]
        out += [BeginAction(player=seat, action=a) for a in ACTION_KINDS]
        for unit in state.units:
            for colour, acts in itertools.product(colours, actions):
                out.append(SelectCoins(player=seat, unit=unit.id, colour=colour, actions=acts))
                if acts:
                    out.append(
                        SelectReaction(player=seat, unit=unit.id, colour=colour, actions=acts)
                    )
        for figure in state.figures:
            out += [Step(player=seat, figure=figure.id, direction=d) for d in DIRECTIONS]
            out += [Attack(player=seat, attacker=figure.id, target=t.id) for t in state.figures]
            out += [Stunt(player=seat, figure=figure.id, target=t.id) for t in state.figures]
            out += [Stunt(player=seat, figure=figure.id, ability=a) for a in REGISTRY]
            out += [BlockForcedMove(player=seat, ally=figure.id, block=b) for b in (True, False)]
        out += [StopForcedMove(player=seat, spaces=k) for k in range(8)]
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_legal_listing_is_exact_both_ways(seed: int) -> None:
    rng = random.Random(seed)
    state = start_match(MatchSettings(seed=seed))
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    checked = 0
    while not state.is_over:
        listed = {c for s in SEATS for c in legal_commands(state, s)}
        # Check every decision point early on, then a sample, to keep the test quick.
        if checked < 40 or rng.random() < 0.1:
            checked += 1
            for command in candidate_commands(state):
                try:
                    decide(command, state)
                    accepted = True
                except MultiversusError:
                    accepted = False
                assert accepted == (command in listed), (command, state.pending)
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], state, seat))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, variants=st.sets(st.sampled_from(sorted(VARIANTS))))
def test_random_play_under_any_mix_of_variants_keeps_the_invariants(
    seed: int, variants: set[str]
) -> None:
    settings = MatchSettings(seed=seed, variants=tuple(sorted(variants)))
    state = live = start_match(settings)
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    while not live.is_over:
        seat = decider_seat(live)
        assert seat is not None
        live, events = apply(live, command_for(bots[seat], live, seat))
        for event in events:
            state = evolve(state, event)
            check_invariants(state)
    assert state == live
