"""Our ``mcts`` against OpenSpiel's ISMCTSBot on Multiversus, at equal time per decision.

Both bots play the same OpenSpiel game (``python_multiversus``, from
``multiversus_core.openspiel``), each given the same time budget a decision
(``--seconds``): our ``mcts`` bot (``SearchBot`` with a time budget) is given
its seat's view and legal commands, and its command is played as its action
id; OpenSpiel's ``ISMCTSBot`` (its own code, unchanged) searches the game's
information states, resampled from the seat's view, its simulations per
decision set from its measured rate so that it spends the same time. For a
fair match of search and search, ISMCTSBot's evaluator is the game's own: the
search game's playout to its horizon and its evaluation
(``Ruleset.search_game()``), as our search uses. Chance is drawn by the
harness; seats alternate (match n: our bot in seat 1 when n is even).

Then both searches run on the same decisions (coin selections met in the
matches) with the same number of iterations, for iterations per second.

A benchmark, never a test. Run it niced::

    PYTHONPATH=src nice -n 10 python benchmarks/openspiel_vs_mcts.py --minutes 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from multiversus_core.openspiel import SpielState
from multiversus_core.rulesets.multiversus.bots.search import SHORTLIST, SearchBot


class GameEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """ISMCTSBot's evaluator from the game's own search game: a playout to the game's horizon
    with its playout policy, then its evaluation for each seat; a uniform prior."""

    def __init__(self, seed: int, longest: int = 80) -> None:
        self._random = random.Random(seed)
        self._longest = longest

    def evaluate(self, state: SpielState) -> np.ndarray:
        game = state.get_game().ruleset.search_game()
        start = current = state.state
        for _ in range(self._longest):
            player = game.to_move(current)
            if player is None or game.is_horizon(start, current):
                break
            command = game.playout(current, game.legal(current, player), self._random)
            current = game.apply(current, command)
        seats = range(1, state.num_players() + 1)
        return np.array([game.evaluate(current, seat) for seat in seats])

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


class OurBot:
    """Our ``mcts`` on an OpenSpiel state: it sees the seat's view and legal commands only."""

    def __init__(self, seed: int, seconds: float) -> None:
        # The default bot's shortlist: a time budget is not a larger iteration budget.
        self.bot = SearchBot(seed, iterations=10**9, seconds=seconds, shortlist=SHORTLIST)

    def step(self, state: SpielState) -> int:
        ruleset, seat = state.get_game().ruleset, state.current_player() + 1
        view = ruleset.view(state.state, ruleset.viewer_of(state.state, seat))
        command = self.bot.choose(view, ruleset.legal_commands(state.state, seat))
        return int(state.get_game().codec.encode(command))


class TimedIsmcts:
    """OpenSpiel's ISMCTSBot, its simulations a decision set from its rate so far to fill
    ``seconds``."""

    def __init__(self, game: Any, seed: int, seconds: float, rate: float) -> None:
        self.bot = ismcts.ISMCTSBot(
            game,
            GameEvaluator(seed),
            uct_c=2.0,
            max_simulations=1,
            random_state=np.random.RandomState(seed),
        )
        self.seconds = seconds
        self.rate = rate
        """Simulations a second, updated after every search."""

    def step(self, state: SpielState) -> int:
        simulations = max(1, int(self.rate * self.seconds))
        self.bot._max_simulations = simulations  # the one knob: simulations a decision
        began = time.perf_counter()
        action = int(self.bot.step(state))
        spent = time.perf_counter() - began
        if len(state.legal_actions()) > 1 and spent > 0:
            self.rate = 0.8 * self.rate + 0.2 * simulations / spent
        return action


