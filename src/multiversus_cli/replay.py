"""``multiversus replay``: a recorded match of any game, as one viewer (or the public) saw it.

The log is read and verified, then folded entry by entry through its game's
ruleset; what is shown of it comes from the game's presenter
(:mod:`multiversus_cli.presenters`), which tells each entry and draws the
board as the viewer may know them, so a replay as one side never tells what
another had not revealed at that moment. A view log replays the same way, as
its viewer or the public, once
:func:`multiversus_core.engine.viewlog.replayable` has filled in what it hides.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Final, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from multiversus_cli import presenters, transcript
from multiversus_cli.jsontext import ascii_json
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import MatchLog, first_line, read_log
from multiversus_core.engine.log import replay as replay_log
from multiversus_core.engine.position import PositionError, without_chance, write_position
from multiversus_core.engine.records import DEFAULT_GAME
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.ruleset import REFEREE
from multiversus_core.engine.text import printable
from multiversus_core.engine.verify import Verification, verify, verify_view
from multiversus_core.engine.viewlog import (
    encode_view_log,
    is_view_log,
    read_view_log,
    redact_log,
    replayable,
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


class ReplayFormat(StrEnum):
    """How a replay is printed."""

    text = "text"
    board = "board"
    json = "json"
    log = "log"
    html = "html"
    svg = "svg"


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


def load_replay(command: str, path: Path) -> tuple[MatchLog, str | None]:
    """Read a match log or a view log, checked to fold; a bad one exits 2 with one line.

    Returns the entries to fold (a view log's filled in by
    :func:`~multiversus_core.engine.viewlog.replayable`) and, for a view log, whose
    view it is: its states may only be shown as that viewer or the public.

    :raises typer.Exit: (2) after printing the :class:`LogError`'s message.
    """
    return _load(command, path, views=True)


def _load(command: str, path: Path, *, views: bool) -> tuple[MatchLog, str | None]:
    """Read a log that verifies: a forged one is refused, never narrated."""
    name = str(path)
    try:
        if views and is_view_log(first_line(name)):
            view_log = read_view_log(name)
            try:
                shown = replayable(view_log, name)
            except PositionError:  # a starting position not its viewer's: verify names it
                _refuse_unless_verified(command, verify_view(view_log, name))
                raise
            _refuse_unless_verified(command, verify_view(view_log, name))
            filled = MatchLog(header=shown.header, entries=shown.entries, chance=shown.chance)
            return filled, shown.viewer
        log = read_log(name)
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
    asked_to = to is not None
    if stepping and format_given:
        raise fail("replay", "--step cannot be used with --format: stepping shows text and board")
    if out_path is not None and output not in (ReplayFormat.html, ReplayFormat.svg):
        raise fail("replay", "--out writes a page or a picture: use it with --format html or svg")
    log, own = load_replay("replay", log_path)
    ruleset = load_ruleset(log.game)
    known = presenters.viewers(ruleset)
    if viewer is not None and viewer.lower() not in known:
        listed = ", ".join(known)
        raise fail("replay", f"--as {viewer}: the viewers of {ruleset.title} are {listed}")
    who = viewer.lower() if viewer is not None else own or "spectator"
    _check_own(own, who)
    count = len(log.entries)
    if to is not None and not 0 <= to <= count:
        raise fail(
            "replay", f"--to {to} is out of range: the log has {count} entries (0 to {count})"
        )
    if output is ReplayFormat.log:
        _write_view_log(log, who, count if to is None else to, ruleset.viewers)
    presenter = presenters.presenter_for(log.game)
    folded = presenters.Folded.of(log)
    out = Console(highlight=False, soft_wrap=True)
    if stepping is None:
        stepping = to is None and not format_given and sys.stdin.isatty() and sys.stdout.isatty()
    if stepping:
        stepper = Stepper(out, folded, presenter, who, position=0 if to is None else to)
        raise typer.Exit(stepper.run())
    to = count if to is None else to
    output = output or ReplayFormat.text
    if output is ReplayFormat.html:
        _write(presenter.page(folded, who, to), out_path)
        raise typer.Exit(EXIT_OK)
    if output is ReplayFormat.svg:
        picture = presenter.picture(folded, who, to)
        if picture is None:
            raise fail("replay", f"--format svg: {ruleset.title} draws no picture of its board")
        _write(picture, out_path)
        raise typer.Exit(EXIT_OK)
    if output is ReplayFormat.json:
        shown = transcript.shown_state(ruleset, folded.states[to], who)
        out.print(ascii_json(shown), markup=False)
        raise typer.Exit(EXIT_OK)
    if output is ReplayFormat.text:
        for number in range(1, to + 1):
            _print_entry(out, presenter.entry(folded, number, who))
        out.print(Text(f"After entry {to} of {count}, as the {who}:", style="bold"))
    # The transcript told the result in its last entry: the board need not tell it again.
    out.print(presenter.board(folded, to, who, result=output is not ReplayFormat.text))
    if asked_to and who == REFEREE and own is None:
        out.print(Text(_position_line(folded.states[to])))
    raise typer.Exit(EXIT_OK)


def _position_line(state: object) -> str:
    """The referee's position at that point, for a bug report (its chance seed left out): only
    the referee's, as it holds every secret of the match."""
    try:
        return f"Position: {write_position(without_chance(state))}"
    except PositionError as error:
        return f"Position: none ({error})"


