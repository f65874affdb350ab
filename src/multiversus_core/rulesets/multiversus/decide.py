"""``decide(command, state) -> events``: the rules, applied to one command.

``decide`` is pure: it reads the state and the command, draws chance from
the seeded state (or takes the value the command supplies), and returns the
events that happened. It raises :class:`InvalidCommandError` for a command
that is not well formed and :class:`IllegalCommandError` for one the rules do
not allow now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from multiversus_core.engine import chance
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.rulesets.multiversus import activation, forced, initiative, setup
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.builder import Builder
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
from multiversus_core.rulesets.multiversus.events import Event, InitiativeGivenUp
from multiversus_core.rulesets.multiversus.secrets import check_salt
from multiversus_core.rulesets.multiversus.state import MatchState, Pending
from multiversus_core.rulesets.multiversus.terms import (
    ACTION_KINDS,
    SEATS,
    SIDES,
    ActionKind,
    Colour,
    Seat,
    Side,
)
from multiversus_core.rulesets.multiversus.units import Unit

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
    return chance.dice_seed(state.chance)


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
    if command.player not in SEATS:
        raise InvalidCommandError(f"player must be seat 1 or 2, not {command.player!r}")
    rule = _RULES.get(type(command))
    if rule is None:
        raise InvalidCommandError(f"{type(command).__name__} is not a command of the game")
    b = Builder(state)
    rule(b, command)
    if b.forced:
        forced.run(b)  # nothing is left queued once the rules above have run
    return tuple(b.events), b.state


# --- one rule per command ---------------------------------------------------
# Each checks that its command is well formed (InvalidCommandError), then that
# the match waits for it (IllegalCommandError), then applies the rules.


def _flip(b: Builder, command: FlipForSetUp) -> None:
    winner = command.winner
    if winner is not None and winner not in SEATS:
        raise InvalidCommandError(f"the coin favours seat 1 or 2, not {winner!r}")
    state = b.state
    _expect(state, command.player, "flip")
    if winner is None:
        winner = 1 if chance.flip_coin(_seed(state), state.draws) else 2
    setup.flip(b, winner)


def _choose_teams(b: Builder, command: ChooseTeams) -> None:
    _expect(b.state, command.player, "teams")
    setup.choose_teams(b, command.heroes, command.adversaries, command.scenario)


def _choose_starting_team(b: Builder, command: ChooseStartingTeam) -> None:
    _check_side(command.side)
    _expect(b.state, command.player, "starting_team")
    setup.choose_starting_team(b, command.side)


def _choose_side(b: Builder, command: ChooseSide) -> None:
    _check_side(command.side)
    _expect(b.state, command.player, "side")
    setup.choose_side(b, command.player, command.side)


def _select_coins(b: Builder, command: SelectCoins) -> None:
    _check_selection(command.colour, command.actions)
    state = b.state
    check_salt(command.salt, state.settings)
    side = _expect(state, command.player, "select")
    unit = _unit(state, command.unit)
    activation.select_coins(b, side, unit, command.colour, command.actions, command.salt)


def _select_reaction(b: Builder, command: SelectReaction) -> None:
    _check_selection(command.colour, command.actions)
    if not command.actions:
        raise InvalidCommandError("a reaction needs at least one action coin")
    state = b.state
    check_salt(command.salt, state.settings)
    side = _expect(state, command.player, "react")
    unit = _unit(state, command.unit)
    activation.select_reaction(b, side, unit, command.colour, command.actions, command.salt)


def _select_no_reaction(b: Builder, command: SelectNoReaction) -> None:
    side = _expect(b.state, command.player, "react")
    activation.select_no_reaction(b, side)


def _begin_action(b: Builder, command: BeginAction) -> None:
    if command.action not in ACTION_KINDS:
        raise InvalidCommandError(f"actions are {', '.join(ACTION_KINDS)}, not {command.action!r}")
    _expect(b.state, command.player, "begin_action")
    activation.begin_action(b, command.action)


def _step(b: Builder, command: Step) -> None:
    direction = command.direction
    dc, dr = direction
    if dc not in (-1, 0, 1) or dr not in (-1, 0, 1) or (dc, dr) == (0, 0):
        raise InvalidCommandError(
            f"a step is one space: each of the direction's parts is -1, 0 or 1, "
            f"not both 0 (got {direction!r})"
        )
    state = b.state
    _expect(state, command.player, "move")
    activation.step(b, _figure(state, command.figure), direction)


def _end_action(b: Builder, command: EndAction) -> None:
    _expect(b.state, command.player, "move", "attack", "stunt")
    activation.end_action(b)


def _choose_secret(b: Builder, command: ChooseSecret) -> None:
    state = b.state
    check_salt(command.salt, state.settings)
    side = _expect(state, command.player, "secret")
    setup.choose_secret(b, side, command.name, command.choice, command.salt)


def _attack(b: Builder, command: Attack) -> None:
    state = b.state
    _expect(state, command.player, "attack")
    activation.attack(b, _figure(state, command.attacker), _figure(state, command.target))


def _after_attack(b: Builder, command: AfterAttack) -> None:
    direction = command.direction
    if command.choice not in ("step", "push", "stay") or (
        direction is not None and not _is_unit_step(direction)
    ):
        raise InvalidCommandError("after an attack: step (with a direction), push, or stay")
    _expect(b.state, command.player, "after_attack")
    activation.after_attack(b, command.choice, direction)


def _stunt(b: Builder, command: Stunt) -> None:
    state = b.state
    _expect(state, command.player, "stunt")
    activation.stunt(b, _figure(state, command.figure), command.ability, command.target)


def _react(b: Builder, command: React) -> None:
    _expect(b.state, command.player, "offer")
    activation.react(b)


def _decline(b: Builder, command: DeclineReaction) -> None:
    _expect(b.state, command.player, "offer")
    activation.decline(b)


def _roll(b: Builder, command: RollInitiative) -> None:
    die = command.die
    if die is not None and not 1 <= die <= 6:
        raise InvalidCommandError(f"a six-sided die shows 1 to 6, not {die!r}")
    state = b.state
    side = _expect(state, command.player, "roll")
    if die is None:
        die = chance.roll_die(_seed(state), state.draws)
    initiative.roll(b, side, die)


def _block(b: Builder, command: BlockForcedMove) -> None:
    if not isinstance(command.block, bool):
        raise InvalidCommandError(f"block is true or false, not {command.block!r}")
    _expect(b.state, command.player, "forced")
    forced.choose_block(b, command.ally, command.block)


def _stop(b: Builder, command: StopForcedMove) -> None:
    if command.spaces < 0:
        raise InvalidCommandError(f"a forced move goes 0 or more spaces, not {command.spaces!r}")
    _expect(b.state, command.player, "forced")
    forced.choose_stop(b, command.spaces)


def _give_up(b: Builder, command: GiveUpInitiative) -> None:
    state = b.state
    side = _expect(state, command.player, "select")
    if not state.may_give_up:
        raise IllegalCommandError("the Initiative can be given up only after a roll that kept it")
    b.emit(InitiativeGivenUp(side=side))
    initiative.end_turn(b, side, "initiative_given_up")


_RULES: Final[dict[type[Command], Callable[[Builder, Any], None]]] = {
    FlipForSetUp: _flip,
    ChooseTeams: _choose_teams,
    ChooseStartingTeam: _choose_starting_team,
    ChooseSide: _choose_side,
    SelectCoins: _select_coins,
    SelectReaction: _select_reaction,
    SelectNoReaction: _select_no_reaction,
    BeginAction: _begin_action,
    Step: _step,
    EndAction: _end_action,
    ChooseSecret: _choose_secret,
    Attack: _attack,
    AfterAttack: _after_attack,
    Stunt: _stunt,
    React: _react,
    DeclineReaction: _decline,
    RollInitiative: _roll,
    BlockForcedMove: _block,
    StopForcedMove: _stop,
    GiveUpInitiative: _give_up,
}
"""The rule for each kind of command, found by the command's class in one lookup."""


