"""Match logs: the record format that stores a match, and replay from it.

A log is JSON Lines (``docs/log-format.md``, format version 4): a header
record with the match settings, then one entry record per accepted command
with the events the game's ``decide`` produced for it, each
chained to the line before by its sequence number and the SHA-256 of that
line, and, once the match is over, an end record sealing the chain (and
revealing the chance seed of a match whose chance was secret). Records
are storage; events know nothing of them. Encoding is canonical, so a log
read and written again is the same bytes, and reading is strict: anything
that is not a log this engine wrote raises
:class:`~multiversus_core.engine.errors.LogError` naming the file, the 1-based
line, the byte offset and a reason code. A file is read as a stream, a block
of lines at a time, so reading stops at the first bad line however long the
file (:class:`LineStream`). Older logs of a game are upcast on read, one
version at a time (Multiversus logs of format versions 1 to 3).

:func:`replay` folds the recorded events with the game's ``fold``; it never
decides again and never rolls. Nothing here names a game: each game's record
types are built from its ruleset (:class:`Records`), and a game's older logs
are upcast by the steps its ruleset lists (:class:`.records.Upcast`).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import re
import stat
import sys
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from operator import attrgetter
from types import TracebackType
from typing import Any, BinaryIO, Final, Self, TypeAlias

import msgspec

if sys.platform != "win32":
    import fcntl

from multiversus_core._version import __version__
from multiversus_core.engine.chance import Chance, is_contribution, opens_chance
from multiversus_core.engine.errors import LogError, LogErrorCode, UnknownGameError, os_reason
from multiversus_core.engine.position import opening_state
from multiversus_core.engine.records import (
    DEFAULT_GAME,
    LOG_VERSION,
    EndRecord,
    Entries,
    EntryRecord,
    LogEntry,
    LogHeader,
    Upcast,
)
from multiversus_core.engine.registry import game_ids, load_ruleset, ruleset_of

LOG_FORMAT: Final = "multiversus-log"
"""The ``format`` value of every log header."""
OLDEST_LOG_VERSION: Final = 1
"""The oldest log format version this engine reads (older versions are upcast on read)."""
LOG_ERROR_CODES: Final[tuple[LogErrorCode, ...]] = typing.get_args(LogErrorCode)
"""Every reason code a :class:`~multiversus_core.engine.errors.LogError` may carry."""

# A torn write leaves a last line that stops early, without its newline: on
# such a line, these codes are what reading reports as ``truncated``, which
# resume may move aside. A complete line (one with its newline) is never torn,
# and a complete record that fails the chain is tampering: neither is repaired.
_TORN_CODES: Final[frozenset[LogErrorCode]] = frozenset(
    {"truncated", "malformed_json", "invalid_utf8", "blank_line"}
)
CHANCE_SUFFIX: Final = ".chance"
"""The suffix of the file beside a log that keeps its secret chance seed until the end."""


LogRecord: TypeAlias = LogHeader[Any] | EntryRecord[Any, Any] | EndRecord
"""One line of a log in the current format version."""


def _ends_match(events: Iterable[Any], end_event: type) -> bool:
    return any(type(event) is end_event for event in events)


class MatchLog(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A whole match log of any game: the header and every entry, in order."""

    header: LogHeader[Any]
    """The first line."""
    entries: Entries = ()
    """The entries after the header, one per accepted command."""
    upcast_from: int | None = None
    """The format version the log was stored in, if older than :data:`LOG_VERSION`."""
    chance: Chance | None = None
    """The secret chance seed whose commitment the settings hold, if known: revealed by
    the end record of a finished log, or the referee's while the match is played. Only
    a finished log's end record writes it."""

    @property
    def settings(self) -> Any:
        """The settings the match was started with (the game's settings struct)."""
        return self.header.settings

    @property
    def game(self) -> str:
        """The id of the game the log is a match of."""
        return self.header.game

    @property
    def finished(self) -> bool:
        """True if the match ended: its last entry holds the game's end event (``match_ended``
        for Multiversus), and the log is sealed."""
        if not self.entries:
            return False
        return _ends_match(self.entries[-1].events, records_for(self.game).end_event)

    @property
    def head(self) -> str:
        """The hex SHA-256 of the last entry line (of the header line, with no entries).

        Someone who noted the head of a log can tell that nothing was cut off
        its end, which the chain alone cannot show for an unfinished match.
        """
        lines = _chain_lines(self.header.settings, self.entries, self.chance, self.header.position)
        end = -2 if self.finished else -1
        return _sha256(lines[end][:-1])


# Built once: encoders and decoders are reusable and much faster that way.
_encoder: Final = msgspec.json.Encoder()


class Records:
    """One game's log records, built once: the header and entry record types (the end
    record is every game's), their decoders, and what the log reader asks of the game."""

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset
        self.game: str = ruleset.id
        self.rules: int = ruleset.rules_version
        """The version of the game's payload that logs carry (0 for Multiversus)."""
        header: Any = LogHeader
        entry: Any = EntryRecord
        self.header: Any = header[ruleset.settings_type]
        """The header type, with the game's settings."""
        self.entry: Any = entry[ruleset.command_type, ruleset.event_type]
        """The entry record type, with the game's commands and events."""
        self.end_event: type[Any] = ruleset.end_event
        """The event that ends a match."""
        self.settings: type[Any] = ruleset.settings_type
        self.upcasts: dict[int, Upcast] = dict(ruleset.log_upcasts)
        """The game's upcasts by the version they read (:class:`.records.Upcast`)."""
        self.oldest = min(self.upcasts, default=self.rules or LOG_VERSION)
        """The oldest payload version the game reads: a rules version, or for a game
        without one (Multiversus), a log format version."""
        self._table = ruleset.table
        entry_v1: Any = LogEntry
        self.header_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(self.header)
        self.body_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
            typing.Union[self.entry, EndRecord]  # noqa: UP007 (types made at run time)
        )
        self.record_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
            typing.Union[self.header, self.entry, EndRecord]  # noqa: UP007
        )
        self.record_v1_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
            typing.Union[self.header, entry_v1[ruleset.command_type, ruleset.event_type]]  # noqa: UP007
        )

    def payload(self, version: int, rules: Any) -> Any:
        """The payload version of a log of format ``version`` whose header says ``rules``:
        the rules version, or for a game without one (Multiversus) the format version."""
        return rules if self.rules else version

    def added_since(self, payload: int) -> tuple[re.Pattern[bytes], ...]:
        """The fields added to records after payload version ``payload``, which a line of
        that version leaves out (:attr:`.records.Upcast.added`)."""
        current = self.rules or LOG_VERSION
        steps = (self.upcasts.get(version) for version in range(payload, current))
        return tuple(step.added for step in steps if step is not None and step.added is not None)

    def commitment(self, settings: Any) -> str:
        """The settings' commitment to a secret chance seed, or "" when chance is public."""
        chance: str = self._table(settings).chance
        return chance


_RECORDS: Final[dict[str, Records]] = {}
_BY_SETTINGS: Final[dict[type[Any], Records]] = {}


def records_for(game: str) -> Records:
    """Return the log records of the game ``game`` (built at its first use).

    :raises UnknownGameError: if no bundled or installed ruleset has that id.
    """
    found = _RECORDS.get(game)
    if found is None or found.ruleset is not load_ruleset(game):  # a ruleset installed anew
        found = _RECORDS[game] = Records(load_ruleset(game))
        _BY_SETTINGS[found.settings] = found
    return found


