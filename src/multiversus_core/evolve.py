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

from multiversus_core.board import Figure
from multiversus_core.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    AttackMade,
    BoardSetUp,
    CoinsRevealed,
    CoinsSelected,
    ConditionChanged,
    DiscardReturned,
    Event,
    FigureMoved,
    FigureStepped,
    FollowUpChosen,
    InitiativeGivenUp,
    InitiativeRolled,
    MatchEnded,
    ReactionDeclined,
    ReactionEnded,
    ReactionRevealed,
    ReactionSelected,
    ReactionStarted,
    ReactionTriggered,
    RecoveryMade,
    RoundEnded,
    RoundStarted,
    SecretChosen,
    SecretRevealed,
    SetUpCoinFlipped,
    SideChosen,
    StartingTeamChosen,
    StuntFailed,
    StuntPerformed,
    TeamsChosen,
    TurnEnded,
    TurnStarted,
    UnitCoinDiscarded,
    UnitCoinRemoved,
    UnitCoinReturned,
)
from multiversus_core.settings import MatchSettings
from multiversus_core.state import Action, Activation, MatchState, Offer, Pending, Piles, Secret
from multiversus_core.terms import Side
from multiversus_core.units import CoinId, Unit, coin_unit


def initial_state(settings: MatchSettings) -> MatchState:
    """Return the state before the first event of a match."""
    return MatchState(settings=settings)


def evolve(state: MatchState, event: Event) -> MatchState:
    """Return the state after ``event``."""
    # A table lookup rather than a long ``match``: evolve is the replay hot
    # path, and every event kind then costs the same.
    return _HANDLERS[type(event)](state, event)


_PENDING_FOR: Final[dict[str, Pending]] = {"move": "move", "attack": "attack", "stunt": "stunt"}


def _pending_for(state: MatchState, action: Action | None) -> Pending:
    if action is None:
        return "begin_action"
    if action.follow_up is not None:
        return "after_attack"
    return _PENDING_FOR.get(action.kind, state.pending)


def _action_started(state: MatchState, event: ActionStarted) -> MatchState:
    act = state.activation
    assert act is not None
    kind = event.action
    remaining = act.remaining
    if kind != "recovery":
        coins = list(remaining)
        coins.remove(kind)
        if event.double:
            coins.remove(kind)
        remaining = tuple(coins)
    action = Action(kind=kind, double=event.double, side=event.side, unit=event.unit)
    return replace(
        state,
        pending=_pending_for(state, action),
        activation=replace(
            act, remaining=remaining, action=action, braced=act.braced or kind == "defend"
        ),
    )


def _action_ended(state: MatchState, event: ActionEnded) -> MatchState:
    act = state.activation
    assert act is not None
    return replace(
        state,
        pending="begin_action",
        activation=replace(act, action=None, reacted_to_action=False, struck=False),
    )


def _with_acting(state: MatchState, act: Activation, action: Action) -> MatchState:
    """Replace the action or reaction under way, and the decision it waits for."""
    act = replace(act, reaction=action) if act.reaction is not None else replace(act, action=action)
    return replace(state, activation=act, pending=_pending_for(state, action))


def _reaction_triggered(state: MatchState, event: ReactionTriggered) -> MatchState:
    act = state.activation
    assert act is not None
    offer = Offer(triggers=event.triggers, figure=event.figure, held=event.held)
    return replace(state, pending="offer", activation=replace(act, offer=offer))


def _reaction_declined(state: MatchState, event: ReactionDeclined) -> MatchState:
    act = state.activation
    assert act is not None
    return replace(
        state, pending=_pending_for(state, act.action), activation=replace(act, offer=None)
    )


def _reaction_started(state: MatchState, event: ReactionStarted) -> MatchState:
    act = state.activation
    assert act is not None
    reaction = Action(kind=event.action, double=event.double, side=event.side, unit=event.unit)
    act = replace(
        act,
        reaction=reaction,
        reacted=True,
        reacted_to_action=True,
        defending=act.defending or event.action == "defend",
    )
    return replace(state, activation=act, pending=_pending_for(state, reaction))


def _reaction_ended(state: MatchState, event: ReactionEnded) -> MatchState:
    act = state.activation
    assert act is not None
    act = replace(act, reaction=None, offer=None)
    return replace(state, activation=act, pending=_pending_for(state, act.action))


def _attack_made(state: MatchState, event: AttackMade) -> MatchState:
    act = state.activation
    assert act is not None
    acting = act.reaction or act.action
    assert acting is not None
    target_unit = state.figure(event.target).unit
    acting = replace(
        acting,
        done=(*acting.done, event.attacker),
        target_unit=acting.target_unit or target_unit,
        follow_up=(event.attacker, event.target),
    )
    # An attack made during a reaction subjects the active unit to it (R11, R12).
    attacked = act.attacked_units
    if act.reaction is None and target_unit not in attacked:
        attacked = (*attacked, target_unit)
    act = replace(act, struck=act.struck or act.reaction is not None, attacked_units=attacked)
    return _with_acting(state, act, acting)


