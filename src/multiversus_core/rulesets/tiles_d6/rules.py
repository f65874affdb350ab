"""The rules of tiles-d6: the state a match starts from, ``evolve``, ``decide``, the legal
commands and the outcome. Each rule is named for its ruling (T1-T40 of
``tiles-d6-rulings.md``); the project's own rulings, which fill what neither
the text nor the rulings settle, are TP1 and on (``docs/rules-reference.md``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence, Set
from fractions import Fraction
from typing import Final, Literal, TypeAlias

from msgspec.structs import replace

from multiversus_core.engine.chance import Dice, match_seed
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.engine.grid import (
    Grid,
    centre_tiles,
    crossed,
    distance,
    is_adjacent,
    line_of_sight,
    neighbours,
    step_open,
)
from multiversus_core.engine.ruleset import Outcome, Seat
from multiversus_core.rulesets.tiles_d6.content import BLOCKS_MOVEMENT, CENTRE_GAP
from multiversus_core.rulesets.tiles_d6.model import (
    ROUNDS,
    SEATS,
    Action,
    ActionEnded,
    ActionStarted,
    Attack,
    Attacked,
    BramblesRolled,
    ChooseHalf,
    Command,
    ConcussedEvent,
    ConcussionRolled,
    Coord,
    Damaged,
    EndAction,
    EndTurn,
    Event,
    Fire,
    Fired,
    FirstPlayerChosen,
    HalfChosen,
    Injured,
    KnockedDown,
    MatchEnded,
    Place,
    RollOff,
    RollOffRolled,
    RoundStarted,
    StandUp,
    StartCharge,
    StartMove,
    Stepped,
    StepTo,
    StoodUp,
    StunnedEvent,
    StunRecovered,
    TilesState,
    TurnEnded,
    TurnStarted,
    Unit,
    UnitPlaced,
    WithdrawRolled,
)

BLOCKS_SIGHT: Final = frozenset("T#+")
"""Trees, walls and doors (T7)."""
WATER: Final = "~"
BRAMBLES: Final = "^"
HIT: Final = 4
"""The total an attack or a Fire needs to hit (T23, T26)."""

AttackResult: TypeAlias = Literal["hit", "miss", "backfire"]


def other(seat: Seat) -> Seat:
    """The other seat."""
    return 2 if seat == 1 else 1


def grid_of(state: TilesState) -> Grid:
    """The board's grid (T4)."""
    return Grid(len(state.rows[0]), len(state.rows))


def tile(state: TilesState, at: Coord) -> str:
    """The legend character of a tile (T7)."""
    return state.rows[at[1]][at[0]]


# --- evolve -----------------------------------------------------------------------------------


def _with_unit(state: TilesState, unit_id: str, **changes: object) -> TilesState:
    units = tuple(replace(u, **changes) if u.id == unit_id else u for u in state.units)
    return replace(state, units=units)


def _with_action(state: TilesState, **changes: object) -> TilesState:
    assert state.action is not None  # decide starts an action before it changes one
    return replace(state, action=replace(state.action, **changes))


