"""An ability: the hooks a team's rules plug into, and the registry of abilities by name.

Rulebook: *Abilities*, *Standard Abilities*. The standard abilities (Ranged,
Large, Drifting) are defined and registered here; the effects and queries
an ability's hooks use are in :mod:`.abilities`, which also re-exports all
of this module (``docs/teams.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, Literal, TypeAlias

if TYPE_CHECKING:
    from multiversus_core.rulesets.multiversus.board import Figure
    from multiversus_core.rulesets.multiversus.builder import Builder
    from multiversus_core.rulesets.multiversus.state import ForcedMove, MatchState
    from multiversus_core.rulesets.multiversus.units import Unit

AbilityKind: TypeAlias = Literal["passive", "triggered", "stunt", "double_stunt"]
"""Passive (always in effect), triggered (happens when something happens),
stunt-based (!) needing one Stunt coin, or (!!) needing two."""

KIND_MARKS: Final[dict[AbilityKind, str]] = {
    "passive": "",
    "triggered": "",
    "stunt": "(!)",
    "double_stunt": "(!!)",
}
"""How a sheet marks each kind after the ability's name."""


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

    def after_forced_move(self, b: Builder, move: ForcedMove, spaces: int) -> None:
        """Follow up a forced move this ability queued, once the figure moved ``spaces`` spaces."""

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


def title(ability: Ability) -> str:
    """Return the ability's name as a sheet prints it, with (!) or (!!) for stunts."""
    mark = KIND_MARKS[ability.kind]
    return f"{ability.name} {mark}" if mark else ability.name


# --- standard abilities (rulebook: Standard Abilities) -----------------------


@register
class Ranged(Ability):
    """Standard ability (rulebook: Ranged)."""

    name = "Ranged"
    text = "This character can make ranged attacks against any character within line of sight."

    def is_ranged(self) -> bool:
        return True


@register
class Large(Ability):
    """Standard ability (rulebook: Large). The sheet's ``size = "large"`` does the work."""

    name = "Large"
    text = "This character takes up four spaces (two by two)."


@register
class Drifting(Ability):
    """Lets a Terrain unit's pieces take Move actions and reactions (R1)."""

    name = "Drifting"
    text = (
        "These terrain pieces take Move actions, moving like characters, except that a piece "
        "never enters or passes through a space holding a character. They never react: "
        "every trigger is about a character of the reacting unit, and terrain pieces are "
        "not characters (their unit may still be selected to react, as a bluff)."
    )


# --- queries for ability code -------------------------------------------------
