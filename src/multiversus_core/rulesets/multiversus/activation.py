"""Activations: coin selection, reveal, actions, reactions and discard.

Rulebook: *Taking actions*, *Actions and reactions*, *Two-coin actions*,
*Recovery*, *Reactions*, *Units and characters*, *Spaces and movement*;
rulings R2-R12, R19. The predicates here are shared by :func:`decide` and the
legal-command listing, so the two cannot disagree.

An activation runs as a chain of decisions. When an active figure is about
to take a step that triggers a reaction (leaving a square adjacent to the
reactive unit, attacking, stunting, recovering), the step is held back and
offered to the reactive player (R6). If they react, the reaction resolves
completely; then the held step goes ahead if it still can.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

from msgspec.structs import replace

from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.rulesets.multiversus import combat, forced, movement
from multiversus_core.rulesets.multiversus.abilities import (
    REGISTRY,
    Ability,
    abilities_of,
    stunt_abilities,
)
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    CoinsRevealed,
    CoinsSelected,
    ConditionChanged,
    FigureMoved,
    FigureStepped,
    FollowUpChosen,
    ReactionDeclined,
    ReactionEnded,
    ReactionSelected,
    ReactionStarted,
    ReactionTriggered,
    RecoveryMade,
    StuntFailed,
    StuntPerformed,
    UnitCoinDiscarded,
    UnitCoinRemoved,
    UnitCoinReturned,
)
from multiversus_core.rulesets.multiversus.geometry import (
    are_adjacent,
    figure_squares,
    push_direction,
)
from multiversus_core.rulesets.multiversus.initiative import end_turn
from multiversus_core.rulesets.multiversus.secrets import (
    reaction_reveal,
    reveal_reaction,
    seal,
    selection_value,
)
from multiversus_core.rulesets.multiversus.selections import (
    _V,
    DIAGONAL_DOUBLE_MOVE_SPACES,
    DOUBLE_MOVE_SPACES,
    MOVE_SPACES,
    OVERWATCH,
    REACTIVE_SELECTIONS,
    _able_by_unit,
    _kept,
    _new_table,
    _reactive_selections,
    _Selections,
    able_figures,
    active_selections,
    can_react,
    coin_in_stash,
    figures_of,
    reactive_selections,
)
from multiversus_core.rulesets.multiversus.state import (
    Action,
    Activation,
    ForcedMove,
    MatchState,
    Suspended,
    Trigger,
    by_figures,
    derived,
)
from multiversus_core.rulesets.multiversus.terms import ActionKind, Colour, Direction, Side, Square
from multiversus_core.rulesets.multiversus.units import Unit, coin_unit
from multiversus_core.rulesets.multiversus.variants import is_on


def current(state: MatchState) -> Action | None:
    """Return the action or reaction under way: the reaction if one is."""
    act = state.activation
    if act is None:
        return None
    return act.reaction or act.action


# --- selection and reveal ---------------------------------------------------


def select_coins(
    b: Builder,
    side: Side,
    unit: Unit,
    colour: Colour,
    actions: tuple[ActionKind, ...],
    salt: str | None = None,
) -> None:
    """Record the active player's secret selection (R3), committed with ``salt`` (R23).

    ``salt`` None derives the salt from the seed.

    :raises IllegalCommandError: if the unit cannot make that selection now.
    """
    state = b.state
    if unit.side != side:
        raise IllegalCommandError(f"{unit.name} is not one of your units")
    options = active_selections(state, unit)
    if not options:
        raise IllegalCommandError(f"{unit.name} cannot act: it has nothing it can do")
    if actions not in options:
        raise IllegalCommandError(_active_selection_problem(state, unit, actions))
    coin = coin_in_stash(state, side, unit, colour)
    if coin is None:
        raise IllegalCommandError(f"{unit.name} has no {colour} unit coin in its stash")
    commitment, salt = seal(state, "coins", side, selection_value(coin, actions), salt)
    b.emit(CoinsSelected(side=side, coin=coin, actions=actions, commitment=commitment, salt=salt))


def _active_selection_problem(
    state: MatchState, unit: Unit, actions: tuple[ActionKind, ...]
) -> str:
    if not actions:
        return f"a Recovery needs a Wounded or Disabled character in {unit.name}"
    if actions == ("defend", "defend"):
        return "two Defend coins are not a legal selection (Double-Defend is N/A)"
    if not able_figures(state, unit):
        return f"every character of {unit.name} is Disabled: it can only Recover"
    return f"{unit.name} cannot take that selection (terrain acts only as its abilities allow)"


def select_reaction(
    b: Builder,
    side: Side,
    unit: Unit,
    colour: Colour,
    actions: tuple[ActionKind, ...],
    salt: str | None = None,
) -> None:
    """Record the reactive player's secret selection, reveal the active one, and begin (R3, R4).

    The selection is committed with ``salt`` (None derives it from the seed).

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
    commitment, salt = seal(state, "reaction", side, selection_value(coin, actions), salt)
    b.emit(
        ReactionSelected(side=side, coin=coin, actions=actions, commitment=commitment, salt=salt)
    )
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
    b.emit(CoinsRevealed(side=act.side, coin=act.coin, actions=act.actions, salt=act.salt))
    if not act.actions:
        b.emit(ActionStarted(side=act.side, unit=act.unit, action="recovery", double=False))
        _recover(b)
        return
    _next_action(b)


def _next_action(b: Builder) -> None:
    """Start the next action if only one can come next; finish the activation if none."""
    act = b.state.activation
    assert act is not None
    remaining = act.remaining
    if not remaining:
        _conclude(b, act)
    elif len(set(remaining)) == 1:
        _start_action(b, act, remaining[0], double=len(remaining) == 2)
    # Otherwise two different actions remain: the player chooses (BeginAction).


def begin_action(b: Builder, kind: ActionKind) -> None:
    """Take one of two different selected actions first (R3).

    :raises IllegalCommandError: if that action was not selected.
    """
    act = b.state.activation
    assert act is not None
    if kind not in act.remaining:
        raise IllegalCommandError(f"no {kind.capitalize()} action coin was selected")
    _start_action(b, act, kind, double=False)


def _start_action(b: Builder, act: Activation, kind: ActionKind, *, double: bool) -> None:
    """Start an action of ``act``, the activation of the state now."""
    b.emit(ActionStarted(side=act.side, unit=act.unit, action=kind, double=double))
    if kind == "defend":
        # A Defend action protects the unit from attack reactions from now on (R10).
        _end_action(b)


