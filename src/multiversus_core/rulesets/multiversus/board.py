"""The board: terrain tiles, and the figures (characters and terrain pieces) on it.

Rulebook: *Board*, *Terrain*, *Sizes*; rulings R1, R17. Geometry on top of
these types (lines, adjacency, line of sight) lives in :mod:`geometry`, and
movement in :mod:`movement`.
"""

from __future__ import annotations

import msgspec

from multiversus_core.rulesets.multiversus.terms import Condition, Count, Side, Size, Square


class Tile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A face-up (special) two-by-two Terrain Tile.

    Every tile not listed on a board is an ordinary face-down tile, which has
    no properties at all.
    """

    origin: Square
    """Top-left space of the tile; both coordinates are even."""
    terrain: str
    """The special terrain's name, as its sheet gives it (for example "Marsh")."""
    blocking: bool = False
    """Figures cannot move through or into it (characters; terrain never shares)."""
    obscuring: bool = False
    """It breaks line of sight (R18)."""


# dict=True: lookups derived from a board (the tile of each space) are cached on
# it, outside its fields, so they take no part in equality or encoding.
class Board(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A square grid of two-by-two tiles, as a scenario lays it out (R17)."""

    width: Count
    """Columns of spaces; a multiple of two."""
    height: Count
    """Rows of spaces; a multiple of two."""
    tiles: tuple[Tile, ...] = ()
    """The special (face-up) tiles; all others are ordinary."""


class Figure(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A character or terrain piece on the board.

    Terrain pieces belong to the Adversaries' Terrain unit (R1): they can move
    and stunt, but they are not characters.
    """

    id: str
    """Unique in the match, for example "goblins-2" or "curtain-1"."""
    name: str
    """The name players call it by, for example "Black Goblin 2"."""
    unit: str
    """The id of the unit it belongs to."""
    side: Side
    square: Square | None
    """Top-left space it occupies; None once it has left the board."""
    size: Size = "medium"
    terrain: bool = False
    """A terrain piece rather than a character."""
    blocking: bool = True
    """Characters are blocking by default; terrain pieces say."""
    obscuring: bool = True
    """Characters are obscuring by default; terrain pieces say."""
    condition: Condition = "unharmed"
    """Characters only; terrain pieces are never harmed (R1)."""

    @property
    def is_character(self) -> bool:
        """True for characters, False for terrain pieces."""
        return not self.terrain
