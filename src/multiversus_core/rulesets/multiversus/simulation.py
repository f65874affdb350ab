"""Multiversus' simulation: many bot matches over a grid of pairings and variants.

A *grid* names the Hero teams, the Adversary teams, the variant sets, the
bot of each side, how many matches each *cell* (one pairing under one
variant set) plays, and a master seed. Every match is a pure function of
its :class:`MatchTask`: the match seed derives from the master seed, the
cell and the match's index alone (:func:`match_seed`), and each bot's seed
from the match seed, apart from the chance the match seed drives
(:func:`bot_seed`). So a grid's results never depend on how many workers
play it, in what order, or where. What every game's simulation shares
(seeds, the file's codec, the Wilson interval, the play of a match that may
fail) is the engine's (:mod:`multiversus_core.engine.simulation`).

:func:`play_task` plays one task and returns a small :class:`MatchRecord`
(and the match log when asked, or when the match raised). Records are the
data; :func:`summarize` is a view of them: per cell, the Heroes' win rate
among decided matches with its 95 % Wilson interval, draws, mean rounds and
end reasons. Nothing here reads a clock, prints or touches a file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.log import encode_log
from multiversus_core.engine.simulation import (
    ERROR_REASON,
    SIMULATION_FORMAT,
    SIMULATION_VERSION,
    WORKER_DIED_REASON,
    Codec,
    Interval,
    MatchResult,
    SimulationHeader,
    bot_seed,
    count_reasons,
    derive_seed,
    died_message,
    play_recorded,
    wilson,
)
from multiversus_core.rulesets.multiversus.bots.specs import Bot, RandomBot, make_bot
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.terms import SIDES, Side
from multiversus_core.rulesets.multiversus.views import MatchView

GAME: Final = "multiversus"
"""The id of the game this grid plays."""

Winner: TypeAlias = Literal["heroes", "adversaries", "draw"]
"""Who won a match, or ``"draw"``."""


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
    """The bot spec that plays the Heroes (see :func:`multiversus_core.bots.make_bot`)."""
    adversaries_bot: str = "heuristic"
    """The bot spec that plays the Adversaries."""
    matches: int = 100
    """Matches per cell."""
    seed: int = 0
    """The master seed every match seed derives from."""

    @property
    def game(self) -> str:
        """The id of the game the grid plays."""
        return GAME

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

    def died(self, times: int) -> MatchRecord:
        """The record of this match when its worker died each of ``times`` times."""
        return worker_died(self, times)

    def play(self) -> MatchResult:
        """Play the match with the bots :func:`~multiversus_core.bots.make_bot` makes."""
        return play_task(self)


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


# --- seeds -------------------------------------------------------------------


def match_seed(master: int, cell: Cell, index: int) -> int:
    """The seed of match ``index`` of ``cell``: from the master seed, the cell and the index."""
    variants = ",".join(cell.variants)
    return derive_seed("match", master, cell.heroes, cell.adversaries, variants, index)


# --- playing -----------------------------------------------------------------


class _SideBots:
    """One bot per side, whatever seat plays it; a seeded random chooser before sides are known.

    Set-up choices made before sides are chosen (the starting team, the
    side) go to a random bot of their own, so they favour neither side's bot.
    """

    def __init__(self, bots: Mapping[Side, Bot], set_up: Bot) -> None:
        self._bots = bots
        self._set_up = set_up

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Ask the deciding side's bot (the set-up chooser before sides are known)."""
        # A side's view is seen by that side; before sides are chosen, by the spectator.
        bot = self._bots[view.viewer] if view.viewer in SIDES else self._set_up
        return bot.choose(view, legal)


MakeBot: TypeAlias = Callable[[str, int], Bot]
"""Makes a bot from its spec and seed, as :func:`~multiversus_core.bots.make_bot` does."""


def play_task(task: MatchTask, make: MakeBot = make_bot) -> MatchResult:
    """Play one match of a grid; never raises for a match that fails.

    A match that raises (a bot or the engine failing) gives a record with
    ``winner=None``, ``reason="error"`` and the error in one line, and the
    log of the commands accepted until then. ``make`` builds the bots from
    the task's specs: bots of your own can play a grid through it (pass
    ``functools.partial(play_task, make=...)`` to a runner).

    :raises ValueError: only if a bot spec is unknown (check specs with
        :func:`multiversus_core.bots.make_bot` before a run).
    """
    settings = task.settings()
    heroes = make(task.heroes_bot, bot_seed(task.seed, "heroes"))
    adversaries = make(task.adversaries_bot, bot_seed(task.seed, "adversaries"))
    bots = _SideBots(
        {"heroes": heroes, "adversaries": adversaries}, RandomBot(bot_seed(task.seed, "set-up"))
    )
    log, state, error = play_recorded(settings, {1: bots, 2: bots})
    if error is not None:
        rounds = state.round if state is not None else 0
        return MatchResult(
            record=_record(task, None, ERROR_REASON, rounds, len(log.entries), error),
            log=encode_log(log),
        )
    winner: Winner = state.winner or "draw"
    record = _record(task, winner, state.ended or "", state.round, len(log.entries))
    return MatchResult(record=record, log=encode_log(log) if task.keep_log else None)


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
    return _record(task, None, WORKER_DIED_REASON, 0, 0, died_message(times))


# --- the file ----------------------------------------------------------------

CODEC: Final = Codec(Grid, MatchRecord)
"""The codec of a Multiversus simulation file."""


def encode_header(grid: Grid) -> bytes:
    """The first line of a simulation file for ``grid``, newline included."""
    return CODEC.encode_header(grid)


def decode_header(line: bytes) -> SimulationHeader[Grid]:
    """Read the first line of a simulation file.

    :raises msgspec.ValidationError: if it is not a simulation header.
    :raises msgspec.DecodeError: if it is not JSON.
    """
    return CODEC.decode_header(line)


def encode_record(record: MatchRecord) -> bytes:
    """One match record as a JSON line, newline included."""
    return CODEC.encode_record(record)


def decode_record(line: bytes) -> MatchRecord:
    """Read one match line of a simulation file.

    :raises msgspec.DecodeError: if it is not a match record (ValidationError included).
    """
    return CODEC.decode_record(line)


# --- the summary -------------------------------------------------------------


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
        reasons=count_reasons(r.reason for r in [*ended, *errors]),
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
    "CODEC",
    "ERROR_REASON",
    "GAME",
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
    "worker_died",
]
