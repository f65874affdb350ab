"""Write tiles-d6's golden replays: ``python scripts/make_tiles_d6_goldens.py`` (``--search``).

Every golden is a whole match of tiles-d6 on the bundled map between two
seeded bots: :class:`Brute` (which, with probability ``fury``, closes in
and strikes; otherwise, and at fury 0, it chooses at random), seat 1 seeded
with the match seed and seat 2 with the seed plus one. Each golden's seed
is the first that gives its match the features it is there for
(:attr:`Golden.wants`; ``--search`` finds them again); together they cover
:func:`required`, which ``tests/test_tiles_d6_goldens.py`` recomputes from the
logs themselves. See docs/goldens.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from multiversus_core.engine.chance import Chance, chance_commitment
from multiversus_core.engine.grid import Coord, distance
from multiversus_core.engine.log import MatchLog, encode_log
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.tiles_d6.model import (
    ActionStarted,
    Attack,
    Attacked,
    BramblesRolled,
    Command,
    ConcussedEvent,
    ConcussionRolled,
    EndAction,
    Fire,
    Fired,
    Injured,
    KnockedDown,
    MatchEnded,
    RollOffRolled,
    StandUp,
    StartCharge,
    StepTo,
    StoodUp,
    StunnedEvent,
    StunRecovered,
    TilesSettings,
    TilesState,
    WithdrawRolled,
)
from multiversus_core.rulesets.tiles_d6.ruleset import TilesView

REPLAYS = Path(__file__).resolve().parent.parent / "replays" / "tiles-d6"
"""Where tiles-d6's golden logs go."""
ROUNDS = 8
"""A match not wiped out ends after this round (T3)."""


class Golden(NamedTuple):
    """One golden: its rosters, its bots' fury, what it is there for, and its seed."""

    name: str
    rosters: tuple[str, str]
    fury: float
    wants: frozenset[str]
    seed: int
    secret_chance: bool = False
    """Play with a secret chance seed (derived from the match seed, so the log is the same
    every time) instead of a seed in the open."""

    @property
    def file_name(self) -> str:
        """The log's file name: ``<seat 1 roster>--<seat 2 roster>--<name>.jsonl``."""
        return f"{self.rosters[0]}--{self.rosters[1]}--{self.name}.jsonl"

    def with_seed(self, seed: int) -> Golden:
        """This golden played with another seed."""
        return self._replace(seed=seed)


GOLDENS: tuple[Golden, ...] = (
    Golden(
        "random",
        ("keep-guard", "marsh-raiders"),
        0.0,
        frozenset({"roll_off:tie", "fall:withdraw", "attack:backfire", "end:draw"}),
        48,
    ),
    Golden(
        "points",
        ("marsh-raiders", "keep-guard"),
        0.8,
        frozenset({"end:points", "fall:withdraw", "status:stunned", "stun:recovered"}),
        1,
    ),
    Golden(
        "wipe-out",
        ("keep-guard", "marsh-raiders"),
        1.0,
        frozenset({"end:wipe-out", "fall:brambles"}),
        35,
    ),
    Golden(
        "wipe-out",
        ("marsh-raiders", "keep-guard"),
        1.0,
        frozenset({"end:wipe-out", "status:stunned"}),
        30,
    ),
    Golden(
        "concussion",
        ("keep-guard", "marsh-raiders"),
        1.0,
        frozenset({"status:concussed", "concussion:recovered", "concussion:still"}),
        172,
    ),
    Golden(
        "secret-chance",
        ("marsh-raiders", "keep-guard"),
        0.8,
        frozenset({"end:points", "fire:hit", "attack:charge", "action:stand_up"}),
        4,
        secret_chance=True,
    ),
)
"""Every golden, with the first seed from 0 that gives it what it wants."""


class Brute:
    """A seeded bot that, with probability ``fury``, strikes or closes in; else it chooses at
    random.

    Striking is, in order: an attack, a fire, standing up; closing in is a step
    that comes nearer the nearest enemy, ending an action that cannot, and
    starting a charge.
    """

    def __init__(self, seed: int, fury: float) -> None:
        self._random = random.Random(seed)
        self._fury = fury

    def choose(self, view: TilesView, legal: Sequence[Command]) -> Command:
        """Return one of ``legal``, given the seat's view."""
        pick = self._random
        if pick.random() >= self._fury:
            return pick.choice(legal)
        for kind in (Attack, Fire, StandUp):
            strikes = [c for c in legal if isinstance(c, kind)]
            if strikes:
                return pick.choice(strikes)
        state = view.state
        steps = [c for c in legal if isinstance(c, StepTo)]
        if steps and state.action is not None:
            me = state.unit(state.action.unit)
            assert me is not None and me.at is not None
            now = _nearest(state, me.at, me.seat)
            closer = [c for c in steps if _nearest(state, c.to, me.seat) < now]
            if closer:
                return pick.choice(closer)
            ends = [c for c in legal if isinstance(c, EndAction)]
            if ends:
                return ends[0]
        charges = [c for c in legal if isinstance(c, StartCharge)]
        return pick.choice(charges or list(legal))


