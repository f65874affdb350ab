"""Bot speed: how long a bot takes to decide, over decisions with a real choice.

Plays ``--matches`` matches of bot A against bot B over the bundled
pairings and times each of A's decisions that has more than one legal
command (a single legal command is answered at once). Reports the mean,
median, 99th percentile and slowest, in milliseconds. The targets: the
heuristic well under 10 ms a decision; the search bot at its default budget
at most about a second.

For any other game (``--game``), bots A and B are names from the game's
``ruleset.bots``; match n uses seed n and the game's default settings, A in
seat 1 in even matches and seat 2 in odd ones, and a decision has a choice
when its legal commands are a tree of choices or a list of more than one.

A benchmark, never a test. Run::

    PYTHONPATH=src python benchmarks/bot_speed.py heuristic random --matches 20
    PYTHONPATH=src python benchmarks/bot_speed.py mcts heuristic --matches 2
    PYTHONPATH=src python benchmarks/bot_speed.py mcts heuristic --game worlds-collide --matches 2
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time

import msgspec

from multiversus_core import MatchSettings, apply, decider_seat, legal_commands, start_match
from multiversus_core.engine.bots import bot_maker
from multiversus_core.engine.choices import is_tree, listed
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.rulesets.multiversus.bots.specs import command_for, make_bot
from multiversus_core.rulesets.multiversus.catalog import installed_teams


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="the bot to time")
    parser.add_argument("b", help="its opponent")
    parser.add_argument("--matches", type=int, default=20, help="matches to play (default 20)")
    parser.add_argument("--game", default="multiversus", help="the game's id (default multiversus)")
    args = parser.parse_args(argv)
    if args.game != "multiversus":
        return report(args, time_any(args))
    teams = installed_teams()
    pairings = list(
        itertools.product(
            [t.id for t in teams if t.side == "heroes"],
            [t.id for t in teams if t.side == "adversaries"],
        )
    )
    times: list[float] = []
    for n in range(args.matches):
        heroes, adversaries = pairings[n % len(pairings)]
        state = start_match(MatchSettings(heroes=heroes, adversaries=adversaries, seed=n))
        a_seat = 1 if n % 2 == 0 else 2
        bots = {a_seat: make_bot(args.a, 2 * n + 1), 3 - a_seat: make_bot(args.b, 2 * n + 2)}
        while not state.is_over:
            seat = decider_seat(state)
            assert seat is not None
            start = time.perf_counter()
            command = command_for(bots[seat], state, seat)
            elapsed = time.perf_counter() - start
            if seat == a_seat and len(legal_commands(state, seat)) > 1:
                times.append(elapsed * 1000)
            state, _ = apply(state, command)
        print(f"\rplayed {n + 1} / {args.matches}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return report(args, times)


def time_any(args: argparse.Namespace) -> list[float]:
    """The milliseconds of bot A's decisions with a choice, in a game other than Multiversus."""
    ruleset = load_ruleset(args.game)
    times: list[float] = []
    for n in range(args.matches):
        blank = ruleset.settings_type()
        table = ruleset.table(blank)
        settings = ruleset.with_table(blank, msgspec.structs.replace(table, seed=n))
        a_seat = 1 if n % 2 == 0 else 2
        seats = range(1, len(table.players) + 1)
        first = len(table.players) * n + 1
        makers = {name: bot_maker(ruleset.bots, name) for name in (args.a, args.b)}
        bots = {s: makers[args.a if s == a_seat else args.b](first + s) for s in seats}
        state = ruleset.initial_state(settings, None)
        while seats_now := ruleset.to_act(state):
            seat = seats_now[0]
            legal = ruleset.legal_commands(state, seat)
            seen = ruleset.view(state, ruleset.viewer_of(state, seat))
            start = time.perf_counter()
            command = bots[seat].choose(seen, legal)
            elapsed = time.perf_counter() - start
            if seat == a_seat and (is_tree(legal) or len(listed(legal, 2) or ()) > 1):
                times.append(elapsed * 1000)
            _, state = ruleset.decide(ruleset.salted(command, settings), state)
        print(f"\rplayed {n + 1} / {args.matches}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return times


def report(args: argparse.Namespace, times: list[float]) -> int:
    """Print the decisions' times."""
    times.sort()
    decided = f"{len(times)} decisions with a choice in {args.matches} matches"
    print(f"{args.a} against {args.b}: {decided}")
    mean, median = statistics.fmean(times), statistics.median(times)
    slow = times[int(0.99 * (len(times) - 1))]
    print(
        f"ms a decision: mean {mean:.2f}, median {median:.2f}, "
        f"99th percentile {slow:.2f}, slowest {times[-1]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
