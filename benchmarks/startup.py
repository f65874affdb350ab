"""Start-up time: ``multiversus --help`` (and each command's help) against ``import typer``.

Each round starts a fresh Python for ``python -c "import typer"`` and then
for the program (as its entry point does: import the app and call
``main``), back to back, so the ratio compares runs made under the same
machine load. The ratio printed is the median of the rounds' ratios. Run::

    PYTHONPATH=src python benchmarks/startup.py --rounds 15 --check
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

TARGET_RATIO = 1.5
"""``multiversus --help`` should take at most 1.5 times ``import typer``."""

_PROGRAM = "import sys; sys.argv[0] = 'multiversus'; from multiversus_cli.app import main; main()"


def timed(arguments: list[str]) -> float:
    """Return the wall-clock seconds one run of Python with these arguments takes."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="paired rounds (default 15)")
    parser.add_argument(
        "--commands",
        action="store_true",
        help="also time each command's --help (play, verify, replay, diff, teams)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"exit with status 1 if --help takes more than {TARGET_RATIO} x import typer",
    )
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    runs: dict[str, list[str]] = {"--help": ["-c", _PROGRAM, "--help"]}
    if args.commands:
        for command in ("play", "verify", "replay", "diff", "teams"):
            runs[f"{command} --help"] = ["-c", _PROGRAM, command, "--help"]
    typer_times: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in runs}
    for number in range(1, args.rounds + 1):
        print(f"\rround {number} / {args.rounds}", end="", file=sys.stderr, flush=True)
        for name, arguments in runs.items():
            typer_times.append(timed(["-c", "import typer"]))
            times[name].append(timed(arguments))
    print(file=sys.stderr)

    typer_best = min(typer_times)
    print(f"import typer:        {typer_best * 1000:,.0f} ms (best of {len(typer_times)})")
    ratio = 0.0
    for name, measured in times.items():
        # Each run is paired with the typer run just before it.
        pairs = typer_times[list(runs).index(name) :: len(runs)]
        ratios = [m / t for m, t in zip(measured, pairs, strict=True)]
        median = statistics.median(ratios)
        if name == "--help":
            ratio = median
        print(
            f"multiversus {name + ':':15} {min(measured) * 1000:,.0f} ms (best), "
            f"{median:.2f} x import typer (median of {len(ratios)} rounds, "
            f"{min(ratios):.2f} to {max(ratios):.2f})"
        )
    print(f"target:              --help <= {TARGET_RATIO} x import typer")
    if args.check and ratio > TARGET_RATIO:
        print(f"--help takes more than {TARGET_RATIO} x import typer", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