def evolve(state: TilesState, event: Event) -> TilesState:
    """The state after one event. Never fails, never draws, never checks."""
    match event:
        case Stepped(unit=unit, to=to, cost=cost, fell=fell):
            state = _with_unit(state, unit, at=to, prone=fell)
            assert state.action is not None
            return _with_action(
                state, points=state.action.points - cost, steps=state.action.steps + 1
            )
        case BramblesRolled() | WithdrawRolled() | Fired() | ConcussionRolled():
            state = replace(state, draws=state.draws + 1)
            if isinstance(event, ConcussionRolled) and event.recovered:
                state = _with_unit(state, event.unit, concussed=0)
            return state
        case Attacked(charge=charge):
            state = replace(state, draws=state.draws + 1)
            return _with_action(state, attacked=True) if charge else state
        case ActionStarted(unit=unit, action=kind, points=points):
            action = Action(unit, kind == "charge", points) if kind in ("move", "charge") else None
            return replace(state, acted=(*state.acted, unit), action=action)
        case ActionEnded():
            return replace(state, action=None)
        case StoodUp(unit=unit):
            state = _with_unit(state, unit, prone=False)
            assert state.action is not None
            return _with_action(state, points=state.action.points - 1, stood=True)
        case Damaged(unit=unit, health=health):
            return _with_unit(state, unit, health=health)
        case KnockedDown(unit=unit):
            return _with_unit(state, unit, prone=True)
        case StunnedEvent(unit=unit):
            return _with_unit(state, unit, stunned=state.turn)
        case ConcussedEvent(unit=unit):
            return _with_unit(state, unit, concussed=state.turn, prone=True)
        case Injured(unit=unit, by=by):
            state = _with_unit(state, unit, injured=True, at=None)
            first, second = state.injured
            injured = (first + (by == 1), second + (by == 2))
            action = None if state.action and state.action.unit == unit else state.action
            return replace(state, injured=injured, action=action)
        case StunRecovered(unit=unit):
            return _with_unit(state, unit, stunned=0)
        case TurnStarted(seat=seat):
            return replace(state, active=seat, turn=state.turn + 1, acted=(), action=None)
        case TurnEnded():
            return replace(state, active=None, action=None)
        case RoundStarted(round=number):
            return replace(state, phase="play", round=number)
        case UnitPlaced(unit=unit, at=at):
            return _with_unit(state, unit, at=at)
        case RollOffRolled():
            return replace(state, draws=state.draws + 2)
        case FirstPlayerChosen(seat=seat):
            return replace(state, first=seat, phase="choose_half")
        case HalfChosen(seat=seat, half=half):
            return replace(state, north=seat if half == "north" else other(seat), phase="deploy")
        case MatchEnded(winner=winner, reason=reason):
            return replace(state, phase="over", winner=winner, reason=reason, active=None)
    return state  # pragma: no cover - every event is matched above


def fold(state: TilesState, events: Iterable[Event]) -> TilesState:
    """The state after these events, in order."""
    return functools.reduce(evolve, events, state)


# --- what the board says ----------------------------------------------------------------------


def on_board(state: TilesState, seat: Seat | None = None) -> Iterator[Unit]:
    """The units on the board (of ``seat``, if given), in roster order."""
    return (u for u in state.units if u.at is not None and (seat is None or u.seat == seat))


def unit_at(state: TilesState, at: Coord) -> Unit | None:
    """The unit on a tile, if any (one unit a tile: T4)."""
    return next((u for u in state.units if u.at == at), None)


def next_to(state: TilesState, at: Coord, seat: Seat) -> tuple[Unit, ...]:
    """The units of ``seat`` on the board next to ``at``, whatever their posture or status
    (T18, T37)."""
    column, row = at
    found = []
    for u in state.units:  # a loop, not a generator: the bots ask this very often
        there = u.at
        if (
            there is not None
            and u.seat == seat
            and there != at
            and -1 <= there[0] - column <= 1
            and -1 <= there[1] - row <= 1
        ):
            found.append(u)
    return tuple(found)


def is_adjacent_tile(
    state: TilesState, at: Coord, seat: Seat, *, zone: Set[Coord] | None = None
) -> bool:
    """Whether an enemy of ``seat`` is next to ``at`` (T18); ``zone``, if given, is
    :func:`enemy_zone` of ``seat`` in ``state``, found once for many tiles."""
    if zone is not None:
        return at in zone
    return bool(next_to(state, at, other(seat)))


def enemy_zone(state: TilesState, seat: Seat) -> frozenset[Coord]:
    """Every tile an enemy of ``seat`` on the board is next to: :func:`is_adjacent_tile` of
    every tile at once (T18)."""
    zone: set[Coord] = set()
    for enemy in on_board(state, other(seat)):
        assert enemy.at is not None
        column, row = enemy.at
        zone.update((column + c, row + r) for c in (-1, 0, 1) for r in (-1, 0, 1) if c or r)
    return frozenset(zone)


def occupied_tiles(state: TilesState) -> frozenset[Coord]:
    """The tiles units stand on (one unit a tile: T4)."""
    return frozenset(u.at for u in state.units if u.at is not None)


def adjacent_enemies(state: TilesState, unit: Unit) -> tuple[Unit, ...]:
    """The enemies next to a unit on the board (T18)."""
    return () if unit.at is None else next_to(state, unit.at, other(unit.seat))


def can_act(state: TilesState, unit: Unit) -> bool:
    """Whether a unit may still take its action this turn: its owner's turn, on the board, not
    acted, not Stunned nor Concussed (T2, T15)."""
    return (
        unit.seat == state.active
        and unit.at is not None
        and unit.id not in state.acted
        and not unit.stunned
        and not unit.concussed
    )


