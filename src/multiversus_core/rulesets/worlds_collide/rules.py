"""The rules of worlds-collide: the state a match starts from, ``evolve``, ``decide``, the
legal commands and the outcome. Each rule is named for its ruling (W1-W40 of
``worlds-collide-rulings.md``); the project's own rulings, which fill what neither the text
nor the rulings settle, are WP1 and on (``docs/worlds-collide-reference.md``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from msgspec.structs import replace

from multiversus_core.engine.chance import Dice, match_seed
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.engine.grid import distance, is_adjacent, square_name
from multiversus_core.engine.ruleset import Outcome, Seat
from multiversus_core.rulesets.worlds_collide import geometry
from multiversus_core.rulesets.worlds_collide.content import (
    ROLLS,
    Penalty,
    RoundEffect,
    TacticEffect,
    Weapon,
)
from multiversus_core.rulesets.worlds_collide.model import (
    BASE_AP,
    ROUNDS,
    SEATS,
    Act,
    ActionsDeclared,
    Activate,
    Activation,
    ActivationEnded,
    ActivationStarted,
    APGained,
    APLost,
    AttackHit,
    AttackLost,
    AttackMissed,
    AttacksResolved,
    AttacksRolled,
    AttackWith,
    Command,
    Coord,
    Damaged,
    Deploy,
    DieRerolled,
    EnvironmentRolled,
    Event,
    FirstDeployerChosen,
    FirstPlayerChosen,
    KeepDice,
    LeadersScored,
    MatchEnded,
    Model,
    ModelDeployed,
    ModelFell,
    ModelMoved,
    MoveTo,
    ObjectiveScored,
    Pass,
    PlayerOut,
    Reroll,
    Roll,
    RollOff,
    RollOffPurpose,
    RollOffRolled,
    RoundEnded,
    RoundStarted,
    StartRound,
    TacticResolved,
    TacticRolled,
    TurnGiven,
    WorldsState,
    meets_knack,
)

DECK: Final = "environment-deck"
"""The variant of W20: the twelve table entries as a deck, one drawn a round."""
RANGED_IN_MELEE: Final = 7
"""The knack of a ranged attack by a model adjacent to an enemy: only an unmodified 6 hits
(W15)."""
COVER: Final = 3
"""The defense value cover adds, with the Physical type (W4)."""
NO_EFFECT: Final = RoundEffect()


def other(seat: Seat) -> Seat:
    """The other seat."""
    return 2 if seat == 1 else 1


# --- evolve -----------------------------------------------------------------------------------


def _with_model(state: WorldsState, model_id: str, **changes: object) -> WorldsState:
    models = tuple(replace(m, **changes) if m.id == model_id else m for m in state.models)
    return replace(state, models=models)


def _with_side(state: WorldsState, seat: Seat, **changes: object) -> WorldsState:
    sides = list(state.sides)
    sides[seat - 1] = replace(sides[seat - 1], **changes)
    return replace(state, sides=(sides[0], sides[1]))


def _with_activation(state: WorldsState, **changes: object) -> WorldsState:
    assert state.activation is not None  # decide starts an activation before it changes one
    return replace(state, activation=replace(state.activation, **changes))


def _all_deployed(state: WorldsState) -> bool:
    return all(m.at is not None for m in state.models)


def evolve(state: WorldsState, event: Event) -> WorldsState:
    """The state after one event. Never fails, never draws, never checks."""
    match event:
        case RollOffRolled():
            return replace(state, draws=state.draws + 2)
        case FirstDeployerChosen(seat=seat):
            return replace(state, first_deployer=seat, phase="deploy")
        case ModelDeployed(model=model, at=at):
            state = _with_model(state, model, at=at)
            return replace(state, phase="round") if _all_deployed(state) else state
        case RoundStarted(round=number):
            sides = tuple(replace(side, out=False) for side in state.sides)
            models = tuple(replace(m, activated=False) if m.activated else m for m in state.models)
            return replace(
                state,
                round=number,
                sides=(sides[0], sides[1]),
                models=models,
                environment=None,
                environment_seat=None,
                active=None,
                activation=None,
            )
        case EnvironmentRolled(seat=seat, roll=face):
            entry = state.sides[seat - 1].faction.entry(face)
            deck = tuple(card for card in state.deck if card != (seat, face))
            return replace(
                state,
                environment=entry,
                environment_seat=seat,
                deck=deck,
                draws=state.draws + 1,
            )
        case APGained(seat=seat, total=total) | APLost(seat=seat, total=total):
            return _with_side(state, seat, ap=total)
        case FirstPlayerChosen(seat=seat):
            return replace(state, active=seat, phase="activations")
        case ActivationStarted(seat=seat, models=models, plan=plan, tactic=tactic):
            chosen = set(models)
            state = replace(
                state,
                models=tuple(
                    replace(m, activated=True) if m.id in chosen else m for m in state.models
                ),
            )
            return replace(state, activation=Activation(seat, models, plan, tactic))
        case TacticRolled(face=face, knack=knack):
            return replace(
                _with_activation(state, roll=Roll((face,), (knack,), (False,))),
                draws=state.draws + 1,
            )
        case DieRerolled(die=die, face=face):
            assert state.activation is not None and state.activation.roll is not None
            old = state.activation.roll
            faces = tuple(face if i == die else f for i, f in enumerate(old.faces))
            rerolled = tuple(True if i == die else r for i, r in enumerate(old.rerolled))
            state = _with_activation(state, roll=replace(old, faces=faces, rerolled=rerolled))
            return replace(state, draws=state.draws + 1)
        case TacticResolved(tactic=tactic_id, success=success):
            assert state.activation is not None
            side = state.sides[state.activation.seat - 1]
            if success:
                boon = side.faction.tactic(tactic_id).effect
                return _with_activation(state, roll=None, boon=boon)
            assert state.environment is not None  # a round is under way
            return _with_activation(state, roll=None, penalty=state.environment.penalty)
        case ActionsDeclared(attacks=declared, moves_after=after):
            return _with_activation(state, acted=True, attacks=declared, moves=after)
        case ModelMoved(model=model, to=to):
            state = _with_model(state, model, at=to)
            if state.activation is not None and state.activation.moves:
                left = tuple(m for m in state.activation.moves if m.model != model)
                state = _with_activation(state, moves=left)
            return state
        case AttacksRolled(target=target, attacks=attacks, faces=faces, needed=needed):
            assert state.activation is not None
            rest = state.activation.attacks[len(attacks) :]
            roll_ = Roll(faces, needed, (False,) * len(faces), target, attacks)
            state = _with_activation(state, roll=roll_, attacks=rest)
            return replace(state, draws=state.draws + len(faces))
        case AttackLost():
            assert state.activation is not None
            return _with_activation(state, attacks=state.activation.attacks[1:])
        case AttacksResolved():
            return _with_activation(state, roll=None)
        case Damaged(model=model, hp=hp):
            return _with_model(state, model, hp=hp)
        case ModelFell(model=model):
            return _with_model(state, model, fallen=True)
        case ActivationEnded():
            return replace(state, activation=None)
        case PlayerOut(seat=seat):
            return _with_side(state, seat, out=True)
        case TurnGiven(seat=seat):
            return replace(state, active=seat)
        case ObjectiveScored(seat=seat, vp=vp) if seat is not None:
            return _with_side(state, seat, vp=state.sides[seat - 1].vp + vp)
        case LeadersScored(seat=seat, vp=vp):
            return _with_side(state, seat, vp=state.sides[seat - 1].vp + vp)
        case RoundEnded():
            return replace(state, phase="round", active=None, activation=None)
        case MatchEnded(winner=winner, reason=reason):
            return replace(
                state, phase="over", winner=winner, reason=reason, active=None, activation=None
            )
    return state  # an event that changes nothing it records (FirstDeployerChosen aside)


def fold(state: WorldsState, events: Iterable[Event]) -> WorldsState:
    """The state after these events, in order."""
    return functools.reduce(evolve, events, state)


# --- what the table says ----------------------------------------------------------------------


def on_board(state: WorldsState, seat: Seat | None = None) -> Iterator[Model]:
    """The models on the board (of ``seat``, if given), in faction order."""
    return (m for m in state.models if m.on_board and (seat is None or m.seat == seat))


def model_at(state: WorldsState, at: Coord) -> Model | None:
    """The model standing on a square, if any (one a square: W1; fallen tokens do not count:
    W32)."""
    return next((m for m in state.models if m.on_board and m.at == at), None)


def effect(state: WorldsState) -> RoundEffect:
    """The round's environment effect (W5, W25); none before the first."""
    return NO_EFFECT if state.environment is None else state.environment.effect


