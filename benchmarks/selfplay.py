"""Random-bot self-play: complete matches per second on one core, and events per match.

Plays complete matches between two :class:`~multiversus_core.bots.RandomBot`
players over every pairing of installed Hero and Adversary teams, in this
one process (so on one core), and reports matches per second, commands and
events per match, and how matches ended. Run::

    PYTHONPATH=src python benchmarks/selfplay.py --matches 200
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter

from multiversus_core import MatchSettings, apply, decider_seat, start_match
from multiversus_core.bots import RandomBot, command_for
from multiversus_core.sheets import installed_teams


def play(settings: MatchSettings) -> tuple[int, int, str]:
    """Play one match; return its commands, its events and how it ended."""
    state = start_match(settings)
    bots = {1: RandomBot(settings.seed), 2: RandomBot(settings.seed + 1)}
    commands = events = 0
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        state, produced = apply(state, command_for(bots[seat], state, seat))
        commands += 1
        events += len(produced)
    result = f"{state.winner} ({state.ended})" if state.winner else f"draw ({state.ended})"
    return commands, events, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match")
    args = parser.parse_args(argv)

    teams = installed_teams()
    pairings = list(
        itertools.product(
            [t.id for t in teams if t.side == "heroes"],
            [t.id for t in teams if t.side == "adversaries"],
        )
    )
    results: Counter[str] = Counter()
    commands = events = 0
    start = time.perf_counter()
    for n in range(args.matches):
        heroes, adversaries = pairings[n % len(pairings)]
        settings = MatchSettings(heroes=heroes, adversaries=adversaries, seed=args.seed + n)
        c, e, result = play(settings)
        commands += c
        events += e
        results[result] += 1
        print(f"\rplayed {n + 1:,} / {args.matches:,} matches", end="", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    print(file=sys.stderr)
    print(f"pairings:         {len(pairings)} ({', '.join(f'{h} v {a}' for h, a in pairings)})")
    print(f"matches:          {args.matches:,} in {elapsed:,.1f} s")
    print(f"matches/second:   {args.matches / elapsed:,.1f} (one core)")
    print(f"commands/match:   {commands / args.matches:,.0f}")
    print(f"events/match:     {events / args.matches:,.0f}")
    print(f"events/second:    {events / elapsed:,.0f} (deciding, folding and choosing)")
    for result, count in results.most_common():
        print(f"  {count:5,}  {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