def end_action(b: Builder) -> None:
    """End the action or reaction under way (the EndAction command).

    :raises IllegalCommandError: if a figure stands on an ally, or an attacker
        must first choose its Step or Push.
    """
    act = b.state.activation
    action = None if act is None else act.reaction or act.action  # current(b.state)
    if action is None or action.kind not in ("move", "attack", "stunt"):
        raise IllegalCommandError("there is no action under way to end")
    if not can_end_move(b.state):
        mover = b.state.figure(action.mover or "")
        raise IllegalCommandError(f"{mover.name} cannot end its move on an ally (R19)")
    assert act is not None
    if act.reaction is not None:
        _end_reaction(b)
    else:
        _end_action(b)


def _end_action(b: Builder) -> None:
    act = b.state.activation
    assert act is not None and act.action is not None
    action = act.action
    b.emit(ActionEnded(side=action.side, action=action.kind))
    if not b.state.is_over:
        _next_action(b)


def _conclude(b: Builder, act: Activation) -> None:
    """The actions of ``act`` (the activation now) are over: offer the variant's Move trigger
    if it applies, then finish."""
    state = b.state
    if is_on(state, "move-reaction-at-end"):
        active = figures_of(state, state.unit(act.unit))
        held = Suspended(step="conclude", figure=active[0].id if active else act.unit)
        if _offer(b, held):
            return
    _end_activation(b)


def _end_activation(b: Builder) -> None:
    """Reveal, discard and return coins at the end of an activation (R3, R4)."""
    act = b.state.activation
    assert act is not None and act.coin is not None
    reactive: Side = "adversaries" if act.side == "heroes" else "heroes"
    reveal = reaction_reveal(b.state)  # reveal_reaction(b)
    if reveal is not None:
        b.emit(reveal)
    b.emit(UnitCoinDiscarded(side=act.side, coin=act.coin))
    if act.reaction_coin is not None:
        if act.reacted:
            b.emit(UnitCoinDiscarded(side=reactive, coin=act.reaction_coin))
        else:
            b.emit(UnitCoinReturned(side=reactive, coin=act.reaction_coin))
    b.emit(ActivationEnded(side=act.side))


def _activation(state: MatchState) -> Activation:
    act = state.activation
    assert act is not None
    return act


# --- triggers and reactions (R5, R6, R7) ------------------------------------


def reactive_unit(state: MatchState) -> Unit | None:
    """Return the unit the reactive player selected, if it can still react."""
    act = state.activation
    if act is None or act.reaction_coin is None:
        return None
    unit = state.unit(coin_unit(act.reaction_coin))
    return unit if able_figures(state, unit) else None


def _candidates(state: MatchState) -> tuple[tuple[Unit, frozenset[ActionKind]], ...]:
    """Return the reactive units, with their possible coins, that offers must allow for.

    Until the reactive selection is revealed: every unit the reactive player
    could have selected, with every kind of coin it could have selected.
    Afterwards: the unit and coins really selected. Neither depends on what
    is still hidden, so when offers come, and what they say, leaks nothing.
    """
    # derived(state, "_candidates", _find_candidates), its usual hit inlined: a step carries
    # them to the next state (_carry_step).
    found: tuple[tuple[Unit, frozenset[ActionKind]], ...] | None
    found = state.__dict__.get("_candidates")
    return found if found is not None else derived(state, "_candidates", _find_candidates)


def _find_candidates(state: MatchState) -> tuple[tuple[Unit, frozenset[ActionKind]], ...]:
    act = _activation(state)
    if act.reaction_coin is None:
        return ()  # they selected nothing, which the table knows (R3)
    if act.reaction_revealed:
        return _selected(state)
    side: Side = "adversaries" if act.side == "heroes" else "heroes"
    stash = state.piles(side).stash_units
    selected = coin_unit(act.reaction_coin)
    # reactive_selections(state, unit) for each unit, from its table found once for them all
    known: dict[str, tuple[Unit, _Selections]] = by_figures(
        state, "_reactive_selections", _new_table
    )
    candidates = []
    for unit in state.units:
        if unit.side != side or (unit.id not in stash and unit.id != selected):
            continue
        # _kinds(_kept(known, state, unit, _reactive_selections)), the usual hits inlined
        found = known.get(unit.id)
        if found is not None and found[0] is unit:
            selections = found[1]
        else:
            selections = _kept(known, state, unit, _reactive_selections)
        kinds = _REACTIVE_KINDS if selections is REACTIVE_SELECTIONS else _kinds(selections)
        if kinds:
            candidates.append((unit, kinds))
    return tuple(candidates)


_REACTIVE_KINDS: Final = frozenset(k for coins in REACTIVE_SELECTIONS for k in coins)


def _kinds(selections: _Selections) -> frozenset[ActionKind]:
    """Return the kinds of action coin in any of the selections."""
    if selections is REACTIVE_SELECTIONS:
        return _REACTIVE_KINDS  # a character unit's, the usual case
    return frozenset(k for coins in selections for k in coins)


def _selected(state: MatchState) -> tuple[tuple[Unit, frozenset[ActionKind]], ...]:
    act = _activation(state)
    unit = reactive_unit(state)
    return ((unit, frozenset(act.reaction_actions)),) if unit is not None else ()


_TRIGGER_ORDER: Final[tuple[Trigger, ...]] = (
    "left_adjacent",
    "targeted",
    "double_attacked",
    "attacked_other",
    "stunted",
    "recovered",
    "concluded",
)


_USUAL: Final[frozenset[ActionKind]] = frozenset(("attack", "move", "stunt"))
"""The kinds of reaction the usual triggers concern (all but Defend)."""
_LATE_USUAL: Final[frozenset[ActionKind]] = frozenset(("attack", "stunt"))
"""The same under move-reaction-at-end, where a Move reaction has its own trigger."""


def _raised(
    state: MatchState, held: Suspended, candidates: tuple[tuple[Unit, frozenset[ActionKind]], ...]
) -> tuple[Trigger, ...]:
    """Return the triggers ``held`` raises for any of the candidate units and coins (R5, R7)."""
    if not candidates:
        return ()
    if held.step == "step" or held.step == "follow_step":
        assert held.to is not None
        return _left_adjacent(state, state.figure(held.figure), held.to, candidates)
    act = _activation(state)
    late_move = is_on(state, "move-reaction-at-end")
    usual_kinds = _LATE_USUAL if late_move else _USUAL
    figure = state.figure(held.figure) if held.step != "conclude" else None
    target = state.figure(held.target) if held.step == "attack" and held.target else None
    raised: set[Trigger] = set()
    for unit, kinds in candidates:
        # Attack, Move and Stunt reactions share the five triggers; a Defend
        # reaction needs only to be attacked; under move-reaction-at-end a
        # Move reaction has its own trigger instead.
        usual = not usual_kinds.isdisjoint(kinds)
        match held.step:
            case "attack":
                assert target is not None and act.action is not None
                mine = target.unit == unit.id
                if mine and "defend" in kinds and not act.defending:
                    raised.add("targeted")
                if usual and mine and act.action.double:
                    raised.add("double_attacked")
                if usual and not mine and figure is not None and _in_range(state, unit, figure):
                    raised.add("attacked_other")
            case "stunt":
                if usual and figure is not None and _in_range(state, unit, figure):
                    raised.add("stunted")
            case "recovery":
                recovering = figures_of(state, state.unit(act.unit))
                if usual and any(_in_range(state, unit, f) for f in recovering):
                    raised.add("recovered")
            case "conclude":
                if (
                    late_move
                    and "move" in kinds
                    and not act.reacted
                    and _concluded_near(state, unit)
                ):
                    raised.add("concluded")
    if not raised:
        return ()
    return tuple(t for t in _TRIGGER_ORDER if t in raised)