def boon_of(state: WorldsState) -> TacticEffect:
    """The activation's tactic effect, if its check succeeded (W11)."""
    activation = state.activation
    if activation is None or activation.boon is None:
        return TacticEffect()
    return activation.boon


def penalty_of(state: WorldsState) -> Penalty:
    """The activation's penalty, if its tactic's check failed (W11)."""
    activation = state.activation
    if activation is None or activation.penalty is None:
        return Penalty()
    return activation.penalty


def move_budget(state: WorldsState, model: Model, *, twice: bool) -> int:
    """A model's Move this activation (W12, W24, W25, W39): its Move, plus the tactic's, plus
    the environment's unless its types spare it; doubled to move twice; never below 0."""
    env = effect(state)
    spared = env.unless_type is not None and env.unless_type in model.kind.defense_types
    move = model.kind.move + boon_of(state).move + (0 if spared else env.move)
    return max(0, move) * (2 if twice else 1)


def enemy_squares(state: WorldsState, seat: Seat) -> frozenset[Coord]:
    """The squares the enemies of ``seat`` stand on."""
    return frozenset(m.at for m in on_board(state, other(seat)) if m.at is not None)


def adjacent_enemy(state: WorldsState, model: Model, at: Coord | None = None) -> bool:
    """Whether an enemy stands next to the model (at ``at``, if given): W15's melee."""
    where = model.at if at is None else at
    assert where is not None
    return any(is_adjacent(where, e) for e in enemy_squares(state, model.seat))


