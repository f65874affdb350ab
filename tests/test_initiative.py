"""The Initiative die, turns and rounds (rulebook: Testing and Losing Initiative; R13, R15, R16)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from multiversus_core import (
    Board,
    ChooseSide,
    Figure,
    GiveUpInitiative,
    IllegalCommandError,
    InvalidCommandError,
    MatchState,
    RollInitiative,
    legal_commands,
)
from multiversus_core.engine.chance import flip_coin, roll_die
from multiversus_core.rulesets.multiversus.events import (
    BoardSetUp,
    DiscardReturned,
    InitiativeGivenUp,
    InitiativeRolled,
    MatchEnded,
    RoundEnded,
    RoundStarted,
    SetUpCoinFlipped,
    StartingTeamChosen,
    TeamsChosen,
    TurnEnded,
    TurnStarted,
)
from multiversus_core.rulesets.multiversus.initiative import (
    chance_of_losing_initiative,
    loses_initiative,
    losing_rolls,
)
from multiversus_core.rulesets.multiversus.units import Unit
from tests.support import SETTINGS, activate, given, kinds, play, roll, set_up, when


def test_r13_initiative_is_lost_on_a_six() -> None:
    # Given the Heroes' first activation used a green coin (no greys in the discard),
    state = activate(set_up(), "knight", "green")
    # when they roll a 6, then they lose the Initiative.
    events = when(state, RollInitiative(player=1, die=6))
    assert events[0] == InitiativeRolled(side="heroes", die=6, greys=0, lost=True)
    assert events[1] == TurnEnded(side="heroes", reason="initiative_lost")


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5])
def test_r13_initiative_is_kept_below_six_with_no_grey_in_the_discard(die: int) -> None:
    state = activate(set_up(), "knight", "green")
    assert when(state, RollInitiative(player=1, die=die)) == (
        InitiativeRolled(side="heroes", die=die, greys=0, lost=False),
    )


def test_r13_initiative_is_lost_on_a_result_at_most_the_greys_in_the_discard() -> None:
    # Given two grey coins in the Heroes' discard,
    state = roll(activate(set_up(), "knight", "grey"), 5)
    state = activate(state, "squire", "grey")
    # when they roll a 2, they lose; on a 3 they keep it.
    assert when(state, RollInitiative(player=1, die=2))[0] == InitiativeRolled(
        side="heroes", die=2, greys=2, lost=True
    )
    assert when(state, RollInitiative(player=1, die=3))[0] == InitiativeRolled(
        side="heroes", die=3, greys=2, lost=False
    )


def test_r13_loses_initiative_table() -> None:
    assert [loses_initiative(d, 0) for d in range(1, 7)] == [False] * 5 + [True]
    assert [loses_initiative(d, 3) for d in range(1, 7)] == [True, True, True, False, False, True]


def test_r13_losing_rolls_are_the_six_and_every_roll_up_to_the_greys() -> None:
    assert losing_rolls(0) == (6,)
    assert losing_rolls(2) == (1, 2, 6)
    assert losing_rolls(7) == (1, 2, 3, 4, 5, 6)
    assert losing_rolls(0, six_loses=False) == ()
    assert losing_rolls(2, six_loses=False) == (1, 2)


def test_r13_the_chance_of_losing_the_initiative_counts_the_greys_in_the_own_discard() -> None:
    # Before any activation: only the automatic six loses.
    state = set_up()
    assert chance_of_losing_initiative(state, "heroes") == Fraction(1, 6)
    # A grey coin about to be used counts by the roll.
    assert chance_of_losing_initiative(state, "heroes", more_greys=1) == Fraction(1, 3)
    # At the roll after a grey activation, that grey is in the discard already.
    state = activate(state, "knight", "grey")
    assert state.pending == "roll"
    assert chance_of_losing_initiative(state, "heroes") == Fraction(1, 3)
    # Two greys: 1, 2 or 6 loses, a chance of one half; the other side's discard is its own.
    state = activate(roll(state, 5), "squire", "grey")
    assert chance_of_losing_initiative(state, "heroes") == Fraction(1, 2)
    assert chance_of_losing_initiative(state, "adversaries") == Fraction(1, 6)


def test_r13_the_chance_of_losing_matches_the_rolls_the_rules_decide() -> None:
    state = activate(roll(activate(set_up(), "knight", "grey"), 5), "squire", "green")
    lost = [
        die
        for die in range(1, 7)
        if when(state, RollInitiative(player=1, die=die))[0].lost  # type: ignore[attr-defined]
    ]
    assert chance_of_losing_initiative(state, "heroes") == Fraction(len(lost), 6)


def test_r13_only_the_active_player_rolls_and_only_after_an_activation() -> None:
    state = set_up()
    with pytest.raises(IllegalCommandError, match="select coins"):
        when(state, RollInitiative(player=1))
    state = activate(state, "knight")
    with pytest.raises(IllegalCommandError):
        when(state, RollInitiative(player=2))


def test_r13_a_physical_die_outside_one_to_six_is_invalid() -> None:
    state = activate(set_up(), "knight")
    with pytest.raises(InvalidCommandError, match="1 to 6"):
        when(state, RollInitiative(player=1, die=7))


def test_r13_seeded_die_is_recorded_and_reproducible() -> None:
    state = activate(set_up(), "knight")
    first = when(state, RollInitiative(player=1))
    assert first == when(state, RollInitiative(player=1))
    rolled = first[0]
    assert isinstance(rolled, InitiativeRolled) and rolled.die == roll_die(11, state.draws)


def test_seeded_dice_are_fair() -> None:
    counts = Counter(roll_die(2026, n) for n in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_400 < c < 10_600 for c in counts.values())
    heads = sum(flip_coin(2026, n) for n in range(10_000))
    assert 4_700 < heads < 5_300


def test_r13_give_up_willingly_only_after_a_kept_roll() -> None:
    state = set_up()
    assert GiveUpInitiative(player=1) not in legal_commands(state, 1)
    with pytest.raises(IllegalCommandError, match="only after a roll that kept it"):
        when(state, GiveUpInitiative(player=1))
    state = roll(activate(state, "knight"), 1)
    assert GiveUpInitiative(player=1) in legal_commands(state, 1)
    events = when(state, GiveUpInitiative(player=1))
    assert events[:2] == (
        InitiativeGivenUp(side="heroes"),
        TurnEnded(side="heroes", reason="initiative_given_up"),
    )
    assert TurnStarted(side="adversaries") in events


def _custom_match(adversary_unit: Unit, adversary_figure: Figure) -> MatchState:
    """A match whose Heroes have one Medium character with two green coins and no grey (R2)."""
    hero = Unit(
        id="hero",
        name="Lone Hero",
        side="heroes",
        role="champion",
        figures=("hero",),
        coins=("hero.green1", "hero.green2"),
    )
    state = given(
        SETTINGS,
        SetUpCoinFlipped(set_up_player=1),
        TeamsChosen(
            heroes="banner-knight",
            adversaries="smogon",
            scenario="smoking-crags",
            units=(hero, adversary_unit),
        ),
        BoardSetUp(
            board=Board(width=4, height=4),
            figures=(
                Figure(id="hero", name="Lone Hero", unit="hero", side="heroes", square=(0, 3)),
                adversary_figure,
            ),
        ),
        StartingTeamChosen(side="heroes"),
    )
    return play(state, ChooseSide(player=2, side="adversaries"))


BEAST = Unit(
    id="beast",
    name="Beast",
    side="adversaries",
    role="beast",
    figures=("beast",),
    coins=("beast.green1",),
)
BEAST_FIGURE = Figure(id="beast", name="Beast", unit="beast", side="adversaries", square=(0, 0))
STILL_ROCKS = Unit(
    id="rocks",
    name="Standing Stones",
    side="adversaries",
    role="terrain",
    figures=("rocks",),
    coins=("rocks.green1",),
)
ROCK_FIGURE = Figure(
    id="rocks", name="Standing Stone", unit="rocks", side="adversaries", square=(3, 0), terrain=True
)


def test_r15_p1_kept_roll_with_no_unit_coin_left_ends_the_turn_as_if_lost() -> None:
    # Given the Heroes have spent both their coins, both green (no grey in the discard),
    state = roll(activate(_custom_match(BEAST, BEAST_FIGURE), "hero", "green"), 1)
    state = activate(state, "hero", "green")
    # when they keep the Initiative on the die,
    events = when(state, RollInitiative(player=1, die=3))
    # then the turn ends at once as if the Initiative were lost: no give-up is offered.
    assert events[:2] == (
        InitiativeRolled(side="heroes", die=3, greys=0, lost=False),
        TurnEnded(side="heroes", reason="no_activation"),
    )
    after = play(state, RollInitiative(player=1, die=3))
    assert after.active == "adversaries"
    # The Adversaries gained it as if it were lost, so they take back grey coins too (R14).
    assert DiscardReturned(side="heroes", coins=("hero.green1", "hero.green2")) in events


def test_r15_no_legal_activation_at_the_start_of_a_turn_ends_it_at_once() -> None:
    # Given the Adversaries' only unit is terrain that cannot move (R1),
    state = _custom_match(STILL_ROCKS, ROCK_FIGURE)
    # when the Heroes lose the Initiative,
    events = when(activate(state, "hero"), RollInitiative(player=1, die=6))
    # then the Adversaries' turn starts and ends at once, and the round ends.
    assert kinds(events)[3:] == [
        "turn_started",
        "turn_ended",
        "round_ended",
        "round_started",
        "turn_started",
    ]
    assert TurnEnded(side="adversaries", reason="no_activation") in events


def test_r16_starting_team_takes_the_first_turn_of_every_round() -> None:
    state = set_up(starting="adversaries", heroes_seat=1)
    assert state.active == "adversaries"
    # Adversaries lose at once, Heroes lose at once: round 2 begins with the Adversaries.
    state = roll(activate(state, "smogon"), 6)
    assert state.active == "heroes" and state.round == 1
    events = when(activate(state, "knight"), RollInitiative(player=1, die=6))
    assert kinds(events) == [
        "initiative_rolled",
        "turn_ended",
        "discard_returned",
        "round_ended",
        "round_started",
        "turn_started",
    ]
    assert events[3:] == (
        RoundEnded(round=1),
        RoundStarted(round=2),
        TurnStarted(side="adversaries"),
    )


def test_r16_match_ends_after_round_six() -> None:
    state = set_up()
    for _ in range(5):
        state = roll(activate(state, "knight"), 6)
        state = roll(activate(state, "smogon"), 6)
    assert state.round == 6
    state = roll(activate(state, "knight"), 6)
    events = when(activate(state, "smogon"), RollInitiative(player=2, die=6))
    assert events[-2:] == (RoundEnded(round=6), MatchEnded(reason="six_rounds_played"))
    final = play(activate(state, "smogon"), RollInitiative(player=2, die=6))
    assert final.is_over and final.pending == "over"
    assert legal_commands(final, 1) == () and legal_commands(final, 2) == ()
    with pytest.raises(IllegalCommandError, match="the match is over"):
        when(final, RollInitiative(player=2))


def test_r16_each_round_has_exactly_one_turn_per_team() -> None:
    state = set_up()
    state = roll(activate(state, "knight"), 6)
    assert (state.round, state.active, state.turns_in_round) == (1, "adversaries", 2)
    state = roll(activate(state, "smogon"), 6)
    assert (state.round, state.active, state.turns_in_round) == (2, "heroes", 1)


def test_turn_end_returns_the_ending_players_discard() -> None:
    state = roll(activate(set_up(), "knight", "grey"), 5)
    events = when(activate(state, "squire", "green"), RollInitiative(player=1, die=6))
    assert DiscardReturned(side="heroes", coins=("knight.grey1", "squire.green1")) in events
