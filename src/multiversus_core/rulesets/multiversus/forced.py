"""Forced movement in play: pushes, pulls and slides, and the choices they give (R20).

Rulebook: *Forced Movement*, *Blocking terrain and characters* (the Orc and
Goblin example); rulings R9, R20.

Every forced move, the Push after an attack (R9) and every ability's push,
pull or slide alike, is queued on the :class:`~.builder.Builder`
(``b.forced``) and carried out here by :func:`run`, one at a time in the
order queued. A move goes in a straight line and stops before the first
space that is not free for the figure (:func:`movement.forced_path`). Two
choices can interrupt it, each a decision of one player, offered by
``legal_commands`` and recorded as events:

- an allied character of the moved figure is in the way: its player chooses
  whether it blocks (the figure stops before it) or lets the figure through
  (it may never end on the ally). The choice is asked only where it changes
  where the move can end; ally by ally, in the order the move meets them.
- the move may stop short ("up to N spaces"): the side the ability names
  chooses how many spaces it moves, from those where the figure may stop.

A move waiting for a choice is a :class:`ForcedMoveHeld` event; the choice is
:class:`BlockChosen` or :class:`ForcedStopChosen`; the move itself is a
``FigureMoved``. Forced movement never triggers a reaction (P15).
"""

from __future__ import annotations

from msgspec.structs import replace

from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.rulesets.multiversus import movement
from multiversus_core.rulesets.multiversus.abilities import REGISTRY
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.events import (
    BlockChosen,
    FigureMoved,
    ForcedMoveHeld,
    ForcedStopChosen,
)
from multiversus_core.rulesets.multiversus.geometry import figure_squares, footprint
from multiversus_core.rulesets.multiversus.state import ForcedChoice, ForcedMove, MatchState
from multiversus_core.rulesets.multiversus.terms import Side, Square


def run(b: Builder) -> None:
    """Carry out the queued forced moves in order, until done or one waits for a choice."""
    while b.forced and not b.state.is_over:
        move = b.forced.pop(0)
        if not _advance(b, move):
            return


def held(state: MatchState) -> ForcedChoice | None:
    """Return the forced move waiting for a choice, if any."""
    act = state.activation
    return None if act is None else act.forced


def stop_options(state: MatchState) -> tuple[int, ...]:
    """Return how many spaces the held move may go, when its choice is where it stops."""
    choice = held(state)
    if choice is None or choice.ally is not None:
        return ()
    return _stops(state, choice.move)


def destination(state: MatchState, move: ForcedMove, spaces: int) -> Square | None:
    """Return where ``move`` would leave its figure after ``spaces`` spaces, allies it has
    not passed blocking; None if it cannot go that far (or the figure is off the board)."""
    figure = state.figure(move.figure)
    if figure.square is None or state.board is None:
        return None
    if spaces == 0:
        return figure.square
    path = movement.forced_path(
        state.board,
        state.figures,
        figure,
        move.direction,
        spaces,
        passable=frozenset(move.let_through),
    )
    return path[-1] if len(path) == spaces else None


def blocked_spaces(state: MatchState, move: ForcedMove) -> int:
    """Return how many spaces ``move`` goes if every ally it has not passed blocks it."""
    return _stops(state, replace(move, up_to=None, blocked=True))[0]


def choose_block(b: Builder, ally: str, block: bool) -> None:
    """The ally in the way blocks the held move or lets the figure through (R20).

    :raises IllegalCommandError: if no ally's choice is awaited, or another ally's is.
    """
    choice = held(b.state)
    assert choice is not None
    if choice.ally is None:
        raise IllegalCommandError("no ally is in the way: choose how far the figure moves")
    if ally != choice.ally:
        raise IllegalCommandError(
            f"the ally in the way is {_name(b.state, choice.ally)}, not {_name(b.state, ally)}"
        )
    move = choice.move
    b.emit(BlockChosen(side=choice.side, ally=ally, figure=move.figure, block=block))
    if block:
        move = replace(move, blocked=True)
    else:
        move = replace(move, let_through=(*move.let_through, ally))
    b.forced[:0] = [move, *choice.queue]
    run(b)


