"""tiles-d6 at the terminal: the match ``multiversus play --game tiles-d6`` runs.

The match goes as every game's does (:mod:`multiversus_cli.play_any`: the
options, the log written entry by entry, ``--resume``, bots at their seats,
the exit codes); what is tiles-d6's own is how a person decides. The board is
drawn before each decision, and every menu is short and keeps its keys: a
turn picks a unit by its letter, then its action (1 move, 2 charge,
3 attack, 4 fire; 0 goes back); a Move or a Charge goes step by step, each
step the square typed (``c4``); a placement is a square typed too. ``?``
at any prompt gives the odds of the choices at hand, from the rules' own
modifiers and rolls (:mod:`multiversus_core.rulesets.tiles_d6.rules`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from types import MappingProxyType
from typing import Final

from rich.console import Console, RenderableType
from rich.text import Text

from multiversus_cli import play_any
from multiversus_cli.odds import FACES, chance, faces
from multiversus_cli.play_any import (
    Ask,
    BoardTerminal,
    Decision,
    PlayRequest,
    Quit,
    read_answer,
)
from multiversus_cli.presenters.tiles_d6_text import board, letters
from multiversus_core.engine.grid import distance
from multiversus_core.engine.grid import parse_square_name as parse_square
from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.render import square_list
from multiversus_core.engine.ruleset import Seat
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.model import (
    Attack,
    ChooseHalf,
    Command,
    Coord,
    EndAction,
    EndTurn,
    Fire,
    Place,
    RollOff,
    StandUp,
    StartCharge,
    StartMove,
    StepTo,
    TilesState,
    Unit,
)
from multiversus_core.rulesets.tiles_d6.words import own_name

GAME: Final = "tiles-d6"
MOST_CHOICES: Final = 12
"""No menu offers more choices than this with the bundled rosters (a roster of more than 11
units lengthens the list of units to act, one letter each)."""
PROMPT: Final = "Choice (? odds, h help, q quits): "

HELP: Final = """\
Type the key of a choice and press Enter (Enter alone takes the only choice).
A turn goes unit by unit: type a unit's letter, then its action: 1 move, 2 charge,
3 attack, 4 fire (0 goes back); 0 at the list of units ends the turn.
A Move or a Charge goes step by step: type the square to step to (they are marked
[.] on the board); 1 stands a prone unit up, 3 makes the Charge's attack, 0 stops.
In the set-up, type the square to place the unit on.
At any prompt: ? the odds of the choices at hand, board the board again, h this help,
q quits (the log is kept: play --resume, or join's link again, carries it on)."""


def play_request(out: Console, err: Console, request: PlayRequest, ask: Ask = input) -> int:
    """Play the tiles-d6 match ``request`` asks for at the terminal, people answering through
    ``ask``; return the exit code (:mod:`multiversus_cli.play_any`)."""
    return play_any.play_request(out, err, GAME, request, TilesTerminal(), ask)


# --- menus --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One choice of a menu: the key typed, what it says, and what it leads to: a command, a
    menu, or (None) back to the menu before."""

    key: str
    label: str
    then: Command | Menu | None


@dataclass(frozen=True)
class Menu:
    """What a person may answer at one prompt: keyed choices, and squares typed by name."""

    title: str
    choices: tuple[Choice, ...] = ()
    squares: Mapping[Coord, Command] = field(default_factory=lambda: MappingProxyType({}))
    """The commands a typed square name gives, by square."""
    square_hint: str = ""
    """What a square typed does ("to step to")."""
    odds: tuple[str, ...] = ()
    """What ``?`` says: the odds of each choice at hand."""

    def commands(self) -> Iterable[Command]:
        """Every command the menu and the menus under it lead to."""
        yield from self.squares.values()
        for choice in self.choices:
            if isinstance(choice.then, Menu):
                yield from choice.then.commands()
            elif choice.then is not None:
                yield choice.then


def menu_for(state: TilesState, seat: Seat, legal: Sequence[Command]) -> Menu:
    """The menu of ``seat``'s decision in ``state``, its ``legal`` commands (as the rules list
    them) sorted into short menus."""
    match state.phase:
        case "roll_off":
            odds = (
                "Each player rolls a d6; the higher is player one, and a tie is rolled again: "
                f"{chance(Fraction(1, 2))} to be player one.",
            )
            roll = next(c for c in legal if isinstance(c, RollOff))
            return Menu("roll off for who goes first", (Choice("1", "roll off", roll),), odds=odds)
        case "choose_half":
            return _half_menu(state, legal)
        case "deploy":
            return _place_menu(state, seat, legal)
    if state.action is not None:
        return _action_menu(state, legal)
    return _turn_menu(state, seat, legal)


MOVE_ODDS: Final = (
    "A Move has the unit's Mv in points, a Charge 1 fewer and one attack at -1; a step rolls "
    "only when it leaves brambles or a square next to an enemy."
)

_SET_UP_ODDS: Final = (
    "No die is rolled in the set-up. A unit goes on a free tile of its side's half that does "
    "not block movement, more than 2 from the centre.",
)


def _half_menu(state: TilesState, legal: Sequence[Command]) -> Menu:
    half = rules.grid_of(state).height // 2
    height = rules.grid_of(state).height
    ranks = {"north": f"ranks 1-{half}", "south": f"ranks {height - half + 1}-{height}"}
    choices = tuple(
        Choice(str(number), f"the {c.half} half ({ranks[c.half]})", c)
        for number, c in enumerate((c for c in legal if isinstance(c, ChooseHalf)), start=1)
    )
    return Menu("you are player one: choose the half you set up in", choices, odds=_SET_UP_ODDS)


def _place_menu(state: TilesState, seat: Seat, legal: Sequence[Command]) -> Menu:
    unit = rules.next_to_place(state, seat)
    assert unit is not None  # the seat is placing: a unit is left
    squares = {c.at: c for c in legal if isinstance(c, Place)}
    title = f"place {own_name(unit)} ({letters(state)[unit.id]})"
    return Menu(title, (), _frozen(squares), "to place it on", _SET_UP_ODDS)


def _turn_menu(state: TilesState, seat: Seat, legal: Sequence[Command]) -> Menu:
    shown = letters(state)
    choices: list[Choice] = []
    odds: list[str] = []
    for command in legal:
        if not isinstance(command, StartMove):
            continue
        unit = state.unit(command.unit)
        assert unit is not None and unit.at is not None
        menu = _unit_menu(state, unit, legal)
        label = f"{own_name(unit)} on {square(unit.at)}" + (", prone" if unit.prone else "")
        choices.append(Choice(shown[unit.id], label, menu))
        odds.extend(f"{shown[unit.id]} {own_name(unit)}: {line}" for line in menu.odds[1:])
    end = next(c for c in legal if isinstance(c, EndTurn))
    choices.append(Choice("0", "end the turn", end))
    odds.extend(_end_turn_odds(state, seat))
    odds.append(MOVE_ODDS)
    title = "pick a unit to act" if len(choices) > 1 else "no unit can act: end the turn"
    return Menu(title, tuple(choices), odds=tuple(odds))


def _unit_menu(state: TilesState, unit: Unit, legal: Sequence[Command]) -> Menu:
    shown = letters(state)
    mine = [c for c in legal if getattr(c, "unit", None) == unit.id]
    stand = " (standing up takes 1)" if unit.prone else ""
    choices: list[Choice] = []
    odds = [f"{own_name(unit)}: a Move has {unit.stats.move} points{stand}, a Charge 1 fewer."]
    for command in mine:
        match command:
            case StartMove():
                choices.append(Choice("1", f"move ({unit.stats.move} points{stand})", command))
            case StartCharge():
                label = f"charge ({unit.stats.move - 1} points, one attack at -1 on the way)"
                choices.append(Choice("2", label, command))
    attacks = [c for c in mine if isinstance(c, Attack)]
    fires = [c for c in mine if isinstance(c, Fire)]
    if attacks:
        choices.append(Choice("3", "attack…", _target_menu(state, "attack", attacks)))
        odds.extend(attack_odds(state, c, charge=False) for c in attacks)
    if fires:
        choices.append(Choice("4", "fire…", _target_menu(state, "fire at", fires)))
        odds.extend(fire_odds(state, c) for c in fires)
    choices.append(Choice("0", "back", None))
    title = f"{own_name(unit)} ({shown[unit.id]}) on {_where(unit)}: what does it do?"
    return Menu(title, tuple(choices), odds=tuple(odds))


def _target_menu(state: TilesState, verb: str, commands: Sequence[Attack | Fire]) -> Menu:
    shown = letters(state)
    choices: list[Choice] = []
    odds: list[str] = []
    for command in commands:
        target = state.unit(command.target)
        assert target is not None and target.at is not None
        health = f"{target.health}/{target.stats.health} health"
        label = f"{own_name(target)} on {square(target.at)}, {health}"
        choices.append(
            Choice(shown[target.id], label + (", prone" if target.prone else ""), command)
        )
        if isinstance(command, Fire):
            odds.append(fire_odds(state, command))
        else:
            odds.append(attack_odds(state, command, charge=state.action is not None))
    choices.append(Choice("0", "back", None))
    return Menu(f"{verb} which enemy?", tuple(choices), odds=tuple(odds))


def _action_menu(state: TilesState, legal: Sequence[Command]) -> Menu:
    action = state.action
    assert action is not None
    unit = state.unit(action.unit)
    assert unit is not None and unit.at is not None
    steps = {c.to: c for c in legal if isinstance(c, StepTo)}
    odds = [step_odds(state, unit, to) for to in sorted(steps, key=lambda c: (c[1], c[0]))]
    choices: list[Choice] = []
    for command in legal:
        if isinstance(command, StandUp):
            choices.append(Choice("1", "stand up (1 point)", command))
            odds.append("stand up: 1 point, no roll")
    attacks = [c for c in legal if isinstance(c, Attack) and c.unit == unit.id]
    if attacks:
        choices.append(
            Choice(
                "3",
                "attack… (the Charge's one attack, at -1)",
                _target_menu(state, "attack", attacks),
            )
        )
        odds.extend(attack_odds(state, c, charge=True) for c in attacks)
    stop = next(c for c in legal if isinstance(c, EndAction))
    choices.append(Choice("0", f"stop: {own_name(unit)}'s action ends", stop))
    kind = "charging" if action.charge else "moving"
    points = "1 point" if action.points == 1 else f"{action.points} points"
    title = (
        f"{own_name(unit)} ({letters(state)[unit.id]}) is {kind} on {_where(unit)}: {points} left"
    )
    hint = "to step to" if steps else ""
    return Menu(title, tuple(choices), _frozen(steps), hint, tuple(odds))


def _where(unit: Unit) -> str:
    assert unit.at is not None
    return square(unit.at) + (", prone" if unit.prone else "")


def _frozen(squares: Mapping[Coord, Command]) -> Mapping[Coord, Command]:
    return MappingProxyType(squares)


# --- the odds -----------------------------------------------------------------------------


def _to_hit(what: str, hits: Sequence[int], modifier: int) -> str:
    """``what``, the face it needs and its chance to hit: "...: needs 4+ on a d6 (+0 to the
    die): 1 in 2 to hit"."""
    if not hits:
        return f"{what}: cannot hit ({modifier:+d} to the die: a 6 makes {6 + modifier})"
    odds = chance(Fraction(len(hits), 6))
    return f"{what}: needs {hits[0]}+ on a d6 ({modifier:+d} to the die): {odds} to hit"