def weapon_of(model: Model, name: str) -> Weapon | None:
    """The model's weapon of this name (WP2)."""
    return next((w for w in model.kind.weapons if w.name == name), None)


def attacks_with(state: WorldsState, weapon: Weapon) -> int:
    """A weapon's attacks this activation: its Attacks and the tactic's bonus (W14, W24)."""
    boon = boon_of(state)
    return weapon.attacks + (boon.melee_attacks if weapon.kind == "melee" else boon.ranged_attacks)


def can_target(state: WorldsState, weapon: Weapon, at: Coord, target: Model) -> bool:
    """Whether a weapon fired from ``at`` may aim at ``target`` (W3, W14, W38): melee at an
    adjacent enemy, whatever the levels; ranged at an enemy in sight."""
    assert target.at is not None
    if weapon.kind == "melee":
        return is_adjacent(at, target.at)
    return geometry.in_sight(state.game_map, at, target.at, effect(state).sight)


def needed(state: WorldsState, attacker: Model, weapon: Weapon) -> int:
    """The knack an attack's die must meet, judged at its roll (W15, W25, W33, W36): the
    weapon's knack and the environment's; a ranged weapon of a model next to an enemy hits
    only on an unmodified 6."""
    env = effect(state)
    if weapon.kind == "ranged":
        if adjacent_enemy(state, attacker):
            return RANGED_IN_MELEE
        return weapon.knack + env.ranged_knack
    return weapon.knack + env.melee_knack


def in_cover(state: WorldsState, attacker: Model, target: Model) -> bool:
    """Whether a ranged attack's target is partially obscured (W4, W31): by a low wall or a
    model between, or the target's own low-wall square."""
    assert attacker.at is not None and target.at is not None
    others = frozenset(
        m.at for m in on_board(state) if m.at is not None and m.id not in (attacker.id, target.id)
    )
    return geometry.obscured(state.game_map, attacker.at, target.at, others)


def damage(
    state: WorldsState,
    attacker: Model,
    weapon: Weapon,
    target: Model,
    *,
    cover: bool | None = None,
) -> int:
    """A hit's damage (W17, W30, W4, W25): the weapon's, doubled when it is effective against
    every defense type of the target, plus the tactic's bonus, less the target's defense
    value; cover adds its value and the Physical type against a ranged attack; at least 1.
    Whether the target has cover is judged from the squares unless ``cover`` says."""
    types = set(target.kind.defense_types)
    defense = target.kind.defense
    if weapon.kind == "ranged" and (in_cover(state, attacker, target) if cover is None else cover):
        types.add("physical")
        value = effect(state).cover_value
        defense += COVER if value is None else value
    dealt = weapon.damage * (2 if weapon.is_effective_against(types) else 1)
    boon = boon_of(state)
    dealt += boon.ranged_damage if weapon.kind == "ranged" else boon.melee_damage
    return max(1, dealt - defense)


def deploy_zone(state: WorldsState, seat: Seat) -> tuple[Coord, ...]:
    """Where ``seat`` may place a model now (W18): a free square of its deployment rows."""
    zone = state.game_map.deployment_zone(first=seat == state.first_deployer)
    taken = {m.at for m in state.models if m.at is not None}
    return tuple(at for at in zone if at not in taken)


def deployer(state: WorldsState) -> Seat | None:
    """The seat placing a model now (W18): the first deployer, then alternately, until one
    is done; then the other places the rest."""
    if state.phase != "deploy" or state.first_deployer is None:
        return None
    first, second = state.first_deployer, other(state.first_deployer)

    def placed(seat: Seat) -> int:
        return sum(1 for m in state.models if m.seat == seat and m.at is not None)

    def left(seat: Seat) -> bool:
        return any(m.seat == seat and m.at is None for m in state.models)

    if left(first) and (placed(first) <= placed(second) or not left(second)):
        return first
    return second if left(second) else None


