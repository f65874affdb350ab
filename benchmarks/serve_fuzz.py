"""A fuzz of client messages: a hostile client against a real referee while honest matches go on.

Starts ``multiversus serve`` on a free port of 127.0.0.1 with a fresh data
folder, its error output kept in a file. First one match is played to its
end (the finished match, whose commands the hostile client replays). Then,
kind after kind, ``--matches`` matches are played at once by honest bot
clients (:class:`multiversus_server.client.SeatClient`, each cross-checking
the published log at the end) while a hostile client attacks each of them,
holding, in turn, seat 1's link (seat 1 is also played by its honest
client), the spectators' link, or no link at all:

- ``malformed``: text that is not a message (cut JSON, wrong types, unknown
  tags and fields, numbers out of range, lone surrogates, NUL);
- ``wrong seat``: seat 2's commands from seat 1's or the spectators' link,
  and commands naming no seat or one that does not exist;
- ``replayed``: the link's own commands sent again as soon as they are
  acknowledged, and the finished match's commands in a random order;
- ``finished``: joins and commands for the finished match;
- ``huge``: messages just over the message bound, frames just under and over
  the frame bound, a fragmented message over it, a frame announcing 2**62 bytes;
- ``nested``: JSON nested thousands of levels deep (arrays, objects, unbalanced);
- ``binary``: binary frames (garbage, and messages), text frames that are not
  UTF-8, unknown opcodes, unmasked frames;
- ``flood``: messages as fast as the socket takes them, far past the rate bound;
- ``connections``: three times the bound of open connections to the link, joined;
- ``abrupt``: connections reset or closed in the middle of a frame, of a
  handshake, of a join;
- ``slow reader``: a joined connection that never reads, while another
  joins again and again (each join resends the whole view log to everyone).

For each kind it prints the cases sent, the tracebacks in the referee's
error output, the referee's crashes (its process gone, or no answer on its
port), and the matches disturbed: those whose seat 2 (the seat whose link
the hostile never holds) did not reach the end and pass its cross-check.
Every match log in the data folder must then be finished and verify. All of
those must be 0.

A benchmark, never a test. Run::

    PYTHONPATH=src python benchmarks/serve_fuzz.py
    PYTHONPATH=src python benchmarks/serve_fuzz.py --matches 6 --kinds flood,huge
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from serve_load import free_port, resident_kib  # the load benchmark beside this one
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from multiversus_core.engine.chance import fresh_contribution
from multiversus_core.engine.log import read_log
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.verify import verify
from multiversus_server.client import Position, SeatClient, Verdict
from multiversus_server.protocol import MAX_CONNECTIONS, MAX_FRAME_BYTES, MAX_MESSAGE_BYTES

SERVE = (sys.executable, "-m", "multiversus_cli.app", "serve")
ROLES = ("seat", "spectator", "none")
"""Whose link the hostile client holds: seat 1's, the spectators', or none."""
CLOSED = (ConnectionClosed, InvalidHandshake, OSError, TimeoutError, asyncio.IncompleteReadError)


def answers(port: int) -> bool:
    """True if the referee answers its start page."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=20) as page:
            return bool(page.status == 200)
    except OSError:
        return False


