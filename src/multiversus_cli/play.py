"""``multiversus play``: a match of any game at the terminal, a person or a bot in each seat.

The command reads its options into a :class:`~multiversus_cli.play_any.PlayRequest`
and hands it to the game's presenter (:mod:`multiversus_cli.presenters`):
any game is played through its ruleset (:mod:`multiversus_cli.play_any`),
Multiversus, the default game, by its own menus and guide
(:mod:`multiversus_cli.presenters.multiversus_play`). Its options
(``--heroes``, ``--player1`` and the like) are declared here, for its help,
and passed on as the request's game options. Every accepted command is
written to the match log before anything else happens, so quitting,
closing the input or pressing Ctrl-C leaves a log that ``--resume`` carries
on from.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.console import Console

from multiversus_cli.play_any import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PlayRequest,
    one_line,
)
from multiversus_cli.presenters import presenter_for
from multiversus_core.engine.errors import LogError, UnknownGameError
from multiversus_core.engine.log import first_line, game_of
from multiversus_core.engine.records import DEFAULT_GAME
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.text import printable

MULTIVERSUS_HEROES: Final = "banner-knight"
"""Multiversus' default Hero team, for the help (``tests/test_cli_layers.py`` holds it to the
catalog's)."""
MULTIVERSUS_ADVERSARIES: Final = "smogon"
"""Multiversus' default Adversary team, likewise."""
MULTIVERSUS_BOT: Final = "heuristic"
"""The bot ``bot`` stands for in Multiversus, and its default opponent in seat 2, likewise."""

EPILOG: Final = (
    "Exit codes: 0 the match ended, or you quit (q or Ctrl-D; the log is kept); "
    "1 the log could not be written; 2 bad options (unknown team, log exists or "
    "cannot be read); 130 interrupted with Ctrl-C (the log is kept)."
)


# --- the command ----------------------------------------------------------------


def play(
    game: Annotated[
        str,
        typer.Option(
            help="The game to play: multiversus, or another (multiversus games lists them).",
        ),
    ] = DEFAULT_GAME,
    players: Annotated[
        str | None,
        typer.Option(
            metavar="SPECS",
            help="Another game: who sits at each seat, by seat, comma-separated: human or "
            "one of the game's bots, mcts:N for N iterations a decision (default: human, "
            "then random).",
            show_default=False,
        ),
    ] = None,
    names: Annotated[
        str | None,
        typer.Option(
            metavar="NAMES",
            help="Another game: the players' names, by seat, comma-separated.",
            show_default=False,
        ),
    ] = None,
    heroes: Annotated[
        str | None,
        typer.Option(
            help=f"Id of the Hero team. (default: {MULTIVERSUS_HEROES})", show_default=False
        ),
    ] = None,
    adversaries: Annotated[
        str | None,
        typer.Option(
            help=f"Id of the Adversary team. (default: {MULTIVERSUS_ADVERSARIES})",
            show_default=False,
        ),
    ] = None,
    scenario: Annotated[
        str | None,
        typer.Option(help="Id of a scenario on the Adversary sheet. (default: its first)"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed for every die roll and coin flip, public in the log, so that the match "
            "can be played again. (default: a fresh secret seed, committed to in the log and "
            "revealed at the end)"
        ),
    ] = None,
    log: Annotated[
        Path | None,
        typer.Option(
            help="Where to save the match log. (default: ./multiversus-YYYYmmdd-HHMMSS.jsonl)",
            dir_okay=False,
        ),
    ] = None,
    player1: Annotated[
        str,
        typer.Option(
            help="Who plays seat 1: human, or a bot (random, heuristic, mcts, mcts:N "
            f"iterations, or an installed one); bot means {MULTIVERSUS_BOT}."
        ),
    ] = "human",
    player2: Annotated[
        str, typer.Option(help="Who plays seat 2, as for --player1.")
    ] = MULTIVERSUS_BOT,
    name1: Annotated[
        str | None, typer.Option(help="Name of seat 1. (default: Player 1, or Bot)")
    ] = None,
    name2: Annotated[
        str | None, typer.Option(help="Name of seat 2. (default: Player 2, or Bot)")
    ] = None,
    bot_seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the bots' own choices, never the match's chance. (default: random)"
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Carry on a match from its log, appending to it. The log fixes teams, "
            "seed and names; --player1/--player2/--bot-seed say who plays on.",
            dir_okay=False,
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "--fast", help="Two bots only: print just the result."),
    ] = False,
    delay: Annotated[
        float,
        typer.Option(
            "--delay",
            metavar="SECONDS",
            help="Two bots only: wait this long after each move, to watch the match.",
            show_default=False,
        ),
    ] = 0.0,
    start: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="POSITION",
            help="Start the match from a position (as `multiversus replay --as referee --to N` "
            "shows one); its game is the position's. The match gets fresh secret chance "
            "unless --seed is given.",
            show_default=False,
        ),
    ] = None,
    seeded_salts: Annotated[
        bool,
        typer.Option(
            "--seeded-salts",
            help="Derive the salts of the secret commitments from the seed, so the same seed "
            "and choices give the same log byte for byte. Such a log is marked not secret: "
            "anyone who knows the seed can open its commitments. (default: fresh salts)",
        ),
    ] = False,
) -> None:
    """Play a match: you against a bot, two people at one screen, or two bots.

    Each decision lists the legal choices by number; type one. A coin selection takes
    three steps, the unit coin, its action coins, then Enter commits it (0 goes back).
    Moving, a step has a fixed key (n, ne, e, ... nw) and m 4,6 sends a figure to (4,6)
    by its shortest legal path. At any prompt, ?
    explains the decision in front of you and h lists the keys. The log is saved as
    the match goes, so a match can be stopped and carried on with --resume.

    Examples:

    multiversus play

    multiversus play --seed 7 --player2 human --name1 Alice --name2 Bob

    multiversus play --player1 bot --player2 bot --seed 7 --quiet

    multiversus play --player1 bot --player2 bot --delay 0.5

    multiversus play --resume multiversus-20250101-120000.jsonl

    multiversus play --from "tiles-d6/1 phase=deploy ..." --players human,random
    """
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if resume is not None and game == DEFAULT_GAME and resume.is_file():
        with contextlib.suppress(LogError):  # resuming it says what is wrong with it
            game = game_of(first_line(str(resume)))  # a log names its game
    if start is not None and game == DEFAULT_GAME:
        game = start.strip().partition(" ")[0].partition("/")[0] or game  # a position names it
    request = PlayRequest(
        players=players,
        names=names,
        seed=seed,
        log=log,
        resume=resume,
        bot_seed=bot_seed,
        quiet=quiet,
        delay=delay,
        seeded_salts=seeded_salts,
        start=start,
        game_options={
            "heroes": heroes,
            "adversaries": adversaries,
            "scenario": scenario,
            "name1": name1,
            "name2": name2,
            "player1": player1,
            "player2": player2,
        },
    )
    try:
        presenter = presenter_for(game)
        load_ruleset(game)
    except UnknownGameError as exc:
        err.print(printable(f"multiversus play: {one_line(exc)}"), markup=False)
        raise typer.Exit(EXIT_USAGE) from None
    raise typer.Exit(presenter.play(out, err, game, request))


__all__ = [
    "EPILOG",
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "play",
]
