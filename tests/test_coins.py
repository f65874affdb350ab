"""Unit and action coins: selection, reveal, discard and return (rulebook: Coins,
Taking actions, Testing and Losing Initiative; R2, R3, R4, R14)."""

from __future__ import annotations

import json

import pytest

from multiversus_core import (
    EndAction,
    GiveUpInitiative,
    IllegalCommandError,
    InvalidCommandError,
    MatchState,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    legal_commands,
)
from multiversus_core.rulesets.multiversus.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    CoinsRevealed,
    CoinsSelected,
    DiscardReturned,
    InitiativeRolled,
    ReactionRevealed,
    ReactionSelected,
    RoundStarted,
    UnitCoinDiscarded,
    UnitCoinReturned,
)
from tests.positions import at
from tests.support import activate, play, roll, set_up, unsalted, when


def test_r2_selecting_a_colour_takes_that_coin_from_the_stash() -> None:
    state = set_up()
    events = when(state, SelectCoins(player=1, unit="militia", colour="grey", actions=("move",)))
    assert unsalted(events) == (
        CoinsSelected(side="heroes", coin="militia.grey1", actions=("move",)),
    )
    after = play(state, SelectCoins(player=1, unit="militia", colour="grey", actions=("move",)))
    assert "militia.grey1" not in after.piles("heroes").stash


def test_r2_a_unit_with_no_coin_of_that_colour_in_the_stash_cannot_be_selected() -> None:
    state = roll(activate(set_up(), "knight", "green"), 1)
    with pytest.raises(
        IllegalCommandError, match="Banner Knight has no green unit coin in its stash"
    ):
        when(state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    assert not any(
        isinstance(c, SelectCoins) and c.unit == "knight" and c.colour == "green"
        for c in legal_commands(state, 1)
    )


def test_r3_active_selection_is_a_unit_coin_and_one_or_two_action_coins() -> None:
    options = legal_commands(set_up(), 1)
    knight_green = {
        c.actions
        for c in options
        if isinstance(c, SelectCoins) and (c.unit, c.colour) == ("knight", "green")
    }
    # One coin, two alike (never two Defends), or two different; no Recovery while unhurt.
    assert knight_green == {
        ("attack",),
        ("defend",),
        ("move",),
        ("stunt",),
        ("attack", "attack"),
        ("move", "move"),
        ("stunt", "stunt"),
        ("attack", "defend"),
        ("attack", "move"),
        ("attack", "stunt"),
        ("defend", "move"),
        ("defend", "stunt"),
        ("move", "stunt"),
    }
    units = {(c.unit, c.colour) for c in options if isinstance(c, SelectCoins)}
    assert units == {(u, c) for u in ("knight", "squire", "militia") for c in ("green", "grey")}


def test_r3_double_defend_is_not_a_legal_active_selection() -> None:
    with pytest.raises(IllegalCommandError, match="Double-Defend is N/A"):
        when(
            set_up(),
            SelectCoins(player=1, unit="knight", colour="green", actions=("defend", "defend")),
        )


def test_r3_only_your_own_units_can_be_selected() -> None:
    with pytest.raises(IllegalCommandError, match="Smogon is not one of your units"):
        when(set_up(), SelectCoins(player=1, unit="smogon", colour="green", actions=("move",)))


def test_r3_recovery_needs_a_wounded_or_disabled_character() -> None:
    with pytest.raises(IllegalCommandError, match="Recovery needs a Wounded or Disabled"):
        when(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=()))


def test_r3_more_than_two_action_coins_is_malformed() -> None:
    with pytest.raises(InvalidCommandError, match="at most two"):
        when(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=("move",) * 3))


