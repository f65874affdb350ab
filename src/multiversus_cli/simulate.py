"""``multiversus simulate``: many bot matches of any game over a grid, and their summary.

The game's presenter turns the options into a :class:`~multiversus_cli.simulating.Plan`
(:mod:`multiversus_cli.presenters`): any game's grid, its bots rotated over
the seats (:mod:`multiversus_cli.simulate_any`), or Multiversus' grid of
pairings and variants (:mod:`multiversus_cli.presenters.multiversus_simulate`);
a plan holds its tasks, its file's codec, its summary and the views of it.
Where the matches run is :mod:`multiversus_cli.runners`. This module reads
the options (Multiversus' are declared here, for its help, and handed on as
the request's game options), keeps the ``--out`` file
(one JSON line per match, appended and flushed as each batch comes back, so
a run resumes where it stopped), saves logs, shows progress, and prints the
summary as a table or JSON, or writes it as an HTML report, the same way for
every grid.
"""

from __future__ import annotations

import fcntl
import os
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from types import FrameType
from typing import IO, Annotated, Any, Final
from urllib.parse import quote

import msgspec
import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
)
from rich.text import Text

from multiversus_cli.jsontext import ascii_json
from multiversus_cli.presenters import presenter_for
from multiversus_cli.runners import Runner
from multiversus_cli.simulating import Plan, SimulateRequest, UsageError
from multiversus_core.engine.errors import UnknownGameError
from multiversus_core.engine.records import DEFAULT_GAME
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.simulation import Codec, MatchResult, Record, game_of_header
from multiversus_core.engine.simulation import Task as MatchTask

EXIT_OK: Final = 0
"""Every match of the grid was played to its end."""
EXIT_ERRORS: Final = 1
"""A match raised or its worker kept dying (recorded as an error), or the cluster failed."""
EXIT_USAGE: Final = 2
"""Bad options: an unknown game, team, variant or bot, an --out file of another grid, no
scheduler."""
EXIT_INTERRUPTED: Final = 130
"""Ctrl-C: every finished match is kept."""

DEFAULT_BOT: Final = "heuristic"
"""The bot that plays each side of Multiversus unless told otherwise (``tests/test_cli_layers.py``
holds it to Multiversus' presenter's)."""

EPILOG: Final = (
    "Exit codes: 0 every match played; 1 a match raised or its worker died (recorded as an "
    "error, with its seed and log), or the cluster failed; 2 bad options (an unknown game, "
    "team, variant or bot, an --out file made for another game, grid or seed, a scheduler "
    "that cannot be reached, Dask not installed); 130 interrupted with Ctrl-C (finished "
    "matches are kept)."
)


class OutputFormat(StrEnum):
    """How the summary is printed."""

    table = "table"
    json = "json"


