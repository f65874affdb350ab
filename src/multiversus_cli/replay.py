"""``multiversus replay``: a recorded match, as one side (or the public) saw it.

The log is folded entry by entry (:func:`multiversus_core.rulesets.multiversus.evolve.evolve`); the
state shown goes through :func:`multiversus_core.rulesets.multiversus.views.view` and every event
through :func:`multiversus_core.rulesets.multiversus.views.redact_event`, so a replay as the
Heroes never tells what the Adversaries had not revealed at that moment.
A view log replays the same way, as its viewer or the public, once
:func:`multiversus_core.engine.viewlog.replayable` has filled in what it hides.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Final, NamedTuple, NoReturn

import msgspec
import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from multiversus_cli import html_any, transcript
from multiversus_cli.render import render_board
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import LogEntry, MatchLog, decode_log, read_bytes
from multiversus_core.engine.log import replay as replay_log
from multiversus_core.engine.registry import DEFAULT_GAME, load_ruleset
from multiversus_core.engine.ruleset import REFEREE
from multiversus_core.engine.text import printable
from multiversus_core.engine.verify import Verification, verify, verify_view
from multiversus_core.engine.viewlog import (
    decode_view_log,
    encode_view_log,
    is_view_log,
    redact_log,
    replayable,
)
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.events import (
    CoinsSelected,
    Event,
    ReactionSelected,
    SecretChosen,
)
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.narrate import (
    Narrator,
    coin_summary,
    shown_command,
    side_name,
)
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat, Side
from multiversus_core.rulesets.multiversus.views import (
    PLAYER_VIEWERS,
    Viewer,
    redact_command,
    redact_event,
    view,
)

EXIT_OK: Final = 0
"""The replay was printed."""
EXIT_WRITE: Final = 1
"""The --out file could not be written."""
EXIT_USAGE: Final = 2
"""The log cannot be read, --to is out of range, --step was given with --format,
--format log with --as referee, --as names a viewer a view log cannot show, or --out
is given with another format than html or svg."""
EXIT_INTERRUPTED: Final = 130
"""Ctrl-C while stepping (128 + SIGINT, as shells report it)."""

EPILOG: Final = (
    "Exit codes: 0 done (or q, or Ctrl-D while stepping); 1 the --out file cannot be "
    "written; 2 the log cannot be read "
    "(one line naming file, line and reason), --to is out of range, --step was given "
    "with --format, --format log with --as referee, --as names a viewer a view log "
    "cannot show, or --out is given with another format than html or svg; 130 "
    "interrupted with Ctrl-C while stepping."
)

STEP_HELP: Final = """\
Keys (then Enter):
  Enter or n  the next entry           p  the previous entry
  g N         go to entry N (0: before the first entry; a number alone also works)
  r N         go to the start of round N (0: the set-up)
  t           go to the start of the next turn
  b           show the board again     q  quit (Ctrl-D also quits)
  h or ?      this help"""


class ViewerChoice(StrEnum):
    """Whose view a replay shows."""

    heroes = "heroes"
    adversaries = "adversaries"
    spectator = "spectator"
    referee = "referee"


class ReplayFormat(StrEnum):
    """How a replay is printed."""

    text = "text"
    board = "board"
    json = "json"
    log = "log"
    html = "html"
    svg = "svg"


class Step(NamedTuple):
    """One log entry with the states around it (referee states: redact before showing)."""

    number: int
    """The 1-based entry number."""
    entry: LogEntry
    before: MatchState
    after: MatchState


def fail(command: str, message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print a one-line error on stderr and return the exit to raise."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"multiversus {command}: {' '.join(printable(message).split())}", markup=False
    )
    return typer.Exit(code)


def load_log(command: str, path: Path) -> MatchLog:
    """Read a match log and check that its events fold; a bad log exits 2 with one line.

    :raises typer.Exit: (2) after printing the :class:`LogError`'s message.
    """
    return _load(command, path, views=False)[0]


def load_replay(command: str, path: Path) -> tuple[MatchLog, Viewer | None]:
    """Read a match log or a view log, checked to fold; a bad one exits 2 with one line.

    Returns the entries to fold (a view log's filled in by
    :func:`~multiversus_core.engine.viewlog.replayable`) and, for a view log, whose
    view it is: its states may only be shown as that viewer or the public.

    :raises typer.Exit: (2) after printing the :class:`LogError`'s message.
    """
    return _load(command, path, views=True)


def _load(command: str, path: Path, *, views: bool) -> tuple[MatchLog, Viewer | None]:
    """Read a log that verifies: a forged one is refused, never narrated."""
    name = str(path)
    try:
        data = read_bytes(name)
        if views and is_view_log(data):
            view_log = decode_view_log(data, name)
            shown = replayable(view_log, name)
            _refuse_unless_verified(command, verify_view(view_log, name))
            filled = MatchLog(header=shown.header, entries=shown.entries, chance=shown.chance)
            return filled, shown.viewer
        log = decode_log(data, name)
        if log.game != DEFAULT_GAME and command not in ("replay", "diff"):
            raise fail(
                command,
                f"{name}: this is a match of {log.game}, and `multiversus {command}` shows "
                "Multiversus matches only so far (`multiversus verify` checks any game's log, "
                "`multiversus replay` tells it)",
            )
        replay_log(log, name)  # events that do not follow each other fail here, not later
    except LogError as exc:
        raise fail(command, str(exc)) from None
    _refuse_unless_verified(command, verify(log, name))
    return log, None


def _refuse_unless_verified(command: str, result: Verification) -> None:
    """Exit 2 with verify's one line if the rules, commitments or chance disown the log.

    :raises typer.Exit: (2) for a log that does not verify.
    """
    if not result.ok:
        reason = f"{result.path}: it does not verify, {result.problem} ({result.code})"
        raise fail(command, reason)


def steps(log: MatchLog) -> Iterator[Step]:
    """Yield every entry of a (checked) log with the referee states before and after it."""
    state = initial_state(log.header.settings)
    for number, entry in enumerate(log.entries, start=1):
        after = state
        for event in entry.events:
            after = evolve(after, event)
        yield Step(number, entry, state, after)
        state = after


def state_at(log: MatchLog, to: int) -> MatchState:
    """Return the referee state after entry ``to`` (0: before the first entry)."""
    state = initial_state(log.header.settings)
    for step in steps(log):
        if step.number > to:
            break
        state = step.after
    return state


def viewer_seat(state: MatchState, viewer: Viewer) -> Seat | None:
    """Return the seat whose secrets describe.py/render.py may tell (None: the public)."""
    if viewer in ("heroes", "adversaries"):
        return state.seat_of(viewer)
    return None


def command_line(state: MatchState, command: Command, viewer: Viewer) -> str:
    """Return who gave ``command`` and what it was, as ``viewer`` may know it."""
    return shown_command(state, redact_command(command, state.side_of(command.player), viewer))


def _secret_side(event: Event) -> Side | None:
    match event:
        case CoinsSelected(side=side) | ReactionSelected(side=side) | SecretChosen(side=side):
            return side
        case _:
            return None


def event_lines(state: MatchState, events: tuple[Event, ...], viewer: Viewer) -> list[str]:
    """Return the events that happened from ``state`` on, as ``viewer`` may know them.

    :func:`redact_event` decides what is hidden: a hidden event is told as the
    public knows it, a visible secret as its own player knows it.
    """
    narrator = Narrator(viewer_seat(state, viewer))
    for event in events:
        if redact_event(event, viewer) is not event:
            narrator.viewer = None
        else:
            side = _secret_side(event)
            if side is not None:
                narrator.viewer = state.seat_of(side)
            else:
                narrator.viewer = viewer_seat(state, viewer)
        state = narrator.tell(state, (event,))
    return narrator.take()


def board(state: MatchState, viewer: Viewer, *, result: bool = True) -> RenderableType:
    """Return the board at ``state`` as ``viewer`` may see it (the referee also sees stashes);
    ``result=False`` leaves out a result the transcript just told."""
    shown = render_board(state, viewer_seat(state, viewer), result=result)
    if viewer != "referee" or state.heroes_team is None:
        return shown
    lines: list[RenderableType] = [shown, Text("Referee:", style="bold")]
    for side in ("heroes", "adversaries"):
        stash = state.piles(side).stash
        lines.append(Text(f"  {side_name(side)} stash: {coin_summary(state, stash) or 'empty'}"))
    act = state.activation
    if act is not None:
        active = coin_summary(state, (act.coin,)) if act.coin is not None else act.unit
        reaction = (
            coin_summary(state, (act.reaction_coin,)) if act.reaction_coin is not None else "none"
        )
        lines.append(Text(f"  activation: {active}; reaction: {reaction}"))
    return Group(*lines)


def replay(
    log_path: Annotated[
        Path,
        typer.Argument(
            metavar="LOG", help="A match log or a view log (*.jsonl).", show_default=False
        ),
    ],
    viewer: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="VIEWER",
            help="Whose view: heroes, adversaries, spectator (the public) or referee "
            "(everything); for another game, one of its viewers (`multiversus games`) or "
            "referee. A view log shows its own viewer's view or the public's. "
            "Default: spectator, or a view log's own viewer.",
            show_default=False,
        ),
    ] = None,
    to: Annotated[
        int | None,
        typer.Option(
            "--to",
            metavar="N",
            help="Stop after entry N (1-based; 0: before the first entry). Default: the whole log.",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        ReplayFormat | None,
        typer.Option(
            "--format",
            help="text: a transcript, then the board; board: only the board; "
            "json: the view at that point, pretty-printed (indent 2); log: the view log "
            "(JSON Lines) of the entries so far, one side's log to publish, which "
            "`multiversus verify` checks; html: one self-contained page to step through "
            "the match in a browser; svg: the board after entry N (--to) as one SVG. "
            "(default: text)",
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
    stepping: Annotated[
        bool | None,
        typer.Option(
            "--step/--no-step",
            help="Step through the log one entry at a time (Enter: next, p: back, h: help). "
            "Default: step when the input and output are a terminal and neither --to nor "
            "--format is given; --to N with --step starts at entry N.",
            show_default=False,
        ),
    ] = None,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the html or svg format to FILE instead of the standard output.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Replay a match log as one side, the public or the referee saw it.

    Nothing is shown that the viewer did not know at that moment: a hidden coin
    selection or set-up secret stays hidden until the match reveals it. A view
    log (written with --format log) replays as its own viewer, or the public.
    A log that `multiversus verify` refuses is not replayed (exit 2, its reason).

    Examples:

    multiversus replay match.jsonl

    multiversus replay match.jsonl --as heroes --to 40

    multiversus replay match.jsonl --as referee --format json

    multiversus replay match.jsonl --as heroes --step --to 40

    multiversus replay match.jsonl --as heroes --format log > heroes-view.jsonl

    multiversus replay heroes-view.jsonl

    multiversus replay match.jsonl --as heroes --format html --out match.html

    multiversus replay match.jsonl --format svg --to 40 > board.svg
    """
    format_given = output is not None
    if stepping and format_given:
        raise fail("replay", "--step cannot be used with --format: stepping shows text and board")
    if out_path is not None and output not in (ReplayFormat.html, ReplayFormat.svg):
        raise fail("replay", "--out writes a page or a picture: use it with --format html or svg")
    log, own = load_replay("replay", log_path)
    if log.game != DEFAULT_GAME:
        _replay_game(log, own, viewer, to, output, stepping, out_path)
    if viewer is not None and viewer.lower() not in VIEWERS:
        raise fail("replay", f"--as {viewer}: the viewers are {', '.join(VIEWERS)}")
    who: Viewer = ViewerChoice(viewer.lower()).value if viewer is not None else own or "spectator"
    _check_own(own, who)
    count = len(log.entries)
    if to is not None and not 0 <= to <= count:
        raise fail(
            "replay", f"--to {to} is out of range: the log has {count} entries (0 to {count})"
        )
    out = Console(highlight=False, soft_wrap=True)
    if stepping is None:
        stepping = to is None and not format_given and sys.stdin.isatty() and sys.stdout.isatty()
    if stepping:
        stepper = Stepper(out, log, who, position=0 if to is None else to)
        raise typer.Exit(stepper.run())
    if to is None:
        to = count
    output = output or ReplayFormat.text
    if output in (ReplayFormat.html, ReplayFormat.svg):
        # html imports this module's narration, so it is imported here, not at the top.
        from multiversus_cli.html import page_html, referee_page, side_page

        # Built from the viewer's view log, never from the referee's states (but for the referee).
        cut = MatchLog(header=log.header, entries=log.entries[:to])
        page = referee_page(cut) if who == "referee" else side_page(redact_log(cut, who))
        text = page_html(page) if output is ReplayFormat.html else page.board_svg(to)
        _write(text, out_path)
        raise typer.Exit(EXIT_OK)
    if output is ReplayFormat.log:
        _write_view_log(log, who, to, PLAYER_VIEWERS)
    if output is ReplayFormat.json:
        shown = view(state_at(log, to), who)
        out.print(msgspec.json.format(msgspec.json.encode(shown), indent=2).decode(), markup=False)
        raise typer.Exit(EXIT_OK)
    state = initial_state(log.header.settings)
    for step in steps(log):
        if step.number > to:
            break
        state = step.after
        if output is ReplayFormat.text:
            before = step.before
            where = f"round {before.round}, turn {before.turns_in_round}"
            head = f"{step.number}. [{where}] {command_line(before, step.entry.command, who)}"
            out.print(Text(printable(head), style="bold"))
            for line in event_lines(before, step.entry.events, who):
                out.print(Text(f"   {printable(line)}"))
    if output is ReplayFormat.text:
        out.print(Text(f"After entry {to} of {count}, as the {who}:", style="bold"))
    # The transcript told the result in its last entry: the board need not tell it again.
    out.print(board(state, who, result=output is not ReplayFormat.text))
    raise typer.Exit(EXIT_OK)


