"""worlds-collide in the terminal: the board (legend, columns and rows, levels, models on
their squares, deployment rows, objectives, the environment in words, each side's AP, VP and
models, the result), each entry in words, and rounds and turns for stepping."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from multiversus_cli.presenters import Folded
from multiversus_cli.presenters.worlds_collide_text import (
    MODEL_LETTERS,
    board,
    effect_words,
    entry_told,
    knack_words,
    letters,
    map_text,
    penalty_words,
    progress,
    roll_line,
)
from multiversus_core.engine.log import read_log
from multiversus_core.rulesets.worlds_collide import rules
from multiversus_core.rulesets.worlds_collide.model import (
    Activate,
    Deploy,
    RollOff,
    RoundStarted,
    StartRound,
)
from tests.positions import at
from tests.screens import cell
from tests.screens import rendered as text
from tests.test_cli_worlds_collide import GOLDEN
from tests.worlds_collide_tables import given, start, table


def row_of(drawn: str, name: str) -> str:
    """A model's row of its roster: its letter, then its name."""
    return next(
        line
        for line in drawn.splitlines()
        if line[1:2].isalpha() and line[2:].lstrip().startswith(f"{name} ")
    )


PLACED = {
    "1.commander": (3, 3),  # d4: a ruin
    "1.rifleman-1": (12, 3),  # m4: a low wall
    "1.rifleman-2": (5, 5),
    "2.thorn-queen": (6, 6),
    "2.sprite-1": (8, 8),  # i9: the objective
}


def test_the_board_has_the_legend_columns_rows_and_squares_of_the_map() -> None:
    state = table({})
    drawn = text(board(state, "seat-1"), width=100)
    for line in (
        ".  ground, level 0",
        ":  low wall, level 0: cover",
        "#  ruin, level 1: blocks sight;",
        "on or off it costs 2 more",
        "O  objective marker, on ground",
        "*  fallen token",
        "rows 1-3: Ann deploys first",
        "rows 15-17: Bob deploys second",
    ):
        assert line in drawn
    assert drawn.count("a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q") == 2
    for row, squares in enumerate(state.game_map.rows):
        for column, char in enumerate(squares):
            assert cell(drawn, (column, row)) == f" {char} "
    assert all(len(line) <= 100 for line in drawn.splitlines())


def test_each_model_stands_on_its_square_by_its_letter_with_the_square_beneath() -> None:
    state = table(PLACED)
    drawn = text(board(state, "seat-2"))
    assert cell(drawn, (3, 3)) == " A#"  # the commander on a ruin
    # letters go by the models in the state: all of them in a match, these few here
    assert cell(drawn, (12, 3)) == " C:"  # Rifleman 1 on a low wall
    assert cell(drawn, (5, 5)) == " D "
    assert cell(drawn, (6, 6)) == " a "
    assert cell(drawn, (8, 8)) == " cO"  # Sprite 1 on the objective
    assert row_of(drawn, "Commander").split()[:7] == [
        "A",
        "Commander",
        "d4",
        "6/6",
        "4",
        "1",
        "P",
    ]
    assert "Command L2" in row_of(drawn, "Commander")
    assert "Treant 1" not in drawn
    whole = text(board(start(), "seat-1"))
    assert row_of(whole, "Treant 1").split()[:4] == ["k", "Treant", "1", "-"]
    assert row_of(whole, "Treant 1").rstrip().endswith("not deployed")


def test_letters_skip_the_keys_of_going_back_help_and_quitting() -> None:
    shown = letters(start())
    assert [shown[f"1.{name}"] for name in ("commander", "sergeant", "rifleman-1")] == list("ACD")
    assert shown["2.thorn-queen"] == "a" and shown["2.sprite-1"] == "d"
    assert not {"b", "h", "q"} & set(MODEL_LETTERS) and len(MODEL_LETTERS) >= 20


def test_the_heading_the_sides_and_the_environment_say_where_the_match_stands() -> None:
    state = table(PLACED, ap=(3, 4), environment=(1, 3))  # Mud, the Legion's 3
    drawn = text(board(state, "spectator"), width=300)
    assert "Collision Point: round 1 of 5, Ann's activation" in drawn
    assert (
        "Environment, round 1: Mud (Iron Legion's table, 3): Move -1 for every model. "
        "A failed tactic check: the activated models cannot move."
    ) in drawn
    assert "Ann (seat 1), Iron Legion: 3 AP, 0 VP" in drawn
    assert "Bob (seat 2), Wyldfae: 4 AP, 0 VP" in drawn
    out = at(state, 'sides={"0":{"out":true}}')
    assert "Ann (seat 1), Iron Legion: 3 AP, 0 VP, out of the round" in text(board(out, "seat-1"))
    assert "Collision Point: the deployment roll-off" in text(board(start(), "seat-1"))
    deploying = given(start(), RollOff(1, dice=(2, 5)))[1]
    assert "Collision Point: deployment: Bob places a model" in text(board(deploying, "seat-1"))


