"""View logs, for any game: one viewer's view of a match log, as a file it may publish.

A view log is JSON Lines, like a match log (``docs/log-format.md``, *View
logs*): a view header naming the viewer, then one entry per entry of the
match log, redacted by :func:`redact_log` through the game's ruleset
(``redact_command``, ``redact_event``), each chained to the line before by
its sequence number and SHA-256 as in a match log, and, once the match is
over, an end record sealing the chain and revealing the chance seed of a
match whose chance was secret. It holds nothing the viewer did not know;
each hidden secret keeps its commitment, so the audit
(:func:`~multiversus_core.engine.verify.check_commitments`) can hold every
other seat to its reveals from the view log alone. It is derived, not
stored: it cannot be appended to. :func:`replayable` fills each placeholder
in from its reveal (the game's ``fill_event`` and ``fill_command``), so a view
log replays as its viewer saw the match. The view log of a match started from
a position names the position as its viewer may know it
(:func:`~multiversus_core.engine.position.redact_position`: each secret hidden
from them a stand-in), and its stand-ins are filled in from their reveals the
same way (:func:`~multiversus_core.engine.position.fill_position`).
Multiversus view logs of version 3 had no chain; they are read as they are.

Encoding is canonical and reading is strict, with the match log's reason
codes: anything else raises :class:`~multiversus_core.engine.errors.LogError`
naming the file, the 1-based line and the byte offset.
"""

from __future__ import annotations

import hashlib
import os
import typing
from collections.abc import Iterator, Sequence
from typing import Any, Final, Generic, Literal, NamedTuple, TypeAlias, TypeVar

import msgspec

from multiversus_core.engine.audit import Committed, Due, Revealed
from multiversus_core.engine.chance import Chance
from multiversus_core.engine.errors import LogError, LogErrorCode
from multiversus_core.engine.log import (
    LOG_FORMAT,
    LOG_VERSION,
    LineStream,
    LogEntry,
    LogHeader,
    MatchLog,
    Records,
    broken_link,
    cannot_follow,
    chance_problem,
    check_claims,
    check_line_text,
    decode_record,
    lines_of,
    memory_stream,
    open_stream,
    plain_names,
    records_for,
    refuse_long_line,
    starting_state,
)
from multiversus_core.engine.position import (
    Redacted,
    fill_position,
    opening_position,
    redact_position,
    with_opened_chance,
    write_position,
)
from multiversus_core.engine.records import DEFAULT_GAME, EndRecord, EntryRecord
from multiversus_core.engine.registry import AnyRuleset, load_ruleset
from multiversus_core.engine.ruleset import REFEREE

VIEW_RECORD: Final = "view"
"""The ``record`` value of a view log's first line."""

S = TypeVar("S")
V = TypeVar("V")


class ViewHeader(
    msgspec.Struct,
    Generic[S, V],
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag=VIEW_RECORD,
    omit_defaults=True,
):
    """The first record of a view log: whose view it is, and the match's header."""

    format: Literal["multiversus-log"]
    """Always ``"multiversus-log"``."""
    version: int
    """The log format version (4; view logs are new in 3, which had no chain)."""
    engine: str
    """The version of the engine that wrote the match log."""
    viewer: V
    """Whose view: one of the game's viewers (``"heroes"``, ``"adversaries"`` or
    ``"spectator"`` in Multiversus)."""
    settings: S
    """The settings the match was started with."""
    game: str = DEFAULT_GAME
    """The game's id, as the match log's header gives it; left out for Multiversus."""
    rules: int = 0
    """The game's rules version, as the match log's header gives it; left out (0) for
    Multiversus."""
    position: str = ""
    """The position the match started from, as the viewer may know it
    (:func:`~multiversus_core.engine.position.redact_position`); left out (empty) for a
    match that started at the beginning."""

    def __post_init__(self) -> None:
        # As LogHeader: a line that names Multiversus is then found not canonical.
        if self.game == DEFAULT_GAME:
            msgspec.structs.force_setattr(self, "game", DEFAULT_GAME)


