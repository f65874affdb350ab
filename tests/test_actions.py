"""Attack, Defend, Stunt and Recovery actions, conditions and Advantage (rulebook: Actions,
Two-coin actions, Recovery, Attacks, Advantage, Units and characters; R1, R3, R8-R12, R21)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from multiversus_core import (
    AfterAttack,
    Attack,
    BeginAction,
    DeclineReaction,
    EndAction,
    IllegalCommandError,
    InvalidCommandError,
    MatchState,
    React,
    SelectCoins,
    Step,
    Stunt,
    legal_commands,
)
from multiversus_core.engine.position import PositionError
from multiversus_core.rulesets.multiversus.abilities import Ability, register
from multiversus_core.rulesets.multiversus.events import (
    ActionEnded,
    ActionStarted,
    AttackMade,
    ConditionChanged,
    FigureMoved,
    FollowUpChosen,
    InitiativeRolled,
    MatchEnded,
    RecoveryMade,
    StuntPerformed,
    TurnEnded,
)
from multiversus_core.rulesets.multiversus.scoring import final_result
from tests.positions import at
from tests.support import conditioned, kinds, placed, play_passing, select, set_up, when_passing

ARENA = {
    "knight": (4, 6),
    "squire": (0, 9),
    "militia-1": (7, 9),
    "militia-2": (8, 9),
    "militia-3": (9, 9),
    "smogon": (0, 0),
    "bruisers-1": (4, 5),
    "bruisers-2": (9, 0),
    "clouds-1": (9, 2),
    "clouds-2": (9, 3),
}
"""The Banner Knight faces Bruiser 1; everyone else stands well away."""


def arena(extra: dict[str, tuple[int, int] | None] | None = None) -> MatchState:
    """Round 1, the Heroes active, with the figures placed as in ARENA (and ``extra``)."""
    return placed(set_up(), {**ARENA, **(extra or {})})


def test_a_given_with_a_figure_off_the_board_is_refused() -> None:
    with pytest.raises(PositionError, match=r"knight stands at \(99,0\), off the board"):
        arena({"knight": (99, 0)})


def test_attack_wounds_an_unharmed_target_r8() -> None:
    state = select(arena(), "knight", ("attack",), ("smogon", ("move",)))
    assert when_passing(state, Attack(player=1, attacker="knight", target="bruisers-1")) == (
        AttackMade(
            attacker="knight", target="bruisers-1", advantage=False, defended=False, hit=True
        ),
        ConditionChanged(figure="bruisers-1", condition="wounded"),
    )


@pytest.mark.parametrize(("before", "after"), [("wounded", "disabled"), ("disabled", "eliminated")])
def test_a_hit_moves_a_character_one_step_along_the_conditions_r8(before: str, after: str) -> None:
    state = conditioned(arena(), {"bruisers-1": before})  # type: ignore[dict-item]
    state = select(state, "knight", ("attack",), ("smogon", ("move",)))
    events = when_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert events[1] == ConditionChanged(figure="bruisers-1", condition=after)  # type: ignore[arg-type]


def test_an_eliminated_character_leaves_the_board() -> None:
    state = conditioned(arena(), {"bruisers-1": "disabled"})
    state = select(state, "knight", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert state.figure("bruisers-1").square is None
    assert state.figure("bruisers-1").condition == "eliminated"


def test_melee_attacks_only_adjacent_characters_and_never_terrain_r1_r7() -> None:
    state = select(arena({"clouds-1": (5, 6)}), "knight", ("attack",), ("smogon", ("move",)))
    targets = {c.target for c in legal_commands(state, 1) if isinstance(c, Attack)}
    assert targets == {"bruisers-1"}
    with pytest.raises(IllegalCommandError, match="cannot attack Smogon from there"):
        when_passing(state, Attack(player=1, attacker="knight", target="smogon"))


def test_advantage_when_the_target_has_more_adjacent_enemies_than_allies_plus_one_r21() -> None:
    state = arena({"militia-1": (3, 5)})
    state = select(state, "knight", ("attack",), ("smogon", ("move",)))
    made = when_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))[0]
    assert isinstance(made, AttackMade) and made.advantage
    # An ally beside the target takes it away.
    state = select(
        arena({"militia-1": (3, 5), "bruisers-2": (5, 5)}),
        "knight",
        ("attack",),
        ("smogon", ("move",)),
    )
    made = when_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))[0]
    assert isinstance(made, AttackMade) and not made.advantage


def test_beast_rule_a_wounded_beast_is_disabled_only_by_a_hit_with_advantage() -> None:
    # Smogon (Large, at (4,4)-(5,5)) is Wounded; the Banner Knight attacks it alone.
    base = arena({"smogon": (4, 4), "bruisers-1": (0, 5), "knight": (4, 6)})
    state = conditioned(base, {"smogon": "wounded"})
    state = select(state, "knight", ("attack",), ("bruisers", ("move",)))
    events = when_passing(state, Attack(player=1, attacker="knight", target="smogon"))
    assert events == (
        AttackMade(attacker="knight", target="smogon", advantage=False, defended=False, hit=True),
    )
    # With two more Heroes beside it, the hit has Advantage and Disables it.
    state = conditioned(
        placed(base, {"squire": (3, 4), "militia-1": (6, 5)}), {"smogon": "wounded"}
    )
    state = select(state, "knight", ("attack",), ("bruisers", ("move",)))
    events = when_passing(state, Attack(player=1, attacker="knight", target="smogon"))
    assert events[1] == ConditionChanged(figure="smogon", condition="disabled")


def test_units_and_characters_every_attack_of_the_action_targets_one_unit() -> None:
    state = arena({"militia-1": (3, 6), "militia-2": (5, 6), "bruisers-2": (5, 7)})
    state = select(state, "militia", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="militia-1", target="bruisers-1"))
    state = play_passing(state, AfterAttack(player=1, choice="stay"))
    # Both Bruisers are one unit, so Militia 2 may attack either.
    targets = {c.target for c in legal_commands(state, 1) if isinstance(c, Attack)}
    assert targets == {"bruisers-1", "bruisers-2"}
    with pytest.raises(IllegalCommandError, match="already attacked"):
        when_passing(state, Attack(player=1, attacker="militia-1", target="bruisers-1"))


def test_units_and_characters_attacks_of_one_action_never_switch_units() -> None:
    state = arena({"militia-1": (3, 6), "militia-2": (1, 2), "smogon": (0, 0)})
    state = select(state, "militia", ("attack",), ("clouds", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="militia-1", target="bruisers-1"))
    state = play_passing(state, AfterAttack(player=1, choice="stay"))
    with pytest.raises(IllegalCommandError, match="must target Dragonkith Bruisers"):
        when_passing(state, Attack(player=1, attacker="militia-2", target="smogon"))


def test_r9_after_an_attack_the_attacker_may_step_push_or_stay() -> None:
    state = select(arena(), "knight", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    options = {
        (c.choice, c.direction) for c in legal_commands(state, 1) if isinstance(c, AfterAttack)
    }
    assert ("stay", None) in options and ("push", None) in options
    assert {d for c, d in options if c == "step"} == {(1, 0), (-1, 0), (0, 1)}
    # The push is directly away: north, from (4,5) to (4,4).
    assert when_passing(state, AfterAttack(player=1, choice="push")) == (
        FollowUpChosen(attacker="knight", choice="push"),
        FigureMoved(figure="bruisers-1", to=(4, 4), how="push"),
    )
    assert when_passing(state, AfterAttack(player=1, choice="step", direction=(1, 0)))[
        1
    ] == FigureMoved(figure="knight", to=(5, 6), how="step")


def test_r9_a_medium_attacker_beside_the_side_of_a_large_target_pushes_it_orthogonally() -> None:
    # Smogon covers (5,5)-(6,6); the knight at (4,6) is beside its west side. The pairs
    # (4,6)-(5,6) and (4,6)-(5,5) are both nearest on the diagonal count: the orthogonal
    # one is used, so the push is due east, not north-east.
    state = arena({"smogon": (5, 5), "bruisers-1": (0, 5)})
    state = select(state, "knight", ("attack",), ("bruisers", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="smogon"))
    assert when_passing(state, AfterAttack(player=1, choice="push"))[1] == FigureMoved(
        figure="smogon", to=(6, 5), how="push"
    )


def test_r9_push_is_diagonal_when_the_target_is_diagonal() -> None:
    state = select(arena({"knight": (3, 6)}), "knight", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert when_passing(state, AfterAttack(player=1, choice="push"))[1] == FigureMoved(
        figure="bruisers-1", to=(5, 4), how="push"
    )


def test_r9_an_eliminated_target_cannot_be_pushed() -> None:
    state = conditioned(arena(), {"bruisers-1": "disabled"})
    state = select(state, "knight", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    choices = {c.choice for c in legal_commands(state, 1) if isinstance(c, AfterAttack)}
    assert "push" not in choices
    with pytest.raises(IllegalCommandError, match="cannot be pushed"):
        when_passing(state, AfterAttack(player=1, choice="push"))


def test_a_step_after_an_attack_needs_a_direction() -> None:
    state = select(arena(), "knight", ("attack",), ("smogon", ("move",)))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    with pytest.raises(InvalidCommandError, match="needs a direction"):
        when_passing(state, AfterAttack(player=1, choice="step"))


def test_disabled_characters_cannot_act_and_a_disabled_unit_can_only_recover() -> None:
    state = conditioned(arena(), {"knight": "disabled"})
    knight = {
        c.actions
        for c in legal_commands(state, 1)
        if isinstance(c, SelectCoins) and c.unit == "knight"
    }
    assert knight == {()}
    with pytest.raises(IllegalCommandError, match="can only Recover"):
        when_passing(state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))


def test_disabled_characters_of_a_unit_sit_out_its_actions() -> None:
    state = conditioned(
        arena({"militia-1": (3, 6), "militia-2": (5, 6)}), {"militia-1": "disabled"}
    )
    state = select(state, "militia", ("attack",), ("smogon", ("move",)))
    attackers = {c.attacker for c in legal_commands(state, 1) if isinstance(c, Attack)}
    assert attackers == {"militia-2"}


def test_r3_two_different_actions_are_taken_in_the_order_the_player_chooses() -> None:
    state = select(arena(), "knight", ("attack", "move"), ("smogon", ("move",)))
    assert state.pending == "begin_action"
    assert set(legal_commands(state, 1)) == {
        BeginAction(player=1, action="attack"),
        BeginAction(player=1, action="move"),
    }
    state = play_passing(state, BeginAction(player=1, action="move"), EndAction(player=1))
    # The Attack action follows on its own.
    assert state.pending == "attack"


def test_r10_defend_action_is_taken_at_once_and_braces_the_unit() -> None:
    state = select(arena(), "knight", ("defend", "move"), ("smogon", ("move",)))
    events = when_passing(state, BeginAction(player=1, action="defend"))
    assert kinds(events) == ["action_started", "action_ended", "action_started"]
    after = play_passing(state, BeginAction(player=1, action="defend"))
    assert after.activation is not None and after.activation.braced


def test_stunt_interacts_with_an_adjacent_figure_and_the_whole_unit_does_the_same() -> None:
    state = arena(
        {"militia-1": (8, 2), "militia-2": (8, 4), "clouds-1": (9, 2), "bruisers-2": (0, 9)}
    )
    state = select(state, "militia", ("stunt",), ("smogon", ("move",)))
    options = {(c.figure, c.target) for c in legal_commands(state, 1) if isinstance(c, Stunt)}
    assert ("militia-1", "clouds-1") in options and ("militia-2", "clouds-2") in options
    events = when_passing(state, Stunt(player=1, figure="militia-1", target="clouds-1"))
    assert events[0] == StuntPerformed(figure="militia-1", ability=None, target="clouds-1")
    state = play_passing(state, Stunt(player=1, figure="militia-1", target="clouds-1"))
    # Militia 2, beside Cloud 2, may now only interact with Cloud 1, which it is not beside.
    later = {(c.figure, c.target) for c in legal_commands(state, 1) if isinstance(c, Stunt)}
    assert ("militia-2", "clouds-2") not in later


def test_stunt_names_an_ability_or_a_target_not_both() -> None:
    state = select(arena(), "knight", ("stunt",), ("smogon", ("move",)))
    with pytest.raises(InvalidCommandError, match="not both"):
        when_passing(state, Stunt(player=1, figure="knight"))


@pytest.mark.parametrize("unit", ["bruisers", "smogon"])
def test_p28_two_stunt_coins_use_only_a_double_stunt_ability(unit: str) -> None:
    # "Double-Stunt: You can use a double-stunt ability." A (!) needs one Stunt coin,
    # and interacting is "a stunt action (using one stunt coin)": neither takes two.
    state = placed(set_up(starting="adversaries"), {**ARENA, "smogon": (5, 6)})
    state = select(state, unit, ("stunt", "stunt"), ("knight", ("defend",)))
    figure = "bruisers-1" if unit == "bruisers" else "smogon"
    stunts = [c for c in legal_commands(state, 2) if isinstance(c, Stunt)]
    if unit == "smogon":
        assert stunts == [Stunt(player=2, figure="smogon", ability="Smoke Breath")]
    else:
        assert stunts == []
    with pytest.raises(IllegalCommandError):
        when_passing(state, Stunt(player=2, figure="bruisers-1", ability="Drag to the Wyrm"))
    with pytest.raises(IllegalCommandError):
        when_passing(state, Stunt(player=2, figure=figure, target="knight"))  # beside it


def test_recovery_clears_wounds_and_lifts_disabled_to_wounded_then_the_turn_ends_r12() -> None:
    state = conditioned(
        arena({"militia-1": (0, 7), "militia-2": (1, 7)}),
        {"militia-1": "wounded", "militia-2": "disabled"},
    )
    state = select(state, "militia", (), ("smogon", ("move",)))
    # No reactive character is in range: the recovery goes ahead and the turn ends, no roll.
    assert state.pending == "select" and state.active == "adversaries"
    assert state.figure("militia-1").condition == "unharmed"
    assert state.figure("militia-2").condition == "wounded"


def test_r12_recovery_ends_the_turn_as_if_lost_without_a_roll() -> None:
    state = conditioned(arena({"militia-1": (0, 7)}), {"militia-1": "wounded"})
    state = play_passing(state, SelectCoins(player=1, unit="militia", colour="green", actions=()))
    from multiversus_core import SelectReaction

    events = when_passing(
        state, SelectReaction(player=2, unit="smogon", colour="green", actions=("move",))
    )
    assert RecoveryMade(side="heroes", unit="militia", succeeded=True) in events
    assert ActionEnded(side="heroes", action="recovery") in events
    assert TurnEnded(side="heroes", reason="recovery") in events
    assert not any(isinstance(e, InitiativeRolled) for e in events)
    assert ActionStarted(side="heroes", unit="militia", action="recovery", double=False) in events


def test_elimination_of_every_enemy_character_wins_at_once() -> None:
    gone = {"bruisers-2": "eliminated", "smogon": "eliminated"}
    state = conditioned(arena(), {**gone, "bruisers-1": "disabled"})  # type: ignore[dict-item]
    state = select(state, "knight", ("attack",), ("clouds", ("move",)))
    events = when_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert events[-1] == MatchEnded(reason="elimination", winner="heroes")
    final = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert final.is_over and final.winner == "heroes" and legal_commands(final, 1) == ()


def test_scoring_a_match_no_condition_decides_is_a_draw() -> None:
    assert final_result(set_up(), ()) == (None, "six_rounds_played")


def test_decline_is_only_for_the_reactive_player_at_an_offer() -> None:
    state = select(arena(), "knight", ("attack",), ("smogon", ("move",)))
    with pytest.raises(IllegalCommandError):
        when_passing(state, DeclineReaction(player=2))
    with pytest.raises(IllegalCommandError):
        when_passing(state, React(player=1))


def test_r2_a_unit_with_no_characters_left_can_no_longer_activate_or_react() -> None:
    state = conditioned(arena(), {"squire": "eliminated"})
    assert not any(
        isinstance(c, SelectCoins) and c.unit == "squire" for c in legal_commands(state, 1)
    )
    with pytest.raises(IllegalCommandError, match="cannot act"):
        when_passing(state, SelectCoins(player=1, unit="squire", colour="green", actions=("move",)))
    state = conditioned(arena(), {"bruisers-1": "eliminated", "bruisers-2": "eliminated"})
    state = play_passing(
        state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",))
    )
    from multiversus_core import SelectReaction

    assert not any(
        isinstance(c, SelectReaction) and c.unit == "bruisers" for c in legal_commands(state, 2)
    )


def test_p20_a_selection_the_unit_cannot_use_is_still_legal_and_does_nothing() -> None:
    # Nothing is beside the squire, who has no stunt-based ability: his Stunt can only end.
    state = select(arena(), "squire", ("stunt",), ("smogon", ("move",)))
    assert legal_commands(state, 1) == (EndAction(player=1),)


class _Phasing(Ability):
    """A test ability: its characters move into and through blocking terrain."""

    name = "Test Phasing"

    def enters_blocking_terrain(self) -> bool:
        return True


def test_an_ability_lets_characters_move_into_blocking_terrain_and_they_can_still_be_attacked() -> (
    None
):
    register(_Phasing)
    # The Crag (blocking, obscuring) covers (2,4)-(3,5); the knight stands beside it at (1,4).
    base = arena({"knight": (1, 4), "bruisers-1": (0, 9)})
    east = (1, 0)
    plain = select(base, "knight", ("move",), ("smogon", ("move",)))
    assert Step(player=1, figure="knight", direction=east) not in legal_commands(plain, 1)
    able = at(base, 'units={"knight":{"abilities":["Test Phasing"]}}')
    phasing = select(able, "knight", ("move",), ("smogon", ("move",)))
    assert Step(player=1, figure="knight", direction=east) in legal_commands(phasing, 1)
    inside = play_passing(phasing, Step(player=1, figure="knight", direction=east))
    assert inside.figure("knight").square == (2, 4)
    # In the Crag he can still be attacked in melee, but not seen for a ranged attack.
    inside = placed(inside, {"bruisers-1": (2, 3)})
    from multiversus_core.rulesets.multiversus.combat import can_attack
    from multiversus_core.rulesets.multiversus.geometry import has_line_of_sight

    assert can_attack(inside, inside.figure("bruisers-1"), inside.figure("knight"))
    assert inside.board is not None
    far = replace(inside.figure("bruisers-1"), square=(2, 0))
    assert not has_line_of_sight(inside.board, inside.figures, far, inside.figure("knight"))
