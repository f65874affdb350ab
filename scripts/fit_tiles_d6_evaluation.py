"""Fit the weights of tiles-d6's search evaluation to the outcomes of simulated matches.

Plays heuristic-against-heuristic matches (match n: seed n, each bot seeded
from n), records every position at the start of a turn with the match's
result, and fits a logistic regression of the result for the seat whose turn
it is on :func:`~multiversus_core.rulesets.tiles_d6.bots.features` of both
sides (theirs, then the other side's). The result is 1 won, 0.5 drawn, 0
lost, so the fitted ``tanh(z / 2)`` is the expected return. Fits on all but
the last ``--held-out`` matches, reports how well the fit and the hand-made
``evaluate`` predict the held-out results, and with ``--write`` writes the
weights to ``src/multiversus_core/rulesets/tiles_d6/fitted.py``. Needs numpy.

    PYTHONPATH=src python scripts/fit_tiles_d6_evaluation.py --matches 1200 --write
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

import numpy as np
from fitting import agree, fit, loss
from msgspec.structs import replace

from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.bots import FEATURES, HeuristicBot, evaluate, features
from multiversus_core.rulesets.tiles_d6.model import TilesSettings
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET

OUT = Path(__file__).resolve().parent.parent / "src/multiversus_core/rulesets/tiles_d6/fitted.py"

Row = tuple[list[float], float, float]
"""A position's features for the seat to act, that seat's result, and the hand-made evaluation."""


def positions(n: int) -> list[Row]:
    """Play match ``n`` between two heuristic bots; every turn's start, with the result."""
    blank = TilesSettings()
    settings = RULESET.with_table(blank, replace(RULESET.table(blank), seed=n))
    state = RULESET.initial_state(settings, None)
    bots = {1: HeuristicBot(2 * n + 1), 2: HeuristicBot(2 * n + 2)}
    seen: list[tuple[list[float], int, float]] = []
    turn = 0
    while seats := rules.to_act(state):
        if state.phase == "play" and state.turn != turn and state.action is None:
            turn = state.turn
            seat = state.active
            assert seat is not None
            mine, theirs = features(state, seat), features(state, rules.other(seat))
            seen.append(([*mine, *theirs], seat, evaluate(state, seat)))
        seat = seats[0]
        legal = rules.legal_commands(state, seat)
        command = bots[seat].choose(RULESET.view(state, f"seat-{seat}"), legal)
        state = rules.decide(command, state)[1]
    outcome = rules.outcome(state)
    assert outcome is not None
    return [(x, (outcome.returns[seat - 1] + 1) / 2, e) for x, seat, e in seen]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1200)
    parser.add_argument("--held-out", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="write the weights to fitted.py")
    args = parser.parse_args()
    with multiprocessing.Pool(args.workers) as pool:
        matches = pool.map(positions, range(args.matches), chunksize=8)
    cut = args.matches - args.held_out
    train = [r for m in matches[:cut] for r in m]
    test = [r for m in matches[cut:] for r in m]
    x, y, e = (np.array([r[i] for r in train]) for i in range(3))
    tx, ty, te = (np.array([r[i] for r in test]) for i in range(3))
    w = fit(x, y)
    # The hand-made evaluation gets its best scale on the same positions, to be fair.
    k = fit(np.arctanh(np.clip(e, -0.999, 0.999))[:, None], y)
    fitted = 1 / (1 + np.exp(-(np.hstack([tx, np.ones((len(tx), 1))]) @ w)))
    hand = 1 / (1 + np.exp(-(k[0] * np.arctanh(np.clip(te, -0.999, 0.999)) + k[1])))
    print(f"positions: {len(train)} to fit, {len(test)} held out ({args.held_out} matches)")
    for name, p in (("fitted", fitted), ("hand-made", hand)):
        print(f"held out, {name}: cross-entropy {loss(p, ty):.4f}, winner {agree(p, ty):.3f}")
    names = [f"mine.{f}" for f in FEATURES] + [f"theirs.{f}" for f in FEATURES] + ["intercept"]
    for name, weight in zip(names, w, strict=True):
        print(f"{name:>20} {weight:+.4f}")
    if args.write:
        mine = ", ".join(f"{v:.4f}" for v in w[: len(FEATURES)])
        theirs = ", ".join(f"{v:.4f}" for v in w[len(FEATURES) : 2 * len(FEATURES)])
        OUT.write_text(
            '"""The weights of tiles-d6\'s search evaluation, fitted by\n'
            "``scripts/fit_tiles_d6_evaluation.py`` (do not edit by hand): the logistic\n"
            "regression of the result for the seat whose turn it is on ``bots.features``\n"
            f'of its side and of the other, over {cut} heuristic-against-heuristic matches."""\n\n'
            "from typing import Final\n\n"
            f"MINE: Final = ({mine})\n"
            '"""The weight of each of the side to act\'s features (``bots.FEATURES``)."""\n'
            f"THEIRS: Final = ({theirs})\n"
            '"""The weight of each of the other side\'s features."""\n'
            f"TO_ACT: Final = {w[-1]:.4f}\n"
            '"""What having the turn is worth."""\n'
        )
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
