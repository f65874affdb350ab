"""Fuzz the team sheet reader: mutated bundled sheets and generated ones, seeded.

Every sheet must be refused with a one-line SheetError naming a field, or
accepted, installed, set up against every team of the other side and played
for a few random commands (tests/sheet_fuzz.py). Prints the counts.

    python scripts/fuzz_sheets.py [SHEETS] [SEED]
"""

from __future__ import annotations

import random
import sys
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.sheet_fuzz import check_sheet, generated, mutated


def main() -> None:
    """Run the fuzz and print: sheets tried, refused, accepted and played, failures."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    outcomes: Counter[str] = Counter()
    for i in range(count):
        data = (mutated if i % 2 == 0 else generated)(rnd)
        try:
            outcomes[check_sheet(data)] += 1
        except AssertionError:
            outcomes["accepted but unplayable, or refused naming no field"] += 1
            traceback.print_exc()
        except Exception:
            outcomes["traceback"] += 1
            traceback.print_exc()
    print(f"sheets tried: {count}")
    for outcome in (
        "refused",
        "accepted",
        "traceback",
        "accepted but unplayable, or refused naming no field",
    ):
        print(f"{outcome}: {outcomes[outcome]}")


if __name__ == "__main__":
    main()