def attack_odds(state: TilesState, command: Attack, *, charge: bool) -> str:
    """A melee attack's odds (T22, T23), from :func:`rules.melee_modifier` and
    :func:`rules.melee_result`: "attack a Ogre: needs 3+ on a d6 (+1 to the die): 2 in 3 to
    hit; backfires on a 1: 1 in 6"."""
    attacker, target = state.unit(command.unit), state.unit(command.target)
    assert attacker is not None and target is not None
    modifier = rules.melee_modifier(state, attacker, target, charge=charge)
    results = {face: rules.melee_result(face, modifier) for face in FACES}
    hits = [face for face in FACES if results[face] == "hit"]
    backfires = [face for face in FACES if results[face] == "backfire"]
    what = f"attack {letters(state)[target.id]} {own_name(target)}"
    backfire = f"backfires on {faces(backfires)}: {chance(Fraction(len(backfires), 6))}"
    return f"{_to_hit(what, hits, modifier)}; {backfire}"


def fire_odds(state: TilesState, command: Fire) -> str:
    """A Fire's odds (T26), from :func:`rules.fire_modifier` and :func:`rules.fire_hits`:
    "fire at a Ogre (range 5: -1): needs 4+ on a d6 (+0 to the die): 1 in 2 to hit"."""
    shooter, target = state.unit(command.unit), state.unit(command.target)
    assert shooter is not None and target is not None
    assert shooter.at is not None and target.at is not None
    modifier = rules.fire_modifier(state, shooter, target)
    hits = [face for face in FACES if rules.fire_hits(face + modifier)]
    reach = distance(shooter.at, target.at)
    penalty = rules.range_penalty(shooter.at, target.at)
    what = f"fire at {letters(state)[target.id]} {own_name(target)} (range {reach}: -{penalty})"
    return _to_hit(what, hits, modifier)


