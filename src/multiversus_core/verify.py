"""Verification: re-run the rules on a log and check they give exactly its events.

Reading a log checks its form and its hash chain; verifying it also replays
every recorded command through :func:`decide` from the header's settings, so
an edited outcome, or a rule that changed since the log was written, is
caught at the first entry where the rules and the log differ.
"""

from __future__ import annotations

import os
from typing import Literal, TypeAlias

import msgspec

from multiversus_core.decide import decide
from multiversus_core.errors import LogError, MultiversusError
from multiversus_core.events import Event
from multiversus_core.log import MatchLog, read_log
from multiversus_core.match import fold, start_match
from multiversus_core.state import MatchState

ProblemCode: TypeAlias = Literal["log_error", "bad_settings", "command_refused", "rules_differ"]
"""Why a log failed: unreadable, unknown settings, a refused command, or other events."""


class Verification(msgspec.Struct, frozen=True):
    """The result of verifying one log."""

    path: str
    ok: bool
    entries: int
    """Entries checked (all of them when the log passes)."""
    finished: bool
    """The match in the log has ended."""
    problem: str | None = None
    """What failed, in one line naming the entry, round and turn."""
    code: ProblemCode | None = None
    entry: int | None = None
    """The 1-based entry (the log's line is one more) where the first difference is."""
    round: int | None = None
    turn: int | None = None


def verify(log: MatchLog, path: str = "<memory>") -> Verification:
    """Re-run every recorded command and compare the events it gives with the log's.

    Never raises for a bad log: the problem is in the result.
    """
    try:
        state = start_match(log.header.settings)
    except MultiversusError as exc:
        return Verification(
            path=path, ok=False, entries=0, finished=False, problem=str(exc), code="bad_settings"
        )
    for number, entry in enumerate(log.entries, start=1):
        where = f"entry {number} (line {number + 1}), {_when(state)}"
        try:
            events = decide(entry.command, state)
        except MultiversusError as exc:
            return _failed(
                path,
                number,
                state,
                "command_refused",
                f"{where}: the rules refuse its command ({type(exc).__name__}: {exc})",
            )
        if events != tuple(entry.events):
            return _failed(
                path,
                number,
                state,
                "rules_differ",
                f"{where}: {_difference(events, tuple(entry.events))}",
            )
        state = fold(events, state)
    return Verification(path=path, ok=True, entries=len(log.entries), finished=state.is_over)


def verify_file(path: str | os.PathLike[str]) -> Verification:
    """Read a log file and verify it; a log that cannot be read fails with its LogError."""
    name = os.fspath(path)
    try:
        log = read_log(name)
    except LogError as exc:
        return Verification(
            path=name, ok=False, entries=0, finished=False, problem=str(exc), code="log_error"
        )
    return verify(log, name)


def _when(state: MatchState) -> str:
    if state.round == 0:
        return "set-up"
    return f"round {state.round}, turn {state.turns_in_round}"


def _failed(
    path: str, number: int, state: MatchState, code: ProblemCode, problem: str
) -> Verification:
    return Verification(
        path=path,
        ok=False,
        entries=number - 1,
        finished=False,
        problem=problem,
        code=code,
        entry=number,
        round=state.round,
        turn=state.turns_in_round,
    )


def _difference(expected: tuple[Event, ...], recorded: tuple[Event, ...]) -> str:
    """Describe the first event where the rules and the log differ."""
    for index, (mine, theirs) in enumerate(zip(expected, recorded, strict=False), start=1):
        if mine != theirs:
            return f"event {index}: the rules give {_show(mine)} where the log has {_show(theirs)}"
    if len(expected) > len(recorded):
        extra = len(expected) - len(recorded)
        return f"the rules give {extra} more event(s), from {_show(expected[len(recorded)])}"
    extra = len(recorded) - len(expected)
    return (
        f"the log has {extra} event(s) the rules do not give, from {_show(recorded[len(expected)])}"
    )


def _show(event: Event) -> str:
    return msgspec.json.encode(event).decode()
