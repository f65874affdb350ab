"""One writer per log: a log is locked while it is written, so two resumes of it at once are
refused instead of corrupting it; a new log appears with its header or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core import MatchSettings
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import LogWriter, read_log
from multiversus_core.rulesets.multiversus.match import secret_chance_settings

LOCKED = "another program is writing this log (it is locked)"


def _unfinished(path: Path) -> Path:
    """A log cut after its first entries, as a quit match leaves it."""
    result = CliRunner().invoke(
        app, ["play", "--player1", "random", "--player2", "random", "--quiet", "--seed", "5",
              "--log", str(path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:12]))
    return path


def test_a_second_writer_of_a_log_is_refused_while_the_first_holds_it(tmp_path: Path) -> None:
    log = _unfinished(tmp_path / "m.jsonl")
    first, _ = LogWriter.resume(log)
    before = log.read_bytes()
    with pytest.raises(LogError) as refused:
        LogWriter.resume(log)
    assert (refused.value.line, refused.value.reason) == (0, LOCKED)
    assert log.read_bytes() == before  # nothing written by the one refused
    first.close()
    second, again = LogWriter.resume(log)  # the lock goes with the first writer
    second.close()
    assert len(again.entries) == 11


def test_a_new_log_is_locked_from_its_creation(tmp_path: Path) -> None:
    log = tmp_path / "new.jsonl"
    writer = LogWriter.create(log, MatchSettings(seed=3))
    with pytest.raises(LogError, match="it is locked"):
        LogWriter.resume(log)
    writer.close()
    assert read_log(log).entries == ()


def test_play_resume_of_a_log_being_written_exits_2_in_one_line(tmp_path: Path) -> None:
    log = _unfinished(tmp_path / "m.jsonl")
    holder, _ = LogWriter.resume(log)
    try:
        result = CliRunner().invoke(app, ["play", "--resume", str(log)])
    finally:
        holder.close()
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"multiversus play: cannot carry on from this log: {log}: {LOCKED}"
    ]


def test_a_log_that_cannot_get_its_header_is_not_left_behind_nor_its_chance_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The disk refuses the header: no empty log, no chance file, no temporary file.
    settings, chance = secret_chance_settings(MatchSettings(seed=3))

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    log = tmp_path / "full.jsonl"
    with pytest.raises(LogError) as refused:
        LogWriter.create(log, settings, chance)
    assert refused.value.reason == "no space left on the device"
    assert sorted(os.listdir(tmp_path)) == []


def test_a_new_log_never_replaces_a_file(tmp_path: Path) -> None:
    log = tmp_path / "there.jsonl"
    log.write_text("mine\n", encoding="utf-8")
    with pytest.raises(LogError, match="the file already exists"):
        LogWriter.create(log, MatchSettings(seed=3))
    assert log.read_text(encoding="utf-8") == "mine\n"
