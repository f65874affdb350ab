"""Seeded chance, for every game: dice, coin flips and the secret chance seed.

Chance is counter-based: the n-th draw of a match is a pure function of the
match seed and n, so a state needs to remember only how many draws were
taken. The generator is SplitMix64, simple enough to reimplement from
``docs/log-format.md`` in any language. Outcomes are recorded in events;
replaying a log never draws again.

In real play the seed is secret (:class:`Chance`): the settings hold only
:func:`chance_commitment` of it, and the end of the match reveals it, so that
anyone can check every draw afterwards. Only :func:`fresh_chance` reads
randomness; rules draw through :func:`draw`, :func:`roll` and friends.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Annotated, Final, TypeAlias

import msgspec

from multiversus_core.engine.commit import fresh_salt, is_salt
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError

Seed: TypeAlias = Annotated[int, msgspec.Meta(ge=0)]
"""A chance seed: 0 to 2**64 - 1 (8 bytes). The schema bounds it below; reading a log
refuses one above (``out_of_range``), as msgspec bounds only 64-bit signed integers."""

Contribution: TypeAlias = Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")]
"""A seat's contribution to a match's chance: 32 random bytes as 64 lower-case hex digits,
or empty while the seat has not given it yet."""


class Chance(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False, omit_defaults=True):
    """A secret chance seed and the salt of its commitment: the referee's until the match ends.

    In a match played over a network, each seat also contributes a random value
    when it joins (``contributions``), and the dice come from all of them
    (:func:`dice_seed`), so that neither the referee nor a player chooses them.
    """

    seed: Seed
    """The referee's seed (0 <= seed < 2**64), which the settings' commitment opens."""
    salt: str
    """64 lower-case hex digits: the salt of :func:`chance_commitment`."""
    contributions: tuple[Contribution, ...] = ()
    """Each seat's contribution, seat 1 first (empty: none, the dice come from ``seed``
    alone); written only when there are some, so older records read and encode as before."""


def dice_seed(chance: Chance) -> int:
    """The seed the dice are drawn from: the referee's seed alone when no seat contributed,
    else the first 8 bytes (big-endian) of SHA-256 of the seed (8 bytes, big-endian) and then
    each seat's contribution (32 bytes), seat 1 first.

    :raises ValueError: if a contribution is missing (empty).
    """
    if not chance.contributions:
        return chance.seed
    if not all(chance.contributions):
        raise ValueError("a seat has not contributed to the match's chance yet")
    digest = hashlib.sha256(chance.seed.to_bytes(8, "big"))
    for contribution in chance.contributions:
        digest.update(bytes.fromhex(contribution))
    return int.from_bytes(digest.digest()[:8], "big")


def fresh_contribution() -> str:
    """A fresh contribution to a match's chance (32 bytes from :mod:`secrets`, as hex)."""
    return secrets.token_hex(32)


def is_contribution(value: str) -> bool:
    """True if ``value`` is a contribution: 64 lower-case hex digits."""
    return is_salt(value)


def chance_commitment(chance: Chance) -> str:
    """Return the commitment to a chance seed: SHA-256 of the salt's 32 bytes, then the seed
    as 8 bytes big-endian (64 hex digits)."""
    return hashlib.sha256(bytes.fromhex(chance.salt) + chance.seed.to_bytes(8, "big")).hexdigest()


def opens_chance(commitment: str, chance: Chance) -> bool:
    """True if ``chance`` opens ``commitment``; compares in constant time."""
    if not is_salt(chance.salt) or not 0 <= chance.seed < 2**64:
        return False
    return hmac.compare_digest(commitment.encode(), chance_commitment(chance).encode())


def fresh_chance() -> Chance:
    """Return a fresh secret chance seed and salt, from :mod:`secrets`."""
    return Chance(seed=secrets.randbits(64), salt=fresh_salt())


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


def roll(seed: int, counter: int, sides: int) -> int:
    """Return a die of ``sides`` faces (1..sides) for draw number ``counter``.

    A d6 gives exactly :func:`roll_die`'s result.

    :raises ValueError: if ``sides`` is less than 1.
    """
    if sides < 1:
        raise ValueError(f"a die has at least one face, not {sides}")
    limit = (1 << 64) - (1 << 64) % sides
    value = draw(seed, counter)
    while value >= limit:  # practically never
        value = _splitmix64(value)
    return value % sides + 1


def flip_coin(seed: int, counter: int) -> bool:
    """Return a fair coin flip (True for heads) for draw number ``counter``."""
    return draw(seed, counter) >> 63 == 1


def match_seed(seed: int, commitment: str, chance: Chance | None) -> int | None:
    """The seed a match's dice are drawn from: the secret chance's once known, else the open
    seed; None while the chance is secret and unknown here (a player's own copy)."""
    if commitment and chance is None:
        return None
    return dice_seed(chance) if chance is not None else seed


class TooFewDiceError(InvalidCommandError):
    """A command supplies fewer dice than it rolls: ``sides`` are the faces of the first die
    it lacks (the next die to roll at the table)."""

    def __init__(self, message: str, sides: int) -> None:
        super().__init__(message)
        self.sides = sides


class Dice:
    """The dice of one command: those it supplies (rolled at the table), else drawn from the
    match's chance in order from draw number ``counter``.

    ``seed`` is :func:`match_seed`'s: None refuses to draw, since only dice rolled at the
    table can be used where the chance is secret and unknown.
    """

    def __init__(self, seed: int | None, counter: int, supplied: Sequence[int] | None) -> None:
        self.seed = seed
        self.supplied = None if supplied is None else list(supplied)
        self.counter = counter
        self.used = 0
        for face in self.supplied or ():
            if type(face) is not int or not 1 <= face <= 6:
                raise InvalidCommandError(f"a die shows 1 to 6, not {face!r}")

    def roll(self, sides: int = 6) -> int:
        """The next die: supplied, or drawn (of ``sides`` faces).

        :raises InvalidCommandError: if the command supplies fewer dice than it rolls, or a
            face the roll cannot show.
        :raises IllegalCommandError: if a die must be drawn from a chance not known here.
        """
        self.used += 1
        if self.supplied is not None:
            if self.used > len(self.supplied):
                raise TooFewDiceError(
                    f"this command rolls more dice than the {len(self.supplied)} it supplies",
                    sides,
                )
            face = self.supplied[self.used - 1]
            if face > sides:
                raise InvalidCommandError(f"this roll has {sides} outcomes, not {face}")
            return face
        if self.seed is None:
            raise IllegalCommandError(
                "this match's chance is secret and not known here: supply the dice as rolled"
            )
        face = roll(self.seed, self.counter, sides)
        self.counter += 1
        return face

    def done(self) -> None:
        """Refuse supplied dice the command did not roll.

        :raises InvalidCommandError: if it supplied more than it rolled.
        """
        if self.supplied is not None and self.used != len(self.supplied):
            raise InvalidCommandError(
                f"this command rolls {self.used} dice, not the {len(self.supplied)} it supplies"
            )
