"""The heuristic and search bots of worlds-collide: sensible choices from a seat's view.

Nothing is hidden (W20), so the view's state is the whole match but the dice.
The heuristic judges everything by one measure, what a side has on the table
(:func:`worth`): its VP, its models (each worth its presence on an objective,
its weapons, its leadership and the VP its fall would give away, the less the
more it is hurt), the AP it keeps, and how its models stand: the objectives
they hold (W19), how near they are to one, what the enemy could do to them
next and what they could do to the enemy. With it the bot:

- plans an activation's moves and attacks (:func:`plan_act`): the formation
  shifted as a whole to every square it can (so it ends connected, W13), then
  each model moved on its own where that helps and keeps it connected; each
  attack at the target where it takes most, the chance of every hit point left
  followed target by target (so no die is wasted on a model likely dead);
- activates the formation and plan that promise most for the AP
  (:func:`activation_options`), with a tactic when its odds make it worth the
  round's penalty (W11), or passes when nothing is worth an AP;
- re-rolls a failed die when what it may bring is worth the AP (W16);
- deploys each training as one group facing an objective, leaders with the
  largest (W10, W18).

The ``mcts`` bot (:class:`SearchBot`) searches the heuristic's best activations,
and its moves and attacks at several weights of the enemy's threat, with the
engine's ISMCTS: both seats then play as the heuristic does to the end of the
round, whose dice the search draws afresh each time, and :func:`evaluate`
judges where they stand. :func:`evaluate` and :func:`quick_command` are also
the ruleset's search game's evaluation and playout policy
(``ruleset.SearchGame``).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Final, NamedTuple, cast

from msgspec.structs import replace

from multiversus_core.engine.bots import GuidedGame, ShortlistBot
from multiversus_core.engine.choices import Legal, is_empty, is_tree, listed, random_command
from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.engine.grid import NEIGHBOUR_OFFSETS, distance, is_adjacent, line_of_sight
from multiversus_core.engine.ismcts import Game
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.worlds_collide import fitted, geometry, rules
from multiversus_core.rulesets.worlds_collide.choices import ActChoices, legal_commands
from multiversus_core.rulesets.worlds_collide.content import (
    RUIN,
    GameMap,
    ModelType,
    TacticEffect,
    Weapon,
)
from multiversus_core.rulesets.worlds_collide.model import (
    ROUNDS,
    Act,
    Activate,
    Activation,
    AttackWith,
    Command,
    Coord,
    Deploy,
    KeepDice,
    Model,
    MoveTo,
    Pass,
    Plan,
    Reroll,
    WorldsState,
)

PRESENCE: Final = 1.0
"""What a model on the board is worth for being there: it counts for objectives and for the
tie-break (W19)."""
OFFENSE: Final = 0.5
"""The worth of each hit point of damage a model's weapons expect to deal in an activation."""
LEADER_VP: Final = 1.0
"""The worth of a leader for the VP its fall gives the enemy (W19, W28)."""
AP_WORTH: Final = 0.3
"""What an AP is worth: an activation, or a re-roll (W8, W16)."""
HURT: Final = 0.5
"""The share of a model's worth it keeps at its last hit point: a hurt model still holds an
objective, but falls sooner."""
HOLD: Final = 1.0
"""What holding an objective at the end of the next scoring round is worth (W19)."""
LATER: Final = 0.4
"""What holding it now is worth for each scoring round after the next."""
MARGIN: Final = 0.8
"""How fast holding an objective saturates with the models more near it (``tanh``)."""
APPROACH: Final = 0.12
"""What each square a model stands further than the objective radius from the nearest
objective costs."""
THREAT: Final = 0.35
"""The weight of what the enemy could do to a model on a square in its next activation."""
CHANCE: Final = 0.25
"""The weight of the best attacks a model on a square could make in its next activation."""
COHESION: Final = 0.08
"""What a model gains for standing next to a friend it can activate with (W10)."""
WORTH_AN_AP: Final = 0.15
"""The least an activation must promise beyond its AP's worth to be made rather than pass."""
FORMATIONS: Final = 12
"""The most formations an activation decision weighs."""
PLACEMENTS: Final = 3
"""The placements of a formation whose attacks are planned in full, the best first."""


# --- odds and worth -----------------------------------------------------------------------


def odds(knack: int) -> float:
    """The chance a d6 meets a knack after modifiers (W15): an unmodified 6 always hits and a
    1 always fails."""
    return min(5, max(1, 7 - knack)) / 6


def offense(kind: ModelType) -> float:
    """The damage a model's weapons expect to deal in an activation against no defense."""
    return sum(w.attacks * odds(w.knack) * w.damage for w in kind.weapons)


def rounds_left(state: WorldsState) -> int:
    """The rounds still to start, and the one under way."""
    started = state.round if state.phase == "activations" else state.round + 1
    return max(0, ROUNDS - started + 1)


def model_worth(state: WorldsState, model: Model, hp: int | None = None) -> float:
    """What ``model`` is worth to its side with ``hp`` hit points (its own if not given): its
    presence, weapons, leadership (AP for each round left) and the VP its fall gives away;
    a hurt model less, down to :data:`HURT` of it at 1 hit point; nothing once fallen."""
    left = model.hp if hp is None else hp
    if left <= 0 or model.fallen:
        return 0.0
    kind = model.kind
    whole = PRESENCE + OFFENSE * offense(kind)
    if kind.is_leader:
        whole += LEADER_VP + AP_WORTH * kind.leadership * rounds_left(state)
    return whole * (HURT + (1 - HURT) * (left - 1) / max(1, kind.hp - 1))


def after_hit(chances: Mapping[int, float], hit: float, dealt: int) -> dict[int, float]:
    """The chances of a model's hit points after an attack that hits with chance ``hit`` for
    ``dealt`` damage (a fallen model takes no more)."""
    after: dict[int, float] = {}
    for hp, p in chances.items():
        if hp <= 0:
            after[hp] = after.get(hp, 0.0) + p
            continue
        after[hp] = after.get(hp, 0.0) + p * (1 - hit)
        left = max(0, hp - dealt)
        after[left] = after.get(left, 0.0) + p * hit
    return after


@functools.lru_cache(maxsize=8)
def _sight_memo(rows: tuple[str, ...]) -> dict[Coord, frozenset[Coord]]:
    return {}


