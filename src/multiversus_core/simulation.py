"""Simulation: many bot matches over a grid, and their summary (the names as before).

Multiversus' grid of pairings and variants is
:mod:`multiversus_core.rulesets.multiversus.simulation`; what every game's
simulation shares, and the grid of any game, is
:mod:`multiversus_core.engine.simulation`. This module keeps their public
names where they have always been imported from.
"""

from __future__ import annotations

from multiversus_core.engine.simulation import (
    Z_95,
    GameGrid,
    GameRecord,
    GameSummary,
    GameTask,
    Seating,
    play_game_task,
    summarize_game,
)
from multiversus_core.rulesets.multiversus import simulation as _multiversus
from multiversus_core.rulesets.multiversus.simulation import *  # noqa: F403

__all__ = [
    *_multiversus.__all__,
    "Z_95",
    "GameGrid",
    "GameRecord",
    "GameSummary",
    "GameTask",
    "Seating",
    "play_game_task",
    "summarize_game",
]
