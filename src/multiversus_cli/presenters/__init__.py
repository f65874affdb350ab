"""How each game's matches look: what the commands ask of a game besides its ruleset.

``replay``, ``diff``, ``play`` and ``simulate`` work for every game through the game's
ruleset and one :class:`Presenter`: an entry told in words, the board (or
the view) after it, how a match is counted in rounds and turns for
stepping, one HTML page to step through, a picture of the board if the game
draws one, how two states differ, a match played at the terminal, a seat of a match
played elsewhere decided at the terminal (``join``), and the grid
``simulate`` plays. A game
without a presenter of its own gets :class:`Plain`: the match told in the
ruleset's words (``describe_command``, ``narrate``) and the viewer's view as
JSON. Multiversus' presenter draws its board (:mod:`.multiversus`), and so do tiles-d6's
(:mod:`.tiles_d6`) and worlds-collide's (:mod:`.worlds_collide`). Another
package offers its game's presenter through the ``multiversus.presenters``
entry point group, named by the game's id (``"module:attribute"`` of an
object with the members of :class:`Presenter`); entry points are read only
for a game that has no bundled presenter.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any, Final, Protocol

from rich.console import Console, Group, RenderableType
from rich.text import Text

from multiversus_cli import html_any, play_any, simulate_any, transcript
from multiversus_cli.differences import Found, field_differences, field_line, words
from multiversus_cli.play_any import PlayRequest, Terminal
from multiversus_cli.simulating import Plan, SimulateRequest
from multiversus_core.engine.log import MatchLog, starting_state
from multiversus_core.engine.registry import AnyRuleset, load_ruleset
from multiversus_core.engine.render import renderer_of
from multiversus_core.engine.ruleset import REFEREE

ENTRY_POINT_GROUP: Final = "multiversus.presenters"
"""The entry point group through which other packages offer their game's presenter."""

BUNDLED: Final[dict[str, str]] = {
    "multiversus": "multiversus_cli.presenters.multiversus:PRESENTER",
    "tiles-d6": "multiversus_cli.presenters.tiles_d6:PRESENTER",
    "worlds-collide": "multiversus_cli.presenters.worlds_collide:PRESENTER",
}
"""The presenters this program brings, by game id: ``"module:attribute"``."""


@dataclass(frozen=True)
class Folded:
    """A checked log with the referee's state before its first entry and after each: what a
    presenter draws from. Never show a state but through the game's views."""

    ruleset: AnyRuleset
    log: MatchLog
    states: tuple[Any, ...]
    """Position 0 is before the first entry; position ``k`` is after entry ``k``."""

    @classmethod
    def of(cls, log: MatchLog) -> Folded:
        """Fold a log whose events are known to follow each other (read and verified)."""
        ruleset = load_ruleset(log.game)
        state = starting_state(log)
        states = [state]
        for entry in log.entries:
            state = ruleset.fold(state, entry.events)
            states.append(state)
        return cls(ruleset, log, tuple(states))

    @property
    def count(self) -> int:
        """The number of entries in the log."""
        return len(self.log.entries)


class Presenter(Protocol):
    """One game's looks, as the commands ask for them."""

    def entry(self, folded: Folded, number: int, viewer: str) -> tuple[str, tuple[str, ...]]:
        """Entry ``number`` (1-based) as ``viewer`` knew it: its head line (``"12. [round 2,
        turn 1] ..."``: the number, where the match stood, who gave what), then a line per
        event worth telling."""
        ...

    def board(
        self, folded: Folded, position: int, viewer: str, *, result: bool = True
    ) -> RenderableType:
        """The match at ``position`` (0: before the first entry) as ``viewer`` may see it;
        ``result=False`` leaves out a result the transcript just told."""
        ...

    def progress(self, folded: Folded, position: int) -> tuple[int, int] | None:
        """The round and the turn in it at ``position``, to step by them; None for a game
        that is not played in rounds and turns."""
        ...

    def page(self, folded: Folded, viewer: str, to: int) -> str:
        """One self-contained HTML page to step through the first ``to`` entries as ``viewer``
        knew them."""
        ...

    def picture(self, folded: Folded, viewer: str, to: int) -> str | None:
        """The board after entry ``to`` as ``viewer`` may see it, as one SVG document; None for
        a game that draws no picture."""
        ...

    def differences(self, a: Any, b: Any) -> tuple[Found, ...]:
        """How two referee states of the game differ, for ``diff``: one ``{"field": name,
        "a": ..., "b": ...}`` (JSON values) per difference, or finer ones a game chooses."""
        ...

    def difference(self, found: Found, state: Any, other: Any | None = None) -> str:
        """One of :meth:`differences`, in a line; ``state`` (a state after the entry that
        differs) names what the values refer to, and ``other`` (the other log's state, if
        any) what ``state`` does not know: both sides' figures and coins by their names."""
        ...

    def play(self, out: Console, err: Console, game: str, request: PlayRequest) -> int:
        """Play the match of ``game`` that ``multiversus play`` asks for at the terminal;
        return the exit code (:mod:`multiversus_cli.play`)."""
        ...

    def terminal(self) -> Terminal:
        """How a person decides for one seat at the terminal when the match is played
        elsewhere (``multiversus join``): the game's own screens and menus, as ``play`` gives
        them, drawn from the state the seat's view log fills in. A fresh one for each match."""
        ...

    def explain(
        self, state: Any, seat: int, legal: Any, chosen: tuple[str, ...]
    ) -> tuple[str, ...]:
        """What ``?`` says at the terminal of the decision ``seat`` faces in ``state`` (a state
        filled in from the seat's view log): ``legal`` its legal commands, ``chosen`` the keys
        chosen so far when they are a tree of choices. A line each; () when ``?`` says
        nothing."""
        ...

    def plan(self, game: str, request: SimulateRequest) -> Plan:
        """The grid of bot matches of ``game`` that ``multiversus simulate`` asks for, and how
        to run, record and summarise it (:mod:`multiversus_cli.simulating`).

        :raises UsageError: for options that make no grid of the game.
        """
        ...