def seen_from(game_map: GameMap, at: Coord) -> frozenset[Coord]:
    """Every square in sight of ``at`` with no sight limit (:func:`.geometry.in_sight`),
    remembered for the map (the bots ask it very often)."""
    memo = _sight_memo(game_map.rows)
    seen = memo.get(at)
    if seen is None:
        rows = game_map.rows

        def blocks(square: Coord) -> bool:
            return rows[square[1]][square[0]] == RUIN

        seen = memo[at] = frozenset(
            b for b in game_map.grid.tiles() if line_of_sight(at, b, blocks)
        )
    return seen


def sees(game_map: GameMap, a: Coord, b: Coord, limit: int | None) -> bool:
    """:func:`.geometry.in_sight`, remembered for the map."""
    if limit is not None and max(abs(a[0] - b[0]), abs(a[1] - b[1])) > limit:
        return False
    return b in seen_from(game_map, a)


# --- judging a seat's position --------------------------------------------------------------


class Judge:
    """What a seat's side has on the table and how its models stand, judged from ``state``
    (see the module). What one model's weapon takes of another with a hit is worked out once
    (without cover: the squares vary), and so is a model's standing on a square."""

    def __init__(self, state: WorldsState, seat: Seat, *, caution: float = 1.0) -> None:
        self.state = state
        self.seat = seat
        self.caution = caution
        """How much more than :data:`THREAT` the enemy's threat weighs."""
        self.friends = list(rules.on_board(state, seat))
        self.enemies = list(rules.on_board(state, rules.other(seat)))
        self.enemy_squares = frozenset(e.at for e in self.enemies if e.at is not None)
        mission = state.game_map.mission
        self.objectives = state.game_map.objectives
        self.radius = mission.objective_radius
        env = rules.effect(state)
        self.sight = env.sight
        self.knacks = {"melee": env.melee_knack, "ranged": env.ranged_knack}
        self.hold = objective_weight(state)
        self.near = _near_objectives(state.game_map)
        """The objectives within the radius of each square, by their index."""
        rivals = [0] * len(self.objectives)
        for at in self.enemy_squares:
            for index in self.near[at]:
                rivals[index] += 1
        self.rivals = tuple(rivals)
        self.kin = {
            m.id: frozenset(
                o.id
                for o in self.friends
                if o is not m and (o.kind.training == m.kind.training or o.kind.is_leader)
            )
            for m in self.friends
        }
        """The friends each model can activate with, two by two (W10)."""
        self._worth: dict[tuple[str, int], float] = {}
        self._hits: dict[tuple[str, str, str], float] = {}
        self._standing: dict[tuple[str, Coord], float] = {}
        self._strike: dict[tuple[str, Coord, TacticEffect], float] = {}
        self._aims: dict[tuple[str, str], list[tuple[float, Coord]]] = {}
        self._menace: dict[str, list[tuple[Coord, int, float, float]]] = {}
        self._rests: dict[tuple[str, ...], _Rest] = {}
        self.placements: dict[tuple[tuple[str, ...], tuple[Coord, ...]], float] = {}
        """Each placement weighed (:meth:`placement`)."""

    def worth(self, model: Model, hp: int | None = None) -> float:
        """:func:`model_worth`, remembered."""
        left = model.hp if hp is None else hp
        key = (model.id, left)
        known = self._worth.get(key)
        if known is None:
            known = self._worth[key] = model_worth(self.state, model, left)
        return known

    def hit_worth(self, attacker: Model, weapon: Weapon, target: Model) -> float:
        """What one hit of ``weapon`` takes of ``target``'s worth, out of cover."""
        key = (attacker.id, weapon.name, target.id)
        known = self._hits.get(key)
        if known is None:
            dealt = rules.damage(self.state, attacker, weapon, target, cover=False)
            known = self.worth(target) - self.worth(target, target.hp - dealt)
            self._hits[key] = known
        return known

    # --- attacks -------------------------------------------------------------------------------

    def knack(self, model: Model, weapon: Weapon, at: Coord, enemies: Iterable[Coord]) -> int:
        """The knack ``model`` on ``at`` needs with ``weapon`` (W15, W25), ``enemies`` being
        the squares of its enemies."""
        if weapon.kind == "ranged" and not _around(at).isdisjoint(enemies):
            return rules.RANGED_IN_MELEE
        return weapon.knack + self.knacks[weapon.kind]

    def can_target(self, weapon: Weapon, at: Coord, target: Coord) -> bool:
        """:func:`.rules.can_target` with the remembered sight."""
        if weapon.kind == "melee":
            return is_adjacent(at, target)
        return sees(self.state.game_map, at, target, self.sight)

    def strike(self, state: WorldsState, model: Model, at: Coord) -> float:
        """What ``model`` on ``at`` could take of the enemy now, in ``state`` (the activation
        under way, with its tactic): each weapon's attacks at the target it hurts most (the
        targets not shared out: :func:`plan_attacks` does)."""
        key = (model.id, at, rules.boon_of(state))
        known = self._strike.get(key)
        if known is None:
            known = self._strike[key] = self._attack_value(state, model, at, reach=0)
        return known

    def _attack_value(self, state: WorldsState, model: Model, at: Coord, reach: int) -> float:
        """Each weapon's attacks at the enemy it hurts most: melee ones within ``reach`` and a
        step, ranged ones in sight."""
        total = 0.0
        column, row = at
        seen = seen_from(state.game_map, at)
        for weapon in model.kind.weapons:
            knack = self.knack(model, weapon, at, () if reach else self.enemy_squares)
            melee = weapon.kind == "melee"
            far = reach + 1 if melee else self.sight
            for value, there in self._targets(model, weapon):
                if far is not None and (abs(there[0] - column) > far or abs(there[1] - row) > far):
                    continue
                if melee or there in seen:
                    total += value * odds(knack) * rules.attacks_with(state, weapon)
                    break
        return total

    def _targets(self, model: Model, weapon: Weapon) -> list[tuple[float, Coord]]:
        """What a hit of the model's weapon takes of each enemy, and where it stands, most
        first."""
        key = (model.id, weapon.name)
        known = self._aims.get(key)
        if known is None:
            known = self._aims[key] = sorted(
                ((self.hit_worth(model, weapon, e), e.at) for e in self.enemies if e.at),
                reverse=True,
            )
        return known

    def threat(self, model: Model, at: Coord) -> float:
        """What the enemy's models could take of ``model`` on ``at`` in their next activation
        (those activated this round count half: they wait for the next), at most its worth."""
        known = self._menace.get(model.id)
        if known is None:
            known = self._menace[model.id] = self._menaces(model)
        total = 0.0
        column, row = at
        seen = seen_from(self.state.game_map, at)
        sight = self.sight
        for there, reach, melee, ranged in known:
            across, down = abs(there[0] - column), abs(there[1] - row)
            gap = across if across > down else down
            if gap <= reach:
                total += melee
            if ranged and there in seen and (sight is None or gap <= sight):
                total += ranged
        return min(self.worth(model), total)

    def _menaces(self, model: Model) -> list[tuple[Coord, int, float, float]]:
        """Each enemy's square, melee reach and what its melee and ranged attacks would take
        of ``model`` in its next activation (half for those activated this round)."""
        found = []
        for enemy in self.enemies:
            assert enemy.at is not None
            share = 0.5 if enemy.activated else 1.0
            worth = {"melee": 0.0, "ranged": 0.0}
            for weapon in enemy.kind.weapons:
                hit = odds(weapon.knack + self.knacks[weapon.kind])
                worth[weapon.kind] += weapon.attacks * hit * self.hit_worth(enemy, weapon, model)
            reach = rules.move_budget(self.state, enemy, twice=False) + 1
            found.append((enemy.at, reach, share * worth["melee"], share * worth["ranged"]))
        return found

    # --- standing ------------------------------------------------------------------------------

    def standing(self, model: Model, at: Coord) -> float:
        """How well ``model`` stands on ``at``, objectives aside: near one, out of the enemy's
        reach, with targets for its next activation."""
        key = (model.id, at)
        known = self._standing.get(key)
        if known is not None:
            return known
        near = _objective_gaps(self.state.game_map)[at]
        value = -APPROACH * max(0, near - self.radius)
        if self.enemies:
            reach = rules.move_budget(self.state, model, twice=False)
            value += CHANCE * self._attack_value(self.state, model, at, reach)
            value -= THREAT * self.caution * self.threat(model, at)
        self._standing[key] = value
        return value

    def held(self, squares: Mapping[str, Coord]) -> float:
        """The seat's hold on the objectives with its models on ``squares`` (by id; the others
        where they stand), whatever holding is worth now: for each objective, from -1 (the
        enemy's) to 1 (the seat's), by how many more models stand near it (``tanh``)."""
        if not self.objectives:
            return 0.0
        counts = [0] * len(self.objectives)
        near = self.near
        for model in self.friends:
            at = squares.get(model.id, model.at)
            if at is not None:
                for index in near[at]:
                    counts[index] += 1
        return sum(
            math.tanh(MARGIN * (count - rivals))
            for count, rivals in zip(counts, self.rivals, strict=True)
        )

    def together(self, squares: Mapping[str, Coord]) -> float:
        """What the seat's models gain for standing next to friends they can activate with."""
        where: dict[Coord, str] = {}
        for model in self.friends:
            at = squares.get(model.id, model.at)
            if at is not None:
                where[at] = model.id
        value = 0.0
        for at, model_id in where.items():
            kin = self.kin[model_id]
            column, row = at
            for dc, dr in NEIGHBOUR_OFFSETS:
                if where.get((column + dc, row + dr)) in kin:
                    value += COHESION
                    break
        return value

    def placement(self, models: Sequence[Model], squares: Sequence[Coord]) -> float:
        """How well the seat stands with ``models`` moved to ``squares``: :meth:`standing`,
        :meth:`held` by what holding is worth now, and :meth:`together`, the other models'
        share worked out once, and each placement once (a plan weighs many twice: for each
        plan and tactic)."""
        ids = tuple(m.id for m in models)
        key = (ids, tuple(squares))
        known = self.placements.get(key)
        if known is not None:
            return known
        rest = self._rest(ids)
        value = sum(self.standing(m, at) for m, at in zip(models, squares, strict=True))
        if self.hold:
            counts = list(rest.counts)
            near = self.near
            for at in squares:
                for index in near[at]:
                    counts[index] += 1
            value += self.hold * sum(
                math.tanh(MARGIN * (count - rivals))
                for count, rivals in zip(counts, self.rivals, strict=True)
            )
        value += rest.together
        moved = list(zip(squares, ids, strict=True))
        for at, model_id in moved:
            kin = self.kin[model_id]
            if not rest.kin_squares[model_id].isdisjoint(_around(at)) or _beside(at, kin, moved):
                value += COHESION
        for at, model_id in rest.lonely:
            if _beside(at, self.kin[model_id], moved):
                value += COHESION
        self.placements[key] = value
        return value

    def _rest(self, ids: tuple[str, ...]) -> _Rest:
        """The share of the friends outside a formation in :meth:`placement`."""
        known = self._rests.get(ids)
        if known is not None:
            return known
        chosen = set(ids)
        where = {m.at: m.id for m in self.friends if m.id not in chosen and m.at is not None}
        counts = [0] * len(self.objectives)
        for at in where:
            for index in self.near[at]:
                counts[index] += 1
        lonely = tuple(
            (at, model_id)
            for at, model_id in where.items()
            if _around(at).isdisjoint(s for s, i in where.items() if i in self.kin[model_id])
        )
        together = COHESION * (len(where) - len(lonely))
        kin_squares = {
            model_id: frozenset(at for at, i in where.items() if i in self.kin[model_id])
            for model_id in ids
        }
        known = self._rests[ids] = _Rest(tuple(counts), lonely, together, kin_squares)
        return known


