"""The browser client: one self-contained page (``page.html``: its script and style inline, no
file fetched from anywhere), and what the referee sends it that a browser cannot work out.

A page cannot run the engine, so the referee works out for it what ``multiversus join``
works out for itself, from the same thing: the seat's view log, filled in as the engine
fills view logs (:func:`~multiversus_core.engine.viewlog.filled_entries`), never the
referee's state. From that position it draws the seat's view with the game's renderer
(:func:`~multiversus_core.engine.render.renderer_of`), lists the seat's legal commands in
the game's words, and says where each is given on the board
(:func:`~multiversus_core.engine.render.pick_of`), or, for a tree of choices, where each
option is (:func:`~multiversus_core.engine.render.option_pick_of`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import cache
from importlib.resources import files
from typing import Any, Final

import msgspec

from multiversus_core.engine.choices import Ask, CommandTree, is_tree, listed
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import decode_record
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.render import (
    facts_html,
    facts_of,
    option_pick_of,
    pick_of,
    renderer_of,
)
from multiversus_core.engine.viewlog import (
    Filler,
    RedactedEntry,
    RedactedLog,
    UnfitEntry,
    ViewEndRecord,
    ViewEntryRecord,
    decode_view_log,
    filled_entries,
    view_records_for,
)
from multiversus_server.client import Verdict, log_text
from multiversus_server.protocol import (
    Asked,
    Checked,
    Choice,
    Option,
    Picked,
    Shown,
    encoder,
)


@cache
def page_html() -> str:
    """The browser client's page, as the package ships it."""
    return files("multiversus_server").joinpath("page.html").read_text(encoding="utf-8")


Explain = Callable[[str, Any, int, Any, tuple[str, ...]], tuple[str, ...]]
"""What ``?`` says at the terminal of a decision: given the game's id, the state filled in from
the seat's view log, the seat, its legal commands and the keys chosen so far in a tree of
choices, a line each. The program (``multiversus serve``) gives its presenters' words."""

KINDS: Final = "a view log's entry or end record"
"""What a line after a view log's header may be, for an error about one that is neither."""
MOST_LISTED: Final = 200
"""The most commands of a tree of choices a page is offered as one list; more are offered one
choice at a time (:class:`~multiversus_server.protocol.Asked`)."""


def position(lines: Sequence[str]) -> tuple[Any, RedactedLog, Any]:
    """The ruleset, the view log and the state a view log's ``lines`` fill in, as
    ``multiversus join`` fills them in.

    :raises LogError: if the lines do not read as a view log.
    """
    seen = decode_view_log(log_text(lines), "<view log>")
    ruleset: Any = load_ruleset(seen.game)
    state = Filler(seen).openings()[0]  # the game's start, or the position it names
    for entry, _ in filled_entries(seen, "<view log>"):
        state = ruleset.fold(state, entry.events)
    return ruleset, seen, state


