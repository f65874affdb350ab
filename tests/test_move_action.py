"""The Move action within an activation (rulebook: Actions, Two-coin actions, Units and
characters, Spaces and movement; R3, R19). Geometry itself is tested in test_movement."""

from __future__ import annotations

import pytest

from multiversus_core import (
    EndAction,
    IllegalCommandError,
    InvalidCommandError,
    MatchState,
    SelectCoins,
    Step,
    legal_commands,
)
from multiversus_core.rulesets.multiversus.events import FigureStepped
from multiversus_core.rulesets.multiversus.terms import ActionKind
from tests.support import placed, play, react, set_up, when

N, E, S, W = (0, -1), (1, 0), (0, 1), (-1, 0)


def _moving(unit: str, actions: tuple[ActionKind, ...] = ("move",)) -> MatchState:
    state = play(set_up(), SelectCoins(player=1, unit=unit, colour="green", actions=actions))
    return react(state)


def test_move_each_character_moves_up_to_three_spaces() -> None:
    state = _moving("knight")
    for _ in range(3):
        state = play(state, Step(player=1, figure="knight", direction=N))
    assert state.figure("knight").square == (1, 6)
    with pytest.raises(IllegalCommandError, match="no movement left"):
        when(state, Step(player=1, figure="knight", direction=N))
    assert legal_commands(state, 1) == (EndAction(player=1),)


def test_double_move_moves_up_to_six_spaces() -> None:
    state = _moving("knight", ("move", "move"))
    for _ in range(6):
        state = play(state, Step(player=1, figure="knight", direction=N))
    assert state.figure("knight").square == (1, 3)
    assert legal_commands(state, 1) == (EndAction(player=1),)


def test_move_step_is_recorded_as_an_event_per_space() -> None:
    state = _moving("knight")
    assert when(state, Step(player=1, figure="knight", direction=E)) == (
        FigureStepped(figure="knight", to=(2, 9), steps_left=2),
    )


def test_r19_regular_movement_is_never_diagonal() -> None:
    with pytest.raises(IllegalCommandError, match="orthogonal"):
        when(_moving("knight"), Step(player=1, figure="knight", direction=(1, -1)))


def test_a_step_longer_than_one_space_is_malformed() -> None:
    with pytest.raises(InvalidCommandError, match="one space"):
        when(_moving("knight"), Step(player=1, figure="knight", direction=(0, -2)))


def test_r19_cannot_step_off_the_board() -> None:
    with pytest.raises(IllegalCommandError, match="cannot step south"):
        when(_moving("knight"), Step(player=1, figure="knight", direction=S))


def test_only_figures_of_the_active_unit_move() -> None:
    with pytest.raises(IllegalCommandError, match="not in the acting unit"):
        when(_moving("knight"), Step(player=1, figure="squire", direction=N))
    with pytest.raises(InvalidCommandError, match="no figure 'ghost'"):
        when(_moving("knight"), Step(player=1, figure="ghost", direction=N))


def test_units_and_characters_each_character_of_the_unit_moves_one_at_a_time() -> None:
    state = _moving("militia")
    movers = {c.figure for c in legal_commands(state, 1) if isinstance(c, Step)}
    assert movers == {"militia-1", "militia-2", "militia-3"}
    state = play(state, Step(player=1, figure="militia-1", direction=N))
    # Moving another character ends the first one's move.
    state = play(state, Step(player=1, figure="militia-2", direction=N))
    with pytest.raises(IllegalCommandError, match="already moved"):
        when(state, Step(player=1, figure="militia-1", direction=N))
    state = play(state, Step(player=1, figure="militia-3", direction=N))
    assert {f.id: f.square for f in state.figures if f.unit == "militia"} == {
        "militia-1": (5, 8),
        "militia-2": (7, 8),
        "militia-3": (9, 8),
    }


def test_r19_ally_lets_a_character_pass_but_never_end_on_it() -> None:
    # Militia 1 at (5,9) steps east twice onto Militia 2 at (7,9).
    state = _moving("militia")
    state = play(state, Step(player=1, figure="militia-1", direction=E))
    state = play(state, Step(player=1, figure="militia-1", direction=E))
    assert state.figure("militia-1").square == (7, 9)
    # It may not stop there, nor let another character move first.
    assert EndAction(player=1) not in legal_commands(state, 1)
    with pytest.raises(IllegalCommandError, match="cannot end its move on an ally"):
        when(state, EndAction(player=1))
    with pytest.raises(IllegalCommandError, match="must move on"):
        when(state, Step(player=1, figure="militia-3", direction=N))
    state = play(state, Step(player=1, figure="militia-1", direction=N))
    assert EndAction(player=1) in legal_commands(state, 1)


def test_r19_stepping_onto_an_ally_is_offered_only_if_the_mover_can_get_off() -> None:
    state = _moving("militia")
    state = play(state, Step(player=1, figure="militia-1", direction=N))
    state = play(state, Step(player=1, figure="militia-1", direction=S))
    # One step left: stepping onto Militia 2 two spaces away is impossible; east is free.
    assert {
        c.direction
        for c in legal_commands(state, 1)
        if isinstance(c, Step) and c.figure == "militia-1"
    } == {
        N,
        E,
        W,
    }


def test_r19_a_large_figure_moves_its_whole_footprint() -> None:
    state = play(
        set_up(starting="adversaries"),
        SelectCoins(player=2, unit="smogon", colour="green", actions=("move",)),
    )
    state = react(state)
    state = play(state, Step(player=2, figure="smogon", direction=S))
    assert state.figure("smogon").square == (4, 1)


def test_end_action_leaves_unmoved_characters_where_they_are() -> None:
    state = play(_moving("militia"), EndAction(player=1))
    assert state.pending == "roll"
    assert state.figure("militia-2").square == (7, 9)


def test_r1_drifting_terrain_pieces_take_move_actions() -> None:
    state = play(
        set_up(starting="adversaries"),
        SelectCoins(player=2, unit="clouds", colour="green", actions=("move",)),
    )
    state = react(state)
    state = play(state, Step(player=2, figure="clouds-1", direction=S))
    assert state.figure("clouds-1").square == (1, 4)


@pytest.mark.parametrize("character", ["knight", "bruisers-1"])
def test_r26_a_drifting_cloud_never_steps_into_or_through_a_characters_space(
    character: str,
) -> None:
    state = placed(set_up(starting="adversaries"), {character: (1, 4)})
    state = play(state, SelectCoins(player=2, unit="clouds", colour="green", actions=("move",)))
    state = react(state)
    steps = [c for c in legal_commands(state, 2) if isinstance(c, Step) and c.figure == "clouds-1"]
    assert steps and all(c.direction != S for c in steps)
    with pytest.raises(IllegalCommandError):
        when(state, Step(player=2, figure="clouds-1", direction=S))
