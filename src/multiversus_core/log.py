"""Match logs: the record format that stores a match, and replay from it.

A log is JSON Lines (``docs/log-format.md``): a header record with the match
settings, then one entry record per accepted command with the events
:func:`~multiversus_core.decide` produced for it. Records are storage; events
know nothing of them. Encoding is canonical, so a log read and written again
is the same bytes, and reading is strict: anything that is not a log this
engine wrote raises :class:`~multiversus_core.errors.LogError` naming the
file, the 1-based line and the reason.

:func:`replay` folds the recorded events with :func:`~multiversus_core.evolve`;
it never decides again and never rolls.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from types import TracebackType
from typing import Any, BinaryIO, Final, Literal, Self, TypeAlias

import msgspec

import multiversus_core
from multiversus_core.commands import Command
from multiversus_core.errors import LogError
from multiversus_core.events import Event
from multiversus_core.evolve import evolve, initial_state
from multiversus_core.settings import MatchSettings
from multiversus_core.state import MatchState

LOG_FORMAT: Final = "multiversus-log"
"""The ``format`` value of every log header."""
LOG_VERSION: Final = 1
"""The log format version this engine writes and the newest it reads."""


class LogHeader(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="header",
):
    """The first record of a log: what it is and how the match was set up."""

    format: Literal["multiversus-log"]
    """Always ``"multiversus-log"``."""
    version: int
    """The log format version (1)."""
    engine: str
    """The version of the engine that wrote the log (``multiversus_core.__version__``)."""
    settings: MatchSettings
    """The settings the match was started with."""


class LogEntry(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="entry",
):
    """One accepted command and the events it caused, in order."""

    command: Command
    """The command, exactly as it was accepted."""
    events: tuple[Event, ...]
    """The events :func:`~multiversus_core.decide` produced for it."""


LogRecord: TypeAlias = LogHeader | LogEntry
"""One line of a log."""


class MatchLog(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A whole match log: the header and every entry, in order."""

    header: LogHeader
    """The first line."""
    entries: tuple[LogEntry, ...] = ()
    """The lines after the header, one per accepted command."""

    @property
    def settings(self) -> MatchSettings:
        """The settings the match was started with."""
        return self.header.settings


# Built once: encoders and decoders are reusable and much faster that way.
_encoder: Final = msgspec.json.Encoder()
_header_decoder: Final = msgspec.json.Decoder(LogHeader)
_entry_decoder: Final = msgspec.json.Decoder(LogEntry)
_record_decoder: Final[msgspec.json.Decoder[LogRecord]] = msgspec.json.Decoder(LogRecord)


# --- writing -----------------------------------------------------------------


def encode_header(settings: MatchSettings) -> bytes:
    """Return the header line for a match with these settings, newline included."""
    header = LogHeader(
        format=LOG_FORMAT,
        version=LOG_VERSION,
        engine=multiversus_core.__version__,
        settings=settings,
    )
    return _encoder.encode(header) + b"\n"


def encode_entry(command: Command, events: Iterable[Event]) -> bytes:
    """Return the entry line for an accepted command and its events, newline included."""
    return _encoder.encode(LogEntry(command=command, events=tuple(events))) + b"\n"


def encode_log(log: MatchLog) -> bytes:
    """Return a whole log in its canonical encoding."""
    return _encoder.encode(log.header) + b"\n" + _encoder.encode_lines(log.entries)


