"""tiles-d6's rules, each test named for the ruling it proves (T1-T40 of tiles-d6-rulings.md).

States are built by hand on small maps, so that each rule is seen alone; dice
are supplied as if rolled at the table, and odds are counted over every face.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.engine.grid import neighbours
from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.model import (
    ActionEnded,
    Attack,
    Attacked,
    BramblesRolled,
    ChooseHalf,
    Command,
    ConcussedEvent,
    ConcussionRolled,
    Damaged,
    EndAction,
    EndTurn,
    Event,
    Fire,
    Fired,
    FirstPlayerChosen,
    Injured,
    KnockedDown,
    MatchEnded,
    Place,
    RollOff,
    RollOffRolled,
    RoundStarted,
    StandUp,
    StartCharge,
    StartMove,
    Stats,
    Stepped,
    StepTo,
    StoodUp,
    StunnedEvent,
    StunRecovered,
    TilesSettings,
    TilesState,
    TurnStarted,
    Unit,
    WithdrawRolled,
)
from multiversus_core.rulesets.tiles_d6.ruleset import initial_state

OPEN = ("......",) * 6
"""A 6x6 board of open ground."""


def stats(name: str = "Spearman", **values: Any) -> Stats:
    base: dict[str, Any] = {
        "move": 4,
        "combat": 3,
        "strength": 3,
        "ranged": 0,
        "power": 0,
        "evade": 3,
        "health": 6,
        "defense": 1,
        "traits": (),
    }
    base.update(values)
    return Stats(name.lower(), name, **base)


def unit(unit_id: str, seat: int, at: tuple[int, int] | None, **values: Any) -> Unit:
    changes = {k: values.pop(k) for k in ("prone", "stunned", "concussed", "health") if k in values}
    made = Unit(unit_id, seat, stats(**values), values.get("health", stats(**values).health))
    return replace(made, at=at, **changes)


def playing(
    units: Sequence[Unit], rows: Sequence[str] = OPEN, *, active: int = 1, **changes: Any
) -> TilesState:
    """A match in play, round 1, ``active``'s turn (seat 1 is player one)."""
    state = TilesState(
        TilesSettings(seed=7), tuple(rows), tuple(units), phase="play", first=1, north=1
    )
    state = replace(state, round=1, turn=1 if active == 1 else 2, active=active)
    return replace(state, **changes)


def run(state: TilesState, *commands: Command) -> tuple[list[Event], TilesState]:
    events: list[Event] = []
    for command in commands:
        made, state = rules.decide(command, state)
        events += made
    return events, state