VIEWERS: Final[tuple[str, ...]] = tuple(choice.value for choice in ViewerChoice)
"""Whom a Multiversus match replays as."""


def _check_own(own: str | None, who: str) -> None:
    """Refuse to show a view log's match as anyone but its own viewer or the public.

    :raises typer.Exit: (2) for another viewer.
    """
    if own is not None and who not in (own, "spectator"):
        whose = f"{own}'" if own.endswith("s") else f"{own}'s"
        shows = "the spectator" if own == "spectator" else f"the {own} or the spectator"
        raise fail(
            "replay",
            f"--as {who}: this is the {whose} view log, which holds only what the {own} "
            f"saw: replay it as {shows}",
        )


def _replay_game(
    log: MatchLog,
    own: str | None,
    viewer: str | None,
    to: int | None,
    output: ReplayFormat | None,
    stepping: bool | None,
    out_path: Path | None,
) -> NoReturn:
    """Replay a match of a game other than Multiversus, through its ruleset: a transcript and
    the view at the end (text), the view alone (json), the view log so far (log), or one page
    to step through (html). ``own`` is the viewer of a view log (None: a match log).

    :raises typer.Exit: always: 0 once shown, 2 for options the game's replay does not take.
    """
    ruleset = load_ruleset(log.game)
    known = transcript.viewers(ruleset)
    who = (viewer or own or "spectator").lower()
    if who not in known:
        listed = ", ".join(known)
        raise fail("replay", f"--as {viewer}: the viewers of {ruleset.title} are {listed}")
    _check_own(own, who)
    shows = (ReplayFormat.text, ReplayFormat.json, ReplayFormat.log, ReplayFormat.html)
    if stepping or output not in (None, *shows):
        shown = "--step" if stepping else f"--format {output}"
        raise fail(
            "replay",
            f"{shown}: a match of {ruleset.title} replays as text, json, log or html so far",
        )
    count = len(log.entries)
    if to is not None and not 0 <= to <= count:
        raise fail(
            "replay", f"--to {to} is out of range: the log has {count} entries (0 to {count})"
        )
    to = count if to is None else to
    if output is ReplayFormat.html:
        _write(html_any.page_html(ruleset, log, who, to), out_path)
        raise typer.Exit(EXIT_OK)
    if output is ReplayFormat.log:
        _write_view_log(log, who, to, ruleset.viewers)
    out = Console(highlight=False, soft_wrap=True)
    state = None
    for item in transcript.told(ruleset, log, who, to):
        if not isinstance(item, transcript.Told):
            state = item
        elif output is not ReplayFormat.json:
            out.print(Text(printable(f"{item.number}. {item.command}"), style="bold"))
            for line in item.events:
                out.print(Text(f"   {printable(line)}"))
    if output is not ReplayFormat.json:
        out.print(Text(f"After entry {to} of {count}, as the {who}:", style="bold"))
        result = ruleset.outcome(state)
        if result is not None:
            out.print(Text(printable(f"The match is over: {result.reason}.")))
    out.print(transcript.shown_state(ruleset, state, who).decode(), markup=False)
    raise typer.Exit(EXIT_OK)


