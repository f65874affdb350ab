"""worlds-collide geometry: steps and their cost, sight, cover and formations on a map.

Rulings W1-W4, W10, W13, W31, W32, W35, W37 and W38. Everything here is a pure
function of a :class:`~.content.GameMap` and the squares models stand on,
passed as plain data by the rules; the square grid, its corner rule and its
line of sight are :mod:`multiversus_core.engine.grid`'s, shared with tiles-d6.

Fallen tokens are markers (W4, W32): they block neither steps, sight nor
cover, and may be crossed and ended on, so no function here asks about them.
Levels change what a step costs (W2), never what a model sees or what gives
it cover (W3, W31 name squares, not heights).
"""

from __future__ import annotations

import collections
import functools
import itertools
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import Final

from multiversus_core.engine.grid import (
    NEIGHBOUR_OFFSETS,
    Coord,
    Grid,
    connected,
    corner_closed,
    crossed,
    distance,
    line_of_sight,
    reach,
)
from multiversus_core.rulesets.worlds_collide.content import LOW_WALL, RUIN, GameMap

STEP: Final = 1
"""What a step to one of the 8 neighbours costs (W2)."""
CLIMB: Final = 2
"""What a step costs on top of :data:`STEP` when it changes level, up or down (W2)."""


@functools.lru_cache(maxsize=32)
def _squares_of(rows: tuple[str, ...], kind: str) -> frozenset[Coord]:
    return frozenset(
        (column, row)
        for row, line in enumerate(rows)
        for column, at in enumerate(line)
        if at == kind
    )


def _as_set(squares: Iterable[Coord]) -> AbstractSet[Coord]:
    return squares if isinstance(squares, AbstractSet) else frozenset(squares)


def _stepper(
    rows: tuple[str, ...], enemies: AbstractSet[Coord], through_enemies: bool
) -> Callable[[Coord, Coord], int | None]:
    ruins = _squares_of(rows, RUIN)
    width, height = (len(rows[0]) if rows else 0), len(rows)
    closes = ruins.__contains__

    def cost(a: Coord, b: Coord) -> int | None:
        (c0, r0), (c1, r1) = a, b
        if not (0 <= c0 < width and 0 <= r0 < height and 0 <= c1 < width and 0 <= r1 < height):
            return None
        if max(abs(c1 - c0), abs(r1 - r0)) != 1:
            return None
        if not through_enemies and b in enemies:
            return None
        if corner_closed(a, b, closes):
            return None
        return STEP + CLIMB if (a in ruins) != (b in ruins) else STEP

    return cost


def step_cost(
    game_map: GameMap,
    a: Coord,
    b: Coord,
    *,
    enemies: Iterable[Coord],
    through_enemies: bool = False,
) -> int | None:
    """What one step from ``a`` to its neighbour ``b`` costs, or None if it cannot be taken.

    W2: a step to one of the 8 neighbours costs :data:`STEP`, plus :data:`CLIMB`
    when it changes level (ground or low wall to ruin, or back); a model may
    pass through friends, never through ``enemies`` (the squares enemy models
    stand on) unless ``through_enemies`` (the Glamour tactic, W24). W37: a
    diagonal step is barred only when both orthogonal squares beside it are
    ruins; models never bar it. A step off the map, or to a square that is not
    a neighbour, is None. Whether the step may *end* on ``b`` is :func:`ends`'.
    """
    return _stepper(game_map.rows, _as_set(enemies), through_enemies)(a, b)


def moves(
    game_map: GameMap,
    start: Coord,
    budget: int,
    *,
    enemies: Iterable[Coord],
    through_enemies: bool = False,
) -> Mapping[Coord, int]:
    """Every square a model on ``start`` can reach with ``budget`` movement, with its least cost.

    Steps cost what :func:`step_cost` says (W2, W37); ``start`` costs 0. The
    squares include those of friends and, with ``through_enemies``, of enemies,
    which a model may cross but not end on: pass the result to :func:`ends`.
    The answer is remembered (a search asks the same many times) and read-only.
    """
    blocking = frozenset(()) if through_enemies else frozenset(enemies)
    return _moves(game_map.rows, start, budget, blocking)


@functools.lru_cache(maxsize=4096)
def _moves(
    rows: tuple[str, ...], start: Coord, budget: int, enemies: frozenset[Coord]
) -> Mapping[Coord, int]:
    stepper = _stepper(rows, enemies, through_enemies=False)
    grid = Grid(len(rows[0]) if rows else 0, len(rows))
    return MappingProxyType(reach(grid, start, budget, stepper))


