"""Cross-checking a match log against the other side's view log (``verify --against``).

Whoever holds a match log holds every salt in it, so they can rewrite a secret
consistently: change it, recompute its commitment with the salt the log holds,
its reveal and the chain. Verify alone cannot catch that (the rewritten log is
one the rules could have produced); the other side's view log, taken before
the end, holds the commitment made at the time and disagrees.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core import MatchSettings, RollInitiative, SelectReaction
from multiversus_core.engine.log import LogEntry, MatchLog, encode_log
from multiversus_core.engine.play import play_match
from multiversus_core.engine.verify import verify, verify_against, verify_view
from multiversus_core.engine.viewlog import encode_view_log
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.events import (
    ActivationEnded,
    CoinsSelected,
    InitiativeRolled,
    ReactionRevealed,
    ReactionSelected,
    ReactionTriggered,
    RoundStarted,
)
from multiversus_core.rulesets.multiversus.secrets import (
    chance_commitment,
    commit,
    opening,
    selection_value,
)
from multiversus_core.rulesets.multiversus.settings import Chance
from multiversus_core.rulesets.multiversus.views import redact_log

SETTINGS = MatchSettings(heroes="banner-knight", adversaries="smogon", salts="secrets")


def unused_attack_reaction(log: MatchLog) -> tuple[int, int] | None:
    """The entries (0-based) of an Attack reaction selected and revealed unused at the end of its
    activation, with no reaction offered in between; None if the log has none."""
    for start, entry in enumerate(log.entries):
        selected = [e for e in entry.events if isinstance(e, ReactionSelected)]
        if not selected or selected[0].actions != ("attack",) or selected[0].coin is None:
            continue
        for end in range(start + 1, len(log.entries)):
            events = log.entries[end].events
            if any(isinstance(e, ReactionTriggered) for e in events):
                break
            if any(isinstance(e, ReactionRevealed) for e in events):
                if any(isinstance(e, ActivationEnded) for e in events):
                    return start, end
                break
    return None


def rewrite_attack_to_defend(log: MatchLog, start: int, end: int) -> MatchLog:
    """Rewrite the reaction to Defend: the command, the commitment (with the log's own salt),
    the reveal; encode_log recomputes the chain."""
    entries = list(log.entries)
    entry = entries[start]
    command = entry.command
    assert isinstance(command, SelectReaction) and command.salt is not None
    round_, activation, seat = 0, 0, command.player
    for earlier in entries[: start + 1]:
        for event in earlier.events:
            if isinstance(event, RoundStarted):
                round_ = event.round
            elif isinstance(event, CoinsSelected):
                activation += 1
    events = []
    for event in entry.events:
        if isinstance(event, ReactionSelected) and event.coin is not None:
            what = opening(
                log.settings,
                round=round_,
                activation=activation,
                seat=seat,
                side=event.side,
                kind="reaction",
                value=selection_value(event.coin, ("defend",)),
            )
            event = msgspec.structs.replace(
                event, actions=("defend",), commitment=commit(command.salt, what)
            )
        events.append(event)
    entries[start] = LogEntry(
        command=msgspec.structs.replace(command, actions=("defend",)), events=tuple(events)
    )
    revealed = tuple(
        msgspec.structs.replace(e, actions=("defend",)) if isinstance(e, ReactionRevealed) else e
        for e in entries[end].events
    )
    entries[end] = LogEntry(command=entries[end].command, events=revealed)
    return msgspec.structs.replace(log, entries=tuple(entries))


def _match_with_unused_attack_reaction() -> tuple[MatchLog, int, int]:
    for seed in range(40):
        log = play_match(SETTINGS, {1: RandomBot(seed), 2: RandomBot(seed + 100)})[0]
        found = unused_attack_reaction(log)
        if found is not None:
            return log, *found
    raise AssertionError("no bot match with an unused Attack reaction")


def test_a_consistent_rewrite_of_an_unused_reaction_passes_verify_alone() -> None:
    # Documented limit: the rewritten log is one the rules could have produced.
    log, start, end = _match_with_unused_attack_reaction()
    forged = rewrite_attack_to_defend(log, start, end)
    assert forged.entries[start] != log.entries[start]
    assert verify(forged).ok


def test_verify_against_the_other_sides_view_log_catches_the_rewrite(tmp_path: Path) -> None:
    log, start, end = _match_with_unused_attack_reaction()
    forged = rewrite_attack_to_defend(log, start, end)
    reactive = next(e.side for e in log.entries[start].events if isinstance(e, ReactionSelected))
    other = "adversaries" if reactive == "heroes" else "heroes"
    # the other side's view, taken before the end (right after the selection), and at the end
    early = redact_log(msgspec.structs.replace(log, entries=log.entries[: start + 1]), other)
    late = redact_log(log, other)
    results = verify_against(forged, [early, late], "forged.jsonl", ["early.jsonl", "late.jsonl"])
    assert [r.ok for r in results] == [True, False, False]
    assert [r.code for r in results[1:]] == ["views_differ", "views_differ"]
    assert [r.entry for r in results[1:]] == [start + 1, start + 1]
    assert results[1].problem is not None and "commitment" in results[1].problem
    # the honest log agrees with both
    assert all(r.ok for r in verify_against(log, [early, late]))
    # and so says the command line, naming the first disagreement
    (tmp_path / "forged.jsonl").write_bytes(encode_log(forged))
    (tmp_path / "early.jsonl").write_bytes(encode_view_log(early))
    cli = CliRunner().invoke(
        app,
        [
            "verify",
            str(tmp_path / "forged.jsonl"),
            "--against",
            str(tmp_path / "early.jsonl"),
            "--format",
            "json",
        ],
    )
    assert cli.exit_code == 1, cli.output
    found = msgspec.json.decode(cli.output)
    assert [r["ok"] for r in found] == [True, False]
    assert found[1]["code"] == "views_differ" and found[1]["entry"] == start + 1
    assert found[1]["against"] == str(tmp_path / "forged.jsonl")


def test_verify_against_a_view_log_of_another_match_names_the_header() -> None:
    log = play_match(SETTINGS, {1: RandomBot(1), 2: RandomBot(2)})[0]
    other = play_match(
        msgspec.structs.replace(SETTINGS, seed=9), {1: RandomBot(1), 2: RandomBot(2)}
    )[0]
    results = verify_against(log, [redact_log(other, "heroes")])
    assert results[1].code == "views_differ"
    assert results[1].problem is not None and results[1].problem.startswith("the header: ")


def test_verify_against_needs_one_match_log_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["verify", str(tmp_path), "--against", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "give one log file as PATH" in result.output


def test_a_drawn_roll_rewritten_as_a_table_roll_passes_verify_alone_and_not_against() -> None:
    # Documented limit: a die at the table is taken as its command records it, so a holder can
    # turn a roll the revealed chance seed decided into a table roll with another face.
    chance = Chance(seed=7, salt="00" * 31 + "01")
    settings = MatchSettings(seed=0, chance=chance_commitment(chance))
    log = play_match(settings, {1: RandomBot(0), 2: RandomBot(1000)}, chance)[0]
    forgeries = [
        (index, forged)
        for index, entry in enumerate(log.entries)
        if isinstance(entry.command, RollInitiative)
        for forged in _as_table_rolls(log, index)
        if verify(forged).ok
    ]
    assert forgeries, "no roll the rules accept with another face"
    for index, forged in forgeries:
        # the forger's own view log, rechained, passes too
        assert verify_view(redact_log(forged, "heroes")).ok
        # the other side's view log, or the honest match log, names the changed command
        results = verify_against(forged, [redact_log(log, "adversaries")])
        assert results[1].code == "views_differ" and results[1].entry == index + 1
        assert results[1].problem is not None and "command differs" in results[1].problem


def _as_table_rolls(log: MatchLog, index: int) -> list[MatchLog]:
    """The log with entry ``index``'s roll made at the table with each other face."""
    entry = log.entries[index]
    rolled = next(e for e in entry.events if isinstance(e, InitiativeRolled))
    forged = []
    for face in range(1, 7):
        if face == rolled.die:
            continue
        events = tuple(
            msgspec.structs.replace(e, die=face) if e is rolled else e for e in entry.events
        )
        command = msgspec.structs.replace(entry.command, die=face)
        changed = msgspec.structs.replace(entry, command=command, events=events)
        entries = (*log.entries[:index], changed, *log.entries[index + 1 :])
        forged.append(msgspec.structs.replace(log, entries=entries))
    return forged
