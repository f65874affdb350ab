"""tiles-d6 content: unit types, rosters and maps, read from data files.

Rulings T9 (a unit's type gives its attributes and traits), T27 (halves and
centre), T29 (the bundled rosters), T30 (the bundled map), T31 (coordinates)
and T32 (other rosters and maps may be used). Rosters and maps are TOML files
decoded by msgspec into the structs below, then checked by
:func:`validate_roster` and :func:`validate_map`; every problem is a
one-line :class:`~multiversus_core.engine.errors.DataFileError` naming the
file and the field. A file may come from anyone, so everything in it is
bounded (:data:`LIMITS`, :data:`MAX_BYTES`, :data:`MAX_DEPTH`, and the id
and name rules of :mod:`multiversus_core.engine.datafile`).

The installed rosters and maps are the bundled ones, then those other
packages offer through the entry point groups :data:`ROSTER_GROUP` and
:data:`MAP_GROUP`: each entry point names a callable (``"module:attribute"``)
returning structs or paths of TOML files, as Multiversus' team entry points do.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.catalog import Catalog, Provider
from multiversus_core.engine.datafile import (
    MAX_TEXT,
    Fail,
    check_id,
    check_name,
    check_once,
    check_range,
    failing,
    numbered,
)
from multiversus_core.engine.grid import Coord, Grid, centre_tiles, distance, neighbours, step_open

Trait: TypeAlias = Literal["flying", "large", "small"]
"""A unit type's traits: Flying (T12, T19), Large and Small (T22, T26)."""

TILES: Final = ".T#+=~^"
"""The legend (T7): ground, tree, wall, door, window, water, brambles."""
BLOCKS_MOVEMENT: Final = frozenset("T#=")
"""The tiles no unit may enter (T5, T7): tree, wall, window. Every other tile is open."""
CENTRE_GAP: Final = 2
"""Set-up bars the tiles within this distance of a centre tile (T27)."""

_PACKAGE: Final = "multiversus_core.rulesets.tiles_d6"
ROSTER_GROUP: Final = "multiversus.tiles_d6.rosters"
"""The entry point group other packages use to offer rosters."""
MAP_GROUP: Final = "multiversus.tiles_d6.maps"
"""The entry point group other packages use to offer maps."""

MAX_BYTES: Final = 64 * 1024
"""The largest roster or map file read, in bytes (a 40 by 40 map takes under 2 KiB)."""
MAX_DEPTH: Final = 5
"""The deepest nesting of tables and arrays a file may use (a roster needs 4: the file,
``units``, a unit type, its ``traits``)."""

ATTRIBUTES: Final = ("move", "combat", "strength", "ranged", "power", "evade", "health", "defense")
"""A unit type's eight attributes, in the rules' order (T9)."""

LIMITS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "move": (1, 12),
        "combat": (0, 12),
        "strength": (0, 12),
        "ranged": (0, 12),
        "power": (0, 12),
        "evade": (0, 12),
        "health": (1, 12),
        "defense": (0, 12),
        "count": (1, 12),
        "unit_types": (1, 12),
        "units": (1, 24),
        "width": (4, 40),
        "height": (4, 40),
    }
)
"""The range (least, most) of every number in a roster or map: each attribute (a unit with
no Move could never step, one with no Health would start Injured), ``count`` per unit type,
``unit_types`` per roster, ``units`` fielded per roster in all, and a map's ``width`` and
``height`` in tiles."""


