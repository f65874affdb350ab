"""tiles-d6's looks (:class:`~multiversus_cli.presenters.Presenter`): its transcript and board
in the terminal (:mod:`.tiles_d6_text`), its terminal match (:mod:`.tiles_d6_play`), its HTML
replay page and SVG board (:mod:`.tiles_d6_html`), and how two of its states differ
(:mod:`.tiles_d6_diff`)."""

from __future__ import annotations

from typing import Any, Final

from rich.console import Console, RenderableType

from multiversus_cli import simulate_any
from multiversus_cli.differences import Found
from multiversus_cli.play_any import PlayRequest, Terminal
from multiversus_cli.presenters import (
    Folded,
    Presenter,
    tiles_d6_diff,
    tiles_d6_html,
    tiles_d6_play,
    tiles_d6_text,
)
from multiversus_cli.simulating import Plan, SimulateRequest
from multiversus_core.rulesets.tiles_d6.model import TilesState
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET


class TilesPresenter:
    """tiles-d6's looks (:class:`~multiversus_cli.presenters.Presenter`)."""

    def entry(self, folded: Folded, number: int, viewer: str) -> tuple[str, tuple[str, ...]]:
        """The entry in the game's words: where the match stood, who gave what, what followed."""
        before, entry = folded.states[number - 1], folded.log.entries[number - 1]
        head = tiles_d6_text.entry_head(number, before, entry.command)
        return head, tuple(tiles_d6_text.event_lines(before, entry.events))

    def board(
        self, folded: Folded, position: int, viewer: str, *, result: bool = True
    ) -> RenderableType:
        """The map with its legend, the units on it, and each unit's health, posture and
        statuses (:func:`.tiles_d6_text.board`)."""
        return tiles_d6_text.board(folded.states[position], viewer, result=result)

    def progress(self, folded: Folded, position: int) -> tuple[int, int]:
        """The round (0: the set-up) and the turn."""
        return tiles_d6_text.progress(folded.states[position])

    def page(self, folded: Folded, viewer: str, to: int) -> str:
        """The HTML replay with the SVG board (:mod:`.tiles_d6_html`)."""
        return tiles_d6_html.page(folded, viewer, to)

    def picture(self, folded: Folded, viewer: str, to: int) -> str:
        """The board after entry ``to``, as one SVG document."""
        return tiles_d6_html.picture(folded, viewer, to)

    def differences(self, a: TilesState, b: TilesState) -> tuple[Found, ...]:
        """Field by field, units one by one (:mod:`.tiles_d6_diff`)."""
        return tiles_d6_diff.state_differences(a, b)

    def difference(self, found: Found, state: TilesState, other: TilesState | None = None) -> str:
        """In the game's words: squares by name, units by name."""
        return tiles_d6_diff.difference_line(found, state)

    def play(self, out: Console, err: Console, game: str, request: PlayRequest) -> int:
        """The board before each decision, short menus, ``?`` for the odds
        (:mod:`.tiles_d6_play`)."""
        return tiles_d6_play.play_request(out, err, request)

    def terminal(self) -> Terminal:
        """The board before each decision, short menus, ``?`` for the odds, as at ``play``
        (:class:`.tiles_d6_play.TilesTerminal`)."""
        return tiles_d6_play.TilesTerminal()

    def explain(
        self, state: TilesState, seat: int, legal: Any, chosen: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The odds of the choices at hand, as the first menu's ``?`` gives them
        (:func:`.tiles_d6_play.menu_for`)."""
        return tiles_d6_play.menu_for(state, seat, legal).odds

    def plan(self, game: str, request: SimulateRequest) -> Plan:
        """Its bots rotated over the seats (:mod:`multiversus_cli.simulate_any`)."""
        return simulate_any.plan_for(RULESET, request)


PRESENTER: Final = TilesPresenter()
"""tiles-d6's presenter, as :mod:`multiversus_cli.presenters` finds it."""

_CONFORMS: Final[Presenter] = PRESENTER