def _left_adjacent(
    state: MatchState,
    figure: Figure,
    to: Square,
    candidates: tuple[tuple[Unit, frozenset[ActionKind]], ...],
) -> tuple[Trigger, ...]:
    """Return the one trigger ``figure``'s step to ``to`` can raise, if it does: leaving a
    space beside a candidate unit that an Attack, Move or Stunt reaction could answer
    (trigger 1).

    Under the variant disengage-trigger, only a step that ends beside none of the unit.
    """
    if not candidates:
        return ()
    variants = state.settings.variants
    usual = _LATE_USUAL if "move-reaction-at-end" in variants else _USUAL
    moved = replace(figure, square=to) if "disengage-trigger" in variants else None
    index = occupancy(state)
    for unit, kinds in candidates:
        if usual.isdisjoint(kinds) or not index.is_beside(figure, unit.id):
            continue
        if moved is None or not index.is_beside(moved, unit.id):
            return ("left_adjacent",)
    return ()


def _in_range(state: MatchState, unit: Unit, figure: Figure) -> bool:
    """True if ``figure`` is in range of a character of ``unit`` (R7): of one able to attack
    it, since a Disabled character is in range of nothing (R24). Under adjacent-triggers,
    adjacent to a character of ``unit`` instead, Disabled or not (R24)."""
    if "adjacent-triggers" in state.settings.variants and OVERWATCH not in unit.abilities:
        return occupancy(state).is_beside(figure, unit.id)
    # able_figures(state, unit), its usual hit inlined: every stunt asks of each reactive unit.
    table = state.__dict__.get("_by_figures")
    by_unit = None if table is None else table.get("_able_figures")
    if by_unit is None:
        by_unit = by_figures(state, "_able_figures", _able_by_unit)
    able: tuple[Figure, ...] = by_unit.get(unit.id, ())
    if not able:
        return False
    if combat.unit_is_ranged(unit):
        return any(combat.can_attack(state, r, figure, ranged=True) for r in able)
    # Without Ranged, combat.can_attack asks for adjacency only: its checks in place (an
    # able figure is on the board and not Disabled; adjacency needs both on the board).
    if figure.terrain:
        return False
    side = figure.side
    for r in able:  # noqa: SIM110 - faster than any(): every stunt asks it of each reactive unit
        if not r.terrain and r.side != side and are_adjacent(r, figure):
            return True
    return False


def _beside(state: MatchState, figure: Figure, unit: Unit) -> bool:
    """True if ``figure`` is adjacent to a character of ``unit`` (rulebook *Adjacency*)."""
    return occupancy(state).is_beside(figure, unit.id)


def _concluded_near(state: MatchState, unit: Unit) -> bool:
    """Variant move-reaction-at-end: the unit was not attacked, or an active figure is beside it."""
    act = _activation(state)
    active = figures_of(state, state.unit(act.unit))
    return unit.id not in act.attacked_units or any(_beside(state, f, unit) for f in active)


def _offer(b: Builder, held: Suspended) -> bool:
    """Hold ``held`` back and offer it to the reactive player if it raises a trigger.

    Offers come at every trigger the hidden selection might answer, so the
    active player learns nothing from them; whether the player may really
    react is :func:`can_react_now`. Returns True if an offer was made.
    """
    state = b.state
    act = _activation(state)
    if not _may_offer(act, state.unit(act.unit).is_terrain):
        return False
    return _hold(b, act, held, _raised(state, held, _candidates(state)))


def _offer_step(b: Builder, act: Activation, figure: Figure, to: Square) -> bool:
    """Return ``_offer(b, Suspended(step="step", figure=figure.id, to=to))`` for a step of the
    active unit's ``figure`` in the activation ``act``, holding the step only for an offer."""
    state = b.state
    # The figure is a terrain piece exactly when its unit is the Terrain unit (layout._figure).
    if not _may_offer(act, figure.terrain):
        return False
    triggers = _left_adjacent(state, figure, to, _candidates(state))
    if not triggers:
        return False  # the usual step, with no held step to build
    return _hold(b, act, Suspended(step="step", figure=figure.id, to=to), triggers)


def _may_offer(act: Activation, terrain: bool) -> bool:
    """True if a step of the activation ``act`` may still be offered to the reactive player;
    ``terrain`` says whether the activation's unit is the Terrain unit."""
    if act.reaction is not None or act.offer is not None or act.reacted_to_action:
        return False  # one reaction per action (R5)
    # Terrain pieces never trigger reactions (R1): whatever the Terrain unit
    # does, stepping, stunting or ending its actions, raises nothing.
    return not terrain


def _hold(b: Builder, act: Activation, held: Suspended, triggers: tuple[Trigger, ...]) -> bool:
    """Offer ``held``, which raises ``triggers``, to the reactive player; True if it raises any."""
    if not triggers:
        return False
    reactive: Side = "adversaries" if act.side == "heroes" else "heroes"
    b.emit(ReactionTriggered(side=reactive, triggers=triggers, figure=held.figure, held=held))
    return True


def triggered_units(
    state: MatchState, held: Suspended
) -> tuple[tuple[Trigger, tuple[str, ...]], ...]:
    """Return each trigger ``held`` raises with the reactive units it concerns (R5, R7).

    The units are those :func:`_offer` allows for: until the reactive
    selection is revealed, every unit the reactive player might have selected;
    afterwards, the unit really selected. Neither depends on what is hidden,
    so naming them tells nothing about the hidden selection. Empty when
    there is no activation or no trigger.
    """
    if state.activation is None:
        return ()
    found: dict[Trigger, list[str]] = {}
    for unit, kinds in _candidates(state):
        for trigger in _raised(state, held, ((unit, kinds),)):
            found.setdefault(trigger, []).append(unit.id)
    return tuple((t, tuple(found[t])) for t in _TRIGGER_ORDER if t in found)


