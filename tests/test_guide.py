"""What the program teaches a newcomer: how each side wins, and the decision in front of
them explained with the rules' own numbers (the Initiative odds from R13)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from msgspec.structs import replace

from multiversus_cli.guide import explain_decision, how_to_win, odds
from multiversus_core import MatchSettings, SelectCoins, apply, legal_commands, start_match
from multiversus_core.rulesets.multiversus.catalog import find_team
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from tests.support import SETTINGS, activate, conditioned, roll, set_up


@pytest.mark.parametrize("adversaries", ["smogon", "swartzblak", "black-goblins"])
def test_how_to_win_names_elimination_and_the_adversary_sheets_win_conditions(
    adversaries: str,
) -> None:
    state = start_match(MatchSettings(heroes="witch-hunters", adversaries=adversaries, seed=1))
    text = how_to_win(state)
    assert "either side wins at once by eliminating every enemy character" in text
    sheet = find_team(adversaries)
    assert sheet is not None and sheet.win_conditions
    for name in sheet.win_conditions:
        rule = WIN_CONDITIONS[name][0]
        assert rule[1:] in text  # the sheet's own words
    assert text.endswith("If nobody wins that way, the match is a draw.")


def test_odds_are_told_in_sixths_and_percent() -> None:
    assert odds(Fraction(1, 6)) == "1 in 6 (17%)"
    assert odds(Fraction(1, 2)) == "3 in 6 (50%)"
    assert odds(Fraction(0)) == "none (0%)"


def test_explaining_the_initiative_roll_gives_the_exact_chance_of_losing_it_now() -> None:
    state = activate(set_up(), "knight", "grey")
    assert state.pending == "roll"
    text = explain_decision(state, 1, legal_commands(state, 1))
    assert "you lose it on 1 or 6" in text
    assert "a 6 always loses (the automatic six)" in text
    assert "your 1 grey coin in your discard" in text
    assert "Your chance of losing the Initiative now: 2 in 6 (33%)." in text
    # Two greys: 1, 2 or 6.
    state = activate(roll(state, 5), "squire", "grey")
    assert "3 in 6 (50%)" in explain_decision(state, 1, legal_commands(state, 1))


def test_explaining_the_roll_under_no_automatic_six_names_the_variant() -> None:
    state = activate(set_up(replace(SETTINGS, variants=("no-automatic-six",))), "knight", "grey")
    text = explain_decision(state, 1, legal_commands(state, 1))
    assert "no-automatic-six is in play" in text
    assert "you lose it on 1:" in text
    assert "1 in 6 (17%)" in text


def test_explaining_a_coin_selection_compares_green_and_grey_and_giving_up() -> None:
    state = set_up()
    text = explain_decision(state, 1, legal_commands(state, 1))
    assert "1 in 6 (17%) with a green coin, 2 in 6 (33%) with a grey one" in text
    assert "Give up the Initiative" not in text  # not offered before a kept roll
    # The action-coin step of one grey coin: its own odds, and the unit's abilities.
    step = [
        c
        for c in legal_commands(state, 1)
        if isinstance(c, SelectCoins) and c.unit == "knight" and c.colour == "grey"
    ]
    text = explain_decision(state, 1, step)
    assert text.startswith("Choose the action coins for Banner Knight (grey coin).")
    assert "your chance of losing the Initiative at the roll: 2 in 6 (33%)" in text
    assert "Banner Knight: Rally (!)" in text
    assert "A Recovery (no action coin) is only for a unit with a Wounded" in text
    # A Wounded knight may Recover: the step says what that does.
    hurt = conditioned(state, {"knight": "wounded"})
    step = [c for c in legal_commands(hurt, 1) if isinstance(c, SelectCoins) and c.unit == "knight"]
    step = [c for c in step if c.colour == "green"]
    assert "No action coin at all is a Recovery" in explain_decision(hurt, 1, step)


def test_explaining_a_reaction_selection_tells_the_triggers() -> None:
    state = activate(set_up(), "knight", "green")
    state = roll(state, 6)  # the Heroes lose the Initiative: the Adversaries' turn
    (seat,) = [s for s in (1, 2) if legal_commands(state, s)]
    first = legal_commands(state, seat)[0]
    state, _ = apply(state, first)
    assert state.pending == "react"
    text = explain_decision(state, 1, legal_commands(state, 1))
    assert "Attack, Move and Stunt reactions need a trigger" in text
    assert "A Defend reaction needs none" in text
