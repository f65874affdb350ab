"""``multiversus teams``: the installed teams, one team's sheet, and checking sheet files.

A team sheet is public information, so ``teams show`` prints all of it: the
units, their abilities with the rules text, the scenarios, the win conditions
and which set-up secrets the player chooses (never a choice, which only
exists in a match).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final

import typer
from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from multiversus_cli.usage import no_such_file
from multiversus_core.engine.errors import SheetError
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.multiversus import abilities
from multiversus_core.rulesets.multiversus.catalog import (
    check_id_free,
    check_pairings,
    installed_teams,
    invalid_teams,
    missing_team,
)
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.sheets import TeamSheet, load_sheet

EXIT_OK: Final = 0
"""Done; for ``validate``, every file is a valid sheet."""
EXIT_INVALID: Final = 1
"""``validate``: a file is missing or not a valid sheet; otherwise an installed sheet is invalid."""
EXIT_USAGE: Final = 2
"""An unknown team id."""

EPILOG: Final = (
    "Exit codes: 0 done (validate: every file is valid); 1 validate found a missing "
    "or invalid file, or an installed team is invalid; 2 an unknown team id."
)

_SIDE_NAMES: Final = {"heroes": "Heroes", "adversaries": "Adversaries"}

teams = typer.Typer(
    name="teams",
    no_args_is_help=False,
    add_completion=False,
)


def _out() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _fail(command: str, message: str, code: int) -> typer.Exit:
    """Print a one-line error on stderr and return the exit to raise."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"multiversus {command}: {' '.join(printable(message).split())}", markup=False
    )
    return typer.Exit(code)


def _installed(command: str) -> tuple[TeamSheet, ...]:
    try:
        return installed_teams()
    except SheetError as exc:
        raise _fail(command, f"an installed team is broken: {exc}", EXIT_INVALID) from None


@teams.callback(invoke_without_command=True, epilog=EPILOG)
def list_teams(ctx: typer.Context) -> None:
    """List the installed teams, show a team's sheet, or check team sheet files.

    Without a command, list the installed teams: id, name, side and units, one line each;
    a sheet another package offers that is invalid is listed with what is wrong (exit 1).

    Examples:

    multiversus teams

    multiversus teams show smogon

    multiversus teams validate my-team.toml
    """
    if ctx.invoked_subcommand is not None:
        return
    table = Table(title="Installed teams", title_justify="left")
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("name")
    table.add_column("side", no_wrap=True)
    table.add_column("units")
    for sheet in _installed("teams"):
        units = ", ".join(unit_label(unit.name, unit.characters) for unit in sheet.units)
        table.add_row(
            Text(printable(sheet.id)),
            Text(printable(sheet.name)),
            _SIDE_NAMES[sheet.side],
            Text(printable(units)),
        )
    invalid = invalid_teams()
    for error in invalid:
        table.add_row(Text(printable(error.team or "?")), Text("invalid (see below)", style="red"))
    out = _out()
    out.print(table)
    for error in invalid:
        out.print(Text(f"invalid: {' '.join(printable(str(error)).split())}", style="red"))
    if invalid:
        raise typer.Exit(EXIT_INVALID)


@teams.command("show", epilog=EPILOG)
def show(
    team_id: Annotated[
        str, typer.Argument(metavar="ID", help="Id of an installed team (see: multiversus teams).")
    ],
) -> None:
    """Show a team's sheet as players read it: units, abilities, scenarios, secrets.

    Examples:

    multiversus teams show banner-knight

    multiversus teams show swartzblak
    """
    sheets = _installed("teams show")
    for sheet in sheets:
        if sheet.id == team_id:
            break
    else:
        reason = missing_team(team_id)
        if reason.startswith("the installed team"):
            raise _fail("teams show", reason, EXIT_INVALID)
        known = ", ".join(s.id for s in sheets)
        raise _fail("teams show", f"{reason}; installed: {known}", EXIT_USAGE)
    out = _out()
    for line in sheet_lines(sheet):
        if out.is_terminal:  # wrapped between words, each paragraph keeping its indent
            out.print(indented(line), soft_wrap=False)
        else:  # piped: one line per paragraph, for grep and for pasting
            out.print(line)