class _Rest(NamedTuple):
    """The friends outside a formation, for :meth:`Judge.placement`."""

    counts: tuple[int, ...]
    """How many stand near each objective."""
    lonely: tuple[tuple[Coord, str], ...]
    """Those with no friend beside them they can activate with."""
    together: float
    """What the others gain (:meth:`Judge.together`)."""
    kin_squares: dict[str, frozenset[Coord]]
    """The squares of those each model of the formation can activate with."""


@functools.cache
def _around(at: Coord) -> frozenset[Coord]:
    """The squares next to ``at`` (on the board or not)."""
    column, row = at
    return frozenset((column + dc, row + dr) for dc, dr in NEIGHBOUR_OFFSETS)


def _beside(at: Coord, kin: AbstractSet[str], squares: Sequence[tuple[Coord, str]]) -> bool:
    """Whether a model of ``kin`` stands next to ``at`` on one of ``squares``."""
    return any(model_id in kin and is_adjacent(at, there) for there, model_id in squares)


@functools.lru_cache(maxsize=8)
def _near_objectives(game_map: GameMap) -> dict[Coord, tuple[int, ...]]:
    radius = game_map.mission.objective_radius
    objectives = game_map.objectives
    return {
        at: tuple(i for i, o in enumerate(objectives) if distance(at, o) <= radius)
        for at in game_map.grid.tiles()
    }


