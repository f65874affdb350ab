"""Units in play and their unit coins (rulebook: *Teams*, *Coins*, *Units and characters*; R1, R2).

A unit coin is named by a string id ``"<unit>.<colour><n>"``, for example
``"militia.green1"`` or ``"militia.grey2"``, so logs stay readable and a coin's
colour and unit can be read from its id alone.
"""

from __future__ import annotations

import functools

import msgspec

from multiversus_core.rulesets.multiversus.terms import Colour, Side, Size

CoinId = str
"""A unit coin, ``"<unit>.<colour><n>"``."""


def coin_id(unit: str, colour: Colour, number: int) -> CoinId:
    """Return the id of a unit's ``number``-th coin of a colour (from 1)."""
    return f"{unit}.{colour}{number}"


def coin_unit(coin: CoinId) -> str:
    """Return the id of the unit a coin belongs to."""
    return coin.rpartition(".")[0]


def is_grey(coin: CoinId) -> bool:
    """True for a grey unit coin."""
    return coin.rpartition(".")[2].startswith("grey")


def coin_colour(coin: CoinId) -> Colour:
    """Return the colour of a unit coin."""
    return "grey" if is_grey(coin) else "green"


@functools.lru_cache(maxsize=512)
def coin_kind(coin: CoinId) -> tuple[str, Colour]:
    """Return a unit coin's unit and colour.

    Stashes are read coin by coin at every selection; a match has a few dozen
    coins, so the pairs of the last few hundred ids are kept (an id's pair
    never changes).
    """
    return coin_unit(coin), coin_colour(coin)


# dict=True: values derived from a unit alone (its selection commands) are cached
# on it, outside its fields, so they take no part in equality or encoding.
class Unit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A unit in the match: its sheet entry resolved to figures and coins."""

    id: str
    """Unique in the match."""
    name: str
    side: Side
    role: str
    """champion, lieutenant, mob, beast, minions or terrain (R1)."""
    figures: tuple[str, ...]
    """Ids of its characters (or terrain pieces)."""
    coins: tuple[CoinId, ...]
    """All its unit coins, green first."""
    size: Size = "medium"
    abilities: tuple[str, ...] = ()

    @property
    def is_terrain(self) -> bool:
        """True for the Adversaries' Terrain unit, whose members are terrain pieces (R1)."""
        return self.role == "terrain"
