"""The HTML replay page and the SVG board, without a browser: what they hold, from which view.

The page is built from a view log only (R4, R23: nothing a viewer did not
know); its board is drawn from views, its event list in the terminal
replay's words.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_cli.html import Page, page_html, referee_page, side_page
from multiversus_cli.presenters.multiversus_text import command_line, event_lines, steps
from multiversus_core import MatchSettings, apply, decider_seat, salted, start_match
from multiversus_core.engine.log import LogEntry, MatchLog, encode_log, new_header, read_log, replay
from multiversus_core.engine.viewlog import encode_view_log, read_view_log
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.events import (
    AttackMade,
    BoardSetUp,
    CoinsSelected,
    Event,
    FigureMoved,
    FigureStepped,
    InitiativeRolled,
    TeamsChosen,
)
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.render import CELL, board_svg, changes, figure_labels
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Side
from multiversus_core.rulesets.multiversus.units import coin_colour, coin_unit
from multiversus_core.rulesets.multiversus.views import redact, redact_log, view

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
GOLDEN = REPLAYS / "witch-hunters--smogon--standard.jsonl"
SECRET_SCHEMES = REPLAYS / "witch-hunters--swartzblak--secret-schemes.jsonl"
PUSHES = REPLAYS / "witch-hunters--smogon--double-attack-pushes.jsonl"
SVG = "{http://www.w3.org/2000/svg}"


def states(log: MatchLog) -> Iterator[MatchState]:
    """The referee's state before the first entry and after each entry."""
    state = initial_state(log.header.settings)
    yield state
    for entry in log.entries:
        for event in entry.events:
            state = evolve(state, event)
        yield state


def figure_squares(svg: str) -> dict[str, str]:
    """Each figure drawn on an SVG board, with the space it is drawn on ("" off the board)."""
    root = ET.fromstring(svg)
    return {
        g.attrib["data-figure"]: g.attrib["data-square"]
        for g in root.iter(f"{SVG}g")
        if "mv-figure" in g.attrib.get("class", "")
    }


def expected_squares(state: MatchState) -> dict[str, str]:
    return {f.id: "" if f.square is None else f"{f.square[0]},{f.square[1]}" for f in state.figures}


@pytest.fixture(scope="module")
def golden() -> MatchLog:
    return read_log(GOLDEN)


@pytest.fixture(scope="module")
def heroes_page(golden: MatchLog) -> Page:
    return side_page(redact_log(golden, "heroes"))


# --- the board ------------------------------------------------------------------------


def test_every_frame_draws_each_figure_where_the_library_has_it(
    golden: MatchLog, heroes_page: Page
) -> None:
    all_states = list(states(golden))
    assert len(heroes_page.frames) == len(all_states) == len(golden.entries) + 1
    for k, state in enumerate(all_states):
        assert figure_squares(heroes_page.board_svg(k)) == expected_squares(state), k


def test_the_page_board_is_the_svg_renderer_of_the_view(
    golden: MatchLog, heroes_page: Page
) -> None:
    all_states = list(states(golden))
    for k in (1, 60, 150, len(golden.entries)):
        before, after = all_states[k - 1], all_states[k]
        events = redact(golden.entries[k - 1].events, "heroes")
        drawn = board_svg(
            view(after, "heroes"), figure_labels(after), changes(view(before, "heroes"), events)
        )
        assert heroes_page.board_svg(k) == drawn


def test_tiles_show_their_terrain_kinds(heroes_page: Page) -> None:
    root = ET.fromstring(heroes_page.board_svg(len(heroes_page.frames) - 1))
    kinds = {
        g.attrib["data-terrain"]
        for g in root.iter(f"{SVG}g")
        if "mv-tile" in g.attrib.get("class", "")
    }
    assert kinds == {"Crag", "Smoke Vent"}
    text = "".join(root.itertext())
    assert "Crag (blocking, obscuring)" in text and "Smoke Vent (obscuring)" in text