def create(port: int, game: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/matches",
        data=json.dumps({"game": game}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        created: dict[str, Any] = json.loads(answer.read())
        return created


def ws_url(link: str) -> str:
    return link.replace("http://", "ws://").replace("/join/", "/ws/")


def bot_player(game: str, name: str, seed: int, think: float) -> Callable[[Position], Any]:
    """A bot of the game that takes ``think`` seconds a decision (so that matches last)."""
    ruleset = load_ruleset(game)
    bot = ruleset.bots[name](seed)

    def decide(position: Position) -> Any:
        time.sleep(think)
        return bot.choose(ruleset.view(position.state, position.viewer), position.legal)

    return decide


class Referee:
    """``multiversus serve`` as a process, its error output kept in a file."""

    def __init__(self, port: int, data: Path, errors: Path) -> None:
        self.port, self.data, self.errors = port, data, errors
        self.crashes = 0
        self.process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        with self.errors.open("ab") as sink:
            process = subprocess.Popen(
                [*SERVE, "--port", str(self.port), "--data", str(self.data)], stderr=sink
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return process
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the referee did not start")

    def tracebacks(self) -> int:
        return self.errors.read_bytes().count(b"Traceback")

    def check(self) -> int:
        """Count a crash (the process gone or not answering) and start it again; 1 or 0."""
        if self.process.poll() is None and answers(self.port):
            return 0
        self.crashes += 1
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(30)
        self.process = self._start()
        return 1

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


# --- a WebSocket spoken by hand ----------------------------------------------------------


def frame(
    opcode: int, payload: bytes, *, fin: bool = True, masked: bool = True, length: int | None = None
) -> bytes:
    """One WebSocket frame as a client sends it; ``length`` announces another length."""
    size = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | opcode])
    bit = 0x80 if masked else 0
    if size < 126:
        head += bytes([bit | size])
    elif size < 1 << 16:
        head += bytes([bit | 126]) + struct.pack("!H", size)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", size)
    if not masked:
        return head + payload
    key = os.urandom(4)
    whole = (key * (len(payload) // 4 + 1))[: len(payload)]
    body = (int.from_bytes(payload, "big") ^ int.from_bytes(whole, "big")).to_bytes(
        len(payload), "big"
    )
    return head + key + body


class Raw:
    """A WebSocket connection whose frames are written by hand, as no client should."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(
        cls, port: int, path: str, *, receive_buffer: int = 0, handshake: bool = True
    ) -> Raw:
        sock = socket.socket()
        if receive_buffer:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        # a reader that stops reading stops at once: the stream buffers little
        limit = receive_buffer or 1 << 24
        reader, writer = await asyncio.open_connection(sock=sock, limit=limit)
        raw = cls(reader, writer)
        if handshake:
            raw.writer.write(raw.request(port, path))
            await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
        return raw

    @staticmethod
    def request(port: int, path: str) -> bytes:
        key = base64.b64encode(os.urandom(16)).decode()
        return (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def drain_for(self, seconds: float) -> None:
        """Read what the referee sends for a while, or until it closes."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                if not await asyncio.wait_for(self.reader.read(1 << 16), left):
                    return
            except (*CLOSED, ConnectionError):
                return

    def reset(self) -> None:
        """Close at once with a TCP reset: nothing sent after, nothing flushed."""
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.writer.transport.abort()

    def close(self) -> None:
        self.writer.transport.close()


# --- the hostile client ------------------------------------------------------------------


@dataclass
class Target:
    """What the hostile client of one match has: a link (or a made-up one), the finished
    match, the port, and when to stop (the honest clients are done)."""

    port: int
    role: str
    url: str
    """The WebSocket address of the hostile's link (a made-up token for role ``none``)."""
    finished: dict[str, Any]
    """The finished match's links."""
    commands: list[dict[str, Any]]
    """Every command of the finished match, as its log holds them (salted)."""
    rng: random.Random
    stop: asyncio.Event
    cases: int = 0
    received: list[dict[str, Any]] = field(default_factory=list)

    @property
    def path(self) -> str:
        return "/ws/" + self.url.rsplit("/ws/", 1)[1]

    @property
    def seat(self) -> int | None:
        return 1 if self.role == "seat" else None


class Pest:
    """A joined connection on the hostile's link that reconnects when the referee closes it
    and reads whatever the referee sends (keeping the messages)."""

    def __init__(self, target: Target, url: str | None = None) -> None:
        self.target = target
        self.url = url or target.url
        self.websocket: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None

    async def _open(self) -> ClientConnection:
        websocket = await connect(
            self.url, max_size=None, open_timeout=20, ping_interval=None, close_timeout=1
        )
        contribution = fresh_contribution() if self.target.role == "seat" else ""
        await websocket.send(json.dumps({"type": "join", "contribution": contribution}))
        self.reader = asyncio.create_task(self._read(websocket))
        return websocket

    async def _read(self, websocket: ClientConnection) -> None:
        try:
            async for text in websocket:
                if isinstance(text, str):
                    self.target.received.append(json.loads(text))
        except ConnectionClosed:
            return

    async def send(self, data: str | bytes) -> None:
        """Send one message (one case), connecting (again) first if need be."""
        self.target.cases += 1
        try:
            if self.websocket is None or self.websocket.state.name == "CLOSED":
                self.websocket = await self._open()
            await self.websocket.send(data)
        except CLOSED:
            self.websocket = None
        await asyncio.sleep(0)

    async def close(self) -> None:
        if self.websocket is not None:
            await self.websocket.close()
        if self.reader is not None:
            await asyncio.wait([self.reader], timeout=5)


def cases_of(target: Target, make: Callable[[random.Random], str | bytes], budget: int) -> Any:
    """Send ``budget`` messages made by ``make`` (or fewer, if the match ends first)."""

    async def run() -> None:
        pest = Pest(target)
        for _ in range(budget):
            if target.stop.is_set():
                break
            await pest.send(make(target.rng))
            await asyncio.sleep(target.rng.uniform(0, 0.02))
        await pest.close()

    return run()


def malformed(rng: random.Random) -> str:
    join = '{"type":"join","contribution":"' + "ab" * 32 + '"}'
    act = '{"type":"command","command":{"kind":"roll_off","player":1,"dice":null}}'
    pick = rng.randrange(14)
    if pick == 0:
        whole = rng.choice((join, act))
        return whole[: rng.randrange(len(whole))]
    if pick == 1:
        return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 200)))
    return rng.choice(
        (
            "null",
            "[]",
            '"join"',
            "12345678901234567890123456789",
            '{"type":"join","contribution":5}',
            '{"type":"join","contribution":"' + "ab" * 32 + '","extra":1}',
            '{"type":"command"}',
            '{"type":"command","command":1e999999}',
            '{"type":"command","command":{"kind":"roll_off","player":1e308,"dice":[-1,99]}}',
            '{"type":"command","command":{"kind":"roll_off","player":"1"}}',
            '{"type":"join","contribution":"\\ud800"}',
            '{"type":"\\u0000"}',
            "\ufeff" + join,
            '{"type":"command","command":{"kind":"roll_off","player":1,"dice":null},"type":"join"}',
        )
    )


