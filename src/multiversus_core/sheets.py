"""Team sheets: units, terrain pieces and scenarios, read from data files.

Rulebook: *Teams*, *Coins*; rulings R1, R2, R17. A sheet is public
information. Sheets are TOML files decoded by msgspec into the typed structs
below and then checked by :func:`validate_sheet`; every problem names the file
and the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

import msgspec

from multiversus_core.errors import SheetError
from multiversus_core.terms import Side, Size, Square


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


class SecretSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A secret the sheet's player chooses at set-up and keeps hidden (R23)."""

    name: str
    """Its name, for example "shapeshifter"."""
    options: tuple[str, ...]
    """What the player may choose from (figure ids for a hidden identity)."""
    text: str = ""
    """The rules text explaining it."""


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

    :raises SheetError: naming the source and the field at fault.
    """
    try:
        sheet = msgspec.toml.decode(data, type=TeamSheet)
    except msgspec.ValidationError as exc:
        raise SheetError(source, str(exc)) from None
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise SheetError(source, f"not valid TOML: {exc}") from None
    validate_sheet(sheet, source)
    return sheet


def load_sheet(path: str | Path) -> TeamSheet:
    """Read a team sheet file.

    :raises SheetError: if the file cannot be read or is not a valid sheet.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SheetError(str(path), exc.strerror or str(exc)) from None
    return decode_sheet(data, str(path))


def validate_sheet(sheet: TeamSheet, source: str) -> None:
    """Check the rules a well-typed sheet must still follow.

    :raises SheetError: naming the source and the field at fault.
    """

    def fail(field: str, reason: str) -> None:
        raise SheetError(source, f"{field}: {reason}")

    if not sheet.units:
        fail("units", "a team needs at least one unit")
    seen: set[str] = set()
    for i, unit in enumerate(sheet.units):
        where = f"units[{i}] ({unit.id})"
        if not unit.id or not unit.id.replace("-", "").replace("_", "").isalnum():
            fail(f"units[{i}].id", "must be letters, digits, '-' or '_'")
        if unit.id in seen:
            fail(f"{where}.id", "two units share this id")
        seen.add(unit.id)
        if unit.characters < 1:
            fail(f"{where}.characters", "a unit has at least one character")
        if unit.green_coins < 0 or unit.grey_coins < 0 or unit.green_coins + unit.grey_coins < 1:
            fail(f"{where}.green_coins", "a unit needs at least one unit coin")
        if unit.role == "terrain" and unit.size != "medium":
            fail(f"{where}.size", "terrain pieces are Medium")
    if sheet.side == "heroes" and sheet.scenarios:
        fail("scenarios", "only an Adversary sheet sets up the board")
    if sheet.side == "adversaries" and not sheet.scenarios:
        fail("scenarios", "an Adversary sheet needs at least one scenario")
    for i, sc in enumerate(sheet.scenarios):
        where = f"scenarios[{i}] ({sc.id})"
        if sc.width < 2 or sc.height < 2 or sc.width % 2 or sc.height % 2:
            fail(f"{where}.width", "the board is made of two-by-two tiles: even sides, at least 2")
        for j, tile in enumerate(sc.tiles):
            c, r = tile.origin
            if c % 2 or r % 2 or not (0 <= c < sc.width and 0 <= r < sc.height):
                fail(f"{where}.tiles[{j}].origin", "must be a tile corner on the board")
        placed = {p.unit for p in sc.adversaries}
        for j, placement in enumerate(sc.adversaries):
            try:
                unit = sheet.unit(placement.unit)
            except KeyError:
                fail(f"{where}.adversaries[{j}].unit", f"no unit {placement.unit!r} on this sheet")
                continue
            if len(placement.squares) != unit.characters:
                fail(
                    f"{where}.adversaries[{j}].squares",
                    f"{unit.name} has {unit.characters} figure(s) but "
                    f"{len(placement.squares)} square(s) are given",
                )
        for unit in sheet.units:
            if unit.id not in placed:
                fail(f"{where}.adversaries", f"no starting squares for {unit.name}")


def _bundled_sources() -> Iterable[tuple[str, bytes]]:
    folder = resources.files("multiversus_core").joinpath("data").joinpath("teams")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            yield f"multiversus_core/data/teams/{entry.name}", entry.read_bytes()


@cache
def bundled_teams() -> tuple[TeamSheet, ...]:
    """Return the team sheets that ship with the library, Heroes first.

    :raises SheetError: if a bundled sheet is broken (a packaging bug).
    """
    sheets = [decode_sheet(data, source) for source, data in _bundled_sources()]
    sheets.sort(key=lambda s: (s.side != "heroes", s.id))
    ids = [s.id for s in sheets]
    for team_id in ids:
        if ids.count(team_id) > 1:
            raise SheetError(team_id, "two bundled teams share this id")
    return tuple(sheets)


def find_team(team_id: str) -> TeamSheet | None:
    """Return the bundled team with this id, or None."""
    for sheet in bundled_teams():
        if sheet.id == team_id:
            return sheet
    return None


DEFAULT_HEROES = "banner-knight"
"""The Hero team the command-line program offers by default."""
DEFAULT_ADVERSARIES = "smogon"
"""The Adversary team the command-line program offers by default."""
