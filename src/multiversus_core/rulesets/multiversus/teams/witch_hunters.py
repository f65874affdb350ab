"""The Witch Hunters (Heroes): the Witch Hunter, Grete the Wolfhound and the villagers.

Sheet: ``data/teams/witch-hunters.toml``. Secret power: ``hunters-kit``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from multiversus_core.rulesets.multiversus.abilities import (
    Ability,
    characters,
    chosen_secret,
    forced_move,
    harm,
    harm_of_last_attack,
    has_ability,
    heal,
    hidden_identity,
    nearest,
    push,
    reveal,
)
from multiversus_core.rulesets.multiversus.geometry import are_adjacent, push_direction
from multiversus_core.rulesets.multiversus.scoring import WinCondition
from multiversus_core.rulesets.multiversus.terms import other_side

if TYPE_CHECKING:
    from multiversus_core.rulesets.multiversus.board import Figure
    from multiversus_core.rulesets.multiversus.builder import Builder
    from multiversus_core.rulesets.multiversus.state import MatchState

HUNTERS_KIT: Final = "hunters-kit"
"""The secret power the Heroes choose at set-up."""


class SilverBullets(Ability):
    """The Witch Hunter, triggered: his ranged hits hurt the unnatural more."""

    name = "Silver Bullets"
    kind = "triggered"
    text = (
        "When this character's ranged attack (at a character not adjacent) hits a character "
        "that is a hidden identity (the shapeshifter), whether revealed yet or not, that "
        "character is harmed one step more, and the identity is revealed if it was still "
        "hidden. When it hits a Wounded Beast, the Beast is Disabled even without Advantage."
    )

    def after_attack(self, b: Builder, attacker: Figure, target: Figure, hit: bool) -> None:
        state = b.state
        if not hit or not has_ability(state, attacker, self.name):
            return
        hunter, target = state.figure(attacker.id), state.figure(target.id)
        if target.square is None or are_adjacent(hunter, target):
            return
        identity = hidden_identity(state, target)
        if identity is not None:
            reveal(b, identity.side, identity.name)
            harm(b, target)
        elif (
            state.unit(target.unit).role == "beast"
            and target.condition == "wounded"
            and harm_of_last_attack(b) is None
        ):
            harm(b, target, worst="disabled")


class HuntersKit(Ability):
    """The Witch Hunter's (!): the tool chosen in secret at set-up."""

    name = "Hunter's Kit"
    kind = "stunt"
    text = (
        "Use the tool the Heroes chose in secret at set-up; its first use reveals it (a use "
        "that fails under an attack reaction is no use and reveals nothing). Holy water: "
        "every adjacent Unharmed enemy character is Wounded. Smelling salts: this character "
        "and every adjacent allied character recover one step. Grapnel: this character "
        "slides up to three spaces directly away from the nearest enemy character (the "
        "fewest king's moves between their nearest spaces; on a tie, the first in the "
        "Adversaries' roster order); the Heroes choose how far, none to three. The slide is "
        "not a step: it triggers no reaction."
    )

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        secret = chosen_secret(b.state, figure.side, HUNTERS_KIT)
        if secret is None:
            return
        reveal(b, figure.side, HUNTERS_KIT)
        hunter = b.state.figure(figure.id)
        match secret.choice:
            case "holy-water":
                for enemy in characters(b.state, other_side(hunter.side)):
                    if are_adjacent(hunter, enemy):
                        harm(b, enemy, worst="wounded")
            case "smelling-salts":
                for ally in characters(b.state, hunter.side):
                    if ally.id == hunter.id or are_adjacent(hunter, ally):
                        heal(b, ally)
            case "grapnel":
                closest = nearest(hunter, characters(b.state, other_side(hunter.side)))
                if closest is not None:
                    forced_move(
                        b, hunter, push_direction(closest, hunter), 3, "slide", up_to=hunter.side
                    )
            case _:
                pass


class Fleet(Ability):
    """Grete the Wolfhound, passive: she runs fast."""

    name = "Fleet"
    text = "This character moves one extra space with every Move (four, or seven for a Double)."

    def movement(self, state: MatchState, figure: Figure, spaces: int) -> int:
        return spaces + 1


class KeenNose(Ability):
    """Grete the Wolfhound, triggered: she smells out a disguise."""

    name = "Keen Nose"
    kind = "triggered"
    text = (
        "When this character attacks a character that is secretly a hidden identity (the "
        "shapeshifter), hit or miss, the identity is revealed."
    )

    def after_attack(self, b: Builder, attacker: Figure, target: Figure, hit: bool) -> None:
        state = b.state
        if not has_ability(state, attacker, self.name):
            return
        identity = hidden_identity(state, state.figure(target.id))
        if identity is not None:
            reveal(b, identity.side, identity.name)


class Torches(Ability):
    """The villagers' (!): wave torches to drive enemies back."""

    name = "Torches"
    kind = "stunt"
    text = (
        "Every enemy character adjacent to this villager is pushed one space directly away, "
        "one at a time in the Adversaries' roster order."
    )

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        villager = b.state.figure(figure.id)
        for enemy in characters(b.state, other_side(villager.side)):
            if are_adjacent(villager, enemy):
                push(b, villager, enemy)


ABILITIES: Final[tuple[type[Ability], ...]] = (SilverBullets, HuntersKit, Fleet, KeenNose, Torches)
"""The team's abilities (:func:`..teams.register_bundled` registers them)."""

WIN_CONDITIONS: Final[tuple[tuple[str, str, WinCondition], ...]] = ()
"""The team's win conditions: (name, rules text, function)."""