def kinds(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


# --- turn structure -------------------------------------------------------------------------


def test_t1_the_higher_roll_is_player_one_and_a_tie_is_rolled_again() -> None:
    start = TilesState(TilesSettings(seed=1), OPEN, (unit("1.a", 1, None), unit("2.b", 2, None)))
    tie, state = run(start, RollOff(1, (4, 4)))
    assert tie == [RollOffRolled((4, 4))] and state.phase == "roll_off"
    events, state = run(state, RollOff(1, (2, 5)))
    assert events == [RollOffRolled((2, 5)), FirstPlayerChosen(2)]
    assert (state.first, state.phase, rules.to_act(state)) == (2, "choose_half", (2,))
    ties = sum(a == b for a in range(1, 7) for b in range(1, 7))
    assert Fraction(ties, 36) == Fraction(1, 6)


def test_t1_the_roll_off_takes_two_faces_from_1_to_6() -> None:
    start = TilesState(TilesSettings(seed=1), OPEN, (unit("1.a", 1, None),))
    with pytest.raises(InvalidCommandError):
        rules.decide(RollOff(1, (0, 3)), start)
    with pytest.raises(InvalidCommandError):
        rules.decide(RollOff(1, (3,)), start)  # type: ignore[arg-type]


def test_t2_each_unit_acts_once_a_turn_and_the_turn_passes_to_the_other_player() -> None:
    state = playing([unit("1.a", 1, (0, 0)), unit("1.b", 1, (0, 2)), unit("2.c", 2, (5, 5))])
    _, state = run(state, StartMove(1, "1.a"), StepTo(1, (1, 0)))
    with pytest.raises(IllegalCommandError, match="has acted"):
        rules.decide(StartMove(1, "1.a"), state)
    events, state = run(state, EndTurn(1))
    assert kinds(events)[-2:] == ["TurnEnded", "TurnStarted"]
    assert (state.active, state.acted) == (2, ())


def test_t2_a_player_with_no_unit_able_to_act_still_takes_its_turn() -> None:
    state = playing([unit("1.a", 1, (0, 0), stunned=1), unit("2.c", 2, (5, 5))], active=1)
    assert rules.legal_commands(state, 1) == (EndTurn(1),)
    events, state = run(state, EndTurn(1))
    assert StunRecovered("1.a") not in events  # stunned in this very turn: still stunned
    assert state.active == 2


def test_t3_a_side_with_no_unit_on_the_board_loses_at_once() -> None:
    state = playing([unit("1.a", 1, (0, 0), strength=9), unit("2.c", 2, (1, 1), health=1)])
    events, state = run(state, Attack(1, "1.a", "2.c", die=6))
    assert events[-1] == MatchEnded(1, (1, 0), "Player 2 has no units left on the board")
    assert rules.outcome(state) is not None and rules.outcome(state).winners == (1,)  # type: ignore[union-attr]


def test_t3_after_round_8_more_enemies_injured_wins_and_equal_is_a_draw() -> None:
    units = [unit("1.a", 1, (0, 0)), unit("2.c", 2, (5, 5))]
    state = playing(units, active=2, round=8, injured=(2, 1))
    events, state = run(state, EndTurn(2))
    assert isinstance(events[-1], MatchEnded) and events[-1].winner == 1
    state = playing(units, active=2, round=8, injured=(1, 1))
    events, state = run(state, EndTurn(2))
    assert isinstance(events[-1], MatchEnded) and events[-1].winner is None
    assert rules.outcome(state).winners == ()  # type: ignore[union-attr]


def test_t3_before_round_8_the_second_player_s_turn_starts_the_next_round() -> None:
    state = playing([unit("1.a", 1, (0, 0)), unit("2.c", 2, (5, 5))], active=2, round=3)
    events, state = run(state, EndTurn(2))
    assert events[-2:] == [RoundStarted(4), TurnStarted(1)]


# --- moving ---------------------------------------------------------------------------------


def test_t10_a_step_with_one_point_left_is_allowed_though_it_costs_more() -> None:
    rows = ("~.....", "......", "......", "......", "......", "......")
    state = playing([unit("1.a", 1, (0, 0), move=1), unit("2.c", 2, (5, 5))], rows)
    events, state = run(state, StartMove(1, "1.a"), StepTo(1, (1, 0)))
    assert Stepped("1.a", (1, 0), 2) in events  # leaving water costs 2, with 1 point left
    assert state.action is not None and state.action.points == -1
    assert all(not isinstance(c, StepTo) for c in rules.legal_commands(state, 1))


def test_t10_a_prone_unit_stands_for_one_point_before_its_first_step() -> None:
    state = playing([unit("1.a", 1, (0, 0), prone=True, move=2), unit("2.c", 2, (5, 5))])
    _, state = run(state, StartMove(1, "1.a"))
    with pytest.raises(IllegalCommandError, match="stands up before"):
        rules.decide(StepTo(1, (1, 0)), state)
    events, state = run(state, StandUp(1), StepTo(1, (1, 0)))
    assert events[0] == StoodUp("1.a") and state.action is not None and state.action.points == 0


def test_t11_leaving_brambles_falls_on_a_1_only() -> None:
    rows = ("^.....",) + ("......",) * 5
    fell = []
    for face in range(1, 7):
        state = playing([unit("1.a", 1, (0, 0)), unit("2.c", 2, (5, 5))], rows)
        events, _ = run(state, StartMove(1, "1.a"), StepTo(1, (1, 0), dice=(face,)))
        (rolled,) = [e for e in events if isinstance(e, BramblesRolled)]
        fell.append(rolled.fell)
        assert rolled.fell == (face == 1) and (events[-1] == ActionEnded("1.a")) == rolled.fell
    assert Fraction(sum(fell), 6) == Fraction(1, 6)


def test_t12_a_flying_unit_pays_no_water_cost_and_rolls_no_brambles() -> None:
    rows = ("~^....",) + ("......",) * 5
    state = playing([unit("1.a", 1, (0, 0), traits=("flying",)), unit("2.c", 2, (5, 5))], rows)
    events, _ = run(state, StartMove(1, "1.a"), StepTo(1, (1, 0)), StepTo(1, (2, 0)))
    assert [e for e in events if isinstance(e, Stepped)] == [
        Stepped("1.a", (1, 0), 1),
        Stepped("1.a", (2, 0), 1),
    ]
    assert not any(isinstance(e, BramblesRolled) for e in events)


def test_t13_a_fall_enters_the_tile_prone_and_ends_the_action() -> None:
    rows = ("^.....",) + ("......",) * 5
    state = playing([unit("1.a", 1, (0, 0)), unit("2.c", 2, (5, 5))], rows)
    events, state = run(state, StartMove(1, "1.a"), StepTo(1, (1, 0), dice=(1,)))
    assert events[-2:] == [Stepped("1.a", (1, 0), 1, fell=True), ActionEnded("1.a")]
    moved = state.unit("1.a")
    assert moved is not None and (moved.at, moved.prone, state.action) == ((1, 0), True, None)
    assert moved.health == 6  # falling does no damage


def test_t5_a_step_may_not_enter_a_blocking_or_occupied_tile_nor_cut_a_solid_corner() -> None:
    rows = (".#....", "#.....", "......", "......", "......", "......")
    units = [
        unit("1.a", 1, (0, 0)),
        unit("1.b", 1, (1, 1)),
        unit("1.c", 1, (2, 2)),
        unit("2.z", 2, (5, 5)),
    ]
    state = playing(units, rows)
    _, moving = run(state, StartMove(1, "1.a"))
    for to, why in (((1, 0), "blocks"), ((0, 1), "blocks"), ((1, 1), "a unit stands there")):
        with pytest.raises(IllegalCommandError, match=why):
            rules.decide(StepTo(1, to), moving)
    without_b = playing([units[0], units[3]], rows)
    _, moving = run(without_b, StartMove(1, "1.a"))
    with pytest.raises(IllegalCommandError, match="corner"):  # both orthogonal tiles are walls
        rules.decide(StepTo(1, (1, 1)), moving)
    _, moving = run(state, StartMove(1, "1.b"))
    assert StepTo(1, (0, 2)) in rules.legal_commands(moving, 1)  # one wall at the corner: open
    assert StepTo(1, (2, 2)) not in rules.legal_commands(moving, 1)  # a friend stands there


def test_t5_a_step_s_terrain_is_the_map_s_own_each_map_answering_for_itself() -> None:
    walker = unit("1.a", 1, (0, 0))
    units = [walker, unit("2.z", 2, (5, 5))]
    walled, open_ground = playing(units, (".#....", *OPEN[1:])), playing(units)
    for _ in range(2):  # asked again, each map still gives its own answer
        assert "blocks" in rules.step_problem(walled, walker, (1, 0))
        assert rules.step_problem(open_ground, walker, (1, 0)) == ""
    crowded = playing([*units, unit("1.b", 1, (1, 0))])  # the tile is open, the unit bars it
    assert rules.step_problem(crowded, walker, (1, 0)) == "a unit stands there"
    assert rules.step_problem(crowded, walker, (2, 0)).startswith("a step goes to one of")


def test_t33_units_never_bar_a_diagonal_step_but_on_its_destination() -> None:
    units = [
        unit("1.a", 1, (1, 1)),
        unit("1.b", 1, (2, 1)),
        unit("2.c", 2, (1, 2)),
        unit("2.z", 2, (5, 5)),
    ]
    _, moving = run(playing(units), StartMove(1, "1.a"))
    assert StepTo(1, (2, 2)) in rules.legal_commands(moving, 1)


# --- leaving an adjacent tile ---------------------------------------------------------------


def _withdraw_odds(*, to: tuple[int, int], traits: tuple[str, ...] = ()) -> Fraction:
    falls = 0
    for face in range(1, 7):
        units = [
            unit("1.a", 1, (2, 2), traits=traits),
            unit("2.c", 2, (3, 3)),
        ]
        state = playing(units)
        events, _ = run(state, StartMove(1, "1.a"), StepTo(1, to, dice=(face,)))
        falls += any(isinstance(e, WithdrawRolled) and e.fell for e in events)
    return Fraction(falls, 6)


def test_t19_withdrawing_falls_half_the_time_to_a_free_tile_two_thirds_to_an_adjacent_one() -> None:
    assert _withdraw_odds(to=(1, 1)) == Fraction(1, 2)
    assert _withdraw_odds(to=(3, 2)) == Fraction(2, 3)


def test_t19_a_flying_unit_withdraws_with_plus_one() -> None:
    assert _withdraw_odds(to=(1, 1), traits=("flying",)) == Fraction(1, 3)
    assert _withdraw_odds(to=(3, 2), traits=("flying",)) == Fraction(1, 2)


def test_t19_a_withdraw_step_costs_an_extra_point() -> None:
    state = playing([unit("1.a", 1, (2, 2)), unit("2.c", 2, (3, 3))])
    events, _ = run(state, StartMove(1, "1.a"), StepTo(1, (1, 1), dice=(6,)))
    assert Stepped("1.a", (1, 1), 2) in events


def test_t35_a_brambles_fall_makes_no_withdraw_roll_and_a_safe_one_does() -> None:
    rows = ("......", "......", "..^...", "......", "......", "......")
    state = playing([unit("1.a", 1, (2, 2)), unit("2.c", 2, (3, 3))], rows)
    events, _ = run(state, StartMove(1, "1.a"), StepTo(1, (1, 1), dice=(1,)))
    assert kinds(events).count("WithdrawRolled") == 0 and BramblesRolled("1.a", 1, True) in events
    events, _ = run(state, StartMove(1, "1.a"), StepTo(1, (1, 1), dice=(5, 6)))
    assert kinds(events)[1:3] == ["BramblesRolled", "WithdrawRolled"]
    with pytest.raises(InvalidCommandError, match="more dice than the 1 it supplies"):
        run(state, StartMove(1, "1.a"), StepTo(1, (1, 1), dice=(5,)))


def test_t18_any_enemy_on_the_board_makes_its_neighbours_adjacent_whatever_its_state() -> None:
    enemy = unit("2.c", 2, (3, 3), prone=True, stunned=1)
    state = playing([unit("1.a", 1, (2, 2)), enemy])
    assert rules.is_adjacent_tile(state, (2, 2), 1) and not rules.is_adjacent_tile(state, (1, 1), 1)


def _random_positions(seed: int) -> Iterator[TilesState]:
    """Every position in play of a match of random commands on the bundled map and rosters."""
    chooser = random.Random(seed)
    state = initial_state(TilesSettings(seed=seed), None)
    while state.phase != "over":
        if state.phase == "play":
            yield state
        seat = next(iter(rules.to_act(state)))
        state = rules.decide(chooser.choice(rules.legal_commands(state, seat)), state)[1]


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32))
def test_t18_the_zone_and_the_occupied_tiles_found_once_answer_as_tile_by_tile(seed: int) -> None:
    # What the bots find once for many steps of a unit (T5, T18, T19): the same answers.
    for state in _random_positions(seed):
        grid = rules.grid_of(state)
        occupied = rules.occupied_tiles(state)
        for seat in (1, 2):
            zone = rules.enemy_zone(state, seat)
            for at in grid.tiles():
                assert rules.is_adjacent_tile(state, at, seat, zone=zone) == (
                    rules.is_adjacent_tile(state, at, seat)
                )
        for moving in rules.on_board(state):
            zone = rules.enemy_zone(state, moving.seat)
            assert rules.step_cost(state, moving, zone=zone) == rules.step_cost(state, moving)
            assert moving.at is not None
            for to in neighbours(grid, moving.at):
                problem = rules.step_problem(state, moving, to)
                assert rules.step_problem(state, moving, to, occupied=occupied) == problem
                if not problem:
                    odds = rules.fall_odds(state, moving, to)
                    assert rules.fall_odds(state, moving, to, zone=zone) == odds
            for other in rules.on_board(state):
                assert other.at is not None
                mine = rules.next_to(state, other.at, moving.seat)
                theirs = rules.next_to(state, moving.at, other.seat)
                assert rules.crowd(state, moving, other) == len(mine) - len(theirs)


