"""A scratch pad for :func:`decide`: emit events and see their effect at once.

Rules often depend on what an earlier event of the same command did (a turn
that ends may start another); the builder folds each event as it is emitted
so the next rule sees the up-to-date state.
"""

from __future__ import annotations

from multiversus_core.rulesets.multiversus.events import Event
from multiversus_core.rulesets.multiversus.evolve import _HANDLERS
from multiversus_core.rulesets.multiversus.state import ForcedMove, MatchState


class Builder:
    """Collects the events of one command, folding each into ``state``."""

    __slots__ = ("events", "forced", "state")

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.events: list[Event] = []
        self.forced: list[ForcedMove] = []
        """Forced moves queued by abilities, carried out by :mod:`~.forced`."""

    def emit(self, event: Event) -> None:
        """Record an event and apply it to the working state."""
        self.events.append(event)
        old = self.state
        # evolve(old, event) with its table lookup inlined: every event of every command
        # decided comes through here.
        new = self.state = _HANDLERS[type(event)](old, event)
        # Most events leave the figures, units and board alone: the new state keeps the very
        # same tuples, and their lookups (state.by_figures) need not be built again.
        if new.figures is old.figures and new.units is old.units and new.board is old.board:
            table = old.__dict__.get("_by_figures")
            if table is not None:
                new.__dict__["_by_figures"] = table