def in_sight(state: TilesState, a: Coord, b: Coord) -> bool:
    """Line of sight between two tiles; units never block it (T6)."""
    return _in_sight(state.rows, a, b)


@functools.lru_cache(maxsize=1 << 16)
def _in_sight(rows: tuple[str, ...], a: Coord, b: Coord) -> bool:
    # Sight depends on the map's tiles alone (T6), so it is found once a pair of tiles.
    return line_of_sight(a, b, lambda at: rows[at[1]][at[0]] in BLOCKS_SIGHT)


def range_penalty(a: Coord, b: Coord) -> int:
    """One third of the range, rounded down, at every range (T26, T40)."""
    return distance(a, b) // 3


def crowd(state: TilesState, attacker: Unit, defender: Unit) -> int:
    """Attacker's-side units next to the defender (the attacker counts) minus defender's-side
    units next to the attacker (the defender counts), every unit on the board (T22, T37)."""
    assert attacker.at is not None and defender.at is not None
    (a_column, a_row), (d_column, d_row) = attacker.at, defender.at
    count = 0
    for u in state.units:  # next_to, twice in one loop: the bots ask this very often
        there = u.at
        if there is None:
            continue
        column, row = there
        if u.seat == attacker.seat and there != defender.at:
            count += -1 <= column - d_column <= 1 and -1 <= row - d_row <= 1
        if u.seat == defender.seat and there != attacker.at:
            count -= -1 <= column - a_column <= 1 and -1 <= row - a_row <= 1
    return count


def size_bonus(target: Unit) -> int:
    """+1 to hit a Large unit, -1 to hit a Small one (traits)."""
    traits = target.stats.traits
    return ("large" in traits) - ("small" in traits)


def melee_modifier(state: TilesState, attacker: Unit, defender: Unit, *, charge: bool) -> int:
    """What is added to the die of a melee attack (T22)."""
    return (
        attacker.stats.combat
        - defender.stats.evade
        + crowd(state, attacker, defender)
        - defender.prone
        - charge
        + size_bonus(defender)
    )


def fire_modifier(state: TilesState, shooter: Unit, target: Unit) -> int:
    """What is added to the die of a Fire (T26, T20, T34)."""
    assert shooter.at is not None and target.at is not None
    brambles = _brambles_between(state.rows, shooter.at, target.at)
    return (
        shooter.stats.ranged
        - target.stats.evade
        - range_penalty(shooter.at, target.at)
        + size_bonus(target)
        - target.prone
        - brambles
    )


@functools.lru_cache(maxsize=1 << 16)
def _brambles_between(rows: tuple[str, ...], a: Coord, b: Coord) -> bool:
    # Whether a shot from a to b crosses brambles (T20, T34): the map's tiles alone decide.
    return any(rows[at[1]][at[0]] == BRAMBLES for at in crossed(a, b))


def melee_result(face: int, modifier: int) -> AttackResult:
    """What a melee die comes to with ``modifier`` added (T23): a 1, or a total of 1 or less,
    backfires (checked first); a total of 4 or more hits; anything else misses."""
    total = face + modifier
    if face == 1 or total <= 1:
        return "backfire"
    return "hit" if total >= HIT else "miss"


def fire_hits(total: int) -> bool:
    """Whether a Fire's total (the die and :func:`fire_modifier`) hits: 4 or more (T26)."""
    return total >= HIT


def rolls_brambles(state: TilesState, unit: Unit) -> bool:
    """Whether a step out of the unit's tile rolls for brambles: it leaves brambles and is not
    Flying (T11, T12)."""
    assert unit.at is not None
    return tile(state, unit.at) == BRAMBLES and "flying" not in unit.stats.traits


def brambles_fall(face: int) -> bool:
    """Whether the brambles die falls: on a 1 only (T11)."""
    return face == 1


def withdraw_modifier(
    state: TilesState, unit: Unit, to: Coord, *, zone: Set[Coord] | None = None
) -> int | None:
    """What is added to the withdraw die of the unit's step to ``to``: -1 into a tile next to
    an enemy, +1 Flying; None when the step withdraws from no enemy and rolls none (T19).
    ``zone``: as for :func:`is_adjacent_tile`."""
    assert unit.at is not None
    if not is_adjacent_tile(state, unit.at, unit.seat, zone=zone):
        return None
    return ("flying" in unit.stats.traits) - is_adjacent_tile(state, to, unit.seat, zone=zone)


