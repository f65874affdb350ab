"""``multiversus games``: the games this engine plays, bundled and offered by packages."""

from __future__ import annotations

import importlib.metadata
import json
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from multiversus_core.engine.registry import BUNDLED, ENTRY_POINT_GROUP, game_ids, load_ruleset
from multiversus_core.engine.text import printable


class GamesFormat(StrEnum):
    """How ``games`` prints the list."""

    table = "table"
    json = "json"


def describe(game: str) -> dict[str, Any]:
    """One game's id, name, number of seats and where it comes from (its problem, if it
    cannot be loaded)."""
    if game in BUNDLED:
        source = "bundled"
    else:
        points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=game)
        source = next((f"package ({point.value})" for point in points), "package")
    try:
        ruleset = load_ruleset(game)
        seats = len(ruleset.table(ruleset.settings_type()).players)
    except Exception as exc:  # a package's broken game is listed, with why
        return {"id": game, "title": None, "seats": None, "source": source, "problem": str(exc)}
    return {"id": game, "title": ruleset.title, "seats": seats, "source": source, "problem": None}


def games(
    output: Annotated[
        GamesFormat,
        typer.Option(
            "--format",
            help="table: for people; json: one object a game, for scripts.",
            case_sensitive=False,
        ),
    ] = GamesFormat.table,
) -> None:
    """List the games: the bundled ones and those installed packages offer.

    A package offers a game through the multiversus.rulesets entry point group
    (docs/engine.md). A log names its game, so verify needs no option for it.
    Exit status 1 if an installed game cannot be loaded (it is listed, with why).
    """
    found = [describe(game) for game in game_ids()]
    if output is GamesFormat.json:
        print(json.dumps(found, indent=2))
    else:
        table = Table("id", "game", "seats", "from", box=None, header_style="bold")
        for game in found:
            name = game["title"] or f"cannot be loaded: {game['problem']}"
            seats = "" if game["seats"] is None else str(game["seats"])
            cells = (game["id"], name, seats, game["source"])
            table.add_row(*(Text(printable(cell)) for cell in cells))
        Console(highlight=False).print(table)
    raise typer.Exit(1 if any(game["problem"] for game in found) else 0)


__all__ = ["games"]
