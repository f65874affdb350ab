"""Commands and events in words, as a player at the table would say them.

Everything here is a pure function of a state and returns plain strings; the
hidden-information rule lives in one place, :func:`can_see`: a viewer sees a
secret selection only if it is their own (or once the events reveal it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from multiversus_core.activation import compass
from multiversus_core.commands import (
    BeginAction,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    EndMove,
    FlipForSetUp,
    GiveUpInitiative,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
)
from multiversus_core.events import (
    ActionEnded,
    ActionStarted,
    ActivationEnded,
    BoardSetUp,
    CoinsRevealed,
    CoinsSelected,
    DiscardReturned,
    Event,
    FigureStepped,
    InitiativeGivenUp,
    InitiativeRolled,
    MatchEnded,
    ReactionRevealed,
    ReactionSelected,
    RoundEnded,
    RoundStarted,
    SetUpCoinFlipped,
    SideChosen,
    StartingTeamChosen,
    TeamsChosen,
    TurnEnded,
    TurnStarted,
    UnitCoinDiscarded,
    UnitCoinReturned,
)
from multiversus_core.evolve import evolve
from multiversus_core.sheets import find_team
from multiversus_core.state import MatchState
from multiversus_core.terms import ActionKind, Seat, Side, Square
from multiversus_core.units import CoinId, coin_colour, coin_unit

_ACTION_NAMES: Final[dict[ActionKind, str]] = {
    "attack": "Attack",
    "defend": "Defend",
    "move": "Move",
    "stunt": "Stunt",
}

_TURN_END_REASONS: Final[dict[str, str]] = {
    "initiative_lost": "they lost the Initiative",
    "initiative_given_up": "they gave up the Initiative",
    "no_activation": "they have no unit coin for a unit that can act",
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
    return state.settings.players[seat - 1]


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
    return sheet.name if sheet else team_id


def scenario_name(adversaries: str | None, scenario_id: str | None) -> str:
    """Return a scenario's printed name, or its id if it cannot be found."""
    sheet = find_team(adversaries) if adversaries else None
    if sheet is not None and scenario_id is not None:
        for sc in sheet.scenarios:
            if sc.id == scenario_id:
                return sc.name
    return scenario_id or "?"


def unit_name(state: MatchState, unit_id: str) -> str:
    """Return a unit's name, or its id for a unit not in play."""
    try:
        return state.unit(unit_id).name
    except KeyError:
        return unit_id


def figure_name(state: MatchState, figure_id: str) -> str:
    """Return a figure's name, or its id for a figure not in play."""
    try:
        return state.figure(figure_id).name
    except KeyError:
        return figure_id


def coin_name(state: MatchState, coin: CoinId) -> str:
    """Return a unit coin in words, for example "Town Militia (grey coin)"."""
    return f"{unit_name(state, coin_unit(coin))} ({coin_colour(coin)} coin)"


def actions_name(actions: Sequence[ActionKind]) -> str:
    """Return action coins in words: "Move", "Double-Move", "Attack and Move", "no action"."""
    if not actions:
        return "no action"
    if len(actions) == 2 and actions[0] == actions[1]:
        return f"Double-{_ACTION_NAMES[actions[0]]}"
    return " and ".join(_ACTION_NAMES[a] for a in actions)


def action_name(kind: ActionKind, *, double: bool = False) -> str:
    """Return one action in words, for example "Double-Move"."""
    return f"Double-{_ACTION_NAMES[kind]}" if double else _ACTION_NAMES[kind]


# --- hidden information ---------------------------------------------------------


def can_see(state: MatchState, viewer: Seat | None, side: Side) -> bool:
    """True if ``viewer`` may see ``side``'s secret selections before they are revealed.

    Only a side's own player may; a viewer of None is the public (a spectator,
    or a hot-seat screen both players can see).
    """
    return viewer is not None and state.side_of(viewer) == side


# --- commands -------------------------------------------------------------------


