"""Forced movement in play (rulebook: Forced Movement, Blocking terrain and characters; R9, R20).

R20: "an allied character in the way blocks or not at its player's choice",
each time it arises. The choice is a command of the ally's player, offered by
``legal_commands`` whenever a push, pull or slide would pass through an ally
and the choice changes where it can end; it is an event in the log, public in
every view, replayed by folding, and open to bots. The tests named for each
ability that forces movement are in test_abilities.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from multiversus_core import (
    AfterAttack,
    Attack,
    BlockForcedMove,
    Command,
    DeclineReaction,
    Event,
    MatchSettings,
    MatchState,
    MultiversusError,
    StopForcedMove,
    Stunt,
    decide,
    fold,
    legal_commands,
    view,
)
from multiversus_core.engine.log import LogWriter, read_log, replay
from multiversus_core.engine.play import play_match
from multiversus_core.engine.verify import verify
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.events import (
    BlockChosen,
    ForcedMoveHeld,
    ForcedStopChosen,
)
from multiversus_core.rulesets.multiversus.views import redact_event
from tests.support import play, play_passing, seat, when
from tests.test_abilities import act, match, only
from tests.test_properties import candidate_commands


def _swept() -> MatchState:
    """Grotmaw's Troll Sweep pushes the knight into militia-1: the Heroes choose."""
    squares = {
        "grotmaw": (4, 1),
        "knight": (4, 2),
        "militia-1": (4, 3),
        "squire": (0, 9),
    }
    state = only(
        match(
            "banner-knight", "black-goblins", secrets={"plunder": "Chapel"}, starting="adversaries"
        ),
        squares,
    )
    state = act(state, "grotmaw", ("stunt", "stunt"), "squire")
    return play_passing(state, Stunt(player=2, figure="grotmaw", ability="Troll Sweep"))


_GRAPNEL = Stunt(player=1, figure="hunter", ability="Hunter's Kit")


def _grapnel_before() -> MatchState:
    squares = {"hunter": (4, 6), "cats-1": (4, 5), "villagers-1": (4, 7), "grimalkin": (9, 0)}
    state = match(
        "witch-hunters", "swartzblak", secrets={"hunters-kit": "grapnel", "shapeshifter": "cats-2"}
    )
    return act(only(state, squares), "hunter", ("stunt",), "grimalkin")


def _grapnel() -> MatchState:
    """The Witch Hunter's grapnel slides him past a villager: block, then how far."""
    return play_passing(_grapnel_before(), _GRAPNEL)


def _accepted(state: MatchState, command: Command) -> bool:
    try:
        decide(command, state)
    except MultiversusError:
        return False
    return True


@pytest.mark.parametrize("scene", [_swept, _grapnel])
def test_r20_the_choice_is_listed_exactly_both_ways(scene: Callable[[], MatchState]) -> None:
    state = scene()
    assert state.pending == "forced"
    listed = {c for s in (1, 2) for c in legal_commands(state, s)}
    assert listed
    for command in candidate_commands(state):
        assert _accepted(state, command) == (command in listed), command
    # ... and after letting the ally through, the choice of how far.
    state = play(state, BlockForcedMove(player=1, ally=_ally(state), block=False))
    listed = {c for s in (1, 2) for c in legal_commands(state, s)}
    for command in candidate_commands(state):
        assert _accepted(state, command) == (command in listed), command


def _ally(state: MatchState) -> str:
    assert state.activation is not None and state.activation.forced is not None
    ally = state.activation.forced.ally
    assert ally is not None
    return ally


def test_r20_the_choice_belongs_to_the_allys_player_only() -> None:
    state = _swept()
    assert seat(state) == 1  # the Heroes, whose militiaman is in the way
    assert legal_commands(state, 2) == ()
    with pytest.raises(MultiversusError, match="not waiting"):
        decide(BlockForcedMove(player=2, ally="militia-1", block=True), state)
    with pytest.raises(MultiversusError, match="ally in the way is"):
        decide(BlockForcedMove(player=1, ally="knight", block=True), state)
    with pytest.raises(MultiversusError, match="chooses first whether it blocks"):
        decide(StopForcedMove(player=1, spaces=0), state)


def test_r20_the_choice_is_public_in_every_view() -> None:
    state = _swept()
    assert state.activation is not None
    for viewer in ("heroes", "adversaries", "spectator"):
        seen = view(state, viewer)
        assert seen.pending == "forced"
        assert seen.activation is not None
        assert seen.activation.forced == state.activation.forced
    events = when(state, BlockForcedMove(player=1, ally="militia-1", block=False))
    for viewer in ("heroes", "adversaries", "spectator"):
        assert tuple(redact_event(e, viewer) for e in events) == events


def test_r20_folding_the_events_replays_the_choice() -> None:
    before = _swept()
    events: list[Event] = []
    state = before
    for command in (BlockForcedMove(player=1, ally="militia-1", block=False),):
        new = decide(command, state)
        events.extend(new)
        state = fold(new, state)
    assert fold(events, before) == state
    assert state.pending == "stunt"
    assert state.figure("knight").square == (4, 4)