# --- melee ----------------------------------------------------------------------------------


def _attack(attacker: Unit, defender: Unit, face: int, *more: Unit) -> list[Event]:
    return run(playing([attacker, defender, *more]), Attack(1, attacker.id, defender.id, face))[0]


def test_t22_the_crowd_counts_each_side_s_units_next_to_the_other_combatant() -> None:
    attacker, defender = unit("1.a", 1, (2, 2)), unit("2.c", 2, (3, 2))
    friend = unit("1.b", 1, (4, 2))  # next to the defender, not to the attacker
    foe = unit("2.d", 2, (1, 2))  # next to the attacker
    state = playing([attacker, defender, friend, foe])
    assert rules.crowd(state, attacker, defender) == (2 - 2)
    state = playing([attacker, defender, friend])
    assert rules.crowd(state, attacker, defender) == 2 - 1


def test_t37_the_crowd_counts_prone_and_stunned_units_too() -> None:
    attacker, defender = unit("1.a", 1, (2, 2)), unit("2.c", 2, (3, 2))
    friend = unit("1.b", 1, (4, 2), prone=True, stunned=1)
    assert rules.crowd(playing([attacker, defender, friend]), attacker, defender) == 1


def test_t22_modifiers_prone_target_charge_large_and_small() -> None:
    a = unit("1.a", 1, (2, 2), combat=3)
    state = playing([a, unit("2.c", 2, (3, 2), evade=3)])
    assert rules.melee_modifier(state, a, state.units[1], charge=False) == 0
    prone_large = unit("2.c", 2, (3, 2), prone=True, traits=("large",))
    state = playing([a, prone_large])
    assert rules.melee_modifier(state, a, prone_large, charge=True) == -1 - 1 + 1
    small = unit("2.c", 2, (3, 2), traits=("small",))
    assert rules.melee_modifier(playing([a, small]), a, small, charge=False) == -1


