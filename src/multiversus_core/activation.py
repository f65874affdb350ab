"""Activations: coin selection, reveal, actions and discard.

Rulebook: *Taking actions*, *Actions and reactions*, *Units and characters*,
*Spaces and movement*; rulings R2-R4, R19. The predicates here are shared by
:func:`decide` and the legal-command listing, so the two cannot disagree.
"""

from __future__ import annotations

from typing import Final

from multiversus_core import movement
from multiversus_core.board import Figure
from multiversus_core.builder import Builder
from multiversus_core.errors import IllegalCommandError
from multiversus_core.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    CoinsRevealed,
    CoinsSelected,
    FigureStepped,
    ReactionRevealed,
    ReactionSelected,
    UnitCoinDiscarded,
    UnitCoinReturned,
)
from multiversus_core.state import MatchState
from multiversus_core.terms import ActionKind, Colour, Direction, Side
from multiversus_core.units import CoinId, Unit, coin_colour, coin_unit

ACTIVE_SELECTIONS: Final[tuple[tuple[ActionKind, ...], ...]] = (("move",), ("move", "move"))
"""Action-coin selections an active unit may make in this version: Move actions only.

Attacks, Defends, Stunts and Recovery arrive with the whole-game rules.
"""

REACTIVE_SELECTIONS: Final[tuple[tuple[ActionKind, ...], ...]] = (
    ("attack",),
    ("defend",),
    ("move",),
    ("stunt",),
    ("attack", "attack"),
    ("move", "move"),
    ("stunt", "stunt"),
)
"""Reactive selections: one action coin, or two alike except two Defends (R3)."""

DRIFTING: Final = "Drifting"
"""The ability that lets a Terrain unit's pieces take Move actions (R1)."""


# --- who can do what --------------------------------------------------------


def figures_of(state: MatchState, unit: Unit) -> tuple[Figure, ...]:
    """Return a unit's figures that are on the board."""
    return tuple(f for f in state.figures if f.unit == unit.id and f.square is not None)


def can_move(unit: Unit) -> bool:
    """True if the unit's figures may take Move actions: characters, or Drifting terrain (R1)."""
    return not unit.is_terrain or DRIFTING in unit.abilities


