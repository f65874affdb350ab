"""Time and memory of refusing hostile team sheets: each must be refused in well under a second.

The sheets of issue "hostile team sheets": deep nesting (arrays, inline
tables, dotted keys), huge counts, a huge board, huge coins, a file past the
size limit, a huge integer literal. Prints, for each, the refusal, the time
``decode_sheet`` took (best of three) and the peak memory it allocated
(tracemalloc, in a fourth run). Run::

    PYTHONPATH=src python benchmarks/hostile_sheets.py
"""

from __future__ import annotations

import contextlib
import time
import tracemalloc
from importlib import resources

from multiversus_core.engine.errors import SheetError
from multiversus_core.rulesets.multiversus.sheets import MAX_SHEET_BYTES, decode_sheet

SMOGON = (
    resources.files("multiversus_core.rulesets.multiversus")
    .joinpath("data", "teams", "smogon.toml")
    .read_text()
)

HOSTILE: dict[str, str] = {
    "nested arrays (100000 deep)": "x = " + "[" * 100_000 + "]" * 100_000,
    "nested inline tables (5000 deep)": "x = " + "{a=" * 5_000 + "1" + "}" * 5_000,
    "dotted key (20000 parts)": "a" + ".a" * 20_000 + " = 1",
    "characters = 100000000": SMOGON.replace("characters = 2", "characters = 100000000", 1),
    "a 10^9 x 10^9 board": SMOGON.replace("width = 10", "width = 1000000000").replace(
        "height = 10", "height = 1000000000"
    ),
    "10^9 coins": SMOGON.replace('id = "bruisers"', 'id = "bruisers"\ngreen_coins = 1000000000'),
    "an integer of 5000 digits": "x = " + "9" * 5000,
    "20000 deployment squares": SMOGON.replace("heroes = [", "heroes = [" + "[0, 0], " * 20_000),
    "8000 [[units]] tables": SMOGON + '[[units]]\nid = "x"\nrole = "mob"\n' * 8000,
    "just under the size limit, in keys": "".join(
        f"k{i} = 1\n" for i in range(MAX_SHEET_BYTES // 12)
    ),
}


def main() -> None:
    """Print one line per hostile sheet: seconds, peak MiB, and the refusal."""
    for what, text in HOSTILE.items():
        data = text.encode()
        best = float("inf")
        reason = "accepted"
        for _ in range(3):
            start = time.perf_counter()
            try:
                decode_sheet(data, "hostile.toml")
            except SheetError as error:
                reason = error.reason
            best = min(best, time.perf_counter() - start)
        tracemalloc.start()  # apart from the timing, which tracing slows down
        with contextlib.suppress(SheetError):
            decode_sheet(data, "hostile.toml")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{best:7.3f} s {peak / 2**20:7.1f} MiB  {what}: {reason[:90]}")


if __name__ == "__main__":
    main()
