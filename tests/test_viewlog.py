"""View logs: one side's view of a match as a file (rulebook: hidden information; R4, R23).

A side may publish its view log: it holds nothing that side did not know, it
reads back to the same redacted log, and its commitments can be checked from
it alone.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core import MatchSettings, secret_chance_settings
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import MatchLog, decode_log, encode_log, read_log
from multiversus_core.engine.play import play_match
from multiversus_core.engine.verify import Verification, verify_data, verify_file, verify_view
from multiversus_core.engine.viewlog import (
    decode_view_log,
    encode_view_log,
    is_view_log,
    read_view_log,
    view_log_schema,
)
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.events import ActionStarted, CoinsSelected, FigureStepped
from multiversus_core.rulesets.multiversus.views import HiddenCoinsSelected, RedactedLog, redact_log
from tests.support import MUTATION, mutated, rechained

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "replays" / "witch-hunters--swartzblak--standard.jsonl"
SCHEMA_FILE = ROOT / "docs" / "view-log-schema.json"


@pytest.fixture(scope="module")
def golden() -> MatchLog:
    return read_log(GOLDEN)


def cut_in_first_activation(log: MatchLog) -> MatchLog:
    """The log up to the first coin selection, before it is revealed."""
    for number, entry in enumerate(log.entries, start=1):
        if any(isinstance(event, CoinsSelected) for event in entry.events):
            return MatchLog(header=log.header, entries=log.entries[:number])
    raise AssertionError("the log has no coin selection")


@pytest.mark.parametrize("viewer", ["heroes", "adversaries", "spectator"])
def test_a_view_log_reads_back_to_the_same_view_and_bytes(golden: MatchLog, viewer: str) -> None:
    view = redact_log(golden, viewer)  # type: ignore[arg-type]
    data = encode_view_log(view)
    assert is_view_log(data)
    assert decode_view_log(data) == view
    assert encode_view_log(decode_view_log(data)) == data
    assert len(data.splitlines()) == len(golden.entries) + 2  # the view header and the end


def test_the_referees_view_is_the_match_log_itself(golden: MatchLog) -> None:
    with pytest.raises(ValueError, match="hides nothing"):
        encode_view_log(redact_log(golden, "referee"))
    with pytest.raises(ValueError, match="verify it with verify"):
        verify_view(redact_log(golden, "referee"))


def test_a_view_log_hides_the_other_sides_selection_and_salt_r4(golden: MatchLog) -> None:
    # given a log cut just after the first coin selection, before its reveal
    cut = cut_in_first_activation(golden)
    (selected,) = [e for e in cut.entries[-1].events if isinstance(e, CoinsSelected)]
    other = "adversaries" if selected.side == "heroes" else "heroes"
    # when the other side and the public publish their view logs
    for viewer in (other, "spectator"):
        data = encode_view_log(redact_log(cut, viewer))  # type: ignore[arg-type]
        # then the selection is a placeholder with its commitment, and neither coin nor salt shows
        placeholder = decode_view_log(data).entries[-1].events
        assert HiddenCoinsSelected(side=selected.side, commitment=selected.commitment) in (
            placeholder
        )
        assert selected.salt.encode() not in data
        assert selected.coin.encode() not in data.splitlines()[-1]
    # and the selecting side's own view log keeps them
    own = encode_view_log(redact_log(cut, selected.side))
    assert selected.salt.encode() in own


def test_is_view_log_tells_a_match_log_from_a_view_log(golden: MatchLog) -> None:
    assert not is_view_log(GOLDEN.read_bytes())
    assert not is_view_log(b"")
    assert not is_view_log(b"\xff\n")


def _view_bytes(golden: MatchLog) -> bytes:
    return encode_view_log(redact_log(cut_in_first_activation(golden), "heroes"))


def _replace_line(data: bytes, number: int, new: bytes) -> bytes:
    lines = data.split(b"\n")
    lines[number - 1] = new
    return b"\n".join(lines)


@pytest.mark.parametrize(
    ("edit", "line", "code"),
    [
        (lambda data: b"", 1, "empty"),
        (lambda data: data[:-1], None, "truncated"),
        (lambda data: GOLDEN.read_bytes(), 1, "not_header"),
        (lambda data: data + data.split(b"\n")[0] + b"\n", None, "misplaced_header"),
        (lambda data: data.replace(b'"version":4', b'"version":5', 1), 1, "newer_version"),
        (lambda data: data.replace(b'"version":4', b'"version":2', 1), 1, "bad_version"),
        (lambda data: data.replace(b'"multiversus-log"', b'"other-log"', 1), 1, "foreign_format"),
        (lambda data: _replace_line(data, 2, b'{"record":"entry"}'), 2, "missing_field"),
        (
            lambda data: data.replace(b'"record":"entry",', b'"record":"entry","x":1,', 1),
            2,
            "unknown_field",
        ),
        (
            lambda data: data.replace(b'"record":"entry",', b'"record":"entry", ', 1),
            2,
            "not_canonical",
        ),
        (lambda data: data.replace(b'"record":"entry"', b'"record":"pad"', 1), 2, "unknown_kind"),
        (lambda data: _replace_line(data, 2, b""), 2, "blank_line"),
        (lambda data: _replace_line(data, 2, b"{\xff}"), 2, "invalid_utf8"),
        (lambda data: _replace_line(data, 2, b'{"record":'), 2, "malformed_json"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_reading_a_view_log_is_strict(
    golden: MatchLog, edit: object, line: int | None, code: str
) -> None:
    data = _view_bytes(golden)
    bad = edit(data)  # type: ignore[operator]
    with pytest.raises(LogError) as caught:
        decode_view_log(bad, "view.jsonl")
    error = caught.value
    assert (error.path, error.code) == ("view.jsonl", code)
    expected_line = line if line is not None else len(bad.split(b"\n")) - (code != "truncated")
    assert error.line == expected_line
    lines = bad.split(b"\n")
    assert error.offset == sum(len(x) + 1 for x in lines[: error.line - 1])


def test_a_match_log_read_as_a_view_log_says_so(golden: MatchLog) -> None:
    with pytest.raises(LogError, match="a match log's header: read a match log with read_log"):
        decode_view_log(GOLDEN.read_bytes())


def test_a_missing_view_log_is_an_io_error(tmp_path: Path) -> None:
    with pytest.raises(LogError) as caught:
        read_view_log(tmp_path / "missing.jsonl")
    assert (caught.value.line, caught.value.code) == (0, "io_error")


def test_verify_checks_a_view_logs_commitments(golden: MatchLog, tmp_path: Path) -> None:
    # given the Heroes' view log of a whole match, and a copy with a reveal edited
    path = tmp_path / "heroes.jsonl"
    data = encode_view_log(redact_log(golden, "heroes"))
    path.write_bytes(data)
    result = verify_file(path)
    assert (result.ok, result.view, result.finished) == (True, "heroes", True)
    assert result.entries == len(golden.entries)
    lines = data.split(b"\n")
    number = next(i for i, line in enumerate(lines) if b'"kind":"coins_revealed"' in line)
    revealed = json.loads(lines[number])["events"]
    coin = next(e["coin"] for e in revealed if e["kind"] == "coins_revealed")
    other = "knight.grey1" if coin != "knight.grey1" else "knight.green1"
    lines[number] = lines[number].replace(f'"coin":"{coin}"'.encode(), f'"coin":"{other}"'.encode())
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(rechained(b"\n".join(lines)))
    # when it is verified, then the reveal that does not open its commitment is named
    result = verify_file(tampered)
    assert (result.ok, result.code, result.entry, result.view) == (
        False,
        "reveal_mismatch",
        number,
        "heroes",
    )
    assert result.problem is not None
    assert result.problem.startswith(f"entry {number} (line {number + 1}), round 1, turn 1: ")


def test_verify_does_not_fault_a_view_log_for_what_is_not_due_yet(
    golden: MatchLog, tmp_path: Path
) -> None:
    path = tmp_path / "spectator.jsonl"
    path.write_bytes(encode_view_log(redact_log(cut_in_first_activation(golden), "spectator")))
    result = verify_file(path)
    assert (result.ok, result.finished, result.view) == (True, False, "spectator")


def test_verify_names_a_view_logs_event_that_cannot_follow_the_ones_before_it(
    golden: MatchLog, tmp_path: Path
) -> None:
    # given the spectator's view log without the entry that starts the first move
    shown = redact_log(golden, "spectator")
    number = next(
        n
        for n, entry in enumerate(shown.entries, start=1)
        if [type(event) for event in entry.events] == [ActionStarted]
        and isinstance(shown.entries[n].events[0], FigureStepped)
    )
    entries = shown.entries[: number - 1] + shown.entries[number:]
    edited = RedactedLog(viewer="spectator", header=shown.header, entries=entries)
    path = tmp_path / "edited.jsonl"
    path.write_bytes(encode_view_log(edited))
    # when it is verified, then the step, with no action under way, is named
    result = verify_file(path)
    assert not result.ok
    assert (result.code, result.entry, result.view) == ("bad_event", number, "spectator")
    assert result.problem is not None
    assert result.problem.startswith(f"entry {number} (line {number + 1}), ")
    assert "cannot follow the events before it" in result.problem


def test_view_log_schema_file_is_up_to_date() -> None:
    expected = json.dumps(view_log_schema(), indent=2, sort_keys=True) + "\n"
    actual = SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.exists() else ""
    assert actual == expected, (
        "docs/view-log-schema.json is out of date; regenerate it from the repository root "
        "with `PYTHONPATH=src python -m multiversus_core.engine.viewlog --schema > "
        "docs/view-log-schema.json`"
    )


def test_a_view_log_read_as_a_match_log_says_what_it_is(golden: MatchLog) -> None:
    with pytest.raises(LogError) as caught:
        decode_log(_view_bytes(golden), "heroes.jsonl")
    assert (caught.value.line, caught.value.code) == (1, "not_header")
    assert "this is a view log (one side's view of a match), not a match log" in str(caught.value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    viewer=st.sampled_from(["heroes", "adversaries", "spectator"]),
    entries=st.integers(min_value=0, max_value=40),
    mutations=st.lists(MUTATION, min_size=1, max_size=4),
)
def test_mutated_view_logs_decode_canonically_or_raise_log_error(
    viewer: str, entries: int, mutations: list[tuple[str, int, int]]
) -> None:
    # given a real view log with some bytes flipped, inserted or deleted
    log = read_log(GOLDEN)
    cut = MatchLog(header=log.header, entries=log.entries[:entries])
    data = mutated(encode_view_log(redact_log(cut, viewer)), mutations)  # type: ignore[arg-type]
    # when it is read, then it is a view log that encodes to exactly these bytes, or a LogError
    try:
        view = decode_view_log(data)
    except LogError:
        return
    assert encode_view_log(view) == data


# --- version 4: a view log verified as strictly as a match log ------------------------


def _full_view(golden: MatchLog) -> bytes:
    return encode_view_log(redact_log(golden, "heroes"))


def test_a_view_log_is_chained_and_sealed_like_a_match_log(golden: MatchLog) -> None:
    data = _full_view(golden)
    lines = data.splitlines()
    for seq, line in enumerate(lines[1:-1], start=1):
        record = json.loads(line)
        assert (record["record"], record["seq"]) == ("entry", seq)
        assert record["prev"] == hashlib.sha256(lines[seq - 1]).hexdigest()
    end = json.loads(lines[-1])
    assert end == {
        "record": "end",
        "count": len(golden.entries),
        "head": hashlib.sha256(lines[-2]).hexdigest(),
        "chance": None,
    }


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (lambda lines, n: [*lines[:n], lines[n].replace(b'"seq":', b'"seq":1', 1)], "bad_seq"),
        (lambda lines, n: lines[: n - 1] + lines[n:], "bad_seq"),
        (lambda lines, n: lines[:-1], "missing_end"),
        (
            lambda lines, n: [*lines[:-1], lines[-1].replace(b'"count":', b'"count":1', 1)],
            "bad_end",
        ),
        (lambda lines, n: [*lines, lines[-1]], "after_end"),
    ],
    ids=["seq", "entry-removed", "end-cut", "end-edited", "after-end"],
)
def test_a_view_log_whose_chain_or_seal_is_broken_is_refused(
    golden: MatchLog, edit: object, code: str
) -> None:
    lines = _full_view(golden).split(b"\n")[:-1]
    bad = b"\n".join(edit(lines, 40)) + b"\n"  # type: ignore[operator]
    with pytest.raises(LogError) as caught:
        decode_view_log(bad, "view.jsonl")
    assert caught.value.code == code


def test_a_view_logs_bad_chain_names_the_line_that_was_changed(golden: MatchLog) -> None:
    lines = _full_view(golden).split(b"\n")
    # an edited event on line 40: line 41's link to it breaks, and line 40 is named
    record = json.loads(lines[39])
    record["command"]["player"] = 1 if record["command"]["player"] == 2 else 2
    lines[39] = json.dumps(record, separators=(",", ":")).encode()
    with pytest.raises(LogError) as caught:
        decode_view_log(b"\n".join(lines))
    assert (caught.value.line, caught.value.code) == (41, "bad_chain")
    assert caught.value.reason.endswith("line 40 was changed")


@pytest.mark.parametrize(
    ("pattern", "field"),
    [
        (rb'("kind":"figure_stepped","figure":"[^"]+","to":\[)\d+', "to[0]"),
        (rb'("kind":"initiative_rolled","side":"\w+","die":)\d', "die"),
        (rb'("kind":"initiative_rolled","side":"\w+","die":\d,"greys":)\d+', "greys"),
        (rb'("kind":"round_started","round":)\d', "round"),
    ],
    ids=["square", "die", "count", "round"],
)
@pytest.mark.parametrize("value", [b"-18446744073709551611", b"99999999999", b"-1"])
@pytest.mark.parametrize("kind", ["view", "match"])
def test_numbers_out_of_range_are_refused_at_read_naming_line_and_field(
    golden: MatchLog, pattern: bytes, field: str, value: bytes, kind: str
) -> None:
    data = _full_view(golden) if kind == "view" else encode_log(golden)
    found = re.search(pattern, data)
    assert found is not None
    if field == "die" and value == b"-1":
        value = b"7"
    bad = data[: found.start()] + found[1] + value + data[found.end() :]
    line = bad[: found.start()].count(b"\n") + 1
    with pytest.raises(LogError) as caught:
        (decode_view_log if kind == "view" else decode_log)(bad, "x.jsonl")
    error = caught.value
    assert (error.line, error.code) == (line, "out_of_range")
    assert f".{field}`" in error.reason and error.reason.startswith("value out of range at `$.")
    result = verify_file_bytes(bad)
    assert result.code == "log_error" and "\n" not in (result.problem or "")


def verify_file_bytes(data: bytes) -> Verification:
    return verify_data(data, "x.jsonl")


def test_a_moved_step_is_caught_by_the_rules_even_with_the_chain_recomputed(
    golden: MatchLog,
) -> None:
    data = _full_view(golden)
    found = re.search(rb'"kind":"figure_stepped","figure":"[^"]+","to":\[(\d+),(\d+)\]', data)
    assert found is not None
    column = int(found[1])
    moved = data[: found.start(1)] + str(column + 2).encode() + data[found.end(1) :]
    result = verify_data(rechained(moved))
    assert not result.ok
    assert result.code in ("rules_differ", "command_refused", "bad_event")
    assert result.entry == data[: found.start()].count(b"\n")


def test_a_version_3_view_log_is_still_read(golden: MatchLog) -> None:
    # Version 3 view logs had no chain and no end record.
    view = redact_log(golden, "heroes")
    header = _full_view(golden).split(b"\n", 1)[0].replace(b'"version":4', b'"version":3')
    header = header.replace(b',"chance":""}', b"}")
    old = [msgspec.json.encode(entry) for entry in view.entries]
    data = b"\n".join([header, *old]) + b"\n"
    read = decode_view_log(data)
    assert read.entries == view.entries and read.viewer == "heroes"
    assert verify_data(data).ok


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    secret=st.booleans(),
    viewer=st.sampled_from(["heroes", "adversaries", "spectator"]),
    cut=st.floats(min_value=0, max_value=1),
)
def test_every_honest_view_log_cut_anywhere_verifies(
    seed: int, secret: bool, viewer: str, cut: float
) -> None:
    # No false alarm: the rules re-run on a view accept every honest one, finished or not,
    # chance public or secret, whatever the viewer could not see yet.
    pairing = [("witch-hunters", "swartzblak"), ("banner-knight", "smogon")][seed % 2]
    base = MatchSettings(heroes=pairing[0], adversaries=pairing[1], seed=seed % 2**31)
    if secret:
        chosen, chance = secret_chance_settings(msgspec.structs.replace(base, salts="secrets"))
        log = play_match(chosen, {1: RandomBot(seed), 2: RandomBot(seed + 1)}, chance)[0]
    else:
        log = play_match(base, {1: RandomBot(seed), 2: RandomBot(seed + 1)})[0]
    part = msgspec.structs.replace(log, entries=log.entries[: round(cut * len(log.entries))])
    data = encode_view_log(redact_log(part, viewer))  # type: ignore[arg-type]
    result = verify_data(data)
    assert result.ok, result.problem
    assert result.chance == ("secret" if secret else "public")
