"""The game's basic vocabulary: sides, seats, squares, sizes, coins and conditions.

These are plain literals and tuples so that they encode to readable JSON and
cost nothing to copy.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias

import msgspec

Side: TypeAlias = Literal["heroes", "adversaries"]
"""One of the two teams in play."""

SIDES: Final[tuple[Side, Side]] = ("heroes", "adversaries")

Seat: TypeAlias = Literal[1, 2]
"""One of the two people at the table, before and after sides are chosen."""

SEATS: Final[tuple[Seat, Seat]] = (1, 2)

# The ranges below bound what a log may hold: a number outside them is refused
# when the log is read, before any rule runs (the rules then check the rest).
MAX_COORDINATE: Final = 999
"""The largest column or row a log may name (team sheets allow far smaller boards)."""
MAX_COUNT: Final = 9999
"""The largest count (rounds, steps, coins) a log may hold."""

Coordinate: TypeAlias = Annotated[int, msgspec.Meta(ge=0, le=MAX_COORDINATE)]
"""A column or a row: 0 to :data:`MAX_COORDINATE`."""
Count: TypeAlias = Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT)]
"""A count in a log: 0 to :data:`MAX_COUNT`."""
Face: TypeAlias = Annotated[int, msgspec.Meta(ge=1, le=6)]
"""A face of the Initiative die: 1 to 6."""
Delta: TypeAlias = Annotated[int, msgspec.Meta(ge=-1, le=1)]
"""One coordinate of a unit step: -1, 0 or 1."""

Square: TypeAlias = tuple[Coordinate, Coordinate]
"""A board space as (column, row), counted from the top-left space (R17)."""

Direction: TypeAlias = tuple[Delta, Delta]
"""A unit step (column delta, row delta), each -1, 0 or 1, not both 0."""

Size: TypeAlias = Literal["medium", "large"]
"""Medium figures take one space; Large figures take two-by-two."""

ActionKind: TypeAlias = Literal["attack", "defend", "move", "stunt"]
"""The four kinds of action coin."""

ACTION_KINDS: Final[tuple[ActionKind, ...]] = ("attack", "defend", "move", "stunt")

Colour: TypeAlias = Literal["green", "grey"]
"""The colour of a unit coin."""

Condition: TypeAlias = Literal["unharmed", "wounded", "disabled", "eliminated"]
"""A character's condition, in the order hits move it (R8)."""


def other_side(side: Side) -> Side:
    """Return the opposing side."""
    return "adversaries" if side == "heroes" else "heroes"


def other_seat(seat: Seat) -> Seat:
    """Return the other seat at the table."""
    return 2 if seat == 1 else 1