def to_act(state: WorldsState) -> tuple[Seat, ...]:
    """The one seat the match waits for (none once it is over)."""
    match state.phase:
        case "roll_off" | "round":
            return (1,)
        case "deploy":
            seat = deployer(state)
            return () if seat is None else (seat,)
        case "activations":
            if state.activation is not None:
                return (state.activation.seat,)
            return () if state.active is None else (state.active,)
    return ()


# --- chance ------------------------------------------------------------------------------------


def _dice(state: WorldsState, supplied: Sequence[int] | None) -> Dice:
    """The dice of one command, drawn from the match's chance from its counter."""
    settings = state.settings
    return Dice(match_seed(settings.seed, settings.chance, state.chance), state.draws, supplied)


# --- decide -----------------------------------------------------------------------------------


def decide(command: Command, state: WorldsState) -> tuple[tuple[Event, ...], WorldsState]:
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
    after = _Decision(state, events, getattr(command, "dice", None)).run(command)
    return tuple(events), after


class _Decision:
    """One command's events, folded as they are made so each rule sees the state before it."""

    def __init__(self, state: WorldsState, events: list[Event], dice: Sequence[int] | None) -> None:
        self.state = state
        self.events = events
        self.dice = _dice(state, dice)

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    def run(self, command: Command) -> WorldsState:
        state = self.state
        match command:
            case RollOff() if state.phase == "roll_off":
                winner = self._roll_off("deployment")
                self.emit(FirstDeployerChosen(winner))
            case Deploy(player=seat, model=model_id, at=at) if state.phase == "deploy":
                self._deploy(seat, model_id, at)
            case StartRound() if state.phase == "round":
                self._start_round()
            case Pass(player=seat) if state.phase == "activations" and state.activation is None:
                self.emit(PlayerOut(seat, "passed"))
                self._next_turn()
            case Activate() if state.phase == "activations" and state.activation is None:
                self._activate(command)
            case Reroll(die=die) if self._rolling():
                self._reroll(die)
            case KeepDice() if self._rolling():
                self._resolve_roll()
            case Act() if self._awaiting_act():
                self._act(command)
            case _:
                raise IllegalCommandError(
                    f"a {command.__struct_config__.tag} is not what the match waits for now "
                    f"({where_now(state)})"
                )
        self.dice.done()
        return self.state

    def _rolling(self) -> bool:
        activation = self.state.activation
        return activation is not None and activation.roll is not None

    def _awaiting_act(self) -> bool:
        activation = self.state.activation
        return activation is not None and activation.roll is None and not activation.acted

    # --- set-up -------------------------------------------------------------------------------

    def _roll_off(self, purpose: RollOffPurpose) -> Seat:
        """Both roll a d6, ties rolled again (W5, W7, W18, W29); the higher wins."""
        while True:
            first, second = self.dice.roll(), self.dice.roll()
            self.emit(RollOffRolled(purpose, (first, second)))
            if first != second:
                return 1 if first > second else 2

    def _deploy(self, seat: Seat, model_id: str, at: Coord) -> None:
        state = self.state
        model = state.model(model_id) if isinstance(model_id, str) else None
        if model is None or model.seat != seat:
            raise InvalidCommandError(f"seat {seat} has no model {model_id!r}")
        if model.at is not None:
            raise IllegalCommandError(f"{model.name} is already deployed")
        if not _is_coord(at) or not state.game_map.grid.contains(at):
            raise InvalidCommandError(f"no square {at!r} on the map")
        if at not in deploy_zone(state, seat):
            raise IllegalCommandError(
                f"{model.name} cannot be placed on {square_name(at)}: a free square of your "
                "deployment rows"
            )
        self.emit(ModelDeployed(model.id, at))

    # --- rounds -------------------------------------------------------------------------------

    def _start_round(self) -> None:
        state = self.state
        self.emit(RoundStarted(state.round + 1))
        if DECK in state.settings.variants:
            cards = sorted(state.deck)
            drawn: int | None = self.dice.roll(len(cards))
            assert drawn is not None
            seat, face = cards[drawn - 1]
        else:
            drawn = None
            seat = self._roll_off("environment")
            face = self.dice.roll()
        entry = self.state.sides[seat - 1].faction.entry(face)
        self.emit(EnvironmentRolled(seat, face, entry.name, drawn))
        gain = entry.effect.gain_ap
        if gain:  # W25, WP7: the table's own faction, at once
            total = self.state.sides[seat - 1].ap + gain
            self.emit(APGained(seat, gain, total, entry.name))
        for each in SEATS:  # W6, W21
            leaders = sum(m.kind.leadership for m in on_board(self.state, each))
            total = self.state.sides[each - 1].ap + BASE_AP + leaders
            self.emit(APGained(each, BASE_AP + leaders, total, "the round's activation points"))
        first_ap, second_ap = (side.ap for side in self.state.sides)
        if first_ap != second_ap:  # W7: fewer goes first
            first: Seat = 1 if first_ap < second_ap else 2
        else:
            first = self._roll_off("initiative")
        self.emit(FirstPlayerChosen(first))
        self._settle(first)

    def _next_turn(self) -> None:
        """After an activation or a pass: the other player's turn, unless it is out (W7)."""
        state = self.state
        if state.phase != "activations":
            return
        assert state.active is not None
        self._settle(other(state.active))

    def _settle(self, wanted: Seat) -> None:
        """Mark out whoever may not go on (W7), then give the turn to ``wanted`` or, if it is
        out, the other; end the round when both are out."""
        for seat in SEATS:
            side = self.state.sides[seat - 1]
            if side.out:
                continue
            if side.ap <= 0:
                self.emit(PlayerOut(seat, "no activation points left"))
            elif not any(not m.activated for m in on_board(self.state, seat)):
                self.emit(PlayerOut(seat, "no model left to activate"))
        sides = self.state.sides
        if sides[0].out and sides[1].out:
            self._end_round()
            return
        seat = wanted if not sides[wanted - 1].out else other(wanted)
        if self.state.active != seat:
            self.emit(TurnGiven(seat))

    def _end_round(self) -> None:
        state = self.state
        mission = state.game_map.mission
        if state.round in mission.scoring_rounds:  # W19
            for at in state.game_map.objectives:
                near = [
                    sum(
                        1
                        for m in on_board(state, seat)
                        if m.at is not None and distance(m.at, at) <= mission.objective_radius
                    )
                    for seat in SEATS
                ]
                if near[0] == near[1]:
                    self.emit(ObjectiveScored(at, None, 0))
                else:
                    self.emit(
                        ObjectiveScored(at, 1 if near[0] > near[1] else 2, mission.objective_vp)
                    )
        if state.round >= ROUNDS:
            for seat in SEATS:
                fallen = sum(
                    1 for m in self.state.models if m.seat != seat and m.fallen and m.kind.is_leader
                )
                if fallen:
                    self.emit(LeadersScored(seat, fallen, fallen * mission.fallen_leader_vp))
        self.emit(RoundEnded(state.round))
        if state.round >= ROUNDS:
            self.emit(_final(self.state))

    # --- activations --------------------------------------------------------------------------

    def _activate(self, command: Activate) -> None:
        state, seat = self.state, command.player
        problem = formation_problem(state, seat, command.models)
        if problem:
            raise IllegalCommandError(problem)
        if command.plan not in ("move_attack", "attack_move", "move_twice"):
            raise InvalidCommandError(
                f"a plan is move_attack, attack_move or move_twice, not {command.plan!r}"
            )
        faction = state.sides[seat - 1].faction
        tactic = None
        if command.tactic is not None:
            tactic = next((t for t in faction.tactics if t.id == command.tactic), None)
            if tactic is None:
                raise InvalidCommandError(f"{faction.name} has no tactic {command.tactic!r}")
        ap = state.sides[seat - 1].ap
        self.emit(APLost(seat, 1, ap - 1, "activation"))  # W8
        self.emit(ActivationStarted(seat, tuple(command.models), command.plan, command.tactic))
        if tactic is not None:  # W11
            face = self.dice.roll()
            success = meets_knack(face, tactic.knack)
            self.emit(TacticRolled(tactic.id, face, tactic.knack, success))
            self._after_roll()

    def _after_roll(self) -> None:
        """Wait for the owner's re-roll decision while a die failed and AP are left (W16);
        else the roll stands."""
        activation = self.state.activation
        assert activation is not None and activation.roll is not None
        if activation.roll.rerollable() and self.state.sides[activation.seat - 1].ap > 0:
            return
        self._resolve_roll()

    def _reroll(self, die: int) -> None:
        activation = self.state.activation
        assert activation is not None and activation.roll is not None
        if type(die) is not int or die not in activation.roll.rerollable():
            raise IllegalCommandError(
                f"die {die!r} cannot be re-rolled: only a failed die, once (W16)"
            )
        seat = activation.seat
        ap = self.state.sides[seat - 1].ap
        if ap < 1:
            raise IllegalCommandError("a re-roll costs 1 AP, and you have none")
        self.emit(APLost(seat, 1, ap - 1, "re-roll"))
        self.emit(DieRerolled(die, self.dice.roll()))
        self._after_roll()

    def _resolve_roll(self) -> None:
        activation = self.state.activation
        assert activation is not None and activation.roll is not None
        roll_ = activation.roll
        if roll_.target is None:
            assert activation.tactic is not None
            success = roll_.hits(0)
            self.emit(TacticResolved(activation.tactic, success))
            if not success:
                self._penalty()
            return
        self._deal(roll_)
        self._continue_attacks()

    def _penalty(self) -> None:
        """The round's penalty for a failed tactic check (W11, W21, W25, W35)."""
        activation = self.state.activation
        assert activation is not None
        seat = activation.seat
        penalty = penalty_of(self.state)
        ap = self.state.sides[seat - 1].ap
        lost = min(penalty.lose_ap, ap)
        if lost:
            self.emit(APLost(seat, lost, ap - lost, "the environment's penalty"))
        if penalty.opponent_ap:
            rival = other(seat)
            total = self.state.sides[rival - 1].ap + penalty.opponent_ap
            self.emit(APGained(rival, penalty.opponent_ap, total, "the environment's penalty"))
        if penalty.damage:
            for model_id in activation.models:
                model = self.state.model(model_id)
                if model is not None and model.on_board:
                    self._hurt(model, penalty.damage)
            if self.state.activation is None:
                return  # the penalty felled the side's last model: the match is over (W19)
            if not any(m.on_board for m in self._activated()):
                self._end_activation()

    def _activated(self) -> list[Model]:
        activation = self.state.activation
        assert activation is not None
        return [m for m in (self.state.model(i) for i in activation.models) if m is not None]

    def _hurt(self, model: Model, amount: int) -> None:
        hp = model.hp - amount
        self.emit(Damaged(model.id, amount, max(hp, 0)))
        if hp <= 0:  # W17
            self.emit(ModelFell(model.id))
            self._check_wiped()

    def _check_wiped(self) -> None:
        """A player with no models on the board loses at once (W19)."""
        state = self.state
        if state.phase == "over":
            return
        for seat in SEATS:
            if not any(on_board(state, seat)):
                vp = (state.sides[0].vp, state.sides[1].vp)
                name = state.settings.players[seat - 1]
                self.emit(MatchEnded(other(seat), vp, f"{name} has no models left on the board"))
                return

    def _act(self, command: Act) -> None:
        state = self.state
        problem = act_problem(state, command)
        if problem:
            raise IllegalCommandError(problem)
        activation = state.activation
        assert activation is not None
        groups = _by_target(command.attacks)
        after = command.moves if activation.plan == "attack_move" else ()
        self.emit(ActionsDeclared(groups, after))
        if activation.plan != "attack_move":
            self._move(command.moves)
        self._continue_attacks()

    def _move(self, moves: Sequence[MoveTo]) -> None:
        for move in moves:
            model = self.state.model(move.model)
            assert model is not None and model.at is not None
            costs = geometry.moves(
                self.state.game_map,
                model.at,
                move_budget(
                    self.state,
                    model,
                    twice=self.state.activation is not None
                    and self.state.activation.plan == "move_twice",
                ),
                enemies=enemy_squares(self.state, model.seat),
                through_enemies=boon_of(self.state).through_enemies,
            )
            self.emit(ModelMoved(model.id, move.to, costs[move.to]))

    def _continue_attacks(self) -> None:
        """Roll the next target's attacks (W14, W33), until one awaits a re-roll decision;
        then the moves after them, and the end of the activation."""
        while self.state.phase == "activations":
            activation = self.state.activation
            assert activation is not None
            if not activation.attacks:
                break
            target_id = activation.attacks[0].target
            group = tuple(a for a in activation.attacks if a.target == target_id)
            group = activation.attacks[: len(group)]
            target = self.state.model(target_id)
            if target is None or not target.on_board:  # W33: the target fell before its roll
                for attack in group:
                    self.emit(AttackLost(attack.model, attack.weapon, attack.target))
                continue
            knacks: list[int] = []
            for attack in group:
                attacker = self.state.model(attack.model)
                assert attacker is not None
                weapon = weapon_of(attacker, attack.weapon)
                assert weapon is not None
                knacks.append(needed(self.state, attacker, weapon))
            faces = tuple(self.dice.roll() for _ in group)
            self.emit(AttacksRolled(target_id, group, faces, tuple(knacks)))
            activation = self.state.activation
            assert activation is not None and activation.roll is not None
            if activation.roll.rerollable() and self.state.sides[activation.seat - 1].ap > 0:
                return  # W16: the owner decides
            self._deal(activation.roll)
        activation = self.state.activation
        if self.state.phase == "activations" and activation is not None:
            if activation.moves:
                self._move(activation.moves)
            self._end_activation()

    def _deal(self, roll_: Roll) -> None:
        """The hits of a roll that stands (W15, W17, W30)."""
        for index, attack in enumerate(roll_.attacks):
            attacker = self.state.model(attack.model)
            target = self.state.model(attack.target)
            assert attacker is not None and target is not None
            weapon = weapon_of(attacker, attack.weapon)
            assert weapon is not None
            if not roll_.hits(index):
                self.emit(AttackMissed(attack.model, attack.weapon, attack.target))
                continue
            dealt = damage(self.state, attacker, weapon, target)
            self.emit(AttackHit(attack.model, attack.weapon, attack.target, dealt))
            target = self.state.model(attack.target)
            assert target is not None
            if target.on_board:
                self._hurt(target, dealt)
            if self.state.phase == "over":
                return
        self.emit(AttacksResolved(roll_.target or ""))

    def _end_activation(self) -> None:
        activation = self.state.activation
        assert activation is not None
        self.emit(ActivationEnded(activation.seat))
        self._next_turn()


