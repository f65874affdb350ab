"""The heuristic bot of tiles-d6: quick, sensible choices from a seat's view.

Nothing is hidden (T28), so the view's state is the whole match but the
dice. The bot weighs each legal command by what it expects of it, with the
odds and modifiers of :mod:`.rules` itself:

- an Attack or a Fire by the chance to hit times the harm it does (an injury
  above all, damage the more the target is already hurt, a knockdown, a stun
  or a concussion), less the chance of a backfire times the harm it takes;
- a Move or a Charge by the best tile its points reach (one path search per
  decision, so each step follows the best plan from where the unit stands):
  the Charge's attack from there, then the tile itself: near the enemy for a
  melee unit, in sight of a good shot for a shooter, and for both the threat
  the enemy's next turn poses there (shots in sight, charges in reach), the
  chance of falling on the way (withdraw, brambles), and lying prone;
- deployment: melee units forward, shooters behind, both near the middle.

A command is only chosen if it promises more than doing nothing; ties are
broken by the bot's own seeded random source.

The ``mcts`` bot (:class:`SearchBot`) searches the heuristic's shortlist with
the engine's ISMCTS; :func:`heuristic_command` and :func:`evaluate` are the
search game's playout policy and evaluation (``ruleset.SearchGame``).
"""

from __future__ import annotations

import functools
import heapq
import math
import random
from collections.abc import Sequence
from typing import Any, Final

from msgspec.structs import replace

from multiversus_core.engine.bots import check_budget, grown_shortlist
from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.engine.grid import centre_tiles, distance, neighbours
from multiversus_core.engine.ismcts import Game, search
from multiversus_core.engine.open_game import with_fresh_seed
from multiversus_core.rulesets.tiles_d6 import fitted, rules
from multiversus_core.rulesets.tiles_d6.model import (
    ROUNDS,
    Attack,
    Command,
    Coord,
    EndAction,
    EndTurn,
    Fire,
    Place,
    StandUp,
    StartCharge,
    StartMove,
    StepTo,
    TilesState,
    Unit,
)

INJURY: Final = 10.0
"""The worth of injuring a unit: injuries decide the match (T3)."""
DAMAGE: Final = 0.5 * INJURY
"""Damage short of an injury is worth this share of the health it takes of what is left."""
EFFECTS: Final = {"": 0.0, "down": 0.5, "stun": 1.5, "concussion": 2.5}
"""The worth of what a melee hit does besides damage (T24, T16)."""
PRONE: Final = 1.0
"""What lying prone at the end of a move costs (standing takes a point; no Fire, no Attack)."""
THREAT: Final = 0.6
"""The weight of what the enemy could do to a unit on a tile in its next turn."""
CHANCE: Final = 0.4
"""The weight of the best attack a unit on a tile could make in its own next turn."""
APPROACH: Final = 0.3
"""What each tile nearer the nearest enemy is worth to a melee unit."""
CHARGE_COST: Final = 0.05
"""A Charge is a Move with a point fewer: chosen only for its attack."""
WORTH_DOING: Final = 0.05
"""The least a command must promise to be chosen over ending the action or the turn."""


class HeuristicBot:
    """tiles-d6's heuristic player: judges each legal command from the view (see the module)."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: object, legal: Sequence[Command]) -> Command:
        """Return the legal command that promises most (ties broken at random).

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if not legal:
            raise IllegalCommandError("there is no legal command to choose from")
        if len(legal) == 1:
            return legal[0]
        state: TilesState = view.state  # type: ignore[attr-defined]
        return self._random.choice(_best_commands(state, legal))

    def __repr__(self) -> str:
        return "HeuristicBot(...)"


def score_commands(state: TilesState, legal: Sequence[Command]) -> list[float]:
    """How much each of ``legal`` promises to the seat giving them, in ``state``."""
    if state.phase == "deploy":
        return [_deploy_score(state, c) if isinstance(c, Place) else 0.0 for c in legal]
    if state.phase != "play":
        return [0.0] * len(legal)
    moving = _moving_scores(state, legal)
    if moving and max(moving.values()) > WORTH_DOING:
        return [moving.get(id(c), -1.0) for c in legal]
    plans: dict[str, dict[str, float]] = {}
    scores = []
    for command in legal:
        match command:
            case Attack(unit=unit_id, target=target_id) if id(command) not in moving:
                attacker, target = _unit(state, unit_id), _unit(state, target_id)
                scores.append(melee_value(state, attacker, target, charge=False))
            case Fire(unit=unit_id, target=target_id):
                scores.append(fire_value(state, _unit(state, unit_id), _unit(state, target_id)))
            case StartMove(unit=unit_id) | StartCharge(unit=unit_id):
                if unit_id not in plans:
                    plans[unit_id] = _start_plans(state, _unit(state, unit_id))
                kind = "charge" if isinstance(command, StartCharge) else "move"
                scores.append(plans[unit_id][kind])
            case EndTurn():
                scores.append(WORTH_DOING)
            case _:
                scores.append(moving.get(id(command), 0.0))
    return scores


