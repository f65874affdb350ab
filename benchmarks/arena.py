"""Arena: one bot against another, seats (and Multiversus' sides and pairings) alternating.

For Multiversus (the default ``--game``), plays ``--matches`` matches
between bot A and bot B (spec strings, as ``multiversus play`` takes them)
over every pairing of installed Hero and Adversary teams. Match n uses seed
``--seed + n``; A sits in seat 1 in even matches and seat 2 in odd ones, and
plays the Heroes in matches 0, 1, 4, 5, ... and the Adversaries in the
others (the arena answers the side choice for the Other Player). Each bot
is seeded with its own seed, never the match's. Reports wins, losses and
draws of A per side, and A's share of the decided matches.

For any other game (``--game``), bots A and B are names from the game's
``ruleset.bots``, a searching one with its budget if given (``mcts:800``):
match n uses seed ``--seed + n`` and the game's default settings otherwise;
A sits in seat 1 in even matches and seat 2 in odd ones,
B in every other seat. A wins when its return beats every other seat's, and
draws when it ties the best. Reports A's wins, losses and draws per seat, its
share of the decided matches and the seconds a match.

A benchmark, never a test. Run::

    PYTHONPATH=src python benchmarks/arena.py heuristic random --matches 200
    PYTHONPATH=src python benchmarks/arena.py mcts heuristic --matches 100 --workers 2
    PYTHONPATH=src python benchmarks/arena.py heuristic random --game tiles-d6 --matches 200
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Sequence

import msgspec

from multiversus_core import MatchSettings
from multiversus_core.engine.bots import bot_maker
from multiversus_core.engine.play import play_match
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.rulesets.multiversus.bots.specs import Bot, make_bot
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.commands import ChooseSide, Command
from multiversus_core.rulesets.multiversus.terms import Seat, Side
from multiversus_core.rulesets.multiversus.views import MatchView


class _Sided:
    """A bot whose side is fixed by the arena: it answers the side choice to get it."""

    def __init__(self, bot: Bot, side: Side) -> None:
        self._bot = bot
        self._side = side

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        sides = [c for c in legal if isinstance(c, ChooseSide)]
        if sides:
            # The Other Player chooses; the side it takes is its own.
            return next(c for c in sides if c.side == self._side)
        return self._bot.choose(view, legal)


def play_one(job: tuple[int, str, str, str, str]) -> tuple[Side, str, float]:
    """Play match ``n``; return A's side, A's result (won, lost, drawn) and its seconds."""
    n, a_spec, b_spec, heroes, adversaries = job
    a_side: Side = "heroes" if (n // 2) % 2 == 0 else "adversaries"
    b_side: Side = "adversaries" if a_side == "heroes" else "heroes"
    a_seat: Seat = 1 if n % 2 == 0 else 2
    b_seat: Seat = 2 if a_seat == 1 else 1
    bots: dict[Seat, Bot] = {
        a_seat: _Sided(make_bot(a_spec, 2 * n + 1), a_side),
        b_seat: _Sided(make_bot(b_spec, 2 * n + 2), b_side),
    }
    settings = MatchSettings(heroes=heroes, adversaries=adversaries, seed=n)
    start = time.perf_counter()
    _, state = play_match(settings, bots)
    elapsed = time.perf_counter() - start
    result = "drawn" if state.winner is None else "won" if state.winner == a_side else "lost"
    return a_side, result, elapsed


def play_any(job: tuple[str, int, str, str]) -> tuple[int, str, float]:
    """Play match ``n`` of any game; return A's seat, A's result (won, lost, drawn) and its
    seconds."""
    game, n, a_name, b_name = job
    ruleset = load_ruleset(game)
    blank = ruleset.settings_type()
    table = ruleset.table(blank)
    settings = ruleset.with_table(blank, msgspec.structs.replace(table, seed=n))
    a_seat = 1 if n % 2 == 0 else 2
    others = [seat for seat in range(1, len(table.players) + 1) if seat != a_seat]
    first = len(table.players) * n + 1  # each bot its own seed, never the match's
    bots = {a_seat: bot_maker(ruleset.bots, a_name)(first)}
    b_maker = bot_maker(ruleset.bots, b_name)
    bots |= {seat: b_maker(first + i) for i, seat in enumerate(others, 1)}
    start = time.perf_counter()
    _, state = play_match(settings, bots)
    elapsed = time.perf_counter() - start
    outcome = ruleset.outcome(state)
    assert outcome is not None, "a match played out has an outcome"
    mine = outcome.returns[a_seat - 1]
    best = max(r for seat, r in enumerate(outcome.returns, 1) if seat != a_seat)
    result = "won" if mine > best else "lost" if mine < best else "drawn"
    return a_seat, result, elapsed


def arena_any(args: argparse.Namespace) -> int:
    """The arena of a game other than Multiversus: bots by their names in ``ruleset.bots``."""
    ruleset = load_ruleset(args.game)
    for name in (args.a, args.b):
        try:
            bot_maker(ruleset.bots, name)
        except ValueError as exc:
            print(f"{args.game}: {exc}", file=sys.stderr)
            return 2
    jobs = [(args.game, args.seed + n, args.a, args.b) for n in range(args.matches)]
    results: Counter[tuple[int, str]] = Counter()
    seconds: list[float] = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for done, (seat, result, elapsed) in enumerate(pool.imap_unordered(play_any, jobs), 1):
            results[seat, result] += 1
            seconds.append(elapsed)
            print(
                f"played {done} / {args.matches}: A in seat {seat}, {result}, {elapsed:.1f} s",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - start
    print(f"{args.game}: {args.a} (A) against {args.b} (B), {args.matches} matches")
    print(f"{'A plays':<12} {'won':>5} {'lost':>5} {'drawn':>6} {'A wins of decided':>18}")
    for seat in (1, 2, None):
        picked = [s for s in (1, 2) if seat is None or s == seat]
        won = sum(results[s, "won"] for s in picked)
        lost = sum(results[s, "lost"] for s in picked)
        drawn = sum(results[s, "drawn"] for s in picked)
        share = f"{100 * won / (won + lost):.0f} %" if won + lost else "-"
        label = "either" if seat is None else f"seat {seat}"
        print(f"{label:<12} {won:>5} {lost:>5} {drawn:>6} {share:>18}")
    print(f"seconds a match: mean {sum(seconds) / len(seconds):.2f}, max {max(seconds):.2f}")
    print(f"wall time {wall:.0f} s with {args.workers} worker(s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="bot A's spec (for example heuristic)")
    parser.add_argument("b", help="bot B's spec (for example random)")
    parser.add_argument("--matches", type=int, default=200, help="matches to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--game", default="multiversus", help="the game's id (default multiversus)")
    args = parser.parse_args(argv)
    if args.game != "multiversus":
        return arena_any(args)
    teams = installed_teams()
    pairings = list(
        itertools.product(
            [t.id for t in teams if t.side == "heroes"],
            [t.id for t in teams if t.side == "adversaries"],
        )
    )
    jobs = [
        (args.seed + n, args.a, args.b, *pairings[(n // 4) % len(pairings)])
        for n in range(args.matches)
    ]
    results: Counter[tuple[Side, str]] = Counter()
    seconds: list[float] = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for done, (side, result, elapsed) in enumerate(pool.imap_unordered(play_one, jobs), 1):
            results[side, result] += 1
            seconds.append(elapsed)
            print(
                f"played {done} / {args.matches}: A as {side}, {result}, {elapsed:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - start
    print(f"{args.a} (A) against {args.b} (B): {args.matches} matches, {len(pairings)} pairings")
    print(f"{'A plays':<12} {'won':>5} {'lost':>5} {'drawn':>6} {'A wins of decided':>18}")
    for side in ("heroes", "adversaries", None):
        picked = [s for s in ("heroes", "adversaries") if side is None or s == side]
        won = sum(results[s, "won"] for s in picked)
        lost = sum(results[s, "lost"] for s in picked)
        drawn = sum(results[s, "drawn"] for s in picked)
        share = f"{100 * won / (won + lost):.0f} %" if won + lost else "-"
        print(f"{side or 'either':<12} {won:>5} {lost:>5} {drawn:>6} {share:>18}")
    print(f"seconds a match: mean {sum(seconds) / len(seconds):.1f}, max {max(seconds):.1f}; ")
    print(f"wall time {wall:.0f} s with {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
