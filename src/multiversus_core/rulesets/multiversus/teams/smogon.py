"""Smogon and the Dragonkith (Adversaries): a Large smoke-wyrm, its Bruisers and its Clouds.

Sheet: ``data/teams/smogon.toml``. Win condition: ``the-smoke-vent``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from multiversus_core.rulesets.multiversus.abilities import (
    Ability,
    characters,
    harm,
    pull,
    push,
)
from multiversus_core.rulesets.multiversus.geometry import are_adjacent
from multiversus_core.rulesets.multiversus.scoring import WinCondition, holder_of_tiles
from multiversus_core.rulesets.multiversus.terms import other_side

if TYPE_CHECKING:
    from multiversus_core.rulesets.multiversus.board import Figure
    from multiversus_core.rulesets.multiversus.builder import Builder
    from multiversus_core.rulesets.multiversus.state import MatchState
    from multiversus_core.rulesets.multiversus.terms import Side

SMOKE_VENT = "Smoke Vent"
"""The special tile the win condition is about."""


class SmokeBreath(Ability):
    """Smogon's (!!): choke everyone near it or in its clouds."""

    name = "Smoke Breath"
    kind = "double_stunt"
    text = (
        "Every enemy character adjacent to Smogon, or in or adjacent to a Cloud, is "
        "harmed one step, but never beyond Disabled."
    )

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        wyrm = b.state.figure(figure.id)
        clouds = [
            f for f in b.state.figures if f.side == wyrm.side and f.terrain and f.square is not None
        ]
        for enemy in characters(b.state, other_side(wyrm.side)):
            if are_adjacent(wyrm, enemy) or any(are_adjacent(enemy, c) for c in clouds):
                harm(b, enemy, worst="disabled")


class DragToTheWyrm(Ability):
    """The Dragonkith Bruisers' (!): haul victims toward Smogon."""

    name = "Drag to the Wyrm"
    kind = "stunt"
    text = (
        "Every enemy character adjacent to this Bruiser is pulled one space directly "
        "toward Smogon (the team's Beast), if that space is free, one at a time in the "
        "Heroes' roster order."
    )

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        bruiser = b.state.figure(figure.id)
        beast = next(
            (f for f in characters(b.state, bruiser.side) if b.state.unit(f.unit).role == "beast"),
            None,
        )
        if beast is None:
            return
        for enemy in characters(b.state, other_side(bruiser.side)):
            if are_adjacent(bruiser, enemy):
                pull(b, beast, enemy)


class Billowing(Ability):
    """A Cloud, when interacted with: it is blown away."""

    name = "Billowing"
    kind = "triggered"
    text = (
        "A character that interacts with a Cloud blows it up to two spaces directly away "
        "from itself: that character's player chooses how far (none, one or two spaces); it "
        "stops before a space that is not free for it (a character, blocking terrain, another "
        "terrain piece or the board's edge). A Cloud the character stands in does not move."
    )

    def on_interact(self, b: Builder, actor: Figure, figure: Figure) -> None:
        push(b, actor, figure, 2, up_to=actor.side)


def the_smoke_vent(state: MatchState) -> Side | None:
    """Whoever alone stands on the Smoke Vent wins."""
    return holder_of_tiles(state, SMOKE_VENT)


ABILITIES: Final[tuple[type[Ability], ...]] = (SmokeBreath, DragToTheWyrm, Billowing)
"""The team's abilities (:func:`..teams.register_bundled` registers them)."""

WIN_CONDITIONS: Final[tuple[tuple[str, str, WinCondition], ...]] = (
    (
        "the-smoke-vent",
        "At the end of round 6, the side with a character on the Smoke Vent (Smogon counts "
        "when any of its four spaces is on it), when the other side has none there, wins.",
        the_smoke_vent,
    ),
)
"""The team's win conditions: (name, rules text, function)."""
