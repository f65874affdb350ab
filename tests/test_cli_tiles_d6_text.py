"""tiles-d6 in the terminal: the board (legend, files and ranks, units on their squares,
postures, statuses, the result), each entry in words, and rounds and turns for stepping."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from multiversus_cli.presenters.tiles_d6_text import (
    UNIT_LETTERS,
    board,
    entry_head,
    event_lines,
    letters,
    map_text,
    progress,
)
from multiversus_core.engine.render import square_list
from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.model import (
    ChooseHalf,
    Command,
    EndTurn,
    Place,
    RollOff,
    StartMove,
    StepTo,
    TilesSettings,
    TilesState,
)
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET
from multiversus_core.rulesets.tiles_d6.words import square
from tests.positions import at
from tests.screens import cell
from tests.screens import rendered as text

SETTINGS = TilesSettings(players=("Ann", "Bob"), seed=7)


def play(state: TilesState, *commands: Command) -> TilesState:
    for command in commands:
        state = rules.decide(command, state)[1]
    return state


def set_up() -> TilesState:
    """Ann (seat 1) is player one in the north; every unit placed on its first free square."""
    state = play(RULESET.initial_state(SETTINGS, None), RollOff(1, (6, 1)), ChooseHalf(1, "north"))
    while state.phase == "deploy":
        seat = rules.to_act(state)[0]
        state = play(state, Place(seat, rules.deploy_tiles(state, seat)[0]))
    return state


def moved(state: TilesState, **squares: tuple[int, int]) -> TilesState:
    """``state`` with units (``captain`` for ``1.captain``, ``ogre`` for ``2.ogre``) put on
    other squares."""
    ids = {u.id.partition(".")[2].replace("-", "_"): u.id for u in state.units}
    units = {ids[name]: {"at": list(square)} for name, square in squares.items()}
    result: TilesState = at(state, f"units={json.dumps(units)}")
    return result


def row_of(drawn: str, name: str) -> str:
    return next(line for line in drawn.splitlines() if f" {name} " in line)


def test_the_board_has_the_legend_files_and_ranks_of_the_map() -> None:
    drawn = text(board(set_up(), "seat-1"))
    for line in (
        ".  ground: no effect",
        "T  tree: blocks movement and sight",
        "#  wall: blocks movement and sight",
        "+  door: blocks sight, not movement",
        "=  window: blocks movement, not sight",
        "~  water: leaving it costs 1 more point",
        "^  brambles: leaving it rolls, a 1 falls",
    ):
        assert line in drawn
    assert drawn.count("a  b  c  d  e  f  g  h  i  j  k  l") == 2  # above and below
    crossing = RULESET.initial_state(SETTINGS, None).rows
    for row, tiles in enumerate(crossing):
        for column, char in enumerate(tiles):
            shown = cell(drawn, (column, row))
            assert shown == f" {char} " or shown.strip()[:1] in letters(set_up()).values()
    assert drawn.splitlines()[2].startswith(" 1 ") and " 12 " in drawn


def test_each_unit_stands_on_its_square_by_its_seat_s_letter_with_its_name_beside() -> None:
    state = moved(set_up(), captain=(4, 4), ogre=(5, 5), goblin_1=(6, 6))
    drawn = text(board(state, "seat-2"))
    assert cell(drawn, (4, 4)) == " A "  # square e5
    assert cell(drawn, (5, 5)) == " a "  # f6
    assert cell(drawn, (6, 6)) == " b "
    assert "A-E  Ann's units (seat 1)" in drawn and "a-e  Bob's units (seat 2)" in drawn
    assert row_of(drawn, "Captain").split()[:5] == ["A", "Captain", "e5", "8/8", "standing"]
    assert row_of(drawn, "Ogre").split()[:6] == ["a", "Ogre", "(large)", "f6", "10/10", "standing"]
    assert "Ann (seat 1), player one, north half: 0 enemy injured" in drawn


def test_postures_and_statuses_show_on_the_map_and_in_the_rosters() -> None:
    state = moved(set_up(), captain=(4, 4), ogre=(5, 5), spearman_1=(8, 2))
    units = {
        "1.captain": {"prone": True, "health": 3},
        "1.spearman-1": {"stunned": 1},
        "1.spearman-2": {"concussed": 1, "prone": True},
        "2.goblin-1": {"injured": True, "at": None, "health": -1},
    }
    state = at(state, f'units={json.dumps(units)} acted=["1.crossbow-1"]')
    state = play(state, StartMove(1, "1.crossbow-2"))
    drawn = text(board(state, "spectator"))
    assert cell(drawn, (4, 4)) == " A_"  # prone
    assert cell(drawn, (8, 2)) == " B*"  # stunned
    assert row_of(drawn, "Captain").split()[3:6] == ["3/8", "prone", "adjacent"]
    assert "stunned" in row_of(drawn, "Spearman 1")
    assert "prone      concussed" in row_of(drawn, "Spearman 2")
    assert "acted" in row_of(drawn, "Crossbow 1")
    assert "moving: 4 points left" in row_of(drawn, "Crossbow 2")
    goblin = row_of(drawn, "Goblin 1").split()
    assert goblin[4:8] == ["-", "0/5", "-", "injured"]
    assert "A_ prone   A* stunned" in drawn


def test_the_heading_says_where_the_match_stands() -> None:
    start = RULESET.initial_state(SETTINGS, None)
    assert "Crossing: the roll-off for who goes first" in text(board(start, "seat-1"))
    rolled = play(start, RollOff(1, (2, 5)))
    assert "Crossing: set-up: Bob (player one) chooses a half" in text(board(rolled, "seat-1"))
    placing = play(rolled, ChooseHalf(2, "south"))
    assert "Crossing: set-up: Bob places Ogre (a)" in text(board(placing, "seat-1"))
    assert "Crossing: round 1 of 8, Ann's turn" in text(board(set_up(), "referee"))


def test_the_result_is_shown_once_over_unless_told_already() -> None:
    state = at(set_up(), 'phase=over winner=2 reason="Ann has no units left on the board"')
    assert "The match is over: Ann has no units left on the board." in text(board(state, "seat-1"))
    assert "The match is over" not in text(board(state, "seat-1", result=False))
    assert "The match is over" not in text(board(set_up(), "seat-1"))


def test_marked_squares_stand_out_and_the_legend_says_why() -> None:
    state = set_up()
    drawn = text(board(state, "seat-1", marked=((0, 4), (1, 5))))
    assert cell(drawn, (0, 4)) == "[.]" and cell(drawn, (1, 5)) == "[T]"
    assert "[.] a square you may choose" in drawn
    assert "[" not in text(map_text(state))


def test_the_board_is_drawn_from_the_viewer_s_view_and_refuses_an_unknown_viewer() -> None:
    state = set_up()
    assert text(board(state, "seat-1")) == text(board(state, "referee"))
    with pytest.raises(ValueError, match="no viewer 'nobody'"):
        board(state, "nobody")


def test_units_have_letters_skipping_the_help_and_quit_keys() -> None:
    shown = letters(set_up())
    assert [shown[f"1.{name}"] for name in ("captain", "spearman-1", "crossbow-2")] == list("ABE")
    assert shown["2.ogre"] == "a" and shown["2.harpy"] == "e"
    assert "h" not in UNIT_LETTERS and "q" not in UNIT_LETTERS and len(UNIT_LETTERS) == 24


def entries(state: TilesState, commands: Sequence[Command], first: int) -> list[str]:
    told = []
    for number, command in enumerate(commands, start=first):
        events, after = rules.decide(command, state)
        told.append(entry_head(number, state, command))
        told.extend(event_lines(state, events))
        state = after
    return told


def test_entries_are_told_with_their_number_round_turn_and_unit() -> None:
    state = set_up()
    spearman = state.unit("1.spearman-1")
    assert spearman is not None and spearman.at is not None
    to = (spearman.at[0], spearman.at[1] + 1)
    assert square(to) == "b2"
    told = entries(state, [StartMove(1, "1.spearman-1"), StepTo(1, to), EndTurn(1)], 12)
    assert told == [
        "12. [round 1, turn 1] Ann: move Ann's Spearman 1",
        "Ann's Spearman 1 moves (4 points).",
        "13. [round 1, turn 1] Ann: step Ann's Spearman 1 to b2",
        "Ann's Spearman 1 steps to b2 (1 point).",
        "14. [round 1, turn 1] Ann: end the turn",
        "Bob's turn.",
    ]
    start = RULESET.initial_state(SETTINGS, None)
    assert entries(start, [RollOff(1, (3, 3))], 1) == [
        "1. [the roll-off] Ann: roll off (3 and 3)",
        "Roll-off: Ann 3, Bob 3. A tie: they roll again.",
    ]


def test_progress_counts_rounds_and_the_turn_in_each() -> None:
    start = RULESET.initial_state(SETTINGS, None)
    assert progress(start) == (0, 0)
    state = set_up()
    assert progress(state) == (1, 1)
    state = play(state, EndTurn(1))
    assert progress(state) == (1, 2)
    state = play(state, EndTurn(2))
    assert progress(state) == (2, 1)


def test_squares_are_listed_in_runs_rank_by_rank() -> None:
    squares = [(0, 0), (1, 0), (2, 0), (5, 0), (1, 1), (0, 1), (11, 11)]
    assert square_list(squares) == "a1-c1 f1 a2-b2 l12"
    assert square_list([]) == ""