def ends(costs: Iterable[Coord], occupied: Iterable[Coord]) -> tuple[Coord, ...]:
    """The squares of ``costs`` a move may end on, in reading order (by row, then column).

    W2: a model ends on an empty square: ``occupied`` holds the squares of every
    other model on the board, friend or enemy (not the mover's own, which it may
    stay on; not fallen tokens, which a model may end on, W32).
    """
    taken = _as_set(occupied)
    return tuple(sorted((at for at in costs if at not in taken), key=_reading))


def _reading(at: Coord) -> tuple[int, int]:
    return (at[1], at[0])


def in_sight(game_map: GameMap, a: Coord, b: Coord, limit: int | None = None) -> bool:
    """True if a model on ``a`` sees a model on ``b`` (W3, W38).

    Sight runs centre to centre and is blocked by any ruin strictly between
    the two, and at a corner only when both squares there are ruins (the line
    of sight of :func:`~multiversus_core.engine.grid.line_of_sight`). Models
    never block sight: they give cover instead (W4, :func:`obscured`). An
    environment's sight ``limit`` N lets a model see up to distance N,
    inclusive (W38). Symmetric; a square sees itself.

    :raises IndexError: if ``a`` or ``b`` is not on the map.
    """
    grid = game_map.grid
    for at in (a, b):
        if not grid.contains(at):
            raise IndexError(f"{at} is not on the {game_map.width}x{game_map.height} map")
    if limit is not None and distance(a, b) > limit:
        return False
    return line_of_sight(a, b, _squares_of(game_map.rows, RUIN).__contains__)


def obscured(game_map: GameMap, a: Coord, b: Coord, models: Iterable[Coord]) -> bool:
    """True if a model on ``b`` is partially obscured from an attacker on ``a``: it has cover.

    W4, W31: a low wall, or a square holding any other model (``models``: the
    squares of every model but the two, of either side), strictly between the
    two and whose interior the centre-to-centre line crosses (a corner graze
    does not count); and the target's own low-wall square, never the
    attacker's. Say nothing of sight: ask :func:`in_sight` first.
    """
    line = crossed(a, b)
    if not line:
        return False
    walls = _squares_of(game_map.rows, LOW_WALL)
    if line[-1] in walls:
        return True
    others = _as_set(models)
    return any(at in walls or at in others for at in line[:-1])


def formation_connected(squares: Iterable[Coord]) -> bool:
    """True if the squares of a formation's models form one group by adjacency (W10, W13, W35).

    No model or one is a formation of its own: True.
    """
    return connected(squares)


# --- building a formation's move one model at a time --------------------------------------


def can_complete(placed: AbstractSet[Coord], remaining: Sequence[AbstractSet[Coord]]) -> bool:
    """True if the models still to move can end so that the formation is one group (W13, W35).

    ``placed`` holds the squares the formation's models already moved have
    chosen to end on; ``remaining`` the squares each model still to move could
    end on. True if each of those can take a square of its own set, none of
    them shared and none in ``placed``, so that ``placed`` and the squares taken
    are one connected group. Exact: it never refuses a move that can be
    completed, so a move built by asking it before each choice has no dead end.

    A search that grows the group from one square, square by square, each step
    to a neighbour of the group, with a plan (a matching of models to squares)
    that must stay possible; a square once refused is never tried again in
    that branch, so each group is considered once. Fast in the open (under a
    millisecond for 10 models, see ``benchmarks/wc_geometry.py``); the worst case
    is exponential: placed squares spread so far that the rest only just can, or
    only just cannot, join them may take a few hundred milliseconds.
    """
    fixed = frozenset(placed)
    options = [frozenset(squares) - fixed for squares in remaining]
    if not options:
        return connected(fixed)
    if not all(options):
        return False
    everything = set(fixed).union(*options)
    for group in _groups(everything):
        if fixed and not fixed <= group:
            continue
        within = [squares & group for squares in options]
        if all(within) and _Completion(fixed, within).solve():
            return True
    return False


def _groups(squares: set[Coord]) -> list[frozenset[Coord]]:
    """The groups the squares make by adjacency, each found from its first square in reading
    order."""
    rest = set(squares)
    found = []
    for start in sorted(squares, key=_reading):
        if start not in rest:
            continue
        rest.discard(start)
        group = {start}
        stack = [start]
        while stack:
            column, row = stack.pop()
            for dc, dr in NEIGHBOUR_OFFSETS:
                near = (column + dc, row + dr)
                if near in rest:
                    rest.discard(near)
                    group.add(near)
                    stack.append(near)
        found.append(frozenset(group))
    return found