# --- what things are worth ------------------------------------------------------------------


def is_shooter(unit: Unit) -> bool:
    """Whether the unit can Fire at all (T26)."""
    return unit.stats.ranged > 0 and unit.stats.power > 0


def harm(struck: Unit, damage: int, effect: rules.Effect = "") -> float:
    """The worth of a hit on ``struck``: an injury, or damage (the more, the more it is hurt
    already) and what the hit does besides."""
    if damage >= struck.health:
        return INJURY
    if effect == "down" and struck.prone:
        return DAMAGE * damage / struck.health
    return DAMAGE * damage / struck.health + EFFECTS[effect]


def melee_value(state: TilesState, attacker: Unit, defender: Unit, *, charge: bool) -> float:
    """What ``attacker``'s side expects of its melee attack on ``defender`` (T22-T25)."""
    modifier = rules.melee_modifier(state, attacker, defender, charge=charge)
    hit, backfire = _melee_chances(modifier)
    gain = harm(
        defender, rules.melee_damage(attacker, defender), rules.melee_effect(attacker, defender)
    )
    loss = harm(
        attacker, rules.melee_damage(defender, attacker), rules.melee_effect(defender, attacker)
    )
    return hit * gain - backfire * loss


def fire_value(state: TilesState, shooter: Unit, target: Unit) -> float:
    """What ``shooter``'s side expects of its Fire at ``target`` (T26)."""
    odds = _fire_chance(rules.fire_modifier(state, shooter, target))
    return odds * harm(target, rules.fire_damage(shooter, target))


@functools.cache
def _melee_chances(modifier: int) -> tuple[float, float]:
    hit, backfire = rules.melee_odds(modifier)
    return float(hit), float(backfire)


@functools.cache
def _fire_chance(modifier: int) -> float:
    return float(rules.fire_odds(modifier))


def threat(state: TilesState, unit: Unit) -> float:
    """What the enemy's next turn may cost ``unit`` where it stands: for each enemy able to
    act, the better of a Fire in sight and a Charge in reach."""
    return prospects(state, unit)[1]


def chance(state: TilesState, unit: Unit) -> float:
    """The best attack ``unit`` might make in its own next turn from where it stands."""
    return prospects(state, unit)[0]


def prospects(state: TilesState, unit: Unit) -> tuple[float, float]:
    """:func:`chance` and :func:`threat` of ``unit`` where it stands, in one pass over the
    enemies."""
    at = unit.at
    assert at is not None
    best = danger = 0.0
    shooter = is_shooter(unit)
    standing = replace(unit, prone=False) if shooter and unit.prone else unit
    for enemy in rules.on_board(state, rules.other(unit.seat)):
        assert enemy.at is not None
        apart = distance(enemy.at, at)
        charge = apart > 1
        if shooter and not rules.fire_problem(state, standing, enemy):
            best = max(best, fire_value(state, unit, enemy))
        if apart <= unit.stats.move:
            best = max(best, melee_value(state, unit, enemy, charge=charge))
        if enemy.stunned or enemy.concussed:
            continue
        worst = 0.0
        if is_shooter(enemy) and not rules.fire_problem(state, enemy, unit):
            worst = fire_value(state, enemy, unit)
        if apart <= enemy.stats.move - enemy.prone:
            worst = max(worst, melee_value(state, enemy, unit, charge=charge))
        danger += worst
    return best, danger


def position(state: TilesState, unit: Unit) -> float:
    """The worth of ``unit`` standing (or lying) where it is in ``state``, at the end of its
    action."""
    assert unit.at is not None
    value = -PRONE if unit.prone else 0.0
    enemies = [e.at for e in rules.on_board(state, rules.other(unit.seat)) if e.at is not None]
    if not enemies:
        return value
    best, danger = prospects(state, unit)
    value += CHANCE * best - THREAT * danger
    if not is_shooter(unit):
        value -= APPROACH * max(0, min(distance(unit.at, at) for at in enemies) - 1)
    return value


