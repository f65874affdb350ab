"""Multiversus at the terminal: the match ``multiversus play`` runs for its default game.

Every accepted command is written to the match log before anything else
happens, so quitting, closing the input or pressing Ctrl-C leaves a log that
``--resume`` carries on from. The command hands a request here through
Multiversus' presenter (:mod:`multiversus_cli.presenters.multiversus`).
"""

from __future__ import annotations

import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from secrets import randbelow
from types import FrameType
from typing import Final

from rich.console import Console
from rich.text import Text

from multiversus_cli.guide import explain_decision, how_to_win
from multiversus_cli.menu import Menu, build_menu
from multiversus_cli.play_any import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Ask,
    Decision,
    PlayError,
    PlayRequest,
    Quit,
    Terminal,
    one_line,
    refuse_unless_verified,
)
from multiversus_cli.presenters import multiversus_moves as moves
from multiversus_cli.render import (
    figure_labels,
    render_board,
    render_piles,
    render_units,
    status_line,
)
from multiversus_cli.usage import no_such_file, program
from multiversus_core.engine.errors import LogError, MultiversusError, SettingsError
from multiversus_core.engine.log import LogWriter, replay
from multiversus_core.engine.position import (
    read_position,
    start_position,
    without_chance,
    write_position,
)
from multiversus_core.engine.registry import AnyRuleset
from multiversus_core.engine.text import printable, printable_lines
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.bots.specs import Bot, command_for, make_bot
from multiversus_core.rulesets.multiversus.catalog import (
    DEFAULT_ADVERSARIES,
    DEFAULT_HEROES,
    find_team,
    missing_team,
)
from multiversus_core.rulesets.multiversus.commands import Command, React
from multiversus_core.rulesets.multiversus.decide import decider_seat, waiting_for
from multiversus_core.rulesets.multiversus.events import Event
from multiversus_core.rulesets.multiversus.evolve import initial_state
from multiversus_core.rulesets.multiversus.legal import legal_commands
from multiversus_core.rulesets.multiversus.match import apply, secret_chance_settings, start_match
from multiversus_core.rulesets.multiversus.narrate import (
    Narrator,
    decision_help,
    describe_command,
    result_text,
    secrets_summary,
    side_name,
)
from multiversus_core.rulesets.multiversus.secrets import salted
from multiversus_core.rulesets.multiversus.settings import Chance, MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import SEATS, Seat

UsageError = PlayError
"""Options that cannot start a match; the message says why."""


def play_request(out: Console, err: Console, request: PlayRequest) -> int:
    """Play the Multiversus match ``request`` asks for; return the exit code."""
    if request.players is not None or request.names is not None:
        err.print(
            "multiversus play: --players and --names are for other games: "
            "Multiversus takes --player1/--player2 and --name1/--name2",
            markup=False,
        )
        return EXIT_USAGE
    options = request.game_options
    try:
        specs: dict[Seat, str] = {
            1: player_spec(options.get("player1") or "human"),
            2: player_spec(options.get("player2") or DEFAULT_BOT),
        }
        kinds = {
            seat: PlayerKind.human if spec == "human" else PlayerKind.bot
            for seat, spec in specs.items()
        }
        game = _prepare(
            out,
            kinds,
            heroes=options.get("heroes"),
            adversaries=options.get("adversaries"),
            scenario=options.get("scenario"),
            seed=request.seed,
            log=request.log,
            names=(options.get("name1"), options.get("name2")),
            bot_seed=request.bot_seed,
            resume=request.resume,
            quiet=request.quiet,
            seeded_salts=request.seeded_salts,
            specs=specs,
            delay=request.delay,
            start=request.start,
        )
    except (UsageError, MultiversusError) as exc:
        err.print(printable(f"multiversus play: {one_line(exc)}"), markup=False)
        return EXIT_USAGE
    return game.run()