def records_of(settings: Any) -> Records:
    """Return the log records of the game whose settings these are.

    :raises UnknownGameError: if no installed ruleset has settings of that type.
    """
    found = _BY_SETTINGS.get(type(settings))
    return records_for(ruleset_of(settings).id) if found is None else found


def _sha256(line: bytes | memoryview) -> str:
    return hashlib.sha256(line).hexdigest()


# --- writing -----------------------------------------------------------------


def new_header(settings: Any, position: str = "") -> LogHeader[Any]:
    """Return the header this engine writes for a match with these settings, started from
    ``position`` (empty: the game's initial state)."""
    records = records_of(settings)
    header: LogHeader[Any] = records.header(
        format=LOG_FORMAT,
        version=LOG_VERSION,
        engine=__version__,
        settings=settings,
        game=records.game,
        rules=records.rules,
        **_started_from(position),
    )
    return header


def _started_from(position: str) -> dict[str, str]:
    """The header's field naming the position a match started from, if it did not start
    from the game's initial state: left out otherwise, so such a header reads as before."""
    return {"position": position} if position else {}


def encode_header(settings: Any, position: str = "") -> bytes:
    """Return the header line for a match with these settings, newline included."""
    return _encoder.encode(new_header(settings, position)) + b"\n"


def encode_entry(command: Any, events: Iterable[Any], *, seq: int = 1, prev: str = "") -> bytes:
    """Return the entry line for an accepted command and its events, newline included.

    ``seq`` is the entry's 1-based number and ``prev`` the hex SHA-256 of the
    line before it (newline excluded); :func:`encode_log` and
    :class:`LogWriter` fill both in.
    """
    record = EntryRecord(seq=seq, prev=prev, command=command, events=tuple(events))
    return _encoder.encode(record) + b"\n"


def encode_end(count: int, head: str, chance: Chance | None = None) -> bytes:
    """Return the end line sealing ``count`` entries, the last with hash ``head``, revealing
    ``chance`` (the secret chance seed, if the match had one)."""
    return _encoder.encode(EndRecord(count=count, head=head, chance=chance)) + b"\n"


def _chain_lines(
    settings: Any,
    entries: Iterable[LogEntry[Any, Any]],
    chance: Chance | None = None,
    position: str = "",
) -> list[bytes]:
    """Every line of a log (newlines included), with the chain and the end record.

    :raises ValueError: if the match ended with its chance secret and ``chance`` is unknown.
    """
    records = records_of(settings)
    lines = [encode_header(settings, position)]
    seq = 0
    finished = False
    for entry in entries:
        seq += 1
        lines.append(
            encode_entry(entry.command, entry.events, seq=seq, prev=_sha256(lines[-1][:-1]))
        )
        finished = _ends_match(entry.events, records.end_event)
    if finished:
        secret = records.commitment(settings)
        if secret and chance is None:
            raise ValueError("the match's chance was secret: its end record needs the seed")
        lines.append(encode_end(seq, _sha256(lines[-1][:-1]), chance if secret else None))
    return lines


def encode_log(log: MatchLog) -> bytes:
    """Return a whole log in its canonical encoding (the current version, end record included).

    :raises ValueError: for a finished match whose secret chance seed the log does not hold.
    """
    return b"".join(_chain_lines(log.header.settings, log.entries, log.chance, log.header.position))


class TornRecord(msgspec.Struct, frozen=True, gc=False):
    """A torn last record that :meth:`LogWriter.resume` moved aside."""

    path: str
    """The file the torn bytes were moved to (``<log>.torn-<n>``)."""
    line: int
    """The 1-based line the torn record was on."""
    offset: int
    """The byte offset in the log where it started (the log's new length)."""
    size: int
    """How many bytes were moved."""
    code: LogErrorCode
    """Why it was refused (``truncated`` for a line with no newline)."""


