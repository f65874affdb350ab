"""Simulation: many bot matches over a grid of pairings and variants, and their summary.

A *grid* names the Hero teams, the Adversary teams, the variant sets, the
bot of each side, how many matches each *cell* (one pairing under one
variant set) plays, and a master seed. Every match is a pure function of
its :class:`MatchTask`: the match seed derives from the master seed, the
cell and the match's index alone (:func:`match_seed`), and each bot's seed
from the match seed, apart from the chance the match seed drives
(:func:`bot_seed`). So a grid's results never depend on how many workers
play it, in what order, or where.

:func:`play_task` plays one task and returns a small :class:`MatchRecord`
(and the match log when asked, or when the match raised). Records are the
data; :func:`summarize` is a view of them: per cell, the Heroes' win rate
among decided matches with its 95 % Wilson interval, draws, mean rounds and
end reasons. Nothing here reads a clock, prints or touches a file.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.log import LogEntry, MatchLog, encode_log, new_header
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.multiversus.bots.specs import Bot, RandomBot, make_bot
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.events import Event
from multiversus_core.rulesets.multiversus.evolve import initial_state
from multiversus_core.rulesets.multiversus.match import apply, start_match
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import SIDES, Side
from multiversus_core.rulesets.multiversus.views import MatchView

SIMULATION_FORMAT: Final = "multiversus-simulation"
"""The ``format`` value of the first line of a simulation's JSON lines file."""
SIMULATION_VERSION: Final = 1
"""The version of that file's format."""

Z_95: Final = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""

Winner: TypeAlias = Literal["heroes", "adversaries", "draw"]
"""Who won a match, or ``"draw"``."""

ERROR_REASON: Final = "error"
"""The ``reason`` of a match that raised instead of ending."""
WORKER_DIED_REASON: Final = "worker_died"
"""The ``reason`` of a match whose worker process died every time it was played."""


