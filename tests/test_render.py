"""Rendering: the board, its legend and status, and what each seat may see.

The hidden-information tests compare two states that differ only in a secret
selection: whatever is drawn for the player who did not make it must be the
same text for both.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from multiversus_cli.describe import describe_events
from multiversus_cli.render import (
    board_grid,
    board_legend,
    figure_labels,
    render_board,
    render_piles,
    render_units,
    status_line,
    to_text,
)
from multiversus_core import (
    MatchSettings,
    MatchState,
    SelectCoins,
    SelectReaction,
    apply,
    decider_seat,
    start_match,
)
from multiversus_core.bots import RandomBot
from multiversus_core.terms import Seat

SETTINGS = MatchSettings(
    heroes="banner-knight",
    adversaries="smogon",
    scenario="smoking-crags",
    seed=5,
    players=("Alice", "Bob"),
)


def play_until(predicate: Callable[[MatchState], bool], bot_seed: int = 1) -> MatchState:
    """Play random legal commands from the start until the predicate holds."""
    state = start_match(SETTINGS)
    bot = RandomBot(bot_seed)
    while not predicate(state):
        assert not state.is_over, "the predicate never held"
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, bot.choose(state, seat))
    return state


def grid_cells(state: MatchState) -> list[list[str]]:
    """Return the board grid's rows of cell texts, without the coordinate header and column."""
    lines = to_text(board_grid(state)).splitlines()
    return [line.split()[1:] for line in lines[1:] if line.strip()]


@pytest.fixture(scope="module")
def first_turn() -> MatchState:
    return play_until(lambda s: s.pending == "select")


def test_the_board_shows_every_figure_label(first_turn: MatchState) -> None:
    labels = figure_labels(first_turn)
    cells = [cell for row in grid_cells(first_turn) for cell in row]
    for figure in first_turn.figures:
        assert labels[figure.id] in cells, figure.name


def test_labels_are_short_and_unique(first_turn: MatchState) -> None:
    labels = figure_labels(first_turn)
    assert len(set(labels.values())) == len(labels)
    assert all(1 <= len(label) <= 3 for label in labels.values())


def test_a_large_figure_fills_four_cells(first_turn: MatchState) -> None:
    smogon = first_turn.figure("smogon")
    assert smogon.size == "large" and smogon.square == (4, 0)
    label = figure_labels(first_turn)["smogon"]
    rows = grid_cells(first_turn)
    assert sum(row.count(label) for row in rows) == 4
    assert rows[0][4:6] == [label, label]
    assert rows[1][4:6] == [label, label]


def test_coordinates_run_along_the_edges(first_turn: MatchState) -> None:
    lines = to_text(board_grid(first_turn)).splitlines()
    assert lines[0].split() == [str(c) for c in range(10)]
    assert [line.split()[0] for line in lines[1:11]] == [str(r) for r in range(10)]


def test_special_tiles_are_lettered_and_in_the_legend(first_turn: MatchState) -> None:
    cells = [cell for row in grid_cells(first_turn) for cell in row]
    assert cells.count("cr") == 4
    assert cells.count("sv") == 4
    legend = to_text(board_legend(first_turn))
    assert "cr Crag (blocking, obscuring)" in legend
    assert "sv Smoke Vent (obscuring)" in legend


def test_the_legend_maps_labels_to_names(first_turn: MatchState) -> None:
    legend = to_text(board_legend(first_turn))
    assert "Sm" in legend and "Smogon (Large)" in legend
    assert "TM1 TM2 TM3" in legend and "Town Militia 1, 2, 3" in legend
    assert "BK" in legend and "Banner Knight" in legend


def test_the_status_shows_round_initiative_and_coin_counts(first_turn: MatchState) -> None:
    status = to_text(status_line(first_turn, 1))
    active = first_turn.active
    assert active is not None
    assert "Round 1 of 6" in status
    assert f"{active.capitalize()} (" in status and "hold the Initiative" in status
    assert "Heroes (" in status and "stash 9, discard 0" in status


def test_units_list_every_figure_and_its_space(first_turn: MatchState) -> None:
    text = to_text(render_units(first_turn, 1), width=120)
    for figure in first_turn.figures:
        assert figure.name in text
        assert figure.square is not None
        assert f"({figure.square[0]},{figure.square[1]})" in text


def test_the_opponents_stash_is_only_a_count(first_turn: MatchState) -> None:
    viewer: Seat = 1
    own = first_turn.side_of(viewer)
    assert own is not None
    text = to_text(render_piles(first_turn, viewer), width=160)
    assert "9 coins (hidden)" in text
    own_unit = next(u for u in first_turn.units if u.side == own)
    other_unit = next(u for u in first_turn.units if u.side != own)
    assert own_unit.name in text
    assert other_unit.name not in text


def _views(state: MatchState, viewer: Seat | None) -> str:
    return "\n".join(
        to_text(view, width=160)
        for view in (
            render_board(state, viewer),
            render_units(state, viewer),
            render_piles(state, viewer),
        )
    )


def test_the_reactive_seat_never_sees_the_active_selection(first_turn: MatchState) -> None:
    active = decider_seat(first_turn)
    assert active is not None
    reactive: Seat = 2 if active == 1 else 1
    side = first_turn.side_of(active)
    units = [u for u in first_turn.units if u.side == side and not u.is_terrain]
    one = SelectCoins(player=active, unit=units[0].id, colour="green", actions=("move",))
    other = SelectCoins(player=active, unit=units[1].id, colour="grey", actions=("move", "move"))
    before = first_turn
    a, events_a = apply(before, one)
    b, events_b = apply(before, other)
    assert a.pending == b.pending == "react"
    assert _views(a, reactive) == _views(b, reactive)
    assert describe_events(before, events_a, reactive) == describe_events(
        before, events_b, reactive
    )
    # The active player does see their own selection.
    assert _views(a, active) != _views(b, active)
    assert units[0].name + " (green coin) with Move" in to_text(status_line(a, active))


def test_the_active_seat_never_sees_an_unrevealed_reaction() -> None:
    state = play_until(lambda s: s.pending == "react")
    reactive = decider_seat(state)
    assert reactive is not None
    active: Seat = 2 if reactive == 1 else 1
    side = state.side_of(reactive)
    units = [u for u in state.units if u.side == side and not u.is_terrain]
    one = SelectReaction(player=reactive, unit=units[0].id, colour="green", actions=("attack",))
    other = SelectReaction(player=reactive, unit=units[1].id, colour="grey", actions=("defend",))
    a, events_a = apply(state, one)
    b, events_b = apply(state, other)
    assert a.pending == b.pending == "move"  # mid-activation: the active unit moves
    assert _views(a, active) == _views(b, active)
    assert "reaction: selected in secret" in to_text(status_line(a, active))
    assert describe_events(state, events_a, active) == describe_events(state, events_b, active)
    # The reactive player sees their own reaction; the public view sees neither secret.
    assert "(your secret)" in to_text(status_line(a, reactive))
    assert _views(a, reactive) != _views(b, reactive)
    assert _views(a, None) == _views(b, None)