def withdraw_falls(total: int) -> bool:
    """Whether a withdraw total (the die and :func:`withdraw_modifier`) falls: 3 or less (T19)."""
    return total <= 3


def concussion_recovers(face: int) -> bool:
    """Whether a concussed unit's end-of-turn die recovers it: 4 or more (T15)."""
    return face >= 4


Effect: TypeAlias = Literal["", "down", "stun", "concussion"]
"""What a melee hit does besides damage (T24, T16): nothing, a knockdown, a stun (with a
knockdown) or a concussion."""


@functools.cache
def melee_odds(modifier: int) -> tuple[Fraction, Fraction]:
    """The chances that a melee attack with this modifier hits and that it backfires (T23)."""
    results = [melee_result(face, modifier) for face in range(1, 7)]
    return Fraction(results.count("hit"), 6), Fraction(results.count("backfire"), 6)


@functools.cache
def fire_odds(modifier: int) -> Fraction:
    """The chance that a Fire with this modifier hits (T26)."""
    return Fraction(sum(1 for face in range(1, 7) if fire_hits(face + modifier)), 6)


def melee_damage(striker: Unit, struck: Unit) -> int:
    """What a melee hit (or a backfire, roles swapped) takes: Strength less Defense, at least 1
    (T24, T25)."""
    return max(1, striker.stats.strength - struck.stats.defense)


def fire_damage(shooter: Unit, target: Unit) -> int:
    """What a Fire hit takes: Power less Defense, at least 1 (T26)."""
    return max(1, shooter.stats.power - target.stats.defense)


def melee_effect(striker: Unit, struck: Unit) -> Effect:
    """What a melee hit that leaves ``struck`` on the board does besides damage (T24, T16)."""
    margin = striker.stats.strength - struck.stats.strength
    if margin >= 2:
        return "concussion" if struck.prone else "stun"
    return "down" if margin >= 1 else ""


def fall_odds(
    state: TilesState, unit: Unit, to: Coord, *, zone: Set[Coord] | None = None
) -> Fraction:
    """The chance that the unit's step to ``to`` falls: brambles, then withdraw (T11, T19,
    T35). ``zone``: as for :func:`is_adjacent_tile`."""
    withdraw = withdraw_modifier(state, unit, to, zone=zone)
    return _fall_odds(rolls_brambles(state, unit), withdraw)


@functools.cache
def _fall_odds(brambles: bool, modifier: int | None) -> Fraction:
    faces = range(1, 7)
    stays = Fraction(1)
    if brambles:
        stays *= Fraction(sum(1 for face in faces if not brambles_fall(face)), 6)
    if modifier is not None:
        stays *= Fraction(sum(1 for face in faces if not withdraw_falls(face + modifier)), 6)
    return 1 - stays


def deploy_tiles(state: TilesState, seat: Seat) -> tuple[Coord, ...]:
    """Where ``seat`` may place a unit (T27): its half, a tile that does not block movement,
    free, and more than 2 from every centre tile."""
    grid = grid_of(state)
    half = grid.height // 2
    rows = range(half) if seat == state.north else range(grid.height - half, grid.height)
    centres = centre_tiles(grid)
    return tuple(
        (column, row)
        for row in rows
        for column in range(grid.width)
        if tile(state, (column, row)) not in BLOCKS_MOVEMENT
        and unit_at(state, (column, row)) is None
        and all(distance((column, row), c) > CENTRE_GAP for c in centres)
    )


def deployer(state: TilesState) -> Seat | None:
    """The seat placing units now: player one until all its units are placed (T27)."""
    if state.phase != "deploy" or state.first is None:
        return None
    for seat in (state.first, other(state.first)):
        if any(u.seat == seat and u.at is None and not u.injured for u in state.units):
            return seat
    return None


def next_to_place(state: TilesState, seat: Seat) -> Unit | None:
    """The next unit of ``seat``'s roster not on the board yet."""
    return next((u for u in state.units if u.seat == seat and u.at is None), None)


def to_act(state: TilesState) -> tuple[Seat, ...]:
    """The one seat the match waits for (none once it is over)."""
    match state.phase:
        case "roll_off":
            return (1,)
        case "choose_half":
            assert state.first is not None
            return (state.first,)
        case "deploy":
            seat = deployer(state)
            return () if seat is None else (seat,)
        case "play":
            return () if state.active is None else (state.active,)
    return ()


# --- chance ------------------------------------------------------------------------------------


