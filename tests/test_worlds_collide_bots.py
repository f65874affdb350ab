"""worlds-collide's bots: the heuristic's choices on positions set by hand, its determinism,
and the search bot's evaluation and choices.

Positions are set as in ``test_worlds_collide_rules`` (``worlds_collide_tables``): only
the models named, seat 1 (the Iron Legion) to act unless told.
"""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from multiversus_core.engine.choices import is_tree
from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.engine.grid import distance
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.worlds_collide import bots, rules
from multiversus_core.rulesets.worlds_collide.bots import (
    DEFAULT_ITERATIONS,
    HeuristicBot,
    Judge,
    SearchBot,
    evaluate,
    fitted_evaluate,
    model_worth,
    plan_act,
    plan_attacks,
)
from multiversus_core.rulesets.worlds_collide.model import (
    Act,
    Activate,
    AttackWith,
    Command,
    KeepDice,
    MatchEnded,
    Pass,
    Reroll,
    RollOff,
    WorldsSettings,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET, SEARCH_GAME, SearchGame
from tests.positions import at
from tests.worlds_collide_tables import given
from tests.worlds_collide_tables import table as bare_table

LINE = ("1.sergeant", "1.rifleman-1", "1.rifleman-2", "1.rifleman-3")


def table(placed: dict[str, tuple[int, int]], **settings: Any) -> WorldsState:
    """A position in a round with an environment (Overcast: no effect, a failed tactic costs
    an AP)."""
    settings.setdefault("environment", (1, 1))
    return bare_table(placed, **settings)


def choose(bot: HeuristicBot | SearchBot, state: WorldsState, seat: int = 1) -> Command:
    legal = RULESET.legal_commands(state, seat)
    command = bot.choose(RULESET.view(state, f"seat-{seat}"), legal)
    assert command in legal
    return command


def hurt(state: WorldsState, model_id: str, hp: int) -> WorldsState:
    return at(state, f'models={{"{model_id}":{{"hp":{hp}}}}}')


def acting(state: WorldsState, command: Activate) -> WorldsState:
    """The state once ``command`` has activated its models (no tactic: no die)."""
    _, after = given(state, command)
    return after


# --- whole matches ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_the_heuristic_chooses_legal_commands_and_beats_random(seed: int) -> None:
    seat = 1 + seed % 2
    players = {seat: HeuristicBot(seed), 3 - seat: RULESET.bots["random"](seed + 1)}
    log, state = play_match(WorldsSettings(seed=seed), players)  # refuses an illegal command
    assert isinstance(log.entries[-1].events[-1], MatchEnded)
    assert state.winner == seat


def test_the_heuristic_is_deterministic_for_a_seed() -> None:
    def commands(seed: int) -> list[object]:
        players = {1: HeuristicBot(seed), 2: HeuristicBot(seed + 1)}
        log, _ = play_match(WorldsSettings(seed=3), players)
        return [entry.command for entry in log.entries]

    assert commands(5) == commands(5)


def test_no_bot_chooses_from_no_legal_command() -> None:
    view = RULESET.view(table({"1.rifleman-1": (0, 0), "2.sprite-1": (16, 16)}), "seat-1")
    for bot in (HeuristicBot(1), SearchBot(SEARCH_GAME, 1)):
        with pytest.raises(IllegalCommandError):
            bot.choose(view, [])


def test_the_bots_are_registered_and_mcts_has_its_default_budget() -> None:
    assert set(RULESET.bots) == {"random", "heuristic", "mcts"}
    assert isinstance(RULESET.bots["heuristic"](1), HeuristicBot)
    search = RULESET.bots["mcts"](1)
    assert isinstance(search, SearchBot)
    assert search.iterations == DEFAULT_ITERATIONS == 60


def test_the_bots_decide_from_the_view_which_holds_no_chance() -> None:
    state = table({"1.rifleman-1": (2, 4), "2.sprite-1": (14, 12)}, seed=77)
    seen = RULESET.view(state, "seat-1")
    assert seen.state.chance is None and seen.state.settings.seed == 0
    other = table({"1.rifleman-1": (2, 4), "2.sprite-1": (14, 12)}, seed=78)
    for make in (HeuristicBot, lambda seed: SearchBot(SEARCH_GAME, seed, iterations=6)):
        assert choose(make(4), state) == choose(make(4), other)


# --- the heuristic's preferences --------------------------------------------------------------


def test_it_attacks_the_model_it_can_kill_rather_than_one_it_barely_scratches() -> None:
    # Claws double against Physical: 4 - 1 = 3 kills a Rifleman; a Heavy Gunner (Physical and
    # Energy) takes 2 - 2, at least 1.
    state = table(
        {"2.sprite-1": (5, 5), "1.rifleman-1": (6, 5), "1.heavy-gunner-1": (4, 5)}, active=2
    )
    state = acting(state, Activate(2, ("2.sprite-1",), "attack_move"))
    act = choose(HeuristicBot(1), state, 2)
    assert isinstance(act, Act)
    assert act.attacks[0] == AttackWith("2.sprite-1", "Claws", "1.rifleman-1")


def test_its_attacks_spread_once_a_target_is_likely_dead() -> None:
    # Each Thorn Lash hit (2 x 2 - 1 = 3) kills a Rifleman: three lashes at two of them.
    state = table(
        {"2.thorn-queen": (5, 5), "1.rifleman-1": (6, 5), "1.rifleman-2": (4, 5)}, active=2
    )
    state = acting(state, Activate(2, ("2.thorn-queen",), "attack_move"))
    judge = Judge(state, 2)
    queen = state.model("2.thorn-queen")
    assert queen is not None and queen.at is not None
    attacks, gained = plan_attacks(state, judge, [queen], [queen.at])
    lashes = [a.target for a in attacks if a.weapon == "Thorn Lash"]
    assert sorted(set(lashes)) == ["1.rifleman-1", "1.rifleman-2"]
    rifleman = state.model("1.rifleman-1")
    assert rifleman is not None
    assert 0 < gained < 2 * model_worth(state, rifleman)


def test_it_moves_a_lone_model_to_hold_an_objective() -> None:
    state = table({"1.rifleman-1": (2, 3), "2.treant-1": (16, 16)}, round=2)
    command = choose(HeuristicBot(1), state)
    assert isinstance(command, Activate) and command.models == ("1.rifleman-1",)
    state = acting(state, replace(command, tactic=None))
    act = choose(HeuristicBot(1), state)
    assert isinstance(act, Act) and len(act.moves) == 1
    assert distance(act.moves[0].to, (2, 8)) <= 2


def test_it_activates_a_line_as_one_formation_for_one_ap() -> None:
    placed = {model: (6 + i, 2) for i, model in enumerate(LINE)}
    state = table({**placed, "2.treant-1": (16, 16)})
    command = choose(HeuristicBot(1), state)
    assert isinstance(command, Activate)
    assert set(command.models) == set(LINE)


def test_a_formation_s_move_keeps_it_connected() -> None:
    placed = {model: (6 + i, 2) for i, model in enumerate(LINE)}
    state = table({**placed, "2.treant-1": (16, 16)})
    state = acting(state, Activate(1, LINE, "move_twice"))
    act = choose(HeuristicBot(1), state)
    assert isinstance(act, Act) and act.moves
    _, after = given(state, act)
    squares = [m.at for m in after.models if m.id in LINE and m.at is not None]
    assert rules.formation_ok([m for m in after.models if m.id in LINE])
    assert min(at[1] for at in squares) > 2  # it went forward


def test_a_formation_split_by_a_fall_is_given_a_legal_act() -> None:
    placed = {model: (6 + i, 2) for i, model in enumerate(LINE[:3])}
    state = table({**placed, "2.sprite-1": (7, 9)})
    state = acting(state, Activate(1, LINE[:3], "move_twice"))
    state = at(state, f'models={{"{LINE[1]}":{{"fallen":true}}}}')  # fell to a penalty (W35)
    for quick in (False, True):
        act, _ = plan_act(state, quick=quick)
        assert act in RULESET.legal_commands(state, 1)


def test_it_passes_when_no_activation_is_worth_an_ap() -> None:
    # The rifleman holds the middle objective alone, out of the treant's reach and sight.
    state = table({"1.rifleman-1": (8, 8), "2.treant-1": (0, 16)}, round=5, ap=(1, 3))
    assert rules.formation_problem(state, 1, ("1.rifleman-1",)) is None
    assert choose(HeuristicBot(1), state) == Pass(1)


def test_it_re_rolls_a_die_that_may_kill_a_leader_but_not_one_at_a_dead_target() -> None:
    state = table({"2.thorn-queen": (5, 5), "1.commander": (6, 5)}, active=2, ap=(3, 3))
    state = hurt(state, "1.commander", 3)
    state = acting(state, Activate(2, ("2.thorn-queen",), "attack_move"))
    lash = AttackWith("2.thorn-queen", "Thorn Lash", "1.commander")
    _, missed = given(state, Act(2, (), (lash,), dice=(1,)))
    assert choose(HeuristicBot(1), missed, 2) == Reroll(2, 0)
    _, killed = given(state, Act(2, (), (lash, lash), dice=(6, 1)))
    assert choose(HeuristicBot(1), killed, 2) == KeepDice(2)


def test_it_deploys_each_training_as_one_group_on_its_front_row() -> None:
    state = RULESET.initial_state(WorldsSettings(seed=4), None)
    bot = HeuristicBot(2)
    while state.phase != "round":
        seat = rules.to_act(state)[0]
        _, state = rules.decide(choose(bot, state, seat), state)
    for seat in (1, 2):
        placed = [m for m in state.models if m.seat == seat]
        trainings = {m.kind.training for m in placed}
        for training in trainings:
            group = [m for m in placed if m.kind.training == training]
            assert rules.formation_ok(group), (seat, training)
        rows = {m.at[1] for m in placed if m.at is not None}
        assert rows & {2, 14}  # the front row nearest the objectives


# --- the search -------------------------------------------------------------------------------


def test_evaluate_is_the_result_once_over_and_favours_the_side_with_more_left() -> None:
    placed = {"1.rifleman-1": (2, 4), "1.rifleman-2": (3, 4), "2.sprite-1": (14, 12)}
    even = table(placed)
    assert evaluate(even, 1) == pytest.approx(-evaluate(even, 2))
    worse = hurt(even, "1.rifleman-2", 1)
    assert evaluate(worse, 1) < evaluate(even, 1)
    over = at(even, "phase=over winner=2")
    assert (evaluate(over, 1), evaluate(over, 2)) == (-1.0, 1.0)


def test_the_fitted_evaluation_is_the_result_once_over_zero_sum_and_weighs_vp_more_late() -> None:
    placed = {"1.rifleman-1": (2, 4), "1.rifleman-2": (3, 4), "2.sprite-1": (14, 12)}
    even = table(placed)
    worse = hurt(even, "1.rifleman-2", 1)
    for state in (even, worse):
        assert fitted_evaluate(state, 1) == pytest.approx(-fitted_evaluate(state, 2))
    assert fitted_evaluate(worse, 1) < fitted_evaluate(even, 1)
    ahead = 'sides={"0":{"vp":2}}'
    early, late = at(table(placed, round=2), ahead), at(table(placed, round=5), ahead)
    assert 0 < fitted_evaluate(early, 1) < fitted_evaluate(late, 1)
    over = at(even, "phase=over winner=2")
    assert (fitted_evaluate(over, 1), fitted_evaluate(over, 2)) == (-1.0, 1.0)


def test_a_search_game_judges_with_the_evaluation_it_is_given() -> None:
    state = table({"1.rifleman-1": (2, 4), "1.rifleman-2": (3, 4), "2.sprite-1": (14, 12)})
    fitted = SearchGame(evaluation=fitted_evaluate)
    assert fitted.evaluate(state, 1) == fitted_evaluate(state, 1)
    assert SEARCH_GAME.evaluate(state, 1) == evaluate(state, 1) != fitted.evaluate(state, 1)


def test_features_count_what_a_side_has_and_its_hold_on_the_objectives() -> None:
    placed = {**{m: (6 + i, 4) for i, m in enumerate(LINE)}, "2.sprite-1": (8, 9)}
    state = at(table(placed), 'sides={"1":{"vp":3}}')
    vp, models, _, _, held, _, count = bots.features(state, 2)
    assert (vp, count) == (3, 1)
    assert models == pytest.approx(model_worth(state, state.model("2.sprite-1")))
    assert -len(state.game_map.objectives) <= held <= len(state.game_map.objectives)
    assert bots.FEATURES[4] == "holding"
    assert bots.features(state, 1)[4] == pytest.approx(-held)


def test_the_search_game_plays_one_command_and_stops_after_the_other_s_activation() -> None:
    state = table({**{m: (6 + i, 2) for i, m in enumerate(LINE)}, "2.sprite-1": (8, 12)})
    legal = RULESET.legal_commands(state, 1)
    assert is_tree(legal)
    (command,) = SEARCH_GAME.legal(state, 1)
    assert command in legal
    after = state
    while rules.to_act(after) == (1,):
        (command,) = SEARCH_GAME.legal(after, 1)
        after = SEARCH_GAME.apply(after, command)
    assert not SEARCH_GAME.is_horizon(state, after)  # the sprite has still to act
    while not SEARCH_GAME.is_horizon(state, after):
        seat = SEARCH_GAME.to_move(after)
        assert seat is not None
        after = SEARCH_GAME.apply(after, SEARCH_GAME.legal(after, seat)[0])
    assert after.model("2.sprite-1") is None or after.activation is None


def test_the_search_bot_is_deterministic_and_legal_on_trees() -> None:
    state = table(
        {**{m: (6 + i, 6) for i, m in enumerate(LINE)}, "2.sprite-1": (8, 9), "2.sprite-2": (9, 9)}
    )
    first = choose(SearchBot(SEARCH_GAME, 3, iterations=8), state)
    assert first == choose(SearchBot(SEARCH_GAME, 3, iterations=8), state)
    assert isinstance(first, Activate | Pass)
    if isinstance(first, Activate):
        acting_state = acting(state, replace(first, tactic=None))
        act = choose(SearchBot(SEARCH_GAME, 3, iterations=8), acting_state)
        assert isinstance(act, Act)


def test_the_search_bot_takes_a_kill_of_the_enemy_leader() -> None:
    state = table(
        {"2.thorn-queen": (5, 5), "2.sprite-1": (12, 12), "1.commander": (6, 5)},
        active=2,
        round=5,
    )
    state = hurt(state, "1.commander", 1)
    command = choose(SearchBot(SEARCH_GAME, 1, iterations=12), state, 2)
    assert isinstance(command, Activate) and "2.thorn-queen" in command.models
    assert command.plan != "move_twice"


def test_the_search_bot_leaves_set_up_and_re_rolls_to_the_heuristic() -> None:
    state = RULESET.initial_state(WorldsSettings(seed=1), None)
    _, state = rules.decide(RollOff(1), state)
    seat = rules.to_act(state)[0]
    assert choose(SearchBot(SEARCH_GAME, 2), state, seat) == choose(HeuristicBot(2), state, seat)
    assert bots.deploy_command(state, seat) == choose(HeuristicBot(2), state, seat)


@pytest.mark.parametrize(
    ("iterations", "size"), [(1, 5), (DEFAULT_ITERATIONS, 5), (120, 7), (240, 10), (5000, 10)]
)
def test_a_larger_budget_searches_more_of_the_heuristic_s_activations(
    iterations: int, size: int
) -> None:
    assert SearchBot(SEARCH_GAME, 1, iterations=iterations).shortlist_size == size
    assert SearchBot(SEARCH_GAME, 1, iterations=iterations, shortlist=3).shortlist_size == 3


def test_the_search_bot_searches_its_budget_s_activations_and_passing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched: list[list[Command]] = []
    guided = SearchBot.guided

    def spy(self: SearchBot, view: Any, candidates: Any) -> Any:
        searched.append(list(candidates))
        return guided(self, view, candidates)

    monkeypatch.setattr(SearchBot, "guided", spy)
    state = table({**{m: (6 + 2 * i, 6) for i, m in enumerate(LINE)}, "2.sprite-1": (8, 12)})
    best = [command for command, _ in bots.activation_options(state, 1)]
    assert len(best) > 10
    choose(SearchBot(SEARCH_GAME, 1, iterations=4), state)
    choose(SearchBot(SEARCH_GAME, 1, iterations=240), state)
    assert searched == [[*best[:5], Pass(1)], [*best[:10], Pass(1)]]


def test_the_search_bot_refuses_an_empty_shortlist() -> None:
    with pytest.raises(ValueError, match=r"^a search weighs 1 command or more, not 0$"):
        SearchBot(SEARCH_GAME, 1, shortlist=0)


# --- the search's work ------------------------------------------------------------------------


def heuristic_states(seed: int, count: int) -> list[WorldsState]:
    """The first ``count`` states of a heuristic match where a seat chooses an activation."""
    state = RULESET.initial_state(WorldsSettings(seed=seed), None)
    players = {1: HeuristicBot(seed), 2: HeuristicBot(seed + 1)}
    found: list[WorldsState] = []
    while len(found) < count and (seats := rules.to_act(state)):
        if state.phase == "activations" and state.activation is None:
            found.append(state)
        seat = seats[0]
        legal = RULESET.legal_commands(state, seat)
        command = players[seat].choose(RULESET.view(state, f"seat-{seat}"), legal)
        _, state = rules.decide(command, state)
    return found


def test_a_judge_of_the_board_before_an_activation_plans_its_act_as_a_new_one_would() -> None:
    checked = 0
    for state in heuristic_states(5, 6):
        seat = rules.to_act(state)[0]
        judge = Judge(state, seat)
        for command, _ in bots.activation_options(state, seat, judge=judge)[:4]:
            acting_state = acting(state, replace(command, tactic=None))
            assert bots.board_key(acting_state, seat) == bots.board_key(state, seat)
            assert plan_act(acting_state, judge) == plan_act(acting_state)
            checked += 1
    assert checked >= 12


def test_a_tactic_s_effect_or_a_move_makes_another_board() -> None:
    state = heuristic_states(5, 1)[0]
    seat = rules.to_act(state)[0]
    boon = replace(state.sides[seat - 1].faction.tactics[0].effect, move=1)
    command = bots.activation_options(state, seat)[0][0]
    boosted = bots.activating(state, seat, command.models, command.plan, boon=boon)
    assert bots.board_key(boosted, seat) != bots.board_key(state, seat)
    model = next(m for m in state.models if m.seat == seat and m.at is not None)
    assert model.at is not None
    moved = at(state, f'models={{"{model.id}":{{"at":[{model.at[0]},{model.at[1] + 1}]}}}}')
    assert bots.board_key(moved, seat) != bots.board_key(state, seat)


def test_a_search_of_large_formations_stops_at_its_work_and_others_run_their_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched: list[Any] = []
    guided = SearchBot.guided

    def spy(self: SearchBot, view: Any, candidates: Any) -> Any:
        searched.append(guided(self, view, candidates))
        return searched[-1]

    monkeypatch.setattr(SearchBot, "guided", spy)
    state = heuristic_states(5, 1)[0]  # round 1: every model ready, in large formations
    seat = rules.to_act(state)[0]
    choose(SearchBot(SEARCH_GAME, 1, iterations=20), state, seat)
    assert bots.WORK == SearchBot.work_per_iteration == 250
    (bounded,) = searched
    assert bounded.judged() >= 20 * bots.WORK
    assert bounded.iterations_run() < 20
    monkeypatch.setattr(SearchBot, "work_per_iteration", None)
    choose(SearchBot(SEARCH_GAME, 1, iterations=20), state, seat)
    assert searched[1].iterations_run() == 20
    assert searched[1].judged() > bounded.judged()
    small = table({"1.rifleman-1": (2, 4), "2.sprite-1": (14, 12)})
    monkeypatch.setattr(SearchBot, "work_per_iteration", bots.WORK)
    choose(SearchBot(SEARCH_GAME, 1, iterations=20), small)
    assert searched[2].iterations_run() == 20
