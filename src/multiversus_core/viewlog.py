"""View logs: one side's view of a match log, as a file it may publish.

A view log is JSON Lines, like a match log (``docs/log-format.md``, *View
logs*): a view header naming the viewer, then one entry per entry of the
match log, redacted by :func:`~multiversus_core.rulesets.multiversus.views.redact_log`, each
chained to the line before by its sequence number and SHA-256 as in a match
log, and, once the match is over, an end record sealing the chain and
revealing the chance seed of a match whose chance was secret. It holds
nothing the viewer did not know; each hidden secret keeps its commitment, so
:func:`~multiversus_core.verify.check_commitments` can hold the other side to
every reveal from the view log alone. It is derived, not stored: it cannot be
appended to. :func:`replayable` fills each hidden secret in from its reveal,
so a view log replays as its viewer saw the match. View logs of version 3
had no chain; they are read as they are.

Encoding is canonical and reading is strict, with the match log's reason
codes: anything else raises :class:`~multiversus_core.engine.errors.LogError`
naming the file, the 1-based line and the byte offset.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import Any, Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.errors import LogError, LogErrorCode
from multiversus_core.engine.log import (
    LOG_FORMAT,
    LOG_VERSION,
    LogEntry,
    LogHeader,
    broken_link,
    cannot_follow,
    chance_problem,
    check_line_text,
    check_seed,
    decode_record,
    read_bytes,
    records_for,
)
from multiversus_core.engine.records import DEFAULT_GAME, EntryCount, EntryNumber
from multiversus_core.rulesets.multiversus.commands import (
    ChooseSecret,
    Command,
    SelectCoins,
    SelectReaction,
)
from multiversus_core.rulesets.multiversus.events import (
    CoinsRevealed,
    CoinsSelected,
    Event,
    MatchEnded,
    ReactionRevealed,
    ReactionSelected,
    SecretChosen,
    SecretRevealed,
)
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.settings import Chance, MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Side
from multiversus_core.rulesets.multiversus.units import CoinId, coin_colour, coin_unit
from multiversus_core.rulesets.multiversus.views import (
    HiddenChooseSecret,
    HiddenCoinsSelected,
    HiddenEvent,
    HiddenReactionSelected,
    HiddenSecretChosen,
    HiddenSelectCoins,
    HiddenSelectReaction,
    PlayerViewer,
    RedactedEntry,
    RedactedLog,
    ViewCommand,
    ViewEvent,
)

VIEW_RECORD: Final = "view"
"""The ``record`` value of a view log's first line."""


class ViewHeader(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag=VIEW_RECORD,
):
    """The first record of a view log: whose view it is, and the match's header."""

    format: Literal["multiversus-log"]
    """Always ``"multiversus-log"``."""
    version: int
    """The log format version (4; view logs are new in 3, which had no chain)."""
    engine: str
    """The version of the engine that wrote the match log."""
    viewer: PlayerViewer
    """Whose view: ``"heroes"``, ``"adversaries"`` or ``"spectator"``."""
    settings: MatchSettings
    """The settings the match was started with."""


class ViewEntryRecord(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="entry",
):
    """An entry line of a view log: an entry as the viewer saw it, chained to the line before."""

    seq: EntryNumber
    """The entry's 1-based sequence number (the view header is 0)."""
    prev: str
    """The lower-case hex SHA-256 of the previous line's bytes (newline excluded)."""
    command: ViewCommand
    """The command as the viewer may know it."""
    events: tuple[ViewEvent, ...]
    """The events as the viewer may know them."""


class ViewEndRecord(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="end",
):
    """The last line of the view log of a finished match: seals the entries, reveals the chance."""

    count: EntryCount
    """How many entry records the view log holds."""
    head: str
    """The lower-case hex SHA-256 of the last entry line's bytes (newline excluded)."""
    chance: Chance | None = None
    """The chance seed and its salt, opening the settings' ``chance`` commitment; None when
    chance was public."""


