"""Fit the weights of worlds-collide's search evaluation to the outcomes of simulated matches.

Plays heuristic-against-heuristic matches on the default map (match n: seed
n, each bot seeded from n; the default factions in even matches, swapped in
odd ones) and records every position at a round's end (where the search
judges the positions it reaches) with the match's result. For each round's
end it fits a logistic regression of seat 1's result on the difference of
the sides' :func:`~multiversus_core.rulesets.worlds_collide.bots.features`,
with no intercept (so the evaluation is zero-sum) and an L2 penalty
(``--l2``). The result is 1 won, 0.5 drawn, 0 lost, so the fitted
``tanh(z / 2)`` is the expected return. Fits on all but the last
``--held-out`` matches, reports how well the fit and the hand-made
``evaluate`` predict the held-out results, round by round, and with
``--write`` writes the weights to
``src/multiversus_core/rulesets/worlds_collide/fitted.py``. With ``--save``
it keeps the positions played, and ``--load`` fits those again without
playing. Needs numpy.

    PYTHONPATH=src python scripts/fit_worlds_collide_evaluation.py --workers 2 --write
"""

from __future__ import annotations

import argparse
import multiprocessing
import pickle
import sys
from pathlib import Path

import numpy as np
from fitting import agree, fit, loss
from msgspec.structs import replace

from multiversus_core.rulesets.worlds_collide import rules
from multiversus_core.rulesets.worlds_collide.bots import (
    FEATURES,
    HeuristicBot,
    evaluate,
    features,
)
from multiversus_core.rulesets.worlds_collide.choices import legal_commands
from multiversus_core.rulesets.worlds_collide.model import WorldsSettings
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET

OUT = (
    Path(__file__).resolve().parent.parent
    / "src/multiversus_core/rulesets/worlds_collide/fitted.py"
)

Row = tuple[int, list[float], float, float]
"""A round's end: the round, the features' differences (seat 1's less seat 2's), seat 1's
result, and the hand-made evaluation."""


def positions(n: int) -> list[Row]:
    """Play match ``n`` between two heuristic bots; every round's end, with the result."""
    blank = WorldsSettings()
    if n % 2:
        blank = replace(blank, factions=blank.factions[::-1])
    settings = RULESET.with_table(blank, replace(RULESET.table(blank), seed=n))
    state = RULESET.initial_state(settings, None)
    bots = {1: HeuristicBot(2 * n + 1), 2: HeuristicBot(2 * n + 2)}
    seen: list[tuple[int, list[float], float]] = []
    while seats := rules.to_act(state):
        if state.phase == "round" and state.round >= 1:
            mine, theirs = features(state, 1), features(state, 2)
            gaps = [a - b for a, b in zip(mine, theirs, strict=True)]
            seen.append((state.round, gaps, evaluate(state, 1)))
        seat = seats[0]
        legal = legal_commands(state, seat)
        command = bots[seat].choose(RULESET.view(state, f"seat-{seat}"), legal)
        state = rules.decide(command, state)[1]
    outcome = rules.outcome(state)
    assert outcome is not None
    result = (outcome.returns[0] + 1) / 2
    return [(r, x, result, e) for r, x, e in seen]


def arrays(matches: list[list[Row]]) -> tuple[np.ndarray, ...]:
    """The rounds, features, results and hand-made evaluations of ``matches``' positions."""
    rows = [row for match in matches for row in match]
    return tuple(np.array([row[i] for row in rows]) for i in range(4))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1400)
    parser.add_argument("--held-out", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--l2", type=float, default=1.0, help="the L2 penalty (default 1)")
    parser.add_argument("--save", type=Path, help="keep the positions played in this file")
    parser.add_argument("--load", type=Path, help="fit the positions kept in this file")
    parser.add_argument("--write", action="store_true", help="write the weights to fitted.py")
    args = parser.parse_args()
    if args.load:
        matches: list[list[Row]] = pickle.loads(args.load.read_bytes())
    else:
        with multiprocessing.Pool(args.workers) as pool:
            matches = []
            for done, match in enumerate(pool.imap(positions, range(args.matches), chunksize=4), 1):
                matches.append(match)
                if done % 50 == 0 or done == args.matches:
                    print(f"played {done} / {args.matches}", file=sys.stderr, flush=True)
    if args.save:
        args.save.write_bytes(pickle.dumps(matches))
    cut = len(matches) - args.held_out
    rounds, x, y, e = arrays(matches[:cut])
    t_rounds, tx, ty, te = arrays(matches[cut:])
    ends = sorted(set(rounds))
    weights = {r: fit(x[rounds == r], y[rounds == r], args.l2, intercept=False) for r in ends}
    fitted = np.zeros(len(ty))
    for r in ends:
        fitted[t_rounds == r] = 1 / (1 + np.exp(-(tx[t_rounds == r] @ weights[r])))
    # The hand-made evaluation gets its best scale on the same positions, to be fair.
    k = fit(np.arctanh(np.clip(e, -0.999, 0.999))[:, None], y, intercept=False)
    hand = 1 / (1 + np.exp(-k[0] * np.arctanh(np.clip(te, -0.999, 0.999))))
    print(f"positions: {len(x)} to fit, {len(tx)} held out ({args.held_out} matches)")
    print(f"{'held out':<16} {'fitted':>22} {'hand-made':>22}")
    print(f"{'':<16} {'cross-entropy':>14} {'winner':>7} {'cross-entropy':>14} {'winner':>7}")
    for label, chosen in [("all", t_rounds > 0)] + [
        (f"round {r}'s end", t_rounds == r) for r in ends
    ]:
        f, h, truth = fitted[chosen], hand[chosen], ty[chosen]
        print(
            f"{label:<16} {loss(f, truth):>14.4f} {agree(f, truth):>7.3f}"
            f" {loss(h, truth):>14.4f} {agree(h, truth):>7.3f}"
        )
    print(f"{'weights':<16}" + "".join(f"{name:>10}" for name in FEATURES))
    for r in ends:
        print(f"{f'round {r}':<16}" + "".join(f"{v:>+10.4f}" for v in weights[r]))
    if args.write:
        rows = "".join(f"    ({', '.join(f'{v:.4f}' for v in weights[r])}),\n" for r in ends)
        OUT.write_text(
            '"""The weights of worlds-collide\'s search evaluation, fitted by\n'
            "``scripts/fit_worlds_collide_evaluation.py`` (do not edit by hand): for each\n"
            "round's end, the logistic regression of seat 1's result on the difference of\n"
            f"the sides' ``bots.features`` over {cut} heuristic-against-heuristic matches\n"
            f'(an L2 penalty of {args.l2:g})."""\n\n'
            "from typing import Final\n\n"
            f"WEIGHTS: Final = (\n{rows})\n"
            '"""The weight of the difference of each feature (``bots.FEATURES``) at the end of\n'
            'rounds 1, 2, ...: a later round\'s end is judged by the last."""\n'
        )
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