def full_deck() -> tuple[tuple[Seat, int], ...]:
    """Every table entry of both factions as a card (W20)."""
    return tuple((seat, face) for seat in SEATS for face in ROLLS)


def _by_target(attacks: Sequence[AttackWith]) -> tuple[AttackWith, ...]:
    """The attacks grouped by target, targets in the order they first appear (W14, WP16)."""
    order = list(dict.fromkeys(a.target for a in attacks))
    return tuple(a for target in order for a in attacks if a.target == target)


def _final(state: WorldsState) -> MatchEnded:
    """The end after the last round (W19): most VP; then more models on the board; else a
    draw."""
    vp = (state.sides[0].vp, state.sides[1].vp)
    names = state.settings.players
    if vp[0] != vp[1]:
        winner: Seat = 1 if vp[0] > vp[1] else 2
        return MatchEnded(winner, vp, f"{names[winner - 1]} wins on VP, {max(vp)} to {min(vp)}")
    models = tuple(sum(1 for _ in on_board(state, seat)) for seat in SEATS)
    if "models_on_board" in state.game_map.mission.tie_breaks and models[0] != models[1]:
        winner = 1 if models[0] > models[1] else 2
        return MatchEnded(
            winner,
            vp,
            f"{names[winner - 1]} wins with VP equal at {vp[0]} and more models on the board, "
            f"{max(models)} to {min(models)}",
        )
    return MatchEnded(None, vp, f"a draw: {vp[0]} VP each and {models[0]} models each")


