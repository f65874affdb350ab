"""The weights of tiles-d6's search evaluation, fitted by
``scripts/fit_tiles_d6_evaluation.py`` (do not edit by hand): the logistic
regression of the result for the seat whose turn it is on ``bots.features``
of its side and of the other, over 450 heuristic-against-heuristic matches."""

from typing import Final

MINE: Final = (-1.6171, -1.2669, -0.5340, -0.1362, 0.1674, -0.8328, 0.0793, -0.1270, -0.1054)
"""The weight of each of the side to act's features (``bots.FEATURES``)."""
THEIRS: Final = (1.6520, 1.2613, 0.4953, 0.0016, -0.8663, 0.9336, 0.0756, 0.0801, 0.0809)
"""The weight of each of the other side's features."""
TO_ACT: Final = 0.4280
"""What having the turn is worth."""