_HELP: Final = """\
Type the number of a choice and press Enter (Enter alone takes the only choice).
A coin selection takes three steps: the unit coin, the action coins, then the
whole selection to commit (Enter); 0 goes back a step until it is committed.
At any prompt you can also type:
  ?  the decision in front of you, explained (the odds at the Initiative roll)
  b  the board                 u  units, figures and their spaces
  d  coin piles: your stash, both discards, the opponent's stash count
  l  the match so far, in words (through a pager when long: q leaves it)
  m  the list of choices again  h  this help
Moving, a step has a fixed key wherever the figure stands: n ne e se s sw w nw
(the figure moving, or name another by its board label: tm2 n); m 4,6 (or
m tm2 4,6) sends it to a space by its shortest legal path, one step at a time.
  q  quit; the log is kept (play --resume, or join's link again, carries it on)
`multiversus rules` gives the rules on one screen."""


class PlayerKind(StrEnum):
    """Who sits in a seat: a person, or a bot (which one, its spec says)."""

    human = "human"
    bot = "bot"


BOT_ALIAS: Final = "bot"
"""The player option ``bot`` names the default bot, kept from when it was the only one."""

DEFAULT_BOT: Final = "heuristic"
"""The bot ``bot`` stands for, and the default opponent in seat 2."""

THINKING_DELAY: Final = 0.3
"""Seconds a bot may think before a spinner shows that it is thinking."""


def player_spec(value: str) -> str:
    """Return the player option as ``human`` or a bot spec (``bot`` is the default bot).

    :raises UsageError: if it names neither a person nor a known bot.
    """
    value = value.strip()
    if value.lower() == "human":
        return "human"
    spec = DEFAULT_BOT if value.lower() == BOT_ALIAS else value
    try:
        make_bot(spec, 0)
    except ValueError as exc:
        raise UsageError(f"{exc}; or human") from None
    return spec


class _Quit(Exception):
    """The player typed q."""


class _InputEnded(Exception):
    """Standard input was closed (Ctrl-D, or the end of a pipe)."""


