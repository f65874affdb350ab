"""Attacks: range, Advantage, hits and conditions.

Rulebook: *Attacks*, *Advantage*, *Actions* (Attack, Defend), *Two-coin
actions*; rulings R7, R8, R10, R12, R21 and the Beast rule.
"""

from __future__ import annotations

from typing import Final

from multiversus_core.rulesets.multiversus.abilities import abilities_of
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.events import AttackMade, ConditionChanged
from multiversus_core.rulesets.multiversus.geometry import (
    adjacent_figures,
    are_adjacent,
    has_line_of_sight,
)
from multiversus_core.rulesets.multiversus.scoring import check_elimination
from multiversus_core.rulesets.multiversus.state import MatchState, derived
from multiversus_core.rulesets.multiversus.terms import Condition
from multiversus_core.rulesets.multiversus.units import Unit

NEXT_CONDITION: Final[dict[Condition, Condition]] = {
    "unharmed": "wounded",
    "wounded": "disabled",
    "disabled": "eliminated",
    "eliminated": "eliminated",
}
"""One hit moves a character one step along this line (R8)."""


def is_ranged(state: MatchState, figure: Figure) -> bool:
    """True if the figure's unit has an ability that makes its attacks ranged."""
    return unit_is_ranged(state.unit(figure.unit))


def unit_is_ranged(unit: Unit) -> bool:
    """True if the unit has an ability that makes its characters' attacks ranged."""
    return derived(unit, "_is_ranged", _unit_is_ranged)


def _unit_is_ranged(unit: Unit) -> bool:
    # Found once per unit: its abilities never change.
    return any(a.is_ranged() for a in abilities_of(unit))


def can_attack(
    state: MatchState, attacker: Figure, target: Figure, *, ranged: bool | None = None
) -> bool:
    """True if ``attacker`` could attack ``target`` now: adjacent, or in sight when Ranged (R7).

    Only characters on the board attack and are attacked (R1); a Disabled
    character takes no action. ``ranged``, if given, is
    ``is_ranged(state, attacker)``, for a caller asking about many targets.
    """
    if (
        attacker.terrain
        or target.terrain
        or attacker.square is None
        or target.square is None
        or attacker.side == target.side
        or attacker.condition == "disabled"
    ):
        return False
    if are_adjacent(attacker, target):
        return True
    if ranged is None:
        ranged = is_ranged(state, attacker)
    assert state.board is not None
    return ranged and has_line_of_sight(state.board, state.figures, attacker, target)


def has_advantage(state: MatchState, target: Figure) -> bool:
    """True if an attack on ``target`` has Advantage (R21).

    The target is adjacent to more enemy characters than allied characters
    plus one; terrain pieces are not characters.
    """
    enemies = allies = 0
    for other in adjacent_figures(state.figures, target):
        if other.terrain:
            continue
        if other.side == target.side:
            allies += 1
        else:
            enemies += 1
    return enemies > allies + 1


def harm(state: MatchState, target: Figure, advantage: bool) -> Condition:
    """Return the condition a hit leaves ``target`` in (R8, and the Beast rule)."""
    if target.condition == "wounded" and state.unit(target.unit).role == "beast" and not advantage:
        return "wounded"  # a Beast is Disabled only by a hit with Advantage
    return NEXT_CONDITION[target.condition]


def resolve_attack(
    b: Builder,
    attacker: Figure,
    target: Figure,
    *,
    defended: bool,
    double: bool,
    harmless: bool = False,
) -> bool:
    """Resolve one attack: hit unless defended (a Double-Attack always hits), then harm.

    ``harmless`` is for attacks on a recovering unit, which are not harmed
    further (R12). Returns whether the attack hit.
    """
    advantage = has_advantage(b.state, target)
    hit = double or not defended
    b.emit(
        AttackMade(
            attacker=attacker.id,
            target=target.id,
            advantage=advantage,
            defended=defended,
            hit=hit,
        )
    )
    if hit and not harmless:
        condition = harm(b.state, target, advantage)
        if condition != target.condition:
            b.emit(ConditionChanged(figure=target.id, condition=condition))
            if condition == "eliminated" and check_elimination(b):
                return hit
    state = b.state
    for unit_id in dict.fromkeys((attacker.unit, target.unit)):
        for ability in abilities_of(state.unit(unit_id)):
            ability.after_attack(b, state.figure(attacker.id), state.figure(target.id), hit)
            if b.state.is_over:
                return hit
    return hit
