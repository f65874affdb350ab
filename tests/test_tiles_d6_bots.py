"""tiles-d6's bots: the heuristic's choices on positions built by hand, its determinism, and
the search bot's evaluation and choices.

Positions are built as in ``test_tiles_d6_rules``: small open maps, seat 1 to act.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from msgspec.structs import replace

from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.engine.ismcts import SearchResult, search
from multiversus_core.engine.open_game import with_fresh_seed
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.tiles_d6 import bots, rules
from multiversus_core.rulesets.tiles_d6.bots import (
    HeuristicBot,
    SearchBot,
    _Guided,
    evaluate,
    harm,
    melee_value,
)
from multiversus_core.rulesets.tiles_d6.model import (
    Action,
    Attack,
    Attacked,
    Command,
    EndAction,
    EndTurn,
    Event,
    Fire,
    MatchEnded,
    StandUp,
    StartCharge,
    StartMove,
    StepTo,
    TilesSettings,
    TilesState,
)
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET, SEARCH_GAME, SearchGame
from tests.positions import at
from tests.test_tiles_d6_rules import playing, unit


def choose(bot: HeuristicBot | SearchBot, state: TilesState, seat: int = 1) -> Command:
    legal = rules.legal_commands(state, seat)
    command = bot.choose(RULESET.view(state, f"seat-{seat}"), legal)
    assert command in legal
    return command


def turn_of(bot: HeuristicBot, state: TilesState) -> tuple[list[Command], list[Event]]:
    """The commands seat 1's bot gives until its turn ends, and their events."""
    commands: list[Command] = []
    events: list[Event] = []
    while state.active == 1 and state.phase == "play":
        command = choose(bot, state)
        made, state = rules.decide(command, state)
        commands.append(command)
        events += made
    return commands, events


# --- whole matches ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_heuristic_chooses_legal_commands_and_finishes_a_match(seed: int) -> None:
    bots = {1: HeuristicBot(seed), 2: RULESET.bots["random"](seed + 1)}
    log, state = play_match(TilesSettings(seed=seed), bots)  # refuses an illegal command
    assert state.phase == "over"
    assert isinstance(log.entries[-1].events[-1], MatchEnded)


def test_the_heuristic_is_deterministic_for_a_seed() -> None:
    def commands(seed: int) -> list[object]:
        bots = {1: HeuristicBot(seed), 2: HeuristicBot(seed + 1)}
        log, _ = play_match(TilesSettings(seed=3), bots)
        return [entry.command for entry in log.entries]

    assert commands(5) == commands(5)


def test_no_bot_chooses_from_no_legal_command() -> None:
    view = RULESET.view(playing([unit("1.a", 1, (0, 0)), unit("2.b", 2, (5, 5))]), "seat-1")
    for bot in (HeuristicBot(1), SearchBot(SEARCH_GAME, 1)):
        with pytest.raises(IllegalCommandError):
            bot.choose(view, [])


def test_the_heuristic_is_registered_beside_random_and_mcts() -> None:
    assert {"random", "heuristic", "mcts"} <= set(RULESET.bots)
    assert isinstance(RULESET.bots["heuristic"](1), HeuristicBot)


# --- the heuristic's preferences ----------------------------------------------------------


def test_it_attacks_a_down_enemy_with_good_odds_rather_than_moving_away() -> None:
    captain = unit("1.captain", 1, (2, 2), combat=4, strength=4)
    down = unit("2.goblin", 2, (3, 2), prone=True, health=2, evade=3, defense=0)
    state = playing([captain, down])
    assert melee_value(state, captain, down, charge=False) > 0
    assert choose(HeuristicBot(1), state) == Attack(1, "1.captain", "2.goblin")


def test_it_stands_up_when_down() -> None:
    lying = unit("1.spear", 1, (1, 1), prone=True)
    far = unit("2.goblin", 2, (5, 5))
    state = playing([lying, far])
    first = choose(HeuristicBot(1), state)
    assert first in (StartMove(1, "1.spear"), StartCharge(1, "1.spear"))
    _, state = rules.decide(first, state)
    assert choose(HeuristicBot(1), state) == StandUp(1)