def default_log_path(now: datetime | None = None, folder: Path | None = None) -> Path:
    """Return ``./multiversus-<YYYYmmdd-HHMMSS>.jsonl``, numbered if that file exists."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = folder or Path()
    path = folder / f"multiversus-{stamp}.jsonl"
    number = 2
    while path.exists():
        path = folder / f"multiversus-{stamp}-{number}.jsonl"
        number += 1
    return path


def _prepare(
    out: Console,
    kinds: dict[Seat, PlayerKind],
    *,
    heroes: str | None,
    adversaries: str | None,
    scenario: str | None,
    seed: int | None,
    log: Path | None,
    names: tuple[str | None, str | None],
    bot_seed: int | None,
    resume: Path | None,
    quiet: bool,
    seeded_salts: bool = False,
    specs: dict[Seat, str] | None = None,
    delay: float = 0.0,
    start: str | None = None,
) -> Game:
    """Check the options and open the log; return a game ready to run.

    :raises UsageError: for options that cannot start a match.
    :raises MultiversusError: for unknown teams (SettingsError) or a bad log (LogError).
    """
    if quiet and any(kind is PlayerKind.human for kind in kinds.values()):
        raise UsageError("--quiet is for a game between two bots (--player1 bot --player2 bot)")
    if delay:
        if not delay >= 0 or delay == float("inf"):
            raise UsageError(f"--delay {delay}: give a number of seconds from 0")
        if any(kind is PlayerKind.human for kind in kinds.values()):
            raise UsageError("--delay paces a game between two bots (--player1 bot --player2 bot)")
        if quiet:
            raise UsageError("--delay paces what a game shows; --quiet shows only the result")
    first: MatchState | None = None
    if resume is not None and start is not None:
        raise UsageError("--from cannot be used with --resume: the log fixes the match")
    if resume is not None:
        fixed = {
            "--heroes": heroes,
            "--adversaries": adversaries,
            "--scenario": scenario,
            "--seed": seed,
            "--log": log,
            "--name1": names[0],
            "--name2": names[1],
            "--seeded-salts": seeded_salts or None,
        }
        clashes = [option for option, value in fixed.items() if value is not None]
        if clashes:
            raise UsageError(
                f"{', '.join(clashes)} cannot be used with --resume: the log fixes the match"
            )
        if not resume.is_file():
            raise UsageError(no_such_file(resume))
        try:  # a forged log is not carried on, nor sealed if its end record is missing
            writer, match_log = LogWriter.resume(resume, refuse_unless_verified)
        except LogError as exc:
            raise UsageError(f"cannot carry on from this log: {one_line(exc)}") from None
        try:
            state = replay(match_log, str(resume))
        except Exception as exc:  # a log edited by hand can break replay in any way
            writer.close()
            raise UsageError(f"cannot carry on from this log: {one_line(exc)}") from None
        history = [(entry.command, tuple(entry.events)) for entry in match_log.entries]
        path = resume
        if writer.torn is not None:
            torn = writer.torn
            out.print(
                printable(
                    f"The log's last line ({torn.line}) was cut short when the program stopped; "
                    f"its {torn.size} bytes were moved to {torn.path} and the match carries on "
                    "from the line before it."
                ),
                markup=False,
            )
    else:
        position = ""
        if start is not None:
            state, chance, position = _from_position(
                start, heroes, adversaries, scenario, seed, names, seeded_salts=seeded_salts
            )
            first = state
        else:
            settings = _settings(
                kinds, heroes, adversaries, scenario, seed, names, seeded_salts=seeded_salts
            )
            chance = None
            if seed is None:  # chance is secret until the end: the header holds its commitment
                settings, chance = secret_chance_settings(settings)
            state = start_match(settings, chance)
        if log is not None and log.exists():
            raise UsageError(
                f"{str(log)!r} already exists: choose another --log, or carry it on with --resume"
            )
        path = log if log is not None else default_log_path()
        try:
            writer = LogWriter.create(path, state.settings, chance, position)
        except LogError as exc:
            # The file at fault may be the log's chance file beside it: name it.
            where = "" if exc.path == str(path) else f"{exc.path!r}: "
            raise UsageError(f"cannot write the log {str(path)!r}: {where}{exc.reason}") from None
        history = []
    settings = state.settings
    # A bot's seed is its own, never the match's chance seed.
    if bot_seed is None and PlayerKind.bot in kinds.values():
        bot_seed = randbelow(10**9)
    specs = specs or dict.fromkeys(SEATS, DEFAULT_BOT)
    bots = {
        seat: make_bot(specs[seat], bot_seed or 0)
        for seat in SEATS
        if kinds[seat] is PlayerKind.bot
    }
    return Game(
        out=out,
        state=state,
        writer=writer,
        path=path,
        kinds=kinds,
        bots=bots,
        bot_seed=bot_seed,
        history=history,
        quiet=quiet,
        resumed=resume is not None,
        specs={seat: specs[seat] for seat in bots},
        delay=delay,
        first=first,
    )


def _from_position(
    text: str,
    heroes: str | None,
    adversaries: str | None,
    scenario: str | None,
    seed: int | None,
    names: tuple[str | None, str | None],
    *,
    seeded_salts: bool,
) -> tuple[MatchState, Chance | None, str]:
    """The state a match starts from at a position (``--from``), its secret chance seed, and
    the position as its log's header records it.

    :raises UsageError: for options the position fixes, or a position not of Multiversus.
    :raises PositionError: if the text cannot be read.
    """
    fixed = {"--heroes": heroes, "--adversaries": adversaries, "--scenario": scenario}
    clashes = [option for option, value in fixed.items() if value is not None]
    if seeded_salts:
        clashes.append("--seeded-salts")
    if clashes:
        raise UsageError(
            f"{', '.join(clashes)} cannot be used with --from: the position fixes them"
        )
    read = read_position(text)
    if not isinstance(read, MatchState):
        raise UsageError("--from: the position is of another game: give it --game too")
    players = tuple(
        given or default for given, default in zip(names, read.settings.players, strict=True)
    )
    state, chance = start_position(text, seed=seed, players=players)
    return state, chance, write_position(without_chance(state))


def _settings(
    kinds: dict[Seat, PlayerKind],
    heroes: str | None,
    adversaries: str | None,
    scenario: str | None,
    seed: int | None,
    names: tuple[str | None, str | None],
    *,
    seeded_salts: bool = False,
) -> MatchSettings:
    heroes = heroes or DEFAULT_HEROES
    adversaries = adversaries or DEFAULT_ADVERSARIES
    if scenario is None:
        sheet = find_team(adversaries)
        if sheet is None:
            raise SettingsError(missing_team(adversaries))
        if sheet.scenarios:
            scenario = sheet.scenarios[0].id
    both_bots = all(kind is PlayerKind.bot for kind in kinds.values())
    players: list[str] = []
    for seat, given in zip(SEATS, names, strict=True):
        if given is not None:
            players.append(given.strip())
        elif kinds[seat] is PlayerKind.bot:
            players.append(f"Bot {seat}" if both_bots else "Bot")
        else:
            players.append(f"Player {seat}")
    return MatchSettings(
        heroes=heroes,
        adversaries=adversaries,
        scenario=scenario,
        seed=0 if seed is None else seed,
        players=(players[0], players[1]),
        salts="seed" if seeded_salts else "secrets",
    )


# --- the game loop ----------------------------------------------------------------


@dataclass
class Desk:
    """A person deciding for a seat at the terminal: the board or the status line before each
    decision, the menus, moves typed by compass key or ``m C,R``, and the letters any prompt
    takes (:data:`_HELP`). A :class:`Game` decides through it, and so does a seat played
    over the network (:class:`MultiversusTerminal`)."""

    out: Console
    state: MatchState
    """The state of the decision: the referee's, or one filled in from a seat's view log."""
    history: list[tuple[Command, tuple[Event, ...]]] = field(kw_only=True, default_factory=list)
    """The commands so far and their events, for ``l``."""
    read_line: Callable[[], str] = field(kw_only=True, default_factory=lambda: _read_stdin)
    """Reads one line of input; raises EOFError at the end of the input."""
    first: MatchState | None = field(kw_only=True, default=None)
    """The position the match started from, if not the initial state (``--from``)."""
    _shown_figures: tuple[Figure, ...] | None = field(default=None, init=False)
    _after_secret: bool = field(default=False, init=False)
    _route: tuple[Seat | None, list[Command]] = field(default=(None, []), init=False)
    """The seat whose typed route is under way, and its steps still to give."""

    @property
    def is_hot_seat(self) -> bool:
        """True when two people share the screen: never at a desk of one seat."""
        return False

    def _flush(self, *, keep_open_steps: bool = False) -> None:
        """Tell what happened since the last decision: a desk of one seat leaves that to its
        caller."""

    # --- a human decision ---------------------------------------------------------

    def _ask(self, seat: Seat) -> Command:
        state = self.state
        secret = is_private_decision(state)
        if self.is_hot_seat and (secret or self._after_secret):
            self._hand_over(seat, secret=secret)
        self._after_secret = False
        self._flush()
        commands = legal_commands(state, seat)
        if not commands:
            raise MultiversusError(f"no legal command for seat {seat}")
        going = self._go_on(seat, commands)
        if going is not None:
            return going
        self.out.print()
        self._show_position(seat)
        self.out.print(Text(f"▶ {printable(waiting_for(state))}", style="bold"))
        help_text = decision_help(state, seat)
        if help_text is not None:
            self._tell(help_text)
        steps = [build_menu(state, commands)]
        self._show_menu(steps[-1])
        while True:
            menu = steps[-1]
            count = len(menu.choices)
            back = ", 0 goes back" if menu.back is not None else ""
            raw = self._read(f"Choice (1-{count}{back}, h for help): ")
            answer = raw.strip().lower()
            if answer == "" and count == 1:
                answer = "1"
            if answer in ("0", "back") and menu.back is not None:
                steps.pop()
                self._show_menu(steps[-1])
                continue
            try:
                number = int(answer)
            except ValueError:
                pass
            else:
                if 1 <= number <= count:
                    choice = menu.choices[number - 1]
                    if choice.submenu is None:
                        assert choice.command is not None
                        return choice.command
                    steps.append(choice.submenu)
                    self._show_menu(choice.submenu)
                    continue
                self._say_wrong(f"There is no choice {number}.", menu)
                continue
            if moves.is_move(answer):
                typed = self._typed_move(seat, answer)
                if typed is not None:
                    return typed
                continue
            if not self._extra(answer, seat, menu):
                shown = raw.strip()
                if not shown:
                    self._say_wrong("Nothing was typed.", menu)
                else:
                    self._say_wrong(f"{shown[:20]!r} is not a choice.", menu)

    def _typed_move(self, seat: Seat, answer: str) -> Command | None:
        """A step typed by its compass key, or the first step of a route typed as ``m C,R``
        (the rest follow, :meth:`_go_on`); None after saying why it cannot be."""
        state = self.state
        names = {f.id: printable(f.name) for f in state.figures}
        typed = moves.typed_move(state, seat, answer, figure_labels(state), names)
        if typed.problem is not None:
            self.out.print(f"{typed.problem} Type h for help.", style="yellow", markup=False)
            return None
        steps: tuple[Command, ...] = typed.steps  # so that rest is a list[Command]
        first, *rest = steps
        self._route = (seat, rest)
        return first

    def _go_on(self, seat: Seat, commands: Sequence[Command]) -> Command | None:
        """The next step of a route typed earlier, while it stays legal for ``seat``."""
        owner, route = self._route
        if owner != seat or not route:
            return None
        step = route.pop(0)
        if step in commands:
            self._flush()
            self.out.print(f"  → {printable(describe_command(self.state, step))}", markup=False)
            return step
        route.clear()
        self._flush()
        self.out.print("The way on is no longer open: the route stops here.", style="yellow")
        return None

    def _screen_seat(self, seat: Seat) -> Seat | None:
        """Whose secrets the screen may show while ``seat`` decides.

        At a shared screen only a private decision (screened by clearing before
        and after) shows the deciding player's secrets; otherwise the public view.
        """
        if self.is_hot_seat and not is_private_decision(self.state):
            return None
        return seat

    def _extra(self, answer: str, seat: Seat, menu: Menu) -> bool:
        """Answer one of the letters any prompt accepts; False if it is not one."""
        viewer = self._screen_seat(seat)
        match answer:
            case "b" | "board":
                self.out.print(render_board(self.state, viewer))
            case "u" | "units":
                self.out.print(render_units(self.state, viewer))
            case "d" | "discard" | "coins" | "piles":
                self.out.print(render_piles(self.state, viewer))
            case "l" | "log":
                self._show_log(viewer)
            case "m" | "menu" | "list":
                self._show_menu(menu)
            case "?" | "explain" | "why":
                commands = tuple(menu.commands())
                self._tell(explain_decision(self.state, seat, commands))
            case "h" | "help":
                self.out.print(_HELP, markup=False)
            case "q" | "quit" | "exit":
                raise _Quit
            case _:
                return False
        return True

    def _tell(self, text: str) -> None:
        """Print the program's own paragraphs, wrapped between words at the screen's width."""
        self.out.print(printable_lines(text), markup=False, soft_wrap=False)

    def _say_wrong(self, what: str, menu: Menu) -> None:
        count = len(menu.choices)
        only = "1" if count == 1 else f"a number from 1 to {count}"
        if menu.back is not None:
            only += " (0 goes back)"
        self.out.print(f"{what} Type {only}, or h for help.", style="yellow", markup=False)

    def _read(self, prompt: str) -> str:
        self.out.print(prompt, end="", markup=False)
        try:
            line = self.read_line()
        except EOFError:
            raise _InputEnded from None
        except UnicodeDecodeError:
            line = "\ufffd"
        if not sys.stdin.isatty():
            self.out.print(line, markup=False)  # echo piped input, so the transcript reads well
        return line

    def _hand_over(self, seat: Seat, *, secret: bool) -> None:
        self._clear_screen()
        name = printable(self.state.settings.players[seat - 1])
        side = self.state.side_of(seat)
        who = f"{name} ({side_name(side)})" if side else name
        why = ""
        if secret:
            why = " for a secret choice" if self.state.pending != "offer" else " to react"
        self.out.print(
            f"Pass the keyboard to {who}{why}. {name}: press Enter when you are ready.",
            markup=False,
        )
        answer = self._read("")
        if answer.strip().lower() in ("q", "quit"):
            raise _Quit

    def _clear_screen(self) -> None:
        self._shown_figures = None  # show the board again on the fresh screen
        if self.out.is_terminal:
            self.out.clear()
            self.out.file.write("\033[3J")  # the scrollback too, where the terminal allows
            self.out.file.flush()
        else:
            self.out.print("──── the screen is cleared here ────")

    def _show_position(self, seat: Seat) -> None:
        state = self.state
        viewer = self._screen_seat(seat)
        if state.board is not None and state.figures != self._shown_figures:
            self.out.print(render_board(state, viewer))
            self._shown_figures = state.figures
        else:
            self.out.print(status_line(state, viewer))

    def _show_menu(self, menu: Menu) -> None:
        """List the choices by number, one line per group (the unit coins, a figure's steps);
        a choice of no group has a line of its own, and going back comes last."""
        groups: list[tuple[str | None, list[str]]] = []
        for number, choice in enumerate(menu.choices, start=1):
            heading = None if choice.heading is None else printable(choice.heading)
            key = moves.key_hint(choice.command) if choice.command is not None else None
            item = f"{number:>2} {printable(choice.label)}" + (f" [{key}]" if key else "")
            if groups and heading is not None and groups[-1][0] == heading:
                groups[-1][1].append(item)
            else:
                groups.append((heading, [item]))
        if menu.back is not None:
            groups.append((None, [f" 0 {menu.back}"]))
        indent = max((len(h) + 2 for h, _ in groups if h is not None), default=0)
        for heading, items in groups:
            pad = indent if heading is not None else 0
            for i, line in enumerate(_pack(items, max(self.out.width - pad, 30))):
                head = f"{heading}:" if heading is not None and i == 0 else ""
                text = Text()
                text.append(head.ljust(pad), style="bold")
                for j, item in enumerate(line):
                    text.append(("    " if j else "") + item[:2], style="bold cyan")
                    text.append(item[2:])
                self.out.print(text)

    def _show_log(self, seat: Seat | None) -> None:
        state = self.first or initial_state(self.state.settings)
        narrator = Narrator(seat)
        for _, events in self.history:
            state = narrator.tell(state, events)
        lines = narrator.take()
        # At a terminal a long log goes through the pager (q leaves it), as git log does.
        paged = self.out.is_terminal and len(lines) + 1 >= self.out.height
        with self.out.pager(styles=True) if paged else nullcontext():
            title = f"The match so far ({len(self.history)} commands):"
            self.out.print(Text(title, style="bold"))
            for line in lines or ["Nothing has happened yet."]:
                self.out.print(f"  {printable(line)}", markup=False)


@dataclass
class Game(Desk):
    """A match being played at the terminal, writing its log as it goes."""

    writer: LogWriter
    path: Path
    kinds: dict[Seat, PlayerKind]
    bots: dict[Seat, Bot]
    bot_seed: int | None
    quiet: bool = False
    resumed: bool = False
    specs: dict[Seat, str] = field(default_factory=dict)
    """The spec of each seat's bot, as the player options named it."""
    delay: float = 0.0
    """Seconds to wait after each command of a game between two bots."""
    sleep: Callable[[float], None] = field(default_factory=lambda: time.sleep)
    """Waits that many seconds (``delay``)."""
    narrator: Narrator = field(init=False)

    def __post_init__(self) -> None:
        self.narrator = Narrator(self.viewer, announce_result=False)  # _finish tells it

    @property
    def humans(self) -> tuple[Seat, ...]:
        """The seats played at the keyboard."""
        return tuple(seat for seat in SEATS if self.kinds[seat] is PlayerKind.human)

    @property
    def is_hot_seat(self) -> bool:
        """True when two people share the screen."""
        return len(self.humans) == 2

    @property
    def viewer(self) -> Seat | None:
        """Whose secrets the running commentary may tell: the only human's, or nobody's."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def run(self) -> int:
        """Play until the match ends or the player stops; return the exit code."""
        try:
            with self.writer:
                self._introduce()
                self._loop()
        except _Quit:
            self._flush()
            self.out.print("You left the match.")
            self._print_resume_hint()
            return EXIT_OK
        except _InputEnded:
            self._flush()
            self.out.print("\nThe input ended, so the match stops here.")
            self._print_resume_hint()
            return EXIT_OK
        except KeyboardInterrupt:
            self._flush()
            self.out.print("\nInterrupted.")
            self._print_resume_hint()
            return EXIT_INTERRUPTED
        except (OSError, LogError) as exc:
            self._flush()
            self._error(f"could not write the log {str(self.path)!r}: {one_line(exc)}")
            return EXIT_FAILURE
        except MultiversusError as exc:
            self._flush()
            self._error(f"the engine refused a command it had offered (a bug): {one_line(exc)}")
            self._print_resume_hint()
            return EXIT_FAILURE
        self._finish()
        return EXIT_OK

    # --- stages -------------------------------------------------------------------

    def _introduce(self) -> None:
        if self.quiet:
            return
        settings = self.state.settings
        if self.resumed:
            self.out.print(
                printable(f"Resuming {self.path}: {len(self.history)} commands replayed."),
                markup=False,
            )
            if self.state.is_over:
                self.out.print("The match in this log is already over.")
        else:
            if settings.chance:
                self.out.print(
                    "Chance is secret: the log commits to a fresh seed and reveals it at the end."
                )
            else:
                self.out.print(f"Seed {settings.seed} (play it again with --seed {settings.seed}).")
            self.out.print(printable(f"Saving the log to {self.path}"), markup=False)
        for seat in SEATS:
            bot = self.bots.get(seat)
            kind = "human" if bot is None else f"{self.specs.get(seat, DEFAULT_BOT)} bot"
            name = printable(settings.players[seat - 1])
            self.out.print(f"Seat {seat}: {name} ({kind})", markup=False)
        if self.is_hot_seat:
            self.out.print("Hot-seat: pass the keyboard when asked; secret choices are screened.")
        if not self.state.is_over:
            self._tell(how_to_win(self.state))
        if self.humans:
            self.out.print("Type h at any prompt for help.")
            self.out.print("Type ? to have the decision in front of you explained.")

    def _loop(self) -> None:
        while not self.state.is_over:
            seat = decider_seat(self.state)
            if seat is None:
                raise MultiversusError(f"nobody is to decide ({self.state.pending})")
            bot = self.bots.get(seat)
            command = self._think(bot, seat) if bot else self._ask(seat)
            self._commit(command)
            if not self.humans:
                self._flush(keep_open_steps=True)
                if self.delay and not self.state.is_over:
                    self.sleep(self.delay)

    def _think(self, bot: Bot, seat: Seat) -> Command:
        """The bot's command; a spinner shows while it thinks for more than a moment."""
        if self.quiet:
            return command_for(bot, self.state, seat)
        name = printable(self.state.settings.players[seat - 1])
        with _spinner_after(self.out, Text(f"{name} is thinking…"), THINKING_DELAY):
            return command_for(bot, self.state, seat)

    def _commit(self, command: Command) -> None:
        before = self.state
        command = salted(command, before.settings)
        with _interrupts_deferred():
            state, events = apply(before, command)
            self.writer.append(command, events)
        self.state = state
        self.history.append((command, events))
        self.narrator.tell(before, events)
        # A secret decision leaves the chooser's secret on the shared screen; reacting
        # reveals the reaction, so only the other answers need the screen cleared after.
        if self.is_hot_seat and is_private_decision(before) and not isinstance(command, React):
            self._after_secret = True

    def _finish(self) -> None:
        self._flush()
        state = self.state
        result = f"The match ended in round {state.round} of 6: {result_text(state)}."
        if self.quiet:
            self.out.print(
                printable(
                    f"{result.removesuffix('.')}; {len(self.history)} commands, "
                    f"seed {chance_seed(state)}. Log: {self.path}"
                ),
                markup=False,
            )
            return
        self.out.print()
        self.out.print(render_board(state, self.viewer, result=False))  # told once, below
        self.out.print()
        self.out.print(Text(printable(result), style="bold"), soft_wrap=False)
        secrets = secrets_summary(state, None)  # every secret is revealed at the end
        if secrets:
            self.out.print("The secrets were:", markup=False)
            for line in secrets:
                self.out.print(f"  {printable(line)}", markup=False)
        if state.settings.chance:
            seed = chance_seed(state)
            self.out.print(
                f"The secret chance seed, now revealed: {seed} (the log's end record holds it; "
                f"play the same dice again with --seed {seed}).",
                markup=False,
            )
        self.out.print(printable(f"The log is saved in {self.path}"), markup=False)

    # --- output -------------------------------------------------------------------

    def _flush(self, *, keep_open_steps: bool = False) -> None:
        lines = self.narrator.take(keep_open_steps=keep_open_steps)
        if self.quiet:
            return
        for line in lines:
            self.out.print(f"  {printable(line)}", markup=False)

    def _error(self, message: str) -> None:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            printable(f"multiversus play: {message}"), markup=False
        )

    def _print_resume_hint(self) -> None:
        words = [program(), "play", "--resume", str(self.path)]
        for seat in SEATS:
            default = "human" if seat == 1 else DEFAULT_BOT
            spec = self.specs.get(seat, DEFAULT_BOT) if seat in self.bots else "human"
            if spec != default:
                words += [f"--player{seat}", spec]
        if self.bot_seed is not None and self.bots:
            words += ["--bot-seed", str(self.bot_seed)]
        self.out.print(printable(f"The log is kept in {self.path}. To carry on:"), markup=False)
        self.out.print(f"  {printable(shlex.join(words))}", markup=False)