class Plain:
    """Any game's looks, through its ruleset alone: the match in the ruleset's words, the board
    its renderer draws (if it has one), and the viewer's view (the referee's state) as JSON."""

    def entry(self, folded: Folded, number: int, viewer: str) -> tuple[str, tuple[str, ...]]:
        """The entry told by the ruleset, redacted for ``viewer``."""
        ruleset, before = folded.ruleset, folded.states[number - 1]
        told = transcript.tell(
            ruleset, folded.log.header.settings, before, folded.log.entries[number - 1], viewer
        )
        return f"{number}. {told.command}", told.events

    def board(
        self, folded: Folded, position: int, viewer: str, *, result: bool = True
    ) -> RenderableType:
        """The outcome, once there is one (the ruleset's own words may not tell the result),
        the board its renderer draws in text from the view, if any, then the view as JSON."""
        ruleset, state = folded.ruleset, folded.states[position]
        parts: list[RenderableType] = []
        outcome = ruleset.outcome(state)
        if outcome is not None:
            parts.append(Text(f"The match is over: {outcome.reason}."))
        looks = renderer_of(ruleset)
        drawn = (
            None
            if looks is None or viewer == REFEREE
            else looks.board_text(ruleset.view(state, viewer))
        )
        if drawn is not None:
            parts.append(Text(drawn))
        parts.append(Text(transcript.shown_state(ruleset, state, viewer).decode()))
        return parts[0] if len(parts) == 1 else Group(*parts)

    def progress(self, folded: Folded, position: int) -> tuple[int, int] | None:
        """None: a game is not known to be played in rounds and turns."""
        return None

    def page(self, folded: Folded, viewer: str, to: int) -> str:
        """Every entry in the ruleset's words, the view as JSON beside it
        (:mod:`multiversus_cli.html_any`)."""
        return html_any.page_html(folded.ruleset, folded.log, viewer, to)

    def picture(self, folded: Folded, viewer: str, to: int) -> str | None:
        """The board the game's renderer draws from ``viewer``'s view
        (:mod:`multiversus_core.engine.render`); None without a renderer, for a game without
        a board, and for the referee, who has no view to draw from."""
        looks = renderer_of(folded.ruleset)
        if looks is None or viewer == REFEREE:
            return None
        return looks.board_svg(folded.ruleset.view(folded.states[to], viewer))

    def differences(self, a: Any, b: Any) -> tuple[Found, ...]:
        """The states' top-level fields that differ."""
        return field_differences(a, b)

    def difference(self, found: Found, state: Any, other: Any | None = None) -> str:
        """The values in words, or as JSON when short."""
        return field_line(found, words, records=True)

    def play(self, out: Console, err: Console, game: str, request: PlayRequest) -> int:
        """Each seat's legal commands by number, bots at theirs
        (:mod:`multiversus_cli.play_any`)."""
        return play_any.play_request(out, err, game, request)

    def terminal(self) -> Terminal:
        """The legal commands by number (:data:`multiversus_cli.play_any.BY_NUMBER`)."""
        return play_any.BY_NUMBER

    def explain(
        self, state: Any, seat: int, legal: Any, chosen: tuple[str, ...]
    ) -> tuple[str, ...]:
        """Nothing: ``?`` means nothing at a game's terminal that lists commands by number."""
        return ()

    def plan(self, game: str, request: SimulateRequest) -> Plan:
        """Its bots rotated over the seats (:mod:`multiversus_cli.simulate_any`)."""
        return simulate_any.plan_for(load_ruleset(game), request)


PLAIN: Final = Plain()


def viewers(ruleset: AnyRuleset) -> tuple[str, ...]:
    """Everyone a match may be shown as: the game's viewers, then the referee."""
    return (*ruleset.viewers, REFEREE)


@functools.cache
def presenter_for(game: str) -> Presenter:
    """The presenter of the game ``game``: bundled, offered by a package, or :data:`PLAIN`."""
    target = BUNDLED.get(game)
    if target is None:
        from importlib import metadata  # only for a game without a bundled presenter: start-up

        points = metadata.entry_points(group=ENTRY_POINT_GROUP, name=game)
        target = next((point.value for point in points), None)
    if target is None:
        return PLAIN
    module, _, attribute = target.partition(":")
    found: Presenter = getattr(importlib.import_module(module), attribute)
    return found


__all__ = [
    "BUNDLED",
    "ENTRY_POINT_GROUP",
    "PLAIN",
    "Folded",
    "Plain",
    "Presenter",
    "presenter_for",
    "viewers",
]
