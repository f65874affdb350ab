"""Simulation of any game: the grid of seatings, the records, the summary, ``simulate --game``.

Sealed Bids (three seats) stands for every game that is not Multiversus; a
third game is installed from a throwaway package, the way another package
would offer one, with a bot that fails on purpose.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_core.engine.log import decode_log, replay
from multiversus_core.engine.simulation import (
    ERROR_REASON,
    GAME_CODEC,
    GameGrid,
    GameRecord,
    Seating,
    deal_seed,
    game_of_header,
    play_game_task,
    summarize_game,
)
from multiversus_core.engine.verify import verify_data
from multiversus_core.rulesets.multiversus.simulation import Grid, encode_header
from multiversus_core.rulesets.sealed_bids import RULESET
from tests.packages import installed

GRID = GameGrid(game="sealed-bids", bots=("greedy", "mcts", "random"), matches=3, seed=5)
PLAYERS = ("--game", "sealed-bids", "--players", "greedy,mcts,random")


def simulate(*args: str) -> Result:
    return CliRunner().invoke(app, ["simulate", *args], env={"COLUMNS": "200"})


def records(path: Path) -> list[GameRecord]:
    lines = path.read_bytes().splitlines()
    GAME_CODEC.decode_header(lines[0])
    return [GAME_CODEC.decode_record(line) for line in lines[1:]]


def by_key(played: list[GameRecord]) -> list[GameRecord]:
    return sorted(played, key=lambda r: (r.bots, r.index))


# --- the grid ---------------------------------------------------------------------------


def test_the_cells_are_every_distinct_rotation_of_the_bots_over_the_seats() -> None:
    assert GRID.cells() == (
        Seating(("greedy", "mcts", "random")),
        Seating(("random", "greedy", "mcts")),
        Seating(("mcts", "random", "greedy")),
    )
    same = GameGrid(game="sealed-bids", bots=("random", "random", "random"))
    assert same.cells() == (Seating(("random", "random", "random")),)
    fixed = GameGrid(game="sealed-bids", bots=("greedy", "mcts", "random"), rotate=False)
    assert fixed.cells() == (Seating(("greedy", "mcts", "random")),)


def test_every_bot_sits_at_every_seat_equally_often() -> None:
    seats = Counter(
        (seat, bot) for cell in GRID.cells() for seat, bot in enumerate(cell.bots, start=1)
    )
    assert set(seats.values()) == {1} and len(seats) == 9


def test_match_i_of_every_seating_is_dealt_the_same_chance() -> None:
    tasks = GRID.tasks()
    assert len(tasks) == 9
    for index in range(3):
        seeds = {t.seed for t in tasks if t.index == index}
        assert seeds == {deal_seed(5, "sealed-bids", index)}
    assert len({t.seed for t in tasks}) == 3
    other = GameGrid(game="sealed-bids", bots=GRID.bots, matches=3, seed=6)
    assert {t.seed for t in other.tasks()}.isdisjoint({t.seed for t in tasks})


def test_a_match_is_a_pure_function_of_its_task_and_its_kept_log_verifies() -> None:
    task = GRID.tasks(keep_logs=True)[4]
    first, again = play_game_task(task), play_game_task(task)
    assert first == again and first.log is not None
    record = first.record
    assert record.bots == task.cell.bots and (record.index, record.seed) == (1, task.seed)
    assert not record.failed and record.error is None
    log = decode_log(first.log)
    assert log.game == "sealed-bids" and len(log.entries) == record.commands
    assert verify_data(first.log).ok
    outcome = RULESET.outcome(replay(log))
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == (record.winners, record.reason)
    assert play_game_task(GRID.tasks()[4]).log is None  # kept only when asked


# --- the summary ------------------------------------------------------------------------


def record(bots: tuple[str, ...], index: int, winners: tuple[int, ...] | None) -> GameRecord:
    return GameRecord(
        bots=bots,
        index=index,
        seed=index,
        winners=winners,
        reason="x" if winners is not None else ERROR_REASON,
        commands=10 + index,
        error=None if winners is not None else "RuntimeError: boom",
    )


def test_the_summary_counts_each_seat_and_each_bot_from_the_records() -> None:
    grid = GameGrid(game="sealed-bids", bots=("a", "b"), matches=4, seed=0)
    played = [
        record(("a", "b"), 0, (1,)),
        record(("a", "b"), 1, (1,)),
        record(("a", "b"), 2, ()),
        record(("a", "b"), 3, None),
        record(("b", "a"), 0, (1,)),
        record(("b", "a"), 1, (1, 2)),
        record(("c", "d"), 0, (1,)),  # not in the grid: left out
    ]
    summary = summarize_game(grid, played)
    assert (summary.total, summary.played, summary.errors) == (8, 6, 1)
    first, second = summary.cells
    assert (first.matches, first.draws, first.errors) == (3, 1, 1)
    assert [(s.wins, s.matches) for s in first.seats] == [(2, 3), (0, 3)]
    assert first.mean_commands == 11 and first.reasons == {"x": 3, "error": 1}
    assert [(s.wins, s.matches) for s in second.seats] == [(2, 2), (1, 2)]
    assert [(s.wins, s.matches) for s in summary.seats] == [(4, 5), (1, 5)]
    assert {bot: (r.wins, r.matches) for bot, r in summary.bots.items()} == {
        "a": (3, 5),
        "b": (2, 5),
    }
    assert summary.fair == pytest.approx(5 / 2 / 5)
    assert summary.seats[0].rate == pytest.approx(0.8)


# --- simulate --game --------------------------------------------------------------------


def test_simulate_plays_a_game_s_grid_and_its_records_are_its_tasks(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    result = simulate(
        *PLAYERS, "--matches", "3", "--seed", "5", "--workers", "2", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert "9 of 9 matches of Sealed Bids, seed 5" in result.stdout
    assert "Over every cell" in result.stdout
    for seating in ("greedy v mcts v random", "random v greedy v mcts", "mcts v random v greedy"):
        assert f"│ {seating} " in result.stdout
    assert result.stderr == ""
    header = out.read_bytes().splitlines()[0]
    assert game_of_header(header) == "sealed-bids"
    assert GAME_CODEC.decode_header(header).grid == GRID
    assert by_key(records(out)) == by_key([play_game_task(t).record for t in GRID.tasks()])


def test_simulate_gives_a_search_bot_the_budget_its_spec_names(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    players = ("--game", "sealed-bids", "--players", "greedy,mcts:5,random", "--fixed-seats")
    result = simulate(*players, "--matches", "2", "--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    played = records(out)
    assert {r.bots for r in played} == {("greedy", "mcts:5", "random")}
    grid = GameGrid(
        game="sealed-bids", bots=("greedy", "mcts:5", "random"), matches=2, seed=5, rotate=False
    )
    assert by_key(played) == by_key([play_game_task(t).record for t in grid.tasks()])
    bad = simulate("--game", "sealed-bids", "--players", "greedy,mcts:many,random")
    assert bad.exit_code == 2
    assert "--players: mcts:N takes a whole number of iterations" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_a_narrow_table_keeps_the_seating_whole_and_counts_each_reason() -> None:
    result = CliRunner().invoke(
        app, ["simulate", "--game", "tiles-d6", "--matches", "2"], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    assert "2 of 2 matches of tiles-d6, seed 0" in result.stdout
    # Too narrow for the table: each cell is listed, its seating whole as its heading.
    assert "• random v random\n" in result.stdout
    # The long reason wraps between words; its count follows it in brackets.
    assert re.search(r"on each\s+side \(2\)", result.stdout), result.stdout


def test_one_worker_or_two_play_the_same_records(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for path, workers in ((one, "1"), (two, "2")):
        result = simulate(*PLAYERS, "--matches", "4", "--workers", workers, "--out", str(path))
        assert result.exit_code == 0, result.output
    assert by_key(records(one)) == by_key(records(two))
    assert one.read_bytes().splitlines()[0] == two.read_bytes().splitlines()[0]


def test_the_json_summary_agrees_with_the_records_of_the_out_file(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    result = simulate(*PLAYERS, "--matches", "5", "--format", "json", "--out", str(out))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    played = records(out)
    assert summary["complete"] and summary["played"] == summary["total"] == len(played) == 15
    for cell in summary["cells"]:
        mine = [r for r in played if list(r.bots) == cell["bots"]]
        assert cell["matches"] == len(mine) == 5
        assert cell["draws"] == sum(1 for r in mine if r.winners == ())
        for seat, rate in enumerate(cell["seats"], start=1):
            wins = sum(1 for r in mine if seat in (r.winners or ()))
            assert (rate["wins"], rate["matches"]) == (wins, 5)
            assert rate["interval"]["low"] <= wins / 5 <= rate["interval"]["high"]
        assert cell["mean_commands"] == pytest.approx(sum(r.commands for r in mine) / 5)
        assert cell["reasons"] == dict(Counter(r.reason for r in mine))
    for bot, rate in summary["bots"].items():
        wins = sum(
            1 for r in played for seat, b in enumerate(r.bots, 1) if b == bot and seat in r.winners
        )
        assert (rate["wins"], rate["matches"]) == (wins, 15)
    total = sum(len(r.winners or ()) for r in played)
    assert summary["fair"] == pytest.approx(total / 3 / 15)


def test_a_run_resumes_from_its_out_file_and_ends_as_a_whole_run(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    args = (*PLAYERS, "--matches", "4", "--workers", "2", "--format", "json")
    first = simulate(*args, "--out", str(whole))
    assert first.exit_code == 0, first.output
    lines = whole.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:6]) + lines[6][:20])  # five matches, and a torn line
    resumed = simulate(*args, "--out", str(cut))
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == json.loads(first.stdout)
    assert cut.read_bytes().splitlines()[:6] == whole.read_bytes().splitlines()[:6]
    assert by_key(records(cut)) == by_key(records(whole))
    again = simulate(*args, "--out", str(cut))  # nothing left to play
    assert again.exit_code == 0 and len(records(cut)) == 12


def test_keep_logs_saves_each_match_s_log_named_by_its_seating(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    result = simulate(*PLAYERS, "--matches", "1", "--keep-logs", str(logs), "--fixed-seats")
    assert result.exit_code == 0, result.output
    assert "1 of 1 matches of Sealed Bids" in result.stdout
    saved = sorted(logs.iterdir())
    assert [p.name for p in saved] == ["greedy-mcts-random-00000.jsonl"]
    assert verify_data(saved[0].read_bytes()).ok


def test_the_report_of_a_game_is_one_page_of_charts(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    result = simulate(*PLAYERS, "--matches", "2", "--report", str(report))
    assert result.exit_code == 0, result.output
    page = report.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert "Simulation of Sealed Bids: greedy v mcts v random" in page
    assert page.count("<svg") == 4
    assert "greedy v mcts v random: seat 1 (greedy)" in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--game", "sealed-bids", "--heroes", "banner-knight"),
            "--heroes is for multiversus only; sealed-bids takes --players",
        ),
        (
            ("--game", "sealed-bids", "--variants", "all"),
            "--variants is for multiversus only; sealed-bids takes --players",
        ),
        (
            ("--game", "sealed-bids", "--adversaries-bot", "heuristic"),
            "--adversaries-bot is for multiversus only; sealed-bids takes --players",
        ),
        (
            ("--players", "random,random"),
            "--players is for other games; multiversus takes --heroes-bot and --adversaries-bot",
        ),
        (
            ("--fixed-seats",),
            "--fixed-seats is for other games; multiversus takes --heroes-bot and "
            "--adversaries-bot",
        ),
        (
            ("--game", "no-such-game"),
            "unknown game 'no-such-game': the games are multiversus, sealed-bids, tiles-d6, worlds-collide",
        ),
        (
            ("--game", "sealed-bids", "--players", "random,greedy"),
            "Sealed Bids has 3 seats: --players takes 3 bots, one a seat, such as "
            "random,random,random",
        ),
        (
            ("--game", "sealed-bids", "--players", "random,human,greedy"),
            "--players: no bot 'human' in Sealed Bids: random, greedy, mcts",
        ),
        (("--game", "sealed-bids", "--matches", "0"), "--matches must be at least 1, not 0"),
    ],
)
def test_options_that_do_not_make_a_grid_are_refused_in_one_line(
    args: tuple[str, ...], message: str
) -> None:
    result = simulate(*args)
    assert result.exit_code == 2
    assert result.stderr == f"multiversus simulate: {message}\n"


def test_an_out_file_of_another_game_or_grid_is_refused_in_one_line(tmp_path: Path) -> None:
    theirs = tmp_path / "multiversus.jsonl"
    theirs.write_bytes(encode_header(Grid(heroes=("banner-knight",), adversaries=("smogon",))))
    result = simulate(*PLAYERS, "--out", str(theirs))
    assert result.exit_code == 2
    assert result.stderr == (
        f"multiversus simulate: {theirs} holds matches of the game 'multiversus', not "
        "sealed-bids; use another --out\n"
    )
    ours = tmp_path / "sealed.jsonl"
    ours.write_bytes(GAME_CODEC.encode_header(GRID))
    result = simulate("--heroes", "banner-knight", "--adversaries", "smogon", "--out", str(ours))
    assert result.exit_code == 2
    assert result.stderr == (
        f"multiversus simulate: {ours} holds matches of the game 'sealed-bids', not "
        "multiversus; use another --out\n"
    )
    result = simulate(*PLAYERS, "--matches", "3", "--seed", "6", "--out", str(ours))
    assert result.exit_code == 2
    assert result.stderr == (
        f"multiversus simulate: {ours} was made for another grid (seed differ); use another "
        "--out, or the options it was made with\n"
    )


def test_the_help_tells_how_to_simulate_another_game() -> None:
    result = CliRunner().invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--game" in text and "--players" in text and "--fixed-seats" in text
    assert "each cell is one rotation of those bots over the seats" in text


# --- on a Dask cluster ------------------------------------------------------------------


def test_a_game_s_run_on_a_dask_cluster_is_the_same_run(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    args = (*PLAYERS, "--matches", "3", "--seed", "5")
    assert simulate(*args, "--workers", "2", "--out", str(local)).exit_code == 0
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
    ) as cluster:
        result = simulate(*args, "--scheduler", cluster.scheduler_address, "--out", str(remote))
    assert result.exit_code == 0, result.output
    assert by_key(records(remote)) == by_key(records(local))
    assert "9 of 9 matches of Sealed Bids, seed 5" in result.stdout


# --- a game from another package ----------------------------------------------------------

_PACKAGE = '''
"""A third-party game: Sealed Bids under another name, and a bot that fails on purpose."""

from multiversus_core.engine.bots import UniformBot
from multiversus_core.rulesets.sealed_bids import SealedBidsSettings
from multiversus_core.rulesets.sealed_bids.ruleset import SealedBidsRuleset


class BidsSimSettings(SealedBidsSettings, frozen=True):
    """The same settings, a type of the game's own."""


