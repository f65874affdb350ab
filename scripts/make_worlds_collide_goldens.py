"""Write worlds-collide's golden replays: ``python scripts/make_worlds_collide_goldens.py``
(``--search`` to find each one's seed again).

Every golden is a whole match of worlds-collide on the bundled map between two
seeded bots: :class:`Eager`, which always activates while it can, joins models
into formations, attacks whenever it may and re-rolls a failed die when it
likes, choosing at random otherwise; seat 1 is seeded with the match seed and
seat 2 with the seed plus one. Each golden's seed is the first that gives its
match the features it is there for (:attr:`Golden.wants`), skipping the seeds
of the goldens before it with the same factions, so no two are one match; together they cover
:func:`required`, which ``tests/test_worlds_collide_goldens.py`` recomputes from
the logs themselves. See docs/goldens.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from multiversus_core.engine.choices import Ask, is_tree, walk
from multiversus_core.engine.log import MatchLog, encode_log
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.worlds_collide import rules
from multiversus_core.rulesets.worlds_collide.model import (
    ActivationStarted,
    AttackHit,
    AttacksRolled,
    DieRerolled,
    EnvironmentRolled,
    KeepDice,
    LeadersScored,
    MatchEnded,
    ModelFell,
    ModelMoved,
    ObjectiveScored,
    Reroll,
    TacticResolved,
    WorldsSettings,
)
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET, WorldsView

REPLAYS = Path(__file__).resolve().parent.parent / "replays" / "worlds-collide"
"""Where worlds-collide's golden logs go."""


class Golden(NamedTuple):
    """One golden: its factions and variants, what it is there for, and its seed."""

    name: str
    factions: tuple[str, str]
    wants: frozenset[str]
    seed: int
    variants: tuple[str, ...] = ()

    @property
    def file_name(self) -> str:
        """``<seat 1 faction>--<seat 2 faction>--<name>.jsonl``."""
        return f"{self.factions[0]}--{self.factions[1]}--{self.name}.jsonl"

    def with_seed(self, seed: int) -> Golden:
        """This golden played with another seed."""
        return self._replace(seed=seed)


LEGION_FAE = ("iron-legion", "wyldfae")
FAE_LEGION = ("wyldfae", "iron-legion")

GOLDENS: tuple[Golden, ...] = (
    Golden("formation", LEGION_FAE, frozenset({"formation:leader", "end:vp"}), 0),
    Golden("tactics", FAE_LEGION, frozenset({"tactic:success", "tactic:penalty"}), 0),
    Golden("re-roll", LEGION_FAE, frozenset({"reroll", "attack:cover"}), 1),
    Golden("fallen", FAE_LEGION, frozenset({"model:fell", "leader:fell"}), 2),
    Golden("objectives", LEGION_FAE, frozenset({"objective:scored", "end:vp"}), 2),
    Golden(
        "environment-deck",
        FAE_LEGION,
        frozenset({"variant:environment-deck", "end:vp"}),
        0,
        ("environment-deck",),
    ),
)
"""Every golden, with the first seed from 0 that gives it what it wants (``--search``)."""


class Eager:
    """A seeded bot that always activates while it can, joins models into formations half the
    time, attacks with every attack it may and re-rolls a failed die two times in three;
    everything else it chooses at random."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(self, view: WorldsView, legal: Any) -> Any:
        """Return one of ``legal``, given the seat's view."""
        pick = self._random
        if is_tree(legal):
            return walk(legal, self._pick)
        rerolls = [c for c in legal if isinstance(c, Reroll)]
        if rerolls and pick.random() < 2 / 3:
            return pick.choice(rerolls)
        keep = [c for c in legal if isinstance(c, KeepDice)]
        return keep[0] if keep else pick.choice(list(legal))

    def _pick(self, asked: Ask, chosen: tuple[str, ...]) -> str:
        keys = [option.key for option in asked.options]
        pick = self._random
        if "activate" in keys:
            return "activate"
        if "done" in keys and len(keys) > 1:
            return "done" if pick.random() < 0.5 else pick.choice(keys[1:])
        if "none" in keys and len(keys) > 1 and "tactic" not in asked.prompt:
            return pick.choice(keys[1:])  # a target rather than no attack
        return pick.choice(keys)


