"""The installed teams: the bundled sheets and those other packages offer.

Packages offer teams through the ``multiversus.teams`` entry point group
(``docs/teams.md``); a sheet is accepted only if it is valid, its id is
free, and it sets up against every installed team of the other side.
The bundled teams' abilities and win conditions must be registered first
(:func:`multiversus_core.rulesets.multiversus.teams.register_bundled`, which
loading the ruleset does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache
from importlib import resources
from os import PathLike
from typing import Final, TypeAlias

from multiversus_core.engine.datafile import convert_struct, offered
from multiversus_core.engine.errors import IllegalCommandError, SheetError
from multiversus_core.rulesets.multiversus.layout import lay_out
from multiversus_core.rulesets.multiversus.sheets import (
    ENTRY_POINT_GROUP,
    TeamSheet,
    decode_sheet,
    load_sheet,
    validate_sheet,
)

BUNDLED_FOLDER: Final = "multiversus_core/rulesets/multiversus/data/teams"
"""Where the bundled sheets are, as sources name them."""


def _bundled_sources() -> Iterable[tuple[str, bytes]]:
    folder = resources.files("multiversus_core.rulesets.multiversus").joinpath("data", "teams")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            yield f"{BUNDLED_FOLDER}/{entry.name}", entry.read_bytes()


@cache
def bundled_teams() -> tuple[TeamSheet, ...]:
    """Return the team sheets that ship with the library, Heroes first.

    (That every two of them set up together is checked by the tests, not at
    each start.)

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


def check_id_free(sheet: TeamSheet, installed: Iterable[TeamSheet], source: str) -> None:
    """Check that the sheet's id is not taken by another installed team.

    Its own installed copy (an equal sheet) may hold the id, and so may an
    installed team of the same side that this sheet would replace; a bundled
    team's id, or one a team of the other side holds, is never free, as
    :func:`installed_teams` refuses such a sheet.

    :raises SheetError: naming the ``id`` field and the team that holds it.
    """
    bundled = {s.id for s in bundled_teams()}
    for other in installed:
        if other.id != sheet.id or other == sheet:
            continue
        if other.id in bundled or other.side != sheet.side:
            raise SheetError(
                source,
                f"id: the team id {sheet.id!r} is taken by the installed team {other.name!r}",
                sheet.id,
            )


def check_pairings(sheet: TeamSheet, others: Iterable[TeamSheet], source: str) -> None:
    """Check that the sheet sets up against every sheet of the other side in ``others``.

    Each pairing is laid out as the set-up lays it out (every Hero figure must
    find room in each scenario's ``heroes`` squares, Large figures included,
    and no two units or figures may share an id).

    :raises SheetError: naming the field at fault and the other team.
    """
    for other in others:
        if other.side == sheet.side:
            continue
        heroes, adversaries = (sheet, other) if sheet.side == "heroes" else (other, sheet)
        for i, scenario in enumerate(adversaries.scenarios):
            try:
                lay_out(heroes, adversaries, scenario)
            except IllegalCommandError as exc:
                if sheet is adversaries:
                    field = f"scenarios[{i}] ({scenario.id}).heroes"
                    against = f"with the Hero team {heroes.id!r}"
                else:
                    field = "units"
                    against = f"in the scenario {scenario.id!r} of {adversaries.id!r}"
                raise SheetError(source, f"{field}: {against}: {exc}", sheet.id) from None


TeamProvider: TypeAlias = Callable[[], Iterable[TeamSheet | str | PathLike[str]]]
"""What a ``multiversus.teams`` entry point loads to: a callable returning sheets or
paths of TOML sheet files."""


def _entry_point_sheets() -> Iterator[tuple[str, TeamSheet] | SheetError]:
    """Yield (source, sheet) for every sheet the installed entry points offer, or the error.

    Loading an entry point imports its module, which registers the team's
    abilities and win conditions before its sheets are validated. An entry
    point that cannot be loaded, is not callable, fails, or offers something
    that is not a valid sheet yields a :class:`SheetError` naming it.
    """
    return offered(ENTRY_POINT_GROUP, TeamSheet, "team", load_sheet, _checked, SheetError)


def _checked(sheet: TeamSheet, source: str) -> TeamSheet:
    """Return a sheet built in Python, its field types checked as if read from TOML, validated.

    :raises SheetError: naming the source and the field at fault.
    """
    checked = convert_struct(sheet, TeamSheet, source, "sheet", SheetError)
    validate_sheet(checked, source)
    return checked


_INVALID: Final[list[SheetError]] = []
"""The errors of the entry points' sheets left out of :func:`installed_teams`'s last answer."""


@cache
def installed_teams() -> tuple[TeamSheet, ...]:
    """Return the bundled teams and the valid teams of the ``multiversus.teams`` entry points.

    Heroes first, then by id. An entry point's sheet is left out (and listed by
    :func:`invalid_teams`) if it is invalid, takes an id already taken, or does
    not set up against a team of the other side installed before it (bundled
    teams first). The result is cached; call ``installed_teams.cache_clear()``
    after installing a package during a session.

    :raises SheetError: if a bundled sheet is broken (a packaging bug).
    """
    accepted = list(bundled_teams())
    sources = {sheet.id: f"{BUNDLED_FOLDER} ({sheet.id})" for sheet in accepted}
    invalid: list[SheetError] = []
    for found in _entry_point_sheets():
        if isinstance(found, SheetError):
            invalid.append(found)
            continue
        source, sheet = found
        if sheet.id in sources:
            reason = f"id: the team id {sheet.id!r} is taken by {sources[sheet.id]}"
            invalid.append(SheetError(source, reason, sheet.id))
            continue
        try:
            check_pairings(sheet, accepted, source)
        except SheetError as exc:
            invalid.append(exc)
            continue
        sources[sheet.id] = source
        accepted.append(sheet)
    _INVALID[:] = invalid
    accepted.sort(key=lambda s: (s.side != "heroes", s.id))
    return tuple(accepted)


def invalid_teams() -> tuple[SheetError, ...]:
    """Return why each sheet the entry points offer was left out of :func:`installed_teams`.

    Each error names its source and, when the sheet could be read that far,
    the team id it claims (``team``).
    """
    installed_teams()
    return tuple(_INVALID)


def find_team(team_id: str) -> TeamSheet | None:
    """Return the installed team with this id, or None.

    :raises SheetError: as :func:`installed_teams`.
    """
    for sheet in installed_teams():
        if sheet.id == team_id:
            return sheet
    return None


def missing_team(team_id: str) -> str:
    """Return why no installed team has this id: unknown, or offered but invalid."""
    for error in invalid_teams():
        if error.team == team_id:
            return f"the installed team {team_id!r} is invalid: {error}"
    return f"no team {team_id!r} is installed"


DEFAULT_HEROES = "banner-knight"
"""The Hero team the command-line program offers by default."""
DEFAULT_ADVERSARIES = "smogon"
"""The Adversary team the command-line program offers by default."""