def simulate(
    ctx: typer.Context,
    game: Annotated[
        str,
        typer.Option(
            help="The game to simulate: multiversus, or another (multiversus games lists them).",
        ),
    ] = DEFAULT_GAME,
    players: Annotated[
        str | None,
        typer.Option(
            metavar="BOTS",
            help="Another game: the bot at each seat, by seat, comma-separated: one of the "
            "game's bots, mcts:N for N iterations a decision. (default: random at every seat)",
            show_default=False,
        ),
    ] = None,
    fixed_seats: Annotated[
        bool,
        typer.Option(
            "--fixed-seats",
            help="Another game: play only the seating --players gives, not every rotation "
            "of the bots over the seats.",
        ),
    ] = False,
    heroes: Annotated[
        list[str] | None,
        typer.Option(
            "--heroes",
            help="Hero team ids, comma-separated or repeated. (default: every installed one)",
            show_default=False,
        ),
    ] = None,
    adversaries: Annotated[
        list[str] | None,
        typer.Option(
            "--adversaries",
            help="Adversary team ids, comma-separated or repeated. (default: every installed one)",
            show_default=False,
        ),
    ] = None,
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variants",
            help="A variant set: 'standard', 'all' (standard and each variant alone), or "
            "variant names joined by commas; repeat for more sets. (default: standard)",
            show_default=False,
        ),
    ] = None,
    heroes_bot: Annotated[
        str, typer.Option("--heroes-bot", help="The bot that plays the Heroes.")
    ] = DEFAULT_BOT,
    adversaries_bot: Annotated[
        str, typer.Option("--adversaries-bot", help="The bot that plays the Adversaries.")
    ] = DEFAULT_BOT,
    matches: Annotated[int, typer.Option("--matches", help="Matches per cell of the grid.")] = 100,
    seed: Annotated[
        int, typer.Option("--seed", help="Master seed: every match's seed derives from it.")
    ] = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            help="Local processes. (default: every core)",
            show_default=False,
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Run on a Dask distributed cluster, through the scheduler at this address "
            "(pip install 'multiversus\\[cluster]').",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="JSON lines file, one line per match, appended as matches finish; run "
            "again with the same options to resume.",
            show_default=False,
        ),
    ] = None,
    keep_logs: Annotated[
        Path | None,
        typer.Option(
            "--keep-logs",
            help="Save each match's log in this folder (check them with multiversus verify).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            help="table for people; json for scripts.",
            case_sensitive=False,
        ),
    ] = OutputFormat.table,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Also write a self-contained HTML report with charts to this file.",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play many bot matches of a game over a grid, and summarise them.

    Multiversus: each cell of the grid (a Hero team against an Adversary team
    under one variant set) plays --matches matches. The table gives, per cell,
    the Heroes' win rate among decided matches (draws left out) with its 95%
    Wilson interval; a cell whose interval excludes 50% is flagged as unbalanced.

    Another game (--game ID): --players puts one of the game's bots at each
    seat, and each cell is one rotation of those bots over the seats, so every
    bot sits at every seat; match N of every cell is dealt the same chance. The
    tables give each seat's win rate per cell, then each seat's and each bot's
    over every cell, with 95% Wilson intervals; one that excludes the fair
    share (every seat alike) is flagged.

    Every match's seed derives from the master --seed, the cell (Multiversus)
    and the match's index, so the results are the same whatever the number of
    workers, their order, or the cluster.

    Examples:

    multiversus simulate --matches 200 --out runs/today.jsonl

    multiversus simulate --heroes banner-knight --adversaries smogon --variants all

    multiversus simulate --game sealed-bids --players greedy,mcts,random --matches 20

    multiversus simulate --scheduler tcp://10.0.0.5:8786 --matches 1000 --report report.html
    """
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def fail(message: str, code: int) -> typer.Exit:
        err.print(f"multiversus simulate: {message}", markup=False)
        return typer.Exit(code)

    def given(name: str) -> bool:
        source = ctx.get_parameter_source(name)
        return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")

    try:
        request = SimulateRequest(
            matches=matches,
            seed=seed,
            players=players,
            fixed_seats=fixed_seats,
            game_options={
                "heroes": heroes,
                "adversaries": adversaries,
                "variants": variants,
                "heroes_bot": heroes_bot,
                "adversaries_bot": adversaries_bot,
            },
            given=frozenset(name for name in ctx.params if given(name)),
        )
        load_ruleset(game)
        plan: Plan = presenter_for(game).plan(game, request)
        if workers is not None and workers < 1:
            raise UsageError(f"--workers must be at least 1, not {workers}")
        if scheduler is not None and workers is not None:
            raise UsageError("give --workers or --scheduler, not both")
    except (UsageError, UnknownGameError) as exc:
        raise fail(str(exc), EXIT_USAGE) from None

    tasks = plan.tasks(keep_logs=keep_logs is not None)
    done: dict[tuple[object, int], Any] = {}
    sink: IO[bytes] | None = None
    try:
        if out is not None:
            sink, recorded = open_out(out, plan.codec, plan.grid, tasks)
            done.update((r.key, r) for r in recorded)
        runner = _runner(scheduler, workers)
    except UsageError as exc:
        if sink is not None:
            sink.close()
        raise fail(str(exc), EXIT_USAGE) from None
    error_logs = keep_logs or (out.parent if out is not None else Path.cwd()) / "simulate-errors"
    saved_errors: dict[tuple[object, int], Path] = {}

    def record(result: MatchResult) -> None:
        entry = result.record
        if entry.key in done:  # never counted twice
            return
        if result.log is not None:
            folder = keep_logs if not entry.failed else error_logs
            assert folder is not None
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / plan.log_name(entry)
            path.write_bytes(result.log)
            if entry.failed:
                saved_errors[entry.key] = path
        done[entry.key] = entry
        if sink is not None:
            sink.write(plan.codec.encode_record(entry))
            sink.flush()
        advance()

    todo = [t for t in tasks if t.key not in done]
    interrupted = False
    failure: str | None = None
    with (
        _progress(err, len(tasks), len(tasks) - len(todo), quiet) as advance,
        _interrupts(err) as stopping,
    ):
        try:
            runner.run(todo, record, stopping)
            interrupted = stopping()
        except KeyboardInterrupt:
            interrupted = True
            runner.close(wait=False)
        except Exception as exc:  # the cluster went away: what was recorded stays
            failure = " ".join(f"{type(exc).__name__}: {exc}".split())
        finally:
            runner.close()
            if sink is not None:
                sink.close()

    summary: Any = plan.summarize(done.values())
    played: list[Any] = list(done.values())
    console = Console(highlight=False, soft_wrap=True)
    if output is OutputFormat.json:
        data = msgspec.to_builtins(summary)
        data["complete"] = summary.played == summary.total
        console.print(ascii_json(msgspec.json.encode(data)), markup=False)
    else:
        console.print(plan.table(summary, played), soft_wrap=False)  # words wrap, whole

    def log_of(entry: Any) -> Path | None:
        """Where the match's log was written, if it is there."""
        folder = error_logs if entry.failed else keep_logs
        where = saved_errors.get(entry.key) or (folder and folder / plan.log_name(entry))
        return where if where and where.is_file() else None  # a worker died, or it was moved

    if report is not None:
        logs = {r.key: link(report, where) for r in played if (where := log_of(r)) is not None}
        try:
            report.write_text(plan.report(summary, played, logs), encoding="utf-8")
        except OSError as exc:
            failure = failure or f"cannot write the report {str(report)!r}: {exc.strerror}"
    failed: list[Any] = [r for r in played if r.failed]
    for entry in failed:
        where = log_of(entry)
        kept = f"; log {where}" if where else ""
        err.print(
            f"multiversus simulate: {entry.cell.label}, match {entry.index} (seed "
            f"{entry.seed}): {entry.error}{kept}",
            markup=False,
            style="red",
        )
    if failure is not None:
        raise fail(f"the run stopped: {failure}", EXIT_ERRORS)
    if interrupted:
        resume = f"; run the same command to resume from {out}" if out else ""
        err.print(
            f"multiversus simulate: interrupted after {summary.played} of {summary.total} "
            f"matches{resume}",
            markup=False,
        )
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(EXIT_ERRORS if failed else EXIT_OK)


