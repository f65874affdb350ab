"""The referee as a Starlette application: a start page, ``POST /matches``, and a WebSocket a
seat or spectator link.

- ``GET /``: a plain page with a form that creates a match;
- ``POST /matches``: a JSON body ``{"game": ID, ...settings}`` answers JSON
  ``{"seats": [link, ...], "spectator": link}`` (a form answers a page of the links);
- ``GET /join/<token>``: the browser client, which plays the link (:mod:`.page`);
- ``/ws/<token>``: the WebSocket of a link (``docs/serve.md``).

Each match's messages are taken one at a time (a lock a match), and what they
change is put in each connection's outbox in order, sent by the connection's
own writer, so that a slow connection holds up no other; every connection is
bounded in message size and rate and in messages waiting, every match in
connections. A refused message gets an error for its sender only.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qsl

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from multiversus_core.engine.errors import LogError, MultiversusError
from multiversus_core.engine.log import MAX_DEPTH, nesting_depth
from multiversus_core.engine.registry import game_ids, load_ruleset
from multiversus_server.client import cross_check
from multiversus_server.page import (
    Explain,
    ViewPosition,
    checked,
    chosen_command,
    page_html,
    shown,
)
from multiversus_server.protocol import (
    BURST,
    MAX_CONNECTIONS,
    MAX_MESSAGE_BYTES,
    RATE,
    Act,
    Choose,
    Created,
    Error,
    Join,
    Lines,
    Published,
    Sync,
    client_decoder,
    encoder,
    is_token,
)
from multiversus_server.referee import Match, MatchError, Referee, Refused

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest body ``POST /matches`` reads."""
POLICY_VIOLATION: Final = 1008
TRY_AGAIN_LATER: Final = 1013
SEND_TIMEOUT: Final = 5.0
"""Seconds a message may wait for its connection to take it; a connection slower than that
(it does not read) is dropped."""
OUTBOX: Final = 256
"""Messages a connection may have waiting to be sent; one more drops it. A connection that
reads is sent two or three a command."""
CLOSE_TIMEOUT: Final = 1.0
"""Seconds a dropped connection is given to take its close frame."""


@dataclass
class Bucket:
    """A token bucket: :data:`RATE` messages a second on average, :data:`BURST` at once."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    last: float | None = None

    def take(self, now: float) -> float:
        """Take one message at time ``now`` (seconds); return how long to wait before reading it."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