def test_a_large_figure_covers_its_four_spaces(heroes_page: Page) -> None:
    root = ET.fromstring(heroes_page.board_svg(len(heroes_page.frames) - 1))
    (smogon,) = (g for g in root.iter(f"{SVG}g") if g.attrib.get("data-figure") == "smogon")
    assert "mv-large" in smogon.attrib["class"]
    rect = smogon.find(f"{SVG}rect")
    assert rect is not None and float(rect.attrib["width"]) > 1.5 * CELL


def test_figures_are_labelled_in_their_side_colour(heroes_page: Page) -> None:
    svg = heroes_page.board_svg(len(heroes_page.frames) - 1)
    root = ET.fromstring(svg)
    for g in root.iter(f"{SVG}g"):
        if "mv-figure" not in g.attrib.get("class", "") or "mv-terrain" in g.attrib["class"]:
            continue
        side = "heroes" if "mv-heroes" in g.attrib["class"] else "adversaries"
        shape = g.find(f"{SVG}circle")
        if shape is None:
            shape = g.find(f"{SVG}rect")
        assert shape is not None
        assert shape.attrib["fill"] == {"heroes": "#1d4ed8", "adversaries": "#b91c1c"}[side]
        assert (g.find(f"{SVG}text") is not None) and g.find(f"{SVG}text").text  # type: ignore[union-attr]


def test_wounded_disabled_and_eliminated_figures_are_marked() -> None:
    log = read_log(REPLAYS / "witch-hunters--smogon--standard-brute.jsonl")
    page = side_page(redact_log(log, "spectator"))
    seen: set[str] = set()
    for k, state in enumerate(states(log)):
        root = ET.fromstring(page.board_svg(k))
        drawn = {
            g.attrib["data-figure"]: g
            for g in root.iter(f"{SVG}g")
            if "mv-figure" in g.attrib.get("class", "")
        }
        for figure in state.figures:
            if figure.terrain:
                continue
            g = drawn[figure.id]
            assert g.attrib["data-condition"] == figure.condition
            marks = [t.text for t in g.iter(f"{SVG}text") if t.attrib.get("class") == "mv-mark"]
            expected = {"unharmed": [], "wounded": ["*"], "disabled": ["×"], "eliminated": ["†"]}
            assert marks == expected[figure.condition]
            if figure.condition == "eliminated":
                assert g.attrib["data-square"] == ""  # off the board, in the strip below it
            seen.add(figure.condition)
    assert {"wounded", "disabled", "eliminated"} <= seen


def test_an_entry_s_moves_attacks_pushes_and_rolls_are_highlighted() -> None:
    log = read_log(PUSHES)
    page = side_page(redact_log(log, "spectator"))
    found = set()
    for k, entry in enumerate(log.entries, start=1):
        root = ET.fromstring(page.board_svg(k))
        marks = {
            cls
            for g in root.iter(f"{SVG}g")
            for cls in g.attrib.get("class", "").split()
            if cls in ("mv-move", "mv-push", "mv-attack", "mv-roll")
        }
        events = entry.events
        if any(isinstance(e, FigureStepped) for e in events):
            assert "mv-move" in marks
            found.add("move")
        if any(isinstance(e, FigureMoved) and e.how == "push" for e in events):
            assert "mv-push" in marks
            found.add("push")
        if any(isinstance(e, AttackMade) for e in events):
            assert "mv-attack" in marks
            found.add("attack")
        rolled = [e.die for e in events if isinstance(e, InitiativeRolled)]
        if rolled:
            dice = [
                g.attrib["data-die"]
                for g in root.iter(f"{SVG}g")
                if "mv-roll" in g.attrib.get("class", "")
            ]
            assert dice == [str(d) for d in rolled]
            found.add("roll")
        if not marks:
            assert not any(
                isinstance(e, FigureStepped | FigureMoved | AttackMade | InitiativeRolled)
                for e in events
            )
    assert found == {"move", "push", "attack", "roll"}


