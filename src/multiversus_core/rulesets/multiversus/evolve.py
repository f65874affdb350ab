"""``evolve(state, event) -> state``: apply one fact.

``evolve`` never validates, never rolls and never fails on an event that
:func:`decide` produced for that state: the rules were applied when the event
was decided. It is on the replay hot path, so each case touches only the
fields its event changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, TypeVar

from msgspec.structs import replace

from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    AttackMade,
    BlockChosen,
    BoardSetUp,
    CoinsRevealed,
    CoinsSelected,
    ConditionChanged,
    DiscardReturned,
    Event,
    FigureMoved,
    FigureStepped,
    FollowUpChosen,
    ForcedMoveHeld,
    ForcedStopChosen,
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
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import (
    Action,
    Activation,
    ForcedChoice,
    MatchState,
    Offer,
    Pending,
    Piles,
    Secret,
)
from multiversus_core.rulesets.multiversus.terms import Side, Square
from multiversus_core.rulesets.multiversus.units import CoinId, Unit, coin_unit


def initial_state(settings: MatchSettings) -> MatchState:
    """Return the state before the first event of a match."""
    return MatchState(settings=settings)


def evolve(state: MatchState, event: Event) -> MatchState:
    """Return the state after ``event``."""
    # A table lookup rather than a long ``match``: evolve is the replay hot
    # path, and every event kind then costs the same.
    return _HANDLERS[type(event)](state, event)


def evolve_all(state: MatchState, events: Iterable[Event]) -> MatchState:
    """Return the state after every event in order: ``evolve`` applied to each in turn."""
    handlers = _HANDLERS  # a local: this loop is replay's
    for event in events:
        state = handlers[type(event)](state, event)
    return state


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
    action = Action(kind, event.double, event.side, event.unit)
    act = replace(act, remaining=remaining, action=action, braced=act.braced or kind == "defend")
    # A new action has no follow-up yet: _pending_for, inlined.
    return replace(state, pending=_PENDING_FOR.get(kind, state.pending), activation=act)


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
    if act.reaction is None:
        if target_unit not in attacked:
            attacked = (*attacked, target_unit)
        act = replace(act, action=acting, attacked_units=attacked)
    else:
        act = replace(act, reaction=acting, struck=True)
    # One new activation rather than two (_with_acting, inlined).
    return replace(state, activation=act, pending="after_attack")


def _follow_up_chosen(state: MatchState, event: FollowUpChosen) -> MatchState:
    act = state.activation
    assert act is not None
    acting = act.reaction or act.action
    assert acting is not None
    return _with_acting(state, act, replace(acting, follow_up=None))


def _condition_changed(state: MatchState, event: ConditionChanged) -> MatchState:
    figures = state.figures
    i = _figure_index(figures, event.figure)
    if i < 0:
        return state
    figure = figures[i]
    square = None if event.condition == "eliminated" else figure.square
    changed = list(figures)
    changed[i] = replace(figure, condition=event.condition, square=square)
    return replace(state, figures=tuple(changed))


def _figure_moved(state: MatchState, event: FigureMoved) -> MatchState:
    return replace(state, figures=_moved(state.figures, event.figure, event.to))


def _forced_move_held(state: MatchState, event: ForcedMoveHeld) -> MatchState:
    act = state.activation
    assert act is not None
    choice = ForcedChoice(side=event.side, move=event.move, ally=event.ally, queue=event.queue)
    return replace(state, pending="forced", activation=replace(act, forced=choice))


def _forced_choice_made(state: MatchState, event: BlockChosen | ForcedStopChosen) -> MatchState:
    act = state.activation
    assert act is not None
    act = replace(act, forced=None)
    return replace(state, activation=act, pending=_pending_for(state, act.reaction or act.action))


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
    coin, side, actions = event.coin, event.side, event.actions
    number = state.activations + 1
    activation = Activation(
        side,
        coin_unit(coin),
        coin,
        actions,
        actions,
        number=number,
        commitment=event.commitment,
        salt=event.salt,
    )
    # One new state rather than two (_with_piles): a hot path.
    if side == "heroes":
        return replace(
            state,
            pending="react",
            activation=activation,
            may_give_up=False,
            activations=number,
            heroes=_stash_without(state.heroes, coin),
        )
    return replace(
        state,
        pending="react",
        activation=activation,
        may_give_up=False,
        activations=number,
        adversaries=_stash_without(state.adversaries, coin),
    )


def _reaction_selected(state: MatchState, event: ReactionSelected) -> MatchState:
    act = state.activation
    assert act is not None
    coin = event.coin
    act = replace(
        act,
        reaction_coin=coin,
        reaction_actions=event.actions,
        reaction_selected=True,
        reaction_commitment=event.commitment,
        reaction_salt=event.salt,
    )
    if coin is None:
        return replace(state, activation=act)
    # One new state rather than two (_with_piles): a hot path.
    if event.side == "heroes":
        return replace(state, activation=act, heroes=_stash_without(state.heroes, coin))
    return replace(state, activation=act, adversaries=_stash_without(state.adversaries, coin))


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
    side = event.side
    # The active coin or the reactive one, whichever it is, leaves play.
    act = replace(act, coin=None) if side == act.side else replace(act, reaction_coin=None)
    if side == "heroes":
        piles = state.heroes
        return replace(
            state, activation=act, heroes=replace(piles, discard=(*piles.discard, event.coin))
        )
    piles = state.adversaries
    return replace(
        state, activation=act, adversaries=replace(piles, discard=(*piles.discard, event.coin))
    )


def _unit_coin_returned(state: MatchState, event: UnitCoinReturned) -> MatchState:
    act = state.activation
    assert act is not None
    act = replace(act, reaction_coin=None)
    if event.side == "heroes":
        piles = state.heroes
        stash = [*piles.stash, event.coin]
        stash.sort()  # stashes stay sorted: see _sorted_with
        return replace(state, activation=act, heroes=replace(piles, stash=tuple(stash)))
    piles = state.adversaries
    stash = [*piles.stash, event.coin]
    stash.sort()
    return replace(state, activation=act, adversaries=replace(piles, stash=tuple(stash)))


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
    side, coins = event.side, event.coins
    piles = state.heroes if side == "heroes" else state.adversaries
    discard = piles.discard
    if discard == coins:  # the usual case: the whole discard goes back
        discard = ()
    else:
        rest = list(discard)
        for coin in coins:
            rest.remove(coin)
        discard = tuple(rest)
    stash = _sorted_with(piles.stash, coins)
    return _with_piles(state, side, replace(piles, stash=stash, discard=discard))


def _turn_started(state: MatchState, event: TurnStarted) -> MatchState:
    return replace(
        state,
        active=event.side,
        pending="select",
        may_give_up=False,
        turns_in_round=state.turns_in_round + 1,
    )


def _turn_ended(state: MatchState, event: TurnEnded) -> MatchState:
    return replace(state, may_give_up=False) if state.may_give_up else state


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
    # The most frequent event: one new state, with _with_acting, _pending_for
    # and _moved inlined.
    act = state.activation
    assert act is not None
    figure = event.figure
    reaction = act.reaction
    acting = act.action if reaction is None else reaction
    assert acting is not None
    mover = acting.mover
    if mover is not None and mover != figure:
        # Stepping another figure ends the mover's move.
        acting = replace(
            acting, mover=figure, steps_left=event.steps_left, done=(*acting.done, mover)
        )
    else:
        acting = replace(acting, mover=figure, steps_left=event.steps_left)
    act = replace(act, action=acting) if reaction is None else replace(act, reaction=acting)
    if acting.follow_up is not None:
        pending: Pending = "after_attack"
    else:
        pending = _PENDING_FOR.get(acting.kind, state.pending)
    figures = state.figures
    i = 0
    for moved in figures:
        if moved.id == figure:
            changed = list(figures)
            changed[i] = replace(moved, square=event.to)
            return replace(state, figures=tuple(changed), activation=act, pending=pending)
        i += 1  # noqa: SIM113 - a counter is faster than enumerate() on this hot path
    return replace(state, activation=act, pending=pending)


def _figure_index(figures: tuple[Figure, ...], figure_id: str) -> int:
    """The index of the first figure with this id, or -1."""
    i = 0
    for figure in figures:
        if figure.id == figure_id:
            return i
        i += 1  # noqa: SIM113 - a counter is faster than enumerate() on this hot path
    return -1


def _moved(figures: tuple[Figure, ...], figure_id: str, to: Square) -> tuple[Figure, ...]:
    """The figures, with one (if present) on a new square."""
    i = _figure_index(figures, figure_id)
    if i < 0:
        return figures
    changed = list(figures)  # faster than slicing and joining tuples
    changed[i] = replace(figures[i], square=to)
    return tuple(changed)


def _with_piles(state: MatchState, side: Side, piles: Piles) -> MatchState:
    if side == "heroes":
        return replace(state, heroes=piles)
    return replace(state, adversaries=piles)


_T = TypeVar("_T")


def _without(items: tuple[_T, ...], item: _T) -> tuple[_T, ...]:
    """The items without the first that equals ``item``; ValueError if none does."""
    rest = list(items)
    rest.remove(item)
    return tuple(rest)


def _stash_without(piles: Piles, coin: CoinId) -> Piles:
    """The piles with one coin taken out of the stash; ValueError if it is not there."""
    stash = list(piles.stash)
    stash.remove(coin)
    return replace(piles, stash=tuple(stash))


def _sorted_with(coins: tuple[CoinId, ...], more: Iterable[CoinId]) -> tuple[CoinId, ...]:
    # Stashes are kept sorted so that equal states encode to equal bytes.
    merged = [*coins, *more]
    merged.sort()
    return tuple(merged)


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
    ForcedMoveHeld: _forced_move_held,
    BlockChosen: _forced_choice_made,
    ForcedStopChosen: _forced_choice_made,
}
"""One handler per event kind; a test checks that every kind has one."""
