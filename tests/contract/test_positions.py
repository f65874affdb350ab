"""Every game's positions as text (engine/position.py), over random legal play.

Each test runs over every ruleset of ``conftest.RULESETS``, in a seeded match, a
match with secret salts and one with secret chance, as the contract kit plays them.
"""

from __future__ import annotations

import random
from typing import Any, Final

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core.engine.log import decode_log, encode_log
from multiversus_core.engine.play import play_from
from multiversus_core.engine.position import (
    MAX_POSITION,
    read_position,
    without_chance,
    write_position,
)
from multiversus_core.engine.verify import check_commitments, verify_data
from tests.contract.kit import examples, play

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
KIT = settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


MOST: Final = 60
"""The most states of one match a test reads (a long match is sampled, its last kept)."""


def _states(ruleset: Any, base: Any, seed: int) -> list[Any]:
    """States of a random match of each kind of settings: its start, its end, and others."""
    rng = random.Random(seed)
    found = []
    for example in examples(ruleset, base, seed):
        states = play(ruleset, example, rng).states
        found.extend([states[0], *rng.sample(states[1:-1], min(MOST, len(states) - 2))])
        found.append(states[-1])
    return found


@KIT
@given(seed=SEEDS)
def test_every_position_reached_in_play_is_written_and_read_back_exactly(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for state in _states(ruleset, base_settings, seed):
        text = write_position(state)
        assert text.startswith(f"{ruleset.id}/")
        assert "\n" not in text and len(text) <= MAX_POSITION
        back = read_position(text, ruleset.id)
        assert back == state, text
        assert write_position(back) == text


@KIT
@given(seed=SEEDS)
def test_a_position_without_its_chance_seed_holds_no_seed(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for state in _states(ruleset, base_settings, seed)[::7]:
        shown = write_position(without_chance(state))
        chance = getattr(state, "chance", None)
        if chance is not None:
            assert str(chance.seed) not in shown and chance.salt not in shown
            assert chance.salt in write_position(state)  # the referee's position holds it
        assert read_position(shown) == without_chance(state)


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_a_match_played_on_from_a_position_logs_it_and_verifies(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    rng = random.Random(seed)
    for example in examples(ruleset, base_settings, seed):
        states = play(ruleset, example, rng).states
        # and a state holding a secret committed before it, if the match has one
        holding = [s for s in states if ruleset.auditor(s.settings).start_at(s)]
        for state in [*rng.sample(states, 3), *holding[:1]]:
            text = write_position(state)
            bots = {seat: ruleset.bots["random"](seed + seat) for seat in range(1, 7)}
            for public in (None, 7):
                log, last = play_from(text, bots, seed=public)
                assert log.header.position == write_position(without_chance(log_start(log)))
                data = encode_log(log)
                assert decode_log(data) == log
                checked = verify_data(data)
                assert checked.ok, (text, checked.problem)
                assert check_commitments(log) == (), text  # verify audits only on a failure
                assert (log.chance is None) == (public is not None or not log.entries)
                assert ruleset.outcome(last) is not None


def log_start(log: Any) -> Any:
    """The state the header's position names, read back."""
    return read_position(log.header.position)


def test_a_match_from_a_position_gets_fresh_chance_unless_given_a_seed(
    ruleset: Any, base_settings: Any
) -> None:
    (example, *_) = examples(ruleset, base_settings, 5)
    state = play(ruleset, example, random.Random(5)).states[9]
    text = write_position(state)
    bots = {seat: ruleset.bots["random"](seat) for seat in range(1, 7)}
    first, _ = play_from(text, bots)
    second, _ = play_from(text, bots)
    commitments = {ruleset.table(log.header.settings).chance for log in (first, second)}
    assert len(commitments) == 2 and "" not in commitments  # secret, and fresh each time
    seeded, _ = play_from(text, bots, seed=3)
    table = ruleset.table(seeded.header.settings)
    assert (table.seed, table.chance) == (3, "")
    # Everything but the chance is the position's.
    started = read_position(seeded.header.position)
    assert msgspec.structs.replace(started, settings=state.settings) == without_chance(state)
