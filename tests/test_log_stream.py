"""Logs are read as a stream: a block of lines at a time, each checked before the next is
read, so a long log that is bad early fails at once, in memory that does not grow with it."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import (
    MAX_LOG_BYTES,
    _decode,
    decode_log,
    memory_stream,
    read_log,
)
from multiversus_core.engine.viewlog import (
    _decode_view,
    decode_view_log,
    encode_view_log,
    read_view_log,
    redact_log,
)

REPLAYS = Path(__file__).parent.parent / "replays"
GOLDENS = sorted(REPLAYS.rglob("*.jsonl"))
GOLDEN = REPLAYS / "banner-knight--smogon--standard.jsonl"
SIZE = 40 * 1024 * 1024
"""The size of the long logs below: many MiB, under the largest a log may be."""


def _long(data: bytes, size: int = SIZE) -> bytes:
    """A log of ``size`` bytes or so: ``data``'s lines, then its entry lines over and over."""
    lines = data.splitlines(keepends=True)
    filler = b"".join(lines[1:-1])
    return data + filler * (size // len(filler))


def _bad_line_2(data: bytes) -> bytes:
    """``data`` with one byte of line 2's ``prev`` changed: its chain is broken."""
    start = data.index(b'"prev":"') + len(b'"prev":"')
    changed = b"0" if data[start : start + 1] != b"0" else b"1"
    return data[:start] + changed + data[start + 1 :]


def _peak(read: object, *args: object) -> tuple[LogError, int]:
    """The error ``read(*args)`` raises and the peak memory it took."""
    tracemalloc.start()
    try:
        with pytest.raises(LogError) as refused:
            read(*args)  # type: ignore[operator]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return refused.value, peak


@pytest.mark.parametrize("view", [False, True], ids=["match-log", "view-log"])
def test_a_long_log_bad_at_line_2_fails_there_in_memory_far_below_its_size(
    tmp_path: Path, view: bool
) -> None:
    data = GOLDEN.read_bytes()
    if view:
        data = encode_view_log(redact_log(decode_log(data), "heroes"))
    path = tmp_path / "long.jsonl"
    path.write_bytes(_long(_bad_line_2(data)))
    assert SIZE < path.stat().st_size <= MAX_LOG_BYTES
    error, peak = _peak(read_view_log if view else read_log, path)
    assert (error.line, error.code) == (2, "bad_chain")
    assert peak < 4 * 1024 * 1024, f"{peak} bytes for a {SIZE}-byte log"  # a block or so
    verified = CliRunner().invoke(app, ["verify", str(path)])
    assert verified.exit_code == 1 and "(line 2)" in verified.output
    assert "(bad_chain)" in verified.output
    replayed = CliRunner().invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 2, replayed.output
    assert len(replayed.output.strip().splitlines()) == 1
    assert f"{path}, line 2, byte " in replayed.output and "(bad_chain)" in replayed.output


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda path: path.stem)
def test_a_log_read_in_small_blocks_reads_as_when_read_at_once(golden: Path) -> None:
    data = golden.read_bytes()
    whole = decode_log(data)
    for block in (1, 97, 4096):  # a block boundary inside lines, between them, anywhere
        assert _decode(memory_stream(data, block), "x", sealed=True) == whole
    view = encode_view_log(redact_log(whole, "spectator"))
    for block in (1, 97, 4096):
        assert _decode_view(memory_stream(view, block), "x") == decode_view_log(view)


@pytest.mark.parametrize("view", [False, True], ids=["match-log", "view-log"])
def test_a_tampered_log_fails_at_the_same_line_read_in_small_blocks(view: bool) -> None:
    data = GOLDEN.read_bytes()
    if view:
        data = encode_view_log(redact_log(decode_log(data), "heroes"))
    rng = random.Random(30)
    read = _decode_view if view else _decode
    checked = 0
    for _ in range(300):
        at = rng.randrange(len(data))
        tampered = data[:at] + bytes([rng.randrange(32, 127)]) + data[at + 1 :]
        errors = []
        for block in (len(tampered) + 1, 97, 4096):
            stream = memory_stream(tampered, block)
            try:
                read(stream, "x") if view else read(stream, "x", sealed=True)  # type: ignore[call-arg]
            except LogError as error:
                errors.append(str(error))
            else:
                errors.append("accepted")
        assert errors[1:] == errors[:1] * 2, (at, errors)
        checked += errors[0] != "accepted"
    assert checked > 250  # nearly every change is refused, the same way in any blocks
