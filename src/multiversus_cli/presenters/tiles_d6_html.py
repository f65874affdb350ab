"""tiles-d6's HTML replay page and SVG board, drawn from one viewer's view.

:func:`picture` draws the board after an entry with the core's
:func:`~multiversus_core.rulesets.tiles_d6.render.board_svg`, the entry's steps,
attacks and shots drawn over it.
:func:`picture` draws the board after an entry: every tile by its kind (T7)
with a legend, files lettered and ranks numbered as players name tiles
(:func:`~multiversus_core.rulesets.tiles_d6.words.square`), the set-up halves
while units are placed (T27), every unit as a token in its seat's colour
with a short label, a prone unit lying flat, Stunned and Concussed marked,
lost health as a bar, units off the board (not placed yet, or Injured) in
a strip below, and the entry's steps, attacks and shots drawn over it.
:func:`page` steps through a match with the replay page any game uses
(:mod:`multiversus_cli.replay_page`): each entry in the ruleset's words
(:mod:`multiversus_cli.transcript`), the board after it, where the match
stands, a roster table, and the result once there is one.

Every position is read through the ruleset's one door, :func:`view` (the
referee sees the state itself); nothing is hidden in this game (T28) but
the chance seed, which nothing here reads.
"""

from __future__ import annotations

from html import escape
from typing import Final

from multiversus_cli import replay_page, transcript
from multiversus_cli.presenters import Folded
from multiversus_cli.presenters.tiles_d6_text import progress
from multiversus_cli.replay_page import (
    Pool,
    Told,
    entry_html,
    panel_style,
    result_html,
    roster_head,
    roster_row,
    seat_html,
    viewer_words,
)
from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.ruleset import REFEREE, Seat
from multiversus_core.rulesets.tiles_d6.content import find_map
from multiversus_core.rulesets.tiles_d6.model import TilesState
from multiversus_core.rulesets.tiles_d6.render import (
    Highlight,
    board_parts,
    board_svg,
    highlight,
    labels,
    posture,
    roster_number,
    statuses,
    where_words,
)
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET
from multiversus_core.rulesets.tiles_d6.words import unit_name

# --- what the board is drawn from -------------------------------------------------------------


def seen_state(state: TilesState, viewer: str) -> TilesState:
    """The match as ``viewer`` may know it: its view (the state itself for the referee).

    :raises ValueError: for a viewer the game does not have.
    """
    return state if viewer == REFEREE else RULESET.view(state, viewer).state


# --- the panels -------------------------------------------------------------------------------


def _seat(seen: TilesState, seat: Seat) -> str:
    return seat_html("tiles", seen.settings.players, seat)


def status_html(seen: TilesState) -> str:
    """Where the match stands: the round and whose turn, the action under way, the injuries
    each seat has made (T3, T38), and the result once the match is over, as HTML."""
    words = [f"<b>{escape(where_words(seen)[0].upper() + where_words(seen)[1:])}</b>"]
    if seen.phase == "play" and seen.active is not None:
        words.append(f"turn {seen.turn} of the match · units acted: {len(seen.acted)}")
    if seen.action is not None:
        action = seen.action
        doing = "charging" if action.charge else "moving"
        left = f"{action.points} point{'s' if action.points != 1 else ''} left"
        words.append(f"{escape(unit_name(seen, action.unit))} is {doing}, {left}")
    if seen.first is not None:
        words.append(f"player one: {_seat(seen, seen.first)}")
    injured = " · ".join(f"{_seat(seen, s)} {seen.injured[s - 1]}" for s in (1, 2))
    words.append(f"enemy units injured: {injured}")
    out = [f'<p class="tiles-status">{" · ".join(words)}</p>']
    if seen.phase == "over":
        out.append(result_html("tiles", seen.settings.players, seen.winner, seen.reason))
    return "".join(out)