def test_the_activation_under_way_and_a_roll_awaiting_a_re_roll_are_told() -> None:
    state = table(PLACED, ap=(3, 3), environment=(1, 1))
    state = given(state, Activate(1, ("1.commander",), "move_attack", "volley", dice=(2,)))[1]
    assert state.activation is not None and state.activation.roll is not None
    drawn = text(board(state, "seat-1"), width=200)
    assert "Ann's activation: Commander (A), move, then attack, Volley rolled." in drawn
    assert "Roll of the Volley check: die 1 (Volley): 2, needs 4+, fails." in drawn
    assert roll_line(state) in drawn
    assert row_of(drawn, "Commander").rstrip().endswith("activating")


def test_the_objectives_and_the_models_near_them_are_told() -> None:
    drawn = text(board(table(PLACED), "seat-1"), width=300)
    assert (
        "Collision Point: an objective scores 1 VP at the end of rounds 2-5 for the side with "
        "more models within 2; each fallen enemy leader 1 VP after round 5. Models within 2 "
        "now (Ann-Bob): c9 0-0, i9 0-2, o9 0-0."
    ) in drawn


def test_a_fallen_model_leaves_its_token_and_is_listed_as_fallen() -> None:
    state = at(table(PLACED), 'models={"2.sprite-1":{"fallen":true,"hp":0}}')
    drawn = text(board(state, "seat-1"))
    assert cell(drawn, (8, 8)) == " *O"
    assert row_of(drawn, "Sprite 1").split()[3:5] == ["i9", "0/2"]
    assert row_of(drawn, "Sprite 1").rstrip().endswith("fallen")


def test_the_result_is_shown_once_over_unless_told_already() -> None:
    state = replace(table(PLACED), phase="over", winner=2, reason="Bob wins on VP, 3 to 1")
    assert "The match is over: Bob wins on VP, 3 to 1." in text(board(state, "seat-1"))
    assert "The match is over" not in text(board(state, "seat-1", result=False))


def test_marked_squares_stand_out_and_the_legend_says_why() -> None:
    state = table(PLACED)
    drawn = text(board(state, "seat-1", marked=((0, 0), (4, 3))))
    assert cell(drawn, (0, 0)) == "[.]" and cell(drawn, (4, 3)) == "[#]"
    assert "[.] a square you may choose" in drawn
    assert "[" not in text(map_text(state))


def test_the_board_is_drawn_from_the_viewer_s_view_and_refuses_an_unknown_viewer() -> None:
    state = table(PLACED)
    assert text(board(state, "seat-1")) == text(board(state, "referee"))
    with pytest.raises(ValueError, match="no viewer 'nobody'"):
        board(state, "nobody")


def test_the_environment_and_its_penalty_in_words() -> None:
    legion, fae = (side.faction for side in start().sides)
    assert effect_words(legion.entry(2).effect) == "no sight beyond 6 squares"
    assert effect_words(legion.entry(4).effect) == "cover gives defense 5 (not 3)"
    assert effect_words(legion.entry(6).effect) == "ranged attacks need 1 more on the die"
    assert effect_words(fae.entry(2).effect) == "Move -1 for every model (not Arcane models)"
    assert effect_words(fae.entry(3).effect) == "melee attacks need 1 less on the die"
    assert effect_words(legion.entry(1).effect) == "no effect"
    assert penalty_words(legion.entry(4).penalty) == "each activated model takes 1 damage"
    assert penalty_words(legion.entry(6).penalty) == "the opponent gains 1 AP"
    assert (knack_words(4), knack_words(1), knack_words(7)) == ("4+", "2+", "6 only")


def test_entries_are_told_with_their_number_round_and_turn() -> None:
    folded = Folded.of(read_log(GOLDEN))
    assert entry_told(folded, 1)[0] == "1. [the deployment roll-off] Bot 1: roll off for deployment"
    assert entry_told(folded, 2)[0].startswith("2. [deployment] Bot 1: deploy Bot 1's ")
    heads = [entry_told(folded, k)[0] for k in range(1, folded.count + 1)]
    first = next(k for k, e in enumerate(folded.log.entries) if isinstance(e.command, StartRound))
    assert heads[first] == f"{first + 1}. [the start of round 1] Bot 1: roll for round 1"
    assert "[round 1, turn 1] Bot 2: activate" in heads[first + 1]
    assert "Round 1 begins." in entry_told(folded, first + 1)[1]


def test_progress_counts_rounds_and_each_activation_or_pass_as_a_turn() -> None:
    folded = Folded.of(read_log(GOLDEN))
    entries = folded.log.entries
    turns = [progress(entries, k, folded.states[k]) for k in range(folded.count + 1)]
    assert turns[0] == (0, 0)
    deployed = next(k for k, e in enumerate(entries, 1) if isinstance(e.command, Deploy))
    assert turns[deployed] == (0, 0)
    started = [
        k for k, e in enumerate(entries, 1) if any(isinstance(x, RoundStarted) for x in e.events)
    ]
    assert [turns[k] for k in started] == [(r, 1) for r in range(1, 6)]
    assert turns[started[0] + 2] == (1, 2)  # an activation, then its act: the next turn
    assert all(t[1] == 0 for k, t in enumerate(turns) if folded.states[k].phase != "activations")
    assert turns[-1][0] == 5
    assert rules.outcome(folded.states[-1]) is not None
