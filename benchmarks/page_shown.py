"""What the referee works out for a browser page after each command: ``shown`` of a view log
read whole at every command, against the same kept as the log grows (``ViewPosition``).

Plays ``--matches`` matches of ``--game`` in this process, through the referee's own
:class:`~multiversus_server.referee.Match` (random legal commands, every seat joined), and
after every command times, for every viewer's view log, ``shown`` read whole and ``shown``
kept (CPU time), and checks that both give the same message, byte for byte. Reports the
total time of each, the time a command at the start, the middle and the end of a match
(the whole reading grows with the log, the kept one should not), and the ratio.

A benchmark, never a test. Run::

    PYTHONPATH=src python benchmarks/page_shown.py --matches 5 --game multiversus
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from multiversus_core.engine.chance import fresh_contribution
from multiversus_core.engine.choices import random_command
from multiversus_server.page import ViewPosition, shown
from multiversus_server.protocol import encoder
from multiversus_server.referee import Referee


def one_match(data: Path, game: str, seed: int, limit: int) -> list[tuple[float, float]]:
    """Each command's time of ``shown`` over every viewer: read whole, and kept."""
    referee = Referee(data)
    match, _, _ = referee.create({"game": game})
    for seat in range(1, match.seats + 1):
        match.join(seat, fresh_contribution())
    rng = random.Random(seed)
    kept = {viewer: ViewPosition() for viewer in match.views}
    times: list[tuple[float, float]] = []
    while not match.finished and len(times) < limit:
        seat = rng.choice(match.to_act())
        command = random_command(match.ruleset.legal_commands(match.state, seat), rng)
        match.act(seat, msgspec.json.encode(command))
        whole = incremental = 0.0
        for viewer, lines in match.views.items():
            started = time.process_time()
            read = shown(lines, None, begun=True)
            whole += time.process_time() - started
            started = time.process_time()
            grown = shown(lines, None, begun=True, at=kept[viewer])
            incremental += time.process_time() - started
            if encoder.encode(read) != encoder.encode(grown):
                raise SystemExit(f"{game}: the kept position differs at entry {len(match.entries)}")
        times.append((whole, incremental))
    referee.close()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--game", default="multiversus")
    parser.add_argument("--limit", type=int, default=1000, help="commands a match at most")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    every: list[list[tuple[float, float]]] = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.matches):
            data = Path(folder) / f"m{number}"
            every.append(one_match(data, args.game, args.seed + number, args.limit))
    commands = sum(len(times) for times in every)
    whole = sum(w for times in every for w, _ in times)
    kept = sum(k for times in every for _, k in times)
    print(f"{args.matches} matches of {args.game}, {commands} commands (random commands)")
    print(f"  shown read whole: {whole:.2f} s CPU; kept as the log grows: {kept:.2f} s CPU")
    print(f"  ratio: {whole / kept:.1f}x")
    for name, part in (("first", 0), ("middle", 1), ("last", 2)):
        slices = [times[len(times) * part // 3 : len(times) * (part + 1) // 3] for times in every]
        spans = [t for times in slices for t in times]
        if spans:
            w = statistics.mean(t[0] for t in spans) * 1000
            k = statistics.mean(t[1] for t in spans) * 1000
            print(f"  a command, {name} third of a match: whole {w:.1f} ms, kept {k:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
