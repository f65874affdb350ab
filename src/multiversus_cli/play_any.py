"""``multiversus play --game ID``: a match of any game at the terminal, through its ruleset.

People and bots sit at the seats (``--players``); a person chooses from the
legal commands, numbered, each told by the ruleset, unless the game's
presenter brings a :class:`Terminal` of its own (a board, shorter menus); a
bot is given its seat's view only. Where several seats decide at once, they decide one after
the other, in seat order, and each secret choice stays sealed on the screen:
what is printed of the match is what the public may know. As in a
Multiversus match, the log is written as the match goes, its chance seed is
fresh and secret unless ``--seed`` makes it public, and secret choices are
salted afresh unless ``--seeded-salts``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final, cast

from rich.console import Console, RenderableType
from rich.text import Text

from multiversus_cli.usage import no_such_file, program
from multiversus_core.engine.bots import UnknownBotError, bot_maker
from multiversus_core.engine.chance import chance_commitment, fresh_chance
from multiversus_core.engine.choices import Ask as ChoiceAsk
from multiversus_core.engine.choices import CommandTree, Option, is_tree
from multiversus_core.engine.commit import SaltSource
from multiversus_core.engine.errors import LogError, MultiversusError
from multiversus_core.engine.log import LogWriter, MatchLog, replay
from multiversus_core.engine.position import start_position, without_chance, write_position
from multiversus_core.engine.registry import AnyRuleset, load_ruleset
from multiversus_core.engine.render import renderer_of
from multiversus_core.engine.ruleset import Table
from multiversus_core.engine.text import printable
from multiversus_core.engine.verify import verify

HUMAN: Final = "human"

Ask = Callable[[str], str]
"""Reads one line of a person's answer after showing the prompt (``input`` at the terminal)."""


EXIT_OK: Final = 0
"""The match ended, or the player quit with ``q`` or closed the input: the log is kept."""
EXIT_FAILURE: Final = 1
"""The log could not be written, or the engine failed (a bug)."""
EXIT_USAGE: Final = 2
"""Bad options: an unknown game, team or scenario, a log that exists or cannot be read."""
EXIT_INTERRUPTED: Final = 130
"""Ctrl-C: the log is kept (128 + SIGINT, as shells report it)."""


class PlayError(Exception):
    """Options that cannot start a match of this game; the message says why."""


@dataclass(frozen=True)
class PlayRequest:
    """What ``multiversus play`` was asked for, handed to the game's presenter."""

    players: str | None = None
    """Who sits at each seat, by seat, comma-separated (``--players``)."""
    names: str | None = None
    """The players' names, by seat, comma-separated (``--names``)."""
    seed: int | None = None
    log: Path | None = None
    resume: Path | None = None
    bot_seed: int | None = None
    quiet: bool = False
    delay: float = 0.0
    seeded_salts: bool = False
    start: str | None = None
    """The position to start the match from (``--from``), or None: the game's first."""
    game_options: Mapping[str, str | None] = field(default_factory=dict)
    """The options of one game (Multiversus' ``--heroes``, ``--player1`` and the like), by
    name; None where one was not given (``--player1``, ``--player2`` always are)."""


def one_line(exc: BaseException) -> str:
    """An error's message on one printable line."""
    return " ".join(printable(str(exc)).split()) or type(exc).__name__


def refuse_unless_verified(log: MatchLog) -> None:
    """Refuse to carry on a log that verify refuses (its chance seed re-derives the rolls).

    :raises PlayError: with verify's reason.
    """
    checked = verify(log)
    if not checked.ok:
        reason = " ".join(printable(f"{checked.problem} ({checked.code})").split())
        raise PlayError(f"cannot carry on from this log: it does not verify, {reason}")


_OTHER_GAME_S: Final = ("heroes", "adversaries", "scenario", "name1", "name2")
"""Multiversus' options that another game refuses when given (``--player1`` and ``--player2``
have defaults, and are passed by)."""


