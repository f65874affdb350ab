"""``multiversus diff``: two logs agree, or where they part ways."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_core import MatchSettings, apply, decider_seat, start_match
from multiversus_core.engine.log import LogEntry, MatchLog, encode_log, new_header, read_log
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.commands import SelectCoins
from multiversus_core.rulesets.multiversus.legal import legal_commands


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def bot_match(folder: Path, seed: int) -> Path:
    log = folder / f"bots-{seed}.jsonl"
    result = run(
        "play", "--player1", "random", "--player2", "random", "--bot-seed", str(seed),
        "--quiet", "--seed", str(seed), "--log", str(log),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return log


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("diff")
    return bot_match(folder, 7), bot_match(folder, 8)


def prefix(log: Path, entries: int, folder: Path) -> Path:
    """An unfinished copy of ``log``: the header and its first entries, no end record."""
    copy = folder / "prefix.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    copy.write_bytes(b"".join(lines[: entries + 1]))
    assert len(read_log(copy).entries) == entries
    return copy


def test_a_log_agrees_with_itself(logs: tuple[Path, Path]) -> None:
    a, _ = logs
    result = run("diff", str(a), str(a))
    assert result.exit_code == 0, result.output
    count = len(read_log(a).entries)
    assert result.output.strip() == f"The logs agree: {count} entries."


def test_logs_of_different_seeds_differ_at_the_first_entry(logs: tuple[Path, Path]) -> None:
    a, b = logs
    result = run("diff", str(a), str(b))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0] == "The settings differ: seed."
    assert "The play differs at entry 1 (round 0, turn 0)." in lines
    assert any(line.startswith("A: ") for line in lines)
    assert any(line.startswith("B: ") for line in lines)
    assert "The states after it differ:" in lines


def test_the_differing_entries_are_told_in_words_as_replay_tells_them(
    logs: tuple[Path, Path],
) -> None:
    a, b = logs
    result = run("diff", str(a), str(b))
    told = result.output
    assert '{"record"' not in told and '"kind"' not in told  # raw JSON only in --format json
    assert "The entries there, as the referee saw them:" in told
    for label, log in (("A", a), ("B", b)):
        replayed = run("replay", str(log), "--as", "referee", "--to", "1").output.splitlines()
        entry = replayed[0]
        assert entry.startswith("1. [round 0, turn 0] ")
        assert f"{label}: {entry}" in told.splitlines()
        assert f"  {replayed[1]}" in told.splitlines()  # its first event, in words


def test_a_prefix_is_reported_where_it_ends(logs: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = logs
    short = prefix(a, 20, tmp_path)
    result = run("diff", str(a), str(short))
    assert result.exit_code == 1, result.output
    assert "B ends after entry 20" in result.output
    assert "B: ends after entry 20" in result.output
    found = json.loads(run("diff", str(short), str(a), "--format", "json").output)
    assert found["agree"] is False
    assert found["entry"] == 21
    assert found["a"] is None
    assert found["b"]["record"] == "entry"


def test_json_is_one_object_for_tools(logs: tuple[Path, Path]) -> None:
    a, b = logs
    result = run("diff", str(a), str(b), "--format", "json")
    assert result.exit_code == 1
    found = json.loads(result.output)
    assert {"agree", "entry", "round", "turn", "a", "b", "state_differences"} <= set(found)
    assert found["agree"] is False
    assert found["entry"] == 1
    assert found["settings_differences"] == ["seed"]
    assert {d["field"] for d in found["state_differences"]} >= {"settings"}
    same = json.loads(run("diff", str(a), str(a), "--format", "json").output)
    assert same["agree"] is True
    assert same["entry"] is None


def test_figure_differences_name_the_figure_and_what_differs(
    logs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, _ = logs
    entries = read_log(a).entries
    # the first step: the prefix ends just before it, so the figure's square differs
    step = next(i for i, e in enumerate(entries) if e.command.__struct_config__.tag == "step")
    short = prefix(a, step, tmp_path)
    found = json.loads(run("diff", str(a), str(short), "--format", "json").output)
    figures = [d for d in found["state_differences"] if d["field"] == "figures"]
    assert figures
    assert "square" in figures[0]["differs"]
    # In words: the figure by name and both squares.
    told = run("diff", str(a), str(short)).output
    name = read_log(a).entries[step].command.figure  # type: ignore[attr-defined]
    assert name not in told.split("The states after it differ:")[1]  # its name, not its id
    assert re.search(r"\n  [\w ]+ \d?: square \(\d,\d\) in A, \(\d,\d\) in B\n", told)


def test_a_missing_or_bad_file_is_a_one_line_error(logs: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = logs
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"record": "header"}\n')
    for other in (tmp_path / "missing.jsonl", bad):
        result = run("diff", str(a), str(other))
        assert result.exit_code == 2
        assert result.output.startswith("multiversus diff: ")
        assert len(result.output.strip().splitlines()) == 1


def test_logs_whose_play_agrees_differ_only_in_salts_said_in_one_line(tmp_path: Path) -> None:
    args = ["play", "--player1", "bot", "--player2", "bot", "--bot-seed", "3", "--quiet"]
    args += ["--seed", "3"]
    run(*args, "--log", str(tmp_path / "seeded.jsonl"), "--seeded-salts")
    run(*args, "--log", str(tmp_path / "secret.jsonl"))
    result = run("diff", str(tmp_path / "seeded.jsonl"), str(tmp_path / "secret.jsonl"))
    assert result.exit_code == 1
    entries = len(read_log(tmp_path / "seeded.jsonl").entries)
    first_salt = next(
        n
        for n, line in enumerate((tmp_path / "seeded.jsonl").read_text().splitlines())
        if '"commitment"' in line
    )
    assert result.output.splitlines() == [
        "The settings differ: salts.",
        "  salts: seed in A, secrets in B",
        f"The play agrees over {entries} entries; only salts and commitments differ, from "
        f"entry {first_salt} (each match draws its own).",
    ]
    found = json.loads(
        run("diff", str(tmp_path / "seeded.jsonl"), str(tmp_path / "secret.jsonl"), "--format",
            "json").output
    )  # fmt: skip
    assert (found["entry"], found["salts_from"], found["agree"]) == (None, first_salt, False)


def test_the_play_is_compared_past_salts_to_the_entry_where_it_differs(tmp_path: Path) -> None:
    # The same match but for the salts, then one command changed halfway: the play differs
    # there, and the salts before it are told apart in one line.
    args = ["play", "--player1", "bot", "--player2", "bot", "--bot-seed", "3", "--quiet"]
    args += ["--seed", "3"]
    run(*args, "--log", str(tmp_path / "a.jsonl"), "--seeded-salts")
    run(*args, "--log", str(tmp_path / "b.jsonl"))
    cut = prefix(tmp_path / "b.jsonl", 40, tmp_path)
    result = run("diff", str(tmp_path / "a.jsonl"), str(cut))
    lines = result.output.splitlines()
    assert "B ends after entry 40; the other goes on" in result.output
    (before,) = [line for line in lines if line.startswith("Before it, from entry ")]
    assert before.endswith(", only salts and commitments differ (each match draws its own).")


def test_figures_and_coins_are_named_on_both_sides() -> None:
    replays = Path(__file__).parent.parent / "replays"
    result = run(
        "diff",
        str(replays / "banner-knight--smogon--standard.jsonl"),
        str(replays / "witch-hunters--smogon--standard.jsonl"),
    )
    lines = [line.strip() for line in result.output.splitlines()]
    assert "Banner Knight: in A only" in lines
    assert "The Witch Hunter: in B only" in lines
    (stash,) = [line for line in lines if line.startswith("heroes: stash")]
    assert "Banner Knight (green coin)" in stash and "The Witch Hunter (green coin)" in stash
    assert "knight.green1" not in stash


def test_a_log_and_its_prefix_tell_the_waiting_decision_in_words(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "play",
            "--player1",
            "bot",
            "--player2",
            "bot",
            "--seed",
            "3",
            "--bot-seed",
            "3",
            "--quiet",
            "--log",
            str(full),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = full.read_text().splitlines(keepends=True)
    cut = next(
        n for n in range(2, len(lines)) if '"kind":"attack_made"' in lines[n - 1]
    )  # the log stops right after an attack: the other waits for its follow-up
    short = tmp_path / "short.jsonl"
    short.write_text("".join(lines[:cut]))
    told = CliRunner().invoke(app, ["diff", str(full), str(short)]).output
    assert "pending: " in told
    assert "after_attack" not in told  # the field's value in words, not the code's name


def test_a_differing_activation_is_told_part_by_part(tmp_path: Path) -> None:
    # Two logs that part ways at a coin selection: the activations differ inside.
    settings = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=3)
    state, entries = start_match(settings), []
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    while True:
        seat = decider_seat(state)
        assert seat is not None
        selections = [c for c in legal_commands(state, seat) if isinstance(c, SelectCoins)]
        if len(entries) > 40 and len(selections) >= 2:
            break
        command = command_for(bots[seat], state, seat)
        state, events = apply(state, command)
        entries.append(LogEntry(command=command, events=events))
    first = next(c for c in selections if c.actions == ("attack",))
    other = next(c for c in selections if c.unit == first.unit and c.actions == ("defend",))
    paths = []
    for name, command in (("a", first), ("b", other)):
        _, events = apply(state, command)
        log = MatchLog(new_header(settings), (*entries, LogEntry(command=command, events=events)))
        paths.append(tmp_path / f"{name}.jsonl")
        paths[-1].write_bytes(encode_log(log))
    result = run("diff", *map(str, paths))
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if x.strip().startswith("activation:"))
    assert "actions attack in A, defend in B" in line
    assert "remaining attack in A, defend in B" in line
    assert re.search(r"commitment [0-9a-f]{12}… in A, [0-9a-f]{12}… in B", line)
    assert "differs" not in line
