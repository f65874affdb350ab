"""A seat's client: it joins through a link, keeps the seat's view log as the match goes,
decides for the seat when it is to act, and cross-checks the referee at the end.

The client trusts the referee for nothing it can check: it reads its view
log strictly after every line the referee sends (the chain included), works
out its own position from it (each placeholder filled in as the engine fills
view logs, :func:`~multiversus_core.engine.viewlog.filled_entries`), and so
never needs the referee's word for its view or its legal commands. A
history resent after a reconnection must extend the one it kept. When the
match is over the referee publishes the match log; the client verifies it,
checks its own view log against it (:func:`~multiversus_core.engine.verify.verify_against`)
and checks that the chance holds the seat's contribution as recorded when it joined.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from multiversus_core.engine.chance import fresh_contribution
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import MAX_LOG_BYTES, LogEntry, decode_log
from multiversus_core.engine.position import opening_state
from multiversus_core.engine.records import EntryRecord
from multiversus_core.engine.registry import AnyRuleset, load_ruleset
from multiversus_core.engine.verify import verify_against
from multiversus_core.engine.viewlog import (
    Filler,
    RedactedLog,
    decode_view_log,
    filled_entries,
    view_records_for,
)
from multiversus_server.protocol import (
    MAX_FRAME_BYTES,
    Act,
    Error,
    Join,
    Lines,
    Published,
    Sync,
    encoder,
    is_token,
    server_decoder,
)

PATIENCE: Final = 30.0
"""How long the client keeps trying to reconnect after the connection dropped, in seconds."""
MAX_REFUSALS: Final = 5
"""Commands in a row the referee may refuse before the client gives up."""


class JoinError(Exception):
    """The client cannot play on (a bad link, a referee gone); the message says why in one
    line."""


class RefereeCaught(JoinError):
    """The referee sent what contradicts what it sent before: a history that changed, lines
    that do not chain, a seat's contribution to the chance changed."""


@dataclass(frozen=True)
class Position:
    """What the seat knows when it is to act: the game, its state as the seat's view log
    fills it in, and the seat's legal commands (a list, or a tree of choices)."""

    ruleset: AnyRuleset
    state: Any
    """The state filled in from the view log: show it only through the seat's view."""
    seat: int
    viewer: str
    legal: Any
    names: tuple[str, ...]
    history: tuple[tuple[Any, tuple[Any, ...]], ...] = ()
    """The match so far as the view log fills it in: a command and its events an entry."""


@dataclass(frozen=True)
class Told:
    """One new entry of the view log, filled in: the state before it and the entry."""

    ruleset: AnyRuleset
    settings: Any
    before: Any
    entry: LogEntry[Any, Any]
    viewer: str


@dataclass(frozen=True)
class Verdict:
    """The cross-check of the published match log against the seat's own view log."""

    ok: bool
    problems: tuple[str, ...]
    """What failed, one line each (empty when it passed)."""
    entries: int
    """Entries in the published match log."""
    outcome: str | None
    """How the match ended, in the game's words."""


Decide = Callable[[Position], Any]
"""Chooses the seat's command (run in a worker thread: a person may take their time)."""
Notice = Callable[[str], None]
"""Hears what the client has to say: the referee's errors, reconnections."""
Watch = Callable[[Told], None]
"""Hears each new entry of the view log, filled in."""


def websocket_url(link: str) -> str:
    """The WebSocket address of a join link (``http://host:port/join/TOKEN``).

    :raises JoinError: if the link is not one.
    """
    parts = urlsplit(link.strip())
    path = parts.path.rstrip("/")
    head, _, token = path.rpartition("/")
    if parts.scheme not in ("http", "https") or not head.endswith("/join") or not is_token(token):
        raise JoinError(f"not a join link: {link!r} (http://HOST:PORT/join/TOKEN)")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, f"{head.removesuffix('/join')}/ws/{token}", "", ""))


_PREV: Final = re.compile(r'"prev":"[0-9a-f]*",')


