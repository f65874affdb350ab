"""``multiversus verify``: check match logs, or whole folders of them, against the rules.

Each log is read (its form and hash chain), every reveal must open the
commitment made when its secret was chosen, and every recorded command is run
through the rules again, which must give exactly the recorded events
(:func:`multiversus_core.engine.verify.verify_file`); a view log, one side's view
of a match, is held to the same: its chain, its commitments, and every
command its viewer saw, re-run. With ``--against``, each view log must also
agree with the match log on every commitment and public event
(:func:`multiversus_core.engine.verify.verify_against_files`). The command prints a
summary table, then one line per failed log naming the file, the entry and
the reason.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Final

import msgspec
import typer
from rich.console import Console, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from multiversus_cli.jsontext import ascii_json
from multiversus_cli.usage import no_such_file
from multiversus_core.engine.text import printable

if TYPE_CHECKING:
    from multiversus_core.engine.verify import Verification

EXIT_OK: Final = 0
"""Every log passed."""
EXIT_FAILED: Final = 1
"""A log failed: it cannot be read, its chain is broken, a commitment is not honoured, or the
rules give other events."""
EXIT_USAGE: Final = 2
"""A path does not exist, or no log was found."""

PROGRESS_FROM: Final = 6
"""Show a progress bar when verifying at least this many logs."""

EPILOG: Final = (
    "Exit codes: 0 every log passed; 1 a log failed (unreadable, broken chain, a secret "
    "not revealed or not matching its commitment, the rules give other events, or a view "
    "log disagrees with the match log it is checked --against); 2 a path does not exist "
    "or no log (*.jsonl) was found."
)

_SALTS: Final[dict[str | None, str]] = {"secrets": "secrets", "seed": "seed (not secret)"}

_LOG_LINE: Final = re.compile(r"^line (?P<line>\d+), byte \d+: (?P<rest>.*)$")


class OutputFormat(StrEnum):
    """How the results are printed."""

    table = "table"
    json = "json"


class _NoLogs(Exception):
    """A path does not exist or holds no log; the message says which."""


def verify(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH",
            help="Log files, or folders searched recursively for *.jsonl logs.",
            show_default=False,
        ),
    ],
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            help="table for people; json for tools (a list with one object per log).",
            case_sensitive=False,
        ),
    ] = OutputFormat.table,
    against: Annotated[
        list[Path] | None,
        typer.Option(
            "--against",
            metavar="VIEW_LOG",
            help="A view log of the same match (repeat for more): it must agree with the "
            "match log PATH on every commitment and public event.",
            dir_okay=False,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Verify match logs: their chain, their commitments and their events.

    A log passes when its hash chain holds, every secret was revealed as it was
    committed, and re-running the rules gives exactly the recorded events. Dice
    and coin flips follow from the chance seed: public in the header (chance
    column "public", a match played with --seed), or secret until the end
    record reveals it ("secret"; before the end, rolls are checked to be faces).

    A view log (one side's view, written by `multiversus replay --as SIDE --format log`)
    is held to the same rules: its chain and end record, its commitments, and every
    command its viewer saw, re-run with its hidden selections filled in from their
    reveals. The log column names whose view it is.

    Verify alone cannot catch a match log rewritten consistently by whoever holds it
    (a secret changed, its commitment and the chain recomputed). With --against, each
    view log, taken by the other side, must agree with the match log PATH: the first
    disagreement is named.

    Folders are searched recursively for *.jsonl files. The salts column says where the
    commitments' salts came from: "seed" marks a log that is not secret (anyone who knows
    its seed can open its commitments), as logs made for tests are.

    Examples:

    multiversus verify multiversus-20250101-120000.jsonl

    multiversus verify logs/

    multiversus verify logs/ --format json

    multiversus verify match.jsonl --against heroes.jsonl --against adversaries.jsonl
    """
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        from multiversus_core.engine import verify as core  # lazily: the CLI imports without it
    except ImportError as exc:
        err.print(f"multiversus verify: this engine cannot verify logs ({exc})", markup=False)
        raise typer.Exit(EXIT_FAILED) from None
    try:
        if against:
            _check_against(paths, against)
        files = find_logs(paths)
    except _NoLogs as exc:
        for line in exc.args:
            err.print(printable(f"multiversus verify: {line}"), markup=False)
        raise typer.Exit(EXIT_USAGE) from None
    results: list[Verification] = []
    if against:
        results = _verify_against(core, paths[0], against)
    else:
        with _progress(err, len(files)) as advance:
            for file in files:
                results.append(_verify_one(core, file))
                advance()
    out = Console(highlight=False, soft_wrap=True)
    if output is OutputFormat.json:
        out.print(ascii_json(msgspec.json.encode(msgspec.to_builtins(results))), markup=False)
    else:
        out.print(summary(results, out.width, base=common_folder(files)))
        for result in results:
            if not result.ok:
                out.print(Text(failure_line(result), style="red"))
    raise typer.Exit(EXIT_OK if all(r.ok for r in results) else EXIT_FAILED)


