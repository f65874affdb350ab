"""docs/log-format.md, taken at its word: the behaviours an independent reader relies on.

Each test pins one sentence of the document (the order of the checks, the
depth limit, the codes of cases that are easy to guess wrong, what
``bad_settings`` covers, the test vectors of the new records).
"""

from __future__ import annotations

import hashlib
import json
import re
import tracemalloc
from pathlib import Path

import msgspec
import pytest

from multiversus_core import MatchSettings
from multiversus_core.engine.chance import flip_coin, roll_die
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import MAX_DEPTH, decode_log, encode_log, nesting_depth
from multiversus_core.engine.play import play_match
from multiversus_core.engine.verify import verify, verify_data
from multiversus_core.engine.viewlog import decode_view_log, encode_view_log
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.match import secret_chance_settings
from multiversus_core.rulesets.multiversus.secrets import chance_commitment
from multiversus_core.rulesets.multiversus.settings import Chance
from multiversus_core.rulesets.multiversus.views import redact_log
from tests.support import rechained

ROOT = Path(__file__).resolve().parents[1]
FORMAT_DOC = ROOT / "docs" / "log-format.md"
FIXTURES = ROOT / "tests" / "fixtures"
SECRETS = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", salts="secrets", seed=4)


def _log() -> bytes:
    return encode_log(play_match(SECRETS, {1: RandomBot(4), 2: RandomBot(5)})[0])


def _error(data: bytes, view: bool = False) -> LogError:
    with pytest.raises(LogError) as caught:
        (decode_view_log if view else decode_log)(data, "x.jsonl")
    return caught.value


def _with_line(data: bytes, index: int, line: bytes) -> bytes:
    lines = data.split(b"\n")
    lines[index] = line
    return b"\n".join(lines)


@pytest.mark.parametrize("escape", [rb"\ud800", rb"\udc00x", rb"\ud83d"])
@pytest.mark.parametrize("index", [0, 1])
def test_a_lone_surrogate_escape_is_invalid_utf8(escape: bytes, index: int) -> None:
    data = _log()
    line = data.split(b"\n")[index]
    target = b'"Player 1"' if index == 0 else b'"flip_for_set_up"'
    bad = _with_line(data, index, line.replace(target, target[:-1] + escape + b'"', 1))
    error = _error(bad)
    assert (error.line, error.code) == (index + 1, "invalid_utf8")
    assert "surrogate" in error.reason


def test_within_a_line_the_first_problem_in_the_text_is_reported() -> None:
    data = _log()
    line = data.split(b"\n")[1]
    # a wrong type early in the line, then broken JSON later: the type error
    early = line.replace(b'"player":1', b'"player":"1"', 1)[:-3] + b"}}}"
    assert _error(_with_line(data, 1, early)).code == "wrong_type"
    # a non-canonical space and an unknown field: the schema speaks first
    both = line.replace(b'"seq":1,', b'"seq": 1,"x":0,', 1)
    assert _error(_with_line(data, 1, both)).code == "unknown_field"
    # only a line that fits the schema is compared with its canonical form
    spaced = line.replace(b'"seq":1,', b'"seq": 1,', 1)
    assert _error(_with_line(data, 1, spaced)).code == "not_canonical"


@pytest.mark.parametrize("index", [0, 1])
def test_too_deep_is_more_than_32_levels_on_any_line(index: int) -> None:
    data = _log()
    line = data.split(b"\n")[index]
    assert nesting_depth(line) <= 7 and MAX_DEPTH == 32

    def nested(levels: int) -> bytes:  # a new field at the record's top level, arrays inside
        arrays = levels - 1
        return line[:-1] + b',"x":' + b"[" * arrays + b"]" * arrays + b"}"

    assert nesting_depth(nested(MAX_DEPTH)) == MAX_DEPTH
    assert _error(_with_line(data, index, nested(MAX_DEPTH))).code == "unknown_field"
    error = _error(_with_line(data, index, nested(MAX_DEPTH + 1)))
    assert (error.line, error.code) == (index + 1, "too_deep")
    assert _error(_with_line(data, index, b"[" * 5000 + b"]" * 5000)).code == "too_deep"
    assert nesting_depth(b'{"a":"[[[[\\"[["}') == 1  # brackets in strings do not count


@pytest.mark.parametrize(
    ("line", "code"),
    [(b"   ", "blank_line"), (b"\t", "blank_line"), (b"\xef\xbb\xbf{}", "malformed_json")],
    ids=["spaces", "tab", "bom"],
)
def test_silent_cases_have_their_documented_codes(line: bytes, code: str) -> None:
    data = _log()
    assert _error(_with_line(data, 2, line)).code == code
    first = data.split(b"\n")[0]
    assert _error(_with_line(data, 0, b"\xef\xbb\xbf" + first)).code == "malformed_json"