class LogWriter:
    """Appends a match's entries to a log file as they are accepted.

    Every line is written with one write call, flushed and synced to disk
    before :meth:`append` returns, so a crash loses at most the line being
    written. Use :meth:`create` for a new log and :meth:`resume` to go on with
    an existing one; a writer is a context manager that closes the file.
    """

    def __init__(self, path: str, file: BinaryIO, lines: int) -> None:
        """Wrap an open file; prefer :meth:`create` or :meth:`resume`."""
        self.path = path
        """The log file."""
        self.lines = lines
        """Lines in the file so far, the header included."""
        self._file = file

    @classmethod
    def create(cls, path: str | os.PathLike[str], settings: MatchSettings) -> LogWriter:
        """Create a new log file and write its header.

        :raises LogError: (line 0) if the file already exists or cannot be
            created or written.
        """
        name = os.fspath(path)
        try:
            file = open(name, "xb")  # noqa: SIM115 - the writer owns the file until close()
        except OSError as error:
            raise LogError(name, 0, _os_reason(error)) from error
        writer = cls(name, file, 0)
        try:
            writer._write(encode_header(settings))
        except LogError:
            file.close()
            raise
        return writer

    @classmethod
    def resume(cls, path: str | os.PathLike[str]) -> tuple[LogWriter, MatchLog]:
        """Open an existing, complete log to append to it.

        Returns the writer and the log read so far.

        :raises LogError: if the file cannot be opened or is not a valid log
            (a log cut off mid-line included: repairing it is not done here).
        """
        name = os.fspath(path)
        log = read_log(name)
        try:
            file = open(name, "ab")  # noqa: SIM115 - the writer owns the file until close()
        except OSError as error:
            raise LogError(name, 0, _os_reason(error)) from error
        return cls(name, file, 1 + len(log.entries)), log

    def append(self, command: Command, events: Iterable[Event]) -> None:
        """Write one entry and wait until it is on disk.

        :raises ValueError: if the writer is closed.
        :raises LogError: naming the line being written, if the write fails.
        """
        self._write(encode_entry(command, events))

    def close(self) -> None:
        """Close the file; closing twice does nothing."""
        self._file.close()

    @property
    def closed(self) -> bool:
        """True once the writer is closed."""
        return self._file.closed

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<LogWriter {self.path!r} ({state}, {self.lines} lines)>"

    def _write(self, line: bytes) -> None:
        if self._file.closed:
            raise ValueError(f"the log writer for {self.path} is closed")
        try:
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as error:
            raise LogError(self.path, self.lines + 1, _os_reason(error)) from error
        self.lines += 1


# --- reading -----------------------------------------------------------------