@dataclass(eq=False)
class Connection:
    """One open WebSocket of a match: whose it is, what it was sent, and its outbox.

    What the match tells it is put in its outbox, in order, and sent by its own writer
    (:meth:`write`), so that a slow connection holds up no other: one whose outbox is full
    (:data:`OUTBOX` messages waiting) or that does not take a message within
    :data:`SEND_TIMEOUT` is dropped, and joins again like any dropped connection.
    """

    websocket: WebSocket
    seat: int | None
    joined: bool = False
    viewer: str = ""
    sent: int = 0
    """How many lines of its viewer's view log it was sent."""
    published: bool = False
    page: bool = False
    """A page: it is sent what it draws (``shown``) and the referee's cross-check."""
    dropped: bool = False
    """True once it was too slow: it is sent nothing more, and its writer ends."""
    bucket: Bucket = field(default_factory=Bucket)
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    writer: asyncio.Task[None] | None = None
    """The task that runs :meth:`write`."""

    async def throttle(self) -> None:
        """Wait until the connection may send another message (:class:`Bucket`)."""
        wait = self.bucket.take(time.monotonic())
        if wait:
            await asyncio.sleep(wait)

    def send(self, message: Any) -> None:
        """Put one message in the outbox, after those put before it; a full outbox drops the
        connection (:attr:`dropped`)."""
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(encoder.encode(message).decode())
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Send nothing more: the writer (:meth:`write`) ends, and with it the connection."""
        self.dropped = True
        if self.writer is not None and self.writer is not asyncio.current_task():
            self.writer.cancel()

    async def write(self) -> None:
        """Send the outbox in order until the connection is dropped or gone; a message not
        taken within :data:`SEND_TIMEOUT` drops it."""
        while not self.dropped:
            text = await self.outbox.get()
            try:
                await asyncio.wait_for(self.websocket.send_text(text), SEND_TIMEOUT)
            except TimeoutError:
                self.drop()
            except (RuntimeError, OSError, WebSocketDisconnect):
                return  # gone: its reader ends the connection


class Server:
    """The referee behind the routes: its matches, their locks and their connections."""

    def __init__(self, referee: Referee, explain: Explain | None = None) -> None:
        self.referee = referee
        self.explain = explain
        self.locks: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.positions: dict[tuple[str, str], ViewPosition] = {}
        """Each match's view logs' positions, by match and viewer, kept as they grow."""

    def position(self, match: Match, viewer: str) -> ViewPosition:
        """Where a viewer's view log of a match stands, kept as it grows."""
        return self.positions.setdefault((match.id, viewer), ViewPosition())

    def lock(self, match: Match) -> asyncio.Lock:
        """The lock that takes a match's messages one at a time."""
        return self.locks.setdefault(match.id, asyncio.Lock())

    def links(self, base: str, tokens: tuple[str, ...], spectator: str) -> Created:
        """The join links of a match's tokens."""
        root = base.rstrip("/")
        return Created(tuple(f"{root}/join/{t}" for t in tokens), f"{root}/join/{spectator}")

    # --- HTTP ------------------------------------------------------------------------

    async def start_page(self, request: Request) -> Response:
        """A plain page: a form that creates a match of any installed game."""
        options = "".join(
            f'<option value="{html.escape(g)}">{html.escape(load_ruleset(g).title)}</option>'
            for g in game_ids()
        )
        body = (
            "<h1>Multiversus referee</h1>"
            '<form method="post" action="/matches">'
            f'<label>Game <select name="game">{options}</select></label> '
            '<button type="submit">Create a match</button></form>'
            "<p>Each seat gets a secret link: give each player theirs, to open in a browser "
            "or to play with <code>multiversus join LINK</code>.</p>"
        )
        return HTMLResponse(_page("Multiversus referee", body))

    async def create(self, request: Request) -> Response:
        """``POST /matches``: a JSON body answers JSON links; a form, a page of them."""
        data = await _body(request)
        form = request.headers.get("content-type", "").startswith(
            "application/x-www-form-urlencoded"
        )
        try:
            if data is None:
                raise MatchError(f"the body is larger than {MAX_BODY_BYTES} bytes")
            if form:
                body: Any = dict(parse_qsl(data.decode("utf-8", "replace")))
            else:
                try:
                    body = msgspec.json.decode(data)
                except msgspec.DecodeError as error:
                    raise MatchError(f"the body is not JSON: {error}") from None
            async with self.lock_all:
                match, tokens, spectator = self.referee.create(body)
        except (MatchError, LogError) as error:
            message = " ".join(str(error).split())
            if form:
                return HTMLResponse(_page("Not created", f"<p>{html.escape(message)}</p>"), 400)
            return JSONResponse({"error": message}, 400)
        created = self.links(str(request.base_url), tokens, spectator)
        if form:
            items = [
                f"<li>Seat {n}: <code>{html.escape(link)}</code></li>"
                for n, link in enumerate(created.seats, start=1)
            ]
            items.append(f"<li>Spectators: <code>{html.escape(created.spectator)}</code></li>")
            title = f"{match.ruleset.title}: match {match.id}"
            return HTMLResponse(
                _page(title, f"<h1>{html.escape(title)}</h1><ul>{''.join(items)}</ul>")
            )
        return Response(encoder.encode(created), 201, media_type="application/json")

    async def join_page(self, request: Request) -> Response:
        """The browser client, which plays the link (a seat's or a spectator's)."""
        token = request.path_params["token"]
        found = self.referee.find(token) if is_token(token) else None
        if found is None:
            return HTMLResponse(_page("No such match", "<p>No match has this link.</p>"), 404)
        return HTMLResponse(page_html(), headers={"cache-control": "no-store"})

    # --- WebSocket -------------------------------------------------------------------

    async def play(self, websocket: WebSocket) -> None:
        """A link's WebSocket: join, then commands for the link's seat."""
        token = websocket.path_params["token"]
        found = self.referee.find(token) if is_token(token) else None
        # Accepted, then closed with a reason: a client is told why, not just "403".
        await websocket.accept()
        if found is None:
            await websocket.close(POLICY_VIOLATION, "no match has this link")
            return
        match, seat = found
        connections = self.connections.setdefault(match.id, set())
        if len(connections) >= MAX_CONNECTIONS:
            await websocket.close(TRY_AGAIN_LATER, "too many connections to this match")
            return
        connection = Connection(websocket, seat)
        connections.add(connection)
        reader = asyncio.create_task(self._read(match, connection))
        writer = connection.writer = asyncio.create_task(connection.write())
        try:
            await asyncio.wait((reader, writer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            connections.discard(connection)
            reader.cancel()
            writer.cancel()
            await asyncio.gather(reader, writer, return_exceptions=True)
        if connection.dropped:  # too slow: told so, if it still takes a frame
            with contextlib.suppress(TimeoutError, RuntimeError, OSError, WebSocketDisconnect):
                reason = "too slow to take its messages: join again"
                await asyncio.wait_for(websocket.close(TRY_AGAIN_LATER, reason), CLOSE_TIMEOUT)

    async def _read(self, match: Match, connection: Connection) -> None:
        """Take a connection's messages until it is gone."""
        websocket = connection.websocket
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                await connection.throttle()
                data = message.get("text")
                raw = data.encode() if data is not None else message.get("bytes") or b""
                # taken whole even if the connection is dropped meanwhile: a command half
                # taken would leave its match's lock free while it is still recorded
                await asyncio.shield(self._handle(match, connection, raw))

    async def _handle(self, match: Match, connection: Connection, raw: bytes) -> None:
        """Take one message; a refused one gets an error for its sender only."""
        try:
            await self._take(match, connection, raw)
        except Refused as error:
            connection.send(Error(" ".join(str(error).split())))

    async def _take(self, match: Match, connection: Connection, raw: bytes) -> None:
        if len(raw) > MAX_MESSAGE_BYTES:
            raise Refused(f"a message of {len(raw)} bytes: at most {MAX_MESSAGE_BYTES}")
        if nesting_depth(raw) > MAX_DEPTH:  # refused before parsing, which would recurse
            raise Refused(f"a message nested more than {MAX_DEPTH} levels deep")
        try:
            message = client_decoder.decode(raw)
        except (msgspec.DecodeError, RecursionError) as error:
            raise Refused(f"not a message: {error}") from None
        seat = connection.seat
        async with self.lock(match):
            match message:
                case Join(contribution=contribution, page=page):
                    if connection.joined:
                        raise Refused("this connection has joined already")
                    if seat is not None:
                        try:
                            await asyncio.to_thread(match.join, seat, contribution)
                        except (LogError, ValueError) as error:
                            raise Refused(
                                f"the referee could not record the join: {error}"
                            ) from None
                    connection.joined, connection.page = True, page
                    await self._tell_all(match, everyone=True)
                case Act(command=command):
                    if not connection.joined:
                        raise Refused('join first: {"type":"join","contribution":...}')
                    if seat is None:
                        raise Refused("a spectator gives no commands")
                    await self._act(match, seat, bytes(command))
                case Choose(chosen=chosen):
                    if not connection.joined:
                        raise Refused('join first: {"type":"join","contribution":...}')
                    if seat is None:
                        raise Refused("a spectator gives no commands")
                    if not match.started or match.finished or seat not in match.to_act():
                        raise Refused(f"it is not seat {seat}'s turn: {match.where()}")
                    viewer = match.viewer(seat)
                    lines, at = match.views[viewer], self.position(match, viewer)
                    try:
                        made = await asyncio.to_thread(chosen_command, lines, seat, chosen, at)
                    except ValueError as error:
                        raise Refused(" ".join(str(error).split())) from None
                    if made is None:
                        drawn = await asyncio.to_thread(
                            shown,
                            lines,
                            seat,
                            begun=True,
                            chosen=chosen,
                            explain=self.explain,
                            at=at,
                        )
                        connection.send(drawn)
                    else:
                        await self._act(match, seat, encoder.encode(made))

    async def _act(self, match: Match, seat: int, command: bytes) -> None:
        """Take a seat's command (:meth:`Match.act`), then tell every connection."""
        try:
            await asyncio.to_thread(match.act, seat, command)
        except LogError as error:
            raise Refused(f"the referee could not record it: {error}") from None
        await self._tell_all(match)

    async def _tell_all(self, match: Match, *, everyone: bool = False) -> None:
        """Send every joined connection what it has not seen (put in its outbox: nothing here
        waits for a connection); ``everyone`` resends the whole view log (the seats waited
        for changed)."""
        for connection in list(self.connections.get(match.id, ())):
            if connection.joined and not connection.dropped:
                await self._tell(match, connection, resync=everyone)

    async def _tell(self, match: Match, connection: Connection, *, resync: bool) -> None:
        viewer = match.viewer(connection.seat)
        lines = match.views[viewer]
        if resync or viewer != connection.viewer:
            seat = connection.seat
            contribution = match.contribution(seat) if seat is not None else ""
            sync = Sync(match.ruleset.id, seat, viewer, tuple(lines), contribution, match.waiting())
            connection.send(sync)
        elif len(lines) > connection.sent:
            connection.send(Lines(viewer, connection.sent, tuple(lines[connection.sent :])))
        connection.viewer, connection.sent = viewer, len(lines)
        seat = connection.seat
        if connection.page:
            try:
                drawn = await asyncio.to_thread(
                    shown,
                    lines,  # the lock holds it still
                    seat,
                    begun=match.started,
                    explain=self.explain,
                    at=self.position(match, viewer),
                )
            except (MultiversusError, ValueError) as error:  # this page's alone: others go on
                connection.send(Error(f"the referee cannot draw this position: {error}"))
            else:
                connection.send(drawn)
        if match.finished and not connection.published:
            connection.published = True
            published = match.publish(self.referee.publish)
            connection.send(Published(published))
            if connection.page:
                recorded = match.contribution(seat) if seat is not None else ""
                verdict = await asyncio.to_thread(
                    cross_check, published.encode(), tuple(lines), seat, recorded, "<view log>"
                )
                connection.send(checked(verdict, lines))

    @property
    def lock_all(self) -> asyncio.Lock:
        """The lock that creates matches one at a time."""
        return self.locks.setdefault("", asyncio.Lock())


async def _body(request: Request) -> bytes | None:
    """The request's body, or None if it is larger than :data:`MAX_BODY_BYTES`."""
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY_BYTES:
            return None
    return data


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head><body>{body}</body></html>"
    )


def create_app(referee: Referee, explain: Explain | None = None) -> Starlette:
    """The referee's application, over the matches of ``referee``; ``explain`` gives a page
    what the terminal's ``?`` says (none without it)."""
    server = Server(referee, explain)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        referee.close()

    return Starlette(
        routes=[
            Route("/", server.start_page),
            Route("/matches", server.create, methods=["POST"]),
            Route("/join/{token}", server.join_page),
            WebSocketRoute("/ws/{token}", server.play),
        ],
        lifespan=lifespan,
    )
