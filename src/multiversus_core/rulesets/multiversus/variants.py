"""Variants: the rulebook's Alternative Rules that a match may switch on (R22).

Each variant is off by default, named in the match settings (so it is
written in the log header), and documented with the rulebook text it comes
from. Alternative Rules whose effect the rulebook leaves unstated are listed
in :data:`NOT_IMPLEMENTED` with the reason.
"""

from __future__ import annotations

from typing import Final

import msgspec

from multiversus_core.rulesets.multiversus.state import MatchState


class Variant(msgspec.Struct, frozen=True):
    """An Alternative Rule that can be switched on."""

    name: str
    rulebook: str
    """The rulebook's sentence, word for word."""
    summary: str
    """What it changes, stated precisely."""


_ALL: Final = (
    Variant(
        name="no-automatic-six",
        rulebook="Don't always lose on a six? Would mean you never lose Initiative before you "
        "get on to greys.",
        summary="A 6 on the Initiative die loses the Initiative only if it is at most the number "
        "of grey unit coins in the roller's discard, like any other result.",
    ),
    Variant(
        name="costly-recovery",
        rulebook="Each time you recover, you lose a unit coin - but you go straight to unWounded.",
        summary="A successful Recovery leaves every character of the unit Unharmed (Disabled "
        "ones too), and the unit coin used for it is removed from the match.",
    ),
    Variant(
        name="move-reaction-at-end",
        rulebook="Move reaction triggered by: the active player concluding their actions "
        "without attacking you or ending their actions adjacent to you.",
        summary="A Move reaction is no longer triggered by the five usual triggers. Instead, "
        "when the active unit's actions are over, the reactive unit may react with its Move "
        "if no active character attacked it during the activation, or if an active character "
        "ends adjacent to it.",
    ),
    Variant(
        name="adjacent-triggers",
        rulebook='Remove "in range of" and replace with "adjacent" in the triggers, then create '
        'a rare ability, "Overwatch", that restores this.',
        summary="The triggers that need an active character in range of a reactive character "
        "(attacking another unit, stunting, recovering) need it adjacent instead, unless the "
        "reactive unit has the Overwatch ability.",
    ),
    Variant(
        name="disengage-trigger",
        rulebook="Triggering occurs when they go from adjacent to you to not adjacent to you, "
        "not when they leave an adjacent square.",
        summary="Leaving a square adjacent to a reactive character triggers a reaction only if, "
        "after the step, the moving character is adjacent to no character of the reactive unit.",
    ),
    Variant(
        name="diagonal-double-move",
        rulebook="What if a double-move let you move diagonally, but only say 4 spaces? Would "
        "unlock new options.",
        summary="A Double-Move lets each figure move up to 4 spaces, and its steps may be "
        "diagonal as well as orthogonal.",
    ),
    Variant(
        name="diagonal-movement",
        rulebook="What if you could move diagonally, but blocking terrain blocks diagonal "
        "movement across it as well.",
        summary="Regular movement may step diagonally; a diagonal step may not cut across "
        "blocking terrain (either space it passes between).",
    ),
    Variant(
        name="double-attack-pushes",
        rulebook="Double-attack action also pushes?",
        summary="Each hit of a Double-Attack also pushes the target one space directly away "
        "from the attacker, if that space is free, before the attacker's Step or Push.",
    ),
    Variant(
        name="secret-schemes",
        rulebook="Schemes instead of win conditions, independent of the Adversary (or maybe, "
        "the options are determined by the Adversary, but the choice is secret).",
        summary="At set-up the Adversary player secretly chooses one of their sheet's win "
        "conditions as their scheme; after round 6 only that one is checked. It is revealed "
        "at the end of the match.",
    ),
)

VARIANTS: Final[dict[str, Variant]] = {v.name: v for v in _ALL}
"""Known variants by name."""

NOT_IMPLEMENTED: Final[dict[str, str]] = {
    "Large characters can squeeze.": "The rulebook does not say where or how a Large "
    "character squeezes, or what it costs.",
    "Damage from excessive movement?": "The rulebook does not say what movement is excessive "
    "or what damage it does.",
    "Instead of counting sixes as failures, it could be more intuitive if you used a piecepack "
    "die where the sixes are replaced with zeroes.": "A choice of component, not of rule: a "
    "zero that always loses plays exactly like a six that always loses.",
}
"""Alternative Rules that are not variants, with the reason (R22)."""


def is_on(state: MatchState, name: str) -> bool:
    """True if the named variant is switched on in this match."""
    return name in state.settings.variants