# --- options -----------------------------------------------------------------


def _runner(scheduler: str | None, workers: int | None) -> Runner:
    from multiversus_cli import runners

    if scheduler is None:
        return runners.LocalRunner(workers or runners.local_workers())
    try:
        return runners.DaskRunner(scheduler)
    except runners.ClusterError as exc:
        raise UsageError(str(exc)) from None


# --- the --out file ----------------------------------------------------------


def open_out(
    path: Path, codec: Codec[Any, Any], grid: Any, tasks: Sequence[MatchTask]
) -> tuple[IO[bytes], list[Record]]:
    """Open the --out file for appending, and return the matches it already holds.

    A new file gets a header naming the grid (and its game, unless Multiversus).
    An existing one must have been made for this very grid; a torn last line (a
    run killed mid-write) is cut off.

    :raises UsageError: if the file cannot be opened, is not a simulation
        file, was made for another game, grid or seed, holds a match not in the
        grid or one twice, or another run is writing it.
    """
    try:
        sink = path.open("ab+")
    except OSError as exc:
        raise UsageError(f"cannot open --out {str(path)!r}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(sink, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise UsageError(f"another run is writing {str(path)!r}") from None
        sink.seek(0)
        data = sink.read()
        if not data:
            sink.write(codec.encode_header(grid))
            sink.flush()
            return sink, []
        records = _read_out(str(path), data, codec, grid, tasks)
        if not data.endswith(b"\n"):  # torn by a kill mid-write: that match is played again
            sink.truncate(data.rfind(b"\n") + 1)
        sink.seek(0, 2)
    except BaseException:
        sink.close()
        raise
    return sink, records


def _read_out(
    name: str, data: bytes, codec: Codec[Any, Any], grid: Any, tasks: Sequence[MatchTask]
) -> list[Record]:
    lines = data.split(b"\n")
    lines.pop()  # after the last newline: nothing, or a line torn by a kill mid-write
    if not lines:
        raise UsageError(f"{name} is not a simulation file (it has no complete first line)")
    game = game_of_header(lines[0])
    if game is not None and game != grid.game:
        raise UsageError(
            f"{name} holds matches of the game {game!r}, not {grid.game}; use another --out"
        )
    try:
        header = codec.decode_header(lines[0])
    except msgspec.DecodeError:
        raise UsageError(
            f"{name} is not a multiversus simulation file; use another --out"
        ) from None
    if header.grid != grid:
        changed = [
            field
            for field in grid.__struct_fields__
            if getattr(grid, field) != getattr(header.grid, field)
        ]
        raise UsageError(
            f"{name} was made for another grid ({', '.join(changed)} differ); use another "
            "--out, or the options it was made with"
        )
    expected = {t.key: t for t in tasks}
    records: list[Record] = []
    seen: set[tuple[object, int]] = set()
    for number, line in enumerate(lines[1:], start=2):
        try:
            entry = codec.decode_record(line)
        except msgspec.DecodeError as exc:
            raise UsageError(f"{name}, line {number}: not a match record ({exc})") from None
        task: Any = expected.get(entry.key)
        if task is None or task.seed != entry.seed:
            raise UsageError(f"{name}, line {number}: a match that is not in this grid")
        if entry.key in seen:
            raise UsageError(
                f"{name}, line {number}: match {entry.index} of "
                f"{entry.cell.label} is recorded twice"
            )
        seen.add(entry.key)
        records.append(entry)
    return records


# --- the report's links -------------------------------------------------------


def link(report: Path, log: Path) -> str:
    """The address of ``log`` from the page ``report``, relative, so that the report and the
    logs can move together."""
    start = report.absolute().parent
    return quote(Path(os.path.relpath(log.absolute(), start)).as_posix())


# --- progress and Ctrl-C -----------------------------------------------------


def pace(task: Task, resumed: int) -> float | None:
    """Matches a second over the run's wall time: the matches this run has finished over the
    time since it began. None before the first is in. Matches come back in batches, so a rate
    over the last few (as Rich's own) reads thousands a second when a batch lands."""
    finished = task.completed - resumed
    elapsed = task.finished_time if task.finished else task.elapsed
    if finished <= 0 or not elapsed:
        return None
    return finished / elapsed


class RateColumn(ProgressColumn):
    """Matches a second, over the run's wall time (:func:`pace`)."""

    def __init__(self, resumed: int) -> None:
        super().__init__()
        self.resumed = resumed
        """The matches an --out file held before this run: not its own."""

    def render(self, task: Task) -> Text:
        speed = pace(task, self.resumed)
        return Text("-- matches/s" if speed is None else f"{speed:.1f} matches/s")


class LeftColumn(RateColumn):
    """The time left at that pace."""

    def render(self, task: Task) -> Text:
        speed = pace(task, self.resumed)
        if task.finished or speed is None or task.total is None:
            return Text("-:--:--", style="progress.remaining")
        left = int((task.total - task.completed) / speed)
        return Text(f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}", "progress.remaining")


@contextmanager
def _progress(err: Console, total: int, completed: int, quiet: bool) -> Iterator[_Advance]:
    """A progress bar on stderr, off when stderr is no terminal or with --quiet."""
    progress = Progress(
        TextColumn("Simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(completed),
        LeftColumn(completed),
        console=err,
        disable=quiet or not err.is_terminal,
    )
    with progress:
        task = progress.add_task("simulate", total=total, completed=completed)
        yield _Advance(progress, task)


class _Advance:
    def __init__(self, progress: Progress, task: int) -> None:
        self._progress = progress
        self._task = task

    def __call__(self) -> None:
        self._progress.advance(self._task)  # type: ignore[arg-type]


@contextmanager
def _interrupts(err: Console) -> Iterator[_Stopping]:
    """The first Ctrl-C lets the batches under way finish; a second one stops at once."""
    stopping = _Stopping(err)

    def handler(signum: int, frame: FrameType | None) -> None:
        if stopping.asked:
            raise KeyboardInterrupt
        stopping.asked = True

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield stopping
    finally:
        signal.signal(signal.SIGINT, previous)


class _Stopping:
    def __init__(self, err: Console) -> None:
        self.asked = False
        self._told = False
        self._err = err

    def __call__(self) -> bool:
        if self.asked and not self._told:
            self._told = True
            self._err.print(
                "multiversus simulate: stopping after the matches under way "
                "(Ctrl-C again to stop now)",
                markup=False,
            )
        return self.asked


__all__ = [
    "DEFAULT_BOT",
    "EPILOG",
    "EXIT_ERRORS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "LeftColumn",
    "OutputFormat",
    "RateColumn",
    "link",
    "open_out",
    "pace",
    "simulate",
]
