"""The HTML replay page of a long match: its size, and how soon headless Chromium shows it.

Plays bot matches until one has at least ``--entries`` log entries, cuts it
there, writes its page as the Heroes (``multiversus replay --format html``
does the same), and reports the page's size, the time to build it, and over
``--runs`` page loads in headless Chromium (Debian's, ``/usr/bin/chromium``)
the time from the start of navigation to the first frame drawn (the page's
``mv-first-frame`` performance mark) and the time to seek to the last entry.
The targets: under 1 MB, and the first frame well under a second. Run::

    python benchmarks/html_replay.py --entries 400 --runs 9

This is a benchmark, never a test: its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from multiversus_cli.html import page_html, side_page
from multiversus_core import MatchSettings, apply, decider_seat, start_match
from multiversus_core.engine.log import LogEntry, MatchLog, new_header
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.views import redact_log

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LIMIT_BYTES = 1_000_000


def long_match(entries: int) -> MatchLog:
    """The first bot match (seeds 0, 1, ...) with at least ``entries`` entries, cut there."""
    for seed in range(1000):
        settings = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=seed)
        state = start_match(settings)
        bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
        log: list[LogEntry] = []
        while not state.is_over and len(log) < entries:
            seat = decider_seat(state)
            assert seat is not None
            command = command_for(bots[seat], state, seat)
            state, events = apply(state, command)
            log.append(LogEntry(command=command, events=events))
        if len(log) >= entries:
            return MatchLog(header=new_header(settings), entries=tuple(log))
    raise SystemExit(f"no match of {entries} entries in 1000 seeds")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=400, help="log entries (default 400)")
    parser.add_argument("--runs", type=int, default=9, help="page loads to time (default 9)")
    args = parser.parse_args(argv)
    if args.entries < 1 or args.runs < 1:
        parser.error("--entries and --runs must be at least 1")

    log = long_match(args.entries)
    start = time.perf_counter()
    html = page_html(side_page(redact_log(log, "heroes")))
    built = time.perf_counter() - start
    size = len(html.encode("utf-8"))
    print(
        f"{len(log.entries)} entries: page {size:,} bytes ({size / LIMIT_BYTES:.0%} of 1 MB), "
        f"built in {built * 1000:.0f} ms"
    )

    from playwright.sync_api import sync_playwright

    first: list[float] = []
    seek: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        path = Path(folder) / "replay.html"
        path.write_text(html, encoding="utf-8")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for _ in range(args.runs):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(path.as_uri())
            page.wait_for_selector("#mv-board svg")
            first.append(
                page.evaluate("performance.getEntriesByName('mv-first-frame')[0].startTime")
            )
            seek.append(
                page.evaluate(
                    "(() => {const t = performance.now();"
                    " document.getElementById('mv-last').click();"
                    " return performance.now() - t;})()"
                )
            )
            page.close()
        browser.close()

    def spread(values: list[float]) -> str:
        return (
            f"median {statistics.median(values):.0f} ms "
            f"(min {min(values):.0f}, max {max(values):.0f}, {len(values)} runs)"
        )

    print(f"first frame after navigation start: {spread(first)}")
    print(f"seek to the last entry: {spread(seek)}")
    ok = size < LIMIT_BYTES and statistics.median(first) < 1000
    print("targets met" if ok else "targets missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