def _named(at: Coord | None) -> str:
    return "off the board" if at is None else square_name(at)


def _is_coord(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value)


def where_now(state: WorldsState) -> str:
    """What the match waits for, in a few words."""
    match state.phase:
        case "roll_off":
            return "the deployment roll-off"
        case "deploy":
            return "deployment"
        case "round":
            return f"the start of round {state.round + 1}"
        case "over":
            return "the match is over"
    activation = state.activation
    if activation is None:
        return f"round {state.round}, seat {state.active} to activate or pass"
    if activation.roll is not None:
        return f"round {state.round}, seat {activation.seat} to re-roll or keep its dice"
    return f"round {state.round}, seat {activation.seat}'s activation to move and attack"


# --- checking an activation --------------------------------------------------------------------


def formation_problem(state: WorldsState, seat: Seat, model_ids: Sequence[str]) -> str | None:
    """Why these models cannot activate together now, or None (W8-W10, W28)."""
    if not isinstance(model_ids, tuple | list) or not model_ids:
        return "an activation names one model or more"
    if len(set(model_ids)) != len(model_ids):
        return "an activation names each model once"
    models: list[Model] = []
    for model_id in model_ids:
        model = state.model(model_id) if isinstance(model_id, str) else None
        if model is None or model.seat != seat:
            return f"seat {seat} has no model {model_id!r}"
        if not model.on_board:
            return f"{model.name} is not on the board"
        if model.activated:
            return f"{model.name} has already activated this round (W9)"
        models.append(model)
    if state.sides[seat - 1].ap < 1:
        return "an activation costs 1 AP, and you have none (W8)"
    if not formation_ok(models):
        return "a formation is one connected group of one training, or of any with a leader (W10)"
    return None


