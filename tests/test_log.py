"""Match logs: round trips, the writer, strict reading, replay and the schema (docs/log-format.md)."""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import subprocess
import sys
import typing
from functools import cache
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import multiversus_core
from multiversus_core import MatchSettings, MatchState
from multiversus_core.engine.chance import draw, flip_coin, roll_die
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import (
    LOG_ERROR_CODES,
    LOG_FORMAT,
    LOG_VERSION,
    LogEntry,
    LogWriter,
    MatchLog,
    decode_log,
    encode_entry,
    encode_header,
    encode_log,
    log_schema,
    new_header,
    plain_names,
    read_log,
    replay,
)
from multiversus_core.engine.registry import game_ids
from multiversus_core.engine.verify import check_commitments
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.events import EVENT_TYPES, ActionStarted
from tests.support import MUTATION, bot_match, mutated

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_FILE = ROOT / "docs" / "log-schema.json"
FORMAT_DOC = ROOT / "docs" / "log-format.md"
SEEDS = (0, 1, 2, 3, 4)


@cache
def _played(seed: int) -> tuple[MatchLog, MatchState]:
    """A complete random match: its log (built with apply) and its live final state."""
    return bot_match(MatchSettings(seed=seed), seed + 1000)


def _log_bytes(seed: int = 0) -> bytes:
    return encode_log(_played(seed)[0])


def _lines(seed: int = 0) -> list[bytes]:
    """The log's lines, each with its newline."""
    return _log_bytes(seed).splitlines(keepends=True)


def _read_error(data: bytes, path: str = "match.jsonl") -> LogError:
    with pytest.raises(LogError) as caught:
        decode_log(data, path)
    assert caught.value.path == path
    return caught.value


def _with_line(index: int, line: bytes, seed: int = 0) -> bytes:
    """The log with its line ``index`` (0-based) replaced by ``line``."""
    lines = _lines(seed)
    lines[index] = line
    return b"".join(lines)


def _edited(index: int, edit: dict[str, object], seed: int = 0) -> bytes:
    """The log with keys of line ``index`` (0-based) changed, still compact JSON."""
    record = json.loads(_lines(seed)[index])
    record.update(edit)
    return _with_line(index, msgspec.json.encode(record) + b"\n", seed)


# Round trips


@pytest.mark.parametrize("seed", SEEDS)
def test_round_trip_of_a_random_match_is_equal_and_byte_identical(seed: int) -> None:
    # given the log of a complete random match
    log, _ = _played(seed)
    data = encode_log(log)
    # when it is decoded and encoded again
    decoded = decode_log(data)
    # then the log is equal and its bytes identical
    assert decoded == log
    assert encode_log(decoded) == data


@pytest.mark.parametrize("seed", SEEDS)
def test_replay_of_a_decoded_log_equals_the_live_final_state(seed: int) -> None:
    # given a match played live and its log read back from bytes
    log, final = _played(seed)
    decoded = decode_log(encode_log(log))
    # when the log is replayed, then it reaches the state the live match reached
    assert replay(decoded) == final
    assert replay(decoded).is_over


def test_encoding_is_compact_with_fields_in_struct_order() -> None:
    header = encode_header(MatchSettings(heroes="banner-knight", seed=7))
    engine = multiversus_core.__version__.encode()
    assert header == (
        b'{"record":"header","format":"multiversus-log","version":4,"engine":"' + engine + b'",'
        b'"settings":{"heroes":"banner-knight","adversaries":null,"scenario":null,'
        b'"variants":[],"seed":7,"players":["Player 1","Player 2"],"salts":"seed",'
        b'"chance":""}}\n'
    )
    entry = _played(0)[0].entries[0]
    prev = hashlib.sha256(header[:-1]).hexdigest()
    line = encode_entry(entry.command, entry.events, seq=1, prev=prev)
    assert line.startswith(
        b'{"record":"entry","seq":1,"prev":"' + prev.encode() + b'",'
        b'"command":{"kind":"flip_for_set_up","player":1,'
    )
    assert line.count(b"\n") == 1
    assert line.endswith(b"\n")


def test_a_log_of_only_the_header_round_trips() -> None:
    data = encode_header(MatchSettings())
    log = decode_log(data)
    assert log.entries == ()
    assert log.header.format == LOG_FORMAT
    assert log.header.version == LOG_VERSION
    assert encode_log(log) == data


# The writer


