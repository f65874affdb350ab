"""Random-bot self-play: matches per second, µs per command, and the engine's share.

Plays complete matches between two random bots
(:class:`~multiversus_core.rulesets.multiversus.bots.random.RandomBot`)
over every pairing of installed Hero and Adversary teams, in this one
process (so on one core), and reports matches per second, µs per command,
commands and events per match, and how matches ended.

Then it times the engine alone on the same games: for every recorded command,
``legal_commands`` for the deciding seat plus ``apply`` of that command, with
no bot. That is the cost a search bot pays per node. Both timings run in
``--rounds`` rounds; the figures are the medians. Times are the process's
CPU time, which a busy machine disturbs less than wall-clock time.

With ``--against SRC`` (the ``src`` folder of another checkout, for example
an older main), it compares the engine's cost per command of that code and
this one on the same games. This code plays the games and writes their
commands to a file; each code then re-plays them in a subprocess
(``--games FILE``). A game counts only if both codes accept every one of its
commands and list the same number of legal commands at every step, so a
rule that changed between the two codes drops the games it touches (the
report says how many). Then ``--rounds`` pairs of timings alternate between
the two codes, and the ratio printed is the median of the pairs' ratios:
paired rounds keep the ratio honest on a machine whose load drifts. Run::

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
import tempfile
import time
from collections import Counter
from pathlib import Path

import msgspec

from multiversus_core import (
    Command,
    MatchSettings,
    apply,
    decider_seat,
    legal_commands,
    start_match,
)

try:
    from multiversus_core.rulesets.multiversus.catalog import installed_teams
except ImportError:  # a checkout from before the engine was split from the game
    from multiversus_core.sheets import installed_teams  # type: ignore[no-redef]

# Only names that older codes also have are imported at the top: --games runs
# this script on another checkout's code.


def play(settings: MatchSettings) -> tuple[list[Command], int, str]:
    """Play one match; return its commands, its events and how it ended."""
    try:
        from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
    except ImportError:  # a checkout from before the bots moved into the ruleset
        from multiversus_core.bots import RandomBot, command_for  # type: ignore[no-redef]

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


class Game(msgspec.Struct):
    """One recorded game, as written for ``--games``: plain values any code can read."""

    heroes: str
    adversaries: str
    seed: int
    commands: list[msgspec.Raw]


def write_games(path: Path, matches: int, seed: int) -> None:
    """Play the benchmark's games with this code and write their commands to ``path``."""
    with path.open("wb") as out:
        for settings in settings_list(matches, seed):
            commands, _, _ = play(settings)
            assert settings.heroes is not None and settings.adversaries is not None
            game = Game(
                settings.heroes,
                settings.adversaries,
                settings.seed,
                [msgspec.Raw(msgspec.json.encode(c)) for c in commands],
            )
            out.write(msgspec.json.encode(game) + b"\n")


def read_games(path: Path) -> list[tuple[MatchSettings, list[Command]] | None]:
    """Read ``--games``: each game with this code's types, or None if it cannot read one."""
    games: list[tuple[MatchSettings, list[Command]] | None] = []
    for line in path.read_bytes().splitlines():
        game = msgspec.json.decode(line, type=Game)
        try:
            commands = [msgspec.json.decode(c, type=Command) for c in game.commands]
        except msgspec.ValidationError:
            games.append(None)
            continue
        settings = MatchSettings(heroes=game.heroes, adversaries=game.adversaries, seed=game.seed)
        games.append((settings, commands))
    return games


def signature(settings: MatchSettings, commands: list[Command]) -> list[int] | None:
    """The legal commands listed at every step, or None if this code refuses a command."""
    state = start_match(settings)
    listed = []
    try:
        for command in commands:
            seat = decider_seat(state)
            assert seat is not None
            listed.append(len(legal_commands(state, seat)))
            state, _ = apply(state, command)
    except Exception:  # another code's rules may refuse it: the game is then left out
        return None
    return listed if state.is_over else None


def replay_games(path: Path, only: list[int] | None) -> dict[str, object]:
    """``--games``: the signatures of the games, or the engine's time on the chosen ones."""
    games = read_games(path)
    if only is None:
        return {"signatures": [g and signature(*g) for g in games]}
    chosen = [g for n, g in enumerate(games) if n in set(only) and g is not None]
    start = time.process_time()
    listed = sum(engine(s, c) for s, c in chosen)
    elapsed = time.process_time() - start
    commands = sum(len(c) for _, c in chosen)
    return {
        "commands": commands,
        "listed": listed,
        "engine_us_per_command": elapsed / commands * 1e6,
    }


def run_code(src: Path, *args: str) -> dict[str, object]:
    """Run this script on the code in ``src``, in a subprocess; return its JSON output."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, __file__, *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"the code in {src} failed:\n{done.stderr.strip()}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def against(src: Path, matches: int, seed: int, rounds: int) -> int:
    """Compare the engine's cost per command of ``src`` and of this code on the same games."""
    here = Path(__file__).resolve().parent.parent / "src"
    codes = {"baseline": src.resolve(), "this": here}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        write_games(path, matches, seed)
        signatures = {
            name: run_code(code, "--games", str(path))["signatures"] for name, code in codes.items()
        }
        pairs = zip(signatures["baseline"], signatures["this"], strict=True)  # type: ignore[call-overload]
        common = [n for n, (b, t) in enumerate(pairs) if b is not None and b == t]
        if not common:
            print("no game plays the same in both codes: not comparable", file=sys.stderr)
            return 1
        only = ",".join(map(str, common))
        figures: dict[str, list[dict[str, object]]] = {"baseline": [], "this": []}
        for number in range(rounds):
            for name, code in codes.items():
                figures[name].append(run_code(code, "--games", str(path), "--only", only))
            print(f"\rpair {number + 1} / {rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    base, this = figures["baseline"], figures["this"]
    key = "engine_us_per_command"
    ratios = [b[key] / t[key] for b, t in zip(base, this, strict=True)]  # type: ignore[operator]
    b_med = statistics.median(b[key] for b in base)  # type: ignore[type-var]
    t_med = statistics.median(t[key] for t in this)  # type: ignore[type-var]
    print(
        f"engine µs/command:     baseline {b_med:,.1f}, this {t_med:,.1f}: "
        f"{statistics.median(ratios):.2f}x faster (median of {len(ratios)} pairs, "
        f"{min(ratios):.2f} to {max(ratios):.2f})"
    )
    print(
        f"games:                 {len(common)} of {matches} play the same in both codes "
        f"({this[0]['commands']:,} commands, {this[0]['listed']:,} legal commands listed)"
    )
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
    parser.add_argument("--games", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--only", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.games is not None:
        only = None if args.only is None else [int(n) for n in args.only.split(",")]
        print(json.dumps(replay_games(args.games, only)))
        return 0
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