def _nearest(state: TilesState, at: Coord, seat: int) -> int:
    enemies = [u.at for u in state.units if u.seat != seat and u.at is not None and not u.injured]
    return min((distance(at, there) for there in enemies), default=0)


def settings(golden: Golden) -> tuple[TilesSettings, Chance | None]:
    """The golden's match settings, and its secret chance seed if it plays with one."""
    players = ("Bot 1", "Bot 2")
    if not golden.secret_chance:
        return TilesSettings(players=players, rosters=golden.rosters, seed=golden.seed), None
    rng = random.Random(golden.seed)
    chance = Chance(rng.getrandbits(64), f"{rng.getrandbits(256):064x}")
    commitment = chance_commitment(chance)
    return TilesSettings(players=players, rosters=golden.rosters, chance=commitment), chance


def play(golden: Golden) -> MatchLog:
    """Play a golden's match and return its log."""
    bots = {1: Brute(golden.seed, golden.fury), 2: Brute(golden.seed + 1, golden.fury)}
    match_settings, chance = settings(golden)
    return play_match(match_settings, bots, chance)[0]


def required() -> frozenset[str]:
    """Every feature the goldens must cover together."""
    actions = {f"action:{kind}" for kind in ("move", "charge", "attack", "fire", "stand_up")}
    statuses = {f"status:{s}" for s in ("prone", "stunned", "concussed", "injured", "adjacent")}
    attacks = {f"attack:{r}" for r in ("hit", "miss", "backfire", "charge")}
    return frozenset(
        {
            *actions,
            *statuses,
            *attacks,
            "fire:hit",
            "fire:miss",
            "fall:brambles",
            "fall:withdraw",
            "stun:recovered",
            "concussion:recovered",
            "concussion:still",
            "roll_off:tie",
            "end:wipe-out",
            "end:points",
            "end:draw",
            "chance:secret",
        }
    )


def coverage(log: MatchLog) -> frozenset[str]:
    """The features one log covers, read from its header and events."""
    found = {"chance:secret"} if log.header.settings.chance else set()
    roll_offs = 0
    for event in (event for entry in log.entries for event in entry.events):
        match event:
            case ActionStarted(action=action):
                found.add(f"action:{action}")
            case StoodUp():
                found.add("action:stand_up")
            case Attacked(result=result, charge=charge):
                found |= {f"attack:{result}", "status:adjacent"}  # T22: melee is adjacent
                if charge:
                    found.add("attack:charge")
            case Fired(hit=hit):
                found.add("fire:hit" if hit else "fire:miss")
            case KnockedDown():
                found.add("status:prone")
            case StunnedEvent():
                found.add("status:stunned")
            case ConcussedEvent():
                found.add("status:concussed")
            case Injured():
                found.add("status:injured")
            case BramblesRolled(fell=True):
                found |= {"fall:brambles", "status:prone"}
            case WithdrawRolled(fell=fell):
                found.add("status:adjacent")
                if fell:
                    found |= {"fall:withdraw", "status:prone"}
            case StunRecovered():
                found.add("stun:recovered")
            case ConcussionRolled(recovered=recovered):
                found.add("concussion:recovered" if recovered else "concussion:still")
            case RollOffRolled():
                roll_offs += 1
            case MatchEnded(winner=winner, reason=reason):
                found.add(_ending(log, winner, reason))
            case _:
                pass
    if roll_offs > 1:
        found.add("roll_off:tie")
    return frozenset(found)


def _ending(log: MatchLog, winner: int | None, reason: str) -> str:
    if "no units left" in reason:
        return "end:wipe-out"
    started = [e.round for entry in log.entries for e in entry.events if hasattr(e, "round")]
    assert max(started) == ROUNDS, "a match not wiped out ends after round 8"
    return "end:draw" if winner is None else "end:points"


def write(goldens: Iterable[Golden]) -> list[Path]:
    """Write each golden's log to replays/tiles-d6/, replacing any log already there."""
    REPLAYS.mkdir(parents=True, exist_ok=True)
    paths = []
    for golden in goldens:
        path = REPLAYS / golden.file_name
        path.write_bytes(encode_log(play(golden)))
        paths.append(path)
    return paths


def search(golden: Golden, tries: int) -> int | None:
    """The first seed below ``tries`` whose match gives ``golden`` what it wants."""
    for seed in range(tries):
        if golden.wants <= coverage(play(golden.with_seed(seed))):
            return seed
    return None


def main(argv: list[str] | None = None) -> int:
    """Write the goldens, or with ``--search`` find each one's seed again and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", type=int, metavar="TRIES", help="try seeds 0..TRIES-1")
    args = parser.parse_args(argv)
    if args.search is not None:
        failed = False
        for golden in GOLDENS:
            seed = search(golden, args.search)
            failed |= seed is None
            print(f"{golden.file_name}: {'none found' if seed is None else seed}")
        return 1 if failed else 0
    for path in write(GOLDENS):
        print(path.relative_to(REPLAYS.parent.parent))
    covered = frozenset().union(*(coverage(play(g)) for g in GOLDENS))
    missing = required() - covered
    if missing:
        print(f"not covered: {', '.join(sorted(missing))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