def can_react_now(state: MatchState) -> bool:
    """True if the reactive player's selection can answer the trigger on offer."""
    act = state.activation
    if act is None or act.offer is None:
        return False
    return bool(_raised(state, act.offer.held, _selected(state)))


def react(b: Builder) -> None:
    """React to the trigger on offer with the selected coins (R4, R6)."""
    act = _activation(b.state)
    assert act.offer is not None
    if not can_react_now(b.state):
        raise IllegalCommandError(
            "your selection cannot answer this trigger: let it pass (decline)"
        )
    assert act.reaction_coin is not None
    reactive: Side = "adversaries" if act.side == "heroes" else "heroes"
    reveal_reaction(b)
    kind = act.reaction_actions[0]
    double = len(act.reaction_actions) == 2
    b.emit(
        ReactionStarted(
            side=reactive, unit=coin_unit(act.reaction_coin), action=kind, double=double
        )
    )
    if kind == "defend":
        # The Defend reaction is revealed and covers the rest of the activation (R5).
        _end_reaction(b)


def decline(b: Builder) -> None:
    """Let the trigger on offer pass; the held step goes ahead."""
    act = _activation(b.state)
    assert act.offer is not None
    reactive: Side = "adversaries" if act.side == "heroes" else "heroes"
    b.emit(ReactionDeclined(side=reactive))
    _carry_out(b, act.offer.held)


def _end_reaction(b: Builder) -> None:
    """End the reaction; then the held step goes ahead if it still can (R6)."""
    act = _activation(b.state)
    assert act.reaction is not None and act.offer is not None
    held = act.offer.held
    b.emit(ReactionEnded(side=act.reaction.side))
    if not b.state.is_over:
        _carry_out(b, held)


def _carry_out(b: Builder, held: Suspended) -> None:
    match held.step:
        case "step":
            _finish_step(b, held)
        case "follow_step":
            _finish_follow_step(b, held)
        case "attack":
            _finish_attack(b, held)
        case "stunt":
            _finish_stunt(b, held)
        case "recovery":
            _finish_recovery(b)
        case "conclude":
            _end_activation(b)


# --- the Move action and reaction (R19) -------------------------------------


def movers(state: MatchState) -> tuple[Figure, ...]:
    """Return the acting unit's figures that may still begin or continue a move."""
    action = current(state)
    assert action is not None
    unit = state.unit(action.unit)
    return tuple(f for f in able_figures(state, unit) if f.id not in action.done)


def move_allowance(state: MatchState, figure: Figure, double: bool) -> int:
    """Return how many spaces a Move (or Double-Move) lets ``figure`` move, abilities and
    variants included."""
    return _allowance(state, figure, double, _movement_abilities(state.unit(figure.unit))[0])


def _allowance(
    state: MatchState, figure: Figure, double: bool, abilities: tuple[Ability, ...]
) -> int:
    """Return :func:`move_allowance`, given the abilities of the unit that change it."""
    spaces = DOUBLE_MOVE_SPACES if double else MOVE_SPACES
    if double and is_on(state, "diagonal-double-move"):
        spaces = DIAGONAL_DOUBLE_MOVE_SPACES
    for ability in abilities:
        spaces = ability.movement(state, figure, spaces)
    return spaces


def _movement_abilities(unit: Unit) -> tuple[tuple[Ability, ...], bool]:
    """Return the unit's abilities that change how far its figures move, and whether one
    lets them into blocking terrain: found once per unit, from its abilities alone."""
    return derived(unit, "_movement_abilities", _find_movement_abilities)


def _find_movement_abilities(unit: Unit) -> tuple[tuple[Ability, ...], bool]:
    abilities = abilities_of(unit)
    # An ability that keeps Ability.movement leaves every allowance as it is.
    allowance = tuple(a for a in abilities if type(a).movement is not Ability.movement)
    return allowance, any(a.enters_blocking_terrain() for a in abilities)


def _per_figure(
    state: MatchState, key: str, figure: Figure, compute: Callable[[MatchState, Figure], _V]
) -> _V:
    """Return ``compute(state, figure)``, computed once per state and figure."""
    known: dict[str, tuple[Figure, _V]] = derived(state, key, _new_table)
    return _kept(known, state, figure, compute)


def step_options(state: MatchState, figure: Figure) -> tuple[Direction, ...]:
    """Return the directions in which ``figure`` may take its next step of the move."""
    # Listing, deciding, finishing a step and checking the end of a move all
    # ask about the same figure in the same state: compute it once per state.
    return _per_figure(state, "_step_options", figure, _step_options)


def can_step(state: MatchState, figure: Figure, direction: Direction) -> bool:
    """True if ``direction`` is one of :func:`step_options`: ``figure`` may step that way now.

    Deciding a step needs that one direction, not all of them (unless they
    were listed already).
    """
    rules = _step_rules(state, figure, current(state))
    return rules is not None and _opens(state, figure, direction, rules)


def _opens(
    state: MatchState, figure: Figure, direction: Direction, rules: tuple[int, bool, bool, bool]
) -> bool:
    """Return :func:`can_step`, given ``figure``'s :func:`_step_rules` (not None)."""
    # The directions listed already, if they were (step_options), else that one direction.
    listed: dict[str, tuple[Figure, tuple[Direction, ...]]] | None
    listed = state.__dict__.get("_step_options")
    found = None if listed is None else listed.get(figure.id)
    if found is not None and (found[0] is figure or found[0] == figure):
        return direction in found[1]
    steps, diagonal, corners, into_terrain = rules
    assert state.board is not None
    return movement.can_step(
        state.board,
        state.figures,
        figure,
        direction,
        steps,
        pass_through_allies=True,
        diagonal=diagonal,
        corners_block=corners,
        into_terrain=into_terrain,
        occupancy=occupancy(state),
    )


def _step_options(state: MatchState, figure: Figure) -> tuple[Direction, ...]:
    rules = _step_rules(state, figure, current(state))
    if rules is None:
        return ()
    steps, diagonal, corners, into_terrain = rules
    assert state.board is not None
    return movement.step_options(
        state.board,
        state.figures,
        figure,
        steps,
        pass_through_allies=True,
        diagonal=diagonal,
        corners_block=corners,
        into_terrain=into_terrain,
        occupancy=occupancy(state),
    )