def test_r3_reactive_selection_is_one_coin_or_two_alike_never_two_defends() -> None:
    state = play(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    options = {
        c.actions
        for c in legal_commands(state, 2)
        if isinstance(c, SelectReaction) and c.unit == "smogon"
    }
    assert options == {
        ("attack",),
        ("defend",),
        ("move",),
        ("stunt",),
        ("attack", "attack"),
        ("move", "move"),
        ("stunt", "stunt"),
    }
    with pytest.raises(IllegalCommandError, match="Double-Defend is N/A"):
        when(
            state,
            SelectReaction(player=2, unit="smogon", colour="green", actions=("defend", "defend")),
        )
    with pytest.raises(IllegalCommandError, match="two of the same kind"):
        when(
            state,
            SelectReaction(player=2, unit="smogon", colour="green", actions=("attack", "move")),
        )


def test_r3_a_terrain_unit_reacts_only_as_its_abilities_allow() -> None:
    state = play(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    cloud_options = {
        c.actions
        for c in legal_commands(state, 2)
        if isinstance(c, SelectReaction) and c.unit == "clouds"
    }
    assert cloud_options == {("move",), ("move", "move")}


def test_r3_reactive_player_with_a_coin_must_select_one() -> None:
    state = play(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    assert SelectNoReaction(player=2) not in legal_commands(state, 2)
    with pytest.raises(IllegalCommandError, match="must select one"):
        when(state, SelectNoReaction(player=2))


def test_r4_active_player_reveals_before_the_first_action() -> None:
    state = play(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    events = when(
        state, SelectReaction(player=2, unit="bruisers", colour="grey", actions=("attack",))
    )
    assert unsalted(events) == (
        ReactionSelected(side="adversaries", coin="bruisers.grey1", actions=("attack",)),
        CoinsRevealed(side="heroes", coin="knight.green1", actions=("move",)),
        ActionStarted(side="heroes", unit="knight", action="move", double=False),
    )


def test_r3_r4_end_of_activation_discards_active_coin_and_returns_unused_reactive_coin() -> None:
    state = play(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    state = play(
        state, SelectReaction(player=2, unit="bruisers", colour="grey", actions=("attack",))
    )
    events = when(state, EndAction(player=1))
    assert unsalted(events) == (
        ActionEnded(side="heroes", action="move"),
        ReactionRevealed(side="adversaries", coin="bruisers.grey1", actions=("attack",)),
        UnitCoinDiscarded(side="heroes", coin="knight.green1"),
        UnitCoinReturned(side="adversaries", coin="bruisers.grey1"),
        ActivationEnded(side="heroes"),
    )
    after = play(state, EndAction(player=1))
    assert after.piles("heroes").discard == ("knight.green1",)
    assert "bruisers.grey1" in after.piles("adversaries").stash
    assert after.piles("adversaries").discard == ()


def test_r3_action_coins_are_never_used_up() -> None:
    # Eight activations in a row with the same two Move coins stay legal.
    state = set_up()
    for unit, colour in [("knight", "grey")] * 2 + [("squire", "green")]:
        state = roll(activate(state, unit, colour, ("move", "move")), 4 if colour == "green" else 3)
    assert any(
        isinstance(c, SelectCoins) and c.actions == ("move", "move")
        for c in legal_commands(state, 1)
    )


def _adversaries_discarded(state: MatchState) -> MatchState:
    """The state with a green and a grey Bruisers coin in the Adversaries' discard.

    In this version a reactive player never reacts, so never discards; the
    discard is set directly to check the rule on the coins themselves.
    """
    piles = state.piles("adversaries")
    held = ("bruisers.green1", "bruisers.grey1")
    stash = tuple(c for c in piles.stash if c not in held)
    piled = {"stash": list(stash), "discard": list(held)}
    result: MatchState = at(state, f"adversaries={json.dumps(piled)}")
    return result


def test_r14_gaining_a_lost_initiative_returns_green_and_grey_coins() -> None:
    state = _adversaries_discarded(activate(set_up(), "knight"))
    events = when(state, RollInitiative(player=1, die=6))
    assert (
        DiscardReturned(side="adversaries", coins=("bruisers.green1", "bruisers.grey1")) in events
    )
    assert play(state, RollInitiative(player=1, die=6)).piles("adversaries").discard == ()


def test_r14_gaining_a_willingly_given_initiative_returns_only_green_coins() -> None:
    state = _adversaries_discarded(roll(activate(set_up(), "knight"), 1))
    events = when(state, GiveUpInitiative(player=1))
    assert DiscardReturned(side="adversaries", coins=("bruisers.green1",)) in events
    after = play(state, GiveUpInitiative(player=1))
    assert after.piles("adversaries").discard == ("bruisers.grey1",)
    # The grey left on the table counts against them at their first roll (R13).
    after = activate(after, "smogon")
    assert when(after, RollInitiative(player=2, die=1))[0] == InitiativeRolled(
        side="adversaries", die=1, greys=1, lost=True
    )


def test_r14_round_start_returns_all_the_first_players_coins() -> None:
    state = roll(activate(set_up(), "knight"), 6)
    state = activate(state, "smogon")
    piles = state.piles("heroes")
    piled = {"stash": list(piles.stash[1:]), "discard": list(piles.stash[:1])}
    state = at(state, f"heroes={json.dumps(piled)}")
    events = when(state, RollInitiative(player=2, die=6))
    assert DiscardReturned(side="heroes", coins=piles.stash[:1]) in events
    assert events.index(DiscardReturned(side="heroes", coins=piles.stash[:1])) > events.index(
        RoundStarted(round=2)
    )


def test_r14_when_a_turn_ends_its_player_takes_back_all_unit_coins() -> None:
    state = roll(activate(set_up(), "knight", "grey"), 5)
    events = when(activate(state, "squire", "green"), RollInitiative(player=1, die=6))
    assert DiscardReturned(side="heroes", coins=("knight.grey1", "squire.green1")) in events
    after = play(activate(state, "squire", "green"), RollInitiative(player=1, die=6))
    assert after.piles("heroes").discard == ()
