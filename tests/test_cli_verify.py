"""``multiversus verify``: logs and folders of logs checked against the rules.

The logs are bot games written with ``multiversus play`` from fixed seeds, so
they are the same match each run (with fresh salts, as in real play).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from msgspec.structs import replace
from rich.console import Console
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_cli.verify import find_logs, summary_table
from multiversus_core.engine.log import encode_log, read_log
from multiversus_core.engine.verify import Verification
from multiversus_core.rulesets.multiversus.events import CoinsRevealed
from tests.support import rechained


def verify(*args: str) -> Result:
    return CliRunner().invoke(app, ["verify", *args])


def bot_log(path: Path, seed: int) -> Path:
    """Write the log of a bot game with ``multiversus play``."""
    bots = ["--player1", "random", "--player2", "random", "--bot-seed", str(seed), "--quiet"]
    result = CliRunner().invoke(app, ["play", *bots, "--seed", str(seed), "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with two good logs, one of them in a subfolder."""
    folder = tmp_path_factory.mktemp("logs")
    bot_log(folder / "seed3.jsonl", 3)
    (folder / "more").mkdir()
    bot_log(folder / "more" / "seed4.jsonl", 4)
    (folder / "notes.txt").write_text("not a log\n")
    return folder


def edited(good: Path, target: Path) -> tuple[Path, int]:
    """Copy a log with the first Initiative die changed and nothing else; return its entry."""
    lines = good.read_text().splitlines(keepends=True)
    for number, line in enumerate(lines):
        if '"kind":"initiative_rolled"' in line:
            found = re.search(r'"die":(\d)', line)
            assert found is not None
            die = int(found[1])
            lines[number] = line.replace(f'"die":{die}', f'"die":{die % 6 + 1}', 1)
            target.write_text("".join(lines))
            return target, number  # line number + 1 is 1-based; the header is line 1
    raise AssertionError("the log has no initiative roll")


def test_a_good_bot_log_passes(logs: Path) -> None:
    result = verify(str(logs / "seed3.jsonl"))
    assert result.exit_code == 0, result.output
    assert "1 of 1 logs passed" in result.output
    assert "OK" in result.output
    assert "FAILED" not in result.output
    assert "yes" in result.output  # the match finished