class LogWriter:
    """Appends a match's entries to a log file as they are accepted.

    Every record is written with one write call, flushed and synced to disk
    before :meth:`append` returns, so a crash loses at most the record being
    written. Use :meth:`create` for a new log and :meth:`resume` to go on with
    an existing one; a writer is a context manager that closes the file.

    A match whose chance is secret (its settings hold only the commitment)
    keeps the seed in a file beside the log, ``<log>.chance``, readable by its
    owner only, until the end record reveals it; then that file is removed.
    """

    def __init__(
        self,
        path: str,
        file: BinaryIO,
        lines: int,
        head: str,
        *,
        ended: bool = False,
        torn: TornRecord | None = None,
        chance: Chance | None = None,
    ) -> None:
        """Wrap an open file; prefer :meth:`create` or :meth:`resume`."""
        self.path = path
        """The log file."""
        self.lines = lines
        """Lines in the file so far, the header (and an end record) included."""
        self.torn = torn
        """The torn last record :meth:`resume` moved aside, if it found one."""
        self.chance = chance
        """The match's secret chance seed, which the end record reveals (None if public)."""
        self._file = file
        self._head = head
        self._ended = ended
        self._end_event: type[Any] = type(None)  # the game's, set by create and resume

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        settings: Any,
        chance: Chance | None = None,
        position: str = "",
    ) -> LogWriter:
        """Create a new log file and write its header.

        ``chance`` is the secret chance seed whose commitment the settings hold
        (required then, refused otherwise); it is kept in ``<log>.chance``
        until the end record reveals it. ``position`` is the position the match
        starts from, without its chance seed (empty: the game's initial state).

        :raises LogError: (line 0, ``io_error``) if the file already exists or
            cannot be created or written.
        :raises ValueError: if ``chance`` does not open the settings' commitment,
            or is missing or given when it should not be.
        """
        name = os.fspath(path)
        records = records_of(settings)
        commitment = records.commitment(settings)
        if bool(commitment) != (chance is not None):
            raise ValueError("give the chance seed exactly when the settings commit to one")
        if chance is not None and not opens_chance(commitment, chance):
            raise ValueError("the chance seed does not open the settings' chance commitment")
        if os.path.lexists(name):
            raise LogError(name, 0, "the file already exists")
        header = encode_header(settings, position)
        if chance is not None:
            _write_chance(name, chance)
        try:
            # The log appears with its header or not at all: killed before it, nothing is left.
            _place(name, header)
            file = _open_locked(name, os.O_WRONLY | os.O_APPEND)
        except LogError:
            if chance is not None:
                _remove_chance(name)
            raise
        writer = cls(name, file, 1, _sha256(header[:-1]), chance=chance)
        writer._end_event = records.end_event
        return writer

    @classmethod
    def resume(
        cls,
        path: str | os.PathLike[str],
        check: Callable[[MatchLog], None] | None = None,
    ) -> tuple[LogWriter, MatchLog]:
        """Open an existing log to append to it; return the writer and the log so far.

        A torn last record (a last line without its newline, left by a crash
        mid-write) is moved to ``<log>.torn-<n>`` and reported in :attr:`torn`;
        nothing else is ever repaired: a complete last line that is not a valid
        record is refused, as :func:`read_log` refuses it. A finished match
        whose end record was lost is sealed at once. The log's secret chance
        seed, if it has one, is read back from ``<log>.chance`` (or from the
        end record) into the log's :attr:`MatchLog.chance`. ``check``, if
        given, is called with that log before anything is written to it (a
        lost end record included): it refuses the log by raising.

        :raises LogError: if the file cannot be opened or is not a valid log
            once a torn last record is set aside, (``not_appendable``) if it is
            an older format version, or (line 1, ``io_error``) if the secret
            chance seed of an unfinished match cannot be read or does not open
            its commitment.
        """
        name = os.fspath(path)
        # Locked before it is read: a second writer of the same log is refused at once.
        file = _open_locked(name, os.O_WRONLY | os.O_APPEND)
        try:
            return cls._resumed(name, file, check)
        except BaseException:
            file.close()
            raise

    @classmethod
    def _resumed(
        cls, name: str, file: BinaryIO, check: Callable[[MatchLog], None] | None
    ) -> tuple[LogWriter, MatchLog]:
        torn: TornRecord | None = None
        try:
            log, size = _read_to_resume(name)
        except LogError as error:
            if error.code != "truncated" or error.line <= 1:  # only a last line can be torn
                raise
            torn = _move_aside(name, error)
            log, size = _read_to_resume(name)
        if log.upcast_from is not None:
            raise LogError(
                name,
                1,
                f"this log is format version {log.upcast_from}; only version {LOG_VERSION} "
                "logs can be appended to (read it, and write a new log to carry on)",
                0,
                "not_appendable",
            )
        records = records_for(log.game)
        commitment = records.commitment(log.header.settings)
        if commitment and log.chance is None:
            log = msgspec.structs.replace(log, chance=_read_chance(name, commitment))
        if check is not None:
            check(log)
        lines = _chain_lines(log.header.settings, log.entries, log.chance, log.header.position)
        sealed = size == sum(map(len, lines))
        head_line = lines[-2] if (log.finished and sealed) else lines[-1]
        writer = cls(name, file, len(lines) - (0 if sealed else 1), _sha256(head_line[:-1]))
        writer.torn = torn
        writer.chance = log.chance
        writer._end_event = records.end_event
        writer._ended = log.finished
        if log.finished and not sealed:
            try:
                writer._write(lines[-1], 1)  # the end record a crash kept from the disk
            except LogError:
                file.close()
                raise
        if log.finished:
            _remove_chance(name)
        return writer, log

    def append(self, command: Any, events: Iterable[Any]) -> None:
        """Write one entry and wait until it is on disk; seal the log if it ends the match.

        :raises ValueError: if the writer is closed.
        :raises LogError: naming the line being written, if the write fails,
            or (``after_end``) if the match is already over.
        """
        if self._ended and not self._file.closed:
            raise LogError(
                self.path,
                self.lines + 1,
                "the match in this log is over: nothing may follow its end record",
                0,
                "after_end",
            )
        events = tuple(events)
        line = encode_entry(command, events, seq=self.lines, prev=self._head)
        head = _sha256(line[:-1])
        data, count = line, 1
        if _ends_match(events, self._end_event):
            # One write for the entry and its seal: a crash leaves both, or a torn tail.
            data, count = line + encode_end(self.lines, head, self.chance), 2
        self._write(data, count)
        self._head = head
        self._ended = count == 2
        if self._ended:
            _remove_chance(self.path)

    def contribute(self, seat: int, seats: int, contribution: str) -> Chance:
        """Record seat ``seat``'s contribution to the secret chance (one of ``seats``) in
        ``<log>.chance``, replaced whole and synced before this returns; return the chance
        with it. The end record reveals every contribution with the seed
        (:func:`.chance.dice_seed`).

        :raises ValueError: if the match's chance is not secret, the seat is not one of
            ``seats``, it has contributed already, the contribution is not 64 lower-case hex
            digits, or an entry was written already (the dice may depend on it).
        :raises LogError: (line 0, ``io_error``) if the chance file cannot be written.
        """
        chance = self.chance
        if chance is None:
            raise ValueError("this match's chance is public: there is nothing to contribute to")
        if not 1 <= seat <= seats:
            raise ValueError(f"no seat {seat}: the match has seats 1 to {seats}")
        if not is_contribution(contribution):
            raise ValueError("a contribution is 64 lower-case hex digits")
        if self.lines > 1:
            raise ValueError("the match has begun: its chance takes no more contributions")
        given = list(chance.contributions or ("",) * seats)
        if len(given) != seats or given[seat - 1]:
            raise ValueError(f"seat {seat} has contributed to this match's chance already")
        given[seat - 1] = contribution
        chance = msgspec.structs.replace(chance, contributions=tuple(given))
        _replace_chance(self.path, chance)
        self.chance = chance
        return chance

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

    def _write(self, data: bytes, count: int) -> None:
        if self._file.closed:
            raise ValueError(f"the log writer for {self.path} is closed")
        try:
            self._file.write(data)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as error:
            raise LogError(self.path, self.lines + 1, os_reason(error)) from error
        self.lines += count


def _read_to_resume(name: str) -> tuple[MatchLog, int]:
    """Read a log to go on with it (a finished match may lack its end record); return it and
    the bytes read."""
    with open_stream(name) as stream:
        return _decode(stream, name, sealed=False), stream.size


def _chance_path(path: str) -> str:
    return path + CHANCE_SUFFIX


def _place(name: str, data: bytes) -> None:
    """Write a new file whole, or not at all: into a temporary file beside it, synced, then
    linked to its name (which must not exist), so that no reader ever sees it half written.

    :raises LogError: (line 0, ``io_error``) if the name is taken or the file cannot be made.
    """
    folder = os.path.dirname(name) or "."
    temporary = os.path.join(folder, f".{os.path.basename(name)}.{os.getpid()}.new")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.link(temporary, name)  # never replaces an existing file, unlike a rename
    except OSError as error:
        raise LogError(name, 0, os_reason(error)) from error
    finally:
        with contextlib.suppress(OSError):
            os.remove(temporary)
    with contextlib.suppress(OSError):  # the new name reaches the disk too, where it can
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def _open_locked(name: str, flags: int) -> BinaryIO:
    """Open a log to write it, holding an exclusive lock on it until it is closed: a second
    writer (two ``--resume`` of one log at once) is refused instead of corrupting it.

    :raises LogError: (line 0, ``io_error``) if it cannot be opened, or another program
        holds its lock.
    """
    try:
        descriptor = os.open(name, flags, 0o644)
    except OSError as error:
        raise LogError(name, 0, os_reason(error)) from error
    file = os.fdopen(descriptor, "ab")
    if sys.platform == "win32":  # no flock: a log is not locked there
        return file
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        file.close()
        raise LogError(name, 0, "another program is writing this log (it is locked)") from None
    return file


def _write_chance(path: str, chance: Chance) -> None:
    """Keep a secret chance seed beside a new log, readable by its owner only."""
    name = _chance_path(path)
    try:
        descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        raise LogError(name, 0, os_reason(error)) from error
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(_encoder.encode(chance) + b"\n")
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        with contextlib.suppress(OSError):
            os.remove(name)  # half written: it could open nothing
        raise LogError(name, 0, os_reason(error)) from error


