"""Evaluation: how good a match position is for one side, as a number from -1 to 1.

A plain function of a full state (:func:`evaluate`), shared by the
heuristic bot and the search bot's cut-short playouts. It values, from one
side's point of view:

- the result, once the match is over (1 won, -1 lost, 0 drawn);
- the characters' conditions on both sides (harm dealt and suffered),
  weighted by role, and how many are left (elimination wins);
- the scenario's win conditions as they would decide the match now, the
  more as round 6 nears, and nearness to the tiles they name (objectives);
- threatened and exposed figures: characters an enemy could attack now,
  with Advantage counting double;
- the coin economy: grey coins in a discard make the Initiative die harder
  to keep (R13).

The search judges by :func:`search_evaluate`: all of that, and how far each
of its able characters stands from its goal (:func:`mean_gap`), not only the
nearest one, so that a character behind the others is worth bringing up.
The heuristic keeps :func:`score`, its choices unchanged.

Secrets the evaluating side cannot see are passed as ``unknown``: the win
conditions are then averaged over the secret's options rather than read
from the state.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Collection, Iterable
from functools import cache
from typing import Final, TypeAlias

from msgspec.structs import replace

from multiversus_core.rulesets.multiversus.abilities import abilities_of
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.catalog import find_team
from multiversus_core.rulesets.multiversus.combat import can_attack, has_advantage
from multiversus_core.rulesets.multiversus.geometry import chebyshev, figure_squares, tile_squares
from multiversus_core.rulesets.multiversus.initiative import greys_in_discard
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS, final_result
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Condition, Side, Square, other_side
from multiversus_core.rulesets.multiversus.units import Unit
from multiversus_core.rulesets.multiversus.variants import is_on

CONDITION_VALUE: Final[dict[Condition, float]] = {
    "unharmed": 1.0,
    "wounded": 0.6,
    "disabled": 0.3,
    "eliminated": 0.0,
}
"""What a character is worth in each condition, as a share of an Unharmed one."""

ROLE_WEIGHT: Final[dict[str, float]] = {
    "champion": 1.5,
    "beast": 1.8,
    "lieutenant": 1.3,
    "mob": 0.8,
    "minions": 0.8,
}
"""How much a character of each role counts; roles not named count 1."""

WEIGHTS: Final[dict[str, float]] = {
    "material": 2.0,
    "left": 1.0,
    "objective": 1.2,
    "approach": 0.4,
    "threat": 0.12,
    "coins": 0.05,
}
"""The weight of each part of the evaluation before it is squashed into (-1, 1)."""


Judge: TypeAlias = Callable[[MatchState, Side, Collection[tuple[Side, str]]], float]
"""A score of a position for a side, secrets it cannot see passed as (side, name):
:func:`score`, :func:`search_score`."""


def evaluate(state: MatchState, side: Side, unknown: Collection[tuple[Side, str]] = ()) -> float:
    """Return how good ``state`` is for ``side``: 1 won, -1 lost, between them otherwise.

    ``unknown`` lists secrets, as (side, name), whose choice ``side`` cannot
    see: win conditions are averaged over their options.
    """
    return _squashed(state, side, unknown, score)


def _squashed(
    state: MatchState,
    side: Side,
    unknown: Collection[tuple[Side, str]],
    judge: Judge,
) -> float:
    """The result once the match is over, else ``judge``'s score squashed into (-1, 1)."""
    if state.is_over:
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == side else -1.0
    return math.tanh(judge(state, side, unknown))


def score(state: MatchState, side: Side, unknown: Collection[tuple[Side, str]] = ()) -> float:
    """The unsquashed evaluation of a match under way: a weighted sum of its parts."""
    enemy = other_side(side)
    mine = [f for f in state.figures if f.side == side and not f.terrain]
    theirs = [f for f in state.figures if f.side == enemy and not f.terrain]
    total = WEIGHTS["material"] * (_material(state, mine) - _material(state, theirs))
    total += WEIGHTS["left"] * (_left(mine) - _left(theirs))
    progress = min(max(state.round, 1), 6) / 6
    total += WEIGHTS["objective"] * (0.25 + 0.75 * progress) * objective(state, side, unknown)
    total += WEIGHTS["approach"] * _approach(state, side, mine, theirs)
    total += WEIGHTS["threat"] * (_threat(state, mine, theirs) - _threat(state, theirs, mine))
    total += WEIGHTS["coins"] * _coins(state, side)
    return total


ADVANCE: Final = 1.0
"""The weight, in the search's evaluation, of its able characters' mean distance to their
goals (:func:`mean_gap`) as a share of 12 spaces."""


