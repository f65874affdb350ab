"""Simulation for any game: many bot matches, seeded so that where they run never matters.

A simulation is a *grid*: cells, each played a number of times, every match
seeded from a master seed. Every match is a pure function of its *task*, and
returns a small *record* (and its log when asked, or when it raised); a
summary is a view of the records. A game's grid may be its own (Multiversus
pairs teams under variants, :mod:`multiversus_core.rulesets.multiversus.simulation`);
what is shared lives here: seeds (:func:`derive_seed`, :func:`bot_seed`),
the Wilson interval, the result of a task, the simulation file's header and
its codec, and the runners' view of a task (:class:`Task`).

:class:`GameGrid` is the grid every game has: one bot per seat, and the
cells are the distinct rotations of those bots over the seats, so each bot
sits at each seat equally often. Match ``i`` of every cell is dealt the same
chance (its seed derives from the master seed, the game and ``i`` alone), so
the seatings are compared on the same deals, as in duplicate bridge: what
differs between cells is who sat where, not the luck of the dice. The
summary (:func:`summarize_game`) gives each seat's win rate per cell with
its 95 % Wilson interval, and the totals of each seat (whatever bot sat
there: does the seat matter?) and of each bot (wherever it sat: which bot
is stronger?).

Nothing here reads a clock, prints or touches a file.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

import msgspec

from multiversus_core.engine.bots import Bot, bot_maker
from multiversus_core.engine.log import LogEntry, MatchLog, encode_log, new_header
from multiversus_core.engine.play import play_match
from multiversus_core.engine.records import DEFAULT_GAME
from multiversus_core.engine.registry import AnyRuleset, load_ruleset, ruleset_of
from multiversus_core.engine.ruleset import Seat, Table

SIMULATION_FORMAT: Final = "multiversus-simulation"
"""The ``format`` value of the first line of a simulation's JSON lines file."""
SIMULATION_VERSION: Final = 1
"""The version of that file's format."""

Z_95: Final = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""

ERROR_REASON: Final = "error"
"""The ``reason`` of a match that raised instead of ending."""
WORKER_DIED_REASON: Final = "worker_died"
"""The ``reason`` of a match whose worker process died every time it was played."""

GridT = TypeVar("GridT", bound=msgspec.Struct)
RecordT = TypeVar("RecordT", bound=msgspec.Struct)


# --- seeds -------------------------------------------------------------------


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the parts, through SHA-256 (stable across runs and machines)."""
    text = "\x1f".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def bot_seed(match: int, role: str | Seat) -> int:
    """The seed of one role's bot (a seat, a side, the set-up chooser) in the match ``match``.

    It is a hash of the match seed and the role, so a bot's choices draw
    on a stream of their own, apart from the match's dice and from the other bots.
    """
    return derive_seed("bot", match, role)


# --- what every grid's tasks and records are ---------------------------------


class Task(Protocol):
    """One match of a grid, as the runners see it: a picklable struct."""

    @property
    def key(self) -> tuple[Any, int]:
        """What identifies the match in its grid: its cell and its index."""
        ...

    def died(self, times: int) -> Any:
        """The record of this match when its worker died each of ``times`` times."""
        ...

    def play(self) -> MatchResult:
        """Play the match; never raises for a match that fails (its record says so)."""
        ...


class Record(Protocol):
    """One played match, as a simulation file holds it."""

    @property
    def key(self) -> tuple[Any, int]:
        """What identifies the match in its grid."""
        ...

    @property
    def cell(self) -> Any:
        """The match's cell; its ``label`` names it in words."""
        ...

    @property
    def index(self) -> int:
        """The match's 0-based index in its cell."""
        ...

    @property
    def seed(self) -> int:
        """The match seed."""
        ...

    @property
    def error(self) -> str | None:
        """What the match raised, in one line; None for a match that ended."""
        ...

    @property
    def failed(self) -> bool:
        """True if the match raised or could not be played."""
        ...