def _check_against(paths: Sequence[Path], against: Sequence[Path]) -> None:
    """Refuse --against unless PATH is one match log file and every view log exists."""
    if len(paths) != 1 or not paths[0].is_file():
        raise _NoLogs("--against compares view logs with one match log: give one log file as PATH")
    missing = [str(view) for view in against if not view.is_file()]
    if missing:
        raise _NoLogs(*(no_such_file(name) for name in missing))


def _verify_against(core: ModuleType, path: Path, against: Sequence[Path]) -> list[Verification]:
    """Cross-check; a crash of the verifier fails the run with one line instead of a traceback."""
    try:
        results: list[Verification] = core.verify_against_files(path, against)
    except Exception as exc:  # a log edited by hand may break the rules engine in any way
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())
        return [
            core.Verification(
                path=str(path),
                ok=False,
                entries=0,
                finished=False,
                problem=f"the verifier failed on these logs (a bug): {reason}",
            )
        ]
    return results


def _verify_one(core: ModuleType, file: Path) -> Verification:
    """Verify one log; a crash of the verifier fails that log instead of the whole run."""
    try:
        result: Verification = core.verify_file(file)
    except Exception as exc:  # a log edited by hand may break the rules engine in any way
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())
        return core.Verification(  # type: ignore[no-any-return]
            path=str(file),
            ok=False,
            entries=0,
            finished=False,
            problem=f"the verifier failed on this log (a bug): {reason}",
        )
    return result


def find_logs(paths: Sequence[Path]) -> list[Path]:
    """Return the log files the paths name: files as given, folders' ``*.jsonl`` recursively.

    Each file appears once, in the order given (a folder's logs sorted by path).

    :raises _NoLogs: with one message per path that does not exist or holds no log.
    """
    problems: list[str] = []
    files: list[Path] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.jsonl") if p.is_file())
            if not found:
                problems.append(f"no log (*.jsonl) found in the folder {str(path)!r}")
        elif path.exists():
            found = [path]
        else:
            problems.append(no_such_file(path, folder=True))
            continue
        for file in found:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                files.append(file)
    if problems:
        raise _NoLogs(*problems)
    return files


def common_folder(files: Sequence[Path]) -> Path | None:
    """Return the folder every file is in (searched folders included), or None if none is.

    The table names each file from there, so names stay short enough to read.
    """
    if not files:
        return None
    try:
        common = Path(os.path.commonpath([str(f.parent) for f in files]))
    except ValueError:  # absolute and relative paths mixed
        return None
    return None if str(common) in ("", ".") else common


def summary_table(results: Sequence[Verification], base: Path | None = None) -> Table:
    """Return the summary: one row per log with its entries, whether it finished, and the result.

    Files are named from ``base`` when given (the title says where that is). The file
    names are never broken across lines; the other columns give way on a narrow screen.
    """
    passed = sum(1 for r in results if r.ok)
    where = f", in {printable(str(base))}{os.sep}" if base is not None else ""
    table = Table(
        title=Text(f"{passed} of {len(results)} logs passed{where}"),
        title_justify="left",
    )
    names = [_name(r.path, base) for r in results]
    table.add_column("file", no_wrap=True)
    table.add_column("log")
    table.add_column("fmt", justify="right")
    table.add_column("entries", justify="right")
    table.add_column("finished")
    table.add_column("salts")
    table.add_column("chance")
    table.add_column("result", no_wrap=True)
    for result, name in zip(results, names, strict=True):
        table.add_row(
            Text(printable(name)),
            Text(printable(_kind(result))),
            "?" if result.format is None else str(result.format),
            str(result.entries),
            "yes" if result.finished else "no",
            _SALTS.get(result.salts, "?"),
            result.chance or "?",
            _verdict(result),
        )
    return table