async def fuzz_malformed(target: Target) -> None:
    await cases_of(target, malformed, 300)


async def fuzz_wrong_seat(target: Target) -> None:
    theirs = [c for c in target.commands if c.get("player") == 2]
    mine = [c for c in target.commands if c.get("player") == 1]

    def make(rng: random.Random) -> str:
        pick = rng.randrange(4)
        if pick == 0:
            command = rng.choice(theirs)
        else:
            command = dict(rng.choice(mine))
            command["player"] = (2, 0, 3, -1, None)[rng.randrange(5)] if pick > 1 else 2
            if command["player"] is None:
                del command["player"]
        return json.dumps({"type": "command", "command": command})

    await cases_of(target, make, 300)


async def fuzz_replayed(target: Target) -> None:
    pest = Pest(target)
    replayed = 0
    shuffled = list(target.commands)
    target.rng.shuffle(shuffled)
    for command in shuffled[:300]:
        if target.stop.is_set():
            break
        # the link's own commands again, as soon as they are acknowledged
        lines = [m for m in target.received[replayed:] if m.get("type") == "lines"]
        replayed = len(target.received)
        for message in lines:
            for line in message["lines"]:
                record = json.loads(line)
                if (
                    target.seat is not None
                    and record.get("command", {}).get("player") == target.seat
                ):
                    for _ in range(2):
                        await pest.send(
                            json.dumps({"type": "command", "command": record["command"]})
                        )
        # and another match's commands, out of their order
        await pest.send(json.dumps({"type": "command", "command": command}))
        await asyncio.sleep(target.rng.uniform(0, 0.02))
    await pest.close()