class UnitType(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A unit type on a roster: its attributes and traits (T9), and how many the roster fields.

    Attributes are values, not modifiers (T8). Ranged and Power may be 0; a
    unit fires only when both are above 0 (T26), so a type with one of them
    0 and the other not is allowed and cannot fire.
    """

    id: str
    """Short id, unique on the roster, used in logs ("spearman")."""
    name: str
    """The type's name as printed ("Spearman")."""
    move: int
    """Move points a Move action starts with (T10)."""
    combat: int
    """Added to a melee attack's roll (T22)."""
    strength: int
    """Melee damage, and knockdown and stun against the target's Strength (T24)."""
    ranged: int
    """Added to a Fire action's roll (T26)."""
    power: int
    """Fire damage (T26)."""
    evade: int
    """Subtracted from the roll of every attack on the unit (T22, T26)."""
    health: int
    """Damage the unit takes before it is Injured (T9, T17)."""
    defense: int
    """Subtracted from the damage of every hit on the unit (T24, T26)."""
    traits: tuple[Trait, ...] = ()
    count: int = 1
    """How many units of this type the roster fields."""


class RosterUnit(msgspec.Struct, frozen=True):
    """One unit a roster fields: its own id and name, and its type."""

    id: str
    """The type's id, or ``<type>-<n>`` from 1 when the roster fields several ("goblin-2")."""
    name: str
    """The type's name, or ``<name> <n>`` when the roster fields several ("Goblin 2")."""
    unit_type: UnitType


class Roster(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A side's roster: its unit types (open to both players, T27)."""

    id: str
    name: str
    units: tuple[UnitType, ...]
    """The unit types, each with how many the roster fields."""
    description: str = ""

    def fielded(self) -> tuple[RosterUnit, ...]:
        """Return the units the roster fields, in file order, each with its own id."""
        return tuple(
            RosterUnit(unit_id, name, unit)
            for unit in self.units
            for unit_id, name in numbered(unit.id, unit.name, unit.count)
        )


class GameMap(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A board of tiles (T4, T7): one string of legend characters per row, top row first.

    Coordinates are (column, row) from 0 at the top left (T31).
    """

    id: str
    name: str
    rows: tuple[str, ...]
    """The rows, top (north) first; each character is a tile of :data:`TILES`."""

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.rows)

    def tile(self, column: int, row: int) -> str:
        """Return the legend character of the tile at (column, row).

        :raises IndexError: if the tile is not on the map (T4: it does not exist).
        """
        if not (0 <= column < self.width and 0 <= row < self.height):
            raise IndexError(f"({column}, {row}) is not on the {self.width}x{self.height} map")
        return self.rows[row][column]

    @property
    def halves(self) -> tuple[range, range]:
        """Return the rows of the north and the south half (T27, T31): the first and the last
        ``height // 2`` rows (on an odd height the middle row is in neither)."""
        half = self.height // 2
        return range(half), range(self.height - half, self.height)

    def centre_distance(self, column: int, row: int) -> int:
        """Return the distance (T4) from (column, row) to the nearest centre tile (T27: the
        middle column or two by the middle row or two)."""
        return min(distance((column, row), at) for at in centre_tiles(self.grid))

    @property
    def grid(self) -> Grid:
        """The map's square grid (T4)."""
        return Grid(self.width, self.height)


def _check(value: int, limit: str, field: str, fail: Fail, below: str = "") -> None:
    check_range(value, *LIMITS[limit], field, fail, below)


def validate_roster(roster: Roster, source: str) -> None:
    """Check the rules a well-typed roster must still follow: ids, names and :data:`LIMITS`.

    :raises DataFileError: naming the source and the field at fault.
    """
    fail = failing(source, roster.id)
    check_id(roster.id, "id", fail)
    check_name(roster.name, "name", fail)
    check_name(roster.description, "description", fail, longest=MAX_TEXT, empty=True)
    _check(len(roster.units), "unit_types", "units", fail, "a roster needs at least one unit type")
    seen: set[str] = set()
    for i, unit in enumerate(roster.units):
        check_id(unit.id, f"units[{i}].id", fail)
        where = f"units[{i}] ({unit.id})"
        if unit.id in seen:
            fail(f"{where}.id", "two unit types share this id")
        seen.add(unit.id)
        check_name(unit.name, f"{where}.name", fail)
        for attribute in ATTRIBUTES:
            _check(getattr(unit, attribute), attribute, f"{where}.{attribute}", fail)
        _check(unit.count, "count", f"{where}.count", fail)
        check_once(unit.traits, f"{where}.traits", fail)
        if "large" in unit.traits and "small" in unit.traits:
            fail(f"{where}.traits", "a unit type is not both large and small")
    most = LIMITS["units"][1]
    total = sum(unit.count for unit in roster.units)
    if total > most:
        fail("units", f"the roster fields {total} units in all, more than {most}")
    ids = [unit.id for unit in roster.fielded()]
    if len(set(ids)) != len(ids):
        twice = next(u for i, u in enumerate(ids) if u in ids[:i])
        fail("units", f"two units would share the id {twice!r} (a unit type's id clashes)")


def validate_map(game_map: GameMap, source: str) -> None:
    """Check the rules a well-typed map must still follow.

    Its size is within :data:`LIMITS`, every row is as long and holds only
    :data:`TILES`, each half (T27) has a tile a unit may be set up on (open,
    and farther than :data:`CENTRE_GAP` from every centre tile), and every open
    tile can be reached from every other by the steps of T5.

    :raises DataFileError: naming the source and the field at fault.
    """
    fail = failing(source, game_map.id)
    check_id(game_map.id, "id", fail)
    check_name(game_map.name, "name", fail)
    _check(game_map.height, "height", "rows", fail)
    least, most = LIMITS["width"]
    width = game_map.width
    if not least <= width <= most:
        fail("rows[0]", f"a row is from {least} to {most} tiles long, not {width}")
    for r, row in enumerate(game_map.rows):
        if len(row) != width:
            fail(f"rows[{r}]", f"is {len(row)} tiles long, but rows[0] is {width}")
        for c, tile in enumerate(row):
            if tile not in TILES:
                fail(
                    f"rows[{r}]",
                    f"column {c} holds {tile!r}, not a tile (the tiles are {' '.join(TILES)})",
                )
    for half, rows in zip(("north", "south"), game_map.halves, strict=True):
        if not any(
            game_map.rows[r][c] not in BLOCKS_MOVEMENT
            and game_map.centre_distance(c, r) > CENTRE_GAP
            for r in rows
            for c in range(width)
        ):
            fail(
                "rows",
                f"the {half} half (rows {rows[0]} to {rows[-1]}) has no tile to set up on: "
                f"each blocks movement or is within {CENTRE_GAP} of the centre (T27)",
            )
    unreached = _unreached(game_map)
    if unreached is not None:
        (c, r), (c0, r0) = unreached
        fail(
            "rows",
            f"the open tile at column {c}, row {r} cannot be reached from column {c0}, row {r0} "
            "(every open tile must connect to every other, T5)",
        )


def _unreached(game_map: GameMap) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Return an open tile no step chain reaches from the first open tile, and that tile.

    A step goes to one of the 8 neighbours that is open; a diagonal step is
    barred when both tiles it passes between block movement (T5).
    """
    grid = game_map.grid

    def blocked(at: Coord) -> bool:
        return game_map.rows[at[1]][at[0]] in BLOCKS_MOVEMENT

    open_tiles = [at for at in grid.tiles() if not blocked(at)]
    if not open_tiles:
        return None
    start = open_tiles[0]
    reached = {start}
    queue = deque([start])
    while queue:
        at = queue.popleft()
        for to in neighbours(grid, at):
            if to not in reached and step_open(grid, at, to, blocked):
                reached.add(to)
                queue.append(to)
    missing = next((tile for tile in open_tiles if tile not in reached), None)
    return None if missing is None else (missing, start)


# --- the installed rosters and maps ------------------------------------------------------

ROSTERS: Final = Catalog(
    _PACKAGE,
    "roster",
    ROSTER_GROUP,
    Roster,
    validate_roster,
    max_bytes=MAX_BYTES,
    max_depth=MAX_DEPTH,
)
"""The installed rosters: the bundled ``data/rosters/``, then those :data:`ROSTER_GROUP` offers."""
MAPS: Final = Catalog(
    _PACKAGE, "map", MAP_GROUP, GameMap, validate_map, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH
)
"""The installed maps: the bundled ``data/maps/``, then those :data:`MAP_GROUP` offers."""
BUNDLED_FOLDER: Final = ROSTERS.bundled_folder
"""Where the bundled files are (``rosters/`` and ``maps/``), as sources name them."""

RosterProvider: TypeAlias = Provider[Roster]
"""What a :data:`ROSTER_GROUP` entry point loads to: a callable returning rosters or paths of
TOML roster files."""
MapProvider: TypeAlias = Provider[GameMap]
"""What a :data:`MAP_GROUP` entry point loads to: a callable returning maps or paths of TOML
map files."""


decode_roster: Final = ROSTERS.decode
"""Decode and validate a TOML roster; raises :class:`DataFileError` naming the source and the
field at fault."""
load_roster: Final = ROSTERS.load
"""Read a roster file (at most :data:`MAX_BYTES` of it); raises :class:`DataFileError` if it
cannot be read or is not a valid roster."""
bundled_rosters: Final = ROSTERS.bundled
"""Return the rosters that ship with the library (T29), by file name."""
installed_rosters: Final = ROSTERS.installed
"""Return the bundled rosters, then the valid rosters of the :data:`ROSTER_GROUP` entry points
by id (read once; :func:`forget_installed` reads them again)."""
invalid_rosters: Final = ROSTERS.invalid
"""Return why each roster the entry points offer was left out of :func:`installed_rosters`:
each error names its source and, when it could be read that far, the id it claims."""
find_roster: Final = ROSTERS.find
"""Return the installed roster with this id, or None (entry points are read only for an id no
bundled roster has)."""
decode_map: Final = MAPS.decode
"""Decode and validate a TOML map; raises :class:`DataFileError` naming the source and the
field at fault."""
load_map: Final = MAPS.load
"""Read a map file (at most :data:`MAX_BYTES` of it); raises :class:`DataFileError` if it
cannot be read or is not a valid map."""
bundled_maps: Final = MAPS.bundled
"""Return the maps that ship with the library (T30), by file name."""
installed_maps: Final = MAPS.installed
"""Return the bundled maps, then the valid maps of the :data:`MAP_GROUP` entry points by id
(read once; :func:`forget_installed` reads them again)."""
invalid_maps: Final = MAPS.invalid
"""Return why each map the entry points offer was left out of :func:`installed_maps`."""
find_map: Final = MAPS.find
"""Return the installed map with this id, or None (entry points are read only for an id no
bundled map has)."""


def forget_installed() -> None:
    """Forget what the entry points offered, so that the next question reads them again (after
    a package is installed during a session)."""
    ROSTERS.forget()
    MAPS.forget()