def summary(
    results: Sequence[Verification], width: int, base: Path | None = None
) -> RenderableType:
    """Return the summary table if it fits ``width`` columns whole; otherwise the same facts
    as a list, each file name on a line of its own, so that no name is cut or broken."""
    table = summary_table(results, base)
    measuring = Console(width=10_000, file=io.StringIO())
    if measuring.measure(table).maximum <= width:
        return table
    passed = sum(1 for r in results if r.ok)
    where = f", in {printable(str(base))}{os.sep}" if base is not None else ""
    lines = Text(f"{passed} of {len(results)} logs passed{where}", style="italic")
    for result in results:
        lines.append("\n")
        lines.append_text(_verdict(result))
        lines.append(" " * (8 - len(_verdict(result).plain)))
        lines.append(printable(_name(result.path, base)), style="bold")
        facts = [
            _kind_words(result),
            _format_words(result.format),
            f"{result.entries} entries",
            "finished" if result.finished else "not finished",
            f"salts: {_SALTS.get(result.salts, '?')}",
            f"chance: {result.chance or '?'}",
        ]
        for line in _packed(facts, max(width - 8, 20)):  # each fact whole on its line
            lines.append("\n" + " " * 8 + line)
    return lines


_OLDER: Final[dict[int, str]] = {
    1: "no chain, no commitments: anyone could have written its choices and rolls",
    2: "no commitments: its secret choices were not sealed when made",
    3: "chance public: its rolls follow from the seed in its header",
}
"""What a log of an older format version cannot prove, by version."""


def _packed(facts: Sequence[str], width: int) -> list[str]:
    """The facts joined by commas into lines of at most ``width``, none split."""
    lines: list[str] = []
    for fact in facts:
        if lines and len(lines[-1]) + 2 + len(fact) + 1 <= width:
            lines[-1] += f", {fact}"
        else:
            if lines:
                lines[-1] += ","
            lines.append(fact)
    return lines


def _format_words(version: int | None) -> str:
    """The format version checked, and what an older one cannot prove."""
    if version is None:
        return "format ?"
    lacks = _OLDER.get(version)
    return f"format {version}" if lacks is None else f"format {version} ({lacks})"


def _kind_words(result: Verification) -> str:
    """:func:`_kind` in words: "match log", "the heroes' view log", "unreadable"."""
    if result.view is not None:
        whose = f"{result.view}'" if result.view.endswith("s") else f"{result.view}'s"
        return f"the {whose} view log"
    return "unreadable" if _kind(result) == "?" else "match log"


def _verdict(result: Verification) -> Text:
    return Text("OK", style="green") if result.ok else Text("FAILED", style="bold red")


def _name(path: str, base: Path | None) -> str:
    """A log's path as the table shows it: from ``base`` if it is inside it."""
    if base is None:
        return path
    try:
        return str(Path(path).relative_to(base))
    except ValueError:
        return path


def _kind(result: Verification) -> str:
    """A match log, one side's view log, or unknown (the file could not be read)."""
    if result.view is not None:
        return f"view: {result.view}"
    return "?" if result.code == "log_error" else "match"


def failure_line(result: Verification) -> str:
    """Return one line naming the failed log, the entry where it failed and why."""
    problem = " ".join(printable(result.problem or "failed, with no reason given").split())
    # A LogError's message starts with the path and gives a line: name the entry too.
    problem = problem.removeprefix(f"{' '.join(printable(result.path).split())}, ")
    match = _LOG_LINE.match(problem)
    if match is not None:
        line = int(match["line"])
        where = "the header (line 1)" if line == 1 else f"entry {line - 1} (line {line})"
        problem = where + ": " + match["rest"] if line else match["rest"]
    code = f" [{result.code}]" if result.code else ""
    return printable(f"{result.path}: {problem}{code}")


@contextmanager
def _progress(err: Console, total: int) -> Iterator[Callable[[], None]]:
    """Yield a function that advances a progress bar on stderr (none for a handful of logs)."""
    if total < PROGRESS_FROM:
        yield lambda: None
        return
    progress = Progress(
        TextColumn("Verifying"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task("verify", total=total)
        yield lambda: progress.advance(task)


__all__ = [
    "EPILOG",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "OutputFormat",
    "failure_line",
    "find_logs",
    "summary_table",
    "verify",
]
