"""``multiversus rules``: the game on one screen, for someone who has not read the rulebook.

The primer fits a terminal of 80 columns by 24 lines. It follows the rulebook
and the rulings (R2-R16, R21); a team's own rules are on its sheet, which
``multiversus teams show`` prints.
"""

from __future__ import annotations

from typing import Final

from rich.console import Console
from rich.text import Text

PRIMER: Final = """\
Multiversus: the Heroes against the Adversaries, six rounds, hidden choices.
Objective  Eliminate every enemy character and win at once; otherwise the
  Adversary sheet's win conditions decide after round 6, or it is a draw.
Coins  Each unit has unit coins (one green, two grey); each player has eight
  action coins, two each of Attack, Defend, Move and Stunt.
Activate  In secret, pick a unit coin and 0-2 action coins: two kinds are two
  actions, two alike one stronger action (Double-Move: 6 spaces), none is a
  Recovery (heal one step; the turn ends). The other player secretly picks a
  unit coin and an action coin to react with. You reveal and act; their
  reaction stays hidden until it is used or the activation ends.
Reactions  Attack, Move and Stunt need a trigger: an enemy leaves a space
  next to the reacting unit, or within its reach attacks another unit, stunts
  or recovers, or Double-Attacks it. Defend needs none: attacks on the unit
  miss, all but a Double-Attack.
Conditions  A hit: Unharmed > Wounded > Disabled > Eliminated. Advantage
  (target beside more enemies than allies + 1): only it Disables a Beast.
Initiative  Used unit coins go to your discard. After each activation roll
  the die: a 6, or a roll no higher than your greys in the discard, loses the
  Initiative. Keep it and go on, or give it up willingly: your opponent then
  keeps their grey coins in their discard.
Rounds  Each round both sides take one turn, the same side first; six rounds.
Sheets  (!) marks a stunt ability used with one Stunt coin, (!!) one used with
  two (a Double-Stunt): multiversus teams show ID.  In play: ? explains."""
"""The primer, as printed."""


def rules() -> None:
    """The rules on one screen: how to win, coins, reactions, the Initiative, the rounds.

    The primer covers the objective, unit and action coins, the secret selection
    and its reveal, reactions and their triggers, conditions and Advantage, the
    Initiative die and when it is lost, and the six rounds. Each team's units and
    abilities are on its sheet: multiversus teams show ID.
    """
    out = Console(highlight=False, soft_wrap=True)
    for line in PRIMER.splitlines():
        text = Text(line)
        head, _, rest = line.partition("  ")
        if head and rest and not line.startswith(" "):
            text = Text(head, style="bold")
            text.append("  " + rest)
        out.print(text)


__all__ = ["PRIMER", "rules"]