def read_log(path: str | os.PathLike[str]) -> MatchLog:
    """Read a log file.

    :raises LogError: (line 0) if the file cannot be read, with the system's
        reason; otherwise as :func:`decode_log`.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as file:
            data = file.read()
    except OSError as error:
        raise LogError(name, 0, _os_reason(error)) from error
    return decode_log(data, name)


def decode_log(data: bytes, path: str = "<memory>") -> MatchLog:
    """Read a log from bytes; ``path`` names it in errors.

    :raises LogError: naming the first bad line and what is wrong with it: an
        empty log, a missing, misplaced, unknown-version or foreign header, a
        record that does not fit the schema (unknown field, unknown event or
        command kind, wrong type), a truncated or blank line, invalid UTF-8,
        or a line that is not in canonical form.
    """
    log = _decode_fast(data)
    if log is not None:
        return log
    return _decode_checked(data, path)


def _decode_fast(data: bytes) -> MatchLog | None:
    """Decode a valid log in a few C calls; return None if anything is off.

    A log is valid exactly when it decodes and re-encodes to the same bytes
    (canonical form), so one comparison checks every line at once: newlines,
    blank lines, whitespace, UTF-8 and field order.
    """
    end = data.find(b"\n")
    if end < 0:
        return None
    view = memoryview(data)
    try:
        header = _header_decoder.decode(view[:end])
        entries = _entry_decoder.decode_lines(view[end + 1 :])
        if header.version != LOG_VERSION:
            return None
        # startswith/endswith compare with memcmp and copy nothing.
        head = _encoder.encode(header)
        if len(head) != end or not data.startswith(head):
            return None
        body = _encoder.encode_lines(entries)
        if len(body) != len(data) - end - 1 or not data.endswith(body):
            return None
    except Exception:  # any failure (decoding, UTF-8, re-encoding) is located line by line
        return None
    return MatchLog(header=header, entries=tuple(entries))


def _decode_checked(data: bytes, path: str) -> MatchLog:
    """Decode a log line by line, raising :class:`LogError` for the first bad line."""
    if not data:
        raise LogError(path, 1, "the log is empty: line 1 should be the header record")
    lines = data.split(b"\n")
    if lines[-1]:  # the text after the final newline, empty in a complete log
        # Earlier lines are checked first, so that the first bad line is named.
        for index, line in enumerate(lines[:-1]):
            _decode_line(line, index + 1, path)
        raise LogError(
            path, len(lines), "the last line does not end with a newline: the log is truncated"
        )
    records = [_decode_line(line, index + 1, path) for index, line in enumerate(lines[:-1])]
    # _decode_line refuses a header after line 1 and an entry on it, so these filter nothing.
    header = records[0]
    assert isinstance(header, LogHeader)
    entries = tuple(record for record in records[1:] if isinstance(record, LogEntry))
    return MatchLog(header=header, entries=entries)


def _decode_line(line: bytes, number: int, path: str) -> LogRecord:
    """Decode one line (without its newline), checking everything but its neighbours."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LogError(
            path, number, f"invalid UTF-8 at byte {error.start + 1} of the line"
        ) from None
    if not line.strip():
        raise LogError(path, number, "the line is blank; every line must be a record")
    if line.endswith(b"\r"):
        raise LogError(path, number, "the line ends with a carriage return; lines end with \\n")
    if number == 1:
        _check_header_line(line, path)
    try:
        record = _record_decoder.decode(line)
    except msgspec.DecodeError as error:
        raise LogError(path, number, _decode_reason(error)) from None
    except UnicodeError as error:  # a \\ud800-style escape: no valid character
        raise LogError(path, number, f"a string is not valid Unicode: {error}") from None
    match record:
        case LogHeader() if number > 1:
            raise LogError(
                path, number, "a header record may only be on line 1; this is a second header"
            )
        case LogEntry() if number == 1:  # pragma: no cover - _check_header_line refused it
            raise LogError(path, number, "line 1 must be the header record")
        case _:
            pass
    try:
        canonical = _encoder.encode(record)
    except Exception:  # a value msgspec reads but cannot write back is not canonical either
        canonical = b""
    if canonical != line:
        at = next(
            (i for i, (a, b) in enumerate(zip(canonical, line, strict=False)) if a != b),
            min(len(canonical), len(line)),
        )
        raise LogError(
            path,
            number,
            "the record is not in canonical form (compact JSON, fields in schema order, "
            f"as this library writes it): it differs at byte {at + 1}",
        )
    return record


def _check_header_line(line: bytes, path: str) -> None:
    """Check what line 1 claims to be, before its full schema: format, record, version."""
    try:
        raw: Any = msgspec.json.decode(line)
    except msgspec.DecodeError as error:
        raise LogError(path, 1, _decode_reason(error)) from None
    except UnicodeError as error:
        raise LogError(path, 1, f"a string is not valid Unicode: {error}") from None
    if not isinstance(raw, dict) or raw.get("record") != "header":
        found = raw.get("record") if isinstance(raw, dict) else None
        what = f"a record of type {found!r}" if isinstance(found, str) else "not a record"
        raise LogError(path, 1, f"line 1 must be the header record, but it is {what}")
    if raw.get("format") != LOG_FORMAT:
        raise LogError(
            path,
            1,
            f"this is not a multiversus log: its format is {raw.get('format')!r}, "
            f"not {LOG_FORMAT!r}",
        )
    version = raw.get("version")
    if type(version) is int and version > LOG_VERSION:
        raise LogError(
            path,
            1,
            f"this log is format version {version}; this engine reads version {LOG_VERSION}",
        )
    if type(version) is int and version < 1:
        raise LogError(
            path, 1, f"this log claims format version {version}, but versions start at 1"
        )


_AT = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.DOTALL)
_MALFORMED = re.compile(r"^JSON is malformed: (?P<what>.*) \(byte (?P<byte>\d+)\)$")