class MultiversusTerminal(Terminal):
    """Multiversus' own screens for a seat whose match is played elsewhere (``multiversus
    join``): the board, the menus with the coin selection's confirm step, compass keys and
    ``m C,R`` routes, and ``?``, ``u``, ``d``, ``l`` at any prompt, as at ``multiversus play``,
    drawn from the state the seat's view log fills in. One serves one seat's match: it keeps
    a route typed until its last step and the board last shown."""

    def __init__(self) -> None:
        self.desk: Desk | None = None

    def choose(self, decision: Decision, out: Console, ask: Ask) -> Command:
        """A person's command through Multiversus' menus, the position shown first.

        :raises Quit: when the person types q, or the input ends.
        """
        state: MatchState = decision.state
        seat: Seat = 1 if decision.seat == 1 else 2
        desk = self.desk
        if desk is None:
            desk = self.desk = Desk(out, state, read_line=lambda: ask(""))
            if not state.is_over:
                desk._tell(how_to_win(state))
            out.print("Type h at any prompt for help.", markup=False)
            out.print("Type ? to have the decision in front of you explained.", markup=False)
        desk.state = state
        desk.history = [(entry[0], tuple(entry[1])) for entry in decision.history]
        try:
            return desk._ask(seat)
        except (_Quit, _InputEnded):
            raise Quit from None

    def finish(self, ruleset: AnyRuleset, state: MatchState, out: Console, *, quiet: bool) -> None:
        """The board as the match ended, how it ended and the secrets it kept, as at ``play``
        (every secret is revealed at the end)."""
        if not quiet:
            out.print()
            out.print(render_board(state, None, result=False))  # told once, below
            out.print()
        result = f"The match ended in round {state.round} of 6: {result_text(state)}."
        out.print(Text(printable(result), style="bold"), soft_wrap=False)
        told = secrets_summary(state, None)
        if told and not quiet:
            out.print("The secrets were:", markup=False)
            for line in told:
                out.print(f"  {printable(line)}", markup=False)