class ViewPosition:
    """A view log's position kept as the log grows, the same as :func:`position` of the whole
    log (:meth:`of`): each new line is read, filled in and folded once, and an entry whose
    placeholder a new line reveals is filled in again from it on, so that a command costs
    what its new lines cost. The states before the earliest placeholder still waiting for
    its reveal are not kept."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._seen: RedactedLog | None = None
        self._entries: list[RedactedEntry[Any, Any]] = []
        self._filler: Filler | None = None
        self._base = 0
        """The index of the first entry whose states are kept."""
        self._inner: list[Any] = []
        """The state before each entry from :attr:`_base` on, and after the last, as
        :meth:`Filler.fill` folds it event by event."""
        self._outer: list[Any] = []
        """The same states as :func:`position` folds them, entry by entry."""

    def of(self, lines: Sequence[str]) -> tuple[Any, RedactedLog, Any]:
        """The ruleset, the view log and the state ``lines`` fill in (:func:`position`).

        :raises LogError: if the lines do not read as a view log.
        """
        known = len(self._lines)
        if not (known and len(lines) >= known and lines[known - 1] == self._lines[-1]):
            self._start(lines[:1])  # another log, or another viewer's: read it whole
        try:
            self._read(lines[len(self._lines) :])
        except (LogError, UnfitEntry, msgspec.ValidationError, ValueError):
            self._lines = []  # read the whole log again, next time
            return position(lines)  # raises the error a whole reading names
        assert self._seen is not None and self._filler is not None
        return self._filler.ruleset, self._seen, self._outer[-1]

    def _start(self, header: Sequence[str]) -> None:
        seen = decode_view_log(log_text(header), "<view log>")
        self._lines, self._seen, self._entries = list(header), seen, []
        self._filler = Filler(seen)
        first = self._filler.openings()[0]
        self._base, self._inner, self._outer = 0, [first], [first]

    def _read(self, new: Sequence[str]) -> None:
        assert self._seen is not None and self._filler is not None
        if not new:
            return
        filler, records = self._filler, view_records_for(self._seen.game)
        start = len(self._entries)
        refill = start
        for line in new:
            number = len(self._lines) + 1
            record = decode_record(line.encode(), number, 0, "<view log>", records.decoder, KINDS)
            if isinstance(record, ViewEndRecord):  # the end: the whole log read once, checked
                self._lines.append(line)
                whole = decode_view_log(log_text(self._lines), "<view log>")
                self._seen = msgspec.structs.replace(self._seen, chance=whole.chance)
                continue
            head = hashlib.sha256(self._lines[-1].encode()).hexdigest()
            index = len(self._entries)
            if not isinstance(record, ViewEntryRecord) or record.seq != index + 1:
                raise ValueError(f"line {number} is not entry {index + 1} of the view log")
            if record.prev != head:
                raise ValueError(f"line {number} does not chain to the line before it")
            entry: RedactedEntry[Any, Any] = RedactedEntry(
                command=record.command, events=record.events
            )
            self._entries.append(entry)
            self._lines.append(line)
            revealed = filler.pairing.add(index, entry)
            if revealed is not None:
                refill = min(refill, revealed)
        if refill < 0:  # a stand-in of the starting position revealed: it begins anew
            assert self._base == 0  # such a stand-in waits at -1: every state is kept
            self._inner[:] = self._outer[:] = [filler.openings()[0]]
            refill = 0
        self._fold(max(refill, self._base), start)
        self._seen = msgspec.structs.replace(self._seen, entries=tuple(self._entries))

    def _fold(self, since: int, start: int) -> None:
        """Fill in and fold the entries from ``since`` on (those from ``start`` are new)."""
        assert self._filler is not None
        filler, ruleset = self._filler, self._filler.ruleset
        keep = since - self._base + 1
        del self._inner[keep:], self._outer[keep:]
        for index in range(since, len(self._entries)):
            filled = filler.fill(index, self._entries[index], self._inner[-1])
            self._inner.append(filled.after)
            self._outer.append(ruleset.fold(self._outer[-1], filled.entry.events))
        oldest = filler.pairing.oldest_waiting()
        base = len(self._entries) if oldest is None else oldest
        if base > self._base:
            del self._inner[: base - self._base], self._outer[: base - self._base]
            self._base = base


def shown(
    lines: Sequence[str],
    seat: int | None,
    *,
    begun: bool,
    chosen: tuple[str, ...] = (),
    explain: Explain | None = None,
    at: ViewPosition | None = None,
) -> Shown:
    """What a page draws from a view log's ``lines``: the board and view of its viewer (the view
    also in words, :func:`~multiversus_core.engine.render.facts_html`), and,
    for a seat the match waits for, its legal commands (none before the match has ``begun``):
    listed, or the choice after the keys ``chosen`` of a tree too big to list, and what
    ``explain`` says of it. ``at`` keeps the position of the lines as they grow
    (:class:`ViewPosition`), the same as one read from them whole.

    :raises LogError: if the lines do not read as a view log.
    :raises ValueError: if ``chosen`` holds a key that was not an option.
    """
    ruleset, seen, state = position(lines) if at is None else at.of(lines)
    view = ruleset.view(state, seen.viewer)
    looks = renderer_of(ruleset)
    to_act = tuple(ruleset.to_act(state)) if begun else ()
    choices: list[Choice] = []
    asked: Asked | None = None
    odds: tuple[str, ...] = ()
    if seat is not None and seat in to_act:
        legal = ruleset.legal_commands(state, seat)
        if explain is not None:
            odds = explain(seen.game, state, seat, legal, chosen)
        every = listed(legal, MOST_LISTED) if not chosen else None
        if every is None:
            step = legal.ask(chosen)
            if isinstance(step, Ask):
                options = tuple(Option(o.key, o.label) for o in step.options)
                picks = _picks(legal, chosen, step, looks, view)
                asked = Asked(chosen, step.prompt, options, picks)
            else:
                every = (step,)
        for command in every or ():
            if looks is not None:
                words = looks.command_words(command, view)
            else:
                words = ruleset.describe_command(command, state)
            pick = pick_of(looks, command, view)
            choices.append(
                Choice(
                    msgspec.Raw(encoder.encode(command)),
                    words,
                    None if pick is None else pick.piece,
                    None if pick is None else pick.square,
                )
            )
    return Shown(
        seen.viewer,
        len(lines),
        ruleset.where(state),
        looks.board_svg(view) if looks else None,
        msgspec.Raw(encoder.encode(view)),
        to_act,
        tuple(choices),
        asked,
        odds,
        facts_html(facts_of(looks, view)),
    )


def _picks(
    tree: CommandTree[Any], chosen: tuple[str, ...], step: Ask, looks: object, view: object
) -> tuple[Picked, ...]:
    """The options of ``step`` given on the board: each option naming a piece or a square
    (the renderer's optional ``option_pick``), and, through an option naming neither (a row,
    "activate"), each option of the next choice that names one, so that a click chooses
    both."""
    picks: list[Picked] = []
    for option in step.options:
        pick = option_pick_of(looks, option.key, view)
        if pick is not None:
            picks.append(Picked((option.key,), option.label, pick.piece, pick.square))
            continue
        after = tree.ask((*chosen, option.key))
        if not isinstance(after, Ask):
            continue
        for then in after.options:
            pick = option_pick_of(looks, then.key, view)
            if pick is not None:
                words = f"{option.label}: {then.label}"
                picks.append(Picked((option.key, then.key), words, pick.piece, pick.square))
    return tuple(picks)


def chosen_command(
    lines: Sequence[str], seat: int, chosen: tuple[str, ...], at: ViewPosition | None = None
) -> Any | None:
    """The command the keys ``chosen`` make in the seat's tree of choices, or None if they
    make none yet; ``at`` as for :func:`shown`.

    :raises LogError: if the lines do not read as a view log.
    :raises ValueError: if a key was not an option, or the seat's choices are no tree.
    """
    ruleset, _, state = position(lines) if at is None else at.of(lines)
    legal = ruleset.legal_commands(state, seat)
    if not is_tree(legal):
        raise ValueError("this decision is a list: send one of its commands")
    step = legal.ask(chosen)
    return None if isinstance(step, Ask) else step


def checked(verdict: Verdict, lines: Sequence[str]) -> Checked:
    """The cross-check as a page is told it, with the SHA-256 of the view log it held."""
    digest = hashlib.sha256(log_text(lines)).hexdigest()
    return Checked(verdict.ok, verdict.problems, verdict.entries, verdict.outcome, digest)


__all__ = [
    "MOST_LISTED",
    "Explain",
    "ViewPosition",
    "checked",
    "chosen_command",
    "page_html",
    "position",
    "shown",
]
