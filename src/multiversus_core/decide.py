"""``decide(command, state) -> events``: the rules, applied to one command.

``decide`` is pure: it reads the state and the command, draws chance from
the seeded state (or takes the value the command supplies), and returns the
events that happened. It raises :class:`InvalidCommandError` for a command
that is not well formed and :class:`IllegalCommandError` for one the rules do
not allow now.
"""

from __future__ import annotations

from typing import Final

from multiversus_core import activation, dice, forced, initiative, setup
from multiversus_core.board import Figure
from multiversus_core.builder import Builder
from multiversus_core.commands import (
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
from multiversus_core.commitments import check_salt
from multiversus_core.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.events import Event, InitiativeGivenUp
from multiversus_core.state import MatchState, Pending, derived
from multiversus_core.terms import ACTION_KINDS, SEATS, SIDES, Seat, Side
from multiversus_core.units import Unit

_WAITING_FOR: Final[dict[Pending, str]] = {
    "flip": "flip the coin for the Set Up Player",
    "teams": "choose the teams and scenario",
    "starting_team": "choose the team that starts with the Initiative",
    "side": "choose a team",
    "select": "select coins",
    "react": "select a reaction",
    "begin_action": "choose which action to take first",
    "move": "move",
    "attack": "attack",
    "after_attack": "step, push or stay after the attack",
    "stunt": "stunt",
    "offer": "react or let the trigger pass",
    "forced": "choose for a forced move: whether an ally in the way blocks, or where it stops",
    "secret": "choose a secret",
    "roll": "roll the Initiative die",
    "over": "nothing: the match is over",
}


def _seed(state: MatchState) -> int:
    """The seed of the match's chance: public in the settings, or the referee's secret."""
    if not state.settings.chance:
        return state.settings.seed
    if state.chance is None:
        raise IllegalCommandError(
            "this match's chance is secret and not known here: supply the die or the coin"
        )
    return state.chance.seed


def decide(command: Command, state: MatchState) -> tuple[Event, ...]:
    """Return the events that ``command`` causes in ``state``.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    return decide_and_fold(command, state)[0]


def decide_and_fold(command: Command, state: MatchState) -> tuple[tuple[Event, ...], MatchState]:
    """Return the events of :func:`decide`, and the state they fold into.

    Deciding folds every event as it goes, so the second result is exactly
    ``fold(events, state)``, without folding them again.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    _check_well_formed(command)
    if isinstance(command, SelectCoins | SelectReaction | ChooseSecret):
        check_salt(command.salt, state.settings)
    b = Builder(state)
    match command:
        case FlipForSetUp(player=player, winner=winner):
            _expect(state, player, "flip")
            if winner is None:
                winner = 1 if dice.flip_coin(_seed(state), state.draws) else 2
            setup.flip(b, winner)
        case ChooseTeams(player=player, heroes=heroes, adversaries=adversaries, scenario=scenario):
            _expect(state, player, "teams")
            setup.choose_teams(b, heroes, adversaries, scenario)
        case ChooseStartingTeam(player=player, side=side):
            _expect(state, player, "starting_team")
            setup.choose_starting_team(b, side)
        case ChooseSide(player=player, side=side):
            _expect(state, player, "side")
            setup.choose_side(b, player, side)
        case SelectCoins(player=player, unit=unit_id, colour=colour, actions=actions, salt=salt):
            side = _expect(state, player, "select")
            activation.select_coins(b, side, _unit(state, unit_id), colour, actions, salt)
        case SelectReaction(player=player, unit=unit_id, colour=colour, actions=actions, salt=salt):
            side = _expect(state, player, "react")
            activation.select_reaction(b, side, _unit(state, unit_id), colour, actions, salt)
        case SelectNoReaction(player=player):
            side = _expect(state, player, "react")
            activation.select_no_reaction(b, side)
        case BeginAction(player=player, action=kind):
            _expect(state, player, "begin_action")
            activation.begin_action(b, kind)
        case Step(player=player, figure=figure_id, direction=direction):
            _expect(state, player, "move")
            activation.step(b, _figure(state, figure_id), direction)
        case EndAction(player=player):
            _expect(state, player, "move", "attack", "stunt")
            activation.end_action(b)
        case ChooseSecret(player=player, name=name, choice=choice, salt=salt):
            side = _expect(state, player, "secret")
            setup.choose_secret(b, side, name, choice, salt)
        case Attack(player=player, attacker=attacker_id, target=target_id):
            _expect(state, player, "attack")
            activation.attack(b, _figure(state, attacker_id), _figure(state, target_id))
        case AfterAttack(player=player, choice=choice, direction=direction):
            _expect(state, player, "after_attack")
            activation.after_attack(b, choice, direction)
        case Stunt(player=player, figure=figure_id, ability=ability, target=target):
            _expect(state, player, "stunt")
            activation.stunt(b, _figure(state, figure_id), ability, target)
        case React(player=player):
            _expect(state, player, "offer")
            activation.react(b)
        case DeclineReaction(player=player):
            _expect(state, player, "offer")
            activation.decline(b)
        case RollInitiative(player=player, die=die):
            side = _expect(state, player, "roll")
            if die is None:
                die = dice.roll_die(_seed(state), state.draws)
            initiative.roll(b, side, die)
        case BlockForcedMove(player=player, ally=ally, block=block):
            _expect(state, player, "forced")
            forced.choose_block(b, ally, block)
        case StopForcedMove(player=player, spaces=spaces):
            _expect(state, player, "forced")
            forced.choose_stop(b, spaces)
        case GiveUpInitiative(player=player):
            side = _expect(state, player, "select")
            if not state.may_give_up:
                raise IllegalCommandError(
                    "the Initiative can be given up only after a roll that kept it"
                )
            b.emit(InitiativeGivenUp(side=side))
            initiative.end_turn(b, side, "initiative_given_up")
    forced.run(b)  # nothing is left queued once the rules above have run
    return tuple(b.events), b.state


def decider_seat(state: MatchState) -> Seat | None:
    """Return the seat whose decision the match is waiting for, or None once it is over."""
    return derived(state, "_decider_seat", _decider_seat)


def _decider_seat(state: MatchState) -> Seat | None:
    match state.pending:
        case "flip":
            return 1
        case "teams" | "starting_team":
            return state.set_up_player
        case "side":
            return None if state.set_up_player is None else (2 if state.set_up_player == 1 else 1)
        case "react" | "offer":
            return None if state.reactive is None else state.seat_of(state.reactive)
        case "forced":
            choice = forced.held(state)
            return None if choice is None else state.seat_of(choice.side)
        case "secret":
            offer = setup.next_secret(state)
            return None if offer is None else state.seat_of(offer.side)
        case "over":
            return None
        case "move" | "attack" | "after_attack" | "stunt" if (
            state.activation is not None and state.activation.reaction is not None
        ):
            return state.seat_of(state.activation.reaction.side)
        case _:
            return None if state.active is None else state.seat_of(state.active)


def waiting_for(state: MatchState) -> str:
    """Describe the decision the match is waiting for, in the game's words."""
    seat = decider_seat(state)
    if seat is None:
        return _WAITING_FOR[state.pending]
    name = state.settings.players[seat - 1]
    side = state.side_of(seat)
    who = f"{name} ({side.capitalize()})" if side else name
    return f"{who} to {_WAITING_FOR[state.pending]}"


def _expect(state: MatchState, player: Seat, *pending: Pending) -> Side:
    """Check that the match waits for ``player`` to make this kind of decision.

    Returns the player's side (a placeholder before sides are chosen).
    """
    if state.pending == "over":
        raise IllegalCommandError("the match is over")
    seat = decider_seat(state)
    if state.pending not in pending or seat != player:
        raise IllegalCommandError(
            f"the match is not waiting for that: it waits for {waiting_for(state)}"
        )
    return state.side_of(player) or "heroes"


def _figure(state: MatchState, figure_id: str) -> Figure:
    try:
        return state.figure(figure_id)
    except KeyError:
        raise InvalidCommandError(f"no figure {figure_id!r} is in this match") from None


def _unit(state: MatchState, unit_id: str) -> Unit:
    try:
        return state.unit(unit_id)
    except KeyError:
        raise InvalidCommandError(f"no unit {unit_id!r} is in this match") from None


def _is_unit_step(direction: object) -> bool:
    if not isinstance(direction, tuple) or len(direction) != 2:
        return False
    dc, dr = direction
    return dc in (-1, 0, 1) and dr in (-1, 0, 1) and (dc, dr) != (0, 0)


def _check_well_formed(command: Command) -> None:
    """Raise :class:`InvalidCommandError` for values outside the game's vocabulary."""
    if command.player not in SEATS:
        raise InvalidCommandError(f"player must be seat 1 or 2, not {command.player!r}")
    match command:
        case FlipForSetUp(winner=winner) if winner is not None and winner not in SEATS:
            raise InvalidCommandError(f"the coin favours seat 1 or 2, not {winner!r}")
        case ChooseStartingTeam(side=side) | ChooseSide(side=side) if side not in SIDES:
            raise InvalidCommandError(f"a team is 'heroes' or 'adversaries', not {side!r}")
        case (
            SelectCoins(colour=colour, actions=actions)
            | SelectReaction(colour=colour, actions=actions)
        ):
            if colour not in ("green", "grey"):
                raise InvalidCommandError(f"a unit coin is green or grey, not {colour!r}")
            if len(actions) > 2:
                raise InvalidCommandError("at most two action coins can be selected")
            if any(a not in ACTION_KINDS for a in actions):
                raise InvalidCommandError(f"action coins are {', '.join(ACTION_KINDS)}")
            if tuple(sorted(actions)) != actions:
                raise InvalidCommandError("list the action coins in alphabetical order")
            if isinstance(command, SelectReaction) and not actions:
                raise InvalidCommandError("a reaction needs at least one action coin")
        case BeginAction(action=kind) if kind not in ACTION_KINDS:
            raise InvalidCommandError(f"actions are {', '.join(ACTION_KINDS)}, not {kind!r}")
        case AfterAttack(choice=choice, direction=direction) if choice not in (
            "step",
            "push",
            "stay",
        ) or (direction is not None and not _is_unit_step(direction)):
            raise InvalidCommandError("after an attack: step (with a direction), push, or stay")
        case Step(direction=direction):
            dc, dr = direction
            if dc not in (-1, 0, 1) or dr not in (-1, 0, 1) or (dc, dr) == (0, 0):
                raise InvalidCommandError(
                    f"a step is one space: each of the direction's parts is -1, 0 or 1, "
                    f"not both 0 (got {direction!r})"
                )
        case BlockForcedMove(block=block) if not isinstance(block, bool):
            raise InvalidCommandError(f"block is true or false, not {block!r}")
        case StopForcedMove(spaces=spaces) if spaces < 0:
            raise InvalidCommandError(f"a forced move goes 0 or more spaces, not {spaces!r}")
        case RollInitiative(die=die) if die is not None and not 1 <= die <= 6:
            raise InvalidCommandError(f"a six-sided die shows 1 to 6, not {die!r}")
        case _:
            pass
