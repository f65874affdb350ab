"""What a newcomer needs at the table: how each side wins, and the decision in front of
them explained in the match's own terms.

Everything here is a pure function of a state and returns plain text. An
explanation is told to the deciding player only, and reads what that player
may know from :func:`~.views.view`, never the opponent's secrets.
The Initiative odds come from the rules
(:func:`multiversus_core.rulesets.multiversus.initiative.chance_of_losing_initiative`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from multiversus_core.rulesets.multiversus.abilities import abilities_of, title
from multiversus_core.rulesets.multiversus.catalog import find_team
from multiversus_core.rulesets.multiversus.commands import (
    Command,
    GiveUpInitiative,
    SelectCoins,
    SelectReaction,
)
from multiversus_core.rulesets.multiversus.initiative import (
    ROUNDS,
    chance_of_losing_initiative,
    greys_in_discard,
    losing_rolls,
)
from multiversus_core.rulesets.multiversus.narrate import (
    coin_name,
    decision_help,
    team_name,
    unit_name,
)
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat, Side
from multiversus_core.rulesets.multiversus.units import coin_unit
from multiversus_core.rulesets.multiversus.variants import is_on
from multiversus_core.rulesets.multiversus.views import view, viewer_of

# --- how to win -------------------------------------------------------------------


def how_to_win(state: MatchState) -> str:
    """Return one short paragraph on how each side wins: elimination, then the Adversary
    sheet's win conditions after round 6 (a secret scheme under the variant), else a draw."""
    settings = state.settings
    heroes = state.heroes_team or settings.heroes
    adversaries = state.adversaries_team or settings.adversaries
    teams = ""
    if heroes is not None and adversaries is not None:
        teams = f" ({team_name(heroes)} against {team_name(adversaries)})"
    text = (
        f"How to win{teams}: either side wins at once by eliminating every enemy character "
        "(terrain pieces do not count)."
    )
    sheet = find_team(adversaries) if adversaries is not None else None
    conditions = [
        _sentence(WIN_CONDITIONS[name][0])
        for name in (sheet.win_conditions if sheet is not None else ())
        if name in WIN_CONDITIONS and WIN_CONDITIONS[name][0]
    ]
    if sheet is None or not conditions:
        return text + f" If both sides still stand after round {ROUNDS}, the match is a draw."
    if is_on(state, "secret-schemes") and len(conditions) > 1:
        text += (
            f" Otherwise the Adversaries secretly choose one of their sheet's win conditions "
            f"as their scheme, and only it counts: {' Or: '.join(conditions)}"
        )
    elif len(conditions) > 1:
        text += (
            f" Otherwise the sheet of {sheet.name} decides, the first of these that names a "
            f"winner: {' Then: '.join(conditions)}"
        )
    else:
        text += f" Otherwise the sheet of {sheet.name} decides: {conditions[0]}"
    return text + " If nobody wins that way, the match is a draw."


def _sentence(text: str) -> str:
    """A rules text inside a paragraph: its first letter lower-case, its full stop kept."""
    text = text.strip()
    return text[:1].lower() + text[1:]


# --- the Initiative ---------------------------------------------------------------


def odds(chance: Fraction) -> str:
    """Return a chance on one die in words: "2 in 6 (33%)", "none (0%)"."""
    if chance == 0:
        return "none (0%)"
    sixths = chance * 6
    count = str(sixths.numerator) if sixths.denominator == 1 else f"{float(sixths):.1f}"
    return f"{count} in 6 ({round(chance * 100)}%)"


def initiative_rule(state: MatchState, greys: int) -> str:
    """Return which rolls lose the Initiative with ``greys`` grey coins in the discard, and why."""
    six_loses = not is_on(state, "no-automatic-six")
    faces = losing_rolls(greys, six_loses=six_loses)
    grey_words = f"{greys} grey coin{'' if greys == 1 else 's'}"
    if not six_loses:
        why = (
            "the variant no-automatic-six is in play, so a 6 does not lose on its own; "
            f"a roll no higher than your {grey_words} in your discard does"
        )
    elif greys == 0:
        why = "a 6 always loses (the automatic six), and you have no grey coin in your discard"
    else:
        why = (
            f"a 6 always loses (the automatic six), and so does a roll no higher than "
            f"your {grey_words} in your discard"
        )
    if not faces:
        return f"no roll loses: {why}"
    listed = ", ".join(str(f) for f in faces[:-1])
    rolls = f"{listed} or {faces[-1]}" if listed else str(faces[0])
    return f"you lose it on {rolls}: {why}"


