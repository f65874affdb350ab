"""``multiversus replay``: a bot match replayed as each viewer, without leaking hidden coins."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_core.engine.log import MatchLog, read_log
from multiversus_core.engine.log import replay as replay_log
from multiversus_core.engine.viewlog import decode_view_log, encode_view_log
from multiversus_core.rulesets.multiversus.events import CoinsSelected
from multiversus_core.rulesets.multiversus.narrate import result_text
from multiversus_core.rulesets.multiversus.views import redact_log
from tests.support import rechained

VIEWERS = ("heroes", "adversaries", "spectator", "referee")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def bot_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished bot match, seed 7."""
    log = tmp_path_factory.mktemp("replay") / "bots.jsonl"
    result = run(
        "play",
        "--player1",
        "random",
        "--player2",
        "random",
        "--bot-seed",
        "7",
        "--quiet",
        "--seed",
        "7",
        "--log",
        str(log),
    )
    assert result.exit_code == 0, result.output
    return log


def first_selection(log: Path) -> tuple[int, CoinsSelected]:
    """The 1-based entry of the first active coin selection, and its event."""
    for number, entry in enumerate(read_log(log).entries, start=1):
        for event in entry.events:
            if isinstance(event, CoinsSelected):
                return number, event
    raise AssertionError("no coin selection in the log")