class SeatClient:
    """Plays one link to the end of its match (:meth:`run`); a spectator's link only watches."""

    def __init__(
        self,
        link: str,
        view_log: Path,
        decide: Decide | None,
        *,
        notice: Notice | None = None,
        watch: Watch | None = None,
        contribution: str | None = None,
        patience: float = PATIENCE,
    ) -> None:
        """``decide`` chooses the seat's commands (None only for a spectator's link); the
        view log is written to ``view_log``.

        :raises JoinError: if the link is not a join link.
        """
        self.url = websocket_url(link)
        self.path = view_log
        self.decide = decide
        self.notice = notice or (lambda text: None)
        self.watch = watch
        self.contribution = contribution or fresh_contribution()
        self.patience = patience
        self.lines: list[str] = []
        self.viewer = ""
        self.seat: int | None = None
        self.recorded = ""
        """The seat's contribution as the referee recorded it at the first join."""
        self.waiting: tuple[int, ...] = ()
        self.pending = False
        self.refusals = 0
        self.shown: RedactedLog | None = None
        """The view log so far, as read."""
        self._told = 0
        self._acted_at = -1

    async def run(self) -> Verdict:
        """Play the match to its end and cross-check it; reconnect when the connection drops.

        :raises JoinError: if the link opens no match, the referee cannot be reached for
            :attr:`patience` seconds, or the referee's history changes under the client.
        """
        lost: float | None = None
        delay = 0.1
        while True:
            try:
                async with connect(
                    self.url, max_size=MAX_LOG_BYTES + MAX_FRAME_BYTES, open_timeout=5
                ) as websocket:
                    lost, delay = None, 0.1
                    verdict = await self._session(websocket)
                    if verdict is not None:
                        return verdict
            except InvalidURI as error:
                raise JoinError(f"not a join link: {error}") from None
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                closed = getattr(error, "rcvd", None)
                if closed is not None and closed.code in (1008, 1013):
                    raise JoinError(f"the referee refused the link: {closed.reason}") from None
                now = time.monotonic()
                lost = lost if lost is not None else now
                if now - lost > self.patience:
                    raise JoinError(f"the referee cannot be reached: {error}") from None
                self.notice(f"connection lost ({type(error).__name__}); reconnecting")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def _session(self, websocket: ClientConnection) -> Verdict | None:
        await websocket.send(encoder.encode(Join(self.contribution)).decode())
        self.pending, self._acted_at = False, -1
        async for text in websocket:
            message = server_decoder.decode(text)
            match message:
                case Sync():
                    self._sync(message)
                case Lines():
                    self._append(message)
                case Published(log=log):
                    self._write(self.lines)
                    return self.cross_check(log.encode())
                case Error(message=reason):
                    self.notice(f"the referee says: {reason}")
                    if self.pending:
                        self.pending, self._acted_at = False, -1
                        self.refusals += 1
                        if self.refusals >= MAX_REFUSALS:
                            raise JoinError(
                                f"the referee refused {self.refusals} commands: {reason}"
                            )
            await self._act(websocket)
        return None

    # --- the view log ------------------------------------------------------------------

    def _sync(self, sync: Sync) -> None:
        lines = list(sync.lines)
        if self.lines and not _extends(self.lines, self.viewer, lines, sync.viewer):
            raise RefereeCaught("the referee resent a history that differs from the one it sent")
        self.seat = sync.seat
        if sync.seat is not None and not self.recorded:
            self.recorded = sync.contribution
        if sync.contribution != self.recorded:
            raise RefereeCaught(
                "the referee changed this seat's recorded contribution to the chance"
            )
        self.waiting = sync.waiting
        if sync.viewer != self.viewer:
            self._told = 0  # the entries are told again from the new viewer's view
        self.viewer = sync.viewer
        new = len(lines) - len(self.lines)
        self.lines = lines
        self._write(lines)
        self.shown = self._check()
        self._acted_at = -1
        self._settle(self.shown, new)

    def _append(self, new: Lines) -> None:
        if new.viewer != self.viewer or new.first != len(self.lines) or self.shown is None:
            raise RefereeCaught("the referee sent lines out of order")
        self.shown = self._extended(self.shown, new.lines)
        self.lines.extend(new.lines)
        self._write(new.lines, append=True)
        self._settle(self.shown, len(new.lines))

    def _extended(self, shown: RedactedLog, lines: Sequence[str]) -> RedactedLog:
        """The view log with new lines: each entry read with the game's schema and held to the
        chain; the end record (and with it the whole log) read strictly.

        :raises RefereeCaught: if a line does not read or does not chain.
        """
        decoder = view_records_for(shown.game).decoder
        entries = list(shown.entries)
        previous = self.lines[-1]
        for line in lines:
            try:
                record = decoder.decode(line)
            except msgspec.DecodeError as error:
                raise RefereeCaught(
                    f"the referee sent a line that does not read: {error}"
                ) from None
            if not isinstance(record, EntryRecord):  # the end: read the whole log strictly
                self.lines.extend(lines)
                try:
                    return self._check()
                finally:
                    del self.lines[-len(lines) :]
            link = hashlib.sha256(previous.encode()).hexdigest()
            if record.seq != len(entries) + 1 or record.prev != link:
                raise RefereeCaught(f"the referee sent entry {record.seq} out of its chain")
            entries.append(LogEntry(command=record.command, events=record.events))
            previous = line
        return msgspec.structs.replace(shown, entries=tuple(entries))

    def _settle(self, shown: RedactedLog, new: int) -> None:
        """A command of the seat's among the ``new`` last lines: the one it was waiting for."""
        if self.seat is None or new <= 0:
            return
        for entry in shown.entries[max(len(shown.entries) - new, 0) :]:
            if getattr(entry.command, "player", None) == self.seat:
                self.pending, self.refusals = False, 0

    def _check(self) -> RedactedLog:
        """The view log so far, read strictly (its chain included).

        :raises JoinError: if it does not read.
        """
        try:
            return decode_view_log(log_text(self.lines), str(self.path))
        except LogError as error:
            raise RefereeCaught(
                f"the referee sent a view log that does not read: {error}"
            ) from None

    def _write(self, lines: Sequence[str], *, append: bool = False) -> None:
        """Write the view log whole (replacing the file), or append lines to it."""
        try:
            if append:
                with self.path.open("ab") as file:
                    file.write(log_text(lines))
                return
            temporary = self.path.with_name(f"{self.path.name}.new")
            temporary.write_bytes(log_text(lines))
            os.replace(temporary, self.path)
        except OSError as error:
            raise JoinError(f"{self.path}: {error.strerror or error}") from None

    # --- deciding --------------------------------------------------------------------

    def position(self) -> tuple[RedactedLog, Any, list[Told]]:
        """The view log, the state it fills in, and the entries not told yet."""
        shown, state, told, _ = self._filled()
        return shown, state, told

    def _filled(
        self,
    ) -> tuple[RedactedLog, Any, list[Told], tuple[tuple[Any, tuple[Any, ...]], ...]]:
        """As :meth:`position`, with every entry filled in (a command and its events)."""
        shown = self.shown
        assert shown is not None  # joined
        ruleset = load_ruleset(shown.game)
        state = Filler(shown).openings()[0]  # the game's start, or the position it names
        told: list[Told] = []
        history: list[tuple[Any, tuple[Any, ...]]] = []
        for number, (entry, _) in enumerate(filled_entries(shown, str(self.path)), start=1):
            if number > self._told:
                told.append(Told(ruleset, shown.header.settings, state, entry, shown.viewer))
            history.append((entry.command, tuple(entry.events)))
            state = ruleset.fold(state, entry.events)
        self._told = len(shown.entries)
        return shown, state, told, tuple(history)

    async def _act(self, websocket: ClientConnection) -> None:
        if self.waiting or self.pending or (self.watch is None and self.decide is None):
            return
        if self._acted_at == len(self.lines):  # nothing new since the last look
            return
        self._acted_at = len(self.lines)
        shown, state, told, history = self._filled()
        for entry in told:
            if self.watch is not None:
                self.watch(entry)
        ruleset = load_ruleset(shown.game)
        seat = self.seat
        if seat is None or self.decide is None or seat not in ruleset.to_act(state):
            return
        names = ruleset.table(shown.header.settings).players
        legal = ruleset.legal_commands(state, seat)
        viewer = ruleset.viewer_of(state, seat)
        position = Position(ruleset, state, seat, viewer, legal, names, history)
        command = await _in_daemon_thread(self.decide, position)
        self.pending = True
        await websocket.send(encoder.encode(Act(msgspec.Raw(encoder.encode(command)))).decode())

    # --- the cross-check ---------------------------------------------------------------

    def cross_check(self, published: bytes) -> Verdict:
        """Verify the published match log and hold the seat's own view log to it."""
        return cross_check(published, self.lines, self.seat, self.recorded, str(self.path))

    @property
    def own_contribution(self) -> bool:
        """True if the contribution recorded for the seat is this client's own."""
        return self.recorded == self.contribution


