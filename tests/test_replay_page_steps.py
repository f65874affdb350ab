"""Every game's HTML replay in a browser: where it opens, the address that follows it, the
jumps by round and by turn, and a window as narrow as a phone's or as wide as a desktop's.

The page opens on the first position whose board is laid out (every piece on it), unless
its address names an entry; the round and turn jumps land where the terminal replay's
``r N`` and ``t`` do (:class:`multiversus_cli.replay.Stepper`); and at 420 and 1400 pixels
wide nothing is wider than the window.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from rich.console import Console

from multiversus_cli import html_any
from multiversus_cli.presenters import Folded, presenter_for
from multiversus_cli.replay import Stepper
from multiversus_core.engine.grid import square_name
from multiversus_core.engine.log import read_log
from multiversus_core.engine.play import play_match
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.rulesets.tiles_d6.words import square as tiles_square
from tests.test_html_browser import browser  # noqa: F401 (the browser fixture)

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


class Game(NamedTuple):
    """How a game's pieces are drawn on its page, and where its state has them."""

    golden: Path
    pieces: str
    """The class of a piece's ``<g>`` on the board."""
    key: str
    """The ``data-`` attribute naming the piece."""
    squares: Callable[[Any], dict[str, str]]
    """Each piece's square in a state ("" off the board)."""


GAMES = {
    "multiversus": Game(
        REPLAYS / "witch-hunters--smogon--standard.jsonl",
        "mv-figure",
        "figure",
        lambda s: {
            f.id: "" if f.square is None else f"{f.square[0]},{f.square[1]}" for f in s.figures
        },
    ),
    "tiles-d6": Game(
        REPLAYS / "tiles-d6" / "keep-guard--marsh-raiders--concussion.jsonl",
        "tiles-unit",
        "unit",
        lambda s: {u.id: "" if u.at is None else tiles_square(u.at) for u in s.units},
    ),
    "worlds-collide": Game(
        REPLAYS / "worlds-collide" / "iron-legion--wyldfae--formation.jsonl",
        "wc-model",
        "model",
        lambda s: {
            m.id: "" if m.at is None else square_name(m.at) for m in s.models if not m.fallen
        },
    ),
}
GOLDENS = sorted(REPLAYS.glob("*.jsonl")) + sorted(REPLAYS.glob("*/*.jsonl"))


def _laid_out(squares: dict[str, str]) -> bool:
    return bool(squares) and all(squares.values())


def _game(folded: Folded) -> Game:
    return GAMES[folded.log.game]


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.stem)
def test_every_golden_s_page_opens_on_the_first_laid_out_board(golden: Path) -> None:
    folded = Folded.of(read_log(golden))
    page = presenter_for(folded.log.game).page(folded, "spectator", folded.count)
    data = re.search(r'<script type="application/json" id="mv-data">(.*?)</script>', page, re.S)
    assert data is not None
    opening = json.loads(data.group(1))["opening"]
    squares = _game(folded).squares
    assert opening > 0 and _laid_out(squares(folded.states[opening]))
    assert not any(_laid_out(squares(folded.states[k])) for k in range(opening))
    assert f'<body data-entry="{opening}">' in page


