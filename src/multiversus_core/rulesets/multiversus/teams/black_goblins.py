"""The Black Goblins (Adversaries): Grotmaw the troll, the goblins and their Barricades.

Sheet: ``data/teams/black-goblins.toml``. Secret scheme: ``plunder`` (which
tile they are after). Win condition: ``the-goblins-plunder``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from multiversus_core.rulesets.multiversus.abilities import (
    Ability,
    characters,
    chosen_secret,
    harm,
    has_ability,
    last_attack,
    place,
    push,
)
from multiversus_core.rulesets.multiversus.geometry import are_adjacent, push_direction
from multiversus_core.rulesets.multiversus.scoring import WinCondition, holder_of_tiles
from multiversus_core.rulesets.multiversus.terms import other_side

if TYPE_CHECKING:
    from multiversus_core.rulesets.multiversus.board import Figure
    from multiversus_core.rulesets.multiversus.builder import Builder
    from multiversus_core.rulesets.multiversus.state import ForcedMove, MatchState
    from multiversus_core.rulesets.multiversus.terms import Side

PLUNDER: Final = "plunder"
"""The secret scheme the Adversaries choose at set-up: the tile they mean to loot."""


class TrollSweep(Ability):
    """Grotmaw's (!!): a sweep of the club that hurls enemies away."""

    name = "Troll Sweep"
    kind = "double_stunt"
    text = (
        "Every enemy character adjacent to Grotmaw is pushed two spaces directly away, one "
        "at a time in the Heroes' roster order; one that is stopped short, whatever stopped "
        "it (the board's edge, terrain, an enemy, an ally of its own that chooses to block "
        "it, or an ally it could not pass without ending on it), is harmed one step, but "
        "never beyond Disabled."
    )

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        troll = b.state.figure(figure.id)
        for enemy in characters(b.state, other_side(troll.side)):
            if are_adjacent(troll, enemy):
                push(b, troll, enemy, 2, ability=self.name)

    def after_forced_move(self, b: Builder, move: ForcedMove, spaces: int) -> None:
        if spaces < move.distance:
            harm(b, b.state.figure(move.figure), worst="disabled")


class GangUp(Ability):
    """The Black Goblins, triggered: cruel when they outnumber."""

    name = "Gang Up"
    kind = "triggered"
    text = "When this character hits with Advantage, the target is harmed one step more."

    def after_attack(self, b: Builder, attacker: Figure, target: Figure, hit: bool) -> None:
        if not hit or not has_ability(b.state, attacker, self.name):
            return
        attack = last_attack(b)
        if attack is not None and attack.advantage:
            harm(b, target)


class CrawlThrough(Ability):
    """A Barricade, when interacted with: squeeze through to its far side."""

    name = "Crawl Through"
    kind = "triggered"
    text = (
        "A Medium character that interacts with a Barricade is placed in the space directly "
        "beyond it (on the line from the character through the Barricade), if it can stand "
        "there; otherwise it stays where it is. Being placed is not a step: it triggers no "
        "reaction."
    )

    def on_interact(self, b: Builder, actor: Figure, figure: Figure) -> None:
        actor, barricade = b.state.figure(actor.id), b.state.figure(figure.id)
        if actor.size != "medium" or barricade.square is None:
            return
        try:
            dc, dr = push_direction(actor, barricade)
        except ValueError:
            return
        place(b, actor, (barricade.square[0] + dc, barricade.square[1] + dr))


def the_goblins_plunder(state: MatchState) -> Side | None:
    """Whoever alone stands on the secretly chosen tile wins."""
    scheme = chosen_secret(state, "adversaries", PLUNDER)
    if scheme is None:
        return None
    return holder_of_tiles(state, scheme.choice)


ABILITIES: Final[tuple[type[Ability], ...]] = (TrollSweep, GangUp, CrawlThrough)
"""The team's abilities (:func:`..teams.register_bundled` registers them)."""

WIN_CONDITIONS: Final[tuple[tuple[str, str, WinCondition], ...]] = (
    (
        "the-goblins-plunder",
        "At the end of round 6, the side with a character on the tile the Adversaries chose "
        "to plunder, when the other side has none there, wins.",
        the_goblins_plunder,
    ),
)
"""The team's win conditions: (name, rules text, function)."""
