"""Match logs survive crashes: resume keeps every complete record and sets a torn one aside."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest

from multiversus_core import MatchSettings
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import (
    LogWriter,
    MatchLog,
    encode_log,
    read_log,
)
from tests.support import bot_match

ROOT = Path(__file__).resolve().parents[1]
SEED = 0


@cache
def _full_log(seed: int = SEED) -> MatchLog:
    return bot_match(MatchSettings(seed=seed), seed + 1000)[0]


def _no_fsync(fd: int) -> None:
    del fd


def _boundaries(data: bytes) -> list[int]:
    """The byte offsets just after each newline."""
    return [i + 1 for i, byte in enumerate(data) if byte == 0x0A]


def _check_resume_of_cut(path: Path, data: bytes, cut: int, full: MatchLog) -> None:
    """Resume a log cut at ``cut``: every complete record kept, nothing else."""
    path.write_bytes(data[:cut])
    for stale in path.parent.glob(path.name + ".torn-*"):
        stale.unlink()
    ends = _boundaries(data)
    if cut < ends[0]:  # not even the header is whole: nothing to carry on from
        with pytest.raises(LogError) as caught:
            LogWriter.resume(path)
        assert caught.value.code == ("truncated" if cut else "empty")
        assert path.read_bytes() == data[:cut]
        return
    kept = max(end for end in ends if end <= cut)
    writer, log = LogWriter.resume(path)
    writer.close()
    entries = min(len(full.entries), data[:kept].count(b"\n") - 1)
    assert log.entries == full.entries[:entries]
    torn = list(path.parent.glob(path.name + ".torn-*"))
    if kept == cut:
        assert writer.torn is None
        assert torn == []
    else:
        assert writer.torn is not None
        assert (writer.torn.offset, writer.torn.size) == (kept, cut - kept)
        assert torn == [Path(writer.torn.path)]
        assert torn[0].read_bytes() == data[kept:cut]
    if log.finished:  # the end record is written again if it was lost
        assert path.read_bytes() == data
    else:
        assert path.read_bytes() == data[:kept]
    assert read_log(path) == log


def test_resume_of_a_log_cut_at_every_byte_of_its_first_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "fsync", _no_fsync)  # thousands of resumes; the cut is what is tested
    full = MatchLog(header=_full_log().header, entries=_full_log().entries[:8])
    data = encode_log(full)
    path = tmp_path / "cut.jsonl"
    for cut in range(len(data) + 1):
        _check_resume_of_cut(path, data, cut, full)


def test_resume_of_a_log_cut_at_every_byte_of_its_last_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "fsync", _no_fsync)  # thousands of resumes; the cut is what is tested
    full = _full_log()
    data = encode_log(full)
    path = tmp_path / "cut.jsonl"
    start = _boundaries(data)[-3]  # the last two entries and the end record
    for cut in range(start, len(data) + 1):
        _check_resume_of_cut(path, data, cut, full)


def test_resume_goes_on_appending_after_a_torn_record(tmp_path: Path) -> None:
    full = _full_log()
    data = encode_log(full)
    cut = _boundaries(data)[10] + 17
    path = tmp_path / "torn.jsonl"
    path.write_bytes(data[:cut])
    writer, log = LogWriter.resume(path)
    with writer:
        for entry in full.entries[len(log.entries) :]:
            writer.append(entry.command, entry.events)
    assert path.read_bytes() == data
    assert Path(f"{path}.torn-1").read_bytes() == data[_boundaries(data)[10] : cut]


def test_resume_numbers_torn_files_without_overwriting(tmp_path: Path) -> None:
    data = encode_log(_full_log())
    path = tmp_path / "torn.jsonl"
    Path(f"{path}.torn-1").write_bytes(b"older")
    path.write_bytes(data[: _boundaries(data)[3] + 5])
    writer, _ = LogWriter.resume(path)
    writer.close()
    assert writer.torn is not None
    assert writer.torn.path == f"{path}.torn-2"
    assert Path(f"{path}.torn-1").read_bytes() == b"older"


@pytest.mark.parametrize(
    "last",
    [b'{"record":"en\x00\x00\n', b"\n", b"x" * 5_000_000 + b"\n", b"\xff\xfe\n"],
    ids=["not-json", "blank", "huge", "not-utf8"],
)
def test_resume_refuses_a_complete_last_line_that_is_not_a_record(
    tmp_path: Path, last: bytes
) -> None:
    # A line with its newline was written whole: it is not torn, and is refused as read_log
    # refuses it, the file left as it was.
    data = encode_log(_full_log())
    damaged = data[: _boundaries(data)[5]] + last
    path = tmp_path / "garbage.jsonl"
    path.write_bytes(damaged)
    with pytest.raises(LogError) as caught:
        LogWriter.resume(path)
    with pytest.raises(LogError) as read:
        read_log(path)
    assert (
        (caught.value.line, caught.value.code)
        == (read.value.line, read.value.code)
        == (
            7,
            read.value.code,
        )
    )
    assert caught.value.code != "truncated"
    assert path.read_bytes() == damaged
    assert not list(tmp_path.glob("garbage.jsonl.torn-*"))


def test_resume_sets_aside_only_a_last_line_without_its_newline(tmp_path: Path) -> None:
    data = encode_log(_full_log())
    good = data[: _boundaries(data)[5]]
    path = tmp_path / "torn.jsonl"
    path.write_bytes(good + b'{"record":"en\x00\x00')
    writer, log = LogWriter.resume(path)
    writer.close()
    assert writer.torn is not None
    assert writer.torn.code == "truncated"
    assert len(log.entries) == 5
    assert path.read_bytes() == good


def test_resume_refuses_a_bad_record_followed_by_good_ones(tmp_path: Path) -> None:
    data = encode_log(_full_log())
    ends = _boundaries(data)
    damaged = data[: ends[4]] + b"garbage\n" + data[ends[5] :]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(damaged)
    with pytest.raises(LogError) as caught:
        LogWriter.resume(path)
    assert (caught.value.line, caught.value.offset) == (6, ends[4])
    assert caught.value.code == "malformed_json"
    assert path.read_bytes() == damaged
    assert not list(tmp_path.glob("bad.jsonl.torn-*"))


def test_resume_refuses_a_whole_last_record_that_breaks_the_chain(tmp_path: Path) -> None:
    # given a log whose second-to-last entry was edited: only the last line shows it
    data = encode_log(MatchLog(header=_full_log().header, entries=_full_log().entries[:8]))
    ends = _boundaries(data)
    line = data[ends[6] : ends[7]]
    edited = line.replace(b'"player":1', b'"player":2', 1)
    assert edited != line
    damaged = data[: ends[6]] + edited + data[ends[7] :]
    path = tmp_path / "edited.jsonl"
    for tail in (b"", b"x"):  # with or without a final newline, it is not a torn write
        path.write_bytes(damaged[: len(damaged) - len(tail)])
        with pytest.raises(LogError) as caught:
            LogWriter.resume(path)
        assert caught.value.code == "bad_chain"


WRITER_SCRIPT = """
import sys
from multiversus_core import MatchSettings, apply, decider_seat, start_match
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.engine.log import LogWriter

