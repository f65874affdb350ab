"""``multiversus games``: the games the engine plays, bundled and installed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_core.engine.registry import load_ruleset
from tests.packages import installed


def test_games_lists_each_bundled_game_with_its_name_and_seats() -> None:
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines()]
    assert ["multiversus", "Multiversus", "2", "bundled"] in rows
    assert ["sealed-bids", "Sealed", "Bids", "3", "bundled"] in rows


def test_games_as_json_gives_one_object_a_game() -> None:
    result = CliRunner().invoke(app, ["games", "--format", "json"])
    assert result.exit_code == 0, result.output
    found = {game["id"]: game for game in json.loads(result.output)}
    assert found["sealed-bids"] == {
        "id": "sealed-bids",
        "title": "Sealed Bids",
        "seats": 3,
        "source": "bundled",
        "problem": None,
    }


@pytest.fixture
def broken_package(tmp_path: Path) -> Iterator[None]:
    """A package whose game's module cannot be imported, offered through the entry point."""
    points = {"multiversus.rulesets": {"broken": "no_such_module_here:RULESET"}}
    with installed(tmp_path, "broken-game", points):
        yield


@pytest.mark.usefixtures("broken_package")
def test_a_game_that_cannot_be_loaded_is_listed_with_why_and_exits_1() -> None:
    result = CliRunner().invoke(app, ["games", "--format", "json"])
    assert result.exit_code == 1
    (broken,) = [game for game in json.loads(result.output) if game["id"] == "broken"]
    assert broken["source"] == "package (no_such_module_here:RULESET)"
    assert "no_such_module_here" in broken["problem"]


def test_verify_checks_a_log_of_any_game_and_the_others_say_they_do_not_show_it_yet(
    tmp_path: Path,
) -> None:
    from multiversus_core.bots import play_match
    from multiversus_core.log import encode_log

    ruleset = load_ruleset("sealed-bids")
    settings = ruleset.settings_type(seed=4)
    log, _ = play_match(settings, {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)})
    path = tmp_path / "bids.jsonl"
    path.write_bytes(encode_log(log))
    runner = CliRunner()
    verified = runner.invoke(app, ["verify", str(path)], env={"COLUMNS": "100"})
    assert verified.exit_code == 0, verified.output
    assert "1 of 1 logs passed" in verified.output
    for words in (["replay", str(path)], ["diff", str(path), str(path)], ["play", "--resume", str(path)]):
        result = runner.invoke(app, words)
        assert result.exit_code == 2, (words, result.output)
        assert "match of sealed-bids" in result.output and "Traceback" not in result.output
