"""Memory: replaying a million events log by log stays within a few MiB of the imports.

Writes random matches' logs into a folder in a child process (or reads the
logs already there), notes this process's peak resident size once the
library is imported, then
reads, decodes and replays the logs one at a time, round after round, until
``--events`` events have been replayed, and then verifies ``--verify`` of
them. It prints the peak resident size after each phase; with ``--check`` it
fails if replaying grew the peak by more than ``--limit`` MiB. Run::

    PYTHONPATH=src python benchmarks/memory.py --events 1000000 --check
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from replay_speed import generate

try:
    from multiversus_core.engine.log import decode_log, replay
except ImportError:  # a checkout from before the log moved into the engine
    from multiversus_core.log import decode_log, replay  # type: ignore[no-redef]
try:
    from multiversus_core.engine.verify import verify
except ImportError:  # a checkout from before verify moved into the engine
    from multiversus_core.verify import verify  # type: ignore[no-redef]


def peak_mib() -> float:
    """The peak resident size of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="events to replay")
    parser.add_argument(
        "--log-events", type=int, default=150_000, help="events the logs hold (default 150,000)"
    )
    parser.add_argument("--verify", type=int, default=100, help="logs to verify afterwards")
    parser.add_argument("--folder", type=Path, default=None, help="keep the logs here")
    parser.add_argument("--limit", type=float, default=8.0, help="MiB replay may add (--check)")
    parser.add_argument("--check", action="store_true", help="fail above --limit")
    parser.add_argument("--write-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.write_only:
        generate(args.folder, args.log_events, seed=0)
        return 0
    if args.events < 1 or args.log_events < 1 or args.verify < 0:
        parser.error("--events and --log-events must be at least 1, --verify at least 0")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        if not any(folder.glob("match-*.jsonl")):
            # Playing the matches takes memory of its own: not in this process.
            command = [sys.executable, __file__, "--write-only", "--folder", str(folder)]
            subprocess.run([*command, "--log-events", str(args.log_events)], check=True)
        paths = sorted(folder.glob("match-*.jsonl"))
        imports = peak_mib()
        print(f"after the imports: {imports:7.1f} MiB peak")
        replayed = rounds = shown = 0
        while replayed < args.events:
            rounds += 1
            for path in paths:
                log = decode_log(path.read_bytes())
                replay(log)
                replayed += sum(len(entry.events) for entry in log.entries)
                if replayed - shown >= args.events // 50 or replayed >= args.events:
                    shown = replayed
                    print(f"\rreplaying: {replayed:,} events", end="", file=sys.stderr, flush=True)
                if replayed >= args.events:
                    break
        print(file=sys.stderr)
        after_replay = peak_mib()
        print(
            f"after replaying {replayed:,} events ({len(paths)} logs, {rounds} rounds): "
            f"{after_replay:7.1f} MiB peak (+{after_replay - imports:.1f})"
        )
        for path in paths[: args.verify]:
            verify(decode_log(path.read_bytes()))
        after_verify = peak_mib()
        print(f"after verifying {min(args.verify, len(paths))} logs: {after_verify:7.1f} MiB peak")
    if args.check and after_replay - imports > args.limit:
        print(f"replay grew the peak by more than {args.limit} MiB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