def step_odds(state: TilesState, unit: Unit, to: Coord) -> str:
    """A step's cost and the chance it falls (T10, T11, T19, T35), from :func:`rules.step_cost`,
    :func:`rules.rolls_brambles`, :func:`rules.withdraw_modifier` and their falls: "c3: 2 points;
    withdraw roll (d6 -1, 3 or less falls): falls 2 in 3"."""
    cost = rules.step_cost(state, unit)
    brambles = rules.rolls_brambles(state, unit)
    withdraw = rules.withdraw_modifier(state, unit, to)
    rolls: list[str] = []
    if brambles:
        rolls.append("brambles roll (a 1 falls)")
    if withdraw is not None:
        rolls.append(f"withdraw roll (d6 {withdraw:+d}, 3 or less falls)")
    points = "1 point" if cost == 1 else f"{cost} points"
    if not rolls:
        return f"{square(to)}: {points}, no roll"
    falls = sum(
        (brambles and rules.brambles_fall(first))
        or (withdraw is not None and rules.withdraw_falls(second + withdraw))
        for first, second in product(FACES, FACES)
    )
    odds = chance(Fraction(falls, 36))
    return f"{square(to)}: {points}; {' then '.join(rolls)}: falls {odds}"


def _end_turn_odds(state: TilesState, seat: Seat) -> list[str]:
    """What ending the turn rolls: each concussed unit's die (T15)."""
    recovers = chance(Fraction(sum(rules.concussion_recovers(face) for face in FACES), 6))
    lines = []
    for unit in rules.on_board(state, seat):
        if unit.concussed and unit.concussed < state.turn:
            lines.append(
                f"0 ending the turn, {own_name(unit)} rolls for its concussion (4+ recovers): "
                f"{recovers}"
            )
        elif unit.stunned and unit.stunned < state.turn:
            lines.append(f"0 ending the turn, {own_name(unit)} recovers from its stun")
    return lines


