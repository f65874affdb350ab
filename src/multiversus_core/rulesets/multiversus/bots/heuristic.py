"""The heuristic bot: quick, sensible choices from one side's view of the match.

It never sees the referee's state: it samples one full state consistent
with its view (:func:`~multiversus_core.rulesets.multiversus.bots.determinize.determinize`, from its
own seed) and judges from it:

- coin selections, active and reactive, by what each unit could do with
  them now: harm it could deal (reach, Advantage, a Beast's rule, a defended
  target), the objectives it could approach, the stunts it could use, the
  attacks it could fend off (reactions answering the likely threat:
  the enemy characters that could reach it), and the coin economy (green
  coins first);
- whether to push its luck at the Initiative die, with the exact odds of
  losing it (:func:`initiative_loss_odds`: greys in its own discard, the
  automatic six, the no-automatic-six variant) against what the opponent
  gains if it is lost rather than given up (R14);
- each step, attack, stunt and follow-up by the evaluation
  (:func:`~.bots.evaluation.score`) of the position it leads to,
  the opponent letting any reaction pass.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from fractions import Fraction
from typing import Final, TypeAlias

from msgspec.structs import replace

from multiversus_core.rulesets.multiversus.abilities import distance, stunt_abilities
from multiversus_core.rulesets.multiversus.activation import move_allowance
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.bots.determinize import (
    apply_sampled,
    determinize,
    hidden_secrets,
)
from multiversus_core.rulesets.multiversus.bots.evaluation import (
    Judge,
    could_attack,
    figure_value,
    objective_squares,
    ranged_units,
    score,
)
from multiversus_core.rulesets.multiversus.combat import harm, has_advantage
from multiversus_core.rulesets.multiversus.commands import (
    BeginAction,
    ChooseSide,
    Command,
    DeclineReaction,
    EndAction,
    GiveUpInitiative,
    React,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
)
from multiversus_core.rulesets.multiversus.decide import decider_seat
from multiversus_core.rulesets.multiversus.geometry import figure_squares
from multiversus_core.rulesets.multiversus.initiative import greys_in_discard
from multiversus_core.rulesets.multiversus.selections import able_figures, figures_of
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import ActionKind, Colour, Side, Square, other_side
from multiversus_core.rulesets.multiversus.units import Unit, coin_unit
from multiversus_core.rulesets.multiversus.variants import is_on
from multiversus_core.rulesets.multiversus.views import MatchView

_WON: Final = 100.0
_GREEN_BONUS: Final = 0.05
_SET_UP: Final = frozenset({"flip", "teams", "starting_team", "side", "secret"})


def initiative_loss_odds(greys: int, *, six_loses: bool = True) -> Fraction:
    """The exact chance that the Initiative roll loses it, with ``greys`` grey coins discarded.

    A 6 always loses unless ``six_loses`` is False (variant no-automatic-six);
    any result up to the greys loses too (R13).
    """
    losing = sum(1 for die in range(1, 7) if (six_loses and die == 6) or die <= greys)
    return Fraction(losing, 6)


class HeuristicBot:
    """A bot that decides in a few milliseconds by judging each choice on its own.

    Two bots made with the same seed choose the same commands in the same views.
    ``judge`` is the evaluation each step, attack, stunt and follow-up is judged by
    (:func:`~.bots.evaluation.score` unless given; the search steps by its own).
    """

    def __init__(self, seed: int = 0, *, judge: Judge = score) -> None:
        self._random = random.Random(seed)
        self._judge = judge

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        """Return one of ``legal`` (never empty), given the deciding side's ``view``."""
        if len(legal) == 1:
            return legal[0]
        if view.viewer == "spectator" or view.pending in _SET_UP:
            return self._set_up(legal)
        side: Side = view.viewer
        state = determinize(view, self._random)
        unknown = hidden_secrets(view)
        match view.pending:
            case "select":
                return self._select(state, side, legal)
            case "react":
                return self._react(state, side, legal)
            case "begin_action":
                return self._begin(state, legal)
            case "offer":
                return self._offer(state, legal)
            case _:
                return self._greedy(state, side, unknown, legal)

    def shortlist(self, view: MatchView, legal: Sequence[Command], size: int) -> list[Command]:
        """The ``size`` coin selections (active or reactive) it rates best, in ``legal``'s
        order, and giving up the Initiative if that is legal; all of ``legal`` otherwise."""
        if view.pending not in ("select", "react") or view.viewer == "spectator":
            return list(legal)
        state = determinize(view, self._random)
        if view.pending == "select":
            scored = self._select_scores(state, view.viewer, legal)
        else:
            scored = rate_reactions(state, view.viewer, legal)
        ranked = sorted(range(len(scored)), key=lambda i: -scored[i][0])[:size]
        kept = {id(scored[i][1]) for i in ranked}
        return [c for c in legal if id(c) in kept or isinstance(c, GiveUpInitiative)]

    def __repr__(self) -> str:
        return "HeuristicBot(...)"

    def _set_up(self, legal: Sequence[Command]) -> Command:
        # The Adversaries win more often (README, strength table): take them when offered.
        for command in legal:
            if isinstance(command, ChooseSide) and command.side == "adversaries":
                return command
        return self._random.choice(legal)

    def _best(self, scored: Sequence[tuple[float, Command]]) -> Command:
        """The best-scored command; ties broken by the bot's own random source."""
        top = max(s for s, _ in scored)
        return self._random.choice([c for s, c in scored if s >= top - 1e-9])

    # --- the active selection and the Initiative ------------------------------

    def _select(self, state: MatchState, side: Side, legal: Sequence[Command]) -> Command:
        scored = self._select_scores(state, side, legal)
        give_up = next((c for c in legal if isinstance(c, GiveUpInitiative)), None)
        if not scored:
            assert give_up is not None
            return give_up
        best_value = max(v for v, _ in scored)
        if give_up is not None:
            grey = all(
                isinstance(c, SelectCoins) and c.colour == "grey"
                for v, c in scored
                if v == best_value
            )
            risk = push_luck_risk(state, side, grey_next=grey)
            if best_value < risk:
                return give_up
        return self._best(scored)

    def _select_scores(
        self, state: MatchState, side: Side, legal: Sequence[Command]
    ) -> list[tuple[float, Command]]:
        selections = [c for c in legal if isinstance(c, SelectCoins)]
        values = rate_selections(
            state, side, [(c.unit, c.actions, c.colour) for c in selections], active=True
        )
        return list(zip(values, selections, strict=True))

    # --- the reactive selection and reactions ---------------------------------

    def _react(self, state: MatchState, side: Side, legal: Sequence[Command]) -> Command:
        return self._best(rate_reactions(state, side, legal))

    def _offer(self, state: MatchState, legal: Sequence[Command]) -> Command:
        react = next((c for c in legal if isinstance(c, React)), None)
        decline = next(c for c in legal if isinstance(c, DeclineReaction))
        act = state.activation
        if react is None or act is None:
            return decline
        kinds = set(act.reaction_actions)
        if kinds & {"attack", "defend", "stunt"}:
            return react
        # A Move reaction: worth it to slip away from the enemy, or to reach an objective.
        unit = coin_unit(act.reaction_coin or "")
        unit_figures = [f for f in state.figures if f.unit == unit]
        enemies = _characters(state, act.side)
        near = any(distance(f, e) <= 1 for f in unit_figures if f.square for e in enemies)
        if near or objective_squares(state):
            return react
        return decline

    def _begin(self, state: MatchState, legal: Sequence[Command]) -> Command:
        act = state.activation
        assert act is not None
        unit = state.unit(act.unit)
        kinds = {c.action: c for c in legal if isinstance(c, BeginAction)}
        enemies = _characters(state, other_side(act.side))
        if "attack" in kinds and any(
            _attacks(state, f, e) for f in able_figures(state, unit) for e in enemies
        ):
            return kinds["attack"]
        for kind in ("stunt", "move", "attack", "defend"):
            if kind in kinds:
                return kinds[kind]
        return legal[0]

    # --- steps, attacks, stunts, follow-ups: one look ahead --------------------

    def _greedy(
        self,
        state: MatchState,
        side: Side,
        unknown: Collection[tuple[Side, str]],
        legal: Sequence[Command],
    ) -> Command:
        act = state.activation
        chasing = (
            act is not None
            and act.side == side
            and act.reaction is None
            and "attack" in act.remaining
            and state.pending == "move"
        )
        scored: list[tuple[float, Command]] = []
        for command in legal:
            after = (
                _stepped(state, command) if isinstance(command, Step) else resolved(state, command)
            )
            if after.is_over:
                value = _WON if after.winner == side else (-_WON if after.winner else 0.0)
            else:
                value = self._judge(after, side, unknown)
            if chasing and isinstance(command, Step | EndAction):
                value -= 0.3 * _gap(state, command, side)
            scored.append((value, command))
        return self._best(scored)