def play_request(
    out: Console,
    err: Console,
    game: str,
    request: PlayRequest,
    terminal: Terminal | None = None,
    ask: Ask = input,
) -> int:
    """Play the match of ``game`` that ``request`` asks for, through its ruleset, its people
    deciding through ``terminal`` (by number among the legal commands unless a game gives its
    own) and answering through ``ask``; return the exit code."""
    terminal = terminal or BY_NUMBER
    try:
        ruleset = load_ruleset(game)
        given = [
            f"--{name}" for name in _OTHER_GAME_S if request.game_options.get(name) is not None
        ]
        if given:
            raise PlayError(
                f"{', '.join(given)}: Multiversus options, not {ruleset.title}'s "
                "(use --players and --names)"
            )
        specs = seat_specs(ruleset, request.players)
        resumed = request.resume
        if resumed is not None:
            fixed = {
                "--seed": request.seed,
                "--names": request.names,
                "--log": request.log,
                "--from": request.start,
            }
            clashes = [option for option, value in fixed.items() if value is not None]
            if request.seeded_salts:
                clashes.append("--seeded-salts")
            if clashes:
                raise PlayError(
                    f"{', '.join(clashes)} cannot be used with --resume: the log fixes the match"
                )
            if not resumed.is_file():
                raise PlayError(no_such_file(resumed))
            try:
                writer, match = LogWriter.resume(resumed, refuse_unless_verified)
            except LogError as exc:
                raise PlayError(f"cannot carry on from this log: {one_line(exc)}") from None
            return resume(
                ruleset,
                specs,
                writer,
                match,
                out,
                bot_seed=request.bot_seed,
                quiet=request.quiet,
                delay=request.delay,
                terminal=terminal,
                ask=ask,
            )
        start = None
        if request.start is not None:
            if request.seeded_salts:
                raise PlayError("--seeded-salts cannot be used with --from: the position fixes it")
            names = None if request.names is None else _names(request.names)
            start, chance = start_position(request.start, seed=request.seed, players=names)
            if start.settings.__class__ is not ruleset.settings_type:
                raise PlayError(f"--from: the position is not of {ruleset.title}")
            settings = start.settings
        else:
            settings, chance = settings_for(
                ruleset, request.names, request.seed, request.seeded_salts
            )
        path = request.log or default_log(ruleset)
        if path.exists():
            raise PlayError(f"{str(path)!r} already exists: choose another --log")
    except (PlayError, MultiversusError) as exc:
        err.print(printable(f"multiversus play: {one_line(exc)}"), markup=False)
        return EXIT_USAGE
    return run(
        ruleset,
        specs,
        settings,
        chance,
        path,
        out,
        bot_seed=request.bot_seed,
        quiet=request.quiet,
        delay=request.delay,
        terminal=terminal,
        ask=ask,
        start=start,
    )


def _names(names: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in names.split(","))


class Quit(Exception):
    """A person typed q, or the input ended."""


def seat_specs(ruleset: AnyRuleset, players: str | None) -> list[str]:
    """Who sits at each seat: ``human`` or one of the game's bots, from ``--players``.

    By default a person in seat 1 and the game's ``random`` bot in the others.

    :raises PlayError: for the wrong number of seats or an unknown bot.
    """
    seats = len(ruleset.table(ruleset.settings_type()).players)
    if players is None:
        return [HUMAN] + ["random"] * (seats - 1)
    specs = [spec.strip().lower() for spec in players.split(",")]
    if len(specs) != seats:
        raise PlayError(
            f"{ruleset.title} has {seats} seats: --players takes {seats} names, "
            f"one a seat, such as {','.join([HUMAN] + ['random'] * (seats - 1))}"
        )
    known = [HUMAN, *ruleset.bots]
    for spec in specs:
        if spec == HUMAN:
            continue
        try:
            bot_maker(ruleset.bots, spec)
        except UnknownBotError:
            raise PlayError(
                f"--players: no player {spec!r} in {ruleset.title}: {', '.join(known)}"
            ) from None
        except ValueError as exc:
            raise PlayError(f"--players: {exc}") from None
    return specs


def settings_for(
    ruleset: AnyRuleset, names: str | None, seed: int | None, seeded_salts: bool
) -> tuple[Any, Any]:
    """The match's settings and its secret chance seed (None when ``seed`` makes it public).

    :raises PlayError: if the settings are not good (a name missing, a seed out of range).
    """
    default = ruleset.settings_type()
    players = ruleset.table(default).players
    if names is not None:
        players = _names(names)
    salts: SaltSource = "seed" if seeded_salts else "secrets"
    chance = None if seed is not None else fresh_chance()
    table = Table(
        seed if seed is not None else 0,
        "" if chance is None else chance_commitment(chance),
        salts,
        players,
    )
    settings = ruleset.with_table(default, table)
    try:
        ruleset.check_settings(settings)
    except ValueError as exc:
        raise PlayError(str(exc)) from None
    return settings, chance


