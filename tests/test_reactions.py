"""Reactions: the five triggers, the Defend reaction, timing and limits (rulebook:
Reactions, Two-coin actions, Recovery; R4-R7, R10-R12)."""

from __future__ import annotations

import pytest

from multiversus_core import (
    AfterAttack,
    Attack,
    DeclineReaction,
    EndAction,
    IllegalCommandError,
    MatchSettings,
    MatchState,
    React,
    SelectCoins,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
    legal_commands,
)
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.multiversus.activation import triggered_units
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.events import (
    AttackMade,
    BoardSetUp,
    ConditionChanged,
    FigureMoved,
    FigureStepped,
    ReactionDeclined,
    ReactionEnded,
    ReactionRevealed,
    ReactionStarted,
    ReactionTriggered,
    RecoveryMade,
    StuntFailed,
    StuntPerformed,
)
from multiversus_core.rulesets.multiversus.state import Suspended
from multiversus_core.rulesets.multiversus.terms import Condition
from tests.support import conditioned, kinds, placed, play, select, set_up, unsalted, when
from tests.test_actions import ARENA

N, E, S, W = (0, -1), (1, 0), (0, 1), (-1, 0)


def arena(extra: dict[str, tuple[int, int] | None] | None = None) -> MatchState:
    return placed(set_up(), {**ARENA, **(extra or {})})


def offered(state: MatchState) -> ReactionTriggered | None:
    act = state.activation
    if act is None or act.offer is None:
        return None
    return ReactionTriggered(
        side="adversaries",
        triggers=act.offer.triggers,
        figure=act.offer.figure,
        held=act.offer.held,
    )


# --- the triggers -------------------------------------------------------------


def test_trigger_leaving_a_square_adjacent_to_the_reactive_unit() -> None:
    state = select(arena(), "knight", ("move",), ("bruisers", ("attack",)))
    assert when(state, Step(player=1, figure="knight", direction=S)) == (
        ReactionTriggered(
            side="adversaries",
            triggers=("left_adjacent",),
            figure="knight",
            held=Suspended(step="step", figure="knight", to=(4, 7)),
        ),
    )
    assert legal_commands(play(state, Step(player=1, figure="knight", direction=S)), 2) == (
        React(player=2),
        DeclineReaction(player=2),
    )


def test_a_trigger_concerns_the_units_it_is_raised_for_not_the_hidden_selection() -> None:
    # The Adversaries secretly selected Smogon, far away; the knight leaves Bruiser 1's side.
    state = select(arena(), "knight", ("move",), ("smogon", ("attack",)))
    state = play(state, Step(player=1, figure="knight", direction=S))
    act = state.activation
    assert act is not None and act.offer is not None
    assert triggered_units(state, act.offer.held) == (("left_adjacent", ("bruisers",)),)
    # Smogon cannot answer it, though the offer is made all the same.
    assert legal_commands(state, 2) == (DeclineReaction(player=2),)


def test_trigger_not_for_a_square_that_is_not_adjacent() -> None:
    state = select(arena({"knight": (4, 7)}), "knight", ("move",), ("bruisers", ("attack",)))
    assert kinds(when(state, Step(player=1, figure="knight", direction=S))) == ["figure_stepped"]


