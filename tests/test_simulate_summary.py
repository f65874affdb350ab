"""What ``multiversus simulate`` tells a game designer, and how: tables that never cut a word in
80 columns, a rate that is honest from the first batch, who won by which end, what the
starting Initiative did (Multiversus), and a report that fits its window and links the
matches it flags to their logs.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import msgspec
import pytest
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from typer.testing import CliRunner, Result

from multiversus_cli import simulate as simulate_module
from multiversus_cli.app import app
from multiversus_cli.presenters.multiversus_simulate import (
    ends,
    initiative_rows,
    make_grid,
    starting_side,
)
from multiversus_cli.simulate import LeftColumn, RateColumn
from multiversus_cli.simulate_any import game_ends
from multiversus_cli.simulating import Fitted, needed_width
from multiversus_core.engine.log import decode_log
from multiversus_core.engine.simulation import GameGrid, play_game_task, summarize_game
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.simulation import Grid, play_task, summarize
from tests import simulate_faults
from tests.test_html_browser import browser  # noqa: F401 (the browser fixture)

RANDOM = ("--heroes-bot", "random", "--adversaries-bot", "random")

RUNS = {
    # 30 matches: banner-knight v swartzblak is flagged unbalanced, the longest verdict.
    "multiversus": (
        *("--heroes", "banner-knight", "--adversaries", "swartzblak", *RANDOM),
        *("--matches", "30", "--seed", "1"),
    ),
    "tiles-d6": ("--game", "tiles-d6", "--matches", "2"),
    "worlds-collide": ("--game", "worlds-collide", "--matches", "1"),
    "sealed-bids": ("--game", "sealed-bids", "--players", "greedy,random,random", "--matches", "2"),
}


def simulate(*args: str, columns: int = 200) -> Result:
    return CliRunner().invoke(app, ["simulate", *args], env={"COLUMNS": str(columns)})


def _words(text: str) -> set[str]:
    """The words of a summary, without the rules of its tables and the marks of its lists."""
    plain = re.sub(r"[\u2500-\u257f•·]", " ", text)
    return {word.rstrip(":;") for word in plain.split()} - {""}


@pytest.mark.parametrize("game", sorted(RUNS))
def test_in_80_columns_no_word_is_cut(game: str) -> None:
    narrow, wide = simulate(*RUNS[game], columns=80), simulate(*RUNS[game], columns=1000)
    assert narrow.exit_code == wide.exit_code == 0, narrow.output
    assert "…" not in narrow.stdout
    assert max(len(line.rstrip()) for line in narrow.stdout.splitlines()) <= 80
    # Every word in 80 columns is a word of the wide summary, where every table fits whole.
    assert _words(narrow.stdout) <= _words(wide.stdout), _words(narrow.stdout) - _words(wide.stdout)
    if game == "multiversus":
        assert "unbalanced: A" in narrow.stdout
        assert "unbalanced: A" in wide.stdout


def test_a_table_that_fits_stays_a_table_and_one_that_does_not_is_listed() -> None:
    table = Table(title="cells")
    table.add_column("cell", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_row("banner-knight v swartzblak", "unbalanced: A")
    wide, narrow = Console(width=80, record=True), Console(width=30, record=True)
    assert needed_width(table, wide, wide.options) == 26 + 13 + 4 + 3
    wide.print(Fitted(table))
    narrow.print(Fitted(table))
    assert "│ banner-knight v swartzblak │ unbalanced: A │" in wide.export_text()
    listed = narrow.export_text()
    assert "• banner-knight v swartzblak" in listed and "verdict: unbalanced: A" in listed


# --- the rate -------------------------------------------------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _rendered(progress: Progress, resumed: int) -> tuple[str, str]:
    task = progress.tasks[0]
    return RateColumn(resumed).render(task).plain, LeftColumn(resumed).render(task).plain


@pytest.mark.parametrize("resumed", [0, 30])
def test_the_rate_is_honest_from_the_first_batch(resumed: int) -> None:
    clock = _Clock()
    progress = Progress(get_time=clock, disable=True)
    task = progress.add_task("simulate", total=resumed + 100, completed=resumed)
    clock.now = 2.0
    assert _rendered(progress, resumed) == ("-- matches/s", "-:--:--")  # none in yet
    for _ in range(25):  # the first batch lands at once, 2.5 s into the run
        clock.now += 0.000_01
        progress.advance(task)
    clock.now = 2.5
    assert progress.tasks[0].speed is not None and progress.tasks[0].speed > 1000  # Rich's own
    assert _rendered(progress, resumed) == ("10.0 matches/s", "0:00:07")  # 25 in 2.5 s
    clock.now = 10.0
    assert _rendered(progress, resumed)[0] == "2.5 matches/s"  # no more in: it falls


# --- who won by which end, the starting Initiative ---------------------------------------------

MULTIVERSUS = make_grid(
    ["banner-knight,witch-hunters"], ["smogon,swartzblak"], None, "random", "random", 4, 3
)


@pytest.fixture(scope="module")
def played() -> list[Any]:
    tasks = [msgspec.structs.replace(t, keep_log=True) for t in MULTIVERSUS.tasks()]
    return [play_task(task) for task in tasks]


def test_the_end_table_sums_to_the_matches_played_and_each_side_s_wins(played: list[Any]) -> None:
    records = [result.record for result in played]
    summary = summarize(MULTIVERSUS, records)
    table = ends(records)
    assert table.total == summary.played == len(records)
    columns = dict(zip(table.winners, zip(*(c for _, c in table.rows), strict=True), strict=True))
    cells = summary.cells
    assert sum(columns["Heroes"]) == sum(c.heroes_wins for c in cells)
    assert sum(columns["Adversaries"]) == sum(c.adversaries_wins for c in cells)
    assert sum(columns["draw"]) == sum(c.draws for c in cells)
    for reason, counts in table.rows:
        assert sum(counts) == sum(c.reasons.get(reason, 0) for c in cells)


def test_another_game_s_end_table_sums_to_the_matches_played() -> None:
    grid = GameGrid(game="sealed-bids", bots=("greedy", "random", "random"), matches=3, seed=2)
    records = [play_game_task(task).record for task in grid.tasks()]
    summary = summarize_game(grid, records)
    table = game_ends(summary, records)
    assert table.total == summary.played
    assert table.winners[:4] == ("seat 1", "seat 2", "seat 3", "draw")


def test_the_starting_side_is_the_one_the_match_s_log_has(played: list[Any]) -> None:
    tasks = {t.key: t for t in MULTIVERSUS.tasks()}
    for result in played:
        log = decode_log(result.log)
        state = initial_state(log.header.settings)
        for entry in log.entries:
            for event in entry.events:
                state = evolve(state, event)
        assert state.starting_side is not None
        assert starting_side(tasks[result.record.key]) == state.starting_side


def test_the_initiative_rows_count_each_decided_match_once(played: list[Any]) -> None:
    records = [result.record for result in played]
    starters = {t.key: starting_side(t) for t in MULTIVERSUS.tasks()}
    heroes, adversaries, either = initiative_rows(records, starters)
    assert either.matches == heroes.matches + adversaries.matches == len(records)
    assert either.starter + either.other + either.draws == either.matches
    assert heroes.verdict == adversaries.verdict == ""  # a side's row mixes in its strength
    assert either.verdict in ("ok", "favours the starter", "favours the other side")
    started = sum(1 for r in records if r.winner == starters[r.key])
    assert either.starter == started


def test_the_terminal_shows_who_won_by_which_end_and_the_initiative() -> None:
    result = simulate(*RUNS["multiversus"], columns=120)
    assert result.exit_code == 0, result.output
    ending = result.stdout.split("Who won by which end")[1].split("The starting Initiative")[0]
    rows = re.findall(r"│ ([\w-]+) +│ +(\d+) │ +(\d+) │ +(\d+) │ +(\d+) │", ending)
    assert rows and sum(int(total) for *_, total in rows) == 30
    assert all(int(h) + int(a) + int(d) == int(t) for _, h, a, d, t in rows)
    assert "The starting Initiative" in result.stdout
    assert re.search(r"│ either side +│ +30 │", result.stdout), result.stdout


# --- the report -----------------------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ends: list[list[str]] = []
        self._row: list[str] | None = None
        self._in_ends = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links += [v for k, v in attrs if k == "href" and v]
        if tag == "table":
            self._in_ends = ("class", "ends") in attrs
        if tag == "tr" and self._in_ends:
            self._row = []

    def handle_data(self, data: str) -> None:
        if self._row is not None:
            self._row.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self._row is not None:
            self.ends.append(self._row)
            self._row = None
        if tag == "table":
            self._in_ends = False


def test_the_report_links_flagged_matches_to_their_kept_logs(tmp_path: Path) -> None:
    report = tmp_path / "reports" / "report.html"
    report.parent.mkdir()
    logs = tmp_path / "logs"
    result = simulate(
        *RUNS["multiversus"], "--keep-logs", str(logs), "--report", str(report), "--workers", "2"
    )
    assert result.exit_code == 0, result.output
    parsed = _Links()
    parsed.feed(report.read_text())
    assert parsed.links  # the unbalanced cell's favoured wins
    for link in parsed.links:
        assert link.startswith("../logs/banner-knight-v-swartzblak-standard-")
        assert (report.parent / link).resolve().is_file()
    assert parsed.ends[-1][0] == "every end" and parsed.ends[-1][-1] == "30"


def test_without_kept_logs_the_report_says_how_to_link_them(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    result = simulate(*RUNS["multiversus"], "--report", str(report))
    assert result.exit_code == 0, result.output
    page = report.read_text()
    assert "<a " not in page and "Run with --keep-logs DIR to link each to its log." in page


def test_a_match_that_raised_is_linked_to_its_error_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grid = Grid(
        heroes=("banner-knight",),
        adversaries=("smogon",),
        heroes_bot="random",
        adversaries_bot="random",
        matches=3,
    )
    failing = grid.tasks()[1]
    monkeypatch.setattr(simulate_module, "_runner", simulate_faults.failing_runner(failing, 1))
    out, report = tmp_path / "run.jsonl", tmp_path / "report.html"
    args = ("--heroes", "banner-knight", "--adversaries", "smogon", *RANDOM, "--matches", "3")
    result = simulate(*args, "--out", str(out), "--report", str(report))
    assert result.exit_code == 1, result.output
    parsed = _Links()
    parsed.feed(report.read_text())
    assert parsed.links == ["simulate-errors/banner-knight-v-smogon-standard-00001.jsonl"]
    assert "raised: RuntimeError: the bot broke down" in report.read_text()
    head, *_, total = parsed.ends
    assert "error" in head and total[-1] == "3"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reports")
    wide = ("--heroes", "banner-knight", *RANDOM, "--matches", "2", "--variants", "all")
    for name, args in {
        "multiversus": wide,
        **{k: v for k, v in RUNS.items() if k != "multiversus"},
    }.items():
        result = simulate(*args, "--report", str(folder / f"{name}.html"))
        assert result.exit_code == 0, result.output
    return folder


@pytest.mark.parametrize("width", [420, 1400])
def test_the_report_fits_the_window(browser: Any, reports: Path, width: int) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    for report in sorted(reports.glob("*.html")):
        page.goto(report.as_uri())
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll <= inner, report.name
    context.close()