@pytest.mark.parametrize(
    ("modifier", "hit", "backfire"),
    [
        (0, Fraction(1, 2), Fraction(1, 6)),
        (2, Fraction(5, 6), Fraction(1, 6)),
        (-2, Fraction(1, 6), Fraction(1, 2)),
    ],
)
def test_t23_a_1_or_a_total_of_1_or_less_backfires_4_or_more_hits(
    modifier: int, hit: Fraction, backfire: Fraction
) -> None:
    results = []
    for face in range(1, 7):
        attacker = unit("1.a", 1, (2, 2), combat=3 + modifier, strength=3)
        events = _attack(attacker, unit("2.c", 2, (3, 2), health=9), face)
        (made,) = [e for e in events if isinstance(e, Attacked)]
        results.append(made.result)
    assert Fraction(results.count("hit"), 6) == hit
    assert Fraction(results.count("backfire"), 6) == backfire


def test_t24_a_hit_deals_strength_less_defense_at_least_1_and_knocks_down_and_stuns() -> None:
    events = _attack(unit("1.a", 1, (2, 2), strength=5), unit("2.c", 2, (3, 2), defense=1), 6)
    assert Damaged("2.c", 4, 2) in events
    assert KnockedDown("2.c") in events and StunnedEvent("2.c") in events
    events = _attack(unit("1.a", 1, (2, 2), strength=4), unit("2.c", 2, (3, 2), defense=9), 6)
    assert Damaged("2.c", 1, 5) in events and KnockedDown("2.c") in events
    assert StunnedEvent("2.c") not in events
    events = _attack(unit("1.a", 1, (2, 2), strength=3), unit("2.c", 2, (3, 2)), 6)
    assert not any(isinstance(e, KnockedDown | StunnedEvent) for e in events)


