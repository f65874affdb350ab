"""Commands and events in words, as a player at the table would say them.

Everything here is a pure function of a state and returns plain strings. What a
seat may know is never decided here: it goes through the one door,
:mod:`~.views` (:func:`~.views.viewer_of`,
:func:`~.views.redact_event`, :func:`~.views.view`).
A hidden event arrives as a placeholder and is told as such; a hidden
selection or secret choice is read from the redacted view, where it is None.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from multiversus_core.engine.text import printable
from multiversus_core.rulesets.multiversus import activation, forced
from multiversus_core.rulesets.multiversus.abilities import REGISTRY, stunt_abilities
from multiversus_core.rulesets.multiversus.activation import (
    can_react_now,
    compass,
    current,
    triggered_units,
)
from multiversus_core.rulesets.multiversus.catalog import find_team
from multiversus_core.rulesets.multiversus.combat import harm, has_advantage
from multiversus_core.rulesets.multiversus.commands import (
    AfterAttack,
    Attack,
    BeginAction,
    BlockForcedMove,
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    DeclineReaction,
    EndAction,
    FlipForSetUp,
    GiveUpInitiative,
    React,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
)
from multiversus_core.rulesets.multiversus.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    AttackMade,
    BlockChosen,
    BoardSetUp,
    CoinsRevealed,
    CoinsSelected,
    ConditionChanged,
    DiscardReturned,
    Event,
    FigureMoved,
    FigureStepped,
    FollowUpChosen,
    ForcedMoveHeld,
    ForcedStopChosen,
    InitiativeGivenUp,
    InitiativeRolled,
    MatchEnded,
    ReactionDeclined,
    ReactionEnded,
    ReactionRevealed,
    ReactionSelected,
    ReactionStarted,
    ReactionTriggered,
    RecoveryMade,
    RoundEnded,
    RoundStarted,
    SecretChosen,
    SecretRevealed,
    SetUpCoinFlipped,
    SideChosen,
    StartingTeamChosen,
    StuntFailed,
    StuntPerformed,
    TeamsChosen,
    TurnEnded,
    TurnStarted,
    UnitCoinDiscarded,
    UnitCoinRemoved,
    UnitCoinReturned,
)
from multiversus_core.rulesets.multiversus.evolve import evolve
from multiversus_core.rulesets.multiversus.geometry import are_adjacent, push_direction
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.setup import next_secret
from multiversus_core.rulesets.multiversus.state import (
    Action,
    ActionName,
    MatchState,
    SecretOffer,
    Suspended,
    Trigger,
)
from multiversus_core.rulesets.multiversus.terms import (
    ActionKind,
    Condition,
    Seat,
    Side,
    Square,
    other_side,
)
from multiversus_core.rulesets.multiversus.units import CoinId, coin_colour, coin_unit
from multiversus_core.rulesets.multiversus.views import (
    HiddenChooseSecret,
    HiddenCoinsSelected,
    HiddenReactionSelected,
    HiddenSecretChosen,
    HiddenSelectCoins,
    HiddenSelectReaction,
    ViewCommand,
    ViewEvent,
    redact_event,
    view,
    viewer_of,
)

_ACTION_NAMES: Final[dict[ActionName, str]] = {
    "attack": "Attack",
    "defend": "Defend",
    "move": "Move",
    "stunt": "Stunt",
    "recovery": "Recovery",
}

_TURN_END_REASONS: Final[dict[str, str]] = {
    "initiative_lost": "they lost the Initiative",
    "initiative_given_up": "they gave up the Initiative",
    "no_activation": "they have no unit coin for a unit that can act",
    "recovery": "a Recovery ends the turn",
}

_CONDITION_NAMES: Final[dict[Condition, str]] = {
    "unharmed": "Unharmed",
    "wounded": "Wounded",
    "disabled": "Disabled",
    "eliminated": "Eliminated",
}

_FORCED: Final[dict[str, str]] = {
    "push": "is pushed",
    "pull": "is pulled",
    "slide": "slides",
    "place": "is placed",
}


# --- names --------------------------------------------------------------------


def square(sq: Square | None) -> str:
    """Return a space as the log writes it, ``(column,row)``."""
    if sq is None:
        return "off the board"
    return f"({sq[0]},{sq[1]})"


def side_name(side: Side) -> str:
    """Return "Heroes" or "Adversaries"."""
    return side.capitalize()


def player_name(state: MatchState, seat: Seat) -> str:
    """Return the display name of a seat."""
    return printable(state.settings.players[seat - 1])


def side_label(state: MatchState, side: Side) -> str:
    """Return a side with its player, for example "Heroes (Alice)"."""
    seat = state.seat_of(side)
    if seat is None:
        return side_name(side)
    return f"{side_name(side)} ({player_name(state, seat)})"


def team_name(team_id: str | None) -> str:
    """Return a team's printed name, or its id if it is not installed."""
    if team_id is None:
        return "?"
    sheet = find_team(team_id)
    return printable(sheet.name if sheet else team_id)


def scenario_name(adversaries: str | None, scenario_id: str | None) -> str:
    """Return a scenario's printed name, or its id if it cannot be found."""
    sheet = find_team(adversaries) if adversaries else None
    if sheet is not None and scenario_id is not None:
        for sc in sheet.scenarios:
            if sc.id == scenario_id:
                return printable(sc.name)
    return printable(scenario_id or "?")


def unit_name(state: MatchState, unit_id: str) -> str:
    """Return a unit's name, or its id for a unit not in play."""
    try:
        return printable(state.unit(unit_id).name)
    except KeyError:
        return printable(unit_id)


