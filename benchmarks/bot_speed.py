"""Bot speed: how long a bot takes to decide, over decisions with a real choice.

Plays ``--matches`` matches of bot A against bot B over the bundled
pairings and times each of A's decisions that has more than one legal
command (a single legal command is answered at once). Reports the mean,
median, 99th percentile and slowest, in milliseconds. The targets: the
heuristic well under 10 ms a decision; the search bot at its default budget
at most about a second. A benchmark, never a test. Run::

    PYTHONPATH=src python benchmarks/bot_speed.py heuristic random --matches 20
    PYTHONPATH=src python benchmarks/bot_speed.py mcts heuristic --matches 2
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time

from multiversus_core import MatchSettings, apply, decider_seat, legal_commands, start_match
from multiversus_core.rulesets.multiversus.bots.specs import command_for, make_bot
from multiversus_core.rulesets.multiversus.catalog import installed_teams


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="the bot to time")
    parser.add_argument("b", help="its opponent")
    parser.add_argument("--matches", type=int, default=20, help="matches to play (default 20)")
    args = parser.parse_args(argv)
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