def test_t16_a_stun_of_a_prone_unit_concusses_it_and_a_knockdown_does_nothing_more() -> None:
    events = _attack(
        unit("1.a", 1, (2, 2), strength=5, combat=5), unit("2.c", 2, (3, 2), prone=True), 6
    )
    assert ConcussedEvent("2.c") in events and StunnedEvent("2.c") not in events
    events = _attack(
        unit("1.a", 1, (2, 2), strength=4, combat=5), unit("2.c", 2, (3, 2), prone=True), 6
    )
    assert not any(isinstance(e, KnockedDown | ConcussedEvent | StunnedEvent) for e in events)


def test_t17_health_at_0_or_less_is_injured_and_removed() -> None:
    events = _attack(
        unit("1.a", 1, (2, 2), strength=6),
        unit("2.c", 2, (3, 2), health=5),
        6,
        unit("2.d", 2, (5, 5)),
    )
    assert Damaged("2.c", 5, 0) in events and Injured("2.c", 1) in events


def test_t25_a_backfire_strikes_the_attacker_as_the_defender_would() -> None:
    attacker = unit("1.a", 1, (2, 2), strength=2, defense=0, health=9)
    defender = unit("2.c", 2, (3, 2), strength=5)
    events = _attack(attacker, defender, 1)
    assert Damaged("1.a", 5, 4) in events and KnockedDown("1.a") in events
    assert StunnedEvent("1.a") in events


def test_t39_the_backfire_is_struck_whatever_the_defender_s_state() -> None:
    attacker = unit("1.a", 1, (2, 2), strength=2, health=9)
    defender = unit("2.c", 2, (3, 2), strength=3, prone=True, stunned=1)
    events = _attack(attacker, defender, 1)
    assert any(isinstance(e, Damaged) and e.unit == "1.a" for e in events)


