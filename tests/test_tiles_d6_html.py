"""tiles-d6's HTML replay page and SVG board (:mod:`multiversus_cli.presenters.tiles_d6_html`).

A match is played by the ruleset's random bots, on the bundled map
"crossing", until one holds steps, melee attacks, shots, a knockdown, a stun
and an injury. The board is parsed as XML and read back: a tile per square
of the map's kind, every unit's token on its square, postures and statuses,
the legend, the entry's highlights. The page is checked as text (one frame
per entry, each entry told, nothing fetched), then stepped in Chromium.
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

from multiversus_cli import transcript
from multiversus_cli.presenters import Folded
from multiversus_cli.presenters.tiles_d6_html import page, picture, seen_state
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.play import play_match
from multiversus_core.engine.render import MARGIN, SEAT_COLOURS
from multiversus_core.rulesets.tiles_d6.content import find_map
from multiversus_core.rulesets.tiles_d6.model import (
    Attacked,
    Fired,
    Injured,
    KnockedDown,
    Stepped,
    StunnedEvent,
    TilesSettings,
    TilesState,
    UnitPlaced,
)
from multiversus_core.rulesets.tiles_d6.render import CELL, KINDS, board_svg
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET
from multiversus_core.rulesets.tiles_d6.words import square
from tests.browser_pages import (
    SVG,
    first_entry,
    groups,
    opened_page,
    parsed,
    squares_shown,
)
from tests.positions import at
from tests.test_html_browser import browser  # noqa: F401 (the browser fixture)

WANTED = (Stepped, Attacked, Fired, KnockedDown, StunnedEvent, Injured)
"""What the match tested must hold."""


def _play(seed: int, players: tuple[str, str] = ("Alice", "Bob")) -> MatchLog:
    bots = {seat: RULESET.bots["random"](seed * 2 + seat) for seat in (1, 2)}
    log, _ = play_match(TilesSettings(players=players, seed=seed), bots)
    return log


@pytest.fixture(scope="module")
def folded() -> Folded:
    """The first random match (by seed) that holds every kind of event in :data:`WANTED`."""
    for seed in range(1, 2000):
        log = _play(seed)
        kinds = {type(e) for entry in log.entries for e in entry.events}
        if all(kind in kinds for kind in WANTED):
            return Folded.of(log)
    raise AssertionError("no random match of seeds 1-1999 holds every event wanted")


def _tokens(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-unit", ""): g for g in groups(root, "tiles-unit")}


def _body(token: ET.Element) -> ET.Element:
    (body,) = (e for e in token if e.get("class") == "tiles-body")
    return body


def _state(folded: Folded, k: int) -> TilesState:
    state: TilesState = folded.states[k]
    return state


# --- the board -------------------------------------------------------------------------------


def test_every_square_is_one_tile_drawn_as_its_kind(folded: Folded) -> None:
    crossing = find_map("crossing")
    assert crossing is not None and folded.log.header.settings.map == "crossing"
    root = parsed(picture(folded, "spectator", 0))
    tiles = groups(root, "tiles-tile")
    assert len(tiles) == len(crossing.rows) * len(crossing.rows[0]) == 144
    drawn = {g.get("data-square"): g for g in tiles}
    assert len(drawn) == 144
    for row, characters in enumerate(crossing.rows):
        for column, character in enumerate(characters):
            tile = drawn[square((column, row))]
            kind = KINDS[character]
            assert tile.get("data-kind") == kind
            (use,) = tile.iter(f"{SVG}use")
            assert use.get("href") == f"#tiles-{kind}"
            assert (use.get("x"), use.get("y")) == (
                str(MARGIN + column * CELL),
                str(MARGIN + row * CELL),
            )
    # Each kind has a drawing of its own, and "crossing" has all seven.
    symbols = {s.get("id"): ET.tostring(s) for s in root.iter(f"{SVG}symbol")}
    kinds = set(KINDS.values())
    assert {t.get("data-kind") for t in tiles} == kinds
    assert len({re.sub(rb' id="[^"]*"', b"", symbols[f"tiles-{k}"]) for k in kinds}) == 7


def test_files_and_ranks_are_named_as_the_words_name_squares(folded: Folded) -> None:
    root = parsed(picture(folded, "spectator", 0))
    names = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "tiles-num"]
    assert names == [*"abcdefghijkl", *(str(r) for r in range(1, 13))]
    assert square((3, 3)) == "d4"
    (d4,) = (g for g in groups(root, "tiles-tile") if g.get("data-square") == "d4")
    assert d4.get("data-kind") == "window"  # crossing's row 3 (rank 4) is "###=##......"
    at = {t.text: t for t in root.iter(f"{SVG}text") if t.get("class") == "tiles-num"}
    assert at["d"].get("x") == str(MARGIN + 3 * CELL + CELL // 2)
    assert at["4"].get("y") == str(MARGIN + 3 * CELL + CELL // 2)


def test_every_unit_is_a_token_on_its_square_in_its_seat_s_colour(folded: Folded) -> None:
    placed = first_entry(folded, UnitPlaced)
    for k in (0, placed, placed + 5, folded.count // 2, folded.count):
        state = _state(folded, k)
        tokens = _tokens(parsed(picture(folded, "seat-1", k)))
        assert set(tokens) == {u.id for u in state.units}
        for unit in state.units:
            token = tokens[unit.id]
            assert token.get("data-square") == ("" if unit.at is None else square(unit.at))
            body = _body(token)
            assert body.get("fill") == SEAT_COLOURS[unit.seat]
            assert token.get("data-health") == str(unit.health)
        on_board = [u for u in state.units if u.at is not None]
        if k == folded.count:
            assert on_board, "units stand on the board at the end"
        for unit in on_board:
            assert unit.at is not None
            body = _body(tokens[unit.id])
            centre = (float(body.get("cx", "0")), float(body.get("cy", "0")))
            assert MARGIN + unit.at[0] * CELL < centre[0] < MARGIN + (unit.at[0] + 1) * CELL
            assert MARGIN + unit.at[1] * CELL < centre[1] < MARGIN + (unit.at[1] + 1) * CELL
    labels = [
        "".join(t.itertext())
        for g in _tokens(parsed(picture(folded, "seat-1", folded.count))).values()
        for t in g.iter(f"{SVG}text")
        if t.get("class") == "tiles-label"
    ]
    assert len(labels) == len(set(labels)) == 10 and all(0 < len(x) <= 4 for x in labels)


def test_a_knocked_down_unit_lies_flat_and_a_stunned_one_is_marked(folded: Folded) -> None:
    k = first_entry(folded, KnockedDown)
    downed = {e.unit for e in folded.log.entries[k - 1].events if isinstance(e, KnockedDown)}
    stunned = {e.unit for e in folded.log.entries[k - 1].events if isinstance(e, StunnedEvent)}
    tokens = _tokens(parsed(picture(folded, "seat-2", k)))
    state = _state(folded, k)
    for unit_id in downed:
        unit = state.unit(unit_id)
        if unit is None or unit.at is None:
            continue  # injured by the same blow
        token = tokens[unit_id]
        assert token.get("data-posture") == "prone"
        assert "tiles-prone" in (token.get("class") or "")
        assert _body(token).tag == f"{SVG}ellipse"
        title = token.find(f"{SVG}title")
        assert title is not None and "prone" in "".join(title.itertext())
    for unit_id in stunned:
        token = tokens[unit_id]
        assert "stunned" in (token.get("data-statuses") or "").split()
        badges = [t.text for t in token.iter(f"{SVG}text") if t.get("class") == "tiles-badge"]
        assert "S" in badges
    standing = [u for u in state.units if u.at is not None and not u.prone]
    assert all(tokens[u.id].get("data-posture") == "standing" for u in standing)
    assert all(_body(tokens[u.id]).tag == f"{SVG}circle" for u in standing)


def test_concussed_and_injured_units_are_marked(folded: Folded) -> None:
    last = _state(folded, folded.count)
    first, second = [u for u in last.units if u.at is not None][:2]
    marked = at(
        last,
        f'units={{"{first.id}":{{"prone":true,"concussed":3}},'
        f'"{second.id}":{{"injured":true,"at":null,"health":-1}}}}',
    )
    tokens = _tokens(parsed(board_svg(marked)))
    concussed, injured = tokens[first.id], tokens[second.id]
    assert concussed.get("data-posture") == "prone"
    assert concussed.get("data-statuses") == "concussed"
    assert "C" in [t.text for t in concussed.iter(f"{SVG}text")]
    assert injured.get("data-square") == ""  # in the strip below the board
    assert injured.get("data-statuses") == "injured"
    assert "†" in [t.text for t in injured.iter(f"{SVG}text")]
    assert injured.get("data-health") == "-1"


def test_the_legend_shows_every_kind_the_seats_and_the_marks(folded: Folded) -> None:
    root = parsed(picture(folded, "spectator", folded.count))
    keys = {g.get("data-kind"): "".join(g.itertext()) for g in groups(root, "tiles-key")}
    assert set(keys) == set(KINDS.values())
    assert keys["wall"].startswith("wall (#), blocks movement and sight")
    assert keys["door"].startswith("door (+), blocks sight")
    assert keys["window"].startswith("window (=), blocks movement")
    assert keys["ground"] == "ground (.)"
    words = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "Alice (seat 1)" in words and "Bob (seat 2)" in words
    assert "S Stunned" in words and "C Concussed" in words


def test_the_board_has_a_title_and_a_label(folded: Folded) -> None:
    root = parsed(picture(folded, "spectator", folded.count))
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None and title.get("id") == root.get("aria-labelledby")
    last = _state(folded, folded.count)
    assert title.text == f"tiles-d6 board, Crossing: the match is over after round {last.round}"


def test_the_halves_are_drawn_while_units_are_set_up(folded: Folded) -> None:
    placed = first_entry(folded, UnitPlaced)
    root = parsed(picture(folded, "spectator", placed))
    halves = {r.get("data-half"): r for r in root.iter(f"{SVG}rect") if r.get("data-half")}
    state = _state(folded, placed)
    assert state.north is not None
    assert halves["north"].get("stroke") == SEAT_COLOURS[state.north]
    assert halves["south"].get("stroke") == SEAT_COLOURS[3 - state.north]
    assert (
        int(halves["north"].get("y", "0")) < MARGIN + 6 * CELL <= int(halves["south"].get("y", "0"))
    )
    assert not groups(parsed(picture(folded, "spectator", folded.count)), "tiles-halves")


def test_the_entry_s_steps_attacks_and_shots_are_drawn(folded: Folded) -> None:
    k = first_entry(folded, Stepped)
    (step,) = (e for e in folded.log.entries[k - 1].events if isinstance(e, Stepped))
    start = _state(folded, k - 1).unit(step.unit)
    assert start is not None and start.at is not None
    root = parsed(picture(folded, "spectator", k))
    (move,) = groups(root, "mv-move")
    assert move.get("data-figure") == step.unit
    line = move.find(f"{SVG}polyline")
    assert line is not None
    points = [tuple(float(n) for n in p.split(",")) for p in (line.get("points") or "").split()]
    assert points == [
        (MARGIN + at[0] * CELL + CELL / 2, MARGIN + at[1] * CELL + CELL / 2)
        for at in (start.at, step.to)
    ]
    for kind, name in ((Attacked, "mv-attack"), (Fired, "mv-fire")):
        k = first_entry(folded, kind)
        (made,) = (e for e in folded.log.entries[k - 1].events if isinstance(e, kind))
        (mark,) = groups(parsed(picture(folded, "spectator", k)), name)
        assert (mark.get("data-figure"), mark.get("data-target")) == (made.unit, made.target)
        word = made.result if isinstance(made, Attacked) else ("hit" if made.hit else "miss")
        assert f"mv-{word}" in (mark.get("class") or "").split()
    assert not groups(parsed(picture(folded, "spectator", 0)), "mv-change")


def test_the_board_is_drawn_from_the_view_only(folded: Folded) -> None:
    state = _state(folded, 5)
    assert seen_state(state, "spectator").chance is None
    assert seen_state(state, "seat-1").settings.seed == 0
    with pytest.raises(ValueError, match="no viewer"):
        picture(folded, "heroes", 5)
    with pytest.raises(ValueError, match="no viewer"):
        page(folded, "heroes", 5)


def test_names_cannot_break_the_board_or_the_page() -> None:
    folded = Folded.of(_play(3, ("</script><b>x & y", "Bob")))
    svg = picture(folded, "seat-1", folded.count)
    parsed(svg)  # still well formed
    assert "</script><b>x" not in svg
    html = page(folded, "seat-1", folded.count)
    assert "</script><b>x" not in html and html.count("</script>") == 2


# --- the page --------------------------------------------------------------------------------


def _data(html: str) -> dict[str, Any]:
    stored = re.search(r'<script type="application/json" id="mv-data">(.*?)</script>', html, re.S)
    assert stored is not None
    data: dict[str, Any] = json.loads(stored.group(1))
    return data


def test_the_page_is_self_contained(folded: Folded) -> None:
    html = page(folded, "spectator", folded.count)
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert not re.search(r"<(link|img|iframe|object|embed)\b|@import|url\(\s*['\"]?http", html)
    assert html.count("<script") == 2  # the data and the step script, both inline


def test_the_page_has_a_frame_per_entry_whose_board_is_the_picture(folded: Folded) -> None:
    to = folded.count
    data = _data(page(folded, "seat-2", to))
    pool, frames = data["pool"], data["frames"]
    assert len(frames) == to + 1
    for k in (0, 1, first_entry(folded, KnockedDown), to // 2, to):
        assert "".join(pool[i] for i in frames[k][0]) == picture(folded, "seat-2", k)
    cut = _data(page(folded, "seat-2", 20))
    assert len(cut["frames"]) == 21


def test_the_page_tells_every_entry_in_the_ruleset_s_words(folded: Folded) -> None:
    html = page(folded, "seat-1", folded.count)
    told = [
        t
        for t in transcript.told(RULESET, folded.log, "seat-1", folded.count)
        if isinstance(t, transcript.Told)
    ]
    assert len(told) == folded.count
    for entry in told:
        head = f'<li data-k="{entry.number}" class="mv-entry"><b>{escape(f"{entry.number}. {entry.command}")}</b>'
        assert head in html
        for line in entry.events:
            assert f"<li>{escape(line)}</li>" in html
    assert f'data-k="{folded.count + 1}"' not in html


def test_each_frame_says_where_the_match_stands_and_lists_the_units(folded: Folded) -> None:
    data = _data(page(folded, "spectator", folded.count))
    pool, frames = data["pool"], data["frames"]
    k = first_entry(folded, KnockedDown)
    panels = "".join(pool[i] for i in frames[k][1])
    state = _state(folded, k)
    assert f"Round {state.round} of 8" in panels
    for unit in state.units:
        row = re.search(rf'<tr data-unit="{re.escape(unit.id)}">(.*?)</tr>', panels)
        assert row is not None
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
        where = square(unit.at) if unit.at else "injured" if unit.injured else "not placed"
        assert cells[2:5] == [
            where,
            f"{max(unit.health, 0)}/{unit.stats.health}",
            "prone" if unit.prone else "standing",
        ]
        if unit.stunned:
            assert "stunned" in cells[5]
    last = "".join(pool[i] for i in frames[-1][1])
    assert "<b>Result</b>" in last and "<b>Result</b>" not in panels
    first = "".join(pool[i] for i in frames[0][1])
    assert "Set-up, the roll-off" in first and "not placed" in first


# --- in a browser ----------------------------------------------------------------------------


@pytest.fixture
def opened(browser: Any, folded: Folded, tmp_path: Path) -> Iterator[tuple[Any, list[str]]]:  # noqa: F811
    html = page(folded, "spectator", folded.count)
    with opened_page(browser, html, tmp_path / "tiles.html", "#mv-board svg g.tiles-tile") as shown:
        yield shown


def _shown(opened: Any) -> dict[str, str]:
    return squares_shown(opened, "tiles-unit", "unit")


def _expected(folded: Folded, k: int) -> dict[str, str]:
    return {u.id: "" if u.at is None else square(u.at) for u in _state(folded, k).units}


def test_stepping_the_page_moves_the_tokens(opened: tuple[Any, list[str]], folded: Folded) -> None:
    shown, errors = opened
    opening = int(shown.locator("body").get_attribute("data-entry"))
    assert opening > 0 and all(_expected(folded, opening).values())  # every piece on the board
    assert _shown(shown) == _expected(folded, opening)
    shown.keyboard.press("Home")
    assert _shown(shown) == _expected(folded, 0)
    placed = first_entry(folded, UnitPlaced)
    for k in range(1, placed + 3):
        shown.click("#mv-next")
        assert shown.locator("body").get_attribute("data-entry") == str(k)
        assert _shown(shown) == _expected(folded, k)
    assert _expected(folded, placed + 2) != _expected(folded, 0)
    k = first_entry(folded, KnockedDown)
    shown.fill("#mv-slider", str(k))
    assert _shown(shown) == _expected(folded, k)
    assert shown.locator("#mv-board g.tiles-prone").count() >= 1
    shown.keyboard.press("End")
    assert _shown(shown) == _expected(folded, folded.count)
    assert "Result" in (shown.locator("#mv-panels").text_content() or "")
    shown.keyboard.press("ArrowLeft")
    assert _shown(shown) == _expected(folded, folded.count - 1)
    assert errors == []
