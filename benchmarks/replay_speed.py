"""Replay speed: decode plus fold, against msgspec's raw decode of the same bytes.

One log is one match (a match has a few hundred events), so the script plays
complete random matches with ``RandomBot`` until their logs hold at least
``--events`` events, writes one log file per match into a folder, then
measures, on the same bytes read back into memory:

* replay: ``replay(decode_log(data))`` for every log, the library's replay
  path (strict, canonical decoding plus folding every event with ``evolve``);
* raw decode, two ways: ``msgspec.json.Decoder().decode_lines(data)``, the
  schema-less decode into plain Python objects, which is the target's "raw
  decode"; and, for comparison, a typed decode of every line into the same
  record structs, with no checks and no fold.

All three are timed in the same run, in ``--repeat`` rounds of one timing
each. Verification (``verify(decode_log(data))``, which re-runs the rules on
every command) is timed against replay on the same logs, the first logs
holding ``--verify-events`` events, in rounds of its own. Speeds are the best
of the rounds; the ratio is the median of the
rounds' ratios, so that a drift in machine speed between rounds does not
skew it. Disk reads are not timed.

With ``--against SRC`` (the ``src`` folder of another checkout, for example
the main before a refactoring), it compares replay and verification of that
code and this one on the same logs, written by this code: each code times
both in a subprocess, in ``--repeat`` pairs of rounds alternating between the
codes (CPU time), and the ratio printed is the median of the pairs' ratios
(above 1: this code is faster). Run::

    PYTHONPATH=src python benchmarks/replay_speed.py --events 100000 --check
    PYTHONPATH=src python benchmarks/replay_speed.py --events 300000 --against /tmp/main/src
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from multiversus_core import MatchSettings

try:
    from multiversus_core.engine.play import play_match
    from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
except ImportError:  # a checkout from before the bots moved into the engine and ruleset
    from multiversus_core.bots import RandomBot, play_match  # type: ignore[no-redef]

try:
    from multiversus_core.engine.log import (
        EndRecord,
        EntryRecord,
        LogHeader,
        decode_log,
        encode_log,
        replay,
    )
    from multiversus_core.rulesets.multiversus.commands import Command
    from multiversus_core.rulesets.multiversus.events import Event

    LOG_RECORD: object = (
        LogHeader[MatchSettings] | EntryRecord[Command, Event] | EndRecord  # type: ignore[index]
    )
except ImportError:  # a checkout from before the log moved into the engine
    from multiversus_core.log import (  # type: ignore[no-redef]
        EndRecord,
        EntryRecord,
        LogHeader,
        decode_log,
        encode_log,
        replay,
    )

    LOG_RECORD = LogHeader | EntryRecord | EndRecord
try:
    from multiversus_core.engine.verify import verify
except ImportError:  # a checkout from before verify moved into the engine
    from multiversus_core.verify import verify  # type: ignore[no-redef]

ACCEPTED_RATIO = 0.45
"""What replay runs at against the schema-less decode with the strict read (canonical lines,
the chain per line, typed decode): 0.45x to 0.50x is accepted, and no longer a target."""

VERIFY_TARGET = 0.25
"""Verification should run at least a quarter as fast as replay."""


def random_match(match_seed: int) -> tuple[bytes, int]:
    """Play one complete random match; return its log bytes and its number of events."""
    settings = MatchSettings(seed=match_seed)
    log, _ = play_match(settings, {1: RandomBot(match_seed), 2: RandomBot(match_seed ^ 0x5EED)})
    return encode_log(log), sum(len(entry.events) for entry in log.entries)


def generate(folder: Path, events: int, seed: int) -> tuple[list[Path], int]:
    """Write match logs into ``folder`` until they hold ``events`` events; show progress."""
    folder.mkdir(parents=True, exist_ok=True)
    seeds = random.Random(seed)
    paths: list[Path] = []
    total = 0
    step = max(events // 50, 1)
    shown = 0
    while total < events:
        data, count = random_match(seeds.getrandbits(64))
        path = folder / f"match-{len(paths):05d}.jsonl"
        path.write_bytes(data)
        paths.append(path)
        total += count
        if total - shown >= step or total >= events:
            shown = total
            print(
                f"\rgenerating: {min(total, events):,} / {events:,} events, {len(paths):,} matches",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    return paths, total


def timed(run: Callable[[], None]) -> float:
    """Return how long one call of ``run`` takes, in seconds."""
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--events",
        type=int,
        default=1_000_000,
        help="generate logs holding at least this many events (default 1,000,000)",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="folder for the logs (default: a temporary folder)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for the random matches")
    parser.add_argument(
        "--repeat",
        type=int,
        default=9,
        help="timing rounds (default 9); each times all three once, and the ratio is "
        "the median of the rounds' ratios",
    )
    parser.add_argument(
        "--verify-events",
        type=int,
        default=50_000,
        help="time verification against replay on the first logs holding this many events "
        "(default 50,000; 0 skips it)",
    )
    parser.add_argument(
        "--against", type=Path, default=None, help="the src folder of a baseline checkout"
    )
    parser.add_argument("--time-logs", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"exit with status 1 if verification is slower than {VERIFY_TARGET} x replay "
        "(replay's ratio to the schema-less decode is reported, not checked)",
    )
    args = parser.parse_args(argv)
    if args.time_logs is not None:
        print(json.dumps(time_logs(args.time_logs, args.verify_events)))
        return 0
    if args.events < 1:
        parser.error("--events must be at least 1")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    with tempfile.TemporaryDirectory(prefix="multiversus-replay-") as temporary:
        folder = args.out or Path(temporary)
        start = time.perf_counter()
        paths, events = generate(folder, args.events, args.seed)
        generation = time.perf_counter() - start
        logs = [path.read_bytes() for path in paths]
        if args.against is not None:
            return against(args.against, folder, events, args.verify_events, args.repeat)

    typed_decoder = msgspec.json.Decoder(LOG_RECORD)
    plain_decoder = msgspec.json.Decoder()

    def typed_decode() -> None:
        for data in logs:
            typed_decoder.decode_lines(data)

    def plain_decode() -> None:
        for data in logs:
            plain_decoder.decode_lines(data)

    def replay_all() -> None:
        for data in logs:
            replay(decode_log(data))

    # Rounds: each times the three once, back to back, so that a round's
    # ratios compare runs made under the same machine load. A shared machine's
    # speed drifts by tens of percent within a minute; the median of the
    # per-round ratios is robust to that, the ratio of two minimums is not.
    plain_times: list[float] = []
    typed_times: list[float] = []
    replay_times: list[float] = []
    for number in range(1, args.repeat + 1):
        print(f"\rtiming: round {number} / {args.repeat}", end="", file=sys.stderr, flush=True)
        plain_times.append(timed(plain_decode))
        typed_times.append(timed(typed_decode))
        replay_times.append(timed(replay_all))
    print(file=sys.stderr)
    plain_best, typed_best, replay_best = min(plain_times), min(typed_times), min(replay_times)
    plain_ratios = [p / r for p, r in zip(plain_times, replay_times, strict=True)]
    typed_ratios = [t / r for t, r in zip(typed_times, replay_times, strict=True)]

    # One more pass, timing the two halves of replay apart (for diagnosis only).
    decoding = folding = 0.0
    for data in logs:
        start = time.perf_counter()
        log = decode_log(data)
        middle = time.perf_counter()
        replay(log)
        decoding += middle - start
        folding += time.perf_counter() - middle

    size = sum(len(data) for data in logs)
    plain_ratio = statistics.median(plain_ratios)
    typed_ratio = statistics.median(typed_ratios)
    print(f"logs:          {len(logs):,} matches, {events:,} events, {size / 1e6:,.1f} MB")
    print(f"generation:    {generation:,.1f} s")
    print(f"raw decode:    {events / plain_best:,.0f} events/s schema-less ({plain_best:.3f} s)")
    print(f"               {events / typed_best:,.0f} events/s typed structs ({typed_best:.3f} s)")
    print(f"replay:        {events / replay_best:,.0f} events/s ({replay_best:.3f} s)")
    print(f"  decoding:    {events / decoding:,.0f} events/s (decode_log alone)")
    print(f"  folding:     {events / folding:,.0f} events/s (replay of decoded logs alone)")
    print(
        f"ratio:         {plain_ratio:.2f} x schema-less decode, the target's raw decode "
        f"(median of {len(plain_ratios)} rounds, {min(plain_ratios):.2f} to "
        f"{max(plain_ratios):.2f}; accepted from {ACCEPTED_RATIO} with the strict read)"
    )
    print(
        f"               {typed_ratio:.2f} x typed decode, for comparison "
        f"({min(typed_ratios):.2f} to {max(typed_ratios):.2f})"
    )
    failed = False
    if args.verify_events > 0:
        verify_ratio = time_verify(logs, args.verify_events, args.repeat)
        if args.check and verify_ratio < VERIFY_TARGET:
            print(f"verification is below {VERIFY_TARGET} x replay", file=sys.stderr)
            failed = True
    return 1 if failed else 0


def time_verify(logs: list[bytes], events: int, repeat: int) -> float:
    """Time verification against replay on the first logs holding ``events`` events; print
    and return the median ratio of the rounds."""
    chosen, total = _first_logs(logs, events)
    for data in chosen:
        assert verify(decode_log(data)).ok

    def replay_chosen() -> None:
        for data in chosen:
            replay(decode_log(data))

    def verify_chosen() -> None:
        for data in chosen:
            verify(decode_log(data))

    replay_times: list[float] = []
    verify_times: list[float] = []
    for number in range(1, repeat + 1):
        print(f"\rverify: round {number} / {repeat}", end="", file=sys.stderr, flush=True)
        replay_times.append(timed(replay_chosen))
        verify_times.append(timed(verify_chosen))
    print(file=sys.stderr)
    ratios = [r / v for r, v in zip(replay_times, verify_times, strict=True)]
    ratio = statistics.median(ratios)
    print(
        f"verify:        {total / min(verify_times):,.0f} events/s on {len(chosen):,} logs "
        f"({total:,} events), against replay {total / min(replay_times):,.0f} events/s"
    )
    print(
        f"               {ratio:.2f} x replay (median of {len(ratios)} rounds, "
        f"{min(ratios):.2f} to {max(ratios):.2f}; target >= {VERIFY_TARGET})"
    )
    return ratio


def _first_logs(logs: list[bytes], events: int) -> tuple[list[bytes], int]:
    """The first logs holding at least ``events`` events, and how many they hold."""
    chosen: list[bytes] = []
    total = 0
    for data in logs:
        if total >= events:
            break
        chosen.append(data)
        total += sum(len(entry.events) for entry in decode_log(data).entries)
    return chosen, total


def time_logs(folder: Path, verify_events: int) -> dict[str, float]:
    """``--time-logs``: this code's CPU time to replay every log of ``folder``, and to verify
    the first logs holding ``verify_events`` events (one round of each)."""
    logs = [path.read_bytes() for path in sorted(folder.glob("*.jsonl"))]
    chosen, _ = _first_logs(logs, verify_events)
    start = time.process_time()
    for data in logs:
        replay(decode_log(data))
    replayed = time.process_time() - start
    start = time.process_time()
    for data in chosen:
        if not verify(decode_log(data)).ok:
            raise SystemExit("a log does not verify: the codes play different rules")
    return {"replay": replayed, "verify": time.process_time() - start}


def against(src: Path, folder: Path, events: int, verify_events: int, repeat: int) -> int:
    """Compare replay and verification of the code in ``src`` and of this code on the logs in
    ``folder``, in ``repeat`` pairs of rounds."""
    codes = {"baseline": src.resolve(), "this": Path(__file__).resolve().parent.parent / "src"}
    times: dict[str, list[dict[str, float]]] = {name: [] for name in codes}
    for number in range(1, repeat + 1):
        print(f"\rpair {number} / {repeat}", end="", file=sys.stderr, flush=True)
        for name, code in codes.items():
            command = [sys.executable, __file__, "--time-logs", str(folder)]
            done = subprocess.run(
                [*command, "--verify-events", str(verify_events)],
                env=dict(os.environ, PYTHONPATH=str(code)),
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                sys.exit(f"the code in {code} failed:\n{done.stderr.strip()}")
            times[name].append(json.loads(done.stdout))
    print(file=sys.stderr)
    print(f"logs:          {events:,} events; verification on the first {verify_events:,}")
    for what in ("replay", "verify"):
        ratios = [b[what] / t[what] for b, t in zip(times["baseline"], times["this"], strict=True)]
        base = statistics.median(b[what] for b in times["baseline"])
        this = statistics.median(t[what] for t in times["this"])
        ratio = statistics.median(ratios)
        print(
            f"{what + ':':<14} baseline {base:.3f} s, this {this:.3f} s: {ratio:.3f}x "
            f"(median of {len(ratios)} pairs, {min(ratios):.3f} to {max(ratios):.3f}; "
            "above 1: this code is faster)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
