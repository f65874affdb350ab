"""``multiversus replay``: a recorded match, as one side (or the public) saw it.

The log is folded entry by entry (:func:`multiversus_core.evolve.evolve`); the
state shown goes through :func:`multiversus_core.views.view` and every event
through :func:`multiversus_core.views.redact_event`, so a replay as the
Heroes never tells what the Adversaries had not revealed at that moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Final, NamedTuple

import msgspec
import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from multiversus_cli.describe import (
    Narrator,
    coin_summary,
    describe_command,
    player_name,
    side_name,
)
from multiversus_cli.render import render_board
from multiversus_core.commands import Command
from multiversus_core.errors import LogError
from multiversus_core.events import CoinsSelected, Event, ReactionSelected, SecretChosen
from multiversus_core.evolve import evolve, initial_state
from multiversus_core.log import LogEntry, MatchLog, read_log
from multiversus_core.log import replay as replay_log
from multiversus_core.state import MatchState
from multiversus_core.terms import Seat, Side
from multiversus_core.views import (
    HiddenChooseSecret,
    HiddenSelectCoins,
    HiddenSelectReaction,
    Viewer,
    redact_command,
    redact_event,
    view,
)

EXIT_OK: Final = 0
"""The replay was printed."""
EXIT_USAGE: Final = 2
"""The log cannot be read, or --to is out of range."""

EPILOG: Final = (
    "Exit codes: 0 done; 2 the log cannot be read (one line naming file, line and reason) "
    "or --to is out of range."
)


class ViewerChoice(StrEnum):
    """Whose view a replay shows."""

    heroes = "heroes"
    adversaries = "adversaries"
    spectator = "spectator"
    referee = "referee"


class ReplayFormat(StrEnum):
    """How a replay is printed."""

    text = "text"
    board = "board"
    json = "json"


class Step(NamedTuple):
    """One log entry with the states around it (referee states: redact before showing)."""

    number: int
    """The 1-based entry number."""
    entry: LogEntry
    before: MatchState
    after: MatchState


def fail(command: str, message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print a one-line error on stderr and return the exit to raise."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"multiversus {command}: {' '.join(message.split())}", markup=False
    )
    return typer.Exit(code)


def load_log(command: str, path: Path) -> MatchLog:
    """Read a log and check that its events fold; a bad log exits 2 with one line.

    :raises typer.Exit: (2) after printing the :class:`LogError`'s message.
    """
    try:
        log = read_log(path)
        replay_log(log, str(path))  # events that do not follow each other fail here, not later
    except LogError as exc:
        raise fail(command, str(exc)) from None
    return log


def steps(log: MatchLog) -> Iterator[Step]:
    """Yield every entry of a (checked) log with the referee states before and after it."""
    state = initial_state(log.header.settings)
    for number, entry in enumerate(log.entries, start=1):
        after = state
        for event in entry.events:
            after = evolve(after, event)
        yield Step(number, entry, state, after)
        state = after


def state_at(log: MatchLog, to: int) -> MatchState:
    """Return the referee state after entry ``to`` (0: before the first entry)."""
    state = initial_state(log.header.settings)
    for step in steps(log):
        if step.number > to:
            break
        state = step.after
    return state


def viewer_seat(state: MatchState, viewer: Viewer) -> Seat | None:
    """Return the seat whose secrets describe.py/render.py may tell (None: the public)."""
    if viewer in ("heroes", "adversaries"):
        return state.seat_of(viewer)
    return None


def _command_side(state: MatchState, command: Command) -> Side | None:
    return state.side_of(command.player)


def command_line(state: MatchState, command: Command, viewer: Viewer) -> str:
    """Return who gave ``command`` and what it was, as ``viewer`` may know it."""
    who = player_name(state, command.player)
    side = _command_side(state, command)
    if side is not None:
        who += f" ({side_name(side)})"
    shown = redact_command(command, side, viewer)
    match shown:
        case HiddenSelectCoins():
            return f"{who}: select coins in secret"
        case HiddenSelectReaction():
            return f"{who}: select a reaction in secret"
        case HiddenChooseSecret(name=name):
            return f"{who}: choose their secret {name}, in secret"
        case _:
            try:
                return f"{who}: {describe_command(state, command)}"
            except Exception:  # describing is best effort; the record is still shown
                return f"{who}: {command.__struct_config__.tag}"


def _secret_side(event: Event) -> Side | None:
    match event:
        case CoinsSelected(side=side) | ReactionSelected(side=side) | SecretChosen(side=side):
            return side
        case _:
            return None


def event_lines(state: MatchState, events: tuple[Event, ...], viewer: Viewer) -> list[str]:
    """Return the events that happened from ``state`` on, as ``viewer`` may know them.

    :func:`redact_event` decides what is hidden: a hidden event is told as the
    public knows it, a visible secret as its own player knows it.
    """
    narrator = Narrator(viewer_seat(state, viewer))
    for event in events:
        if redact_event(event, viewer) is not event:
            narrator.viewer = None
        else:
            side = _secret_side(event)
            if side is not None:
                narrator.viewer = state.seat_of(side)
            else:
                narrator.viewer = viewer_seat(state, viewer)
        state = narrator.tell(state, (event,))
    return narrator.take()


def board(state: MatchState, viewer: Viewer) -> RenderableType:
    """Return the board at ``state`` as ``viewer`` may see it (the referee also sees stashes)."""
    shown = render_board(state, viewer_seat(state, viewer))
    if viewer != "referee" or state.heroes_team is None:
        return shown
    lines: list[RenderableType] = [shown, Text("Referee:", style="bold")]
    for side in ("heroes", "adversaries"):
        stash = state.piles(side).stash
        lines.append(Text(f"  {side_name(side)} stash: {coin_summary(state, stash) or 'empty'}"))
    act = state.activation
    if act is not None:
        active = coin_summary(state, (act.coin,)) if act.coin is not None else act.unit
        reaction = (
            coin_summary(state, (act.reaction_coin,)) if act.reaction_coin is not None else "none"
        )
        lines.append(Text(f"  activation: {active}; reaction: {reaction}"))
    return Group(*lines)


def replay(
    log_path: Annotated[
        Path,
        typer.Argument(metavar="LOG", help="A match log (*.jsonl).", show_default=False),
    ],
    viewer: Annotated[
        ViewerChoice,
        typer.Option(
            "--as",
            help="Whose view: heroes, adversaries, spectator (the public) or referee (everything).",
            case_sensitive=False,
        ),
    ] = ViewerChoice.spectator,
    to: Annotated[
        int | None,
        typer.Option(
            "--to",
            metavar="N",
            help="Stop after entry N (1-based; 0: before the first entry). Default: the whole log.",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        ReplayFormat,
        typer.Option(
            "--format",
            help="text: a transcript, then the board; board: only the board; "
            "json: the view at that point, pretty-printed (indent 2).",
            case_sensitive=False,
        ),
    ] = ReplayFormat.text,
) -> None:
    """Replay a match log as one side, the public or the referee saw it.

    Nothing is shown that the viewer did not know at that moment: a hidden coin
    selection or set-up secret stays hidden until the match reveals it.

    Examples:

    multiversus replay match.jsonl

    multiversus replay match.jsonl --as heroes --to 40

    multiversus replay match.jsonl --as referee --format json
    """
    log = load_log("replay", log_path)
    count = len(log.entries)
    if to is None:
        to = count
    elif not 0 <= to <= count:
        raise fail(
            "replay", f"--to {to} is out of range: the log has {count} entries (0 to {count})"
        )
    who: Viewer = viewer.value
    out = Console(highlight=False, soft_wrap=True)
    if output is ReplayFormat.json:
        shown = view(state_at(log, to), who)
        out.print(msgspec.json.format(msgspec.json.encode(shown), indent=2).decode(), markup=False)
        raise typer.Exit(EXIT_OK)
    state = initial_state(log.header.settings)
    for step in steps(log):
        if step.number > to:
            break
        state = step.after
        if output is ReplayFormat.text:
            before = step.before
            where = f"round {before.round}, turn {before.turns_in_round}"
            head = f"{step.number}. [{where}] {command_line(before, step.entry.command, who)}"
            out.print(Text(head, style="bold"))
            for line in event_lines(before, step.entry.events, who):
                out.print(Text(f"   {line}"))
    if output is ReplayFormat.text:
        out.print(Text(f"After entry {to} of {count}, as the {who}:", style="bold"))
    out.print(board(state, who))
    raise typer.Exit(EXIT_OK)


__all__ = [
    "EPILOG",
    "EXIT_OK",
    "EXIT_USAGE",
    "ReplayFormat",
    "Step",
    "ViewerChoice",
    "board",
    "command_line",
    "event_lines",
    "fail",
    "load_log",
    "replay",
    "state_at",
    "steps",
    "viewer_seat",
]