def test_a_match_header_in_a_view_log_and_an_end_record_in_version_1_are_unknown_kinds() -> None:
    data = _log()
    view = encode_view_log(redact_log(decode_log(data), "heroes"))
    header = data.split(b"\n")[0]
    error = _error(_with_line(view, 1, header), view=True)
    assert (error.line, error.code) == (2, "unknown_kind")
    old = (FIXTURES / "v1-seed-11.jsonl").read_bytes()
    end = b'{"record":"end","count":1,"head":"' + b"0" * 64 + b'"}\n'
    assert _error(old + end).code == "unknown_kind"


def test_an_event_without_its_commitment_is_not_canonical() -> None:
    data = _log()
    line = next(x for x in data.split(b"\n") if b'"kind":"coins_selected"' in x)
    bare = re.sub(rb',"commitment":"[0-9a-f]{64}"', b"", line, count=1)
    index = data.split(b"\n").index(line)
    assert _error(_with_line(data, index, bare)).code == "not_canonical"


def test_a_malformed_salt_is_refused_by_verify_not_by_reading() -> None:
    data = _log()
    lines = data.split(b"\n")
    # in a command: the rules refuse it
    index = next(i for i, x in enumerate(lines) if b'"kind":"select_coins"' in x)
    record = json.loads(lines[index])
    record["command"]["salt"] = "XYZ"
    lines[index] = json.dumps(record, separators=(",", ":")).encode()
    result = verify_data(rechained(b"\n".join(lines)))
    assert (result.ok, result.code) == (False, "command_refused")
    # in a reveal: it does not open the commitment
    lines = data.split(b"\n")
    index = next(i for i, x in enumerate(lines) if b'"kind":"coins_revealed"' in x)
    lines[index] = re.sub(
        rb'("kind":"coins_revealed"[^}]*"salt":")[0-9a-f]{64}', rb"\1nothex", lines[index]
    )
    assert verify_data(rechained(b"\n".join(lines))).code == "reveal_mismatch"


@pytest.mark.parametrize(
    "settings",
    [
        MatchSettings(variants=("not-a-variant",)),
        MatchSettings(heroes="no-such-team"),
        MatchSettings(heroes="smogon"),
        MatchSettings(scenario="no-such-scenario"),
        MatchSettings(players=("Ada", " ")),
        MatchSettings(seed=1, chance="ab" * 32),
        MatchSettings(chance="not hex"),
    ],
    ids=["variant", "team", "side", "scenario", "player", "seed-with-chance", "chance"],
)
def test_bad_settings_is_checked_by_verify_before_any_entry(settings: MatchSettings) -> None:
    header = encode_log(msgspec.structs.replace(decode_log(_log()), entries=()))
    bad = header.replace(
        header[header.index(b'"settings":') : -2],
        b'"settings":' + msgspec.json.encode(settings),
    )
    log = decode_log(bad)  # not a read error
    result = verify(log)
    assert (result.ok, result.code, result.entry) == (False, "bad_settings", None)


def test_unsorted_or_repeated_variants_are_bad_settings() -> None:
    from multiversus_core.rulesets.multiversus.variants import VARIANTS

    names = sorted(VARIANTS)[:2]
    for variants in ((names[1], names[0]), (names[0], names[0])):
        log = decode_log(encode_log(decode_log(_log())))
        log = msgspec.structs.replace(
            log,
            header=msgspec.structs.replace(
                log.header,
                settings=msgspec.structs.replace(log.settings, variants=variants),
            ),
        )
        assert verify(log).code == "bad_settings"


def test_the_chance_test_vectors_of_the_document_hold() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| (\d+) \| `(\w\w)(?:…|\.\.\.)(\w\w)` [^|]*\| `([0-9a-f]{64})` \|$", text, re.M
    )
    assert len(rows) == 3
    for seed, first, last, digest in rows:
        salt = first * 31 + last if first != last else first * 32
        assert chance_commitment(Chance(seed=int(seed), salt=salt)) == digest