def roster_parts(seen: TilesState) -> list[str]:
    """Every unit, seat 1's first, as a table: a row per unit (its token's label, its name,
    tile, health, posture and statuses) between the table's head and end."""
    short = labels(seen.units)
    headers = ("Token", "Unit", "Tile", "Health", "Posture", "Statuses")
    parts = [roster_head("tiles", "Units", seen.settings.players, headers)]
    for unit in seen.units:
        off = "injured" if unit.injured else "not placed"
        at = off if unit.at is None else square(unit.at)
        marks = [*statuses(unit)] + (["acted"] if unit.id in seen.acted else [])
        number = roster_number(unit)
        name = unit.stats.name + (f" {number}" if number else "")
        health = f"{max(unit.health, 0)}/{unit.stats.health}"
        cells = (escape(name), at, health, posture(unit), ", ".join(marks) or "—")
        parts.append(roster_row("tiles", "unit", unit.id, unit.seat, short[unit.id], cells))
    parts.append("</table>")
    return parts


def roster_html(seen: TilesState) -> str:
    """The roster table (:func:`roster_parts`, joined)."""
    return "".join(roster_parts(seen))


_PAGE_STYLE: Final = panel_style("tiles")
"""The seats' colours and the roster table."""


# --- the presenter's two members --------------------------------------------------------------


def _change(folded: Folded, seen_before: TilesState, number: int, viewer: str) -> Highlight:
    events = folded.log.entries[number - 1].events
    if viewer == REFEREE:
        return highlight(seen_before, events)
    return highlight(seen_before, (RULESET.redact_event(e, viewer) for e in events))


def page(folded: Folded, viewer: str, to: int) -> str:
    """One self-contained HTML page stepping through the first ``to`` entries as ``viewer``
    knew them: each entry in the ruleset's words, then the board, where the match stands and
    the roster after it.

    :raises ValueError: for a viewer the game does not have.
    """
    settings = folded.log.header.settings

    def tell(number: int) -> Told:
        before = seen_state(folded.states[number - 1], viewer)
        entry = folded.log.entries[number - 1]
        said = transcript.tell(RULESET, settings, before, entry, viewer)
        return f"{number}. {said.command}", said.events

    def frame(pool: Pool, k: int, told: Told) -> replay_page.Frame:
        seen = seen_state(folded.states[k], viewer)
        change = None
        if k:
            change = _change(folded, seen_state(folded.states[k - 1], viewer), k, viewer)
        panels = (entry_html(*told, "tiles-entry"), status_html(seen), *roster_parts(seen))
        return pool.frame(board_parts(seen, change), panels)

    seen = seen_state(folded.states[0], viewer)
    names = " v ".join(seen.settings.players)
    game_map = find_map(seen.settings.map)
    on = game_map.name if game_map is not None else seen.settings.map
    title = f"tiles-d6 replay: {names} on {on}, as {viewer_words(seen.settings.players, viewer)}"
    return replay_page.stepped_page(
        title,
        viewer,
        to,
        tell,
        frame,
        _PAGE_STYLE,
        laid_out=lambda k: _laid_out(seen_state(folded.states[k], viewer)),
        progress=lambda k: progress(folded.states[k]),
    )


def _laid_out(seen: TilesState) -> bool:
    """Whether every unit stands on the board."""
    return bool(seen.units) and all(u.at is not None for u in seen.units)


def picture(folded: Folded, viewer: str, to: int) -> str:
    """The board after entry ``to`` (0: before the first) as ``viewer`` may see it, as one
    SVG document, that entry's steps, attacks and shots drawn over it.

    :raises ValueError: for a viewer the game does not have.
    """
    seen = seen_state(folded.states[to], viewer)
    if to == 0:
        return board_svg(seen)
    before = seen_state(folded.states[to - 1], viewer)
    return board_svg(seen, _change(folded, before, to, viewer))


__all__ = [
    "page",
    "picture",
    "roster_html",
    "roster_parts",
    "seen_state",
    "status_html",
]
