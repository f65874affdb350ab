"""Abilities: the rules a team sheet gives its units, as code registered by name.

Rulebook: *Abilities*, *Standard Abilities*. An ability is a subclass of
:class:`Ability` registered with :func:`register`; a sheet names it in a
unit's ``abilities``. The engine calls the small set of hook points below and
nothing else, so a new team needs no change to the engine:

==================================================  ==========================================
hook                                                called
==================================================  ==========================================
``movement(state, figure, spaces) -> int``          when a figure of the unit begins a Move
                                                    (spaces: 3, or 6 for a Double-Move)
``is_ranged() -> bool``                             to decide what a character can attack (R7)
``enters_blocking_terrain() -> bool``               when a character of the unit moves
                                                    (regular movement only)
``on_stunt(b, figure, double) -> None``             when a figure of the unit uses this (!)
                                                    or (!!), after ``StuntPerformed``
``on_interact(b, actor, figure) -> None``           when a character interacts with a figure
                                                    of the unit, after ``StuntPerformed``
``after_attack(b, attacker, target, hit) -> None``  after a figure of the unit attacks or is
                                                    attacked
``after_forced_move(b, move, spaces) -> None``      after a forced move this ability queued
                                                    (with ``ability=``) has been carried out
==================================================  ==========================================

Passive abilities use ``movement``, ``is_ranged`` and
``enters_blocking_terrain`` (or no hook at all, like Large); triggered ones
use ``after_attack`` or ``on_interact``; stunt-based ones, (!) and (!!), use
``on_stunt``. A (!) or (!!) has no target: its rules text must say which
figures it affects (for example "every adjacent enemy character", or "the
nearest, the first in roster order on a tie").

``after_attack`` runs for the abilities of the attacker's unit and of the
target's unit, once per attack, after the hit's harm and before the
attacker's Step or Push (R9); the target may already be Eliminated (off the
board). One instance serves every unit that names the ability, so a hook
first checks which side of the attack it is on, with :func:`has_ability`.

Hooks that change the match get the :class:`~multiversus_core.rulesets.multiversus.builder.Builder`
and emit events through it; every effect is therefore an event in the log.
Hooks never change the state directly and never draw chance. The helpers at
the end of this module are those effects, each a documented event:
:func:`harm` and :func:`heal` (``ConditionChanged``), :func:`push`,
:func:`pull` and :func:`forced_move` (queued, then ``FigureMoved``, R20: see
:mod:`multiversus_core.rulesets.multiversus.forced`), :func:`place` (``FigureMoved``), and
:func:`reveal` (``SecretRevealed``, R23); and the queries :func:`has_ability`,
:func:`characters`, :func:`distance`, :func:`nearest`, :func:`chosen_secret`,
:func:`secret_figure`, :func:`hidden_identity`, :func:`last_attack` and
:func:`harm_of_last_attack`.

The :class:`Ability` base class, the registry and the standard abilities
(Ranged, Large, Drifting) are defined in :mod:`.ability` and re-exported
here. See ``docs/teams.md`` for writing a team.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from multiversus_core.rulesets.multiversus import movement
from multiversus_core.rulesets.multiversus.ability import (
    KIND_MARKS,
    REGISTRY,
    Ability,
    AbilityKind,
    Drifting,
    Large,
    Ranged,
    abilities_of,
    register,
    stunt_abilities,
    title,
)
from multiversus_core.rulesets.multiversus.catalog import find_team
from multiversus_core.rulesets.multiversus.events import AttackMade, ConditionChanged, FigureMoved
from multiversus_core.rulesets.multiversus.geometry import (
    chebyshev,
    figure_squares,
    pull_direction,
    push_direction,
)
from multiversus_core.rulesets.multiversus.scoring import check_elimination
from multiversus_core.rulesets.multiversus.secrets import reveal_secret
from multiversus_core.rulesets.multiversus.state import ForcedMove

if TYPE_CHECKING:
    from multiversus_core.rulesets.multiversus.board import Figure
    from multiversus_core.rulesets.multiversus.builder import Builder
    from multiversus_core.rulesets.multiversus.state import ForcedHow, MatchState, Secret
    from multiversus_core.rulesets.multiversus.terms import Condition, Direction, Side, Square

__all__ = [
    "CONDITIONS",
    "KIND_MARKS",
    "REGISTRY",
    "Ability",
    "AbilityKind",
    "Drifting",
    "Large",
    "Ranged",
    "abilities_of",
    "characters",
    "chosen_secret",
    "distance",
    "forced_move",
    "harm",
    "harm_of_last_attack",
    "has_ability",
    "heal",
    "hidden_identity",
    "last_attack",
    "nearest",
    "place",
    "pull",
    "push",
    "register",
    "reveal",
    "secret_figure",
    "stunt_abilities",
    "title",
]

CONDITIONS: Final[tuple[Condition, ...]] = ("unharmed", "wounded", "disabled", "eliminated")
"""The conditions in the order hits move a character along them (R8)."""


def has_ability(state: MatchState, figure: Figure, name: str) -> bool:
    """True if the figure's unit names the ability on its sheet."""
    return name in state.unit(figure.unit).abilities