@pytest.fixture(scope="module", params=sorted(GAMES))
def match(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Folded:
    return Folded.of(read_log(GAMES[request.param].golden))


@pytest.fixture(scope="module")
def page_file(match: Folded, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pages") / f"{match.log.game}.html"
    page = presenter_for(match.log.game).page(match, "spectator", match.count)
    path.write_text(page, encoding="utf-8")
    return path


@pytest.fixture
def opened(browser: Any, page_file: Path) -> Iterator[Any]:  # noqa: F811
    yield from _open(browser, page_file, "", 1400)


def _open(chromium: Any, page_file: Path, address: str, width: int) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.as_uri() + address)
    page.wait_for_selector("#mv-board svg")
    yield page
    context.close()
    assert errors == []


def _entry(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-entry"))


def _shown(page: Any, game: Game) -> dict[str, str]:
    found = page.eval_on_selector_all(
        f"#mv-board g.{game.pieces}", f"gs => gs.map(g => [g.dataset.{game.key}, g.dataset.square])"
    )
    return dict(found)


def _stepper(match: Folded, position: int) -> Stepper:
    out = Console(file=io.StringIO())
    return Stepper(out, match, presenter_for(match.log.game), "spectator", position)


def test_the_page_opens_on_a_laid_out_board_and_the_address_names_it(
    opened: Any, match: Folded
) -> None:
    game, k = _game(match), _entry(opened)
    shown = _shown(opened, game)
    assert k > 0 and _laid_out(shown) and shown == game.squares(match.states[k])
    assert opened.evaluate("location.hash") == f"#entry-{k}"
    opened.click("#mv-next")
    assert opened.evaluate("location.hash") == f"#entry-{k + 1}"  # a link to share
    opened.keyboard.press("End")
    assert opened.evaluate("location.hash") == f"#entry-{match.count}"


def test_the_address_names_the_entry_to_open(browser: Any, page_file: Path, match: Folded) -> None:  # noqa: F811
    for page in _open(browser, page_file, "#entry-12", 1400):
        assert _entry(page) == 12
        assert _shown(page, _game(match)) == _game(match).squares(match.states[12])
        assert page.locator("#mv-position").text_content() == f"Entry 12 of {match.count}"


def test_going_to_round_n_lands_on_its_first_entry(opened: Any, match: Folded) -> None:
    stepper = _stepper(match, 0)
    last = stepper._progress(match.count)[0]
    for number in range(last + 1):
        opened.fill("#mv-round", str(number))
        opened.click("#mv-go-round")
        start = stepper.round_start(number)
        assert start is not None and _entry(opened) == start
        where = opened.locator("#mv-where").text_content() or ""
        assert where.startswith(f"Round {number}" if number else "Set-up")
    opened.fill("#mv-round", str(last + 5))
    opened.press("#mv-round", "Enter")  # beyond the last round: the page stays put
    assert _entry(opened) == stepper.round_start(last)


def test_round_buttons_step_from_round_start_to_round_start(opened: Any, match: Folded) -> None:
    stepper = _stepper(match, 0)
    last = stepper._progress(match.count)[0]
    starts = [stepper.round_start(n) for n in range(1, last + 1)]
    opened.keyboard.press("Home")
    landed = []
    for _ in starts:
        opened.click("#mv-next-round")
        landed.append(_entry(opened))
    assert landed == starts
    opened.keyboard.press("End")
    back = []
    for _ in starts:
        opened.click("#mv-prev-round")
        back.append(_entry(opened))
    assert back == starts[::-1]
    opened.keyboard.press("Shift+R")  # Shift+R: from round 1's start to the set-up's
    assert _entry(opened) == 0


def test_turn_jumps_go_where_the_terminal_replay_s_t_goes(opened: Any, match: Folded) -> None:
    stepper = _stepper(match, 0)
    opened.keyboard.press("Home")
    turns = []
    while (k := stepper.next_turn()) is not None and len(turns) < 40:
        turns.append(k)
        stepper.position = k
    landed = []
    for _ in turns:
        opened.keyboard.press("t")
        landed.append(_entry(opened))
    assert landed == turns
    opened.click("#mv-prev-turn")
    assert _entry(opened) == turns[-2]
    opened.click("#mv-next-turn")
    assert _entry(opened) == turns[-1]
    opened.keyboard.press("Shift+T")
    assert _entry(opened) == turns[-2]


@pytest.fixture(scope="module")
def bids_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ruleset = load_ruleset("sealed-bids")
    players = {seat: ruleset.bots["random"](seat) for seat in (1, 2, 3)}
    log, _ = play_match(ruleset.settings_type(seed=6), players)
    path = tmp_path_factory.mktemp("pages") / "bids.html"
    path.write_text(html_any.page_html(ruleset, log, "seat-1", len(log.entries)), "utf-8")
    return path


def _fits(page: Any) -> None:
    """Nothing on the page is wider than the window."""
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner


@pytest.mark.parametrize("width", [420, 1400])
def test_nothing_is_wider_than_the_window(
    browser: Any,  # noqa: F811
    page_file: Path,
    match: Folded,
    width: int,
) -> None:
    for page in _open(browser, page_file, "", width):
        for k in (_entry(page), match.count // 2, match.count):
            page.fill("#mv-slider", str(k))
            _fits(page)
            board = page.locator("#mv-board svg").bounding_box()
            slider = page.locator("#mv-slider").bounding_box()
            for box in (board, slider):
                assert box["x"] >= 0 and box["x"] + box["width"] <= width
        if width == 420:  # the board scaled down, not cut off
            assert board["width"] < float(page.locator("#mv-board svg").get_attribute("width"))


@pytest.mark.parametrize("width", [420, 1400])
def test_a_page_without_a_board_fits_the_window(browser: Any, bids_file: Path, width: int) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(bids_file.as_uri())
    page.wait_for_selector("#view")
    _fits(page)
    context.close()