def formation_ok(models: Sequence[Model]) -> bool:
    """One connected group by adjacency, all of one training or with a leader among them
    (W10, W28)."""
    squares = [m.at for m in models if m.at is not None]
    if not geometry.formation_connected(squares):
        return False
    trainings = {m.kind.training for m in models}
    return len(trainings) == 1 or any(m.kind.is_leader for m in models)


def act_problem(state: WorldsState, act: Act) -> str | None:
    """Why an :class:`Act` is not legal for the activation under way, or None (W2, W12-W14,
    W34, W35, WP15)."""
    activation = state.activation
    assert activation is not None
    mine = {m.id: m for m in (state.model(i) for i in activation.models) if m is not None}
    penalty = penalty_of(state)
    if not isinstance(act.moves, tuple) or not isinstance(act.attacks, tuple):
        return "moves and attacks are lists"
    if act.moves and penalty.no_move:
        return f"the activation cannot move: {_penalty_name(state)} (W11)"
    if act.attacks and (penalty.no_attack or activation.plan == "move_twice"):
        why = "it moves twice (W12)" if activation.plan == "move_twice" else _penalty_name(state)
        return f"the activation cannot attack: {why}"
    squares = {m.id: m.at for m in mine.values() if m.on_board and m.at is not None}
    moved = _moved(state, act.moves, mine)
    if isinstance(moved, str):
        return moved
    if act.moves and not geometry.formation_connected(list(moved.values())):
        return "the formation must be one connected group at the end of its move (W13, W35)"
    attack_from = moved if activation.plan == "move_attack" else squares
    return _attacks_problem(state, act.attacks, mine, attack_from, moved)