def cross_check(
    published: bytes, lines: Sequence[str], seat: int | None, recorded: str, path: str
) -> Verdict:
    """Verify a published match log and hold a view log (its ``lines``, kept at ``path``) to
    it; for a seat, check that the chance holds the contribution ``recorded`` for it."""
    problems: list[str] = []
    try:
        log = decode_log(published, "<published match log>")
    except LogError as error:
        return Verdict(False, (f"the published match log does not read: {error}",), 0, None)
    try:
        own = decode_view_log(log_text(lines), path)
    except LogError as error:
        return Verdict(False, (f"the view log does not read: {error}",), 0, None)
    results = verify_against(log, [own], "<published match log>", [path])
    problems += [f"{r.path}: {r.problem} ({r.code})" for r in results if not r.ok]
    if not own.finished:
        problems.append("the view log does not reach the end of the match")
    if seat is not None:
        given = log.chance.contributions if log.chance is not None else ()
        if len(given) < seat or given[seat - 1] != recorded:
            problems.append(
                f"the published chance does not hold seat {seat}'s contribution "
                "as the referee recorded it"
            )
    outcome = None
    if results[0].ok:
        ruleset = load_ruleset(log.game)
        state = opening_state(ruleset, log.header, log.chance)
        for entry in log.entries:
            state = ruleset.fold(state, entry.events)
        ended = ruleset.outcome(state)
        outcome = ended.reason if ended is not None else None
    return Verdict(not problems, tuple(problems), len(log.entries), outcome)


