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
    PYTHONPATH=src python benchmarks/serve_load.py --matches 50 --kills 20
    PYTHONPATH=src python benchmarks/serve_load.py --matches 50 --drops 500
    PYTHONPATH=src python benchmarks/serve_load.py --matches 20 --pages 1
    PYTHONPATH=src python benchmarks/serve_load.py --matches 200 --processes 2

With ``--kills N`` the referee is killed (``kill -9``) N times at random
moments and started again on the same folder while the matches go on; the
clients reconnect by themselves. Every log is noted as it was on disk at
each kill, and the report counts the entries then on disk (a torn last line
aside, never acknowledged) that the final logs lack, the matches that did
not finish and verify, and the clients whose cross-check failed: all three
must be 0.

With ``--drops N`` the clients' connections are closed abruptly N times (a
TCP reset, whatever was in flight), each time a random client's at a random
moment; the clients reconnect by themselves and get the whole view log again.
What each client had been sent when it was dropped is noted, and the report
counts the entries it had been sent that its final view log lacks (lost
acknowledged commands) and the matches that could not resume (a client
that did not finish and pass its cross-check, or a log that does not finish
and verify): both must be 0.

With ``--processes P`` the clients run in P processes of their own, the
matches split evenly between them (and ``--drops`` too), so the clients'
work does not share one process's event loop.

With ``--pages N`` each match is also followed by N browser pages on its
spectators' link (connections that join as the page does, so that the
referee sends each what it draws after every command), which read
everything: the load of the pages' positions and boards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from websockets.asyncio.client import ClientConnection, connect

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
        self.websocket: ClientConnection | None = None
        """The connection now open, if any (for the drops)."""

    async def _session(self, websocket: ClientConnection) -> Verdict | None:
        self.websocket = websocket
        try:
            return await super()._session(websocket)
        finally:
            self.websocket = None

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


Noted = list[tuple[TimedClient, list[str]]]
"""Each drop: the client dropped, and the view log lines it had been sent then."""


async def watch_page(link: str) -> int:
    """Follow a link as the browser page does (``page``: sent what it draws after every
    line), reading everything until the referee's cross-check; return the messages read."""
    url = link.replace("http://", "ws://").replace("/join/", "/ws/")
    read = 0
    async with connect(url, max_size=None) as websocket:
        await websocket.send(json.dumps({"type": "join", "page": True}))
        async for message in websocket:
            read += 1
            if json.loads(message)["type"] == "checked":
                break
    return read


async def play_all(
    links: list[dict[str, Any]],
    game: str,
    bot: str,
    folder: Path,
    drops: int,
    seed: int,
    pages: int = 0,
    first: int = 0,
) -> tuple[list[Any], Noted]:
    watching = [
        asyncio.create_task(watch_page(created["spectator"]))
        for created in links
        for _ in range(pages)
    ]
    clients = [
        TimedClient(link, folder / f"m{m}-s{s}.jsonl", bot_player(game, bot, m * 10 + s))
        for m, created in enumerate(links, start=first)
        for s, link in enumerate(created["seats"], start=1)
    ]
    noted: Noted = []
    dropping = asyncio.create_task(dropper(clients, drops, random.Random(seed), noted))
    results: list[Verdict | BaseException] = await asyncio.gather(
        *(client.run() for client in clients), return_exceptions=True
    )
    dropping.cancel()
    await asyncio.wait_for(asyncio.gather(*watching, return_exceptions=True), 60)
    return results, noted


class Part(NamedTuple):
    """What the clients of some matches found: each command's latency, whether each client
    (in the matches' order) finished and passed its cross-check, the first failures, the
    connections dropped and the acknowledged entries they lost."""

    latencies: list[float]
    oks: list[bool]
    failures: list[str]
    drops: int
    lost: int


def play_part(job: tuple[list[dict[str, Any]], str, str, Path, int, int, int, int]) -> Part:
    """Play the seats of some matches (``play_all``) in this process, from match ``first``."""
    links, game, bot, folder, drops, seed, pages, first = job
    TimedClient.latencies = []
    results, noted = asyncio.run(play_all(links, game, bot, folder, drops, seed, pages, first))
    oks = [isinstance(r, Verdict) and r.ok for r in results]
    failures = [repr(r) for r, ok in zip(results, oks, strict=True) if not ok][:5]
    return Part(TimedClient.latencies, oks, failures, len(noted), lost_at_drops(noted))


