"""Seeded chance: the Initiative die and coin flips.

Chance is counter-based: the n-th draw of a match is a pure function of the
match seed and n, so a state needs to remember only how many draws were
taken. The generator is SplitMix64, simple enough to reimplement from
``docs/log-format.md`` in any language. Outcomes are recorded in events;
replaying a log never draws again.
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
# Largest multiple of 6 below 2**64: values at or above it are redrawn, so
# every face is exactly equally likely.
_DIE_LIMIT: Final = (1 << 64) - (1 << 64) % 6


def _splitmix64(x: int) -> int:
    z = (x + _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def draw(seed: int, counter: int) -> int:
    """Return the 64-bit value of draw number ``counter`` (from 0) for ``seed``."""
    return _splitmix64((seed + counter * _GAMMA) & _MASK)


def roll_die(seed: int, counter: int) -> int:
    """Return a six-sided die result (1..6) for draw number ``counter``."""
    value = draw(seed, counter)
    while value >= _DIE_LIMIT:  # practically never (odds 2**-62)
        value = _splitmix64(value)
    return value % 6 + 1


def flip_coin(seed: int, counter: int) -> bool:
    """Return a fair coin flip (True for heads) for draw number ``counter``."""
    return draw(seed, counter) >> 63 == 1