ViewRecord: TypeAlias = ViewHeader | ViewEntryRecord | ViewEndRecord
"""One line of a view log in the current format version."""

_encoder: Final = msgspec.json.Encoder()
_decoder: Final[msgspec.json.Decoder[ViewRecord]] = msgspec.json.Decoder(ViewRecord)
_v3_decoder: Final[msgspec.json.Decoder[ViewHeader | RedactedEntry]] = msgspec.json.Decoder(
    ViewHeader | RedactedEntry
)
_KINDS: Final = "'view', 'entry' or 'end'"
_V3_KINDS: Final = "'view' or 'entry'"
OLDEST_VIEW_VERSION: Final = 3
"""The oldest view log format version this engine reads (version 3, without a chain)."""


def encode_view_log(log: RedactedLog) -> bytes:
    """Return a redacted log as a view log, in its canonical encoding.

    :raises ValueError: for the referee's view, which hides nothing: the match
        log itself is the referee's (:func:`~multiversus_core.engine.log.encode_log`).
    """
    if log.viewer == "referee":
        raise ValueError("the referee's view hides nothing: write the match log itself")
    return b"".join(_view_lines(log))


def _view_lines(log: RedactedLog) -> list[bytes]:
    """Every line of a view log (newlines included), with the chain and the end record."""
    assert log.viewer != "referee"  # encode_view_log refused it
    header = ViewHeader(
        format=LOG_FORMAT,
        version=LOG_VERSION,
        engine=log.header.engine,
        viewer=log.viewer,
        settings=log.header.settings,
    )
    lines = [_encoder.encode(header) + b"\n"]
    for seq, entry in enumerate(log.entries, start=1):
        record = ViewEntryRecord(
            seq=seq, prev=_sha256(lines[-1][:-1]), command=entry.command, events=entry.events
        )
        lines.append(_encoder.encode(record) + b"\n")
    if log.finished:
        settings = log.header.settings
        if settings.chance and log.chance is None:
            raise ValueError("the match's chance was secret: its end record needs the seed")
        end = ViewEndRecord(
            count=len(log.entries),
            head=_sha256(lines[-1][:-1]),
            chance=log.chance if settings.chance else None,
        )
        lines.append(_encoder.encode(end) + b"\n")
    return lines


