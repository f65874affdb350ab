"""Random-bot self-play: matches per second, µs per command, and the engine's share.

Plays complete matches between two :class:`~multiversus_core.bots.RandomBot`
players over every pairing of installed Hero and Adversary teams, in this
one process (so on one core), and reports matches per second, µs per
command, commands and events per match, and how matches ended.

Then it times the engine alone on the same games: for every recorded command,
``legal_commands`` for the deciding seat plus ``apply`` of that command, with
no bot. That is the cost a search bot pays per node. Both timings run in
``--rounds`` rounds; the figures are the medians. Times are the process's
CPU time, which a busy machine disturbs less than wall-clock time.

With ``--against SRC`` (the ``src`` folder of another checkout, for example
main), it runs itself in subprocesses alternately on that code and on this
one, ``--rounds`` pairs in all, and prints the ratio of the engine's cost per
command, the median of the pairs' ratios: paired rounds keep the ratio honest
on a machine whose load drifts. Run::

    PYTHONPATH=src python benchmarks/selfplay.py --matches 100
    PYTHONPATH=src python benchmarks/selfplay.py --matches 60 --against /tmp/main/src
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from multiversus_core import MatchSettings, apply, decider_seat, start_match
from multiversus_core.bots import RandomBot, command_for
from multiversus_core.commands import Command
from multiversus_core.legal import legal_commands
from multiversus_core.sheets import installed_teams


def play(settings: MatchSettings) -> tuple[list[Command], int, str]:
    """Play one match; return its commands, its events and how it ended."""
    state = start_match(settings)
    bots = {1: RandomBot(settings.seed), 2: RandomBot(settings.seed + 1)}
    commands: list[Command] = []
    events = 0
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        command = command_for(bots[seat], state, seat)
        state, produced = apply(state, command)
        commands.append(command)
        events += len(produced)
    result = f"{state.winner} ({state.ended})" if state.winner else f"draw ({state.ended})"
    return commands, events, result


def engine(settings: MatchSettings, commands: list[Command]) -> int:
    """Re-play a match's commands: legal commands of the deciding seat, then apply.

    Returns the number of legal commands listed, a check that both codes agree.
    """
    state = start_match(settings)
    listed = 0
    for command in commands:
        seat = decider_seat(state)
        assert seat is not None
        listed += len(legal_commands(state, seat))
        state, _ = apply(state, command)
    return listed


def settings_list(matches: int, seed: int) -> list[MatchSettings]:
    """The settings of the benchmark's matches: every pairing in turn."""
    teams = installed_teams()
    pairings = list(
        itertools.product(
            [t.id for t in teams if t.side == "heroes"],
            [t.id for t in teams if t.side == "adversaries"],
        )
    )
    return [
        MatchSettings(heroes=h, adversaries=a, seed=seed + n)
        for n, (h, a) in zip(range(matches), itertools.cycle(pairings), strict=False)
    ]


def measure(matches: int, seed: int, rounds: int) -> dict[str, object]:
    """Play and time the matches; return the figures as a dictionary."""
    all_settings = settings_list(matches, seed)
    play_times: list[float] = []
    engine_times: list[float] = []
    games: list[tuple[MatchSettings, list[Command]]] = []
    results: Counter[str] = Counter()
    commands = events = listed = 0
    for number in range(rounds):
        start = time.process_time()
        played = [(s, *play(s)) for s in all_settings]
        play_times.append(time.process_time() - start)
        if number == 0:
            games = [(s, c) for s, c, _, _ in played]
            commands = sum(len(c) for _, c, _, _ in played)
            events = sum(e for _, _, e, _ in played)
            results.update(r for _, _, _, r in played)
        start = time.process_time()
        listed = sum(engine(s, c) for s, c in games)
        engine_times.append(time.process_time() - start)
        print(f"\rround {number + 1} / {rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    play_time = statistics.median(play_times)
    engine_time = statistics.median(engine_times)
    return {
        "matches": matches,
        "commands": commands,
        "events": events,
        "listed": listed,
        "matches_per_second": matches / play_time,
        "us_per_command": play_time / commands * 1e6,
        "engine_us_per_command": engine_time / commands * 1e6,
        "engine_share": engine_time / play_time,
        "engine_spread": [min(engine_times) / commands * 1e6, max(engine_times) / commands * 1e6],
        "results": dict(results.most_common()),
    }


def report(figures: dict[str, object]) -> None:
    """Print one code's figures."""
    f = figures
    low, high = f["engine_spread"]  # type: ignore[misc]
    print(f"matches:          {f['matches']:,} (every pairing in turn)")
    print(f"matches/second:   {f['matches_per_second']:,.1f} (one core, bots included)")
    print(f"µs/command:       {f['us_per_command']:,.1f} (bots included)")
    print(
        f"engine:           {f['engine_us_per_command']:,.1f} µs/command "
        f"(legal_commands + apply; rounds {low:,.1f} to {high:,.1f}), "
        f"{f['engine_share']:.0%} of self-play"
    )
    print(f"commands/match:   {f['commands'] / f['matches']:,.0f}")  # type: ignore[operator]
    print(f"events/match:     {f['events'] / f['matches']:,.0f}")  # type: ignore[operator]
    for result, count in f["results"].items():  # type: ignore[attr-defined]
        print(f"  {count:5,}  {result}")


def against(src: Path, matches: int, seed: int, rounds: int) -> int:
    """Alternate subprocess rounds on ``src`` and on this code; print the paired ratios."""
    here = Path(__file__).resolve().parent.parent / "src"
    codes = {"baseline": src.resolve(), "this": here}
    figures: dict[str, list[dict[str, object]]] = {"baseline": [], "this": []}
    for number in range(rounds):
        for name, path in codes.items():
            env = dict(os.environ, PYTHONPATH=str(path))
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--matches",
                    str(matches),
                    "--seed",
                    str(seed),
                    "--rounds",
                    "1",
                    "--json",
                ],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            figures[name].append(json.loads(out))
        print(f"\rpair {number + 1} / {rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    base, this = figures["baseline"], figures["this"]
    if (base[0]["commands"], base[0]["listed"]) != (this[0]["commands"], this[0]["listed"]):
        print("the two codes played different games: not comparable", file=sys.stderr)
        return 1
    for key, label in (
        ("engine_us_per_command", "engine µs/command"),
        ("us_per_command", "self-play µs/command"),
    ):
        ratios = [b[key] / t[key] for b, t in zip(base, this, strict=True)]  # type: ignore[operator]
        b_med = statistics.median(b[key] for b in base)  # type: ignore[type-var]
        t_med = statistics.median(t[key] for t in this)  # type: ignore[type-var]
        print(
            f"{label + ':':22} baseline {b_med:,.1f}, this {t_med:,.1f}: "
            f"{statistics.median(ratios):.2f}x faster (median of {len(ratios)} pairs, "
            f"{min(ratios):.2f} to {max(ratios):.2f})"
        )
    mps = statistics.median(t["matches_per_second"] for t in this)  # type: ignore[type-var]
    print(f"matches/second:        this {mps:,.1f} (one core, bots included)")
    print(f"games:                 identical ({this[0]['commands']:,} commands)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (default 3)")
    parser.add_argument(
        "--against", type=Path, default=None, help="the src folder of a baseline checkout"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.rounds < 1:
        parser.error("--matches and --rounds must be at least 1")
    if args.against is not None:
        return against(args.against, args.matches, args.seed, args.rounds)
    figures = measure(args.matches, args.seed, args.rounds)
    if args.json:
        print(json.dumps(figures))
    else:
        report(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