@functools.lru_cache(maxsize=8)
def _objective_gaps(game_map: GameMap) -> dict[Coord, int]:
    """How far each square stands from the nearest objective (0 with none)."""
    objectives = game_map.objectives
    return {
        at: min((distance(at, o) for o in objectives), default=0) for at in game_map.grid.tiles()
    }


def objective_weight(state: WorldsState) -> float:
    """What holding an objective now is worth: :data:`HOLD` for the next scoring round,
    :data:`LATER` for each after it."""
    mission = state.game_map.mission
    now = state.round if state.phase == "activations" else state.round + 1
    ahead = [r for r in mission.scoring_rounds if r >= now]
    if not ahead:
        return 0.0
    return mission.objective_vp * (HOLD + LATER * (len(ahead) - 1))


FEATURES: Final = ("vp", "models", "ap", "standing", "holding", "together", "count")
"""The names of :func:`features`, in order."""


def features(state: WorldsState, seat: Seat) -> tuple[float, ...]:
    """What ``seat``'s side has on the table and how it stands (:data:`FEATURES`): its VP,
    its models' worth (:func:`model_worth`), the AP it keeps (at most two a model), its
    models' standing (:meth:`Judge.standing`), its hold on the objectives
    (:meth:`Judge.held`, whatever it is worth now), what its models gain for
    standing together, and how many are on the board."""
    judge = Judge(state, seat)
    side = state.sides[seat - 1]
    return (
        float(side.vp),
        sum(judge.worth(m) for m in judge.friends),
        float(min(side.ap, 2 * len(judge.friends))),
        sum(judge.standing(m, m.at) for m in judge.friends if m.at is not None),
        judge.held({}),
        judge.together({}),
        float(len(judge.friends)),
    )


def worth(state: WorldsState, seat: Seat) -> float:
    """What ``seat``'s side has on the table (see the module): VP, models, AP and how they
    stand, by the heuristic's weights."""
    vp, models, ap, standing, held, together, _ = features(state, seat)
    return vp + models + AP_WORTH * ap + standing + objective_weight(state) * held + together


def board_key(state: WorldsState, seat: Seat) -> object:
    """What a :class:`Judge` of ``seat`` reads of ``state``: two states of one key have the
    same judge (the seat's own models may have activated since, and an activation without
    a tactic's effect begun)."""
    return (
        seat,
        state.round,
        state.phase,
        state.environment,
        rules.boon_of(state),
        tuple((m.at, m.hp, m.fallen, m.activated and m.seat != seat) for m in state.models),
    )


def evaluate(state: WorldsState, seat: Seat) -> float:
    """How good ``state`` is for ``seat``, from -1 (lost) to 1 (won): the result once over,
    else the difference of the sides' :func:`worth`, squashed."""
    result = rules.outcome(state)
    if result is not None:
        return result.returns[seat - 1]
    return math.tanh((worth(state, seat) - worth(state, rules.other(seat))) / SCALE)


SCALE: Final = 15.0
""":func:`evaluate` squashes the difference of the sides' worth divided by this."""


def fitted_evaluate(state: WorldsState, seat: Seat) -> float:
    """How good ``state`` is for ``seat``, from -1 (lost) to 1 (won): the result once over,
    else the expected result, ``tanh(z / 2)``, where ``z`` weighs the difference of the
    sides' :func:`features` by the weights :mod:`.fitted` gives the end of the round under
    way (or just ended)."""
    result = rules.outcome(state)
    if result is not None:
        return result.returns[seat - 1]
    weights = fitted.WEIGHTS[min(max(state.round, 1), len(fitted.WEIGHTS)) - 1]
    mine, theirs = features(state, seat), features(state, rules.other(seat))
    z = sum(w * (a - b) for w, a, b in zip(weights, mine, theirs, strict=True))
    return math.tanh(z / 2)


# --- an activation's moves and attacks -------------------------------------------------------


def plan_attacks(
    state: WorldsState, judge: Judge, models: Sequence[Model], squares: Sequence[Coord]
) -> tuple[tuple[AttackWith, ...], float]:
    """The attacks of ``models`` from ``squares`` in ``state`` (the activation under way) and
    what they are expected to take of the enemy: each attack at the target it takes most
    from, given the chances of each target's hit points after the attacks planned before
    it."""
    chances: dict[str, dict[int, float]] = {e.id: {e.hp: 1.0} for e in judge.enemies}
    attacks: list[AttackWith] = []
    total = 0.0

    def expected(enemy: Model, hps: Mapping[int, float]) -> float:
        return sum(p * judge.worth(enemy, hp) for hp, p in hps.items())

    for model, at in zip(models, squares, strict=True):
        for weapon in model.kind.weapons:
            hit = odds(judge.knack(model, weapon, at, judge.enemy_squares))
            targets = [e for e in judge.enemies if e.at and judge.can_target(weapon, at, e.at)]
            dealt = {e.id: rules.damage(state, replace(model, at=at), weapon, e) for e in targets}
            for _ in range(rules.attacks_with(state, weapon)):
                best: tuple[float, Model | None, dict[int, float]] = (1e-9, None, {})
                for enemy in targets:
                    now = chances[enemy.id]
                    then = after_hit(now, hit, dealt[enemy.id])
                    gain = expected(enemy, now) - expected(enemy, then)
                    if gain > best[0]:
                        best = (gain, enemy, then)
                gain, target, then = best
                if target is None:
                    break
                chances[target.id] = then
                attacks.append(AttackWith(model.id, weapon.name, target.id))
                total += gain
    return tuple(attacks), total