def search_evaluate(
    state: MatchState, side: Side, unknown: Collection[tuple[Side, str]] = ()
) -> float:
    """The search's evaluation, from -1 to 1: :func:`evaluate` with :func:`search_score`."""
    return _squashed(state, side, unknown, search_score)


def search_score(
    state: MatchState, side: Side, unknown: Collection[tuple[Side, str]] = ()
) -> float:
    """:func:`score`, less :data:`ADVANCE` for every 12 spaces ``side``'s able characters
    stand on average from their goals (:func:`mean_gap`).

    :func:`score` counts the nearest character only: the others gain nothing by closing in,
    and a search that judges by it leaves them where they stand.
    """
    return score(state, side, unknown) - ADVANCE * mean_gap(state, side) / 12


def mean_gap(state: MatchState, side: Side) -> float:
    """The mean distance, in king's moves (at most 12), from ``side``'s able characters to
    their goals: the objective tiles (:func:`objective_squares`), or, without them, the
    enemy characters still standing. 0 with no able character or no goal."""
    able = [
        f
        for f in state.figures
        if f.side == side
        and not f.terrain
        and f.square is not None
        and f.condition not in ("disabled", "eliminated")
    ]
    goals = objective_squares(state) or frozenset(
        s
        for f in state.figures
        if f.side != side and not f.terrain and f.square is not None and f.condition != "eliminated"
        for s in figure_squares(f)
    )
    if not able or not goals:
        return 0.0
    gaps = (min(chebyshev(s, g) for s in figure_squares(f) for g in goals) for f in able)
    return sum(min(12, gap) for gap in gaps) / len(able)


def figure_value(state: MatchState, figure: Figure) -> float:
    """What a character is worth in its condition, weighted by its role."""
    role = state.unit(figure.unit).role
    return ROLE_WEIGHT.get(role, 1.0) * CONDITION_VALUE[figure.condition]


def _material(state: MatchState, figures: list[Figure]) -> float:
    whole = sum(ROLE_WEIGHT.get(state.unit(f.unit).role, 1.0) for f in figures)
    return sum(figure_value(state, f) for f in figures) / whole if whole else 0.0


def _left(figures: list[Figure]) -> float:
    if not figures:
        return 0.0
    left = sum(1 for f in figures if f.condition != "eliminated")
    # The last characters matter most: losing them all loses the match.
    return math.sqrt(left / len(figures))


def conditions_in_play(state: MatchState) -> tuple[str, ...]:
    """Return the win conditions checked after round 6 (the scheme under secret-schemes)."""
    sheet = find_team(state.adversaries_team or "")
    conditions = sheet.win_conditions if sheet else ()
    scheme = [s.choice for s in state.secrets if s.name == "scheme"]
    if is_on(state, "secret-schemes") and scheme and scheme[0] in WIN_CONDITIONS:
        conditions = (scheme[0],)
    return conditions


def objective(state: MatchState, side: Side, unknown: Collection[tuple[Side, str]] = ()) -> float:
    """How the win conditions would decide the match now: 1 for ``side``, -1 against, 0 neither.

    Averaged over the options of every ``unknown`` secret.
    """
    results = [_result(s, side) for s in _possible(state, unknown)]
    return sum(results) / len(results) if results else 0.0


def _result(state: MatchState, side: Side) -> float:
    winner, _ = final_result(state, conditions_in_play(state))
    return 0.0 if winner is None else (1.0 if winner == side else -1.0)


MOST_POSSIBLE: Final = 32
"""The most ways of setting the unknown secrets one judgement weighs: all of them when
there are no more, else this many drawn (the same ones every time)."""


def _possible(state: MatchState, unknown: Collection[tuple[Side, str]]) -> Iterable[MatchState]:
    """The state with the unknown secrets set to their options: every way if there are at
    most :data:`MOST_POSSIBLE`, else that many drawn, so the work stays bounded whatever a
    sheet's secrets (8 secrets of 24 options are 24**8 ways)."""
    choices: list[tuple[tuple[Side, str], tuple[str, ...]]] = []
    for secret_side, name in unknown:
        for offer in state.secret_offers:
            if (offer.side, offer.name) == (secret_side, name) and offer.options:
                choices.append(((secret_side, name), offer.options))
    if not choices:
        return [state]
    total = math.prod(len(options) for _, options in choices)
    if total <= MOST_POSSIBLE:
        ways: Iterable[tuple[str, ...]] = itertools.product(*(o for _, o in choices))
    else:
        rng = random.Random(total)  # the same draw for the same secrets: no unseeded chance
        ways = [tuple(rng.choice(o) for _, o in choices) for _ in range(MOST_POSSIBLE)]
    return [
        _with_choices(state, dict(zip((key for key, _ in choices), way, strict=True)))
        for way in ways
    ]