class MatchResult(msgspec.Struct, frozen=True, gc=False):
    """What a task returns: its record, and its log when kept."""

    record: Any
    """The match's record (a struct of its grid's record type)."""
    log: bytes | None = None
    """The match log (:func:`~multiversus_core.log.encode_log`), if asked for or if it raised."""


def play(task: Task) -> MatchResult:
    """Play one task of any grid (:meth:`Task.play`): what the runners play by default."""
    return task.play()


def one_line(error: BaseException) -> str:
    """An exception as one line: its type and message."""
    return " ".join(f"{type(error).__name__}: {error}".split())


# --- the file ----------------------------------------------------------------


class SimulationHeader(msgspec.Struct, Generic[GridT], frozen=True, forbid_unknown_fields=True):
    """The first line of a simulation file: which grid its matches belong to."""

    format: Literal["multiversus-simulation"]
    version: int
    grid: GridT


class _GridGame(msgspec.Struct, frozen=True):
    game: str = DEFAULT_GAME  # Multiversus' grids name no game


class _AnyHeader(msgspec.Struct, frozen=True):
    format: Literal["multiversus-simulation"]
    grid: _GridGame


_encoder: Final = msgspec.json.Encoder()
_any_header: Final = msgspec.json.Decoder(_AnyHeader)


def game_of_header(line: bytes) -> str | None:
    """The game a simulation file's first line names (Multiversus if it names none), or None
    if the line is no simulation header."""
    try:
        return _any_header.decode(line).grid.game
    except msgspec.DecodeError:
        return None


class Codec(Generic[GridT, RecordT]):
    """Reads and writes the lines of a simulation file of one kind of grid."""

    def __init__(self, grid: type[GridT], record: type[RecordT]) -> None:
        self._header: msgspec.json.Decoder[SimulationHeader[GridT]] = msgspec.json.Decoder(
            SimulationHeader[grid]  # type: ignore[valid-type]
        )
        self._record = msgspec.json.Decoder(record)

    def encode_header(self, grid: GridT) -> bytes:
        """The first line of a simulation file for ``grid``, newline included."""
        header = SimulationHeader(format=SIMULATION_FORMAT, version=SIMULATION_VERSION, grid=grid)
        return _encoder.encode(header) + b"\n"

    def decode_header(self, line: bytes) -> SimulationHeader[GridT]:
        """Read the first line of a simulation file.

        :raises msgspec.DecodeError: if it is not a header of this kind of grid
            (ValidationError included).
        """
        return self._header.decode(line)

    def encode_record(self, record: RecordT) -> bytes:
        """One match record as a JSON line, newline included."""
        return _encoder.encode(record) + b"\n"

    def decode_record(self, line: bytes) -> RecordT:
        """Read one match line of a simulation file.

        :raises msgspec.DecodeError: if it is not a match record (ValidationError included).
        """
        return self._record.decode(line)


# --- the summary's arithmetic ------------------------------------------------


class Interval(msgspec.Struct, frozen=True, gc=False):
    """A proportion's 95 % Wilson score interval."""

    low: float
    high: float


def wilson(successes: int, trials: int, z: float = Z_95) -> Interval | None:
    """The Wilson score interval of ``successes`` in ``trials`` (None for no trials).

    :raises ValueError: if ``successes`` is not between 0 and ``trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    if trials == 0:
        return None
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(low=max(0.0, centre - spread), high=min(1.0, centre + spread))


def count_reasons(reasons: Iterable[str]) -> dict[str, int]:
    """How many times each reason occurs, most frequent first (ties alphabetically)."""
    return dict(sorted(Counter(reasons).items(), key=lambda item: (-item[1], item[0])))


# --- any game's grid ---------------------------------------------------------


class Seating(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A cell of a game's grid: which bot sits at each seat."""

    bots: tuple[str, ...]
    """The bot at each seat, seat 1 first (names of the game's ``Ruleset.bots``)."""

    @property
    def label(self) -> str:
        """``"greedy v mcts v random"``: the bots by seat."""
        return " v ".join(self.bots)


