"""The referee's matches: their logs on disk, their seats, their chance and their views.

A match is a match log in the data folder, ``<id>.jsonl``, written by the
engine's :class:`~multiversus_core.engine.log.LogWriter` (every entry
appended and synced before anyone is told), beside ``<id>.seats.json``,
which holds the SHA-256 of each join link's token (never the token), and,
while the match goes on, ``<id>.jsonl.chance``, the referee's secret chance
seed and the seats' contributions to it. A referee started again on the same
folder resumes every match from those files.

Chance no one can bias: the header commits to the referee's secret seed
before anyone joins; each seat contributes 32 fresh random bytes when it
first joins, recorded in ``<id>.jsonl.chance`` before it is acknowledged;
the match begins once every seat has contributed, and its dice come from the
seed and every contribution (:func:`multiversus_core.engine.chance.dice_seed`);
the end record reveals them all, so verify re-derives every roll.

Nothing here knows a game: everything goes through the game's ruleset.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import msgspec

from multiversus_core.engine.chance import chance_commitment, fresh_chance, is_contribution
from multiversus_core.engine.errors import LogError, MultiversusError
from multiversus_core.engine.log import (
    LogEntry,
    LogWriter,
    MatchLog,
    encode_log,
    new_header,
    read_bytes,
    replay,
)
from multiversus_core.engine.registry import AnyRuleset, load_ruleset
from multiversus_core.engine.ruleset import Table
from multiversus_core.engine.verify import verify
from multiversus_core.engine.viewlog import ViewEntryRecord, encode_view_log, redact_log
from multiversus_server.protocol import TOKEN_BYTES

SEATS_SUFFIX: Final = ".seats.json"
LOG_SUFFIX: Final = ".jsonl"
_RESERVED: Final = ("seed", "chance", "salts")
"""The settings the referee sets itself: a fresh secret chance, fresh salts."""


class Refused(Exception):
    """A client's message the referee does not take; the message is one line for that client."""


class MatchError(Exception):
    """A match that cannot be created or resumed; the message says why in one line."""