def _sha256(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def decode_view_log(data: bytes, path: str = "<memory>") -> RedactedLog:
    """Read a view log from bytes; ``path`` names it in errors.

    :raises LogError: naming the first bad line, its byte offset and a reason
        code: an empty or truncated file, invalid UTF-8, malformed or
        non-canonical JSON, a first line that is not a view header (a match
        log included: read that with :func:`~multiversus_core.engine.log.read_log`),
        a view log of another format version, a second header, a record that
        does not fit the schema (a number out of its range included), a
        broken chain, a bad or missing end record, or a record after the end.
    """
    if not data:
        raise LogError(path, 1, "the file is empty: line 1 should be a view header", 0, "empty")
    lines = data.split(b"\n")
    offset = 0
    version = LOG_VERSION
    header: ViewHeader | None = None
    entries: list[RedactedEntry] = []
    head = ""
    end: ViewEndRecord | None = None
    for number, line in enumerate(lines[:-1], start=1):
        check_line_text(line, number, offset, path)
        if number == 1:
            version = _check_view_header(line, path)
        decoder, kinds = (_v3_decoder, _V3_KINDS) if version == 3 else (_decoder, _KINDS)
        added = records_for(DEFAULT_GAME).added_since(version) if version < LOG_VERSION else ()
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
                    following = lines[number] if number < len(lines) - 1 else None
                    reason = broken_link(line, number, prev, head, following)
                    raise LogError(path, number, reason, offset, "bad_chain")
                entries.append(RedactedEntry(command=record.command, events=record.events))
            case ViewEndRecord():
                assert header is not None  # line 1 was checked to be a view header
                _check_end(record, header, entries, head, path, number, offset)
                end = record
        head = _sha256(line)
        offset += len(line) + 1
    if lines[-1]:
        reason = "the last line does not end with a newline: the view log is truncated"
        raise LogError(path, len(lines), reason, offset, "truncated")
    assert header is not None  # a non-empty file ends with a newline: line 1 was read
    match_header = LogHeader(
        format=header.format, version=LOG_VERSION, engine=header.engine, settings=header.settings
    )
    log = RedactedLog(
        viewer=header.viewer,
        header=match_header,
        entries=tuple(entries),
        chance=end.chance if end is not None else None,
    )
    if version >= 4 and log.finished and end is None:
        reason = "the match ended but the view log has no end record: the view log was cut off"
        raise LogError(path, len(lines), reason, offset, "missing_end")
    return log


def _check_end(
    end: ViewEndRecord,
    header: ViewHeader,
    entries: Sequence[RedactedEntry],
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
    if not entries or not any(isinstance(e, MatchEnded) for e in entries[-1].events):
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
    return decode_view_log(read_bytes(name), name)


def is_view_log(data: bytes) -> bool:
    """Return whether bytes start like a view log (a first line whose record is ``view``)."""
    first = data.split(b"\n", 1)[0]
    try:
        raw: Any = msgspec.json.decode(first)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        return False
    return isinstance(raw, dict) and raw.get("record") == VIEW_RECORD


# --- replaying a view ------------------------------------------------------------

_Reveal: TypeAlias = CoinsRevealed | ReactionRevealed | SecretRevealed


class ViewReplay(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A view log made replayable: entries that fold, as its viewer saw the match.

    Each hidden selection and secret is filled in from the reveal that opens
    it later in the log. One the log never reveals (a secret never used, a
    selection made after the last entry's reveal) gets a stand-in its viewer
    cannot tell from the truth: the first coin of the stash, no action coins,
    the first option of a secret. So the state after any entry, seen with
    :func:`~multiversus_core.rulesets.multiversus.views.view` as ``viewer`` or as the spectator, is
    what that viewer knew then. It is not the match log: never show these
    states as the referee or as the other side, and never write them as a log.
    """

    viewer: PlayerViewer
    header: LogHeader[MatchSettings]
    """The match log's header, as the view log gives it."""
    entries: tuple[LogEntry[Command, Event], ...]
    stand_ins: tuple[int, ...] = ()
    """The 1-based numbers of the entries that hold a stand-in."""
    chance: Chance | None = None
    """The secret chance seed the view log's end record revealed, if any."""


def replayable(log: RedactedLog, path: str = "<memory>") -> ViewReplay:
    """Fill a view log's hidden selections and secrets in from their reveals, so that it folds.

    ``path`` names the view log in errors.

    :raises ValueError: for the referee's view (the match log itself is the referee's).
    :raises LogError: (``bad_event``) naming the entry's line if an event cannot
        follow the ones before it, or a hidden command has no hidden event to go with.
    """
    if log.viewer == "referee":
        raise ValueError("the referee's view hides nothing: replay the match log itself")
    reveals = _reveals(log.entries)
    state = initial_state(log.header.settings)
    entries: list[LogEntry[Command, Event]] = []
    stand_ins: list[int] = []
    for index, entry in enumerate(log.entries):
        events: list[Event] = []
        stood_in = False
        for position, shown in enumerate(entry.events, start=1):
            if isinstance(shown, HiddenCoinsSelected | HiddenReactionSelected | HiddenSecretChosen):
                reveal = reveals.get((index, position))
                event = _filled(shown, reveal, state)
                stood_in = stood_in or reveal is None
            else:
                event = shown
            try:
                state = evolve(state, event)
            except Exception as error:  # only an edited view log gets here
                reason = cannot_follow(position, event, error)
                raise _entry_error(log, path, index, reason) from error
            events.append(event)
        command = _filled_command(entry.command, events)
        if command is None:
            tag = entry.command.__struct_config__.tag
            reason = f"a {tag} command, but its entry has no hidden event to go with it"
            raise _entry_error(log, path, index, reason)
        entries.append(LogEntry(command=command, events=tuple(events)))
        if stood_in:
            stand_ins.append(index + 1)
    return ViewReplay(
        viewer=log.viewer,
        header=log.header,
        entries=tuple(entries),
        stand_ins=tuple(stand_ins),
        chance=log.chance,
    )


def _reveals(entries: Sequence[RedactedEntry]) -> dict[tuple[int, int], _Reveal]:
    """Pair each hidden event, by (entry index, 1-based position), with the reveal that opens it.

    A side's next selection of the same kind ends the wait: one never revealed
    before it stays unpaired.
    """
    waiting: dict[tuple[str, str, str], tuple[int, int]] = {}
    paired: dict[tuple[int, int], _Reveal] = {}
    for index, entry in enumerate(entries):
        for position, event in enumerate(entry.events, start=1):
            match event:
                case HiddenCoinsSelected(side=side) | CoinsSelected(side=side):
                    waiting.pop(("coins", side, ""), None)
                    if isinstance(event, HiddenCoinsSelected):
                        waiting["coins", side, ""] = (index, position)
                case HiddenReactionSelected(side=side) | ReactionSelected(side=side):
                    waiting.pop(("reaction", side, ""), None)
                    if isinstance(event, HiddenReactionSelected):
                        waiting["reaction", side, ""] = (index, position)
                case HiddenSecretChosen(side=side, name=name):
                    waiting["secret", side, name] = (index, position)
                case CoinsRevealed(side=side):
                    _pair(waiting.pop(("coins", side, ""), None), event, paired)
                case ReactionRevealed(side=side):
                    _pair(waiting.pop(("reaction", side, ""), None), event, paired)
                case SecretRevealed(side=side, name=name):
                    _pair(waiting.pop(("secret", side, name), None), event, paired)
    return paired


def _pair(
    hidden: tuple[int, int] | None, reveal: _Reveal, paired: dict[tuple[int, int], _Reveal]
) -> None:
    if hidden is not None:
        paired[hidden] = reveal


def _filled(hidden: HiddenEvent, reveal: _Reveal | None, state: MatchState) -> Event:
    """The event a placeholder stands for: from its reveal, or a stand-in the viewer cannot tell."""
    match hidden, reveal:
        case HiddenCoinsSelected(side=side), CoinsRevealed(coin=coin, actions=actions, salt=salt):
            return CoinsSelected(side, coin, actions, hidden.commitment, salt)
        case HiddenCoinsSelected(side=side), _:
            return CoinsSelected(side, _first_coin(state, side), (), hidden.commitment)
        case HiddenReactionSelected(side=side), ReactionRevealed(
            coin=coin, actions=actions, salt=salt
        ):
            return ReactionSelected(side, coin, actions, hidden.commitment, salt)
        case HiddenReactionSelected(side=side), _:
            return ReactionSelected(side, _first_coin(state, side), (), hidden.commitment)
        case HiddenSecretChosen(side=side, name=name), SecretRevealed(choice=choice, salt=salt):
            return SecretChosen(side, name, choice, hidden.commitment, salt)
        case HiddenSecretChosen(side=side, name=name), _:
            options = [o.options for o in state.secret_offers if (o.side, o.name) == (side, name)]
            choice = options[0][0] if options and options[0] else ""
            return SecretChosen(side, name, choice, hidden.commitment)
    raise AssertionError(f"unexpected placeholder {hidden!r}")  # pragma: no cover


def _first_coin(state: MatchState, side: Side) -> CoinId:
    """A stand-in for a coin never revealed: which one the stash lost does not show."""
    stash = state.piles(side).stash
    return stash[0] if stash else ""


def _filled_command(shown: ViewCommand, events: Sequence[Event]) -> Command | None:
    """The command a placeholder stands for, from its filled-in event; None if there is none."""
    match shown:
        case HiddenSelectCoins(player=player):
            for event in events:
                if isinstance(event, CoinsSelected):
                    coin = event.coin
                    return SelectCoins(player, coin_unit(coin), coin_colour(coin), event.actions)
            return None
        case HiddenSelectReaction(player=player):
            for event in events:
                if isinstance(event, ReactionSelected) and event.coin is not None:
                    coin = event.coin
                    return SelectReaction(player, coin_unit(coin), coin_colour(coin), event.actions)
            return None
        case HiddenChooseSecret(player=player, name=name):
            for event in events:
                if isinstance(event, SecretChosen) and event.name == name:
                    return ChooseSecret(player, name, event.choice)
            return None
    command: Command = shown
    return command


def _entry_error(log: RedactedLog, path: str, index: int, reason: str) -> LogError:
    """A ``bad_event`` error at the line of entry ``index`` (0-based) of a view log."""
    lines = encode_view_log(log).split(b"\n")
    return LogError(
        path, index + 2, reason, sum(len(line) + 1 for line in lines[: index + 1]), "bad_event"
    )


def view_log_schema() -> dict[str, object]:
    """Return a JSON Schema for one view log line: a view header or a redacted entry."""
    schema = msgspec.json.schema(ViewRecord)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"multiversus view log line, format version {LOG_VERSION}",
        "description": (
            "One line of a Multiversus view log (JSON Lines): line 1 is a view header, "
            "every later line one entry of the match log as the viewer saw it, with "
            "hidden selections and secrets replaced by placeholders, chained to the line "
            "before it, and the view log of a finished match ends with an end record. "
            "See docs/log-format.md."
        ),
        **schema,
    }


def _check_view_header(line: bytes, path: str) -> int:
    """Check what line 1 claims to be before its full schema, as a match log's header is;
    return its version."""

    def fail(reason: str, code: LogErrorCode) -> LogError:
        return LogError(path, 1, reason, 0, code)

    try:
        raw: Any = msgspec.json.decode(line)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        return LOG_VERSION  # decode_record names what is wrong with the line
    if not isinstance(raw, dict) or raw.get("record") != VIEW_RECORD:
        found = raw.get("record") if isinstance(raw, dict) else None
        if found == "header":
            what = "a match log's header: read a match log with read_log"
        elif isinstance(found, str):
            what = f"a record of type {found!r}"
        else:
            what = "not a record"
        raise fail(f"line 1 must be a view header, but it is {what}", "not_header")
    if raw.get("format") != LOG_FORMAT:
        raise fail(
            f"this is not a multiversus view log: its format is {raw.get('format')!r}, "
            f"not {LOG_FORMAT!r}",
            "foreign_format",
        )
    version = raw.get("version")
    check_seed(raw, path)
    if type(version) is int and version > LOG_VERSION:
        raise fail(
            f"this view log is format version {version}; this engine reads versions "
            f"{OLDEST_VIEW_VERSION} to {LOG_VERSION}",
            "newer_version",
        )
    if type(version) is not int or version < OLDEST_VIEW_VERSION:
        raise fail(
            f"this view log claims format version {version!r}, but view logs are "
            f"versions {OLDEST_VIEW_VERSION} to {LOG_VERSION}",
            "bad_version",
        )
    return version


__all__ = [
    "OLDEST_VIEW_VERSION",
    "VIEW_RECORD",
    "ViewEndRecord",
    "ViewEntryRecord",
    "ViewHeader",
    "ViewRecord",
    "ViewReplay",
    "decode_view_log",
    "encode_view_log",
    "is_view_log",
    "read_view_log",
    "replayable",
    "view_log_schema",
]


if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:] != ["--schema"]:
        sys.exit("usage: python -m multiversus_core.viewlog --schema > docs/view-log-schema.json")
    sys.stdout.write(json.dumps(view_log_schema(), indent=2, sort_keys=True) + "\n")
