"""Abilities: the rules a team sheet gives its units, as code registered by name.

Rulebook: *Abilities*, *Standard Abilities*. An ability is a subclass of
:class:`Ability` registered with :func:`register`; a sheet names it in a
unit's ``abilities``. The engine calls the small set of hook points below and
nothing else, so a new team needs no change to the engine:

============================  =================================================
hook                          called
============================  =================================================
``movement``                  when a figure of the unit begins a Move (spaces)
``is_ranged``                 to decide what a character can attack (R7)
``enters_blocking_terrain``   when a character of the unit moves
``on_stunt``                  when a figure of the unit uses this (!) or (!!)
``on_interact``               when a character interacts with a figure of the unit
``after_attack``              after a figure of the unit attacks or is attacked
============================  =================================================

Hooks that change the match get the :class:`~multiversus_core.builder.Builder`
and emit events through it; every effect is therefore an event in the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal, TypeAlias

if TYPE_CHECKING:
    from multiversus_core.board import Figure
    from multiversus_core.builder import Builder
    from multiversus_core.state import MatchState
    from multiversus_core.units import Unit

AbilityKind: TypeAlias = Literal["passive", "triggered", "stunt", "double_stunt"]
"""Passive (always in effect), triggered (happens when something happens),
stunt-based (!) needing one Stunt coin, or (!!) needing two."""


class Ability:
    """Base class of abilities. Override only the hooks the ability needs."""

    name: ClassVar[str]
    """The name sheets use, for example "Ranged"."""
    kind: ClassVar[AbilityKind] = "passive"
    text: ClassVar[str] = ""
    """The rules text, as the sheet prints it."""

    def movement(self, state: MatchState, figure: Figure, spaces: int) -> int:
        """Return how many spaces the figure may move, given the standard ``spaces``."""
        return spaces

    def is_ranged(self) -> bool:
        """True if the unit's characters may make ranged attacks (R7)."""
        return False

    def enters_blocking_terrain(self) -> bool:
        """True if the unit's characters may move into and through blocking terrain."""
        return False

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        """Apply the effect of this stunt-based ability, used by ``figure``."""

    def on_interact(self, b: Builder, actor: Figure, figure: Figure) -> None:
        """Apply the effect of ``actor`` interacting with ``figure``, a figure of this unit."""

    def after_attack(self, b: Builder, attacker: Figure, target: Figure, hit: bool) -> None:
        """React to an attack made by or against a figure of this unit."""

    def __repr__(self) -> str:
        return f"<ability {self.name}>"


REGISTRY: dict[str, Ability] = {}
"""Every registered ability, by name."""


def register(cls: type[Ability]) -> type[Ability]:
    """Class decorator: register an ability under its ``name``.

    :raises ValueError: if another ability already has that name.
    """
    existing = REGISTRY.get(cls.name)
    if existing is not None and type(existing) is not cls:
        raise ValueError(f"two abilities are named {cls.name!r}")
    REGISTRY[cls.name] = cls()
    return cls


def abilities_of(unit: Unit) -> tuple[Ability, ...]:
    """Return the registered abilities a unit has (unknown names are ignored here)."""
    return tuple(REGISTRY[name] for name in unit.abilities if name in REGISTRY)


def stunt_abilities(unit: Unit, double: bool) -> tuple[Ability, ...]:
    """Return the unit's (!) abilities, or its (!!) abilities for a Double-Stunt."""
    wanted = "double_stunt" if double else "stunt"
    return tuple(a for a in abilities_of(unit) if a.kind == wanted)


@register
class Ranged(Ability):
    """Standard ability (rulebook: Ranged)."""

    name = "Ranged"
    text = "This character can make ranged attacks against any character within line of sight."

    def is_ranged(self) -> bool:
        return True


@register
class Overwatch(Ability):
    """The rare ability of the variant adjacent-triggers (R22)."""

    name = "Overwatch"
    text = (
        "Under the adjacent-triggers variant, this unit's triggers still count characters "
        "in range, not only adjacent ones."
    )


@register
class Drifting(Ability):
    """Lets a Terrain unit's pieces take Move actions and reactions (R1)."""

    name = "Drifting"
    text = "These terrain pieces can move like characters."