# --- answering ----------------------------------------------------------------------------


class Wrong(Exception):
    """An answer that is no choice here; the message says why, in a line."""


def answer(state: TilesState, seat: Seat, menu: Menu, typed: str) -> Command | Menu | None:
    """What ``typed`` chooses in ``menu``: a command, a menu under it, or None to go back.

    :raises Wrong: if it chooses nothing.
    """
    text = typed.strip()
    if not text:
        if len(menu.choices) == 1 and not menu.squares:
            return menu.choices[0].then
        raise Wrong("Nothing was typed.")
    for choice in menu.choices:
        if text.lower() == choice.key.lower():
            return choice.then
    at = parse_square(text)
    if at is not None:
        if at in menu.squares:
            return menu.squares[at]
        raise Wrong(_refused(state, seat, menu, at))
    offered = [choice.key for choice in menu.choices] + (["a square"] if menu.squares else [])
    either = ", ".join(offered[:-1]) + " or " + offered[-1] if len(offered) > 1 else offered[0]
    raise Wrong(f"{printable(text[:20])!r} is not a choice here: type {either}.")


def _refused(state: TilesState, seat: Seat, menu: Menu, at: Coord) -> str:
    """Why a square typed is not one of the menu's, in a line."""
    name = square(at)
    if not rules.grid_of(state).contains(at):
        last = square((rules.grid_of(state).width - 1, rules.grid_of(state).height - 1))
        return f"{name} is not on the board (a1 to {last})."
    if not menu.squares:
        return "No square is chosen here: type the key of a choice."
    if state.phase == "deploy":
        return (
            f"{name} is not a square to set up on: a free tile of your half that does not block "
            "movement, more than 2 from the centre (marked [.] on the board)."
        )
    action = state.action
    unit = None if action is None else state.unit(action.unit)
    assert unit is not None and unit.at is not None
    problem = rules.step_problem(state, unit, at)
    if problem:
        return f"{own_name(unit)} cannot step to {name}: {problem}."
    return f"{own_name(unit)} cannot step to {name} now."  # pragma: no cover - the rules list it


