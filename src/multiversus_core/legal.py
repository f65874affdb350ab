"""The legal commands for a player: exactly the commands :func:`decide` accepts.

Each decision point offers a short list: one coin selection, one step of
one figure, one roll. Property tests check both directions: every listed
command is accepted, and every command not listed is rejected.
"""

from __future__ import annotations

from multiversus_core import activation, setup
from multiversus_core.commands import (
    BeginAction,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    EndMove,
    FlipForSetUp,
    GiveUpInitiative,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
)
from multiversus_core.decide import decider_seat
from multiversus_core.state import MatchState
from multiversus_core.terms import SIDES, Colour, Seat
from multiversus_core.units import coin_colour, coin_unit

_COLOURS: tuple[Colour, Colour] = ("green", "grey")


def legal_commands(state: MatchState, player: Seat) -> tuple[Command, ...]:
    """Return every command ``player`` may give now, in a stable order.

    Chance commands (the set-up flip, the Initiative roll) are listed with no
    supplied value; any supplied value from the game's range is accepted too.
    """
    if decider_seat(state) != player:
        return ()
    match state.pending:
        case "flip":
            return (FlipForSetUp(player=player),)
        case "teams":
            return tuple(
                ChooseTeams(player=player, heroes=h, adversaries=a, scenario=s)
                for h, a, s in setup.team_options(state)
            )
        case "starting_team":
            return tuple(ChooseStartingTeam(player=player, side=side) for side in SIDES)
        case "side":
            return tuple(ChooseSide(player=player, side=side) for side in SIDES)
        case "select":
            return _selections(state, player)
        case "react":
            return _reactions(state, player)
        case "begin_action":
            act = state.activation
            assert act is not None
            return tuple(
                BeginAction(player=player, action=kind) for kind in sorted(set(act.remaining))
            )
        case "move":
            return _moves(state, player)
        case "roll":
            return (RollInitiative(player=player),)
        case "over":
            return ()


def _coin_options(state: MatchState, player: Seat) -> list[tuple[str, Colour]]:
    side = state.side_of(player)
    assert side is not None
    seen: list[tuple[str, Colour]] = []
    for coin in state.piles(side).stash:
        key = (coin_unit(coin), coin_colour(coin))
        if key not in seen:
            seen.append(key)
    return seen


def _selections(state: MatchState, player: Seat) -> tuple[Command, ...]:
    commands: list[Command] = []
    for unit_id, colour in _coin_options(state, player):
        for actions in activation.active_selections(state, state.unit(unit_id)):
            commands.append(
                SelectCoins(player=player, unit=unit_id, colour=colour, actions=actions)
            )
    if state.may_give_up:
        commands.append(GiveUpInitiative(player=player))
    return tuple(commands)


def _reactions(state: MatchState, player: Seat) -> tuple[Command, ...]:
    commands: list[Command] = []
    for unit_id, colour in _coin_options(state, player):
        for actions in activation.reactive_selections(state, state.unit(unit_id)):
            commands.append(
                SelectReaction(player=player, unit=unit_id, colour=colour, actions=actions)
            )
    return tuple(commands) or (SelectNoReaction(player=player),)


def _moves(state: MatchState, player: Seat) -> tuple[Command, ...]:
    commands: list[Command] = []
    for figure in activation.movers(state):
        for direction in activation.step_options(state, figure):
            commands.append(Step(player=player, figure=figure.id, direction=direction))
    if activation.can_end_move(state):
        commands.append(EndMove(player=player))
    return tuple(commands)


__all__ = ["legal_commands"]