def _dice(state: TilesState, supplied: Sequence[int] | None) -> Dice:
    """The dice of one command, drawn from the match's chance from its counter."""
    settings = state.settings
    return Dice(match_seed(settings.seed, settings.chance, state.chance), state.draws, supplied)


# --- decide -----------------------------------------------------------------------------------


def decide(command: Command, state: TilesState) -> tuple[tuple[Event, ...], TilesState]:
    """The events ``command`` causes and the state they fold into.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    if type(command.player) is not int or command.player not in SEATS:
        raise InvalidCommandError(f"player must be seat 1 or 2, not {command.player!r}")
    if command.player not in to_act(state):
        if state.phase == "over":
            raise IllegalCommandError("the match is over")
        raise IllegalCommandError(f"seat {command.player} is not to act now")
    events: list[Event] = []
    after = _Decision(state, events).run(command)
    return tuple(events), after


_PHASE_OF: Final[dict[type, str]] = {
    RollOff: "roll_off",
    ChooseHalf: "choose_half",
    Place: "deploy",
}
"""The phase each set-up command belongs to; every other command is for play."""
_WHEN: Final = {
    "roll_off": "the roll-off",
    "choose_half": "player one's choice of half, after the roll-off",
    "deploy": "the set-up",
    "play": "play, once both sides are set up",
}


class _Decision:
    """One command's events, folded as they are made so each rule sees the state before it."""

    def __init__(self, state: TilesState, events: list[Event]) -> None:
        self.state = state
        self.events = events

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    def run(self, command: Command) -> TilesState:
        phase = _PHASE_OF.get(type(command), "play")
        if self.state.phase != phase:
            raise IllegalCommandError(f"a {command.__struct_config__.tag} is for {_WHEN[phase]}")
        match command:
            case RollOff(dice=dice):
                self._roll_off(dice)
            case ChooseHalf(player=seat, half=half):
                if half not in ("north", "south"):
                    raise InvalidCommandError(f"a half is north or south, not {half!r}")
                self.emit(HalfChosen(seat, half))
            case Place(player=seat, at=at):
                self._place(seat, at)
            case EndTurn(player=seat, dice=dice):
                self._end_turn(seat, dice)
            case _:
                self._play(command)
        if self.state.phase == "play":
            self._check_wipe_out()
        return self.state

    # --- set-up -------------------------------------------------------------------------------

    def _roll_off(self, supplied: tuple[int, int] | None) -> None:
        if supplied is not None and len(supplied) != 2:
            raise InvalidCommandError("the roll-off is two dice, seat 1's then seat 2's")
        dice = _dice(self.state, supplied)
        first, second = dice.roll(), dice.roll()
        dice.done()
        self.emit(RollOffRolled((first, second)))
        if first != second:  # a tie is rolled again (T1)
            self.emit(FirstPlayerChosen(1 if first > second else 2))

    def _place(self, seat: Seat, at: Coord) -> None:
        state = self.state
        unit = next_to_place(state, seat)
        assert unit is not None  # the seat is the deployer: it has a unit to place
        if not _is_coord(at) or not grid_of(state).contains(at):
            raise InvalidCommandError(f"no tile {at!r} on the board")
        if at not in deploy_tiles(state, seat):
            raise IllegalCommandError(
                f"{unit.id} cannot be placed on {at}: it must be a free, open tile of your half "
                "more than 2 from the centre"
            )
        self.emit(UnitPlaced(unit.id, at))
        if deployer(self.state) is None:
            assert self.state.first is not None
            self.emit(RoundStarted(1), TurnStarted(self.state.first))

    # --- turns --------------------------------------------------------------------------------

    def _end_turn(self, seat: Seat, supplied: tuple[int, ...] | None) -> None:
        self._end_action()
        dice = _dice(self.state, supplied)
        turn = self.state.turn
        for unit in list(on_board(self.state, seat)):
            if unit.stunned and unit.stunned < turn:
                self.emit(StunRecovered(unit.id))
            if unit.concussed and unit.concussed < turn:
                die = dice.roll()
                self.emit(ConcussionRolled(unit.id, die, concussion_recovers(die)))
        dice.done()
        self.emit(TurnEnded(seat))
        state = self.state
        if seat == state.first:
            self.emit(TurnStarted(other(seat)))
        elif state.round < ROUNDS:
            assert state.first is not None
            self.emit(RoundStarted(state.round + 1), TurnStarted(state.first))
        else:
            self.emit(_points_end(state))

    def _end_action(self) -> None:
        if self.state.action is not None:
            self.emit(ActionEnded(self.state.action.unit))

    def _check_wipe_out(self) -> None:
        state = self.state
        for seat in SEATS:
            if not any(True for _ in on_board(state, seat)):
                winner = other(seat)
                reason = f"{state.settings.players[seat - 1]} has no units left on the board"
                self.emit(MatchEnded(winner, state.injured, reason))
                return

    # --- actions ------------------------------------------------------------------------------

    def _unit(self, unit_id: str) -> Unit:
        unit = self.state.unit(unit_id) if isinstance(unit_id, str) else None
        if unit is None:
            raise InvalidCommandError(f"no unit {unit_id!r}")
        return unit

    def _actor(self, unit_id: str, seat: Seat) -> Unit:
        """A unit of ``seat`` that may begin its action; the action under way ends (T40)."""
        unit = self._unit(unit_id)
        if unit.seat != seat:
            raise IllegalCommandError(f"{unit.id} is not yours")
        if unit.at is None:
            raise IllegalCommandError(f"{unit.id} is not on the board")
        if unit.id in self.state.acted:
            raise IllegalCommandError(f"{unit.id} has acted this turn")
        if unit.stunned:
            raise IllegalCommandError(f"{unit.id} is stunned and cannot act this turn")
        if unit.concussed:
            raise IllegalCommandError(f"{unit.id} is concussed and cannot act")
        self._end_action()
        return unit

    def _play(self, command: Command) -> None:
        seat = command.player
        match command:
            case StartMove(unit=unit_id) | StartCharge(unit=unit_id):
                unit = self._actor(unit_id, seat)
                charge = isinstance(command, StartCharge)
                points = unit.stats.move - charge  # a Charge costs an extra point (T14)
                self.emit(ActionStarted(unit.id, "charge" if charge else "move", points))
            case StandUp():
                self._stand_up()
            case StepTo(to=to, dice=dice):
                self._step(to, dice)
            case Attack(unit=unit_id, target=target_id, die=die):
                self._attack(seat, unit_id, target_id, die)
            case Fire(unit=unit_id, target=target_id, die=die):
                self._fire(seat, unit_id, target_id, die)
            case EndAction():
                if self.state.action is None:
                    raise IllegalCommandError("no unit is moving or charging")
                self._end_action()

    def _moving(self) -> tuple[Action, Unit]:
        action = self.state.action
        if action is None:
            raise IllegalCommandError("no unit is moving or charging")
        unit = self.state.unit(action.unit)
        assert unit is not None and unit.at is not None
        return action, unit

    def _stand_up(self) -> None:
        action, unit = self._moving()
        if not unit.prone:
            raise IllegalCommandError(f"{unit.id} is standing")
        if action.points < 1:  # TP1: standing needs a point, as a step does (T10)
            raise IllegalCommandError(f"{unit.id} has no move point left to stand up")
        self.emit(StoodUp(unit.id))

    def _step(self, to: Coord, supplied: tuple[int, ...] | None) -> None:
        action, unit = self._moving()
        assert unit.at is not None
        state = self.state
        if not _is_coord(to):
            raise InvalidCommandError(f"no tile {to!r} on the board")
        if unit.prone:
            raise IllegalCommandError(f"{unit.id} is prone: it stands up before it steps (T10)")
        if action.points < 1:
            raise IllegalCommandError(f"{unit.id} has no move point left (T10)")
        reason = step_problem(state, unit, to)
        if reason:
            raise IllegalCommandError(f"{unit.id} cannot step to {to}: {reason}")
        dice = _dice(state, supplied)
        withdraw = withdraw_modifier(state, unit, to)
        fell = False
        if rolls_brambles(state, unit):  # T11, T12
            die = dice.roll()
            fell = brambles_fall(die)
            self.emit(BramblesRolled(unit.id, die, fell))
        if withdraw is not None and not fell:  # T19, T35: no withdraw roll after a brambles fall
            die = dice.roll()
            total = die + withdraw
            fell = withdraw_falls(total)
            self.emit(WithdrawRolled(unit.id, die, total, fell))
        dice.done()
        self.emit(Stepped(unit.id, to, step_cost(state, unit), fell))
        if fell:  # T13: it falls into the tile and its action ends
            self.emit(ActionEnded(unit.id))

    def _attack(self, seat: Seat, unit_id: str, target_id: str, die: int | None) -> None:
        action = self.state.action
        charge = action is not None and action.unit == unit_id and action.charge
        if charge:
            assert action is not None
            if action.attacked:
                raise IllegalCommandError(f"{unit_id} has made its Charge's attack (T14)")
            attacker = self._unit(unit_id)
        else:
            attacker = self._actor(unit_id, seat)
        target = self._unit(target_id)
        if attacker.prone:
            raise IllegalCommandError(f"{attacker.id} is prone and cannot attack (T22)")
        if target.seat == attacker.seat or target.at is None or attacker.at is None:
            raise IllegalCommandError(f"{target.id} is not an enemy on the board")
        if not is_adjacent(attacker.at, target.at):
            raise IllegalCommandError(f"{target.id} is not next to {attacker.id} (T22)")
        dice = _dice(self.state, None if die is None else (die,))
        if not charge:
            self.emit(ActionStarted(attacker.id, "attack"))
        face = dice.roll()
        dice.done()
        modifier = melee_modifier(self.state, attacker, target, charge=charge)
        result = melee_result(face, modifier)
        self.emit(Attacked(attacker.id, target.id, face, face + modifier, result, charge))
        if result == "backfire":
            self._strike(target, attacker, by=target.seat)  # T25, T39
        elif result == "hit":
            self._strike(attacker, target, by=attacker.seat)
        if not charge:
            self._end_action()
        else:
            after = self.state.unit(attacker.id)
            if after is not None and (after.prone or after.at is None) and self.state.action:
                self._end_action()  # T14: knocked down by a backfire, the charge ends

    def _strike(self, striker: Unit, struck: Unit, *, by: Seat) -> None:
        """A hit's damage, knockdown and stun (T24), as dealt by ``striker``; a backfire strikes
        the attacker as though the defender had attacked (T25)."""
        damage = melee_damage(striker, struck)
        health = struck.health - damage
        self.emit(Damaged(struck.id, damage, health))
        if health <= 0:  # T17
            self.emit(Injured(struck.id, other(struck.seat)))  # T38: credited to the other side
            return
        effect = melee_effect(striker, struck)
        if effect == "concussion":  # T16: a stun of a prone unit concusses it
            self.emit(ConcussedEvent(struck.id))
        elif effect:
            if not struck.prone:
                self.emit(KnockedDown(struck.id))
            if effect == "stun":
                self.emit(StunnedEvent(struck.id))

    def _fire(self, seat: Seat, unit_id: str, target_id: str, die: int | None) -> None:
        shooter = self._actor(unit_id, seat)
        target = self._unit(target_id)
        reason = fire_problem(self.state, shooter, target)
        if reason:
            raise IllegalCommandError(f"{shooter.id} cannot fire at {target.id}: {reason}")
        dice = _dice(self.state, None if die is None else (die,))
        self.emit(ActionStarted(shooter.id, "fire"))
        face = dice.roll()
        dice.done()
        total = face + fire_modifier(self.state, shooter, target)
        hit = fire_hits(total)
        self.emit(Fired(shooter.id, target.id, face, total, hit))
        if hit:  # T26: damage only, at least 1
            damage = fire_damage(shooter, target)
            health = target.health - damage
            self.emit(Damaged(target.id, damage, health))
            if health <= 0:
                self.emit(Injured(target.id, shooter.seat))
        self._end_action()