class FailingBot:
    """Plays at random, and raises at its third decision."""

    def __init__(self, seed):
        self._bot = UniformBot(seed)
        self._decisions = 0

    def choose(self, view, legal):
        self._decisions += 1
        if self._decisions == 3:
            raise RuntimeError("the failing bot fails\\non purpose")
        return self._bot.choose(view, legal)


class BidsSim(SealedBidsRuleset):
    @property
    def id(self):
        return "bids-sim"

    @property
    def title(self):
        return "Bids Sim"

    @property
    def settings_type(self):
        return BidsSimSettings

    @property
    def bots(self):
        return {**SealedBidsRuleset.bots, "failing": FailingBot}


RULESET = BidsSim()
'''


@pytest.fixture
def third_party(tmp_path: Path) -> Iterator[Path]:
    """A package offering the game ``bids-sim`` through the entry point group."""
    points = {"multiversus.rulesets": {"bids-sim": "bids_sim:RULESET"}}
    with installed(tmp_path, "bids-sim", points, {"bids_sim": textwrap.dedent(_PACKAGE)}):
        yield tmp_path


def test_a_game_from_another_package_is_simulated_like_a_bundled_one(third_party: Path) -> None:
    grid = GameGrid(game="bids-sim", bots=("greedy", "random", "random"), matches=2, seed=3)
    played = [play_game_task(task).record for task in grid.tasks()]
    assert len(played) == 6 and not any(r.failed for r in played)
    summary = summarize_game(grid, played)
    assert summary.played == summary.total == 6
    assert sum(s.wins for s in summary.seats) == sum(len(r.winners or ()) for r in played)
    assert set(summary.bots) == {"greedy", "random"}


def test_a_failing_match_of_another_package_s_game_is_a_record_and_a_partial_log(
    third_party: Path,
) -> None:
    grid = GameGrid(game="bids-sim", bots=("failing", "random", "random"), matches=1, seed=3)
    task = grid.tasks()[0]
    result = play_game_task(task)
    failed = result.record
    assert failed.failed and failed.winners is None and failed.reason == ERROR_REASON
    assert failed.error == "RuntimeError: the failing bot fails on purpose"
    assert result.log is not None  # kept even though not asked for
    log = decode_log(result.log)
    assert log.game == "bids-sim" and len(log.entries) == failed.commands > 0
    assert not log.finished
    summary = summarize_game(grid, [failed])
    assert summary.errors == 1 and summary.cells[0].reasons == {ERROR_REASON: 1}


def test_simulate_runs_another_package_s_game_on_a_cluster_and_reports_its_failures(
    third_party: Path,
) -> None:
    distributed = pytest.importorskip("distributed")
    out = third_party / "run.jsonl"
    # Threads in this process: the package is on this process's path only.
    with distributed.LocalCluster(
        n_workers=1, processes=False, protocol="tcp", dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        result = simulate(
            "--game",
            "bids-sim",
            "--players",
            "failing,greedy,random",
            "--matches",
            "2",
            "--scheduler",
            cluster.scheduler_address,
            "--out",
            str(out),
        )
    assert result.exit_code == 1, result.output
    assert "6 of 6 matches of Bids Sim, seed 0" in result.stdout
    played = records(out)
    assert len(played) == 6
    failing = [r for r in played if r.failed]  # the failing bot fails every match
    assert len(failing) == 6
    assert all(r.error == "RuntimeError: the failing bot fails on purpose" for r in failing)
    errors = result.stderr.splitlines()
    assert len(errors) == len(failing)
    for line in errors:
        assert re.fullmatch(
            r"multiversus simulate: .* v .* v .*, match \d \(seed \d+\): RuntimeError: the "
            r"failing bot fails on purpose; log .*simulate-errors/.*-0000\d\.jsonl",
            line,
        ), line