def test_it_fires_at_a_target_in_line_of_sight() -> None:
    rows = ("......", "......", "......", "...#..", "......", "......")
    shooter = unit("1.crossbow", 1, (0, 0), ranged=3, power=3, evade=3)
    seen = unit("2.goblin", 2, (3, 0), evade=3, defense=0, health=5)
    hidden = unit("2.other", 2, (4, 5), evade=3, defense=0, health=5)
    state = playing([shooter, seen, hidden], rows)
    assert rules.fire_problem(state, shooter, hidden)  # the wall hides it
    assert choose(HeuristicBot(1), state) == Fire(1, "1.crossbow", "2.goblin")


def test_it_fires_at_the_hurt_target_of_two() -> None:
    shooter = unit("1.crossbow", 1, (0, 0), ranged=3, power=3)
    whole = unit("2.a", 2, (3, 0), defense=0, health=5)
    hurt = unit("2.b", 2, (3, 3), defense=0, health=5)
    state = at(playing([shooter, whole, hurt]), 'units={"2.b":{"health":2}}')
    assert choose(HeuristicBot(1), state) == Fire(1, "1.crossbow", "2.b")


def test_it_focuses_the_injured_of_two_adjacent_enemies() -> None:
    captain = unit("1.captain", 1, (2, 2), combat=4, strength=4)
    whole = unit("2.a", 2, (3, 2), health=6)
    hurt = unit("2.b", 2, (1, 2), health=6)
    state = at(playing([captain, whole, hurt]), 'units={"2.b":{"health":3}}')
    assert choose(HeuristicBot(1), state) == Attack(1, "1.captain", "2.b")


def test_it_charges_an_enemy_in_reach_and_attacks_it() -> None:
    ogre = unit("1.ogre", 1, (0, 2), combat=3, strength=5, move=4)
    goblin = unit("2.goblin", 2, (3, 2), strength=2, evade=3, defense=0, health=5)
    commands, events = turn_of(HeuristicBot(1), playing([ogre, goblin]))
    assert commands[0] == StartCharge(1, "1.ogre")
    assert any(isinstance(e, Attacked) and e.charge for e in events)


def test_it_does_not_withdraw_a_melee_unit_it_could_attack_with() -> None:
    captain = unit("1.captain", 1, (2, 2), combat=4, strength=4)
    enemy = unit("2.spear", 2, (3, 2))
    commands, _ = turn_of(HeuristicBot(1), playing([captain, enemy]))
    assert not any(isinstance(c, StepTo) for c in commands)
    assert commands[0] == Attack(1, "1.captain", "2.spear")


def test_it_ends_its_turn_when_nothing_promises_anything() -> None:
    stunned = unit("1.spear", 1, (0, 0), stunned=1)
    state = playing([stunned, unit("2.goblin", 2, (5, 5))])
    assert choose(HeuristicBot(1), state) == EndTurn(1)


def test_it_deploys_shooters_behind_and_melee_units_forward() -> None:
    state = RULESET.initial_state(TilesSettings(seed=4), None)
    bot = HeuristicBot(2)
    while state.phase != "play":
        seat = rules.to_act(state)[0]
        _, state = rules.decide(choose(bot, state, seat), state)
    centre = rules.grid_of(state).height / 2 - 0.5
    for seat in (1, 2):
        placed = list(rules.on_board(state, seat))
        depth = {u.id: abs(u.at[1] - centre) for u in placed if u.at is not None}
        shooters = [depth[u.id] for u in placed if u.stats.ranged and u.stats.power]
        melee = [depth[u.id] for u in placed if not (u.stats.ranged and u.stats.power)]
        assert min(shooters) >= max(melee), (seat, depth)


def test_harm_counts_an_injury_above_any_damage_and_a_hurt_target_above_a_whole_one() -> None:
    whole = unit("2.a", 2, (0, 0), health=6)
    hurt = replace(whole, health=3)
    assert harm(hurt, 3) > harm(whole, 5) > harm(whole, 3)
    assert harm(hurt, 2) > harm(whole, 2)


# --- the search -------------------------------------------------------------------------------