def _print_entry(out: Console, told: tuple[str, Sequence[str]]) -> None:
    """Print one entry's head line (bold) and its events, indented."""
    head, lines = told
    out.print(Text(printable(head), style="bold"))
    for line in lines:
        out.print(Text(f"   {printable(line)}"))


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
    """An interactive walk through a (checked) log, one entry at a time, as one viewer, for any
    game: its presenter tells each entry and draws the board (:mod:`.presenters`).

    Position ``k`` is the state after entry ``k`` (0: before the first entry);
    every referee state is kept, so going back costs nothing.
    """

    out: Console
    folded: presenters.Folded
    presenter: presenters.Presenter
    viewer: str
    position: int = 0
    read_line: Callable[[], str] = input
    """Reads one line of input; raises EOFError at the end of the input."""

    @property
    def count(self) -> int:
        """The number of entries in the log."""
        return self.folded.count

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
                if self._by_rounds():
                    self.go(self.next_turn(), "No turn begins after this entry.")
            case ("g" | "go", 1):
                number = _number(args[0])
                if number is None or not 0 <= number <= self.count:
                    self.wrong(f"There is no entry {args[0][:20]!r}: type g and 0 to {self.count}.")
                else:
                    self.go(number, "")
            case ("r" | "round", 1):
                if self._by_rounds():
                    self._go_to_round(args[0])
            case ("b" | "board", 0):
                self.out.print(self.presenter.board(self.folded, self.position, self.viewer))
            case ("h" | "?" | "help", _):
                self.out.print(STEP_HELP, markup=False)
            case ("q" | "quit" | "exit", 0):
                raise _StopStepping
            case ("g" | "go" | "r" | "round", 0):
                self.wrong(f"{key} needs a number, as in {key[0]} 12.")
            case _:
                self.wrong(f"{raw.strip()[:20]!r} is not a key here.")

    def _by_rounds(self) -> bool:
        """Whether the game counts rounds and turns; says so when it does not."""
        if self.presenter.progress(self.folded, self.position) is None:
            title = self.folded.ruleset.title
            self.wrong(f"A match of {title} is not stepped by rounds and turns: use n, p or g.")
            return False
        return True

    def _go_to_round(self, word: str) -> None:
        number = _number(word)
        start = None if number is None else self.round_start(number)
        if start is None:
            last = self._progress(self.count)[0]
            self.wrong(f"There is no round {word[:20]!r} here: type r and 0 to {last}.")
        else:
            self.go(start, "")

    def _progress(self, position: int) -> tuple[int, int]:
        progress = self.presenter.progress(self.folded, position)
        assert progress is not None  # asked only of a game that counts rounds
        return progress

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
        here = self._progress(self.position)
        for k in range(self.position + 1, self.count + 1):
            progress = self._progress(k)
            if progress[1] > 0 and progress != here:
                return k
        return None

    def round_start(self, number: int) -> int | None:
        """The first position in round ``number``, if the log reaches it."""
        return next((k for k in range(self.count + 1) if self._progress(k)[0] == number), None)

    def show(self) -> None:
        """Print the entry at the position, its events and the board, as the viewer knows them."""
        self.out.print()
        if self.position == 0:
            self.out.print(Text(f"Before the first entry (of {self.count}).", style="bold"))
        else:
            _print_entry(self.out, self.presenter.entry(self.folded, self.position, self.viewer))
        # An entry that ended the match told its result just above.
        ruleset, states = self.folded.ruleset, self.folded.states
        told = self.position > 0 and ruleset.outcome(states[self.position - 1]) is None
        self.out.print(
            self.presenter.board(self.folded, self.position, self.viewer, result=not told)
        )


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() and len(word) < 10 else None


__all__ = [
    "EPILOG",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "EXIT_WRITE",
    "ReplayFormat",
    "Stepper",
    "fail",
    "load_log",
    "replay",
]
