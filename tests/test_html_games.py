"""The HTML replay of any game: one page, the game's own words, the viewer's view at each entry.

The page is checked as text (what it holds, and what it must not), then in
Debian's Chromium, stepped with its buttons, the slider and the arrow keys.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from multiversus_cli import html_any, transcript
from multiversus_cli.app import app
from multiversus_core.engine.log import MatchLog, encode_log
from multiversus_core.engine.play import play_match
from multiversus_core.engine.registry import load_ruleset
from tests.test_html_browser import browser  # noqa: F401 (the browser fixture)

RULESET = load_ruleset("sealed-bids")


def _match(**settings: Any) -> MatchLog:
    players = {seat: RULESET.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_match(RULESET.settings_type(**{"seed": 6, **settings}), players)
    return log


def _views(page: str) -> list[str]:
    stored = re.search(r'<script id="views" type="application/json">(.*?)</script>', page, re.S)
    assert stored is not None
    views: list[str] = json.loads(stored.group(1))
    return views


def test_the_page_tells_every_entry_and_holds_the_view_after_each(tmp_path: Path) -> None:
    log = _match()
    page = html_any.page_html(RULESET, log, "seat-2", len(log.entries))
    told = [
        t
        for t in transcript.told(RULESET, log, "seat-2", len(log.entries))
        if isinstance(t, transcript.Told)
    ]
    for entry in told:
        assert f'id="entry-{entry.number}"' in page
    views = _views(page)
    assert len(views) == len(log.entries) + 1
    state = transcript.start(RULESET, log)
    for entry, shown in zip(log.entries, views[1:], strict=True):
        state = RULESET.fold(state, entry.events)
        assert json.loads(shown) == json.loads(transcript.shown_state(RULESET, state, "seat-2"))


def test_the_page_holds_no_salt_of_a_bid_before_its_reveal() -> None:
    log = _match(salts="secrets")
    first = log.entries[0]
    hidden = next(e for e in first.events if type(e).__name__ == "BidCommitted")
    viewer = next(v for v in RULESET.viewers if v not in ("spectator", f"seat-{hidden.seat}"))
    page = html_any.page_html(RULESET, log, viewer, 1)  # the bid is sealed after entry 1
    assert hidden.salt not in page


def test_names_cannot_break_out_of_the_page() -> None:
    log = _match(players=("</script><b>x", "Bob", "Cy"))
    page = html_any.page_html(RULESET, log, "spectator", len(log.entries))
    assert "</script><b>x" not in page
    assert page.count("</script>") == 2


def test_replay_writes_the_page_of_another_game(tmp_path: Path) -> None:
    path = tmp_path / "bids.jsonl"
    path.write_bytes(encode_log(_match()))
    out = tmp_path / "bids.html"
    words = ["replay", str(path), "--as", "seat-1", "--format", "html", "--out", str(out)]
    result = CliRunner().invoke(app, words)
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_the_page_steps_in_a_browser(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    log = _match()
    page_file = tmp_path / "bids.html"
    page_file.write_text(html_any.page_html(RULESET, log, "seat-3", len(log.entries)))
    views = _views(page_file.read_text())
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri() + "#entry-2")
    assert page.text_content("#view") == views[2]
    assert "now" in (page.get_attribute("#entry-2", "class") or "")
    page.click("#next")
    assert page.text_content("#view") == views[3]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#view") == views[1]
    page.fill("#at", "0")
    page.dispatch_event("#at", "input")
    assert page.text_content("#where") == "before the first entry"
    assert page.text_content("#view") == views[0]
    page.close()
    assert errors == []
