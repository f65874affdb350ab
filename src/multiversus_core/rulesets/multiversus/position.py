"""Multiversus positions as text: written against the teams and scenario laid out.

A Multiversus match lays its content out at set-up, when the Set Up Player
chooses the teams and scenario: a position names them (``heroes_team``,
``adversaries_team``, ``scenario``, by their ids), and the rest of it is
written against the state that choice gives (every unit, the board and the
figures where the scenario places them), so that a position mid-match names
only what play changed: figures moved or harmed, coins spent, the round, the
Initiative, the activation under way and the decision waited for.
"""

from __future__ import annotations

from typing import Final

from multiversus_core.engine.position import PositionError, check_squares
from multiversus_core.rulesets.multiversus.catalog import find_team, missing_team
from multiversus_core.rulesets.multiversus.evolve import evolve_all
from multiversus_core.rulesets.multiversus.geometry import figure_squares
from multiversus_core.rulesets.multiversus.setup import laid_out
from multiversus_core.rulesets.multiversus.state import MatchState

__all__ = ["NOTATION", "MultiversusNotation"]


class MultiversusNotation:
    """The template of a Multiversus position: its teams and scenario laid out."""

    keys: Final = ("heroes_team", "adversaries_team", "scenario")
    """The fields naming the teams and scenario, written first."""

    def template(self, state: MatchState) -> MatchState:
        """``state`` with its teams and scenario laid out, as set-up lays them out (step 2);
        ``state`` itself before they are chosen.

        :raises PositionError: if a team or scenario it names is not installed.
        """
        names = (state.heroes_team, state.adversaries_team, state.scenario)
        if names == (None, None, None):
            return state
        heroes_id, adversaries_id, scenario_id = names
        if heroes_id is None or adversaries_id is None or scenario_id is None:
            raise PositionError("name both teams and the scenario, or none of them")
        heroes, adversaries = find_team(heroes_id), find_team(adversaries_id)
        for team_id, sheet in ((heroes_id, heroes), (adversaries_id, adversaries)):
            if sheet is None:
                raise PositionError(missing_team(team_id))
        assert heroes is not None and adversaries is not None
        if heroes.side != "heroes" or adversaries.side != "adversaries":
            raise PositionError("heroes_team names a Hero team, adversaries_team an Adversary team")
        try:
            events = laid_out(state, heroes, adversaries, scenario_id)
        except KeyError:
            raise PositionError(f"{adversaries.name} has no scenario {scenario_id!r}") from None
        return evolve_all(state, events)

    def check(self, state: MatchState) -> None:
        """Every figure on the board within it (a moving figure may pass through an ally,
        so two may share a space for a while).

        :raises PositionError: naming the figure.
        """
        placed = [f for f in state.figures if f.square is not None]
        if placed and state.board is None:
            raise PositionError("figures stand on a board not laid out")
        if state.board is None:
            return
        width, height = state.board.width, state.board.height
        for f in placed:
            check_squares([(f.id, figure_squares(f))], width, height)


NOTATION: Final = MultiversusNotation()
"""Multiversus' notation, as its ruleset offers it."""