def test_trigger_attacking_outside_the_reactive_unit_while_in_its_range() -> None:
    # Smogon stands beside the knight, who attacks a Bruiser.
    state = select(arena({"smogon": (5, 6)}), "knight", ("attack",), ("smogon", ("attack",)))
    (event,) = when(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    # Publicly it is also an attack on the Bruisers (who might be defending).
    assert isinstance(event, ReactionTriggered)
    assert event.triggers == ("targeted", "attacked_other")
    state = play(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert legal_commands(state, 2) == (React(player=2), DeclineReaction(player=2))


def test_trigger_stunting_in_range_of_the_reactive_unit() -> None:
    state = select(arena(), "knight", ("stunt",), ("bruisers", ("attack",)))
    (event,) = when(state, Stunt(player=1, figure="knight", target="bruisers-1"))
    assert isinstance(event, ReactionTriggered) and event.triggers[0] == "stunted"


def test_trigger_recovering_in_range_of_the_reactive_unit() -> None:
    state = conditioned(arena(), {"knight": "wounded"})
    state = play(state, SelectCoins(player=1, unit="knight", colour="green", actions=()))
    events = when(
        state, SelectReaction(player=2, unit="bruisers", colour="green", actions=("attack",))
    )
    assert isinstance(events[-1], ReactionTriggered) and events[-1].triggers == ("recovered",)


def test_r24_a_disabled_character_of_the_reactive_unit_raises_the_adjacency_trigger() -> None:
    # Bruiser 1 beside the knight is Disabled; Bruiser 2 stands far away, able.
    state = conditioned(arena(), {"bruisers-1": "disabled"})
    state = select(state, "knight", ("move",), ("bruisers", ("move",)))
    (event,) = when(state, Step(player=1, figure="knight", direction=S))
    assert isinstance(event, ReactionTriggered) and event.triggers == ("left_adjacent",)
    # The reaction is made by those of the unit's characters able to make it.
    state = play(state, Step(player=1, figure="knight", direction=S), React(player=2))
    movers = {c.figure for c in legal_commands(state, 2) if isinstance(c, Step)}
    assert movers == {"bruisers-2"}


@pytest.mark.parametrize(("condition", "raised"), [("disabled", False), ("wounded", True)])
def test_r24_a_disabled_character_is_in_range_of_nothing(
    condition: Condition, raised: bool
) -> None:
    # The knight attacks Smogon beside it, with Bruiser 1 beside it too: that raises
    # "attacking outside the reactive unit in range" for the Bruisers, unless Bruiser 1
    # is Disabled (it could attack nothing); Bruiser 2 is far away.
    state = conditioned(arena({"smogon": (5, 6)}), {"bruisers-1": condition})
    state = select(state, "knight", ("attack",), ("bruisers", ("attack",)))
    (event,) = when(state, Attack(player=1, attacker="knight", target="smogon"))
    assert isinstance(event, ReactionTriggered)
    assert ("attacked_other" in event.triggers) is raised


@pytest.mark.parametrize(
    ("in_range", "triggered"),
    [("militia-1", True), ("militia-2", True), ("militia-3", True), (None, False)],
)
def test_r25_any_character_of_a_recovering_unit_in_range_raises_the_trigger(
    in_range: str | None, triggered: bool
) -> None:
    # The Militia recover: militia-1 is Disabled, militia-2 Wounded, militia-3 Unharmed.
    # Only the one named stands beside Bruiser 1 (the knight has gone).
    squares: dict[str, tuple[int, int] | None] = {
        "knight": (2, 9),
        "militia-1": (7, 9),
        "militia-2": (8, 9),
        "militia-3": (9, 9),
    }
    if in_range is not None:
        squares[in_range] = (4, 4)
    state = conditioned(arena(squares), {"militia-1": "disabled", "militia-2": "wounded"})
    state = play(state, SelectCoins(player=1, unit="militia", colour="green", actions=()))
    events = when(
        state, SelectReaction(player=2, unit="bruisers", colour="green", actions=("attack",))
    )
    raised = [e for e in events if isinstance(e, ReactionTriggered)]
    assert [e.triggers for e in raised] == ([("recovered",)] if triggered else [])


def test_trigger_double_attacking_the_reactive_unit() -> None:
    state = select(arena(), "knight", ("attack", "attack"), ("bruisers", ("move",)))
    (event,) = when(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert isinstance(event, ReactionTriggered)
    assert event.triggers == ("targeted", "double_attacked")
    state = play(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert React(player=2) in legal_commands(state, 2)


def test_a_single_attack_on_a_unit_that_might_defend_is_offered_but_only_a_defend_may_react() -> (
    None
):
    # The Bruisers selected Attack, in secret. The knight's attack on a Bruiser is
    # offered all the same (they might have selected Defend), so the offer tells
    # the Heroes nothing; but an Attack reaction cannot answer it.
    state = select(arena(), "knight", ("attack",), ("bruisers", ("attack",)))
    (event,) = when(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert isinstance(event, ReactionTriggered) and event.triggers == ("targeted",)
    state = play(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert legal_commands(state, 2) == (DeclineReaction(player=2),)
    with pytest.raises(IllegalCommandError, match="cannot answer this trigger"):
        when(state, React(player=2))
    assert kinds(when(state, DeclineReaction(player=2))) == [
        "reaction_declined",
        "attack_made",
        "condition_changed",
    ]


def test_offers_do_not_depend_on_the_hidden_selection() -> None:
    # Whatever the Adversaries selected in secret, the same commands raise the same events.
    seen = set()
    for unit, coins in [
        ("bruisers", ("attack",)),
        ("bruisers", ("defend",)),
        ("smogon", ("move",)),
    ]:
        state = select(arena({"smogon": (5, 6)}), "knight", ("attack",), (unit, coins))
        seen.add(when(state, Attack(player=1, attacker="knight", target="bruisers-1")))
    assert len(seen) == 1


# --- reacting and declining (R4, R5, R6) ----------------------------------------


def test_decline_lets_the_held_step_go_ahead_and_is_recorded() -> None:
    state = select(arena(), "knight", ("move",), ("bruisers", ("attack",)))
    state = play(state, Step(player=1, figure="knight", direction=S))
    assert when(state, DeclineReaction(player=2)) == (
        ReactionDeclined(side="adversaries"),
        FigureStepped(figure="knight", to=(4, 7), steps_left=2),
    )


def test_r4_r6_a_reaction_is_revealed_and_resolves_before_the_triggering_step() -> None:
    state = select(arena(), "knight", ("move",), ("bruisers", ("attack",)))
    state = play(state, Step(player=1, figure="knight", direction=S))
    assert unsalted(when(state, React(player=2))) == (
        ReactionRevealed(side="adversaries", coin="bruisers.green1", actions=("attack",)),
        ReactionStarted(side="adversaries", unit="bruisers", action="attack", double=False),
    )
    state = play(state, React(player=2))
    # Bruiser 1 attacks the knight, still in his square, before he leaves it.
    assert state.figure("knight").square == (4, 6)
    state = play(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    state = play(state, AfterAttack(player=2, choice="stay"))
    assert state.figure("knight").condition == "wounded"
    events = when(state, EndAction(player=2))
    assert events == (
        ReactionEnded(side="adversaries"),
        FigureStepped(figure="knight", to=(4, 7), steps_left=2),
    )


def test_r6_a_character_disabled_by_a_reaction_stops_moving() -> None:
    state = conditioned(arena(), {"knight": "wounded"})
    state = select(state, "knight", ("move",), ("bruisers", ("attack",)))
    state = play(state, Step(player=1, figure="knight", direction=S), React(player=2))
    state = play(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    state = play(state, AfterAttack(player=2, choice="stay"))
    events = when(state, EndAction(player=2))
    assert events == (ReactionEnded(side="adversaries"),)
    after = play(state, EndAction(player=2))
    assert after.figure("knight").square == (4, 6)
    assert not any(isinstance(c, Step) for c in legal_commands(after, 1))


def test_p14_a_character_disabled_on_an_ally_falls_back_to_the_nearest_space_it_may_stop_on() -> (
    None
):
    # given the Knight passing through the Squire beside Bruiser 1, Militia 1 to the west
    state = arena({"knight": (4, 7), "squire": (4, 6), "militia-1": (3, 6)})
    state = conditioned(state, {"knight": "wounded"})
    state = select(state, "knight", ("move",), ("bruisers", ("attack",)))
    state = play(state, Step(player=1, figure="knight", direction=N))
    assert state.figure("knight").square == state.figure("squire").square == (4, 6)
    # when leaving the Squire's square triggers an attack reaction that disables the Knight
    state = play(state, Step(player=1, figure="knight", direction=E), React(player=2))
    state = play(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    state = play(state, AfterAttack(player=2, choice="stay"))
    events = when(state, EndAction(player=2))
    # then it is placed on the nearest space it may stop on: never back on the Squire,
    # even though the Squire's square comes first top-to-bottom, left-to-right
    assert events == (
        ReactionEnded(side="adversaries"),
        FigureMoved(figure="knight", to=(5, 6), how="place"),
    )
    assert play(state, EndAction(player=2)).figure("knight").square == (5, 6)


def test_r6_a_disabled_attacker_does_not_attack() -> None:
    state = conditioned(arena({"smogon": (5, 6)}), {"knight": "wounded"})
    state = select(state, "knight", ("attack",), ("smogon", ("attack",)))
    state = play(state, Attack(player=1, attacker="knight", target="bruisers-1"), React(player=2))
    state = play(state, Attack(player=2, attacker="smogon", target="knight"))
    state = play(state, AfterAttack(player=2, choice="stay"))
    assert state.figure("knight").condition == "disabled"
    assert when(state, EndAction(player=2)) == (ReactionEnded(side="adversaries"),)


def test_r5_one_reaction_per_action() -> None:
    state = select(arena(), "knight", ("move",), ("bruisers", ("move",)))
    state = play(state, Step(player=1, figure="knight", direction=E), React(player=2))
    state = play(state, EndAction(player=2))  # the reaction moves nobody
    # Back beside Bruiser 1 and leaving again: no second offer in this action.
    assert state.figure("knight").square == (5, 6)
    assert kinds(when(state, Step(player=1, figure="knight", direction=S))) == ["figure_stepped"]


def test_r5_declining_an_earlier_trigger_keeps_the_reaction_for_a_later_one() -> None:
    state = select(arena(), "knight", ("move",), ("bruisers", ("move",)))
    state = play(state, Step(player=1, figure="knight", direction=E), DeclineReaction(player=2))
    (event,) = when(state, Step(player=1, figure="knight", direction=S))
    assert isinstance(event, ReactionTriggered)


def test_r5_the_reactive_unit_may_react_again_to_the_second_action() -> None:
    state = select(arena(), "knight", ("move", "stunt"), ("bruisers", ("move",)))
    from multiversus_core import BeginAction

    state = play(state, BeginAction(player=1, action="move"))
    state = play(state, Step(player=1, figure="knight", direction=E), React(player=2))
    state = play(state, EndAction(player=2), EndAction(player=1))
    assert state.pending == "stunt"
    (event,) = when(state, Stunt(player=1, figure="knight", target="bruisers-1"))
    assert isinstance(event, ReactionTriggered) and event.triggers[0] == "stunted"


def test_r5_each_trigger_is_an_opportunity_and_one_reaction_is_taken_per_action() -> None:
    # A Double-Move: one action, six spaces.
    state = select(arena(), "knight", ("move", "move"), ("bruisers", ("move",)))
    # Leaving a space beside Bruiser 1 twice: each is an opportunity to react.
    state = play(state, Step(player=1, figure="knight", direction=E))
    assert offered(state) is not None
    state = play(state, DeclineReaction(player=2), Step(player=1, figure="knight", direction=S))
    assert offered(state) is not None
    assert legal_commands(state, 2) == (React(player=2), DeclineReaction(player=2))
    # Once one is taken, the action raises no more offers for that unit.
    state = play(state, React(player=2), EndAction(player=2))
    state = play(state, Step(player=1, figure="knight", direction=N))
    assert state.figure("knight").square == (5, 6)
    assert kinds(when(state, Step(player=1, figure="knight", direction=E))) == ["figure_stepped"]


def test_move_reaction_moves_the_reactive_units_figures() -> None:
    state = select(arena(), "knight", ("move",), ("bruisers", ("move",)))
    state = play(state, Step(player=1, figure="knight", direction=S), React(player=2))
    assert {c.figure for c in legal_commands(state, 2) if isinstance(c, Step)} == {
        "bruisers-1",
        "bruisers-2",
    }
    state = play(state, Step(player=2, figure="bruisers-1", direction=N))
    assert state.figure("bruisers-1").square == (4, 4)


# --- Defend (R5, R8, R10) -------------------------------------------------------


def test_defend_reaction_makes_attacks_miss_for_the_rest_of_the_activation() -> None:
    state = arena({"militia-1": (3, 6), "militia-2": (5, 6)})
    state = select(state, "militia", ("attack",), ("bruisers", ("defend",)))
    state = play(state, Attack(player=1, attacker="militia-1", target="bruisers-1"))
    assert offered(state) is not None and offered(state).triggers == ("targeted",)  # type: ignore[union-attr]
    events = when(state, React(player=2))
    assert events[-1] == AttackMade(
        attacker="militia-1", target="bruisers-1", advantage=True, defended=True, hit=False
    )
    state = play(state, React(player=2), AfterAttack(player=1, choice="stay"))
    # The second attack is covered without another offer.
    assert when(state, Attack(player=1, attacker="militia-2", target="bruisers-1")) == (
        AttackMade(
            attacker="militia-2", target="bruisers-1", advantage=True, defended=True, hit=False
        ),
    )


def test_double_attack_still_wounds_a_defending_unit() -> None:
    state = select(arena(), "knight", ("attack", "attack"), ("bruisers", ("defend",)))
    state = play(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    events = when(state, React(player=2))
    assert events[-2:] == (
        AttackMade(
            attacker="knight", target="bruisers-1", advantage=False, defended=True, hit=True
        ),
        ConditionChanged(figure="bruisers-1", condition="wounded"),
    )


def test_r10_a_defend_action_protects_the_active_unit_from_attack_reactions() -> None:
    from multiversus_core import BeginAction

    state = select(arena(), "knight", ("defend", "move"), ("bruisers", ("attack",)))
    state = play(state, BeginAction(player=1, action="defend"))
    state = play(state, Step(player=1, figure="knight", direction=S), React(player=2))
    events = when(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    assert events == (
        AttackMade(
            attacker="bruisers-1", target="knight", advantage=False, defended=True, hit=False
        ),
    )


def test_r10_a_double_attack_reaction_hits_a_unit_that_took_a_defend_action() -> None:
    from multiversus_core import BeginAction

    state = select(arena(), "knight", ("defend", "move"), ("bruisers", ("attack", "attack")))
    state = play(state, BeginAction(player=1, action="defend"))
    state = play(state, Step(player=1, figure="knight", direction=S), React(player=2))
    events = when(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    assert events[0] == AttackMade(
        attacker="bruisers-1", target="knight", advantage=False, defended=True, hit=True
    )


# --- stunts and recovery under attack (R11, R12) --------------------------------


def test_r11_a_stunt_fails_when_subject_to_an_attack_reaction_even_without_harm() -> None:
    from multiversus_core import BeginAction

    state = select(arena(), "knight", ("defend", "stunt"), ("bruisers", ("attack",)))
    state = play(state, BeginAction(player=1, action="defend"))
    state = play(state, Stunt(player=1, figure="knight", target="bruisers-1"), React(player=2))
    state = play(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    state = play(state, AfterAttack(player=2, choice="stay"))
    assert state.figure("knight").condition == "unharmed"
    events = when(state, EndAction(player=2))
    assert StuntFailed(side="heroes", unit="knight") in events
    assert not any(isinstance(e, StuntPerformed) for e in events)


def test_r11_a_stunt_goes_ahead_when_the_reaction_does_not_attack() -> None:
    state = select(arena(), "knight", ("stunt",), ("bruisers", ("attack",)))
    state = play(state, Stunt(player=1, figure="knight", target="bruisers-1"), React(player=2))
    events = when(state, EndAction(player=2))
    assert StuntPerformed(figure="knight", ability=None, target="bruisers-1") in events


def test_r12_an_attack_reaction_makes_a_recovery_fail_without_harming_the_unit() -> None:
    state = conditioned(arena(), {"knight": "wounded"})
    state = play(state, SelectCoins(player=1, unit="knight", colour="green", actions=()))
    state = play(
        state,
        SelectReaction(player=2, unit="bruisers", colour="green", actions=("attack",)),
        React(player=2),
    )
    events = when(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    assert events == (
        AttackMade(
            attacker="bruisers-1", target="knight", advantage=False, defended=False, hit=True
        ),
    )
    state = play(state, Attack(player=2, attacker="bruisers-1", target="knight"))
    state = play(state, AfterAttack(player=2, choice="stay"))
    events = when(state, EndAction(player=2))
    assert RecoveryMade(side="heroes", unit="knight", succeeded=False) in events
    after = play(state, EndAction(player=2))
    assert after.figure("knight").condition == "wounded"
    assert after.active == "adversaries"


def test_recovery_is_never_a_reaction() -> None:
    state = conditioned(arena(), {"bruisers-1": "wounded"})
    state = play(state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    assert not any(
        isinstance(c, SelectReaction) and not c.actions for c in legal_commands(state, 2)
    )


def test_only_the_acting_seat_gives_reaction_commands() -> None:
    state = select(arena(), "knight", ("move",), ("bruisers", ("attack",)))
    state = play(state, Step(player=1, figure="knight", direction=S), React(player=2))
    with pytest.raises(IllegalCommandError):
        when(state, Attack(player=1, attacker="knight", target="bruisers-1"))


# --- R1: terrain pieces never trigger reactions -----------------------------------


@pytest.mark.parametrize(
    "variants",
    [(), ("disengage-trigger",), ("adjacent-triggers",), ("diagonal-movement",)],
)
def test_r1_a_drifting_cloud_stepping_away_from_a_reactive_character_triggers_nothing(
    variants: tuple[str, ...],
) -> None:
    # The Cloud leaves a square adjacent to the Knight, whose unit holds a Move reaction.
    settings = MatchSettings(
        heroes="banner-knight", adversaries="smogon", seed=11, variants=variants
    )
    state = placed(set_up(settings, starting="adversaries"), {**ARENA, "clouds-1": (4, 7)})
    state = select(state, "clouds", ("move",), ("knight", ("move",)))
    assert when(state, Step(player=2, figure="clouds-1", direction=S)) == (
        FigureStepped(figure="clouds-1", to=(4, 8), steps_left=2),
    )
    assert legal_commands(play(state, Step(player=2, figure="clouds-1", direction=S)), 1) == ()


def test_r1_a_drifting_cloud_ending_its_actions_beside_the_reactive_unit_triggers_nothing() -> None:
    # Under move-reaction-at-end the Move reaction's trigger is the end of the actions.
    settings = MatchSettings(
        heroes="banner-knight", adversaries="smogon", seed=11, variants=("move-reaction-at-end",)
    )
    state = placed(set_up(settings, starting="adversaries"), {**ARENA, "clouds-1": (4, 7)})
    state = select(state, "clouds", ("move",), ("knight", ("move",)))
    events = when(state, EndAction(player=2))
    assert not any(isinstance(e, ReactionTriggered) for e in events)
    assert kinds(events)[-1] == "activation_ended"


def test_r1_a_cloud_blown_by_billowing_triggers_nothing() -> None:
    # The Bruiser's stunt may trigger (a character stunts); the Cloud's own move never does.
    state = placed(
        set_up(starting="adversaries"),
        {**ARENA, "bruisers-1": (4, 8), "clouds-1": (4, 7), "knight": (5, 7)},
    )
    state = select(state, "bruisers", ("stunt",), ("knight", ("move",)))
    state = play(state, Stunt(player=2, figure="bruisers-1", target="clouds-1"))
    assert offered(state) is not None  # stunting in range of the Knight
    state = play(state, DeclineReaction(player=1))
    assert state.pending == "forced"
    events = when(state, StopForcedMove(player=2, spaces=2))
    assert not any(isinstance(e, ReactionTriggered) for e in events)
    assert FigureMoved(figure="clouds-1", to=(4, 5), how="push") in events


@pytest.mark.parametrize(
    ("heroes", "adversaries"),
    [
        (h, a)
        for h in ("banner-knight", "witch-hunters")
        for a in ("black-goblins", "smogon", "swartzblak")
    ],
)
def test_r1_no_terrain_piece_ever_triggers_a_reaction_in_random_play(
    heroes: str, adversaries: str
) -> None:
    # Every terrain piece, every way it moves (Move actions and reactions, forced
    # moves, being placed), under the variants that change the triggers.
    variants = ("move-reaction-at-end",) if adversaries == "smogon" else ("disengage-trigger",)
    for seed in range(3):
        settings = MatchSettings(
            heroes=heroes, adversaries=adversaries, seed=seed, variants=variants
        )
        log, _ = play_match(settings, {1: RandomBot(seed), 2: RandomBot(seed + 7)})
        terrain = {f.id for f in log_figures(log) if f.terrain}
        for entry in log.entries:
            for event in entry.events:
                if isinstance(event, ReactionTriggered):
                    assert event.figure not in terrain, (entry.command, event)


def log_figures(log: MatchLog) -> tuple[Figure, ...]:
    """The figures the log's match set up."""
    for entry in log.entries:
        for event in entry.events:
            if isinstance(event, BoardSetUp):
                return event.figures
    return ()