def active_selections(state: MatchState, unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    """Return the action-coin selections the unit may make as the active unit."""
    if not figures_of(state, unit) or not can_move(unit):
        return ()
    return ACTIVE_SELECTIONS


def reactive_selections(state: MatchState, unit: Unit) -> tuple[tuple[ActionKind, ...], ...]:
    """Return the action-coin selections the unit may make as the reactive unit."""
    if not figures_of(state, unit):
        return ()
    if unit.is_terrain:
        # Terrain pieces only move and stunt, as their abilities allow (R1).
        return (("move",), ("move", "move")) if can_move(unit) else ()
    return REACTIVE_SELECTIONS


def coin_in_stash(state: MatchState, side: Side, unit: Unit, colour: Colour) -> CoinId | None:
    """Return the first coin of that unit and colour in the side's stash, or None."""
    for coin in state.piles(side).stash:
        if coin_unit(coin) == unit.id and coin_colour(coin) == colour:
            return coin
    return None


def units_of(state: MatchState, side: Side) -> tuple[Unit, ...]:
    """Return a side's units."""
    return tuple(u for u in state.units if u.side == side)


def has_legal_activation(state: MatchState, side: Side) -> bool:
    """True if the side has a unit coin in its stash for a unit that can act (R15)."""
    stash_units = {coin_unit(c) for c in state.piles(side).stash}
    return any(u.id in stash_units and active_selections(state, u) for u in units_of(state, side))


def can_react(state: MatchState, side: Side) -> bool:
    """True if the side has a unit coin in its stash for a unit that can react (R3)."""
    stash_units = {coin_unit(c) for c in state.piles(side).stash}
    return any(u.id in stash_units and reactive_selections(state, u) for u in units_of(state, side))


# --- selection and reveal ---------------------------------------------------


def select_coins(
    b: Builder, side: Side, unit: Unit, colour: Colour, actions: tuple[ActionKind, ...]
) -> None:
    """Record the active player's secret selection (R3).

    :raises IllegalCommandError: if the unit cannot make that selection now.
    """
    state = b.state
    if unit.side != side:
        raise IllegalCommandError(f"{unit.name} is not one of your units")
    options = active_selections(state, unit)
    if not options:
        raise IllegalCommandError(f"{unit.name} cannot act: it has nothing it can do")
    if actions not in options:
        raise IllegalCommandError(_active_selection_problem(unit, actions))
    coin = coin_in_stash(state, side, unit, colour)
    if coin is None:
        raise IllegalCommandError(f"{unit.name} has no {colour} unit coin in its stash")
    b.emit(CoinsSelected(side=side, coin=coin, actions=actions))


def _active_selection_problem(unit: Unit, actions: tuple[ActionKind, ...]) -> str:
    if not actions:
        return f"a Recovery needs a Wounded or Disabled character in {unit.name}"
    if "move" not in actions or len(set(actions)) > 1:
        return "only Move actions can be taken in this version of the engine"
    return f"{unit.name} cannot take that selection"


def select_reaction(
    b: Builder, side: Side, unit: Unit, colour: Colour, actions: tuple[ActionKind, ...]
) -> None:
    """Record the reactive player's secret selection, reveal the active one, and begin (R3, R4).

    :raises IllegalCommandError: if the unit cannot make that selection now.
    """
    state = b.state
    if unit.side != side:
        raise IllegalCommandError(f"{unit.name} is not one of your units")
    if actions == ("defend", "defend"):
        raise IllegalCommandError(
            "two Defend coins are not a legal selection (Double-Defend is N/A)"
        )
    if len(actions) == 2 and actions[0] != actions[1]:
        raise IllegalCommandError("a reaction is one action coin, or two of the same kind")
    if actions not in reactive_selections(state, unit):
        raise IllegalCommandError(f"{unit.name} cannot react with that selection")
    coin = coin_in_stash(state, side, unit, colour)
    if coin is None:
        raise IllegalCommandError(f"{unit.name} has no {colour} unit coin in its stash")
    b.emit(ReactionSelected(side=side, coin=coin, actions=actions))
    _reveal_and_begin(b)


def select_no_reaction(b: Builder, side: Side) -> None:
    """Record that the reactive player selected nothing, having no coin to select (R3).

    :raises IllegalCommandError: if the player does have a unit coin for a unit that can react.
    """
    if can_react(b.state, side):
        raise IllegalCommandError(
            "you have a unit coin for a unit that can react, so you must select one"
        )
    b.emit(ReactionSelected(side=side, coin=None, actions=()))
    _reveal_and_begin(b)


def _reveal_and_begin(b: Builder) -> None:
    act = b.state.activation
    assert act is not None and act.coin is not None
    b.emit(CoinsRevealed(side=act.side, coin=act.coin, actions=act.actions))
    _next_action(b)


def _next_action(b: Builder) -> None:
    """Start the next action if only one can come next; finish the activation if none."""
    act = b.state.activation
    assert act is not None
    remaining = act.remaining
    if not remaining:
        _end_activation(b)
    elif len(set(remaining)) == 1:
        b.emit(
            ActionStarted(
                side=act.side, unit=act.unit, action=remaining[0], double=len(remaining) == 2
            )
        )
    # Otherwise two different actions remain: the player chooses (BeginAction).


def begin_action(b: Builder, kind: ActionKind) -> None:
    """Take one of two different selected actions first (R3).

    :raises IllegalCommandError: if that action was not selected.
    """
    act = b.state.activation
    assert act is not None
    if kind not in act.remaining:
        raise IllegalCommandError(f"no {kind.capitalize()} action coin was selected")
    b.emit(ActionStarted(side=act.side, unit=act.unit, action=kind, double=False))


def _end_activation(b: Builder) -> None:
    """Reveal, discard and return coins at the end of an activation (R3, R4)."""
    act = b.state.activation
    assert act is not None and act.coin is not None
    reactive: Side = "adversaries" if act.side == "heroes" else "heroes"
    if act.reaction_coin is not None and not act.reaction_revealed:
        b.emit(
            ReactionRevealed(side=reactive, coin=act.reaction_coin, actions=act.reaction_actions)
        )
    b.emit(UnitCoinDiscarded(side=act.side, coin=act.coin))
    if act.reaction_coin is not None:
        if act.reacted:
            b.emit(UnitCoinDiscarded(side=reactive, coin=act.reaction_coin))
        else:
            b.emit(UnitCoinReturned(side=reactive, coin=act.reaction_coin))
    b.emit(ActivationEnded(side=act.side))


# --- the Move action (R19) --------------------------------------------------


def movers(state: MatchState) -> tuple[Figure, ...]:
    """Return the active unit's figures that may still begin or continue a move."""
    act = state.activation
    assert act is not None and act.action is not None
    unit = state.unit(act.unit)
    return tuple(f for f in figures_of(state, unit) if f.id not in act.action.moved)


def step_options(state: MatchState, figure: Figure) -> tuple[Direction, ...]:
    """Return the directions in which ``figure`` may take its next step of the Move action."""
    act = state.activation
    assert act is not None and act.action is not None and state.board is not None
    action = act.action
    if figure.id in action.moved:
        return ()
    if action.mover == figure.id:
        steps = action.steps_left
    else:
        if action.mover is not None and not can_end_move(state):
            return ()  # the current mover stands on an ally and must move on
        steps = action.allowance
    if steps <= 0:
        return ()
    return movement.step_options(
        state.board, state.figures, figure, steps, pass_through_allies=True
    )


def can_end_move(state: MatchState) -> bool:
    """True if the current mover, if any, may stop where it stands (never on an ally, R19)."""
    act = state.activation
    assert act is not None and act.action is not None and state.board is not None
    mover = act.action.mover
    if mover is None:
        return True
    return movement.can_stop_here(
        state.board, state.figures, state.figure(mover), pass_through_allies=True
    )


def step(b: Builder, figure: Figure, direction: Direction) -> None:
    """Move a figure of the active unit one space (R19).

    :raises IllegalCommandError: if the figure may not step that way now.
    """
    state = b.state
    act = state.activation
    assert act is not None and act.action is not None
    if figure.unit != act.unit:
        raise IllegalCommandError(f"{figure.name} is not in the active unit")
    if figure.square is None:
        raise IllegalCommandError(f"{figure.name} is not on the board")
    if direction[0] and direction[1]:
        raise IllegalCommandError("regular movement is orthogonal, never diagonal")
    if figure.id in act.action.moved:
        raise IllegalCommandError(f"{figure.name} has already moved in this action")
    if act.action.mover not in (None, figure.id) and not can_end_move(state):
        current = state.figure(act.action.mover or "")
        raise IllegalCommandError(
            f"{current.name} stands on an ally and must move on before another figure moves"
        )
    if act.action.mover == figure.id and act.action.steps_left <= 0:
        raise IllegalCommandError(f"{figure.name} has no movement left")
    if direction not in step_options(state, figure):
        raise IllegalCommandError(f"{figure.name} cannot step {compass(direction)} from here")
    b.emit(FigureStepped(figure=figure.id, to=movement.step(figure, direction)))


def end_move(b: Builder) -> None:
    """End the Move action under way, then go on to the next action or end the activation.

    :raises IllegalCommandError: if the current mover stands on an ally.
    """
    if not can_end_move(b.state):
        act = b.state.activation
        assert act is not None and act.action is not None
        mover = b.state.figure(act.action.mover or "")
        raise IllegalCommandError(f"{mover.name} cannot end its move on an ally (R19)")
    end_action(b)


def end_action(b: Builder) -> None:
    """Finish the action under way and carry on with the activation."""
    act = b.state.activation
    assert act is not None and act.action is not None
    b.emit(ActionEnded(side=act.side, action=act.action.kind))
    _next_action(b)


_COMPASS: Final[dict[Direction, str]] = {
    (0, -1): "north",
    (1, 0): "east",
    (0, 1): "south",
    (-1, 0): "west",
    (1, -1): "north-east",
    (1, 1): "south-east",
    (-1, 1): "south-west",
    (-1, -1): "north-west",
}


def compass(direction: Direction) -> str:
    """Return a direction's compass name ("north", "south-east", ...)."""
    return _COMPASS.get(direction, str(direction))
