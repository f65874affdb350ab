"""The browser client: a real referee on 127.0.0.1, Debian's Chromium driven by Playwright.

Two browser contexts each open a seat's link and play a match to its end
through the page alone: menus, and figures moved by a click on the figure
then on its square. The pages keep their seats' view logs (downloaded here
and compared with the referee's), reconnect by themselves after a dropped
socket, and show the cross-check's verdict, which fails when the referee
publishes a forged log.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from multiversus_cli.presenters.tiles_d6_play import menu_for
from multiversus_cli.serve import explain
from multiversus_core.engine.choices import Ask
from multiversus_core.engine.grid import square_name
from multiversus_core.engine.log import read_log
from multiversus_core.engine.registry import game_ids
from multiversus_core.engine.render import facts_html, facts_of, renderer_of
from multiversus_core.engine.viewlog import encode_view_log, redact_log
from multiversus_core.rulesets.multiversus.narrate import secret_option_name
from multiversus_server import app
from multiversus_server.protocol import Lines, Sync
from multiversus_server.referee import Publish, honest
from tests.test_html_browser import browser  # noqa: F401  (the fixture)
from tests.test_serve import InProcess, altered_contribution, create, nothing_for, receive, ws

Page = Any


class Seat:
    """One browser context on one seat's link."""

    def __init__(self, context: Any, link: str) -> None:
        self.context = context
        self.page: Page = context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        self.page.goto(link)
        self.page.wait_for_function("window.multiversus && window.multiversus.shown !== null")

    def shown(self) -> dict[str, Any]:
        found: dict[str, Any] = self.page.evaluate("window.multiversus.shown")
        return found

    def lines(self) -> int:
        count: int = self.page.evaluate("window.multiversus.shown.lines")
        return count

    def verdict(self) -> str:
        found: str = self.page.get_attribute("body", "data-verdict") or ""
        return found

    def to_act(self) -> bool:
        return self.page.get_attribute("body", "data-to-act") == "yes"

    def offered(self) -> dict[str, Any] | None:
        """What the page draws, if it offers a choice (read at once, as one drawing)."""
        found: dict[str, Any] | None = self.page.evaluate(
            "document.body.dataset.toAct === 'yes' ? window.multiversus.shown : null"
        )
        return found


@pytest.fixture
def seats(browser: Any, tmp_path: Path) -> Iterator[tuple[InProcess, list[Seat]]]:  # noqa: F811
    with _seats(browser, tmp_path, "tiles-d6", honest) as opened:
        yield opened


@contextlib.contextmanager
def _seats(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    game: str,
    publish: Publish,
    *,
    watch: bool = False,
    settings: dict[str, Any] | None = None,
) -> Iterator[tuple[InProcess, list[Seat]]]:
    """A page on each seat's link, then (``watch``) one on the spectators' link; the match is
    of ``game`` with ``settings``."""
    with InProcess(tmp_path / "data", publish, explain) as serving:
        created = create(serving.port, {"game": game, **(settings or {})})
        links = [*created["seats"], *([created["spectator"]] if watch else [])]
        contexts = [browser.new_context(accept_downloads=True) for _ in links]
        try:
            seats = [Seat(c, link) for c, link in zip(contexts, links, strict=True)]
            yield serving, seats
        finally:
            for context in contexts:
                context.close()


def settle(seats: list[Seat], lines: int) -> None:
    """Wait until every page is drawn from at least ``lines`` lines of its view log."""
    for seat in seats:
        seat.page.wait_for_function(
            "n => window.multiversus.shown && window.multiversus.shown.lines >= n", arg=lines
        )


def click_choice(seat: Seat, words: str) -> None:
    seat.page.locator("#choices button.choice", has_text=words).first.click()


def on_board(seat: Seat, piece: str, square: str) -> None:
    """Give a command on the board: a click on the piece, then one on the square."""
    seat.page.click(f'#board [data-piece="{piece}"]')
    assert seat.page.get_attribute("body", "data-selected") == piece
    seat.page.click(f'#board [data-square="{square}"]:not([data-piece])')