def view_json(log: Path, viewer: str, to: int) -> Any:
    result = run("replay", str(log), "--as", viewer, "--to", str(to), "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_json_gives_the_view_at_an_entry_for_each_viewer(bot_log: Path, viewer: str) -> None:
    seen = view_json(bot_log, viewer, 10)
    assert seen["round"] >= 1
    if viewer == "referee":
        assert "viewer" not in seen  # the referee gets the state itself
    else:
        assert seen["viewer"] == viewer


def test_a_hidden_selection_is_hidden_from_the_spectator_and_the_opponent(bot_log: Path) -> None:
    number, selected = first_selection(bot_log)
    other = "adversaries" if selected.side == "heroes" else "heroes"
    referee = view_json(bot_log, "referee", number)
    assert referee["activation"]["coin"] == selected.coin
    own = view_json(bot_log, selected.side, number)
    assert own["activation"]["coin"] == selected.coin
    assert own[selected.side]["stash"] is not None
    for viewer in ("spectator", other):
        seen = view_json(bot_log, viewer, number)
        assert seen["activation"]["hidden"] is True
        assert seen["activation"]["coin"] is None
        assert seen["activation"]["unit"] is None
        assert seen[selected.side]["stash"] is None
        assert selected.coin not in json.dumps(seen["activation"])


def test_text_tells_each_entry_and_ends_with_the_board(bot_log: Path) -> None:
    number, _ = first_selection(bot_log)
    result = run("replay", str(bot_log), "--to", str(number + 3))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("1. [round 0, turn 0]")
    assert "The coin is flipped" in out
    assert "select their coins in secret" in out
    assert f"{number + 3}. [round 1" in out
    assert f"After entry {number + 3} of" in out
    assert "Tiles:" in out  # the board's legend


def entry_lines(output: str, number: int) -> list[str]:
    """The lines a text replay prints for one entry: its heading and its events."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{number}. ["))
    rest = lines[start + 1 :]
    end = next(i for i, line in enumerate(rest) if not line.startswith("   "))
    return [lines[start], *rest[:end]]


def test_text_tells_a_selection_only_to_its_own_side(bot_log: Path) -> None:
    number, selected = first_selection(bot_log)
    other = "adversaries" if selected.side == "heroes" else "heroes"
    own = run("replay", str(bot_log), "--as", selected.side, "--to", str(number))
    assert own.exit_code == 0, own.output
    told = entry_lines(own.output, number)
    assert "in secret" not in told[0]
    assert any("You select" in line for line in told[1:])
    for viewer in ("spectator", other):
        hidden = run("replay", str(bot_log), "--as", viewer, "--to", str(number))
        told = entry_lines(hidden.output, number)
        assert told[0].endswith("select coins in secret")
        assert told[1:] == [f"   The {selected.side.capitalize()} select their coins in secret."]


def test_the_whole_log_by_default_and_board_format(bot_log: Path) -> None:
    count = len(read_log(bot_log).entries)
    result = run("replay", str(bot_log))
    assert result.exit_code == 0, result.output
    assert f"After entry {count} of {count}, as the spectator" in result.output
    board = run("replay", str(bot_log), "--format", "board")
    assert board.exit_code == 0, board.output
    assert "The match is over" in board.output
    assert "1. [" not in board.output


def test_a_finished_match_tells_its_result_once(bot_log: Path) -> None:
    final = replay_log(read_log(bot_log))
    result = run("replay", str(bot_log))
    assert result.output.count(result_text(final)) == 1  # the last entry tells it
    count = len(read_log(bot_log).entries)
    stepped = step(bot_log, "--to", str(count), input="q\n")
    assert stepped.output.count(result_text(final)) == 1
    board = run("replay", str(bot_log), "--format", "board")
    assert board.output.count(result_text(final)) == 1  # the board alone tells it


@pytest.mark.parametrize("to", ["-1", "100000"])
def test_to_out_of_range_is_a_one_line_error(bot_log: Path, to: str) -> None:
    result = run("replay", str(bot_log), "--to", to)
    assert result.exit_code == 2
    assert "out of range" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_bad_log_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a log\n")
    for path in (bad, tmp_path / "missing.jsonl"):
        result = run("replay", str(path))
        assert result.exit_code == 2
        assert result.output.startswith("multiversus replay: ")
        assert len(result.output.strip().splitlines()) == 1


def _moved_a_step(data: bytes) -> bytes:
    """The log with its first step landing three squares off, the chain recomputed."""
    lines = data.split(b"\n")
    index = next(i for i, line in enumerate(lines) if b'"figure_stepped"' in line)
    record = json.loads(lines[index])
    to = record["events"][0]["to"]
    record["events"][0]["to"] = [to[0] + 3, to[1]]
    lines[index] = json.dumps(record, separators=(",", ":")).encode()
    return rechained(b"\n".join(lines))


@pytest.mark.parametrize("viewer", [None, "heroes"])
def test_a_forged_log_that_reads_and_folds_is_refused_not_narrated(
    bot_log: Path, tmp_path: Path, viewer: str | None
) -> None:
    data = bot_log.read_bytes()
    if viewer is not None:
        data = encode_view_log(redact_log(read_log(bot_log), viewer))
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(_moved_a_step(data))
    for args in ([], ["--format", "json"], ["--format", "html", "--out", str(tmp_path / "f.html")]):
        result = run("replay", str(forged), *args)
        assert result.exit_code == 2, result.output
        assert result.output.startswith("multiversus replay: ")
        assert "does not verify" in result.output and "(rules_differ)" in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "f.html").exists()
    if viewer is None:  # diff compares match logs
        diff = run("diff", str(bot_log), str(forged))
        assert diff.exit_code == 2 and "does not verify" in diff.output


# --- stepping (--step; at a terminal it is the default, see test_cli_pty.py) -------


def step(log: Path, *args: str, input: str) -> Result:
    return CliRunner().invoke(app, ["replay", str(log), "--step", *args], input=input)


def headings(output: str) -> list[str]:
    """What each shown position was: an entry's number, or 0 before the first entry."""
    shown = []
    for line in output.splitlines():
        if line.startswith("Before the first entry"):
            shown.append("0")
        elif re.match(r"\d+\. \[round", line):
            shown.append(line.split(".")[0])
    return shown


def test_step_goes_forward_back_and_to_an_entry(bot_log: Path) -> None:
    result = step(bot_log, input="\nn\np\ng 12\n5\nb\nq\n")
    assert result.exit_code == 0, result.output
    assert headings(result.output) == ["0", "1", "2", "1", "12", "5"]
    assert "Entry 5 of" in result.output
    assert result.output.count("Tiles:") >= 1  # the board of the round being played


def test_step_starts_at_to_and_stops_at_both_ends(bot_log: Path) -> None:
    count = len(read_log(bot_log).entries)
    result = step(bot_log, "--to", str(count), input="n\ng 0\np\n")
    assert result.exit_code == 0, result.output  # the end of the input ends it cleanly
    assert headings(result.output) == [str(count), "0"]
    assert "This is the last entry" in result.output
    assert "This is before the first entry" in result.output


def test_step_goes_to_a_round_and_to_the_next_turn(bot_log: Path) -> None:
    states = [view_json(bot_log, "referee", n) for n in range(0, 40)]
    round_one = next(n for n, state in enumerate(states) if state["round"] == 1)
    result = step(bot_log, input="r 1\nt\nq\n")
    assert result.exit_code == 0, result.output
    shown = headings(result.output)
    assert shown[:2] == ["0", str(round_one)]
    turn = int(shown[2])
    assert turn > round_one
    here = states[round_one]
    assert (states[turn]["round"], states[turn]["turns_in_round"]) != (
        here["round"],
        here["turns_in_round"],
    )


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("x", "'x' is not a key here."),
        ("g", "g needs a number"),
        ("g 100000", "There is no entry '100000'"),
        ("g -1", "There is no entry '-1'"),
        ("r 9", "There is no round '9' here"),
        ("r one", "There is no round 'one' here"),
        ("99999999999999999999999", "There is no entry"),
        ("\x00\x1b[2J", "is not a key here."),
        ("p", "This is before the first entry"),
    ],
)
def test_step_answers_wrong_input_with_a_message_and_the_prompt(
    bot_log: Path, typed: str, message: str
) -> None:
    result = step(bot_log, input=f"{typed}\nh\n")
    assert result.exit_code == 0, result.output
    assert message in result.output
    assert "Type h for help." in result.output
    assert result.output.count("Entry 0 of") == 3  # asked again after the message and the help
    assert "Keys (then Enter):" in result.output
    assert "Traceback" not in result.output


