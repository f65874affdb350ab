"""The bundled teams' abilities, win conditions and set-up secrets (rulebook: Abilities,
Standard Abilities, Scoring; R1, R8, R9, R11, R20, R23).

Each test is named for the ability it proves. Given a match set up with the
teams in play and the figures placed where the test needs them (every other
figure off the board), when a figure uses or triggers the ability, then the
events its hook emits are exactly these.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from multiversus_core import (
    AfterAttack,
    Attack,
    BlockForcedMove,
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    DeclineReaction,
    EndAction,
    FlipForSetUp,
    MatchSettings,
    MatchState,
    React,
    RollInitiative,
    SelectCoins,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
    legal_commands,
    start_match,
)
from multiversus_core.rulesets.multiversus.abilities import REGISTRY
from multiversus_core.rulesets.multiversus.catalog import bundled_teams
from multiversus_core.rulesets.multiversus.events import (
    AttackMade,
    BlockChosen,
    ConditionChanged,
    FigureMoved,
    FigureStepped,
    ForcedMoveHeld,
    ForcedStopChosen,
    MatchEnded,
    ReactionTriggered,
    RoundEnded,
    SecretChosen,
    SecretRevealed,
    StuntFailed,
    StuntPerformed,
)
from multiversus_core.rulesets.multiversus.geometry import figure_squares
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS, final_result
from multiversus_core.rulesets.multiversus.setup import next_secret
from multiversus_core.rulesets.multiversus.state import ForcedMove
from multiversus_core.rulesets.multiversus.terms import ActionKind, Condition, Side, Square
from tests.positions import at
from tests.support import play, play_passing, seat, unsalted, when, when_passing

N, E, S, W = (0, -1), (1, 0), (0, 1), (-1, 0)


def match(
    heroes: str = "banner-knight",
    adversaries: str = "smogon",
    *,
    secrets: Mapping[str, str] | None = None,
    starting: Side = "heroes",
) -> MatchState:
    """Round 1 of a match, seat 1 playing the Heroes, with the given set-up secrets chosen."""
    chosen = dict(secrets or {})
    state = start_match(MatchSettings(heroes=heroes, adversaries=adversaries, seed=3))
    state = play_passing(state, FlipForSetUp(player=1, winner=1))
    (teams,) = [c for c in legal_commands(state, 1) if isinstance(c, ChooseTeams)]
    state = play_passing(
        state,
        teams,
        ChooseStartingTeam(player=1, side=starting),
        ChooseSide(player=2, side="adversaries"),
    )
    while state.pending == "secret":
        offer = next_secret(state)
        assert offer is not None
        choice = chosen.get(offer.name, offer.options[0])
        state = play_passing(
            state, ChooseSecret(player=seat(state), name=offer.name, choice=choice)
        )
    return state


def only(
    state: MatchState,
    squares: Mapping[str, Square],
    conditions: Mapping[str, Condition] | None = None,
) -> MatchState:
    """The state with just these figures on the board, where given; every other is off it."""
    conditions = conditions or {}
    figures = {
        f.id: {
            "square": list(squares[f.id]) if f.id in squares else None,
            "condition": conditions.get(f.id, f.condition),
        }
        for f in state.figures
    }
    result: MatchState = at(state, "figures=" + json.dumps(figures, separators=(",", ":")))
    return result


def all_revealed(state: MatchState) -> MatchState:
    """The state with every set-up secret revealed."""
    every = {str(i): {"revealed": True} for i in range(len(state.secrets))}
    result: MatchState = at(state, "secrets=" + json.dumps(every))
    return result


def act(state: MatchState, unit: str, actions: tuple[ActionKind, ...], defender: str) -> MatchState:
    """The active player selects ``unit`` and ``actions``; the other side's ``defender`` unit
    selects a Defend reaction, which offers nothing but attacks on that unit (R5)."""
    state = play_passing(
        state, SelectCoins(player=seat(state), unit=unit, colour="green", actions=actions)
    )
    return play_passing(
        state,
        SelectReaction(player=seat(state), unit=defender, colour="green", actions=("defend",)),
    )


def hit(attacker: str, target: str, *, advantage: bool = False) -> AttackMade:
    return AttackMade(
        attacker=attacker, target=target, advantage=advantage, defended=False, hit=True
    )


def wounded(figure: str) -> ConditionChanged:
    return ConditionChanged(figure=figure, condition="wounded")


def test_every_bundled_ability_has_a_test_here_named_for_it() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    names = {a for team in bundled_teams() for unit in team.units for a in unit.abilities}
    assert names <= set(REGISTRY)
    for name in names:
        slug = "test_" + name.lower().replace("'", "").replace(" ", "_")
        assert slug in source, f"no test named for {name}"


# --- standard abilities ---------------------------------------------------------------


def test_ranged_the_witch_hunter_attacks_any_character_in_line_of_sight() -> None:
    state = only(
        match("witch-hunters", "swartzblak"),
        {"hunter": (4, 9), "cats-1": (4, 5), "cats-2": (0, 0), "grimalkin": (9, 0)},
    )
    state = act(state, "hunter", ("attack",), "grimalkin")
    targets = {c.target for c in legal_commands(state, 1) if isinstance(c, Attack)}
    # Cat 2 at (0,0) is not on a line from (4,9); Grimalkin at (9,0) is not either.
    assert targets == {"cats-1"}


def test_large_smogon_takes_up_four_spaces() -> None:
    smogon = match().figure("smogon")
    assert smogon.size == "large"
    assert figure_squares(smogon) == ((4, 0), (5, 0), (4, 1), (5, 1))


def test_drifting_clouds_take_move_actions_but_never_attack() -> None:
    state = match(starting="adversaries")
    clouds = {
        c.actions
        for c in legal_commands(state, 2)
        if isinstance(c, SelectCoins) and c.unit == "clouds"
    }
    assert clouds == {("move",), ("move", "move")}


def test_drifting_clouds_never_react() -> None:
    # The Clouds are selected to react; the Knight steps away from a Cloud beside it.
    # No trigger concerns them (they are not characters), so nothing is offered.
    squares = {"knight": (4, 7), "clouds-1": (4, 6), "smogon": (0, 0), "bruisers-1": (9, 0)}
    state = only(match(), squares)
    state = play(state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    state = play(state, SelectReaction(player=2, unit="clouds", colour="green", actions=("move",)))
    assert when(state, Step(player=1, figure="knight", direction=S)) == (
        FigureStepped(figure="knight", to=(4, 8), steps_left=2),
    )


# --- The Order of the Banner ----------------------------------------------------------


def test_rally_lifts_every_other_adjacent_ally_one_step() -> None:
    # Given the Squire (Wounded) and Militia 1 (Disabled) beside the knight, Militia 2 not.
    state = only(
        match(),
        {
            "knight": (4, 7),
            "squire": (3, 7),
            "militia-1": (5, 8),
            "militia-2": (7, 7),
            "smogon": (0, 0),
        },
        {"squire": "wounded", "militia-1": "disabled", "militia-2": "wounded"},
    )
    state = act(state, "knight", ("stunt",), "smogon")
    # When the Banner Knight Rallies, then the two beside him recover one step each.
    assert when_passing(state, Stunt(player=1, figure="knight", ability="Rally")) == (
        StuntPerformed(figure="knight", ability="Rally", target=None),
        ConditionChanged(figure="squire", condition="unharmed"),
        ConditionChanged(figure="militia-1", condition="wounded"),
    )


def _squire_attacked(knight: Square) -> MatchState:
    state = only(
        match(starting="adversaries"),
        {"squire": (4, 7), "knight": knight, "bruisers-1": (4, 6), "militia-1": (0, 9)},
    )
    return act(state, "bruisers", ("attack",), "militia")


def test_under_the_banner_the_adjacent_champion_takes_the_blow() -> None:
    state = _squire_attacked(knight=(5, 7))
    assert when_passing(state, Attack(player=2, attacker="bruisers-1", target="squire")) == (
        hit("bruisers-1", "squire"),
        wounded("squire"),
        ConditionChanged(figure="squire", condition="unharmed"),
        wounded("knight"),
    )


def test_under_the_banner_needs_the_champion_adjacent() -> None:
    state = _squire_attacked(knight=(6, 7))
    assert when_passing(state, Attack(player=2, attacker="bruisers-1", target="squire")) == (
        hit("bruisers-1", "squire"),
        wounded("squire"),
    )


def test_under_the_banner_cannot_save_the_squire_from_an_eliminating_hit() -> None:
    state = only(
        match(starting="adversaries"),
        {"squire": (4, 7), "knight": (5, 7), "bruisers-1": (4, 6), "militia-1": (0, 9)},
        {"squire": "disabled"},
    )
    state = act(state, "bruisers", ("attack",), "militia")
    assert when_passing(state, Attack(player=2, attacker="bruisers-1", target="squire")) == (
        hit("bruisers-1", "squire"),
        ConditionChanged(figure="squire", condition="eliminated"),
    )


def test_under_the_banner_one_step_whatever_the_attackers_ability_added() -> None:
    # Three goblins beside the squire (one ally): Gang Up harms him one step more.
    squares = {
        "squire": (4, 7),
        "knight": (5, 8),
        "goblins-1": (4, 6),
        "goblins-2": (3, 7),
        "goblins-3": (3, 6),
        "militia-1": (0, 9),
    }
    state = only(_goblins(starting="adversaries"), squares)
    state = act(state, "goblins", ("attack",), "militia")
    assert when_passing(state, Attack(player=2, attacker="goblins-1", target="squire")) == (
        hit("goblins-1", "squire", advantage=True),
        wounded("squire"),
        ConditionChanged(figure="squire", condition="disabled"),  # Gang Up
        wounded("squire"),  # Under the Banner: one step back
        wounded("knight"),  # and one step on the Champion
    )


@pytest.mark.parametrize("beside", [True, False])
def test_hold_the_line_pushes_the_attacker_back_from_a_militia_beside_another(
    beside: bool,
) -> None:
    squares = {"militia-1": (4, 7), "bruisers-1": (4, 6), "knight": (0, 9)}
    if beside:
        squares["militia-2"] = (5, 7)
    state = act(only(match(starting="adversaries"), squares), "bruisers", ("attack",), "knight")
    events = when_passing(state, Attack(player=2, attacker="bruisers-1", target="militia-1"))
    pushed = (FigureMoved(figure="bruisers-1", to=(4, 5), how="push"),) if beside else ()
    assert events == (hit("bruisers-1", "militia-1"), wounded("militia-1"), *pushed)


def test_hold_the_line_a_militiaman_eliminated_by_the_hit_pushes_no_one() -> None:
    squares = {"militia-1": (4, 7), "militia-2": (5, 7), "bruisers-1": (4, 6), "knight": (0, 9)}
    state = only(match(starting="adversaries"), squares, {"militia-1": "disabled"})
    state = act(state, "bruisers", ("attack",), "knight")
    events = when_passing(state, Attack(player=2, attacker="bruisers-1", target="militia-1"))
    assert events == (
        hit("bruisers-1", "militia-1"),
        ConditionChanged(figure="militia-1", condition="eliminated"),
    )


def test_hold_the_line_r20_a_one_space_push_into_an_ally_is_blocked_without_asking() -> None:
    squares = {
        "militia-1": (4, 7),
        "militia-2": (5, 7),
        "bruisers-1": (4, 6),
        "bruisers-2": (4, 5),  # behind the attacker
        "knight": (0, 9),
    }
    state = act(only(match(starting="adversaries"), squares), "bruisers", ("attack",), "knight")
    events = when_passing(state, Attack(player=2, attacker="bruisers-1", target="militia-1"))
    assert events == (hit("bruisers-1", "militia-1"), wounded("militia-1"))


# --- Smogon and the Dragonkith ------------------------------------------------------


def test_smoke_breath_harms_enemies_beside_smogon_or_in_and_beside_a_cloud() -> None:
    state = only(
        match(starting="adversaries"),
        {
            "smogon": (4, 0),
            "knight": (4, 2),  # beside Smogon
            "squire": (6, 1),  # beside Smogon, already Disabled
            "clouds-1": (8, 7),
            "militia-1": (8, 7),  # inside the Cloud
            "militia-2": (9, 8),  # beside the Cloud
            "militia-3": (0, 9),  # out of the smoke
        },
        {"squire": "disabled"},
    )
    state = act(state, "smogon", ("stunt", "stunt"), "militia")
    assert [c for c in legal_commands(state, 2) if isinstance(c, Stunt)] == [
        Stunt(player=2, figure="smogon", ability="Smoke Breath")
    ]
    assert when_passing(state, Stunt(player=2, figure="smogon", ability="Smoke Breath")) == (
        StuntPerformed(figure="smogon", ability="Smoke Breath", target=None),
        wounded("knight"),
        wounded("militia-1"),
        wounded("militia-2"),
    )


def test_drag_to_the_wyrm_pulls_adjacent_enemies_toward_smogon() -> None:
    state = only(
        match(starting="adversaries"),
        {
            "smogon": (0, 0),
            "bruisers-1": (5, 2),
            "knight": (5, 3),
            "militia-1": (6, 2),
            "squire": (0, 9),
        },
    )
    state = act(state, "bruisers", ("stunt",), "squire")
    assert when_passing(
        state, Stunt(player=2, figure="bruisers-1", ability="Drag to the Wyrm")
    ) == (
        StuntPerformed(figure="bruisers-1", ability="Drag to the Wyrm", target=None),
        FigureMoved(figure="knight", to=(4, 2), how="pull"),
        FigureMoved(figure="militia-1", to=(5, 1), how="pull"),
    )


def test_drag_to_the_wyrm_r20_a_one_space_pull_into_an_ally_is_blocked_without_asking() -> None:
    squares = {
        "smogon": (0, 4),
        "bruisers-1": (5, 2),
        "knight": (5, 1),  # pulled south-west, into the squire: it blocks
        "squire": (4, 2),  # pulled after the knight, in roster order
        "militia-1": (0, 9),
    }
    state = act(only(match(starting="adversaries"), squares), "bruisers", ("stunt",), "militia")
    assert when_passing(
        state, Stunt(player=2, figure="bruisers-1", ability="Drag to the Wyrm")
    ) == (
        StuntPerformed(figure="bruisers-1", ability="Drag to the Wyrm", target=None),
        FigureMoved(figure="squire", to=(3, 3), how="pull"),
    )


def test_drag_to_the_wyrm_moves_enemies_one_at_a_time_in_roster_order() -> None:
    # The Knight (first in the roster) would be pulled into the squire's space, which the
    # squire's own pull then frees: one at a time, the Knight is blocked and stays.
    squares = {"smogon": (0, 6), "bruisers-1": (5, 7), "knight": (5, 8), "squire": (4, 7)}
    squares["militia-1"] = (9, 9)
    state = act(only(match(starting="adversaries"), squares), "bruisers", ("stunt",), "militia")
    assert when_passing(
        state, Stunt(player=2, figure="bruisers-1", ability="Drag to the Wyrm")
    ) == (
        StuntPerformed(figure="bruisers-1", ability="Drag to the Wyrm", target=None),
        FigureMoved(figure="squire", to=(3, 7), how="pull"),
    )


@pytest.mark.parametrize(("other_cloud", "stops"), [(None, (0, 1, 2)), ((7, 7), (0, 1))])
def test_billowing_blows_a_cloud_up_to_two_spaces_away_and_the_blower_may_stop_short(
    other_cloud: Square | None, stops: tuple[int, ...]
) -> None:
    squares = {"militia-1": (4, 7), "clouds-1": (5, 7), "smogon": (0, 0)}
    if other_cloud is not None:
        squares["clouds-2"] = other_cloud  # terrain never shares a space with terrain
    state = act(only(match(), squares), "militia", ("stunt",), "smogon")
    blow = ForcedMove(figure="clouds-1", how="push", direction=E, distance=2, up_to="heroes")
    assert when_passing(state, Stunt(player=1, figure="militia-1", target="clouds-1")) == (
        StuntPerformed(figure="militia-1", ability=None, target="clouds-1"),
        ForcedMoveHeld(side="heroes", move=blow, ally=None),
    )
    state = play_passing(state, Stunt(player=1, figure="militia-1", target="clouds-1"))
    assert legal_commands(state, 1) == tuple(StopForcedMove(player=1, spaces=k) for k in stops)
    assert legal_commands(state, 2) == ()
    far = stops[-1]
    assert when(state, StopForcedMove(player=1, spaces=far)) == (
        ForcedStopChosen(side="heroes", figure="clouds-1", spaces=far),
        FigureMoved(figure="clouds-1", to=(5 + far, 7), how="push"),
    )
    assert when(state, StopForcedMove(player=1, spaces=0)) == (
        ForcedStopChosen(side="heroes", figure="clouds-1", spaces=0),
    )


def test_billowing_the_adversaries_choose_how_far_when_their_character_blows() -> None:
    squares = {"bruisers-1": (4, 7), "clouds-1": (5, 7), "knight": (0, 9)}
    state = act(only(match(starting="adversaries"), squares), "bruisers", ("stunt",), "knight")
    state = play_passing(state, Stunt(player=2, figure="bruisers-1", target="clouds-1"))
    assert state.pending == "forced"
    assert legal_commands(state, 2) == tuple(StopForcedMove(player=2, spaces=k) for k in (0, 1, 2))


@pytest.mark.parametrize("in_the_way", ["bruisers-1", "knight"])
def test_billowing_r26_a_cloud_stops_before_a_character_of_either_side(in_the_way: str) -> None:
    # A Cloud is not blocking, yet a moved terrain piece never enters a character's space.
    squares = {"militia-1": (4, 7), "clouds-1": (5, 7), in_the_way: (7, 7), "smogon": (0, 0)}
    if in_the_way == "bruisers-1":
        squares["knight"] = (0, 9)
    state = act(only(match(), squares), "militia", ("stunt",), "smogon")
    state = play_passing(state, Stunt(player=1, figure="militia-1", target="clouds-1"))
    assert legal_commands(state, 1) == tuple(StopForcedMove(player=1, spaces=k) for k in (0, 1))
    # and a cloud has no allied characters, so nobody is asked to block it (R20)
    assert not any(isinstance(c, BlockForcedMove) for c in legal_commands(state, 2))
    assert when(state, StopForcedMove(player=1, spaces=1))[-1] == FigureMoved(
        figure="clouds-1", to=(6, 7), how="push"
    )


# --- The Witch Hunters ---------------------------------------------------------------


def _hunters(shapeshifter: str = "cats-2", kit: str = "holy-water") -> MatchState:
    secrets = {"hunters-kit": kit, "shapeshifter": shapeshifter}
    return match("witch-hunters", "swartzblak", secrets=secrets)


def test_silver_bullets_reveal_the_shapeshifter_and_harm_it_one_step_more() -> None:
    state = only(_hunters(), {"hunter": (4, 9), "cats-2": (4, 5), "grimalkin": (9, 0)})
    state = act(state, "hunter", ("attack",), "grimalkin")
    assert unsalted(when_passing(state, Attack(player=1, attacker="hunter", target="cats-2"))) == (
        hit("hunter", "cats-2"),
        wounded("cats-2"),
        SecretRevealed(side="adversaries", name="shapeshifter", choice="cats-2"),
        ConditionChanged(figure="cats-2", condition="disabled"),
    )


def test_silver_bullets_harm_the_shapeshifter_one_step_more_once_revealed_too() -> None:
    state = only(_hunters(), {"hunter": (4, 9), "cats-2": (4, 5), "grimalkin": (9, 0)})
    state = all_revealed(state)
    state = act(state, "hunter", ("attack",), "grimalkin")
    assert unsalted(when_passing(state, Attack(player=1, attacker="hunter", target="cats-2"))) == (
        hit("hunter", "cats-2"),
        wounded("cats-2"),
        ConditionChanged(figure="cats-2", condition="disabled"),
    )


@pytest.mark.parametrize(
    ("hunter", "cat"), [((4, 9), "cats-1"), ((4, 6), "cats-2")], ids=["ordinary", "melee"]
)
def test_silver_bullets_are_wasted_on_an_ordinary_cat_and_need_a_ranged_attack(
    hunter: Square, cat: str
) -> None:
    state = only(_hunters(), {"hunter": hunter, cat: (4, 5), "grimalkin": (9, 0)})
    state = act(state, "hunter", ("attack",), "grimalkin")
    assert when_passing(state, Attack(player=1, attacker="hunter", target=cat)) == (
        hit("hunter", cat),
        wounded(cat),
    )


def test_silver_bullets_disable_a_wounded_beast_without_advantage() -> None:
    state = only(
        match("witch-hunters", "smogon"),
        {"hunter": (4, 9), "smogon": (4, 0), "bruisers-1": (9, 0)},
        {"smogon": "wounded"},
    )
    state = act(state, "hunter", ("attack",), "bruisers")
    assert when_passing(state, Attack(player=1, attacker="hunter", target="smogon")) == (
        hit("hunter", "smogon"),
        ConditionChanged(figure="smogon", condition="disabled"),
    )


def _kit(kit: str, squares: dict[str, Square], conditions: dict[str, Condition]) -> MatchState:
    state = only(_hunters(kit=kit), {**squares, "grimalkin": (9, 0)}, conditions)
    return act(state, "hunter", ("stunt",), "grimalkin")


def test_hunters_kit_holy_water_wounds_adjacent_unharmed_enemies_and_reveals_the_kit() -> None:
    squares = {"hunter": (4, 6), "cats-1": (4, 5), "cats-2": (5, 5), "cats-3": (3, 6)}
    state = _kit("holy-water", squares, {"cats-3": "wounded"})
    revealed = SecretRevealed(side="heroes", name="hunters-kit", choice="holy-water")
    events = (
        StuntPerformed(figure="hunter", ability="Hunter's Kit", target=None),
        revealed,
        wounded("cats-1"),
        wounded("cats-2"),
    )
    stunt = Stunt(player=1, figure="hunter", ability="Hunter's Kit")
    assert unsalted(when_passing(state, stunt)) == events
    # Once revealed, a later use reveals nothing again.
    again = all_revealed(state)
    after = unsalted(when_passing(again, stunt))
    assert revealed not in after and wounded("cats-1") in after


def test_hunters_kit_smelling_salts_lift_the_hunter_and_adjacent_allies() -> None:
    state = _kit(
        "smelling-salts",
        {"hunter": (4, 6), "villagers-1": (4, 7), "hound": (8, 9)},
        {"hunter": "wounded", "villagers-1": "disabled", "hound": "wounded"},
    )
    stunt = Stunt(player=1, figure="hunter", ability="Hunter's Kit")
    assert unsalted(when_passing(state, stunt)) == (
        StuntPerformed(figure="hunter", ability="Hunter's Kit", target=None),
        SecretRevealed(side="heroes", name="hunters-kit", choice="smelling-salts"),
        ConditionChanged(figure="hunter", condition="unharmed"),
        ConditionChanged(figure="villagers-1", condition="wounded"),
    )


def test_hunters_kit_grapnel_slides_the_hunter_up_to_three_spaces_and_he_may_stop_short() -> None:
    state = _kit("grapnel", {"hunter": (4, 5), "cats-1": (4, 4), "cats-2": (0, 0)}, {})
    stunt = Stunt(player=1, figure="hunter", ability="Hunter's Kit")
    slide = ForcedMove(figure="hunter", how="slide", direction=S, distance=3, up_to="heroes")
    assert unsalted(when_passing(state, stunt)) == (
        StuntPerformed(figure="hunter", ability="Hunter's Kit", target=None),
        SecretRevealed(side="heroes", name="hunters-kit", choice="grapnel"),
        ForcedMoveHeld(side="heroes", move=slide, ally=None),
    )
    state = play_passing(state, stunt)
    assert legal_commands(state, 1) == tuple(StopForcedMove(player=1, spaces=k) for k in range(4))
    assert when(state, StopForcedMove(player=1, spaces=2)) == (
        ForcedStopChosen(side="heroes", figure="hunter", spaces=2),
        FigureMoved(figure="hunter", to=(4, 7), how="slide"),
    )


def test_hunters_kit_grapnel_r20_an_ally_in_the_way_blocks_or_lets_the_hunter_through() -> None:
    squares = {"hunter": (4, 6), "cats-1": (4, 5), "villagers-1": (4, 7), "cats-2": (0, 0)}
    state = _kit("grapnel", squares, {})
    state = play_passing(state, Stunt(player=1, figure="hunter", ability="Hunter's Kit"))
    slide = ForcedMove(figure="hunter", how="slide", direction=S, distance=3, up_to="heroes")
    assert state.activation is not None and state.activation.forced is not None
    assert state.activation.forced.ally == "villagers-1"
    assert legal_commands(state, 1) == (
        BlockForcedMove(player=1, ally="villagers-1", block=True),
        BlockForcedMove(player=1, ally="villagers-1", block=False),
    )
    # Blocked at once, the hunter cannot move, so there is nothing left to choose.
    assert when(state, BlockForcedMove(player=1, ally="villagers-1", block=True)) == (
        BlockChosen(side="heroes", ally="villagers-1", figure="hunter", block=True),
    )
    # Let through, he may stop beyond the villager, never on him.
    through = replace(slide, let_through=("villagers-1",))
    assert when(state, BlockForcedMove(player=1, ally="villagers-1", block=False)) == (
        BlockChosen(side="heroes", ally="villagers-1", figure="hunter", block=False),
        ForcedMoveHeld(side="heroes", move=through, ally=None),
    )
    state = play(state, BlockForcedMove(player=1, ally="villagers-1", block=False))
    assert legal_commands(state, 1) == tuple(StopForcedMove(player=1, spaces=k) for k in (0, 2, 3))


@pytest.mark.parametrize(
    ("enemies", "direction"),
    [
        ({"cats-1": (6, 4), "cats-2": (4, 3)}, (-1, 1)),  # king's moves: cats-1 is nearer
        ({"cats-2": (4, 4), "cats-3": (6, 4)}, S),  # a tie: cats-2 comes first in the roster
    ],
    ids=["kings-moves", "tie"],
)
def test_hunters_kit_grapnel_nearest_counts_kings_moves_and_a_tie_goes_to_roster_order(
    enemies: dict[str, Square], direction: tuple[int, int]
) -> None:
    state = _kit("grapnel", {"hunter": (4, 6), **enemies}, {})
    state = play_passing(state, Stunt(player=1, figure="hunter", ability="Hunter's Kit"))
    assert state.activation is not None and state.activation.forced is not None
    assert state.activation.forced.move.direction == direction


def test_hunters_kit_grapnel_the_slide_is_not_a_step_and_triggers_nothing() -> None:
    # The cat beside the hunter may react to the stunt; the slide away raises nothing more.
    state = only(_hunters(kit="grapnel"), {"hunter": (4, 6), "cats-1": (4, 5), "grimalkin": (9, 0)})
    state = play(state, SelectCoins(player=1, unit="hunter", colour="green", actions=("stunt",)))
    state = play(state, SelectReaction(player=2, unit="cats", colour="green", actions=("move",)))
    state = play(state, Stunt(player=1, figure="hunter", ability="Hunter's Kit"))
    assert state.pending == "offer"  # performing a stunt in range of the cat
    state = play(state, DeclineReaction(player=2))
    events = when(state, StopForcedMove(player=1, spaces=3))
    assert FigureMoved(figure="hunter", to=(4, 9), how="slide") in events
    assert not any(isinstance(e, ReactionTriggered) for e in events)


def test_hunters_kit_a_use_that_fails_under_an_attack_reaction_reveals_nothing() -> None:
    state = only(
        _hunters(kit="holy-water"), {"hunter": (4, 6), "cats-1": (4, 5), "grimalkin": (9, 0)}
    )
    state = play(state, SelectCoins(player=1, unit="hunter", colour="green", actions=("stunt",)))
    state = play(state, SelectReaction(player=2, unit="cats", colour="green", actions=("attack",)))
    state = play(state, Stunt(player=1, figure="hunter", ability="Hunter's Kit"))
    state = play(state, React(player=2), Attack(player=2, attacker="cats-1", target="hunter"))
    state = play(state, AfterAttack(player=2, choice="stay"))
    events = when(state, EndAction(player=2))
    assert StuntFailed(side="heroes", unit="hunter") in events
    assert not any(isinstance(e, SecretRevealed) for e in events)
    state = play(state, EndAction(player=2))
    (kit,) = [s for s in state.secrets if s.name == "hunters-kit"]
    assert not kit.revealed
    assert state.figure("cats-1").condition == "unharmed"  # the holy water was never thrown


def test_fleet_grete_moves_four_spaces() -> None:
    state = act(
        only(_hunters(), {"hound": (4, 9), "grimalkin": (9, 0)}), "hound", ("move",), "grimalkin"
    )
    assert when_passing(state, Step(player=1, figure="hound", direction=N)) == (
        FigureStepped(figure="hound", to=(4, 8), steps_left=3),
    )


def test_keen_nose_reveals_the_shapeshifter_even_when_the_bite_misses() -> None:
    state = only(_hunters(), {"hound": (4, 6), "cats-2": (4, 5)})
    state = act(state, "hound", ("attack",), "cats")
    state = play(state, Attack(player=1, attacker="hound", target="cats-2"))  # offers Defend
    events = when(state, React(player=2))
    assert (
        AttackMade(attacker="hound", target="cats-2", advantage=False, defended=True, hit=False)
        in events
    )
    assert unsalted(events)[-1] == SecretRevealed(
        side="adversaries", name="shapeshifter", choice="cats-2"
    )


def test_keen_nose_finds_nothing_on_an_ordinary_cat() -> None:
    state = only(_hunters(), {"hound": (4, 6), "cats-1": (4, 5), "grimalkin": (9, 0)})
    state = act(state, "hound", ("attack",), "grimalkin")
    events = when_passing(state, Attack(player=1, attacker="hound", target="cats-1"))
    assert not any(isinstance(e, SecretRevealed) for e in events)


def test_torches_push_every_adjacent_enemy_one_space_away() -> None:
    state = only(
        _hunters(), {"villagers-1": (4, 7), "grimalkin": (3, 8), "cats-1": (4, 6), "cats-2": (9, 0)}
    )
    state = act(state, "villagers", ("stunt",), "cats")
    assert when_passing(state, Stunt(player=1, figure="villagers-1", ability="Torches")) == (
        StuntPerformed(figure="villagers-1", ability="Torches", target=None),
        FigureMoved(figure="grimalkin", to=(2, 9), how="push"),
        FigureMoved(figure="cats-1", to=(4, 5), how="push"),
    )


def test_torches_r20_a_one_space_push_into_an_ally_is_blocked_without_asking() -> None:
    # Letting cats-2 through would leave cats-1 on it (R19, R20): it blocks.
    squares = {"villagers-1": (4, 7), "cats-1": (4, 6), "cats-2": (4, 5), "grimalkin": (9, 0)}
    state = act(only(_hunters(), squares), "villagers", ("stunt",), "grimalkin")
    assert when_passing(state, Stunt(player=1, figure="villagers-1", ability="Torches")) == (
        StuntPerformed(figure="villagers-1", ability="Torches", target=None),
    )


# --- The Feral Cats of Swartzblak -------------------------------------------------------


def _cats(starting: Side = "heroes") -> MatchState:
    return match(
        "banner-knight", "swartzblak", secrets={"shapeshifter": "cats-2"}, starting=starting
    )


def test_evil_eye_wounds_the_nearest_unharmed_enemy_in_sight() -> None:
    state = only(
        _cats(starting="adversaries"),
        {
            "grimalkin": (4, 1),
            "squire": (4, 3),  # nearest, but already Wounded
            "cats-1": (3, 1),
            "militia-2": (2, 1),  # nearer, but the cat hides it
            "militia-1": (7, 1),  # the nearest Unharmed one in sight
            "knight": (4, 6),
        },
        {"squire": "wounded"},
    )
    state = act(state, "grimalkin", ("stunt",), "knight")
    assert when_passing(state, Stunt(player=2, figure="grimalkin", ability="Evil Eye")) == (
        StuntPerformed(figure="grimalkin", ability="Evil Eye", target=None),
        wounded("militia-1"),
    )


@pytest.mark.parametrize(
    ("squares", "victim"),
    [
        ({"knight": (4, 4), "squire": (6, 3)}, "squire"),  # 2 king's moves beat 3
        ({"knight": (4, 3), "squire": (6, 3)}, "knight"),  # a tie: the Knight comes first
    ],
    ids=["kings-moves", "tie"],
)
def test_evil_eye_nearest_counts_kings_moves_and_a_tie_goes_to_roster_order(
    squares: dict[str, Square], victim: str
) -> None:
    state = only(
        _cats(starting="adversaries"), {"grimalkin": (4, 1), "militia-1": (0, 9), **squares}
    )
    state = act(state, "grimalkin", ("stunt",), "militia")
    assert when_passing(state, Stunt(player=2, figure="grimalkin", ability="Evil Eye")) == (
        StuntPerformed(figure="grimalkin", ability="Evil Eye", target=None),
        wounded(victim),
    )


@pytest.mark.parametrize(("cat", "left"), [("cats-1", 3), ("cats-3", 2)])
def test_skulk_a_cat_beside_a_curtain_moves_one_extra_space(cat: str, left: int) -> None:
    state = only(
        _cats(starting="adversaries"),
        {"cats-1": (0, 4), "curtains-1": (0, 5), "cats-3": (8, 1), "knight": (4, 9)},
    )
    state = act(state, "cats", ("move",), "knight")
    start = state.figure(cat).square
    assert start is not None
    assert when_passing(state, Step(player=2, figure=cat, direction=N)) == (
        FigureStepped(figure=cat, to=(start[0], start[1] - 1), steps_left=left),
    )


def _cat_attacks(cat: str, revealed: bool = False) -> tuple[object, ...]:
    state = only(
        _cats(starting="adversaries"), {cat: (4, 5), "knight": (4, 6), "militia-1": (0, 9)}
    )
    if revealed:
        state = all_revealed(state)
    state = act(state, "cats", ("attack",), "militia")
    return unsalted(when_passing(state, Attack(player=2, attacker=cat, target="knight")))


def test_shapeshifter_ambush_reveals_it_and_harms_one_step_more() -> None:
    assert _cat_attacks("cats-2") == (
        hit("cats-2", "knight"),
        wounded("knight"),
        SecretRevealed(side="adversaries", name="shapeshifter", choice="cats-2"),
        ConditionChanged(figure="knight", condition="disabled"),
    )


def test_shapeshifter_an_ordinary_cat_or_a_revealed_shapeshifter_just_hits() -> None:
    assert _cat_attacks("cats-1") == (hit("cats-1", "knight"), wounded("knight"))
    assert _cat_attacks("cats-2", revealed=True) == (hit("cats-2", "knight"), wounded("knight"))


def test_shapeshifter_found_by_keen_nose_has_no_ambush_left() -> None:
    # Grete sniffs out cats-2 first; its later hit is an ordinary one.
    hunt = only(_hunters(), {"hound": (4, 6), "cats-2": (4, 5), "grimalkin": (9, 0)})
    hunt = act(hunt, "hound", ("attack",), "grimalkin")
    found = play_passing(hunt, Attack(player=1, attacker="hound", target="cats-2"))
    (secret,) = [s for s in found.secrets if s.name == "shapeshifter"]
    assert secret.revealed
    ambush = match(
        "witch-hunters", "swartzblak", secrets={"shapeshifter": "cats-2"}, starting="adversaries"
    )
    ambush = only(ambush, {"cats-2": (4, 5), "hound": (4, 6), "villagers-1": (0, 9)})
    ambush = at(ambush, "secrets=" + msgspec.json.encode(found.secrets).decode())
    ambush = act(ambush, "cats", ("attack",), "villagers")
    assert unsalted(when_passing(ambush, Attack(player=2, attacker="cats-2", target="hound"))) == (
        hit("cats-2", "hound"),
        wounded("hound"),
    )


@pytest.mark.parametrize(("blocker", "to"), [(None, (4, 4)), ("cats-2", (9, 5))])
def test_behind_the_curtains_places_the_actor_in_the_next_curtain(
    blocker: str | None, to: Square
) -> None:
    squares = {
        "knight": (0, 6),
        "curtains-1": (0, 5),
        "curtains-2": (4, 4),
        "curtains-3": (9, 5),
        "grimalkin": (9, 0),
    }
    if blocker is not None:
        squares[blocker] = (4, 4)  # a character in Curtain 2: the knight goes on to Curtain 3
    state = act(only(_cats(), squares), "knight", ("stunt",), "grimalkin")
    assert when_passing(state, Stunt(player=1, figure="knight", target="curtains-1")) == (
        StuntPerformed(figure="knight", ability=None, target="curtains-1"),
        FigureMoved(figure="knight", to=to, how="place"),
    )


def test_behind_the_curtains_with_every_other_curtain_taken_the_character_stays() -> None:
    squares = {
        "knight": (0, 6),
        "curtains-1": (0, 5),
        "curtains-2": (4, 4),
        "cats-2": (4, 4),
        "curtains-3": (9, 5),
        "cats-3": (9, 5),
        "grimalkin": (9, 0),
    }
    state = act(only(_cats(), squares), "knight", ("stunt",), "grimalkin")
    assert when_passing(state, Stunt(player=1, figure="knight", target="curtains-1")) == (
        StuntPerformed(figure="knight", ability=None, target="curtains-1"),
    )


def test_behind_the_curtains_being_placed_is_not_a_step_and_triggers_nothing() -> None:
    squares = {
        "knight": (0, 6),
        "curtains-1": (0, 5),
        "curtains-2": (4, 4),
        "cats-1": (1, 7),  # beside the knight: it may react to the stunt
        "grimalkin": (9, 0),
    }
    state = only(_cats(), squares)
    state = play(state, SelectCoins(player=1, unit="knight", colour="green", actions=("stunt",)))
    state = play(state, SelectReaction(player=2, unit="cats", colour="green", actions=("move",)))
    state = play(state, Stunt(player=1, figure="knight", target="curtains-1"))
    assert state.pending == "offer"
    events = when(state, DeclineReaction(player=2))
    assert FigureMoved(figure="knight", to=(4, 4), how="place") in events
    assert not any(isinstance(e, ReactionTriggered) for e in events[1:])


# --- The Black Goblins ------------------------------------------------------------------


def _goblins(starting: Side = "heroes") -> MatchState:
    return match("banner-knight", "black-goblins", secrets={"plunder": "Chapel"}, starting=starting)


def test_troll_sweep_pushes_adjacent_enemies_two_spaces_and_harms_those_stopped_short() -> None:
    state = only(
        _goblins(starting="adversaries"),
        {
            "grotmaw": (4, 1),
            "knight": (4, 2),  # flies two spaces south
            "squire": (5, 0),  # against the board's edge
            "militia-1": (3, 1),  # one space, then a Barricade
            "barricades-1": (1, 1),
            "militia-2": (0, 9),
        },
    )
    state = act(state, "grotmaw", ("stunt", "stunt"), "militia")
    assert when_passing(state, Stunt(player=2, figure="grotmaw", ability="Troll Sweep")) == (
        StuntPerformed(figure="grotmaw", ability="Troll Sweep", target=None),
        FigureMoved(figure="knight", to=(4, 4), how="push"),
        wounded("squire"),
        FigureMoved(figure="militia-1", to=(2, 1), how="push"),
        wounded("militia-1"),
    )


def _swept(squares: Mapping[str, Square]) -> MatchState:
    state = act(
        only(_goblins(starting="adversaries"), squares), "grotmaw", ("stunt", "stunt"), "militia"
    )
    return play_passing(state, Stunt(player=2, figure="grotmaw", ability="Troll Sweep"))


def test_troll_sweep_r20_r28_an_ally_in_the_way_blocks_or_not_at_its_players_choice() -> None:
    squares = {
        "grotmaw": (4, 1),
        "knight": (4, 2),  # pushed south, into militia-1
        "militia-1": (4, 3),
        "squire": (5, 2),  # pushed south-east, after the knight
        "militia-2": (0, 9),
    }
    state = _swept(squares)
    sweep = ForcedMove(figure="knight", how="push", direction=S, distance=2, ability="Troll Sweep")
    squire = ForcedMove(
        figure="squire", how="push", direction=(1, 1), distance=2, ability="Troll Sweep"
    )
    # The match waits for the Heroes, whose militiaman is in the way, and for nobody else.
    assert state.pending == "forced" and seat(state) == 1
    assert state.activation is not None
    assert state.activation.forced is not None
    assert state.activation.forced.move == sweep
    assert state.activation.forced.queue == (squire,)
    assert legal_commands(state, 2) == ()
    assert legal_commands(state, 1) == (
        BlockForcedMove(player=1, ally="militia-1", block=True),
        BlockForcedMove(player=1, ally="militia-1", block=False),
    )
    # Let through: the knight flies past the militiaman, unharmed; then the squire goes.
    assert when(state, BlockForcedMove(player=1, ally="militia-1", block=False)) == (
        BlockChosen(side="heroes", ally="militia-1", figure="knight", block=False),
        FigureMoved(figure="knight", to=(4, 4), how="push"),
        FigureMoved(figure="squire", to=(7, 4), how="push"),
    )
    # Blocked: the knight is stopped short by something in the way, and harmed.
    assert when(state, BlockForcedMove(player=1, ally="militia-1", block=True)) == (
        BlockChosen(side="heroes", ally="militia-1", figure="knight", block=True),
        wounded("knight"),
        FigureMoved(figure="squire", to=(7, 4), how="push"),
    )
    after = play(state, BlockForcedMove(player=1, ally="militia-1", block=False))
    assert after.pending == "stunt" and after.activation is not None
    assert after.activation.forced is None


def test_troll_sweep_r20_r28_an_ally_it_could_only_end_on_blocks_without_asking() -> None:
    # Letting militia-1 through would leave the knight on militia-2: no choice to make.
    squares = {
        "grotmaw": (4, 1),
        "knight": (4, 2),
        "militia-1": (4, 3),
        "militia-2": (4, 4),
        "squire": (0, 9),
    }
    state = act(
        only(_goblins(starting="adversaries"), squares), "grotmaw", ("stunt", "stunt"), "squire"
    )
    assert when_passing(state, Stunt(player=2, figure="grotmaw", ability="Troll Sweep")) == (
        StuntPerformed(figure="grotmaw", ability="Troll Sweep", target=None),
        wounded("knight"),
    )


def test_troll_sweep_the_boards_edge_is_something_in_the_way() -> None:
    squares = {"grotmaw": (4, 7), "knight": (4, 8), "squire": (0, 0)}
    state = act(
        only(_goblins(starting="adversaries"), squares), "grotmaw", ("stunt", "stunt"), "squire"
    )
    assert when_passing(state, Stunt(player=2, figure="grotmaw", ability="Troll Sweep")) == (
        StuntPerformed(figure="grotmaw", ability="Troll Sweep", target=None),
        FigureMoved(figure="knight", to=(4, 9), how="push"),
        wounded("knight"),
    )


@pytest.mark.parametrize(
    ("stopper", "at", "moved"),
    [
        ("the board's edge", {"grotmaw": (4, 7), "knight": (4, 8)}, (4, 9)),
        ("terrain", {"grotmaw": (4, 1), "knight": (4, 2), "barricades-1": (4, 4)}, (4, 3)),
        ("an enemy", {"grotmaw": (4, 1), "knight": (4, 2), "goblins-1": (4, 4)}, (4, 3)),
        ("an enemy at once", {"grotmaw": (4, 1), "knight": (4, 2), "goblins-1": (4, 3)}, None),
    ],
)
def test_r28_troll_sweep_harms_a_figure_stopped_short_whatever_stopped_it(
    stopper: str, at: dict[str, Square], moved: Square | None
) -> None:
    squares = {**at, "squire": (0, 0) if at["grotmaw"][1] > 4 else (0, 9)}
    state = act(
        only(_goblins(starting="adversaries"), squares), "grotmaw", ("stunt", "stunt"), "squire"
    )
    pushed = () if moved is None else (FigureMoved(figure="knight", to=moved, how="push"),)
    assert when_passing(state, Stunt(player=2, figure="grotmaw", ability="Troll Sweep")) == (
        StuntPerformed(figure="grotmaw", ability="Troll Sweep", target=None),
        *pushed,
        wounded("knight"),
    ), stopper


def test_r28_troll_sweep_a_figure_pushed_its_full_distance_is_not_stopped_short() -> None:
    squares = {"grotmaw": (4, 1), "knight": (4, 2), "goblins-1": (4, 5), "squire": (0, 9)}
    state = act(
        only(_goblins(starting="adversaries"), squares), "grotmaw", ("stunt", "stunt"), "squire"
    )
    assert when_passing(state, Stunt(player=2, figure="grotmaw", ability="Troll Sweep")) == (
        StuntPerformed(figure="grotmaw", ability="Troll Sweep", target=None),
        FigureMoved(figure="knight", to=(4, 4), how="push"),
    )


@pytest.mark.parametrize("advantage", [True, False])
def test_gang_up_harms_one_step_more_with_advantage(advantage: bool) -> None:
    squares = {"knight": (4, 6), "goblins-1": (4, 5), "squire": (0, 9)}
    if advantage:
        squares["goblins-2"] = (3, 6)
    state = act(only(_goblins(starting="adversaries"), squares), "goblins", ("attack",), "squire")
    more = (ConditionChanged(figure="knight", condition="disabled"),) if advantage else ()
    assert when_passing(state, Attack(player=2, attacker="goblins-1", target="knight")) == (
        hit("goblins-1", "knight", advantage=advantage),
        wounded("knight"),
        *more,
    )


@pytest.mark.parametrize("blocked", [False, True])
def test_crawl_through_places_the_actor_beyond_the_barricade(blocked: bool) -> None:
    squares = {"militia-1": (2, 7), "barricades-1": (2, 6), "grotmaw": (9, 0)}
    if blocked:
        squares["goblins-1"] = (2, 5)
    state = act(only(_goblins(), squares), "militia", ("stunt",), "grotmaw")
    moved = () if blocked else (FigureMoved(figure="militia-1", to=(2, 5), how="place"),)
    assert when_passing(state, Stunt(player=1, figure="militia-1", target="barricades-1")) == (
        StuntPerformed(figure="militia-1", ability=None, target="barricades-1"),
        *moved,
    )


def test_crawl_through_being_placed_is_not_a_step_and_triggers_nothing() -> None:
    squares = {"militia-1": (2, 7), "barricades-1": (2, 6), "goblins-1": (1, 7)}
    squares["grotmaw"] = (9, 0)
    state = only(_goblins(), squares)
    state = play(state, SelectCoins(player=1, unit="militia", colour="green", actions=("stunt",)))
    state = play(state, SelectReaction(player=2, unit="goblins", colour="green", actions=("move",)))
    state = play(state, Stunt(player=1, figure="militia-1", target="barricades-1"))
    assert state.pending == "offer"  # a stunt beside a goblin
    events = when(state, DeclineReaction(player=2))
    assert FigureMoved(figure="militia-1", to=(2, 5), how="place") in events
    assert not any(isinstance(e, ReactionTriggered) for e in events[1:])


# --- win conditions, decided after round 6 -------------------------------------------


def _last_turn_of_round_6(state: MatchState) -> tuple[object, ...]:
    """Play one activation in the last turn of round 6 and lose the Initiative on a 6."""
    state = at(state, "round=6 turns_in_round=2")
    player = seat(state)
    side = state.side_of(player)
    unit = next(u for u in state.units if u.side == side and not u.is_terrain)
    state = play_passing(
        state, SelectCoins(player=player, unit=unit.id, colour="green", actions=("defend",))
    )
    other = next(
        u
        for u in state.units
        if u.side != side and not u.is_terrain and any(state.figure(f).square for f in u.figures)
    )
    state = play_passing(
        state,
        SelectReaction(player=seat(state), unit=other.id, colour="green", actions=("defend",)),
    )
    assert state.pending == "roll"
    return when_passing(state, RollInitiative(player=seat(state), die=6))


@pytest.mark.parametrize(
    ("squares", "winner"),
    [
        ({"bruisers-1": (6, 4), "knight": (0, 9)}, "adversaries"),
        ({"smogon": (5, 4), "knight": (0, 9)}, "adversaries"),  # Large: partly on the vent
        ({"knight": (7, 5), "bruisers-1": (0, 0)}, "heroes"),
        ({"knight": (7, 5), "bruisers-1": (6, 4)}, None),
        ({"knight": (0, 9), "bruisers-1": (0, 0)}, None),
    ],
)
def test_the_smoke_vent_is_won_by_whoever_alone_stands_on_it(
    squares: dict[str, Square], winner: Side | None
) -> None:
    state = only(match(), squares)
    assert WIN_CONDITIONS["the-smoke-vent"][1](state) == winner
    events = _last_turn_of_round_6(state)
    assert RoundEnded(round=6) in events
    reason = "the-smoke-vent" if winner else "six_rounds_played"
    assert events[-1] == MatchEnded(reason=reason, winner=winner)


@pytest.mark.parametrize(
    ("condition", "winner"),
    [
        ("eliminated", "heroes"),
        ("disabled", "heroes"),
        ("wounded", None),
        ("unharmed", "adversaries"),
    ],
)
def test_the_shapeshifter_hunt_is_won_by_bringing_the_shapeshifter_down(
    condition: Condition, winner: Side | None
) -> None:
    squares = {"cats-1": (1, 1), "cats-2": (5, 1), "cats-3": (8, 1), "knight": (4, 9)}
    conditions: dict[str, Condition] = {"cats-2": condition}
    if condition == "eliminated":
        squares.pop("cats-2")
    # An ordinary cat's condition never matters.
    state = only(_cats(), squares, {**conditions, "cats-1": "disabled"})
    assert final_result(state, ("the-shapeshifter-hunt",)) == (
        (winner, "the-shapeshifter-hunt") if winner else (None, "six_rounds_played")
    )
    events = unsalted(_last_turn_of_round_6(state))
    assert SecretRevealed(side="adversaries", name="shapeshifter", choice="cats-2") in events
    assert events[-1] == MatchEnded(
        reason="the-shapeshifter-hunt" if winner else "six_rounds_played", winner=winner
    )


@pytest.mark.parametrize(
    ("squares", "winner"),
    [
        ({"goblins-1": (4, 4), "knight": (0, 9)}, "adversaries"),  # on the Chapel, alone
        ({"knight": (5, 5), "goblins-1": (0, 0)}, "heroes"),
        ({"knight": (5, 5), "goblins-1": (4, 4)}, None),
        ({"goblins-1": (0, 4), "knight": (9, 9)}, None),  # on the Granary: not the scheme
    ],
)
def test_the_goblins_plunder_is_won_by_whoever_alone_holds_the_secret_tile(
    squares: dict[str, Square], winner: Side | None
) -> None:
    state = only(_goblins(), squares)
    assert WIN_CONDITIONS["the-goblins-plunder"][1](state) == winner
    events = unsalted(_last_turn_of_round_6(state))
    # The scheme stayed secret until the end.
    assert SecretRevealed(side="adversaries", name="plunder", choice="Chapel") in events
    assert events[-1] == MatchEnded(
        reason="the-goblins-plunder" if winner else "six_rounds_played", winner=winner
    )


# --- set-up secrets (R23) ------------------------------------------------------------


def test_secrets_are_chosen_at_set_up_heroes_first_and_stay_hidden() -> None:
    state = start_match(MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=1))
    state = play_passing(state, FlipForSetUp(player=1, winner=1))
    (teams,) = [c for c in legal_commands(state, 1) if isinstance(c, ChooseTeams)]
    state = play_passing(
        state,
        teams,
        ChooseStartingTeam(player=1, side="heroes"),
        ChooseSide(player=2, side="adversaries"),
    )
    assert state.pending == "secret"
    assert legal_commands(state, 1) == tuple(
        ChooseSecret(player=1, name="hunters-kit", choice=c)
        for c in ("holy-water", "smelling-salts", "grapnel")
    )
    chosen = when_passing(state, ChooseSecret(player=1, name="hunters-kit", choice="grapnel"))
    assert unsalted(chosen) == (SecretChosen(side="heroes", name="hunters-kit", choice="grapnel"),)
    state = play_passing(state, ChooseSecret(player=1, name="hunters-kit", choice="grapnel"))
    assert {c.choice for c in legal_commands(state, 2) if isinstance(c, ChooseSecret)} == {
        "cats-1",
        "cats-2",
        "cats-3",
    }
    state = play_passing(state, ChooseSecret(player=2, name="shapeshifter", choice="cats-3"))
    assert state.pending == "select" and state.round == 1
    assert [(s.name, s.choice, s.revealed) for s in state.secrets] == [
        ("hunters-kit", "grapnel", False),
        ("shapeshifter", "cats-3", False),
    ]


def test_secrets_not_revealed_by_use_are_revealed_at_the_end() -> None:
    state = only(
        _hunters(kit="grapnel", shapeshifter="cats-1"), {"hunter": (4, 9), "cats-1": (1, 1)}
    )
    events = unsalted(_last_turn_of_round_6(state))
    reveals = [e for e in events if isinstance(e, SecretRevealed)]
    assert reveals == [
        SecretRevealed(side="heroes", name="hunters-kit", choice="grapnel"),
        SecretRevealed(side="adversaries", name="shapeshifter", choice="cats-1"),
    ]
    assert isinstance(events[-1], MatchEnded)
