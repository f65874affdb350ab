"""Moves typed at the prompt of ``multiversus play``: compass keys that never change, a
figure named by its board label, and ``m C,R`` along the shortest legal path, one logged
step at a time."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from multiversus_cli.presenters.multiversus_moves import KEYS, shortest_route, typed_move
from multiversus_cli.presenters.multiversus_play import Game, PlayerKind
from multiversus_core import (
    DeclineReaction,
    MatchSettings,
    MatchState,
    Step,
    apply,
    legal_commands,
)
from multiversus_core.engine.log import LogWriter
from multiversus_core.rulesets.multiversus.render import figure_labels
from tests.support import SETTINGS, placed, select, set_up
from tests.test_actions import ARENA

N, E, S, W = (0, -1), (1, 0), (0, 1), (-1, 0)


def _moving(unit: str, actions: tuple[str, ...] = ("move",)) -> MatchState:
    return select(placed(set_up(), ARENA), unit, actions, ("smogon", ("move",)))  # type: ignore[arg-type]


def _step(state: MatchState, step: Step) -> MatchState:
    """The state after ``step``, every reaction offer it raises let pass."""
    state = apply(state, step)[0]
    while state.pending == "offer":
        state = apply(state, DeclineReaction(player=2))[0]
    return state


def _typed(state: MatchState, answer: str) -> tuple[tuple[Step, ...], str | None]:
    names = {f.id: f.name for f in state.figures}
    typed = typed_move(state, 1, answer, figure_labels(state), names)
    return typed.steps, typed.problem


def test_every_compass_key_is_one_fixed_direction() -> None:
    assert KEYS == {
        "n": N,
        "ne": (1, -1),
        "e": E,
        "se": (1, 1),
        "s": S,
        "sw": (-1, 1),
        "w": W,
        "nw": (-1, -1),
    }


def test_a_key_steps_the_only_figure_that_can_move_the_same_way_wherever_it_stands() -> None:
    state = _moving("knight")
    assert _typed(state, "s") == ((Step(player=1, figure="knight", direction=S),), None)
    state = _step(state, Step(player=1, figure="knight", direction=E))
    assert _typed(state, "s") == ((Step(player=1, figure="knight", direction=S),), None)
    # Diagonal keys are keys too, refused in words where the rules refuse the step.
    assert _typed(state, "se") == ((), "Banner Knight cannot step south-east from here.")


def test_with_several_figures_a_key_needs_a_label_until_one_of_them_moves() -> None:
    state = _moving("militia")
    steps, problem = _typed(state, "n")
    assert steps == ()
    assert problem == "Several figures can step (TM1, TM2, TM3): name one, as in 'tm1 n'."
    steps, problem = _typed(state, "tm2 n")
    assert steps == (Step(player=1, figure="militia-2", direction=N),) and problem is None
    assert _typed(state, "zz9 n") == ((), "No figure is labelled ZZ9 on the board.")
    # Once Militia 2 moves, a bare key moves it on.
    state = _step(state, steps[0])
    assert _typed(state, "w") == ((Step(player=1, figure="militia-2", direction=W),), None)


def test_a_destination_is_reached_by_the_shortest_legal_path_of_steps_the_rules_accept() -> None:
    # A Double-Move: the knight at (4,6), Bruiser 1 at (4,5) in its way north.
    state = _moving("knight", ("move", "move"))
    steps, problem = _typed(state, "m 4,4")
    assert problem is None
    assert len(steps) == 4  # around the Bruiser: no shorter way
    for step in steps:
        assert step in legal_commands(state, 1)
        state = _step(state, step)
    assert state.figure("knight").square == (4, 4)


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ("m 9,0", "Banner Knight cannot reach (9,0) with the movement it has."),
        ("m 4,6", "Banner Knight is at (4,6) already."),
        ("m (4,5)", "Banner Knight cannot reach (4,5) with the movement it has."),
    ],
)
def test_a_destination_out_of_reach_is_refused_in_words(answer: str, problem: str) -> None:
    assert _typed(_moving("knight"), answer) == ((), problem)


def test_a_route_never_ends_on_an_ally_it_may_pass_through() -> None:
    state = _moving("knight")
    state = placed(state, {"squire": (4, 7)})
    assert shortest_route(state, 1, "knight", (4, 7)) is None
    route = shortest_route(state, 1, "knight", (4, 8))
    assert route is not None and len(route) == 2  # through the squire, onto the space beyond


def test_the_terminal_gives_a_route_one_logged_step_at_a_time(tmp_path: Path) -> None:
    state = _moving("knight")
    answers = ["m 4,8"]
    path = tmp_path / "route.jsonl"
    game = Game(
        out=Console(file=io.StringIO(), width=120, color_system=None, highlight=False),
        state=state,
        writer=LogWriter.create(path, MatchSettings(seed=SETTINGS.seed)),
        path=path,
        kinds={1: PlayerKind.human, 2: PlayerKind.bot},
        bots={},
        bot_seed=None,
        history=[],
        read_line=lambda: answers.pop(0),
    )
    first = game._ask(1)
    assert first == Step(player=1, figure="knight", direction=S)
    game.state = _step(game.state, first)
    # The next step comes without a question, and is told.
    assert game._ask(1) == Step(player=1, figure="knight", direction=S)
    assert "→ Step Banner Knight south to (4,8)" in game.out.file.getvalue()  # type: ignore[attr-defined]
    assert answers == []