def _step_rules(
    state: MatchState, figure: Figure, action: Action | None
) -> tuple[int, bool, bool, bool] | None:
    """Return how ``figure``'s next step may go in ``action``, the move under way
    (``current(state)``): (steps left, diagonal steps allowed, blocking terrain blocks
    corners, may enter blocking terrain); None if it may not step."""
    assert action is not None and state.board is not None
    if figure.id in action.done or figure.condition == "disabled" or figure.square is None:
        return None
    abilities, into_terrain = _movement_abilities(state.unit(figure.unit))
    if action.mover == figure.id:
        steps = action.steps_left
    else:
        if action.mover is not None and not can_end_move(state):
            return None  # the current mover stands on an ally and must move on
        steps = _allowance(state, figure, action.double, abilities)
    if steps <= 0:
        return None
    diagonal, corners = _diagonal_steps(state, action.double)
    return steps, diagonal, corners, into_terrain


def occupancy(state: MatchState) -> movement.Occupancy:
    """Return the state's occupancy index (figures and tiles by space), built once for its
    figures (:func:`~multiversus_core.rulesets.multiversus.state.by_figures`)."""
    # by_figures(state, "_occupancy", _occupancy), its usual hit inlined: a step asks for it
    # twice, and every other rule on the board too.
    table = state.__dict__.get("_by_figures")
    index: movement.Occupancy | None = None if table is None else table.get("_occupancy")
    return index if index is not None else by_figures(state, "_occupancy", _occupancy)


def _occupancy(state: MatchState) -> movement.Occupancy:
    assert state.board is not None
    return movement.Occupancy(state.board, state.figures)


def enters_blocking_terrain(state: MatchState, figure: Figure) -> bool:
    """True if an ability lets the figure's unit move into blocking terrain (rulebook:
    Blocking terrain and characters)."""
    return _movement_abilities(state.unit(figure.unit))[1]


def _diagonal_steps(state: MatchState, double: bool) -> tuple[bool, bool]:
    """Return (diagonal steps allowed, blocking terrain blocks cutting corners), by variant."""
    variants = state.settings.variants  # is_on, for two variants
    if "diagonal-movement" in variants:
        return True, True
    return double and "diagonal-double-move" in variants, False


def can_end_move(state: MatchState) -> bool:
    """True if the current mover, if any, may stop where it stands (never on an ally, R19).

    A mover boxed in on an ally with no way on at all may stop (it cannot do otherwise).
    """
    return derived(state, "_can_end_move", _can_end_move)


def _can_end_move(state: MatchState) -> bool:
    action = current(state)
    if action is None or action.mover is None:
        return True
    assert state.board is not None
    mover = state.figure(action.mover)
    if mover.condition == "disabled" or mover.square is None:
        return True
    if movement.can_stop_here(
        state.board, state.figures, mover, pass_through_allies=True, occupancy=occupancy(state)
    ):
        return True
    return action.mover == mover.id and not step_options(state, mover)


def step(b: Builder, figure: Figure, direction: Direction) -> None:
    """Move a figure of the acting unit one space (R19), unless the step triggers a reaction.

    :raises IllegalCommandError: if the figure may not step that way now.
    """
    state = b.state
    action = current(state)
    assert action is not None
    if figure.unit != action.unit:
        raise IllegalCommandError(f"{figure.name} is not in the acting unit")
    square = figure.square
    if square is None:
        raise IllegalCommandError(f"{figure.name} is not on the board")
    if figure.condition == "disabled":
        raise IllegalCommandError(f"{figure.name} is Disabled and cannot move")
    if direction[0] and direction[1] and not _diagonal_steps(state, action.double)[0]:
        raise IllegalCommandError("regular movement is orthogonal, never diagonal")
    if figure.id in action.done:
        raise IllegalCommandError(f"{figure.name} has already moved in this action")
    if action.mover not in (None, figure.id) and not can_end_move(state):
        mover = state.figure(action.mover or "")
        raise IllegalCommandError(
            f"{mover.name} stands on an ally and must move on before another figure moves"
        )
    if action.mover == figure.id and action.steps_left <= 0:
        raise IllegalCommandError(f"{figure.name} has no movement left")
    rules = _step_rules(state, figure, action)
    if rules is None or not _opens(state, figure, direction, rules):
        raise IllegalCommandError(f"{figure.name} cannot step {compass(direction)} from here")
    to = (square[0] + direction[0], square[1] + direction[1])  # movement.step
    act = _activation(state)
    if action.side == act.side and _offer_step(b, act, figure, to):
        return
    _take_step(b, figure, to, rules[0])  # nothing happened since the checks above


def _take_step(b: Builder, figure: Figure, to: Square, steps: int) -> None:
    """Step ``figure`` of the move under way to ``to``: a step it may take now, with
    ``steps`` spaces of movement left before it (its :func:`_step_rules`)."""
    state = b.state
    b.emit(FigureStepped(figure=figure.id, to=to, steps_left=steps - 1))
    _carry_step(state, b.state, figure)


def _finish_step(b: Builder, held: Suspended) -> None:
    state = b.state
    figure = state.figure(held.figure)
    assert held.to is not None
    if figure.square is None:
        return
    if figure.condition == "disabled":
        _unstrand(b, figure)  # a Disabled character stops moving (R6)
        return
    direction = (held.to[0] - figure.square[0], held.to[1] - figure.square[1])
    rules = _step_rules(state, figure, current(state))
    if rules is not None and _opens(state, figure, direction, rules):
        _take_step(b, figure, held.to, rules[0])
    elif not step_options(state, figure):
        # The reaction blocked the way and the figure can go no further.
        _unstrand(b, figure)


def _carry_step(old: MatchState, new: MatchState, before: Figure) -> None:
    """Give ``new``, the state after ``before`` stepped in ``old`` (one FigureStepped), the
    lookups of ``old`` that the step left alone, with the figure in its new place.

    A step changes one figure's square and the move under way. The trigger
    candidates stay the same. Which units' figures are on the board or able,
    what each unit may select and the commands listed for it stay the same;
    the figures by id and the able figures by unit change in the stepped
    figure's place, and the occupancy index (with the spaces beside each unit)
    only where the figure was and is. Each value equals the one ``new`` would
    compute from scratch (tests/test_step_paths.py checks it). The figures on
    the board by unit are not carried: few states after a step ask for them
    (listing asks for the able ones), and one pass finds them when one does.
    """
    source = old.__dict__
    target = new.__dict__
    candidates = source.get("_candidates")
    if candidates is not None:
        target["_candidates"] = candidates
    table = source.get("_by_figures")
    if table is None or "_by_figures" in target or new.units is not old.units:
        return
    if new.board is not old.board or before.square is None:
        return
    try:
        after = new.figures[old.figures.index(before)]
    except ValueError:
        return
    if after.id != before.id or after.square is None:
        return
    carried: dict[str, Any] = {}
    target["_by_figures"] = carried
    index = table.get("_figure_index")
    if index is not None:
        index = dict(index)
        index[after.id] = after
        carried["_figure_index"] = index
    able = table.get("_able_figures")
    if able is not None:
        mine = able.get(after.unit, ())
        try:
            i = mine.index(before)
        except ValueError:
            pass  # not among them (not able): they stay as they were
        else:
            able = able.copy()
            able[after.unit] = (*mine[:i], after, *mine[i + 1 :])
        carried["_able_figures"] = able
    for key in ("_unit_index", "_active_selections", "_reactive_selections", "_listed_selections"):
        value = table.get(key)
        if value is not None:
            carried[key] = value
    occupancy = table.get("_occupancy")
    if occupancy is not None:
        carried["_occupancy"] = occupancy.moved(before, after, new.figures)