def log_text(lines: Sequence[str]) -> bytes:
    """Log lines as a file holds them, each ended by a newline."""
    return "".join(f"{line}\n" for line in lines).encode()


def _extends(old: list[str], old_viewer: str, new: list[str], new_viewer: str) -> bool:
    """True if ``new`` holds every entry ``old`` held: the same lines for the same viewer, the
    same entries (their chain aside) for a viewer who took the seat over."""
    if len(new) < len(old):
        return False
    if old_viewer == new_viewer:
        return new[: len(old)] == old
    return all(_PREV.sub("", a) == _PREV.sub("", b) for a, b in zip(old[1:], new[1:], strict=False))


async def _in_daemon_thread(decide: Decide, position: Position) -> Any:
    """``decide(position)`` in a thread of its own that does not hold the program open: a
    person at a prompt when Ctrl-C stops the client is not waited for, as a thread of the
    event loop's executor would be."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():  # cancelled meanwhile: nobody waits for it
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def work() -> None:
        result: Any = None
        error: BaseException | None = None
        try:
            result = decide(position)
        except BaseException as caught:  # handed to the waiting coroutine, which raises it
            error = caught
        with contextlib.suppress(RuntimeError):  # the loop is closed: the client has stopped
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="decide", daemon=True).start()
    return await future


def run(client: SeatClient) -> Verdict:
    """Run a client to the end of its match, in a new event loop.

    :raises JoinError: as :meth:`SeatClient.run`.
    """
    return asyncio.run(client.run())
