"""Every game's pictures and words from the core (``engine/render.py``): the board in SVG and
in text, and a command in words, each a pure function of a viewer's view.

Matches are played with each game's heuristic bot (the random one where it has none), and
positions sampled from them, so that every kind of position is drawn: set-up, play, the end.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, get_type_hints

import msgspec
import pytest

from multiversus_cli.presenters.tiles_d6_text import map_text as tiles_map
from multiversus_cli.presenters.worlds_collide_text import map_text as worlds_map
from multiversus_cli.render import board_grid, to_text
from multiversus_core.engine.choices import Ask, is_tree
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.render import (
    Renderer,
    facts_html,
    facts_of,
    humanised,
    option_pick_of,
    pick_of,
    renderer_of,
)
from tests.contract.kit import Example, Match, bot_chooser, listing, play
from tests.screens import rendered

GAMES = ("multiversus", "tiles-d6", "worlds-collide", "sealed-bids")
BOARDS = ("multiversus", "tiles-d6", "worlds-collide")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", params=GAMES)
def match(request: pytest.FixtureRequest) -> tuple[Any, Match]:
    """A match of each game, its bots choosing."""
    ruleset = load_ruleset(request.param)
    maker = ruleset.bots.get("heuristic", ruleset.bots["random"])
    example = Example("bots", ruleset.settings_type())
    played = play(ruleset, example, random.Random(5), bot_chooser(ruleset, maker, 5), limit=400)
    return ruleset, played


def sampled(played: Match, most: int = 14) -> list[Any]:
    """Up to ``most`` states of a match, spread over it, its first and last among them."""
    states = played.states
    step = max(len(states) // (most - 1), 1)
    return [*states[::step], states[-1]]


def renderer(ruleset: Any) -> Renderer[Any, Any]:
    found = renderer_of(ruleset)
    assert found is not None, ruleset.id
    return found


def pieces(ruleset: Any, state: Any) -> dict[str, str]:
    """What the board must show, by id, with the attribute its SVG names it by: every figure
    of Multiversus on the board, every unit of tiles-d6, every model of worlds-collide that
    stands or fell on the board."""
    match ruleset.id:
        case "multiversus":
            return {f.id: "data-figure" for f in state.figures if f.square is not None}
        case "tiles-d6":
            return {u.id: "data-unit" for u in state.units}
        case "worlds-collide":
            shown = (m for m in state.models if not m.fallen or m.at is not None)
            return {m.id: "data-model" for m in shown}
    return {}


def test_every_shipped_game_offers_a_renderer() -> None:
    for game in GAMES:
        assert isinstance(renderer(load_ruleset(game)), Renderer)


def test_a_ruleset_without_a_renderer_has_none() -> None:
    assert renderer_of(object()) is None


def test_each_view_s_svg_parses_and_shows_every_figure(match: tuple[Any, Match]) -> None:
    ruleset, played = match
    drawn = 0
    for state in sampled(played):
        for viewer in ruleset.viewers:
            svg = renderer(ruleset).board_svg(ruleset.view(state, viewer))
            if ruleset.id not in BOARDS:
                assert svg is None
                continue
            assert svg is not None
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg"
            for ident, attribute in pieces(ruleset, state).items():
                found = [e for e in root.iter() if e.get(attribute) == ident]
                assert found, f"{ruleset.id}: {ident} not drawn for {viewer}"
                drawn += 1
    assert drawn or ruleset.id not in BOARDS


def test_each_view_s_text_board_shows_every_square(match: tuple[Any, Match]) -> None:
    ruleset, played = match
    for state in sampled(played):
        for viewer in ruleset.viewers:
            text = renderer(ruleset).board_text(ruleset.view(state, viewer))
            if ruleset.id not in BOARDS:
                assert text is None
                continue
            assert text
            board = _size(ruleset, state)
            if board is None:
                assert text == "The board is not laid out yet."
                continue
            columns, rows = board
            # a line of names, then a line per row, numbered (from 0 in Multiversus, from 1
            # where squares are named "c4")
            lines = text.splitlines()
            first = 0 if ruleset.id == "multiversus" else 1
            assert len(lines) >= rows + 1
            assert all(lines[row + 1].split()[0] == str(row + first) for row in range(rows))
            assert len(lines[0].split()) == columns


def _size(ruleset: Any, state: Any) -> tuple[int, int] | None:
    match ruleset.id:
        case "multiversus":
            board = state.board
            return None if board is None else (board.width, board.height)
        case "tiles-d6":
            return len(state.rows[0]), len(state.rows)
        case "worlds-collide":
            return state.game_map.width, state.game_map.height
    return None


def test_words_for_every_legal_command_are_said_and_tell_commands_apart(
    match: tuple[Any, Match],
) -> None:
    ruleset, played = match
    told = 0
    for state in sampled(played):
        for seat in ruleset.to_act(state):
            seen = ruleset.view(state, ruleset.viewer_of(state, seat))
            commands = {
                msgspec.json.encode(c): c for c in listing(ruleset.legal_commands(state, seat))
            }
            words = {renderer(ruleset).command_words(c, seen) for c in commands.values()}
            assert all(w.strip() for w in words)
            assert len(words) == len(commands), f"{ruleset.id}: two commands read the same"
            told += len(commands)
    assert told


def options_on_the_way(legal: Any) -> list[str]:
    """The keys of every option asked on the way through a tree of choices, its first option
    taken at each choice; none for a list."""
    if not is_tree(legal):
        return []
    keys: list[str] = []
    chosen: list[str] = []
    step = legal.ask(chosen)
    while isinstance(step, Ask):
        keys += [o.key for o in step.options]
        chosen.append(step.options[0].key)
        step = legal.ask(chosen)
    return keys


def test_where_a_command_is_given_is_marked_on_the_board(match: tuple[Any, Match]) -> None:
    """A renderer's optional ``command_pick`` and ``option_pick``: each pick's piece is a
    ``data-piece`` of the board the view shows, and its square a ``data-square``, so that
    clicks can give the command, or choose the option of a tree of choices."""
    ruleset, played = match
    looks = renderer(ruleset)
    picked: dict[str, set[str]] = {"command": set(), "option": set()}
    for state in played.states:
        for seat in ruleset.to_act(state):
            seen = ruleset.view(state, ruleset.viewer_of(state, seat))
            legal = ruleset.legal_commands(state, seat)
            found = [("command", pick_of(looks, c, seen)) for c in listing(legal)]
            found += [("option", option_pick_of(looks, k, seen)) for k in options_on_the_way(legal)]
            picks = [(how, p) for how, p in found if p is not None]
            if not picks:
                continue
            root = ET.fromstring(looks.board_svg(seen) or "<svg/>")
            marked = {e.get("data-piece") for e in root.iter() if e.get("data-piece")}
            squares = {e.get("data-square") for e in root.iter() if e.get("data-square")}
            for how, pick in picks:
                assert pick.piece is None or pick.piece in marked, (ruleset.id, pick)
                assert pick.square is None or pick.square in squares, (ruleset.id, pick)
                picked[how] |= {"piece"} if pick.piece else set()
                picked[how] |= {"square"} if pick.square else set()
    for how in ("command", "option"):
        offers = hasattr(looks, f"{how}_pick")
        assert bool(picked[how]) == offers, f"{ruleset.id}: {how}_pick offered but never picks"
    if hasattr(looks, "option_pick"):  # a model to choose, and a square for it
        assert picked["option"] == {"piece", "square"}, ruleset.id


def test_the_renderers_take_views_never_the_referee_s_state() -> None:
    for game in GAMES:
        ruleset = load_ruleset(game)
        view_type = get_type_hints(ruleset.view)["return"]
        state = ruleset.initial_state(ruleset.settings_type(), None)
        seen = ruleset.view(state, ruleset.viewers[0])
        assert isinstance(seen, view_type)
        found = renderer(ruleset)
        for method in (found.board_svg, found.board_text, found.command_words):
            taken = get_type_hints(method)["view"]
            assert taken is not type(state), f"{game}: {method.__name__} takes the state"
            if taken is not view_type:  # a protocol the view meets and the state does not
                members = [m for m in dir(taken) if not m.startswith("_")]
                assert members
                assert all(hasattr(seen, m) for m in members)
                assert not all(hasattr(state, m) for m in members), f"{game}: {method.__name__}"


def _terminal(ruleset: Any, state: Any) -> str:
    """The board the terminal draws, without colours."""
    match ruleset.id:
        case "multiversus":
            return to_text(board_grid(state))
        case "tiles-d6":
            return rendered(tiles_map(state))
        case _:
            return rendered(worlds_map(state))


@pytest.mark.parametrize("game", BOARDS)
def test_the_text_board_is_the_one_the_terminal_draws(game: str) -> None:
    ruleset = load_ruleset(game)
    maker = ruleset.bots.get("heuristic", ruleset.bots["random"])
    example = Example("bots", ruleset.settings_type())
    played = play(ruleset, example, random.Random(9), bot_chooser(ruleset, maker, 9), limit=300)
    for state in sampled(played):
        seen = ruleset.view(state, ruleset.viewers[-1])
        text = renderer(ruleset).board_text(seen)
        drawn = _terminal(ruleset, seen if game == "multiversus" else seen.state)
        assert [line.rstrip() for line in drawn.splitlines()] == [
            line.rstrip() for line in (text or "").splitlines()
        ]


def test_the_docs_example_runs_and_draws(capsys: pytest.CaptureFixture[str]) -> None:
    page = Path(__file__).resolve().parent.parent / "docs" / "rendering.md"
    (block,) = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    namespace: dict[str, Any] = {}
    exec(compile(block, str(page), "exec"), namespace)
    assert ET.fromstring(namespace["svg"]).tag == f"{SVG}svg"
    assert namespace["text"].splitlines()[1].split()[0] == "1"
    assert capsys.readouterr().out == "roll off\n"


def test_a_view_is_told_beside_the_board_in_words_never_as_json(match: tuple[Any, Match]) -> None:
    ruleset, played = match
    looks = renderer(ruleset)
    for state in sampled(played, 6):
        for viewer in ruleset.viewers:
            told = facts_html(facts_of(looks, ruleset.view(state, viewer)))
            ET.fromstring(f"<div>{told}</div>")  # well formed, every value escaped
            assert told.startswith('<dl class="mv-facts">') and "{" not in told


def test_any_value_is_laid_out_with_its_names_in_words() -> None:
    class Pile(msgspec.Struct):
        stash_count: int
        face_up: tuple[str, ...]

    told = facts_html(
        {"coin_piles": Pile(2, ("a", "b")), "rows": [{"x": 1, "y": True}], "note": "<b>", "n": None}
    )
    assert told == (
        '<dl class="mv-facts"><dt>Coin piles</dt><dd><dl class="mv-facts"><dt>Stash count</dt>'
        "<dd>2</dd><dt>Face up</dt><dd>a, b</dd></dl></dd><dt>Rows</dt><dd>"
        '<table class="mv-facts"><tr><th>X</th><th>Y</th></tr><tr><td>1</td><td>yes</td></tr>'
        "</table></dd><dt>Note</dt><dd>&lt;b&gt;</dd><dt>N</dt><dd>none</dd></dl>"
    )
    assert humanised("secret_offers") == "Secret offers"
    assert humanised("Torch-bearing Villagers") == "Torch-bearing Villagers"
