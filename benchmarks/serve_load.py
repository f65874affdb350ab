"""Load on the referee: many bot-v-bot matches at once over WebSockets.

Starts ``multiversus serve`` on a free port of 127.0.0.1 with a fresh data
folder, creates ``--matches`` matches of ``--game``, and plays every seat of
every match at once from this process with the library's client
(:class:`multiversus_server.client.SeatClient`, bot ``--bot``), each client
cross-checking the published log at the end. Reports the commands a second
over the whole run, the latency of a command (from sending it to receiving
the line that acknowledges it, which the referee sends once the entry is
synced to disk) at p50 and p99, the referee's memory a match (its resident
memory grown over the run, divided by the matches), and what was lost: the
matches whose cross-check failed and the logs that do not verify.

A benchmark, never a test. Run::

    PYTHONPATH=src python benchmarks/serve_load.py --matches 50
    PYTHONPATH=src python benchmarks/serve_load.py --matches 200 --game tiles-d6 --bot random
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

from multiversus_core.engine.log import read_log
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.verify import verify
from multiversus_core.engine.viewlog import RedactedLog
from multiversus_server.client import Position, SeatClient, Verdict

SERVE = (sys.executable, "-m", "multiversus_cli.app", "serve")


class TimedClient(SeatClient):
    """A client that notes how long each of its commands took to be acknowledged."""

    latencies: ClassVar[list[float]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent_at: float | None = None

    async def _act(self, websocket: Any) -> None:
        waiting = self.pending
        await super()._act(websocket)
        if not waiting and self.pending:
            self.sent_at = time.perf_counter()

    def _settle(self, shown: RedactedLog, new: int) -> None:
        waiting = self.pending
        super()._settle(shown, new)
        if waiting and not self.pending and self.sent_at is not None:
            TimedClient.latencies.append(time.perf_counter() - self.sent_at)
            self.sent_at = None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


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


def bot_player(game: str, name: str, seed: int) -> Any:
    ruleset = load_ruleset(game)
    bot = ruleset.bots[name](seed)

    def decide(position: Position) -> Any:
        return bot.choose(ruleset.view(position.state, position.viewer), position.legal)

    return decide


async def play_all(links: list[dict[str, Any]], game: str, bot: str, folder: Path) -> list[Any]:
    clients = [
        TimedClient(link, folder / f"m{m}-s{s}.jsonl", bot_player(game, bot, m * 10 + s))
        for m, created in enumerate(links)
        for s, link in enumerate(created["seats"], start=1)
    ]
    results: list[Verdict | BaseException] = await asyncio.gather(
        *(client.run() for client in clients), return_exceptions=True
    )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--game", default="tiles-d6")
    parser.add_argument("--bot", default="random")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        port = free_port()
        server = subprocess.Popen(
            [*SERVE, "--port", str(port), "--data", str(folder / "data")],
            env={**os.environ},
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            before = resident_kib(server.pid)
            links = [create(port, args.game) for _ in range(args.matches)]
            started = time.perf_counter()
            results = asyncio.run(play_all(links, args.game, args.bot, folder))
            wall = time.perf_counter() - started
            grown = resident_kib(server.pid) - before
        finally:
            server.terminate()
            server.wait(30)
        logs = [read_log(path) for path in sorted((folder / "data").glob("*.jsonl"))]
        commands = sum(len(log.entries) for log in logs)
        unverified = sum(1 for log in logs if not (log.finished and verify(log).ok))
        failed = [r for r in results if not (isinstance(r, Verdict) and r.ok)]
        latencies = sorted(TimedClient.latencies)
        p50 = statistics.median(latencies) * 1000 if latencies else 0.0
        p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else 0.0
        print(f"{args.matches} matches of {args.game} ({args.bot} bots), {commands} commands")
        print(f"  {wall:.1f} s, {commands / wall:.0f} commands a second")
        print(f"  latency of a command: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        print(f"  referee's memory: {grown / max(args.matches, 1):.0f} KiB a match")
        print(
            f"  clients whose cross-check failed: {len(failed)}; logs that do not verify: "
            f"{unverified}"
        )
        for failure in failed[:5]:
            print(f"    {failure!r}")
        return 1 if failed or unverified else 0


if __name__ == "__main__":
    sys.exit(main())
