"""Scoring: elimination, the Adversary sheet's win conditions, and the end of the match.

Rulebook: *Scoring*, *Objective*; rulings R1, R16, R23. Win conditions are
code registered by name (:func:`register_win_condition`) and named on the
Adversary sheet, so a new team brings its own. A win condition is a pure
function of the state after round 6 (it may read ``state.secrets``, for a
secret scheme or a hidden identity) that names the winning side, or None
when it does not decide the match. :func:`holder_of_tiles` serves the common
"who stands on the marked tile" kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.events import MatchEnded
from multiversus_core.rulesets.multiversus.geometry import figure_squares, tile_squares
from multiversus_core.rulesets.multiversus.secrets import reveal_reaction, reveal_secret
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Side

WinCondition: TypeAlias = Callable[[MatchState], Side | None]
"""Given the state at the end of round 6, return the winning side, or None if undecided."""

WIN_CONDITIONS: dict[str, tuple[str, WinCondition]] = {}
"""Registered win conditions by name: (rules text, function)."""


def register_win_condition(name: str, text: str) -> Callable[[WinCondition], WinCondition]:
    """Decorator: register a win condition under ``name`` with its rules text.

    :raises ValueError: if the name is taken.
    """

    def decorate(function: WinCondition) -> WinCondition:
        if name in WIN_CONDITIONS and WIN_CONDITIONS[name][1] is not function:
            raise ValueError(f"two win conditions are named {name!r}")
        WIN_CONDITIONS[name] = (text, function)
        return function

    return decorate


def characters_left(state: MatchState, side: Side) -> int:
    """Return how many of a side's characters are on the board (terrain does not count, R1)."""
    return sum(
        1 for f in state.figures if f.side == side and not f.terrain and f.condition != "eliminated"
    )


def holder_of_tiles(state: MatchState, terrain: str) -> Side | None:
    """Return the side holding the special tiles named ``terrain``, or None.

    A side holds them when one of its characters covers a space of such a
    tile and no character of the other side does (terrain pieces never
    count, R1). None if nobody or both stand there, or the board has no
    such tile.
    """
    if state.board is None:
        return None
    spaces = {
        s for tile in state.board.tiles if tile.terrain == terrain for s in tile_squares(tile)
    }
    present = {
        f.side
        for f in state.figures
        if not f.terrain and f.condition != "eliminated" and spaces & set(figure_squares(f))
    }
    if len(present) == 1:
        return present.pop()
    return None


def check_elimination(b: Builder) -> bool:
    """End the match if a side has no characters left; return True if it ended.

    If one player is eliminated, the other wins immediately (rulebook: Scoring).
    """
    for side, other in _OPPONENTS:
        if characters_left(b.state, side) == 0:
            end_match(b, "elimination", other)
            return True
    return False


_OPPONENTS: tuple[tuple[Side, Side], ...] = (("heroes", "adversaries"), ("adversaries", "heroes"))


def final_result(state: MatchState, conditions: tuple[str, ...]) -> tuple[Side | None, str]:
    """Return (winner, reason) after round 6 from the Adversary sheet's win conditions.

    The first condition that names a winner decides; if none does, the match
    is a draw.
    """
    for name in conditions:
        _, function = WIN_CONDITIONS[name]
        winner = function(state)
        if winner is not None:
            return winner, name
    return None, "six_rounds_played"


def end_match(b: Builder, reason: str, winner: Side | None) -> None:
    """Reveal every hidden selection and set-up secret (R4, R23) and record the result.

    A match can end in the middle of an activation (an elimination), before
    the reactive selection would be revealed at its end.
    """
    for secret in b.state.secrets:
        if not secret.revealed:
            reveal_secret(b, secret)
    reveal_reaction(b)
    b.emit(MatchEnded(reason=reason, winner=winner))
