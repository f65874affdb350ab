"""worlds-collide's HTML replay page and SVG board
(:mod:`multiversus_cli.presenters.worlds_collide_html`).

A golden replay with models fallen is drawn: the board is parsed as XML and
read back (a square per square of the map by its kind and level, every model's
token on its square, fallen tokens, the deployment rows and the objectives,
the legend, the entry's moves and attacks); the page is checked as text (one
frame per entry, each entry told, nothing fetched), then stepped in Chromium.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

import pytest

from multiversus_cli.presenters import Folded
from multiversus_cli.presenters.worlds_collide_html import page, picture
from multiversus_cli.presenters.worlds_collide_text import entry_told
from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.log import read_log
from multiversus_core.engine.render import MARGIN, SEAT_COLOURS
from multiversus_core.rulesets.worlds_collide.model import (
    AttackHit,
    AttackMissed,
    ModelDeployed,
    ModelFell,
    ModelMoved,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.render import CELL, KINDS
from tests.browser_pages import (
    SVG,
    first_entry,
    groups,
    opened_page,
    parsed,
    squares_shown,
)
from tests.test_cli_worlds_collide import REPLAYS
from tests.test_html_browser import browser  # noqa: F401 (the browser fixture)

GOLDEN = REPLAYS / "wyldfae--iron-legion--fallen.jsonl"


@pytest.fixture(scope="module")
def folded() -> Folded:
    return Folded.of(read_log(GOLDEN))


def _tokens(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-model", ""): g for g in groups(root, "wc-model")}


def _state(folded: Folded, k: int) -> WorldsState:
    state: WorldsState = folded.states[k]
    return state


# --- the board -------------------------------------------------------------------------------


def test_every_square_is_drawn_as_its_kind_and_level(folded: Folded) -> None:
    game_map = _state(folded, 0).game_map
    root = parsed(picture(folded, "spectator", 0))
    squares = {g.get("data-square"): g for g in groups(root, "wc-square")}
    assert len(squares) == 17 * 17
    for row, characters in enumerate(game_map.rows):
        for column, character in enumerate(characters):
            drawn = squares[square((column, row))]
            assert drawn.get("data-kind") == KINDS[character]
            assert drawn.get("data-level") == ("1" if character == "#" else "0")
            (use,) = drawn.iter(f"{SVG}use")
            assert use.get("href") == f"#wc-{KINDS[character]}"
            assert (use.get("x"), use.get("y")) == (
                str(MARGIN + column * CELL),
                str(MARGIN + row * CELL),
            )
    names = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "wc-num"]
    assert names == [*"abcdefghijklmnopq", *(str(r) for r in range(1, 18))]
    keys = {g.get("data-kind"): "".join(g.itertext()) for g in groups(root, "wc-key")}
    assert set(keys) == set(KINDS.values())
    assert keys["ruin"].startswith("ruin, level 1: blocks sight")


def test_every_model_is_a_token_on_its_square_and_the_fallen_leave_a_token(
    folded: Folded,
) -> None:
    deployed = first_entry(folded, ModelDeployed)
    fell = first_entry(folded, ModelFell)
    for k in (0, deployed, fell, folded.count):
        state = _state(folded, k)
        root = parsed(picture(folded, "seat-1", k))
        tokens = _tokens(root)
        assert set(tokens) == {m.id for m in state.models if not m.fallen}
        for model in state.models:
            if model.fallen:
                continue
            token = tokens[model.id]
            assert token.get("data-square") == ("" if model.at is None else square(model.at))
            assert token.get("data-hp") == str(model.hp)
            body = next(e for e in token if e.get("class") == "wc-body")
            assert body.get("fill") == SEAT_COLOURS[model.seat]
            if model.at is not None:
                cx, cy = float(body.get("cx", "0")), float(body.get("cy", "0"))
                assert MARGIN + model.at[0] * CELL < cx < MARGIN + (model.at[0] + 1) * CELL
                assert MARGIN + model.at[1] * CELL < cy < MARGIN + (model.at[1] + 1) * CELL
        fallen = {g.get("data-model"): g.get("data-square") for g in groups(root, "wc-fallen")}
        assert fallen == {m.id: square(m.at) for m in state.models if m.fallen and m.at}
    assert fallen  # the golden ends with models fallen


def test_the_deployment_rows_and_the_objectives_are_drawn(folded: Folded) -> None:
    deployed = first_entry(folded, ModelDeployed)
    state = _state(folded, deployed)
    root = parsed(picture(folded, "spectator", deployed))
    zones = {r.get("data-zone"): r for r in root.iter(f"{SVG}rect") if r.get("data-zone")}
    assert state.first_deployer is not None
    assert zones["first"].get("stroke") == SEAT_COLOURS[state.first_deployer]
    assert zones["first"].get("y") == str(MARGIN + 2)
    objectives = [r for r in root.iter(f"{SVG}rect") if "wc-objective" in (r.get("class") or "")]
    assert [r.get("data-square") for r in objectives] == ["c9", "i9", "o9"]
    assert all(r.get("width") == str(5 * CELL - 2) for r in objectives)


def test_the_entry_s_moves_and_attacks_are_drawn(folded: Folded) -> None:
    k = first_entry(folded, ModelMoved)
    moved = [e for e in folded.log.entries[k - 1].events if isinstance(e, ModelMoved)]
    root = parsed(picture(folded, "spectator", k))
    marks = {g.get("data-figure") for g in groups(root, "mv-move")}
    before = {m.id: m.at for m in _state(folded, k - 1).models}
    assert marks == {e.model for e in moved if before[e.model] != e.to}
    for kind, word in ((AttackHit, "mv-hit"), (AttackMissed, "mv-miss")):
        k = first_entry(folded, kind)
        made = next(e for e in folded.log.entries[k - 1].events if isinstance(e, kind))
        drawn = groups(parsed(picture(folded, "spectator", k)), "mv-attack")
        assert any(
            (g.get("data-figure"), g.get("data-target")) == (made.model, made.target)
            and word in (g.get("class") or "").split()
            for g in drawn
        )
    assert not groups(parsed(picture(folded, "spectator", 0)), "mv-change")


def test_the_board_has_a_title_and_refuses_an_unknown_viewer(folded: Folded) -> None:
    root = parsed(picture(folded, "spectator", folded.count))
    title = root.find(f"{SVG}title")
    assert title is not None and title.get("id") == root.get("aria-labelledby")
    assert title.text == "worlds-collide board, Collision Point: the match is over after round 5"
    with pytest.raises(ValueError, match="no viewer"):
        picture(folded, "heroes", 5)
    with pytest.raises(ValueError, match="no viewer"):
        page(folded, "heroes", 5)


# --- the page --------------------------------------------------------------------------------


def _data(html: str) -> dict[str, Any]:
    stored = re.search(r'<script type="application/json" id="mv-data">(.*?)</script>', html, re.S)
    assert stored is not None
    data: dict[str, Any] = json.loads(stored.group(1))
    return data


def test_the_page_is_self_contained_with_a_frame_per_entry(folded: Folded) -> None:
    html = page(folded, "seat-2", folded.count)
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert html.count("<script") == 2
    data = _data(html)
    pool, frames = data["pool"], data["frames"]
    assert len(frames) == folded.count + 1
    for k in (0, 1, first_entry(folded, ModelFell), folded.count):
        assert "".join(pool[i] for i in frames[k][0]) == picture(folded, "seat-2", k)
    assert "worlds-collide replay: Bot 1 v Bot 2 on Collision Point, as Bot 2 (seat 2)" in html


def test_the_page_tells_every_entry_in_the_game_s_words(folded: Folded) -> None:
    html = page(folded, "spectator", folded.count)
    for number in range(1, folded.count + 1):
        head, lines = entry_told(folded, number)
        assert f'<li data-k="{number}" class="mv-entry"><b>{escape(head)}</b>' in html
        for line in lines:
            assert f"<li>{escape(line)}</li>" in html


def test_each_frame_says_where_the_match_stands_and_lists_the_models(folded: Folded) -> None:
    data = _data(page(folded, "spectator", folded.count))
    pool, frames = data["pool"], data["frames"]
    k = first_entry(folded, ModelFell)
    panels = "".join(pool[i] for i in frames[k][1])
    state = _state(folded, k)
    assert f"Collision Point: round {state.round} of 5" in panels
    assert f"Environment, round {state.round}: " in panels
    for seat in (1, 2):
        side = state.sides[seat - 1]
        assert f"Bot {seat}</span>: {side.ap} AP, {side.vp} VP" in panels
    for model in state.models:
        row = re.search(rf'<tr data-model="{re.escape(model.id)}">(.*?)</tr>', panels)
        assert row is not None
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
        assert cells[2:4] == [square(model.at) if model.at else "—", f"{model.hp}/{model.kind.hp}"]
        if model.fallen:
            assert cells[5] == "fallen"
    last = "".join(pool[i] for i in frames[-1][1])
    assert "<b>Result</b>" in last and "<b>Result</b>" not in panels


# --- in a browser ----------------------------------------------------------------------------


@pytest.fixture
def opened(browser: Any, folded: Folded, tmp_path: Path) -> Iterator[tuple[Any, list[str]]]:  # noqa: F811
    html = page(folded, "spectator", folded.count)
    with opened_page(browser, html, tmp_path / "worlds.html", "#mv-board svg g.wc-square") as shown:
        yield shown


def _shown(opened: Any) -> dict[str, str]:
    return squares_shown(opened, "wc-model", "model")


def _expected(folded: Folded, k: int) -> dict[str, str]:
    return {
        m.id: "" if m.at is None else square(m.at) for m in _state(folded, k).models if not m.fallen
    }


def test_stepping_the_page_moves_the_tokens(opened: tuple[Any, list[str]], folded: Folded) -> None:
    shown, errors = opened
    opening = int(shown.locator("body").get_attribute("data-entry"))
    assert opening > 0 and all(_expected(folded, opening).values())  # every piece on the board
    assert _shown(shown) == _expected(folded, opening)
    shown.keyboard.press("Home")
    assert _shown(shown) == _expected(folded, 0)
    for k in range(1, 6):
        shown.click("#mv-next")
        assert shown.locator("body").get_attribute("data-entry") == str(k)
        assert _shown(shown) == _expected(folded, k)
    k = first_entry(folded, ModelFell)
    shown.fill("#mv-slider", str(k))
    assert _shown(shown) == _expected(folded, k)
    assert shown.locator("#mv-board g.wc-fallen").count() >= 1
    shown.keyboard.press("End")
    assert _shown(shown) == _expected(folded, folded.count)
    assert "Result" in (shown.locator("#mv-panels").text_content() or "")
    shown.keyboard.press("ArrowLeft")
    assert _shown(shown) == _expected(folded, folded.count - 1)
    assert errors == []
