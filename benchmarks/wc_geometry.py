"""worlds-collide geometry speed: moves, sight and cover, and completing a formation's move.

On the bundled map "collision-point" (17x17), times:

- ``moves`` of a model of Move 4, 6 and 12 (a double move of 6) from the middle;
- ``in_sight`` and ``obscured`` from one square to every other;
- ``can_complete`` for a formation of 10 models (a 5x2 block, Move 4) in the
  open: all 10 still to place; then the move built model by model, asking it
  of every square the next model could end on (the dead-end check of a move
  built one model at a time), which is most of the calls a bot or a player
  makes; and refusals: two placed squares too far apart, and a model that
  cannot reach the others.

Reports the mean and slowest call, in milliseconds. The target: under 5 ms a
``can_complete`` call for 10 models in the open. A benchmark, never a test.
Run::

    PYTHONPATH=src python benchmarks/wc_geometry.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from multiversus_core.engine.grid import Coord
from multiversus_core.rulesets.worlds_collide.content import GameMap, find_map
from multiversus_core.rulesets.worlds_collide.geometry import (
    can_complete,
    ends,
    in_sight,
    moves,
    obscured,
)


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The mean and slowest time of ``repeat`` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.fmean(times), max(times)


def report(name: str, mean: float, slowest: float) -> None:
    print(f"{name:<58} mean {mean:8.3f} ms   slowest {slowest:8.3f} ms")


def main() -> int:
    game_map = find_map("collision-point")
    assert isinstance(game_map, GameMap)
    enemies = {(4, 14), (8, 15), (12, 14)}
    for move in (4, 6, 12):
        mean, slowest = timed(lambda m=move: moves(game_map, (8, 7), m, enemies=enemies), 200)
        report(f"moves, Move {move}, from (8, 7)", mean, slowest)

    squares = list(game_map.grid.tiles())
    mean, slowest = timed(lambda: [in_sight(game_map, (8, 2), b, 8) for b in squares], 20)
    report("in_sight from (8, 2) to all 289 squares", mean, slowest)
    mean, slowest = timed(lambda: [obscured(game_map, (8, 2), b, enemies) for b in squares], 20)
    report("obscured from (8, 2) to all 289 squares", mean, slowest)

    block = [(column, row) for row in (1, 2) for column in range(6, 11)]
    options = [
        frozenset(ends(moves(game_map, at, 4, enemies=enemies), enemies | (set(block) - {at})))
        | frozenset(set(block) - {at})  # a formation mate's square, empty once it has moved
        for at in block
    ]
    mean, slowest = timed(lambda: can_complete(set(), options), 50)
    report("can_complete, 10 models to place, none placed", mean, slowest)

    times: list[float] = []
    refusals = 0
    placed: set[Coord] = set()
    for index, model in enumerate(block):
        rest = options[index + 1 :]
        fits = []
        for at in sorted(options[index] - placed):
            start = time.perf_counter()
            ok = can_complete(placed | {at}, rest)
            times.append((time.perf_counter() - start) * 1000)
            if ok:
                fits.append(at)
            else:
                refusals += 1
        # Move every model two squares down, as a formation walking forward would.
        target = (model[0], model[1] + 2)
        placed.add(target if target in fits else fits[0])
    report(
        f"can_complete, model by model ({len(times)} calls, {refusals} no)",
        statistics.fmean(times),
        max(times),
    )

    far = {(0, 0), (16, 0)}
    mean, slowest = timed(lambda: can_complete(far, options[2:]), 50)
    report("can_complete, 8 to place between squares 16 apart", mean, slowest)
    stray = [*options[:9], frozenset({(16, 16)})]
    mean, slowest = timed(lambda: can_complete(set(), stray), 50)
    report("can_complete, 10 to place, one far off", mean, slowest)
    near = [*options[:9], frozenset({(10, 9), (11, 9)})]
    mean, slowest = timed(lambda: can_complete(set(), near), 20)
    report("can_complete, 10 to place, one 7 rows off", mean, slowest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