def run(
    ruleset: AnyRuleset,
    specs: list[str],
    settings: Any,
    chance: Any,
    log: Path,
    out: Console,
    *,
    bot_seed: int | None = None,
    quiet: bool = False,
    delay: float = 0.0,
    ask: Ask = input,
    terminal: Terminal | None = None,
    start: Any = None,
) -> int:
    """Play a new match to its end (or until a person quits); return the exit status (0).

    The log is written entry by entry; quitting keeps it as far as it went. ``start`` is
    the state the match starts from at a position (None: the game's initial state).
    """
    names = ruleset.table(settings).players
    out.print(Text(printable(f"{ruleset.title}: {', '.join(names)}."), style="bold"))
    out.print(Text(printable(f"The log is kept in {log}; `{program()} verify` checks it.")))
    position = "" if start is None else write_position(without_chance(start))
    with LogWriter.create(log, settings, chance, position) as writer:
        state = ruleset.initial_state(settings, chance) if start is None else start
        options = _Options(bot_seed, quiet, delay, ask, terminal or BY_NUMBER)
        return _play(ruleset, specs, settings, state, writer, out, options)


def resume(
    ruleset: AnyRuleset,
    specs: list[str],
    writer: LogWriter,
    match: MatchLog,
    out: Console,
    *,
    bot_seed: int | None = None,
    quiet: bool = False,
    delay: float = 0.0,
    ask: Ask = input,
    terminal: Terminal | None = None,
) -> int:
    """Carry on the match of a log (:meth:`LogWriter.resume` opened it) to its end."""
    settings = match.header.settings
    heading = f"{ruleset.title}, carried on after entry {len(match.entries)}."
    out.print(Text(printable(heading), style="bold"))
    with writer:
        state = replay(match, writer.path)
        options = _Options(bot_seed, quiet, delay, ask, terminal or BY_NUMBER)
        return _play(ruleset, specs, settings, state, writer, out, options)


@dataclass(frozen=True)
class _Options:
    """How a match is played here: the bots' seed, how much is shown and how fast, and how
    people answer and decide."""

    bot_seed: int | None
    quiet: bool
    delay: float
    ask: Ask
    terminal: Terminal


def _play(
    ruleset: AnyRuleset,
    specs: list[str],
    settings: Any,
    state: Any,
    writer: LogWriter,
    out: Console,
    options: _Options,
) -> int:
    bot_seed, quiet, delay = options.bot_seed, options.quiet, options.delay
    ask, terminal = options.ask, options.terminal
    base = secrets.randbits(32) if bot_seed is None else bot_seed
    bots = {
        seat: bot_maker(ruleset.bots, spec)(base + seat)
        for seat, spec in enumerate(specs, start=1)
        if spec != HUMAN
    }
    names = ruleset.table(settings).players
    while seats := ruleset.to_act(state):
        seat = seats[0]
        legal = ruleset.legal_commands(state, seat)
        if seat in bots:
            view = ruleset.view(state, ruleset.viewer_of(state, seat))
            command = bots[seat].choose(view, legal)
        else:
            try:
                listed = legal if is_tree(legal) else tuple(cast(Sequence[Any], legal))
                decision = Decision(ruleset, state, seat, listed, names)
                command = terminal.choose(decision, out, ask)
            except Quit:
                out.print(
                    Text(
                        f"Stopped after {writer.lines - 1} entries; the log is kept, and "
                        f"`{program()} play --resume {writer.path}` carries it on."
                    )
                )
                return 0
        command = ruleset.salted(command, settings)
        events, after = ruleset.decide(command, state)
        writer.append(command, events)
        if not quiet:
            terminal.tell(ruleset, state, command, events, out)
            if delay and not any(spec == HUMAN for spec in specs):
                time.sleep(delay)
        state = after
    terminal.finish(ruleset, state, out, quiet=quiet)
    return 0