class Seating(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What ``<id>.seats.json`` holds: the game and the SHA-256 of each link's token."""

    game: str
    seats: tuple[str, ...]
    """The digest of each seat's token, seat 1 first."""
    spectator: str
    """The digest of the spectators' token."""


def digest(token: str) -> str:
    """The SHA-256 of a token, as the data folder keeps it."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh join link token: 128 random bits."""
    return secrets.token_urlsafe(TOKEN_BYTES)


Publish = Callable[[MatchLog], MatchLog]
"""How the published log is made from the match log: the log itself, for an honest referee."""


def honest(log: MatchLog) -> MatchLog:
    """Publish the match log as it is."""
    return log


class Match:
    """One match: its log writer, the state, and every viewer's view log lines so far."""

    def __init__(self, match_id: str, path: Path, writer: LogWriter, log: MatchLog) -> None:
        self.id = match_id
        self.path = path
        self.writer = writer
        self.ruleset: AnyRuleset = load_ruleset(log.game)
        self.header = log.header
        self.settings: Any = log.header.settings
        self.seats = len(self.ruleset.table(self.settings).players)
        self.entries: list[LogEntry[Any, Any]] = list(log.entries)
        chance = writer.chance
        self.started = chance is not None and len(chance.contributions) == self.seats
        self.started = self.started and all(chance.contributions if chance else ())
        self.state: Any = replay(msgspec.structs.replace(log, chance=chance), str(path))
        self.views: dict[str, list[str]] = {}
        for viewer in self.ruleset.viewers:
            shown = redact_log(msgspec.structs.replace(log, chance=chance), viewer)
            self.views[viewer] = encode_view_log(shown).decode().splitlines()
        self.published: str | None = None

    @property
    def finished(self) -> bool:
        """True once the match is over (its log sealed)."""
        return self.ruleset.outcome(self.state) is not None

    def contribution(self, seat: int) -> str:
        """The seat's recorded contribution to the chance, or empty."""
        chance = self.writer.chance
        given = chance.contributions if chance is not None else ()
        return given[seat - 1] if len(given) >= seat else ""

    def waiting(self) -> tuple[int, ...]:
        """The seats that have not contributed yet (not joined)."""
        return tuple(s for s in range(1, self.seats + 1) if not self.contribution(s))

    def to_act(self) -> tuple[int, ...]:
        """The seats the match waits for."""
        return tuple(self.ruleset.to_act(self.state))

    def where(self) -> str:
        """Where the match stands, in the game's words."""
        return str(self.ruleset.where(self.state))

    def viewer(self, seat: int | None) -> str:
        """Whose view a seat (None: a spectator) gets now."""
        return self.ruleset.viewer_of(self.state, seat)

    def join(self, seat: int, contribution: str) -> bool:
        """Record the seat's contribution, if it has none yet; True if recorded now. The match
        begins once every seat has contributed.

        :raises Refused: for a contribution that is not 64 lower-case hex digits.
        :raises LogError: if the chance file cannot be written.
        """
        if self.contribution(seat):
            return False
        if not is_contribution(contribution):
            raise Refused("a seat joins with a contribution of 64 lower-case hex digits")
        chance = self.writer.contribute(seat, self.seats, contribution)
        if not self.waiting():
            self.state = self.ruleset.initial_state(self.settings, chance)
            self.started = True
        return True

    def act(self, seat: int, raw: bytes) -> None:
        """Take a command for ``seat``: decided, appended to the log and synced to disk.

        :raises Refused: for a command that does not decode, names another seat, or is not
            one of the seat's legal commands now (naming why, in one line).
        :raises LogError: if the log cannot be written (the command is then not taken).
        """
        ruleset = self.ruleset
        if self.finished:
            raise Refused("the match is over")
        if not self.started:
            waiting = ", ".join(map(str, self.waiting()))
            raise Refused(f"the match has not begun: it waits for seat {waiting} to join")
        try:
            command = msgspec.json.decode(raw, type=ruleset.command_type)
        except msgspec.DecodeError as error:
            raise Refused(f"not a command of {ruleset.title}: {error}") from None
        player = getattr(command, "player", None)
        if player != seat:
            raise Refused(f"you play seat {seat}; this command is seat {player}'s")
        if seat not in ruleset.to_act(self.state):
            raise Refused(f"it is not seat {seat}'s turn: {ruleset.where(self.state)}")
        legal = ruleset.legal_commands(self.state, seat)
        if command not in legal:
            raise Refused(f"not a legal command now ({ruleset.where(self.state)})")
        command = ruleset.salted(command, self.settings)
        try:
            events, after = ruleset.decide(command, self.state)
        except MultiversusError as error:
            raise Refused(" ".join(str(error).split())) from None
        before = self.state
        self.writer.append(command, events)  # on disk before anyone is told
        self.entries.append(LogEntry(command=command, events=events))
        self.state = after
        for viewer, lines in self.views.items():
            shown = ViewEntryRecord(
                seq=len(self.entries),
                prev=hashlib.sha256(lines[-1].encode()).hexdigest(),
                command=ruleset.redact_command(command, before, viewer),
                events=tuple(ruleset.redact_event(event, viewer) for event in events),
            )
            lines.append(msgspec.json.encode(shown).decode())
        if self.finished:
            self._seal()

    def _seal(self) -> None:
        """The end records of the view logs; the writer has sealed the match log."""
        self.writer.close()
        log = self.log()
        for viewer, lines in self.views.items():
            whole = encode_view_log(redact_log(log, viewer)).decode().splitlines()
            lines.append(whole[-1])

    def log(self) -> MatchLog:
        """The match log so far, with the chance (the referee's: never show it unfinished)."""
        return MatchLog(header=self.header, entries=tuple(self.entries), chance=self.writer.chance)

    def publish(self, publish: Publish) -> str:
        """The match log every client gets once the match is over.

        :raises ValueError: if the match is not over.
        """
        if not self.finished:
            raise ValueError("a match log is published only once the match is over")
        if self.published is None:
            if publish is honest:
                self.published = read_bytes(str(self.path)).decode()
            else:
                self.published = encode_log(publish(self.log())).decode()
        return self.published


class Referee:
    """Every match in a data folder: created, found by a link's token, resumed after a restart."""

    def __init__(self, data: Path, publish: Publish = honest) -> None:
        """Keep matches in ``data`` (created if missing); ``publish`` makes the log published
        at the end (only tests give another than :func:`honest`).

        :raises MatchError: if the folder cannot be made.
        """
        self.data = data
        self.publish = publish
        self.matches: dict[str, Match] = {}
        self._tokens: dict[str, tuple[str, int | None]] = {}
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise MatchError(f"{data}: {error.strerror or error}") from None

    def resume_all(self) -> list[str]:
        """Resume every match in the data folder; return a line for each that could not be."""
        problems = []
        for seats_file in sorted(self.data.glob(f"*{SEATS_SUFFIX}")):
            match_id = seats_file.name.removesuffix(SEATS_SUFFIX)
            try:
                self._resume(match_id, seats_file)
            except MatchError as error:
                problems.append(f"match {match_id}: {error}")
        return problems

    def _resume(self, match_id: str, seats_file: Path) -> None:
        path = self.data / f"{match_id}{LOG_SUFFIX}"
        if not path.exists():  # killed between the two files: nobody has its links yet
            with contextlib.suppress(OSError):
                seats_file.unlink()
            return
        try:
            seating = msgspec.json.decode(read_bytes(str(seats_file)), type=Seating)
        except (LogError, msgspec.DecodeError) as error:
            raise MatchError(f"{seats_file}: {error}") from None

        def check(log: MatchLog) -> None:
            checked = verify(log, str(path))
            if not checked.ok:
                raise MatchError(f"the log does not verify: {checked.problem}")

        try:
            writer, log = LogWriter.resume(path, check)
        except LogError as error:
            raise MatchError(str(error)) from None
        try:
            match = Match(match_id, path, writer, log)
        except (MultiversusError, ValueError) as error:
            writer.close()
            raise MatchError(str(error)) from None
        if match.finished:
            writer.close()
        self._add(match, seating)

    def _add(self, match: Match, seating: Seating) -> None:
        self.matches[match.id] = match
        for seat, token in enumerate(seating.seats, start=1):
            self._tokens[token] = (match.id, seat)
        self._tokens[seating.spectator] = (match.id, None)

    def create(self, body: Any) -> tuple[Match, tuple[str, ...], str]:
        """Create a match from ``{"game": ID, ...settings}``: return it, each seat's token and
        the spectators' token. The referee sets the chance (secret, committed in the header)
        and the salts (fresh).

        :raises MatchError: for a body that names no installed game or settings it refuses.
        :raises LogError: if the match's files cannot be written.
        """
        if not isinstance(body, dict) or not isinstance(body.get("game"), str):
            raise MatchError('the body is a JSON object naming its "game"')
        fields = {key: value for key, value in body.items() if key != "game"}
        reserved = [key for key in _RESERVED if key in fields]
        if reserved:
            raise MatchError(f"the referee sets {', '.join(reserved)} itself")
        try:
            ruleset = load_ruleset(body["game"])
            given = msgspec.convert(fields, ruleset.settings_type)
            chance = fresh_chance()
            players = ruleset.table(given).players
            table = Table(0, chance_commitment(chance), "secrets", players)
            settings = ruleset.with_table(given, table)
            ruleset.check_settings(settings)
        except (MultiversusError, msgspec.ValidationError, ValueError) as error:
            raise MatchError(" ".join(str(error).split())) from None
        match_id = secrets.token_hex(8)
        tokens = tuple(new_token() for _ in players)
        spectator = new_token()
        seating = Seating(ruleset.id, tuple(map(digest, tokens)), digest(spectator))
        seats_file = self.data / f"{match_id}{SEATS_SUFFIX}"
        _write_new(seats_file, msgspec.json.encode(seating) + b"\n")
        path = self.data / f"{match_id}{LOG_SUFFIX}"
        writer = LogWriter.create(path, settings, chance)
        log = MatchLog(header=new_header(settings), chance=chance)
        match = Match(match_id, path, writer, log)
        self._add(match, seating)
        return match, tokens, spectator

    def find(self, token: str) -> tuple[Match, int | None] | None:
        """The match and seat (None: a spectator) of a link's token, or None."""
        found = self._tokens.get(digest(token))
        if found is None:
            return None
        return self.matches[found[0]], found[1]

    def close(self) -> None:
        """Close every match's log."""
        for match in self.matches.values():
            match.writer.close()

    def __iter__(self) -> Iterator[Match]:
        return iter(self.matches.values())


def _write_new(path: Path, data: bytes) -> None:
    """Write a new file whole and sync it (and its folder)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as error:
        raise LogError(str(path), 0, error.strerror or str(error)) from error


__all__ = [
    "Match",
    "MatchError",
    "Publish",
    "Referee",
    "Refused",
    "Seating",
    "digest",
    "honest",
    "new_token",
]