def _unstrand(b: Builder, figure: Figure) -> None:
    """Move a character stranded on an ally it was passing through to the nearest
    space it could stop on (project ruling P14)."""
    state = b.state
    assert state.board is not None and figure.square is not None
    index = occupancy(state)
    if movement.can_stop_here(
        state.board, state.figures, figure, pass_through_allies=True, occupancy=index
    ):
        return
    limit = state.board.width * state.board.height
    for steps in range(1, limit + 1):
        found = movement.reachable(
            state.board, state.figures, figure, steps, pass_through_allies=True, occupancy=index
        )
        if found:
            b.emit(FigureMoved(figure=figure.id, to=min(found, key=_row_major), how="place"))
            return


# --- the Attack action and reaction (R8, R9) --------------------------------


def attackers(state: MatchState) -> tuple[Figure, ...]:
    """Return the acting unit's characters that have not attacked yet in this action."""
    action = current(state)
    assert action is not None
    unit = state.unit(action.unit)
    return tuple(f for f in able_figures(state, unit) if not f.terrain and f.id not in action.done)


def attack_targets(state: MatchState, attacker: Figure) -> tuple[Figure, ...]:
    """Return the characters ``attacker`` may attack now in the action under way."""
    # Listing and deciding ask the same: compute it once per state and attacker.
    return _per_figure(state, "_attack_targets", attacker, _attack_targets)


def _attack_targets(state: MatchState, attacker: Figure) -> tuple[Figure, ...]:
    action = current(state)
    act = _activation(state)
    assert action is not None
    if attacker.id in action.done or action.follow_up is not None:
        return ()
    if act.reaction is not None:
        allowed_unit: str | None = act.unit  # reactions attack the active unit only
    else:
        allowed_unit = action.target_unit
    ranged = combat.is_ranged(state, attacker)
    # Without Ranged only an adjacent character can be attacked: one within one space.
    near = None if ranged else occupancy(state).near(attacker)
    return tuple(
        f
        for f in state.figures
        if (allowed_unit is None or f.unit == allowed_unit)
        and (near is None or f.id in near)
        and combat.can_attack(state, attacker, f, ranged=ranged)
    )


def can_attack_target(state: MatchState, attacker: Figure, target: Figure) -> bool:
    """True if ``target`` is one of :func:`attack_targets`: ``attacker`` may attack it now.

    Deciding an attack needs that one target, not all of them (unless they
    were listed already).
    """
    # The targets listed already, if they were (attack_targets), else that one target.
    known: dict[str, tuple[Figure, tuple[Figure, ...]]] | None
    known = state.__dict__.get("_attack_targets")
    found = None if known is None else known.get(attacker.id)
    if found is not None and (found[0] is attacker or found[0] == attacker):
        return target in found[1]
    action = current(state)
    assert action is not None
    if attacker.id in action.done or action.follow_up is not None:
        return False
    act = _activation(state)
    allowed_unit = act.unit if act.reaction is not None else action.target_unit
    if allowed_unit is not None and target.unit != allowed_unit:
        return False
    try:
        listed = state.figure(target.id)  # only the state's own figures are listed
    except KeyError:
        return False
    # Without Ranged, can_attack asks for an adjacent target, which is near the attacker:
    # the listing's filter by nearness changes nothing.
    return (listed is target or listed == target) and combat.can_attack(state, attacker, target)


def attack(b: Builder, attacker: Figure, target: Figure) -> None:
    """Declare one attack of the action or reaction under way (R8).

    :raises IllegalCommandError: if that attack is not possible now.
    """
    state = b.state
    action = current(state)
    assert action is not None
    if attacker.unit != action.unit:
        raise IllegalCommandError(f"{attacker.name} is not in the acting unit")
    if attacker.terrain:
        raise IllegalCommandError(f"{attacker.name} is terrain and cannot attack")
    if attacker.condition == "disabled":
        raise IllegalCommandError(f"{attacker.name} is Disabled and cannot attack")
    if attacker.id in action.done:
        raise IllegalCommandError(f"{attacker.name} has already attacked in this action")
    if not can_attack_target(state, attacker, target):
        if action.target_unit is not None and target.unit != action.target_unit:
            unit = state.unit(action.target_unit)
            raise IllegalCommandError(f"every attack of this action must target {unit.name}")
        raise IllegalCommandError(f"{attacker.name} cannot attack {target.name} from there")
    held = Suspended(step="attack", figure=attacker.id, target=target.id)
    if _activation(state).reaction is None and _offer(b, held):
        return
    _finish_attack(b, held)


def _finish_attack(b: Builder, held: Suspended) -> None:
    state = b.state
    act = _activation(state)
    action = current(state)
    assert action is not None and held.target is not None
    attacker = state.figure(held.figure)
    target = state.figure(held.target)
    if not combat.can_attack(state, attacker, target):
        # The reaction Disabled the attacker, or moved one of the two out of
        # reach: the attack is not made (R6), and the attacker may still act.
        return
    if act.reaction is not None:
        defended = act.braced
        harmless = act.action is not None and act.action.kind == "recovery"
    else:
        defended = act.defending and target.unit == coin_unit(act.reaction_coin or "")
        harmless = False
    hit = combat.resolve_attack(
        b, attacker, target, defended=defended, double=action.double, harmless=harmless
    )
    if hit and action.double and is_on(b.state, "double-attack-pushes") and not b.state.is_over:
        attacker, target = b.state.figure(attacker.id), b.state.figure(target.id)
        if _push_destination(b.state, attacker, target) is not None:
            _queue_push(b, attacker, target)
    # Forced moves the attack's abilities queued, then the variant's push (R20).
    forced.run(b)


def _queue_push(b: Builder, attacker: Figure, target: Figure) -> None:
    """Queue the one-space push of ``target`` directly away from ``attacker`` (R9, R20)."""
    direction = push_direction(attacker, target)
    b.forced.append(ForcedMove(figure=target.id, how="push", direction=direction, distance=1))


