"""worlds-collide's rules, one test (or more) per ruling, named for it (W5-W40; the geometry
of W1-W4, W27, W31, W32, W37 and W38 is in test_worlds_collide_geometry.py, the content of
W23-W26 in test_worlds_collide_content.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from multiversus_core.engine.choices import listed, random_command, walk
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.engine.grid import square_name
from multiversus_core.rulesets.worlds_collide import choices, rules
from multiversus_core.rulesets.worlds_collide.model import (
    Act,
    Activate,
    APGained,
    APLost,
    AttackHit,
    AttackMissed,
    AttacksRolled,
    AttackWith,
    Damaged,
    Deploy,
    DieRerolled,
    EnvironmentRolled,
    FirstDeployerChosen,
    FirstPlayerChosen,
    KeepDice,
    LeadersScored,
    MatchEnded,
    ModelDeployed,
    ModelFell,
    ModelMoved,
    MoveTo,
    ObjectiveScored,
    Pass,
    PlayerOut,
    Reroll,
    RollOff,
    RollOffRolled,
    RoundEnded,
    StartRound,
    TacticResolved,
    TacticRolled,
)
from tests.positions import at
from tests.worlds_collide_tables import given, of, start, table

RIFLE = "Rifle"


# --- W5-W7: the round's start ------------------------------------------------------------------


def test_w5_the_roll_off_winner_rolls_on_its_own_table_and_ties_roll_again() -> None:
    state = table({"1.rifleman-1": (0, 0), "2.sprite-1": (0, 16)}, phase="round", round=0)
    events, after = given(state, StartRound(1, dice=(2, 2, 1, 5, 4, 3, 6)))
    assert [e.dice for e in of(events, RollOffRolled)][:2] == [(2, 2), (1, 5)]
    (rolled,) = of(events, EnvironmentRolled)
    assert (rolled.seat, rolled.roll, rolled.name) == (2, 4, "Mist")
    assert after.environment is not None and after.environment.name == "Mist"
    assert rules.effect(after).sight == 4


def test_w6_each_player_gains_2_and_its_leaders_leadership_and_keeps_what_is_unspent() -> None:
    placed = {"1.commander": (0, 0), "1.sergeant": (1, 0), "2.sprite-1": (0, 16)}
    state = table(placed, phase="round", round=0, ap=(4, 1))
    events, after = given(state, StartRound(1, dice=(6, 1, 1)))  # Legion's Overcast: nothing
    gains = {e.seat: (e.amount, e.total) for e in of(events, APGained)}
    assert gains == {1: (2 + 2 + 1, 9), 2: (2, 3)}
    assert (after.sides[0].ap, after.sides[1].ap) == (9, 3)


def test_w7_the_player_with_fewer_ap_goes_first_and_equal_ap_roll_off() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (0, 16)}
    fewer = table(placed, phase="round", round=0, ap=(0, 3))
    events, after = given(fewer, StartRound(1, dice=(6, 1, 1)))
    assert of(events, FirstPlayerChosen) == [FirstPlayerChosen(1)]
    equal = table(placed, phase="round", round=0, ap=(1, 1))
    events, after = given(equal, StartRound(1, dice=(6, 1, 1, 3, 3, 2, 5)))
    assert [e.purpose for e in of(events, RollOffRolled)] == [
        "environment",
        "initiative",
        "initiative",
    ]
    assert after.active == 2


def test_w7_a_player_who_passes_is_out_and_the_other_goes_on_alone() -> None:
    placed = {"1.rifleman-1": (0, 0), "1.rifleman-2": (5, 0), "2.sprite-1": (0, 16)}
    state = table(placed, ap=(3, 3), active=2)
    events, after = given(state, Pass(2))
    assert of(events, PlayerOut) == [PlayerOut(2, "passed")]
    assert after.active == 1
    _, after = given(after, Activate(1, ("1.rifleman-1",), "move_attack"))
    _, after = given(after, Act(1))
    assert after.active == 1  # Bob is out: Ann goes on
    events, after = given(after, Activate(1, ("1.rifleman-2",), "move_attack"))
    events, after = given(after, Act(1))
    assert of(events, RoundEnded)  # both are out: the round ends
    assert after.phase == "round"


def test_w7_a_player_without_ap_or_without_a_model_to_activate_is_out() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (0, 16), "2.sprite-2": (4, 16)}
    state = table(placed, ap=(1, 3))
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    events, after = given(after, Act(1))
    assert PlayerOut(1, "no activation points left") in of(events, PlayerOut)
    assert after.active == 2


# --- W8-W12: activations -------------------------------------------------------------------------


def test_w8_a_formation_activates_for_one_ap() -> None:
    placed = {f"1.rifleman-{n}": (n, 0) for n in range(1, 5)} | {"2.sprite-1": (0, 16)}
    state = table(placed)
    events, after = given(state, Activate(1, tuple(placed)[:4], "move_attack"))
    assert of(events, APLost) == [APLost(1, 1, 2, "activation")]
    assert all(after.model(f"1.rifleman-{n}").activated for n in range(1, 5))  # type: ignore[union-attr]


def test_w9_a_model_activates_once_a_round() -> None:
    placed = {"1.rifleman-1": (0, 0), "1.rifleman-2": (8, 0), "2.sprite-1": (0, 16)}
    state = table(placed)
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    _, after = given(after, Act(1))
    _, after = given(after, Pass(2))
    with pytest.raises(IllegalCommandError, match="already activated"):
        given(after, Activate(1, ("1.rifleman-1",), "move_attack"))


def test_w10_a_formation_is_connected_and_of_one_training_unless_a_leader_is_in_it() -> None:
    placed = {
        "1.rifleman-1": (0, 0),
        "1.rifleman-2": (1, 1),
        "1.rifleman-3": (5, 0),
        "1.heavy-gunner-1": (2, 1),
        "1.commander": (3, 1),
        "2.sprite-1": (0, 16),
    }
    state = table(placed)
    given(state, Activate(1, ("1.rifleman-1", "1.rifleman-2"), "move_attack"))  # diagonal
    with pytest.raises(IllegalCommandError, match="connected"):
        given(state, Activate(1, ("1.rifleman-1", "1.rifleman-3"), "move_attack"))
    with pytest.raises(IllegalCommandError, match="training"):
        given(state, Activate(1, ("1.rifleman-2", "1.heavy-gunner-1"), "move_attack"))
    mixed = ("1.rifleman-2", "1.heavy-gunner-1", "1.commander")
    given(state, Activate(1, mixed, "move_attack"))  # W28: the Commander leads


def test_w11_a_tactic_that_succeeds_gives_its_effect_for_the_activation() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (0, 16)}
    state = table(placed)
    events, after = given(
        state, Activate(1, ("1.rifleman-1",), "move_attack", "forced-march", (3,))
    )
    assert of(events, TacticRolled) == [TacticRolled("forced-march", 3, 3, True)]
    assert of(events, TacticResolved) == [TacticResolved("forced-march", True)]
    model = after.model("1.rifleman-1")
    assert model is not None
    assert rules.move_budget(after, model, twice=False) == 4 + 2
    given(after, Act(1, moves=(MoveTo("1.rifleman-1", (0, 6)),)))


def test_w11_a_tactic_that_fails_brings_the_round_s_penalty() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (0, 16)}
    state = table(placed, ap=(1, 3), environment=(1, 3))  # Mud: cannot move
    events, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (2,)))
    assert of(events, TacticResolved) == [TacticResolved("volley", False)]  # no AP to re-roll
    with pytest.raises(IllegalCommandError, match="cannot move"):
        given(after, Act(1, moves=(MoveTo("1.rifleman-1", (0, 1)),)))


def test_w12_moving_twice_is_one_move_of_twice_the_move_and_no_attack() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (0, 9)}
    state = table(placed)
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_twice"))
    events, _moved = given(after, Act(1, moves=(MoveTo("1.rifleman-1", (0, 8)),)))
    assert of(events, ModelMoved) == [ModelMoved("1.rifleman-1", (0, 8), 8)]
    with pytest.raises(IllegalCommandError, match="cannot reach"):
        given(after, Act(1, moves=(MoveTo("1.rifleman-1", (0, 9)),)))
    with pytest.raises(IllegalCommandError, match="moves twice"):
        given(after, Act(1, attacks=(AttackWith("1.rifleman-1", RIFLE, "2.sprite-1"),)))


# --- W13, W14: moving and aiming -----------------------------------------------------------------


def test_w13_a_formation_must_end_its_move_as_one_connected_group() -> None:
    placed = {"1.rifleman-1": (6, 0), "1.rifleman-2": (7, 0), "2.sprite-1": (0, 16)}
    state = table(placed)
    _, after = given(state, Activate(1, ("1.rifleman-1", "1.rifleman-2"), "move_attack"))
    given(after, Act(1, moves=(MoveTo("1.rifleman-1", (6, 3)), MoveTo("1.rifleman-2", (7, 4)))))
    with pytest.raises(IllegalCommandError, match="connected"):
        given(after, Act(1, moves=(MoveTo("1.rifleman-1", (6, 3)),)))


def test_w14_each_attack_names_its_target_and_a_weapon_attacks_as_often_as_it_may() -> None:
    placed = {"2.sprite-1": (5, 5), "1.rifleman-1": (5, 6), "1.rifleman-2": (6, 6)}
    state = table(placed, active=2)
    _, after = given(state, Activate(2, ("2.sprite-1",), "attack_move"))
    claws = [
        AttackWith("2.sprite-1", "Claws", "1.rifleman-1"),
        AttackWith("2.sprite-1", "Claws", "1.rifleman-2"),
    ]
    events, _ = given(after, Act(2, attacks=tuple(claws), dice=(6, 6)))
    assert [e.target for e in of(events, AttacksRolled)] == ["1.rifleman-1", "1.rifleman-2"]
    with pytest.raises(IllegalCommandError, match="makes 2 attacks"):
        given(after, Act(2, attacks=(*claws, claws[0])))
    far = AttackWith("2.sprite-1", "Claws", "1.rifleman-2")
    moved = at(after, 'models={"1.rifleman-2":{"at":[9,9]}}')
    with pytest.raises(IllegalCommandError, match="not next to"):
        given(moved, Act(2, attacks=(far,)))


# --- W15-W17: rolls and damage -----------------------------------------------------------------


def test_w15_a_die_meets_the_knack_an_unmodified_1_fails_and_6_hits() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 8), "2.sprite-2": (6, 8)}
    state = table(placed, ap=(1, 3))  # after the activation's AP, none left to re-roll
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    aim = (AttackWith("1.rifleman-1", RIFLE, "2.sprite-1"),)
    events, _ = given(after, Act(1, attacks=aim, dice=(4,)))
    assert of(events, AttackHit)
    events, _ = given(after, Act(1, attacks=aim, dice=(3,)))
    assert of(events, AttackMissed)


def test_w15_a_model_next_to_an_enemy_hits_with_ranged_weapons_only_on_a_6() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 6), "2.sprite-2": (5, 9)}
    state = table(placed, ap=(1, 3))
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    aim = (AttackWith("1.rifleman-1", RIFLE, "2.sprite-2"),)
    events, _ = given(after, Act(1, attacks=aim, dice=(5,)))
    (rolled,) = of(events, AttacksRolled)
    assert rolled.needed == (rules.RANGED_IN_MELEE,)
    assert of(events, AttackMissed)
    events, _ = given(after, Act(1, attacks=aim, dice=(6,)))
    assert of(events, AttackHit)


def test_w16_a_failed_die_may_be_re_rolled_once_for_1_ap() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.treant-1": (5, 9)}
    state = table(placed, ap=(3, 3))
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    aim = (AttackWith("1.rifleman-1", RIFLE, "2.treant-1"),)
    events, waiting = given(after, Act(1, attacks=aim, dice=(2,)))
    assert not of(events, AttackMissed)  # the owner decides first
    assert choices.legal_commands(waiting, 1) == (Reroll(1, 0), KeepDice(1))
    events, after = given(waiting, Reroll(1, 0, dice=(3,)))
    assert of(events, APLost) == [APLost(1, 1, 1, "re-roll")]
    assert of(events, DieRerolled) == [DieRerolled(0, 3)]
    assert of(events, AttackMissed)  # a re-rolled die is not re-rolled
    with pytest.raises(IllegalCommandError):
        given(waiting, Reroll(1, 1))


def test_w17_damage_doubles_when_effective_against_every_type_and_is_at_least_1() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.thorn-queen": (5, 9), "2.treant-1": (9, 9)}
    state = table(placed, ap=(1, 3))
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    queen = (AttackWith("1.rifleman-1", RIFLE, "2.thorn-queen"),)
    events, _ = given(after, Act(1, attacks=queen, dice=(5,)))
    assert of(events, AttackHit)[0].damage == 2 * 2 - 1  # Rifle vs Arcane: doubled
    treant = (AttackWith("1.rifleman-1", RIFLE, "2.treant-1"),)
    events, _ = given(after, Act(1, attacks=treant, dice=(5,)))
    assert of(events, AttackHit)[0].damage == 1  # vs Physical+Arcane: 2 - 2, at least 1


def test_w17_a_model_at_0_hp_is_removed_and_leaves_a_fallen_token() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 9), "2.sprite-2": (9, 9)}
    state = table(placed, ap=(1, 3))
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    events, after = given(
        after, Act(1, attacks=(AttackWith("1.rifleman-1", RIFLE, "2.sprite-1"),), dice=(5,))
    )
    assert of(events, Damaged) == [Damaged("2.sprite-1", 4, 0)]  # no type: always doubled
    assert of(events, ModelFell) == [ModelFell("2.sprite-1")]
    sprite = after.model("2.sprite-1")
    assert sprite is not None and sprite.fallen and sprite.at == (5, 9)


# --- W18, W19: deployment and the mission ------------------------------------------------------


def test_w18_the_roll_off_winner_deploys_first_in_rows_0_to_2_then_they_alternate() -> None:
    state = start()
    events, state = given(state, RollOff(1, dice=(3, 3, 2, 5)))
    assert of(events, FirstDeployerChosen) == [FirstDeployerChosen(2)]
    assert rules.deployer(state) == 2
    assert {at[1] for at in rules.deploy_zone(state, 2)} == {0, 1, 2}
    assert {at[1] for at in rules.deploy_zone(state, 1)} == {14, 15, 16}
    _, state = given(state, Deploy(2, "2.sprite-1", (0, 0)))
    assert rules.deployer(state) == 1
    with pytest.raises(IllegalCommandError):
        given(state, Deploy(1, "1.rifleman-1", (0, 0)))
    _, state = given(state, Deploy(1, "1.rifleman-1", (0, 16)))
    assert rules.deployer(state) == 2


def test_w18_the_side_with_models_left_places_the_rest_and_then_the_round_begins() -> None:
    state = start()
    _, state = given(state, RollOff(1, dice=(6, 1)))
    seats: list[int] = []
    while state.phase == "deploy":
        seat = rules.to_act(state)[0]
        seats.append(seat)
        tree = choices.legal_commands(state, seat)
        command = walk(tree, lambda asked, chosen: asked.options[0].key)
        assert isinstance(command, Deploy) and command in tree
        events, state = given(state, command)
        assert of(events, ModelDeployed)
    assert seats[:4] == [1, 2, 1, 2] and len(seats) == 20
    assert state.phase == "round"


def test_w19_an_objective_scores_for_more_models_within_2_at_the_end_of_rounds_2_to_5() -> None:
    placed = {
        "1.rifleman-1": (2, 6),
        "1.rifleman-2": (3, 6),
        "2.sprite-1": (2, 10),
        "2.sprite-2": (8, 10),
        "2.sprite-3": (8, 6),
    }
    state = table(placed, round=2, ap=(0, 0))
    # Both have no AP: ending anyone's turn ends the round (no one can act).
    state = at(state, 'sides={"0":{"out":true},"1":{"out":true}}')
    decision = rules._Decision(state, [], None)
    decision._end_round()
    scored = {e.at: e.seat for e in of(decision.events, ObjectiveScored)}
    assert scored == {(2, 8): 1, (8, 8): 2, (14, 8): None}  # (2, 8): 2 to 0; (8, 8): 0 to 2
    assert (decision.state.sides[0].vp, decision.state.sides[1].vp) == (1, 1)


def test_w19_after_round_5_fallen_enemy_leaders_score_and_most_vp_wins() -> None:
    placed = {"1.rifleman-1": (2, 6), "2.thorn-queen": (14, 14), "2.sprite-1": (15, 15)}
    state = table(placed, round=5, ap=(0, 0))
    state = at(
        state,
        'models={"2.thorn-queen":{"fallen":true}} sides={"0":{"out":true},"1":{"out":true}}',
    )
    decision = rules._Decision(state, [], None)
    decision._end_round()
    assert of(decision.events, LeadersScored) == [LeadersScored(1, 1, 1)]
    (ended,) = of(decision.events, MatchEnded)
    assert ended.winner == 1 and ended.vp == (2, 0)


def test_w19_equal_vp_go_to_more_models_on_the_board_then_a_draw() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (16, 16), "2.sprite-2": (15, 16)}
    state = table(placed, round=5)
    assert rules._final(state).winner == 2
    even = table({"1.rifleman-1": (0, 0), "2.sprite-1": (16, 16)}, round=5)
    assert rules._final(even).winner is None


def test_w19_a_player_with_no_models_loses_at_once() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 9)}
    state = table(placed, ap=(1, 3))
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    events, after = given(
        after, Act(1, attacks=(AttackWith("1.rifleman-1", RIFLE, "2.sprite-1"),), dice=(6,))
    )
    (ended,) = of(events, MatchEnded)
    assert ended.winner == 1 and "no models left" in ended.reason
    assert after.phase == "over"


# --- W20, W21: the deck and AP penalties ---------------------------------------------------------


def test_w20_the_environment_deck_draws_a_card_a_round_with_no_roll_off_and_none_twice() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (0, 16)}
    state = table(placed, phase="round", round=0, variants=("environment-deck",))
    state = at(state, f"deck={json.dumps(rules.full_deck())}")
    drawn = set()
    for number in range(1, 6):
        events, state = given(state, StartRound(1))
        assert not [e for e in of(events, RollOffRolled) if e.purpose == "environment"]
        (card,) = of(events, EnvironmentRolled)
        assert (card.seat, card.roll) not in drawn
        drawn.add((card.seat, card.roll))
        assert len(state.deck) == 12 - number
        state = at(state, "phase=round activation=null")


def test_w21_losing_ap_at_0_does_nothing_but_the_opponent_still_gains() -> None:
    placed = {"1.rifleman-1": (0, 0), "2.sprite-1": (0, 16)}
    state = table(placed, ap=(1, 3), environment=(1, 1))  # Overcast: lose 1 AP
    events, _ = given(state, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (1,)))
    assert [e for e in of(events, APLost) if e.reason != "activation"] == []
    gale = table(placed, ap=(1, 3), environment=(1, 6))  # Gale: the opponent gains 1 AP
    events, _after = given(gale, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (1,)))
    assert APGained(2, 1, 4, "the environment's penalty") in of(events, APGained)


# --- W24, W25, W30, W33-W36, W39, W40 ------------------------------------------------------------


def test_w30_a_rifle_hit_under_volley_on_the_thorn_queen_deals_4() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.thorn-queen": (5, 9), "2.sprite-1": (9, 9)}
    state = table(placed, ap=(1, 3))
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (4,)))
    events, _ = given(
        after, Act(1, attacks=(AttackWith("1.rifleman-1", RIFLE, "2.thorn-queen"),), dice=(4,))
    )
    assert of(events, AttackHit)[0].damage == 2 * 2 + 1 - 1


def test_w4_cover_adds_3_and_physical_to_the_target_of_a_ranged_attack() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.thorn-queen": (5, 9), "2.sprite-1": (5, 7)}
    state = table(placed, ap=(1, 3))  # the Sprite between gives the Queen cover
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    events, _ = given(
        after, Act(1, attacks=(AttackWith("1.rifleman-1", RIFLE, "2.thorn-queen"),), dice=(4,))
    )
    # [Arcane, Physical]: the Rifle (vs Arcane) no longer doubles; 2 - (1 + 3), at least 1.
    assert of(events, AttackHit)[0].damage == 1


def test_w33_an_attack_whose_target_fell_before_its_roll_is_lost() -> None:
    placed = {"2.sprite-1": (5, 5), "2.sprite-2": (5, 6), "1.rifleman-1": (6, 5)}
    state = table(placed, ap=(3, 1), active=2)
    _, after = given(state, Activate(2, ("2.sprite-1", "2.sprite-2"), "attack_move"))
    claws = (
        AttackWith("2.sprite-1", "Claws", "1.rifleman-1"),
        AttackWith("2.sprite-1", "Claws", "1.rifleman-1"),
    )
    events, _ = given(after, Act(2, attacks=claws, dice=(6, 6)))
    assert of(events, ModelFell) == [ModelFell("1.rifleman-1")]


def test_w34_cannot_attack_still_moves_twice_and_cannot_move_still_attacks() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 9), "2.sprite-2": (9, 9)}
    smog = table(placed, ap=(1, 3), environment=(1, 2))  # Smog: cannot attack
    _, after = given(smog, Activate(1, ("1.rifleman-1",), "move_twice", "volley", (1,)))
    given(after, Act(1, moves=(MoveTo("1.rifleman-1", (5, 1)),)))
    mud = table(placed, ap=(1, 3), environment=(1, 3))  # Mud: cannot move
    _, after = given(mud, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (1,)))
    given(after, Act(1, attacks=(AttackWith("1.rifleman-1", RIFLE, "2.sprite-1"),), dice=(3,)))


def test_w35_a_model_that_falls_to_a_penalty_leaves_the_others_activating() -> None:
    placed = {"1.rifleman-1": (5, 5), "1.rifleman-2": (5, 6), "2.sprite-1": (5, 12)}
    state = table(placed, ap=(1, 3), environment=(1, 4))  # Barrage: 1 damage each
    state = at(state, 'models={"1.rifleman-1":{"hp":1}}')
    events, after = given(
        state, Activate(1, ("1.rifleman-1", "1.rifleman-2"), "move_attack", "volley", (1,))
    )
    assert ModelFell("1.rifleman-1") in events
    assert after.activation is not None and not after.activation.acted
    given(after, Act(1, moves=(MoveTo("1.rifleman-2", (5, 8)),)))


def test_w19_w35_a_penalty_that_fells_the_side_s_last_model_ends_the_match() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 12)}
    state = table(placed, ap=(1, 3), environment=(1, 4))  # Barrage: 1 damage each
    state = at(state, 'models={"1.rifleman-1":{"hp":1}}')
    events, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (1,)))
    assert ModelFell("1.rifleman-1") in events
    assert of(events, MatchEnded) and after.phase == "over"


def test_w36_environment_knack_modifiers_never_touch_a_tactic_check() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 12)}
    gale = table(placed, environment=(1, 6))  # Gale: ranged knack +1
    events, _ = given(gale, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (4,)))
    assert of(events, TacticRolled) == [TacticRolled("volley", 4, 4, True)]


def test_w36_a_tactic_check_may_be_re_rolled() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 12)}
    state = table(placed, ap=(3, 3))
    events, waiting = given(state, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (2,)))
    assert not of(events, TacticResolved)
    events, _after = given(waiting, Reroll(1, 0, dice=(5,)))
    assert of(events, TacticResolved) == [TacticResolved("volley", True)]


def test_w39_overgrowth_does_not_slow_a_model_with_the_arcane_type() -> None:
    placed = {"2.treant-1": (5, 5), "2.sprite-1": (7, 5), "1.rifleman-1": (0, 16)}
    state = table(placed, environment=(2, 2), active=2)  # Overgrowth: Move -1 unless Arcane
    treant, sprite = state.model("2.treant-1"), state.model("2.sprite-1")
    assert treant is not None and sprite is not None
    assert rules.move_budget(state, treant, twice=False) == 3
    assert rules.move_budget(state, sprite, twice=False) == 5


def test_w40_ap_carry_over_without_limit() -> None:
    placed = {"1.commander": (0, 0), "2.sprite-1": (0, 16)}
    state = table(placed, phase="round", round=0, ap=(40, 0))
    _, after = given(state, StartRound(1, dice=(6, 1, 1)))
    assert after.sides[0].ap == 44


# --- the trees of choices -------------------------------------------------------------------------


def test_the_activation_tree_builds_every_formation_and_nothing_else() -> None:
    placed = {
        "1.rifleman-1": (0, 0),
        "1.rifleman-2": (1, 0),
        "1.heavy-gunner-1": (2, 0),
        "1.commander": (3, 0),
        "2.sprite-1": (0, 16),
    }
    state = table(placed)
    tree = choices.legal_commands(state, 1)
    every = listed(tree, 10_000)
    assert every is not None
    formations = {frozenset(c.models) for c in every if isinstance(c, Activate)}
    assert frozenset({"1.rifleman-1", "1.heavy-gunner-1"}) not in formations
    assert (
        frozenset({"1.rifleman-1", "1.rifleman-2", "1.heavy-gunner-1", "1.commander"}) in formations
    )
    assert frozenset({"1.heavy-gunner-1", "1.commander"}) in formations
    assert Pass(1) in every
    for command in every:
        assert command in tree
        given(state, command)


def test_the_act_tree_builds_only_legal_acts_and_a_formation_that_ends_connected() -> None:
    placed = {
        "1.rifleman-1": (4, 3),
        "1.rifleman-2": (5, 3),
        "1.rifleman-3": (6, 3),
        "2.sprite-1": (5, 9),
    }
    state = table(placed)
    _, after = given(
        state, Activate(1, ("1.rifleman-1", "1.rifleman-2", "1.rifleman-3"), "move_attack")
    )
    tree = choices.legal_commands(after, 1)
    import random

    rng = random.Random(5)
    for _ in range(40):
        command = random_command(tree, rng)
        assert isinstance(command, Act) and command in tree
        given(after, command)


def test_an_act_that_is_not_well_formed_is_refused() -> None:
    placed = {"1.rifleman-1": (5, 5), "2.sprite-1": (5, 9)}
    state = table(placed)
    _, after = given(state, Activate(1, ("1.rifleman-1",), "move_attack"))
    with pytest.raises(IllegalCommandError, match="no weapon"):
        given(after, Act(1, attacks=(AttackWith("1.rifleman-1", "Lance", "2.sprite-1"),)))
    with pytest.raises(InvalidCommandError):
        given(after, Act(1, attacks=(AttackWith("1.rifleman-1", RIFLE, "2.sprite-1"),), dice=(9,)))
    with pytest.raises(IllegalCommandError):
        given(after, Activate(1, ("1.rifleman-1",), "move_attack"))


# --- W1, W22, W27, W29 -------------------------------------------------------------------------


def test_w1_a_17_by_17_grid_with_one_model_a_square() -> None:
    state = start()
    assert (state.game_map.width, state.game_map.height) == (17, 17)
    placed = {"1.rifleman-1": (6, 2), "1.rifleman-2": (7, 2), "2.sprite-1": (0, 16)}
    after = given(table(placed), Activate(1, ("1.rifleman-1", "1.rifleman-2"), "move_attack"))[1]
    both = (MoveTo("1.rifleman-1", (6, 4)), MoveTo("1.rifleman-2", (6, 4)))
    with pytest.raises(IllegalCommandError, match="one square"):
        given(after, Act(1, moves=both))


def test_w22_abilities_and_conditions_are_not_in_the_first_build() -> None:
    from multiversus_core.engine.errors import DataFileError
    from multiversus_core.rulesets.worlds_collide.content import decode_faction

    path = Path(__file__).resolve().parent.parent / "src/multiversus_core/rulesets"
    text = (path / "worlds_collide/data/factions/wyldfae.toml").read_text()
    with_ability = text.replace('name = "Wyldfae"', 'name = "Wyldfae"\nabilities = ["hex"]', 1)
    with pytest.raises(DataFileError, match="abilities"):
        decode_faction(with_ability.encode(), "wyldfae.toml")


def test_w27_squares_are_column_and_row_from_0_at_the_top_left() -> None:
    game_map = start().game_map
    assert game_map.square((12, 3)) == ":" and game_map.square((3, 3)) == "#"
    assert game_map.square((2, 8)) == "O"
    assert square_name((2, 3)) == "c4"


def test_w29_a_player_out_of_the_round_stays_out_even_if_it_gains_ap() -> None:
    placed = {"1.rifleman-1": (5, 5), "1.rifleman-2": (9, 5), "2.sprite-1": (5, 12)}
    state = table(placed, ap=(3, 0), active=2, environment=(1, 6))  # Gale: opponent +1 AP
    events, after = given(state, Pass(2))
    assert after.sides[1].out and after.active == 1
    events, after = given(after, Activate(1, ("1.rifleman-1",), "move_attack", "volley", (1,)))
    events, after = given(after, KeepDice(1))
    assert APGained(2, 1, 1, "the environment's penalty") in events
    _, after = given(after, Act(1))
    assert after.sides[1].out and after.active == 1  # still Ann's: Bob stays out
