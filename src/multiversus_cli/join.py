"""``multiversus join LINK``: play one seat of a match a referee holds, as a person or a bot.

The seat's view log is written to ``--log`` as the match goes. A person
decides at the terminal through the game's own screens and menus, as in
``multiversus play``, drawn from the state the view log fills in (never the
referee's); a bot is given the seat's view and legal commands only. When the
match is over, the referee publishes the match log; the client verifies it
and holds its own view log to it, and the exit status says whether that
cross-check passed (0) or failed (1).
"""

from __future__ import annotations

import secrets
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Final, NoReturn, cast

import typer
from rich.console import Console
from rich.text import Text

from multiversus_cli import transcript
from multiversus_cli.play_any import HUMAN, Decision, Quit, Terminal, one_line
from multiversus_cli.presenters import presenter_for
from multiversus_cli.usage import program
from multiversus_core.engine.bots import Bot, UnknownBotError, bot_maker
from multiversus_core.engine.choices import is_tree
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.text import printable

EXIT_PASSED: Final = 0
"""The match is over and the cross-check passed."""
EXIT_FAILED: Final = 1
"""The cross-check failed: the referee's published log, or its history, is not what it sent."""
EXIT_USAGE: Final = 2
"""A bad link or option, a referee that cannot be reached, or a player who left."""
EXIT_INTERRUPTED: Final = 130
"""Ctrl-C: the view log is kept as far as it went (128 + SIGINT)."""
EPILOG: Final = (
    "Example: multiversus join http://127.0.0.1:8765/join/TOKEN --player mcts --log seat.jsonl"
)


class Player:
    """Decides for the seat: a person at the terminal, through the game's own screens and
    menus (its presenter's :meth:`~multiversus_cli.presenters.Presenter.terminal`, as at
    ``multiversus play``), or one of the game's bots; each made at the first decision, once
    the game is known."""

    def __init__(self, spec: str, seed: int, out: Console) -> None:
        self.spec = spec
        self.seed = seed
        self.out = out
        self.bot: Bot | None = None
        self.terminal: Terminal | None = None

    def __call__(self, position: Any) -> Any:
        ruleset = position.ruleset
        if self.spec == HUMAN:
            if self.terminal is None:
                self.terminal = presenter_for(ruleset.id).terminal()
            legal = position.legal
            listed = legal if is_tree(legal) else tuple(cast(Sequence[Any], legal))
            decision = Decision(
                ruleset, position.state, position.seat, listed, position.names, position.history
            )
            return self.terminal.choose(decision, self.out, input)
        if self.bot is None:
            try:
                maker = bot_maker(ruleset.bots, self.spec)
            except UnknownBotError:
                known = ", ".join([HUMAN, *ruleset.bots])
                raise ValueError(
                    f"--player: no player {self.spec!r} in {ruleset.title}: {known}"
                ) from None
            except ValueError as exc:
                raise ValueError(f"--player: {exc}") from None
            self.bot = maker(self.seed)
        view = ruleset.view(position.state, position.viewer)
        return self.bot.choose(view, position.legal)


def join(
    link: Annotated[str, typer.Argument(help="The seat's (or the spectators') secret link.")],
    log: Annotated[Path, typer.Option(help="Where the seat's view log is written.")],
    player: Annotated[
        str,
        typer.Option(
            help="human (you, at the terminal) or one of the game's bots (mcts, mcts:N ...)."
        ),
    ] = HUMAN,
    bot_seed: Annotated[
        int | None, typer.Option(help="The bot's seed (fresh by default).", min=0)
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Tell only the verdict, not each entry.")] = False,
) -> None:
    """Play one seat of a match a referee holds, as a person or a bot.

    The seat's view log is written to --log as the match goes. When the match is over the
    referee publishes the match log; it is verified and the view log held to it. Exit status
    0 when that cross-check passed, 1 when it failed, 2 when the match could not be played.
    """
    try:
        from multiversus_server.client import JoinError, RefereeCaught, SeatClient, Told, run
    except ImportError as error:
        _fail(f"join needs the serve extra (pip install 'multiversus[serve]'): {error}")
    out = Console(highlight=False)
    spec = player.strip().lower()
    decide = Player(spec, secrets.randbits(32) if bot_seed is None else bot_seed, out)

    def watch(told: Told) -> None:
        if quiet and spec != HUMAN:
            return
        ruleset = told.ruleset
        said = transcript.tell(ruleset, told.settings, told.before, told.entry, told.viewer)
        out.print(Text(printable(said.command)))
        for line in said.events:
            out.print(Text(printable(f"   {line}")))

    def notice(text: str) -> None:
        print(printable(f"multiversus join: {text}"), file=sys.stderr)

    try:
        client = SeatClient(link, log, decide, notice=notice, watch=watch)
        verdict = run(client)
    except RefereeCaught as error:
        print(printable(f"multiversus join: the cross-check failed: {one_line(error)}"))
        raise typer.Exit(EXIT_FAILED) from None
    except (JoinError, ValueError) as error:
        _fail(one_line(error))
    except Quit:
        _fail(f"you left the match; {_carry_on(link, log)}")
    except KeyboardInterrupt:
        print(printable(f"multiversus join: interrupted; {_carry_on(link, log)}"), file=sys.stderr)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    terminal = decide.terminal
    if terminal is not None and verdict.ok:
        # A person's terminal closes the match as at play, from the seat's own view log (it
        # agrees with the published match log): the board as it ended, and how it ended.
        shown, state, _ = client.position()
        terminal.finish(load_ruleset(shown.game), state, out, quiet=False)
    elif verdict.outcome:
        out.print(Text(printable(f"The match is over: {verdict.outcome}."), style="bold"))
    if verdict.ok:
        out.print(
            Text(
                printable(
                    f"The cross-check passed: the published match log ({verdict.entries} "
                    f"entries) verifies and agrees with the view log in {log}."
                )
            )
        )
        raise typer.Exit(EXIT_PASSED)
    for problem in verdict.problems:
        out.print(Text(printable(f"The cross-check failed: {problem}")), style="bold red")
    raise typer.Exit(EXIT_FAILED)


def _carry_on(link: str, log: Path) -> str:
    """Where the view log is kept, and the command that carries the seat on."""
    again = shlex.join([program(), "join", link, "--log", str(log)])
    return f"the view log is kept in {log}, and `{again}` carries it on"


def _fail(message: str) -> NoReturn:
    print(printable(f"multiversus join: {message}"), file=sys.stderr)
    raise typer.Exit(EXIT_USAGE)


__all__ = ["join"]