def _replace_chance(path: str, chance: Chance) -> None:
    """Replace the chance file beside a log whole: written beside it, synced, then renamed."""
    name = _chance_path(path)
    temporary = f"{name}.new"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(_encoder.encode(chance) + b"\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, name)
        directory = os.open(os.path.dirname(os.path.abspath(name)), os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise LogError(name, 0, os_reason(error)) from error


def _read_chance(path: str, commitment: str) -> Chance:
    """Read back the secret chance seed kept beside a log; it must open the commitment."""
    name = _chance_path(path)
    try:
        chance = msgspec.json.decode(read_bytes(name), type=Chance)
    except (LogError, msgspec.DecodeError, UnicodeError):
        chance = None
    if chance is None or not opens_chance(commitment, chance):
        reason = (
            f"this match's chance is secret and its seed must be in {name}, which is missing "
            "or does not open the header's chance commitment: the match cannot go on"
        )
        raise LogError(path, 1, reason, 0, "io_error")
    return chance


def _remove_chance(path: str) -> None:
    """Remove the chance file of a sealed log (its end record now reveals the seed)."""
    try:
        os.remove(_chance_path(path))
    except FileNotFoundError:
        pass
    except OSError as error:
        raise LogError(_chance_path(path), 0, os_reason(error)) from error


def _move_aside(path: str, error: LogError) -> TornRecord:
    """Copy the torn tail (a last line without its newline, at most :data:`MAX_LINE_BYTES`)
    to a new ``<log>.torn-<n>`` file, then cut it off the log."""
    try:
        with open(path, "rb") as file:
            file.seek(error.offset)
            tail = file.read(MAX_LINE_BYTES + 1)
    except OSError as cause:
        raise LogError(path, error.line, os_reason(cause), error.offset) from cause
    number = 1
    while True:
        aside = f"{path}.torn-{number}"
        try:
            with open(aside, "xb") as file:
                file.write(tail)
                file.flush()
                os.fsync(file.fileno())
            break
        except FileExistsError:
            number += 1
        except OSError as cause:
            raise LogError(path, error.line, os_reason(cause), error.offset) from cause
    # Saved first, cut second: a crash in between loses nothing.
    try:
        with open(path, "r+b") as file:
            file.truncate(error.offset)
            file.flush()
            os.fsync(file.fileno())
    except OSError as cause:
        raise LogError(path, error.line, os_reason(cause), error.offset) from cause
    return TornRecord(
        path=aside, line=error.line, offset=error.offset, size=len(tail), code=error.code
    )


# --- reading -----------------------------------------------------------------


MAX_LOG_BYTES: Final = 64 * 1024 * 1024
"""The largest log (or view log) read: far beyond any match's (a few hundred kilobytes), so
that a huge file is refused before it is read."""
MAX_LINE_BYTES: Final = 1024 * 1024
"""The longest line a log (or view log) may have: far beyond any record's (a few kilobytes),
so that reading holds at most this much of a line that never ends."""
MAX_SETTING_CHARS: Final = 256
"""The longest string a log's settings may hold (a player's name, a team's id)."""
BLOCK_BYTES: Final = 256 * 1024
"""How much of a log is read, decoded and checked at a time."""


class LineStream:
    """A log read as a stream, in blocks of whole lines, so that reading stops at the first
    bad line and holds at most a block and a line of the file at once.

    :meth:`blocks` yields the blocks; while one is used, :attr:`number` is its first line's
    1-based number. Then :attr:`tail` holds what follows the last newline (empty in a
    complete log; a line cut at :data:`MAX_LINE_BYTES` + 1 bytes if one is longer than
    that, which ends the reading), :attr:`number` its line number, :attr:`offset` its byte
    offset and :attr:`size` the bytes read.
    """

    def __init__(self, read: Callable[[int], bytes], block: int = BLOCK_BYTES) -> None:
        self._read = read
        self._block = block
        self._number = 1
        self._uncounted = b""  # the last block, its lines counted only when asked
        self.tail = b""
        self.offset = 0
        self.size = 0

    @property
    def number(self) -> int:
        """The 1-based number of the line the block in use begins with (after the blocks,
        the tail's)."""
        if self._uncounted:
            self._number += self._uncounted.count(b"\n")
            self._uncounted = b""
        return self._number

    def blocks(self) -> Iterator[tuple[bytes, int, bytes | None]]:
        """Yield each block of whole lines (newlines included) with its byte offset and the
        line after it (None if it is not whole)."""
        pieces = self._pieces()
        block = next(pieces, None)
        while block is not None:
            upcoming = next(pieces, None)
            end = -1 if upcoming is None else upcoming.find(b"\n")
            following = None if upcoming is None or end < 0 else upcoming[:end]
            yield block, self.offset, following
            if self._uncounted:  # hold no more than one block
                self._number += self._uncounted.count(b"\n")
            self._uncounted = block
            self.offset += len(block)
            block = upcoming

    def _pieces(self) -> Iterator[bytes]:
        carry = b""
        while True:
            chunk = self._read(self._block)
            self.size += len(chunk)
            if not chunk:
                break
            data = carry + chunk if carry else chunk
            cut = data.rfind(b"\n") + 1
            carry = data[cut:]
            if cut:
                yield data[:cut]
            if len(carry) > MAX_LINE_BYTES:  # no line is this long: stop reading it
                carry = carry[: MAX_LINE_BYTES + 1]
                break
        self.tail = carry


def lines_of(
    block: bytes, number: int, offset: int, following: bytes | None
) -> Iterator[tuple[bytes, int, int, bytes | None]]:
    """Yield each line of a block (without its newline) with its number and offset, and the
    line after it (``following`` for the last)."""
    lines = block.split(b"\n")
    del lines[-1]
    for index, line in enumerate(lines):
        after = lines[index + 1] if index + 1 < len(lines) else following
        yield line, number + index, offset, after
        offset += len(line) + 1


def refuse_long_line(stream: LineStream, path: str) -> None:
    """Refuse a stream whose tail is a line longer than :data:`MAX_LINE_BYTES` (``out_of_range``).
    Shared by view logs."""
    if len(stream.tail) > MAX_LINE_BYTES:
        reason = f"the line is longer than {MAX_LINE_BYTES} bytes: no record is that long"
        raise LogError(path, stream.number, reason, stream.offset, "out_of_range")


@contextlib.contextmanager
def open_stream(name: str, limit: int = MAX_LOG_BYTES) -> Iterator[LineStream]:
    """Open a log file to read it as a :class:`LineStream`.

    :raises LogError: (line 0, ``io_error``) with the system's reason, if it is not a regular
        file, or if it holds more than ``limit`` bytes (found before reading them, and again
        while reading, for a file that grows).
    """
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):  # a FIFO would hang, /dev/zero never end
            raise LogError(name, 0, "not a regular file: a log is a file")
        file = open(name, "rb")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise LogError(name, 0, os_reason(error)) from error
    too_large = LogError(name, 0, f"the file is larger than {limit} bytes: no log is that long")
    read_so_far = 0

    def read(size: int) -> bytes:
        nonlocal read_so_far
        try:
            data = file.read(size)
        except OSError as error:
            raise LogError(name, 0, os_reason(error)) from error
        read_so_far += len(data)
        if read_so_far > limit:
            raise too_large
        return data

    with file:
        try:
            if os.fstat(file.fileno()).st_size > limit:
                raise too_large
        except OSError as error:
            raise LogError(name, 0, os_reason(error)) from error
        yield LineStream(read)


def memory_stream(data: bytes, block: int = BLOCK_BYTES) -> LineStream:
    """A :class:`LineStream` over bytes in memory, read ``block`` bytes at a time."""
    at = 0

    def read(size: int) -> bytes:
        nonlocal at
        piece = data[at : at + size]  # data itself, not a copy, when it is read whole
        at += len(piece)
        return piece

    return LineStream(read, block)


def read_bytes(name: str, limit: int = MAX_LOG_BYTES) -> bytes:
    """Return a file's bytes; :class:`LogError` (line 0, ``io_error``) with the system's reason,
    if it is not a regular file, or if it holds more than ``limit`` bytes (found without
    reading them all)."""
    with open_stream(name, limit) as stream:
        return b"".join(block for block, *_ in stream.blocks()) + stream.tail


def first_line(name: str) -> bytes:
    """Return a file's first line, without its newline, reading no more than a block or
    a line's bound (:class:`LogError` as :func:`open_stream`)."""
    with open_stream(name) as stream:
        found = next(stream.blocks(), None)
        return stream.tail if found is None else found[0][: found[0].find(b"\n")]


def _longest_string(value: Any, where: str) -> str | None:
    """The field of ``value`` (decoded JSON) holding a string longer than
    :data:`MAX_SETTING_CHARS`, as ``settings.players[0]``, or None."""
    if isinstance(value, str):
        return where if len(value) > MAX_SETTING_CHARS else None
    if isinstance(value, dict):
        items: Any = ((f"{where}.{key}", item) for key, item in value.items())
    elif isinstance(value, list):
        items = ((f"{where}[{i}]", item) for i, item in enumerate(value))
    else:
        return None
    for field, item in items:
        found = _longest_string(item, field)
        if found is not None:
            return found
    return None


def read_log(path: str | os.PathLike[str]) -> MatchLog:
    """Read and verify a log file; never changes it.

    The file is read as a stream, a block at a time, and reading stops at the
    first bad line: a bad log costs no more memory than a block, however long.

    :raises LogError: (line 0, ``io_error``) if the file cannot be read, with
        the system's reason; otherwise as :func:`decode_log`.
    """
    name = os.fspath(path)
    with open_stream(name) as stream:
        return _decode(stream, name, sealed=True)


def decode_log(data: bytes, path: str = "<memory>") -> MatchLog:
    """Read and verify a log from bytes; ``path`` names it in errors.

    A log of an older version is upcast to the current one (see :attr:`MatchLog.upcast_from`).

    :raises LogError: naming the first bad line, its byte offset and a reason
        code from :data:`LOG_ERROR_CODES`: an empty or truncated log, invalid
        UTF-8, malformed, too deeply nested or non-canonical JSON, a line longer
        than :data:`MAX_LINE_BYTES`, a missing, misplaced, foreign or
        newer-version header, a record that does not fit the schema, a broken
        chain, a bad or missing end record, or a record after the end.
    """
    return _decode(memory_stream(data), path, sealed=True)


def game_of(data: bytes) -> str:
    """Return the id of the game a log's line 1 names: its ``game``, or ``"multiversus"`` when
    it names none (or is not a header at all, which reading the log then reports)."""
    try:
        raw = msgspec.json.decode(data.split(b"\n", 1)[0])
    except Exception:  # the careful reading says what is wrong with it
        return DEFAULT_GAME
    game = raw.get("game") if isinstance(raw, dict) else None
    return game if isinstance(game, str) else DEFAULT_GAME


def _decode(stream: LineStream, path: str, *, sealed: bool) -> MatchLog:
    """Decode a log block by block, raising :class:`LogError` for the first bad line; with
    ``sealed`` false, a finished match may lack its end record.

    A block of a current-version log is checked in a few C calls (it is canonical exactly
    when it decodes and re-encodes to the same bytes); only a block where that fails is
    checked line by line, to name the first bad line.
    """
    checker = _Chain(path, LOG_VERSION)
    for block, offset, following in stream.blocks():
        start = 0
        if offset == 0:
            start = block.find(b"\n") + 1
            checker.add_header(block[: start - 1])
        if start == len(block) or checker.add_block(block, start):
            continue
        number = stream.number + (1 if start else 0)
        for line, at, where, after in lines_of(block[start:], number, offset + start, following):
            checker.add(line, at, where, after)
    refuse_long_line(stream, path)
    tail, offset = stream.tail, stream.offset
    if not tail and offset == 0:
        raise LogError(path, 1, "the log is empty: line 1 should be the header record", 0, "empty")
    if tail:
        number = stream.number
        reason = "the last line does not end with a newline: the log is truncated"
        try:
            checker.add(tail, number, offset)
        except LogError as error:
            if error.code not in _TORN_CODES and error.code != "not_header":
                raise  # a whole record that fails the chain is not a torn write
        raise LogError(path, number, reason, offset, "truncated")
    return checker.finish(stream, sealed=sealed)


class _Chain:
    """Checks lines one at a time: each in its place, chained to the one before."""

    def __init__(self, path: str, version: int) -> None:
        self.path = path
        self.version = version
        self.records: Records | None = None
        """The game's records, as line 1 names the game."""
        self.payload = version
        """The payload version line 1 claims (:meth:`Records.payload`)."""
        self.header: LogHeader[Any] | None = None
        self.entries: list[LogEntry[Any, Any]] = []
        self.head = ""
        self.ended = False
        """Whether the end record was read."""
        self.chance: Chance | None = None
        self.fast = False
        """Whether line 1 was a current-version header in canonical form."""

    def add_header(self, line: bytes) -> None:
        """Check line 1: at once if it is a current-version header in canonical form, which
        lets :meth:`add_block` check the blocks after it in a few C calls; else as
        :meth:`add` does."""
        try:
            records = records_for(game_of(line))
            header = records.header_decoder.decode(line)
            fast = (
                header.version == LOG_VERSION
                and header.game == records.game
                and header.rules == records.rules
                and getattr(header.settings, "seed", 0) < 2**64
                and _encoder.encode(header) == line
            )
        except Exception:  # any failure (decoding, UTF-8, depth, an unknown game) is named below
            fast = False
        if not fast:
            self.add(line, 1, 0)
            return
        self.records, self.header, self.fast = records, header, True
        self.head = _sha256(line)

    def add_block(self, block: bytes, start: int) -> bool:
        """Check the lines of a block from byte ``start`` on (whole lines after line 1,
        newlines included) in a few C calls, as a valid current-version log's are; return
        False, changing nothing, if anything is off (then :meth:`add` checks them line by
        line and names the first bad line)."""
        records = self.records
        if not self.fast or self.ended or records is None or self.header is None:
            return False
        try:
            body = records.body_decoder.decode_lines(memoryview(block)[start:])
            encoded = _encoder.encode_lines(body)
            if len(encoded) != len(block) - start or not block.endswith(encoded):
                return False
        except Exception:  # any failure (decoding, UTF-8, depth, re-encoding) is located below
            return False
        lines = block.split(b"\n")
        del lines[-1]
        if start:
            del lines[0]
        if len(body) != len(lines):
            return False
        # prevs[i] is the hash of the line before record i, the last of all the new head.
        prevs = [self.head, *[hashlib.sha256(line).hexdigest() for line in lines]]
        count = len(self.entries)
        entries: list[LogEntry[Any, Any]] = []
        end: EndRecord | None = None
        for index, record in enumerate(body):
            if end is not None:
                return False
            if type(record) is EntryRecord:
                if record.seq != count + 1 or record.prev != prevs[index]:
                    return False
                count += 1
                entries.append(LogEntry(record.command, record.events))
            elif type(record) is EndRecord:
                last = entries[-1] if entries else (self.entries[-1] if self.entries else None)
                if record.count != count or record.head != prevs[index] or last is None:
                    return False
                if not _ends_match(last.events, records.end_event):
                    return False
                if chance_problem(self.header.settings, record.chance) is not None:
                    return False
                end = record
            else:
                return False
        head = prevs[-1]
        self.entries.extend(entries)
        self.head = head
        if end is not None:
            self.ended = True
            self.chance = end.chance
        return True

    def add(self, line: bytes, number: int, offset: int, following: bytes | None = None) -> None:
        """Check one line; ``following`` (the next line, if any) tells which line a broken
        link blames."""
        if number == 1:
            check_line_text(line, number, offset, self.path)
            self.version, self.records, self.payload = _check_header_line(line, self.path)
        records = self.records
        assert records is not None  # line 1 was checked to be a header first
        record = _decode_line(line, number, offset, self.path, self.version, self.payload, records)
        where = (self.path, number)
        if self.ended:
            raise LogError(
                *where,
                "a record follows the end record; the end is the last line",
                offset,
                "after_end",
            )
        match record:
            case LogHeader() if number > 1:
                raise LogError(
                    *where,
                    "a header record may only be on line 1; this is a second header",
                    offset,
                    "misplaced_header",
                )
            case LogHeader():
                self.header = record
                self.version = record.version
            case _ if number == 1:  # pragma: no cover - _check_header_line refused it
                raise LogError(*where, "line 1 must be the header record", offset, "not_header")
            case LogEntry():  # version 1: no chain to check
                self.entries.append(record)
            case EntryRecord(seq=seq, prev=prev):
                if seq != len(self.entries) + 1:
                    raise LogError(
                        *where,
                        f"entry sequence number {seq}, but this is entry "
                        f"{len(self.entries) + 1}: an entry is missing, repeated or moved",
                        offset,
                        "bad_seq",
                    )
                if prev != self.head:
                    raise LogError(
                        *where,
                        broken_link(line, number, prev, self.head, following),
                        offset,
                        "bad_chain",
                    )
                self.entries.append(LogEntry(command=record.command, events=record.events))
            case EndRecord(count=count, head=head):
                if count != len(self.entries) or head != self.head:
                    raise LogError(
                        *where,
                        f"the end record seals {count} entries with head {head[:16]!r}..., "
                        f"but the log has {len(self.entries)} with head {self.head[:16]!r}...",
                        offset,
                        "bad_end",
                    )
                if not self.entries or not _ends_match(self.entries[-1].events, records.end_event):
                    raise LogError(
                        *where,
                        "an end record, but the last entry does not end the match",
                        offset,
                        "bad_end",
                    )
                assert self.header is not None  # line 1 was checked to be a header
                problem = chance_problem(self.header.settings, record.chance)
                if problem is not None:
                    raise LogError(*where, problem, offset, "bad_end")
                self.ended = True
                self.chance = record.chance
        self.head = _sha256(line)

    def finish(self, stream: LineStream, *, sealed: bool) -> MatchLog:
        """Return the log; the ``stream``'s tail is where an end record would go."""
        assert self.header is not None  # line 1 was checked to be a header
        header, entries = self.header, tuple(self.entries)
        upcast_from: int | None = None
        records = self.records
        assert records is not None  # line 1 named the game
        stored, current = self.payload, records.rules or LOG_VERSION
        for version in range(stored, current):
            header, entries = records.upcasts[version].step(header, entries)
            upcast_from = stored
        log = MatchLog(header=header, entries=entries, upcast_from=upcast_from, chance=self.chance)
        # Version 1 had no end record; from version 2 a finished match must have one.
        if sealed and self.version >= 2 and log.finished and not self.ended:
            raise LogError(
                self.path,
                stream.number,
                "the match ended but the log has no end record: the log was cut off",
                stream.offset,
                "missing_end",
            )
        return log


_LINK: Final = re.compile(rb'"(?:prev|head)":"([^"]*)"')


def broken_link(line: bytes, number: int, prev: str, head: str, following: bytes | None) -> str:
    """Return the ``bad_chain`` reason for line ``number``, whose ``prev`` is not the hash of the
    line before, naming the line that was changed.

    If the next line still links to this one as it is, this line is intact and
    the line before was changed; if it does not, this line was changed (its
    own ``prev``); with no next line, either may have been.
    """
    found = f"`prev` is {prev[:16]!r}..., but line {number - 1} hashes to {head[:16]!r}..."
    link = _LINK.search(following) if following is not None else None
    if link is None:
        return f"{found}: line {number - 1} or this line's `prev` was changed"
    if link[1].decode("utf-8", "replace") == _sha256(line):
        return f"{found}: line {number - 1} was changed"
    return f"{found}: this line's `prev` was changed (line {number + 1} links to it as it was)"


def chance_problem(settings: Any, chance: Chance | None) -> str | None:
    """Return why an end record's chance reveal does not fit the settings (any game's), or
    None if it does.

    Shared by match logs and view logs.
    """
    commitment = records_of(settings).commitment(settings)
    if not commitment:
        if chance is not None:
            return "the end record reveals a chance seed, but the match's chance was public"
        return None
    if chance is None:
        return "the match's chance was secret, but the end record does not reveal its seed"
    if not opens_chance(commitment, chance):
        return (
            "the chance seed the end record reveals does not open the header's chance "
            "commitment: the seed, its salt or the commitment was changed"
        )
    return None


def _decode_line(
    line: bytes, number: int, offset: int, path: str, version: int, payload: int, records: Records
) -> Any:
    """Decode one line (without its newline), checking everything but its neighbours; line 1
    was checked to be a header of the game ``records`` are for, of format ``version`` and
    payload version ``payload``."""
    check_line_text(line, number, offset, path)
    decoder = records.record_v1_decoder if version == 1 else records.record_decoder
    kinds = "'header' or 'entry'" if version == 1 else "'header', 'entry' or 'end'"
    added = records.added_since(payload) if payload != (records.rules or LOG_VERSION) else ()
    return decode_record(line, number, offset, path, decoder, kinds, added=added)


def check_line_text(line: bytes, number: int, offset: int, path: str) -> None:
    """Refuse a line (without its newline) that is not UTF-8, is blank or ends with ``\\r``."""

    def fail(reason: str, code: LogErrorCode) -> LogError:
        return LogError(path, number, reason, offset, code)

    try:
        line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise fail(f"invalid UTF-8 at byte {error.start + 1} of the line", "invalid_utf8") from None
    if not line.strip():
        raise fail("the line is blank; every line must be a record", "blank_line")
    if line.endswith(b"\r"):
        raise fail("the line ends with a carriage return; lines end with \\n", "carriage_return")
    if nesting_depth(line) > MAX_DEPTH:
        levels = f"more than {MAX_DEPTH} levels of arrays and objects"
        reason = f"the record is nested too deeply: {levels}"
        raise fail(reason, "too_deep")


MAX_DEPTH: Final = 32
"""The deepest nesting of objects and arrays a line may have (a record needs at most 7)."""
_STRINGS: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
"""A JSON string, as one run of plain characters between escapes (linear in its length)."""
_BRACKETS: Final = re.compile(rb"[\[\]{}]")


def nesting_depth(line: bytes) -> int:
    """Return how deeply objects and arrays nest in a line of JSON (brackets inside strings
    do not count), without parsing it."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b"", line)):
        if bracket in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def decode_record(
    line: bytes,
    number: int,
    offset: int,
    path: str,
    decoder: msgspec.json.Decoder[Any],
    kinds: str,
    *,
    added: Sequence[re.Pattern[bytes]] = (),
) -> Any:
    """Decode one line with ``decoder`` and check that it is in canonical form.

    ``kinds`` names the record types the line may hold, for the error about an
    unknown one; ``added`` matches the fields versions newer than the line's
    added (:meth:`Records.added_since`), which its canonical form leaves out.
    Shared by match logs and view logs (:mod:`.viewlog`).
    """

    def fail(reason: str, code: LogErrorCode) -> LogError:
        return LogError(path, number, reason, offset, code)

    try:
        record = decoder.decode(line)
    except msgspec.DecodeError as error:
        raise fail(*_decode_reason(error, kinds)) from None
    except UnicodeError as error:  # a \\ud800-style escape: no valid character
        raise fail(f"a string is not valid Unicode: {error}", "invalid_utf8") from None
    except RecursionError:
        raise fail("the record is nested too deeply", "too_deep") from None
    try:
        canonical = _encoder.encode(record)
    except Exception:  # a value msgspec reads but cannot write back is not canonical either
        canonical = b""
    for fields in added:
        canonical = fields.sub(b"", canonical)
    if canonical != line:
        at = next(
            (i for i, (a, b) in enumerate(zip(canonical, line, strict=False)) if a != b),
            min(len(canonical), len(line)),
        )
        raise fail(
            "the record is not in canonical form (compact JSON, fields in schema order, "
            f"each key once, as this library writes it): it differs at byte {at + 1}",
            "not_canonical",
        )
    return record


def _check_header_line(line: bytes, path: str) -> tuple[int, Records, int]:
    """Check what line 1 claims to be, before its full schema; return its format version, the
    records of the game it names and its payload version (:meth:`Records.payload`)."""

    def fail(reason: str, code: LogErrorCode) -> LogError:
        return LogError(path, 1, reason, 0, code)

    try:
        raw: Any = msgspec.json.decode(line)
    except msgspec.DecodeError as error:
        raise fail(*_decode_reason(error, "")) from None
    except UnicodeError as error:
        raise fail(f"a string is not valid Unicode: {error}", "invalid_utf8") from None
    except RecursionError:
        raise fail("the record is nested too deeply", "too_deep") from None
    if not isinstance(raw, dict) or raw.get("record") != "header":
        found = raw.get("record") if isinstance(raw, dict) else None
        if found == "view":
            reason = (
                "this is a view log (one side's view of a match), not a match log: "
                "read it with read_view_log, replay it with multiversus replay or check "
                "it with multiversus verify"
            )
            raise fail(reason, "not_header")
        what = f"a record of type {found!r}" if isinstance(found, str) else "not a record"
        raise fail(f"line 1 must be the header record, but it is {what}", "not_header")
    records, version = check_claims(raw, path, "log", OLDEST_LOG_VERSION)
    if type(version) is not int or version < OLDEST_LOG_VERSION:
        raise fail(
            f"this log claims format version {version!r}, but versions are integers "
            f"from {OLDEST_LOG_VERSION}",
            "bad_version",
        )
    if version < LOG_VERSION and (records.rules or version < records.oldest):
        raise fail(
            f"this log claims format version {version}, but logs of {records.game} begin "
            f"with version {records.oldest if not records.rules else LOG_VERSION}",
            "bad_version",
        )
    payload = records.payload(version, raw.get("rules", 0))
    if type(payload) is int and payload < records.oldest:
        reads = (
            f"version {records.rules} only"
            if records.oldest == records.rules
            else f"versions {records.oldest} to {records.rules}"
        )
        reason = f"this log is of {records.game} rules version {payload}; this engine reads {reads}"
        raise fail(reason, "bad_version")
    return version, records, payload


def check_claims(raw: dict[str, Any], path: str, noun: str, oldest: int) -> tuple[Records, Any]:
    """Check a first line's format, game, seed, and that its version is not newer than this
    engine's; return the records of its game and the version it claims (not checked below).
    ``noun`` names the file ("log", "view log"), whose versions begin with ``oldest``.
    Shared by view logs."""

    def fail(reason: str, code: LogErrorCode) -> LogError:
        return LogError(path, 1, reason, 0, code)

    if raw.get("format") != LOG_FORMAT:
        raise fail(
            f"this is not a multiversus {noun}: its format is {raw.get('format')!r}, "
            f"not {LOG_FORMAT!r}",
            "foreign_format",
        )
    records = header_game(raw, path)
    version = raw.get("version")
    check_seed(raw, path)
    too_long = _longest_string(raw.get("settings"), "settings")
    if too_long is not None:
        raise fail(
            f"{too_long} is longer than {MAX_SETTING_CHARS} characters: no name or id is",
            "out_of_range",
        )
    if type(version) is int and version > LOG_VERSION:
        raise fail(
            f"this {noun} is format version {version}; this engine reads versions "
            f"{oldest} to {LOG_VERSION}",
            "newer_version",
        )
    return records, version


def header_game(raw: dict[str, Any], path: str) -> Records:
    """The records of the game a header names, and the rules version it claims checked.
    Shared by view logs."""
    game = raw.get("game", DEFAULT_GAME)
    rules = raw.get("rules", 0)
    if not isinstance(game, str):
        reason = f"the header's `game` must be a game's id (a string), not {game!r}"
        raise LogError(path, 1, reason, 0, "wrong_type")
    try:
        records = records_for(game)
    except UnknownGameError:
        reason = (
            f"this log is a game of {game!r}, which no installed ruleset plays "
            f"(the games are {', '.join(game_ids())})"
        )
        raise LogError(path, 1, reason, 0, "unknown_game") from None
    if type(rules) is int and rules > records.rules:
        reason = (
            f"this log is of {game} rules version {rules}; this engine plays versions up "
            f"to {records.rules}"
        )
        raise LogError(path, 1, reason, 0, "newer_version")
    return records


def check_seed(header: dict[str, Any], path: str) -> None:
    """Refuse a header whose settings' seed is an integer above 2**64 - 1 (``out_of_range``).

    The schema bounds the seed below; this bounds it above. Shared by view logs.
    """
    settings = header.get("settings")
    seed = settings.get("seed") if isinstance(settings, dict) else None
    if type(seed) is int and seed >= 2**64:
        reason = "value out of range at `$.settings.seed`: expected `int` <= 18446744073709551615"
        raise LogError(path, 1, reason, 0, "out_of_range")


_AT = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.DOTALL)
_MALFORMED = re.compile(r"^JSON is malformed: (?P<what>.*) \(byte (?P<byte>\d+)\)$")


def _decode_reason(error: msgspec.DecodeError, kinds: str) -> tuple[str, LogErrorCode]:
    """Turn a msgspec error into a reason in plain words, keeping its ``$.`` path, and a code.

    ``kinds`` names the record types a line may hold, as in ``'header' or 'entry'``.
    """
    text = str(error)
    if not isinstance(error, msgspec.ValidationError):
        if text == "Input data was truncated":
            reason = "the line is not complete JSON: it ends in the middle of a value"
            return reason, "malformed_json"
        malformed = _MALFORMED.match(text)
        if malformed and "surrogate" in malformed["what"]:
            byte = int(malformed["byte"]) + 1
            reason = (
                f"a string is not valid Unicode: a lone UTF-16 surrogate escape (\\ud800-style) "
                f"at byte {byte}"
            )
            return reason, "invalid_utf8"
        if malformed:
            byte = int(malformed["byte"]) + 1
            return f"the line is not valid JSON: {malformed['what']} at byte {byte}", (
                "malformed_json"
            )
        return f"the line is not valid JSON: {text}", "malformed_json"
    found = _AT.match(text)
    assert found is not None  # the pattern matches any text
    message, where = found["message"], found["path"] or "$"
    if message.startswith("Invalid value ") and where.endswith(".kind"):
        noun = "command" if where.startswith("$.command") else "event"
        value = message.removeprefix("Invalid value ")
        return f"unknown {noun} kind {value} at `{where}`", "unknown_kind"
    if message.startswith("Invalid value ") and where == "$.record":
        value = message.removeprefix("Invalid value ")
        return f"unknown record type {value} at `{where}` (records are {kinds})", "unknown_kind"
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", message)
    if unknown:
        return f"unknown field {unknown[1]!r} at `{where}`", "unknown_field"
    missing = re.fullmatch(r"Object missing required field `(.*)`", message)
    if missing:
        return f"missing field {missing[1]!r} at `{where}`", "missing_field"
    length = re.fullmatch(r"Expected `array` of length (.*)", message)
    if length:
        reason = f"wrong length at `{where}`: expected an array of length {length[1]}"
        return reason, "wrong_type"
    expected = re.fullmatch(r"Expected `(.*)`, got `(.*)`", message)
    if expected:
        reason = f"wrong type at `{where}`: expected {expected[1]}, got {expected[2]}"
        return reason, "wrong_type"
    bounded = re.fullmatch(r"Expected `(\w+)` (of length )?([<>]=? -?\d+)", message)
    if bounded:
        return f"value out of range at `{where}`: expected {message[9:]}", "out_of_range"
    if message.startswith("Invalid enum value "):
        value = message.removeprefix("Invalid enum value ")
        return f"value {value} is not allowed at `{where}`", "out_of_range"
    return f"the record does not fit the log schema: {message} at `{where}`", "out_of_range"


# --- replay and schema -------------------------------------------------------


def replay(log: MatchLog, path: str = "<memory>") -> Any:
    """Return the state after every event in the log, from the header's settings: the game's
    state (a :class:`~multiversus_core.rulesets.multiversus.state.MatchState` for Multiversus).

    Replay folds the recorded events with the game's ``fold``; it never decides
    commands again and never rolls dice. ``path`` names the log in errors. The
    state holds the log's secret chance seed, if the log has it
    (:attr:`MatchLog.chance`), so that a resumed match can go on.

    :raises LogError: naming the entry's line if an event cannot be applied
        (a log whose events do not follow from each other).
    """
    start, fold, _ = _folding(log)
    try:
        return fold(start, chain.from_iterable(map(_events_of, log.entries)))
    except Exception:  # only a log edited by hand gets here; find the line
        _find_replay_error(log, path)
        raise


_events_of: Final = attrgetter("events")


def starting_state(log: MatchLog) -> Any:
    """The state a log's match begins from, in its game, with its secret chance seed if the
    log holds it."""
    return _folding(log)[0]


def _folding(log: MatchLog) -> tuple[Any, Callable[[Any, Iterable[Any]], Any], Callable[..., Any]]:
    """The state a log starts from, with its secret chance seed if the log has it, and the
    game's fold and evolve."""
    settings = log.header.settings
    ruleset = load_ruleset(log.game)
    secret = log.chance is not None and ruleset.table(settings).chance
    state = opening_state(ruleset, log.header, log.chance if secret else None)
    return state, ruleset.fold, ruleset.evolve


def _find_replay_error(log: MatchLog, path: str) -> None:
    lines = _chain_lines(log.header.settings, log.entries, position=log.header.position)
    state, _, evolve_one = _folding(log)
    for index, entry in enumerate(log.entries):
        for position, event in enumerate(entry.events, start=1):
            try:
                state = evolve_one(state, event)
            except Exception as error:
                raise LogError(
                    path,
                    index + 2,
                    cannot_follow(position, event, error),
                    sum(map(len, lines[: index + 1])),
                    "bad_event",
                ) from error


def cannot_follow(position: int, event: msgspec.Struct, error: Exception) -> str:
    """The ``bad_event`` reason: event ``position`` (1-based) of an entry failed to fold."""
    kind = event.__struct_config__.tag
    return (
        f"event {position} ({kind}) cannot follow the events before it: "
        f"{type(error).__name__} {error}"
    )


_GENERIC_NAME: Final = re.compile(
    r"^(#/\$defs/)?(LogHeader|EntryRecord|LogEntry|ViewHeader|ViewEntryRecord)[_\[].*", re.DOTALL
)


def plain_names(schema: Any) -> Any:
    """A schema with its records named as the records are (``LogHeader``, not the name
    msgspec gives ``LogHeader[MatchSettings]``), and each description a docstring cleaned as
    :func:`inspect.cleandoc` does, whatever msgspec's version leaves of its indentation.
    Shared by view logs."""
    if isinstance(schema, dict):
        return {
            plain_names(key): inspect.cleandoc(plain_names(value))
            if key == "description" and isinstance(value, str)
            else plain_names(value)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [plain_names(item) for item in schema]
    if isinstance(schema, str):
        return _GENERIC_NAME.sub(r"\1\2", schema)
    return schema


def log_schema(game: str = DEFAULT_GAME) -> dict[str, object]:
    """Return a JSON Schema for one line of a log of ``game``: a header, an entry or an end
    record.

    :raises UnknownGameError: if no bundled or installed ruleset has that id.
    """
    records = records_for(game)
    schema = plain_names(
        msgspec.json.schema(typing.Union[records.header, records.entry, EndRecord])  # noqa: UP007
    )
    title = load_ruleset(game).title
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{LOG_FORMAT} line, format version {LOG_VERSION}",
        "description": (
            f"One line of a {title} match log (JSON Lines): line 1 is a header "
            "record, every later line an entry record chained to the line before it, "
            "and the log of a finished match ends with an end record. "
            "See docs/log-format.md."
        ),
        **schema,
    }


__all__ = [
    "LOG_ERROR_CODES",
    "LOG_FORMAT",
    "LOG_VERSION",
    "OLDEST_LOG_VERSION",
    "EndRecord",
    "EntryRecord",
    "LogEntry",
    "LogErrorCode",
    "LogHeader",
    "LogRecord",
    "LogWriter",
    "MatchLog",
    "TornRecord",
    "decode_log",
    "encode_end",
    "encode_entry",
    "encode_header",
    "encode_log",
    "game_of",
    "log_schema",
    "new_header",
    "read_log",
    "replay",
    "starting_state",
]


if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:] != ["--schema"]:
        sys.exit("usage: python -m multiversus_core.engine.log --schema > docs/log-schema.json")
    sys.stdout.write(json.dumps(log_schema(), indent=2, sort_keys=True) + "\n")
