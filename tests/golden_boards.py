"""A golden replay's board at the end of every round, for the syrupy snapshots of a game whose
presenter draws one in the terminal (``test_tiles_d6_goldens.py``,
``test_worlds_collide_goldens.py``)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType

from multiversus_core.engine.log import read_log
from multiversus_core.engine.registry import AnyRuleset


def round_ends(
    ruleset: AnyRuleset, path: Path, round_started: type, match_ended: type
) -> list[tuple[str, Any]]:
    """The state when each round after the first begins (the end of the one before), and the
    final state, each with its title; rounds begin with ``round_started`` events (holding
    ``round``) and the match ends with a ``match_ended`` (holding ``reason``)."""
    log = read_log(path)
    state = ruleset.initial_state(log.header.settings, log.chance)
    shots: list[tuple[str, Any]] = []
    for entry in log.entries:
        for event in entry.events:
            if isinstance(event, round_started) and event.round > 1:
                shots.append((f"end of round {event.round - 1}", state))
            state = ruleset.evolve(state, event)
            if isinstance(event, match_ended):
                shots.append((f"match ended ({event.reason})", state))
    return shots


def boards_text(
    shots: list[tuple[str, Any]],
    board: Callable[[Any, str], RenderableType],
    viewer: str,
    width: int,
) -> str:
    """Each state's board as ``viewer`` sees it, without colours, ``width`` columns wide, under
    its title."""
    pages = []
    for title, state in shots:
        console = Console(width=width, file=io.StringIO(), color_system=None, highlight=False)
        console.print(board(state, viewer))
        assert isinstance(console.file, io.StringIO)
        text = "\n".join(line.rstrip() for line in console.file.getvalue().splitlines())
        pages.append(f"=== {title} ===\n{text}")
    return "\n".join(pages)