def test_t38_a_unit_injured_by_its_own_backfire_counts_for_the_other_side() -> None:
    attacker = unit("1.a", 1, (2, 2), health=1)
    events = _attack(attacker, unit("2.c", 2, (3, 2)), 1, unit("1.b", 1, (0, 0)))
    assert Injured("1.a", 2) in events


# --- statuses -------------------------------------------------------------------------------


def test_t15_a_unit_stunned_in_the_enemy_turn_misses_its_next_turn_and_recovers_after() -> None:
    state = playing([unit("1.a", 1, (2, 2), strength=6), unit("2.c", 2, (3, 2), health=9)])
    _, state = run(state, Attack(1, "1.a", "2.c", 6), EndTurn(1))
    stunned = state.unit("2.c")
    assert stunned is not None and stunned.stunned
    assert not any(
        isinstance(c, StartMove) and c.unit == "2.c" for c in rules.legal_commands(state, 2)
    )
    events, state = run(state, EndTurn(2))
    assert StunRecovered("2.c") in events


def test_t15_a_unit_stunned_in_its_own_turn_misses_its_owner_s_following_turn() -> None:
    state = playing(
        [unit("1.a", 1, (2, 2), strength=1, health=9), unit("2.c", 2, (3, 2), strength=4)]
    )
    _, state = run(state, Attack(1, "1.a", "2.c", 1))  # the backfire stuns the attacker
    events, state = run(state, EndTurn(1))
    assert StunRecovered("1.a") not in events
    _, state = run(state, EndTurn(2))
    assert not any(
        isinstance(c, StartMove) and c.unit == "1.a" for c in rules.legal_commands(state, 1)
    )
    events, _ = run(state, EndTurn(1))
    assert StunRecovered("1.a") in events


def test_t15_a_concussed_unit_rolls_4_or_more_at_its_owner_s_turn_ends_to_recover() -> None:
    recovered = []
    for face in range(1, 7):
        state = playing(
            [unit("1.a", 1, (2, 2), concussed=1, prone=True), unit("2.c", 2, (5, 5))],
            active=1,
            turn=3,
        )
        events, _ = run(state, EndTurn(1, dice=(face,)))
        recovered.append(ConcussionRolled("1.a", face, face >= 4) in events and face >= 4)
    assert Fraction(sum(recovered), 6) == Fraction(1, 2)


# --- charge ---------------------------------------------------------------------------------


def test_t14_a_charge_has_one_point_fewer_and_one_attack_at_minus_1_at_any_moment() -> None:
    state = playing([unit("1.a", 1, (0, 2), move=4), unit("2.c", 2, (3, 2), health=9)])
    events, state = run(state, StartCharge(1, "1.a"), StepTo(1, (1, 2)), StepTo(1, (2, 2)))
    assert state.action is not None and state.action.points == 3 - 2
    events, state = run(state, Attack(1, "1.a", "2.c", 6))
    (made,) = [e for e in events if isinstance(e, Attacked)]
    assert made.charge and made.total == 6 - 1
    with pytest.raises(IllegalCommandError, match="Charge's attack"):
        rules.decide(Attack(1, "1.a", "2.c", 6), state)
    _, state = run(state, StepTo(1, (2, 1), dice=(6,)))  # the points left are spent after it


def test_t36_a_charge_without_an_attack_is_a_move_with_a_point_fewer() -> None:
    state = playing([unit("1.a", 1, (0, 0), move=2), unit("2.c", 2, (5, 5))])
    events, state = run(state, StartCharge(1, "1.a"), StepTo(1, (1, 0)), EndAction(1))
    assert state.action is None and kinds(events)[-1] == "ActionEnded"


def test_t14_a_backfire_that_knocks_the_charger_down_ends_the_charge() -> None:
    state = playing(
        [unit("1.a", 1, (2, 2), strength=1, health=9), unit("2.c", 2, (3, 2), strength=3)]
    )
    events, state = run(state, StartCharge(1, "1.a"), Attack(1, "1.a", "2.c", 1))
    assert KnockedDown("1.a") in events and state.action is None


# --- fire -----------------------------------------------------------------------------------


def _shooter(**values: Any) -> Unit:
    return unit("1.s", 1, (0, 0), ranged=3, power=3, **values)


