"""worlds-collide in words: where a match stands, each command and each event in one line.

Nothing is hidden (W20), so every viewer reads the same words. Squares are
named as a player reads a board: a column letter and a row number from 1
("c4" is column 2, row 3 counted from 0: W27).
"""

from __future__ import annotations

import msgspec

from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.worlds_collide.model import (
    Act,
    ActionsDeclared,
    Activate,
    ActivationEnded,
    ActivationStarted,
    APGained,
    APLost,
    AttackHit,
    AttackLost,
    AttackMissed,
    AttacksResolved,
    AttacksRolled,
    Damaged,
    Deploy,
    DieRerolled,
    EnvironmentRolled,
    FirstDeployerChosen,
    FirstPlayerChosen,
    KeepDice,
    LeadersScored,
    MatchEnded,
    ModelDeployed,
    ModelFell,
    ModelMoved,
    ObjectiveScored,
    Pass,
    PlayerOut,
    Reroll,
    RollOff,
    RollOffRolled,
    RoundEnded,
    RoundStarted,
    StartRound,
    TacticResolved,
    TacticRolled,
    TurnGiven,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.rules import where_now

PLAN_WORDS = {
    "move_attack": "move, then attack",
    "attack_move": "attack, then move",
    "move_twice": "move twice",
}


def model_name(state: WorldsState, model_id: str) -> str:
    """A model as players name it: its owner's and its own name ("Ann's Rifleman 3")."""
    model = state.model(model_id)
    if model is None:
        return model_id
    return f"{state.settings.players[model.seat - 1]}'s {model.name}"


def tactic_name(state: WorldsState, seat: Seat, tactic_id: str) -> str:
    """A tactic's name on its faction's page."""
    tactic = next((t for t in state.sides[seat - 1].faction.tactics if t.id == tactic_id), None)
    return tactic_id if tactic is None else tactic.name


def where(state: WorldsState) -> str:
    """Where the match stands ("round 3, Ann's activation")."""
    names = state.settings.players
    match state.phase:
        case "roll_off":
            return "the deployment roll-off"
        case "deploy":
            return "deployment"
        case "round":
            return f"the start of round {state.round + 1}"
        case "over":
            return "the match is over"
    seat = state.active if state.activation is None else state.activation.seat
    return f"round {state.round}, {names[seat - 1]}'s activation" if seat else where_now(state)


def describe_command(shown: msgspec.Struct, state: WorldsState) -> str:
    """Who gave a command and what it was."""
    if not hasattr(shown, "player"):
        return type(shown).__name__
    return f"{state.settings.players[shown.player - 1]}: {command_words(shown, state)}"


def command_words(command: msgspec.Struct, state: WorldsState) -> str:
    """What a command does, in words, for the player choosing it ("deploy Ann's Rifleman 2 on
    c4"): the state is the position it is given in (a view's state will do)."""

    def of(model_id: str) -> str:
        return model_name(state, model_id)

    match command:
        case RollOff():
            return "roll off for deployment"
        case Deploy(model=model, at=at):
            return f"deploy {of(model)} on {square(at)}"
        case StartRound():
            return f"roll for round {state.round + 1}"
        case Activate(player=seat, models=models, plan=plan, tactic=tactic):
            names = ", ".join(of(m) for m in models)
            used = "" if tactic is None else f", with {tactic_name(state, seat, tactic)}"
            return f"activate {names} ({PLAN_WORDS.get(plan, plan)}{used})"
        case Act(moves=moves, attacks=attacks):
            parts = [f"{of(m.model)} to {square(m.to)}" for m in moves]
            parts += [f"{of(a.model)}'s {a.weapon} at {of(a.target)}" for a in attacks]
            return "; ".join(parts) if parts else "neither move nor attack"
        case Reroll(die=die):
            return f"re-roll die {die + 1}"
        case KeepDice():
            return "keep the dice"
        case Pass():
            return "pass for the rest of the round"
    return type(command).__name__


def narrate(event: msgspec.Struct, state: WorldsState, seat: Seat | None) -> str | None:
    """One event in one line, told from ``state`` (before the event): the same for every
    viewer, since nothing is hidden (W20)."""
    names = state.settings.players

    def of(model_id: str) -> str:
        return model_name(state, model_id)

    match event:
        case RollOffRolled(purpose=purpose, dice=(first, second)):
            tie = " A tie: they roll again." if first == second else ""
            return f"Roll-off for {purpose}: {names[0]} {first}, {names[1]} {second}.{tie}"
        case FirstDeployerChosen(seat=first):
            return f"{names[first - 1]} deploys first."
        case ModelDeployed(model=model, at=at):
            return f"{of(model)} is deployed on {square(at)}."
        case RoundStarted(round=number):
            return f"Round {number} begins."
        case EnvironmentRolled(seat=owner, roll=face, name=name):
            faction = state.sides[owner - 1].faction.name
            return f"The environment: {name} ({faction}'s table, {face})."
        case APGained(seat=owner, amount=amount, total=total, reason=reason):
            return f"{names[owner - 1]} gains {amount} AP ({reason}): {total} AP."
        case APLost(seat=owner, amount=amount, total=total, reason=reason):
            return f"{names[owner - 1]} spends {amount} AP ({reason}): {total} AP left."
        case FirstPlayerChosen(seat=first):
            return f"{names[first - 1]} takes the first activation."
        case ActivationStarted(models=models, plan=plan):
            return f"{', '.join(of(m) for m in models)} activate: {PLAN_WORDS.get(plan, plan)}."
        case TacticRolled(tactic=tactic, face=face, knack=knack):
            owner = state.activation.seat if state.activation else (state.active or 1)
            return f"{tactic_name(state, owner, tactic)}: {face} against knack {knack}."
        case TacticResolved(tactic=tactic, success=success):
            owner = state.activation.seat if state.activation else (state.active or 1)
            name = tactic_name(state, owner, tactic)
            if success:
                return f"{name} succeeds."
            entry = state.environment
            penalty = "the environment's penalty" if entry is None else f"{entry.name}'s penalty"
            return f"{name} fails: {penalty} applies."
        case ActionsDeclared():
            return None
        case ModelMoved(model=model, to=to, cost=cost):
            return f"{of(model)} moves to {square(to)} ({cost} movement)."
        case AttacksRolled(target=target, faces=faces, needed=needed):
            rolled = ", ".join(
                f"{face} (needs {'6' if need > 6 else f'{max(need, 2)}+'})"
                for face, need in zip(faces, needed, strict=True)
            )
            return f"Attacks at {of(target)}: {rolled}."
        case DieRerolled(die=die, face=face):
            return f"Die {die + 1} is re-rolled: {face}."
        case AttackHit(model=model, weapon=weapon, target=target, damage=damage):
            return f"{of(model)}'s {weapon} hits {of(target)} for {damage}."
        case AttackMissed(model=model, weapon=weapon):
            return f"{of(model)}'s {weapon} misses."
        case AttackLost(model=model, weapon=weapon, target=target):
            return f"{of(model)}'s {weapon} attack is lost: {of(target)} has fallen."
        case Damaged(model=model, damage=damage, hp=hp):
            return f"{of(model)} takes {damage} damage ({hp} HP left)."
        case ModelFell(model=model):
            return f"{of(model)} falls and is removed; a fallen token marks the square."
        case ActivationEnded() | AttacksResolved():
            return None
        case PlayerOut(seat=owner, reason=reason):
            return f"{names[owner - 1]} is out of the round: {reason}."
        case TurnGiven(seat=turn):
            return f"{names[turn - 1]}'s activation."
        case ObjectiveScored(at=at, seat=scorer, vp=vp):
            if scorer is None:
                return f"The objective on {square(at)} scores for no one."
            return f"The objective on {square(at)} scores {vp} VP for {names[scorer - 1]}."
        case LeadersScored(seat=scorer, leaders=leaders, vp=vp):
            plural = "leader" if leaders == 1 else "leaders"
            return f"{names[scorer - 1]} scores {vp} VP for {leaders} enemy {plural} fallen."
        case RoundEnded(round=number):
            return f"Round {number} ends."
        case MatchEnded(reason=reason):
            return f"The match is over: {reason}."
    return None
