"""``multiversus simulate`` end to end: options, the --out file, logs, reports and exit codes.

Bots are given as ``random`` (fast); one test checks the default is the
heuristic bot.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner, Result

from multiversus_cli import simulate as simulate_module
from multiversus_cli.app import app
from multiversus_core.rulesets.multiversus.bots.specs import BOT_NAMES
from multiversus_core.rulesets.multiversus.simulation import (
    Grid,
    MatchRecord,
    decode_header,
    decode_record,
    play_task,
)
from multiversus_core.rulesets.multiversus.variants import VARIANTS
from tests import simulate_faults

RANDOM = ("--heroes-bot", "random", "--adversaries-bot", "random")
SMALL = ("--heroes", "banner-knight", "--adversaries", "smogon,swartzblak", *RANDOM)


def simulate(*args: str) -> Result:
    return CliRunner().invoke(app, ["simulate", *args], env={"COLUMNS": "200"})


def records(path: Path) -> list[MatchRecord]:
    lines = path.read_bytes().splitlines()
    decode_header(lines[0])
    return [decode_record(line) for line in lines[1:]]


def grid_of(path: Path) -> Grid:
    return decode_header(path.read_bytes().splitlines()[0]).grid


def test_simulate_plays_every_cell_and_prints_the_table(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    result = simulate(*SMALL, "--matches", "3", "--workers", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "6 of 6 matches, random (Heroes) v random (Adversaries), seed 0" in result.stdout
    for adversaries in ("smogon", "swartzblak"):  # a row of two lines per cell
        assert re.search(rf"│ banner-knight v .*\n│ {adversaries} +│", result.stdout)
    assert re.search(r"H win rate .*\n.*\(95% CI\)", result.stdout)
    assert result.stderr == ""  # no progress bar off a terminal
    played = records(out)
    assert len(played) == 6
    grid = grid_of(out)
    assert {(r.key, r.seed) for r in played} == {(t.key, t.seed) for t in grid.tasks()}
    assert all(
        r == play_task(t).record
        for r, t in zip(
            sorted(played, key=lambda r: (r.adversaries, r.index)),
            sorted(grid.tasks(), key=lambda t: (t.cell.adversaries, t.index)),
            strict=True,
        )
    )


def test_every_line_of_the_out_file_names_the_match_and_its_outcome(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    assert simulate(*SMALL, "--matches", "1", "--workers", "1", "--out", str(out)).exit_code == 0
    for line in out.read_text().splitlines()[1:]:
        data = json.loads(line)
        for field in (
            "heroes",
            "adversaries",
            "variants",
            "heroes_bot",
            "adversaries_bot",
            "seed",
            "winner",
            "reason",
            "rounds",
            "commands",
        ):
            assert field in data
        assert data["winner"] in ("heroes", "adversaries", "draw")


def test_the_default_grid_is_every_installed_pairing_under_the_standard_rules(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run.jsonl"
    result = simulate(*RANDOM, "--matches", "1", "--workers", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    grid = grid_of(out)
    assert grid.heroes == ("banner-knight", "witch-hunters")
    assert grid.adversaries == ("black-goblins", "smogon", "swartzblak")
    assert grid.variants == ((),)
    assert len(records(out)) == 6


def test_the_default_bots_are_heuristic() -> None:
    result = CliRunner().invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert len(re.findall(r"\[default: heuristic\]", result.stdout)) == 2
    assert simulate_module.DEFAULT_BOT == "heuristic"


@pytest.mark.skipif("heuristic" not in BOT_NAMES, reason="make_bot does not know 'heuristic' yet")
def test_without_bot_options_the_heuristic_bots_play(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    result = simulate(
        "--heroes",
        "banner-knight",
        "--adversaries",
        "smogon",
        "--matches",
        "1",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    (played,) = records(out)
    assert (played.heroes_bot, played.adversaries_bot) == ("heuristic", "heuristic")


def test_variants_all_plays_standard_and_each_variant_alone(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    result = simulate(
        "--heroes",
        "banner-knight",
        "--adversaries",
        "smogon",
        *RANDOM,
        "--variants",
        "all",
        "--matches",
        "1",
        "--workers",
        "2",
        "--out",
        str(out),
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    assert grid_of(out).variants == ((), *((name,) for name in sorted(VARIANTS)))
    assert {r.variants for r in records(out)} == set(grid_of(out).variants)


def test_explicit_variant_sets_are_sorted_and_each_is_a_cell(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    result = simulate(
        "--heroes",
        "banner-knight",
        "--adversaries",
        "smogon",
        *RANDOM,
        "--variants",
        "standard",
        "--variants",
        "diagonal-movement,costly-recovery",
        "--matches",
        "1",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert grid_of(out).variants == ((), ("costly-recovery", "diagonal-movement"))
    assert "costly-recovery+diagonal-movement" in result.stdout


def test_format_json_is_the_summary_for_scripts() -> None:
    result = simulate(*SMALL, "--matches", "2", "--workers", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["total"] == data["played"] == 4
    assert data["complete"] is True
    assert data["grid"]["heroes_bot"] == "random"
    cell = data["cells"][0]
    for field in (
        "heroes",
        "adversaries",
        "variants",
        "matches",
        "heroes_wins",
        "adversaries_wins",
        "draws",
        "errors",
        "win_rate",
        "interval",
        "unbalanced",
        "favoured",
        "mean_rounds",
        "reasons",
    ):
        assert field in cell
    assert cell["matches"] == cell["heroes_wins"] + cell["adversaries_wins"] + cell["draws"]


def test_the_same_seed_gives_the_same_matches_whatever_the_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert (
        simulate(
            *SMALL, "--matches", "3", "--seed", "9", "--workers", "1", "--out", str(one)
        ).exit_code
        == 0
    )
    assert (
        simulate(
            *SMALL, "--matches", "3", "--seed", "9", "--workers", "2", "--out", str(two)
        ).exit_code
        == 0
    )
    assert sorted(records(one), key=lambda r: r.seed) == sorted(records(two), key=lambda r: r.seed)
    other = tmp_path / "other.jsonl"
    assert (
        simulate(
            *SMALL, "--matches", "3", "--seed", "10", "--workers", "2", "--out", str(other)
        ).exit_code
        == 0
    )
    assert {r.seed for r in records(other)}.isdisjoint({r.seed for r in records(one)})


# --- resuming ----------------------------------------------------------------


def test_a_second_run_with_the_same_out_file_plays_only_what_is_missing(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    full = tmp_path / "full.jsonl"
    assert simulate(*SMALL, "--matches", "4", "--workers", "1", "--out", str(full)).exit_code == 0
    lines = full.read_bytes().splitlines(keepends=True)
    # A run stopped after three matches, killed in the middle of writing the fourth.
    out.write_bytes(b"".join(lines[:4]) + lines[4][:30])
    result = simulate(*SMALL, "--matches", "4", "--workers", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "8 of 8 matches" in result.stdout
    again = records(out)
    assert len(again) == 8
    assert len({r.key for r in again}) == 8
    assert sorted(again, key=lambda r: r.seed) == sorted(records(full), key=lambda r: r.seed)
    assert out.read_bytes().startswith(b"".join(lines[:4]))
    # Nothing is left to play: the file stays as it is.
    before = out.read_bytes()
    assert simulate(*SMALL, "--matches", "4", "--workers", "2", "--out", str(out)).exit_code == 0
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "differ"),
    [
        (("--seed", "1"), "seed"),
        (("--matches", "5"), "matches"),
        (("--adversaries-bot", "random", "--heroes", "witch-hunters"), "heroes"),
        (("--variants", "costly-recovery"), "variants"),
    ],
)
def test_an_out_file_made_for_another_grid_or_seed_is_refused(
    tmp_path: Path, change: tuple[str, ...], differ: str
) -> None:
    out = tmp_path / "run.jsonl"
    assert simulate(*SMALL, "--matches", "2", "--workers", "1", "--out", str(out)).exit_code == 0
    before = out.read_bytes()
    result = simulate(*SMALL, "--matches", "2", "--workers", "1", "--out", str(out), *change)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert f"was made for another grid ({differ} differ)" in result.stderr
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"record":"header"}\n', "is not a multiversus simulation file"),
        (b"hello\n", "is not a multiversus simulation file"),
    ],
)
def test_a_file_that_is_not_a_simulation_is_refused(
    tmp_path: Path, content: bytes, message: str
) -> None:
    out = tmp_path / "run.jsonl"
    out.write_bytes(content)
    result = simulate(*SMALL, "--matches", "2", "--out", str(out))
    assert result.exit_code == 2
    assert message in result.stderr
    assert out.read_bytes() == content


def test_an_out_file_with_a_foreign_or_repeated_match_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    assert simulate(*SMALL, "--matches", "2", "--workers", "1", "--out", str(out)).exit_code == 0
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join([*lines, lines[1]]))
    result = simulate(*SMALL, "--matches", "2", "--out", str(out))
    assert result.exit_code == 2
    assert "line 6: match 0 of banner-knight v smogon, standard is recorded twice" in result.stderr
    forged = msgspec.json.decode(lines[1])
    forged["seed"] += 1
    out.write_bytes(b"".join([lines[0], msgspec.json.encode(forged) + b"\n"]))
    result = simulate(*SMALL, "--matches", "2", "--out", str(out))
    assert result.exit_code == 2
    assert "line 2: a match that is not in this grid" in result.stderr


# --- logs, errors and the report ---------------------------------------------


def test_kept_logs_are_one_per_match_and_pass_verify(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    result = simulate(*SMALL, "--matches", "2", "--workers", "2", "--keep-logs", str(logs))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in logs.iterdir())
    assert names == [
        "banner-knight-v-smogon-standard-00000.jsonl",
        "banner-knight-v-smogon-standard-00001.jsonl",
        "banner-knight-v-swartzblak-standard-00000.jsonl",
        "banner-knight-v-swartzblak-standard-00001.jsonl",
    ]
    verified = CliRunner().invoke(app, ["verify", str(logs), "--format", "json"])
    assert verified.exit_code == 0, verified.output
    assert [r["finished"] for r in json.loads(verified.stdout)] == [True] * 4


def test_a_match_that_raises_is_recorded_with_its_seed_and_log_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grid = Grid(
        heroes=("banner-knight",),
        adversaries=("smogon", "swartzblak"),
        heroes_bot="random",
        adversaries_bot="random",
        matches=3,
    )
    failing = grid.tasks()[2]
    monkeypatch.setattr(simulate_module, "_runner", simulate_faults.failing_runner(failing, 2))
    out = tmp_path / "run.jsonl"
    result = simulate(*SMALL, "--matches", "3", "--out", str(out))
    assert result.exit_code == 1, result.output
    played = records(out)
    assert len(played) == 6
    (error,) = [r for r in played if r.failed]
    assert (error.key, error.seed, error.reason) == (failing.key, failing.seed, "error")
    log = tmp_path / "simulate-errors" / "banner-knight-v-smogon-standard-00001.jsonl"
    assert result.stderr.strip() == (
        f"multiversus simulate: banner-knight v smogon, standard, match 1 (seed {failing.seed}): "
        f"RuntimeError: the bot broke down; log {log}"
    )
    assert "error" in result.stdout  # the table's error column
    again = simulate(*SMALL, "--matches", "3", "--out", str(out))  # resumed: nothing to play
    assert again.exit_code == 1
    assert again.stderr == result.stderr
    verified = CliRunner().invoke(app, ["verify", str(log)])
    assert verified.exit_code == 0, verified.output


def test_the_report_is_one_html_page_with_charts_that_loads_nothing(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    result = simulate(
        *SMALL,
        "--matches",
        "3",
        "--workers",
        "1",
        "--report",
        str(report),
        "--variants",
        "standard",
        "--variants",
        "diagonal-movement",
    )
    assert result.exit_code == 0, result.output
    page = report.read_text()
    parser = _Tags()
    parser.feed(page)
    assert parser.tags["svg"] == 3  # win rate, match length, end reasons
    assert parser.tags["table"] == 3  # the cells, who won by which end, the Initiative
    assert "script" not in parser.tags and "link" not in parser.tags and "img" not in parser.tags
    assert not parser.loads, parser.loads
    assert "http" not in page
    for cell in (
        "banner-knight v smogon, standard",
        "banner-knight v swartzblak, diagonal-movement",
    ):
        assert cell in page
    assert "95% Wilson interval" in page
    assert "commands per match" in page


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, int] = {}
        self.loads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag != "a":  # a link to a match's log is followed only when clicked
            self.loads += [f"{tag} {k}={v}" for k, v in attrs if k in ("src", "href") and v]


# --- bad input -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--heroes", "nobody"),
            "no team 'nobody' is installed (the heroes: banner-knight, witch-hunters)",
        ),
        (("--heroes", "smogon"), "smogon plays the adversaries, not the heroes"),
        (("--adversaries", "banner-knight"), "banner-knight plays the heroes, not the adversaries"),
        (("--variants", "mirror-match"), "no variant 'mirror-match' (known: standard, all, "),
        (("--heroes-bot", "genius"), "unknown bot 'genius': the bots are random"),
        (("--adversaries-bot", "random:9"), "unknown bot 'random:9'"),
        (("--matches", "0"), "--matches must be at least 1, not 0"),
        (("--seed", "-1"), "--seed must be from 0 to 2**64 - 1, not -1"),
        (("--workers", "0"), "--workers must be at least 1, not 0"),
        (
            ("--workers", "2", "--scheduler", "tcp://127.0.0.1:1"),
            "give --workers or --scheduler, not both",
        ),
    ],
)
def test_bad_options_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    base = ["--heroes-bot", "random", "--adversaries-bot", "random", "--matches", "1"]
    result = simulate(*base, *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("multiversus simulate: ")
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_without_dask_the_scheduler_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    result = simulate(*SMALL, "--matches", "1", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert result.stderr == (
        "multiversus simulate: --scheduler needs Dask: pip install 'multiversus[cluster]'\n"
    )


def test_a_malformed_scheduler_address_exits_2_with_one_line() -> None:
    pytest.importorskip("distributed")
    result = simulate(*SMALL, "--matches", "1", "--scheduler", "nonsense")
    assert result.exit_code == 2
    assert result.stderr == (
        "multiversus simulate: not a Dask scheduler address 'nonsense': missing port number "
        "in address 'nonsense'\n"
    )


def test_a_scheduler_that_cannot_be_reached_exits_2_within_seconds() -> None:
    pytest.importorskip("distributed")
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    start = time.monotonic()
    result = simulate(*SMALL, "--matches", "1", "--scheduler", f"tcp://127.0.0.1:{port}")
    elapsed = time.monotonic() - start
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"multiversus simulate: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: "
    )
    assert result.stderr.count("\n") == 1
    assert elapsed < 30  # about ten seconds, on a loaded machine


def test_a_cluster_without_workers_exits_2_with_one_line() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        result = simulate(*SMALL, "--matches", "1", "--scheduler", cluster.scheduler_address)
    assert result.exit_code == 2
    assert result.stderr == "multiversus simulate: the Dask scheduler has no worker\n"


def test_a_run_on_a_dask_cluster_is_the_same_run(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert simulate(*SMALL, "--matches", "2", "--workers", "2", "--out", str(local)).exit_code == 0
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
    ) as cluster:
        result = simulate(
            *SMALL, "--matches", "2", "--scheduler", cluster.scheduler_address, "--out", str(remote)
        )
    assert result.exit_code == 0, result.output
    assert sorted(records(remote), key=lambda r: r.seed) == sorted(
        records(local), key=lambda r: r.seed
    )