def _decode_reason(error: msgspec.DecodeError) -> str:
    """Turn a msgspec error into a reason in plain words, keeping its ``$.`` path."""
    text = str(error)
    if not isinstance(error, msgspec.ValidationError):
        if text == "Input data was truncated":
            return "the line is not complete JSON: it ends in the middle of a value"
        malformed = _MALFORMED.match(text)
        if malformed:
            byte = int(malformed["byte"]) + 1
            return f"the line is not valid JSON: {malformed['what']} at byte {byte}"
        return f"the line is not valid JSON: {text}"
    found = _AT.match(text)
    assert found is not None  # the pattern matches any text
    message, where = found["message"], found["path"] or "$"
    if message.startswith("Invalid value ") and where.endswith(".kind"):
        noun = "command" if where.startswith("$.command") else "event"
        return f"unknown {noun} kind {message.removeprefix('Invalid value ')} at `{where}`"
    if message.startswith("Invalid value ") and where == "$.record":
        value = message.removeprefix("Invalid value ")
        return f"unknown record type {value} at `{where}` (records are 'header' or 'entry')"
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", message)
    if unknown:
        return f"unknown field {unknown[1]!r} at `{where}`"
    missing = re.fullmatch(r"Object missing required field `(.*)`", message)
    if missing:
        return f"missing field {missing[1]!r} at `{where}`"
    length = re.fullmatch(r"Expected `array` of length (.*)", message)
    if length:
        return f"wrong length at `{where}`: expected an array of length {length[1]}"
    expected = re.fullmatch(r"Expected `(.*)`, got `(.*)`", message)
    if expected:
        return f"wrong type at `{where}`: expected {expected[1]}, got {expected[2]}"
    if message.startswith("Invalid enum value "):
        return f"value {message.removeprefix('Invalid enum value ')} is not allowed at `{where}`"
    return f"the record does not fit the log schema: {message} at `{where}`"


def _os_reason(error: OSError) -> str:
    return error.strerror or str(error)


# --- replay and schema -------------------------------------------------------


def replay(log: MatchLog, path: str = "<memory>") -> MatchState:
    """Return the state after every event in the log, from the header's settings.

    Replay folds the recorded events with :func:`~multiversus_core.evolve`;
    it never decides commands again and never rolls dice. ``path`` names the
    log in errors.

    :raises LogError: naming the entry's line if an event cannot be applied
        (a log whose events do not follow from each other).
    """
    state = initial_state(log.header.settings)
    try:
        for entry in log.entries:
            for event in entry.events:
                state = evolve(state, event)
    except Exception:  # only a log edited by hand gets here; find the line
        _find_replay_error(log, path)
        raise
    return state


def _find_replay_error(log: MatchLog, path: str) -> None:
    state = initial_state(log.header.settings)
    for index, entry in enumerate(log.entries):
        for position, event in enumerate(entry.events, start=1):
            try:
                state = evolve(state, event)
            except Exception as error:
                kind = event.__struct_config__.tag
                raise LogError(
                    path,
                    index + 2,
                    f"event {position} ({kind}) cannot follow the events before it: "
                    f"{type(error).__name__} {error}",
                ) from error


def log_schema() -> dict[str, object]:
    """Return a JSON Schema for one log line: a header or an entry record."""
    schema = msgspec.json.schema(LogRecord)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{LOG_FORMAT} line, format version {LOG_VERSION}",
        "description": (
            "One line of a Multiversus match log (JSON Lines): line 1 is a header "
            "record, every later line an entry record. See docs/log-format.md."
        ),
        **schema,
    }


__all__ = [
    "LOG_FORMAT",
    "LOG_VERSION",
    "LogEntry",
    "LogHeader",
    "LogRecord",
    "LogWriter",
    "MatchLog",
    "decode_log",
    "encode_entry",
    "encode_header",
    "encode_log",
    "log_schema",
    "read_log",
    "replay",
]


if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:] != ["--schema"]:
        sys.exit("usage: python -m multiversus_core.log --schema > docs/log-schema.json")
    sys.stdout.write(json.dumps(log_schema(), indent=2, sort_keys=True) + "\n")