def test_evaluate_is_the_result_once_over_and_favours_the_side_with_more_left() -> None:
    mine = unit("1.a", 1, (0, 0))
    theirs = unit("2.b", 2, (5, 5))
    even = playing([mine, theirs])
    assert evaluate(even, 1) == pytest.approx(-evaluate(even, 2))
    hurt = at(even, 'units={"2.b":{"health":2}}')
    assert evaluate(hurt, 1) > evaluate(even, 1)
    over = at(even, "phase=over winner=2")
    assert (evaluate(over, 1), evaluate(over, 2)) == (-1.0, 1.0)


def test_the_search_bot_chooses_legal_commands_and_is_deterministic() -> None:
    def commands(seed: int) -> list[object]:
        bots = {1: SearchBot(SEARCH_GAME, seed, iterations=8), 2: HeuristicBot(seed)}
        log, state = play_match(TilesSettings(seed=2), bots)
        assert state.phase == "over"
        return [entry.command for entry in log.entries]

    assert commands(3) == commands(3)


def test_the_search_bot_takes_a_winning_attack() -> None:
    captain = unit("1.captain", 1, (2, 2), combat=4, strength=4)
    down = unit("2.goblin", 2, (3, 2), prone=True, health=1, defense=0)
    far = unit("2.other", 2, (5, 5))
    state = playing([captain, down, far])
    assert choose(SearchBot(SEARCH_GAME, 1), state) == Attack(1, "1.captain", "2.goblin")


def test_the_search_bot_goes_on_with_a_move_as_the_heuristic_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ogre = unit("1.ogre", 1, (0, 2), combat=3, strength=5, move=4)
    goblin = unit("2.goblin", 2, (3, 2), strength=2, evade=3, defense=0, health=5)
    _, state = rules.decide(StartCharge(1, "1.ogre"), playing([ogre, goblin]))

    def no_search(*args: object, **kwargs: object) -> object:
        raise AssertionError("a step of a Move or Charge is not searched")

    monkeypatch.setattr(bots, "search", no_search)
    step = choose(SearchBot(SEARCH_GAME, 1), state)
    assert isinstance(step, StepTo)
    assert step == choose(HeuristicBot(1), state)


def test_the_search_bot_searches_what_comes_after_a_move_is_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spear = unit("1.spear", 1, (0, 0))
    captain = unit("1.captain", 1, (2, 2), combat=4, strength=4)
    down = unit("2.goblin", 2, (3, 2), prone=True, health=1, defense=0)
    far = unit("2.other", 2, (5, 5))
    moved = Action("1.spear", charge=False, points=0, steps=4)
    state = playing([spear, captain, down, far], action=moved, acted=("1.spear",))
    searched: list[Sequence[Command]] = []

    def spy(
        game: Any, view: object, legal: Sequence[Command], *args: Any, **kw: Any
    ) -> SearchResult[Command]:
        searched.append(legal)
        return search(game, view, legal, *args, **kw)

    monkeypatch.setattr(bots, "search", spy)
    assert choose(SearchBot(SEARCH_GAME, 1), state) == Attack(1, "1.captain", "2.goblin")
    assert len(searched) == 1
    assert EndAction(1) not in searched[0]  # ending the move is no choice of its own
    assert EndTurn(1) in rules.legal_commands(state, 1)


def test_the_search_compares_its_root_commands_on_common_dice() -> None:
    seen: dict[Command, list[object]] = {}

    class Spy(SearchGame):
        def apply(self, state: TilesState, command: Command) -> TilesState:
            if state.turn == 1 and state.action is None and not state.acted:
                seen.setdefault(command, []).append((state.settings.seed, state.chance))
            return super().apply(state, command)

    archer = unit("1.crossbow", 1, (0, 0), ranged=3, power=3)
    spear = unit("1.spear", 1, (1, 3))
    goblin = unit("2.goblin", 2, (4, 0), defense=0, health=5)
    state = playing([archer, spear, goblin])
    legal: list[Command] = [Fire(1, "1.crossbow", "2.goblin"), StartMove(1, "1.spear"), EndTurn(1)]
    seeds = [11, 12, 13, 14, 15, 16, 17, 18]
    guided = _Guided(Spy(), seeds, {})
    search(guided, RULESET.view(state, "seat-1"), legal, 1, random.Random(3), iterations=12)
    firsts = {command: chances[0] for command, chances in seen.items()}
    assert len(set(firsts.values())) == 1  # each command's first visit, on the same dice
    assert all(len(set(chances)) == len(chances) for chances in seen.values())