def _stepped(state: MatchState, command: Step) -> MatchState:
    """The position after a step, before anything it triggers: a quick look, not the rules."""
    figure = state.figure(command.figure)
    assert figure.square is not None
    column, row = figure.square
    moved = replace(figure, square=(column + command.direction[0], row + command.direction[1]))
    return replace(state, figures=tuple(moved if f.id == figure.id else f for f in state.figures))


def resolved(state: MatchState, command: Command) -> MatchState:
    """The state after ``command``, every reaction it triggers let pass."""
    state, _ = apply_sampled(state, command)
    while state.pending == "offer":
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply_sampled(state, DeclineReaction(player=seat))
    return state


def push_luck_risk(state: MatchState, side: Side, *, grey_next: bool) -> float:
    """What another activation risks: the chance of losing the Initiative after it, times the
    opponent's gain from a loss rather than a willing give-up (its grey coins back, R14).

    Nothing is risked in the round's second turn: the next round returns every coin anyway.
    """
    if state.turns_in_round >= 2:
        return 0.0
    greys = greys_in_discard(state, side) + (1 if grey_next else 0)
    odds = initiative_loss_odds(greys, six_loses=not is_on(state, "no-automatic-six"))
    opponent_greys = greys_in_discard(state, other_side(side))
    return float(odds) * (0.1 + 0.25 * opponent_greys)


