"""Checks every game's presenter must pass through the generic commands, shared by the tests
of tiles-d6 and worlds-collide: a seat's view log that verifies and replays, a golden that
verifies and agrees with itself in diff, and a match that parts from a log at one entry."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from msgspec.structs import replace
from typer.testing import Result

from multiversus_core.engine.bots import UniformBot
from multiversus_core.engine.log import LogEntry, MatchLog
from multiversus_core.engine.registry import AnyRuleset

Invoke = Callable[..., Result]
"""Runs the program with these arguments."""


def view_log_round_trip(invoke: Invoke, golden: Path, tmp_path: Path) -> Result:
    """Seat 1's view log of ``golden`` written, verified and replayed to entry 30; the replay."""
    view = tmp_path / "seat-1.jsonl"
    result = invoke("replay", str(golden), "--as", "seat-1", "--format", "log")
    assert result.exit_code == 0, result.output
    view.write_text(result.stdout)
    checked = invoke("verify", str(view))
    assert checked.exit_code == 0, checked.output
    again = invoke("replay", str(view), "--to", "30")
    assert again.exit_code == 0, again.output
    return again


def verifies_and_agrees_with_itself(invoke: Invoke, golden: Path) -> None:
    """``golden`` verifies, and diff finds it agrees with itself."""
    checked = invoke("verify", str(golden))
    assert checked.exit_code == 0, checked.output
    same = invoke("diff", str(golden), str(golden), "--format", "json")
    assert same.exit_code == 0, same.output
    assert json.loads(same.stdout)["agree"] is True


def diverging(ruleset: AnyRuleset, log: MatchLog, at: int, other: Callable[[Any], Any]) -> MatchLog:
    """``log`` to entry ``at``, then ``other`` (given the state) instead of its command, then
    random bots to the end."""
    state = ruleset.initial_state(log.header.settings, log.chance)
    entries = list(log.entries[:at])
    for entry in entries:
        state = ruleset.fold(state, entry.events)
    bots = {1: UniformBot(1), 2: UniformBot(2)}
    command = other(state)
    while True:
        events, state = ruleset.decide(command, state)
        entries.append(LogEntry(command=command, events=events))
        seats = ruleset.to_act(state)
        if not seats:
            break
        seat = seats[0]
        command = bots[seat].choose(
            ruleset.view(state, ruleset.viewer_of(state, seat)), ruleset.legal_commands(state, seat)
        )
    return replace(log, entries=tuple(entries))
