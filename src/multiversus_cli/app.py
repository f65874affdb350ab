"""The ``multiversus`` Typer app: one module per command, combined here.

A command's module (and with it rich and the rules) is imported only when
that command runs or shows its help, so ``multiversus --help`` starts about
as fast as Typer itself: the root help is plain text and lists each
command's one-line help from :data:`COMMANDS` (a test checks that it agrees
with the commands' own).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer
from typer.core import TyperGroup

from multiversus_cli import usage

if TYPE_CHECKING:
    # The types TyperGroup's methods take (Typer ships its own copy of click).
    from typer._click import Context, HelpFormatter

COMMANDS: Final[dict[str, str]] = {
    "play": "Play a match: you against a bot, two people at one screen, or two bots.",
    "verify": "Verify match logs: their chain, their commitments and their events.",
    "replay": "Replay a match log as one side, the public or the referee saw it.",
    "diff": "Compare two match logs: the settings, then entry by entry, up to the first "
    "difference.",
    "teams": "List the installed teams, show a team's sheet, or check team sheet files.",
    "rules": "The rules on one screen: how to win, coins, reactions, the Initiative, the rounds.",
    "simulate": "Play many bot matches of a game over a grid, and summarise them.",
    "games": "List the games: the bundled ones and those installed packages offer.",
    "serve": "Run a referee for matches of any installed game, played over a network.",
    "join": "Play one seat of a match a referee holds, as a person or a bot.",
}
"""Each command, in the order the help lists them, with its one-line help."""


def _unfold(doc: str | None) -> str | None:
    """Return a docstring with each paragraph on one line (None stays None).

    Typer keeps a paragraph's single line breaks, so lines wrapped for the
    source would be folded again at a narrower screen ("... takes" / "two
    steps ..."); unfolded, the help wraps at the screen's width.
    """
    if not doc:
        return None
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split("\n")) for p in paragraphs)


def _command(module: str, name: str) -> Any:
    """Build the click command of a module's function of the same name, with its EPILOG if any."""
    loaded = importlib.import_module(f"multiversus_cli.{module}")
    function = getattr(loaded, name)
    single = typer.Typer(add_completion=False)
    single.command(name, epilog=getattr(loaded, "EPILOG", None), help=_unfold(function.__doc__))(
        function
    )
    return typer.main.get_command(single)


def _teams() -> Any:
    from multiversus_cli import teams

    for info in teams.teams.registered_commands:
        if info.help is None and info.callback is not None:
            info.help = _unfold(info.callback.__doc__)
    if teams.teams.registered_callback is not None:
        callback = teams.teams.registered_callback
        callback.help = _unfold(callback.callback.__doc__ if callback.callback else None)
    group = typer.main.get_group(teams.teams)
    group.name = "teams"
    return group


_BUILDERS: Final[dict[str, Callable[[], Any]]] = {
    "play": lambda: _command("play", "play"),
    "verify": lambda: _command("verify", "verify"),
    "replay": lambda: _command("replay", "replay"),
    "diff": lambda: _command("diff", "diff"),
    "teams": _teams,
    "rules": lambda: _command("rules", "rules"),
    "simulate": lambda: _command("simulate", "simulate"),
    "games": lambda: _command("games", "games"),
    "serve": lambda: _command("serve", "serve"),
    "join": lambda: _command("join", "join"),
}


class _LazyGroup(TyperGroup):
    """The root group: builds a command (importing its module) only when it is used."""

    def list_commands(self, ctx: Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in _BUILDERS:
            self.commands[cmd_name] = _BUILDERS[cmd_name]()
        return self.commands.get(cmd_name)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the program; a mistake on the command line is told in one line (exit 2).

        Bare ``multiversus`` shows the help and exits 0.
        """
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return super().main(
                argv,
                prog_name,
                complete_var,
                False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        try:
            result = super().main(
                argv or ["--help"],
                prog_name,
                complete_var,
                False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except Exception as error:
            if type(error).__name__ == "NoArgsIsHelpError":
                typer.echo(error.ctx.get_help())  # type: ignore[attr-defined]
                sys.exit(0)
            if type(error).__name__ == "Abort":
                print("multiversus: aborted", file=sys.stderr)
                sys.exit(1)
            if not usage.is_usage_error(error):
                raise
            print(usage.one_line(error, argv), file=sys.stderr)
            sys.exit(int(error.exit_code))  # type: ignore[attr-defined]
        sys.exit(result if isinstance(result, int) else 0)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        # Plain help (click's), without rich: the root help only lists the commands.
        super(TyperGroup, self).format_help(ctx, formatter)

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        # The one-line helps from COMMANDS, without importing the commands.
        with formatter.section("Commands"):
            formatter.write_dl(list(COMMANDS.items()))


app = typer.Typer(
    name="multiversus",
    help="Multiversus, a two-player skirmish game of hidden coin selections, and other "
    "skirmish games on the same engine (`multiversus games` lists them). New to "
    "Multiversus? `multiversus rules` tells it on one screen.",
    no_args_is_help=True,
    add_completion=True,
    cls=_LazyGroup,
)


def _show_version(value: bool) -> None:
    if value:
        from multiversus_core._version import __version__

        typer.echo(f"multiversus {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_show_version,
            help="Show the program's version and exit.",
        ),
    ] = False,
) -> None:
    """Multiversus, a two-player skirmish game of hidden coin selections, and other skirmish
    games on the same engine (`multiversus games` lists them).

    New to Multiversus? `multiversus rules` tells it on one screen; `multiversus play` starts.
    """


def main() -> None:
    """Run the command-line program (the ``multiversus`` entry point)."""
    app()


if __name__ == "__main__":
    main()