@dataclass(frozen=True)
class Decision:
    """What a person decides at the terminal: a command for ``seat`` in ``state``."""

    ruleset: AnyRuleset
    state: Any
    seat: int
    legal: Any
    """The seat's legal commands: a tuple in the ruleset's order, or for a decision too big
    to list, a tree of choices (:mod:`multiversus_core.engine.choices`)."""
    names: tuple[str, ...]
    """The players' names, by seat."""
    history: tuple[tuple[Any, tuple[Any, ...]], ...] = ()
    """The match so far as the seat knows it, a command and its events an entry, for a
    terminal that tells it (``l`` in Multiversus); empty where the terminal keeps its own."""


def _words(ruleset: AnyRuleset, state: Any, seat: int) -> Callable[[Any], str]:
    """How a seat's legal commands read in its menu: in the game's words from the seat's view
    (its renderer's), else as the ruleset tells who gave what."""
    looks = renderer_of(ruleset)
    if looks is None:
        return lambda command: ruleset.describe_command(command, state)
    seen = ruleset.view(state, ruleset.viewer_of(state, seat))
    return lambda command: looks.command_words(command, seen)


class Terminal:
    """How a match goes at the terminal: how a person decides, how each entry is told and how
    the match closes. This one lists the legal commands by number and tells the match in the
    ruleset's words; a game's presenter may give its own (a board, shorter menus)."""

    def choose(self, decision: Decision, out: Console, ask: Ask) -> Any:
        """A person's choice among the legal commands, by number; q quits.

        :raises Quit: when the person types q, or the input ends.
        """
        ruleset, state, seat, legal = (
            decision.ruleset,
            decision.state,
            decision.seat,
            decision.legal,
        )
        heading = f"{decision.names[seat - 1]}, seat {seat}: {ruleset.where(state)}"
        out.print(Text(printable(heading), style="bold"))
        if is_tree(legal):
            return TREE_MENUS.build(legal, out, ask)
        say = _words(ruleset, state, seat)
        for number, command in enumerate(legal, start=1):
            out.print(Text(printable(f"  {number}. {say(command)}")))
        while True:
            answer = read_answer(ask, f"Your choice (1-{len(legal)}, q quits): ").lower()
            if answer == "q":
                raise Quit
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            out.print(Text(f"Type a number from 1 to {len(legal)}, or q."))

    def tell(
        self, ruleset: AnyRuleset, state: Any, command: Any, events: Any, out: Console
    ) -> None:
        """Print an entry as the public knows it: a secret choice stays sealed on the screen."""
        public = ruleset.viewer_of(state, None)
        shown = ruleset.redact_command(command, state, public)
        out.print(Text(printable(ruleset.describe_command(shown, state))))
        for event in events:
            line = ruleset.narrate(ruleset.redact_event(event, public), state, None)
            state = ruleset.evolve(state, event)
            if line:
                out.print(Text(printable(f"   {line}")))

    def finish(self, ruleset: AnyRuleset, state: Any, out: Console, *, quiet: bool) -> None:
        """Print how the match ended."""
        result = ruleset.outcome(state)
        assert result is not None  # the match is over: nobody is to act
        out.print(Text(printable(f"The match is over: {result.reason}."), style="bold"))