def _translations(choices: ActChoices) -> list[tuple[Coord, ...]]:
    """The formation moved as a whole, every model by the same step, onto squares it may end
    on: it stays connected (W13)."""
    starts = [m.at for m in choices.models]
    assert all(at is not None for at in starts)
    first = starts[0]
    assert first is not None
    found = []
    for end in choices.ends[0]:
        dc, dr = end[0] - first[0], end[1] - first[1]
        moved = []
        for at, ends in zip(starts, choices.ends, strict=True):
            assert at is not None
            to = (at[0] + dc, at[1] + dr)
            if to not in ends:
                break
            moved.append(to)
        else:
            found.append(tuple(moved))
    return found


def _improved(
    judge: Judge, choices: ActChoices, squares: tuple[Coord, ...], weigh: Any
) -> tuple[Coord, ...]:
    """``squares`` with each model moved on its own to where it does better, the formation
    kept connected, one model after the other."""
    best, value = list(squares), weigh(squares)
    for index, ends in enumerate(choices.ends):
        beside = {
            (column + dc, row + dr)
            for i, (column, row) in enumerate(best)
            if i != index
            for dc, dr in NEIGHBOUR_OFFSETS
        }
        for at in ends:
            if at in best or at not in beside:
                continue  # taken, or alone: the formation would not be connected
            trial = [*best[:index], at, *best[index + 1 :]]
            if not geometry.formation_connected(trial):
                continue
            trial_value = weigh(tuple(trial))
            if trial_value > value + 1e-9:
                best, value = trial, trial_value
    return tuple(best)


def _even(at: Coord, start: Coord) -> bool:
    return (at[0] - start[0]) % 2 == 0 and (at[1] - start[1]) % 2 == 0


def plan_act(
    state: WorldsState, judge: Judge | None = None, *, quick: bool = False
) -> tuple[Act, float]:
    """The heuristic's moves and attacks for the activation under way, and what they promise
    beyond the formation staying where it is without attacking (see the module); ``judge``
    is the seat's, of this board (the activation aside), if there is one already. A
    ``quick`` plan moves a formation only as a whole and plans the attacks of the best
    placement only."""
    activation = state.activation
    assert activation is not None
    seat = activation.seat
    judge = judge if judge is not None else Judge(state, seat)
    choices = ActChoices(state)
    models = choices.models
    start = tuple(m.at for m in models if m.at is not None)
    if not models:
        return Act(seat), 0.0
    attack_first = activation.plan == "attack_move"
    striking = choices.attacking and activation.plan == "move_attack"

    weighed: dict[tuple[Coord, ...], float] = {}

    def weigh(squares: tuple[Coord, ...]) -> float:
        value = weighed.get(squares)
        if value is None:
            value = judge.placement(models, squares)
            if striking:
                value += sum(
                    judge.strike(state, m, at) for m, at in zip(models, squares, strict=True)
                )
            weighed[squares] = value
        return value

    options: list[tuple[Coord, ...]]
    if choices.moving and geometry.formation_connected(start):
        # (a formation split by a fall may only stay: its moves would have to join it again)
        if len(models) == 1:
            options = [(at,) for at in choices.ends[0]]
        else:
            options = _translations(choices) or [start]
        if quick:  # every other square of a row and column: a quarter of the moves
            options = [s for s in options if _even(s[0], start[0])] or [start]
        elif len(models) > 1:
            best = max(options, key=weigh)
            options.append(_improved(judge, choices, best, weigh))
    else:
        options = [start]
    if quick:
        ranked = [max(options, key=lambda s: (weigh(s), s))]
    else:
        ranked = sorted(set(options), key=lambda s: (-weigh(s), s))[:PLACEMENTS]
    if start not in ranked and start in options:
        ranked.append(start)
    base = judge.placement(models, start)
    best_act, best_value = Act(seat), -math.inf
    for squares in ranked:
        value = judge.placement(models, squares) - base
        attacks: tuple[AttackWith, ...] = ()
        if choices.attacking:
            where = start if attack_first else squares
            attacks, gained = plan_attacks(state, judge, models, where)
            value += gained
        if value > best_value:
            moves = tuple(
                MoveTo(m.id, at) for m, at in zip(models, squares, strict=True) if at != m.at
            )
            best_act, best_value = Act(seat, moves, attacks), value
    return best_act, best_value


# --- activating -----------------------------------------------------------------------------


def formations(state: WorldsState, seat: Seat) -> list[tuple[str, ...]]:
    """The formations the heuristic weighs (W10): each connected group of the ready models of
    one training, with the leaders next to it, and the ready models alone; largest first."""
    ready = [m for m in rules.on_board(state, seat) if not m.activated]
    found: dict[frozenset[str], tuple[str, ...]] = {}

    def add(group: Sequence[Model]) -> None:
        ids = tuple(m.id for m in group)
        if rules.formation_ok(group):
            found.setdefault(frozenset(ids), ids)

    for training in dict.fromkeys(m.kind.training for m in ready):
        same = [m for m in ready if m.kind.training == training]
        for group in _groups(same):
            add(group)
            leaders = [m for m in ready if m.kind.is_leader and m not in group]
            near = [m for m in leaders if any(_touch(m, g) for g in group)]
            if near:
                add(_group_order(ready, [*group, *near]))
    for group in _groups(ready):
        add(group)
    for model in ready:
        add([model])
    ranked = sorted(found.values(), key=lambda ids: -len(ids))
    return ranked[:FORMATIONS]


def _touch(a: Model, b: Model) -> bool:
    return a.at is not None and b.at is not None and is_adjacent(a.at, b.at)


def _group_order(order: Sequence[Model], group: Sequence[Model]) -> list[Model]:
    chosen = {m.id for m in group}
    return [m for m in order if m.id in chosen]


def _groups(models: Sequence[Model]) -> list[list[Model]]:
    """The models in groups connected by adjacency, each in the order given."""
    left = list(models)
    groups = []
    while left:
        group = [left.pop(0)]
        grown = True
        while grown:
            grown = False
            for model in list(left):
                if any(_touch(model, g) for g in group):
                    group.append(model)
                    left.remove(model)
                    grown = True
        groups.append(_group_order(models, group))
    return groups