def test_t26_fire_needs_ranged_and_power_no_adjacent_enemy_and_sight() -> None:
    rows = ("...#..", "......", "......", "......", "......", "......")
    state = playing([_shooter(), unit("2.c", 2, (5, 0)), unit("2.d", 2, (0, 4))], rows)
    with pytest.raises(IllegalCommandError, match="line of sight"):
        rules.decide(Fire(1, "1.s", "2.c", 6), state)
    events, _ = run(state, Fire(1, "1.s", "2.d", 6))
    assert any(isinstance(e, Fired) for e in events)
    state = playing([_shooter(), unit("2.c", 2, (1, 1))])
    with pytest.raises(IllegalCommandError, match="next to an enemy"):
        rules.decide(Fire(1, "1.s", "2.c", 6), state)
    state = playing([unit("1.s", 1, (0, 0), ranged=3, power=0), unit("2.c", 2, (0, 4))])
    with pytest.raises(IllegalCommandError, match="no ranged attack"):
        rules.decide(Fire(1, "1.s", "2.c", 6), state)


@pytest.mark.parametrize(
    ("distance", "penalty"), [(2, 0), (3, 1), (5, 1), (6, 2), (8, 2), (9, 3), (11, 3)]
)
def test_t40_the_range_penalty_is_a_third_of_the_range_rounded_down(
    distance: int, penalty: int
) -> None:
    assert rules.range_penalty((0, 0), (distance, 0)) == penalty


def test_t26_a_fire_hit_deals_power_less_defense_at_least_1_and_nothing_more() -> None:
    state = playing([_shooter(), unit("2.c", 2, (0, 4), defense=5, strength=1)])
    events, _ = run(state, Fire(1, "1.s", "2.c", 6))
    assert Damaged("2.c", 1, 5) in events
    assert not any(isinstance(e, KnockedDown | StunnedEvent) for e in events)


def test_t20_fire_at_a_prone_target_or_through_brambles_is_at_minus_1_each() -> None:
    rows = ("......", "......", "^.....", "......", "......", "......")
    target = unit("2.c", 2, (0, 4), prone=True)
    state = playing([_shooter(), target], rows)
    assert rules.fire_modifier(state, state.units[0], target) == 3 - 3 - 1 - 1 - 1


def test_t34_only_tiles_the_line_crosses_count_for_brambles_the_target_s_does() -> None:
    rows = (".^....", "^.....", "......", "......", "......", "......")
    target = unit("2.c", 2, (2, 2))
    state = playing([_shooter(), target], rows)  # the line (0,0)-(2,2) only touches ^ at a corner
    assert rules.fire_modifier(state, state.units[0], target) == 3 - 3 - 0
    rows = ("......", "......", "..^...", "......", "......", "......")
    state = playing([_shooter(), target], rows)
    assert rules.fire_modifier(state, state.units[0], target) == 3 - 3 - 0 - 1


def test_t20_brambles_on_a_line_of_fire_are_the_map_s_own_each_map_answering_for_itself() -> None:
    target = unit("2.c", 2, (0, 4))
    thorny = playing([_shooter(), target], ("......", "......", "^.....", *OPEN[3:]))
    open_ground = playing([_shooter(), target])
    for _ in range(2):  # asked again, each map still gives its own answer
        assert rules.fire_modifier(thorny, thorny.units[0], target) == 3 - 3 - 1 - 1
        assert rules.fire_modifier(open_ground, open_ground.units[0], target) == 3 - 3 - 1


# --- set-up ---------------------------------------------------------------------------------


def test_t27_player_one_chooses_a_half_and_the_centre_is_barred() -> None:
    rows = ("." * 12,) * 12
    units = (unit("1.a", 1, None), unit("2.b", 2, None))
    state = TilesState(TilesSettings(seed=1), rows, units, phase="choose_half", first=2)
    _, state = run(state, ChooseHalf(2, "south"))
    assert (state.north, rules.deployer(state)) == (1, 2)
    tiles = rules.deploy_tiles(state, 2)
    assert {r for _, r in tiles} == set(range(6, 12))  # the south half, T31's rows 6-11
    assert all(not (3 <= c <= 8 and 3 <= r <= 8) for c, r in tiles)  # within 2 of the centre
    assert {(c, r) for c, r in tiles} == {
        (c, r) for r in range(6, 12) for c in range(12) if not (3 <= c <= 8 and r <= 8)
    }
    events, state = run(state, Place(2, (0, 11)))
    assert rules.deployer(state) == 1
    with pytest.raises(IllegalCommandError):
        rules.decide(Place(1, (0, 11)), state)
    events, state = run(state, Place(1, (0, 0)))
    assert events[-2:] == [RoundStarted(1), TurnStarted(2)]