def choose_stop(b: Builder, spaces: int) -> None:
    """The held move goes ``spaces`` spaces, as its side chose.

    :raises IllegalCommandError: if an ally's choice is awaited, or the move cannot stop there.
    """
    choice = held(b.state)
    assert choice is not None
    if choice.ally is not None:
        raise IllegalCommandError(
            f"{_name(b.state, choice.ally)} is in the way: its player chooses first "
            "whether it blocks"
        )
    options = _stops(b.state, choice.move)
    if spaces not in options:
        listed = ", ".join(str(k) for k in options)
        raise IllegalCommandError(
            f"{_name(b.state, choice.move.figure)} can stop after {listed} spaces, not {spaces}"
        )
    b.emit(ForcedStopChosen(side=choice.side, figure=choice.move.figure, spaces=spaces))
    _finish(b, choice.move, spaces)
    b.forced[:0] = list(choice.queue)
    run(b)


# --- one move -----------------------------------------------------------------


def _advance(b: Builder, move: ForcedMove) -> bool:
    """Carry out one move, or hold it for a choice; return False if it is held."""
    state = b.state
    figure = state.figure(move.figure)
    if figure.square is None:
        return True  # eliminated before its turn came: nothing moves
    ally = _ally_to_ask(state, move)
    if ally is not None:
        _hold(b, figure.side, move, ally)
        return False
    stops = _stops(state, move)
    if len(stops) > 1:
        assert move.up_to is not None
        _hold(b, move.up_to, move, None)
        return False
    _finish(b, move, stops[0])
    return True


def _hold(b: Builder, side: Side, move: ForcedMove, ally: str | None) -> None:
    queue = tuple(b.forced)
    b.forced.clear()
    b.emit(ForcedMoveHeld(side=side, move=move, ally=ally, queue=queue))


def _finish(b: Builder, move: ForcedMove, spaces: int) -> None:
    """Move the figure ``spaces`` spaces, then run the ability's follow-up."""
    if spaces:
        to = destination(b.state, move, spaces)
        assert to is not None  # ``spaces`` is one of the move's stops
        b.emit(FigureMoved(figure=move.figure, to=to, how=move.how))
    if move.ability is not None and move.ability in REGISTRY and not b.state.is_over:
        REGISTRY[move.ability].after_forced_move(b, move, spaces)


def _allies(state: MatchState, figure: Figure) -> frozenset[str]:
    """The allied characters that may let ``figure`` through: none for a terrain piece."""
    if figure.terrain:
        return frozenset()
    return frozenset(
        f.id
        for f in state.figures
        if f.side == figure.side and f.is_character and f.id != figure.id and f.square is not None
    )


def _ally_to_ask(state: MatchState, move: ForcedMove) -> str | None:
    """Return the ally in the way whose choice changes where the move can end, if any.

    It is the first ally the move meets, not yet passed. Its choice matters
    when letting it (and every ally after it) through lets the figure end
    farther than stopping before it; otherwise it blocks without asking.
    """
    if move.blocked or move.distance < 2:
        return None  # one space: passing an ally would end on it
    figure = state.figure(move.figure)
    assert state.board is not None and figure.square is not None
    passed = frozenset(move.let_through)
    allies = _allies(state, figure) - passed
    if not allies:
        return None
    board, figures = state.board, state.figures
    through = movement.forced_path(
        board, figures, figure, move.direction, move.distance, passable=passed | allies
    )
    stopped = movement.forced_path(
        board, figures, figure, move.direction, move.distance, passable=passed
    )
    if len(through) == len(stopped):
        return None
    owners = {s: f.id for f in figures if f.id in allies for s in figure_squares(f)}
    previous = frozenset(footprint(figure.square, figure.size))
    walk = movement.forced_walk(
        board, figures, figure, move.direction, move.distance, passable=passed | allies
    )
    for origin in walk:
        entered = [s for s in footprint(origin, figure.size) if s not in previous]
        met = [owners[s] for s in entered if s in owners]
        if met:
            return min(met, key=[f.id for f in figures].index)
        previous = frozenset(footprint(origin, figure.size))
    return None


def _stops(state: MatchState, move: ForcedMove) -> tuple[int, ...]:
    """Return the numbers of spaces the move may end after: one, unless it may stop short."""
    figure = state.figure(move.figure)
    assert state.board is not None
    passed = frozenset(move.let_through)
    board, figures = state.board, state.figures
    path = movement.forced_path(
        board, figures, figure, move.direction, move.distance, passable=passed
    )
    if move.up_to is None:
        return (len(path),)
    return tuple(
        k
        for k in range(len(path) + 1)
        if k == 0
        or len(movement.forced_path(board, figures, figure, move.direction, k, passable=passed))
        == k
    )


def _name(state: MatchState, figure_id: str) -> str:
    try:
        return state.figure(figure_id).name
    except KeyError:
        return repr(figure_id)