def settings(golden: Golden) -> WorldsSettings:
    """The golden's match settings."""
    return WorldsSettings(
        players=("Bot 1", "Bot 2"),
        factions=golden.factions,
        variants=golden.variants,  # type: ignore[arg-type]
        seed=golden.seed,
    )


def play(golden: Golden) -> MatchLog:
    """Play a golden's match and return its log."""
    bots = {1: Eager(golden.seed), 2: Eager(golden.seed + 1)}
    return play_match(settings(golden), bots)[0]


def required() -> frozenset[str]:
    """Every feature the goldens must cover together."""
    return frozenset(
        {
            "formation:leader",
            "tactic:success",
            "tactic:penalty",
            "reroll",
            "attack:cover",
            "model:fell",
            "leader:fell",
            "objective:scored",
            "plan:move_attack",
            "plan:attack_move",
            "plan:move_twice",
            "end:vp",
            "variant:environment-deck",
        }
    )


def coverage(log: MatchLog) -> frozenset[str]:
    """The features one log covers, read from its header and events, folded to judge cover."""
    found = {f"variant:{v}" for v in log.header.settings.variants}
    state = RULESET.initial_state(log.header.settings, log.chance)
    for entry in log.entries:
        for event in entry.events:
            found |= _features(state, event)
            state = RULESET.evolve(state, event)
    return frozenset(found)


def _features(state: Any, event: object) -> set[str]:
    match event:
        case ActivationStarted(models=models, plan=plan):
            kinds = [state.model(m).kind for m in models]
            leader = len(models) > 1 and any(k.is_leader for k in kinds)
            return {f"plan:{plan}"} | ({"formation:leader"} if leader else set())
        case TacticResolved(success=success):
            return {"tactic:success" if success else "tactic:penalty"}
        case DieRerolled():
            return {"reroll"}
        case AttacksRolled(target=target, attacks=attacks):
            covered = set()
            for attack in attacks:
                attacker, aimed = state.model(attack.model), state.model(target)
                weapon = rules.weapon_of(attacker, attack.weapon)
                if weapon and weapon.kind == "ranged" and rules.in_cover(state, attacker, aimed):
                    covered.add("attack:cover")
            return covered
        case ModelFell(model=model):
            leader = state.model(model).kind.is_leader
            return {"model:fell"} | ({"leader:fell"} if leader else set())
        case ObjectiveScored(seat=seat) if seat is not None:
            return {"objective:scored"}
        case LeadersScored():
            return {"leaders:scored"}
        case MatchEnded(reason=reason) if "on VP" in reason:
            return {"end:vp"}
        case AttackHit() | ModelMoved() | EnvironmentRolled():
            return set()
    return set()


def write(goldens: Iterable[Golden]) -> list[Path]:
    """Write each golden's log to replays/worlds-collide/, replacing any log already there."""
    REPLAYS.mkdir(parents=True, exist_ok=True)
    paths = []
    for golden in goldens:
        path = REPLAYS / golden.file_name
        path.write_bytes(encode_log(play(golden)))
        paths.append(path)
    return paths


def search(golden: Golden, tries: int, taken: Iterable[int] = ()) -> int | None:
    """The first seed below ``tries``, but those ``taken``, whose match gives ``golden`` what it
    wants."""
    skip = set(taken)
    for seed in range(tries):
        if seed not in skip and golden.wants <= coverage(play(golden.with_seed(seed))):
            return seed
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Write the goldens, or with ``--search`` find each one's seed again and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", type=int, metavar="TRIES", help="try seeds 0..TRIES-1")
    args = parser.parse_args(argv)
    if args.search is not None:
        failed = False
        used: dict[tuple[Any, ...], list[int]] = {}
        for golden in GOLDENS:
            same = used.setdefault((golden.factions, golden.variants), [])
            seed = search(golden, args.search, same)
            failed |= seed is None
            same.append(-1 if seed is None else seed)
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