Ratings: TypeAlias = dict[tuple[object, ...], dict[tuple[str, tuple[ActionKind, ...]], float]]
"""Ratings of coin selections remembered by position (:func:`rating_key`), then by unit
and action coins."""


def rating_key(state: MatchState, side: Side, active: bool) -> tuple[object, ...]:
    """What a rating of ``side``'s selections depends on: the figures, the secrets, the round,
    the teams, board and variants, and whether the selection is active."""
    return (
        state.figures,
        state.secrets,
        state.round,
        state.heroes_team,
        state.adversaries_team,
        state.board,
        state.settings.variants,
        side,
        active,
    )


def rate_selections(
    state: MatchState,
    side: Side,
    selections: Sequence[tuple[str, tuple[ActionKind, ...], Colour]],
    *,
    active: bool,
    memo: Ratings | None = None,
) -> list[float]:
    """How the heuristic rates each coin selection, (unit id, action coins, coin colour), of
    ``side``: active ones by :func:`plan_value`, reactive ones by :func:`reaction_value`,
    green coins a little higher (the coin economy). No reaction at all rates 0.

    ``memo`` keeps a rating by position (:func:`rating_key`) for the next call.
    """
    rate = plan_value if active else reaction_value
    plans: dict[tuple[str, tuple[ActionKind, ...]], float] = (
        {} if memo is None else memo.setdefault(rating_key(state, side, active), {})
    )
    values: list[float] = []
    for unit, actions, colour in selections:
        key = (unit, actions)
        if key not in plans:
            plans[key] = rate(state, side, state.unit(unit), actions)
        values.append(plans[key] + (_GREEN_BONUS if colour == "green" else 0.0))
    return values


def rate_reactions(
    state: MatchState, side: Side, legal: Sequence[Command], memo: Ratings | None = None
) -> list[tuple[float, Command]]:
    """The reactive coin selections of ``legal`` (and no reaction, at 0), each with the
    heuristic's rating (:func:`rate_selections`)."""
    reactions = [c for c in legal if isinstance(c, SelectReaction)]
    values = rate_selections(
        state, side, [(c.unit, c.actions, c.colour) for c in reactions], active=False, memo=memo
    )
    scored: list[tuple[float, Command]] = list(zip(values, reactions, strict=True))
    scored.extend((0.0, c) for c in legal if isinstance(c, SelectNoReaction))
    return scored


def plan_value(state: MatchState, side: Side, unit: Unit, actions: tuple[ActionKind, ...]) -> float:
    """What the unit could achieve now with these action coins (``()``: a Recovery)."""
    figures = figures_of(state, unit)
    able = [f for f in figures if f.condition != "disabled"]
    enemies = _characters(state, other_side(side))
    if not actions:
        healed = sum(
            figure_value_gain(state, f) for f in figures if f.condition in ("wounded", "disabled")
        )
        return 1.5 * healed - 0.3  # a Recovery ends the turn (R12)
    value = 0.0
    kinds = set(actions)
    double = len(actions) == 2 and actions[0] == actions[1]
    if "attack" in kinds and not unit.is_terrain:
        reach = 0
        if "move" in kinds:
            reach = max((move_allowance(state, f, False) for f in able), default=0)
        value += _attack_value(state, able, enemies, reach, double=double)
    if "move" in kinds and "attack" not in kinds:
        reach = max((move_allowance(state, f, double) for f in able), default=0)
        value += _move_value(state, side, able, enemies, reach)
    if "stunt" in kinds:
        value += _stunt_value(state, unit, able, enemies, double=double)
    if "defend" in kinds:
        value += 0.15 * _threatened(state, able, enemies)
    return value


