"""Events and commands: explicit tags, frozen structs, and an evolve case for every event."""

from __future__ import annotations

import msgspec
import pytest

from multiversus_core import EVENT_TYPES, Command, Event, MatchSettings
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.events import AttackMade
from multiversus_core.rulesets.multiversus.evolve import _HANDLERS, evolve, initial_state
from multiversus_core.rulesets.multiversus.state import MatchState


def test_every_event_kind_has_exactly_one_evolve_handler() -> None:
    assert set(_HANDLERS) == set(EVENT_TYPES)


@pytest.mark.parametrize("union", [Event, Command], ids=["events", "commands"])
def test_every_kind_is_frozen_with_an_explicit_snake_case_tag(union: object) -> None:
    tags = []
    for kind in union.__args__:  # type: ignore[attr-defined]
        config = kind.__struct_config__
        assert config.frozen, kind
        assert config.tag_field == "kind"
        assert isinstance(config.tag, str) and config.tag == config.tag.lower(), kind
        assert config.tag != kind.__name__, kind
        tags.append(config.tag)
    assert len(tags) == len(set(tags))


def test_events_encode_with_their_tag() -> None:
    from multiversus_core.rulesets.multiversus.events import InitiativeRolled

    event = InitiativeRolled(side="heroes", die=4, greys=1, lost=False)
    assert msgspec.json.encode(event) == (
        b'{"kind":"initiative_rolled","side":"heroes","die":4,"greys":1,"lost":false}'
    )
    assert msgspec.json.decode(msgspec.json.encode(event), type=Event) == event


def _attacks_folded(seeds: range) -> list[tuple[MatchState, AttackMade, MatchState]]:
    """Every ``attack_made`` of random matches, with the states before and after it."""
    found = []
    for seed in seeds:
        log, _ = play_match(MatchSettings(seed=seed), {1: RandomBot(seed), 2: RandomBot(seed + 1)})
        state = initial_state(log.header.settings)
        for entry in log.entries:
            for event in entry.events:
                after = evolve(state, event)
                if isinstance(event, AttackMade):
                    found.append((state, event, after))
                state = after
    return found


def test_an_attack_waits_for_the_follow_up_and_marks_whom_it_struck() -> None:
    # given random matches, when an attack is folded, then the action or reaction under way
    # records the attacker and waits for its follow-up (R9); an action's attack adds the
    # target's unit to the units attacked this activation, once; a reaction's attack
    # subjects the active unit to it (R11, R12) and attacks no unit for the activation
    kinds = set()
    for before, event, after in _attacks_folded(range(7)):
        act, new = before.activation, after.activation
        assert act is not None and new is not None
        in_reaction = act.reaction is not None
        kinds.add(in_reaction)
        acting = act.reaction if in_reaction else act.action
        done = new.reaction if in_reaction else new.action
        assert acting is not None and done is not None
        target_unit = before.figure(event.target).unit
        assert done == msgspec.structs.replace(
            acting,
            done=(*acting.done, event.attacker),
            target_unit=acting.target_unit or target_unit,
            follow_up=(event.attacker, event.target),
        )
        assert after.pending == "after_attack"
        if in_reaction:
            assert new == msgspec.structs.replace(act, reaction=done, struck=True)
        else:
            attacked = act.attacked_units
            if target_unit not in attacked:
                attacked = (*attacked, target_unit)
            assert new == msgspec.structs.replace(act, action=done, attacked_units=attacked)
        assert after == msgspec.structs.replace(before, activation=new, pending="after_attack")
    assert kinds == {False, True}  # both an action's and a reaction's attacks were seen
