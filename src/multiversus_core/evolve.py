"""``evolve(state, event) -> state``: apply one fact.

``evolve`` never validates, never rolls and never fails on an event that
:func:`decide` produced for that state: the rules were applied when the event
was decided. It is on the replay hot path, so each case touches only the
fields its event changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

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
from multiversus_core.units import CoinId, Unit, coin_unit

MOVE_ALLOWANCE = 3
"""Spaces a Move action lets each figure move."""
DOUBLE_MOVE_ALLOWANCE = 6
"""Spaces a Double-Move lets each figure move."""


def initial_state(settings: MatchSettings) -> MatchState:
    """Return the state before the first event of a match."""
    return MatchState(settings=settings)


def evolve(state: MatchState, event: Event) -> MatchState:
    """Return the state after ``event``."""
    # A table lookup rather than a long ``match``: evolve is the replay hot
    # path, and every event kind then costs the same.
    return _HANDLERS[type(event)](state, event)


def _action_started(state: MatchState, event: ActionStarted) -> MatchState:
    act = state.activation
    assert act is not None
    kind = event.action
    remaining = list(act.remaining)
    remaining.remove(kind)
    if event.double:
        remaining.remove(kind)
    allowance = 0
    if kind == "move":
        allowance = DOUBLE_MOVE_ALLOWANCE if event.double else MOVE_ALLOWANCE
    action = Action(kind=kind, double=event.double, allowance=allowance)
    return replace(
        state,
        pending="move" if kind == "move" else state.pending,
        activation=replace(act, remaining=tuple(remaining), action=action),
    )


def _action_ended(state: MatchState, event: ActionEnded) -> MatchState:
    act = state.activation
    assert act is not None
    pending = "begin_action" if act.remaining else state.pending
    return replace(state, pending=pending, activation=replace(act, action=None))


def _coins_selected(state: MatchState, event: CoinsSelected) -> MatchState:
    piles = state.piles(event.side)
    activation = Activation(
        side=event.side,
        unit=coin_unit(event.coin),
        coin=event.coin,
        actions=event.actions,
        remaining=event.actions,
    )
    state = replace(state, pending="react", activation=activation, may_give_up=False)
    return _with_piles(state, event.side, replace(piles, stash=_without(piles.stash, event.coin)))


def _reaction_selected(state: MatchState, event: ReactionSelected) -> MatchState:
    act = state.activation
    assert act is not None
    act = replace(
        act, reaction_coin=event.coin, reaction_actions=event.actions, reaction_selected=True
    )
    state = replace(state, activation=act)
    if event.coin is None:
        return state
    piles = state.piles(event.side)
    return _with_piles(state, event.side, replace(piles, stash=_without(piles.stash, event.coin)))


def _coins_revealed(state: MatchState, event: CoinsRevealed) -> MatchState:
    act = state.activation
    assert act is not None
    return replace(state, pending="begin_action", activation=replace(act, revealed=True))


def _reaction_revealed(state: MatchState, event: ReactionRevealed) -> MatchState:
    act = state.activation
    assert act is not None
    return replace(state, activation=replace(act, reaction_revealed=True))


def _unit_coin_discarded(state: MatchState, event: UnitCoinDiscarded) -> MatchState:
    act = state.activation
    assert act is not None
    # The active coin or the reactive one, whichever it is, leaves play.
    in_play = {"coin": None} if event.side == act.side else {"reaction_coin": None}
    act = replace(act, **in_play)
    piles = state.piles(event.side)
    state = replace(state, activation=act)
    return _with_piles(state, event.side, replace(piles, discard=(*piles.discard, event.coin)))


def _unit_coin_returned(state: MatchState, event: UnitCoinReturned) -> MatchState:
    act = state.activation
    assert act is not None
    piles = state.piles(event.side)
    state = replace(state, activation=replace(act, reaction_coin=None))
    stash = _sorted_with(piles.stash, (event.coin,))
    return _with_piles(state, event.side, replace(piles, stash=stash))


def _activation_ended(state: MatchState, event: ActivationEnded) -> MatchState:
    return replace(state, activation=None, pending="roll")


def _initiative_rolled(state: MatchState, event: InitiativeRolled) -> MatchState:
    # Every roll takes a draw, seeded or supplied by a physical die, so later
    # seeded draws do not depend on how earlier dice were rolled (P12).
    if event.lost:
        return replace(state, draws=state.draws + 1)
    return replace(state, pending="select", may_give_up=True, draws=state.draws + 1)


def _initiative_given_up(state: MatchState, event: InitiativeGivenUp) -> MatchState:
    return replace(state, may_give_up=False)


def _discard_returned(state: MatchState, event: DiscardReturned) -> MatchState:
    piles = state.piles(event.side)
    discard = piles.discard
    for coin in event.coins:
        discard = _without(discard, coin)
    stash = _sorted_with(piles.stash, event.coins)
    return _with_piles(state, event.side, Piles(stash=stash, discard=discard))


def _turn_started(state: MatchState, event: TurnStarted) -> MatchState:
    return replace(
        state,
        active=event.side,
        pending="select",
        may_give_up=False,
        turns_in_round=state.turns_in_round + 1,
    )


def _turn_ended(state: MatchState, event: TurnEnded) -> MatchState:
    return replace(state, may_give_up=False)


def _round_started(state: MatchState, event: RoundStarted) -> MatchState:
    return replace(state, round=event.round, turns_in_round=0)


def _round_ended(state: MatchState, event: RoundEnded) -> MatchState:
    return state


def _match_ended(state: MatchState, event: MatchEnded) -> MatchState:
    return replace(state, ended=event.reason, pending="over", active=None)


def _set_up_coin_flipped(state: MatchState, event: SetUpCoinFlipped) -> MatchState:
    return replace(state, set_up_player=event.set_up_player, pending="teams", draws=state.draws + 1)


def _teams_chosen(state: MatchState, event: TeamsChosen) -> MatchState:
    return replace(
        state,
        heroes_team=event.heroes,
        adversaries_team=event.adversaries,
        scenario=event.scenario,
        units=event.units,
        heroes=Piles(stash=_coins_of(event.units, "heroes")),
        adversaries=Piles(stash=_coins_of(event.units, "adversaries")),
    )


def _board_set_up(state: MatchState, event: BoardSetUp) -> MatchState:
    return replace(state, board=event.board, figures=event.figures, pending="starting_team")


def _starting_team_chosen(state: MatchState, event: StartingTeamChosen) -> MatchState:
    # The die goes on the starting team's sheet at once (set-up step 3; P2).
    return replace(state, starting_side=event.side, active=event.side, pending="side")


def _side_chosen(state: MatchState, event: SideChosen) -> MatchState:
    heroes_seat = event.seat if event.side == "heroes" else (2 if event.seat == 1 else 1)
    return replace(state, heroes_seat=heroes_seat)


def _figure_stepped(state: MatchState, event: FigureStepped) -> MatchState:
    figure_id = event.figure
    figures = state.figures
    for i, figure in enumerate(figures):
        if figure.id == figure_id:
            figures = (*figures[:i], replace(figure, square=event.to), *figures[i + 1 :])
            break
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
    i = coins.index(coin)
    return coins[:i] + coins[i + 1 :]


def _sorted_with(coins: tuple[CoinId, ...], more: Iterable[CoinId]) -> tuple[CoinId, ...]:
    # Stashes are kept sorted so that equal states encode to equal bytes.
    return tuple(sorted((*coins, *more)))


def _coins_of(units: tuple[Unit, ...], side: Side) -> tuple[CoinId, ...]:
    return tuple(sorted(c for u in units if u.side == side for c in u.coins))


_HANDLERS: Final[dict[type[Event], Callable[[MatchState, Any], MatchState]]] = {
    FigureStepped: _figure_stepped,
    ActionStarted: _action_started,
    ActionEnded: _action_ended,
    CoinsSelected: _coins_selected,
    ReactionSelected: _reaction_selected,
    CoinsRevealed: _coins_revealed,
    ReactionRevealed: _reaction_revealed,
    UnitCoinDiscarded: _unit_coin_discarded,
    UnitCoinReturned: _unit_coin_returned,
    ActivationEnded: _activation_ended,
    InitiativeRolled: _initiative_rolled,
    InitiativeGivenUp: _initiative_given_up,
    DiscardReturned: _discard_returned,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
    RoundStarted: _round_started,
    RoundEnded: _round_ended,
    MatchEnded: _match_ended,
    SetUpCoinFlipped: _set_up_coin_flipped,
    TeamsChosen: _teams_chosen,
    BoardSetUp: _board_set_up,
    StartingTeamChosen: _starting_team_chosen,
    SideChosen: _side_chosen,
}
"""One handler per event kind; a test checks that every kind has one."""