def characters(state: MatchState, side: Side) -> tuple[Figure, ...]:
    """Return a side's characters on the board, in roster order (terrain pieces excluded)."""
    return tuple(
        f for f in state.figures if f.side == side and f.is_character and f.square is not None
    )


def distance(a: Figure, b: Figure) -> int:
    """Return the king's-move distance between the nearest spaces of two figures on the board.

    :raises ValueError: if either is off the board.
    """
    squares_a, squares_b = figure_squares(a), figure_squares(b)
    if not squares_a or not squares_b:
        raise ValueError(f"no distance: {a.id} or {b.id} is off the board")
    return min(chebyshev(p, q) for p in squares_a for q in squares_b)


def nearest(figure: Figure, others: Iterable[Figure]) -> Figure | None:
    """Return the figure of ``others`` nearest to ``figure``: the first in their order on a tie."""
    best: Figure | None = None
    for other in others:
        if other.square is None or other.id == figure.id:
            continue
        if best is None or distance(figure, other) < distance(figure, best):
            best = other
    return best


def chosen_secret(state: MatchState, side: Side, name: str) -> Secret | None:
    """Return the set-up secret ``name`` the side chose (R23), or None if it has none."""
    for secret in state.secrets:
        if (secret.side, secret.name) == (side, name):
            return secret
    return None


def _team_of(state: MatchState, side: Side) -> str | None:
    return state.heroes_team if side == "heroes" else state.adversaries_team


def secret_figure(state: MatchState, side: Side, name: str) -> Figure | None:
    """Return the figure a hidden identity names, or None if not chosen or not in the match.

    The sheet names figures by their sheet ids ("cats-2"); a unit whose id
    clashed with a Hero unit's is qualified by its team id in the match
    ("swartzblak-cats-2"), and both spellings are tried.
    """
    secret = chosen_secret(state, side, name)
    if secret is None:
        return None
    for figure_id in (secret.choice, f"{_team_of(state, side)}-{secret.choice}"):
        for figure in state.figures:
            if figure.id == figure_id and figure.side == side:
                return figure
    return None


def hidden_identity(state: MatchState, figure: Figure) -> Secret | None:
    """Return the hidden-identity secret (revealed or not) that names this figure, if any.

    A secret is a hidden identity when its sheet marks it ``kind = "identity"``.
    """
    for secret in state.secrets:
        if secret.side != figure.side:
            continue
        sheet = find_team(_team_of(state, secret.side) or "")
        if sheet is None:
            continue
        kinds = {s.name: s.kind for s in sheet.secrets}
        if kinds.get(secret.name) != "identity":
            continue
        named = secret_figure(state, secret.side, secret.name)
        if named is not None and named.id == figure.id:
            return secret
    return None


def last_attack(b: Builder) -> AttackMade | None:
    """Return the last attack made by the command under way (the one ``after_attack`` follows)."""
    for event in reversed(b.events):
        if isinstance(event, AttackMade):
            return event
    return None


def harm_of_last_attack(b: Builder) -> Condition | None:
    """Return the condition the last attack's hit left its target in, or None if it harmed none.

    None after a hit on a Wounded Beast without Advantage (the Beast rule, R8).
    """
    for event in reversed(b.events):
        if isinstance(event, AttackMade):
            return None
        if isinstance(event, ConditionChanged):
            attack = last_attack(b)
            if attack is not None and attack.target == event.figure:
                return event.condition
    return None


# --- effects: every one is an event -------------------------------------------


