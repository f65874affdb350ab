"""Variants: the rulebook's Alternative Rules that a match may switch on (R22).

Each variant is off by default, named in the match settings and written in
the log header. This version of the engine implements none yet; the whole
list, with the rulebook text each comes from, arrives with the whole-game
rules.
"""

from __future__ import annotations

from typing import Final

import msgspec


class Variant(msgspec.Struct, frozen=True):
    """An Alternative Rule that can be switched on."""

    name: str
    rulebook: str
    """The rulebook sentence it comes from."""
    summary: str
    """What it changes, stated precisely."""


VARIANTS: Final[dict[str, Variant]] = {}
"""Known variants by name."""