def _roll(state: MatchState, side: Side) -> str:
    greys = greys_in_discard(state, side)
    lines = [
        f"Roll the Initiative die: {initiative_rule(state, greys)}. "
        f"Your chance of losing the Initiative now: "
        f"{odds(chance_of_losing_initiative(state, side))}."
    ]
    if state.turns_in_round >= 2:
        end = " and the match" if state.round >= ROUNDS else ""
        lines.append(f"This is the round's second turn: losing it ends round {state.round}{end}.")
    else:
        lines.append(
            "If you lose it, your turn ends and your opponent's begins: you take back all "
            "your unit coins, and so do they."
        )
    lines.append(
        "If you keep it, you activate again with a unit coin still in your stash, or give "
        "the Initiative up willingly."
    )
    return "\n".join(lines)


# --- coin selections ----------------------------------------------------------------


_ACTIONS = (
    "One action coin is one action; two different ones are two actions, in the order you "
    "choose; two alike are one stronger action: a Double-Attack hits even a defending unit, "
    "a Double-Move goes twice as far, a Double-Stunt uses a (!!) ability."
)

_REACTIONS = (
    "Attack, Move and Stunt reactions need a trigger: an enemy character leaves a space next "
    "to your unit, attacks another unit, stunts or recovers within its reach, or "
    "Double-Attacks it. A Defend reaction needs none: once revealed, attacks on your unit "
    "miss for the rest of the activation (a Double-Attack still hits). Your unit may react "
    "once to each enemy action; a reaction happens before the step it answers."
)


def _select(state: MatchState, side: Side, commands: Sequence[Command]) -> str:
    chosen = {(c.unit, c.colour) for c in commands if isinstance(c, SelectCoins)}
    giving_up = any(isinstance(c, GiveUpInitiative) for c in commands)
    if len(chosen) == 1 and not giving_up:  # the step of one coin's action coins
        ((unit_id, colour),) = chosen
        more = 1 if colour == "grey" else 0  # the coin is in the discard by the roll
        lines = [
            f"Choose the action coins for {unit_name(state, unit_id)} ({colour} coin). {_ACTIONS}",
            "No action coin at all is a Recovery: every character of the unit heals one step "
            "(Disabled to Wounded, Wounded to Unharmed), and your turn ends at once, with no "
            "roll."
            if any(isinstance(c, SelectCoins) and not c.actions for c in commands)
            else "A Recovery (no action coin) is only for a unit with a Wounded or Disabled "
            "character.",
            f"After this activation, your chance of losing the Initiative at the roll: "
            f"{odds(chance_of_losing_initiative(state, side, more_greys=more))}.",
        ]
        lines += _abilities(state, unit_id)
        return "\n".join(lines)
    lines = [
        "Choose which unit acts: one of its unit coins from your stash, then its action coins. "
        "Your opponent then selects a reaction in secret, before they see yours.",
        "Green or grey: the unit coin goes to your discard after the activation, and you roll "
        "the Initiative die. "
        f"{_capital(initiative_rule(state, greys_in_discard(state, side)))}. "
        "At that roll, your chance of losing the Initiative is "
        f"{odds(chance_of_losing_initiative(state, side))} with a green coin, "
        f"{odds(chance_of_losing_initiative(state, side, more_greys=1))} with a grey one.",
    ]
    if giving_up:
        lines.append(
            "Give up the Initiative willingly: your turn ends with no roll, and your opponent "
            "takes back only their green coins: grey coins in their discard stay there and "
            "make them likelier to lose the Initiative in turn."
        )
    return "\n".join(lines)