def test_t38_a_side_is_not_wiped_out_during_set_up() -> None:
    units = (unit("1.a", 1, None), unit("2.b", 2, None))
    rows = ("." * 12,) * 12
    state = TilesState(TilesSettings(seed=1), rows, units, phase="choose_half", first=1)
    events, state = run(state, ChooseHalf(1, "north"), Place(1, (0, 0)))
    assert not any(isinstance(e, MatchEnded) for e in events)


def test_t40_picking_another_unit_ends_the_previous_unit_s_action() -> None:
    state = playing([unit("1.a", 1, (0, 0)), unit("1.b", 1, (0, 3)), unit("2.c", 2, (5, 5))])
    _, state = run(state, StartMove(1, "1.a"), StepTo(1, (1, 0)))
    events, state = run(state, StartMove(1, "1.b"))
    assert events[0] == ActionEnded("1.a")
    with pytest.raises(IllegalCommandError):
        rules.decide(StartMove(1, "1.a"), state)


# --- tiles and units ------------------------------------------------------------------------


def test_t7_a_door_blocks_sight_not_movement_and_a_window_movement_not_sight() -> None:
    rows = ("..+...", "......", "..=...", "......", "......", "......")
    state = playing([unit("1.a", 1, (1, 0)), unit("1.b", 1, (1, 2)), unit("2.z", 2, (5, 5))], rows)
    _, moving = run(state, StartMove(1, "1.a"))
    assert StepTo(1, (2, 0)) in rules.legal_commands(moving, 1)  # through the door
    _, moving = run(state, StartMove(1, "1.b"))
    assert StepTo(1, (2, 2)) not in rules.legal_commands(moving, 1)  # not through the window
    assert not rules.in_sight(state, (1, 0), (3, 0)) and rules.in_sight(state, (1, 2), (3, 2))


def test_t6_sight_is_the_map_s_own_each_map_answering_for_itself() -> None:
    units = [unit("1.a", 1, (0, 0)), unit("2.z", 2, (5, 5))]
    walled, open_ground = playing(units, ("..#...", *OPEN[1:])), playing(units)
    for _ in range(2):  # asked again, each map still gives its own answer
        assert not rules.in_sight(walled, (0, 0), (5, 0))
        assert rules.in_sight(open_ground, (0, 0), (5, 0))
        assert rules.in_sight(walled, (0, 0), (5, 2))  # a line below the wall


def test_t6_units_never_block_the_line_of_sight() -> None:
    shooter, target = _shooter(), unit("2.c", 2, (0, 4))
    between = unit("2.d", 2, (0, 2))
    state = playing([shooter, target, between])
    assert not rules.fire_problem(state, shooter, target)


def test_t8_attributes_are_used_as_values_their_differences_equal_the_modifiers() -> None:
    a, d = unit("1.a", 1, (2, 2), combat=5), unit("2.c", 2, (3, 2), evade=2)
    assert rules.melee_modifier(playing([a, d]), a, d, charge=False) == (5 - 3) - (2 - 3)


def test_t9_a_unit_without_ranged_or_power_cannot_fire_and_health_never_heals() -> None:
    shooter = unit("1.s", 1, (0, 0), ranged=0, power=3)
    state = playing([shooter, unit("2.c", 2, (0, 4), health=3)])
    assert rules.fire_problem(state, shooter, state.units[1]) == "it has no ranged attack"
    hurt = unit("2.c", 2, (3, 2), health=2)
    state = playing([unit("1.a", 1, (2, 2)), hurt])
    _, state = run(state, EndTurn(1), EndTurn(2), EndTurn(1))
    after = state.unit("2.c")
    assert after is not None and after.health == 2


def test_t21_prone_changes_no_defense_only_the_chance_to_be_hit() -> None:
    standing = _attack(unit("1.a", 1, (2, 2), strength=4, combat=9), unit("2.c", 2, (3, 2)), 6)
    prone = _attack(
        unit("1.a", 1, (2, 2), strength=4, combat=9), unit("2.c", 2, (3, 2), prone=True), 6
    )
    damage = [e.damage for e in (*standing, *prone) if isinstance(e, Damaged)]
    assert damage == [3, 3]


def test_tp1_standing_up_needs_a_move_point_as_a_step_does() -> None:
    state = playing([unit("1.a", 1, (0, 0), prone=True, move=1), unit("2.z", 2, (5, 5))])
    _, charging = run(state, StartCharge(1, "1.a"))  # Move 1, less 1 for the Charge: 0 points
    assert StandUp(1) not in rules.legal_commands(charging, 1)
    with pytest.raises(IllegalCommandError, match="no move point left to stand up"):
        rules.decide(StandUp(1), charging)