# --- moving ---------------------------------------------------------------------------------


def _placed(state: TilesState, unit: Unit, at: Coord, *, prone: bool) -> tuple[TilesState, Unit]:
    moved = replace(unit, at=at, prone=prone)
    units = tuple(moved if u.id == unit.id else u for u in state.units)
    return replace(state, units=units), moved


def _reach(
    state: TilesState, unit: Unit, points: int
) -> dict[Coord, tuple[int, Coord | None, float]]:
    """Every tile the standing ``unit`` may reach with ``points``: the points left, the first
    step and the chance of getting there without a fall. A path stops next to an enemy; only
    the first step may leave such a tile (T19)."""
    assert unit.at is not None
    start = unit.at
    grid = rules.grid_of(state)
    zone, occupied = rules.enemy_zone(state, unit.seat), rules.occupied_tiles(state)
    best: dict[Coord, tuple[int, Coord | None, float]] = {start: (points, None, 1.0)}
    queue: list[tuple[int, float, Coord]] = [(-points, -1.0, start)]
    while queue:
        left, safe, at = heapq.heappop(queue)
        left, safe = -left, -safe
        if best[at][0] != left or left < 1:
            continue
        if at != start and at in zone:
            continue
        here = replace(unit, at=at)
        cost = rules.step_cost(state, here, zone=zone)
        for to in neighbours(grid, at):
            if to == start or rules.step_problem(state, here, to, occupied=occupied):
                continue
            odds = safe * (1 - float(rules.fall_odds(state, here, to, zone=zone)))
            after = left - cost
            known = best.get(to)
            if known is None or (after, odds) > (known[0], known[2]):
                first = to if at == start else best[at][1]
                best[to] = (after, first, odds)
                heapq.heappush(queue, (-after, -odds, to))
    return best


@functools.lru_cache(maxsize=1024)
def _positions(
    rows: tuple[str, ...], others: tuple[Unit, ...], unit: Unit
) -> dict[tuple[Coord, bool], float]:
    """The memo of :func:`position` of ``unit`` (its tile and posture aside) by tile and
    posture, ``others`` where they stand on the map of ``rows``: shared by a unit's Move and
    Charge and by every step of its action, which leave the others where they are."""
    return {}


def _continuations(
    state: TilesState, unit: Unit, points: int, *, charge: bool
) -> dict[object, float]:
    """The best outcome of each next command of ``unit``'s Move or Charge, ``points`` left:
    keyed by the tile of the first step, ``"stand"``, ``("attack", target)`` or ``"stay"``."""
    assert unit.at is not None
    others = tuple(u for u in state.units if u.id != unit.id)
    seen = _positions(state.rows, others, replace(unit, at=None, prone=False))

    def placed_position(at: Coord, *, prone: bool) -> float:
        if (at, prone) not in seen:
            seen[at, prone] = position(*_placed(state, unit, at, prone=prone))
        return seen[at, prone]

    stay = placed_position(unit.at, prone=unit.prone)
    found: dict[object, float] = {"stay": stay}
    if unit.prone:
        if points >= 1:
            stood_state, stood = _placed(state, unit, unit.at, prone=False)
            after = _continuations(stood_state, stood, points - 1, charge=charge)
            found["stand"] = max(after.values())
        return found
    for at, (_, first, safe) in _reach(state, unit, points).items():
        there_state, there = _placed(state, unit, at, prone=False)
        value = base = placed_position(at, prone=False)
        if charge:
            for enemy in rules.adjacent_enemies(there_state, there):
                value = max(value, melee_value(there_state, there, enemy, charge=True) + base)
        if first is None:
            if charge:
                for enemy in rules.adjacent_enemies(state, unit):
                    hit = melee_value(state, unit, enemy, charge=True) + stay
                    key = ("attack", enemy.id)
                    found[key] = max(found.get(key, hit), hit)
            continue
        if safe < 1.0:
            value = safe * value + (1 - safe) * placed_position(first, prone=True)
        found[first] = max(found.get(first, value), value)
    return found


def _start_plans(state: TilesState, unit: Unit) -> dict[str, float]:
    """What starting a Move or a Charge of ``unit`` promises over leaving it where it is."""
    move = max(_continuations(state, unit, unit.stats.move, charge=False).values())
    charging = _continuations(state, unit, unit.stats.move - 1, charge=True)
    stay, charge = charging["stay"], max(charging.values())
    return {"move": move - stay, "charge": charge - stay - CHARGE_COST}