@teams.command("validate", epilog=EPILOG)
def validate(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE", help="Team sheet files (TOML) to check.", show_default=False
        ),
    ],
) -> None:
    """Check team sheet files: print "ok", or every problem naming its field, for each.

    A valid sheet is within the limits of docs/teams.md and sets up: with every
    installed team of the other side, in every scenario. Exits 0 if every file
    is a valid sheet, 1 otherwise, 2 if a file is missing.

    Examples:

    multiversus teams validate my-team.toml

    multiversus teams validate sheets/*.toml
    """
    for path in files:
        if path.is_dir():
            raise _fail("teams validate", f"{path}: a folder, not a file", EXIT_USAGE)
        if not path.is_file():
            raise _fail("teams validate", no_such_file(path), EXIT_USAGE)
    out = _out()
    failed = False
    others = _installed("teams validate")
    for path in files:
        try:
            sheet = load_sheet(path)
            # The installed copy of this very sheet is not another team to pair with.
            check_pairings(sheet, [t for t in others if t.id != sheet.id], str(path))
            check_id_free(sheet, others, str(path))
        except SheetError as exc:
            failed = True
            for problem in exc.problems:  # every one, each on its line
                line = f"{exc.source}: {problem}"
                out.print(Text(" ".join(printable(line).split()), style="red"))
        else:
            out.print(Text(printable(f"{path}: ok ({sheet.id}, {_SIDE_NAMES[sheet.side]})")))
    raise typer.Exit(EXIT_INVALID if failed else EXIT_OK)


# --- the sheet as text ----------------------------------------------------------------


def indented(line: Text) -> RenderableType:
    """A line whose leading spaces are an indent: wrapped between words, every line of it at
    that indent (a terminal wrapping it itself breaks words and starts again at column 0)."""
    depth = len(line.plain) - len(line.plain.lstrip(" "))
    if depth == 0:
        return line
    return Padding(line.divide([depth])[1], (0, 0, 0, depth))


def unit_label(name: str, characters: int) -> str:
    """Return a unit's name with its number of characters when it has more than one."""
    return f"{name} ×{characters}" if characters > 1 else name


def sheet_lines(sheet: TeamSheet) -> list[Text]:
    """Return a team sheet as the lines players read, styled for rich, names :func:`printable`."""
    lines: list[Text] = [
        Text.assemble(
            (printable(sheet.name), "bold"), f" ({printable(sheet.id)}), {_SIDE_NAMES[sheet.side]}"
        )
    ]
    if sheet.description:
        lines.append(Text(printable(sheet.description), style="italic"))
    lines.append(Text())
    lines.append(Text("Units", style="bold underline"))
    for unit in sheet.units:
        what = "terrain piece" if unit.role == "terrain" else "character"
        what += "" if unit.characters == 1 else "s"
        if unit.role == "terrain":
            blocks = "blocking" if unit.blocking else "not blocking"
            hides = "obscuring" if unit.obscuring else "not obscuring"
            body = f"{unit.characters} {what}, {blocks}, {hides}"
        else:
            body = f"{unit.characters} {what}, {unit.size.capitalize()}"
        coins = f"{unit.green_coins} green + {unit.grey_coins} grey unit coins"
        lines.append(
            Text.assemble(
                "  ",
                (printable(unit.name), "bold"),
                printable(f" ({unit.id}), {unit.role}: {body}; {coins}"),
            )
        )
        for name in unit.abilities:
            ability = abilities.REGISTRY.get(name)
            if ability is None:  # an installed sheet is validated; this is defensive
                lines.append(Text(printable(f"    {name}: (not registered)"), style="red"))
                continue
            text = ability.text or "(no rules text)"
            lines.append(Text.assemble("    ", (abilities.title(ability), "cyan"), f": {text}"))
    if sheet.scenarios:
        lines.append(Text())
        lines.append(Text("Scenarios", style="bold underline"))
        for scenario in sheet.scenarios:
            tiles = printable(", ".join(sorted({tile.terrain for tile in scenario.tiles})))
            extra = f"; special tiles: {tiles}" if tiles else ""
            lines.append(
                Text.assemble(
                    "  ",
                    (printable(scenario.name), "bold"),
                    f" ({printable(scenario.id)}): "
                    f"a {scenario.width}×{scenario.height} board{extra}",
                )
            )
    if sheet.secrets:
        lines.append(Text())
        lines.append(Text("Set-up secrets", style="bold underline"))
        for secret in sheet.secrets:
            options = printable(", ".join(secret.options))
            lines.append(
                Text.assemble(
                    "  ",
                    (printable(secret.name), "bold"),
                    f" (secret {secret.kind}; one of {options})",
                )
            )
            if secret.text:
                lines.append(Text(f"    {printable(secret.text)}"))
    if sheet.win_conditions:
        lines.append(Text())
        lines.append(
            Text("Win conditions (checked after round 6, in order)", style="bold underline")
        )
        for name in sheet.win_conditions:
            registered = WIN_CONDITIONS.get(name)
            text = registered[0] if registered is not None else "(not registered)"
            lines.append(Text.assemble("  ", (printable(name), "bold"), f": {text}"))
        lines.append(Text(f"  {NO_WINNER}"))
    return lines


NO_WINNER: Final = "If no win condition names a winner after round 6, the match is a draw."
"""How a match no win condition decides ends (rulebook: Scoring), as sheets print it."""


__all__ = [
    "EPILOG",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_USAGE",
    "list_teams",
    "sheet_lines",
    "show",
    "teams",
    "unit_label",
    "validate",
]
