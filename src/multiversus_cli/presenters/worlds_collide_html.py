"""worlds-collide's HTML replay page and SVG board, drawn from one viewer's view.

:func:`picture` draws the board after an entry with the core's
:func:`~multiversus_core.rulesets.worlds_collide.render.board_svg`, the entry's deployments,
moves and attacks drawn over it. :func:`page` steps through a match with the replay
page any game uses (:mod:`multiversus_cli.replay_page`): each entry in the
game's words, the board after it, where the match stands (the round, the
environment and what it does, each side's AP and VP), a roster table, and the
result once there is one.

Every position is read through the ruleset's one door, its view (the
referee sees the state itself); nothing is hidden in this game (W20) but the
chance seed, which nothing here reads.
"""

from __future__ import annotations

from html import escape
from typing import Final

from multiversus_cli import replay_page
from multiversus_cli.presenters import Folded
from multiversus_cli.presenters.worlds_collide_text import (
    entry_told,
    environment_line,
    progress,
    roll_line,
    shown_state,
    status,
)
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
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.worlds_collide.model import (
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.render import (
    board_parts,
    board_svg,
    heading,
    highlight,
    labels,
)

# --- the panels -------------------------------------------------------------------------------


def _seat(seen: WorldsState, seat: Seat) -> str:
    return seat_html("wc", seen.settings.players, seat)


def status_html(seen: WorldsState) -> str:
    """Where the match stands: the round and whose activation, the environment and what it
    does, the roll awaiting a re-roll decision, each side's AP and VP and whether it is out of
    the round, and the result once the match is over, as HTML."""
    head = heading(seen)
    out = [f'<p class="wc-status"><b>{escape(head[0].upper() + head[1:])}</b></p>']
    if seen.round:
        out.append(f'<p class="wc-environment">{escape(environment_line(seen))}</p>')
    if seen.activation is not None and seen.activation.roll is not None:
        out.append(f'<p class="wc-roll">{escape(roll_line(seen))}</p>')
    sides = []
    for seat in (1, 2):
        side = seen.sides[seat - 1]
        out_of = ", out of the round" if seen.phase == "activations" and side.out else ""
        sides.append(f"{_seat(seen, seat)}: {side.ap} AP, {side.vp} VP{out_of}")
    out.append(f'<p class="wc-sides">{" · ".join(sides)}</p>')
    if seen.phase == "over":
        out.append(result_html("wc", seen.settings.players, seen.winner, seen.reason))
    return "".join(out)


def roster_parts(seen: WorldsState) -> list[str]:
    """Every model, seat 1's first, as a table: a row per model (its token's label, its name,
    square, HP, training and status) between the table's head and end."""
    short = labels(seen.models)
    headers = ("Token", "Model", "Square", "HP", "Training", "Status")
    parts = [roster_head("wc", "Models", seen.settings.players, headers)]
    for model in seen.models:
        at = "—" if model.at is None else square(model.at)
        kind = model.kind
        training = kind.training + (f", leader {kind.leadership}" if kind.is_leader else "")
        cells = (escape(model.name), at, f"{max(model.hp, 0)}/{kind.hp}", escape(training))
        status_ = status(seen, model) or "—"
        row = roster_row("wc", "model", model.id, model.seat, short[model.id], (*cells, status_))
        parts.append(row)
    parts.append("</table>")
    return parts


_PAGE_STYLE: Final = panel_style("wc")
"""The seats' colours and the roster table."""


# --- the presenter's two members --------------------------------------------------------------


def page(folded: Folded, viewer: str, to: int) -> str:
    """One self-contained HTML page stepping through the first ``to`` entries as ``viewer``
    knew them: each entry in the game's words, then the board, where the match stands and the
    roster after it.

    :raises ValueError: for a viewer the game does not have.
    """

    def frame(pool: Pool, k: int, told: Told) -> replay_page.Frame:
        seen = shown_state(folded.states[k], viewer)
        change = None
        if k:
            before = shown_state(folded.states[k - 1], viewer)
            change = highlight(before, folded.log.entries[k - 1].events)
        panels = (entry_html(*told, "wc-entry"), status_html(seen), *roster_parts(seen))
        return pool.frame(board_parts(seen, change), panels)

    seen = shown_state(folded.states[0], viewer)
    names = " v ".join(seen.settings.players)
    title = (
        f"worlds-collide replay: {names} on {seen.game_map.name}, as "
        f"{viewer_words(seen.settings.players, viewer)}"
    )
    return replay_page.stepped_page(
        title,
        viewer,
        to,
        lambda number: entry_told(folded, number),
        frame,
        _PAGE_STYLE,
        laid_out=lambda k: _laid_out(shown_state(folded.states[k], viewer)),
        progress=lambda k: progress(folded.log.entries, k, folded.states[k]),
    )


def _laid_out(seen: WorldsState) -> bool:
    """Whether every model is deployed on the board."""
    return bool(seen.models) and all(m.at is not None for m in seen.models)


def picture(folded: Folded, viewer: str, to: int) -> str:
    """The board after entry ``to`` (0: before the first) as ``viewer`` may see it, as one
    SVG document, that entry's deployments, moves and attacks drawn over it.

    :raises ValueError: for a viewer the game does not have.
    """
    seen = shown_state(folded.states[to], viewer)
    if to == 0:
        return board_svg(seen)
    before = shown_state(folded.states[to - 1], viewer)
    return board_svg(seen, highlight(before, folded.log.entries[to - 1].events))


__all__ = ["page", "picture", "roster_parts", "status_html"]
