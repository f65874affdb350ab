"""Verification re-runs the rules on every recorded command (issue: hidden information you
can trust; verification): a changed rule or an edited outcome is caught where it appears."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from multiversus_core import MatchSettings
from multiversus_core.engine.log import (
    MatchLog,
    decode_log,
    encode_log,
)
from multiversus_core.engine.verify import verify, verify_file
from multiversus_core.rulesets.multiversus.events import InitiativeRolled
from tests.support import bot_match


def bot_log(seed: int = 3) -> MatchLog:
    settings = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=seed)
    return bot_match(settings, seed + 1)[0]


def resealed(log: MatchLog) -> MatchLog:
    """The log rewritten with a fresh, valid hash chain (as a forger would)."""
    return decode_log(encode_log(log))


def test_an_honest_log_verifies(tmp_path: Path) -> None:
    log = bot_log()
    result = verify(log)
    assert result.ok and result.finished and result.entries == len(log.entries)
    path = tmp_path / "match.jsonl"
    path.write_bytes(encode_log(log))
    assert verify_file(path).ok


def test_an_edited_die_is_caught_at_its_entry_round_and_turn_even_with_a_good_chain() -> None:
    log = bot_log()
    number, entry = next(
        (n, e) for n, e in enumerate(log.entries, 1) if isinstance(e.events[0], InitiativeRolled)
    )
    rolled = entry.events[0]
    assert isinstance(rolled, InitiativeRolled)
    forged = replace(rolled, die=rolled.die % 6 + 1)
    entries = list(log.entries)
    entries[number - 1] = replace(entry, events=(forged, *entry.events[1:]))
    result = verify(resealed(replace(log, entries=tuple(entries))))
    assert not result.ok and result.code == "rules_differ"
    assert result.entry == number and result.round == 1 and result.turn == 1
    assert result.problem is not None
    assert result.problem.startswith(
        f"entry {number} (line {number + 1}), round 1, turn 1: event 1"
    )


def test_a_changed_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    log = bot_log()
    from multiversus_core.rulesets.multiversus import initiative

    # Suppose the Initiative were never lost on a six.
    monkeypatch.setattr(
        initiative, "loses_initiative", lambda die, greys, six_loses=True: die <= greys
    )
    sixes = [
        n
        for n, e in enumerate(log.entries, 1)
        if any(isinstance(x, InitiativeRolled) and x.die == 6 for x in e.events)
    ]
    assert sixes, "this match has no six; pick another seed"
    result = verify(log)
    assert not result.ok and result.code == "rules_differ" and result.entry == sixes[0]


def test_a_command_the_rules_refuse_is_reported() -> None:
    log = bot_log()
    entries = list(log.entries)
    entries.insert(5, entries[4])  # the same command twice in a row
    result = verify(resealed(replace(log, entries=tuple(entries))))
    assert not result.ok and result.code == "command_refused" and result.entry == 6


def test_an_unreadable_log_fails_with_its_log_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"not a log\n")
    result = verify_file(path)
    assert not result.ok and result.code == "log_error" and str(path) in (result.problem or "")
    missing = verify_file(tmp_path / "missing.jsonl")
    assert not missing.ok and missing.code == "log_error"


def test_a_log_naming_an_unknown_team_fails_on_its_settings() -> None:
    log = bot_log()
    header = replace(log.header, settings=replace(log.header.settings, heroes="nobody"))
    result = verify(replace(log, header=header))
    assert not result.ok and result.code == "bad_settings"


def test_a_difference_names_the_first_event_apart_and_whose_events_they_are() -> None:
    from multiversus_core.engine.verify import _difference

    assert _difference((1, 2), (1, 3)) == "event 2: the rules give 2 where the log has 3"
    assert _difference((1, 2), (1,), "the view") == "the rules give 1 more event(s), from 2"
    assert _difference((1,), (1, 2, 3), "the view") == (
        "the view has 2 event(s) the rules do not give, from 2"
    )