def chance_seed(state: MatchState) -> int:
    """The seed of a match's chance: public, or the secret one (show it only once it is over)."""
    return state.chance.seed if state.chance is not None else state.settings.seed


def is_private_decision(state: MatchState) -> bool:
    """True if the decision waited for shows the decider's secrets, so at a shared screen
    the other player must look away: a coin selection, a set-up secret, or a reaction
    offer while the reaction selected is still hidden."""
    if state.pending in ("select", "react", "secret"):
        return True
    act = state.activation
    return state.pending == "offer" and act is not None and not act.reaction_revealed


def _read_stdin() -> str:
    """Read a line from standard input (with line editing at a terminal)."""
    return input()


def _pack(items: Sequence[str], width: int) -> list[list[str]]:
    """Pack menu items into lines no wider than ``width``, four spaces apart, never split."""
    lines: list[list[str]] = []
    used = 0
    for item in items:
        if lines and used + 4 + len(item) <= width:
            lines[-1].append(item)
            used += 4 + len(item)
        else:
            lines.append([item])
            used = len(item)
    return lines


@contextmanager
def _spinner_after(console: Console, text: Text, delay: float) -> Iterator[None]:
    """Show a spinner with ``text`` if the block is still running after ``delay`` seconds.

    Ctrl-C still interrupts the block; the spinner stops with it.
    """
    status = console.status(text, spinner="dots")
    timer = threading.Timer(delay, status.start)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if timer.is_alive():
            timer.join()
        status.stop()


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block ends, so a command and its log entry are written whole."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(
            signal.SIGINT, previous if previous is not None else signal.default_int_handler
        )
        if caught:
            raise KeyboardInterrupt


__all__ = [
    "Desk",
    "Game",
    "MultiversusTerminal",
    "PlayerKind",
    "default_log_path",
    "is_private_decision",
    "play_request",
    "player_spec",
]
