"""Multiversus in the terminal: each entry in words, and the board, as one viewer knew them.

The log is folded entry by entry
(:func:`multiversus_core.rulesets.multiversus.evolve.evolve`); the state
shown goes through :func:`multiversus_core.rulesets.multiversus.views.view`
and every event through
:func:`multiversus_core.rulesets.multiversus.views.redact_event`, so a replay
as the Heroes never tells what the Adversaries had not revealed at that
moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from rich.console import Group, RenderableType
from rich.text import Text

from multiversus_cli.render import render_board
from multiversus_core.engine.log import LogEntry, MatchLog, starting_state
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.events import (
    CoinsSelected,
    Event,
    ReactionSelected,
    SecretChosen,
)
from multiversus_core.rulesets.multiversus.evolve import evolve
from multiversus_core.rulesets.multiversus.narrate import (
    Narrator,
    coin_summary,
    shown_command,
    side_name,
)
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat, Side
from multiversus_core.rulesets.multiversus.views import (
    Viewer,
    redact_command,
    redact_event,
)


class Step(NamedTuple):
    """One log entry with the states around it (referee states: redact before showing)."""

    number: int
    """The 1-based entry number."""
    entry: LogEntry[Command, Event]
    before: MatchState
    after: MatchState


def steps(log: MatchLog) -> Iterator[Step]:
    """Yield every entry of a (checked) log with the referee states before and after it."""
    state: MatchState = starting_state(log)
    for number, entry in enumerate(log.entries, start=1):
        after = state
        for event in entry.events:
            after = evolve(after, event)
        yield Step(number, entry, state, after)
        state = after


def state_at(log: MatchLog, to: int) -> MatchState:
    """Return the referee state after entry ``to`` (0: before the first entry)."""
    state: MatchState = starting_state(log)
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


def command_line(state: MatchState, command: Command, viewer: Viewer) -> str:
    """Return who gave ``command`` and what it was, as ``viewer`` may know it."""
    return shown_command(state, redact_command(command, state.side_of(command.player), viewer))


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


def board(state: MatchState, viewer: Viewer, *, result: bool = True) -> RenderableType:
    """Return the board at ``state`` as ``viewer`` may see it (the referee also sees stashes);
    ``result=False`` leaves out a result the transcript just told."""
    shown = render_board(state, viewer_seat(state, viewer), result=result)
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


def entry_head(number: int, before: MatchState, command: Command, viewer: Viewer) -> str:
    """An entry's head line: ``"12. [round 2, turn 1] Heroes: ..."``."""
    where = f"round {before.round}, turn {before.turns_in_round}"
    return f"{number}. [{where}] {command_line(before, command, viewer)}"