def test_step_hides_a_selection_from_the_spectator(bot_log: Path) -> None:
    number, selected = first_selection(bot_log)
    hidden = step(bot_log, input=f"g {number}\nq\n")
    assert f"The {selected.side.capitalize()} select their coins in secret." in hidden.output
    own = step(bot_log, "--as", selected.side, input=f"g {number}\nq\n")
    assert "You select" in own.output


def test_step_with_format_is_a_one_line_error(bot_log: Path) -> None:
    result = step(bot_log, "--format", "board", input="")
    assert result.exit_code == 2
    assert result.output.startswith("multiversus replay: --step cannot be used with --format")
    assert len(result.output.strip().splitlines()) == 1


def test_no_step_prints_the_transcript(bot_log: Path) -> None:
    result = CliRunner().invoke(app, ["replay", str(bot_log), "--no-step", "--to", "3"])
    assert result.exit_code == 0, result.output
    assert "After entry 3 of" in result.output
    assert "(h for help)" not in result.output


# --- view logs (--format log) ------------------------------------------------------


@pytest.mark.parametrize("viewer", ["heroes", "adversaries", "spectator"])
def test_format_log_writes_the_view_log_of_the_entries_so_far(bot_log: Path, viewer: str) -> None:
    number, _ = first_selection(bot_log)
    result = run("replay", str(bot_log), "--as", viewer, "--to", str(number), "--format", "log")
    assert result.exit_code == 0, result.output
    log = read_log(bot_log)
    cut = MatchLog(header=log.header, entries=log.entries[:number])
    assert result.stdout_bytes == encode_view_log(redact_log(cut, viewer))  # type: ignore[arg-type]
    assert decode_view_log(result.stdout_bytes).viewer == viewer


def test_format_log_of_a_selection_hides_it_from_the_opponent(bot_log: Path) -> None:
    number, selected = first_selection(bot_log)
    opponent = "adversaries" if selected.side == "heroes" else "heroes"
    result = run("replay", str(bot_log), "--as", opponent, "--to", str(number), "--format", "log")
    assert result.exit_code == 0, result.output
    assert selected.salt.encode() not in result.stdout_bytes
    assert selected.commitment.encode() in result.stdout_bytes


def test_format_log_as_the_referee_is_a_one_line_error(bot_log: Path) -> None:
    result = run("replay", str(bot_log), "--as", "referee", "--format", "log")
    assert result.exit_code == 2
    assert result.output.startswith("multiversus replay: --format log writes one viewer's view")
    assert len(result.output.strip().splitlines()) == 1


# --- replaying a view log ------------------------------------------------------------


def view_log_of(bot_log: Path, tmp_path: Path, viewer: str, to: int | None = None) -> Path:
    cut = () if to is None else ("--to", str(to))
    result = run("replay", str(bot_log), "--as", viewer, *cut, "--format", "log")
    assert result.exit_code == 0, result.output
    path = tmp_path / f"{viewer}-view.jsonl"
    path.write_bytes(result.stdout_bytes)
    return path


