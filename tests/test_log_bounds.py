"""Every string a log's settings carry is bounded, and so is a log's size: a hostile name or
file is refused at read in one line, before it costs time or memory."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core import MatchSettings, SettingsError, start_match
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import MAX_LINE_BYTES, MAX_LOG_BYTES, MAX_SETTING_CHARS, read_log
from multiversus_core.engine.open_game import MAX_PLAYER_NAME

GOLDEN = Path(__file__).parent.parent / "replays" / "banner-knight--smogon--standard.jsonl"


@pytest.mark.parametrize("game", ["multiversus", "tiles-d6", "worlds-collide"])
def test_a_players_name_is_at_most_64_characters(game: str) -> None:
    long_name = "N" * (MAX_PLAYER_NAME + 1)
    if game == "multiversus":
        args = ["--name1", long_name, "--player1", "bot", "--player2", "bot"]
    else:
        args = ["--game", game, "--names", f"{long_name},Bob", "--players", "random,random"]
    result = CliRunner().invoke(app, ["play", *args, "--quiet", "--log", "/dev/null/never"])
    assert result.exit_code == 2, result.output
    assert f"longer than {MAX_PLAYER_NAME} characters" in result.output
    assert len(result.output.strip().splitlines()) == 1
    with pytest.raises(SettingsError, match="longer than 64 characters"):
        start_match(MatchSettings(players=(long_name, "Bob")))


@pytest.mark.parametrize(
    ("length", "reason"),
    [
        (
            100_000,
            f"settings.players[0] is longer than {MAX_SETTING_CHARS} characters: no name or id is",
        ),
        # A name longer than any line may be is refused before its line is read whole.
        (10_000_000, f"the line is longer than {MAX_LINE_BYTES} bytes: no record is that long"),
    ],
)
def test_a_log_whose_settings_hold_a_huge_name_is_refused_at_read(
    tmp_path: Path, length: int, reason: str
) -> None:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["settings"]["players"][0] = "x" * length
    hostile = tmp_path / "huge-name.jsonl"
    hostile.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    with pytest.raises(LogError) as refused:
        read_log(hostile)
    assert (refused.value.line, refused.value.code) == (1, "out_of_range")
    assert refused.value.reason == reason
    result = CliRunner().invoke(app, ["replay", str(hostile), "--format", "html"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


def test_a_file_larger_than_any_log_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as file:  # sparse: nothing is written but its end
        file.seek(MAX_LOG_BYTES + 10)
        file.write(b"\n")
    with pytest.raises(LogError) as refused:
        read_log(huge)
    assert (refused.value.line, refused.value.reason) == (
        0,
        f"the file is larger than {MAX_LOG_BYTES} bytes: no log is that long",
    )
    result = CliRunner().invoke(app, ["verify", str(huge)])
    assert result.exit_code == 1 and "no log is that long" in result.output


def test_what_is_not_a_regular_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    for path in (fifo, Path("/dev/zero")):  # and this one never ends
        with pytest.raises(LogError) as refused:
            read_log(path)
        assert (refused.value.line, refused.value.reason) == (
            0,
            "not a regular file: a log is a file",
        )