class GameGrid(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What a simulation of any game plays: each seating ``matches`` times, seeded from
    ``seed``."""

    game: str
    """The game's id (:func:`~multiversus_core.engine.registry.load_ruleset`)."""
    bots: tuple[str, ...]
    """The bot at each seat as given, seat 1 first."""
    matches: int = 100
    """Matches per cell."""
    seed: int = 0
    """The master seed every match seed derives from."""
    rotate: bool = True
    """Play every distinct rotation of ``bots`` over the seats (each bot at each seat);
    False: only the seating given."""

    def cells(self) -> tuple[Seating, ...]:
        """Every cell: the seating given, then each other distinct rotation of it."""
        count = len(self.bots) if self.rotate else 1
        turns = (
            self.bots[-shift:] + self.bots[:-shift] if shift else self.bots
            for shift in range(count)
        )
        return tuple(Seating(bots) for bots in dict.fromkeys(turns))

    def tasks(self, *, keep_logs: bool = False) -> tuple[GameTask, ...]:
        """Every match of the grid, match index first, so a run cut short covers every cell."""
        cells = self.cells()
        return tuple(
            GameTask(
                game=self.game,
                cell=cell,
                index=index,
                seed=deal_seed(self.seed, self.game, index),
                keep_log=keep_logs,
            )
            for index in range(self.matches)
            for cell in cells
        )


def deal_seed(master: int, game: str, index: int) -> int:
    """The seed of match ``index`` of every cell of a game's grid: the same deal for every
    seating (from the master seed, the game and the index)."""
    return derive_seed("match", master, game, index)


class GameRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One played match of a game's grid, as one JSON line of a simulation file."""

    bots: tuple[str, ...]
    """The bot at each seat, seat 1 first: the match's cell."""
    index: int
    """The match's 0-based index in its cell."""
    seed: int
    """The match seed (the table's public chance seed)."""
    winners: tuple[Seat, ...] | None
    """The seats that won; empty for a draw; None if the match raised or its worker died."""
    reason: str
    """Why the match ended (``Outcome.reason``), or ``"error"``/``"worker_died"``."""
    commands: int
    """Commands accepted."""
    error: str | None = None
    """What the match raised, in one line; None for a match that ended."""

    @property
    def cell(self) -> Seating:
        """The cell the match belongs to."""
        return Seating(self.bots)

    @property
    def key(self) -> tuple[Seating, int]:
        """What identifies the match in its grid."""
        return (self.cell, self.index)

    @property
    def failed(self) -> bool:
        """True if the match raised or could not be played."""
        return self.winners is None

    @property
    def draw(self) -> bool:
        """True if the match ended with no winner."""
        return self.winners == ()


class GameTask(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Everything one match of a game's grid needs: :func:`play_game_task` is a pure function
    of it."""

    game: str
    cell: Seating
    index: int
    """The match's 0-based index in its cell."""
    seed: int
    """The match seed: the table's public chance seed, and the root of the bots' seeds."""
    keep_log: bool = False
    """Return the match log with the record (it is returned anyway if the match raises)."""

    @property
    def key(self) -> tuple[Seating, int]:
        """What identifies the match in its grid."""
        return (self.cell, self.index)

    def settings(self, ruleset: AnyRuleset) -> Any:
        """The match settings: the game's defaults, with the match seed as the public chance
        seed and salts drawn from it (the log is reproducible, not secret)."""
        default = ruleset.settings_type()
        players = ruleset.table(default).players
        return ruleset.with_table(default, Table(self.seed, "", "seed", players))

    def record(
        self,
        winners: tuple[Seat, ...] | None,
        reason: str,
        commands: int,
        error: str | None = None,
    ) -> GameRecord:
        """This match's record."""
        return GameRecord(
            bots=self.cell.bots,
            index=self.index,
            seed=self.seed,
            winners=winners,
            reason=reason,
            commands=commands,
            error=error,
        )

    def died(self, times: int) -> GameRecord:
        """The record of this match when its worker died each of ``times`` times."""
        return self.record(None, WORKER_DIED_REASON, 0, died_message(times))

    def play(self) -> MatchResult:
        """Play the match (:func:`play_game_task`)."""
        return play_game_task(self)


def died_message(times: int) -> str:
    """The error of a match whose worker died each of ``times`` times it was played."""
    return f"the worker process died while playing this match ({times} times)"


class _Recording:
    """A seat's bot, keeping every command chosen (shared by the seats, in the order chosen)."""

    def __init__(self, bot: Bot, chosen: list[Any]) -> None:
        self._bot = bot
        self.chosen = chosen

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        command = self._bot.choose(view, legal)
        self.chosen.append(command)
        return command


def play_recorded(settings: Any, bots: Mapping[Seat, Bot]) -> tuple[MatchLog, Any, str | None]:
    """Play a match with one bot per seat; never raises for a match that fails.

    Returns its log, its last state and None; or, if a bot or the rules
    raised, the log and state of the commands accepted until then, and the
    error in one line.

    :raises UnknownGameError: if no installed game has settings of this type.
    """
    chosen: list[Any] = []
    recording = {seat: _Recording(bot, chosen) for seat, bot in bots.items()}
    try:
        log, state = play_match(settings, recording)
    except Exception as exc:  # a failing match is data: the run goes on
        log, state = _partial(ruleset_of(settings), settings, chosen)
        return log, state, one_line(exc)
    return log, state, None


def _partial(ruleset: AnyRuleset, settings: Any, chosen: Iterable[Any]) -> tuple[MatchLog, Any]:
    """The log and state of the commands accepted before a match failed."""
    entries: list[LogEntry[Any, Any]] = []
    state: Any = None
    try:
        state = ruleset.initial_state(settings, None)
        for command in chosen:
            events, state = ruleset.decide(ruleset.salted(command, settings), state)
            entries.append(LogEntry(command=command, events=events))
    except Exception:  # the failing command (or the settings) end the log
        pass
    return MatchLog(header=new_header(settings), entries=tuple(entries)), state


def play_game_task(task: GameTask) -> MatchResult:
    """Play one match of a game's grid; never raises for a match that fails.

    A match that raises (a bot or the rules failing) gives a record with
    ``winners=None``, ``reason="error"`` and the error in one line, and the
    log of the commands accepted until then.

    :raises UnknownGameError: if the task's game is not installed.
    :raises ValueError: if a bot spec names no bot of the game, or a budget it does not take
        (:func:`~.bots.bot_maker`; check them before a run).
    """
    ruleset = load_ruleset(task.game)
    settings = task.settings(ruleset)
    bots = {
        seat: bot_maker(ruleset.bots, name)(bot_seed(task.seed, seat))
        for seat, name in enumerate(task.cell.bots, start=1)
    }
    log, state, error = play_recorded(settings, bots)
    outcome = ruleset.outcome(state) if error is None else None
    if outcome is None:
        error = error or "the match stopped before its end"
        record = task.record(None, ERROR_REASON, len(log.entries), error)
        return MatchResult(record=record, log=encode_log(log))
    record = task.record(outcome.winners, outcome.reason, len(log.entries))
    return MatchResult(record=record, log=encode_log(log) if task.keep_log else None)


GAME_CODEC: Final = Codec(GameGrid, GameRecord)
"""The codec of a game's simulation file."""


# --- any game's summary ------------------------------------------------------


class WinRate(msgspec.Struct, frozen=True, gc=False):
    """How often one seat (or one bot) won, among the matches played to their end."""

    wins: int
    matches: int
    rate: float | None
    """``wins / matches`` (draws count as no win); None with no match."""
    interval: Interval | None
    """The 95 % Wilson interval of ``rate``."""
    unbalanced: bool
    """True if the interval excludes the fair share: it wins more (or less) than chance
    explains."""


class SeatingSummary(msgspec.Struct, frozen=True, gc=False):
    """The results of one cell of a game's grid."""

    bots: tuple[str, ...]
    matches: int
    """Matches played to their end (errors not included)."""
    draws: int
    errors: int
    """Matches that raised, or whose worker died each time."""
    seats: tuple[WinRate, ...]
    """Each seat's wins, seat 1 first."""
    mean_commands: float | None
    reasons: dict[str, int]
    """How many matches ended for each reason, most frequent first (errors included)."""

    @property
    def cell(self) -> Seating:
        """The cell summarised."""
        return Seating(self.bots)


class GameSummary(msgspec.Struct, frozen=True, gc=False):
    """A whole run of a game's grid: how much was played, each cell, and the totals."""

    grid: GameGrid
    total: int
    """Matches in the grid."""
    played: int
    """Matches recorded (errors included)."""
    errors: int
    fair: float | None
    """The fair share of wins: each seat's, were every seat alike (the wins of every seat
    over every ended match, divided by the seats); None with no match ended."""
    cells: tuple[SeatingSummary, ...]
    seats: tuple[WinRate, ...]
    """Each seat's wins over every cell, whatever bot sat there: does the seat matter?"""
    bots: dict[str, WinRate]
    """Each bot's wins over every cell, wherever it sat: which bot is stronger?"""


def _rate(wins: int, matches: int, fair: float | None) -> WinRate:
    interval = wilson(wins, matches)
    unbalanced = (
        interval is not None and fair is not None and not interval.low <= fair <= interval.high
    )
    return WinRate(wins, matches, wins / matches if matches else None, interval, unbalanced)


def summarize_game(grid: GameGrid, records: Iterable[GameRecord]) -> GameSummary:
    """Summarise a run's records cell by cell, in the grid's order, and seat by seat and bot
    by bot over every cell.

    Records of cells outside the grid are left out.
    """
    seats = len(grid.bots)
    by_cell: dict[Seating, list[GameRecord]] = {cell: [] for cell in grid.cells()}
    for record in records:
        kept = by_cell.get(record.cell)
        if kept is not None:
            kept.append(record)
    ended = [r for kept in by_cell.values() for r in kept if not r.failed]
    wins = sum(len(r.winners or ()) for r in ended)
    fair = wins / seats / len(ended) if ended else None
    cells = tuple(_cell(cell, kept, seats, fair) for cell, kept in by_cell.items())
    bots: dict[str, tuple[int, int]] = {}
    for record in ended:
        for seat, bot in enumerate(record.bots, start=1):
            won, played = bots.get(bot, (0, 0))
            bots[bot] = (won + (seat in (record.winners or ())), played + 1)
    return GameSummary(
        grid=grid,
        total=grid.matches * len(by_cell),
        played=sum(len(kept) for kept in by_cell.values()),
        errors=sum(c.errors for c in cells),
        fair=fair,
        cells=cells,
        seats=tuple(
            _rate(sum(c.seats[s].wins for c in cells), len(ended), fair) for s in range(seats)
        ),
        bots={bot: _rate(won, played, fair) for bot, (won, played) in sorted(bots.items())},
    )


def _cell(
    cell: Seating, records: list[GameRecord], seats: int, fair: float | None
) -> SeatingSummary:
    ended = [r for r in records if not r.failed]
    return SeatingSummary(
        bots=cell.bots,
        matches=len(ended),
        draws=sum(1 for r in ended if r.draw),
        errors=len(records) - len(ended),
        seats=tuple(
            _rate(sum(1 for r in ended if seat in (r.winners or ())), len(ended), fair)
            for seat in range(1, seats + 1)
        ),
        mean_commands=sum(r.commands for r in ended) / len(ended) if ended else None,
        reasons=count_reasons(r.reason for r in records),
    )


__all__ = [
    "ERROR_REASON",
    "GAME_CODEC",
    "SIMULATION_FORMAT",
    "SIMULATION_VERSION",
    "WORKER_DIED_REASON",
    "Z_95",
    "Codec",
    "GameGrid",
    "GameRecord",
    "GameSummary",
    "GameTask",
    "Interval",
    "MatchResult",
    "Record",
    "Seating",
    "SeatingSummary",
    "SimulationHeader",
    "Task",
    "WinRate",
    "bot_seed",
    "count_reasons",
    "deal_seed",
    "derive_seed",
    "died_message",
    "game_of_header",
    "one_line",
    "play",
    "play_game_task",
    "play_recorded",
    "summarize_game",
    "wilson",
]
