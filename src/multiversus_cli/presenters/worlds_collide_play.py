"""worlds-collide at the terminal: the match ``multiversus play --game worlds-collide`` runs.

The match goes as every game's does (:mod:`multiversus_cli.play_any`: the
options, the log written entry by entry, ``--resume``, bots at their seats,
the exit codes); what is worlds-collide's own is how a person decides. The
board is drawn before each decision, and each decision is asked one short
menu at a time, as the game's trees of choices split it
(:mod:`multiversus_core.rulesets.worlds_collide.choices`): deployment as a
model, its row, its square; an activation as activate or pass, the models,
the plan, a tactic; its moves as each model's row then square, its attacks
one target a die. A menu is never longer than :data:`MOST_CHOICES`. Models
may be typed by their letters on the map, squares by name (``c4``, even
where the row is asked), and ``?`` at any prompt gives the odds of the
choices at hand from the rules' own functions
(:mod:`multiversus_core.rulesets.worlds_collide.rules`): the face a die
needs, cover, the damage of a hit, a tactic's check, what a re-roll costs.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fractions import Fraction
from typing import Final

from msgspec.structs import replace
from rich.console import Console, RenderableType
from rich.text import Text

from multiversus_cli import play_any
from multiversus_cli.odds import FACES, chance
from multiversus_cli.play_any import Ask, BoardTerminal, Decision, PlayRequest, TreeMenus
from multiversus_cli.presenters.worlds_collide_text import (
    board,
    effect_words,
    fields_words,
    knack_words,
    letters,
    penalty_words,
    roll_line,
)
from multiversus_core.engine.choices import Ask as ChoiceAsk
from multiversus_core.engine.choices import CommandTree, Option, is_tree
from multiversus_core.engine.grid import parse_square_name, square_name
from multiversus_core.engine.render import square_list
from multiversus_core.engine.ruleset import Seat
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.worlds_collide import geometry, rules
from multiversus_core.rulesets.worlds_collide.choices import (
    DONE,
    ActChoices,
    ActivationChoices,
    DeployChoices,
)
from multiversus_core.rulesets.worlds_collide.content import TacticEffect, Weapon
from multiversus_core.rulesets.worlds_collide.model import (
    BASE_AP,
    Command,
    Coord,
    KeepDice,
    Model,
    Reroll,
    Roll,
    RollOff,
    StartRound,
    WorldsState,
    meets_knack,
)

GAME: Final = "worlds-collide"
MOST_CHOICES: Final = 20
"""No menu offers more choices than this (the rows and the squares of a row of a 17 by 17
map, a faction's models, the targets of an attack and "no more")."""

HELP: Final = """\
Type the number of a choice and press Enter (Enter alone takes the only choice). A model
may be typed by its letter on the map, and a square by its name (c4), even where its row
is asked.
An activation: activate or pass; the first model, then any joining it as a formation
(next to one chosen, of one training or with a leader); the plan; a tactic. Then each
model's move (its row, then its square) and each attack (a target for each die, or "no
more attacks with it").
After a roll, a failed die may be re-rolled once for 1 AP, or the dice kept.
At any prompt: ? the odds of the choices at hand, board the board again, b takes back the
answer before, h this help, q quits (the log is kept: play --resume, or join's link again,
carries it on)."""


def play_request(out: Console, err: Console, request: PlayRequest, ask: Ask = input) -> int:
    """Play the worlds-collide match ``request`` asks for at the terminal, people answering
    through ``ask``; return the exit code (:mod:`multiversus_cli.play_any`)."""
    return play_any.play_request(out, err, GAME, request, WorldsTerminal(), ask)


# --- the decisions that are lists, as one menu -------------------------------------------------


class Listed:
    """A decision the rules list (a roll-off, the start of a round, a re-roll or keeping the
    dice) as a tree of one menu, each command told in the game's words."""

    def __init__(self, prompt: str, commands: Sequence[tuple[str, Command]]) -> None:
        self.prompt = prompt
        self.commands = tuple(commands)

    def ask(self, chosen: Sequence[str]) -> ChoiceAsk | Command:
        """The one menu, then the command chosen."""
        if not chosen:
            options = (Option(str(n), label) for n, (label, _) in enumerate(self.commands, 1))
            return ChoiceAsk(self.prompt, tuple(options))
        key = chosen[0]
        if len(chosen) == 1 and key.isdigit() and 1 <= int(key) <= len(self.commands):
            return self.commands[int(key) - 1][1]
        raise ValueError(f"{'/'.join(chosen)!r} is not a way through these choices")

    def __contains__(self, command: object) -> bool:
        """Whether the command is one of the list's."""
        return any(command == c for _, c in self.commands)


def listed(state: WorldsState, seat: Seat, legal: Sequence[Command]) -> Listed:
    """The menu of a decision the rules list, in the game's words."""
    ap = state.sides[seat - 1].ap
    commands: list[tuple[str, Command]] = []
    prompt = "Roll"
    for command in legal:
        match command:
            case RollOff():
                prompt = "The deployment roll-off (W18)"
                commands.append(("roll off: the higher d6 deploys first", command))
            case StartRound():
                prompt = f"Round {state.round + 1} begins"
                commands.append(("roll for the environment, then the AP", command))
            case Reroll(die=die):
                roll = _roll(state)
                face, need = roll.faces[die], roll.needed[die]
                commands.append(
                    (
                        f"re-roll die {die + 1} (a {face}, needs {knack_words(need)}) "
                        f"for 1 AP: {ap - 1} AP left",
                        command,
                    )
                )
            case KeepDice():
                roll = _roll(state)
                hits = sum(roll.hits(i) for i in range(len(roll.faces)))
                what = (
                    ("the check succeeds" if hits else "the check fails")
                    if roll.target is None
                    else f"{hits} of {len(roll.faces)} hit"
                )
                commands.append((f"keep the dice: {what}", command))
                prompt = f"{roll_line(state)} You have {ap} AP."
    return Listed(prompt, commands)


def _roll(state: WorldsState) -> Roll:
    activation = state.activation
    assert activation is not None and activation.roll is not None
    return activation.roll


# --- the odds ---------------------------------------------------------------------------------


def hit_chance(knack: int) -> Fraction:
    """The chance a d6 meets ``knack`` (W15: a 6 always, a 1 never)."""
    return Fraction(sum(meets_knack(face, knack) for face in FACES), 6)


def with_reroll(odds: Fraction) -> Fraction:
    """The chance of a die that may be re-rolled once when it fails (W16)."""
    return odds + (1 - odds) * odds


def placed(state: WorldsState, squares: dict[str, Coord] | None) -> WorldsState:
    """``state`` with models standing on ``squares`` (where a formation has chosen to move)."""
    if not squares:
        return state
    return replace(
        state,
        models=tuple(
            replace(m, at=squares[m.id]) if m.id in squares and m.at != squares[m.id] else m
            for m in state.models
        ),
    )


def attack_odds(state: WorldsState, attacker: Model, weapon: Weapon, target: Model) -> str:
    """An attack's odds (W14-W17, W4), from :func:`rules.needed`, :func:`rules.in_cover` and
    :func:`rules.damage`: "a Sprite 2 on m16 (2 HP): needs 4+, 1 in 2 a die; a hit deals 4,
    enough to fell it"."""
    need = rules.needed(state, attacker, weapon)
    odds = hit_chance(need)
    assert target.at is not None
    said = f"{letters(state)[target.id]} {target.name} on {square_name(target.at)} ({target.hp} HP)"
    said += f": needs {knack_words(need)}, {chance(odds)} a die"
    if weapon.kind == "ranged" and need >= rules.RANGED_IN_MELEE:
        said += " (ranged next to an enemy: only a 6)"
    if weapon.kind == "ranged" and rules.in_cover(state, attacker, target):
        cover = rules.effect(state).cover_value
        said += f"; in cover: defense +{rules.COVER if cover is None else cover}, Physical"
    dealt = rules.damage(state, attacker, weapon, target)
    said += f"; a hit deals {dealt}" + (", enough to fell it" if dealt >= target.hp else "")
    return said


TACTIC_WORDS: Final = {
    "ranged_damage": "ranged hits +{} damage",
    "melee_damage": "melee hits +{} damage",
    "ranged_attacks": "+{} attack with each ranged weapon",
    "melee_attacks": "+{} attack with each melee weapon",
    "move": "+{} Move",
    "through_enemies": "may move through enemy models",
}
"""Each field of a tactic's effect (W24) in words."""


def tactic_words(effect: TacticEffect) -> str:
    """What a tactic gives the activation (W24), in words."""
    return fields_words(effect, TACTIC_WORDS, ", ")


def _reroll_words(state: WorldsState, seat: Seat, spend: int = 0) -> str:
    left = state.sides[seat - 1].ap - spend
    if left < 1:
        return "no AP would be left to re-roll a failed die"
    return f"a failed die may be re-rolled once for 1 AP ({left} AP then)"


def tactic_odds(state: WorldsState, seat: Seat) -> list[str]:
    """Each tactic's check (W11, W16, W36: no environment modifier), its effect, and the
    round's penalty for a failure."""
    lines = []
    reroll = state.sides[seat - 1].ap - 1 >= 1  # after the activation's AP
    for tactic in state.sides[seat - 1].faction.tactics:
        odds = hit_chance(tactic.knack)
        again = f", {chance(with_reroll(odds))} with a re-roll" if reroll else ""
        lines.append(
            f"{tactic.name} (knack {tactic.knack}): {chance(odds)} to succeed{again}: "
            f"{tactic_words(tactic.effect)}"
        )
    entry = state.environment
    if entry is not None:
        lines.append(f"A failed check ({entry.name}): {penalty_words(entry.penalty)}.")
    reroll_line = _reroll_words(state, seat, spend=1)
    lines.append(reroll_line[0].upper() + reroll_line[1:] + ".")
    return lines


def move_words(state: WorldsState, model: Model, *, twice: bool) -> str:
    """A model's movement this activation (W2, W12, W24, W25, W39), from
    :func:`rules.move_budget`."""
    budget = rules.move_budget(state, model, twice=twice)
    return f"{model.name} {budget}"


def plan_odds(state: WorldsState, models: Sequence[Model]) -> list[str]:
    """What each plan lets the models do (W12, W34), their movement from the rules."""
    once = ", ".join(move_words(state, m, twice=False) for m in models)
    double = ", ".join(move_words(state, m, twice=True) for m in models)
    return [
        f"move, then attack: each moves up to its movement ({once}), then attacks from there",
        "attack, then move: each attacks from where it stands, then moves as far",
        f"move twice: one move of twice the movement ({double}), no attack",
        "A step costs 1, 3 onto or off a ruin; models pass through friends, never enemies, "
        "and the formation ends as one group (W2, W13).",
    ]


def round_odds(state: WorldsState) -> list[str]:
    """What the start of a round rolls and gives (W5-W7, W20)."""
    names = state.settings.players
    gains = [
        f"{names[seat - 1]} {BASE_AP + sum(m.kind.leadership for m in rules.on_board(state, seat))}"
        for seat in (1, 2)
    ]
    lines = [
        f"AP gained: 2 and each leader's leadership on the board: {', '.join(gains)}; the "
        "fewer AP goes first, equal AP roll off (W6, W7)."
    ]
    if rules.DECK in state.settings.variants:
        lines.append(f"The environment: a card drawn from the {len(state.deck)} left (W20).")
        return lines
    lines.append(
        "The environment: a roll-off (1 in 2 each), the winner rolls a d6 on its own table:"
    )
    for side in state.sides:
        for entry in sorted(side.faction.environment, key=lambda e: e.roll):
            lines.append(
                f"  {side.faction.name} {entry.roll} {entry.name}: {effect_words(entry.effect)};"
                f" a failed tactic: {penalty_words(entry.penalty)}"
            )
    return lines


def reroll_odds(state: WorldsState) -> list[str]:
    """What re-rolling each failed die may bring (W15, W16), and what a hit deals."""
    activation = state.activation
    assert activation is not None and activation.roll is not None
    roll = activation.roll
    lines = []
    for die in roll.rerollable():
        odds = chance(hit_chance(roll.needed[die]))
        lines.append(
            f"re-roll die {die + 1} for 1 AP: {odds} it meets {knack_words(roll.needed[die])}"
        )
    if roll.target is None:
        tactic = state.sides[activation.seat - 1].faction.tactic(activation.tactic or "")
        lines.append(f"success: {tactic_words(tactic.effect)}")
        if state.environment is not None:
            lines.append(f"failure: {penalty_words(state.environment.penalty)}")
        return lines
    target = state.model(roll.target)
    for attack in dict.fromkeys(roll.attacks):
        attacker = state.model(attack.model)
        weapon = None if attacker is None else rules.weapon_of(attacker, attack.weapon)
        if attacker is None or weapon is None or target is None:
            continue
        dealt = rules.damage(state, attacker, weapon, target)
        lines.append(
            f"a hit of {attacker.name}'s {weapon.name} deals {dealt} "
            f"({target.name}: {target.hp} HP)"
        )
    return lines


DEPLOY_ODDS: Final = (
    "No die is rolled in deployment: a model goes on a free square of your deployment rows "
    "(W18); the players place alternately.",
)


# --- the menus --------------------------------------------------------------------------------


class WorldsMenus(TreeMenus):
    """One decision's menus: the game's tree of choices, options told with the models' letters
    and squares, models typed by letter, squares by name, ``?`` the odds, ``h`` help, ``board``
    the board again."""

    def __init__(
        self, state: WorldsState, seat: Seat, tree: CommandTree[Command], who: str
    ) -> None:
        self.state = state
        self.seat = seat
        self.tree = tree
        self.who = who
        self.letters = letters(state)
        self._squares: dict[tuple[str, ...], tuple[Coord, ...]] = {}

    # what is shown

    def show(self, asked: ChoiceAsk, chosen: tuple[str, ...], out: Console) -> None:
        """The question, its options, and the squares a row's menu takes typed."""
        out.print(Text(printable(f"{self.who}: {asked.prompt}"), style="bold"))
        for number, option in zip(self.numbers(asked), asked.options, strict=True):
            line = Text("  ")
            line.append(number, style="bold cyan")
            line.append(printable(f". {self.label(asked, option, chosen)}"))
            out.print(line)
        squares = self.squares(asked, chosen)
        if squares:
            out.print(printable(f"Or type a square: {square_list(squares)}"), markup=False)

    def label(self, asked: ChoiceAsk, option: Option, chosen: tuple[str, ...]) -> str:
        """A model told with its letter and where it stands (or its stats, before it is
        deployed); any other option as the tree tells it."""
        model = self.state.model(option.key)
        if model is None:
            return option.label
        letter = self.letters[model.id]
        kind = model.kind
        if model.at is None:
            leader = f", leader {kind.leadership}" if kind.is_leader else ""
            return (
                f"{letter} {model.name}: Move {kind.move}, {kind.hp} HP, defense {kind.defense}, "
                f"{kind.training}{leader}"
            )
        return f"{letter} {model.name} on {square_name(model.at)}, {model.hp}/{kind.hp} HP"

    def numbers(self, asked: ChoiceAsk) -> tuple[str, ...]:
        """A row by its own number; any other option by its place, from 1."""
        if _is_rows(asked):
            return tuple(option.key for option in asked.options)
        return super().numbers(asked)

    def prompt(self, asked: ChoiceAsk, *, back: bool) -> str:
        """The choices at hand, and the keys."""
        more = ", b back" if back else ""
        return f"Choice (? odds, h help{more}, q quits): "

    def hint(self, asked: ChoiceAsk, *, back: bool) -> str:
        """What to type."""
        more = ", b back" if back else ""
        what = "a row's number or a square" if _is_rows(asked) else "the number of a choice"
        return f"Type {what}{more}, ? for the odds, h for help, or q."

    # what is typed

    def other(
        self, answer: str, asked: ChoiceAsk, chosen: tuple[str, ...], out: Console
    ) -> tuple[str, ...] | bool:
        """``?``, ``h``, ``board``, a model's letter or a square's name."""
        low = answer.strip().lower()
        if low == "?":
            for line in self.odds(asked, chosen) or ("No die is rolled for these choices.",):
                out.print(f"  {printable(line)}", markup=False)
            return True
        if low in ("h", "help"):
            out.print(HELP, markup=False)
            return True
        if low == "board":
            out.print(board(self.state, f"seat-{self.seat}", marked=self.marks(asked, chosen)))
            return True
        if not answer:
            if len(asked.options) == 1:
                return (asked.options[0].key,)
            return False
        for option in asked.options:
            model = self.state.model(option.key)
            if model is not None and self.letters[model.id].lower() == low:
                return (option.key,)
        at = parse_square_name(low)
        if at is not None and _is_rows(asked):
            if at in self.squares(asked, chosen):
                return (str(at[1] + 1), square_name(at))
            out.print(Text(f"{self.refused(asked, chosen, at)} (h for help)", style="yellow"))
            return True
        return False

    def squares(self, asked: ChoiceAsk, chosen: tuple[str, ...]) -> tuple[Coord, ...]:
        """The squares a menu of rows leads to, row by row (none for another menu)."""
        if not _is_rows(asked):
            return ()
        known = self._squares.get(chosen)
        if known is None:
            found: list[Coord] = []
            for option in asked.options:
                step = self.tree.ask((*chosen, option.key))
                if isinstance(step, ChoiceAsk):
                    found.extend(
                        at for o in step.options if (at := parse_square_name(o.key)) is not None
                    )
            known = self._squares[chosen] = tuple(found)
        return known

    def marks(self, asked: ChoiceAsk, chosen: tuple[str, ...]) -> Collection[Coord]:
        """The squares to mark on the board: where the model asked of may go."""
        return self.squares(asked, chosen)

    def refused(self, asked: ChoiceAsk, chosen: tuple[str, ...], at: Coord) -> str:
        """Why a square typed cannot be chosen here, in a line."""
        name = square_name(at)
        grid = self.state.game_map.grid
        if not grid.contains(at):
            last = square_name((grid.width - 1, grid.height - 1))
            return f"{name} is not on the board (a1 to {last})."
        if isinstance(self.tree, DeployChoices):
            return f"{name} is not a free square of your deployment rows (W18)."
        if not isinstance(self.tree, ActChoices):  # pragma: no cover - rows are asked of these
            return f"{name} cannot be chosen here."
        focus = self.tree.focus(chosen)
        assert focus is not None
        model = focus.model
        stands = rules.model_at(self.state, at)
        if stands is not None and stands.id != model.id:
            return f"{model.name} cannot end on {name}: {stands.name} stands there (W2)."
        assert model.at is not None
        twice = self.tree.plan == "move_twice"
        budget = rules.move_budget(self.state, model, twice=twice)
        reach = geometry.moves(
            self.state.game_map,
            model.at,
            budget,
            enemies=rules.enemy_squares(self.state, model.seat),
            through_enemies=rules.boon_of(self.state).through_enemies,
        )
        if at not in reach:
            return f"{model.name} cannot reach {name} with {budget} movement (W2)."
        return (
            f"{model.name} cannot end on {name}: the formation could not then end as one "
            "group (W13)."
        )

    # the odds

    def odds(self, asked: ChoiceAsk, chosen: tuple[str, ...]) -> list[str]:
        """What ``?`` says of the menu ``asked``: the odds of each choice, from the rules."""
        state, tree = self.state, self.tree
        if isinstance(tree, Listed):
            first = tree.commands[0][1] if tree.commands else None
            if isinstance(first, RollOff):
                return ["Each player rolls a d6, ties again: 1 in 2 to deploy first (W18)."]
            if isinstance(first, StartRound):
                return round_odds(state)
            return reroll_odds(state)
        if isinstance(tree, DeployChoices):
            return list(DEPLOY_ODDS)
        if isinstance(tree, ActivationChoices):
            return self._activation_odds(chosen)
        if isinstance(tree, ActChoices):
            return self._act_odds(asked, chosen)
        return []  # pragma: no cover - every tree of the game is above

    def _activation_odds(self, chosen: tuple[str, ...]) -> list[str]:
        state, seat = self.state, self.seat
        ap = state.sides[seat - 1].ap
        if not chosen:
            return [
                f"An activation costs 1 AP: you have {ap} (W8). A pass keeps them for the next "
                "round, and you are out of this one (W6, W7)."
            ]
        if DONE not in chosen:
            return [
                "A formation is one connected group of models of one training, or of any "
                "trainings with a leader among them (W10); it activates for 1 AP."
            ]
        models = [m for m in (state.model(k) for k in chosen[1 : chosen.index(DONE)]) if m]
        after = chosen[chosen.index(DONE) + 1 :]
        if not after:
            return plan_odds(state, models)
        return tactic_odds(state, seat)

    def _act_odds(self, asked: ChoiceAsk, chosen: tuple[str, ...]) -> list[str]:
        tree = self.tree
        assert isinstance(tree, ActChoices)
        focus = tree.focus(chosen)
        assert focus is not None
        state = placed(self.state, dict(focus.squares))
        model = state.model(focus.model.id)
        assert model is not None
        if focus.weapon is None:
            twice = tree.plan == "move_twice"
            budget = rules.move_budget(state, model, twice=twice)
            through = " or through enemies" if rules.boon_of(state).through_enemies else ""
            return [
                f"{model.name} has {budget} movement (W2, W12): a step costs 1, 3 onto or off a "
                f"ruin; through friends{through}, never ending on a model. No die is rolled.",
                f"It may end on {len(self.squares(asked, chosen))} squares; the formation must "
                "end as one group (W13).",
            ]
        weapon = focus.weapon
        lines = []
        for option in asked.options:
            target = state.model(option.key)
            if target is not None:
                lines.append(attack_odds(state, model, weapon, target))
        lines.append(
            f"{model.name}'s {weapon.name}: {rules.attacks_with(state, weapon)} attacks this "
            f"activation; the dice at one target are rolled together; "
            f"{_reroll_words(state, self.seat)}."
        )
        return lines


def _is_rows(asked: ChoiceAsk) -> bool:
    """Whether a menu asks for a row (its options' keys are the rows' numbers)."""
    keys = [option.key for option in asked.options]
    return asked.prompt.endswith("which row?") and all(key.isdigit() for key in keys)


# --- the terminal -------------------------------------------------------------------------------


def odds(
    state: WorldsState,
    seat: Seat,
    legal: Sequence[Command] | CommandTree[Command],
    chosen: tuple[str, ...],
) -> tuple[str, ...]:
    """What ``?`` says of the menu after the keys ``chosen`` (none when they make a command).

    :raises ValueError: if a key was not an option.
    """
    tree = legal if isinstance(legal, CommandTree) else listed(state, seat, legal)
    asked = tree.ask(chosen)
    if not isinstance(asked, ChoiceAsk):
        return ()
    return tuple(WorldsMenus(state, seat, tree, "").odds(asked, chosen))


class WorldsTerminal(BoardTerminal):
    """worlds-collide's board and short menus at the terminal (:mod:`multiversus_cli.play_any`)."""

    def draw(
        self,
        state: WorldsState,
        viewer: str,
        *,
        result: bool = True,
        marked: Collection[Coord] = (),
    ) -> RenderableType:
        """The board (:func:`.worlds_collide_text.board`)."""
        return board(state, viewer, result=result, marked=marked)

    def choose(self, decision: Decision, out: Console, ask: Ask) -> Command:
        """A person's command through the menus, the board drawn first (the squares the first
        menu may go to marked).

        :raises Quit: when the person types q, or the input ends.
        """
        state: WorldsState = decision.state
        seat: Seat = decision.seat
        legal = decision.legal
        tree: CommandTree[Command] = legal if is_tree(legal) else listed(state, seat, legal)
        menus = WorldsMenus(state, seat, tree, f"{decision.names[seat - 1]}, seat {seat}")
        first = tree.ask(())
        marked: Collection[Coord] = ()
        if state.phase == "deploy":
            marked = rules.deploy_zone(state, seat)
        elif isinstance(first, ChoiceAsk):
            marked = menus.marks(first, ())
        self.show_board(decision, out, marked)
        command: Command = menus.build(tree, out, ask)
        return command


__all__ = [
    "HELP",
    "MOST_CHOICES",
    "Listed",
    "WorldsMenus",
    "WorldsTerminal",
    "attack_odds",
    "hit_chance",
    "listed",
    "odds",
    "plan_odds",
    "play_request",
    "reroll_odds",
    "round_odds",
    "tactic_odds",
    "with_reroll",
]