def test_a_moved_figure_s_path_runs_through_every_space_it_stepped_to(golden: MatchLog) -> None:
    state = initial_state(golden.header.settings)
    for entry in golden.entries:
        steps_ = [e for e in entry.events if isinstance(e, FigureStepped)]
        if steps_:
            found = changes(view(state, "spectator"), entry.events)
            (path,) = found.paths
            start = state.figure(steps_[0].figure).square
            assert path.squares == (start, *(e.to for e in steps_))
            return
        for event in entry.events:
            state = evolve(state, event)
    pytest.fail("no steps in the golden replay")


# --- the page -------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["heroes", "adversaries", "spectator", "referee"])
def test_the_event_list_is_the_terminal_replay_s_narration(golden: MatchLog, viewer: str) -> None:
    page = referee_page(golden) if viewer == "referee" else side_page(redact_log(golden, viewer))  # type: ignore[arg-type]
    told = [
        (
            f"{s.number}. [round {s.before.round}, turn {s.before.turns_in_round}] "
            f"{command_line(s.before, s.entry.command, viewer)}",  # type: ignore[arg-type]
            tuple(event_lines(s.before, s.entry.events, viewer)),  # type: ignore[arg-type]
        )
        for s in steps(golden)
    ]
    assert list(page.entries) == told