def _follow_up_chosen(state: MatchState, event: FollowUpChosen) -> MatchState:
    act = state.activation
    assert act is not None
    acting = act.reaction or act.action
    assert acting is not None
    return _with_acting(state, act, replace(acting, follow_up=None))


def _condition_changed(state: MatchState, event: ConditionChanged) -> MatchState:
    gone = event.condition == "eliminated"
    return replace(
        state,
        figures=_with_figure(
            state.figures,
            event.figure,
            lambda f: replace(f, condition=event.condition, square=None if gone else f.square),
        ),
    )


def _figure_moved(state: MatchState, event: FigureMoved) -> MatchState:
    return replace(
        state,
        figures=_with_figure(state.figures, event.figure, lambda f: replace(f, square=event.to)),
    )


def _stunt_performed(state: MatchState, event: StuntPerformed) -> MatchState:
    act = state.activation
    assert act is not None
    acting = act.reaction or act.action
    assert acting is not None
    chosen = acting.stunt or ("!" + event.ability if event.ability else event.target)
    return _with_acting(
        state, act, replace(acting, done=(*acting.done, event.figure), stunt=chosen)
    )


def _unit_coin_removed(state: MatchState, event: UnitCoinRemoved) -> MatchState:
    piles = state.piles(event.side)
    piles = replace(
        piles, discard=_without(piles.discard, event.coin), removed=(*piles.removed, event.coin)
    )
    return _with_piles(state, event.side, piles)


def _no_change(state: MatchState, event: Event) -> MatchState:
    return state


def _secret_chosen(state: MatchState, event: SecretChosen) -> MatchState:
    secret = Secret(
        side=event.side,
        name=event.name,
        choice=event.choice,
        commitment=event.commitment,
        salt=event.salt,
    )
    return replace(state, secrets=(*state.secrets, secret))


def _secret_revealed(state: MatchState, event: SecretRevealed) -> MatchState:
    secrets = tuple(
        replace(s, revealed=True) if (s.side, s.name) == (event.side, event.name) else s
        for s in state.secrets
    )
    return replace(state, secrets=secrets)


def _coins_selected(state: MatchState, event: CoinsSelected) -> MatchState:
    piles = state.piles(event.side)
    activation = Activation(
        side=event.side,
        unit=coin_unit(event.coin),
        coin=event.coin,
        actions=event.actions,
        remaining=event.actions,
        number=state.activations + 1,
        commitment=event.commitment,
        salt=event.salt,
    )
    state = replace(
        state,
        pending="react",
        activation=activation,
        may_give_up=False,
        activations=state.activations + 1,
    )
    return _with_piles(state, event.side, replace(piles, stash=_without(piles.stash, event.coin)))


def _reaction_selected(state: MatchState, event: ReactionSelected) -> MatchState:
    act = state.activation
    assert act is not None
    act = replace(
        act,
        reaction_coin=event.coin,
        reaction_actions=event.actions,
        reaction_selected=True,
        reaction_commitment=event.commitment,
        reaction_salt=event.salt,
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
    return _with_piles(state, event.side, replace(piles, stash=stash, discard=discard))


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
    return replace(state, ended=event.reason, winner=event.winner, pending="over", active=None)


def _set_up_coin_flipped(state: MatchState, event: SetUpCoinFlipped) -> MatchState:
    return replace(state, set_up_player=event.set_up_player, pending="teams", draws=state.draws + 1)


def _teams_chosen(state: MatchState, event: TeamsChosen) -> MatchState:
    return replace(
        state,
        secret_offers=event.secrets,
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
    return replace(state, heroes_seat=heroes_seat, pending="secret")


def _figure_stepped(state: MatchState, event: FigureStepped) -> MatchState:
    figures = _with_figure(state.figures, event.figure, lambda f: replace(f, square=event.to))
    act = state.activation
    assert act is not None
    acting = act.reaction or act.action
    assert acting is not None
    done = acting.done
    if acting.mover is not None and acting.mover != event.figure:
        done = (*done, acting.mover)  # stepping another figure ends the mover's move
    acting = replace(acting, mover=event.figure, steps_left=event.steps_left, done=done)
    return _with_acting(replace(state, figures=figures), act, acting)


def _with_figure(
    figures: tuple[Figure, ...], figure_id: str, change: Callable[[Figure], Figure]
) -> tuple[Figure, ...]:
    for i, figure in enumerate(figures):
        if figure.id == figure_id:
            return (*figures[:i], change(figure), *figures[i + 1 :])
    return figures


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
    SecretChosen: _secret_chosen,
    SecretRevealed: _secret_revealed,
    ReactionTriggered: _reaction_triggered,
    ReactionDeclined: _reaction_declined,
    ReactionStarted: _reaction_started,
    ReactionEnded: _reaction_ended,
    AttackMade: _attack_made,
    ConditionChanged: _condition_changed,
    FollowUpChosen: _follow_up_chosen,
    FigureMoved: _figure_moved,
    StuntPerformed: _stunt_performed,
    StuntFailed: _no_change,
    RecoveryMade: _no_change,
    UnitCoinRemoved: _unit_coin_removed,
}
"""One handler per event kind; a test checks that every kind has one."""