def test_log_writer_writes_what_encode_log_gives(tmp_path: Path) -> None:
    # given a played match
    log, _ = _played(1)
    path = tmp_path / "match.jsonl"
    # when every entry is appended by a writer
    with LogWriter.create(path, log.settings) as writer:
        for entry in log.entries:
            writer.append(entry.command, entry.events)
        assert writer.lines == 1 + len(log.entries) + 1  # the header and the end record
    # then the file is the canonical encoding and reads back equal
    assert writer.closed
    assert path.read_bytes() == encode_log(log)
    assert read_log(path) == log


def test_log_writer_resume_appends_after_the_same_bytes(tmp_path: Path) -> None:
    # given a log written half way and closed
    log, _ = _played(2)
    half = len(log.entries) // 2
    path = tmp_path / "match.jsonl"
    with LogWriter.create(path, log.settings) as writer:
        for entry in log.entries[:half]:
            writer.append(entry.command, entry.events)
    prefix = path.read_bytes()
    # when it is resumed and the rest appended
    writer, so_far = LogWriter.resume(path)
    with writer:
        assert so_far == MatchLog(header=log.header, entries=log.entries[:half])
        for entry in log.entries[half:]:
            writer.append(entry.command, entry.events)
    # then the first bytes are unchanged and the whole log is complete
    data = path.read_bytes()
    assert data.startswith(prefix)
    assert data == encode_log(log)


def test_log_writer_never_overwrites_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(b"keep me\n")
    with pytest.raises(LogError) as caught:
        LogWriter.create(path, MatchSettings())
    assert caught.value.line == 0
    assert "exists" in caught.value.reason
    assert path.read_bytes() == b"keep me\n"


def test_log_writer_refuses_to_append_once_closed(tmp_path: Path) -> None:
    writer = LogWriter.create(tmp_path / "match.jsonl", MatchSettings())
    writer.close()
    entry = _played(0)[0].entries[0]
    with pytest.raises(ValueError, match="closed"):
        writer.append(entry.command, entry.events)