def activating(
    state: WorldsState, seat: Seat, models: tuple[str, ...], plan: Plan, **changes: object
) -> WorldsState:
    """The state once ``models`` have activated with ``plan`` (no tactic: ``changes`` may set
    a boon or a penalty), to plan their act."""
    chosen = set(models)
    moved = tuple(replace(m, activated=True) if m.id in chosen else m for m in state.models)
    activation = Activation(seat, models, plan, acted=False, **changes)  # type: ignore[arg-type]
    return replace(state, models=moved, activation=activation)


def activation_options(
    state: WorldsState, seat: Seat, *, quick: bool = False, judge: Judge | None = None
) -> list[tuple[Activate, float]]:
    """Every activation the heuristic weighs, with what it promises beyond its AP, best first:
    each formation with each plan, and the best few with a tactic. ``quick`` ones weigh
    only the :data:`QUICK_FORMATIONS` largest formations, no tactic, with quick plans;
    ``judge`` is the seat's of this board (:func:`board_key`), if there is one already."""
    judge = judge if judge is not None else Judge(state, seat)
    scored: list[tuple[Activate, float]] = []
    found = formations(state, seat)
    for models in found[:QUICK_FORMATIONS] if quick else found:
        for plan in PLAN_ORDER:
            if plan == "attack_move" and not _strikes_now(judge, state, models):
                continue  # no better than moving first with nothing to attack
            if quick and plan == "move_twice" and _in_reach(judge, state, models):
                continue
            _, value = plan_act(activating(state, seat, models, plan), judge, quick=quick)
            scored.append((Activate(seat, models, plan), value - AP_WORTH))
    scored.sort(key=lambda pair: -pair[1])
    if quick:
        return scored
    tactics = state.sides[seat - 1].faction.tactics
    for command, value in list(scored[:TACTIC_TRIES]):
        for tactic in tactics:
            gain = tactic_gain(state, judge, command, tactic.id, value + AP_WORTH)
            scored.append((replace(command, tactic=tactic.id), value + gain))
    scored.sort(key=lambda pair: -pair[1])
    return scored


def _strikes_now(judge: Judge, state: WorldsState, models: Sequence[str]) -> bool:
    """Whether any of the models has a target from where it stands."""
    for model_id in models:
        model = state.model(model_id)
        assert model is not None and model.at is not None
        if judge.strike(state, model, model.at) > 0:
            return True
    return False


def _in_reach(judge: Judge, state: WorldsState, models: Sequence[str]) -> bool:
    """Whether an enemy stands within a move and a step of any of the models."""
    for model_id in models:
        model = state.model(model_id)
        assert model is not None and model.at is not None
        reach = rules.move_budget(state, model, twice=False) + 1
        if any(distance(model.at, at) <= reach for at in judge.enemy_squares):
            return True
    return False


PLAN_ORDER: Final[tuple[Plan, ...]] = ("move_attack", "attack_move", "move_twice")
QUICK_FORMATIONS: Final = 4
"""The formations, largest first, a quick choice of activation weighs (in a search)."""
TACTIC_TRIES: Final = 2
"""The best activations the heuristic weighs again with each tactic."""


def tactic_gain(
    state: WorldsState, judge: Judge, command: Activate, tactic_id: str, plain: float
) -> float:
    """What trying a tactic adds to an activation worth ``plain`` without one: its odds (with
    a re-roll if an AP is spare) of the activation with its effect, the rest of the round's
    penalty (W11, W16)."""
    seat = command.player
    side = state.sides[seat - 1]
    tactic = side.faction.tactic(tactic_id)
    hit = odds(tactic.knack)
    if side.ap >= 2:
        hit += (1 - hit) * hit
    boon_state = activating(state, seat, command.models, command.plan, boon=tactic.effect)
    _, boon = plan_act(boon_state, judge)
    if state.environment is None:
        return hit * (boon - plain)
    penalty = state.environment.penalty
    worse = plain
    if penalty.no_move or penalty.no_attack:
        worse_state = activating(state, seat, command.models, command.plan, penalty=penalty)
        _, worse = plan_act(worse_state, judge)
    worse -= AP_WORTH * (penalty.lose_ap + penalty.opponent_ap)
    if penalty.damage:
        for model_id in command.models:
            model = state.model(model_id)
            assert model is not None
            worse -= model_worth(state, model) - model_worth(
                state, model, model.hp - penalty.damage
            )
    rerolls = AP_WORTH * (1 - odds(tactic.knack)) if side.ap >= 2 else 0.0
    return hit * boon + (1 - hit) * worse - plain - rerolls - TACTIC_CAUTION


TACTIC_CAUTION: Final = 0.1
"""What a tactic must add beyond its expected worth to be tried: its roll is a gamble."""


def spare_ap(state: WorldsState, seat: Seat) -> int:
    """The AP a side has beyond one for each group of its models still to activate."""
    ready = [m for m in rules.on_board(state, seat) if not m.activated]
    return state.sides[seat - 1].ap - len(_groups(ready))


# --- re-rolls ---------------------------------------------------------------------------------


def reroll_worth(state: WorldsState, die: int) -> float:
    """What re-rolling a failed die of the roll under way may bring (W16): an attack die its
    odds of the hit's worth, after the hits the roll has already made (nothing if they
    kill); a tactic check's die its odds of :data:`TACTIC_REROLL`, and more than an AP's
    worth (the activation was chosen for its tactic)."""
    activation = state.activation
    assert activation is not None and activation.roll is not None
    roll = activation.roll
    hit = odds(roll.needed[die])
    if roll.target is None:
        return hit * TACTIC_REROLL + WORTH_AN_AP
    target = state.model(roll.target)
    assert target is not None
    hp = target.hp
    for index, attack in enumerate(roll.attacks):
        if roll.hits(index):
            hp -= _dealt(state, attack, target)
    if hp <= 0:
        return 0.0
    lost = model_worth(state, target, hp) - model_worth(
        state, target, hp - _dealt(state, roll.attacks[die], target)
    )
    return hit * lost


