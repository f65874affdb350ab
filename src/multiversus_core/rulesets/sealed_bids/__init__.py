"""Sealed Bids: a small game of simultaneous secret bids, the worked example of a ruleset.

The rules
=========

Three players, in seats 1, 2 and 3, each hold five bid tokens, worth 1, 2,
3, 4 and 5. Each token can be bid once in the match. The match lasts
``rounds`` rounds (1 to 5, 3 unless the settings say otherwise).

1. **Bidding.** Each round, the three seats bid at the same time: each
   secretly bids one of its unused tokens. They may bid in any order; the
   match waits for every seat that has not bid yet this round. A bid enters
   the log as a commitment only: nobody else learns the token until all three
   have bid.
2. **The reveal.** As soon as the third seat has bid, all three bids are
   revealed together, each with the salt that opens its commitment. The
   revealed tokens are used up.
3. **The prize.** Then one seat rolls the prize die, a d6: seat 1 in round 1,
   seat 2 in round 2, seat 3 in round 3, seat 1 again in round 4, and so on.
   The round's prize is the die plus any prize carried over from the rounds
   before.
4. **Winning the round.** The highest bid that no other seat bid (the highest
   unique bid) wins the whole prize: its seat adds it to its score. If no bid
   is unique (all three bid alike), nobody scores and the whole prize carries
   over to the next round, where it is added to that round's die. A prize
   carried out of the last round is lost.
5. **The end.** After the last round, the seats with the highest score win,
   sharing the win on a tie (a result of 1 each, and -1 for the other seat).
   If all three have the same score, the match is a draw: no winners, and a
   result of 0 for everyone.

Hidden information
==================

A seat's bid is seen by that seat alone until the reveal; everyone sees that
it bid, and its commitment. The tokens each seat has left are public (they
follow from the revealed bids). The chance seed is seen by nobody. Viewers
are ``"seat-1"``, ``"seat-2"``, ``"seat-3"`` and ``"spectator"``; the
referee sees the whole state, which the engine shows them itself (there is
no view for the referee).

Chance and salts
================

The die is drawn from the match's chance (the public seed of the settings,
or the secret seed they commit to), with the state's draw counter, unless
the roll command supplies the die as rolled at the table. Bid salts come
from the command (``"secrets"``) or are derived from the seed (``"seed"``:
reproducible, but not secret).

The modules
===========

:mod:`.rules` (settings, commands, events and their placeholders, a bid's
commitment and its audit, the state, ``evolve``, ``decide``, the outcome and
the match in words), :mod:`.hidden` (views, redaction and determinization:
the one door to hidden information), :mod:`.position` (what the rules bound
in a position written as text), and :mod:`.ruleset` (bots, the search
game, and :data:`RULESET`, the game behind the engine's
:class:`~multiversus_core.engine.ruleset.Ruleset` protocol).
"""

from __future__ import annotations

from multiversus_core.rulesets.sealed_bids.rules import SealedBidsSettings, SealedBidsState
from multiversus_core.rulesets.sealed_bids.ruleset import RULESET, SealedBidsRuleset

__all__ = ["RULESET", "SealedBidsRuleset", "SealedBidsSettings", "SealedBidsState"]
