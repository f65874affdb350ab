"""Write the golden replays: ``python scripts/make_goldens.py`` (``--search`` to pick seeds).

Every golden is a whole match between two seeded bots (:class:`RandomBot`, or
:class:`Brute` for one golden; seat 1 seeded with the match seed, seat 2 with
the seed plus one) over one pairing of bundled teams, with some variants on.
The seeds in :data:`SEEDS` were found by ``--search`` so that the logs
together cover every action,
reaction, trigger, Initiative outcome, kind of victory and variant listed by
:func:`required`; ``tests/test_goldens.py`` recomputes that coverage from the
logs themselves. See docs/goldens.md.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import typing
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from multiversus_core import (
    Attack,
    BeginAction,
    Command,
    DeclineReaction,
    MatchSettings,
    Seat,
    SelectCoins,
    SelectNoReaction,
)
from multiversus_core.engine.log import LogEntry, MatchLog, encode_log
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.events import (
    ActionStarted,
    CoinsSelected,
    InitiativeGivenUp,
    InitiativeRolled,
    MatchEnded,
    ReactionDeclined,
    ReactionStarted,
    ReactionTriggered,
    RecoveryMade,
)
from multiversus_core.rulesets.multiversus.state import Trigger
from multiversus_core.rulesets.multiversus.terms import ACTION_KINDS
from multiversus_core.rulesets.multiversus.variants import VARIANTS
from multiversus_core.rulesets.multiversus.views import MatchView

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
"""Where the golden logs go."""
DOUBLES = ("attack", "move", "stunt")
"""The actions whose two coins make one amplified action."""


class Golden(NamedTuple):
    """One golden replay: its pairing, variants and the seed that plays it."""

    heroes: str
    adversaries: str
    variants: tuple[str, ...]
    seed: int
    fury: float = 0.0
    """How often the bots play a :class:`Brute` move instead of a random one."""

    @property
    def name(self) -> str:
        """The log's file name."""
        tail = "-".join(self.variants) or "standard"
        if self.fury:
            tail += "-brute"
        return f"{self.heroes}--{self.adversaries}--{tail}.jsonl"

    def settings(self) -> MatchSettings:
        """The match settings of this golden."""
        return MatchSettings(
            heroes=self.heroes,
            adversaries=self.adversaries,
            variants=self.variants,
            seed=self.seed,
            players=("Bot 1", "Bot 2"),
        )


# The slots: every pairing once without variants, once with some on, and one
# match of aggressive bots (random bots hardly ever eliminate a whole side).
SLOTS: tuple[tuple[str, str, tuple[str, ...], float], ...] = (
    ("banner-knight", "black-goblins", (), 0.0),
    ("banner-knight", "smogon", (), 0.0),
    ("banner-knight", "swartzblak", (), 0.0),
    ("witch-hunters", "black-goblins", (), 0.0),
    ("witch-hunters", "smogon", (), 0.0),
    ("witch-hunters", "swartzblak", (), 0.0),
    ("banner-knight", "black-goblins", ("costly-recovery", "no-automatic-six"), 0.0),
    ("banner-knight", "smogon", ("move-reaction-at-end",), 0.0),
    ("banner-knight", "swartzblak", ("adjacent-triggers", "disengage-trigger"), 0.0),
    ("witch-hunters", "black-goblins", ("diagonal-double-move", "diagonal-movement"), 0.0),
    ("witch-hunters", "smogon", ("double-attack-pushes",), 0.0),
    ("witch-hunters", "swartzblak", ("secret-schemes",), 0.0),
    ("witch-hunters", "smogon", (), 0.7),
)

# Chosen by ``--search``, except the last (aggressive bots), found by trying that slot's
# seeds alone until its match ended in an elimination; regenerate with
# ``python scripts/make_goldens.py``.
SEEDS: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 421)

GOLDENS: tuple[Golden, ...] = tuple(
    Golden(h, a, v, s, f) for (h, a, v, f), s in zip(SLOTS, SEEDS, strict=True)
)
"""Every golden replay, in slot order."""


class Brute:
    """A seeded bot that, with probability ``fury``, closes in and attacks.

    It prefers, in order: an attack, selecting Move then Attack, beginning
    the Move, and letting the opponent's reactions pass; otherwise it plays
    like its :class:`RandomBot` (which never holds back and always advances).
    """

    def __init__(self, seed: int, fury: float) -> None:
        self._bot = RandomBot(seed, hold_back=0.0, advance=1.0)
        self._random = random.Random(seed)
        self._fury = fury

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Return one of ``legal``, given the deciding side's view."""
        if self._random.random() < self._fury:
            for wanted in _BRUTE_PREFERENCES:
                preferred = [c for c in legal if wanted(c)]
                if preferred:
                    return self._random.choice(preferred)
        return self._bot.choose(view, legal)


_BRUTE_PREFERENCES: tuple[Callable[[Command], bool], ...] = (
    lambda c: isinstance(c, Attack),
    lambda c: isinstance(c, SelectCoins) and c.actions == ("move", "attack"),
    lambda c: isinstance(c, BeginAction) and c.action == "move",
    lambda c: isinstance(c, SelectNoReaction | DeclineReaction),
)