TACTIC_REROLL: Final = 2 * AP_WORTH
"""What a tactic's success is taken to be worth when its failed check may be re-rolled."""


def _dealt(state: WorldsState, attack: AttackWith, target: Model) -> int:
    """The damage an attack's hit deals ``target``."""
    attacker = state.model(attack.model)
    assert attacker is not None
    weapon = rules.weapon_of(attacker, attack.weapon)
    assert weapon is not None
    return rules.damage(state, attacker, weapon, target)


def choose_reroll(state: WorldsState, seat: Seat, legal: Sequence[Command]) -> Command:
    """The re-roll worth most beyond its AP, or keep the dice."""
    cost = AP_WORTH if spare_ap(state, seat) > 0 else 2 * AP_WORTH
    best: Command = KeepDice(seat)
    best_value = 0.0
    for command in legal:
        if isinstance(command, Reroll):
            value = reroll_worth(state, command.die) - cost
            if value > best_value:
                best, best_value = command, value
    return best


# --- deployment -----------------------------------------------------------------------------


def deploy_command(state: WorldsState, seat: Seat) -> Deploy:
    """The next model to place and where (W18): the side's models in faction order, each
    training as one group before an objective (the largest group before the one nearest the
    middle), leaders with the largest group; each on the front row where it can."""
    waiting = [m for m in state.models if m.seat == seat and m.at is None]
    model = waiting[0]
    zone = rules.deploy_zone(state, seat)
    lanes = _lanes(state, seat)
    lane = lanes.get(model.kind.training, lanes.get("", 0))
    rows = sorted({at[1] for at in zone})
    middle = state.game_map.height / 2
    front = min(rows, key=lambda r: abs(r - middle))
    placed = [m for m in state.models if m.seat == seat and m.at is not None]

    def score(at: Coord) -> float:
        value = -abs(at[0] - lane) - 1.5 * abs(at[1] - front)
        for friend in placed:
            assert friend.at is not None
            if is_adjacent(friend.at, at) and (
                friend.kind.training == model.kind.training or model.kind.is_leader
            ):
                value += 3.0
        return value

    return Deploy(seat, model.id, max(zone, key=lambda at: (score(at), -at[0])))


def _lanes(state: WorldsState, seat: Seat) -> dict[str, int]:
    """The column each training deploys before: the largest group before the objective nearest
    the middle, the next ones before the others; "" the largest's (for leaders alone)."""
    sizes: dict[str, int] = {}
    for model in state.models:
        if model.seat == seat and not (model.kind.is_leader and model.kind.training not in sizes):
            sizes[model.kind.training] = sizes.get(model.kind.training, 0) + 1
    middle = state.game_map.width // 2
    columns = sorted({o[0] for o in state.game_map.objectives}, key=lambda c: abs(c - middle))
    columns = columns or [middle]
    ranked = sorted(sizes, key=lambda t: -sizes[t])
    lanes = {t: columns[i % len(columns)] for i, t in enumerate(ranked)}
    lanes[""] = columns[0]
    return lanes


# --- the bots -------------------------------------------------------------------------------


def heuristic_command(
    state: WorldsState, seat: Seat, legal: Legal, judge: Judge | None = None
) -> Command:
    """The heuristic's command for ``seat`` (see the module); ``judge`` is the seat's of this
    board (:func:`board_key`), if there is one already."""
    if state.phase == "deploy":
        return deploy_command(state, seat)
    activation = state.activation
    if state.phase == "activations" and activation is None:
        options = activation_options(state, seat, judge=judge)
        if options and options[0][1] > WORTH_AN_AP:
            return options[0][0]
        return Pass(seat)
    if activation is not None and activation.roll is None and not activation.acted:
        return plan_act(state, judge)[0]
    commands: Sequence[Command] = listed(legal, 64) or ()
    if activation is not None and activation.roll is not None:
        return choose_reroll(state, seat, commands)
    return commands[0]


