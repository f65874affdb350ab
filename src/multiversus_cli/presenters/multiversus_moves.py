"""Moves typed at the prompt of ``multiversus play``: a step by a fixed compass key, and a
figure sent to a destination along its shortest legal path.

Menu numbers depend on where a figure stands; these keys never do: ``n``, ``ne``, ``e``,
``se``, ``s``, ``sw``, ``w``, ``nw`` step the moving figure (or another, named by its
board label: ``tm2 n``), and ``m 4,6`` (``m tm2 4,6``) sends it to a space. A route is
still given one step at a time, each its own logged command with its own trigger check:
the terminal gives the next step at the next decision, as long as it stays legal.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from multiversus_core.rulesets.multiversus.activation import compass, current
from multiversus_core.rulesets.multiversus.commands import Command, DeclineReaction, Step
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.match import apply
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Direction, Seat, Square

KEYS: Final[dict[str, Direction]] = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}
"""Each compass key and its direction: the same wherever the figure stands."""
KEY_OF: Final[dict[Direction, str]] = {direction: key for key, direction in KEYS.items()}

_ROUTE: Final = re.compile(
    r"^(?:m|move|to)\s+(?:(?P<label>[a-z][a-z0-9]*)\s+)?\(?\s*(?P<c>\d+)\s*[, ]\s*(?P<r>\d+)\s*\)?$"
)
_STEP: Final = re.compile(r"^(?:(?P<label>[a-z][a-z0-9]*)\s+)?(?P<key>[nsew]|ne|se|sw|nw)$")
_MOST_STATES: Final = 2000
"""The most positions a route search visits (a Double-Move reaches a few hundred)."""


@dataclass(frozen=True)
class Typed:
    """What a typed move asks for: the steps to give (the first now), or why it cannot."""

    steps: tuple[Step, ...] = ()
    problem: str | None = None


def is_move(answer: str) -> bool:
    """True if ``answer`` reads as a typed step or route (``n``, ``tm2 se``, ``m 4,6``)."""
    return bool(_STEP.match(answer) or _ROUTE.match(answer))


def typed_move(
    state: MatchState, seat: Seat, answer: str, labels: dict[str, str], names: dict[str, str]
) -> Typed:
    """Read ``answer`` (lower case) as a step or a route for ``seat`` in ``state``.

    ``labels`` are the board's figure labels by figure id, ``names`` the figures' names.
    """
    steps = [c for c in legal_commands(state, seat) if isinstance(c, Step)]
    if not steps:
        return Typed(problem="No figure can step now.")
    by_label = {label.lower(): figure for figure, label in labels.items()}
    found = _STEP.match(answer) or _ROUTE.match(answer)
    assert found is not None
    label = found["label"]
    if label is not None and label not in by_label:
        return Typed(problem=f"No figure is labelled {label.upper()} on the board.")
    figure = by_label[label] if label is not None else _default_mover(state, steps)
    if figure is None:
        movers = sorted({labels.get(c.figure, c.figure) for c in steps})
        first = movers[0].lower()
        routed = found.re is _ROUTE
        example = f"m {first} {found['c']},{found['r']}" if routed else f"{first} {found['key']}"
        return Typed(
            problem=f"Several figures can step ({', '.join(movers)}): name one, as in '{example}'."
        )
    name = names.get(figure, figure)
    if not any(c.figure == figure for c in steps):
        return Typed(problem=f"{name} cannot step now.")
    if found.re is _STEP:
        direction = KEYS[found["key"]]
        step = Step(player=seat, figure=figure, direction=direction)
        if step not in steps:
            return Typed(problem=f"{name} cannot step {compass(direction)} from here.")
        return Typed((step,))
    to: Square = (int(found["c"]), int(found["r"]))
    route = shortest_route(state, seat, figure, to)
    if route is None:
        return Typed(problem=f"{name} cannot reach ({to[0]},{to[1]}) with the movement it has.")
    if not route:
        return Typed(problem=f"{name} is at ({to[0]},{to[1]}) already.")
    return Typed(route)


def _default_mover(state: MatchState, steps: Sequence[Step]) -> str | None:
    """The figure a bare key moves: the one moving, else the only one that can."""
    action = current(state)
    mover = action.mover if action is not None else None
    if mover is not None and any(c.figure == mover for c in steps):
        return mover
    figures = {c.figure for c in steps}
    return next(iter(figures)) if len(figures) == 1 else None


def shortest_route(
    state: MatchState, seat: Seat, figure: str, to: Square
) -> tuple[Step, ...] | None:
    """The fewest steps that take ``figure`` to ``to`` by the rules as they stand, or None.

    Searched through the rules themselves (each step the engine would accept, allies passed
    through, never ended on). A reaction offer on the way is let pass in the search only: in
    play the opponent decides, and a route that no longer holds is dropped.
    """
    start = state.figure(figure).square
    if start is None:
        return None
    if start == to:
        return ()
    queue: deque[tuple[MatchState, tuple[Step, ...]]] = deque([(state, ())])
    seen: set[tuple[Square | None, int]] = {(start, 0)}
    visited = 0
    while queue and visited < _MOST_STATES:
        here, route = queue.popleft()
        visited += 1
        for command in legal_commands(here, seat):
            if not isinstance(command, Step) or command.figure != figure:
                continue
            after = _passing(apply(here, command)[0], seat)
            if after is None:
                continue
            square = after.figure(figure).square
            if square == to and _may_stop(after, seat, figure):
                return (*route, command)
            action = current(after)
            left = action.steps_left if action is not None else 0
            if (square, left) not in seen:
                seen.add((square, left))
                queue.append((after, (*route, command)))
    return None


def _passing(state: MatchState, seat: Seat) -> MatchState | None:
    """The state once every reaction offer is let pass, if it comes back to ``seat``."""
    for _ in range(8):
        decider = decider_seat(state)
        if decider == seat:
            return state
        if decider is None or DeclineReaction(player=decider) not in legal_commands(state, decider):
            return None
        state = apply(state, DeclineReaction(player=decider))[0]
    return None


def _may_stop(state: MatchState, seat: Seat, figure: str) -> bool:
    """True if the figure may end its move where it stands (not on an ally)."""
    mover = state.figure(figure)
    return not any(
        other.id != figure and other.square == mover.square and not other.terrain
        for other in state.figures
    )


def key_hint(command: Command) -> str | None:
    """The compass key that gives a step, to show beside it in a menu."""
    return KEY_OF.get(command.direction) if isinstance(command, Step) else None


__all__ = ["KEYS", "Typed", "is_move", "key_hint", "shortest_route", "typed_move"]