def _is_coord(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value)


def step_cost(state: TilesState, unit: Unit, *, zone: Set[Coord] | None = None) -> int:
    """What a step from the unit's tile costs: 1, +1 leaving water (not Flying), +1 leaving a
    tile next to an enemy (T10, T12, T19). ``zone``: as for :func:`is_adjacent_tile`."""
    assert unit.at is not None
    flying = "flying" in unit.stats.traits
    water = tile(state, unit.at) == WATER and not flying
    return 1 + water + is_adjacent_tile(state, unit.at, unit.seat, zone=zone)


def step_problem(
    state: TilesState, unit: Unit, to: Coord, *, occupied: Set[Coord] | None = None
) -> str:
    """Why the unit cannot step to ``to``, or "" (T5, T33); ``occupied``, if given, is
    :func:`occupied_tiles` of ``state``, found once for many steps."""
    assert unit.at is not None
    terrain = _terrain_problem(state.rows, unit.at, to)
    if terrain and terrain != _BLOCKED:
        return terrain
    if to in occupied if occupied is not None else unit_at(state, to) is not None:
        return "a unit stands there"
    return terrain


_BLOCKED: Final = "the tile, or the corner it passes, blocks movement"


@functools.lru_cache(maxsize=1 << 16)
def _terrain_problem(rows: tuple[str, ...], start: Coord, to: Coord) -> str:
    # What the map's tiles alone say of a step (T5, T33), found once a pair of tiles; units
    # are the caller's to check, between the grid's problems and the terrain's.
    grid = Grid(len(rows[0]), len(rows))
    if not grid.contains(to):
        return "it is off the board"
    if not is_adjacent(start, to):
        return "a step goes to one of the 8 neighbouring tiles"
    if not step_open(grid, start, to, lambda at: rows[at[1]][at[0]] in BLOCKS_MOVEMENT):
        return _BLOCKED
    return ""


