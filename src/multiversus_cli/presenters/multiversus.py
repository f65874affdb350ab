"""Multiversus' looks (:class:`~multiversus_cli.presenters.Presenter`): its transcript and board
in the terminal (:mod:`.multiversus_text`), its HTML replay page and SVG board
(:mod:`multiversus_cli.html`)."""

from __future__ import annotations

from typing import Any, Final

from rich.console import Console, RenderableType

from multiversus_cli.differences import Found
from multiversus_cli.guide import explain_decision
from multiversus_cli.html import Page, page_html, referee_page, side_page
from multiversus_cli.play_any import PlayRequest, Terminal
from multiversus_cli.presenters import (
    Folded,
    Presenter,
    multiversus_diff,
    multiversus_play,
    multiversus_simulate,
)
from multiversus_cli.presenters.multiversus_text import board, entry_head, event_lines
from multiversus_cli.simulating import Plan, SimulateRequest
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.viewlog import redact_log
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat
from multiversus_core.rulesets.multiversus.views import Viewer


class MultiversusPresenter:
    """Multiversus' looks (:class:`~multiversus_cli.presenters.Presenter`)."""

    def entry(self, folded: Folded, number: int, viewer: str) -> tuple[str, tuple[str, ...]]:
        """The entry in the replay's words (:func:`command_line`, :func:`event_lines`)."""
        before, entry = folded.states[number - 1], folded.log.entries[number - 1]
        who: Viewer = viewer  # type: ignore[assignment]  # one of the game's viewers
        head = entry_head(number, before, entry.command, who)
        return head, tuple(event_lines(before, entry.events, who))

    def board(
        self, folded: Folded, position: int, viewer: str, *, result: bool = True
    ) -> RenderableType:
        """The board as ``viewer`` sees it (:func:`board`)."""
        return board(folded.states[position], viewer, result=result)  # type: ignore[arg-type]

    def progress(self, folded: Folded, position: int) -> tuple[int, int]:
        """The round (0: the set-up) and the turns begun in it."""
        state: MatchState = folded.states[position]
        return state.round, state.turns_in_round

    def page(self, folded: Folded, viewer: str, to: int) -> str:
        """The HTML replay (:mod:`multiversus_cli.html`), built from the viewer's view log."""
        return page_html(_page(folded, viewer, to))

    def picture(self, folded: Folded, viewer: str, to: int) -> str:
        """The HTML replay's board after entry ``to``, as one SVG document."""
        return _page(folded, viewer, to).board_svg(to)

    def differences(self, a: MatchState, b: MatchState) -> tuple[Found, ...]:
        """Field by field, figures one by one (:mod:`.multiversus_diff`)."""
        return multiversus_diff.state_differences(a, b)

    def difference(self, found: Found, state: MatchState, other: MatchState | None = None) -> str:
        """In Multiversus' words: squares, conditions, and figures, units and coins by name,
        from either state."""
        return multiversus_diff.difference_line(found, state, other)

    def play(self, out: Console, err: Console, game: str, request: PlayRequest) -> int:
        """Multiversus' own menus, guide and board (:mod:`.multiversus_play`)."""
        return multiversus_play.play_request(out, err, request)

    def terminal(self) -> Terminal:
        """The board, the menus, typed moves, ``?`` and the letters any prompt takes, as at
        ``play`` (:class:`.multiversus_play.MultiversusTerminal`)."""
        return multiversus_play.MultiversusTerminal()

    def explain(
        self, state: MatchState, seat: int, legal: Any, chosen: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The decision explained in context, as ``?`` explains it
        (:func:`multiversus_cli.guide.explain_decision`)."""
        side: Seat = 1 if seat == 1 else 2
        return tuple(explain_decision(state, side, tuple(legal)).splitlines())

    def plan(self, game: str, request: SimulateRequest) -> Plan:
        """Each Hero team against each Adversary team under each variant set
        (:mod:`.multiversus_simulate`)."""
        return multiversus_simulate.plan_for(request)


def _page(folded: Folded, viewer: str, to: int) -> Page:
    # Built from the viewer's view log, never from the referee's states (but for the referee).
    cut = MatchLog(header=folded.log.header, entries=folded.log.entries[:to])
    return referee_page(cut) if viewer == "referee" else side_page(redact_log(cut, viewer))


PRESENTER: Final = MultiversusPresenter()
"""Multiversus' presenter, as :mod:`multiversus_cli.presenters` finds it."""

_CONFORMS: Final[Presenter] = PRESENTER
