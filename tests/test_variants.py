"""Variants: each Alternative Rule that can be stated precisely, tested on and off (R22)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from msgspec.structs import replace

from multiversus_core import (
    AfterAttack,
    Attack,
    ChooseSecret,
    DeclineReaction,
    EndAction,
    MatchSettings,
    MatchState,
    React,
    RollInitiative,
    SelectCoins,
    SelectReaction,
    SettingsError,
    Step,
    legal_commands,
    start_match,
)
from multiversus_core.rulesets.multiversus.events import (
    FigureMoved,
    InitiativeRolled,
    ReactionTriggered,
    UnitCoinRemoved,
)
from multiversus_core.rulesets.multiversus.initiative import chance_of_losing_initiative
from multiversus_core.rulesets.multiversus.terms import Colour
from multiversus_core.rulesets.multiversus.variants import NOT_IMPLEMENTED, VARIANTS
from tests.positions import at
from tests.support import (
    SETTINGS,
    activate,
    conditioned,
    kinds,
    placed,
    play,
    play_passing,
    select,
    set_up,
    when,
    when_passing,
)
from tests.test_actions import ARENA

N, E, S, W = (0, -1), (1, 0), (0, 1), (-1, 0)


def arena(*variants: str, extra: dict[str, tuple[int, int] | None] | None = None) -> MatchState:
    settings = replace(SETTINGS, variants=tuple(sorted(variants)))
    return placed(set_up(settings), {**ARENA, **(extra or {})})


def test_variants_are_off_by_default_and_named_in_the_settings() -> None:
    assert MatchSettings().variants == ()
    for name in VARIANTS:
        assert start_match(replace(SETTINGS, variants=(name,))).settings.variants == (name,)
    with pytest.raises(SettingsError, match="no variant 'squeeze'"):
        start_match(replace(SETTINGS, variants=("squeeze",)))


RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rules" / "multiversus-rules.md"


def _words(text: str) -> str:
    return " ".join(text.replace("*", "").split())


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not beside the project")
def test_every_variant_quotes_its_rulebook_sentence_word_for_word() -> None:
    rulebook = _words(RULEBOOK.read_text(encoding="utf-8"))
    for variant in VARIANTS.values():
        assert _words(variant.rulebook) in rulebook, variant.name
        assert variant.summary
    for sentence, reason in NOT_IMPLEMENTED.items():
        assert _words(sentence) in rulebook, sentence
        assert reason


def test_no_automatic_six_on_a_six_keeps_the_initiative_with_few_greys() -> None:
    off = activate(arena(), "knight")
    assert when(off, RollInitiative(player=1, die=6))[0] == InitiativeRolled(
        side="heroes", die=6, greys=0, lost=True
    )
    on = activate(arena("no-automatic-six"), "knight")
    assert when(on, RollInitiative(player=1, die=6)) == (
        InitiativeRolled(side="heroes", die=6, greys=0, lost=False),
    )


def test_no_automatic_six_takes_the_six_out_of_the_chance_of_losing_the_initiative() -> None:
    off = activate(arena(), "knight", "grey")
    on = activate(arena("no-automatic-six"), "knight", "grey")
    assert chance_of_losing_initiative(off, "heroes") == Fraction(2, 6)
    assert chance_of_losing_initiative(on, "heroes") == Fraction(1, 6)
    # With no grey in the discard, nothing loses under the variant.
    assert chance_of_losing_initiative(arena("no-automatic-six"), "heroes") == 0


def test_costly_recovery_goes_straight_to_unharmed_and_removes_the_coin() -> None:
    def recover(state: MatchState) -> MatchState:
        state = conditioned(placed(state, {"militia-1": (0, 7)}), {"militia-1": "disabled"})
        state = play(state, SelectCoins(player=1, unit="militia", colour="green", actions=()))
        return play(
            state, SelectReaction(player=2, unit="smogon", colour="green", actions=("move",))
        )

    off = recover(arena())
    assert off.figure("militia-1").condition == "wounded"
    assert "militia.green1" in off.piles("heroes").stash
    on = recover(arena("costly-recovery"))
    assert on.figure("militia-1").condition == "unharmed"
    assert on.piles("heroes").removed == ("militia.green1",)
    assert "militia.green1" not in on.piles("heroes").stash


def test_costly_recovery_event_is_recorded() -> None:
    state = conditioned(
        placed(arena("costly-recovery"), {"militia-1": (0, 7)}), {"militia-1": "wounded"}
    )
    state = play(state, SelectCoins(player=1, unit="militia", colour="green", actions=()))
    events = when(state, SelectReaction(player=2, unit="smogon", colour="green", actions=("move",)))
    assert UnitCoinRemoved(side="heroes", coin="militia.green1") in events


@pytest.mark.parametrize("colour", ["green", "grey"])
def test_r27_costly_recovery_a_success_removes_the_unit_coin_it_used(colour: Colour) -> None:
    state = conditioned(
        placed(arena("costly-recovery"), {"militia-1": (0, 7)}), {"militia-1": "wounded"}
    )
    state = play(state, SelectCoins(player=1, unit="militia", colour=colour, actions=()))
    used = state.activation.coin if state.activation is not None else None
    assert used is not None and used.startswith(f"militia.{colour}")
    reaction = SelectReaction(player=2, unit="smogon", colour="green", actions=("move",))
    events = when(state, reaction)
    assert [e for e in events if isinstance(e, UnitCoinRemoved)] == [
        UnitCoinRemoved(side="heroes", coin=used)
    ]
    after = play(state, reaction)
    piles = after.piles("heroes")
    assert piles.removed == (used,)
    assert used not in piles.stash + piles.discard
    assert len(piles.stash) + len(piles.discard) == 8


def test_r27_costly_recovery_a_failed_recovery_costs_nothing_beyond_the_activation() -> None:
    # The militia beside Bruiser 1 recover; the Bruisers' attack reaction makes it fail.
    state = arena("costly-recovery", extra={"militia-1": (4, 4)})
    state = conditioned(state, {"militia-1": "wounded"})
    state = play(state, SelectCoins(player=1, unit="militia", colour="green", actions=()))
    state = play(
        state,
        SelectReaction(player=2, unit="bruisers", colour="green", actions=("attack",)),
        React(player=2),
        Attack(player=2, attacker="bruisers-1", target="militia-1"),
        AfterAttack(player=2, choice="stay"),
    )
    events = when(state, EndAction(player=2))
    assert not any(isinstance(e, UnitCoinRemoved) for e in events)
    after = play(state, EndAction(player=2))
    # The turn ended (R12) and returned the coin with the others (R14): none is lost.
    piles = after.piles("heroes")
    assert piles.removed == ()
    assert "militia.green1" in piles.stash
    assert len(piles.stash) + len(piles.discard) == 9


def test_move_reaction_at_end_replaces_the_usual_move_triggers() -> None:
    # Off: leaving Bruiser 1's side lets the Bruisers' Move reaction answer.
    off = select(arena(), "knight", ("move",), ("bruisers", ("move",)))
    off = play(off, Step(player=1, figure="knight", direction=S))
    assert React(player=2) in legal_commands(off, 2)
    # On: the step is still offered (an Attack or Stunt might answer it), but a
    # Move reaction cannot; at the end it can, as the knight did not attack them.
    on = select(arena("move-reaction-at-end"), "knight", ("move",), ("bruisers", ("move",)))
    on = play(on, Step(player=1, figure="knight", direction=S))
    assert legal_commands(on, 2) == (DeclineReaction(player=2),)
    on = play(on, DeclineReaction(player=2))
    events = when(on, EndAction(player=1))
    assert isinstance(events[-1], ReactionTriggered) and events[-1].triggers == ("concluded",)
    on = play(on, EndAction(player=1), React(player=2))
    on = play(on, Step(player=2, figure="bruisers-1", direction=S), EndAction(player=2))
    assert on.pending == "roll"


def test_move_reaction_at_end_not_after_being_attacked_from_afar() -> None:
    from multiversus_core import BeginAction

    state = select(
        arena("move-reaction-at-end"), "knight", ("attack", "move"), ("bruisers", ("move",))
    )
    state = play_passing(state, BeginAction(player=1, action="attack"))
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    state = play_passing(state, AfterAttack(player=1, choice="stay"), EndAction(player=1))
    # Move away from Bruiser 1 so the knight ends adjacent to no Bruiser.
    state = play_passing(state, Step(player=1, figure="knight", direction=S))
    state = play_passing(state, Step(player=1, figure="knight", direction=S))
    state = play(state, EndAction(player=1))
    # Smogon was not attacked, so the end is offered; the Bruisers' Move cannot answer.
    assert state.pending == "offer"
    assert legal_commands(state, 2) == (DeclineReaction(player=2),)


def test_adjacent_triggers_need_adjacency_unless_overwatch() -> None:
    # Smogon two spaces from the knight, who attacks Bruiser 1; give Smogon Ranged sight.
    extra = {"smogon": (6, 6)}

    def attack(*variants: str, overwatch: bool = False) -> tuple[object, ...]:
        state = arena(*variants, extra=extra)
        abilities = '["Ranged","Overwatch"]' if overwatch else '["Ranged"]'
        state = at(state, f'units={{"smogon":{{"abilities":{abilities}}}}}')
        state = select(state, "knight", ("attack",), ("smogon", ("attack",)))
        return when(state, Attack(player=1, attacker="knight", target="bruisers-1"))

    def triggers(*variants: str, overwatch: bool = False) -> tuple[str, ...]:
        (event,) = attack(*variants, overwatch=overwatch)
        assert isinstance(event, ReactionTriggered)
        return event.triggers

    assert triggers() == ("targeted", "attacked_other")
    assert triggers("adjacent-triggers") == ("targeted",)
    assert triggers("adjacent-triggers", overwatch=True) == ("targeted", "attacked_other")


@pytest.mark.parametrize(("variants", "raised"), [((), False), (("adjacent-triggers",), True)])
def test_r24_adjacent_triggers_a_disabled_character_beside_the_attacker_raises_the_trigger(
    variants: tuple[str, ...], raised: bool
) -> None:
    # The knight attacks Smogon beside it; Bruiser 1, beside the knight, is Disabled. In
    # range of nothing, it raises "attacking outside the reactive unit" only when the
    # variant asks for a character adjacent instead (any character of the unit, R24).
    state = conditioned(arena(*variants, extra={"smogon": (5, 6)}), {"bruisers-1": "disabled"})
    state = select(state, "knight", ("attack",), ("bruisers", ("attack",)))
    (event,) = when(state, Attack(player=1, attacker="knight", target="smogon"))
    assert isinstance(event, ReactionTriggered)
    assert ("attacked_other" in event.triggers) is raised


def test_disengage_trigger_only_when_no_longer_adjacent() -> None:
    # Stepping east from (4,6) to (5,6) stays beside Bruiser 1 at (4,5).
    off = select(arena(), "knight", ("move",), ("bruisers", ("attack",)))
    assert isinstance(when(off, Step(player=1, figure="knight", direction=E))[0], ReactionTriggered)
    on = select(arena("disengage-trigger"), "knight", ("move",), ("bruisers", ("attack",)))
    assert kinds(when(on, Step(player=1, figure="knight", direction=E))) == ["figure_stepped"]
    on = play(on, Step(player=1, figure="knight", direction=E))
    assert isinstance(when(on, Step(player=1, figure="knight", direction=E))[0], ReactionTriggered)


def test_diagonal_double_move_four_spaces_with_diagonal_steps() -> None:
    def steps(state: MatchState) -> set[tuple[int, int]]:
        return {
            c.direction
            for c in legal_commands(state, 1)
            if isinstance(c, Step) and c.figure == "squire"
        }

    off = select(arena(extra={"squire": (0, 8)}), "squire", ("move", "move"), ("smogon", ("move",)))
    assert steps(off) == {N, E, S}
    on = select(
        arena("diagonal-double-move", extra={"squire": (0, 8)}),
        "squire",
        ("move", "move"),
        ("smogon", ("move",)),
    )
    assert steps(on) == {N, E, S, (1, -1), (1, 1)}
    for direction in ((1, -1), (1, -1), E, S):
        on = play_passing(on, Step(player=1, figure="squire", direction=direction))
    assert on.figure("squire").square == (3, 7) and steps(on) == set()
    single = select(
        arena("diagonal-double-move", extra={"squire": (0, 8)}),
        "squire",
        ("move",),
        ("smogon", ("move",)),
    )
    assert steps(single) == {N, E, S}


def test_diagonal_movement_but_not_across_blocking_terrain() -> None:
    # The Crag (blocking) covers (2,4)-(3,5). From (1,5), south-east to the free (2,6)
    # would cut across the Crag at (2,5); south-west to (0,6) cuts across nothing.
    start = {"squire": (1, 5)}

    def steps(state: MatchState) -> set[tuple[int, int]]:
        return {
            c.direction
            for c in legal_commands(state, 1)
            if isinstance(c, Step) and c.figure == "squire"
        }

    on = select(arena("diagonal-movement", extra=start), "squire", ("move",), ("smogon", ("move",)))
    assert (-1, 1) in steps(on)
    assert (1, 1) not in steps(on)
    # Without the corner rule (a diagonal Double-Move) the same step is allowed.
    double = select(
        arena("diagonal-double-move", extra=start),
        "squire",
        ("move", "move"),
        ("smogon", ("move",)),
    )
    assert (1, 1) in steps(double)
    off = select(arena(extra=start), "squire", ("move",), ("smogon", ("move",)))
    assert all(not (d[0] and d[1]) for d in steps(off))


def test_double_attack_pushes_the_target_on_a_hit() -> None:
    off = select(arena(), "knight", ("attack", "attack"), ("smogon", ("move",)))
    assert kinds(when_passing(off, Attack(player=1, attacker="knight", target="bruisers-1"))) == [
        "attack_made",
        "condition_changed",
    ]
    on = select(
        arena("double-attack-pushes"), "knight", ("attack", "attack"), ("smogon", ("move",))
    )
    events = when_passing(on, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert events[-1] == FigureMoved(figure="bruisers-1", to=(4, 4), how="push")
    after = play_passing(on, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert after.pending == "after_attack"


def test_double_attack_pushes_r20_a_push_into_the_targets_ally_is_blocked_without_asking() -> None:
    # One space only: letting bruisers-2 through would leave bruisers-1 on it.
    on = select(
        arena("double-attack-pushes", extra={"bruisers-2": (4, 4)}),
        "knight",
        ("attack", "attack"),
        ("smogon", ("move",)),
    )
    events = when_passing(on, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert kinds(events) == ["attack_made", "condition_changed"]
    after = play_passing(on, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert after.pending == "after_attack"


def _to_secrets(settings: MatchSettings) -> MatchState:
    """Play set-up up to the secrets: seat 1 sets up, Heroes start, seat 2 takes the Heroes."""
    from multiversus_core import ChooseSide, ChooseStartingTeam, FlipForSetUp

    state = play(start_match(settings), FlipForSetUp(player=1, winner=1))
    state = play(state, legal_commands(state, 1)[0], ChooseStartingTeam(player=1, side="heroes"))
    return play(state, ChooseSide(player=2, side="heroes"))


def test_secret_schemes_the_adversary_secretly_picks_the_win_condition_that_counts() -> None:
    from multiversus_core.rulesets.multiversus.catalog import find_team

    settings = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=5)
    sheet = find_team("smogon")
    assert sheet is not None and sheet.win_conditions
    off = _to_secrets(settings)
    assert not any(o.name == "scheme" for o in off.secret_offers)
    on = _to_secrets(replace(settings, variants=("secret-schemes",)))
    assert on.pending == "secret"
    (offer,) = [o for o in on.secret_offers if o.name == "scheme"]
    assert offer.side == "adversaries" and offer.options == sheet.win_conditions
    assert legal_commands(on, 1) == tuple(
        ChooseSecret(player=1, name="scheme", choice=c) for c in sheet.win_conditions
    )
    on = play(on, ChooseSecret(player=1, name="scheme", choice=sheet.win_conditions[0]))
    assert on.round == 1 and on.secrets[-1].choice == sheet.win_conditions[0]


def test_variant_names_are_unique_and_documented() -> None:
    assert sorted(VARIANTS) == sorted(set(VARIANTS))