def possessive(name: str) -> str:
    """A name's possessive: "Smogon's", "the Villagers'" (a name ending in s takes ')."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def figure_name(state: MatchState, figure_id: str) -> str:
    """Return a figure's name, or its id for a figure not in play."""
    try:
        return printable(state.figure(figure_id).name)
    except KeyError:
        return printable(figure_id)


def coin_name(state: MatchState, coin: CoinId) -> str:
    """Return a unit coin in words, for example "Town Militia (grey coin)"."""
    return f"{unit_name(state, coin_unit(coin))} ({coin_colour(coin)} coin)"


def actions_name(actions: Sequence[ActionKind]) -> str:
    """Return action coins in words: "Move", "Double-Move", "Attack and Move".

    No action coin at all is a Recovery.
    """
    if not actions:
        return "no action coin (a Recovery)"
    if len(actions) == 2 and actions[0] == actions[1]:
        return f"Double-{_ACTION_NAMES[actions[0]]}"
    return " and ".join(_ACTION_NAMES[a] for a in actions)


def action_name(kind: ActionName, *, double: bool = False) -> str:
    """Return one action in words, for example "Double-Move" or "Recovery"."""
    return f"Double-{_ACTION_NAMES[kind]}" if double else _ACTION_NAMES[kind]


def condition_name(condition: Condition) -> str:
    """Return a condition as the rulebook writes it, for example "Wounded"."""
    return _CONDITION_NAMES[condition]


