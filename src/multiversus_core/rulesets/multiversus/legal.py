"""The legal commands for a player: exactly the commands :func:`decide` accepts.

Each decision point offers a short list: one coin selection, one step of
one figure, one attack of one character, one roll. Property tests check both
directions: every listed command is accepted, and every command not listed is
rejected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from multiversus_core.rulesets.multiversus import activation, forced, selections, setup
from multiversus_core.rulesets.multiversus.commands import (
    AfterAttack,
    Attack,
    BeginAction,
    BlockForcedMove,
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    DeclineReaction,
    EndAction,
    FlipForSetUp,
    GiveUpInitiative,
    React,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
)
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.state import MatchState, Pending, by_figures, derived
from multiversus_core.rulesets.multiversus.terms import SIDES, ActionKind, Colour, Seat
from multiversus_core.rulesets.multiversus.units import Unit


def legal_commands(state: MatchState, player: Seat) -> tuple[Command, ...]:
    """Return every command ``player`` may give now, in a stable order.

    Chance commands (the set-up flip, the Initiative roll) are listed with no
    supplied value; any supplied value from the game's range is accepted too.
    """
    if decider_seat(state) != player:
        return ()
    return _LISTINGS[state.pending](state, player)


def _flip(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return (FlipForSetUp(player=player),)


def _teams(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return tuple(
        ChooseTeams(player=player, heroes=h, adversaries=a, scenario=s)
        for h, a, s in setup.team_options(state)
    )


def _starting_team(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return tuple(ChooseStartingTeam(player=player, side=side) for side in SIDES)


def _side(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return tuple(ChooseSide(player=player, side=side) for side in SIDES)


def _secret(state: MatchState, player: Seat) -> tuple[Command, ...]:
    offer = setup.next_secret(state)
    assert offer is not None
    return tuple(
        ChooseSecret(player=player, name=offer.name, choice=choice) for choice in offer.options
    )


def _begin_action(state: MatchState, player: Seat) -> tuple[Command, ...]:
    act = state.activation
    assert act is not None
    return tuple(BeginAction(player=player, action=kind) for kind in sorted(set(act.remaining)))


def _after_attack(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return tuple(
        AfterAttack(player=player, choice=choice, direction=direction)
        for choice, direction in activation.follow_up_options(state)
    )


def _offer(state: MatchState, player: Seat) -> tuple[Command, ...]:
    if activation.can_react_now(state):
        return (React(player=player), DeclineReaction(player=player))
    return (DeclineReaction(player=player),)


def _roll(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return (RollInitiative(player=player),)


def _over(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return ()


def _selections(state: MatchState, player: Seat) -> tuple[Command, ...]:
    commands = _listed(state, player, SelectCoins)
    if state.may_give_up:
        commands.append(GiveUpInitiative(player=player))
    return tuple(commands)


def _reactions(state: MatchState, player: Seat) -> tuple[Command, ...]:
    return tuple(_listed(state, player, SelectReaction)) or (SelectNoReaction(player=player),)


def _listed(
    state: MatchState, player: Seat, kind: type[SelectCoins | SelectReaction]
) -> list[Command]:
    """Return the selection commands of every unit coin in the player's stash, in stash order.

    A unit's commands depend only on the unit and the figures, so they are kept in the
    table of :func:`~.state.by_figures` by kind, player, unit and colour.
    """
    side = state.side_of(player)
    assert side is not None
    listed: dict[tuple[object, ...], tuple[Command, ...]]
    listed = by_figures(state, "_listed_selections", _new_listing)
    commands: list[Command] = []
    for unit_id, colour in state.piles(side).stash_kinds:
        key = (kind, player, unit_id, colour)
        found = listed.get(key)
        if found is None:
            unit = state.unit(unit_id)
            if kind is SelectCoins:
                options = selections.active_selections(state, unit)
            else:
                options = selections.reactive_selections(state, unit)
            found = listed[key] = _selection_commands(unit, kind, player, colour, options)
        commands.extend(found)
    return commands


def _new_listing(state: MatchState) -> dict[tuple[object, ...], tuple[Command, ...]]:
    return {}


def _selection_commands(
    unit: Unit,
    kind: type[SelectCoins | SelectReaction],
    player: Seat,
    colour: Colour,
    options: tuple[tuple[ActionKind, ...], ...],
) -> tuple[Command, ...]:
    """Return the selection commands of a unit's coin, built once per unit (which lasts the
    match) and kept on it: the same few lists come up at every selection.

    The lists are kept by kind, player and colour, each with the selections it was built
    from: those are nearly always the very same tuple (a constant of
    :mod:`~.activation`), which is quicker to check than to hash.
    """
    built: dict[object, tuple[_Selections, tuple[Command, ...]]]
    built = derived(unit, "_selection_commands", _new_table)
    key = (kind, player, colour)
    found = built.get(key)
    if found is not None and (found[0] is options or found[0] == options):
        return found[1]
    commands = tuple(
        kind(player=player, unit=unit.id, colour=colour, actions=actions) for actions in options
    )
    built[key] = (options, commands)
    return commands


_Selections = tuple[tuple[ActionKind, ...], ...]


def _new_table(unit: Unit) -> dict[object, tuple[_Selections, tuple[Command, ...]]]:
    return {}


def _moves(state: MatchState, player: Seat) -> tuple[Command, ...]:
    commands: list[Command] = []
    for figure in activation.movers(state):
        for direction in activation.step_options(state, figure):
            commands.append(Step(player=player, figure=figure.id, direction=direction))
    if activation.can_end_move(state):
        commands.append(EndAction(player=player))
    return tuple(commands)


def _attacks(state: MatchState, player: Seat) -> tuple[Command, ...]:
    commands: list[Command] = []
    for attacker in activation.attackers(state):
        for target in activation.attack_targets(state, attacker):
            commands.append(Attack(player=player, attacker=attacker.id, target=target.id))
    commands.append(EndAction(player=player))
    return tuple(commands)


def _stunts(state: MatchState, player: Seat) -> tuple[Command, ...]:
    commands: list[Command] = []
    for figure in activation.stunters(state):
        for ability, target in activation.stunt_options(state, figure):
            commands.append(Stunt(player=player, figure=figure.id, ability=ability, target=target))
    commands.append(EndAction(player=player))
    return tuple(commands)


def _forced(state: MatchState, player: Seat) -> tuple[Command, ...]:
    choice = forced.held(state)
    assert choice is not None
    if choice.ally is not None:
        return (
            BlockForcedMove(player=player, ally=choice.ally, block=True),
            BlockForcedMove(player=player, ally=choice.ally, block=False),
        )
    return tuple(StopForcedMove(player=player, spaces=k) for k in forced.stop_options(state))


_LISTINGS: Final[dict[Pending, Callable[[MatchState, Seat], tuple[Command, ...]]]] = {
    "flip": _flip,
    "teams": _teams,
    "starting_team": _starting_team,
    "side": _side,
    "secret": _secret,
    "select": _selections,
    "react": _reactions,
    "begin_action": _begin_action,
    "move": _moves,
    "attack": _attacks,
    "after_attack": _after_attack,
    "stunt": _stunts,
    "offer": _offer,
    "forced": _forced,
    "roll": _roll,
    "over": _over,
}
"""The listing for each decision the match may wait for, found in one lookup."""


__all__ = ["legal_commands"]
