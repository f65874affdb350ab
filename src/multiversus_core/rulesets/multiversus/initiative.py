"""Rounds, turns, the Initiative die and coin return.

Rulebook: *Gameplay*, *Testing and Losing Initiative*; rulings R13-R16, and
project ruling P1 (see ``docs/rules-reference.md``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final, Literal

from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.catalog import find_team
from multiversus_core.rulesets.multiversus.events import (
    DiscardReturned,
    InitiativeRolled,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from multiversus_core.rulesets.multiversus.scoring import end_match, final_result
from multiversus_core.rulesets.multiversus.selections import has_legal_activation
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Side, other_side
from multiversus_core.rulesets.multiversus.units import coin_kind, is_grey
from multiversus_core.rulesets.multiversus.variants import is_on

ROUNDS: Final = 6
"""A match lasts six rounds (R16)."""

TurnEndReason = Literal["initiative_lost", "initiative_given_up", "no_activation", "recovery"]


def greys_in_discard(state: MatchState, side: Side) -> int:
    """Return how many grey unit coins a side has in its discard."""
    # By the coins' cached kinds (coin_kind): no call of is_grey coin by coin.
    return [coin_kind(coin)[1] for coin in state.piles(side).discard].count("grey")


def loses_initiative(die: int, greys: int, *, six_loses: bool = True) -> bool:
    """True if a roll loses the Initiative: a 6, or at most the greys in the discard (R13).

    ``six_loses`` is False under the variant no-automatic-six.
    """
    return (six_loses and die == 6) or die <= greys


def losing_rolls(greys: int, *, six_loses: bool = True) -> tuple[int, ...]:
    """Return the faces of the die that lose the Initiative with ``greys`` greys in the discard.

    ``six_loses`` is False under the variant no-automatic-six (R13).
    """
    return tuple(die for die in range(1, 7) if loses_initiative(die, greys, six_loses=six_loses))


def chance_of_losing_initiative(state: MatchState, side: Side, *, more_greys: int = 0) -> Fraction:
    """Return the exact chance that ``side`` loses the Initiative when it rolls the die (R13).

    The Initiative test: one fair six-sided die, lost on a 6 (unless the
    variant no-automatic-six is in play) or on a roll equal to or lower than
    the grey unit coins in the side's own discard. ``more_greys`` counts grey
    coins that will be in the discard by the roll but are not there yet (the
    grey coin of an activation still to come); at the roll itself it is 0,
    the coin just used having been discarded already. A Recovery ends the
    turn without a roll (R12); this is the chance of the roll, not of the turn.
    """
    greys = greys_in_discard(state, side) + more_greys
    faces = losing_rolls(greys, six_loses=not is_on(state, "no-automatic-six"))
    return Fraction(len(faces), 6)


def roll(b: Builder, side: Side, die: int) -> None:
    """Record an Initiative roll and end the turn if it was lost (R13, R15)."""
    greys = greys_in_discard(b.state, side)
    lost = loses_initiative(die, greys, six_loses=not is_on(b.state, "no-automatic-six"))
    b.emit(InitiativeRolled(side=side, die=die, greys=greys, lost=lost))
    if lost:
        end_turn(b, side, "initiative_lost")
    else:
        _end_turn_if_stuck(b)


def start_round(b: Builder, number: int) -> None:
    """Begin a round with the starting team's turn (R16); it returns all its coins (R14)."""
    b.emit(RoundStarted(round=number))
    first = b.state.starting_side
    assert first is not None
    b.emit(TurnStarted(side=first))
    _return(b, first, include_grey=True)
    _end_turn_if_stuck(b)


def end_turn(b: Builder, side: Side, reason: TurnEndReason) -> None:
    """End a side's turn and pass the Initiative, or end the round and perhaps the match.

    The side whose turn ended takes back every unit coin; the side gaining the
    Initiative takes back its green coins, and its grey ones too unless the
    Initiative was given up willingly (R14).
    """
    b.emit(TurnEnded(side=side, reason=reason))
    _return(b, side, include_grey=True)
    state = b.state
    if state.turns_in_round >= 2:
        b.emit(RoundEnded(round=state.round))
        if state.round >= ROUNDS:
            sheet = find_team(state.adversaries_team or "")
            conditions = sheet.win_conditions if sheet else ()
            scheme = [s.choice for s in state.secrets if s.name == "scheme"]
            if is_on(state, "secret-schemes") and scheme:
                conditions = (scheme[0],)
            winner, why = final_result(state, conditions)
            end_match(b, why, winner)
        else:
            start_round(b, state.round + 1)
        return
    gaining = other_side(side)
    b.emit(TurnStarted(side=gaining))
    _return(b, gaining, include_grey=reason != "initiative_given_up")
    _end_turn_if_stuck(b)


def _return(b: Builder, side: Side, *, include_grey: bool) -> None:
    discard = b.state.piles(side).discard
    coins = discard if include_grey else tuple(c for c in discard if not is_grey(c))
    if coins:
        b.emit(DiscardReturned(side=side, coins=coins))


def _end_turn_if_stuck(b: Builder) -> None:
    # R15 and P1: with no unit coin for a unit that can act, the turn ends as
    # if the Initiative were lost, whether at the start of the turn or after
    # a kept roll.
    side = b.state.active
    if side is not None and b.state.pending == "select" and not has_legal_activation(b.state, side):
        end_turn(b, side, "no_activation")
