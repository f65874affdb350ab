"""What a hostile client found in the referee (``benchmarks/serve_fuzz.py``), each kept fixed:
a connection that stops reading cannot hold its match up (it is dropped), and a text frame that is not UTF-8
closes its connection without a traceback in the referee's output.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import struct
import time
from pathlib import Path
from typing import Any

import pytest

from multiversus_core.engine.chance import fresh_contribution
from multiversus_server import app
from multiversus_server.app import Connection, Server
from multiversus_server.referee import Referee
from tests.test_serve import (
    assert_the_match_goes_on,
    create,
    free_port,
    joined,
    receive,
    serve_process,
    ws,
)


class NeverReads:
    """A WebSocket whose peer never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.attempts = 0

    async def send_text(self, text: str) -> None:
        self.attempts += 1
        await asyncio.Event().wait()


class Reads:
    """A WebSocket whose peer reads everything at once."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _stuck_and_honest(
    tmp_path: Path,
) -> tuple[Referee, Server, Any, tuple[NeverReads, Connection], tuple[Reads, Connection]]:
    """A referee's server with a tiles-d6 match watched by two joined connections: a
    spectator's that never reads, and seat 1's that reads everything."""
    referee = Referee(tmp_path / "data")
    server = Server(referee)
    match, _, _ = referee.create({"game": "tiles-d6"})
    never, reads = NeverReads(), Reads()
    stuck = Connection(never, None, joined=True)  # type: ignore[arg-type]
    honest = Connection(reads, 1, joined=True)  # type: ignore[arg-type]
    server.connections[match.id] = {stuck, honest}
    return referee, server, match, (never, stuck), (reads, honest)


def test_a_connection_that_does_not_read_is_dropped_and_holds_no_match_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app, "SEND_TIMEOUT", 0.5)
    referee, server, match, (never, stuck), (reads, honest) = _stuck_and_honest(tmp_path)

    async def tell_three_times() -> float:
        for connection in (stuck, honest):
            connection.writer = asyncio.create_task(connection.write())
        started = time.monotonic()
        for _ in range(3):
            async with server.lock(match):
                await server._tell_all(match, everyone=True)
        took = time.monotonic() - started
        while len(reads.sent) < 3 or not stuck.dropped:
            await asyncio.sleep(0.01)
        for connection in (stuck, honest):
            if connection.writer is not None:
                connection.writer.cancel()
        return took

    # the lock only puts messages in outboxes: it never waits for a connection
    assert asyncio.run(asyncio.wait_for(tell_three_times(), 30)) < 0.25
    assert stuck.dropped and not honest.dropped
    assert never.attempts == 1  # tried once, then dropped
    assert [message["type"] for message in reads.sent] == ["sync"] * 3
    referee.close()


def test_a_connection_whose_outbox_overflows_is_dropped_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app, "OUTBOX", 2)
    referee, server, match, (never, stuck), (reads, honest) = _stuck_and_honest(tmp_path)

    async def tell() -> None:
        for connection in (stuck, honest):
            connection.writer = asyncio.create_task(connection.write())
        for _ in range(4):
            async with server.lock(match):
                await server._tell_all(match, everyone=True)
                await asyncio.sleep(0.01)  # the honest writer sends its message
        await asyncio.sleep(0.05)
        honest.drop()

    asyncio.run(asyncio.wait_for(tell(), 30))
    assert stuck.dropped and stuck.writer is not None and stuck.writer.cancelled()
    # one taken by the writer, two waiting, the fourth overflows
    assert never.attempts == 1
    assert [message["type"] for message in reads.sent] == ["sync"] * 4
    referee.close()


def masked_text_frame(payload: bytes) -> bytes:
    key = os.urandom(4)
    body = bytes(byte ^ key[i % 4] for i, byte in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + key + body


def test_a_text_frame_that_is_not_utf8_closes_its_connection_without_a_traceback(
    tmp_path: Path,
) -> None:
    port = free_port()
    server = serve_process(port, tmp_path / "data")
    try:
        links = create(port, {"game": "tiles-d6"})
        first, second = ws(links["seats"][0]), ws(links["seats"][1])
        with first, second:
            assert joined(first, fresh_contribution())["waiting"] == [2]
            assert joined(second, fresh_contribution())["waiting"] == []
            assert receive(first)["waiting"] == []
            token = links["seats"][1].rsplit("/", 1)[1]
            with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
                raw.sendall(
                    f"GET /ws/{token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode()
                )
                assert b" 101 " in raw.recv(4096)
                raw.sendall(masked_text_frame(b"\xff\xfe not UTF-8"))
                closing = raw.recv(4096)
                assert closing[0] == 0x88  # a close frame
                assert struct.unpack("!H", closing[2:4]) == (1007,)
            # the match goes on for both seats
            assert_the_match_goes_on(first, second)
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=30)
    assert "Traceback" not in errors
    assert "Invalid UTF-8 sequence received from client." in errors