class HeuristicBot:
    """worlds-collide's heuristic player: judges the commands from the view (see the module)."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: object, legal: Legal) -> Command:
        """Return the command the heuristic rates best; from a tree of choices, a command it
        holds (should the heuristic's not be, one walked at random).

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if is_empty(legal):
            raise IllegalCommandError("there is no legal command to choose from")
        if not is_tree(legal) and len(cast(Sequence[Command], legal)) == 1:
            return cast(Sequence[Command], legal)[0]
        state: WorldsState = view.state  # type: ignore[attr-defined]
        seat = _seat(state)
        if seat is None:
            raise IllegalCommandError("there is no legal command to choose from")
        command = heuristic_command(state, seat, legal)
        if command in legal:
            return command
        return cast(Command, random_command(legal, self._random))  # should the heuristic miss

    def __repr__(self) -> str:
        return "HeuristicBot(...)"


def legal_or_any(command: Command, legal: Legal) -> Command:
    """``command`` if ``legal`` holds it, else one walked from ``legal`` with a fixed seed
    (a heuristic that missed must not stop a search)."""
    if command in legal:
        return command
    return cast(Command, random_command(legal, random.Random(0)))


def _seat(state: WorldsState) -> Seat | None:
    return next(iter(rules.to_act(state)), None)


# --- search -----------------------------------------------------------------------------------


def quick_command(state: WorldsState, seat: Seat, legal: Legal) -> Command:
    """The heuristic's command made cheap, for a search's playouts: quick activations and
    plans (:func:`activation_options`, :func:`plan_act`), the same re-rolls and deployment."""
    activation = state.activation
    if state.phase == "activations" and activation is None:
        options = activation_options(state, seat, quick=True)
        if options and options[0][1] > WORTH_AN_AP:
            return options[0][0]
        return Pass(seat)
    if activation is not None and activation.roll is None and not activation.acted:
        return plan_act(state, quick=True)[0]
    return heuristic_command(state, seat, legal)


class _Guided(GuidedGame):
    """The search game with both seats acting as the heuristic would: the search judges an
    activation by the moves and attacks the bot will make, and by the heuristic opponent's
    answer; every command is remembered in ``known`` (a search meets a position many times,
    and the next decision some of them again). The dice are drawn from ``seeds`` in turn
    (:meth:`determinize`)."""

    def __init__(
        self,
        game: Game[WorldsState, Any, Command, Seat],
        known: dict[object, tuple[Command, ...]],
        seeds: Sequence[int],
        width: int,
    ) -> None:
        super().__init__(game)
        self._known = known
        self._judges: dict[object, Judge] = {}
        self._seeds = seeds
        self._width = width
        self._drawn = 0

    def determinize(self, view: Any, rng: random.Random) -> WorldsState:
        """The view with the chance of the next of ``seeds``, each in turn for ``width``
        iterations: the candidates, tried about once each in turn, mostly meet the same dice
        (the dice follow from the seed and the draws made), so that they are compared on
        equal luck."""
        seed = self._seeds[(self._drawn // self._width) % len(self._seeds)]
        self._drawn += 1
        return cast(WorldsState, self.game.determinize(view, random.Random(seed)))

    def is_horizon(self, start: WorldsState, state: WorldsState) -> bool:
        """True once the match is over or the round has ended (when the objectives score)."""
        if state.phase == "over" or (state.phase == "round" and state.round >= start.round):
            return True
        return self.game.is_horizon(start, state) if start.phase != "activations" else False

    def legal(self, state: WorldsState, player: Seat) -> Sequence[Command]:
        key = (
            player,
            state.round,
            state.environment,
            state.phase,
            state.activation,
            state.active,
            tuple((side.ap, side.out) for side in state.sides),
            tuple((m.at, m.hp, m.fallen, m.activated) for m in state.models),
        )
        known = self._known.get(key)
        if known is None:
            legal = legal_commands(state, player)
            if is_tree(legal) or len(cast(Sequence[Command], legal)) > 1:
                activation = state.activation
                planning = state.phase == "activations" and (
                    activation is None or (activation.roll is None and not activation.acted)
                )
                judge = self._judge(state, player) if planning else None
                command = heuristic_command(state, player, legal, judge)
                known = (legal_or_any(command, legal),)
            else:
                known = tuple(cast(Sequence[Command], legal))
            self._known[key] = known
        return known

    def iterations_run(self) -> int:
        """The iterations the search has run (each draws its dice once)."""
        return self._drawn

    def judged(self) -> float:
        """The placements the search's judges have weighed: its work, nearly all of it."""
        return float(sum(len(judge.placements) for judge in self._judges.values()))

    def _judge(self, state: WorldsState, seat: Seat) -> Judge:
        """The seat's judge of the board: one for each board the search meets (an activation
        is judged as the one before it)."""
        key = board_key(state, seat)
        judge = self._judges.get(key)
        if judge is None:
            judge = self._judges[key] = Judge(state, seat)
        return judge


DEFAULT_ITERATIONS: Final = 60
"""The ``mcts`` bot's iterations a decision."""
SHORTLIST: Final = 5
"""The activations a ``mcts`` bot of the default budget searches (passing besides)."""
MOST_SHORTLIST: Final = 10
"""The most activations a larger budget searches
(:func:`~multiversus_core.engine.bots.grown_shortlist`: seven at twice the default budget,
ten at four times it)."""
WORK: Final = 250
"""The placements a ``mcts`` bot's search may weigh for each iteration of its budget
(:attr:`~multiversus_core.engine.bots.ShortlistBot.work_per_iteration`): 15,000 at the
default budget, about 1.5 s on two cores; the few decisions of large formations that
would weigh more search fewer iterations."""
MEMORY: Final = 20_000
"""The most positions whose heuristic commands a ``mcts`` bot remembers from one decision
to the next."""
CAUTIONS: Final = (1.0, 0.3, 2.5, 5.0)
"""How much the enemy's threat weighs in the moves and attacks the ``mcts`` bot searches,
as a share of the heuristic's weight (:class:`Judge`)."""


class SearchBot(ShortlistBot):
    """worlds-collide's ``mcts`` bot: information-set MCTS
    (:mod:`~multiversus_core.engine.ismcts`) over the search game, for the choice of which
    formation activates, how, and with which tactic.

    It searches the activations the heuristic rates best, and passing; the
    moves and attacks of its own activations are the heuristic's, in the
    search as in play, and so are deployment and re-rolls.
    """

    default_iterations = DEFAULT_ITERATIONS
    default_shortlist = SHORTLIST
    most_shortlist = MOST_SHORTLIST
    work_per_iteration = WORK

    def heuristic(self, seed: int) -> HeuristicBot:
        """worlds-collide's heuristic bot."""
        return HeuristicBot(seed)

    def shortlist(self, view: Any, legal: Legal) -> Sequence[Command] | None:
        """The heuristic's best activations and passing; its moves and attacks for the
        activation under way with the enemy's threat weighed less and more
        (:data:`CAUTIONS`); None elsewhere."""
        state: WorldsState = view.state
        seat = _seat(state)
        if seat is None or state.phase != "activations":
            return None
        activation = state.activation
        if activation is None:
            options = activation_options(state, seat)
            found: list[Command] = [c for c, _ in options[: self.shortlist_size] if c in legal]
            return [*found, Pass(seat)]
        if activation.roll is not None or activation.acted:
            return None
        acts: dict[Act, None] = {}
        for caution in CAUTIONS:
            act, _ = plan_act(state, Judge(state, seat, caution=caution))
            if act in legal:
                acts.setdefault(act)
        return list(acts) or None

    def guided(self, view: Any, candidates: Sequence[Command]) -> _Guided:
        """The search game, both seats playing as the heuristic would."""
        if len(self.memory) > MEMORY:
            self.memory.clear()
        seeds = [self._random.getrandbits(64) for _ in range(self.iterations)]
        return _Guided(self._game, self.memory, seeds, len(candidates))

    def work_done(self, game: Game[Any, Any, Any, Any]) -> Callable[[], float] | None:
        """The placements the search has weighed (:meth:`_Guided.judged`)."""
        return cast(_Guided, game).judged


__all__ = [
    "DEFAULT_ITERATIONS",
    "FEATURES",
    "MOST_SHORTLIST",
    "SHORTLIST",
    "WORK",
    "HeuristicBot",
    "Judge",
    "SearchBot",
    "activation_options",
    "board_key",
    "deploy_command",
    "evaluate",
    "features",
    "fitted_evaluate",
    "formations",
    "model_worth",
    "odds",
    "plan_act",
    "plan_attacks",
    "quick_command",
    "worth",
]
