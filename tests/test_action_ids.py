"""Action ids (``engine/actions.py``): every game's commands as integers, the same in every
state, one to one on the legal commands, and its chance points."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from multiversus_core.engine.actions import ActionCodec, Kind
from multiversus_core.engine.chance import Dice, TooFewDiceError
from multiversus_core.engine.choices import Ask, is_tree, random_command
from multiversus_core.engine.registry import game_ids, load_ruleset
from multiversus_core.rulesets.sealed_bids.rules import Bid, RollPrize

GAMES = game_ids()


def _plain(codec: ActionCodec[Any], command: Any) -> Any:
    """The command as its id tells it: no salt, no chance supplied."""
    fields = msgspec.structs.asdict(command)
    for name in ("salt", codec.kind_of(command).chance):
        if name in fields:
            fields[name] = None
    return type(command)(**fields)


def _decisions(game: str, matches: int, seed: int) -> Iterator[tuple[Any, int, Any]]:
    """Each decision of random matches: the state, the seat to act and its legal commands."""
    ruleset = load_ruleset(game)
    rng = random.Random(seed)
    for _ in range(matches):
        state = ruleset.initial_state(ruleset.settings_type(), None)
        while seats := ruleset.to_act(state):
            legal = ruleset.legal_commands(state, seats[0])
            yield state, seats[0], legal
            _, state = ruleset.decide(random_command(legal, rng), state)


@pytest.mark.parametrize("game", GAMES)
def test_an_id_means_the_same_command_in_every_state(game: str) -> None:
    ruleset = load_ruleset(game)
    codec = ruleset.action_codec(ruleset.settings_type())  # type: ignore[attr-defined]
    meaning: dict[int, Any] = {}
    listed = 0
    for _, seat, legal in _decisions(game, 2, seed=7):
        if is_tree(legal):
            continue
        for command in legal:
            action = codec.encode(command)
            assert 0 <= action < codec.commands
            assert codec.decode(action, seat) == _plain(codec, command)
            plain = msgspec.structs.replace(_plain(codec, command), player=0)
            assert meaning.setdefault(action, plain) == plain
            listed += 1
    assert listed > 10


@pytest.mark.parametrize("game", GAMES)
def test_ids_are_one_to_one_on_the_legal_commands(game: str) -> None:
    ruleset = load_ruleset(game)
    codec = ruleset.action_codec(ruleset.settings_type())  # type: ignore[attr-defined]
    for _, _, legal in _decisions(game, 2, seed=11):
        if is_tree(legal):
            step = legal.ask(())
            keys = [option.key for option in step.options] if isinstance(step, Ask) else []
            assert len({codec.key_id(key) for key in keys}) == len(keys)
        else:
            assert len({codec.encode(command) for command in legal}) == len(legal)


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_key_of_a_tree_has_an_id_after_the_commands(game: str) -> None:
    ruleset = load_ruleset(game)
    codec = ruleset.action_codec(ruleset.settings_type())  # type: ignore[attr-defined]
    rng = random.Random(3)
    for _, _, legal in _decisions(game, 1, seed=5):
        if not is_tree(legal):
            continue
        chosen: tuple[str, ...] = ()
        while isinstance(step := legal.ask(chosen), Ask):
            for option in step.options:
                assert codec.key_of(codec.key_id(option.key)) == option.key
                assert codec.key_id(option.key) >= codec.commands
            chosen = (*chosen, rng.choice(step.options).key)


def test_a_command_outside_the_codec_is_refused() -> None:
    codec = load_ruleset("sealed-bids").action_codec(None)  # type: ignore[attr-defined]
    with pytest.raises(KeyError, match="token = 9"):
        codec.encode(Bid(1, 9))
    with pytest.raises(ValueError, match="not the id of a command"):
        codec.decode(codec.size, 1)


def test_sealed_bids_ids_are_the_tokens_then_the_roll() -> None:
    codec = load_ruleset("sealed-bids").action_codec(None)  # type: ignore[attr-defined]
    assert [codec.encode(Bid(2, token)) for token in (1, 2, 3, 4, 5)] == [0, 1, 2, 3, 4]
    assert codec.decode(5, 3) == RollPrize(3)
    assert codec.draws_chance(RollPrize(3)) and not codec.draws_chance(RollPrize(3, die=4))
    assert codec.next_die(RollPrize(3), (), lambda c: None) == 6
    assert codec.next_die(RollPrize(3), (4,), lambda c: None) is None
    assert codec.supplied(RollPrize(3), (4,)) == RollPrize(3, die=4)


class Throw(msgspec.Struct, frozen=True):
    """A command of a made-up game that rolls dice until a six, for the codec alone."""

    player: int
    dice: tuple[int, ...] | None = None


def _sixes(command: Throw) -> None:
    """Roll until a six, as a ruleset's decide would with the engine's dice."""
    dice = Dice(None, 0, command.dice)
    while dice.roll() != 6:
        pass
    dice.done()


def test_a_command_of_several_dice_rolls_as_many_as_the_rules_ask() -> None:
    codec: ActionCodec[Throw] = ActionCodec((Kind(Throw, chance="dice", dice="many"),))
    assert codec.next_die(Throw(1), (), _sixes) == 6
    assert codec.next_die(Throw(1), (2, 3), _sixes) == 6
    assert codec.next_die(Throw(1), (2, 6), _sixes) is None
    assert codec.supplied(Throw(1), (2, 6)) == Throw(1, (2, 6))


def test_too_few_dice_names_the_faces_of_the_next() -> None:
    dice = Dice(None, 0, (3,))
    assert dice.roll(6) == 3
    with pytest.raises(TooFewDiceError) as short:
        dice.roll(4)
    assert short.value.sides == 4


def test_a_field_listing_a_value_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        ActionCodec((Kind(Bid, (("token", (1, 1)),)),))


def _decide(ruleset: Any, state: Any, command: Any) -> object:
    return ruleset.decide(command, state)


@pytest.mark.parametrize("game", GAMES)
def test_a_chance_point_rolls_the_dice_the_game_records(game: str) -> None:
    ruleset = load_ruleset(game)
    codec = ruleset.action_codec(ruleset.settings_type())  # type: ignore[attr-defined]
    rng = random.Random(13)
    rolled = 0
    for _ in range(2):
        state = ruleset.initial_state(ruleset.settings_type(), None)
        while seats := ruleset.to_act(state):
            command = random_command(ruleset.legal_commands(state, seats[0]), rng)
            events, after = ruleset.decide(command, state)
            if codec.draws_chance(command):
                recorded = ruleset.with_recorded_chance(command, events)
                kind = codec.kind_of(command)
                supplied = getattr(recorded, kind.chance)
                faces = (supplied,) if kind.dice == "one" else tuple(supplied)
                decide = functools.partial(_decide, ruleset, state)
                for n, face in enumerate(faces):
                    sides = codec.next_die(command, faces[:n], decide)
                    assert sides is not None and 1 <= face <= sides
                assert codec.next_die(command, faces, decide) is None
                assert ruleset.decide(codec.supplied(command, faces), state)[1] == after
                rolled += 1
            state = after
    assert rolled > 0
