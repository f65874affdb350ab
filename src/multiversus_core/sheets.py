"""Team sheets: units, terrain pieces and scenarios, read from data files.

Rulebook: *Teams*, *Coins*; rulings R1, R2, R17, R23. A sheet is public
information (the choices of its set-up secrets are not). Sheets are TOML
files decoded by msgspec into the typed structs below and then checked by
:func:`validate_sheet`; every problem names the file and the field.

The installed teams are the bundled ones plus those other packages offer
through the entry point group ``multiversus.teams`` (:func:`installed_teams`).
``docs/teams.md`` describes the format and how to write a team.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Final, Literal, NoReturn, Protocol, TypeAlias

import msgspec

from multiversus_core.abilities import REGISTRY
from multiversus_core.errors import SheetError
from multiversus_core.scoring import WIN_CONDITIONS
from multiversus_core.terms import Side, Size, Square

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


def load_sheet(path: str | PathLike[str]) -> TeamSheet:
    """Read a team sheet file.

    :raises SheetError: if the file cannot be read or is not a valid sheet.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SheetError(str(path), exc.strerror or str(exc)) from None
    return decode_sheet(data, str(path))


class _Fail(Protocol):
    def __call__(self, field: str, reason: str) -> NoReturn: ...


def validate_sheet(sheet: TeamSheet, source: str) -> None:
    """Check the rules a well-typed sheet must still follow.

    :raises SheetError: naming the source and the field at fault.
    """

    def fail(field: str, reason: str) -> NoReturn:
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
        if unit.role not in ROLES:
            fail(f"{where}.role", f"must be one of {', '.join(ROLES)}, not {unit.role!r}")
        if unit.role == "terrain" and unit.size != "medium":
            fail(f"{where}.size", "terrain pieces are Medium")
        for j, ability in enumerate(unit.abilities):
            if ability not in REGISTRY:
                fail(
                    f"{where}.abilities[{j}]",
                    f"{unit.name} names the ability {ability!r}, which is not registered",
                )
        if ("Large" in unit.abilities) != (unit.size == "large"):
            fail(f"{where}.size", 'a unit is size = "large" exactly when it has Large')
    if sheet.side == "heroes" and sheet.scenarios:
        fail("scenarios", "only an Adversary sheet sets up the board")
    if sheet.side == "heroes" and sheet.win_conditions:
        fail("win_conditions", "only an Adversary sheet names win conditions")
    for i, condition in enumerate(sheet.win_conditions):
        if condition not in WIN_CONDITIONS:
            fail(f"win_conditions[{i}]", f"no win condition {condition!r} is registered")
    _validate_secrets(sheet, fail)
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
        for j, square in enumerate(sc.heroes):
            if not (0 <= square[0] < sc.width and 0 <= square[1] < sc.height):
                fail(f"{where}.heroes[{j}]", f"{list(square)} is not on the board")


def figure_ids(sheet: TeamSheet) -> tuple[str, ...]:
    """Return the ids a sheet's figures get in a match: the unit id, or ``<unit>-<n>`` from 1.

    (A unit whose id clashes with a Hero unit's is qualified by its team id in
    the match; :func:`multiversus_core.abilities.secret_figure` allows for it.)
    """
    ids: list[str] = []
    for unit in sheet.units:
        if unit.characters == 1:
            ids.append(unit.id)
        else:
            ids.extend(f"{unit.id}-{i}" for i in range(1, unit.characters + 1))
    return tuple(ids)


def _validate_secrets(sheet: TeamSheet, fail: _Fail) -> None:
    names: set[str] = set()
    figures = figure_ids(sheet)
    for i, secret in enumerate(sheet.secrets):
        where = f"secrets[{i}] ({secret.name})"
        if not secret.name:
            fail(f"secrets[{i}].name", "a secret needs a name")
        if secret.name in names:
            fail(f"{where}.name", "two secrets share this name")
        names.add(secret.name)
        if not secret.options:
            fail(f"{where}.options", "a secret needs at least one option")
        for j, option in enumerate(secret.options):
            if option in secret.options[:j]:
                fail(f"{where}.options[{j}]", f"{option!r} is listed twice")
            if secret.kind == "identity" and option not in figures:
                fail(
                    f"{where}.options[{j}]",
                    f"a hidden identity names a figure of this sheet ({', '.join(figures)}), "
                    f"not {option!r}",
                )


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
    sources = [(source, decode_sheet(data, source)) for source, data in _bundled_sources()]
    return _unique(sources)


def _unique(sources: Iterable[tuple[str, TeamSheet]]) -> tuple[TeamSheet, ...]:
    """Return the sheets Heroes first, then by id.

    :raises SheetError: naming the later source if two sheets share an id.
    """
    seen: dict[str, str] = {}
    sheets: list[TeamSheet] = []
    for source, sheet in sources:
        if sheet.id in seen:
            raise SheetError(source, f"id: the team id {sheet.id!r} is taken by {seen[sheet.id]}")
        seen[sheet.id] = source
        sheets.append(sheet)
    sheets.sort(key=lambda s: (s.side != "heroes", s.id))
    return tuple(sheets)


TeamProvider: TypeAlias = Callable[[], Iterable[TeamSheet | str | PathLike[str]]]
"""What a ``multiversus.teams`` entry point loads to: a callable returning sheets or
paths of TOML sheet files."""


def _entry_point_sheets() -> Iterator[tuple[str, TeamSheet]]:
    """Yield (source, sheet) for every sheet the installed entry points offer.

    Loading an entry point imports its module, which registers the team's
    abilities and win conditions before its sheets are validated.

    :raises SheetError: naming the entry point if it cannot be loaded, is
        not callable, fails, or offers something that is not a sheet.
    """
    import importlib.metadata  # slow to import: only when sheets are first listed

    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        source = f"entry point {point.name!r} ({point.value})"
        try:
            provider = point.load()
        except Exception as exc:
            raise SheetError(source, f"cannot be loaded: {exc}") from exc
        if not callable(provider):
            raise SheetError(source, "loads to something that is not callable")
        try:
            items = list(provider())
        except Exception as exc:
            raise SheetError(source, f"failed to list its teams: {exc}") from exc
        for i, item in enumerate(items):
            if isinstance(item, TeamSheet):
                where = f"{source}, team {i} ({item.id})"
                validate_sheet(item, where)
                yield where, item
            elif isinstance(item, str | PathLike):
                yield str(item), load_sheet(item)
            else:
                raise SheetError(
                    source, f"team {i} is a {type(item).__name__}, not a TeamSheet or a path"
                )


@cache
def installed_teams() -> tuple[TeamSheet, ...]:
    """Return the bundled teams and those of the ``multiversus.teams`` entry points, Heroes first.

    The result is cached; call ``installed_teams.cache_clear()`` after
    installing a package during a session.

    :raises SheetError: if a sheet is broken, an entry point fails, or two
        teams share an id (naming the later one's source).
    """
    bundled = [(f"multiversus_core/data/teams ({sheet.id})", sheet) for sheet in bundled_teams()]
    return _unique([*bundled, *_entry_point_sheets()])


def find_team(team_id: str) -> TeamSheet | None:
    """Return the installed team with this id, or None.

    :raises SheetError: as :func:`installed_teams`.
    """
    for sheet in installed_teams():
        if sheet.id == team_id:
            return sheet
    return None


DEFAULT_HEROES = "banner-knight"
"""The Hero team the command-line program offers by default."""
DEFAULT_ADVERSARIES = "smogon"
"""The Adversary team the command-line program offers by default."""