def play(golden: Golden) -> MatchLog:
    """Play a golden's match between two seeded bots and return its log."""
    bots: dict[Seat, RandomBot | Brute] = {1: RandomBot(golden.seed), 2: RandomBot(golden.seed + 1)}
    if golden.fury:
        bots = {1: Brute(golden.seed, golden.fury), 2: Brute(golden.seed + 1, golden.fury)}
    return play_match(golden.settings(), bots)[0]


def required() -> frozenset[str]:
    """Every feature the goldens must cover together."""
    teams = installed_teams()
    heroes = [t.id for t in teams if t.side == "heroes"]
    adversaries = [t.id for t in teams if t.side == "adversaries"]
    features = {f"pairing:{h}+{a}" for h in heroes for a in adversaries}
    features |= {f"action:{kind}" for kind in ACTION_KINDS}
    features |= {f"double:{kind}" for kind in DOUBLES}
    features.add("action:mixed")
    features |= {f"reaction:{kind}" for kind in ACTION_KINDS}
    features.add("reaction:declined")
    features |= {f"trigger:{t}" for t in typing.get_args(Trigger)}
    features |= {"recovery:succeeded", "recovery:failed"}
    features |= {"initiative:lost_on_six", "initiative:lost_on_greys", "initiative:given_up"}
    features |= {"victory:elimination", "victory:scenario"}
    features |= {f"variant:{name}" for name in VARIANTS}
    return frozenset(features)


def coverage(log: MatchLog) -> frozenset[str]:
    """The features one log covers, read from its header and events."""
    settings = log.header.settings
    found = {f"pairing:{settings.heroes}+{settings.adversaries}"}
    found |= {f"variant:{name}" for name in settings.variants}
    for event in _events(log.entries):
        match event:
            case ActionStarted(action=action, double=double):
                found.add(f"action:{action}")
                if double:
                    found.add(f"double:{action}")
            case CoinsSelected(actions=actions) if len(set(actions)) == 2:
                found.add("action:mixed")
            case ReactionStarted(action=action):
                found.add(f"reaction:{action}")
            case ReactionDeclined():
                found.add("reaction:declined")
            case ReactionTriggered(triggers=triggers):
                found |= {f"trigger:{t}" for t in triggers}
            case RecoveryMade(succeeded=succeeded):
                found.add("recovery:succeeded" if succeeded else "recovery:failed")
            case InitiativeRolled(die=die, greys=greys, lost=True):
                if die == 6:
                    found.add("initiative:lost_on_six")
                elif die <= greys:
                    found.add("initiative:lost_on_greys")
            case InitiativeGivenUp():
                found.add("initiative:given_up")
            case MatchEnded(reason=reason, winner=winner) if winner is not None:
                if reason == "elimination":
                    found.add("victory:elimination")
                elif reason != "six_rounds_played":
                    found.add("victory:scenario")
            case _:
                pass
    return frozenset(found)


def _events(entries: Iterable[LogEntry]) -> Iterable[object]:
    for entry in entries:
        yield from entry.events


def write(goldens: Iterable[Golden]) -> list[Path]:
    """Write each golden's log to replays/, replacing any log already there."""
    REPLAYS.mkdir(exist_ok=True)
    paths = []
    for golden in goldens:
        path = REPLAYS / golden.name
        path.write_bytes(encode_log(play(golden)))
        paths.append(path)
    return paths


def search(tries: int) -> tuple[int, ...]:
    """Pick a seed per slot, greedily, so that the goldens cover :func:`required`."""
    found: list[list[frozenset[str]]] = []
    for heroes, adversaries, variants, fury in SLOTS:
        row = [coverage(play(Golden(heroes, adversaries, variants, s, fury))) for s in range(tries)]
        found.append(row)
    need = required()
    # Greedy, rarest first: a feature seen in few matches weighs more.
    seen = Counter(feature for row in found for features in row for feature in features)
    chosen: dict[int, int] = {}
    covered: frozenset[str] = frozenset()
    while len(chosen) < len(SLOTS):
        _, seed, slot = max(
            (sum(1 / seen[f] for f in found[i][s] - covered), -s, i)
            for i in range(len(SLOTS))
            if i not in chosen
            for s in range(tries)
        )
        chosen[slot] = -seed
        covered |= found[slot][-seed]
    missing = need - covered
    if missing:
        print(f"not covered with {tries} seeds per slot: {sorted(missing)}", file=sys.stderr)
    return tuple(chosen[i] for i in range(len(SLOTS)))


def main(argv: list[str] | None = None) -> int:
    """Write the goldens, or with ``--search`` find seeds and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", type=int, metavar="TRIES", help="try seeds 0..TRIES-1")
    args = parser.parse_args(argv)
    if args.search:
        seeds = search(args.search)
        print(f"SEEDS: tuple[int, ...] = {seeds!r}")
        return 0
    for path in write(GOLDENS):
        print(os.path.relpath(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