def _with_choices(state: MatchState, chosen: dict[tuple[Side, str], str]) -> MatchState:
    secrets = tuple(
        replace(x, choice=chosen[(x.side, x.name)]) if (x.side, x.name) in chosen else x
        for x in state.secrets
    )
    return replace(state, secrets=secrets)


def objective_squares(state: MatchState) -> frozenset[Square]:
    """The spaces of special tiles that the win conditions in play name (to hold or to reach).

    A tile counts when its terrain is named by a win condition's rules text
    or is the choice of a set-up secret (a tile to plunder).
    """
    if state.board is None:
        return frozenset()
    texts = tuple(WIN_CONDITIONS[c][0] for c in conditions_in_play(state) if c in WIN_CONDITIONS)
    choices = tuple(s.choice for s in state.secrets)
    return _named_tiles(state.board, texts, choices)


@cache
def _named_tiles(
    board: Board, texts: tuple[str, ...], choices: tuple[str, ...]
) -> frozenset[Square]:
    squares: set[Square] = set()
    for tile in board.tiles:
        if tile.terrain in choices or any(tile.terrain in text for text in texts):
            squares.update(tile_squares(tile))
    return frozenset(squares)


def _approach(state: MatchState, side: Side, mine: list[Figure], theirs: list[Figure]) -> float:
    """Nearness to the objective tiles, ours against theirs; without them, nearness to enemies."""
    squares = objective_squares(state)
    if squares:
        return (_nearness(theirs, squares) - _nearness(mine, squares)) / 4
    targets = frozenset(s for f in theirs if f.square is not None for s in figure_squares(f))
    return -_nearness(mine, targets) / 20 if targets else 0.0


def _nearness(figures: list[Figure], squares: frozenset[Square]) -> float:
    """The smallest distance from an able character to the squares (0 standing on one)."""
    best = 12.0
    for f in figures:
        if f.square is None or f.condition in ("disabled", "eliminated"):
            continue
        for c, r in figure_squares(f):
            for sc, sr in squares:
                best = min(best, abs(c - sc) + abs(r - sr))
    return min(best, 12.0)


def ranged_units(state: MatchState) -> frozenset[str]:
    """The ids of the units whose characters may make ranged attacks."""
    return _ranged(state.units)


@cache
def _ranged(units: tuple[Unit, ...]) -> frozenset[str]:
    return frozenset(u.id for u in units if any(a.is_ranged() for a in abilities_of(u)))


def could_attack(
    state: MatchState, attacker: Figure, target: Figure, ranged: frozenset[str]
) -> bool:
    """:func:`~.combat.can_attack`, answered quickly when the two are far apart
    and not in line (``ranged`` as :func:`ranged_units` gives it)."""
    if attacker.square is None or target.square is None or attacker.side == target.side:
        return False
    a, b = figure_squares(attacker), figure_squares(target)
    gap = min(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for p in a for q in b)
    if gap > 1 and (
        attacker.unit not in ranged
        or not any(
            p[0] == q[0] or p[1] == q[1] or abs(p[0] - q[0]) == abs(p[1] - q[1])
            for p in a
            for q in b
        )
    ):
        return False
    return can_attack(state, attacker, target)


def _threat(state: MatchState, attackers: list[Figure], targets: list[Figure]) -> float:
    """How many attacks ``attackers`` could make on ``targets`` now, weighted by what they harm."""
    total = 0.0
    ranged = ranged_units(state)
    for target in targets:
        if target.square is None or target.condition == "eliminated":
            continue
        if any(could_attack(state, a, target, ranged) for a in attackers):
            weight = 2.0 if has_advantage(state, target) else 1.0
            total += weight * ROLE_WEIGHT.get(state.unit(target.unit).role, 1.0)
    return total


def _coins(state: MatchState, side: Side) -> float:
    """Grey coins in the other side's discard are good for ``side``; in its own, bad."""
    return float(greys_in_discard(state, other_side(side)) - greys_in_discard(state, side))


__all__ = [
    "ADVANCE",
    "CONDITION_VALUE",
    "ROLE_WEIGHT",
    "WEIGHTS",
    "Judge",
    "could_attack",
    "evaluate",
    "figure_value",
    "mean_gap",
    "objective",
    "objective_squares",
    "ranged_units",
    "score",
    "search_evaluate",
    "search_score",
]
