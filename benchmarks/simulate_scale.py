"""How ``multiversus simulate`` scales: two local workers against one, and Dask against local.

Targets: two local worker processes play at least 1.8 times as many
matches a second as one; playing through a Dask cluster (a
``LocalCluster`` of two single-threaded worker processes, started before
timing, as a real cluster would be) costs at most 15 % more time than two
local processes, for a few hundred matches.

This machine's speed drifts while others use it, so each round times the
two sides of a comparison back to back (in alternating order), and the
figure is the median of the rounds' ratios, with their range. Each round
also prints the load average and what two processes gain over one for a
plain CPU loop at that moment: no number of workers can use cores that
other programs keep busy, and that gain is the ceiling for two workers. Each timed
run is what the command does: start the workers (or connect to the
scheduler), play every match in batches, collect every result. Run::

    PYTHONPATH=src python benchmarks/simulate_scale.py --matches 400 --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from multiversus_cli.runners import DaskRunner, LocalRunner, Runner
from multiversus_core.rulesets.multiversus.simulation import Grid, MatchResult, MatchTask

SPEEDUP_TARGET = 1.8
DASK_OVERHEAD_TARGET = 1.15


def timed(make: Callable[[], Runner], tasks: tuple[MatchTask, ...]) -> float:
    """Seconds to play every task with a fresh runner, start-up included."""
    results: list[MatchResult] = []
    start = time.perf_counter()
    runner = make()
    try:
        runner.run(tasks, results.append, lambda: False)
    finally:
        runner.close()
    elapsed = time.perf_counter() - start
    assert len(results) == len(tasks)
    return elapsed


def _spin(n: int) -> float:
    """Seconds a plain CPU loop of ``n`` steps takes in this process."""
    start = time.perf_counter()
    total = 0
    for i in range(n):
        total += i * i
    return time.perf_counter() - start


def ceiling(steps: int = 3_000_000) -> float:
    """What two processes gain over one on this machine now, for a plain CPU loop.

    It is the most two workers can give while others share the cores; 2.0 on an idle machine.
    """
    start = time.perf_counter()
    _spin(steps)
    one = time.perf_counter() - start
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_spin, [1, 1]))  # the processes are up before timing
        start = time.perf_counter()
        list(pool.map(_spin, [steps, steps]))
        two = time.perf_counter() - start
    return 2 * one / two


def paired(
    name: str,
    slow: tuple[str, Callable[[], Runner]],
    fast: tuple[str, Callable[[], Runner]],
    tasks: tuple[MatchTask, ...],
    rounds: int,
    ceilings: list[float] | None = None,
) -> list[float]:
    """Time both runners in each round, in alternating order; return slow/fast per round.

    With ``ceilings``, each round also measures :func:`ceiling` into it.
    """
    ratios = []
    for n in range(rounds):
        order = [slow, fast] if n % 2 == 0 else [fast, slow]
        times = {label: timed(make, tasks) for label, make in order}
        if ceilings is not None:
            ceilings.append(ceiling())
        ratio = times[slow[0]] / times[fast[0]]
        ratios.append(ratio)
        load = os.getloadavg()[0]
        print(
            f"  {name} round {n + 1}: {slow[0]} {times[slow[0]]:.2f} s, "
            f"{fast[0]} {times[fast[0]]:.2f} s, ratio {ratio:.2f} "
            f"(load average {load:.1f} on {os.cpu_count()} cores"
            + (f"; a CPU loop gains {ceilings[-1]:.2f}x" if ceilings else "")
            + ")",
            flush=True,
        )
    return ratios


def describe(ratios: list[float]) -> str:
    return (
        f"median {statistics.median(ratios):.2f} (range {min(ratios):.2f} to {max(ratios):.2f}, "
        f"{len(ratios)} rounds)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=400, help="matches per timed run")
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds per comparison")
    parser.add_argument("--bot", default="random", help="the bot spec of both sides")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask comparison")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.rounds < 1:
        parser.error("--matches and --rounds must be at least 1")

    grid = Grid(
        heroes=("banner-knight", "witch-hunters"),
        adversaries=("black-goblins", "smogon", "swartzblak"),
        heroes_bot=args.bot,
        adversaries_bot=args.bot,
        matches=-(-args.matches // 6),
        seed=1,
    )
    tasks = grid.tasks()[: args.matches]
    print(f"{len(tasks)} matches ({args.bot} v {args.bot}) per timed run", flush=True)
    timed(lambda: LocalRunner(2), tasks[:8])  # start the fork server once, untimed

    ceilings: list[float] = []
    speedups = paired(
        "local",
        ("1 worker", lambda: LocalRunner(1)),
        ("2 workers", lambda: LocalRunner(2)),
        tasks,
        args.rounds,
        ceilings,
    )
    failed = statistics.median(speedups) < SPEEDUP_TARGET
    print(f"two workers against one: {describe(speedups)}; target >= {SPEEDUP_TARGET}")
    print(f"  a plain CPU loop in two processes against one, same rounds: {describe(ceilings)}")

    if not args.no_dask:
        import distributed

        with distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        ) as cluster:
            address = cluster.scheduler_address
            overheads = paired(
                "dask",
                ("Dask", lambda: DaskRunner(address)),
                ("local", lambda: LocalRunner(2)),
                tasks,
                args.rounds,
            )
        failed |= statistics.median(overheads) > DASK_OVERHEAD_TARGET
        print(
            f"Dask (2 workers) against 2 local workers: {describe(overheads)}; "
            f"target <= {DASK_OVERHEAD_TARGET}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
