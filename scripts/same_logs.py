"""Check that another checkout's code plays exactly the same matches as this one.

Plays ``--matches`` whole matches between two seeded bots (``--bot``, any spec
:func:`~multiversus_core.rulesets.multiversus.bots.specs.make_bot` accepts) over every pairing of
installed teams in turn, each with a random set of variants, once with this
checkout's code and once with the code in ``SRC`` (each in a subprocess),
and compares the SHA-256 of every log, byte for byte. A change meant to
keep the rules (a speed-up, a refactoring) must give the same logs. Exits 1
and names the first differing match if any differs. Run::

    python scripts/same_logs.py /tmp/main/src --matches 400
    python scripts/same_logs.py /tmp/main/src --matches 60 --bot heuristic
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import random
import subprocess
import sys
from pathlib import Path


def digests(start: int, matches: int, bot: str) -> None:
    """Print one line per match: its seed, settings and the SHA-256 of its log."""
    from multiversus_core import MatchSettings

    try:
        from multiversus_core.engine.play import play_match
        from multiversus_core.rulesets.multiversus.bots.specs import make_bot
    except ImportError:  # a checkout from before the bots moved into the engine and ruleset
        from multiversus_core.bots import make_bot, play_match  # type: ignore[no-redef]

    try:
        from multiversus_core.engine.log import encode_log
    except ImportError:  # a checkout from before the log moved into the engine
        from multiversus_core.log import encode_log  # type: ignore[no-redef]
    try:
        from multiversus_core.rulesets.multiversus.catalog import installed_teams
        from multiversus_core.rulesets.multiversus.variants import VARIANTS
    except ImportError:  # a checkout from before the engine was split from the game
        from multiversus_core.sheets import installed_teams  # type: ignore[no-redef]
        from multiversus_core.variants import VARIANTS  # type: ignore[no-redef]

    teams = installed_teams()
    heroes = [t.id for t in teams if t.side == "heroes"]
    adversaries = [t.id for t in teams if t.side == "adversaries"]
    pairings = list(itertools.product(heroes, adversaries))
    for seed in range(start, start + matches):
        rng = random.Random(seed)
        hero, adversary = pairings[seed % len(pairings)]
        variants = tuple(sorted(rng.sample(sorted(VARIANTS), rng.randint(0, 3))))
        settings = MatchSettings(heroes=hero, adversaries=adversary, variants=variants, seed=seed)
        log, _ = play_match(settings, {1: make_bot(bot, seed), 2: make_bot(bot, seed + 7)})
        digest = hashlib.sha256(encode_log(log)).hexdigest()
        print(f"{seed} {hero} {adversary} {','.join(variants) or '-'} {digest}", flush=True)


def run(src: Path, start: int, matches: int, bot: str) -> list[str]:
    """This script's digests, computed by the code in ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, __file__, "--digests", "--start", str(start)]
    command += ["--matches", str(matches), "--bot", bot]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the code in {src} failed:\n{done.stderr.strip()}")
    return done.stdout.splitlines()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", type=Path, nargs="?", help="the src folder of the other checkout")
    parser.add_argument("--matches", type=int, default=100, help="matches to play (default 100)")
    parser.add_argument("--start", type=int, default=0, help="seed of the first match")
    parser.add_argument("--bot", default="random", help="bot spec for both seats (default random)")
    parser.add_argument("--digests", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    if args.digests:
        digests(args.start, args.matches, args.bot)
        return 0
    if args.src is None:
        parser.error("give the src folder of the checkout to compare with")
    here = Path(__file__).resolve().parent.parent / "src"
    print(f"playing {args.matches} matches with {args.bot} bots in both codes...", file=sys.stderr)
    theirs = run(args.src.resolve(), args.start, args.matches, args.bot)
    ours = run(here, args.start, args.matches, args.bot)
    for mine, other in zip(ours, theirs, strict=True):
        if mine != other:
            seed, hero, adversary, variants, _ = mine.split()
            print(f"match {seed} ({hero} against {adversary}, variants {variants}) differs")
            return 1
    print(f"all {len(ours)} logs are the same, byte for byte")
    return 0


if __name__ == "__main__":
    sys.exit(main())