@pytest.mark.parametrize("viewer", ["heroes", "adversaries", "spectator"])
@pytest.mark.parametrize("output", ["text", "board", "json", "log"])
def test_a_view_log_replays_exactly_as_its_viewer_saw_the_match(
    bot_log: Path, tmp_path: Path, viewer: str, output: str
) -> None:
    view_log = view_log_of(bot_log, tmp_path, viewer)
    for to in ("10", "60", str(len(read_log(bot_log).entries))):
        real = run("replay", str(bot_log), "--as", viewer, "--to", to, "--format", output)
        shown = run("replay", str(view_log), "--to", to, "--format", output)  # as its viewer
        assert shown.exit_code == 0, shown.output
        assert shown.stdout_bytes == real.stdout_bytes


def test_a_sides_view_log_replays_as_the_spectator_too(bot_log: Path, tmp_path: Path) -> None:
    view_log = view_log_of(bot_log, tmp_path, "heroes")
    real = run("replay", str(bot_log), "--as", "spectator", "--format", "text")
    shown = run("replay", str(view_log), "--as", "spectator", "--format", "text")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout_bytes == real.stdout_bytes


def test_a_view_log_cut_before_a_reveal_replays_without_telling_the_hidden_coin(
    bot_log: Path, tmp_path: Path
) -> None:
    number, selected = first_selection(bot_log)
    opponent = "adversaries" if selected.side == "heroes" else "heroes"
    view_log = view_log_of(bot_log, tmp_path, opponent, number)
    real = run("replay", str(bot_log), "--as", opponent, "--to", str(number), "--format", "json")
    shown = run("replay", str(view_log), "--format", "json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output) == json.loads(real.output)
    assert json.loads(shown.output)["activation"]["hidden"] is True


@pytest.mark.parametrize(
    ("viewer", "asked", "told"),
    [
        ("heroes", "adversaries", "the heroes' view log, which holds only what the heroes saw: "
         "replay it as the heroes or the spectator"),
        ("heroes", "referee", "the heroes' view log"),
        ("spectator", "heroes", "the spectator's view log, which holds only what the spectator "
         "saw: replay it as the spectator"),
    ],
)  # fmt: skip
def test_a_view_log_as_anyone_who_saw_more_is_a_one_line_error(
    bot_log: Path, tmp_path: Path, viewer: str, asked: str, told: str
) -> None:
    view_log = view_log_of(bot_log, tmp_path, viewer)
    result = run("replay", str(view_log), "--as", asked)
    assert result.exit_code == 2
    assert result.output.startswith(f"multiversus replay: --as {asked}: this is {told}")
    assert len(result.output.strip().splitlines()) == 1


def test_a_view_log_whose_events_do_not_follow_names_its_line(
    bot_log: Path, tmp_path: Path
) -> None:
    data = view_log_of(bot_log, tmp_path, "spectator").read_bytes()
    # The first reveal names a coin no one has: the hidden selection it opens cannot be made.
    edited = re.sub(rb'("kind":"coins_revealed","side":"\w+","coin":)"[^"]+"', rb'\1"nobody-red-1"',
                    data, count=1)  # fmt: skip
    assert edited != data
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(rechained(edited))
    number, _ = first_selection(bot_log)
    result = run("replay", str(broken))
    assert result.exit_code == 2
    assert result.output.startswith(f"multiversus replay: {broken}, line {number + 1}, byte ")
    assert "(bad_event)" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_diff_still_takes_match_logs_only(bot_log: Path, tmp_path: Path) -> None:
    view_log = view_log_of(bot_log, tmp_path, "heroes")
    result = run("diff", str(bot_log), str(view_log))
    assert result.exit_code == 2
    assert "this is a view log" in result.output


def test_stepping_through_a_view_log_shows_what_stepping_through_the_match_shows(
    bot_log: Path, tmp_path: Path
) -> None:
    view_log = view_log_of(bot_log, tmp_path, "adversaries")
    keys = "n\nn\nt\nr 2\np\nq\n"
    real = step(bot_log, "--as", "adversaries", input=keys)
    shown = step(view_log, input=keys)
    assert shown.exit_code == 0, shown.output
    assert shown.output == real.output
