"""Every game as an OpenSpiel game (``multiversus_core.openspiel``), played by OpenSpiel's own
code: its random simulation test, random playouts, ``evaluate_bots`` and ISMCTSBot."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random

from multiversus_core.engine.registry import game_ids, load_ruleset
from multiversus_core.openspiel import REGISTERED, SpielState, game_name
from multiversus_core.rulesets.sealed_bids.rules import RollPrize, SealedBidsState

NAMES = [game_name(game) for game in game_ids()]


def _chance(state: pyspiel.State, rng: np.random.RandomState) -> int:
    actions, probabilities = zip(*state.chance_outcomes(), strict=True)
    return int(rng.choice(actions, p=probabilities))


def _ismcts(game: pyspiel.Game, seed: int, simulations: int) -> ismcts.ISMCTSBot:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )


def test_every_installed_game_is_registered_as_python_and_its_id() -> None:
    assert tuple(NAMES) == REGISTERED
    assert "python_sealed_bids" in pyspiel.registered_names()
    assert "python_worlds_collide" in pyspiel.registered_names()


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_s_random_simulation_test_passes(name: str) -> None:
    # OpenSpiel's own check: legal actions, chance, clones, strings and tensors, to the end.
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_random_playouts_reach_the_end_of_the_match_with_its_returns(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(4)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_chance(state, rng))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        outcome = load_ruleset(state.get_game().ruleset.id).outcome(state.state)
        assert outcome is not None
        assert state.returns() == list(outcome.returns)


@pytest.mark.parametrize("name", NAMES)
def test_evaluate_bots_plays_a_match_to_the_end(name: str) -> None:
    game = pyspiel.load_game(name)
    bots = [
        uniform_random.UniformRandomBot(p, np.random.RandomState(p))
        for p in range(game.num_players())
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(9))
    assert len(returns) == game.num_players()
    assert all(-1.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize(
    ("name", "decisions"), [("python_multiversus", 8), ("python_sealed_bids", 30)]
)
def test_ismcts_bot_chooses_legal_actions_from_resampled_views(name: str, decisions: int) -> None:
    game = pyspiel.load_game(name)
    bot = _ismcts(game, seed=2, simulations=10)
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    chosen = 0
    while not state.is_terminal() and chosen < decisions:
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
            continue
        action = bot.step(state)  # asserts each resampled state keeps the information state
        assert action in state.legal_actions()
        state.apply_action(int(action))
        chosen += 1
    assert chosen == decisions or state.is_terminal()


def test_a_prize_roll_is_a_chance_node_of_six_equally_likely_faces() -> None:
    game = pyspiel.load_game("python_sealed_bids")
    state = game.new_initial_state()
    for action in (4, 2, 0, 5):  # three bids (tokens 5, 3, 1), then seat 1 rolls
        state.apply_action(action)
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(6)]
    before: SealedBidsState = state.state
    state.apply_action(3)
    assert not state.is_chance_node()
    _, rolled_four = load_ruleset("sealed-bids").decide(RollPrize(1, die=4), before)
    assert state.state == rolled_four


def _hidden_apart(
    name: str,
    player: int,
    actions: list[int],
    hidden: Callable[[SpielState], object] | None = None,
) -> tuple[SpielState, SpielState]:
    """Two states ``player`` cannot tell apart, drawn from its information state, that another
    seat can: they differ in what is hidden from ``player`` (in ``hidden`` of them, if given:
    two draws may differ in a salt alone)."""
    state = pyspiel.load_game(name).new_initial_state()
    for action in actions:
        state.apply_action(action)
    samples = [
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        for _ in range(30)
    ]
    others = [p for p in range(state.num_players()) if p != player]
    for first in samples:
        for second in samples:
            if any(
                first.information_state_string(o) != second.information_state_string(o)
                for o in others
            ) and (hidden is None or hidden(first) != hidden(second)):
                return first, second
    raise AssertionError("no two resampled states differ in what is hidden from the player")


def test_an_information_state_does_not_depend_on_others_sealed_bids() -> None:
    def bids(state: SpielState) -> list[int]:
        return [b.token for b in state.state.bids]

    first, second = _hidden_apart("python_sealed_bids", 2, [4, 2], bids)  # seats 1, 2 have bid
    assert bids(first) != bids(second)
    assert first.information_state_string(2) == second.information_state_string(2)
    assert first.information_state_tensor(2) == second.information_state_tensor(2)
    assert first.observation_string(2) == second.observation_string(2)


def _multiversus_after_secrets() -> list[int]:
    """Actions of a Multiversus match up to the first coin selection of the second seat."""
    game = pyspiel.load_game("python_multiversus")
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    actions = []
    seats_selected: set[int] = set()
    while len(seats_selected) < 2:
        action = (
            _chance(state, rng)
            if state.is_chance_node()
            else int(rng.choice(state.legal_actions()))
        )
        if not state.is_chance_node():
            text = state.action_to_string(state.current_player(), action)
            if "select_coins" in text:
                seats_selected.add(state.current_player())
        actions.append(action)
        state.apply_action(action)
    return actions


def test_a_multiversus_information_state_does_not_depend_on_the_opponent_s_secrets() -> None:
    actions = _multiversus_after_secrets()
    state = pyspiel.load_game("python_multiversus").new_initial_state()
    for action in actions:
        state.apply_action(action)
    player = state.current_player()
    first, second = _hidden_apart("python_multiversus", player, actions)
    assert first.information_state_string(player) == second.information_state_string(player)
    assert first.information_state_tensor(player) == second.information_state_tensor(player)
    assert first.information_state_string(player) == state.information_state_string(player)


def test_the_information_state_is_the_seat_s_view_not_the_referee_s_state() -> None:
    state = pyspiel.load_game("python_sealed_bids").new_initial_state()
    state.apply_action(4)  # seat 1 bids 5
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert '"token":5' in mine
    assert '"token":5' not in theirs


def test_a_tree_of_choices_takes_one_action_a_choice_kept_in_the_information_state() -> None:
    game = pyspiel.load_game("python_worlds_collide")
    codec = game.codec
    state = game.new_initial_state()
    rng = np.random.RandomState(6)
    while state.is_chance_node() or max(state.legal_actions()) < codec.commands:
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    key = min(state.legal_actions())
    state.apply_action(key)
    assert state.current_player() == player
    assert state.information_state_string(player).endswith("chosen:" + codec.key_of(key))
    assert "chosen:" + codec.key_of(key) not in state.information_state_string(1 - player)


def test_importing_it_without_openspiel_names_the_extra() -> None:
    code = "import sys; sys.modules['pyspiel'] = None; import multiversus_core.openspiel"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == (
        "ImportError: multiversus_core.openspiel needs OpenSpiel: "
        "pip install 'multiversus[openspiel]'"
    )


def test_the_example_of_docs_openspiel_plays_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).parent.parent / "docs" / "openspiel.md").read_text(encoding="utf-8")
    example = re.findall(r"```python\n(.*?)```", page, re.S)[0]
    exec(compile(example, "docs/openspiel.md", "exec"), {})
    returns = ast.literal_eval(capsys.readouterr().out.strip())
    assert len(returns) == 3
    assert all(-1.0 <= r <= 1.0 for r in returns)


def test_an_illegal_action_is_refused() -> None:
    state = pyspiel.load_game("python_sealed_bids").new_initial_state()
    with pytest.raises(ValueError, match="not a legal action now"):
        state.apply_action(5)  # the prize roll, before anyone has bid


def test_a_match_whose_salts_are_secret_plays_to_the_end() -> None:
    game = pyspiel.load_game("python_multiversus", {"settings": '{"salts": "secrets"}'})
    rng = np.random.RandomState(8)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert game.settings.salts == "secrets"
    assert len(state.returns()) == 2
