"""The weights of worlds-collide's search evaluation, fitted by
``scripts/fit_worlds_collide_evaluation.py`` (do not edit by hand): for each
round's end, the logistic regression of seat 1's result on the difference of
the sides' ``bots.features`` over 1200 heuristic-against-heuristic matches
(an L2 penalty of 1)."""

from typing import Final

WEIGHTS: Final = (
    (0.0000, 0.2110, 0.2462, 0.0871, -0.0577, -0.0009, 0.2171),
    (0.3756, 0.3002, 0.0854, 0.3871, 0.1322, -1.3295, 0.4749),
    (1.1146, 0.4816, -0.1017, 0.6418, 0.4878, -1.3261, 0.2605),
    (1.9503, 0.4182, -0.1030, 0.4235, 0.8336, -0.7532, 0.1984),
)
"""The weight of the difference of each feature (``bots.FEATURES``) at the end of
rounds 1, 2, ...: a later round's end is judged by the last."""
