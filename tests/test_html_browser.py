"""The HTML replay in a real browser: Playwright drives Debian's Chromium, headless.

The page of a golden replay is stepped with its buttons, the arrow keys, the
slider, a click on an entry and play/pause; after each, the figures drawn in
the SVG must stand where the library has them after that many entries, and
the page must log no error. Outside CI these tests skip when no browser is
found; in CI (``CI=true``) a missing browser is a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from multiversus_cli.html import page_html, side_page
from multiversus_core.engine.log import MatchLog, read_log
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.views import redact_log

CHROMIUM = Path(os.environ.get("MULTIVERSUS_CHROMIUM", "/usr/bin/chromium"))
"""Debian's Chromium; MULTIVERSUS_CHROMIUM names another (the tests of the skip use it)."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
GOLDEN = (
    Path(__file__).resolve().parent.parent / "replays" / "witch-hunters--smogon--standard.jsonl"
)


def _missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None if they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install '.[test]')"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing_browser()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs the browser tests, but {missing}")
        pytest.skip(f"browser tests need a browser: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def golden() -> MatchLog:
    return read_log(GOLDEN)


@pytest.fixture(scope="module")
def positions(golden: MatchLog) -> list[dict[str, str]]:
    """Where the library has each figure before the first entry and after each entry."""
    state = initial_state(golden.header.settings)
    out = [_squares(state)]
    for entry in golden.entries:
        for event in entry.events:
            state = evolve(state, event)
        out.append(_squares(state))
    return out


def _squares(state: MatchState) -> dict[str, str]:
    return {f.id: "" if f.square is None else f"{f.square[0]},{f.square[1]}" for f in state.figures}


@pytest.fixture(scope="module")
def page_file(golden: MatchLog, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("page") / "replay.html"
    path.write_text(page_html(side_page(redact_log(golden, "heroes"))), encoding="utf-8")
    return path


class Replay:
    """An open replay page, with what the page's console and errors said."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def entry(self) -> int:
        return int(self.page.locator("body").get_attribute("data-entry"))

    def figures(self) -> dict[str, str]:
        return dict(
            self.page.eval_on_selector_all(
                "#mv-board g.mv-figure",
                "gs => gs.map(g => [g.dataset.figure, g.dataset.square])",
            )
        )


@pytest.fixture
def replay(browser: Any, page_file: Path) -> Iterator[Replay]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    shown = Replay(page)
    page.goto(page_file.as_uri())
    page.wait_for_selector("#mv-board svg")
    yield shown
    context.close()


def test_buttons_step_and_the_board_follows_the_library(
    replay: Replay, positions: list[dict[str, str]], tmp_path: Path
) -> None:
    last = len(positions) - 1
    replay.page.click("#mv-first")
    assert replay.entry() == 0 and replay.figures() == positions[0]
    replay.page.screenshot(path=str(tmp_path / "first.png"))
    for expected in range(1, 16):
        replay.page.click("#mv-next")
        assert replay.entry() == expected
        assert replay.figures() == positions[expected]
    replay.page.click("#mv-prev")
    assert replay.entry() == 14 and replay.figures() == positions[14]
    replay.page.click("#mv-last")
    assert replay.entry() == last and replay.figures() == positions[last]
    replay.page.screenshot(path=str(tmp_path / "last.png"))
    replay.page.click("#mv-next")  # stays on the last entry
    assert replay.entry() == last
    replay.page.click("#mv-first")
    assert replay.entry() == 0 and replay.figures() == positions[0]
    assert (tmp_path / "first.png").stat().st_size > 0 and (
        tmp_path / "last.png"
    ).stat().st_size > 0
    assert replay.errors == []


def test_arrow_keys_and_home_end_step(replay: Replay, positions: list[dict[str, str]]) -> None:
    replay.page.keyboard.press("Home")
    for _ in range(30):
        replay.page.keyboard.press("ArrowRight")
    assert replay.entry() == 30 and replay.figures() == positions[30]
    replay.page.keyboard.press("ArrowLeft")
    assert replay.entry() == 29 and replay.figures() == positions[29]
    replay.page.keyboard.press("End")
    assert replay.entry() == len(positions) - 1
    replay.page.keyboard.press("Home")
    assert replay.entry() == 0
    assert replay.errors == []


def test_the_slider_seeks(replay: Replay, positions: list[dict[str, str]]) -> None:
    for k in (120, 7, len(positions) - 1, 200):
        replay.page.fill("#mv-slider", str(k))
        assert replay.entry() == k
        assert replay.figures() == positions[k]
        assert replay.page.locator("#mv-position").text_content() == (
            f"Entry {k} of {len(positions) - 1}"
        )
    assert replay.errors == []


def test_clicking_an_entry_seeks_to_it(replay: Replay, positions: list[dict[str, str]]) -> None:
    item = replay.page.locator('#mv-entries li[data-k="90"]')
    item.click()
    assert replay.entry() == 90 and replay.figures() == positions[90]
    assert "mv-current" in (item.get_attribute("class") or "")
    assert replay.errors == []


def test_the_address_can_name_the_entry_to_open(
    browser: Any, page_file: Path, positions: list[dict[str, str]]
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(page_file.as_uri() + "#entry-40")
    page.wait_for_selector("#mv-board svg g.mv-figure")
    shown = Replay(page)
    assert shown.entry() == 40 and shown.figures() == positions[40]
    context.close()


def test_changing_the_address_of_an_open_page_seeks(
    replay: Replay, positions: list[dict[str, str]]
) -> None:
    replay.page.evaluate("location.hash = '#entry-90'")
    replay.page.wait_for_function("document.body.dataset.entry === '90'", timeout=5_000)
    assert replay.figures() == positions[90]
    replay.page.go_back()  # the browser's Back button returns to where the page opened
    replay.page.wait_for_function("document.body.dataset.entry === '2'", timeout=5_000)
    assert replay.errors == []


def test_play_advances_and_pause_stops(replay: Replay, positions: list[dict[str, str]]) -> None:
    replay.page.click("#mv-play")
    replay.page.wait_for_function("Number(document.body.dataset.entry) >= 2", timeout=10_000)
    replay.page.click("#mv-play")
    stopped = replay.entry()
    replay.page.wait_for_timeout(1_600)
    assert replay.entry() == stopped and replay.figures() == positions[stopped]
    assert replay.page.locator("#mv-play").text_content() == "Play"
    assert replay.errors == []


def test_a_step_s_changes_are_highlighted(replay: Replay, golden: MatchLog) -> None:
    from multiversus_core.rulesets.multiversus.events import FigureStepped

    moved = next(
        k
        for k, entry in enumerate(golden.entries, start=1)
        if any(isinstance(e, FigureStepped) for e in entry.events)
    )
    replay.page.fill("#mv-slider", str(moved))
    assert replay.page.locator("#mv-board g.mv-move").count() == 1
    replay.page.fill("#mv-slider", "0")
    assert replay.page.locator("#mv-board g.mv-change").count() == 0


def test_the_page_opens_without_a_network(browser: Any, page_file: Path) -> None:
    context = browser.new_context(offline=True)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())
    page.keyboard.press("End")
    page.wait_for_selector("#mv-board svg g.mv-figure")
    assert requests == [page_file.as_uri()]
    context.close()


@pytest.mark.parametrize(("ci", "outcome"), [("true", "1 error"), ("", "1 skipped")])
def test_a_missing_browser_skips_outside_ci_and_fails_in_ci(ci: str, outcome: str) -> None:
    env = {**os.environ, "CI": ci, "MULTIVERSUS_CHROMIUM": "/nonexistent/chromium"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            __file__,
            "-k",
            "test_the_slider_seeks",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert outcome in run.stdout
    reason = "no Chromium at /nonexistent/chromium (apt-get install chromium)"
    assert reason in run.stdout


def test_a_die_roll_is_told_whole_inside_the_board_picture(
    replay: Replay, golden: MatchLog
) -> None:
    from multiversus_core.rulesets.multiversus.events import InitiativeRolled

    rolled = next(
        k
        for k, entry in enumerate(golden.entries, start=1)
        if any(isinstance(e, InitiativeRolled) for e in entry.events)
    )
    replay.page.fill("#mv-slider", str(rolled))
    words = replay.page.locator("#mv-board g.mv-roll text").last
    assert words.text_content() in {
        f"Initiative ({side}): {outcome}"
        for side in ("Heroes", "Adversaries")
        for outcome in ("kept", "lost")
    }
    svg = replay.page.locator("#mv-board svg").bounding_box()
    told = words.bounding_box()
    assert told["x"] + told["width"] <= svg["x"] + svg["width"]  # not cut off on the right
    assert replay.errors == []