class TreeMenus:
    """How a tree of choices is asked at the terminal: one menu a choice, each option by its
    number or its key; ``b`` takes back the answer before, ``q`` quits.

    A game's :class:`Terminal` may ask through a subclass: options told in its own words
    (:meth:`label`), its own prompt, and answers of its own (:meth:`other`: help, the odds,
    a square typed by name that makes two choices at once).
    """

    def build(self, tree: CommandTree[Any], out: Console, ask: Ask) -> Any:
        """A command built from ``tree``, one menu at a time.

        :raises Quit: when the person types q, or the input ends.
        """
        chosen: list[str] = []
        marks: list[int] = []  # how many keys were chosen before each answer, to take it back
        while True:
            step = tree.ask(tuple(chosen))
            if not isinstance(step, ChoiceAsk):
                return step
            keys = self.pick(step, tuple(chosen), out, ask, back=bool(marks))
            if keys is None:
                del chosen[marks.pop() :]
            else:
                marks.append(len(chosen))
                chosen.extend(keys)

    def pick(
        self, asked: ChoiceAsk, chosen: tuple[str, ...], out: Console, ask: Ask, *, back: bool
    ) -> tuple[str, ...] | None:
        """The keys one answer chooses (one option, or what :meth:`other` makes of it); None
        when the person takes back the answer before (``back``: there is one).

        :raises Quit: when the person types q, or the input ends.
        """
        self.show(asked, chosen, out)
        keys = {option.key.lower(): option.key for option in asked.options}
        numbered = dict(zip(self.numbers(asked), asked.options, strict=True))
        while True:
            answer = read_answer(ask, self.prompt(asked, back=back))
            low = answer.lower()
            if low in numbered:
                return (numbered[low].key,)
            if low in keys:
                return (keys[low],)
            if low == "q":
                raise Quit
            if low == "b" and back:
                return None
            handled = self.other(answer, asked, chosen, out)
            if isinstance(handled, tuple):
                return handled
            if not handled:
                out.print(Text(self.hint(asked, back=back)))

    def show(self, asked: ChoiceAsk, chosen: tuple[str, ...], out: Console) -> None:
        """Print the question and its options, numbered from 1."""
        out.print(Text(printable(asked.prompt)))
        for number, option in zip(self.numbers(asked), asked.options, strict=True):
            out.print(Text(printable(f"  {number}. {self.label(asked, option, chosen)}")))

    def numbers(self, asked: ChoiceAsk) -> tuple[str, ...]:
        """The number each option is shown and chosen by: 1 to the count."""
        return tuple(str(number) for number in range(1, len(asked.options) + 1))

    def label(self, asked: ChoiceAsk, option: Option, chosen: tuple[str, ...]) -> str:
        """An option in words: the tree's."""
        return option.label

    def prompt(self, asked: ChoiceAsk, *, back: bool) -> str:
        """The prompt of a menu."""
        more = ", b back" if back else ""
        return f"Your choice (1-{len(asked.options)}, q quits{more}): "

    def hint(self, asked: ChoiceAsk, *, back: bool) -> str:
        """What to type, after an answer that chose nothing."""
        more = ", b back" if back else ""
        return f"Type a number from 1 to {len(asked.options)}{more}, or q."

    def other(
        self, answer: str, asked: ChoiceAsk, chosen: tuple[str, ...], out: Console
    ) -> tuple[str, ...] | bool:
        """An answer that is no number, key, ``q`` or ``b``: the keys it chooses, True if it
        was answered here (something printed), False if it means nothing (the hint follows)."""
        return False


TREE_MENUS: Final = TreeMenus()
"""A tree's choices by number or key: every game's, unless its terminal asks its own way."""


class BoardTerminal(Terminal):
    """A game's terminal that draws its board before each decision (with a hint of the keys
    the first time) and once more as the match ended; the game says how (:meth:`draw`)."""

    HINT: Final = "Type ? for the odds of the choices at hand, h for help."

    def __init__(self) -> None:
        self.helped = False

    def draw(
        self, state: Any, viewer: str, *, result: bool = True, marked: Collection[Any] = ()
    ) -> RenderableType:
        """The board of ``state`` as ``viewer`` may see it, ``marked`` squares standing out;
        ``result=False`` leaves out a result about to be told."""
        raise NotImplementedError

    def show_board(self, decision: Decision, out: Console, marked: Collection[Any] = ()) -> None:
        """The board before a decision, as the deciding seat sees it."""
        viewer = decision.ruleset.viewer_of(decision.state, decision.seat)
        out.print()
        out.print(self.draw(decision.state, viewer, marked=marked))
        if not self.helped:
            out.print(self.HINT, markup=False)
            self.helped = True

    def finish(self, ruleset: AnyRuleset, state: Any, out: Console, *, quiet: bool) -> None:
        """The board as it ended, then how the match ended."""
        if not quiet:
            out.print()
            out.print(self.draw(state, "spectator", result=False))
        super().finish(ruleset, state, out, quiet=quiet)


BY_NUMBER: Final = Terminal()
"""Each person chooses among the legal commands by number: every game's, unless it has its
own."""


def read_answer(ask: Ask, prompt: str) -> str:
    """A person's answer, stripped.

    :raises Quit: when the input ends.
    """
    try:
        return ask(prompt).strip()
    except EOFError:
        raise Quit from None


def default_log(ruleset: AnyRuleset) -> Path:
    """Where a match is logged when ``--log`` is not given: the game's id and the time."""
    return Path(f"{ruleset.id}-{datetime.now():%Y%m%d-%H%M%S}.jsonl")
