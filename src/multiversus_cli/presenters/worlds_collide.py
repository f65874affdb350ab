"""worlds-collide's looks (:class:`~multiversus_cli.presenters.Presenter`): its transcript and
board in the terminal (:mod:`.worlds_collide_text`), its terminal match
(:mod:`.worlds_collide_play`), its HTML replay page and SVG board (:mod:`.worlds_collide_html`),
and how two of its states differ (:mod:`.worlds_collide_diff`)."""

from __future__ import annotations

from typing import Any, Final

from rich.console import Console, RenderableType

from multiversus_cli import simulate_any
from multiversus_cli.differences import Found
from multiversus_cli.play_any import PlayRequest, Terminal
from multiversus_cli.presenters import (
    Folded,
    Presenter,
    worlds_collide_diff,
    worlds_collide_html,
    worlds_collide_play,
    worlds_collide_text,
)
from multiversus_cli.simulating import Plan, SimulateRequest
from multiversus_core.rulesets.worlds_collide.model import WorldsState
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET


class WorldsPresenter:
    """worlds-collide's looks (:class:`~multiversus_cli.presenters.Presenter`)."""

    def entry(self, folded: Folded, number: int, viewer: str) -> tuple[str, tuple[str, ...]]:
        """The entry in the game's words: the round and turn, who gave what, what followed."""
        return worlds_collide_text.entry_told(folded, number)

    def board(
        self, folded: Folded, position: int, viewer: str, *, result: bool = True
    ) -> RenderableType:
        """The map with its legend and the models on it, the environment, the objectives, and
        each side's AP, VP and models (:func:`.worlds_collide_text.board`)."""
        return worlds_collide_text.board(folded.states[position], viewer, result=result)

    def progress(self, folded: Folded, position: int) -> tuple[int, int]:
        """The round (0: before the first) and the turn in it (an activation or a pass)."""
        return worlds_collide_text.progress(folded.log.entries, position, folded.states[position])

    def page(self, folded: Folded, viewer: str, to: int) -> str:
        """The HTML replay with the SVG board (:mod:`.worlds_collide_html`)."""
        return worlds_collide_html.page(folded, viewer, to)

    def picture(self, folded: Folded, viewer: str, to: int) -> str:
        """The board after entry ``to``, as one SVG document."""
        return worlds_collide_html.picture(folded, viewer, to)

    def differences(self, a: WorldsState, b: WorldsState) -> tuple[Found, ...]:
        """Field by field, models and sides one by one (:mod:`.worlds_collide_diff`)."""
        return worlds_collide_diff.state_differences(a, b)

    def difference(self, found: Found, state: WorldsState, other: WorldsState | None = None) -> str:
        """In the game's words: squares by name, models by name."""
        return worlds_collide_diff.difference_line(found, state)

    def play(self, out: Console, err: Console, game: str, request: PlayRequest) -> int:
        """The board before each decision, short menus, ``?`` for the odds
        (:mod:`.worlds_collide_play`)."""
        return worlds_collide_play.play_request(out, err, request)

    def terminal(self) -> Terminal:
        """The board before each decision, short menus, ``?`` for the odds, as at ``play``
        (:class:`.worlds_collide_play.WorldsTerminal`)."""
        return worlds_collide_play.WorldsTerminal()

    def explain(
        self, state: WorldsState, seat: int, legal: Any, chosen: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The odds of the menu after ``chosen``, as its ``?`` gives them
        (:meth:`.worlds_collide_play.WorldsMenus.odds`)."""
        return worlds_collide_play.odds(state, seat, legal, chosen)

    def plan(self, game: str, request: SimulateRequest) -> Plan:
        """Its bots rotated over the seats (:mod:`multiversus_cli.simulate_any`)."""
        return simulate_any.plan_for(RULESET, request)


PRESENTER: Final = WorldsPresenter()
"""worlds-collide's presenter, as :mod:`multiversus_cli.presenters` finds it."""

_CONFORMS: Final[Presenter] = PRESENTER