def test_the_view_log_example_of_the_document_is_the_seed_0_heroes_view() -> None:
    from tests.test_log import _played

    text = FORMAT_DOC.read_text(encoding="utf-8")
    section = text[text.index("### View log example") :]
    section = section[: section.index("\n## ")]
    examples = [line for line in section.splitlines() if line.startswith('{"record"')]
    view = encode_view_log(redact_log(_played(0)[0], "heroes")).splitlines()
    assert len(examples) >= 4
    for example in examples:
        assert example.encode() in view
    # and each line's prev is the hash of the view log's line before it
    for line in view[1:-1]:
        record = json.loads(line)
        assert record["prev"] == hashlib.sha256(view[record["seq"] - 1]).hexdigest()


def test_the_schema_describes_entry_records_of_every_chained_version() -> None:
    schema = json.loads((ROOT / "docs" / "log-schema.json").read_text(encoding="utf-8"))
    description = schema["$defs"]["EntryRecord"]["description"]
    assert description.startswith("An entry line (format version 2 and later)")
    assert schema["title"].endswith("format version 4")


@pytest.mark.parametrize("seed", [-1, 2**64, 10**30])
@pytest.mark.parametrize("view", [False, True])
def test_a_seed_outside_0_to_2_64_is_out_of_range_at_read(seed: int, view: bool) -> None:
    data = _log()
    if view:
        data = encode_view_log(redact_log(decode_log(data), "heroes"))
    bad = data.replace(b'"seed":4,', b'"seed":%d,' % seed, 1)
    error = _error(bad, view=view)
    assert (error.line, error.code) == (1, "out_of_range")
    assert "$.settings.seed" in error.reason


@pytest.mark.parametrize(
    ("length", "code"),
    [(1_000_000, "unknown_field"), (50_000_000, "out_of_range")],  # a line of at most 1 MiB
)
def test_a_line_holding_a_huge_string_is_refused_in_modest_memory(length: int, code: str) -> None:
    data = _log()
    line = data.split(b"\n")[1]
    huge = line[:-1] + b',"x":"' + b"a" * length + b'\\"]"}'
    assert nesting_depth(huge) == nesting_depth(line)  # the escaped quote and bracket are text
    tracemalloc.start()
    try:
        assert _error(_with_line(data, 1, huge)).code == code
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * length + 50_000_000  # a few copies of the line, no regex backtracking


def test_the_secret_chance_match_c_of_the_document_ends_with_its_revealed_seed() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    section = text[text.index("(*match C*)") :]
    section = section[: section.index("Before the end, the seed is the referee's alone")]
    header, first, last, end, view_end = (
        line.encode() for line in section.splitlines() if line.startswith('{"record"')
    )
    chance = Chance(seed=7, salt="00" * 31 + "01")
    settings = MatchSettings(seed=0, chance=chance_commitment(chance))
    log = play_match(settings, {1: RandomBot(0), 2: RandomBot(1000)}, chance)[0]
    lines = encode_log(log).splitlines()
    assert [header, first, last, end] == [lines[0], lines[1], lines[-2], lines[-1]]
    assert encode_view_log(redact_log(log, "heroes")).splitlines()[-1] == view_end
    # the end record's checks, as the document states them
    record = json.loads(end)
    assert record["count"] == len(lines) - 2 == 137
    assert record["head"] == hashlib.sha256(last).hexdigest()
    opening = bytes.fromhex(record["chance"]["salt"]) + (7).to_bytes(8, "big")
    assert hashlib.sha256(opening).hexdigest() == json.loads(header)["settings"]["chance"]
    assert not flip_coin(7, 0) and b'"set_up_player":2' in first
    assert roll_die(7, 22) == 6 and b'"die":6' in last
    # and a reader and verifier accept it; a seed off by one is refused at read
    assert verify_data(encode_log(log)).ok
    forged = encode_log(log).replace(b'"chance":{"seed":7,', b'"chance":{"seed":8,')
    assert verify_data(forged).code == "log_error"


def test_a_malformed_chance_commitment_is_bad_end_when_finished_and_bad_settings_before() -> None:
    settings, chance = secret_chance_settings(SECRETS)
    log = play_match(settings, {1: RandomBot(4), 2: RandomBot(5)}, chance)[0]
    commitment = settings.chance.encode()
    upper = encode_log(log).replace(commitment, commitment.upper(), 1)
    finished = rechained(upper)
    assert _error(finished).code == "bad_end"
    assert _error(finished).line == len(finished.splitlines())
    unfinished = rechained(b"\n".join(upper.split(b"\n")[:40]) + b"\n")
    assert verify_data(unfinished).code == "bad_settings"
    # a seed other than 0 beside a well-formed commitment is bad_settings, finished or not
    seeded = rechained(encode_log(log).replace(b'"seed":0,', b'"seed":5,', 1))
    assert verify_data(seeded).code == "bad_settings"