def _write_view_log(log: MatchLog, who: str, to: int, viewers: Sequence[str]) -> NoReturn:
    """Write the view log of the first ``to`` entries as ``who`` saw them to the standard output.

    :raises typer.Exit: always: 0 once written, 2 for the referee, whose log is the match log.
    """
    if who == REFEREE:
        raise fail(
            "replay",
            f"--format log writes one viewer's view: use --as {', '.join(viewers[:-1])} or "
            f"{viewers[-1]} (the match log itself is the referee's)",
        )
    cut = MatchLog(header=log.header, entries=log.entries[:to], chance=log.chance)
    sys.stdout.buffer.write(encode_view_log(redact_log(cut, who)))
    sys.stdout.buffer.flush()
    raise typer.Exit(EXIT_OK)


def _write(text: str, out_path: Path | None) -> None:
    """Write ``text`` to ``out_path``, or the standard output; a failed write exits 1."""
    if out_path is None:
        sys.stdout.buffer.write(text.encode("utf-8"))  # UTF-8 whatever the locale
        sys.stdout.buffer.flush()
        return
    try:
        out_path.write_text(text, encoding="utf-8")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise fail("replay", f"cannot write {out_path}: {reason}", EXIT_WRITE) from None


# --- stepping ---------------------------------------------------------------------


