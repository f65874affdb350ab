"""worlds-collide's two decisions too big to list, as trees of short choices
(:mod:`multiversus_core.engine.choices`).

:class:`ActivationChoices`: pass, or activate: the first model, then each model
joining the formation (only those that keep it one connected group of one
training, or with a leader: W10, W28), then the plan and the tactic. Every
formation can be built this way: start from its leader if it mixes
trainings, then add models next to those chosen.

:class:`ActChoices`: the activation's moves and attacks (W12-W14), as one
:class:`~.model.Act`. A move is chosen model by model, the row first and then
the square, so that no menu is longer than the board is wide; a square is
offered only if the models still to move can then end the move as one
connected group (W13), so no choice leads nowhere. An attack is chosen weapon
by weapon, one target a die (``none`` ends that weapon's attacks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from multiversus_core.engine.choices import Ask, CommandTree, Option
from multiversus_core.engine.grid import Coord, is_adjacent, square_name
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.worlds_collide import geometry, rules
from multiversus_core.rulesets.worlds_collide.content import Weapon
from multiversus_core.rulesets.worlds_collide.model import (
    Act,
    Activate,
    AttackWith,
    Command,
    Deploy,
    KeepDice,
    Model,
    MoveTo,
    Pass,
    Plan,
    Reroll,
    RollOff,
    StartRound,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.rules import (
    act_problem,
    attacks_with,
    boon_of,
    can_target,
    enemy_squares,
    formation_ok,
    formation_problem,
    move_budget,
    on_board,
    other,
    penalty_of,
)

PLANS: Final[tuple[tuple[Plan, str], ...]] = (
    ("move_attack", "move, then attack"),
    ("attack_move", "attack, then move"),
    ("move_twice", "move twice as far, no attack"),
)
DONE: Final = "done"
NONE: Final = "none"


class Focus(NamedTuple):
    """What the next question of an :class:`ActChoices` is about, for a front end to tell the
    odds: the model it asks of, the weapon (for an attack), and the square each activated
    model stands on when that attack is rolled or that model moves."""

    model: Model
    weapon: Weapon | None
    squares: Mapping[str, Coord]


def _refuse(chosen: Sequence[str]) -> ValueError:
    return ValueError(f"{'/'.join(chosen)!r} is not a way through these choices")


class DeployChoices:
    """Which model to place, then the row, then the square of the deploying player's rows
    (W18, WP19)."""

    def __init__(self, state: WorldsState, seat: Seat) -> None:
        self.state = state
        self.seat = seat
        self.waiting = [m for m in state.models if m.seat == seat and m.at is None]
        self.zone = rules.deploy_zone(state, seat)

    def ask(self, chosen: Sequence[str]) -> Ask | Command:
        """The model, the row, the square."""
        if not chosen:
            return Ask(
                "Which model do you place?", tuple(Option(m.id, m.name) for m in self.waiting)
            )
        model = next((m for m in self.waiting if m.id == chosen[0]), None)
        if model is None:
            raise _refuse(chosen)
        rows = sorted({at[1] for at in self.zone})
        if len(chosen) == 1:
            return Ask(
                f"{model.name} goes on which row?",
                tuple(Option(str(r + 1), f"row {r + 1}") for r in rows),
            )
        in_row = [at for at in self.zone if str(at[1] + 1) == chosen[1]]
        if not in_row:
            raise _refuse(chosen)
        if len(chosen) == 2:
            return Ask(
                f"{model.name} goes on which square?",
                tuple(Option(square_name(at), square_name(at)) for at in in_row),
            )
        at = next((a for a in in_row if square_name(a) == chosen[2]), None)
        if at is None or len(chosen) > 3:
            raise _refuse(chosen)
        return Deploy(self.seat, model.id, at)

    def __contains__(self, command: object) -> bool:
        """Whether the command places one of the player's models on a free square of its
        rows."""
        return (
            isinstance(command, Deploy)
            and command.player == self.seat
            and any(m.id == command.model for m in self.waiting)
            and command.at in self.zone
        )


class ActivationChoices:
    """Pass, or activate a model or a formation with a plan and a tactic (W7-W11)."""

    def __init__(self, state: WorldsState, seat: Seat) -> None:
        self.state = state
        self.seat = seat
        self.ready = [m for m in on_board(state, seat) if not m.activated]

    def ask(self, chosen: Sequence[str]) -> Ask | Command:
        """Pass or activate; the models one by one; the plan; the tactic."""
        if not chosen:
            return Ask(
                "Activate, or pass for the rest of the round?",
                (Option("activate", "activate"), Option("pass", "pass")),
            )
        if chosen[0] == "pass" and len(chosen) == 1:
            return Pass(self.seat)
        if chosen[0] != "activate":
            raise _refuse(chosen)
        by_id = {m.id: m for m in self.ready}
        if len(chosen) == 1:
            return Ask(
                "Which model activates (it may bring others as a formation)?",
                tuple(Option(m.id, m.name) for m in self.ready),
            )
        models: list[Model] = []
        position = 1
        while position < len(chosen) and chosen[position] != DONE:
            model = by_id.get(chosen[position])
            if model is None or not self._joins(models, model):
                raise _refuse(chosen)
            models.append(model)
            position += 1
        if position == len(chosen):
            joining = [m for m in self.ready if self._joins(models, m)]
            return Ask(
                "Who else joins the formation?",
                (Option(DONE, "no more: activate these"), *(Option(m.id, m.name) for m in joining)),
            )
        rest = chosen[position + 1 :]
        if not rest:
            return Ask("What does the activation do?", tuple(Option(k, w) for k, w in PLANS))
        plan = next((k for k, _ in PLANS if k == rest[0]), None)
        if plan is None:
            raise _refuse(chosen)
        tactics = self.state.sides[self.seat - 1].faction.tactics
        if len(rest) == 1:
            offered = (Option(t.id, f"{t.name} (knack {t.knack})") for t in tactics)
            options = (Option(NONE, "no tactic"), *offered)
            return Ask("Use a tactic (W11)?", options)
        if len(rest) == 2 and (rest[1] == NONE or any(t.id == rest[1] for t in tactics)):
            ids = tuple(m.id for m in models)
            return Activate(self.seat, ids, plan, None if rest[1] == NONE else rest[1])
        raise _refuse(chosen)

    def _joins(self, models: Sequence[Model], model: Model) -> bool:
        if model in models or model.at is None:
            return False
        if not models:
            return True
        near = any(m.at is not None and is_adjacent(m.at, model.at) for m in models)
        return near and formation_ok([*models, model])

    def __contains__(self, command: object) -> bool:
        """Whether the command is a legal pass or activation."""
        if isinstance(command, Pass):
            return command.player == self.seat
        if not isinstance(command, Activate) or command.player != self.seat:
            return False
        if formation_problem(self.state, self.seat, command.models):
            return False
        if command.plan not in {k for k, _ in PLANS}:
            return False
        tactics = self.state.sides[self.seat - 1].faction.tactics
        return command.tactic is None or any(t.id == command.tactic for t in tactics)


class ActChoices:
    """The activation's moves and attacks, as one :class:`~.model.Act` (W12-W14)."""

    def __init__(self, state: WorldsState) -> None:
        activation = state.activation
        assert activation is not None
        self.state = state
        self.seat = activation.seat
        self.plan = activation.plan
        self.models = [
            m for m in (state.model(i) for i in activation.models) if m is not None and m.on_board
        ]
        penalty = penalty_of(state)
        self.moving = not penalty.no_move and bool(self.models)
        self.attacking = not penalty.no_attack and self.plan != "move_twice"
        occupied = {m.at for m in on_board(state) if m.at is not None and m not in self.models}
        enemies = enemy_squares(state, self.seat)
        through = boon_of(state).through_enemies
        self.ends: list[frozenset[Coord]] = []
        for model in self.models:
            assert model.at is not None
            costs = geometry.moves(
                state.game_map,
                model.at,
                move_budget(state, model, twice=self.plan == "move_twice"),
                enemies=enemies,
                through_enemies=through,
            )
            self.ends.append(frozenset(geometry.ends(costs, occupied)))
        self.enemies = list(on_board(state, other(self.seat)))
        self._known: dict[tuple[tuple[Coord, ...], Coord], bool] = {}
        if self.moving and not geometry.can_complete(set(), [set(e) for e in self.ends]):
            self.moving = False  # W35: a formation that cannot end connected may not move

    # --- moves --------------------------------------------------------------------------------

    def _valid(self, placed: tuple[Coord, ...], at: Coord) -> bool:
        """Whether the next model may end on ``at``: free, and the models still to move can
        then end as one group with those placed (W13). Staying where they are is tried first;
        the exact search only when that fails."""
        key = (placed, at)
        known = self._known.get(key)
        if known is not None:
            return known
        taken = {*placed, at}
        index = len(placed)
        later = self.ends[index + 1 :]
        stay = [m.at for m in self.models[index + 1 :] if m.at is not None]
        if at in placed:
            valid = False
        elif (
            len(stay) == len(later)
            and all(s in ends for s, ends in zip(stay, later, strict=True))
            and not taken.intersection(stay)
            and len(set(stay)) == len(stay)
            and geometry.formation_connected([*taken, *stay])
        ):
            valid = True
        else:
            valid = geometry.can_complete(taken, [set(ends) for ends in later])
        self._known[key] = valid
        return valid

    def _rows(self, placed: tuple[Coord, ...]) -> list[int]:
        """The rows holding a square the next model may end on."""
        by_row: dict[int, list[Coord]] = {}
        for at in self.ends[len(placed)]:
            by_row.setdefault(at[1], []).append(at)
        return [
            row
            for row in sorted(by_row)
            if any(self._valid(placed, at) for at in sorted(by_row[row]))
        ]

    def _in_row(self, placed: tuple[Coord, ...], row: int) -> list[Coord]:
        """The squares of a row the next model may end on, left to right."""
        squares = sorted(at for at in self.ends[len(placed)] if at[1] == row)
        return [at for at in squares if self._valid(placed, at)]

    def _moves(self, chosen: Sequence[str]) -> tuple[list[Coord], Ask | None, int]:
        """The squares chosen so far, the next question if the moves are not complete, and how
        many keys they took."""
        placed: list[Coord] = []
        position = 0
        while len(placed) < len(self.models):
            model = self.models[len(placed)]
            so_far = tuple(placed)
            if position == len(chosen):
                rows = self._rows(so_far)
                return (
                    placed,
                    Ask(
                        f"{model.name} ends its move on which row?",
                        tuple(Option(str(r + 1), f"row {r + 1}") for r in rows),
                    ),
                    position,
                )
            row_key = chosen[position]
            row = int(row_key) - 1 if row_key.isdigit() else -1
            in_row = self._in_row(so_far, row)
            if not in_row:
                raise _refuse(chosen[: position + 1])
            if position + 1 == len(chosen):
                return (
                    placed,
                    Ask(
                        f"{model.name} ends its move on which square of row {row + 1}?",
                        tuple(Option(square_name(at), _stay(model, at)) for at in in_row),
                    ),
                    position + 1,
                )
            at = next((a for a in in_row if square_name(a) == chosen[position + 1]), None)
            if at is None:
                raise _refuse(chosen[: position + 2])
            placed.append(at)
            position += 2
        return placed, None, position

    # --- attacks ------------------------------------------------------------------------------

    def _attacks(
        self, chosen: Sequence[str], where: dict[str, Coord]
    ) -> tuple[list[AttackWith], Ask | None, int, Focus | None]:
        """The attacks chosen so far from the squares ``where``, the next question if they are
        not complete (and what it is about), and how many keys they took."""
        attacks: list[AttackWith] = []
        position = 0
        for model in self.models:
            for weapon in model.kind.weapons:
                for number in range(1, attacks_with(self.state, weapon) + 1):
                    targets = [
                        e
                        for e in self.enemies
                        if can_target(self.state, weapon, where[model.id], e)
                    ]
                    if not targets:
                        break
                    if position == len(chosen):
                        total = attacks_with(self.state, weapon)
                        aims = (Option(e.id, e.name) for e in targets)
                        options = (Option(NONE, "no more attacks with it"), *aims)
                        return (
                            attacks,
                            Ask(
                                f"{model.name}'s {weapon.name}, attack {number} of {total}: "
                                "at whom?",
                                options,
                            ),
                            position,
                            Focus(model, weapon, dict(where)),
                        )
                    key = chosen[position]
                    position += 1
                    if key == NONE:
                        break
                    if all(e.id != key for e in targets):
                        raise _refuse(chosen[:position])
                    attacks.append(AttackWith(model.id, weapon.name, key))
        return attacks, None, position, None

    # --- the whole --------------------------------------------------------------------------

    def ask(self, chosen: Sequence[str]) -> Ask | Command:
        """Moves then attacks, or attacks then moves, as the plan says."""
        return self._walk(chosen)[0]

    def focus(self, chosen: Sequence[str]) -> Focus | None:
        """What the question after ``chosen`` is about: the model to move or attack with, the
        weapon, and where the activated models stand then; None once the command is whole.

        :raises ValueError: as :meth:`ask` does.
        """
        return self._walk(chosen)[1]

    def _walk(self, chosen: Sequence[str]) -> tuple[Ask | Command, Focus | None]:
        start = {m.id: m.at for m in self.models if m.at is not None}
        placed: list[Coord] = []
        attacks: list[AttackWith] = []
        rest = list(chosen)
        first_attacks = self.plan == "attack_move"
        if first_attacks and self.attacking:
            attacks, question, used, about = self._attacks(rest, start)
            if question is not None:
                return question, about
            rest = rest[used:]
        if self.moving:
            placed, question, used = self._moves(rest)
            if question is not None:
                where = dict(start)
                where.update({m.id: at for m, at in zip(self.models, placed, strict=False)})
                return question, Focus(self.models[len(placed)], None, where)
            rest = rest[used:]
        if not first_attacks and self.attacking:
            where = dict(start)
            where.update({m.id: at for m, at in zip(self.models, placed, strict=False)})
            attacks, question, used, about = self._attacks(rest, where)
            if question is not None:
                return question, about
            rest = rest[used:]
        if rest:
            raise _refuse(chosen)
        moves = tuple(
            MoveTo(m.id, at) for m, at in zip(self.models, placed, strict=False) if at != m.at
        )
        return Act(self.seat, moves, tuple(attacks)), None

    def __contains__(self, command: object) -> bool:
        """Whether the command is a legal :class:`~.model.Act` for this activation."""
        if not isinstance(command, Act) or command.player != self.seat:
            return False
        return act_problem(self.state, command) is None


def _stay(model: Model, at: Coord) -> str:
    return f"{square_name(at)} (stays)" if at == model.at else square_name(at)


def legal_commands(state: WorldsState, seat: Seat) -> Sequence[Command] | CommandTree[Command]:
    """Every command ``seat`` may give now: a list, or a tree of choices for an activation
    and for its moves and attacks (:mod:`.choices`)."""
    if seat not in rules.to_act(state):
        return ()
    match state.phase:
        case "roll_off":
            return (RollOff(seat),)
        case "deploy":
            return DeployChoices(state, seat)
        case "round":
            return (StartRound(seat),)
    activation = state.activation
    if activation is None:
        return ActivationChoices(state, seat)
    if activation.roll is not None:
        rerolls = tuple(Reroll(seat, i) for i in activation.roll.rerollable())
        return (*(rerolls if state.sides[seat - 1].ap > 0 else ()), KeepDice(seat))
    return ActChoices(state)