def _a(word: str) -> str:
    """Return ``word`` with its indefinite article: "an Attack", "a Move"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def secret_option_name(state: MatchState, option: str) -> str:
    """Return a secret's option in words: a figure's name for a hidden identity, else the
    option with its hyphens read as spaces ("holy-water" is "holy water")."""
    name = figure_name(state, option)
    if name == option:
        name = option.replace("-", " ")
    return name


def secret_text(state: MatchState, side: Side, name: str) -> str:
    """Return the rules text a sheet gives one of its secrets, or "" if there is none."""
    team = state.heroes_team if side == "heroes" else state.adversaries_team
    sheet = find_team(team) if team else None
    if sheet is None:
        return ""
    return next((s.text for s in sheet.secrets if s.name == name), "")


# --- hidden information: asked of the views, never decided here -------------------


def known_reaction_unit(state: MatchState, viewer: Seat | None) -> str | None:
    """Return the unit of the reactive selection under way, if ``viewer`` may know it.

    None if there is none, or it is hidden from ``viewer`` (read from the view).
    """
    if state.reactive is None:
        return None
    act = view(state, viewer_of(state, viewer)).activation
    if act is None or act.reaction_coin is None:
        return None
    return coin_unit(act.reaction_coin)


def redacted(state: MatchState, event: ViewEvent, viewer: Seat | None) -> ViewEvent:
    """Return ``event`` as ``viewer`` may know it in ``state`` (a placeholder stays one)."""
    match event:
        case HiddenCoinsSelected() | HiddenReactionSelected() | HiddenSecretChosen():
            return event
        case _:
            return redact_event(event, viewer_of(state, viewer))


# --- commands -------------------------------------------------------------------


def describe_command(state: MatchState, command: Command) -> str:
    """Return a legal command in plain words, for the player who may give it."""
    group, short = command_parts(state, command)
    match command:
        case SelectCoins() | SelectReaction():
            return f"Select {group}: {short}"
        case Step(figure=figure_id):
            return f"Step {figure_name(state, figure_id)} {short}"
        case Attack(attacker=attacker_id):
            return f"{figure_name(state, attacker_id)} attacks {short}"
        case Stunt(figure=figure_id):
            return f"Stunt: {figure_name(state, figure_id)} {short}"
        case ChooseSecret(name=name):
            return f"Choose {short} as your secret {name}"
        case _:
            return short


def shown_command(state: MatchState, shown: ViewCommand) -> str:
    """Return who gave a command (or its placeholder, :func:`~.views.redact_command`) and what
    it was, in words: a secret choice the placeholder hides is told as made in secret."""
    who = player_name(state, shown.player)
    side = state.side_of(shown.player)
    if side is not None:
        who += f" ({side_name(side)})"
    match shown:
        case HiddenSelectCoins():
            return f"{who}: select coins in secret"
        case HiddenSelectReaction():
            return f"{who}: select a reaction in secret"
        case HiddenChooseSecret(name=name):
            return f"{who}: choose their secret {name}, in secret"
        case _:
            try:
                return f"{who}: {describe_command(state, shown)}"
            except Exception:  # describing is best effort; the record is still shown
                return f"{who}: {shown.__struct_config__.tag}"


def command_parts(state: MatchState, command: Command) -> tuple[str | None, str]:
    """Split a command's description into a group heading (or None) and a short label.

    Commands that share a heading (the coin selections of one unit coin, the
    steps of one figure, the targets of one attacker) can be listed together
    under it.
    """
    match command:
        case FlipForSetUp(winner=winner):
            if winner is None:
                return None, "Flip the coin for the Set Up Player"
            return None, f"The coin favours {player_name(state, winner)}"
        case ChooseTeams(heroes=heroes, adversaries=adversaries, scenario=scenario):
            return None, (
                f"Play {team_name(heroes)} against {team_name(adversaries)} "
                f"in {scenario_name(adversaries, scenario)}"
            )
        case ChooseStartingTeam(side=side):
            team = state.heroes_team if side == "heroes" else state.adversaries_team
            return None, (f"The {side_name(side)} ({team_name(team)}) start each round")
        case ChooseSide(side=side):
            team = state.heroes_team if side == "heroes" else state.adversaries_team
            return None, f"Control the {side_name(side)} ({team_name(team)})"
        case ChooseSecret(name=name, choice=choice):
            return f"Your secret {name}", secret_option_name(state, choice)
        case (
            SelectCoins(unit=unit_id, colour=colour, actions=actions)
            | SelectReaction(unit=unit_id, colour=colour, actions=actions)
        ):
            label = actions_name(actions) if actions else "Recovery (no action coin)"
            return f"{unit_name(state, unit_id)} ({colour} coin)", label
        case SelectNoReaction():
            return None, "Select nothing (none of your units can react)"
        case BeginAction(action=kind):
            return None, f"Take the {action_name(kind)} action first"
        case Step(figure=figure_id, direction=direction):
            return _step_parts(state, figure_id, direction)
        case EndAction():
            return None, _end_action_label(state)
        case Attack(attacker=attacker_id, target=target_id):
            return _attack_parts(state, attacker_id, target_id)
        case AfterAttack(choice=choice, direction=direction):
            return None, _after_attack_label(state, choice, direction)
        case Stunt(figure=figure_id, ability=ability, target=target):
            return _stunt_parts(state, figure_id, ability, target)
        case React():
            return None, _react_label(state)
        case DeclineReaction():
            return None, "Let it pass: do not react now"
        case RollInitiative(die=die):
            if die is None:
                return None, "Roll the Initiative die"
            return None, f"The Initiative die shows {die}"
        case GiveUpInitiative():
            return None, "Give up the Initiative willingly"
        case BlockForcedMove(ally=ally, block=block):
            return None, _block_label(state, ally, block)
        case StopForcedMove(spaces=spaces):
            return None, _stop_label(state, spaces)


def _block_label(state: MatchState, ally: str, block: bool) -> str:
    choice = forced.held(state)
    if choice is None:
        return f"{figure_name(state, ally)} {'blocks' if block else 'lets it through'}"
    mover = figure_name(state, choice.move.figure)
    if not block:
        return f"{figure_name(state, ally)} lets {mover} through (R20)"
    spaces = forced.blocked_spaces(state, choice.move)
    to = forced.destination(state, choice.move, spaces)
    where = f"stays at {square(to)}" if spaces == 0 else f"stops at {square(to)}"
    return f"{figure_name(state, ally)} blocks: {mover} {where} (R20)"


def _stop_label(state: MatchState, spaces: int) -> str:
    choice = forced.held(state)
    if choice is None:
        return f"Move it {_count(spaces, 'space')}"
    mover = figure_name(state, choice.move.figure)
    if spaces == 0:
        return f"{mover} does not move"
    to = forced.destination(state, choice.move, spaces)
    verb = _FORCED_VERB.get(choice.move.how, "moves")
    return f"{mover} {verb} {_count(spaces, 'space')}, to {square(to)}"


_FORCED_VERB: Final[dict[str, str]] = {"push": "is pushed", "pull": "is pulled", "slide": "slides"}


def _step_parts(
    state: MatchState, figure_id: str, direction: tuple[int, int]
) -> tuple[str | None, str]:
    try:
        figure = state.figure(figure_id)
    except KeyError:
        return figure_id, compass(direction)
    heading = f"{figure.name} at {square(figure.square)}"
    action = current(state)
    if action is not None and action.kind == "move":
        if action.mover == figure_id:
            left = action.steps_left
        else:
            left = activation.move_allowance(state, figure, action.double)
        heading += f", {_count(left, 'space')} left"
        if action.mover is not None and action.mover != figure_id and action.steps_left > 0:
            # P5: stepping another figure ends the mover's move for good; say so.
            heading += f" (this ends {possessive(figure_name(state, action.mover))} move)"
    if figure.square is None:
        return heading, compass(direction)
    to = (figure.square[0] + direction[0], figure.square[1] + direction[1])
    return heading, f"{compass(direction)} to {square(to)}"


def _end_action_label(state: MatchState) -> str:
    act = state.activation
    action = current(state)
    if act is None or action is None:
        return "End the action"
    what = f"{action_name(action.kind, double=action.double)} " + (
        "reaction" if act.reaction is not None else "action"
    )
    if action.kind == "move":
        return f"End the {what}" if action.mover is not None else f"End the {what} without moving"
    if action.done:
        return f"End the {what}"
    verb = {"attack": "attacking", "stunt": "a stunt"}.get(action.kind, "acting")
    return f"End the {what} without {verb}"


def _attack_parts(state: MatchState, attacker_id: str, target_id: str) -> tuple[str | None, str]:
    try:
        attacker = state.figure(attacker_id)
        target = state.figure(target_id)
    except KeyError:
        return attacker_id, target_id
    heading = f"{attacker.name} at {square(attacker.square)} attacks"
    notes: list[str] = []
    if target.condition != "unharmed":
        notes.append(condition_name(target.condition))
    if target.square is not None and not are_adjacent(attacker, target):
        notes.append("ranged")
    advantage = has_advantage(state, target)
    if advantage:
        notes.append("with Advantage")
    after = harm(state, target, advantage)
    notes.append(f"a hit: {condition_name(after)}")
    return heading, f"{target.name} at {square(target.square)} ({', '.join(notes)})"


def _after_attack_label(state: MatchState, choice: str, direction: Square | None) -> str:
    action = current(state)
    if action is None or action.follow_up is None:
        return choice.capitalize()
    attacker_id, target_id = action.follow_up
    attacker = state.figure(attacker_id)
    target = state.figure(target_id)
    if choice == "stay":
        return f"Stay: {attacker.name} and {target.name} do not move"
    if choice == "step" and direction is not None and attacker.square is not None:
        to = (attacker.square[0] + direction[0], attacker.square[1] + direction[1])
        return f"Step {attacker.name} {compass(direction)} to {square(to)}"
    if choice == "push" and target.square is not None:
        try:
            away = push_direction(attacker, target)
        except ValueError:
            return f"Push {target.name} away"
        to = (target.square[0] + away[0], target.square[1] + away[1])
        return f"Push {target.name} away, {compass(away)} to {square(to)}"
    return choice.capitalize()


def _stunt_parts(
    state: MatchState, figure_id: str, ability: str | None, target: str | None
) -> tuple[str | None, str]:
    try:
        figure = state.figure(figure_id)
    except KeyError:
        return figure_id, ability or target or "?"
    heading = f"{figure.name} at {square(figure.square)}"
    if ability is not None:
        known = REGISTRY.get(ability)
        bangs = "(!!)" if known is not None and known.kind == "double_stunt" else "(!)"
        return heading, f"uses {ability} {bangs}"
    return heading, f"interacts with {figure_name(state, target or '?')}"


def _react_label(state: MatchState) -> str:
    act = state.activation
    if act is None or act.reaction_coin is None:
        return "React"
    what = actions_name(act.reaction_actions)
    return f"React: {unit_name(state, coin_unit(act.reaction_coin))} takes {_a(what)} reaction"


def decision_help(state: MatchState, seat: Seat) -> str | None:
    """Return what the decision ``seat`` faces means, in a sentence or two, or None.

    It is told to the deciding player only, so it may name their own
    secret selection (read from their view, so never the opponent's).
    """
    act = state.activation
    known = view(state, viewer_of(state, seat)).activation
    action = current(state)
    match state.pending:
        case "secret":
            secret = next_secret(state)
            if secret is None:
                return None
            text = secret_text(state, secret.side, secret.name)
            return (
                f"Choose your secret {secret.name}. Your opponent does not see it until it is "
                f"used or the match ends.{' ' + text if text else ''}"
            )
        case "offer" if act is not None and act.offer is not None:
            mine = (
                f"your {coin_name(state, known.reaction_coin)} with "
                f"{actions_name(known.reaction_actions or ())}"
                if known is not None and known.reaction_coin is not None
                else "your reaction"
            )
            keep = "" if act.reaction_revealed else "; if you let it pass, it stays hidden"
            words = trigger_words(state, act.offer.triggers, act.offer.held)
            if not can_react_now(state):
                # Offers come wherever any selection might answer, so they hide yours.
                return (
                    f"{words}. Your selection ({mine}) cannot answer this: let it pass. "
                    "You are asked anyway so that your opponent learns nothing."
                )
            return f"{words}. You may react now with {mine}{keep}."
        case "attack" if action is not None:
            if not any(activation.attack_targets(state, f) for f in activation.attackers(state)):
                return (
                    f"No character of {unit_name(state, action.unit)} can reach an enemy it "
                    "may attack: end the action."
                )
            target = (
                f" every attack of this action targets {unit_name(state, action.target_unit)};"
                if action.target_unit is not None
                else " all its attacks target one unit;"
            )
            return (
                f"Each character of {unit_name(state, action.unit)} may attack once;{target} "
                "a hit moves the target one step: Unharmed → Wounded → Disabled → Eliminated."
            )
        case "forced":
            choice = forced.held(state)
            if choice is None:
                return None
            mover = figure_name(state, choice.move.figure)
            if choice.ally is not None:
                return (
                    f"{figure_name(state, choice.ally)}, your character, is in the way of "
                    f"{mover}. It may block (then {mover} stops before it) or let {mover} "
                    "through; it can never end its move on an ally (R20)."
                )
            return (
                f"{mover} may go up to {_count(choice.move.distance, 'space')} "
                f"{compass(choice.move.direction)}: choose how far; it may stop short."
            )
        case "after_attack" if action is not None and action.follow_up is not None:
            attacker, target = (figure_name(state, f) for f in action.follow_up)
            offered = {choice for choice, _ in activation.follow_up_options(state)}
            may = [
                *(["step one space"] if "step" in offered else []),
                *([f"push {target} one space directly away"] if "push" in offered else []),
                "stay",
            ]
            choices = may[0] if len(may) == 1 else f"{', '.join(may[:-1])} or {may[-1]}"
            return f"After the attack, {attacker} may {choices}."
        case "stunt" if action is not None:
            lines = [
                f"Each figure of {unit_name(state, action.unit)} may use a stunt ability of its "
                "unit (!) or interact with a figure next to it; every figure performs the same "
                "stunt."
            ]
            for ability in stunt_abilities(state.unit(action.unit), action.double):
                lines.append(f"{ability.name}: {ability.text}")
            return "\n".join(lines)
        case _:
            return None


# --- triggers -------------------------------------------------------------------


def trigger_words(state: MatchState, triggers: tuple[Trigger, ...], held: Suspended) -> str:
    """Return what may let the reactive player react, naming the units each trigger concerns,
    for example "Dragonkith Bruisers 2 leaves a space next to Town Militia 1".

    The units are those :func:`~.activation.triggered_units` gives, which
    depend on nothing hidden, so the words are the same for every viewer.
    """
    concerned = dict(triggered_units(state, held)) if state.activation is not None else {}
    figure = figure_name(state, held.figure)
    target = figure_name(state, held.target) if held.target is not None else "a character"
    if triggers and set(triggers) <= {"targeted", "double_attacked", "attacked_other"}:
        # One attack raises these together: tell it once, on whom, how, within whose reach.
        how = "makes a Double-Attack on" if "double_attacked" in triggers else "attacks"
        words = f"{figure} {how} {target}"
        if "attacked_other" in triggers:
            words += f" within reach of {_them(state, concerned.get('attacked_other', ()))}"
        return words
    parts = []
    for trigger in triggers:
        them = _them(state, concerned.get(trigger, ()))
        act = state.activation
        match trigger:
            case "left_adjacent":
                near = _beside(state, held.figure, concerned.get(trigger, ()))
                parts.append(f"{figure} leaves a space next to {near or them}")
            case "stunted":
                parts.append(f"{figure} performs a stunt within reach of {them}")
            case "recovered":
                recovering = unit_name(state, act.unit) if act is not None else figure
                parts.append(f"{recovering} attempts a Recovery within reach of {them}")
            case "concluded":
                done = unit_name(state, act.unit) if act is not None else figure
                parts.append(f"{done} has finished its actions, and {them} may still Move")
            case "attacked_other":
                parts.append(f"{figure} attacks {target} within reach of {them}")
            case "double_attacked":
                parts.append(f"{figure} makes a Double-Attack on {target}")
            case "targeted":
                parts.append(f"{figure} attacks {target}")
    return "; ".join(parts)


def _them(state: MatchState, unit_ids: tuple[str, ...]) -> str:
    """The reactive units a trigger concerns, or the reactive side if none is known."""
    if unit_ids:
        return _and(unit_name(state, u) for u in unit_ids)
    reactive = state.reactive
    return f"the {side_name(reactive)}" if reactive is not None else "the reactive unit"


def _beside(state: MatchState, figure_id: str, unit_ids: tuple[str, ...]) -> str:
    """The characters of ``unit_ids`` next to a figure, in words ("" if none is known)."""
    try:
        figure = state.figure(figure_id)
    except KeyError:
        return ""
    if figure.square is None:
        return ""
    near = [
        f.name
        for f in state.figures
        if f.unit in unit_ids and not f.terrain and f.square is not None and are_adjacent(f, figure)
    ]
    return _and(near)


def _and(names: Iterable[str]) -> str:
    """Return names joined as a sentence lists them: "A", "A and B", "A, B and C"."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


# --- events ---------------------------------------------------------------------


_STUNT_EFFECTS: Final = (
    ConditionChanged,
    FigureMoved,
    FigureStepped,
    SecretRevealed,
    AttackMade,
    ForcedMoveHeld,
)
"""Events a stunt's ability or interaction causes, told after it."""


@dataclass
class _StepRun:
    """Consecutive steps of one figure, told as one line."""

    name: str
    start: Square | None
    directions: list[str]
    end: Square

    def line(self) -> str:
        if len(self.directions) == 1:
            return f"{self.name} steps {self.directions[0]} to {square(self.end)}."
        path = ", ".join(self.directions)
        return f"{self.name} moves {path}: {square(self.start)} → {square(self.end)}."


@dataclass
class _AttackLine:
    """An attack waiting for the condition it left its target in."""

    text: str
    target: str
    hit: bool


class Narrator:
    """Tells events as lines of text, joining one figure's consecutive steps into one line
    and an attack with the condition it caused.

    Feed it events with :meth:`tell`; take finished lines with :meth:`take`.
    """

    def __init__(self, viewer: Seat | None, *, announce_result: bool = True) -> None:
        self.viewer = viewer
        """The seat whose secrets may be told (None: nobody's)."""
        self.announce_result = announce_result
        """Tell the end of the match (False where the caller prints the result itself)."""
        self._lines: list[str] = []
        self._run: _StepRun | None = None
        self._run_figure: str | None = None
        self._attack: _AttackLine | None = None
        self._stunt: str | None = None

    def tell(self, state: MatchState, events: Iterable[Event]) -> MatchState:
        """Tell events that happened from ``state`` on; return the state after them."""
        for event in events:
            if self._stunt is not None:
                # A stunt's effects follow it at once; if none does, it did nothing.
                self._close_stunt(effective=isinstance(event, _STUNT_EFFECTS))
            match event:
                case StuntPerformed():
                    self._close()
                    self._stunt = describe_event(state, event, self.viewer)
                case MatchEnded() if not self.announce_result:
                    self._close()
                case FigureStepped():
                    self._close_attack()
                    self._step(state, event)
                case AttackMade(target=target, hit=hit):
                    self._close()
                    text = describe_event(state, event, self.viewer) or ""
                    self._attack = _AttackLine(text.removesuffix("."), target, hit)
                case ConditionChanged(figure=figure_id, condition=condition) if (
                    self._attack is not None and self._attack.target == figure_id
                ):
                    gone = ", and leaves the board" if condition == "eliminated" else ""
                    self._lines.append(f"{self._attack.text}: {condition_name(condition)}{gone}.")
                    self._attack = None
                case _:
                    line = describe_event(state, event, self.viewer)
                    if line is not None:
                        self._close()
                        self._lines.append(line)
            state = evolve(state, event)
        return state

    def take(self, *, keep_open_steps: bool = False) -> list[str]:
        """Return the lines told so far and forget them.

        With ``keep_open_steps`` a run of steps that may go on is kept back.
        """
        self._close_attack()
        self._close_stunt(effective=False)
        if not keep_open_steps:
            self._close_run()
        lines, self._lines = self._lines, []
        return [printable(line) for line in lines]

    def _step(self, state: MatchState, event: FigureStepped) -> None:
        try:
            figure = state.figure(event.figure)
        except KeyError:
            self._close_run()
            self._lines.append(f"{event.figure} steps to {square(event.to)}.")
            return
        start = figure.square
        if start is not None:
            direction = compass((event.to[0] - start[0], event.to[1] - start[1]))
        else:
            direction = "onto the board"
        if self._run is not None and self._run_figure == event.figure:
            self._run.directions.append(direction)
            self._run.end = event.to
            return
        self._close_run()
        self._run = _StepRun(figure.name, start, [direction], event.to)
        self._run_figure = event.figure

    def _close(self) -> None:
        self._close_attack()
        self._close_run()

    def _close_attack(self) -> None:
        if self._attack is not None:
            harmless = ", but it does no further harm" if self._attack.hit else ""
            self._lines.append(f"{self._attack.text}{harmless}.")
        self._attack = None

    def _close_stunt(self, *, effective: bool) -> None:
        if self._stunt is not None:
            told = self._stunt if effective else f"{self._stunt[:-1]}, but nothing happens."
            self._lines.append(told)
        self._stunt = None

    def _close_run(self) -> None:
        if self._run is not None:
            self._lines.append(self._run.line())
        self._run = None
        self._run_figure = None


def describe_events(state: MatchState, events: Iterable[Event], viewer: Seat | None) -> list[str]:
    """Return events that happened from ``state`` on, in words, as ``viewer`` may know them."""
    narrator = Narrator(viewer)
    narrator.tell(state, events)
    return narrator.take()


def describe_event(state: MatchState, event: ViewEvent, viewer: Seat | None) -> str | None:
    """Return one event in words as ``viewer`` may know it, or None for an event not worth a line.

    ``state`` is the state just before the event. The event is first redacted
    for ``viewer`` (:func:`multiversus_core.rulesets.multiversus.views.redact_event`): a secret
    selection or set-up secret is told only to its own player; everyone else
    learns that it was made. A placeholder may also be passed as it is.
    """
    match redacted(state, event, viewer):
        case HiddenCoinsSelected(side=side):
            return f"The {side_name(side)} select their coins in secret."
        case HiddenReactionSelected(side=side):
            return f"The {side_name(side)} select a reaction in secret."
        case HiddenSecretChosen(side=side, name=name):
            return f"The {side_name(side)} choose their secret {name}, in secret."
        case SetUpCoinFlipped(set_up_player=seat):
            return f"The coin is flipped: {player_name(state, seat)} is the Set Up Player."
        case TeamsChosen(
            heroes=heroes, adversaries=adversaries, scenario=scenario, secrets=secrets
        ):
            line = (
                f"{team_name(heroes)} (Heroes) against {team_name(adversaries)} (Adversaries), "
                f"in {scenario_name(adversaries, scenario)}."
            )
            if secrets:
                line += f" Secrets to choose at set-up: {_offers(secrets)}."
            return line
        case BoardSetUp(board=board, figures=figures):
            return (
                f"The board is laid out, {board.width} by {board.height} spaces, "
                f"and {len(figures)} figures are placed."
            )
        case StartingTeamChosen(side=side):
            return f"The {side_name(side)} will start each round with the Initiative."
        case SideChosen(seat=seat, side=side):
            other: Seat = 2 if seat == 1 else 1
            return (
                f"{player_name(state, seat)} takes the {side_name(side)}; "
                f"{player_name(state, other)} plays the {side_name(other_side(side))}."
            )
        case SecretChosen(side=side, name=name, choice=choice):
            return f"You choose your secret {name}: {secret_option_name(state, choice)}."
        case SecretRevealed(side=side, name=name, choice=choice):
            return (
                f"The {side_name(side)} reveal their secret {name}: "
                f"{secret_option_name(state, choice)}."
            )
        case RoundStarted(round=number):
            return f"── Round {number} of 6 begins ──"
        case TurnStarted(side=side):
            return f"The {side_label(state, side)} take the Initiative die: their turn begins."
        case DiscardReturned(side=side, coins=coins):
            return (
                f"The {side_name(side)} take back {_count(len(coins), 'unit coin')} "
                f"from their discard: {_coin_list(state, coins)}."
            )
        case TurnEnded(side=side, reason=reason):
            return f"The {side_name(side)}' turn ends: {_TURN_END_REASONS.get(reason, reason)}."
        case RoundEnded(round=number):
            return f"Round {number} ends."
        case MatchEnded(reason=reason, winner=winner):
            return f"The match is over: {result_words(state, reason, winner)}."
        case CoinsSelected(side=side, coin=coin, actions=actions):
            return f"You select {coin_name(state, coin)} with {actions_name(actions)}."
        case ReactionSelected(side=side, coin=coin, actions=actions):
            if coin is None:
                return f"The {side_name(side)} select nothing: none of their units can react."
            return f"You select a reaction: {coin_name(state, coin)} with {actions_name(actions)}."
        case CoinsRevealed(side=side, coin=coin, actions=actions):
            what = f"{coin_name(state, coin)} with {actions_name(actions)}"
            return f"The {side_name(side)} reveal {what}."
        case ActionStarted(unit=unit_id, action=kind, double=double):
            return _action_started(state, unit_id, kind, double)
        case FigureStepped(figure=figure_id, to=to):
            return f"{figure_name(state, figure_id)} steps to {square(to)}."
        case ActionEnded():
            act = state.activation
            action = act.action if act is not None else None
            unit = unit_name(state, action.unit) if action is not None else None
            missed = _unused(action, "action")
            return f"{unit} ends its {missed}." if unit is not None and missed else None
        case ActivationEnded():
            return None
        case ReactionTriggered(side=side, triggers=triggers, held=held):
            words = trigger_words(state, triggers, held)
            return f"The {side_name(side)} may react: {words}."
        case ReactionDeclined(side=side):
            declined = known_reaction_unit(state, viewer)
            if declined is not None:
                return (
                    f"{possessive(unit_name(state, declined))} reaction is declined: it does not "
                    "react now."
                )
            return f"The {side_name(side)} let it pass: no reaction."
        case ReactionStarted(side=side, unit=unit_id, action=kind, double=double):
            return _reaction_started(state, side, unit_id, kind, double)
        case ReactionEnded(side=side):
            act = state.activation
            reaction = act.reaction if act is not None else None
            missed = _unused(reaction, "reaction")
            if reaction is not None and missed:
                return f"{unit_name(state, reaction.unit)} ends its {missed}."
            return f"The {side_name(side)}' reaction is over."
        case AttackMade(
            attacker=attacker, target=target, advantage=advantage, hit=hit, defended=defended
        ):
            if not hit:
                result = "no hit: its unit is defending"
            elif defended:
                result = "hit through the Defend (a Double-Attack always hits)"
            else:
                result = "hit"
            if hit and advantage:
                result += ", with Advantage"
            return (
                f"{figure_name(state, attacker)} attacks {figure_name(state, target)} — {result}."
            )
        case ConditionChanged(figure=figure_id, condition=condition):
            name = figure_name(state, figure_id)
            if condition == "eliminated":
                return f"{name} is Eliminated and leaves the board."
            return f"{name} is now {condition_name(condition)}."
        case FollowUpChosen(attacker=attacker, choice=choice):
            if choice == "stay":
                return f"{figure_name(state, attacker)} stays where it is after attacking."
            return None  # the step or push that follows tells it
        case FigureMoved(figure=figure_id, to=to, how=how):
            return _figure_moved(state, figure_id, to, how)
        case ForcedMoveHeld(side=side, move=move, ally=ally):
            mover = figure_name(state, move.figure)
            if ally is not None:
                return (
                    f"{figure_name(state, ally)} is in the way of {mover}: the "
                    f"{side_name(side)} choose whether it blocks or lets it through."
                )
            return (
                f"The {side_name(side)} choose how far {mover} goes: up to "
                f"{_count(move.distance, 'space')} {compass(move.direction)}."
            )
        case BlockChosen(ally=ally, figure=figure_id, block=block):
            if block:
                return f"{figure_name(state, ally)} blocks {figure_name(state, figure_id)}."
            return f"{figure_name(state, ally)} lets {figure_name(state, figure_id)} through."
        case ForcedStopChosen(figure=figure_id, spaces=spaces):
            if spaces == 0:
                return f"{figure_name(state, figure_id)} is left where it is."
            return None  # the move that follows tells it
        case StuntPerformed(figure=figure_id, ability=ability, target=target):
            if ability is not None:
                return f"Stunt: {figure_name(state, figure_id)} uses {ability}!"
            return (
                f"Stunt: {figure_name(state, figure_id)} interacts with "
                f"{figure_name(state, target or '?')}."
            )
        case StuntFailed(unit=unit_id):
            return (
                f"The stunt of {unit_name(state, unit_id)} fails: an attack reaction struck it, "
                "and the action ends."
            )
        case RecoveryMade(unit=unit_id, succeeded=succeeded):
            if succeeded:
                return f"Recovery of {unit_name(state, unit_id)} succeeds."
            return f"Recovery of {unit_name(state, unit_id)} fails: an attack reaction struck it."
        case ReactionRevealed(side=side, coin=coin, actions=actions):
            act = state.activation
            unused = "" if act is not None and act.offer is not None else " unused"
            return (
                f"The {side_name(side)} reveal their{unused} reaction: "
                f"{coin_name(state, coin)} with {actions_name(actions)}."
            )
        case UnitCoinDiscarded(side=side, coin=coin):
            return f"{coin_name(state, coin)} goes to the {side_name(side)}' discard."
        case UnitCoinReturned(side=side, coin=coin):
            return f"{coin_name(state, coin)} goes back to the {side_name(side)}' stash."
        case UnitCoinRemoved(side=side, coin=coin):
            return (
                f"{coin_name(state, coin)} leaves the match for good: "
                f"the price of the {side_name(side)}' Recovery."
            )
        case InitiativeRolled(side=side, die=die, greys=greys, lost=lost):
            rolled = f"The {side_name(side)} roll the Initiative die: {die}"
            greys_text = _count(greys, "grey coin")
            if not lost:
                note = f" ({greys_text} in their discard)" if greys else ""
                return f"{rolled} — they keep the Initiative{note}."
            if die == 6:
                return f"{rolled} — they lose the Initiative."
            return (
                f"{rolled}, no higher than the {greys_text} in their discard "
                "— they lose the Initiative."
            )
        case InitiativeGivenUp(side=side):
            return f"The {side_name(side)} give up the Initiative willingly."


def _unused(action: Action | None, noun: str) -> str:
    """An Attack, Move or Stunt action (or reaction) that ends having done nothing, in words
    ("Attack action without an attack"), or "" if it did something or is another kind."""
    if action is None:
        return ""
    what = f"{action_name(action.kind, double=action.double)} {noun}"
    match action.kind:
        case "attack" if action.target_unit is None:
            return f"{what} without an attack"
        case "move" if action.mover is None and not action.done:
            return f"{what} without moving"
        case "stunt" if action.stunt is None:
            return f"{what} without a stunt"
        case _:
            return ""


def _action_started(state: MatchState, unit_id: str, kind: ActionName, double: bool) -> str:
    unit = unit_name(state, unit_id)
    what = action_name(kind, double=double)
    match kind:
        case "move":
            movers = [f for f in state.figures if f.unit == unit_id and f.square is not None]
            spaces = max((activation.move_allowance(state, f, double) for f in movers), default=0)
            return f"{unit} takes {_a(what)} action: each figure may move up to {spaces} spaces."
        case "attack":
            return f"{unit} takes {_a(what)} action: each character may attack once."
        case "defend":
            return (
                f"{unit} takes a Defend action: for the rest of the activation, only a "
                "Double-Attack reaction can hit it."
            )
        case "recovery":
            return f"{unit} attempts a Recovery."
        case _:
            return f"{unit} takes {_a(what)} action."


def _reaction_started(
    state: MatchState, side: Side, unit_id: str, kind: ActionKind, double: bool
) -> str:
    what = action_name(kind, double=double)
    line = f"The {side_name(side)} react with {what} ({unit_name(state, unit_id)})"
    if kind == "defend":
        return line + ": for the rest of the activation, only a Double-Attack can hit that unit."
    return line + "."


def _figure_moved(state: MatchState, figure_id: str, to: Square, how: str) -> str:
    name = figure_name(state, figure_id)
    try:
        start = state.figure(figure_id).square
    except KeyError:
        start = None
    direction = ""
    if start is not None and abs(to[0] - start[0]) <= 1 and abs(to[1] - start[1]) <= 1:
        direction = f" {compass((to[0] - start[0], to[1] - start[1]))}"
    if how == "step":
        return f"{name} steps{direction} after attacking, to {square(to)}."
    return f"{name} {_FORCED.get(how, 'moves')}{direction} to {square(to)}."


def _offers(offers: Sequence[SecretOffer]) -> str:
    return ", ".join(f"{o.name} ({side_name(o.side)})" for o in offers)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _coin_list(state: MatchState, coins: Sequence[CoinId]) -> str:
    return ", ".join(coin_name(state, c) for c in coins)


# --- the result -----------------------------------------------------------------


def result_words(state: MatchState, reason: str, winner: Side | None) -> str:
    """Return a match result in words: who won and why, or a draw."""
    if winner is None:
        if reason == "six_rounds_played":
            return "a draw (six rounds played, and nobody won)"
        return f"a draw ({reason_words(reason)})"
    who = f"the {side_label(state, winner)} win"
    if reason == "elimination":
        loser = "Hero" if winner == "adversaries" else "Adversary"
        return f"{who} by elimination (no {loser} character is left)"
    return f"{who}: {reason_words(reason)}"


def reason_words(reason: str) -> str:
    """A win condition's rules text, or its name in words if it has none."""
    known = WIN_CONDITIONS.get(reason)
    if known is not None and known[0]:
        text = known[0].rstrip(".")
        return text[:1].lower() + text[1:]
    return reason.replace("_", " ").replace("-", " ")


def result_text(state: MatchState) -> str:
    """Return the result of a match that is over, for example "a draw after round 6"."""
    if not state.is_over:
        return "the match is not over"
    return result_words(state, state.ended or "", state.winner)


def secrets_summary(state: MatchState, viewer: Seat | None) -> list[str]:
    """Return one line per set-up secret, as ``viewer`` may know it.

    The choice is read from the view: shown to its own player and once
    revealed (the end of the match reveals every secret); otherwise only that
    it was chosen.
    """
    lines = []
    for secret in view(state, viewer_of(state, viewer)).secrets:
        head = f"{side_name(secret.side)} secret {secret.name}: "
        if secret.choice is not None:
            note = "" if secret.revealed else " (your secret)"
            lines.append(head + secret_option_name(state, secret.choice) + note)
        else:
            lines.append(head + "chosen in secret")
    chosen = {(s.side, s.name) for s in state.secrets}
    for offer in state.secret_offers:
        if (offer.side, offer.name) not in chosen:
            lines.append(f"{side_name(offer.side)} secret {offer.name}: not chosen yet")
    return lines


def coin_summary(state: MatchState, coins: Sequence[CoinId]) -> str:
    """Return unit coins grouped by unit: "Banner Knight: green, grey ×2; Smogon: grey"."""
    return coins_by_unit(coins, lambda unit_id: unit_name(state, unit_id))


def coins_by_unit(coins: Sequence[CoinId], name: Callable[[str], str]) -> str:
    """Return unit coins grouped by unit, each unit named by ``name`` (its id to words)."""
    if not coins:
        return "none"
    by_unit: dict[str, list[str]] = {}
    for coin in coins:
        by_unit.setdefault(coin_unit(coin), []).append(coin_colour(coin))
    parts = []
    for unit_id, colours in by_unit.items():
        counted = [
            colour if n == 1 else f"{colour} ×{n}"
            for colour in ("green", "grey")
            if (n := colours.count(colour))
        ]
        parts.append(f"{name(unit_id)}: {', '.join(counted)}")
    return "; ".join(parts)


__all__ = [
    "Narrator",
    "action_name",
    "actions_name",
    "coin_name",
    "coin_summary",
    "coins_by_unit",
    "command_parts",
    "condition_name",
    "decision_help",
    "describe_command",
    "describe_event",
    "describe_events",
    "figure_name",
    "known_reaction_unit",
    "player_name",
    "redacted",
    "result_text",
    "result_words",
    "secret_option_name",
    "secret_text",
    "secrets_summary",
    "side_label",
    "side_name",
    "square",
    "team_name",
    "trigger_words",
    "unit_name",
]
