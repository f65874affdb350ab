"""Team sheets: units, terrain pieces and scenarios, read from data files.

Rulebook: *Teams*, *Coins*; rulings R1, R2, R17, R23. A sheet is public
information (the choices of its set-up secrets are not). Sheets are TOML
files decoded by msgspec into the typed structs below and then checked by
:func:`validate_sheet`; every problem names the file and the field.

The installed teams are the bundled ones plus those other packages offer
through the entry point group ``multiversus.teams`` (:func:`installed_teams`).
``docs/teams.md`` describes the format and how to write a team.

A sheet may come from anyone, so every input is bounded (:data:`LIMITS`):
the file's size, its nesting, every count and number, the length and
alphabet of every id and name. A sheet that passes :func:`validate_sheet`
sets up: every starting square is on the board and free, no two starting
footprints overlap, and (checked by :func:`check_pairings` against the
installed teams of the other side) every scenario has room for every Hero.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from os import PathLike
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.datafile import MAX_ID as MAX_ID
from multiversus_core.engine.datafile import MAX_NAME as MAX_NAME
from multiversus_core.engine.datafile import MAX_TEXT as MAX_TEXT
from multiversus_core.engine.datafile import (
    Fail,
    Problems,
    check_id,
    check_name,
    check_range,
    decode_toml,
    read_file,
)
from multiversus_core.engine.errors import SheetError
from multiversus_core.rulesets.multiversus.ability import REGISTRY
from multiversus_core.rulesets.multiversus.board import Board, Figure, Tile
from multiversus_core.rulesets.multiversus.geometry import footprint, on_board
from multiversus_core.rulesets.multiversus.movement import can_stand
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.terms import Side, Size, Square

ROLES: Final[tuple[str, ...]] = (
    "champion",
    "lieutenant",
    "mob",
    "beast",
    "minions",
    "terrain",
)
"""The unit roles of R1: Heroes have a champion, a lieutenant and a mob; the
Adversaries a beast, minions and the terrain."""

ENTRY_POINT_GROUP: Final = "multiversus.teams"
"""The entry point group other packages use to offer team sheets."""

MAX_SHEET_BYTES: Final = 256 * 1024
"""The largest sheet file read, in bytes."""
MAX_DEPTH: Final = 8
"""The deepest nesting of tables and arrays a sheet may use (the format needs 7)."""

LIMITS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "units": (1, 8),
        "characters": (1, 12),
        "figures": (1, 24),
        "green_coins": (0, 6),
        "grey_coins": (0, 6),
        "abilities": (0, 12),
        "scenarios": (0, 8),
        "width": (2, 40),
        "height": (2, 40),
        "tiles": (0, 32),
        "heroes": (0, 48),
        "secrets": (0, 8),
        "options": (1, 24),
        "win_conditions": (0, 8),
    }
)
"""The range (least, most) of every count and number on a sheet: ``units`` per
sheet, ``characters`` per unit, ``figures`` per sheet (all units' characters),
coins per unit and colour, ``abilities`` per unit, ``scenarios`` per sheet,
board ``width`` and ``height`` in spaces, special ``tiles`` and ``heroes``
deployment squares per scenario, ``secrets`` per sheet, ``options`` per secret
and ``win_conditions`` per sheet."""

SecretKind: TypeAlias = Literal["power", "identity", "scheme"]
"""What a set-up secret is (R23): a secret power, a hidden identity (its
options are figure ids of the sheet), or a secret scheme."""


class UnitSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One unit's entry on a team sheet."""

    id: str
    """Short id, unique on the sheet, used in logs ("knight")."""
    name: str
    """The unit's name as printed ("Banner Knight")."""
    role: str
    """champion, lieutenant, mob, beast, minions or terrain (R1)."""
    characters: int = 1
    """Unit Size: how many characters (or terrain pieces) it has."""
    size: Size = "medium"
    green_coins: int = 1
    """Green unit coins (R2)."""
    grey_coins: int = 2
    """Grey unit coins (R2)."""
    abilities: tuple[str, ...] = ()
    """Names of its abilities."""
    blocking: bool = True
    """Terrain units only: whether its pieces block movement."""
    obscuring: bool = True
    """Terrain units only: whether its pieces break line of sight."""


class TileSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A special (face-up) terrain tile placed by a scenario."""

    origin: Square
    terrain: str
    blocking: bool = False
    obscuring: bool = False


class Placement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where one unit's figures start, one top-left space per figure."""

    unit: str
    squares: tuple[Square, ...]


class ScenarioSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A board layout and deployment from an Adversary sheet (R17)."""

    id: str
    name: str
    width: int
    height: int
    tiles: tuple[TileSheet, ...] = ()
    adversaries: tuple[Placement, ...] = ()
    """Starting spaces of each Adversary unit, by unit id."""
    heroes: tuple[Square, ...] = ()
    """The Heroes' deployment spaces, filled in roster order."""

    def board(self) -> Board:
        """Return the board this scenario lays out: its size and special tiles."""
        return Board(
            width=self.width,
            height=self.height,
            tiles=tuple(
                Tile(origin=t.origin, terrain=t.terrain, blocking=t.blocking, obscuring=t.obscuring)
                for t in self.tiles
            ),
        )


class SecretSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A secret the sheet's player chooses at set-up and keeps hidden (R23)."""

    name: str
    """Its name, for example "shapeshifter"."""
    options: tuple[str, ...]
    """What the player may choose from (figure ids for a hidden identity)."""
    text: str = ""
    """The rules text explaining it."""
    kind: SecretKind = "power"
    """A secret power, a hidden identity or a secret scheme."""


class TeamSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Hero or Adversary team sheet."""

    id: str
    name: str
    side: Side
    units: tuple[UnitSheet, ...]
    scenarios: tuple[ScenarioSheet, ...] = ()
    """Adversary sheets only: the set-up requirements."""
    description: str = ""
    win_conditions: tuple[str, ...] = ()
    """Adversary sheets only: registered win conditions checked after round 6, in order."""
    secrets: tuple[SecretSheet, ...] = ()
    """Set-up secrets the sheet's player chooses (R23)."""

    def unit(self, unit_id: str) -> UnitSheet:
        """Return the unit with this id.

        :raises KeyError: if the sheet has no such unit.
        """
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise KeyError(unit_id)

    def scenario(self, scenario_id: str) -> ScenarioSheet:
        """Return the scenario with this id.

        :raises KeyError: if the sheet has no such scenario.
        """
        for scenario in self.scenarios:
            if scenario.id == scenario_id:
                return scenario
        raise KeyError(scenario_id)


def decode_sheet(data: bytes, source: str) -> TeamSheet:
    """Decode and validate a TOML team sheet.

    The size and the nesting are checked before the TOML is parsed, so a
    hostile file costs little time and memory.

    :raises SheetError: naming the source and the field at fault.
    """
    sheet = decode_toml(
        data, source, TeamSheet, SheetError, max_bytes=MAX_SHEET_BYTES, max_depth=MAX_DEPTH
    )
    validate_sheet(sheet, source)
    return sheet


def load_sheet(path: str | PathLike[str]) -> TeamSheet:
    """Read a team sheet file (at most :data:`MAX_SHEET_BYTES` of it).

    :raises SheetError: if the file cannot be read or is not a valid sheet.
    """
    data = read_file(path, MAX_SHEET_BYTES, SheetError)
    return decode_sheet(data, str(path))


def validate_sheet(sheet: TeamSheet, source: str) -> None:
    """Check the rules a well-typed sheet must still follow, and that each scenario sets up.

    Every count and number is checked against :data:`LIMITS` before anything
    is built from it, so a hostile sheet fails fast. Every problem is found,
    one per part of the sheet (its head, each unit, each win condition, then
    each secret and scenario once the counts are known to be within limits).

    :raises SheetError: naming the source and the field at fault, with every problem found.
    """
    problems = Problems()
    fail = problems.fail
    with problems.part():
        check_id(sheet.id, "id", fail)
    with problems.part():
        check_name(sheet.name, "name", fail)
    with problems.part():
        check_name(sheet.description, "description", fail, longest=MAX_TEXT, empty=True)
    with problems.part():
        _check_count(len(sheet.units), "units", "units", fail, "a team needs at least one unit")
    seen: set[str] = set()
    for i, unit in enumerate(sheet.units[: LIMITS["units"][1]]):
        _validate_unit(unit, i, seen, problems)
    with problems.part():
        if sheet.side == "heroes" and sheet.scenarios:
            fail("scenarios", "only an Adversary sheet sets up the board")
        if sheet.side == "adversaries" and not sheet.scenarios:
            fail("scenarios", "an Adversary sheet needs at least one scenario")
        _check_count(len(sheet.scenarios), "scenarios", "scenarios", fail)
    with problems.part():
        if sheet.side == "heroes" and sheet.win_conditions:
            fail("win_conditions", "only an Adversary sheet names win conditions")
        _check_count(len(sheet.win_conditions), "win_conditions", "win_conditions", fail)
    for i, condition in enumerate(sheet.win_conditions[: LIMITS["win_conditions"][1]]):
        with problems.part():
            if condition not in WIN_CONDITIONS:
                nearest = _nearest(condition, WIN_CONDITIONS)
                fail(
                    f"win_conditions[{i}]", f"no win condition {condition!r} is registered{nearest}"
                )
            if condition in sheet.win_conditions[:i]:
                fail(f"win_conditions[{i}]", f"{condition!r} is listed twice")
    with problems.part():
        count, (_, most) = sum(u.characters for u in sheet.units), LIMITS["figures"]
        if count > most:
            fail("units", f"the units have {count} characters in all; a sheet has at most {most}")
    # Figures, secrets and boards are built from the counts: only once they are known good.
    problems.raise_if_any(source, sheet.id, SheetError)
    with problems.part():
        figures = figure_ids(sheet)
        if len(set(figures)) != len(figures):
            twice = next(f for i, f in enumerate(figures) if f in figures[:i])
            fail("units", f"two figures would share the id {twice!r} (a unit id clashes)")
    with problems.part():
        _validate_secrets(sheet, fail)
    scenario_ids: set[str] = set()
    for i, sc in enumerate(sheet.scenarios):
        with problems.part():
            check_id(sc.id, f"scenarios[{i}].id", fail)
            if sc.id in scenario_ids:
                fail(f"scenarios[{i}] ({sc.id}).id", "two scenarios share this id")
            scenario_ids.add(sc.id)
            _validate_scenario(sheet, sc, f"scenarios[{i}] ({sc.id})", fail)
    problems.raise_if_any(source, sheet.id, SheetError)


def _validate_unit(unit: UnitSheet, i: int, seen: set[str], problems: Problems) -> None:
    """Check a unit, each of its parts on its own: its id, name, counts, role and abilities."""
    fail = problems.fail
    where = f"units[{i}] ({unit.id})"
    with problems.part():
        check_id(unit.id, f"units[{i}].id", fail)
        if unit.id in seen:
            fail(f"{where}.id", "two units share this id")
        seen.add(unit.id)
    with problems.part():
        check_name(unit.name, f"{where}.name", fail)
    with problems.part():
        below = "a unit has at least one character"
        _check_count(unit.characters, "characters", f"{where}.characters", fail, below)
    with problems.part():
        for colour in ("green_coins", "grey_coins"):
            _check_count(getattr(unit, colour), colour, f"{where}.{colour}", fail)
        if unit.green_coins + unit.grey_coins < 1:
            fail(f"{where}.green_coins", "a unit needs at least one unit coin")
    with problems.part():
        if unit.role not in ROLES:
            nearest = _nearest(unit.role, ROLES)
            fail(f"{where}.role", f"must be one of {', '.join(ROLES)}, not {unit.role!r}{nearest}")
        if unit.role == "terrain" and unit.size != "medium":
            fail(f"{where}.size", "terrain pieces are Medium")
    with problems.part():
        _check_count(len(unit.abilities), "abilities", f"{where}.abilities", fail)
    for j, ability in enumerate(unit.abilities[: LIMITS["abilities"][1]]):
        with problems.part():
            if ability not in REGISTRY:
                fail(
                    f"{where}.abilities[{j}]",
                    f"{unit.name} names the ability {ability!r}, which is not registered"
                    f"{_nearest(ability, REGISTRY)}",
                )
            if ability in unit.abilities[:j]:
                # The engine would apply it twice; the sheet would read as once.
                fail(f"{where}.abilities[{j}]", f"{ability!r} is listed twice")
    with problems.part():
        if ("Large" in unit.abilities) != (unit.size == "large"):
            fail(f"{where}.size", 'a unit is size = "large" exactly when it has Large')


def _nearest(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the known word nearest a misspelt one, or nothing."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_count(value: int, limit: str, field: str, fail: Fail, below: str = "") -> None:
    check_range(value, *LIMITS[limit], field, fail, below)


def _validate_scenario(sheet: TeamSheet, sc: ScenarioSheet, where: str, fail: Fail) -> None:
    """Check a scenario's board, tiles and starting squares: the Adversaries set up on it."""
    check_name(sc.name, f"{where}.name", fail)
    _check_count(sc.width, "width", f"{where}.width", fail)
    _check_count(sc.height, "height", f"{where}.height", fail)
    if sc.width % 2 or sc.height % 2:
        fail(f"{where}.width", "the board is made of two-by-two tiles: even sides, at least 2")
    _check_count(len(sc.tiles), "tiles", f"{where}.tiles", fail)
    corners: set[Square] = set()
    for j, tile in enumerate(sc.tiles):
        c, r = tile.origin
        if c % 2 or r % 2 or not (0 <= c < sc.width and 0 <= r < sc.height):
            fail(f"{where}.tiles[{j}].origin", "must be a tile corner on the board")
        if tile.origin in corners:
            fail(f"{where}.tiles[{j}].origin", f"{list(tile.origin)} already has a tile")
        corners.add(tile.origin)
        check_name(tile.terrain, f"{where}.tiles[{j}].terrain", fail)
    board = sc.board()
    placements: dict[str, int] = {}
    for j, placement in enumerate(sc.adversaries):
        if placement.unit in placements:
            fail(f"{where}.adversaries[{j}].unit", f"{placement.unit!r} is placed twice")
        placements[placement.unit] = j
        try:
            unit = sheet.unit(placement.unit)
        except KeyError:
            fail(f"{where}.adversaries[{j}].unit", f"no unit {placement.unit!r} on this sheet")
        if len(placement.squares) != unit.characters:
            fail(
                f"{where}.adversaries[{j}].squares",
                f"{unit.name} has {unit.characters} figure(s) but "
                f"{len(placement.squares)} square(s) are given",
            )
    placed: list[Figure] = []
    taken: dict[Square, str] = {}
    for unit in sheet.units:
        if unit.id not in placements:
            fail(f"{where}.adversaries", f"no starting squares for {unit.name}")
        j = placements[unit.id]
        for k, square in enumerate(sc.adversaries[j].squares):
            field = f"{where}.adversaries[{j}].squares[{k}]"
            figure = _probe(unit, k, square)
            spaces = footprint(square, unit.size)
            if not all(on_board(board, s) for s in spaces):
                what = "a Large figure's four spaces from " if unit.size == "large" else ""
                fail(field, f"{what}{list(square)} is not on the board")
            for space in spaces:
                if space in taken:
                    fail(field, f"{list(square)} overlaps {taken[space]}'s starting space")
            if not can_stand(board, placed, figure, square):
                fail(field, f"{figure.name} cannot stand at {list(square)} (blocking terrain)")
            placed.append(figure)
            taken.update((s, figure.name) for s in spaces)
    _check_count(len(sc.heroes), "heroes", f"{where}.heroes", fail)
    for j, square in enumerate(sc.heroes):
        if not on_board(board, square):
            fail(f"{where}.heroes[{j}]", f"{list(square)} is not on the board")
        if square in sc.heroes[:j]:
            fail(f"{where}.heroes[{j}]", f"{list(square)} is listed twice")
        if square in taken:
            fail(f"{where}.heroes[{j}]", f"{list(square)} is {taken[square]}'s starting space")
        hero = Figure(id="hero", name="hero", unit="hero", side="heroes", square=None)
        if not can_stand(board, placed, hero, square):
            fail(f"{where}.heroes[{j}]", f"{list(square)} is not free (blocking terrain)")


def _probe(unit: UnitSheet, index: int, square: Square) -> Figure:
    """Return a stand-in for one of an Adversary unit's figures at its starting square."""
    terrain = unit.role == "terrain"
    return Figure(
        id=f"{unit.id}-{index + 1}",
        name=unit.name if unit.characters == 1 else f"{unit.name} {index + 1}",
        unit=unit.id,
        side="adversaries",
        square=square,
        size=unit.size,
        terrain=terrain,
        blocking=unit.blocking if terrain else True,
        obscuring=unit.obscuring if terrain else True,
    )


def figure_ids(sheet: TeamSheet) -> tuple[str, ...]:
    """Return the ids a sheet's figures get in a match: the unit id, or ``<unit>-<n>`` from 1.

    (A unit whose id clashes with a Hero unit's is qualified by its team id in
    the match; :func:`multiversus_core.rulesets.multiversus.abilities.secret_figure` allows for it.)
    """
    ids: list[str] = []
    for unit in sheet.units:
        if unit.characters == 1:
            ids.append(unit.id)
        else:
            ids.extend(f"{unit.id}-{i}" for i in range(1, unit.characters + 1))
    return tuple(ids)


def _validate_secrets(sheet: TeamSheet, fail: Fail) -> None:
    _check_count(len(sheet.secrets), "secrets", "secrets", fail)
    names: set[str] = set()
    figures = figure_ids(sheet)
    for i, secret in enumerate(sheet.secrets):
        if not secret.name:
            fail(f"secrets[{i}].name", "a secret needs a name")
        check_id(secret.name, f"secrets[{i}].name", fail)
        where = f"secrets[{i}] ({secret.name})"
        if secret.name in names:
            fail(f"{where}.name", "two secrets share this name")
        names.add(secret.name)
        check_name(secret.text, f"{where}.text", fail, longest=MAX_TEXT, empty=True)
        if not secret.options:
            fail(f"{where}.options", "a secret needs at least one option")
        _check_count(len(secret.options), "options", f"{where}.options", fail)
        for j, option in enumerate(secret.options):
            check_name(option, f"{where}.options[{j}]", fail)
            if option in secret.options[:j]:
                fail(f"{where}.options[{j}]", f"{option!r} is listed twice")
            if secret.kind == "identity" and option not in figures:
                fail(
                    f"{where}.options[{j}]",
                    f"a hidden identity names a figure of this sheet ({', '.join(figures)}), "
                    f"not {option!r}",
                )
