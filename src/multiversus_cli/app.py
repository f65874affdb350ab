"""The ``multiversus`` Typer app: one module per command, combined here."""

from __future__ import annotations

import inspect

import typer

from multiversus_cli import diff, replay, rules, teams, verify
from multiversus_cli.play import EPILOG, play

app = typer.Typer(
    name="multiversus",
    help="Multiversus: a two-player skirmish game of hidden coin selections. "
    "New to the game? `multiversus rules` tells it on one screen.",
    no_args_is_help=True,
    add_completion=True,
)


@app.callback()
def _root() -> None:
    """Multiversus: a two-player skirmish game of hidden coin selections.

    New to the game? `multiversus rules` tells it on one screen; `multiversus play` starts.
    """


app.command("play", epilog=EPILOG)(play)
app.add_typer(teams.teams, name="teams")
app.command("verify", epilog=verify.EPILOG)(verify.verify)
app.command("replay", epilog=replay.EPILOG)(replay.replay)
app.command("diff", epilog=diff.EPILOG)(diff.diff)
app.command("rules")(rules.rules)


def _unfold(doc: str) -> str:
    """Return a docstring with each paragraph on one line.

    Typer keeps a paragraph's single line breaks, so lines wrapped for the
    source would be folded again at a narrower screen ("... takes" / "two
    steps ..."); unfolded, the help wraps at the screen's width.
    """
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split("\n")) for p in paragraphs)


def _unfold_help() -> None:
    """Give every command the help of its docstring, unfolded (see :func:`_unfold`)."""
    infos = [*app.registered_commands, *teams.teams.registered_commands]
    for info in infos:
        if info.help is None and info.callback is not None and info.callback.__doc__:
            info.help = _unfold(info.callback.__doc__)
    group = teams.teams.registered_callback
    if group is not None and group.callback is not None and group.callback.__doc__:
        group.help = _unfold(group.callback.__doc__)


_unfold_help()


def main() -> None:
    """Run the command-line program (the ``multiversus`` entry point)."""
    app()


if __name__ == "__main__":
    main()
