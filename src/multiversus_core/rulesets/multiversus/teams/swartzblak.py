"""The Feral Cats of Swartzblak (Adversaries): Grimalkin, the cats, and the Curtains.

Sheet: ``data/teams/swartzblak.toml``. Hidden identity: ``shapeshifter`` (one
of the cats). Win condition: ``the-shapeshifter-hunt``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from multiversus_core.rulesets.multiversus.abilities import (
    Ability,
    characters,
    chosen_secret,
    harm,
    has_ability,
    nearest,
    place,
    reveal,
    secret_figure,
)
from multiversus_core.rulesets.multiversus.geometry import are_adjacent, has_line_of_sight
from multiversus_core.rulesets.multiversus.scoring import WinCondition
from multiversus_core.rulesets.multiversus.terms import other_side

if TYPE_CHECKING:
    from multiversus_core.rulesets.multiversus.board import Figure
    from multiversus_core.rulesets.multiversus.builder import Builder
    from multiversus_core.rulesets.multiversus.state import MatchState
    from multiversus_core.rulesets.multiversus.terms import Side

SHAPESHIFTER: Final = "shapeshifter"
"""The hidden identity the Adversaries choose at set-up: one of the cats."""


class EvilEye(Ability):
    """Grimalkin's (!): a look that wounds."""

    name = "Evil Eye"
    kind = "stunt"
    text = (
        "The nearest Unharmed enemy character this character has line of sight to is "
        "Wounded (nearest: the fewest king's moves between their nearest spaces; on a tie, "
        "the first in the Heroes' roster order)."
    )

    def on_stunt(self, b: Builder, figure: Figure, double: bool) -> None:
        state = b.state
        witch = state.figure(figure.id)
        assert state.board is not None
        board = state.board
        seen = [
            enemy
            for enemy in characters(state, other_side(witch.side))
            if enemy.condition == "unharmed"
            and has_line_of_sight(board, state.figures, witch, enemy)
        ]
        victim = nearest(witch, seen)
        if victim is not None:
            harm(b, victim, worst="wounded")


class Skulk(Ability):
    """The Feral Cats, passive: quick from cover."""

    name = "Skulk"
    text = (
        "A Feral Cat that begins its move in or adjacent to a Curtain moves one extra space "
        "(four, or seven for a Double)."
    )

    def movement(self, state: MatchState, figure: Figure, spaces: int) -> int:
        if any(
            f.side == figure.side and f.terrain and are_adjacent(figure, f) for f in state.figures
        ):
            return spaces + 1
        return spaces


class Shapeshifter(Ability):
    """The Feral Cats, triggered: the hidden shapeshifter ambushes."""

    name = "Shapeshifter"
    kind = "triggered"
    text = (
        "One cat, chosen in secret at set-up, is the shapeshifter. Its ambush: the first time "
        "it hits an enemy character while still hidden, it reveals itself and the target is "
        "harmed one step more. Once revealed, by its ambush or by Silver Bullets or Keen "
        "Nose, its hits are ordinary."
    )

    def after_attack(self, b: Builder, attacker: Figure, target: Figure, hit: bool) -> None:
        state = b.state
        if not hit or not has_ability(state, attacker, self.name):
            return
        secret = chosen_secret(state, attacker.side, SHAPESHIFTER)
        shifter = secret_figure(state, attacker.side, SHAPESHIFTER)
        if secret is None or secret.revealed or shifter is None or shifter.id != attacker.id:
            return
        reveal(b, attacker.side, SHAPESHIFTER)
        harm(b, target)


class BehindTheCurtains(Ability):
    """A Curtain, when interacted with: step through to another one."""

    name = "Behind the Curtains"
    kind = "triggered"
    text = (
        "A character that interacts with a Curtain is placed in the space of the next "
        "Curtain in order (Curtain 1, 2, 3, then 1 again) where it can stand, skipping "
        "any it cannot; if it can stand in none of the others, it stays where it is (never "
        "back out of the Curtain it used). Being placed is not a step: it triggers no "
        "reaction."
    )

    def on_interact(self, b: Builder, actor: Figure, figure: Figure) -> None:
        pieces = [f for f in b.state.figures if f.unit == figure.unit and f.square is not None]
        start = next(i for i, f in enumerate(pieces) if f.id == figure.id)
        for k in range(1, len(pieces)):
            curtain = pieces[(start + k) % len(pieces)]
            assert curtain.square is not None
            if place(b, actor, curtain.square):
                return


def the_shapeshifter_hunt(state: MatchState) -> Side | None:
    """The Heroes must bring down the hidden shapeshifter."""
    shifter = secret_figure(state, "adversaries", SHAPESHIFTER)
    if shifter is None:
        return None
    if shifter.condition in ("disabled", "eliminated"):
        return "heroes"
    if shifter.condition == "unharmed":
        return "adversaries"
    return None


ABILITIES: Final[tuple[type[Ability], ...]] = (EvilEye, Skulk, Shapeshifter, BehindTheCurtains)
"""The team's abilities (:func:`..teams.register_bundled` registers them)."""

WIN_CONDITIONS: Final[tuple[tuple[str, str, WinCondition], ...]] = (
    (
        "the-shapeshifter-hunt",
        "At the end of round 6, the Heroes win if the shapeshifter is Disabled or Eliminated; "
        "the Adversaries win if it is Unharmed. A Wounded shapeshifter decides nothing.",
        the_shapeshifter_hunt,
    ),
)
"""The team's win conditions: (name, rules text, function)."""
