"""tiles-d6 in words: where a match stands, each command and each event in one line.

Nothing is hidden in this game (T28), so every viewer reads the same words.
Tiles are named as a player reads a board: a column letter and a row number
from 1 ("c4" is column 2, row 3 counted from 0: T31).
"""

from __future__ import annotations

import msgspec

from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.tiles_d6.model import (
    ActionEnded,
    ActionStarted,
    Attack,
    Attacked,
    BramblesRolled,
    ChooseHalf,
    ConcussedEvent,
    ConcussionRolled,
    Damaged,
    EndAction,
    EndTurn,
    Fire,
    Fired,
    FirstPlayerChosen,
    HalfChosen,
    Injured,
    KnockedDown,
    MatchEnded,
    Place,
    RollOff,
    RollOffRolled,
    RoundStarted,
    StandUp,
    StartCharge,
    StartMove,
    Stepped,
    StepTo,
    StoodUp,
    StunnedEvent,
    StunRecovered,
    TilesState,
    TurnEnded,
    TurnStarted,
    Unit,
    UnitPlaced,
    WithdrawRolled,
)
from multiversus_core.rulesets.tiles_d6.rules import next_to_place


def own_name(unit: Unit) -> str:
    """A unit's name on its own side: its type's name and its number (``"Spearman 2"``)."""
    _, _, own = unit.id.partition(".")
    number = own.rsplit("-", 1)[1] if "-" in own and own.rsplit("-", 1)[1].isdigit() else ""
    return unit.stats.name + (f" {number}" if number else "")


def unit_name(state: TilesState, unit_id: str) -> str:
    """A unit as players name it: its type's name and its number, and whose it is."""
    unit = state.unit(unit_id)
    if unit is None:
        return unit_id
    return f"{state.settings.players[unit.seat - 1]}'s {own_name(unit)}"


def where(state: TilesState) -> str:
    """Where the match stands ("round 3, Player 2's turn")."""
    names = state.settings.players
    match state.phase:
        case "roll_off":
            return "the roll-off"
        case "choose_half" | "deploy":
            return "set-up"
        case "over":
            return "the match is over"
    active = "" if state.active is None else f", {names[state.active - 1]}'s turn"
    return f"round {state.round}{active}"


def describe_command(shown: msgspec.Struct, state: TilesState) -> str:
    """Who gave a command and what it was."""
    if not hasattr(shown, "player"):
        return type(shown).__name__
    return f"{state.settings.players[shown.player - 1]}: {command_words(shown, state)}"


def command_words(command: msgspec.Struct, state: TilesState) -> str:
    """What a command does, in words, for the player choosing it ("step Ann's Spearman 2 to
    c4"): the state is the position it is given in (a view's state will do)."""
    match command:
        case RollOff(dice=dice):
            return "roll off" + ("" if dice is None else f" ({dice[0]} and {dice[1]})")
        case ChooseHalf(half=half):
            return f"deploy in the {half} half"
        case Place(player=seat, at=at):
            placed = next_to_place(state, seat)
            what = "a unit" if placed is None else unit_name(state, placed.id)
            return f"place {what} on {square(at)}"
        case StartMove(unit=unit):
            return f"move {unit_name(state, unit)}"
        case StartCharge(unit=unit):
            return f"charge with {unit_name(state, unit)}"
        case StandUp():
            return f"stand {_moving(state)} up"
        case StepTo(to=to):
            return f"step {_moving(state)} to {square(to)}"
        case Attack(unit=unit, target=target):
            return f"{unit_name(state, unit)} attacks {unit_name(state, target)}"
        case Fire(unit=unit, target=target):
            return f"{unit_name(state, unit)} fires at {unit_name(state, target)}"
        case EndAction():
            return f"stop {_moving(state)}"
        case EndTurn():
            return "end the turn"
    return type(command).__name__


def _moving(state: TilesState) -> str:
    """The unit whose Move or Charge is under way, or "the moving unit" (a command out of turn)."""
    return "the moving unit" if state.action is None else unit_name(state, state.action.unit)


def narrate(event: msgspec.Struct, state: TilesState, seat: Seat | None) -> str | None:
    """One event in one line, told from ``state`` (before the event): the same for every
    viewer, since nothing is hidden (T28)."""
    names = state.settings.players

    def of(unit_id: str) -> str:
        return unit_name(state, unit_id)

    match event:
        case RollOffRolled(dice=(first, second)):
            tie = " A tie: they roll again." if first == second else ""
            return f"Roll-off: {names[0]} {first}, {names[1]} {second}.{tie}"
        case FirstPlayerChosen(seat=first):
            return f"{names[first - 1]} is player one."
        case HalfChosen(seat=chooser, half=half):
            return f"{names[chooser - 1]} deploys in the {half} half."
        case UnitPlaced(unit=unit, at=at):
            return f"{of(unit)} is placed on {square(at)}."
        case RoundStarted(round=number):
            return f"Round {number} begins."
        case TurnStarted(seat=turn):
            return f"{names[turn - 1]}'s turn."
        case ActionStarted(unit=unit, action="move" | "charge" as kind, points=points):
            return f"{of(unit)} {'charges' if kind == 'charge' else 'moves'} ({points} points)."
        case StoodUp(unit=unit):
            return f"{of(unit)} stands up."
        case BramblesRolled(unit=unit, die=die, fell=fell):
            return f"{of(unit)} leaves the brambles: {die}{', and falls' if fell else ''}."
        case WithdrawRolled(unit=unit, die=die, total=total, fell=fell):
            fate = "falls" if fell else "gets away"
            return f"{of(unit)} withdraws: {die} (total {total}), and {fate}."
        case Stepped(unit=unit, to=to, cost=cost, fell=fell):
            how = "falls into" if fell else "steps to"
            return f"{of(unit)} {how} {square(to)} ({cost} point{'s' if cost > 1 else ''})."
        case Attacked(unit=unit, target=target, die=die, total=total, result=result):
            what = {"hit": "hits", "miss": "misses", "backfire": "backfires on"}[result]
            return f"{of(unit)} attacks {of(target)}: {die} (total {total}), and {what} it."
        case Fired(unit=unit, target=target, die=die, total=total, hit=hit):
            return (
                f"{of(unit)} fires at {of(target)}: {die} (total {total}), "
                f"{'a hit' if hit else 'a miss'}."
            )
        case Damaged(unit=unit, damage=damage, health=health):
            return f"{of(unit)} takes {damage} damage ({max(health, 0)} health left)."
        case KnockedDown(unit=unit):
            return f"{of(unit)} is knocked down."
        case StunnedEvent(unit=unit):
            return f"{of(unit)} is stunned."
        case ConcussedEvent(unit=unit):
            return f"{of(unit)} is concussed."
        case Injured(unit=unit):
            return f"{of(unit)} is injured and removed from play."
        case StunRecovered(unit=unit):
            return f"{of(unit)} recovers from the stun."
        case ConcussionRolled(unit=unit, die=die, recovered=recovered):
            fate = "recovers" if recovered else "is still concussed"
            return f"{of(unit)} rolls {die} for its concussion, and {fate}."
        case MatchEnded(reason=reason):
            return f"The match is over: {reason}."
        case ActionEnded() | TurnEnded() | ActionStarted():
            return None
    return None