def decider_seat(state: MatchState) -> Seat | None:
    """Return the seat whose decision the match is waiting for, or None once it is over."""
    # derived(state, "_decider_seat", _decider_seat), inlined: a front end, the listing and
    # deciding each ask it of every state.
    cache = state.__dict__
    seat: Seat | None = cache.get("_decider_seat", _UNKNOWN)
    if seat is _UNKNOWN:
        seat = cache["_decider_seat"] = _decider_seat(state)
    return seat


_UNKNOWN: Final[Any] = object()


_ACTIVE_DECIDES: Final[frozenset[Pending]] = frozenset({"select", "begin_action", "roll"})
"""Decisions of the active player alone."""
_ACTING_DECIDES: Final[frozenset[Pending]] = frozenset({"move", "attack", "after_attack", "stunt"})
"""Decisions of the acting player: the reactive one while a reaction is under way."""


def _decider_seat(state: MatchState) -> Seat | None:
    # The deciding side's seat, as _decider_side finds it, without a call for the usual
    # decisions (the listing asks it of every state).
    pending = state.pending
    if pending in _ACTING_DECIDES:
        reaction = None if state.activation is None else state.activation.reaction
        if reaction is not None:
            return state.seat_of(reaction.side)
    elif pending not in _ACTIVE_DECIDES:
        return _other_decider_seat(state)
    return None if state.active is None else state.seat_of(state.active)