FollowUp = Literal["step", "push", "stay"]
"""What an attacker does after its attack (R9)."""


def follow_up_options(state: MatchState) -> tuple[tuple[FollowUp, Direction | None], ...]:
    """Return the attacker's choices after an attack: stay, step in a direction, or push."""
    # Listing and deciding ask the same: compute it once per state.
    return derived(state, "_follow_up_options", _follow_up_options)


def _follow_up_options(state: MatchState) -> tuple[tuple[FollowUp, Direction | None], ...]:
    action = current(state)
    assert action is not None and action.follow_up is not None and state.board is not None
    attacker = state.figure(action.follow_up[0])
    target = state.figure(action.follow_up[1])
    options: list[tuple[FollowUp, Direction | None]] = [("stay", None)]
    if attacker.square is not None and attacker.condition != "disabled":
        for direction in movement.step_options(
            state.board,
            state.figures,
            attacker,
            1,
            pass_through_allies=False,
            occupancy=occupancy(state),
        ):
            options.append(("step", direction))
    if _push_destination(state, attacker, target) is not None:
        options.append(("push", None))
    return tuple(options)


def can_follow_up(state: MatchState, choice: FollowUp, direction: Direction | None) -> bool:
    """True if (choice, direction) is one of :func:`follow_up_options`: the attacker may do
    that now.

    Deciding asks about that one choice, not all of them (unless they were
    listed already): a step asks about one direction, staying asks nothing.
    """
    listed: tuple[tuple[FollowUp, Direction | None], ...] | None
    listed = state.__dict__.get("_follow_up_options")  # what follow_up_options keeps
    if listed is not None:
        return (choice, direction) in listed
    if choice == "stay":
        return direction is None
    action = current(state)
    assert action is not None and action.follow_up is not None and state.board is not None
    attacker = state.figure(action.follow_up[0])
    if choice == "push":
        target = state.figure(action.follow_up[1])
        return direction is None and _push_destination(state, attacker, target) is not None
    if choice != "step" or direction is None or attacker.condition == "disabled":
        return False
    return movement.can_step(
        state.board,
        state.figures,
        attacker,
        direction,
        1,
        pass_through_allies=False,
        occupancy=occupancy(state),
    )


def _push_destination(
    state: MatchState, attacker: Figure, target: Figure
) -> tuple[int, int] | None:
    if target.square is None or attacker.square is None or target.condition == "eliminated":
        return None  # an eliminated target cannot be pushed (R9)
    assert state.board is not None
    if set(figure_squares(attacker)) & set(figure_squares(target)):
        return None
    direction = push_direction(attacker, target)
    path = movement.forced_path(
        state.board, state.figures, target, direction, 1, occupancy=occupancy(state)
    )
    return path[0] if path else None


def after_attack(b: Builder, choice: FollowUp, direction: Direction | None) -> None:
    """Step the attacker, push the target, or stay, after an attack (R9).

    :raises IllegalCommandError: if that choice is not possible.
    """
    state = b.state
    action = current(state)
    assert action is not None and action.follow_up is not None
    attacker = state.figure(action.follow_up[0])
    target = state.figure(action.follow_up[1])
    if not can_follow_up(state, choice, direction):
        if choice == "push":
            raise IllegalCommandError(
                f"{target.name} cannot be pushed: the space behind is not free"
            )
        if choice == "step" and direction is None:
            raise InvalidCommandError("a step after an attack needs a direction")
        raise IllegalCommandError(f"{attacker.name} cannot do that after its attack")
    if choice == "stay":
        b.emit(FollowUpChosen(attacker=attacker.id, choice="stay"))
    elif choice == "push":
        b.emit(FollowUpChosen(attacker=attacker.id, choice="push"))
        _queue_push(b, attacker, target)
        forced.run(b)
    else:
        assert direction is not None
        b.emit(FollowUpChosen(attacker=attacker.id, choice="step"))
        held = Suspended(
            step="follow_step", figure=attacker.id, to=movement.step(attacker, direction)
        )
        act = _activation(b.state)
        if act.reaction is None and _offer(b, held):
            return
        _finish_follow_step(b, held)


def _finish_follow_step(b: Builder, held: Suspended) -> None:
    state = b.state
    figure = state.figure(held.figure)
    assert held.to is not None and state.board is not None
    if figure.square is None or figure.condition == "disabled":
        return
    direction = (held.to[0] - figure.square[0], held.to[1] - figure.square[1])
    if movement.can_step(
        state.board,
        state.figures,
        figure,
        direction,
        1,
        pass_through_allies=False,
        occupancy=occupancy(state),
    ):
        b.emit(FigureMoved(figure=figure.id, to=held.to, how="step"))


# --- the Stunt action and reaction (R11) ------------------------------------


def stunters(state: MatchState) -> tuple[Figure, ...]:
    """Return the acting unit's figures that have not stunted yet in this action."""
    action = current(state)
    assert action is not None
    unit = state.unit(action.unit)
    return tuple(f for f in able_figures(state, unit) if f.id not in action.done)


def stunt_options(state: MatchState, figure: Figure) -> tuple[tuple[str | None, str | None], ...]:
    """Return (ability, target) pairs ``figure`` may use: its unit's (!)/(!!) abilities, or
    an adjacent figure (or one sharing its space) to interact with (rulebook: Abilities)."""
    # Listing and deciding ask the same: compute it once per state and figure.
    return _per_figure(state, "_stunt_options", figure, _stunt_options)


def _stunt_options(state: MatchState, figure: Figure) -> tuple[tuple[str | None, str | None], ...]:
    action = current(state)
    assert action is not None
    if figure.id in action.done:
        return ()
    unit = state.unit(figure.unit)
    options: list[tuple[str | None, str | None]] = [
        (a.name, None) for a in stunt_abilities(unit, action.double)
    ]
    if not action.double:
        near = occupancy(state).near(figure)
        for other in state.figures:
            if other.id in near:
                options.append((None, other.id))
    if action.stunt is not None:
        # Every figure of the unit performs the same stunt (rulebook: Units and characters).
        options = [o for o in options if _same_stunt(o[0], o[1], action.stunt)]
    return tuple(options)


def _same_stunt(ability: str | None, target: str | None, stunt: str) -> bool:
    """True if the stunt (ability, target) is ``stunt``, the one the unit's figures perform
    in this action: ``"!"`` and the ability's name, or the target's id."""
    return (ability and "!" + ability) == stunt or target == stunt