def _react(state: MatchState, commands: Sequence[Command]) -> str:
    chosen = {(c.unit, c.colour) for c in commands if isinstance(c, SelectReaction)}
    if len(chosen) == 1:
        ((unit_id, colour),) = chosen
        lines = [
            f"Choose the reaction of {unit_name(state, unit_id)} ({colour} coin): one action "
            "coin, or two alike for a stronger one (never two Defend). An Attack reaction "
            "attacks characters of the active unit in reach; a Move reaction moves; a Stunt "
            "reaction uses a stunt ability or interacts.",
            _REACTIONS,
        ]
        lines += _abilities(state, unit_id)
        return "\n".join(lines)
    return "\n".join(
        [
            "Your opponent has selected their coins in secret. Choose, also in secret, the "
            "unit that may react during their activation: one of its unit coins, then its "
            "action coin. It stays hidden until it reacts or the activation ends.",
            _REACTIONS,
            "A unit coin that reacted goes to your discard; one that did not goes back to "
            "your stash.",
        ]
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _abilities(state: MatchState, unit_id: str) -> list[str]:
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return []
    return [
        f"{unit.name}: {title(a)}" + (f" - {a.text}" if a.text else "") for a in abilities_of(unit)
    ]


# --- the decision in front of the player ---------------------------------------------


def explain_decision(state: MatchState, seat: Seat, commands: Sequence[Command]) -> str:
    """Return the decision ``seat`` faces explained in context, for the ``?`` key.

    ``commands`` are the choices of the step on the screen (a coin selection
    is made in steps), so the explanation fits that step: which unit coin, or
    which action coins for the coin chosen. Only what ``seat`` may know is used.
    """
    side = state.side_of(seat)
    known = view(state, viewer_of(state, seat)).activation
    match state.pending:
        case "flip":
            text = (
                "Flip a coin for the Set Up Player, who chooses the teams and the scenario and "
                "which team starts every round with the Initiative; the other player then "
                "chooses which team to control."
            )
        case "teams":
            text = (
                "As the Set Up Player, choose the Hero team, the Adversary team and the "
                "scenario, the board from the Adversary sheet. `multiversus teams show ID` "
                "shows a sheet."
            )
        case "starting_team":
            text = (
                "Choose the team that takes the first turn of every round. Your opponent then "
                "chooses which team to control, so pick a start you would accept from either "
                "side.\n" + how_to_win(state)
            )
        case "side":
            text = "Choose the team you control; your opponent plays the other.\n" + how_to_win(
                state
            )
        case "select" if side is not None:
            text = _select(state, side, commands)
        case "react":
            text = _react(state, commands)
        case "begin_action":
            text = (
                "Your coins give two different actions: choose which to take first. The "
                "reactive unit may react once to each."
            )
        case "offer":
            text = (decision_help(state, seat) or "") + "\n" + _REACTIONS
            if known is not None and known.reaction_coin is not None:
                text += (
                    f"\nIf {unit_name(state, coin_unit(known.reaction_coin))} reacts, "
                    f"{coin_name(state, known.reaction_coin)} stays in your discard."
                )
        case "move":
            text = (
                "Move the unit's figures one space at a time, north, east, south or west "
                "(diagonally only under a variant), each up to its allowance. Characters "
                "block, and so does blocking terrain unless an ability says otherwise. A step "
                "away from an enemy next to you may let them react. End the action when you "
                "are done."
            )
        case "attack" | "after_attack" | "stunt":
            text = decision_help(state, seat) or ""
            if state.pending == "attack":
                text += (
                    "\nAdvantage: an attack on a character next to more enemies than allies "
                    "plus one. A Beast is Disabled only by a hit with Advantage."
                )
        case "roll" if side is not None:
            text = _roll(state, side)
        case "secret":
            text = decision_help(state, seat) or ""
        case _:
            text = ""
    text = text.strip()
    return text or "Choose one of the numbered choices; `multiversus rules` tells the rules."


__all__ = ["explain_decision", "how_to_win", "initiative_rule", "odds"]