seed = int(sys.argv[2])
settings = MatchSettings(seed=seed)
state = start_match(settings)
bots = {1: RandomBot(seed), 2: RandomBot(seed + 1000)}
with LogWriter.create(sys.argv[1], settings) as writer:
    print("ready", flush=True)
    while not state.is_over:
        seat = decider_seat(state)
        command = command_for(bots[seat], state, seat)
        state, events = apply(state, command)
        writer.append(command, events)
"""


def test_a_writer_killed_at_random_moments_leaves_a_log_resume_can_carry_on(
    tmp_path: Path,
) -> None:
    rng = random.Random(20240601)
    full = _full_log()
    expected = encode_log(full)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # A fixed number of kills, not a time budget: a loaded machine runs them all too.
    for runs in range(1, 9):
        path = tmp_path / f"killed-{runs}.jsonl"
        process = subprocess.Popen(
            [sys.executable, "-c", WRITER_SCRIPT, str(path), str(SEED)],
            env=env,
            stdout=subprocess.PIPE,
        )
        assert process.stdout is not None
        assert process.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0, 0.25))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        process.stdout.close()
        data = path.read_bytes()
        assert expected.startswith(data)  # every byte written is the right byte
        writer, log = LogWriter.resume(path)
        with writer:
            assert log.entries == full.entries[: len(log.entries)]
            for entry in full.entries[len(log.entries) :]:
                writer.append(entry.command, entry.events)
        assert path.read_bytes() == expected