def _moving_scores(state: TilesState, legal: Sequence[Command]) -> dict[int, float]:
    """The scores of the commands that go on with the Move or Charge under way, by ``id``."""
    action = state.action
    if action is None:
        return {}
    unit = _unit(state, action.unit)
    charge = action.charge and not action.attacked
    found = _continuations(state, unit, action.points, charge=charge)
    stay = found["stay"]
    scores: dict[int, float] = {}
    for command in legal:
        match command:
            case StepTo(to=to):
                scores[id(command)] = found.get(to, stay - 1.0) - stay
            case StandUp():
                scores[id(command)] = found.get("stand", stay) - stay
            case Attack(unit=unit_id, target=target) if unit_id == unit.id and action.charge:
                scores[id(command)] = found.get(("attack", target), stay) - stay
            case EndAction():
                scores[id(command)] = 0.0
    return scores


def _unit(state: TilesState, unit_id: str) -> Unit:
    unit = state.unit(unit_id)
    assert unit is not None
    return unit


# --- set-up -----------------------------------------------------------------------------------


def _deploy_score(state: TilesState, command: Place) -> float:
    """Melee units as near the centre as they may go, shooters as far back, both near the
    middle columns and off water and brambles."""
    unit = rules.next_to_place(state, command.player)
    assert unit is not None
    at = command.at
    grid = rules.grid_of(state)
    centres = centre_tiles(grid)
    forward = -min(distance(at, c) for c in centres)
    sideways = min(abs(at[0] - c[0]) for c in centres)
    rough = rules.tile(state, at) in (rules.WATER, rules.BRAMBLES)
    depth = -forward if is_shooter(unit) else forward
    return depth - 0.5 * sideways - 2.0 * rough


# --- search -----------------------------------------------------------------------------------

STATUS: Final = {"prone": 0.5, "stunned": 1.0, "concussed": 2.0}
"""What a unit's posture and statuses cost its side in :func:`evaluate`."""
HURT: Final = 0.4 * INJURY
"""What a unit all but injured costs its side in :func:`worth`: a share of its health lost
costs this times the share to the power 1.5, so each hit on a hurt unit counts more, as in
:func:`harm`."""
STANDING: Final = 0.5
"""The weight of how a side's units stand (:func:`position`) in :func:`worth`."""
SCALE: Final = 40.0
""":func:`evaluate` squashes the difference of the sides' worth divided by this (``tanh``):
never flat, so a search still tells a good command from a better one when far ahead."""


def worth(state: TilesState, seat: int) -> float:
    """What ``seat``'s side has left: injuries suffered, health lost (each unit's share of its
    health), postures and statuses, and how its units stand (:func:`position`)."""
    value = 0.0
    for unit in state.units:
        if unit.seat != seat:
            continue
        if unit.injured:
            value -= INJURY
            continue
        if unit.at is None:
            continue
        lost = 1 - unit.health / unit.stats.health
        value -= HURT * lost**1.5
        value -= STATUS["prone"] * unit.prone + STATUS["stunned"] * bool(unit.stunned)
        value -= STATUS["concussed"] * bool(unit.concussed)
        value += STANDING * position(state, unit)
    return value


def evaluate(state: TilesState, seat: int) -> float:
    """How good ``state`` is for ``seat``, from -1 (lost) to 1 (won): the result once over,
    else the difference of the sides' :func:`worth`, squashed into (-1, 1)."""
    result = rules.outcome(state)
    if result is not None:
        return result.returns[seat - 1]
    diff = worth(state, seat) - worth(state, rules.other(seat))
    return math.tanh(diff / SCALE)


FEATURES: Final = (
    "injured",
    "injured_late",
    "hurt",
    "prone",
    "stunned",
    "concussed",
    "chance",
    "threat",
    "distance",
)
"""The names of :func:`features`, in order."""