def test_read_log_refuses_a_truncated_log_and_never_repairs_it(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(_log_bytes()[:-10])
    with pytest.raises(LogError, match="truncated") as caught:
        read_log(path)
    assert caught.value.code == "truncated"
    assert path.read_bytes() == _log_bytes()[:-10]


# Strict reading: files


def test_read_log_of_a_missing_file_names_line_0_and_the_system_reason(tmp_path: Path) -> None:
    path = tmp_path / "missing.jsonl"
    with pytest.raises(LogError) as caught:
        read_log(path)
    assert caught.value.path == str(path)
    assert caught.value.line == 0
    assert caught.value.reason == "no such file"
    assert str(caught.value) == f"{path}: no such file"


def test_read_log_names_the_file_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(_with_line(3, b"\n"))
    with pytest.raises(LogError) as caught:
        read_log(path)
    assert caught.value.path == str(path)
    assert caught.value.line == 4
    assert caught.value.code == "blank_line"
    assert caught.value.offset == sum(map(len, _lines()[:3]))
    assert str(caught.value).startswith(f"{path}, line 4, byte {caught.value.offset}: ")


# Strict reading: the header


def test_strict_reading_an_empty_file_is_refused_at_line_1() -> None:
    error = _read_error(b"")
    assert error.line == 1
    assert "empty" in error.reason


def test_strict_reading_a_first_line_that_is_not_a_header_is_refused() -> None:
    error = _read_error(b"".join(_lines()[1:]))
    assert error.line == 1
    assert "line 1 must be the header record" in error.reason
    assert "'entry'" in error.reason


def test_strict_reading_a_header_on_a_later_line_is_refused() -> None:
    lines = _lines()
    error = _read_error(b"".join([*lines[:3], lines[0], *lines[3:]]))
    assert error.line == 4
    assert "second header" in error.reason


def test_strict_reading_a_newer_version_names_both_versions() -> None:
    # given a version 5 header, which may well carry fields version 4 does not know
    data = _edited(0, {"version": 5, "checksum": "abc"})
    error = _read_error(data)
    assert error.line == 1
    assert error.code == "newer_version"
    assert error.reason == "this log is format version 5; this engine reads versions 1 to 4"


def test_strict_reading_a_version_older_than_1_is_refused() -> None:
    error = _read_error(_edited(0, {"version": 0}))
    assert error.line == 1
    assert error.code == "bad_version"
    assert "versions are integers from 1" in error.reason


def test_strict_reading_a_foreign_format_is_refused() -> None:
    error = _read_error(_edited(0, {"format": "chess-pgn"}))
    assert error.line == 1
    assert "not a multiversus log" in error.reason
    assert "'chess-pgn'" in error.reason


def test_strict_reading_an_unknown_field_in_the_header_is_refused() -> None:
    error = _read_error(_edited(0, {"written_at": "2024-01-01"}))
    assert error.line == 1
    assert error.reason == "unknown field 'written_at' at `$`"


# Strict reading: entries


def test_strict_reading_an_unknown_field_names_its_path() -> None:
    record = json.loads(_lines()[5])
    record["command"]["note"] = "hello"
    error = _read_error(_with_line(5, msgspec.json.encode(record) + b"\n"))
    assert error.line == 6
    assert error.reason == "unknown field 'note' at `$.command`"


def test_strict_reading_an_unknown_event_kind_is_refused() -> None:
    record = json.loads(_lines()[2])
    record["events"][0]["kind"] = "dice_exploded"
    error = _read_error(_with_line(2, msgspec.json.encode(record) + b"\n"))
    assert error.line == 3
    assert error.reason == "unknown event kind 'dice_exploded' at `$.events[0].kind`"


def test_strict_reading_an_unknown_command_kind_is_refused() -> None:
    error = _read_error(_edited(2, {"command": {"kind": "cheat", "player": 1}}))
    assert error.line == 3
    assert error.reason == "unknown command kind 'cheat' at `$.command.kind`"


def test_strict_reading_a_wrong_type_names_msgspec_path() -> None:
    # given an entry whose third event is an Initiative roll with a die that is not a number
    lines = _lines()
    command = {"kind": "roll_initiative", "player": 1, "die": 6}
    events = [
        {"kind": "activation_ended", "side": "heroes"},
        {"kind": "activation_ended", "side": "heroes"},
        {"kind": "initiative_rolled", "side": "heroes", "die": "six", "greys": 0, "lost": True},
    ]
    entry = msgspec.json.encode({"record": "entry", "command": command, "events": events})
    error = _read_error(b"".join([*lines[:7], entry + b"\n", *lines[7:]]))
    assert error.line == 8
    assert error.reason == "wrong type at `$.events[2].die`: expected int, got str"


def test_strict_reading_a_missing_field_is_refused() -> None:
    error = _read_error(_edited(4, {"command": {"kind": "end_action"}}))
    assert error.line == 5
    assert error.reason == "missing field 'player' at `$.command`"


def test_strict_reading_a_value_outside_a_literal_is_refused() -> None:
    error = _read_error(_edited(4, {"command": {"kind": "end_action", "player": 3}}))
    assert error.line == 5
    assert "value 3 is not allowed at `$.command.player`" in error.reason


def test_strict_reading_a_value_outside_an_event_literal_is_refused() -> None:
    # given an entry whose event names a condition the game does not have
    record = json.loads(_lines()[2])
    record["events"] = [{"kind": "condition_changed", "figure": "x", "condition": "dazed"}]
    error = _read_error(_with_line(2, msgspec.json.encode(record) + b"\n"))
    assert error.line == 3
    assert "value 'dazed' is not allowed at `$.events[0].condition`" in error.reason


def test_strict_reading_the_old_end_move_kind_is_refused() -> None:
    error = _read_error(_edited(4, {"command": {"kind": "end_move", "player": 1}}))
    assert error.line == 5
    assert error.reason == "unknown command kind 'end_move' at `$.command.kind`"


# Strict reading: lines and bytes


def test_strict_reading_a_last_line_without_newline_is_truncated() -> None:
    data = _log_bytes()
    count = data.count(b"\n")
    error = _read_error(data[:-1])
    assert error.line == count
    assert "does not end with a newline" in error.reason
    assert "truncated" in error.reason


def test_strict_reading_a_line_that_is_not_complete_json_is_refused() -> None:
    line = _lines()[6]
    error = _read_error(_with_line(6, line[: len(line) // 2] + b"\n"))
    assert error.line == 7
    assert "not complete JSON" in error.reason


def test_strict_reading_malformed_json_is_refused() -> None:
    error = _read_error(_with_line(6, b'{"record" "entry"}\n'))
    assert error.line == 7
    assert "not valid JSON" in error.reason


def test_strict_reading_invalid_utf8_is_refused() -> None:
    line = _lines()[3]
    at = line.index(b'"kind":"') + len(b'"kind":"')
    error = _read_error(_with_line(3, line[:at] + b"\xff" + line[at:]))
    assert error.line == 4
    assert error.reason == f"invalid UTF-8 at byte {at + 1} of the line"


def test_strict_reading_invalid_utf8_in_the_header_is_refused() -> None:
    line = _lines()[0]
    error = _read_error(_with_line(0, line.replace(b"Player 1", b"Player \xc3")))
    assert error.line == 1
    assert "invalid UTF-8" in error.reason


def test_strict_reading_a_blank_line_is_refused() -> None:
    lines = _lines()
    error = _read_error(b"".join([*lines[:4], b"\n", *lines[4:]]))
    assert error.line == 5
    assert "blank" in error.reason


def test_strict_reading_a_blank_line_at_the_end_is_refused() -> None:
    data = _log_bytes()
    error = _read_error(data + b"\n")
    assert error.line == data.count(b"\n") + 1
    assert "blank" in error.reason


def test_strict_reading_windows_line_endings_are_refused() -> None:
    line = _lines()[2]
    error = _read_error(_with_line(2, line[:-1] + b"\r\n"))
    assert error.line == 3
    assert "carriage return" in error.reason


def test_strict_reading_a_record_not_in_canonical_form_is_refused() -> None:
    # given a line that means the same but has a space after a colon
    line = _lines()[2]
    error = _read_error(_with_line(2, line.replace(b'"record":', b'"record": ', 1)))
    assert error.line == 3
    assert "canonical form" in error.reason
    assert "byte 11" in error.reason


def test_strict_reading_fields_out_of_order_are_refused() -> None:
    record = json.loads(_lines()[2])
    reordered = {"record": "entry", **{k: v for k, v in reversed(record.items()) if k != "record"}}
    error = _read_error(_with_line(2, msgspec.json.encode(reordered) + b"\n"))
    assert error.line == 3
    assert "canonical form" in error.reason


def test_strict_reading_two_records_on_one_line_are_refused() -> None:
    lines = _lines()
    error = _read_error(b"".join([*lines[:2], lines[2][:-1] + lines[3], *lines[4:]]))
    assert error.line == 3
    assert "not valid JSON" in error.reason


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from((*SEEDS, -1)), mutations=st.lists(MUTATION, min_size=1, max_size=4))
def test_mutated_logs_decode_canonically_or_raise_log_error(
    seed: int, mutations: list[tuple[str, int, int]]
) -> None:
    # given a real log with some bytes flipped, inserted or deleted
    data = (
        _log_bytes(seed)
        if seed >= 0
        else b"".join(V1_FIXTURE.read_bytes().splitlines(keepends=True)[:30])
    )
    # when it is read, then it is a log that encodes to exactly these bytes, or a LogError
    _check_decodes_canonically_or_raises(mutated(data, mutations))


# Replay


def test_replay_names_the_line_of_an_event_that_cannot_follow() -> None:
    # given a log whose first entry starts an action though no activation is under way
    log, _ = _played(0)
    command = log.entries[0].command
    bad = LogEntry(
        command=command,
        events=(ActionStarted(side="heroes", unit="x", action="move", double=False),),
    )
    edited = MatchLog(header=log.header, entries=(*log.entries[:3], bad))
    with pytest.raises(LogError) as caught:
        replay(edited, "edited.jsonl")
    assert caught.value.path == "edited.jsonl"
    assert caught.value.line == 5
    assert "event 1 (action_started) cannot follow" in caught.value.reason


# Schema


def test_schema_file_is_up_to_date() -> None:
    expected = json.dumps(log_schema(), indent=2, sort_keys=True) + "\n"
    actual = SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.exists() else ""
    assert actual == expected, (
        "docs/log-schema.json is out of date; regenerate it from the repository root with "
        "`PYTHONPATH=src python -m multiversus_core.engine.log --schema > docs/log-schema.json`"
    )


def test_schema_is_json_naming_both_records() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    text = json.dumps(schema)
    assert '"header"' in text
    assert '"entry"' in text
    assert set(schema["discriminator"]["mapping"]) == {"header", "entry", "end"}


def _descriptions(schema: object) -> list[str]:
    if isinstance(schema, dict):
        own = [schema["description"]] if isinstance(schema.get("description"), str) else []
        return own + [d for value in schema.values() for d in _descriptions(value)]
    if isinstance(schema, list):
        return [d for item in schema for d in _descriptions(item)]
    return []


@pytest.mark.parametrize("game", game_ids())
def test_schema_descriptions_are_docstrings_cleaned_whatever_msgspec_leaves(game: str) -> None:
    assert plain_names({"description": "First line.\n\n    Then, indented."}) == {
        "description": "First line.\n\nThen, indented."
    }
    descriptions = _descriptions(log_schema(game))
    assert len(descriptions) > 10
    assert all(d == inspect.cleandoc(d) for d in descriptions)
    assert not any("\n " in d for d in descriptions)


def test_schema_command_line_prints_the_schema_file() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "multiversus_core.engine.log", "--schema"],
        capture_output=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    assert result.stdout == SCHEMA_FILE.read_bytes()


# The format document


def test_format_doc_lists_every_event_and_command_kind() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    kinds = [t.__struct_config__.tag for t in (*EVENT_TYPES, *typing.get_args(Command))]
    missing = [kind for kind in kinds if f"| `{kind}` |" not in text]
    assert not missing, f"docs/log-format.md does not list {missing}"


def test_format_doc_lists_the_fields_of_every_kind_in_order() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    for struct in (*EVENT_TYPES, *typing.get_args(Command)):
        kind = struct.__struct_config__.tag
        row = re.search(rf"^\| \d+ \| `{kind}` \| (.*?) \| ", text, re.M)
        assert row, f"docs/log-format.md has no table row for {kind}"
        listed = re.findall(r"`(\w+)`:", row.group(1))
        assert listed == [f for f in struct.__struct_fields__ if f != "kind"], kind


def test_format_doc_example_lines_come_from_the_seed_0_match() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    start = text.index("### View log example")  # a view log's lines: test_log_spec.py
    text = text[:start] + text[text.index("\n#", start + 1) :]
    start = text.index("(*match C*)")  # a secret-chance match: test_log_spec.py
    text = text[:start] + text[text.index("Before the end, the seed is the referee's", start) :]
    examples = [line.encode() + b"\n" for line in text.splitlines() if line.startswith('{"record"')]
    lines = _lines(0)
    assert len(examples) >= 8
    assert all(example in lines for example in examples)


def test_format_doc_dice_test_vectors_match_the_dice_module() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| (\d+) \| (\d+) \| `(0x[0-9a-f]{16})` \| (\d) \| (heads|tails) \|$", text, re.M
    )
    assert len(rows) >= 4
    for seed, n, value, die, coin in rows:
        assert draw(int(seed), int(n)) == int(value, 16)
        assert roll_die(int(seed), int(n)) == int(die)
        assert flip_coin(int(seed), int(n)) == (coin == "heads")


# Version 2: the chain and the end record


def test_every_entry_is_chained_to_the_line_before_it() -> None:
    lines = _lines(0)
    for seq, line in enumerate(lines[1:-1], start=1):
        record = json.loads(line)
        assert record["seq"] == seq
        assert record["prev"] == hashlib.sha256(lines[seq - 1][:-1]).hexdigest()
    end = json.loads(lines[-1])
    assert end == {
        "record": "end",
        "count": len(lines) - 2,
        "head": hashlib.sha256(lines[-2][:-1]).hexdigest(),
        "chance": None,
    }
    log = decode_log(_log_bytes(0))
    assert log.finished
    assert log.head == end["head"]


def test_a_log_of_an_unfinished_match_has_no_end_record_and_is_not_finished() -> None:
    log, _ = _played(0)
    half = MatchLog(header=log.header, entries=log.entries[:10])
    data = encode_log(half)
    assert b'"record":"end"' not in data
    decoded = decode_log(data)
    assert not decoded.finished
    assert decoded == half


def _tamper_error(data: bytes) -> LogError:
    error = _read_error(data)
    assert error.code in LOG_ERROR_CODES
    lines = data.splitlines(keepends=True)
    assert error.offset == sum(map(len, lines[: error.line - 1]))
    return error


def test_deleting_an_entry_breaks_the_sequence() -> None:
    lines = _lines()
    error = _tamper_error(b"".join([*lines[:5], *lines[6:]]))
    assert (error.line, error.code) == (6, "bad_seq")


def test_reordering_entries_breaks_the_sequence() -> None:
    lines = _lines()
    error = _tamper_error(b"".join([*lines[:5], lines[6], lines[5], *lines[7:]]))
    assert (error.line, error.code) == (6, "bad_seq")


def test_duplicating_an_entry_breaks_the_sequence() -> None:
    lines = _lines()
    error = _tamper_error(b"".join([*lines[:6], lines[5], *lines[6:]]))
    assert (error.line, error.code) == (7, "bad_seq")


def test_editing_an_entry_breaks_the_chain_at_the_next_line() -> None:
    record = json.loads(_lines()[5])
    record["command"]["player"] = 3 - record["command"]["player"]
    error = _tamper_error(_with_line(5, msgspec.json.encode(record) + b"\n"))
    assert (error.line, error.code) == (7, "bad_chain")


def test_bad_chain_names_the_line_before_when_that_line_was_edited() -> None:
    record = json.loads(_lines()[5])
    record["command"]["player"] = 3 - record["command"]["player"]
    error = _tamper_error(_with_line(5, msgspec.json.encode(record) + b"\n"))
    assert (error.line, error.code) == (7, "bad_chain")
    assert error.reason.endswith(": line 6 was changed")


def test_bad_chain_names_this_line_when_its_own_prev_was_edited() -> None:
    record = json.loads(_lines()[5])
    record["prev"] = "0" * 64
    error = _tamper_error(_with_line(5, msgspec.json.encode(record) + b"\n"))
    assert (error.line, error.code) == (6, "bad_chain")
    assert error.reason.endswith(": this line's `prev` was changed (line 7 links to it as it was)")


def test_bad_chain_on_the_last_line_of_an_unfinished_log_names_both_candidates() -> None:
    lines = _lines()[:8]
    record = json.loads(lines[-1])
    record["prev"] = "0" * 64
    error = _tamper_error(b"".join([*lines[:-1], msgspec.json.encode(record) + b"\n"]))
    assert (error.line, error.code) == (8, "bad_chain")
    assert error.reason.endswith(": line 7 or this line's `prev` was changed")


def test_editing_the_last_entry_breaks_the_end_record() -> None:
    lines = _lines()
    edited = lines[-2].replace(b'"winner":"heroes"', b'"winner":"adversaries"')
    assert edited != lines[-2]
    error = _tamper_error(b"".join([*lines[:-2], edited, lines[-1]]))
    assert (error.line, error.code) == (len(lines), "bad_end")


def test_editing_the_end_record_is_refused() -> None:
    lines = _lines()
    error = _tamper_error(_edited(len(lines) - 1, {"count": 3}))
    assert (error.line, error.code) == (len(lines), "bad_end")


def test_cutting_off_the_end_record_of_a_finished_match_is_refused() -> None:
    lines = _lines()
    data = b"".join(lines[:-1])
    error = _read_error(data)
    assert (error.line, error.offset, error.code) == (len(lines), len(data), "missing_end")


def test_a_record_after_the_end_record_is_refused() -> None:
    lines = _lines()
    error = _tamper_error(b"".join([*lines, lines[-1]]))
    assert (error.line, error.code) == (len(lines) + 1, "after_end")


def test_an_end_record_before_the_match_ended_is_refused() -> None:
    lines = _lines()[:8]
    end = msgspec.json.encode(
        {
            "record": "end",
            "count": 7,
            "head": hashlib.sha256(lines[-1][:-1]).hexdigest(),
            "chance": None,
        }
    )
    error = _tamper_error(b"".join([*lines, end + b"\n"]))
    assert (error.line, error.code) == (9, "bad_end")


def test_the_writer_refuses_to_append_after_the_end(tmp_path: Path) -> None:
    log, _ = _played(0)
    with LogWriter.create(tmp_path / "m.jsonl", log.settings) as writer:
        for entry in log.entries:
            writer.append(entry.command, entry.events)
        with pytest.raises(LogError) as caught:
            writer.append(log.entries[0].command, log.entries[0].events)
    assert caught.value.code == "after_end"


# Version 1: a frozen log, upcast on read

V1_FIXTURE = ROOT / "tests" / "fixtures" / "v1-seed-11.jsonl"
"""Written by the version 1 writer: seed 11, RandomBot(11) and RandomBot(1011), players Ada and Brandt."""


def test_the_frozen_version_1_fixture_is_unchanged() -> None:
    digest = hashlib.sha256(V1_FIXTURE.read_bytes()).hexdigest()
    assert digest == "2c4c017e16c2dc5ceac70c11fa91eb3b43414e4d4835307ae62172ea236f3ed4"


def test_the_version_1_fixture_replays_to_the_same_final_state() -> None:
    log = read_log(V1_FIXTURE)
    assert log.upcast_from == 1
    assert log.header.version == LOG_VERSION
    assert len(log.entries) == 285
    assert log.finished
    final = replay(log)
    assert final.is_over
    assert (final.draws, final.round, final.winner, final.ended) == (
        41,
        6,
        "adversaries",
        "the-shapeshifter-hunt",
    )
    assert (final.heroes_team, final.adversaries_team, final.scenario) == (
        "banner-knight",
        "swartzblak",
        "swartzblak-alleys",
    )
    assert sorted((f.id, f.square, f.condition) for f in final.figures) == [
        ("cats-1", (0, 7), "unharmed"),
        ("cats-2", (9, 5), "unharmed"),
        ("cats-3", (5, 0), "unharmed"),
        ("curtains-1", (0, 5), "unharmed"),
        ("curtains-2", (4, 4), "unharmed"),
        ("curtains-3", (9, 5), "unharmed"),
        ("grimalkin", (1, 3), "unharmed"),
        ("knight", (1, 8), "disabled"),
        ("militia-1", (5, 9), "disabled"),
        ("militia-2", (7, 7), "unharmed"),
        ("militia-3", (9, 6), "wounded"),
        ("squire", (3, 9), "disabled"),
    ]


def test_an_upcast_version_1_log_encodes_as_a_sealed_current_version_log() -> None:
    log = read_log(V1_FIXTURE)
    data = encode_log(log)
    again = decode_log(data)
    assert again.upcast_from is None
    assert again.entries == log.entries
    assert data.endswith(b"}\n") and b'"record":"end"' in data.splitlines()[-1]
    assert replay(again) == replay(log)


def test_a_version_1_log_is_still_checked_strictly() -> None:
    lines = V1_FIXTURE.read_bytes().splitlines(keepends=True)
    bad = lines[4].replace(b'"record":"entry"', b'"record":"entry","seq":4', 1)
    error = _read_error(b"".join([*lines[:4], bad, *lines[5:]]))
    assert (error.line, error.code) == (5, "unknown_field")
    assert error.offset == sum(map(len, lines[:4]))


def test_a_version_1_log_cannot_be_resumed(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes(V1_FIXTURE.read_bytes())
    with pytest.raises(LogError) as caught:
        LogWriter.resume(path)
    assert caught.value.code == "not_appendable"
    assert path.read_bytes() == V1_FIXTURE.read_bytes()


# Version 2: frozen logs, upcast on read to version 3 (commitments)

V2_FIXTURES = {
    "v2-elimination": "9e2a1a74c40a0836853c1ac6b148ac086aed0da66bef58859fff500e221fef9f",
    "v2-secret-schemes": "65051861955043c4ab65a09e1ca678501d0c7d1373043dc706cf9869b6ce1807",
}
"""Written by the version 2 writer (golden replays of that version, seeds 28 and 0)."""


def _fixture(name: str) -> Path:
    return ROOT / "tests" / "fixtures" / f"{name}.jsonl"


@pytest.mark.parametrize("name", V2_FIXTURES)
def test_the_frozen_version_2_fixtures_are_unchanged(name: str) -> None:
    assert hashlib.sha256(_fixture(name).read_bytes()).hexdigest() == V2_FIXTURES[name]


def test_a_version_2_log_replays_to_the_same_final_state() -> None:
    log = read_log(_fixture("v2-secret-schemes"))
    assert (log.upcast_from, log.header.version, len(log.entries)) == (2, LOG_VERSION, 226)
    final = replay(log)
    assert (final.draws, final.round, final.winner, final.ended) == (
        37,
        6,
        "adversaries",
        "the-shapeshifter-hunt",
    )
    assert [(s.side, s.name, s.choice, s.revealed) for s in final.secrets] == [
        ("heroes", "hunters-kit", "grapnel", True),
        ("adversaries", "shapeshifter", "cats-2", True),
        ("adversaries", "scheme", "the-shapeshifter-hunt", True),
    ]
    assert sorted((f.id, f.square, f.condition) for f in final.figures)[:3] == [
        ("cats-1", (1, 2), "wounded"),
        ("cats-2", (9, 5), "unharmed"),
        ("cats-3", (8, 2), "unharmed"),
    ]


@pytest.mark.parametrize("name", [*V2_FIXTURES, "v1-seed-11"])
def test_an_upcast_log_gains_commitments_that_its_reveals_open(name: str) -> None:
    log = read_log(_fixture(name))
    # Version 2 kept no commitments: the upcast derives them from the seed, as
    # a "seed" match of version 3 does, so the log says it is not secret.
    assert log.settings.salts == "seed"
    assert check_commitments(log) == ()
    data = encode_log(log)
    assert decode_log(data).entries == log.entries


def test_an_upcast_adds_the_reveal_of_a_reaction_hidden_when_the_match_ended() -> None:
    log = read_log(_fixture("v2-elimination"))
    old = json.loads(_fixture("v2-elimination").read_bytes().splitlines()[-2])
    assert [e["kind"] for e in old["events"]] == ["attack_made", "condition_changed", "match_ended"]
    last = log.entries[-1].events
    assert [type(e).__name__ for e in last] == [
        "AttackMade",
        "ConditionChanged",
        "ReactionRevealed",
        "MatchEnded",
    ]
    final = replay(log)
    assert final.activation is not None and final.activation.reaction_revealed
    assert (final.winner, final.ended) == ("heroes", "elimination")


def test_a_version_2_log_of_a_finished_match_still_needs_its_end_record() -> None:
    lines = _fixture("v2-elimination").read_bytes().splitlines(keepends=True)
    error = _read_error(b"".join(lines[:-1]))
    assert (error.line, error.code) == (len(lines), "missing_end")


def test_a_version_2_line_carrying_a_version_3_field_is_not_canonical() -> None:
    lines = _fixture("v2-secret-schemes").read_bytes().splitlines(keepends=True)
    header = lines[0].replace(
        b'"players":["Bot 1","Bot 2"]', b'"players":["Bot 1","Bot 2"],"salts":"seed"'
    )
    assert header != lines[0]
    error = _read_error(b"".join([header, *lines[1:]]))
    assert (error.line, error.code) == (1, "not_canonical")
    number, line = next((n, x) for n, x in enumerate(lines, 1) if b'"kind":"coins_revealed"' in x)
    salted = re.sub(rb'(\{"kind":"coins_revealed",[^}]*)\}', rb'\1,"salt":""}', line, count=1)
    assert salted != line
    error = _read_error(b"".join([*lines[: number - 1], salted, *lines[number:]]))
    assert (error.line, error.code) == (number, "not_canonical")


# Fuzzing: a reader raises LogError or gives a log that encodes to the same bytes


def _check_decodes_canonically_or_raises(data: bytes) -> None:
    error: LogError | None = None
    try:
        log = decode_log(data, "fuzz.jsonl")
    except LogError as caught:
        error = caught
    if error is not None:
        assert error.code in LOG_ERROR_CODES
        assert error.path == "fuzz.jsonl"
        assert error.line >= 1
        assert 0 <= error.offset <= len(data)
        assert error.offset == 0 or data[error.offset - 1 : error.offset] == b"\n"
        assert error.reason
    elif log.upcast_from is None:
        assert encode_log(log) == data
    else:
        assert decode_log(encode_log(log)).entries == log.entries


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.binary(max_size=80), max_size=4), cut=st.booleans())
def test_random_bytes_after_a_real_header_raise_only_log_errors(
    lines: list[bytes], cut: bool
) -> None:
    data = _lines(0)[0] + b"\n".join(lines) + (b"" if cut else b"\n")
    _check_decodes_canonically_or_raises(data)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(min_value=0, max_value=8), key=st.text(max_size=8), value=JSON_VALUES)