class _StopStepping(Exception):
    """The viewer typed q or closed the input."""


@dataclass
class Stepper:
    """An interactive walk through a (checked) log, one entry at a time, as one viewer.

    Position ``k`` is the state after entry ``k`` (0: before the first entry);
    every referee state is kept, so going back costs nothing.
    """

    out: Console
    log: MatchLog
    viewer: Viewer
    position: int = 0
    read_line: Callable[[], str] = input
    """Reads one line of input; raises EOFError at the end of the input."""

    def __post_init__(self) -> None:
        self.steps: Sequence[Step] = tuple(steps(self.log))
        self.states: Sequence[MatchState] = (
            initial_state(self.log.header.settings),
            *(step.after for step in self.steps),
        )

    @property
    def count(self) -> int:
        """The number of entries in the log."""
        return len(self.steps)

    def run(self) -> int:
        """Show the position, then answer keys until q, the end of the input or Ctrl-C."""
        self.out.print(
            f"Stepping through {self.count} entries as the {self.viewer}. Type h for help.",
            markup=False,
        )
        self.show()
        try:
            while True:
                self.answer(self._read(f"Entry {self.position} of {self.count} (h for help): "))
        except _StopStepping:
            return EXIT_OK
        except KeyboardInterrupt:
            self.out.print("\nInterrupted.")
            return EXIT_INTERRUPTED

    def _read(self, prompt: str) -> str:
        self.out.print(prompt, end="", markup=False)
        try:
            line = self.read_line()
        except EOFError:
            self.out.print()
            raise _StopStepping from None
        except UnicodeDecodeError:
            line = "\ufffd"
        if not sys.stdin.isatty():
            self.out.print(line, markup=False)  # echo piped input, so the transcript reads well
        return line

    def answer(self, raw: str) -> None:
        """Act on one line typed at the prompt; a wrong one gets a message, never an error.

        :raises _StopStepping: on q.
        """
        words = raw.strip().lower().split()
        key, args = (words[0], words[1:]) if words else ("n", [])
        if key.isdigit() and not args:
            key, args = "g", [key]
        elif key[:1] in ("g", "r") and key[1:].isdigit() and not args:
            key, args = key[:1], [key[1:]]  # "g12" as "g 12"
        match key, len(args):
            case ("n" | "next", 0):
                self.go(self.position + 1, "This is the last entry; p goes back, q quits.")
            case ("p" | "prev" | "previous" | "back", 0):
                self.go(self.position - 1, "This is before the first entry; n goes on.")
            case ("t" | "turn", 0):
                self.go(self.next_turn(), "No turn begins after this entry.")
            case ("g" | "go", 1):
                number = _number(args[0])
                if number is None or not 0 <= number <= self.count:
                    self.wrong(f"There is no entry {args[0][:20]!r}: type g and 0 to {self.count}.")
                else:
                    self.go(number, "")
            case ("r" | "round", 1):
                number = _number(args[0])
                start = None if number is None else self.round_start(number)
                if start is None:
                    last = self.states[-1].round
                    self.wrong(f"There is no round {args[0][:20]!r} here: type r and 0 to {last}.")
                else:
                    self.go(start, "")
            case ("b" | "board", 0):
                self.out.print(board(self.states[self.position], self.viewer))
            case ("h" | "?" | "help", _):
                self.out.print(STEP_HELP, markup=False)
            case ("q" | "quit" | "exit", 0):
                raise _StopStepping
            case ("g" | "go" | "r" | "round", 0):
                self.wrong(f"{key} needs a number, as in {key[0]} 12.")
            case _:
                self.wrong(f"{raw.strip()[:20]!r} is not a key here.")

    def wrong(self, message: str) -> None:
        """Say what was wrong with the input; the prompt follows again."""
        self.out.print(f"{message} Type h for help.", style="yellow", markup=False)

    def go(self, position: int | None, otherwise: str) -> None:
        """Show ``position``, or say ``otherwise`` if it is outside the log."""
        if position is None or not 0 <= position <= self.count:
            self.wrong(otherwise)
            return
        self.position = position
        self.show()

    def next_turn(self) -> int | None:
        """The first later position where a new turn has begun, if any."""
        here = self.states[self.position]
        for k in range(self.position + 1, self.count + 1):
            state = self.states[k]
            if state.turns_in_round > 0 and (state.round, state.turns_in_round) != (
                here.round,
                here.turns_in_round,
            ):
                return k
        return None

    def round_start(self, number: int) -> int | None:
        """The first position in round ``number``, if the log reaches it."""
        return next((k for k, state in enumerate(self.states) if state.round == number), None)

    def show(self) -> None:
        """Print the entry at the position, its events and the board, as the viewer knows them."""
        self.out.print()
        if self.position == 0:
            self.out.print(Text(f"Before the first entry (of {self.count}).", style="bold"))
        else:
            step = self.steps[self.position - 1]
            before = step.before
            where = f"round {before.round}, turn {before.turns_in_round}"
            head = (
                f"{step.number}. [{where}] {command_line(before, step.entry.command, self.viewer)}"
            )
            self.out.print(Text(printable(head), style="bold"))
            for line in event_lines(before, step.entry.events, self.viewer):
                self.out.print(Text(f"   {printable(line)}"))
        # An entry that ended the match told its result just above.
        told = self.position > 0 and self.states[self.position - 1].is_over is False
        self.out.print(board(self.states[self.position], self.viewer, result=not told))


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() and len(word) < 10 else None


__all__ = [
    "EPILOG",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "EXIT_WRITE",
    "ReplayFormat",
    "Step",
    "Stepper",
    "ViewerChoice",
    "board",
    "command_line",
    "event_lines",
    "fail",
    "load_log",
    "replay",
    "state_at",
    "steps",
    "viewer_seat",
]