class _Completion:
    """The search of :func:`can_complete` over one group of squares.

    A node holds the parts grown so far (the placed squares and the squares
    taken, grouped by adjacency) and a plan: every model matched to a square of
    its own, every taken square among them. It takes or refuses one square
    beside a part, the part with the fewest squares beside it first; a refused
    square stays refused below it, so no set of squares is considered twice.
    Taking or refusing any one square splits the answers in two, so the search
    misses none. Bounds: a square still to take lies within the number of
    squares still to take of a part; the parts must be joinable by them
    (:meth:`_bridges`, and at the start :func:`_joinable`).
    """

    def __init__(self, fixed: frozenset[Coord], options: list[frozenset[Coord]]) -> None:
        self.fixed = fixed
        self.count = len(options)
        self.options = [sorted(squares, key=_reading) for squares in options]
        self.owners: dict[Coord, list[int]] = {}
        for model, squares in enumerate(self.options):
            for at in squares:
                self.owners.setdefault(at, []).append(model)
        self.refused: set[Coord] = set()

    def solve(self) -> bool:
        plan: list[Coord | None] = [None] * self.count
        if self.fixed:
            parts = _groups(set(self.fixed))
            if len(parts) > 1 and not _joinable(parts, self.owners, self.count):
                return False
            return self._grow(parts, frozenset(), plan)
        # Some square of the most constrained model is in any answer: start from each in turn.
        for root in min(self.options, key=len):
            if self._grow([frozenset({root})], frozenset({root}), plan):
                return True
            self.refused.add(root)
        return False

    def _grow(
        self, parts: list[frozenset[Coord]], taken: frozenset[Coord], plan: list[Coord | None]
    ) -> bool:
        refused_here: list[Coord] = []
        try:
            while True:
                left = self.count - len(taken)
                reached = self._bridges(parts, left) if len(parts) > 1 else None
                if reached == {}:
                    return False
                plan = self._plan(parts, taken, left, reached, plan)
                if not plan:
                    return False
                if not left:
                    return len(parts) == 1
                frontiers = [self._frontier(part) for part in parts]
                if not all(frontiers):
                    return False
                if len(parts) > 1:
                    # Fail first: grow the part fewest models can stand beside towards the others.
                    index = min(range(len(parts)), key=lambda i: self._choices(frontiers[i]))
                    targets = [at for i, part in enumerate(parts) if i != index for at in part]
                else:
                    index = 0
                    targets = [at for at in plan if at is not None and at not in taken]
                choice = min(
                    frontiers[index],
                    key=lambda at: (min(distance(at, t) for t in targets), at[1], at[0]),
                )
                joined = {choice}
                split = []
                for part in parts:
                    if any(distance(choice, at) == 1 for at in part):
                        joined.update(part)
                    else:
                        split.append(part)
                split.append(frozenset(joined))
                if self._grow(split, taken | {choice}, plan):
                    return True
                self.refused.add(choice)
                refused_here.append(choice)
        finally:
            self.refused.difference_update(refused_here)

    def _choices(self, frontier: list[Coord]) -> tuple[int, int]:
        owners = self.owners
        models = {model for at in frontier for model in owners[at]}
        return (len(models), len(frontier))

    def _frontier(self, part: frozenset[Coord]) -> list[Coord]:
        owners, refused = self.owners, self.refused
        found = set()
        for column, row in part:
            for dc, dr in NEIGHBOUR_OFFSETS:
                near = (column + dc, row + dr)
                if near in owners and near not in part and near not in refused:
                    found.add(near)
        return list(found)

    def _bridges(self, parts: list[frozenset[Coord]], left: int) -> dict[Coord, int]:
        """How many squares still to take a square is from the nearest part, for every
        square within ``left`` of one; empty if the parts surely cannot be joined.

        The paths run over squares a model could still take. A part ``g`` squares
        from the nearest other part needs ``g`` squares still to take between
        them, the nearest ``g // 2`` of them closer to it than to any other part:
        those are its own, and all must fit in ``left``.
        """
        owners, refused = self.owners, self.refused
        label: dict[Coord, int] = {}
        reached: dict[Coord, int] = {}
        layer: list[Coord] = []
        for index, part in enumerate(parts):
            for at in part:
                label[at] = index
                reached[at] = 0
                layer.append(at)
        gaps = [left + 1] * len(parts)
        depth = 0
        while layer:
            deeper: list[Coord] = []
            for at in layer:
                index, far = label[at], reached[at]
                column, row = at
                for dc, dr in NEIGHBOUR_OFFSETS:
                    near = (column + dc, row + dr)
                    other = label.get(near)
                    if other is None:
                        if depth < left and near in owners and near not in refused:
                            label[near] = index
                            reached[near] = depth + 1
                            deeper.append(near)
                    elif other != index:
                        gap = far + reached[near]
                        gaps[index] = min(gaps[index], gap)
                        gaps[other] = min(gaps[other], gap)
            layer = deeper
            depth += 1
        if max(gaps) > left or sum(gap // 2 for gap in gaps) > left:
            return {}
        return reached

    def _plan(
        self,
        parts: list[frozenset[Coord]],
        taken: frozenset[Coord],
        left: int,
        reached: dict[Coord, int] | None,
        previous: list[Coord | None],
    ) -> list[Coord | None]:
        """A matching of every model to a square it could still end on, every taken square
        held; empty if there is none.

        A square not yet taken joins a part through other squares still to take: it
        lies within ``left`` of one (``reached``, see :meth:`_bridges`; with one part,
        by distance).
        """
        refused, fixed = self.refused, self.fixed
        anchors = parts[0]
        near: dict[Coord, bool] = {}

        def usable(at: Coord) -> bool:
            if at in taken:
                return True
            if at in refused or at in fixed:
                return False
            if reached is not None:
                return reached.get(at, 0) > 0
            if at in anchors:
                return False
            known = near.get(at)
            if known is None:
                column, row = at
                known = near[at] = any(
                    abs(column - c) <= left and abs(row - r) <= left for c, r in anchors
                )
            return known

        plan = [at if at is not None and usable(at) else None for at in previous]
        holder = {at: model for model, at in enumerate(plan) if at is not None}
        owners = self.owners

        def claim(at: Coord, seen: set[int]) -> bool:
            # Give the taken square ``at`` a model, keeping every other taken square held.
            for model in owners[at]:
                if model in seen:
                    continue
                seen.add(model)
                held = plan[model]
                if held is None or held not in taken or claim(held, seen):
                    if held is not None and holder.get(held) == model:
                        del holder[held]
                    plan[model] = at
                    holder[at] = model
                    return True
            return False

        def place(model: int, seen: set[Coord]) -> bool:
            for at in self.options[model]:
                if at in seen or not usable(at):
                    continue
                seen.add(at)
                other = holder.get(at)
                if other is None or place(other, seen):
                    plan[model] = at
                    holder[at] = model
                    return True
            return False

        for at in taken:
            if at not in holder and not claim(at, set()):
                return []
        for model in range(self.count):
            if plan[model] is None and not place(model, set()):
                return []
        return plan


def _joinable(parts: list[frozenset[Coord]], free: Container[Coord], left: int) -> bool:
    """False if ``left`` squares of ``free`` surely cannot join the parts into one group.

    The fewest squares joining two parts (a shortest path) or three (three
    shortest paths from one square) are counted exactly; joining them all takes
    at least as many. Paths may cross other parts for nothing.
    """
    fixed = frozenset().union(*parts)
    costs = [_costs_from(part, free, fixed, left) for part in parts]
    none = left + 1
    for i, j in itertools.combinations(range(len(parts)), 2):
        if min(costs[i].get(at, none) for at in parts[j]) > left:
            return False
    for i, j, k in itertools.combinations(range(len(parts)), 3):
        first, second, third = costs[i], costs[j], costs[k]
        least = none
        for at, cost in first.items():
            if at in second and at in third:
                total = cost + second[at] + third[at] - (0 if at in fixed else 2)
                least = min(least, total)
        if least > left:
            return False
    return True


def _costs_from(
    part: frozenset[Coord], free: Container[Coord], fixed: frozenset[Coord], left: int
) -> dict[Coord, int]:
    """How many squares of ``free`` a path from the part to each square crosses, that square
    included; squares of ``fixed`` cost nothing. Only costs up to ``left``."""
    costs = dict.fromkeys(part, 0)
    queue = collections.deque(part)
    while queue:
        at = queue.popleft()
        cost = costs[at]
        column, row = at
        for dc, dr in NEIGHBOUR_OFFSETS:
            near = (column + dc, row + dr)
            if near in fixed:
                step = 0
            elif near in free:
                step = 1
            else:
                continue
            total = cost + step
            if total > left or costs.get(near, total + 1) <= total:
                continue
            costs[near] = total
            if step:
                queue.append(near)
            else:
                queue.appendleft(near)
    return costs