def test_the_search_plays_out_as_the_heuristic_would_for_both_seats() -> None:
    captain = unit("1.captain", 1, (2, 2), combat=4, strength=4)
    down = unit("2.goblin", 2, (3, 2), prone=True, health=1, defense=0)
    far = unit("2.other", 2, (5, 5))
    state = playing([captain, down, far])
    legal = rules.legal_commands(state, 1)
    assert len(legal) > 1
    assert SEARCH_GAME.legal(state, 1) == (Attack(1, "1.captain", "2.goblin"),)
    assert SEARCH_GAME.legal(state, 1) == (choose(HeuristicBot(1), state),)
    theirs = playing([replace(captain, prone=True), replace(down, prone=False), far], active=2)
    assert SEARCH_GAME.legal(theirs, 2) == (choose(HeuristicBot(1), theirs, seat=2),)
    ogre = unit("1.ogre", 1, (0, 2), combat=3, strength=5, move=4)
    _, moving = rules.decide(StartMove(1, "1.ogre"), playing([ogre, far]))
    step = SEARCH_GAME.legal(moving, 1)
    assert len(step) == 1 and isinstance(step[0], StepTo)
    assert SEARCH_GAME.playout(moving, step, random.Random(1)) == step[0]


def test_the_heuristic_s_command_in_a_playout_is_the_first_of_equal_bests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = playing([unit("1.a", 1, (0, 0)), unit("1.b", 1, (0, 5)), unit("2.z", 2, (5, 5))])
    legal = rules.legal_commands(state, 1)
    monkeypatch.setattr(bots, "score_commands", lambda state, legal: [1.0] * len(legal))
    assert bots.heuristic_command(state, legal) == legal[0]
    monkeypatch.setattr(
        bots, "score_commands", lambda state, legal: [0.0, *[1.0] * 9][: len(legal)]
    )
    assert bots.heuristic_command(state, legal) == legal[1]


def test_the_search_remembers_the_heuristic_s_command_in_a_position() -> None:
    asked: list[TilesState] = []

    class Spy(SearchGame):
        def legal(self, state: TilesState, player: int) -> Sequence[Command]:
            asked.append(state)
            return super().legal(state, player)

    spear = unit("1.spear", 1, (0, 0))
    state = playing([spear, unit("2.z", 2, (5, 5))])
    known: dict[tuple[object, ...], Sequence[Command]] = {}
    guided = _Guided(Spy(), [1], known)
    first = guided.legal(state, 1)
    assert guided.legal(state, 1) == first and len(asked) == 1  # remembered
    assert _Guided(Spy(), [1], known).legal(with_fresh_chance(state), 1) == first
    assert len(asked) == 1  # by the next search too, whatever the dice to come
    moved = playing([replace(spear, at=(1, 1)), unit("2.z", 2, (5, 5))])
    guided.legal(moved, 1)
    assert len(asked) == 2  # another position is asked anew


@pytest.mark.parametrize(
    ("iterations", "size"), [(1, 6), (60, 6), (200, 6), (201, 6), (400, 8), (800, 12), (5000, 12)]
)
def test_a_larger_budget_weighs_more_of_the_heuristic_s_best(iterations: int, size: int) -> None:
    assert bots.shortlist_size(iterations) == size
    assert SearchBot(SEARCH_GAME, 1, iterations=iterations).shortlist == size
    assert SearchBot(SEARCH_GAME, 1, iterations=iterations, shortlist=3).shortlist == 3