def play_tiles(seats: list[Seat], serving: InProcess) -> dict[str, int]:
    """Play a tiles-d6 match to its end through the pages: every unit set up and one unit a
    seat moved by clicks on the board, every other turn ended at once. At the first turn,
    ``?`` must say what the terminal's says."""
    done = {"placed": 0, "stepped": 0, "menu": 0, "explained": 0}
    moved: set[int] = set()
    for _ in range(400):
        if all(seat.verdict() for seat in seats):
            return done
        acting = next((s for s in seats if s.to_act()), None)
        if acting is None:
            seats[0].page.wait_for_timeout(50)
            continue
        shown = acting.shown()
        before = shown["lines"]
        choices = shown["choices"]
        number = seats.index(acting) + 1
        words = [c["words"] for c in choices]
        placing = [c for c in choices if c["piece"] and c["square"] and "place" in c["words"]]
        steps = [c for c in choices if c["words"].startswith("step ")]
        moves = [c for c in choices if c["words"].startswith("move ")]
        if placing:
            on_board(acting, placing[0]["piece"], placing[0]["square"])
            done["placed"] += 1
        elif steps and number not in moved:
            on_board(acting, steps[0]["piece"], steps[0]["square"])
            moved.add(number)
            done["stepped"] += 1
        elif any(w.startswith("stop ") for w in words):
            click_choice(acting, "stop ")
        elif moves and number not in moved:
            acting.page.click(f'#board [data-piece="{moves[0]["piece"]}"]')
            acting.page.locator("#picked button", has_text="move ").first.click()
        elif "end the turn" in words:
            if not done["explained"]:
                (match,) = serving.referee
                said = menu_for(
                    match.state, number, match.ruleset.legal_commands(match.state, number)
                )
                acting.page.keyboard.press("?")
                assert acting.page.inner_text("#odds").splitlines() == list(said.odds)
                assert said.odds
                done["explained"] += 1
            click_choice(acting, "end the turn")
        else:
            acting.page.locator("#choices button.choice").first.click()
            done["menu"] += 1
        settle(seats, before + 1)
    raise AssertionError("the match did not end through the pages")


def test_two_pages_play_a_tiles_d6_match_to_its_end_by_clicks(
    seats: tuple[InProcess, list[Seat]], tmp_path: Path
) -> None:
    serving, pages = seats
    done = play_tiles(pages, serving)
    assert done["placed"] >= 2 and done["stepped"] == 2 and done["explained"] == 1
    for seat in pages:
        seat.page.wait_for_selector('body[data-verdict="passed"]')
        assert "The cross-check passed" in seat.page.inner_text("#verdict")
        assert not seat.errors, seat.errors
    # each page kept its seat's view log: the download is the referee's, byte for byte
    (path,) = serving.referee.data.glob("*.jsonl")
    log = read_log(path)
    for number, seat in enumerate(pages, start=1):
        with seat.page.expect_download() as got:
            seat.page.click("#download-view")
        kept = Path(got.value.path()).read_bytes()
        assert kept == encode_view_log(redact_log(log, f"seat-{number}"))
        with seat.page.expect_download() as got:
            seat.page.click("#download-match")
        assert Path(got.value.path()).read_bytes() == path.read_bytes()


def test_the_page_is_self_contained_and_only_for_a_link(
    seats: tuple[InProcess, list[Seat]],
) -> None:
    serving, pages = seats
    page = pages[0].page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.reload()
    page.wait_for_function("window.multiversus && window.multiversus.shown !== null")
    assert fetched == [page.url]  # the page alone: no script, style or font fetched
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"http://127.0.0.1:{serving.port}/join/{'A' * 22}", timeout=5)
    assert refused.value.code == 404