def describe_command(state: MatchState, command: Command) -> str:
    """Return a legal command in plain words, for the player who may give it."""
    group, short = command_parts(state, command)
    match command:
        case SelectCoins() | SelectReaction():
            return f"Select {group}: {short}"
        case Step(figure=figure_id):
            return f"Step {figure_name(state, figure_id)} {short}"
        case _:
            return short


def command_parts(state: MatchState, command: Command) -> tuple[str | None, str]:
    """Split a command's description into a group heading (or None) and a short label.

    Commands that share a heading (the coin selections of one unit coin, the
    steps of one figure) can be listed together under it.
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
        case (
            SelectCoins(unit=unit_id, colour=colour, actions=actions)
            | SelectReaction(unit=unit_id, colour=colour, actions=actions)
        ):
            return f"{unit_name(state, unit_id)} ({colour} coin)", actions_name(actions)
        case SelectNoReaction():
            return None, "Select nothing (none of your units can react)"
        case BeginAction(action=kind):
            return None, f"Take the {action_name(kind)} action first"
        case Step(figure=figure_id, direction=direction):
            return _step_parts(state, figure_id, direction)
        case EndMove():
            return None, _end_move_label(state)
        case RollInitiative(die=die):
            if die is None:
                return None, "Roll the Initiative die"
            return None, f"The Initiative die shows {die}"
        case GiveUpInitiative():
            return None, "Give up the Initiative willingly"


def _step_parts(
    state: MatchState, figure_id: str, direction: tuple[int, int]
) -> tuple[str | None, str]:
    try:
        figure = state.figure(figure_id)
    except KeyError:
        return figure_id, compass(direction)
    heading = f"{figure.name} at {square(figure.square)}"
    act = state.activation
    if act is not None and act.action is not None:
        action = act.action
        left = action.steps_left if action.mover == figure_id else action.allowance
        heading += f", {left} space{'s' if left != 1 else ''} left"
    if figure.square is None:
        return heading, compass(direction)
    to = (figure.square[0] + direction[0], figure.square[1] + direction[1])
    return heading, f"{compass(direction)} to {square(to)}"


def _end_move_label(state: MatchState) -> str:
    act = state.activation
    if act is None or act.action is None or act.action.mover is None:
        return "End the Move action without moving"
    return "End the Move action"


# --- events ---------------------------------------------------------------------


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


class Narrator:
    """Tells events as lines of text, joining one figure's consecutive steps into one line.

    Feed it events with :meth:`tell`; take finished lines with :meth:`take`.
    """

    def __init__(self, viewer: Seat | None) -> None:
        self.viewer = viewer
        """The seat whose secrets may be told (None: nobody's)."""
        self._lines: list[str] = []
        self._run: _StepRun | None = None
        self._run_figure: str | None = None

    def tell(self, state: MatchState, events: Iterable[Event]) -> MatchState:
        """Tell events that happened from ``state`` on; return the state after them."""
        for event in events:
            if isinstance(event, FigureStepped):
                self._step(state, event)
            else:
                line = describe_event(state, event, self.viewer)
                if line is not None:
                    self._close_run()
                    self._lines.append(line)
            state = evolve(state, event)
        return state

    def take(self, *, keep_open_steps: bool = False) -> list[str]:
        """Return the lines told so far and forget them.

        With ``keep_open_steps`` a run of steps that may go on is kept back.
        """
        if not keep_open_steps:
            self._close_run()
        lines, self._lines = self._lines, []
        return lines

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


def describe_event(state: MatchState, event: Event, viewer: Seat | None) -> str | None:
    """Return one event in words as ``viewer`` may know it, or None for an event not worth a line.

    ``state`` is the state just before the event. A secret selection is told
    only to its own player; everyone else learns that it was made.
    """
    match event:
        case SetUpCoinFlipped(set_up_player=seat):
            return f"The coin is flipped: {player_name(state, seat)} is the Set Up Player."
        case TeamsChosen(heroes=heroes, adversaries=adversaries, scenario=scenario):
            return (
                f"{team_name(heroes)} (Heroes) against {team_name(adversaries)} (Adversaries), "
                f"in {scenario_name(adversaries, scenario)}."
            )
        case BoardSetUp(board=board, figures=figures):
            return (
                f"The board is laid out, {board.width} by {board.height} spaces, "
                f"and {len(figures)} figures are placed."
            )
        case StartingTeamChosen(side=side):
            return f"The {side_name(side)} will start each round with the Initiative."
        case SideChosen(seat=seat, side=side):
            other: Seat = 2 if seat == 1 else 1
            other_side: Side = "adversaries" if side == "heroes" else "heroes"
            return (
                f"{player_name(state, seat)} takes the {side_name(side)}; "
                f"{player_name(state, other)} plays the {side_name(other_side)}."
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
        case MatchEnded():
            return "The match is over: six rounds have been played."
        case CoinsSelected(side=side, coin=coin, actions=actions):
            if can_see(state, viewer, side):
                return f"You select {coin_name(state, coin)} with {actions_name(actions)}."
            return f"The {side_name(side)} select their coins in secret."
        case ReactionSelected(side=side, coin=coin, actions=actions):
            if coin is None:
                return f"The {side_name(side)} select nothing: none of their units can react."
            if can_see(state, viewer, side):
                return (
                    f"You select a reaction: {coin_name(state, coin)} with {actions_name(actions)}."
                )
            return f"The {side_name(side)} select a reaction in secret."
        case CoinsRevealed(side=side, coin=coin, actions=actions):
            what = f"{coin_name(state, coin)} with {actions_name(actions)}"
            return f"The {side_name(side)} reveal {what}."
        case ActionStarted(unit=unit_id, action=kind, double=double):
            what = action_name(kind, double=double)
            if kind == "move":
                spaces = 6 if double else 3
                return (
                    f"{unit_name(state, unit_id)} takes a {what} action: "
                    f"each figure may move up to {spaces} spaces."
                )
            return f"{unit_name(state, unit_id)} takes a {what} action."
        case FigureStepped(figure=figure_id, to=to):
            return f"{figure_name(state, figure_id)} steps to {square(to)}."
        case ActionEnded():
            return None
        case ReactionRevealed(side=side, coin=coin, actions=actions):
            return (
                f"The {side_name(side)} reveal their unused reaction: "
                f"{coin_name(state, coin)} with {actions_name(actions)}."
            )
        case UnitCoinDiscarded(side=side, coin=coin):
            return f"{coin_name(state, coin)} goes to the {side_name(side)}' discard."
        case UnitCoinReturned(side=side, coin=coin):
            return f"{coin_name(state, coin)} goes back to the {side_name(side)}' stash."
        case ActivationEnded():
            return None
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


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _coin_list(state: MatchState, coins: Sequence[CoinId]) -> str:
    return ", ".join(coin_name(state, c) for c in coins)


def coin_summary(state: MatchState, coins: Sequence[CoinId]) -> str:
    """Return unit coins grouped by unit: "Banner Knight: green, grey ×2; Smogon: grey"."""
    if not coins:
        return "none"
    by_unit: dict[str, list[str]] = {}
    for coin in coins:
        by_unit.setdefault(coin_unit(coin), []).append(coin_colour(coin))
    parts = []
    for unit_id, colours in by_unit.items():
        counted = []
        for colour in ("green", "grey"):
            n = colours.count(colour)
            if n:
                counted.append(colour if n == 1 else f"{colour} ×{n}")
        parts.append(f"{unit_name(state, unit_id)}: {', '.join(counted)}")
    return "; ".join(parts)


__all__ = [
    "Narrator",
    "action_name",
    "actions_name",
    "can_see",
    "coin_name",
    "coin_summary",
    "command_parts",
    "describe_command",
    "describe_event",
    "describe_events",
    "figure_name",
    "player_name",
    "side_label",
    "side_name",
    "square",
    "team_name",
    "unit_name",
]
