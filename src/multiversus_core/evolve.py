"""``evolve(state, event) -> state``: apply one fact.

``evolve`` never validates, never rolls and never fails on an event that
:func:`decide` produced for that state: the rules were applied when the event
was decided. It is on the replay hot path, so each case touches only the
fields its event changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from multiversus_core.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    BoardSetUp,
    CoinsRevealed,
    CoinsSelected,
    DiscardReturned,
    Event,
    FigureStepped,
    InitiativeGivenUp,
    InitiativeRolled,
    MatchEnded,
    ReactionRevealed,
    ReactionSelected,
    RoundEnded,
    RoundStarted,
    SetUpCoinFlipped,
    SideChosen,
    StartingTeamChosen,
    TeamsChosen,
    TurnEnded,
    TurnStarted,
    UnitCoinDiscarded,
    UnitCoinReturned,
)
from multiversus_core.settings import MatchSettings
from multiversus_core.state import Action, Activation, MatchState, Piles
from multiversus_core.terms import Side
from multiversus_core.units import CoinId, Unit

MOVE_ALLOWANCE = 3
"""Spaces a Move action lets each figure move."""
DOUBLE_MOVE_ALLOWANCE = 6
"""Spaces a Double-Move lets each figure move."""


def initial_state(settings: MatchSettings) -> MatchState:
    """Return the state before the first event of a match."""
    return MatchState(settings=settings)


def evolve(state: MatchState, event: Event) -> MatchState:
    """Return the state after ``event``."""
    # Cases are ordered by how often they occur in a match.
    match event:
        case FigureStepped(figure=figure_id, to=to):
            return _stepped(state, figure_id, to)
        case ActionStarted(action=kind, double=double):
            act = state.activation
            assert act is not None
            remaining = list(act.remaining)
            remaining.remove(kind)
            if double:
                remaining.remove(kind)
            allowance = 0
            if kind == "move":
                allowance = DOUBLE_MOVE_ALLOWANCE if double else MOVE_ALLOWANCE
            action = Action(kind=kind, double=double, allowance=allowance)
            pending = "move" if kind == "move" else state.pending
            return replace(
                state,
                pending=pending,
                activation=replace(act, remaining=tuple(remaining), action=action),
            )
        case ActionEnded():
            act = state.activation
            assert act is not None
            pending = "begin_action" if act.remaining else state.pending
            return replace(state, pending=pending, activation=replace(act, action=None))
        case CoinsSelected(side=side, coin=coin, actions=actions):
            piles = state.piles(side)
            stash = _without(piles.stash, coin)
            activation = Activation(
                side=side,
                unit=coin.rpartition(".")[0],
                coin=coin,
                actions=actions,
                remaining=actions,
            )
            return _with_piles(
                replace(state, pending="react", activation=activation, may_give_up=False),
                side,
                replace(piles, stash=stash),
            )
        case ReactionSelected(side=side, coin=coin, actions=actions):
            act = state.activation
            assert act is not None
            act = replace(act, reaction_coin=coin, reaction_actions=actions, reaction_selected=True)
            state = replace(state, activation=act)
            if coin is not None:
                piles = state.piles(side)
                state = _with_piles(state, side, replace(piles, stash=_without(piles.stash, coin)))
            return state
        case CoinsRevealed():
            act = state.activation
            assert act is not None
            return replace(state, activation=replace(act, revealed=True))
        case ReactionRevealed():
            act = state.activation
            assert act is not None
            return replace(state, activation=replace(act, reaction_revealed=True))
        case UnitCoinDiscarded(side=side, coin=coin):
            act = state.activation
            assert act is not None
            # The active coin or the reactive one, whichever it is, leaves play.
            act = replace(act, coin=None) if side == act.side else replace(act, reaction_coin=None)
            piles = state.piles(side)
            state = replace(state, activation=act)
            return _with_piles(state, side, replace(piles, discard=(*piles.discard, coin)))
        case UnitCoinReturned(side=side, coin=coin):
            act = state.activation
            assert act is not None
            piles = state.piles(side)
            state = replace(state, activation=replace(act, reaction_coin=None))
            return _with_piles(
                state, side, replace(piles, stash=_sorted_with(piles.stash, (coin,)))
            )
        case ActivationEnded():
            return replace(state, activation=None, pending="roll")
        case InitiativeRolled(lost=lost):
            # Every roll takes a draw, seeded or supplied by a physical die, so
            # later seeded draws do not depend on how earlier dice were rolled.
            if lost:
                return replace(state, draws=state.draws + 1)
            return replace(state, pending="select", may_give_up=True, draws=state.draws + 1)
        case InitiativeGivenUp():
            return replace(state, may_give_up=False)
        case DiscardReturned(side=side, coins=coins):
            piles = state.piles(side)
            discard = tuple(c for c in piles.discard if c not in coins)
            stash = _sorted_with(piles.stash, coins)
            return _with_piles(state, side, Piles(stash=stash, discard=discard))
        case TurnStarted(side=side):
            return replace(
                state,
                active=side,
                pending="select",
                may_give_up=False,
                turns_in_round=state.turns_in_round + 1,
            )
        case TurnEnded():
            return replace(state, may_give_up=False)
        case RoundStarted(round=number):
            return replace(state, round=number, turns_in_round=0)
        case RoundEnded():
            return state
        case MatchEnded(reason=reason):
            return replace(state, ended=reason, pending="over", active=None)
        case SetUpCoinFlipped(set_up_player=seat):
            return replace(state, set_up_player=seat, pending="teams", draws=state.draws + 1)
        case TeamsChosen(heroes=heroes, adversaries=adversaries, scenario=scenario, units=units):
            return replace(
                state,
                heroes_team=heroes,
                adversaries_team=adversaries,
                scenario=scenario,
                units=units,
                heroes=Piles(stash=_coins_of(units, "heroes")),
                adversaries=Piles(stash=_coins_of(units, "adversaries")),
            )
        case BoardSetUp(board=board, figures=figures):
            return replace(state, board=board, figures=figures, pending="starting_team")
        case StartingTeamChosen(side=side):
            # The die goes on the starting team's sheet at once (set-up step 3).
            return replace(state, starting_side=side, active=side, pending="side")
        case SideChosen(seat=seat, side=side):
            heroes_seat = seat if side == "heroes" else (2 if seat == 1 else 1)
            return replace(state, heroes_seat=heroes_seat)
    raise AssertionError(f"unhandled event {event!r}")  # pragma: no cover


def _stepped(state: MatchState, figure_id: str, to: tuple[int, int]) -> MatchState:
    figures = tuple(replace(f, square=to) if f.id == figure_id else f for f in state.figures)
    act = state.activation
    assert act is not None and act.action is not None
    action = act.action
    if action.mover == figure_id:
        action = replace(action, steps_left=action.steps_left - 1)
    else:
        moved = action.moved if action.mover is None else (*action.moved, action.mover)
        action = replace(action, mover=figure_id, steps_left=action.allowance - 1, moved=moved)
    return replace(state, figures=figures, activation=replace(act, action=action))


def _with_piles(state: MatchState, side: Side, piles: Piles) -> MatchState:
    if side == "heroes":
        return replace(state, heroes=piles)
    return replace(state, adversaries=piles)


def _without(coins: tuple[CoinId, ...], coin: CoinId) -> tuple[CoinId, ...]:
    return tuple(c for c in coins if c != coin)


def _sorted_with(coins: tuple[CoinId, ...], more: Iterable[CoinId]) -> tuple[CoinId, ...]:
    return tuple(sorted((*coins, *more)))


def _coins_of(units: tuple[Unit, ...], side: Side) -> tuple[CoinId, ...]:
    return tuple(sorted(c for u in units if u.side == side for c in u.coins))


__all__ = ["DOUBLE_MOVE_ALLOWANCE", "MOVE_ALLOWANCE", "evolve", "initial_state"]