# --- the terminal -------------------------------------------------------------------------


class TilesTerminal(BoardTerminal):
    """tiles-d6's board and short menus at the terminal (:mod:`multiversus_cli.play_any`)."""

    def draw(
        self, state: TilesState, viewer: str, *, result: bool = True, marked: Collection[Coord] = ()
    ) -> RenderableType:
        """The board (:func:`.tiles_d6_text.board`)."""
        return board(state, viewer, result=result, marked=marked)

    def choose(self, decision: Decision, out: Console, ask: Ask) -> Command:
        """A person's command through the menus, the board drawn first.

        :raises Quit: when the person types q, or the input ends.
        """
        state: TilesState = decision.state
        seat: Seat = decision.seat
        viewer = decision.ruleset.viewer_of(state, seat)
        menus = [menu_for(state, seat, decision.legal)]
        self.show_board(decision, out, tuple(menus[0].squares))
        name = decision.names[seat - 1]
        show_menu(out, f"{name}, seat {seat}", menus[-1])
        while True:
            typed = read_answer(ask, PROMPT)
            menu = menus[-1]
            match typed.lower():
                case "q" | "quit" | "exit":
                    raise Quit
                case "h" | "help":
                    out.print(HELP, markup=False)
                    continue
                case "?":
                    for line in menu.odds or ("No die is rolled for these choices.",):
                        out.print(f"  {printable(line)}", markup=False)
                    continue
                case "board":
                    out.print(board(state, viewer, marked=tuple(menus[0].squares)))
                    continue
            try:
                then = answer(state, seat, menu, typed)
            except Wrong as exc:
                out.print(Text(f"{exc} (h for help)", style="yellow"))
                continue
            if isinstance(then, Menu):
                menus.append(then)
            elif then is None:
                if len(menus) > 1:
                    menus.pop()
            else:
                return then
            show_menu(out, f"{name}, seat {seat}", menus[-1])


def show_menu(out: Console, who: str, menu: Menu) -> None:
    """Print a menu: its title, a choice a line, and the squares it takes."""
    out.print(Text(printable(f"{who}: {menu.title}"), style="bold"))
    for choice in menu.choices:
        line = Text("  ")
        line.append(choice.key, style="bold cyan")
        line.append(printable(f"  {choice.label}"))
        out.print(line)
    if menu.squares:
        out.print(
            printable(f"Type a square {menu.square_hint}: {square_list(menu.squares)}"),
            markup=False,
        )


__all__ = [
    "HELP",
    "MOST_CHOICES",
    "PROMPT",
    "Choice",
    "Menu",
    "TilesTerminal",
    "Wrong",
    "answer",
    "attack_odds",
    "fire_odds",
    "menu_for",
    "play_request",
    "show_menu",
    "step_odds",
]
