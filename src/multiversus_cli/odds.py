"""The odds of dice in words, for any game's ``?`` at the terminal."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

FACES: Final = range(1, 7)
"""The faces of a d6."""


def chance(odds: Fraction) -> str:
    """A chance in words: "1 in 2", "5 in 6", "no chance", "certain"."""
    if odds <= 0:
        return "no chance"
    if odds >= 1:
        return "certain"
    return f"{odds.numerator} in {odds.denominator}"


def faces(shown: Sequence[int]) -> str:
    """Faces of a die in words: "a 1", "1-2", "1, 3"."""
    if len(shown) == 1:
        return f"a {shown[0]}"
    if list(shown) == list(range(shown[0], shown[-1] + 1)):
        return f"{shown[0]}-{shown[-1]}"
    return ", ".join(map(str, shown))


__all__ = ["FACES", "chance", "faces"]