def reaction_value(
    state: MatchState, side: Side, unit: Unit, actions: tuple[ActionKind, ...]
) -> float:
    """What a reaction could do against the likely threat: the enemies that could reach the unit."""
    able = list(able_figures(state, unit))
    enemies = _characters(state, other_side(side))
    double = len(actions) == 2
    match actions[0]:
        case "defend":
            return 0.5 * _threatened(state, able, enemies, reach=4)
        case "attack":
            near = [
                e
                for e in enemies
                if any(distance(f, e) <= 1 or _attacks(state, f, e) for f in able)
            ]
            best = max((_harm_value(state, e, double=double) for e in near), default=0.0)
            return 0.6 * best + 0.1 * len(near) + (0.05 if double else 0.0)
        case "stunt":
            return 0.5 * _stunt_value(state, unit, able, enemies, double=double)
        case _:
            return 0.05 + (0.01 if double else 0.0)


def figure_value_gain(state: MatchState, figure: Figure) -> float:
    """What one step of recovery is worth to a figure."""
    better = {"disabled": "wounded", "wounded": "unharmed"}.get(figure.condition)
    if better is None:
        return 0.0
    return figure_value(state, replace(figure, condition=better)) - figure_value(state, figure)


def _attacks(state: MatchState, attacker: Figure, target: Figure) -> bool:
    return could_attack(state, attacker, target, ranged_units(state))


def _in_reach(state: MatchState, figure: Figure, enemy: Figure) -> bool:
    return distance(figure, enemy) <= 1 or _attacks(state, figure, enemy)


def _characters(state: MatchState, side: Side) -> list[Figure]:
    return [
        f
        for f in state.figures
        if f.side == side and not f.terrain and f.square is not None and f.condition != "eliminated"
    ]


def _harm_value(state: MatchState, target: Figure, *, double: bool) -> float:
    """What one hit on ``target`` is worth; a single attack may be defended."""
    after = harm(state, target, has_advantage(state, target))
    if after == target.condition:
        return 0.0
    gain = figure_value(state, target) - (
        0.0 if after == "eliminated" else figure_value(state, replace(target, condition=after))
    )
    if after == "eliminated":
        gain += 0.5
    return gain if double else 0.8 * gain


def _attack_value(
    state: MatchState, able: list[Figure], enemies: list[Figure], reach: int, *, double: bool
) -> float:
    total = 0.0
    for f in able:
        best = 0.0
        for e in enemies:
            if _attacks(state, f, e) or (reach and distance(f, e) - 1 <= reach - 1):
                best = max(best, _harm_value(state, e, double=double))
        total += best
    return total


def _move_value(
    state: MatchState, side: Side, able: list[Figure], enemies: list[Figure], reach: int
) -> float:
    squares = objective_squares(state)
    if not able:
        return 0.0
    if squares:
        gap = min(_distance_to(f, squares) for f in able)
        return 0.1 * min(gap, reach) + (0.2 if gap > 0 else 0.0)
    if not enemies:
        return 0.0
    gap = min(distance(f, e) for f in able for e in enemies)
    return 0.03 * min(max(gap - 1, 0), reach)


def _stunt_value(
    state: MatchState, unit: Unit, able: list[Figure], enemies: list[Figure], *, double: bool
) -> float:
    if not stunt_abilities(unit, double=double):
        return 0.0
    near = sum(1 for f in able for e in enemies if distance(f, e) <= 2)
    return 0.15 + 0.25 * near


def _threatened(
    state: MatchState, able: list[Figure], enemies: list[Figure], reach: int = 0
) -> float:
    """How much of the unit the enemies could attack (within ``reach`` spaces and a step)."""
    total = 0.0
    for f in able:
        if any(_attacks(state, e, f) or (reach and distance(f, e) <= reach) for e in enemies):
            total += figure_value(state, f)
    return total


def _distance_to(figure: Figure, squares: frozenset[Square]) -> int:
    return min(abs(c - sc) + abs(r - sr) for c, r in figure_squares(figure) for sc, sr in squares)


def _gap(state: MatchState, command: Step | EndAction, side: Side) -> float:
    """The distance from the moving figure, after the step, to the nearest enemy character."""
    if not isinstance(command, Step):
        act = state.activation
        mover = act.action.mover if act and act.action else None
        if mover is None:
            return 0.0
        figure = state.figure(mover)
    else:
        figure = state.figure(command.figure)
        assert figure.square is not None
        column, row = figure.square
        square = (column + command.direction[0], row + command.direction[1])
        figure = replace(figure, square=square)
    enemies = _characters(state, other_side(side))
    return float(min((distance(figure, e) for e in enemies), default=0))


__all__ = [
    "HeuristicBot",
    "Ratings",
    "initiative_loss_odds",
    "plan_value",
    "push_luck_risk",
    "rate_reactions",
    "rate_selections",
    "rating_key",
    "reaction_value",
]