ViewEntryRecord: TypeAlias = EntryRecord
"""An entry line of a view log: an entry as the viewer saw it, chained to the line before,
exactly as a match log's entry line (:class:`.records.EntryRecord`, with the game's commands,
events and their placeholders)."""


class ViewEndRecord(EndRecord, frozen=True, tag="end"):
    """The last line of the view log of a finished match: seals the entries, reveals the chance."""


ViewRecord: TypeAlias = ViewHeader[Any, Any] | EntryRecord[Any, Any] | ViewEndRecord
"""One line of a view log in the current format version."""


RedactedEntry: TypeAlias = LogEntry
"""A log entry as a viewer may know it: a :class:`.records.LogEntry` whose command and events
may be placeholders (and a view log's entry line of version 3, as a match log's of version 1)."""


class RedactedLog(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A match log as a viewer saw the match: the header and every entry, redacted."""

    viewer: str
    """One of the game's viewers, or ``"referee"`` (who sees the log as it is)."""
    header: LogHeader[Any]
    """The match log's header; for a viewer, its position is theirs (each secret hidden
    from them a stand-in: :func:`~multiversus_core.engine.position.redact_position`)."""
    entries: tuple[RedactedEntry[Any, Any], ...] = ()
    chance: Chance | None = None
    """The secret chance seed, once the match is over and its end record revealed it."""

    @property
    def game(self) -> str:
        """The id of the game the log is a match of."""
        return self.header.game

    @property
    def finished(self) -> bool:
        """True if the match ended: its last entry holds the game's end event."""
        if not self.entries:
            return False
        end = records_for(self.game).end_event
        return any(type(event) is end for event in self.entries[-1].events)


class ViewRecords:
    """One game's view log records, built once: the header and entry types with the game's
    settings, viewers, and placeholders, their decoders, and which types are placeholders."""

    def __init__(self, records: Records) -> None:
        ruleset: AnyRuleset = records.ruleset
        self.records = records
        self.game = records.game
        viewer: Any = Literal[tuple(ruleset.viewers)]
        header: Any = ViewHeader
        entry: Any = ViewEntryRecord
        redacted: Any = RedactedEntry
        self.header: Any = header[ruleset.settings_type, viewer]
        self.entry: Any = entry[ruleset.view_command_type, ruleset.view_event_type]
        self.redacted: Any = redacted[ruleset.view_command_type, ruleset.view_event_type]
        self.decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
            typing.Union[self.header, self.entry, ViewEndRecord]  # noqa: UP007 (made at run time)
        )
        self.v3_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
            typing.Union[self.header, self.redacted]  # noqa: UP007
        )
        self.event_placeholders: frozenset[type] = _placeholders(
            ruleset.view_event_type, ruleset.event_type
        )
        """The view's event types that are not the game's events: its placeholders."""
        self.command_placeholders: frozenset[type] = _placeholders(
            ruleset.view_command_type, ruleset.command_type
        )
        """The view's command types that are not the game's commands."""

    def schema(self) -> dict[str, Any]:
        """A JSON Schema of one line of a view log of the game (records named plainly)."""
        schema: dict[str, Any] = plain_names(
            msgspec.json.schema(typing.Union[self.header, self.entry, ViewEndRecord])  # noqa: UP007
        )
        return schema


def _members(union: Any) -> frozenset[type]:
    args = typing.get_args(union)
    return frozenset(args) if args else frozenset({union})


def _placeholders(view_type: Any, own_type: Any) -> frozenset[type]:
    return _members(view_type) - _members(own_type)


_VIEW_RECORDS: Final[dict[str, ViewRecords]] = {}