def test_a_page_reconnects_by_itself_and_plays_on(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    with _seats(browser, tmp_path, "sealed-bids", honest, watch=True) as (_, opened):
        *pages, watcher = opened
        first = pages[0]
        rounds = 0
        for _ in range(200):
            if all(seat.verdict() for seat in pages):
                break
            acting = [s for s in pages if s.to_act()]
            if not acting:
                pages[0].page.wait_for_timeout(50)
                continue
            seat = acting[0]
            before = seat.lines()
            if seat is first and rounds == 1:  # drop the socket mid-match, once
                first.page.evaluate("window.multiversus.socket.close()")
                first.page.wait_for_function("window.multiversus.reconnections === 1")
                first.page.wait_for_selector('body[data-connection="open"]')
                settle([first], before)
            buttons = seat.page.locator("#choices button.choice")
            buttons.nth(buttons.count() - 1).click()
            if seat is first:
                rounds += 1
            settle(pages, before + 1)
        for seat in pages:
            seat.page.wait_for_selector('body[data-verdict="passed"]')
            assert not seat.errors, seat.errors
        assert rounds >= 2
        assert first.page.evaluate("window.multiversus.reconnections") == 1
        watcher.page.wait_for_selector('body[data-verdict="passed"]')
        assert watcher.shown()["viewer"] == "spectator" and not watcher.errors
        assert watcher.page.locator("#choices button").count() == 0


def test_a_page_shows_a_failed_cross_check_when_the_referee_forges_the_log(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    with _seats(browser, tmp_path, "tiles-d6", altered_contribution) as (serving, pages):
        play_tiles(pages, serving)
        second = pages[1]
        second.page.wait_for_selector('body[data-verdict="failed"]')
        text = second.page.inner_text("#verdict")
        assert "The cross-check failed" in text
        assert "does not hold seat 2's contribution" in text
        assert not second.errors, second.errors


ROLL_OFF = re.compile(r'"kind":"roll_off_rolled","dice":\[(\d)')
PREV = re.compile(r'"prev":"[0-9a-f]{64}"')


def forged_die(lines: Sequence[str], *, rechain: bool) -> list[str]:
    """A view log's lines with the first die of the roll-off turned to another face, and,
    ``rechain``, every later line's ``prev`` made to name the SHA-256 of the forged line
    before it, so that the forged history chains."""
    out = list(lines)
    at = next((n for n, line in enumerate(out) if ROLL_OFF.search(line)), None)
    if at is None:
        return out
    found = ROLL_OFF.search(out[at])
    assert found is not None
    face = int(found.group(1)) % 6 + 1
    out[at] = out[at][: found.start(1)] + str(face) + out[at][found.end(1) :]
    if rechain:
        for n in range(at + 1, len(out)):
            head = hashlib.sha256(out[n - 1].encode()).hexdigest()
            out[n] = PREV.sub(f'"prev":"{head}"', out[n], count=1)
    return out


def tampered_wire(monkeypatch: pytest.MonkeyPatch, seat: int, *, rechain: bool) -> None:
    """A referee whose wire to ``seat``'s page forges the roll-off's die in the view log it
    sends (:func:`forged_die`); it keeps, publishes and checks the honest one."""
    honest_send = app.Connection.send
    honest: dict[int, list[str]] = {}

    def send(connection: app.Connection, message: Any) -> None:
        if connection.seat == seat and connection.page:
            kept = honest.setdefault(id(connection), [])
            match message:
                case Sync(lines=lines):
                    kept[:] = lines
                    message = msgspec.structs.replace(
                        message, lines=tuple(forged_die(kept, rechain=rechain))
                    )
                case Lines(first=first, lines=lines):
                    kept.extend(lines)
                    forged = forged_die(kept, rechain=rechain)[first:]
                    message = msgspec.structs.replace(message, lines=tuple(forged))
        honest_send(connection, message)

    monkeypatch.setattr(app.Connection, "send", send)


def test_a_page_catches_a_die_forged_on_the_wire_by_the_chain_of_its_view_log(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tampered_wire(monkeypatch, 2, rechain=False)
    with _seats(browser, tmp_path, "tiles-d6", honest) as (_, pages):
        first, second = pages
        for _ in range(200):  # the roll-off, then a line after it
            if first.lines() >= 3:
                break
            acting = next((seat for seat in pages if seat.to_act()), None)
            if acting is None:
                first.page.wait_for_timeout(50)
                continue
            before = acting.lines()
            acting.page.locator("#choices button.choice").first.click()
            settle(pages, before + 1)
        second.page.wait_for_selector('body[data-verdict="failed"]')
        text = second.page.inner_text("#verdict")
        assert "The cross-check failed" in text
        assert "line 2 of the view log does not chain to the one before it" in text
        assert first.page.get_attribute("body", "data-verdict") == ""  # honest: nothing caught
        assert not second.errors, second.errors


def test_a_page_catches_a_forged_history_that_chains_by_the_view_log_the_referee_checked(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tampered_wire(monkeypatch, 2, rechain=True)
    with _seats(browser, tmp_path, "tiles-d6", honest) as (serving, pages):
        first, second = pages
        assert second.page.evaluate("window.multiversus.caught") == []
        play_tiles(pages, serving)
        first.page.wait_for_selector('body[data-verdict="passed"]')
        second.page.wait_for_selector('body[data-verdict="failed"]')
        text = second.page.inner_text("#verdict")
        assert "The cross-check failed" in text
        assert "the referee checked a view log other than the one this page kept" in text
        # the page kept the forged history: its chain held line by line, its die is not the
        # referee's
        (match,) = serving.referee
        kept = second.page.evaluate("window.multiversus.lines")
        assert kept == forged_die(match.views["seat-2"], rechain=True)
        assert kept != match.views["seat-2"]
        assert not second.errors, second.errors


def test_a_decision_too_big_to_list_is_built_one_choice_at_a_time(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    with _seats(browser, tmp_path, "worlds-collide", honest) as (serving, pages):
        (match,) = serving.referee
        for _ in range(40):
            acting = next((s for s in pages if s.to_act()), None)
            if acting is None:
                pages[0].page.wait_for_timeout(50)
                continue
            shown = acting.shown()
            if shown["asked"] is not None:
                break
            before = shown["lines"]
            acting.page.locator("#choices button.choice").first.click()
            settle(pages, before + 1)
        else:
            raise AssertionError("no decision was offered one choice at a time")
        before = shown["lines"]
        number = pages.index(acting) + 1
        acting.page.click("#explain")
        said = explain(
            "worlds-collide",
            match.state,
            number,
            match.ruleset.legal_commands(match.state, number),
            (),
        )
        assert acting.page.inner_text("#odds").splitlines() == list(said) and said
        steps = 0
        while acting.lines() == before:  # the first option at each choice, to a whole command
            asked = acting.shown()["asked"]
            assert asked is not None and len(asked["chosen"]) == steps
            acting.page.locator("#asked button.option").first.click()
            steps += 1
            acting.page.wait_for_function(
                "([n, k]) => window.multiversus.shown.lines > n || "
                "(window.multiversus.shown.asked && window.multiversus.shown.asked.chosen.length === k)",
                arg=[before, steps],
            )
        assert steps >= 2
        settle(pages, before + 1)
        # then a choice made on the board: a model clicked, then the square it goes to
        for _ in range(40):
            acting = next((s for s in pages if s.to_act()), None)
            if acting is None:
                pages[0].page.wait_for_timeout(50)
                continue
            shown = acting.shown()
            asked = shown["asked"]
            models = [p for p in asked["picks"] if p["piece"] and not p["square"]] if asked else []
            if models:
                break
            before = shown["lines"]
            if asked is None:
                acting.page.locator("#choices button.choice").first.click()
            else:
                acting.page.locator("#asked button.option").first.click()
            acting.page.wait_for_function(
                "n => window.multiversus.shown.lines > n || "
                "(window.multiversus.shown.asked || {chosen: []}).chosen.length > 0",
                arg=before,
            )
        else:
            raise AssertionError("no model was offered on the board")
        before, model = shown["lines"], models[0]["piece"]
        assert asked["chosen"] == []
        acting.page.click(f'#board [data-piece="{model}"]')
        acting.page.wait_for_function(
            "window.multiversus.shown.asked && window.multiversus.shown.asked.chosen.length === 1"
        )
        asked = acting.shown()["asked"]
        assert asked["chosen"] == [model]
        squares = [p for p in asked["picks"] if p["square"] and not p["piece"]]
        assert squares and all(len(p["keys"]) <= 2 for p in squares)
        square = squares[-1]["square"]
        marked = f'#board .wc-square.mv-destination[data-square="{square}"]'
        assert acting.page.locator(marked).count() == 1
        acting.page.click(f'#board .wc-square[data-square="{square}"]')
        settle(pages, before + 1)
        placed = next(m for m in match.state.models if m.id == model)
        assert placed.at is not None and square_name(placed.at) == square
        assert not any(seat.errors for seat in pages)


def test_a_worlds_collide_listed_decision_is_given_on_the_board_too(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    with _seats(browser, tmp_path, "worlds-collide", honest) as (serving, pages):
        (match,) = serving.referee
        done: set[str] = set()
        for _ in range(200):
            if {"deploy", "activate"} <= done:
                break
            drawn = [(seat, seat.offered()) for seat in pages]
            acting, shown = next(((s, d) for s, d in drawn if d is not None), (None, None))
            if acting is None or shown is None:
                pages[0].page.wait_for_timeout(50)
                continue
            before = shown["lines"]
            placing = [c for c in shown["choices"] if c["command"]["kind"] == "deploy"]
            activating = [c for c in shown["choices"] if c["command"]["kind"] == "activate"]
            if placing and "deploy" not in done:
                choice = placing[-1]  # a model placed by a click on it, then on its square
                assert choice["piece"] == choice["command"]["model"] and choice["square"]
                on_board(acting, choice["piece"], choice["square"])
                settle(pages, before + 1)
                last = match.entries[-1].command
                assert (last.model, square_name(last.at)) == (choice["piece"], choice["square"])
                done.add("deploy")
                continue
            if activating and "activate" not in done:
                choice = activating[-1]  # a model clicked, then one of what it may do
                acting.page.click(f'#board [data-piece="{choice["piece"]}"]')
                words = re.compile(f"^{re.escape(choice['words'])}$")
                acting.page.locator("#picked button.picked", has_text=words).click()
                settle(pages, before + 1)
                last = json.loads(msgspec.json.encode(match.entries[-1].command))
                given = choice["command"]
                assert (last["kind"], last["models"], last["plan"], last["tactic"]) == (
                    given["kind"],
                    given["models"],
                    given["plan"],
                    given["tactic"],
                )
                done.add("activate")
                continue
            if shown["asked"] is not None:  # a whole command of the tree at once
                tree = match.ruleset.legal_commands(match.state, pages.index(acting) + 1)
                keys: list[str] = []
                while isinstance(step := tree.ask(tuple(keys)), Ask):
                    keys.append(step.options[0].key)
                acting.page.evaluate(
                    "k => window.multiversus.socket.send(JSON.stringify({type: 'choose', chosen: k}))",
                    keys,
                )
                settle(pages, before + 1)
                continue
            acting.page.locator("#choices button.choice").first.click()
            settle(pages, before + 1)
        assert done == {"deploy", "activate"}
        assert not any(seat.errors for seat in pages)


@pytest.mark.parametrize("game", game_ids())
def test_every_game_s_page_draws_its_seat_s_view_and_first_decision(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    game: str,
) -> None:
    with _seats(browser, tmp_path, game, honest) as (serving, pages):
        for seat in pages:
            seat.page.wait_for_function(
                "window.multiversus.shown.to_act.length > 0 && "
                "document.body.dataset.connection === 'open'"
            )
        (match,) = serving.referee
        looks = renderer_of(match.ruleset)
        acting = [seat for seat in pages if seat.to_act()]
        assert acting, "no page offers a choice"
        for number, seat in enumerate(pages, start=1):
            shown = seat.shown()
            assert bool(shown["choices"] or shown["asked"]) == (seat in acting)
            assert shown["viewer"] == match.viewer(number)
            seen = match.ruleset.view(match.state, shown["viewer"])
            board = None if looks is None else looks.board_svg(seen)
            assert shown["board"] == board  # the core's board of the seat's view, as it is
            assert seat.page.locator("#board svg").count() == (board is not None)
            assert shown["facts"] == facts_html(facts_of(looks, seen))  # the view in words
            assert seat.page.locator("#facts dl.mv-facts").count() >= 1
            assert "{" not in seat.page.inner_text("#facts")  # never raw JSON
            assert not seat.errors, seat.errors


def test_a_multiversus_figure_steps_by_a_click_on_it_then_on_its_space(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    with _seats(browser, tmp_path, "multiversus", honest) as (serving, pages):
        (match,) = serving.referee
        for _ in range(400):
            acting = next((s for s in pages if s.to_act()), None)
            if acting is None:
                pages[0].page.wait_for_timeout(50)
                continue
            shown = acting.shown()
            before = shown["lines"]
            steps = [c for c in shown["choices"] if c["command"]["kind"] == "step"]
            if steps:
                on_board(acting, steps[0]["piece"], steps[0]["square"])
                settle(pages, before + 1)
                break
            # anything but ending or giving up, so that a figure comes to move
            keep = [
                n
                for n, c in enumerate(shown["choices"])
                if c["command"]["kind"] not in ("end_action", "give_up_initiative")
            ]
            pick = random.Random(before).choice(keep or [0])
            acting.page.locator("#choices button.choice").nth(pick).click()
            settle(pages, before + 1)
        else:
            raise AssertionError("no figure came to step")
        last = match.entries[-1].command
        assert type(last).__name__ == "Step" and last.figure == steps[0]["piece"]
        assert not any(seat.errors for seat in pages)
        # each seat became its side's viewer on the way, and its page caught nothing
        assert {seat.shown()["viewer"] for seat in pages} == {"heroes", "adversaries"}
        assert [seat.page.evaluate("window.multiversus.caught") for seat in pages] == [[], []]


def test_a_multiversus_page_lays_out_its_seat_s_coins_and_secrets_in_words(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    teams = {"heroes": "witch-hunters", "adversaries": "swartzblak"}  # both have secrets
    with _seats(browser, tmp_path, "multiversus", honest, settings=teams) as (serving, pages):
        (match,) = serving.referee
        rng = random.Random(7)
        for _ in range(400):
            state = match.state
            mine = [
                (number, secret)
                for number in (1, 2)
                for secret in state.secrets
                if secret.side == match.viewer(number)
            ]
            if mine:
                break
            acting = next((s for s in pages if s.to_act()), None)
            if acting is None:
                pages[0].page.wait_for_timeout(50)
                continue
            shown = acting.shown()
            before = shown["lines"]
            keep = [
                n
                for n, c in enumerate(shown["choices"])
                if c["command"]["kind"] not in ("end_action", "give_up_initiative")
            ]
            acting.page.locator("#choices button.choice").nth(rng.choice(keep or [0])).click()
            settle(pages, before + 1)
        else:
            raise AssertionError("no seat chose a secret")
        number, secret = mine[0]
        seat = pages[number - 1]
        settle(pages, len(match.views[match.viewer(number)]))
        panel = seat.page.inner_text("#facts")
        assert "{" not in panel and '"' not in panel  # laid out, not JSON
        assert secret.name in panel and secret_option_name(state, secret.choice) in panel
        table = seat.page.locator("#facts table.mv-facts", has_text=secret.name)
        assert table.locator("th").all_inner_texts() == ["Side", "Secret", "Choice", "Revealed"]
        piles = state.piles(secret.side)
        assert all(state.unit(c.rpartition(".")[0]).name in panel for c in piles.stash)
        assert "Remaining (stash)" in panel and "Spent (discard)" in panel
        assert "Selection under way" in panel
        assert not any(s.errors for s in pages)


def until(connection: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``, skipping the others."""
    for _ in range(20):
        message = receive(connection)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def test_only_a_page_is_sent_what_it_draws_and_a_choice_needs_a_tree(tmp_path: Path) -> None:
    with InProcess(tmp_path / "data") as serving:
        links = create(serving.port, {"game": "tiles-d6"})
        with (
            ws(links["seats"][0]) as page,
            ws(links["seats"][1]) as terminal,
            ws(links["spectator"]) as watcher,
        ):
            page.send(json.dumps({"type": "join", "contribution": "1" * 64, "page": True}))
            assert until(page, "shown")["choices"] == []  # seat 2 has not joined
            terminal.send(json.dumps({"type": "join", "contribution": "2" * 64}))
            shown = until(page, "shown")
            assert [c["words"] for c in shown["choices"]] == ["roll off"]
            assert shown["view"]["viewer"] == "seat-1" and shown["to_act"] == [1]
            assert until(terminal, "sync")["seat"] == 2
            assert nothing_for(terminal)  # a terminal client is sent the view log alone
            page.send(json.dumps({"type": "choose", "chosen": []}))
            refused = until(page, "error")["message"]
            assert refused == "this decision is a list: send one of its commands"
            watcher.send(json.dumps({"type": "join", "page": True}))
            assert until(watcher, "shown")["choices"] == []
            watcher.send(json.dumps({"type": "choose", "chosen": []}))
            assert until(watcher, "error")["message"] == "a spectator gives no commands"
            terminal.send(json.dumps({"type": "choose", "chosen": ["1"]}))
            assert until(terminal, "error")["message"].startswith("it is not seat 2's turn")
            page.send(json.dumps({"type": "command", "command": shown["choices"][0]["command"]}))
            assert until(page, "lines")["first"] == 1
            assert until(page, "shown")["lines"] == 2