def play_parts(links: list[dict[str, Any]], args: argparse.Namespace, folder: Path) -> Part:
    """Play every match's seats: in this process, or split over ``args.processes``."""
    processes = max(1, min(args.processes, len(links)))
    size = -(-len(links) // processes)
    jobs = [
        (
            links[i : i + size],
            args.game,
            args.bot,
            folder,
            args.drops // processes,
            args.seed + i,
            args.pages,
            i,
        )
        for i in range(0, len(links), size)
    ]
    if processes == 1:
        parts = [play_part(jobs[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
            parts = pool.map(play_part, jobs)
    return Part(
        [x for p in parts for x in p.latencies],
        [x for p in parts for x in p.oks],
        [x for p in parts for x in p.failures][:5],
        sum(p.drops for p in parts),
        sum(p.lost for p in parts),
    )


async def dropper(clients: list[TimedClient], drops: int, rng: random.Random, noted: Noted) -> None:
    """Close a random client's connection abruptly, ``drops`` times at random moments."""
    while len(noted) < drops:
        await asyncio.sleep(rng.uniform(0.0, 0.1))
        live = [client for client in clients if client.websocket is not None]
        if not live:
            continue
        client = rng.choice(live)
        websocket = client.websocket
        assert websocket is not None
        noted.append((client, list(client.lines)))
        sock = websocket.transport.get_extra_info("socket")
        if sock is not None:  # a reset, not a clean close
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        websocket.transport.abort()


_PREV = re.compile(r'"prev":"[0-9a-f]*",')


def lost_at_drops(noted: Noted) -> int:
    """Entries a client had been sent when dropped that its final view log lacks (the chain
    aside: a Multiversus seat's viewer changes once the sides are chosen)."""
    lost = 0
    for client, lines in noted:
        final = [_PREV.sub("", line) for line in client.lines]
        for number, line in enumerate(lines[1:], start=1):
            if number >= len(final) or final[number] != _PREV.sub("", line):
                lost += 1
    return lost


class Serving:
    """``multiversus serve`` as a process on one port and folder, killed and started again."""

    def __init__(self, port: int, data: Path) -> None:
        self.port, self.data = port, data
        self.process = self._start()
        self.kills = 0
        self.snapshots: list[dict[Path, bytes]] = []

    def _start(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [*SERVE, "--port", str(self.port), "--data", str(self.data)],
            env={**os.environ},
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return process
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the referee did not start")

    def kill_and_restart(self) -> None:
        """kill -9, note every log as it is on disk, start again."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.kills += 1
        self.snapshots.append({path: path.read_bytes() for path in self.data.glob("*.jsonl")})
        self.process = self._start()

    def count_lost(self) -> int:
        """Entries on disk at a kill (a torn last line aside) missing from the final logs."""
        lost = 0
        for snapshot in self.snapshots:
            for path, data in snapshot.items():
                whole = data[: data.rfind(b"\n") + 1]  # a torn line was never acknowledged
                final = path.read_bytes()
                if not final.startswith(whole):
                    pairs = zip(whole.split(b"\n"), final.split(b"\n"), strict=False)
                    kept = sum(1 for a, b in pairs if a == b)
                    lost += whole.count(b"\n") - kept
        return lost

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def killer(serving: Serving, kills: int, done: threading.Event, rng: random.Random) -> None:
    """Kill the referee ``kills`` times at random moments while the matches go on."""
    for _ in range(kills):
        if done.wait(rng.uniform(0.5, 3.0)):
            return
        serving.kill_and_restart()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--game", default="tiles-d6")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--kills", type=int, default=0, help="kill -9 the referee this often")
    parser.add_argument(
        "--drops", type=int, default=0, help="drop a client's connection this often"
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed of the faults' moments")
    parser.add_argument(
        "--pages", type=int, default=0, help="browser pages following each match as spectators"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="client processes, the matches split between them (default 1: this one)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        serving = Serving(free_port(), folder / "data")
        done = threading.Event()
        try:
            before = resident_kib(serving.process.pid)
            links = [create(serving.port, args.game) for _ in range(args.matches)]
            faults = threading.Thread(
                target=killer, args=(serving, args.kills, done, random.Random(args.seed))
            )
            started = time.perf_counter()
            faults.start()
            part = play_parts(links, args, folder)
            done.set()
            faults.join()
            wall = time.perf_counter() - started
            grown = resident_kib(serving.process.pid) - before
        finally:
            done.set()
            serving.stop()
        logs = [read_log(path) for path in sorted((folder / "data").glob("*.jsonl"))]
        commands = sum(len(log.entries) for log in logs)
        unfinished = sum(1 for log in logs if not (log.finished and verify(log).ok))
        failed = part.failures if not all(part.oks) else []
        latencies = sorted(part.latencies)
        p50 = statistics.median(latencies) * 1000 if latencies else 0.0
        p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else 0.0
        lost = serving.count_lost()
        dropped = part.lost
        unresumed, first = 0, 0
        for created in links:  # the results are in the clients' order: match by match
            seats = part.oks[first : first + len(created["seats"])]
            first += len(seats)
            unresumed += not all(seats)
        failing = len(part.oks) - sum(part.oks)
        watched = f", {args.pages} page(s) watching each" if args.pages else ""
        if args.processes > 1:
            watched += f", clients in {args.processes} processes"
        print(
            f"{args.matches} matches of {args.game} ({args.bot} bots{watched}), {commands} commands"
        )
        print(f"  {wall:.1f} s, {commands / wall:.0f} commands a second")
        print(f"  latency of a command: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        if not serving.kills:
            print(f"  referee's memory: {grown / max(args.matches, 1):.0f} KiB a match")
        print(f"  kill -9 of the referee: {serving.kills}; acknowledged entries lost: {lost}")
        if args.drops:
            print(
                f"  connections dropped: {part.drops}; acknowledged entries lost: {dropped}; "
                f"matches that could not resume: {unresumed}"
            )
        print(
            f"  matches not finished and verified: {unfinished}; clients whose cross-check "
            f"failed: {failing}"
        )
        for failure in failed:
            print(f"    {failure}")
        return 1 if failing or unfinished or lost or dropped else 0


if __name__ == "__main__":
    sys.exit(main())