def view_records_for(game: str) -> ViewRecords:
    """Return the view log records of the game ``game`` (built at its first use).

    :raises UnknownGameError: if no bundled or installed ruleset has that id.
    """
    records = records_for(game)
    found = _VIEW_RECORDS.get(game)
    if found is None or found.records is not records:
        found = _VIEW_RECORDS[game] = ViewRecords(records)
    return found


_encoder: Final = msgspec.json.Encoder()
_KINDS: Final = "'view', 'entry' or 'end'"
_V3_KINDS: Final = "'view' or 'entry'"
OLDEST_VIEW_VERSION: Final = 3
"""The oldest view log format version this engine reads (version 3, without a chain)."""


# --- redacting a log ---------------------------------------------------------------


def redact_log(log: MatchLog, viewer: str) -> RedactedLog:
    """Return a whole match log as ``viewer`` saw the match, entry by entry, through its game's
    ruleset. The referee's is the log itself.

    :raises ValueError: if ``viewer`` is not one of the game's viewers nor the referee, or
        (naming the entry) if the log's events do not follow from each other.
    :raises PositionError: if the header's position cannot be read.
    """
    ruleset = load_ruleset(log.game)
    viewers = ruleset.viewers
    if viewer not in (*viewers, REFEREE):
        raise ValueError(f"no viewer {viewer!r} ({', '.join(viewers)} or {REFEREE})")
    header = log.header
    if header.position and viewer != REFEREE:
        header = msgspec.structs.replace(header, position=redact_position(header.position, viewer))
    if viewer == REFEREE:
        entries = log.entries  # the referee sees every entry as it is
    else:
        redact_command, redact_event, evolve = (
            ruleset.redact_command,
            ruleset.redact_event,
            ruleset.evolve,
        )
        state = starting_state(log)
        redacted: list[RedactedEntry[Any, Any]] = []
        for entry in log.entries:
            command = redact_command(entry.command, state, viewer)
            events = []
            for position, event in enumerate(entry.events, start=1):
                events.append(redact_event(event, viewer))
                try:
                    state = evolve(state, event)
                except Exception as error:  # only a log edited by hand gets here
                    reason = cannot_follow(position, event, error)
                    raise ValueError(f"entry {len(redacted) + 1}: {reason}") from error
            redacted.append(RedactedEntry(command, tuple(events)))
        entries = tuple(redacted)
    # The chance seed is public only once the match is over.
    chance = log.chance if log.finished else None
    return RedactedLog(viewer=viewer, header=header, entries=entries, chance=chance)


# --- writing -----------------------------------------------------------------------


def encode_view_log(log: RedactedLog) -> bytes:
    """Return a redacted log as a view log, in its canonical encoding.

    :raises ValueError: for the referee's view, which hides nothing: the match
        log itself is the referee's (:func:`~multiversus_core.engine.log.encode_log`).
    """
    if log.viewer == REFEREE:
        raise ValueError("the referee's view hides nothing: write the match log itself")
    return b"".join(_view_lines(log))


def _view_lines(log: RedactedLog) -> list[bytes]:
    """Every line of a view log (newlines included), with the chain and the end record."""
    records = view_records_for(log.game)
    match = log.header
    header = records.header(
        format=LOG_FORMAT,
        version=LOG_VERSION,
        engine=match.engine,
        viewer=log.viewer,
        settings=match.settings,
        game=match.game,
        rules=match.rules,
        position=match.position,
    )
    lines = [_encoder.encode(header) + b"\n"]
    for seq, entry in enumerate(log.entries, start=1):
        record = ViewEntryRecord(
            seq=seq, prev=_sha256(lines[-1][:-1]), command=entry.command, events=entry.events
        )
        lines.append(_encoder.encode(record) + b"\n")
    if log.finished:
        secret = records.records.commitment(match.settings)
        if secret and log.chance is None:
            raise ValueError("the match's chance was secret: its end record needs the seed")
        end = ViewEndRecord(
            count=len(log.entries),
            head=_sha256(lines[-1][:-1]),
            chance=log.chance if secret else None,
        )
        lines.append(_encoder.encode(end) + b"\n")
    return lines


