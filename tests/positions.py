"""Givens built from position text (:mod:`multiversus_core.engine.position`)."""

from __future__ import annotations

from typing import Any

from multiversus_core.engine.position import edit_position, read_position, write_position


def at(state: Any, changes: str) -> Any:
    """``state`` with the position fields ``changes`` names changed, merged into its own
    (``at(state, 'round=6 figures={"knight":{"condition":"wounded"}}')``)."""
    return read_position(edit_position(write_position(state), changes))
