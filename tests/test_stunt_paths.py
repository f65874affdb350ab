"""Deciding a stunt agrees with the plain computations it replaces.

A stunt's offer looks for the trigger candidates only when the stunting
figure is in range of a unit of the reactive side; whether a figure is near
enough to interact with is read from the two figures' spaces, without an
occupancy index. Checked here against the plain offer of the held stunt, in
states of random matches under random variants, as played and with the
figures scattered over the board, and against the index on random boards.
"""

from __future__ import annotations

import json

import msgspec
from hypothesis import given, settings

from multiversus_core.engine.position import edit_position, read_position, write_position
from multiversus_core.rulesets.multiversus import activation, movement, selections
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.state import MatchState, Suspended
from tests.boards import random_scenes
from tests.test_option_paths import MATCHES, OPTIONS, _random_states


def _fresh(state: MatchState) -> MatchState:
    """The same state without anything cached on it."""
    return msgspec.structs.replace(state)


@OPTIONS
@given(MATCHES)
def test_a_stunt_offers_what_the_plain_offer_of_the_held_stunt_would(
    match: tuple[int, tuple[str, ...], bool],
) -> None:
    # given random states waiting for a stunt of the active unit (as played under random
    # variants, or with the figures scattered), for every figure that may still stunt
    checked = 0
    for state in _random_states(*match):
        act = state.activation
        if state.pending != "stunt" or act is None or act.reaction is not None:
            continue
        checked += 1
        for figure in activation.stunters(state):
            for ability, target in activation.stunt_options(_fresh(state), figure):
                held = Suspended(step="stunt", figure=figure.id, target=target, ability=ability)
                # then the stunt's offer, its candidates found only when the figure is in
                # range of a reactive unit, is the plain offer: the same answer and events
                quick, plain = Builder(_fresh(state)), Builder(_fresh(state))
                offered = activation._offer_stunt(quick, act, figure, held)
                assert offered == activation._offer(plain, held)
                assert quick.events == plain.events
    assert checked > 0  # a random match always stunts with the active unit


@OPTIONS
@given(MATCHES)
def test_the_trigger_of_a_stunt_is_the_one_the_plain_rule_finds_for_every_figure(
    match: tuple[int, tuple[str, ...], bool],
) -> None:
    # given random states of an action (as played under random variants, or scattered),
    # then for every figure, the trigger its stunt would raise is what the plain rule finds
    # for every candidate unit and its coins (R5, R7)
    checked = 0
    for state in _random_states(*match):
        for revealed in _revealed(state):
            act = revealed.activation
            assert act is not None
            for figure in revealed.figures:
                held = Suspended(step="stunt", figure=figure.id)
                plain = _fresh(revealed)
                expected = activation._raised(plain, held, activation._candidates(plain))
                assert activation._stunted(_fresh(revealed), act, figure) == expected
                checked += 1
    assert checked > 0


def _revealed(state: MatchState) -> list[MatchState]:
    """``state``, and, if the reactive player selected a unit, ``state`` with each of the
    reactive selections revealed as theirs."""
    act = state.activation
    if act is None or act.reaction_coin is None:
        return [state]
    text = write_position(state)
    return [
        state,
        *(
            read_position(edit_position(text, _reactive(actions)))
            for actions in selections.REACTIVE_SELECTIONS
        ),
    ]


def _reactive(actions: tuple[str, ...]) -> str:
    """The position edit that reveals ``actions`` as the reactive selection."""
    change = {"reaction_actions": list(actions), "reaction_revealed": True}
    return "activation=" + json.dumps(change)


@settings(deadline=None)
@given(random_scenes())
def test_a_figure_is_near_enough_to_interact_with_exactly_when_the_index_says_so(
    scene: tuple[Board, tuple[Figure, ...], Figure],
) -> None:
    # given any scene, then for every pair of figures, one is near the other (adjacent or
    # sharing a space, rulebook: Abilities) exactly when the occupancy index lists it
    board, figures, _ = scene
    index = movement.Occupancy(board, figures)
    for figure in figures:
        near = index.near(figure)
        for other in figures:
            assert activation._near(figure, other) == (other.id in near)