def _other_decider_seat(state: MatchState) -> Seat | None:
    match state.pending:
        case "react" | "offer":
            return None if state.reactive is None else state.seat_of(state.reactive)
        case "flip":
            return 1
        case "teams" | "starting_team":
            return state.set_up_player
        case "side":
            return None if state.set_up_player is None else (2 if state.set_up_player == 1 else 1)
    side = _decider_side(state)  # a forced move's or a set-up secret's
    return None if side is None else state.seat_of(side)


def _decider_side(state: MatchState) -> Side | None:
    """The side whose decision the match is waiting for; None for a set-up decision made
    by seat (before sides are chosen) and once the match is over."""
    pending = state.pending
    if pending in _ACTING_DECIDES:
        act = state.activation
        if act is not None and act.reaction is not None:
            return act.reaction.side
        return state.active
    if pending in _ACTIVE_DECIDES:
        return state.active
    match pending:
        case "react" | "offer":
            return state.reactive
        case "forced":
            choice = forced.held(state)
            return None if choice is None else choice.side
        case "secret":
            offer = setup.next_secret(state)
            return None if offer is None else offer.side
        case _:
            return None  # a decision by seat, or the match is over


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
    now = state.pending
    if now in pending:
        decider = _decider_side(state)
        if decider is not None:
            # The player's side against the deciding side, the same as their seats without
            # working the deciding seat out: the player holds the Heroes' seat if and only
            # if the Heroes decide (state.side_of(player) == decider).
            heroes_seat = state.heroes_seat
            if heroes_seat is not None and (player == heroes_seat) == (decider == "heroes"):
                return decider
        elif decider_seat(state) == player:
            return state.side_of(player) or "heroes"
    if now == "over":
        raise IllegalCommandError("the match is over")
    raise IllegalCommandError(
        f"the match is not waiting for that: it waits for {waiting_for(state)}"
    )


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


def _check_side(side: Side) -> None:
    if side not in SIDES:
        raise InvalidCommandError(f"a team is 'heroes' or 'adversaries', not {side!r}")


def _check_selection(colour: Colour, actions: tuple[ActionKind, ...]) -> None:
    if colour not in ("green", "grey"):
        raise InvalidCommandError(f"a unit coin is green or grey, not {colour!r}")
    if type(actions) is not tuple:
        raise InvalidCommandError("list the action coins as a tuple")
    if len(actions) > 2:
        raise InvalidCommandError("at most two action coins can be selected")
    for action in actions:
        if action not in ACTION_KINDS:
            raise InvalidCommandError(f"action coins are {', '.join(ACTION_KINDS)}")
    if len(actions) == 2 and actions[1] < actions[0]:
        raise InvalidCommandError("list the action coins in alphabetical order")
