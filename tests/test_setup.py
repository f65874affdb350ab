"""Set-up (rulebook: Set up, steps 1-4; R1, R2, R17): every step is an event."""

from __future__ import annotations

import pytest

from multiversus_core import (
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    FlipForSetUp,
    IllegalCommandError,
    InvalidCommandError,
    MatchSettings,
    legal_commands,
    start_match,
)
from multiversus_core.rulesets.multiversus.events import (
    BoardSetUp,
    RoundStarted,
    SetUpCoinFlipped,
    SideChosen,
    StartingTeamChosen,
    TeamsChosen,
    TurnStarted,
)
from tests.support import SETTINGS, kinds, play, set_up, when


def test_step1_coin_flip_decides_the_set_up_player_from_the_seed() -> None:
    # Given a new match, when seat 1 flips the seeded coin,
    events = when(start_match(SETTINGS), FlipForSetUp(player=1))
    # then the outcome is recorded, and the same seed always gives it.
    assert len(events) == 1 and isinstance(events[0], SetUpCoinFlipped)
    assert events == when(start_match(SETTINGS), FlipForSetUp(player=1))


def test_step1_coin_flip_varies_with_the_seed() -> None:
    winners = {
        when(start_match(MatchSettings(seed=seed)), FlipForSetUp(player=1))[0] for seed in range(20)
    }
    assert winners == {SetUpCoinFlipped(set_up_player=1), SetUpCoinFlipped(set_up_player=2)}


def test_step1_a_coin_flipped_at_the_table_is_recorded_as_supplied() -> None:
    events = when(start_match(SETTINGS), FlipForSetUp(player=1, winner=2))
    assert events == (SetUpCoinFlipped(set_up_player=2),)


def test_step1_only_seat_one_flips() -> None:
    with pytest.raises(IllegalCommandError, match="flip the coin"):
        when(start_match(SETTINGS), FlipForSetUp(player=2))


def test_step2_set_up_player_chooses_teams_and_lays_out_the_board() -> None:
    state = play(start_match(SETTINGS), FlipForSetUp(player=1, winner=2))
    # Only the Set Up Player may choose, and settings that name the teams leave one choice.
    assert legal_commands(state, 1) == ()
    assert legal_commands(state, 2) == (
        ChooseTeams(
            player=2, heroes="banner-knight", adversaries="smogon", scenario="smoking-crags"
        ),
    )
    events = when(state, legal_commands(state, 2)[0])
    assert kinds(events) == ["teams_chosen", "board_set_up"]
    teams, board = events
    assert isinstance(teams, TeamsChosen) and isinstance(board, BoardSetUp)
    assert [u.id for u in teams.units] == [
        "knight",
        "squire",
        "militia",
        "smogon",
        "bruisers",
        "clouds",
    ]
    assert board.board.width == 10 and board.board.height == 10
    assert {f.id: f.square for f in board.figures} == {
        "knight": (1, 9),
        "squire": (3, 9),
        "militia-1": (5, 9),
        "militia-2": (7, 9),
        "militia-3": (9, 9),
        "smogon": (4, 0),
        "bruisers-1": (2, 1),
        "bruisers-2": (7, 1),
        "clouds-1": (1, 3),
        "clouds-2": (8, 3),
    }


def test_step2_unit_coins_are_one_green_and_two_grey_per_unit_r2() -> None:
    state = set_up()
    assert state.piles("heroes").stash == (
        "knight.green1",
        "knight.grey1",
        "knight.grey2",
        "militia.green1",
        "militia.grey1",
        "militia.grey2",
        "squire.green1",
        "squire.grey1",
        "squire.grey2",
    )
    assert len(state.piles("adversaries").stash) == 9


def test_step2_terrain_unit_members_are_terrain_pieces_not_characters_r1() -> None:
    state = set_up()
    clouds = [f for f in state.figures if f.unit == "clouds"]
    assert clouds and all(f.terrain and not f.is_character for f in clouds)
    assert all(f.is_character for f in state.figures if f.unit != "clouds")


def test_step2_open_settings_let_the_set_up_player_choose_any_installed_pairing() -> None:
    state = play(start_match(MatchSettings(seed=1)), FlipForSetUp(player=1, winner=1))
    options = legal_commands(state, 1)
    assert (
        ChooseTeams(
            player=1, heroes="banner-knight", adversaries="smogon", scenario="smoking-crags"
        )
        in options
    )


def test_step2_choice_outside_the_settings_is_illegal() -> None:
    settings = MatchSettings(heroes="banner-knight", adversaries="smogon", scenario="smoking-crags")
    state = play(start_match(settings), FlipForSetUp(player=1, winner=1))
    with pytest.raises(InvalidCommandError, match="no team 'nobody'"):
        when(state, ChooseTeams(player=1, heroes="nobody", adversaries="smogon", scenario="x"))
    with pytest.raises(InvalidCommandError, match="no scenario 'x'"):
        when(
            state, ChooseTeams(player=1, heroes="banner-knight", adversaries="smogon", scenario="x")
        )
    with pytest.raises(InvalidCommandError, match="not a Hero team"):
        when(state, ChooseTeams(player=1, heroes="smogon", adversaries="smogon", scenario="x"))


def test_step3_set_up_player_chooses_who_starts_with_the_initiative() -> None:
    state = play(start_match(SETTINGS), FlipForSetUp(player=1, winner=1))
    state = play(state, legal_commands(state, 1)[0])
    assert legal_commands(state, 1) == (
        ChooseStartingTeam(player=1, side="heroes"),
        ChooseStartingTeam(player=1, side="adversaries"),
    )
    assert when(state, ChooseStartingTeam(player=1, side="adversaries")) == (
        StartingTeamChosen(side="adversaries"),
    )


def test_step4_other_player_chooses_a_team_and_round_one_begins() -> None:
    state = play(start_match(SETTINGS), FlipForSetUp(player=1, winner=1))
    state = play(
        state, legal_commands(state, 1)[0], ChooseStartingTeam(player=1, side="adversaries")
    )
    # The Set Up Player may not choose here; the Other Player (seat 2) does.
    with pytest.raises(IllegalCommandError):
        when(state, ChooseSide(player=1, side="heroes"))
    events = when(state, ChooseSide(player=2, side="heroes"))
    assert events == (
        SideChosen(seat=2, side="heroes"),
        RoundStarted(round=1),
        TurnStarted(side="adversaries"),
    )
    after = play(state, ChooseSide(player=2, side="heroes"))
    assert after.seat_of("heroes") == 2 and after.seat_of("adversaries") == 1
    assert after.active == "adversaries" and after.round == 1