def harm(b: Builder, figure: Figure, steps: int = 1, *, worst: Condition = "eliminated") -> bool:
    """Move a character ``steps`` along Unharmed -> Wounded -> Disabled -> Eliminated.

    Never past ``worst``. Harm from an ability is not a hit: the Beast rule
    does not apply. Emits one ``ConditionChanged``, and ends the match if the
    side has no characters left. Terrain pieces are never harmed (R1).
    Returns True if the condition changed.
    """
    current = b.state.figure(figure.id)
    if current.terrain or current.square is None:
        return False
    now = CONDITIONS.index(current.condition)
    new = min(now + steps, CONDITIONS.index(worst))
    if new <= now:
        return False
    b.emit(ConditionChanged(figure=current.id, condition=CONDITIONS[new]))
    if CONDITIONS[new] == "eliminated":
        check_elimination(b)
    return True


def heal(b: Builder, figure: Figure) -> bool:
    """Move a character one step back: Disabled -> Wounded, Wounded -> Unharmed.

    Returns True if the condition changed (never for Unharmed or Eliminated).
    """
    current = b.state.figure(figure.id)
    if current.condition not in ("wounded", "disabled") or current.square is None:
        return False
    back = CONDITIONS[CONDITIONS.index(current.condition) - 1]
    b.emit(ConditionChanged(figure=current.id, condition=back))
    return True


def forced_move(
    b: Builder,
    figure: Figure,
    direction: Direction,
    distance: int,
    how: ForcedHow,
    *,
    up_to: Side | None = None,
    ability: str | None = None,
) -> None:
    """Queue a move of a figure up to ``distance`` spaces in a straight line (R20).

    The engine carries out queued moves one at a time, in the order queued,
    once the hook that queued them returns (:mod:`multiversus_core.rulesets.multiversus.forced`).
    Diagonals are allowed; the figure stops before the first space that is
    not free for it. An allied character in the way blocks it or lets it
    through, at its player's choice (R20), but it never ends on one. With
    ``up_to``, that side may stop the move short ("up to N spaces"). With
    ``ability``, that ability's :meth:`Ability.after_forced_move` runs once
    the figure has moved, with how many spaces it went.
    """
    current = b.state.figure(figure.id)
    if current.square is None or distance < 1:
        return
    b.forced.append(
        ForcedMove(
            figure=current.id,
            how=how,
            direction=direction,
            distance=distance,
            up_to=up_to,
            ability=ability,
        )
    )


def push(
    b: Builder,
    source: Figure,
    figure: Figure,
    distance: int = 1,
    *,
    up_to: Side | None = None,
    ability: str | None = None,
) -> None:
    """Queue a push of ``figure`` directly away from ``source`` (R9, R20), as :func:`forced_move`.

    Nothing happens if either is off the board or they overlap.
    """
    source, current = b.state.figure(source.id), b.state.figure(figure.id)
    try:
        direction = push_direction(source, current)
    except ValueError:
        return
    forced_move(b, current, direction, distance, "push", up_to=up_to, ability=ability)


def pull(
    b: Builder,
    source: Figure,
    figure: Figure,
    distance: int = 1,
    *,
    up_to: Side | None = None,
    ability: str | None = None,
) -> None:
    """Queue a pull of ``figure`` directly toward ``source`` (R20), as :func:`forced_move`.

    Nothing happens if either is off the board or they overlap.
    """
    source, current = b.state.figure(source.id), b.state.figure(figure.id)
    try:
        direction = pull_direction(source, current)
    except ValueError:
        return
    forced_move(b, current, direction, distance, "pull", up_to=up_to, ability=ability)


def place(b: Builder, figure: Figure, square: Square) -> bool:
    """Put a figure with its top-left space on ``square`` if it may stand there.

    Emits ``FigureMoved(how="place")``; returns True if it was placed.
    """
    current = b.state.figure(figure.id)
    assert b.state.board is not None
    if current.square is None or current.square == square:
        return False
    if not movement.can_stand(b.state.board, b.state.figures, current, square):
        return False
    b.emit(FigureMoved(figure=current.id, to=square, how="place"))
    return True


def reveal(b: Builder, side: Side, name: str) -> bool:
    """Reveal a set-up secret by its use (R23); return True if it was hidden until now."""
    secret = chosen_secret(b.state, side, name)
    if secret is None or secret.revealed:
        return False
    reveal_secret(b, secret)
    return True
