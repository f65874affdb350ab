"""The Order of the Banner (Heroes): the Banner Knight, Squire Aldous and the Town Militia.

Sheet: ``data/teams/banner-knight.toml``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from multiversus_core.rulesets.multiversus.abilities import (
    Ability,
    characters,
    harm,
    harm_of_last_attack,
    has_ability,
    heal,
    push,
)
from multiversus_core.rulesets.multiversus.geometry import are_adjacent
from multiversus_core.rulesets.multiversus.scoring import WinCondition

if TYPE_CHECKING:
    from multiversus_core.rulesets.multiversus.board import Figure
    from multiversus_core.rulesets.multiversus.builder import Builder


class Rally(Ability):
    """The Banner Knight's (!): lift every adjacent ally one step."""

    name = "Rally"
    kind = "stunt"
    text = (
        "Every other allied character adjacent to the Banner Knight recovers one step: "
        "Disabled to Wounded, or Wounded to Unharmed."
    )

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        knight = b.state.figure(figure.id)
        for ally in characters(b.state, knight.side):
            if ally.id != knight.id and are_adjacent(knight, ally):
                heal(b, ally)


class UnderTheBanner(Ability):
    """Squire Aldous, triggered: his Champion takes the blow for him."""

    name = "Under the Banner"
    kind = "triggered"
    text = (
        "When a hit harms this character while its Champion stands adjacent and is not "
        "Disabled, the Champion takes the blow: this character recovers one step and the "
        "Champion is harmed one step instead. One step, whatever the hit did: a character "
        "an attacker's ability harmed one step more recovers only one. It cannot save this "
        "character from a hit that Eliminates him."
    )

    def after_attack(self, b: Builder, attacker: Figure, target: Figure, hit: bool) -> None:
        state = b.state
        if not hit or not has_ability(state, target, self.name):
            return
        squire = state.figure(target.id)
        if squire.square is None or harm_of_last_attack(b) not in ("wounded", "disabled"):
            return
        for champion in characters(state, squire.side):
            if (
                state.unit(champion.unit).role == "champion"
                and champion.condition != "disabled"
                and are_adjacent(champion, squire)
            ):
                heal(b, squire)
                harm(b, champion)
                return


class HoldTheLine(Ability):
    """The Town Militia, triggered: pikes drive an attacker back."""

    name = "Hold the Line"
    kind = "triggered"
    text = (
        "When a hit harms a Town Militia character without Eliminating it, while it stands "
        "adjacent to another, not Disabled, Town Militia character, an attacker adjacent "
        "to it is pushed one space directly away from it."
    )

    def after_attack(self, b: Builder, attacker: Figure, target: Figure, hit: bool) -> None:
        state = b.state
        if not hit or not has_ability(state, target, self.name):
            return
        militia, attacker = state.figure(target.id), state.figure(attacker.id)
        if militia.square is None or not are_adjacent(militia, attacker):
            return
        if any(
            other.unit == militia.unit
            and other.id != militia.id
            and other.condition != "disabled"
            and are_adjacent(other, militia)
            for other in characters(state, militia.side)
        ):
            push(b, militia, attacker)


ABILITIES: Final[tuple[type[Ability], ...]] = (Rally, UnderTheBanner, HoldTheLine)
"""The team's abilities (:func:`..teams.register_bundled` registers them)."""

WIN_CONDITIONS: Final[tuple[tuple[str, str, WinCondition], ...]] = ()
"""The team's win conditions: (name, rules text, function)."""
