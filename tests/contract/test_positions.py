"""Every game's positions as text (engine/position.py), over random legal play.

Each test runs over every ruleset of ``conftest.RULESETS``, in a seeded match, a
match with secret salts and one with secret chance, as the contract kit plays them;
and every viewer's view log of a match played on from a position, whose header
names the position as that viewer may know it.
"""

from __future__ import annotations

import random
from typing import Any, Final

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core.engine.audit import Revealed
from multiversus_core.engine.log import MatchLog, decode_log, encode_log
from multiversus_core.engine.play import play_from
from multiversus_core.engine.position import (
    MAX_POSITION,
    edit_position,
    opening_state,
    read_position,
    read_redacted_position,
    redact_position,
    without_chance,
    write_position,
)
from multiversus_core.engine.verify import (
    check_commitments,
    verify_against,
    verify_data,
    verify_view,
)
from multiversus_core.engine.viewlog import (
    decode_view_log,
    encode_view_log,
    redact_log,
    replayable,
)
from tests.contract.kit import encoded, examples, play

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


# --- view logs of a match from a position ----------------------------------------------------


def _played_on(ruleset: Any, base: Any, seed: int) -> list[tuple[MatchLog, list[Any]]]:
    """Matches played on to the end from positions of random matches (a state in the middle,
    and states holding secrets committed before them, if the game has any), each with its
    referee's states from the position on."""
    rng = random.Random(seed)
    found = []
    for example in examples(ruleset, base, seed)[1:]:  # secret salts, then secret chance
        states = play(ruleset, example, rng).states
        holding = [s for s in states if ruleset.auditor(s.settings).start_at(s)]
        for state in [states[len(states) // 2], *holding[:1], *holding[-1:]]:
            bots = {seat: ruleset.bots["random"](seed + seat) for seat in range(1, 7)}
            log, _ = play_from(write_position(state), bots)
            referee = opening_state(ruleset, log.header, log.chance)
            path = [referee]
            for entry in log.entries:
                path.append(ruleset.fold(path[-1], entry.events))
            found.append((log, path))
    return found


def _revealed_at(ruleset: Any, log: MatchLog, key: str) -> int:
    """The 1-based entry whose events reveal the secret under ``key`` (publicly)."""
    read = ruleset.auditor(log.header.settings).read
    for number, entry in enumerate(log.entries, start=1):
        for event in entry.events:
            if any(isinstance(f, Revealed) and f.key == key and not f.own for f in read(event)):
                return number
    return len(log.entries) + 1


@settings(max_examples=2, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_each_viewers_view_log_of_a_match_from_a_position_verifies_and_keeps_the_others_secrets(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for log, path in _played_on(ruleset, base_settings, seed):
        start = path[0]
        held = ruleset.auditor(start.settings).start_at(start)
        views = []
        hidden: set[str] = set()
        for viewer in ruleset.viewers:
            redacted = redact_log(log, viewer)
            data = encode_view_log(redacted)
            read = decode_view_log(data)
            assert read == redacted and encode_view_log(read) == data
            checked = verify_view(read)
            assert checked.ok, (viewer, log.header.position, checked.problem)
            views.append(read)
            # The header names the position as the viewer sees it, stand-ins and all.
            position = read_redacted_position(read.header.position, viewer, ruleset.id)
            assert encoded(ruleset.view(position.state, viewer)) == encoded(
                ruleset.view(without_chance(start), viewer)
            )
            hidden.update(position.hidden)
            lines = data.split(b"\n")
            for secret in held:
                if secret.key not in position.hidden:
                    continue
                revealed = _revealed_at(ruleset, log, secret.key)
                for number, line in enumerate(lines[:revealed]):
                    assert secret.salt.encode() not in line, (viewer, secret.key, number)
            chance = log.chance
            if chance is not None:
                assert str(chance.seed).encode() not in lines[0]
                assert chance.salt.encode() not in b"".join(lines[:-2])  # the end reveals it
            # Filled in from the reveals, it replays as the viewer saw the match.
            filled = replayable(read)
            state = read_position(filled.header.position, ruleset.id)
            assert encoded(ruleset.view(state, viewer)) == encoded(ruleset.view(start, viewer))
            for number, entry in enumerate(filled.entries, start=1):
                state = ruleset.fold(state, entry.events)
                assert encoded(ruleset.view(state, viewer)) == encoded(
                    ruleset.view(path[number], viewer)
                ), (viewer, number)
        # Every secret the position holds is hidden from some viewer (the public, at least).
        assert hidden == {secret.key for secret in held}
        for result in verify_against(log, views)[1:]:
            assert result.ok, (result.view, result.problem)
        # Cut short, before the secrets are revealed, too.
        for cut in sorted({1, len(log.entries) // 2} - {0, len(log.entries)}):
            part = MatchLog(header=log.header, entries=tuple(log.entries[:cut]))
            shown = [redact_log(part, viewer) for viewer in ruleset.viewers]
            for result in verify_against(part, shown):
                assert result.ok, (cut, result.view, result.problem)


def _rechained(redacted: Any, position: str) -> Any:
    """The view log with another position in its header, its chain made again to fit."""
    header = msgspec.structs.replace(redacted.header, position=position)
    return decode_view_log(encode_view_log(msgspec.structs.replace(redacted, header=header)))


@settings(max_examples=1, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_a_view_logs_position_changed_is_caught(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for log, path in _played_on(ruleset, base_settings, seed)[:3]:
        if len(log.entries) < 2:
            continue  # no entry to chain the header to
        cut = MatchLog(header=log.header, entries=tuple(log.entries[:-1]))  # not over
        for viewer in ruleset.viewers:
            redacted = redact_log(cut, viewer)
            data = encode_view_log(redacted)
            header, rest = data.split(b"\n", 1)
            # Changed by hand, the chain breaks at the first entry.
            edited = header.replace(b'"position":"', b'"position":"x') + b"\n" + rest
            assert edited != data
            assert verify_data(edited).code == "log_error"
            assert "(bad_chain)" in (verify_data(edited).problem or "")
            # Changed and chained again: the match log, seen as the viewer, disowns it.
            draws = getattr(path[0], "draws", 0)
            other = edit_position(log.header.position, f"draws={draws + 1}")
            forged = _rechained(redacted, redact_position(other, viewer))
            (_, against) = verify_against(cut, [forged])
            assert not against.ok, viewer
            assert against.code in ("views_differ", "bad_settings", "rules_differ"), against
            # A stand-in shown as the secret, or the secrets it hides named otherwise, are
            # not the viewer's position: refused before the rules are run.
            text = redacted.header.position
            if "hidden=" in text:
                bare = text.rsplit(" hidden=", 1)[0]
                refused = verify_view(_rechained(redacted, bare))
                assert (refused.ok, refused.code) == (False, "bad_settings"), refused
                assert "is not as the" in (refused.problem or "")