class Cell(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One pairing under one set of variants: a cell of the grid."""

    heroes: str
    """The Hero team's id."""
    adversaries: str
    """The Adversary team's id."""
    variants: tuple[str, ...] = ()
    """The variants in play, in alphabetical order; none for the standard rules."""

    @property
    def label(self) -> str:
        """``"heroes v adversaries, variants"`` (``standard`` for no variant)."""
        return f"{self.heroes} v {self.adversaries}, {variants_label(self.variants)}"


class Grid(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What a simulation plays: every cell ``matches`` times, seeded from ``seed``."""

    heroes: tuple[str, ...]
    """Hero team ids."""
    adversaries: tuple[str, ...]
    """Adversary team ids."""
    variants: tuple[tuple[str, ...], ...] = ((),)
    """Variant sets, each in alphabetical order; ``()`` is the standard rules."""
    heroes_bot: str = "heuristic"
    """The bot spec that plays the Heroes (see
    :func:`~multiversus_core.rulesets.multiversus.bots.specs.make_bot`)."""
    adversaries_bot: str = "heuristic"
    """The bot spec that plays the Adversaries."""
    matches: int = 100
    """Matches per cell."""
    seed: int = 0
    """The master seed every match seed derives from."""

    def cells(self) -> tuple[Cell, ...]:
        """Every cell: each Hero team against each Adversary team under each variant set."""
        return tuple(
            Cell(heroes=h, adversaries=a, variants=v)
            for h in self.heroes
            for a in self.adversaries
            for v in self.variants
        )

    def tasks(self, *, keep_logs: bool = False) -> tuple[MatchTask, ...]:
        """Every match of the grid, match index first, so a run cut short covers every cell."""
        cells = self.cells()
        return tuple(
            MatchTask(
                cell=cell,
                index=index,
                seed=match_seed(self.seed, cell, index),
                heroes_bot=self.heroes_bot,
                adversaries_bot=self.adversaries_bot,
                keep_log=keep_logs,
            )
            for index in range(self.matches)
            for cell in cells
        )


class MatchTask(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Everything one match needs: :func:`play_task` is a pure function of it."""

    cell: Cell
    index: int
    """The match's 0-based index in its cell."""
    seed: int
    """The match seed: the match's chance, and the root of its bots' seeds."""
    heroes_bot: str
    adversaries_bot: str
    keep_log: bool = False
    """Return the match log with the record (it is returned anyway if the match raises)."""

    @property
    def key(self) -> tuple[Cell, int]:
        """What identifies the match in its grid."""
        return (self.cell, self.index)

    def settings(self) -> MatchSettings:
        """The match settings: the cell's teams and variants, and the match seed."""
        return MatchSettings(
            heroes=self.cell.heroes,
            adversaries=self.cell.adversaries,
            variants=self.cell.variants,
            seed=self.seed,
        )


class MatchRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One played match, as one JSON line of a simulation file."""

    heroes: str
    adversaries: str
    variants: tuple[str, ...]
    heroes_bot: str
    adversaries_bot: str
    index: int
    """The match's 0-based index in its cell."""
    seed: int
    """The match seed (``MatchSettings.seed`` of the match)."""
    winner: Winner | None
    """The winning side, ``"draw"``, or None if the match raised."""
    reason: str
    """Why the match ended (``MatchState.ended``), or ``"error"``/``"worker_died"``."""
    rounds: int
    """The round the match ended in (or had reached when it raised)."""
    commands: int
    """Commands accepted, set-up included."""
    error: str | None = None
    """What the match raised, in one line; None for a match that ended."""

    @property
    def cell(self) -> Cell:
        """The cell the match belongs to."""
        return Cell(heroes=self.heroes, adversaries=self.adversaries, variants=self.variants)

    @property
    def key(self) -> tuple[Cell, int]:
        """What identifies the match in its grid."""
        return (self.cell, self.index)

    @property
    def failed(self) -> bool:
        """True if the match raised or could not be played."""
        return self.winner is None


class MatchResult(msgspec.Struct, frozen=True, gc=False):
    """What a task returns: its record, and its log when kept."""

    record: MatchRecord
    log: bytes | None = None
    """The match log (:func:`~multiversus_core.engine.log.encode_log`), if asked for or if it
    raised."""


class SimulationHeader(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The first line of a simulation file: which grid its matches belong to."""

    format: Literal["multiversus-simulation"]
    version: int
    grid: Grid


# --- seeds -------------------------------------------------------------------


def _derive(*parts: object) -> int:
    """A 64-bit seed from the parts, through SHA-256 (stable across runs and machines)."""
    text = "\x1f".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def match_seed(master: int, cell: Cell, index: int) -> int:
    """The seed of match ``index`` of ``cell``: from the master seed, the cell and the index."""
    return _derive("match", master, cell.heroes, cell.adversaries, ",".join(cell.variants), index)


def bot_seed(match: int, role: Side | Literal["set-up"]) -> int:
    """The seed of one side's bot (or of the set-up chooser) in the match seeded ``match``.

    It is a hash of the match seed and the role, so a bot's choices draw
    on a stream of their own, apart from the match's dice and from the other bot.
    """
    return _derive("bot", match, role)


# --- playing -----------------------------------------------------------------


class _SideBots:
    """One bot per side, whatever seat plays it; a seeded random chooser before sides are known.

    Set-up choices made before sides are chosen (the starting team, the
    side) go to a random bot of their own, so they favour neither side's bot.
    Every command chosen is kept, to rebuild the log of a match that raises.
    """

    def __init__(self, bots: Mapping[Side, Bot], set_up: Bot) -> None:
        self._bots = bots
        self._set_up = set_up
        self.chosen: list[Command] = []

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Ask the deciding side's bot (the set-up chooser before sides are known)."""
        # A side's view is seen by that side; before sides are chosen, by the spectator.
        bot = self._bots[view.viewer] if view.viewer in SIDES else self._set_up
        command = bot.choose(view, legal)
        self.chosen.append(command)
        return command


MakeBot: TypeAlias = Callable[[str, int], Bot]
"""Makes a bot from its spec and seed, as
:func:`~multiversus_core.rulesets.multiversus.bots.specs.make_bot` does."""


def play_task(task: MatchTask, make: MakeBot = make_bot) -> MatchResult:
    """Play one match of a grid; never raises for a match that fails.

    A match that raises (a bot or the engine failing) gives a record with
    ``winner=None``, ``reason="error"`` and the error in one line, and the
    log of the commands accepted until then. ``make`` builds the bots from
    the task's specs: bots of your own can play a grid through it (pass
    ``functools.partial(play_task, make=...)`` to a runner).

    :raises ValueError: only if a bot spec is unknown (check specs with
        :func:`multiversus_core.rulesets.multiversus.bots.specs.make_bot` before a run).
    """
    settings = task.settings()
    heroes = make(task.heroes_bot, bot_seed(task.seed, "heroes"))
    adversaries = make(task.adversaries_bot, bot_seed(task.seed, "adversaries"))
    bots = _SideBots(
        {"heroes": heroes, "adversaries": adversaries}, RandomBot(bot_seed(task.seed, "set-up"))
    )
    try:
        log, state = play_match(settings, {1: bots, 2: bots})
    except Exception as exc:  # a failing match is data: the run goes on
        log, state = _partial(settings, bots.chosen)
        error = " ".join(f"{type(exc).__name__}: {exc}".split())
        return MatchResult(
            record=_record(task, None, ERROR_REASON, state.round, len(log.entries), error),
            log=encode_log(log),
        )
    winner: Winner = state.winner or "draw"
    record = _record(task, winner, state.ended or "", state.round, len(log.entries))
    return MatchResult(record=record, log=encode_log(log) if task.keep_log else None)


def _partial(settings: MatchSettings, chosen: Iterable[Command]) -> tuple[MatchLog, MatchState]:
    """The log and state of the commands accepted before a match failed."""
    entries: list[LogEntry[Command, Event]] = []
    state = initial_state(settings)
    try:
        state = start_match(settings)
        for command in chosen:
            state, events = apply(state, command)
            entries.append(LogEntry(command=command, events=events))
    except Exception:  # the failing command (or the settings) end the log
        pass
    return MatchLog(header=new_header(settings), entries=tuple(entries)), state


def _record(
    task: MatchTask,
    winner: Winner | None,
    reason: str,
    rounds: int,
    commands: int,
    error: str | None = None,
) -> MatchRecord:
    return MatchRecord(
        heroes=task.cell.heroes,
        adversaries=task.cell.adversaries,
        variants=task.cell.variants,
        heroes_bot=task.heroes_bot,
        adversaries_bot=task.adversaries_bot,
        index=task.index,
        seed=task.seed,
        winner=winner,
        reason=reason,
        rounds=rounds,
        commands=commands,
        error=error,
    )


def worker_died(task: MatchTask, times: int) -> MatchRecord:
    """The record of a match whose worker process died each of ``times`` times it was played."""
    return _record(
        task,
        None,
        WORKER_DIED_REASON,
        0,
        0,
        f"the worker process died while playing this match ({times} times)",
    )


# --- the file ----------------------------------------------------------------

_encoder: Final = msgspec.json.Encoder()
_header_decoder: Final = msgspec.json.Decoder(SimulationHeader)
_record_decoder: Final = msgspec.json.Decoder(MatchRecord)


def encode_header(grid: Grid) -> bytes:
    """The first line of a simulation file for ``grid``, newline included."""
    header = SimulationHeader(format=SIMULATION_FORMAT, version=SIMULATION_VERSION, grid=grid)
    return _encoder.encode(header) + b"\n"


def decode_header(line: bytes) -> SimulationHeader:
    """Read the first line of a simulation file.

    :raises msgspec.ValidationError: if it is not a simulation header.
    :raises msgspec.DecodeError: if it is not JSON.
    """
    return _header_decoder.decode(line)


def encode_record(record: MatchRecord) -> bytes:
    """One match record as a JSON line, newline included."""
    return _encoder.encode(record) + b"\n"


def decode_record(line: bytes) -> MatchRecord:
    """Read one match line of a simulation file.

    :raises msgspec.DecodeError: if it is not a match record (ValidationError included).
    """
    return _record_decoder.decode(line)


# --- the summary -------------------------------------------------------------


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


class CellSummary(msgspec.Struct, frozen=True, gc=False):
    """The results of one cell, as the table and the report show them."""

    heroes: str
    adversaries: str
    variants: tuple[str, ...]
    matches: int
    """Matches played to their end (errors not included)."""
    heroes_wins: int
    adversaries_wins: int
    draws: int
    errors: int
    """Matches that raised, or whose worker died each time."""
    win_rate: float | None
    """The Heroes' share of the decided matches (draws left out); None if none was decided."""
    interval: Interval | None
    """The 95 % Wilson interval of ``win_rate``."""
    unbalanced: bool
    """True if the interval excludes 50 %: one side wins more often, beyond chance."""
    favoured: Side | None
    """The side an unbalanced cell favours; None for a balanced one."""
    mean_rounds: float | None
    """The mean round in which the matches ended."""
    mean_commands: float | None
    reasons: dict[str, int]
    """How many matches ended for each reason, most frequent first (errors included)."""
    rounds: dict[int, int]
    """How many matches ended in each round."""

    @property
    def cell(self) -> Cell:
        """The cell summarised."""
        return Cell(heroes=self.heroes, adversaries=self.adversaries, variants=self.variants)


class Summary(msgspec.Struct, frozen=True, gc=False):
    """A whole run: the grid, how much of it was played, and each cell."""

    grid: Grid
    total: int
    """Matches in the grid."""
    played: int
    """Matches recorded (errors included)."""
    errors: int
    cells: tuple[CellSummary, ...]


def summarize_cell(cell: Cell, records: Iterable[MatchRecord]) -> CellSummary:
    """Summarise one cell's records."""
    kept = list(records)
    return _summary(cell, [r for r in kept if not r.failed], [r for r in kept if r.failed])


def _summary(cell: Cell, ended: list[MatchRecord], errors: list[MatchRecord]) -> CellSummary:
    heroes = sum(1 for r in ended if r.winner == "heroes")
    adversaries = sum(1 for r in ended if r.winner == "adversaries")
    decided = heroes + adversaries
    interval = wilson(heroes, decided)
    unbalanced = interval is not None and not interval.low <= 0.5 <= interval.high
    reasons = Counter(r.reason for r in [*ended, *errors])
    return CellSummary(
        heroes=cell.heroes,
        adversaries=cell.adversaries,
        variants=cell.variants,
        matches=len(ended),
        heroes_wins=heroes,
        adversaries_wins=adversaries,
        draws=len(ended) - decided,
        errors=len(errors),
        win_rate=heroes / decided if decided else None,
        interval=interval,
        unbalanced=unbalanced,
        favoured=("heroes" if heroes * 2 > decided else "adversaries") if unbalanced else None,
        mean_rounds=sum(r.rounds for r in ended) / len(ended) if ended else None,
        mean_commands=sum(r.commands for r in ended) / len(ended) if ended else None,
        reasons=dict(sorted(reasons.items(), key=lambda item: (-item[1], item[0]))),
        rounds=dict(sorted(Counter(r.rounds for r in ended).items())),
    )


def summarize(grid: Grid, records: Iterable[MatchRecord]) -> Summary:
    """Summarise a run's records cell by cell, in the grid's order.

    Records of cells outside the grid are left out.
    """
    by_cell: dict[Cell, tuple[list[MatchRecord], list[MatchRecord]]] = {
        cell: ([], []) for cell in grid.cells()
    }
    for record in records:
        lists = by_cell.get(record.cell)
        if lists is not None:
            lists[record.failed].append(record)
    cells = tuple(_summary(cell, ended, errors) for cell, (ended, errors) in by_cell.items())
    return Summary(
        grid=grid,
        total=grid.matches * len(by_cell),
        played=sum(c.matches + c.errors for c in cells),
        errors=sum(c.errors for c in cells),
        cells=cells,
    )


def variants_label(variants: Sequence[str]) -> str:
    """A variant set in words: ``standard``, or its names joined by ``+``."""
    return "+".join(variants) if variants else "standard"


__all__ = [
    "ERROR_REASON",
    "SIMULATION_FORMAT",
    "SIMULATION_VERSION",
    "WORKER_DIED_REASON",
    "Cell",
    "CellSummary",
    "Grid",
    "Interval",
    "MakeBot",
    "MatchRecord",
    "MatchResult",
    "MatchTask",
    "SimulationHeader",
    "Summary",
    "Winner",
    "bot_seed",
    "decode_header",
    "decode_record",
    "encode_header",
    "encode_record",
    "match_seed",
    "play_task",
    "summarize",
    "summarize_cell",
    "variants_label",
    "wilson",
]
