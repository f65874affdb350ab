"""The ``multiversus`` Typer app: one module per command, combined here."""

from __future__ import annotations

import typer

from multiversus_cli import diff, replay, rules, teams, verify
from multiversus_cli.play import EPILOG, play
from multiversus_cli.simulate import EPILOG as SIMULATE_EPILOG
from multiversus_cli.simulate import simulate

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
app.command("simulate", epilog=SIMULATE_EPILOG)(simulate)


def main() -> None:
    """Run the command-line program (the ``multiversus`` entry point)."""
    app()


if __name__ == "__main__":
    main()