def test_the_page_is_self_contained(heroes_page: Page) -> None:
    html = page_html(heroes_page)
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\((?!#)", html)
    assert set(re.findall(r"https?://[\w./-]*", html)) == {"http://www.w3.org/2000/svg"}
    data = re.search(r'<script type="application/json" id="mv-data">(.*?)</script>', html, re.S)
    assert data is not None
    decoded = json.loads(data.group(1))
    assert len(decoded["frames"]) == len(heroes_page.frames)


def test_a_closing_script_tag_in_a_name_cannot_end_the_data_early() -> None:
    page = Page("t", "spectator", ("</script><b>x</b>",), (), ())
    html = page_html(page)
    assert html.count("</script>") == 2
    assert "\\u003c/script>" in html


def test_the_panels_show_round_initiative_coins_activation_and_score(heroes_page: Page) -> None:
    panels = "".join(heroes_page.pool[i] for i in heroes_page.frames[60].panels)
    assert "Round 3 of 6" in panels and "Initiative:" in panels
    assert "Heroes (Bot 2)</span> (you)" in panels and "8 (hidden)" in panels
    assert "Activation 11" in panels and "reaction: selected in secret" in panels
    assert "Characters left" in panels and "Smoke Vent" in panels
    last = "".join(heroes_page.pool[i] for i in heroes_page.frames[-1].panels)
    assert "The match is over" in last and "Result" in last


def test_the_result_line_gives_the_win_condition_in_the_rules_words() -> None:
    log = read_log(REPLAYS / "banner-knight--black-goblins--standard.jsonl")
    page = referee_page(log)
    last = "".join(page.pool[i] for i in page.frames[-1].panels)
    text, _ = WIN_CONDITIONS["the-goblins-plunder"]
    assert "after round 6: " + text[:1].lower() + text[1:].rstrip(".") in last
    assert "the-goblins-plunder" not in last and "goblins plunder" not in last


# --- perspective ------------------------------------------------------------------------


def secret_match(entries: int) -> MatchLog:
    """An unfinished match with real salts, between random bots."""
    settings = MatchSettings(
        heroes="witch-hunters",
        adversaries="swartzblak",
        seed=5,
        salts="secrets",
        variants=("secret-schemes",),
    )
    state = start_match(settings)
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    log: list[LogEntry] = []
    while len(log) < entries:
        seat = decider_seat(state)
        command = salted(command_for(bots[seat], state, seat), settings)
        state, events = apply(state, command)
        log.append(LogEntry(command=command, events=events))
    return MatchLog(header=new_header(settings), entries=tuple(log))


def _salts(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "salt" and isinstance(item, str) and item:
                yield item
            else:
                yield from _salts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _salts(item)


@pytest.mark.parametrize("side", ["heroes", "adversaries"])
def test_a_side_s_page_of_an_unfinished_secret_match_holds_nothing_its_view_log_lacks(
    side: Side, tmp_path: Path
) -> None:
    full = secret_match(130)
    # Cut the match right after the opponent's last selection, still hidden from this side.
    cut = max(
        i
        for i, e in enumerate(full.entries)
        if any(isinstance(x, CoinsSelected) and x.side != side for x in e.events)
    )
    log = MatchLog(header=full.header, entries=full.entries[: cut + 1])
    (hidden,) = (e for e in log.entries[-1].events if isinstance(e, CoinsSelected))
    match_path = tmp_path / "match.jsonl"
    match_path.write_bytes(encode_log(log))
    runner = CliRunner()
    html = runner.invoke(app, ["replay", str(match_path), "--format", "html", "--as", side]).output
    view_path = tmp_path / "view.jsonl"
    view_path.write_bytes(
        runner.invoke(
            app, ["replay", str(match_path), "--format", "log", "--as", side]
        ).stdout_bytes
    )
    view_log = read_view_log(view_path)
    # The page of the match log is the page of the side's view log: it is made from that alone.
    assert html == page_html(side_page(view_log))
    every_salt = set(_salts(msgspec.to_builtins(log)))
    known = set(_salts(msgspec.to_builtins(view_log)))
    assert every_salt - known  # the other side's salts exist, hidden from this side
    assert not [salt for salt in every_salt if salt in html]  # no salt at all is shown
    for secret in replay(log).secrets:
        if secret.side != side and not secret.revealed:
            assert f"{secret.side.capitalize()} {secret.name}: chosen in secret" in html
    page = side_page(view_log)
    now = "".join(page.pool[i] for i in page.frames[-1].panels) + str(page.entries[-1])
    unit = next(u.name for u in replay(log).units if u.id == coin_unit(hidden.coin))
    assert "coins selected in secret" in now
    assert f"{unit} ({coin_colour(hidden.coin)} coin)" not in now


def test_the_spectator_is_the_default_and_the_referee_only_when_asked(tmp_path: Path) -> None:
    runner = CliRunner()
    default = runner.invoke(app, ["replay", str(GOLDEN), "--format", "html"])
    assert default.exit_code == 0
    assert "as the public (spectator)" in default.output
    referee = runner.invoke(app, ["replay", str(GOLDEN), "--format", "html", "--as", "referee"])
    assert "as the referee" in referee.output


# --- the command ------------------------------------------------------------------------


def test_format_html_writes_the_page_to_out(tmp_path: Path) -> None:
    out = tmp_path / "match.html"
    result = CliRunner().invoke(
        app, ["replay", str(GOLDEN), "--format", "html", "--as", "heroes", "--out", str(out)]
    )
    assert result.exit_code == 0 and result.output == ""
    page = side_page(redact_log(read_log(GOLDEN), "heroes"))
    assert out.read_text(encoding="utf-8") == page_html(page)


def test_a_view_log_s_page_is_its_viewer_s_page(tmp_path: Path) -> None:
    view_log = tmp_path / "heroes.jsonl"
    view_log.write_bytes(encode_view_log(redact_log(read_log(GOLDEN), "heroes")))
    from_view = CliRunner().invoke(app, ["replay", str(view_log), "--format", "html"])
    from_match = CliRunner().invoke(
        app, ["replay", str(GOLDEN), "--format", "html", "--as", "heroes"]
    )
    assert from_view.exit_code == 0 and from_view.output == from_match.output
    refused = CliRunner().invoke(
        app, ["replay", str(view_log), "--format", "html", "--as", "referee"]
    )
    assert refused.exit_code == 2
    public = CliRunner().invoke(
        app, ["replay", str(view_log), "--format", "html", "--as", "spectator"]
    )
    assert (
        public.output == CliRunner().invoke(app, ["replay", str(GOLDEN), "--format", "html"]).output
    )


def test_format_svg_writes_the_board_at_entry_n(golden: MatchLog) -> None:
    result = CliRunner().invoke(app, ["replay", str(GOLDEN), "--format", "svg", "--to", "40"])
    assert result.exit_code == 0
    assert result.output.startswith("<svg") and result.output.endswith("</svg>")
    state = list(states(golden))[40]
    assert figure_squares(result.output) == expected_squares(state)


def test_out_with_another_format_or_an_unwritable_file_is_a_one_line_error(tmp_path: Path) -> None:
    runner = CliRunner()
    wrong = runner.invoke(app, ["replay", str(GOLDEN), "--format", "json", "--out", "x.json"])
    assert wrong.exit_code == 2 and len(wrong.output.strip().splitlines()) == 1
    bad = runner.invoke(
        app, ["replay", str(GOLDEN), "--format", "svg", "--out", str(tmp_path / "no" / "b.svg")]
    )
    assert bad.exit_code == 1 and "cannot write" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_names_from_a_sheet_are_escaped_in_the_page_and_the_board(golden: MatchLog) -> None:
    hostile = "<script>alert(1)</script> & Co"

    def renamed(event: Event) -> Event:
        match event:
            case TeamsChosen(units=units):
                units = tuple(msgspec.structs.replace(u, name=hostile) for u in units)
                return msgspec.structs.replace(event, units=units)
            case BoardSetUp(figures=figures):
                figures = tuple(msgspec.structs.replace(f, name=hostile) for f in figures)
                tiles = tuple(
                    msgspec.structs.replace(t, terrain=hostile) for t in event.board.tiles
                )
                board = msgspec.structs.replace(event.board, tiles=tiles)
                return msgspec.structs.replace(event, figures=figures, board=board)
            case _:
                return event

    entries = tuple(
        msgspec.structs.replace(e, events=tuple(renamed(x) for x in e.events))
        for e in golden.entries
    )
    page = referee_page(MatchLog(header=golden.header, entries=entries))
    html = page_html(page)
    assert hostile not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in html
    ET.fromstring(page.board_svg(len(entries)))  # still well-formed XML


@pytest.mark.parametrize("viewer", ["adversaries", "spectator"])
def test_the_event_list_reads_as_the_terminal_replay_prints_it(viewer: str) -> None:
    printed = CliRunner().invoke(
        app, ["replay", str(GOLDEN), "--as", viewer, "--format", "text", "--to", "120"]
    )
    assert printed.exit_code == 0
    transcript = printed.output.split("\nAfter entry 120 of")[0].splitlines()
    page = side_page(redact_log(read_log(GOLDEN), viewer))  # type: ignore[arg-type]
    listed = [
        line for head, lines in page.entries[:120] for line in (head, *(f"   {x}" for x in lines))
    ]
    assert listed == transcript


def test_terrain_pieces_are_drawn_as_terrain(heroes_page: Page) -> None:
    root = ET.fromstring(heroes_page.board_svg(len(heroes_page.frames) - 1))
    pieces = [g for g in root.iter(f"{SVG}g") if "mv-terrain" in g.attrib.get("class", "")]
    assert {g.attrib["data-figure"] for g in pieces} == {"clouds-1", "clouds-2"}
    for g in pieces:
        rect = g.find(f"{SVG}rect")
        assert rect is not None and rect.attrib["fill"] == "#7e22ce"
        assert g.attrib["data-condition"] == "terrain"


def test_the_referee_page_shows_both_stashes_and_every_selection(golden: MatchLog) -> None:
    page = referee_page(golden)
    for k, state in enumerate(states(golden)):
        act = state.activation
        if act is None or act.reaction_revealed or act.reaction_coin is None:
            continue
        panels = "".join(page.pool[i] for i in page.frames[k].panels)
        assert "(hidden)" not in panels and "in secret" not in panels
        assert "(not revealed yet)" in panels.split("reaction: ")[1]
        return
    pytest.fail("no activation with a hidden reactive selection")