def features(state: TilesState, seat: int) -> tuple[float, ...]:
    """What :func:`fitted_evaluate` weighs of ``seat``'s side (:data:`FEATURES`): its units
    injured (and again times the share of the match played), the health lost (each unit's
    share to the power 1.5), units prone, stunned and concussed, the best attack each could
    make next (:func:`chance`), the enemy's threat to each (:func:`threat`), and the melee
    units' distance to the nearest enemy beyond adjacency."""
    injured = hurt = prone = stunned = concussed = best = danger = far = 0.0
    enemies = [e.at for e in rules.on_board(state, rules.other(seat)) if e.at is not None]
    for unit in state.units:
        if unit.seat != seat:
            continue
        if unit.injured:
            injured += 1
            continue
        if unit.at is None:
            continue
        hurt += (1 - unit.health / unit.stats.health) ** 1.5
        prone += unit.prone
        stunned += bool(unit.stunned)
        concussed += bool(unit.concussed)
        if enemies:
            attack, enemy_threat = prospects(state, unit)
            best += attack
            danger += enemy_threat
            if not is_shooter(unit):
                far += max(0, min(distance(unit.at, at) for at in enemies) - 1)
    late = injured * min(1.0, state.round / ROUNDS)
    return (injured, late, hurt, prone, stunned, concussed, best, danger, far)


def fitted_evaluate(state: TilesState, seat: int) -> float:
    """How good ``state`` is for ``seat``, from -1 (lost) to 1 (won): the result once over,
    else the expected result by the weights :mod:`.fitted` gives :func:`features` of the side
    whose turn it is and of the other."""
    result = rules.outcome(state)
    if result is not None:
        return result.returns[seat - 1]
    active = state.active if state.active is not None else seat
    mine, theirs = features(state, active), features(state, rules.other(active))
    z = fitted.TO_ACT
    z += sum(w * f for w, f in zip(fitted.MINE, mine, strict=True))
    z += sum(w * f for w, f in zip(fitted.THEIRS, theirs, strict=True))
    value = math.tanh(z / 2)
    return value if seat == active else -value


def heuristic_command(state: TilesState, legal: Sequence[Command]) -> Command:
    """The heuristic's command among ``legal`` (the first of equal bests: no random source),
    for a search's playouts."""
    return legal[0] if len(legal) == 1 else _best_commands(state, legal)[0]


def _best_commands(state: TilesState, legal: Sequence[Command]) -> list[Command]:
    """The commands of ``legal`` that promise most (equal bests in ``legal``'s order)."""
    scores = score_commands(state, legal)
    best = max(scores)
    return [c for c, s in zip(legal, scores, strict=True) if s >= best - 1e-9]


def shortlist(state: TilesState, legal: Sequence[Command], size: int) -> list[Command]:
    """The ``size`` commands of ``legal`` the heuristic rates best, best first (a unit's Move
    and its Charge both, when both rate among the best: a Charge may attack as it arrives)."""
    scores = score_commands(state, legal)
    ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
    return [legal[i] for i in ranked[:size]]


class _Guided:
    """The search game remembering the heuristic's commands: past the root, both seats play
    as the heuristic would (:meth:`.ruleset.SearchGame.legal`), and a search meets a position
    many times, the next decision some of them again; ``known`` keeps them, by position.

    Its root commands are compared on common dice: the n-th visit of every root command
    plays out from the n-th of one list of chance seeds, so that luck weighs less in the
    difference between two commands than in either.
    """

    def __init__(
        self,
        game: Game[TilesState, Any, Command, int],
        seeds: Sequence[int],
        known: dict[tuple[object, ...], Sequence[Command]],
    ) -> None:
        self._game = game
        self._seeds = seeds
        self._known = known
        self._visits: dict[Command, int] = {}
        self._at_root = False
        self.to_move = game.to_move
        self.evaluate = game.evaluate
        self.is_horizon = game.is_horizon
        self.playout = game.playout
        self.modelled = game.modelled

    def determinize(self, view: object, rng: random.Random) -> TilesState:
        # Each iteration draws a state, then applies a root command first (ismcts._iterate).
        self._at_root = True
        return self._game.determinize(view, rng)

    def apply(self, state: TilesState, command: Command) -> TilesState:
        if self._at_root:
            self._at_root = False
            visit = self._visits.get(command, 0)
            self._visits[command] = visit + 1
            seed = self._seeds[visit % len(self._seeds)]
            state = with_fresh_seed(state, random.Random(seed))
        return self._game.apply(state, command)

    def legal(self, state: TilesState, player: int) -> Sequence[Command]:
        # Everything the legal commands and the heuristic's judgement of them depend on.
        key = (
            player,
            state.rows,
            state.phase,
            state.turn,
            state.active,
            state.acted,
            state.action,
            state.units,
        )
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = self._game.legal(state, player)
        return known