def test_the_search_bot_searches_its_budget_s_shortlist(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[Sequence[Command]] = []

    def spy(game: Any, view: object, legal: Sequence[Command], *args: Any, **kw: Any) -> Any:
        searched.append(legal)
        return search(game, view, legal, *args, **kw)

    monkeypatch.setattr(bots, "search", spy)
    tiles = [(0, 0), (0, 2), (0, 4), (1, 0), (1, 2), (1, 4), (2, 0)]
    units = [unit(f"1.{n}", 1, at) for n, at in enumerate(tiles)] + [unit("2.z", 2, (5, 5))]
    state = playing(units)
    every = rules.legal_commands(state, 1)
    assert len(every) > 12
    choose(SearchBot(SEARCH_GAME, 1, iterations=4), state)
    choose(SearchBot(SEARCH_GAME, 1, iterations=800), state)
    assert searched == [bots.shortlist(state, every, 6), bots.shortlist(state, every, 12)]


def test_the_search_bot_refuses_an_empty_shortlist() -> None:
    with pytest.raises(ValueError, match=r"^a search weighs 1 command or more, not 0$"):
        SearchBot(SEARCH_GAME, 1, shortlist=0)


def with_fresh_chance(state: TilesState) -> TilesState:
    return with_fresh_seed(state, random.Random(99))


def test_a_unit_s_worth_on_a_tile_is_remembered_only_with_the_others_where_they_were() -> None:
    ogre = unit("1.ogre", 1, (0, 2), combat=3, strength=5, move=4)
    near = playing([ogre, unit("2.goblin", 2, (3, 2), strength=2, health=5)])
    far = playing([ogre, unit("2.goblin", 2, (5, 5), strength=2, health=5)])
    hurt = playing([replace(ogre, health=1), unit("2.goblin", 2, (3, 2), strength=2, health=5)])
    fresh = {}
    for state in (near, far, hurt):
        bots._positions.cache_clear()
        fresh[state] = bots._start_plans(state, state.units[0])
    bots._positions.cache_clear()
    for _ in range(2):  # remembered from the first pass, each as if found afresh
        for state in (near, far, hurt):
            assert bots._start_plans(state, state.units[0]) == fresh[state]
    assert fresh[near] != fresh[far] and fresh[near] != fresh[hurt]


def test_features_count_a_sides_injuries_hurt_and_statuses() -> None:
    mine = unit("1.a", 1, (0, 0), health=6)
    theirs = unit("2.b", 2, (5, 5), health=6)
    fallen = unit("2.c", 2, (4, 4))
    state = at(
        playing([mine, theirs, fallen]),
        'units={"1.a":{"health":3,"prone":true},"2.c":{"injured":true,"at":null}}',
    )
    named = dict(zip(bots.FEATURES, bots.features(state, 1), strict=True))
    assert named["injured"] == 0 and named["prone"] == 1
    assert named["hurt"] == pytest.approx((1 - 3 / mine.stats.health) ** 1.5)
    assert dict(zip(bots.FEATURES, bots.features(state, 2), strict=True))["injured"] == 1


def test_the_fitted_evaluation_is_the_result_once_over_and_zero_sum() -> None:
    mine = unit("1.a", 1, (0, 0))
    theirs = unit("2.b", 2, (5, 5))
    even = playing([mine, theirs])
    hurt = at(even, 'units={"2.b":{"health":1}}')
    for state in (even, hurt):
        assert bots.fitted_evaluate(state, 1) == pytest.approx(-bots.fitted_evaluate(state, 2))
    assert bots.fitted_evaluate(hurt, 1) > bots.fitted_evaluate(even, 1)
    over = at(even, "phase=over winner=1")
    assert (bots.fitted_evaluate(over, 1), bots.fitted_evaluate(over, 2)) == (1.0, -1.0)


def test_a_search_game_judges_with_the_evaluation_it_is_given() -> None:
    state = at(
        playing([unit("1.a", 1, (0, 0)), unit("2.b", 2, (5, 5))]), 'units={"2.b":{"health":1}}'
    )
    fitted = SearchGame(evaluation=bots.fitted_evaluate)
    assert fitted.evaluate(state, 1) == bots.fitted_evaluate(state, 1)
    assert SEARCH_GAME.evaluate(state, 1) == evaluate(state, 1) != fitted.evaluate(state, 1)