def _sha256(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


# --- reading -----------------------------------------------------------------------


def decode_view_log(data: bytes, path: str = "<memory>") -> RedactedLog:
    """Read a view log of any game from bytes; ``path`` names it in errors.

    :raises LogError: naming the first bad line, its byte offset and a reason
        code: an empty or truncated file, invalid UTF-8, malformed or
        non-canonical JSON, a first line that is not a view header (a match
        log included: read that with :func:`~multiversus_core.engine.log.read_log`),
        a game no installed ruleset plays, a view log of another format or
        rules version, a second header, a record that does not fit the game's
        schema (a number out of its range included), a broken chain, a bad or
        missing end record, or a record after the end.
    """
    return _decode_view(memory_stream(data), path)


def _decode_view(stream: LineStream, path: str) -> RedactedLog:
    """Decode a view log line by line as it is read, raising :class:`LogError` for the first
    bad line."""
    version = LOG_VERSION
    records: ViewRecords | None = None
    header: Any = None
    entries: list[RedactedEntry[Any, Any]] = []
    head = ""
    end: ViewEndRecord | None = None
    added: tuple[Any, ...] = ()
    lines = (
        line
        for block, start, following in stream.blocks()
        for line in lines_of(block, stream.number, start, following)
    )
    for line, number, offset, following in lines:
        check_line_text(line, number, offset, path)
        if number == 1:
            version, records = _check_view_header(line, path)
            if version < LOG_VERSION:
                added = records.records.added_since(version)
        assert records is not None  # line 1 was read first
        decoder, kinds = (
            (records.v3_decoder, _V3_KINDS) if version == 3 else (records.decoder, _KINDS)
        )
        record = decode_record(line, number, offset, path, decoder, kinds, added=added)
        if end is not None:
            reason = "a record follows the end record; the end is the last line"
            raise LogError(path, number, reason, offset, "after_end")
        match record:
            case ViewHeader() if number > 1:
                reason = "a view header may only be on line 1; this is a second header"
                raise LogError(path, number, reason, offset, "misplaced_header")
            case ViewHeader():
                header = record
            case RedactedEntry():  # version 3: no chain to check
                entries.append(record)
            case ViewEntryRecord(seq=seq, prev=prev):
                if seq != len(entries) + 1:
                    reason = (
                        f"entry sequence number {seq}, but this is entry {len(entries) + 1}: "
                        "an entry is missing, repeated or moved"
                    )
                    raise LogError(path, number, reason, offset, "bad_seq")
                if prev != head:
                    reason = broken_link(line, number, prev, head, following)
                    raise LogError(path, number, reason, offset, "bad_chain")
                entries.append(RedactedEntry(command=record.command, events=record.events))
            case ViewEndRecord():
                _check_end(record, header, entries, head, path, number, offset)
                end = record
        head = _sha256(line)
    refuse_long_line(stream, path)
    number, offset = stream.number, stream.offset
    if not stream.tail and number == 1:
        raise LogError(path, 1, "the file is empty: line 1 should be a view header", 0, "empty")
    if stream.tail:
        reason = "the last line does not end with a newline: the view log is truncated"
        raise LogError(path, number, reason, offset, "truncated")
    assert header is not None  # a non-empty file ends with a newline: line 1 was read
    match_header: LogHeader[Any] = LogHeader(
        format=header.format,
        version=LOG_VERSION,
        engine=header.engine,
        settings=header.settings,
        game=header.game,
        rules=header.rules,
        position=header.position,
    )
    log = RedactedLog(
        viewer=header.viewer,
        header=match_header,
        entries=tuple(entries),
        chance=end.chance if end is not None else None,
    )
    if version >= 4 and log.finished and end is None:
        reason = "the match ended but the view log has no end record: the view log was cut off"
        raise LogError(path, number, reason, offset, "missing_end")
    return log


def _check_end(
    end: ViewEndRecord,
    header: Any,
    entries: Sequence[RedactedEntry[Any, Any]],
    head: str,
    path: str,
    number: int,
    offset: int,
) -> None:
    """Refuse an end record that does not seal these entries or reveal the right chance."""
    if end.count != len(entries) or end.head != head:
        reason = (
            f"the end record seals {end.count} entries with head {end.head[:16]!r}..., "
            f"but the view log has {len(entries)} with head {head[:16]!r}..."
        )
        raise LogError(path, number, reason, offset, "bad_end")
    end_event = records_for(header.game).end_event
    if not entries or not any(type(e) is end_event for e in entries[-1].events):
        reason = "an end record, but the last entry does not end the match"
        raise LogError(path, number, reason, offset, "bad_end")
    problem = chance_problem(header.settings, end.chance)
    if problem is not None:
        raise LogError(path, number, problem, offset, "bad_end")


def read_view_log(path: str | os.PathLike[str]) -> RedactedLog:
    """Read a view log file; never changes it.

    :raises LogError: (line 0, ``io_error``) if the file cannot be read, with
        the system's reason; otherwise as :func:`decode_view_log`.
    """
    name = os.fspath(path)
    with open_stream(name) as stream:
        return _decode_view(stream, name)


def is_view_log(data: bytes) -> bool:
    """Return whether bytes start like a view log (a first line whose record is ``view``)."""
    first = data.split(b"\n", 1)[0]
    try:
        raw: Any = msgspec.json.decode(first)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        return False
    return isinstance(raw, dict) and raw.get("record") == VIEW_RECORD


def _check_view_header(line: bytes, path: str) -> tuple[int, ViewRecords]:
    """Check what line 1 claims to be before its full schema, as a match log's header is;
    return its version and the view records of the game it names."""

    def fail(reason: str, code: LogErrorCode) -> LogError:
        return LogError(path, 1, reason, 0, code)

    try:
        raw: Any = msgspec.json.decode(line)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        # decode_record names what is wrong with the line
        return LOG_VERSION, view_records_for(DEFAULT_GAME)
    if not isinstance(raw, dict) or raw.get("record") != VIEW_RECORD:
        found = raw.get("record") if isinstance(raw, dict) else None
        if found == "header":
            what = "a match log's header: read a match log with read_log"
        elif isinstance(found, str):
            what = f"a record of type {found!r}"
        else:
            what = "not a record"
        raise fail(f"line 1 must be a view header, but it is {what}", "not_header")
    records, version = check_claims(raw, path, "view log", OLDEST_VIEW_VERSION)
    if type(version) is not int or version < OLDEST_VIEW_VERSION:
        raise fail(
            f"this view log claims format version {version!r}, but view logs are "
            f"versions {OLDEST_VIEW_VERSION} to {LOG_VERSION}",
            "bad_version",
        )
    if version < LOG_VERSION and records.rules:
        raise fail(
            f"this view log claims format version {version}, but view logs of "
            f"{records.game} begin with version {LOG_VERSION}",
            "bad_version",
        )
    rules = raw.get("rules", 0)
    if records.rules and rules != records.rules:
        reason = (
            f"this view log is of {records.game} rules version {rules!r}; this engine reads "
            f"its view logs of rules version {records.rules} only"
        )
        raise fail(reason, "bad_version")
    return version, view_records_for(records.game)


# --- replaying a view --------------------------------------------------------------


class ViewReplay(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A view log made replayable: entries that fold, as its viewer saw the match.

    Each placeholder is filled in from the reveal that opens it later in the
    log (the game's ``fill_event`` and ``fill_command``). One the log never
    reveals gets a stand-in its viewer cannot tell from the truth (in
    Multiversus: the first coin of the stash, no action coins, the first
    option of a secret). So the state after any entry, seen through the
    game's ``view`` as the viewer or as the public, is what that viewer knew
    then. It is not the match log: never show these states as the referee or
    as another viewer, and never write them as a log.
    """

    viewer: str
    header: LogHeader[Any]
    """The match log's header, as the view log gives it; its position, if any, filled in
    (:func:`replayable`)."""
    entries: tuple[LogEntry[Any, Any], ...]
    stand_ins: tuple[int, ...] = ()
    """The 1-based numbers of the entries that hold a stand-in."""
    chance: Chance | None = None
    """The secret chance seed the view log's end record revealed, if any."""

    @property
    def game(self) -> str:
        """The id of the game the log is a match of."""
        return self.header.game


class Filler:
    """Fills a view log's placeholders in, entry by entry, as the states fold.

    The engine pairs each placeholder with the reveal that opens it through the
    game's audit (a placeholder commits under a key; a reveal under the same key
    opens it; a new commitment, or the moment it falls due, ends the wait), and
    asks the game what it stood for.
    """

    def __init__(self, log: RedactedLog) -> None:
        """:raises PositionError: if the header's position cannot be read, or is not its
        viewer's."""
        self.ruleset = load_ruleset(log.game)
        self.records = view_records_for(log.game)
        self.header = log.header
        self.start: Redacted = opening_position(self.ruleset, log.header, log.viewer)
        """The position the match started from as the viewer knows it, stand-ins and all."""
        self.pairing = Pairing(
            self.ruleset, log.header.settings, self.records.event_placeholders, self.start.hidden
        )
        for index, entry in enumerate(log.entries):
            self.pairing.add(index, entry)
        self.reveals = self.pairing.paired
        self.start_reveals = self.pairing.start

    def fill(self, index: int, entry: RedactedEntry[Any, Any], state: Any) -> Filled:
        """Entry ``index`` (0-based) filled in from ``state`` before it, as
        :func:`filled_entries` fills it.

        :raises UnfitEntry: if an event cannot follow the ones before it, or a hidden command
            has no hidden event to go with.
        """
        before = state
        events: list[Any] = []
        stood_in = False
        for position, shown in enumerate(entry.events, start=1):
            event = self.event(index, position, shown, state)[0]
            stood_in = stood_in or (
                self.is_placeholder(shown) and not self.revealed(index, position)
            )
            try:
                state = self.ruleset.evolve(state, event)
            except Exception as error:  # only an edited view log gets here
                raise UnfitEntry(index, cannot_follow(position, event, error)) from error
            events.append(event)
        command = self.command(entry.command, events, before)
        if command is None:
            tag = entry.command.__struct_config__.tag
            reason = f"a {tag} command, but its entry has no hidden event to go with it"
            raise UnfitEntry(index, reason)
        return Filled(LogEntry(command=command, events=tuple(events)), stood_in, state)

    def openings(self, chance: Chance | None = None) -> tuple[Any, ...]:
        """The states the match may have begun from, as far as the viewer can tell: the
        game's initial state, or the position the header names with each stand-in filled in
        from its reveal (one never revealed: each stand-in the game offers, the first as it
        is); with ``chance``, the secret chance seed the settings commit to.

        :raises SettingsError: if ``chance`` does not open the settings' commitment.
        """
        ruleset, header = self.ruleset, self.header
        if not header.position:
            return (ruleset.initial_state(header.settings, chance),)
        ways = fill_position(self.start, self.start_reveals)
        return tuple(with_opened_chance(ruleset, header, way, chance) for way in ways)

    def event(self, index: int, position: int, shown: Any, state: Any) -> Sequence[Any]:
        """The events ``shown`` (event ``position``, 1-based, of entry ``index``, 0-based)
        may be, in ``state``: itself if the viewer saw it."""
        if type(shown) not in self.records.event_placeholders:
            return (shown,)
        filled = self.ruleset.fill_event(shown, self.reveals.get((index, position)), state)
        if not filled:  # a game's bug, not the log's: say which
            raise ValueError(f"{self.ruleset.id}: fill_event gave nothing for {shown!r}")
        return filled

    def revealed(self, index: int, position: int) -> bool:
        """Whether event ``position`` of entry ``index`` is a placeholder paired with a reveal."""
        return (index, position) in self.reveals

    def is_placeholder(self, shown: Any) -> bool:
        """Whether an event is a placeholder."""
        return type(shown) in self.records.event_placeholders

    def command(self, shown: Any, events: Sequence[Any], state: Any) -> Any:
        """The command ``shown`` stands for, given in ``state`` before ``events``; None if a
        placeholder's entry holds no secret it chose."""
        if type(shown) not in self.records.command_placeholders:
            return shown
        return self.ruleset.fill_command(shown, events, state)


class Filled(NamedTuple):
    """An entry of a view log filled in (:meth:`Filler.fill`)."""

    entry: LogEntry[Any, Any]
    stood_in: bool
    """Whether it holds a stand-in (a placeholder the log does not reveal yet)."""
    after: Any
    """The state after it."""


class UnfitEntry(Exception):
    """An entry of a view log that cannot be filled in: its index (0-based) and why."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index, self.reason = index, reason


class Pairing:
    """Pairs each placeholder of a view log, by (entry index, 1-based position), with what
    its reveal gives (:attr:`paired`), entry by entry as the log is read; and each stand-in
    of the starting position, by its key (``hidden``), likewise (:attr:`start`)."""

    def __init__(
        self,
        ruleset: AnyRuleset,
        settings: Any,
        placeholders: frozenset[type],
        hidden: Sequence[str] = (),
    ) -> None:
        auditor = ruleset.auditor(settings)
        self._audited, self._read = auditor.audited, auditor.read
        self._placeholders = placeholders
        self._hidden = tuple(hidden)
        # A stand-in of the starting position waits as if at entry -1.
        self._waiting: dict[str, tuple[int, int]] = {k: (-1, n) for n, k in enumerate(hidden)}
        self.paired: dict[tuple[int, int], Revealed] = {}
        self.start: dict[str, Revealed] = {}

    def add(self, index: int, entry: RedactedEntry[Any, Any]) -> int | None:
        """Read entry ``index`` (0-based, the one after those read); return the index of the
        earliest entry holding a placeholder it reveals (-1 for a stand-in of the starting
        position), or None if it reveals none."""
        earliest: int | None = None
        for position, event in enumerate(entry.events, start=1):
            if type(event) not in self._audited:
                continue
            for fact in self._read(event):
                match fact:
                    case Committed(key=key):
                        self._waiting.pop(key, None)
                        if type(event) in self._placeholders:
                            self._waiting[key] = (index, position)
                    case Revealed(own=False, key=key):
                        at = self._waiting.pop(key, None)
                        if at is not None and at[0] < 0:
                            self.start[self._hidden[at[1]]] = fact
                        elif at is not None:
                            self.paired[at] = fact
                        if at is not None:
                            earliest = at[0] if earliest is None else min(earliest, at[0])
                    case Due(prefixes=prefixes):
                        for key in [k for k in self._waiting if k.startswith(prefixes)]:
                            del self._waiting[key]
        return earliest

    def oldest_waiting(self) -> int | None:
        """The index of the earliest entry holding a placeholder that may yet be revealed
        (-1 for a stand-in of the starting position)."""
        return min((index for index, _ in self._waiting.values()), default=None)


def filled_entries(
    log: RedactedLog, path: str = "<memory>"
) -> Iterator[tuple[LogEntry[Any, Any], bool]]:
    """Yield each entry of a view log filled in with the first of its candidates, and whether
    it holds a stand-in, folding as it goes.

    :raises ValueError: for the referee's view (the match log itself is the referee's).
    :raises PositionError: if the header's position cannot be read, or is not its viewer's.
    :raises LogError: (``bad_event``) naming the entry's line if an event cannot
        follow the ones before it, or a hidden command has no hidden event to go with.
    """
    if log.viewer == REFEREE:
        raise ValueError("the referee's view hides nothing: replay the match log itself")
    filler = Filler(log)
    state = filler.openings()[0]
    for index, entry in enumerate(log.entries):
        try:
            filled = filler.fill(index, entry, state)
        except UnfitEntry as unfit:
            raise entry_error(log, path, index, unfit.reason) from unfit.__cause__
        state = filled.after
        yield filled.entry, filled.stood_in


def replayable(log: RedactedLog, path: str = "<memory>") -> ViewReplay:
    """Fill a view log's placeholders in from their reveals, so that it folds.

    ``path`` names the view log in errors. The header of a match started from a
    position names it filled in as the first entry is (a position of the game: its
    stand-ins never revealed as they are).

    :raises ValueError: for the referee's view (the match log itself is the referee's).
    :raises PositionError: if the header's position cannot be read, or is not its viewer's.
    :raises LogError: (``bad_event``) naming the entry's line if an event cannot
        follow the ones before it, or a hidden command has no hidden event to go with.
    """
    entries: list[LogEntry[Any, Any]] = []
    stand_ins: list[int] = []
    for number, (entry, stood_in) in enumerate(filled_entries(log, path), start=1):
        entries.append(entry)
        if stood_in:
            stand_ins.append(number)
    header = log.header
    if header.position:
        start = Filler(log).openings()[0]
        header = msgspec.structs.replace(header, position=write_position(start))
    return ViewReplay(
        viewer=log.viewer,
        header=header,
        entries=tuple(entries),
        stand_ins=tuple(stand_ins),
        chance=log.chance,
    )


def entry_error(log: RedactedLog, path: str, index: int, reason: str) -> LogError:
    """A ``bad_event`` error at the line of entry ``index`` (0-based) of a view log."""
    lines = encode_view_log(log).split(b"\n")
    return LogError(
        path, index + 2, reason, sum(len(line) + 1 for line in lines[: index + 1]), "bad_event"
    )


def view_log_schema(game: str = DEFAULT_GAME) -> dict[str, object]:
    """Return a JSON Schema for one view log line of ``game``: a view header, an entry or an
    end record.

    :raises UnknownGameError: if no bundled or installed ruleset has that id.
    """
    title = load_ruleset(game).title
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"multiversus view log line, format version {LOG_VERSION}",
        "description": (
            f"One line of a {title} view log (JSON Lines): line 1 is a view header, "
            "every later line one entry of the match log as the viewer saw it, with "
            "hidden selections and secrets replaced by placeholders, chained to the line "
            "before it, and the view log of a finished match ends with an end record. "
            "See docs/log-format.md."
        ),
        **view_records_for(game).schema(),
    }


__all__ = [
    "OLDEST_VIEW_VERSION",
    "VIEW_RECORD",
    "Filled",
    "Filler",
    "Pairing",
    "RedactedEntry",
    "RedactedLog",
    "UnfitEntry",
    "ViewEndRecord",
    "ViewEntryRecord",
    "ViewHeader",
    "ViewRecord",
    "ViewRecords",
    "ViewReplay",
    "decode_view_log",
    "encode_view_log",
    "filled_entries",
    "is_view_log",
    "read_view_log",
    "redact_log",
    "replayable",
    "view_log_schema",
    "view_records_for",
]


if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:] != ["--schema"]:
        sys.exit(
            "usage: python -m multiversus_core.engine.viewlog --schema > docs/view-log-schema.json"
        )
    sys.stdout.write(json.dumps(view_log_schema(), indent=2, sort_keys=True) + "\n")