async def fuzz_finished(target: Target) -> None:
    links = target.finished
    link = {"seat": links["seats"][0], "spectator": links["spectator"]}.get(target.role)
    url = ws_url(link) if link else target.url
    pest = Pest(target, url)
    for _ in range(300):
        if target.stop.is_set():
            break
        command = target.rng.choice(target.commands)
        sent = json.dumps({"type": "command", "command": command})
        if target.rng.random() < 0.1:
            sent = json.dumps({"type": "join", "contribution": fresh_contribution()})
        await pest.send(sent)
        await asyncio.sleep(target.rng.uniform(0, 0.02))
    await pest.close()


async def fuzz_huge(target: Target) -> None:
    sizes = (MAX_MESSAGE_BYTES + 1, 100 * 1024, MAX_FRAME_BYTES - 64, MAX_FRAME_BYTES + 1)
    pest = Pest(target)
    for round_ in range(8):
        if target.stop.is_set():
            break
        for size in sizes:
            text = '{"type":"command","command":{"kind":"' + "x" * size + '"}}'
            await pest.send(text)
        # a message over the frame bound in fragments, then a frame announcing 2**62 bytes
        raw = await Raw.open(target.port, target.path)
        chunk = b"y" * (256 * 1024)
        try:
            await raw.send(frame(0x1, chunk, fin=False))
            for _ in range(MAX_FRAME_BYTES // len(chunk) + 1):
                await raw.send(frame(0x0, chunk, fin=False))
            await raw.drain_for(0.5)
        except (*CLOSED, ConnectionError):
            pass
        raw.close()
        target.cases += 1
        raw = await Raw.open(target.port, target.path)
        try:
            await raw.send(frame(0x1, b"z" * 1024, length=1 << 62))
            await raw.drain_for(0.5)
        except (*CLOSED, ConnectionError):
            pass
        raw.close()
        target.cases += 1
        await asyncio.sleep(0.05 * round_)
    await pest.close()


def nested(rng: random.Random) -> str:
    depth = rng.choice((33, 100, 1000, 5000, 8000))
    pick = rng.randrange(4)
    if pick == 0:
        inner = "[" * depth + "]" * depth
    elif pick == 1:
        inner = '{"a":' * depth + "1" + "}" * depth
    elif pick == 2:
        inner = "[" * min(depth, MAX_MESSAGE_BYTES - 64)
    else:
        return "[" * depth + '{"type":"join"}' + "]" * depth
    return '{"type":"command","command":' + inner + "}"


async def fuzz_nested(target: Target) -> None:
    await cases_of(target, nested, 200)


async def fuzz_binary(target: Target) -> None:
    pest = Pest(target)
    join = json.dumps({"type": "join", "contribution": fresh_contribution()}).encode()
    for _ in range(100):
        if target.stop.is_set():
            break
        await pest.send(os.urandom(target.rng.randrange(1, 2048)))
        await pest.send(b'{"type":"command","command":{"kind":"end_turn","player":1}}')
        raw = await Raw.open(target.port, target.path)
        bad = (
            frame(0x1, b"\xff\xfe" + os.urandom(30)),  # text that is not UTF-8
            frame(0x2, join),  # a join, as a binary frame
            frame(target.rng.choice((0x3, 0x7, 0xB, 0xF)), b"?"),  # opcodes that do not exist
            frame(0x1, join, masked=False),  # a client's frame must be masked
            frame(0x9, b"p" * 200),  # a ping over 125 bytes
            frame(0x8, b"\x03\xe7"),  # a close with a code no one may send
            frame(0x0, b"continued"),  # a continuation of nothing
        )
        try:
            await raw.send(target.rng.choice(bad))
            await raw.drain_for(0.05)
        except (*CLOSED, ConnectionError):
            pass
        raw.close()
        target.cases += 1
        await asyncio.sleep(target.rng.uniform(0, 0.02))
    await pest.close()


async def fuzz_flood(target: Target) -> None:
    pest = Pest(target)
    messages = (
        '{"type":"command","command":{"kind":"end_turn","player":1}}',
        '{"type":"join","contribution":""}',
        "{not json",
    )
    for number in range(5000):
        if target.stop.is_set():
            break
        await pest.send(messages[number % len(messages)])
    await pest.close()


async def fuzz_connections(target: Target) -> None:
    async def hold() -> None:
        pest = Pest(target)
        await pest.send('{"type":"join","contribution":""}')
        await asyncio.sleep(target.rng.uniform(0.2, 1.0))
        await pest.close()

    while not target.stop.is_set() and target.cases < 300:
        await asyncio.gather(*(hold() for _ in range(3 * MAX_CONNECTIONS)))


async def fuzz_abrupt(target: Target) -> None:
    join = json.dumps({"type": "join", "contribution": fresh_contribution()}).encode()
    act = b'{"type":"command","command":{"kind":"roll_off","player":1,"dice":null}}'
    for _ in range(150):
        if target.stop.is_set():
            break
        pick = target.rng.randrange(5)
        try:
            raw = await Raw.open(target.port, target.path, handshake=pick != 0)
            if pick == 0:  # mid-handshake
                request = Raw.request(target.port, target.path)
                await raw.send(request[: target.rng.randrange(1, len(request))])
            elif pick == 1:  # mid-header
                await raw.send(frame(0x1, join)[:1])
            elif pick == 2:  # mid-payload of a join
                whole = frame(0x1, join)
                await raw.send(whole[: target.rng.randrange(2, len(whole))])
            else:  # joined, then mid-payload of a command
                await raw.send(frame(0x1, join))
                await raw.drain_for(0.02)
                whole = frame(0x1, act)
                await raw.send(whole[: target.rng.randrange(2, len(whole))])
            raw.reset() if target.rng.random() < 0.5 else raw.close()
        except (*CLOSED, ConnectionError):
            pass
        target.cases += 1
        await asyncio.sleep(target.rng.uniform(0, 0.02))


async def fuzz_slow_reader(target: Target) -> None:
    """A connection that never reads while the view log is sent again and again."""
    join = json.dumps({"type": "join", "contribution": fresh_contribution()}).encode()
    stuck = await Raw.open(target.port, target.path, receive_buffer=4096)
    await stuck.send(frame(0x1, join))
    target.cases += 1

    async def rejoin() -> None:
        while not target.stop.is_set() and target.cases < 20000:
            pest = Pest(target)
            await pest.send(join.decode())
            await pest.close()

    await asyncio.gather(*(rejoin() for _ in range(MAX_CONNECTIONS - 4)))
    stuck.reset()


KINDS: dict[str, Callable[[Target], Awaitable[None]]] = {
    "malformed": fuzz_malformed,
    "wrong seat": fuzz_wrong_seat,
    "replayed": fuzz_replayed,
    "finished": fuzz_finished,
    "huge": fuzz_huge,
    "nested": fuzz_nested,
    "binary": fuzz_binary,
    "flood": fuzz_flood,
    "connections": fuzz_connections,
    "abrupt": fuzz_abrupt,
    "slow reader": fuzz_slow_reader,
}


# --- the matches -------------------------------------------------------------------------


@dataclass
class Outcome:
    cases: int
    disturbed: bool
    """Seat 2 did not reach the end, or its cross-check failed."""
    problem: str


async def attacked(
    port: int,
    kind: str,
    role: str,
    finished: dict[str, Any],
    commands: list[dict[str, Any]],
    args: argparse.Namespace,
    folder: Path,
    seed: int,
) -> Outcome:
    """One match played by honest bots while the hostile client of ``kind`` attacks it."""
    game = args.game
    created = create(port, game)
    clients = [
        SeatClient(
            link,
            folder / f"{seed}-seat-{n}.jsonl",
            bot_player(game, args.bot, seed * 10 + n, args.think),
            patience=60,
        )
        for n, link in enumerate(created["seats"], start=1)
    ]
    stop = asyncio.Event()
    made_up = f"ws://127.0.0.1:{port}/ws/{base64.urlsafe_b64encode(os.urandom(16)).decode()[:22]}"
    url = {"seat": ws_url(created["seats"][0]), "spectator": ws_url(created["spectator"])}
    rng = random.Random(seed)
    target = Target(port, role, url.get(role, made_up), finished, commands, rng, stop)

    async def honest() -> list[Verdict | BaseException]:
        try:
            runs = asyncio.gather(*(c.run() for c in clients), return_exceptions=True)
            return await asyncio.wait_for(runs, args.timeout)
        except TimeoutError:
            return [TimeoutError(f"not over in {args.timeout:.0f} s")] * len(clients)
        finally:
            stop.set()

    async def hostile() -> None:
        await asyncio.sleep(0.2)  # the match under way
        await KINDS[kind](target)

    verdicts, attack = await asyncio.gather(honest(), hostile(), return_exceptions=True)
    if isinstance(attack, BaseException):
        return Outcome(target.cases, False, f"the hostile client stopped: {attack!r}")
    assert isinstance(verdicts, list)
    other = verdicts[1]
    if isinstance(other, Verdict) and other.ok:
        return Outcome(target.cases, False, "")
    return Outcome(target.cases, True, f"{kind}, {role}: seat 2: {other!r}")


async def play_finished(port: int, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    created = create(port, args.game)
    clients = [
        SeatClient(link, folder / f"finished-{n}.jsonl", bot_player(args.game, args.bot, n, 0))
        for n, link in enumerate(created["seats"], start=1)
    ]
    await asyncio.gather(*(c.run() for c in clients))
    return created


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches attacked at once a kind")
    parser.add_argument("--game", default="tiles-d6")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--think", type=float, default=0.01, help="seconds a bot decision takes")
    parser.add_argument("--timeout", type=float, default=120, help="seconds a match may take")
    parser.add_argument("--kinds", default=",".join(KINDS), help="the kinds, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",")]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        referee = Referee(free_port(), folder / "data", folder / "referee.err")
        rows: list[tuple[str, int, int, int, int]] = []
        problems: list[str] = []
        try:
            finished = asyncio.run(play_finished(referee.port, args, folder))
            (first,) = (folder / "data").glob("*.jsonl")
            commands = [
                json.loads(line)["command"] for line in first.read_text().splitlines()[1:-1]
            ]
            before = resident_kib(referee.process.pid)
            for number, kind in enumerate(kinds):
                tracebacks = referee.tracebacks()

                async def round_(kind: str = kind, number: int = number) -> list[Outcome]:
                    return await asyncio.gather(
                        *(
                            attacked(
                                referee.port,
                                kind,
                                ROLES[m % len(ROLES)],
                                finished,
                                commands,
                                args,
                                folder,
                                args.seed * 1000 + number * 100 + m,
                            )
                            for m in range(args.matches)
                        )
                    )

                outcomes = asyncio.run(round_())
                crashes = referee.check()
                problems += [o.problem for o in outcomes if o.problem]
                rows.append(
                    (
                        kind,
                        sum(o.cases for o in outcomes),
                        referee.tracebacks() - tracebacks,
                        crashes,
                        sum(o.disturbed for o in outcomes),
                    )
                )
            grown = resident_kib(referee.process.pid) - before
        finally:
            referee.stop()
        logs = [read_log(path) for path in sorted((folder / "data").glob("*.jsonl"))]
        unverified = sum(1 for log in logs if not (log.finished and verify(log).ok))
        errors = referee.errors.read_text(errors="replace")
    print(
        f"fuzz of client messages: {args.matches} matches of {args.game} a kind ({args.bot} bots)"
    )
    print(f"{'kind':<12} {'cases':>7} {'tracebacks':>10} {'crashes':>7} {'disturbed':>9}")
    for kind, cases, tracebacks, crashes, disturbed in rows:
        print(f"{kind:<12} {cases:>7} {tracebacks:>10} {crashes:>7} {disturbed:>9}")
    total = [sum(counts) for counts in zip(*(row[1:] for row in rows), strict=True)] or [0] * 4
    print(f"{'all':<12} {total[0]:>7} {total[1]:>10} {total[2]:>7} {total[3]:>9}")
    print(f"match logs not finished and verified: {unverified} of {len(logs)}")
    print(f"referee's memory grown over the fuzz: {grown / 1024:.0f} MiB")
    for problem in problems[:10]:
        print(f"  {problem}")
    if total[1]:
        print(errors[-3000:])
    return 1 if any(total[1:]) or unverified else 0


if __name__ == "__main__":
    sys.exit(main())