DEFAULT_ITERATIONS: Final = 200
"""The ``mcts`` bot's iterations a decision with a full shortlist (fewer candidates get
as many a candidate)."""
SHORTLIST: Final = 6
"""How many of the heuristic's best commands a search of the default budget weighs."""
MOST_SHORTLIST: Final = 12
"""The most a larger budget weighs (:func:`shortlist_size`)."""


def shortlist_size(iterations: int) -> int:
    """How many of the heuristic's best commands a search of ``iterations`` weighs:
    :data:`SHORTLIST` up to the default budget, then more with the square root of the budget
    (:func:`~multiversus_core.engine.bots.grown_shortlist`: twelve at four times the
    default), so that a larger budget also weighs commands the default leaves out."""
    return grown_shortlist(SHORTLIST, iterations, DEFAULT_ITERATIONS, MOST_SHORTLIST)


MEMORY: Final = 20_000
"""The most positions whose heuristic commands a ``mcts`` bot remembers from one decision
to the next."""


class SearchBot:
    """tiles-d6's ``mcts`` bot: information-set MCTS (:mod:`~multiversus_core.engine.ismcts`)
    over the search game, for the choice of which unit does what.

    It searches every choice of which unit does what next (at the turn's start,
    and once the heuristic would not go on with the Move or Charge under way)
    among the ``shortlist`` commands the heuristic rates best (six at the default
    budget, more for a larger one: :func:`shortlist_size`), and takes the one
    of best mean value: the root commands play out on common dice
    (:class:`_Guided`), so their means differ by more than luck. The steps of a
    Move or Charge are the heuristic's, in the search as in play, and so is
    set-up (searching each step would cost a search a step).
    """

    def __init__(
        self,
        game: Game[TilesState, Any, Command, int],
        seed: int = 0,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        shortlist: int | None = None,
        exploration: float = 0.3,
    ) -> None:
        check_budget(iterations, shortlist)
        self._game = game
        self._random = random.Random(seed)
        self._heuristic = HeuristicBot(self._random.getrandbits(64))
        self.iterations = iterations
        self.shortlist = shortlist_size(iterations) if shortlist is None else shortlist
        """How many of the heuristic's best commands it weighs (:func:`shortlist_size` of
        its budget unless given)."""
        self.exploration = exploration
        self._known: dict[tuple[object, ...], Sequence[Command]] = {}

    def choose(self, view: object, legal: Sequence[Command]) -> Command:
        """Return the best of the heuristic's shortlist by its mean value after the search.

        :raises IllegalCommandError: if there is no legal command to choose.
        """
        if not legal:
            raise IllegalCommandError("there is no legal command to choose from")
        state: TilesState = view.state  # type: ignore[attr-defined]
        if len(legal) == 1 or state.phase != "play":
            return self._heuristic.choose(view, legal)
        if state.action is not None:
            # A Move or Charge under way goes on as the heuristic would; once it would stop,
            # the search chooses what comes next (another unit's action or the turn's end).
            moving = _moving_scores(state, legal)
            if max(moving.values()) > WORTH_DOING:
                return self._heuristic.choose(view, legal)
            legal = [c for c in legal if id(c) not in moving]
            if len(legal) == 1:
                return legal[0]
        candidates = shortlist(state, legal, self.shortlist)
        if len(self._known) > MEMORY:
            self._known.clear()
        # As many iterations a candidate as a full shortlist gets: fewer for a shorter one.
        iterations = -(-self.iterations * len(candidates) // self.shortlist)
        iterations = max(1, min(self.iterations, iterations))
        seeds = [self._random.getrandbits(64) for _ in range(iterations)]
        found = search(
            _Guided(self._game, seeds, self._known),
            view,
            candidates,
            legal[0].player,
            self._random,
            iterations=iterations,
            exploration=self.exploration,
        )
        # Visits barely differ at this exploration: the mean on common dice tells more.
        # Equal means go to the heuristic's order.
        return max(candidates, key=lambda c: found.values.get(c, -2.0))

    def __repr__(self) -> str:
        return f"SearchBot(iterations={self.iterations})"


__all__ = [
    "DEFAULT_ITERATIONS",
    "FEATURES",
    "MOST_SHORTLIST",
    "SHORTLIST",
    "HeuristicBot",
    "SearchBot",
    "evaluate",
    "features",
    "fire_value",
    "fitted_evaluate",
    "harm",
    "heuristic_command",
    "is_shooter",
    "melee_value",
    "position",
    "prospects",
    "score_commands",
    "shortlist",
    "shortlist_size",
    "threat",
    "worth",
]