def test_r20_new_commands_and_events_are_tagged_and_round_trip() -> None:
    state = _grapnel()
    assert state.activation is not None and state.activation.forced is not None
    move = state.activation.forced.move
    items: list[object] = [
        BlockForcedMove(player=1, ally="villagers-1", block=False),
        StopForcedMove(player=1, spaces=2),
        ForcedMoveHeld(side="heroes", move=move, ally="villagers-1"),
        BlockChosen(side="heroes", ally="villagers-1", figure="hunter", block=False),
        ForcedStopChosen(side="heroes", figure="hunter", spaces=2),
    ]
    for item in items:
        data = msgspec.json.encode(item)
        kind = Command if isinstance(item, BlockForcedMove | StopForcedMove) else Event
        assert msgspec.json.decode(data, type=kind) == item
    assert b'"kind":"block_forced_move"' in msgspec.json.encode(items[0])


def test_r20_a_random_bot_makes_the_choice() -> None:
    for scene in (_swept, _grapnel):
        state = scene()
        bot = RandomBot(seed=5)
        command = command_for(bot, state, seat(state))
        assert command in legal_commands(state, seat(state))


def test_r20_a_logged_match_with_forced_move_choices_replays_and_verifies(
    tmp_path: Path,
) -> None:
    settings = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=5)
    log, state = play_match(settings, {1: RandomBot(5), 2: RandomBot(105)})
    chosen = [e for entry in log.entries for e in entry.events if isinstance(e, ForcedStopChosen)]
    assert chosen, "the seeded bots blow a Cloud in this match"
    path = tmp_path / "forced.jsonl"
    with LogWriter.create(path, settings) as writer:
        for entry in log.entries:
            writer.append(entry.command, entry.events)
    assert replay(read_log(path)) == state
    assert verify(read_log(path)).ok


def test_r9_r20_a_push_after_an_attack_into_an_ally_is_never_offered() -> None:
    # One space only: letting the ally through would leave the target on it.
    squares = {"knight": (4, 7), "bruisers-1": (4, 6), "bruisers-2": (4, 5), "smogon": (0, 0)}
    state = act(only(match(), squares), "knight", ("attack",), "smogon")
    state = play_passing(state, Attack(player=1, attacker="knight", target="bruisers-1"))
    assert state.pending == "after_attack"
    assert AfterAttack(player=1, choice="push") not in legal_commands(state, 1)
    with pytest.raises(MultiversusError, match="cannot be pushed"):
        decide(AfterAttack(player=1, choice="push"), state)


def test_r20_the_choice_is_narrated_and_offered_in_the_terminal() -> None:
    from multiversus_cli.menu import build_menu
    from multiversus_core.rulesets.multiversus.narrate import (
        decision_help,
        describe_command,
        describe_events,
    )

    state = _swept()
    help_text = decision_help(state, 1)
    assert help_text is not None and "Town Militia 1" in help_text and "R20" in help_text
    labels = [describe_command(state, c) for c in legal_commands(state, 1)]
    assert labels == [
        "Town Militia 1 blocks: Banner Knight stays at (4,2) (R20)",
        "Town Militia 1 lets Banner Knight through (R20)",
    ]
    menu = build_menu(state, legal_commands(state, 1))
    assert tuple(menu.commands()) == legal_commands(state, 1)  # one numbered line each
    events = decide(BlockForcedMove(player=1, ally="militia-1", block=False), state)
    assert describe_events(state, events, None) == [
        "Town Militia 1 lets Banner Knight through.",
        "Banner Knight is pushed to (4,4).",
    ]
    before = play(_grapnel_before(), _GRAPNEL)  # the cat beside him may react: it does not
    assert before.pending == "offer"
    told = describe_events(before, decide(DeclineReaction(player=2), before), 1)
    assert "The Heroes choose how far The Witch Hunter goes: up to 3 spaces south." not in told
    assert "Torch-bearing Villagers 1 is in the way of The Witch Hunter" in " ".join(told)
    blow = Stunt(player=1, figure="militia-1", target="clouds-1")
    cloud = act(
        only(match(), {"militia-1": (4, 7), "clouds-1": (5, 7), "smogon": (0, 0)}),
        "militia",
        ("stunt",),
        "smogon",
    )
    told = describe_events(cloud, decide(blow, cloud), 1)
    assert told[0] == "Stunt: Town Militia 1 interacts with Cloud 1."  # a choice waits
    assert not any("nothing happens" in line for line in told)
    grapnel = play(_grapnel(), BlockForcedMove(player=1, ally="villagers-1", block=False))
    labels = [describe_command(grapnel, c) for c in legal_commands(grapnel, 1)]
    assert labels == [
        "The Witch Hunter does not move",
        "The Witch Hunter slides 2 spaces, to (4,8)",
        "The Witch Hunter slides 3 spaces, to (4,9)",
    ]
