"""Sealed Bids' pictures and words (:class:`SealedBidsRenderer`, the ruleset's ``renderer``):
a game without a board, so it draws no picture; its commands in words."""

from __future__ import annotations

from typing import Final

from multiversus_core.rulesets.sealed_bids.hidden import SealedBidsView
from multiversus_core.rulesets.sealed_bids.rules import Command, command_words


class SealedBidsRenderer:
    """Sealed Bids' pictures and words (:class:`~multiversus_core.engine.render.Renderer`)."""

    def board_svg(self, view: SealedBidsView) -> None:
        """None: Sealed Bids has no board (bids are told in words)."""
        return None

    def board_text(self, view: SealedBidsView) -> None:
        """None: Sealed Bids has no board (bids are told in words)."""
        return None

    def command_words(self, command: Command, view: SealedBidsView) -> str:
        """The command in words ("bid 4", "roll the prize")."""
        return command_words(command)


RENDERER: Final = SealedBidsRenderer()
"""Sealed Bids' renderer, the ruleset's ``renderer``."""

__all__ = ["RENDERER", "SealedBidsRenderer"]