def fire_problem(state: TilesState, shooter: Unit, target: Unit) -> str:
    """Why ``shooter`` cannot fire at ``target``, or "" (T26)."""
    if shooter.prone:
        return "a prone unit cannot fire"
    if shooter.stats.ranged <= 0 or shooter.stats.power <= 0:
        return "it has no ranged attack"
    if target.seat == shooter.seat or target.at is None:
        return "the target is not an enemy on the board"
    assert shooter.at is not None
    if is_adjacent_tile(state, shooter.at, shooter.seat):
        return "it is next to an enemy"
    if not in_sight(state, shooter.at, target.at):
        return "the target is not in its line of sight"
    return ""


def _points_end(state: TilesState) -> MatchEnded:
    """The end after round 8: more enemy units injured wins, equal is a draw (T3)."""
    first, second = state.injured
    names = state.settings.players
    if first == second:
        return MatchEnded(None, state.injured, f"round 8 ended with {first} injured on each side")
    winner: Seat = 1 if first > second else 2
    most, least = max(first, second), min(first, second)
    units = "unit" if most == 1 else "units"
    reason = f"after round 8, {names[winner - 1]} injured {most} enemy {units} to {least}"
    return MatchEnded(winner, state.injured, reason)


# --- the legal commands and the outcome ------------------------------------------------------