def test_records_with_random_json_values_raise_only_log_errors(
    index: int, key: str, value: object
) -> None:
    record = json.loads(_lines(0)[index])
    target = record.get("command", record)
    target[key or "record"] = value
    _check_decodes_canonically_or_raises(_with_line(index, msgspec.json.encode(record) + b"\n"))


def test_deep_nesting_is_refused_as_too_deep() -> None:
    # given a header with a field nested far deeper than any record is
    deep = b'{"record":"header","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    error = _read_error(_with_line(0, deep))
    assert (error.line, error.offset, error.code) == (1, 0, "too_deep")


def test_a_duplicated_key_is_not_canonical() -> None:
    line = _lines()[3]
    error = _read_error(
        _with_line(
            3, line.replace(b'{"record":"entry",', b'{"record":"entry","record":"entry",', 1)
        )
    )
    assert (error.line, error.code) == (4, "not_canonical")


def test_the_reason_codes_are_documented() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    documented = re.findall(r"^\| `(\w+)` \| ", text, re.M)
    assert [code for code in documented if code in LOG_ERROR_CODES] == list(LOG_ERROR_CODES)


def test_a_bot_match_log_has_this_engines_header_and_replays_to_its_final_state() -> None:
    settings = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=21)
    log, final = bot_match(settings, 22)
    assert log.header == new_header(settings)
    assert (log.header.version, log.header.engine) == (LOG_VERSION, multiversus_core.__version__)
    assert decode_log(encode_log(log)) == log
    assert replay(log) == final and final.is_over