def can_stunt(state: MatchState, figure: Figure, ability: str | None, target: str | None) -> bool:
    """True if (ability, target) is one of :func:`stunt_options`: ``figure`` may perform it now.

    Deciding a stunt needs that one pair, not all of them (unless they were
    listed already): no loop over every figure on the board.
    """
    # The options listed already, if they were (stunt_options), else that one option.
    known: dict[str, tuple[Figure, tuple[tuple[str | None, str | None], ...]]] | None
    known = state.__dict__.get("_stunt_options")
    found = None if known is None else known.get(figure.id)
    if found is not None and (found[0] is figure or found[0] == figure):
        return (ability, target) in found[1]
    action = current(state)
    assert action is not None
    if figure.id in action.done or (ability is None) == (target is None):
        return False
    if action.stunt is not None and not _same_stunt(ability, target, action.stunt):
        return False
    if ability is not None:
        unit = state.unit(figure.unit)
        return any(a.name == ability for a in stunt_abilities(unit, action.double))
    if action.double:
        return False
    other = _figure_named(state, target)
    return other is not None and _near(figure, other)


def _figure_named(state: MatchState, figure_id: str | None) -> Figure | None:
    """Return the state's figure with that id, or None if it has none."""
    try:
        return state.figure(figure_id or "")
    except KeyError:
        return None


def _near(figure: Figure, other: Figure) -> bool:
    """True if ``other`` is another figure within one space of ``figure``: one
    :meth:`~multiversus_core.rulesets.multiversus.movement.Occupancy.near` would list for it."""
    if figure.square is None or other.square is None or other.id == figure.id:
        return False
    # Some space of ``other`` is at most one space from some space of ``figure``: their
    # columns and rows, one more all round ``figure``'s, overlap.
    (c, r), (oc, orow) = figure.square, other.square
    span = 1 if figure.size == "medium" else 2
    other_span = 1 if other.size == "medium" else 2
    return c - other_span <= oc <= c + span and r - other_span <= orow <= r + span


def stunt(b: Builder, figure: Figure, ability: str | None, target: str | None) -> None:
    """Use a stunt-based ability or interact with a figure (R11).

    :raises InvalidCommandError: if neither or both of ability and target are given.
    :raises IllegalCommandError: if that stunt is not possible now.
    """
    state = b.state
    action = current(state)
    assert action is not None
    if (ability is None) == (target is None):
        raise InvalidCommandError("a stunt names an ability or a target to interact with, not both")
    if ability is not None and ability not in REGISTRY:
        raise InvalidCommandError(f"no ability {ability!r} is known")
    if target is not None:
        try:
            state.figure(target)
        except KeyError:
            raise InvalidCommandError(f"no figure {target!r} is in this match") from None
    if figure.unit != action.unit:
        raise IllegalCommandError(f"{figure.name} is not in the acting unit")
    if figure.condition == "disabled" or figure.square is None:
        raise IllegalCommandError(f"{figure.name} cannot act")
    if not can_stunt(state, figure, ability, target):
        raise IllegalCommandError(f"{figure.name} cannot perform that stunt now")
    held = Suspended(step="stunt", figure=figure.id, target=target, ability=ability)
    act = _activation(state)
    if act.reaction is None and _offer_stunt(b, act, figure, held):
        return
    _finish_stunt(b, held)


def _offer_stunt(b: Builder, act: Activation, figure: Figure, held: Suspended) -> bool:
    """Return ``_offer(b, held)`` for ``held``, a stunt by the active unit's ``figure`` in
    the activation ``act``."""
    # The figure is a terrain piece exactly when its unit is the Terrain unit (layout._figure).
    if not _may_offer(act, figure.terrain):
        return False
    return _hold(b, act, held, _stunted(b.state, act, figure))


def _stunted(state: MatchState, act: Activation, figure: Figure) -> tuple[Trigger, ...]:
    """Return what ``_raised(state, held, _candidates(state))`` says of a stunt by the active
    unit's ``figure``: trigger 5 if it is in range of a candidate unit that an Attack, Move
    or Stunt reaction could answer (R5, R7).

    Every candidate is a unit of the reactive side, and most stunts are in range of none
    of them: the candidates are found only when the figure is in range of one.
    """
    side = act.side
    near = [u.id for u in state.units if u.side != side and _in_range(state, u, figure)]
    if not near:
        return ()
    usual = _LATE_USUAL if is_on(state, "move-reaction-at-end") else _USUAL
    for unit, kinds in _candidates(state):
        if unit.id in near and not usual.isdisjoint(kinds):
            return ("stunted",)
    return ()


def _finish_stunt(b: Builder, held: Suspended) -> None:
    state = b.state
    act = _activation(state)
    action = current(state)
    assert action is not None
    if act.reaction is None and act.struck:
        # Subject to an attack reaction: the stunt fails (R11) and the action ends.
        b.emit(StuntFailed(side=act.side, unit=action.unit))
        _end_action(b)
        return
    figure = state.figure(held.figure)
    if figure.square is None or figure.condition == "disabled":
        return
    b.emit(StuntPerformed(figure=figure.id, ability=held.ability, target=held.target))
    if held.ability is not None:
        REGISTRY[held.ability].on_stunt(b, b.state.figure(figure.id), action.double)
    elif held.target is not None:
        other = b.state.figure(held.target)
        for ability in abilities_of(b.state.unit(other.unit)):
            ability.on_interact(b, b.state.figure(figure.id), other)
    forced.run(b)  # the forced moves the stunt queued (R20)


# --- Recovery (R12) ---------------------------------------------------------


def _recover(b: Builder) -> None:
    act = _activation(b.state)
    unit = b.state.unit(act.unit)
    figures = figures_of(b.state, unit)
    held = Suspended(step="recovery", figure=figures[0].id)
    if _offer(b, held):
        return
    _finish_recovery(b)


def _finish_recovery(b: Builder) -> None:
    """Recover unless an attack reaction struck the unit; the turn then ends (R12)."""
    act = _activation(b.state)
    unit = b.state.unit(act.unit)
    succeeded = not act.struck
    costly = is_on(b.state, "costly-recovery")
    b.emit(RecoveryMade(side=act.side, unit=unit.id, succeeded=succeeded))
    if succeeded:
        for figure in figures_of(b.state, unit):
            if figure.condition == "wounded" or (costly and figure.condition == "disabled"):
                b.emit(ConditionChanged(figure=figure.id, condition="unharmed"))
            elif figure.condition == "disabled":
                b.emit(ConditionChanged(figure=figure.id, condition="wounded"))
    b.emit(ActionEnded(side=act.side, action="recovery"))
    coin = act.coin
    _end_activation(b)
    if succeeded and costly and coin is not None:
        b.emit(UnitCoinRemoved(side=act.side, coin=coin))
    end_turn(b, act.side, "recovery")


def _row_major(square: tuple[int, int]) -> tuple[int, int]:
    return (square[1], square[0])


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