def test_a_folder_is_searched_recursively_for_logs(
    logs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(logs)
    result = verify(".")
    assert result.exit_code == 0, result.output
    assert "2 of 2 logs passed" in result.output
    assert "seed3.jsonl" in result.output
    assert "more/seed4.jsonl" in result.output
    assert "notes.txt" not in result.output


def test_an_edited_initiative_die_fails_naming_the_file_and_entry(
    logs: Path, tmp_path: Path
) -> None:
    bad, _ = edited(logs / "seed3.jsonl", tmp_path / "edited.jsonl")
    result = verify(str(logs / "seed3.jsonl"), str(bad))
    assert result.exit_code == 1, result.output
    assert "1 of 2 logs passed" in result.output
    assert "FAILED" in result.output
    failures = [line for line in result.output.splitlines() if line.startswith(f"{bad}: ")]
    assert len(failures) == 1
    assert re.search(r": entry \d+ \(line \d+\)", failures[0])
    assert "Traceback" not in result.output


def test_a_missing_path_exits_2(logs: Path, tmp_path: Path) -> None:
    result = verify(str(logs), str(tmp_path / "nowhere.jsonl"))
    assert result.exit_code == 2
    assert (
        result.output.strip()
        == f"multiversus verify: {tmp_path / 'nowhere.jsonl'}: no such file or folder"
    )


def test_a_folder_without_logs_exits_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    result = verify(str(tmp_path))
    assert result.exit_code == 2
    assert "no log (*.jsonl) found" in result.output


def test_a_file_that_is_not_a_log_fails(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    result = verify(str(junk))
    assert result.exit_code == 1
    assert any(line.startswith(f"{junk}: ") for line in result.output.splitlines())


def test_a_crash_of_the_verifier_fails_that_log_without_a_traceback(
    logs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiversus_core.engine.verify

    def crash(path: object) -> None:
        raise KeyError("bruisers")

    monkeypatch.setattr(multiversus_core.engine.verify, "verify_file", crash)
    result = verify(str(logs / "seed3.jsonl"))
    assert result.exit_code == 1
    assert "the verifier failed on this log (a bug): KeyError: 'bruisers'" in result.output
    assert "Traceback" not in result.output


def test_format_json_lists_one_object_per_log(logs: Path, tmp_path: Path) -> None:
    bad, _ = edited(logs / "seed3.jsonl", tmp_path / "edited.jsonl")
    result = verify(str(logs), str(bad), "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [Path(item["path"]).name for item in data] == [
        "seed4.jsonl",
        "seed3.jsonl",
        "edited.jsonl",
    ]
    assert [item["ok"] for item in data] == [True, True, False]
    assert data[0]["finished"] is True
    assert data[0]["entries"] > 0
    assert data[2]["problem"]
    assert data[2]["code"]


def test_many_logs_are_verified_with_a_progress_bar_and_each_once(
    logs: Path, tmp_path: Path
) -> None:
    for i in range(7):
        shutil.copy(logs / "seed3.jsonl", tmp_path / f"copy{i}.jsonl")
    assert len(find_logs([tmp_path, tmp_path / "copy0.jsonl"])) == 7  # no file twice
    result = verify(str(tmp_path), "--format", "json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)) == 7


def test_help_shows_an_example() -> None:
    result = verify("--help")
    assert result.exit_code == 0
    assert "multiversus verify logs/" in result.output


def test_a_reveal_that_does_not_open_its_commitment_fails_naming_the_entry(
    logs: Path, tmp_path: Path
) -> None:
    log = read_log(logs / "seed3.jsonl")
    number, entry = next(
        (n, e)
        for n, e in enumerate(log.entries, 1)
        if any(isinstance(x, CoinsRevealed) for x in e.events)
    )
    events = tuple(
        replace(x, salt="00" * 32) if isinstance(x, CoinsRevealed) else x for x in entry.events
    )
    entries = (*log.entries[: number - 1], replace(entry, events=events), *log.entries[number:])
    # A forger rewrites the chain, so only the commitment gives the edit away.
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(encode_log(replace(log, entries=entries)))
    result = verify(str(forged))
    assert result.exit_code == 1, result.output
    assert f"entry {number} (line {number + 1})" in result.output
    assert "does not open its commitment" in result.output
    assert "[reveal_mismatch]" in result.output


def test_the_table_says_whether_a_log_is_secret(logs: Path, tmp_path: Path) -> None:
    seeded = tmp_path / "seeded.jsonl"
    bots = ["--player1", "random", "--player2", "random", "--bot-seed", "3", "--quiet"]
    bots += ["--seeded-salts"]
    played = CliRunner().invoke(app, ["play", *bots, "--seed", "3", "--log", str(seeded)])
    assert played.exit_code == 0, played.output
    result = verify(str(logs / "seed3.jsonl"), str(seeded), "--format", "json")
    assert [r["salts"] for r in json.loads(result.output)] == ["secrets", "seed"]
    table = CliRunner().invoke(app, ["verify", str(seeded)], env={"COLUMNS": "120"}).output
    assert "seed (not secret)" in table
    assert [r["chance"] for r in json.loads(result.output)] == ["public", "public"]


def test_the_chance_seed_of_a_match_played_without_seed_is_secret_until_the_end(
    tmp_path: Path,
) -> None:
    # Item 2: no --seed: the header holds only a commitment, the end record reveals the seed.
    path = tmp_path / "secret.jsonl"
    bots = ["--player1", "bot", "--player2", "bot", "--quiet"]
    played = CliRunner().invoke(app, ["play", *bots, "--log", str(path)])
    assert played.exit_code == 0, played.output
    lines = path.read_bytes().splitlines()
    header, end = json.loads(lines[0]), json.loads(lines[-1])
    assert header["settings"]["seed"] == 0 and len(header["settings"]["chance"]) == 64
    seed = end["chance"]["seed"]
    assert f"seed {seed}." in played.output  # shown once the match is over
    assert str(seed).encode() not in b"\n".join(lines[:-1])
    assert not (tmp_path / "secret.jsonl.chance").exists()
    result = verify(str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    assert [r["chance"] for r in json.loads(result.output)] == ["secret"]


def test_a_view_log_is_checked_for_its_commitments(logs: Path, tmp_path: Path) -> None:
    # given the Heroes' view log of a bot game, written with replay --format log
    view = tmp_path / "heroes-view.jsonl"
    written = CliRunner().invoke(
        app, ["replay", str(logs / "seed3.jsonl"), "--as", "heroes", "--format", "log"]
    )
    assert written.exit_code == 0, written.output
    view.write_bytes(written.stdout_bytes)
    # when it is verified with its match log, then both pass and the table tells them apart
    result = verify(str(view), str(logs / "seed3.jsonl"))
    assert result.exit_code == 0, result.output
    assert "view: heroes" in result.output or "the heroes' view log" in result.output
    as_json = verify(str(view), str(logs / "seed3.jsonl"), "--format", "json")
    assert [r["view"] for r in json.loads(as_json.output)] == ["heroes", None]
    # and a reveal edited in the view log fails, naming the entry
    lines = view.read_bytes().split(b"\n")
    number = next(i for i, line in enumerate(lines) if b'"kind":"coins_revealed"' in line)
    lines[number] = re.sub(rb'"salt":"[0-9a-f]{64}"', b'"salt":"' + b"0" * 64 + b'"', lines[number])
    view.write_bytes(rechained(b"\n".join(lines)))
    failed = verify(str(view))
    assert failed.exit_code == 1
    assert f"entry {number} (line {number + 1})" in failed.output
    assert "does not open its commitment" in failed.output


def test_the_table_says_which_kind_of_log_each_is() -> None:
    results = [
        Verification(path="a.jsonl", ok=True, entries=3, finished=False),
        Verification(path="b.jsonl", ok=True, entries=3, finished=False, view="heroes"),
        Verification(path="c.jsonl", ok=False, entries=0, finished=False, code="log_error"),
    ]
    console = Console(record=True, width=200)
    console.print(summary_table(results))
    rows = {
        line.split()[1]: line.split("│")[2].strip()
        for line in console.export_text().splitlines()
        if line.startswith("│")
    }
    assert rows == {"a.jsonl": "match", "b.jsonl": "view: heroes", "c.jsonl": "?"}


def test_file_names_stay_whole_and_readable_at_80_columns(tmp_path: Path) -> None:
    # Logs in folders: at 80 columns the table would cut or fold their names.
    folder = tmp_path / "club-matches" / "autumn-league"
    folder.mkdir(parents=True)
    bot_log(folder / "multiversus-20261122-101500.jsonl", 3)
    bot_log(tmp_path / "short.jsonl", 4)
    result = CliRunner().invoke(app, ["verify", str(tmp_path)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    title, *lines = result.output.splitlines()
    # Named from the folder they share, each whole on a line of its own.
    assert title == f"2 of 2 logs passed, in {tmp_path}{os.sep}"
    assert lines[0] == "OK      club-matches/autumn-league/multiversus-20261122-101500.jsonl"
    assert lines[1] == "        match log, format 4, 283 entries, finished, salts: secrets,"
    assert lines[2] == "        chance: public"
    assert lines[3] == "OK      short.jsonl"
    assert max(len(line) for line in lines) <= 80


def test_a_wide_screen_keeps_the_table_with_names_from_the_common_folder(tmp_path: Path) -> None:
    bot_log(tmp_path / "one.jsonl", 3)
    result = CliRunner().invoke(app, ["verify", str(tmp_path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"1 of 1 logs passed, in {tmp_path}{os.sep}\n")
    assert "│ one.jsonl │ match │" in result.output


def test_every_verdict_names_the_format_version_and_what_an_older_one_cannot_prove(
    tmp_path: Path,
) -> None:
    from multiversus_cli.verify import _format_words

    assert _format_words(4) == "format 4"
    assert _format_words(1) == (
        "format 1 (no chain, no commitments: anyone could have written its choices and rolls)"
    )
    assert (
        _format_words(3) == "format 3 (chance public: its rolls follow from the seed in its header)"
    )
    # A log of format 1 passes alone, and its verdict says what that means.
    old = Path(__file__).parent / "fixtures" / "v1-seed-11.jsonl"
    result = CliRunner().invoke(app, ["verify", str(old)], env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    assert "format 1 (no chain, no commitments" in " ".join(result.output.split())
    table = CliRunner().invoke(app, ["verify", str(old)], env={"COLUMNS": "200"})
    assert "fmt" in table.output