def legal_commands(state: TilesState, seat: Seat) -> Sequence[Command]:
    """Every command ``seat`` may give now, dice drawn from the match's chance."""
    if seat not in to_act(state):
        return ()
    match state.phase:
        case "roll_off":
            return (RollOff(seat),)
        case "choose_half":
            return (ChooseHalf(seat, "north"), ChooseHalf(seat, "south"))
        case "deploy":
            return tuple(Place(seat, at) for at in deploy_tiles(state, seat))
    commands: list[Command] = []
    action = state.action
    if action is not None:
        commands.extend(_action_commands(state, seat, action))
    for unit in state.units:
        if not can_act(state, unit):
            continue
        commands += [StartMove(seat, unit.id), StartCharge(seat, unit.id)]
        if not unit.prone:
            commands += [Attack(seat, unit.id, e.id) for e in adjacent_enemies(state, unit)]
            commands += [
                Fire(seat, unit.id, e.id)
                for e in on_board(state, other(seat))
                if not fire_problem(state, unit, e)
            ]
    commands.append(EndTurn(seat))
    return tuple(commands)


def _action_commands(state: TilesState, seat: Seat, action: Action) -> list[Command]:
    unit = state.unit(action.unit)
    assert unit is not None and unit.at is not None
    commands: list[Command] = []
    if unit.prone:
        if action.points >= 1:
            commands.append(StandUp(seat))
    elif action.points >= 1:
        commands += [
            StepTo(seat, to)
            for to in neighbours(grid_of(state), unit.at)
            if not step_problem(state, unit, to)
        ]
    if action.charge and not action.attacked and not unit.prone:
        commands += [Attack(seat, unit.id, e.id) for e in adjacent_enemies(state, unit)]
    commands.append(EndAction(seat))
    return commands


def outcome(state: TilesState) -> Outcome | None:
    """How the match ended: the winner scores 1, the loser -1; a draw 0 each (T3)."""
    if state.phase != "over":
        return None
    if state.winner is None:
        return Outcome((), (0.0, 0.0), state.reason)
    returns = (1.0, -1.0) if state.winner == 1 else (-1.0, 1.0)
    return Outcome((state.winner,), returns, state.reason)