def play(game: Any, n: int, seconds: float, rate: float, found: list[SpielState]) -> dict[str, Any]:
    """One match, ours in seat 1 when ``n`` is even; its result and each bot's time."""
    ours = 0 if n % 2 == 0 else 1
    theirs = TimedIsmcts(game, 2 * n + 1, seconds, rate)
    bots: dict[int, Any] = {ours: OurBot(2 * n + 2, seconds), 1 - ours: theirs}
    spent: dict[int, list[float]] = {0: [], 1: []}
    chance = np.random.RandomState(n)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(actions, p=probabilities)))
            continue
        player = state.current_player()
        if len(state.legal_actions()) > 1:
            if "select_coins" in state.action_to_string(player, state.legal_actions()[0]):
                found.append(state.clone())
            began = time.perf_counter()
            action = bots[player].step(state)
            spent[player].append(time.perf_counter() - began)
        else:
            action = state.legal_actions()[0]
        state.apply_action(action)
    returns = state.returns()
    return {
        "ours": returns[ours],
        "theirs": returns[1 - ours],
        "our_times": spent[ours],
        "their_times": spent[1 - ours],
        "rate": theirs.rate,
    }


def iterations_per_second(
    game: Any, states: list[SpielState], iterations: int
) -> tuple[float, float]:
    """Each search's iterations a second over the same decisions, ``iterations`` each."""
    ours = SearchBot(1, iterations=iterations)
    theirs = ismcts.ISMCTSBot(
        game,
        GameEvaluator(2),
        uct_c=2.0,
        max_simulations=iterations,
        random_state=np.random.RandomState(3),
    )
    our_time = their_time = 0.0
    for state in states:
        ruleset, seat = game.ruleset, state.current_player() + 1
        view = ruleset.view(state.state, ruleset.viewer_of(state.state, seat))
        legal = ruleset.legal_commands(state.state, seat)
        began = time.perf_counter()
        ours.choose(view, legal)
        our_time += time.perf_counter() - began
        began = time.perf_counter()
        theirs.step(state.clone())
        their_time += time.perf_counter() - began
    done = iterations * len(states)
    return done / our_time, done / their_time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="time for matches (20)")
    parser.add_argument("--seconds", type=float, default=0.1, help="budget a decision (0.1)")
    parser.add_argument("--most", type=int, default=1000, help="most matches (1000)")
    parser.add_argument("--iterations", type=int, default=120, help="for the rate (120)")
    parser.add_argument("--decisions", type=int, default=20, help="for the rate (20)")
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_multiversus")
    results: list[dict[str, Any]] = []
    found: list[SpielState] = []
    rate = 100.0
    deadline = time.perf_counter() + 60 * args.minutes
    while time.perf_counter() < deadline and len(results) < args.most:
        results.append(play(game, len(results), args.seconds, rate, found))
        rate = results[-1]["rate"]
        print(f"match {len(results)}: ours {results[-1]['ours']:+.0f}", file=sys.stderr)
    wins = sum(r["ours"] > r["theirs"] for r in results)
    losses = sum(r["ours"] < r["theirs"] for r in results)
    draws = len(results) - wins - losses
    ours_first = [r for n, r in enumerate(results) if n % 2 == 0]
    ours_second = [r for n, r in enumerate(results) if n % 2 == 1]
    our_times = [t for r in results for t in r["our_times"]]
    their_times = [t for r in results for t in r["their_times"]]
    sample = random.Random(0).sample(found, min(args.decisions, len(found)))
    our_rate, their_rate = iterations_per_second(game, sample, args.iterations)

    def record(rs: list[dict[str, Any]]) -> str:
        w = sum(r["ours"] > r["theirs"] for r in rs)
        lost = sum(r["ours"] < r["theirs"] for r in rs)
        return f"{w}-{len(rs) - w - lost}-{lost}"

    print(f"Multiversus, {len(results)} matches, {args.seconds} s a decision each:\n")
    print("| | wins-draws-losses of our mcts |")
    print("| --- | --- |")
    print(f"| all | {wins}-{draws}-{losses} |")
    print(f"| ours in seat 1 | {record(ours_first)} |")
    print(f"| ours in seat 2 | {record(ours_second)} |")
    print()
    print("| | our mcts | OpenSpiel ISMCTSBot |")
    print("| --- | --- | --- |")
    print(
        f"| mean s a searched decision | {statistics.fmean(our_times):.3f} "
        f"| {statistics.fmean(their_times):.3f} |"
    )
    print(f"| decisions searched | {len(our_times)} | {len(their_times)} |")
    print(
        f"| iterations a second ({len(sample)} coin selections, {args.iterations} each) "
        f"| {our_rate:.0f} | {their_rate:.0f} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