def _penalty_name(state: WorldsState) -> str:
    entry = state.environment
    return "the environment's penalty" if entry is None else f"{entry.name}'s penalty"


def _moved(
    state: WorldsState, moves: Sequence[MoveTo], mine: dict[str, Model]
) -> dict[str, Coord] | str:
    """Every activated model's square after ``moves``, or why they cannot be made."""
    activation = state.activation
    assert activation is not None
    after = {m.id: m.at for m in mine.values() if m.on_board and m.at is not None}
    seen: set[str] = set()
    for move in moves:
        if not isinstance(move, MoveTo) or move.model not in after:
            return f"{getattr(move, 'model', move)!r} is not an activated model on the board"
        if move.model in seen:
            return f"{mine[move.model].name} moves once (W12)"
        seen.add(move.model)
        if not _is_coord(move.to) or not state.game_map.grid.contains(move.to):
            return f"no square {move.to!r} on the map"
        model = mine[move.model]
        assert model.at is not None
        budget = move_budget(state, model, twice=activation.plan == "move_twice")
        costs = geometry.moves(
            state.game_map,
            model.at,
            budget,
            enemies=enemy_squares(state, model.seat),
            through_enemies=boon_of(state).through_enemies,
        )
        if move.to not in costs:
            return f"{model.name} cannot reach {square_name(move.to)} with {budget} movement (W2)"
        after[move.model] = move.to
    ends = list(after.values())
    if len(set(ends)) != len(ends):
        return "two models cannot end on one square (W1)"
    movers = set(after)
    for model in on_board(state):
        if model.id not in movers and model.at in set(ends):
            return (
                f"{model.name} stands on {_named(model.at)}: a model ends on an empty square (W2)"
            )
    return after


def _attacks_problem(
    state: WorldsState,
    attacks: Sequence[AttackWith],
    mine: dict[str, Model],
    attack_from: dict[str, Coord],
    moved: dict[str, Coord],
) -> str | None:
    used: dict[tuple[str, str], int] = {}
    for attack in attacks:
        if not isinstance(attack, AttackWith) or attack.model not in attack_from:
            return f"{getattr(attack, 'model', attack)!r} is not an activated model on the board"
        model = mine[attack.model]
        weapon = weapon_of(model, attack.weapon) if isinstance(attack.weapon, str) else None
        if weapon is None:
            return f"{model.name} has no weapon {attack.weapon!r}"
        key = (attack.model, weapon.name)
        used[key] = used.get(key, 0) + 1
        if used[key] > attacks_with(state, weapon):
            return f"{model.name}'s {weapon.name} makes {attacks_with(state, weapon)} attacks (W14)"
        target = state.model(attack.target) if isinstance(attack.target, str) else None
        if target is None or target.seat == model.seat or not target.on_board:
            return f"{attack.target!r} is not an enemy model on the board"
        if not can_target(state, weapon, attack_from[attack.model], target):
            where = "next to" if weapon.kind == "melee" else "in sight of"
            return f"{target.name} is not {where} {model.name} for its {weapon.name} (W14)"
    return None


# --- the legal commands and the outcome ------------------------------------------------------


def outcome(state: WorldsState) -> Outcome | None:
    """How the match ended: the winner scores 1, the loser -1; a draw 0 each (W19)."""
    if state.phase != "over":
        return None
    if state.winner is None:
        return Outcome((), (0.0, 0.0), state.reason)
    returns = (1.0, -1.0) if state.winner == 1 else (-1.0, 1.0)
    return Outcome((state.winner,), returns, state.reason)
