"""Any game's match in words, as one viewer knew it: what ``replay`` prints for a game that
has no board of its own on the screen.

Everything goes through the game's ruleset: each command and event is
redacted for the viewer (the referee sees them whole) and told by the
ruleset (``describe_command``, ``narrate``), and the state at the end is
shown as the viewer's view.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import msgspec

from multiversus_core.engine.log import MatchLog, starting_state
from multiversus_core.engine.registry import AnyRuleset
from multiversus_core.engine.ruleset import REFEREE


class Told(NamedTuple):
    """One entry of a match, told: its number, its command and its events, in words."""

    number: int
    command: str
    events: tuple[str, ...]


def viewers(ruleset: AnyRuleset) -> tuple[str, ...]:
    """Everyone a match may be replayed as: the game's viewers, then the referee."""
    return (*ruleset.viewers, REFEREE)


def seat_of(ruleset: AnyRuleset, settings: Any, state: Any, viewer: str) -> int | None:
    """The seat ``viewer`` is in ``state`` (None for the public and the referee)."""
    seats = len(ruleset.table(settings).players)
    return next((s for s in range(1, seats + 1) if ruleset.viewer_of(state, s) == viewer), None)


def start(ruleset: AnyRuleset, log: MatchLog) -> Any:
    """The state the log begins from, with its secret chance seed if the log reveals it."""
    return starting_state(log)


def tell(ruleset: AnyRuleset, settings: Any, before: Any, entry: Any, viewer: str) -> Told:
    """One entry (given in state ``before``) told as ``viewer`` knew it, unnumbered (0)."""
    if viewer == REFEREE:
        shown, seat = entry.command, None
    else:
        shown = ruleset.redact_command(entry.command, before, viewer)
        seat = seat_of(ruleset, settings, before, viewer)
    line = f"[{ruleset.where(before)}] {ruleset.describe_command(shown, before)}"
    lines = []
    state = before
    for event in entry.events:
        seen = event if viewer == REFEREE else ruleset.redact_event(event, viewer)
        text = ruleset.narrate(seen, state, seat)
        if text:
            lines.append(text)
        state = ruleset.evolve(state, event)
    return Told(0, line, tuple(lines))


def event_lines(ruleset: AnyRuleset, before: Any, events: Iterable[Any]) -> tuple[str, ...]:
    """The events that came of an entry given in ``before``, each in a line as the ruleset
    narrates them whole (for a game that hides nothing, or the referee); events not worth
    telling are passed over."""
    lines: list[str] = []
    state = before
    for event in events:
        line = ruleset.narrate(event, state, None)
        if line:
            lines.append(line)
        state = ruleset.evolve(state, event)
    return tuple(lines)


def told(ruleset: AnyRuleset, log: MatchLog, viewer: str, to: int) -> Iterator[Told | Any]:
    """Yield each of the first ``to`` entries told as ``viewer`` knew it, then the state after
    them."""
    state = start(ruleset, log)
    settings = log.header.settings
    for number, entry in enumerate(log.entries[:to], start=1):
        yield tell(ruleset, settings, state, entry, viewer)._replace(number=number)
        state = ruleset.fold(state, entry.events)
    yield state


def shown_state(ruleset: AnyRuleset, state: Any, viewer: str) -> bytes:
    """The state as ``viewer`` may know it (the whole state for the referee), as JSON."""
    shown = state if viewer == REFEREE else ruleset.view(state, viewer)
    return msgspec.json.format(msgspec.json.encode(shown), indent=2)
