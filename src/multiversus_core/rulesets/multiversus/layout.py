"""Laying out a pairing: the units, the board and the figures where set-up puts them (step 2).

A pure function of the two team sheets and the scenario, shared by set-up
(:mod:`.setup`) and by the check that an installed team sets up against
every other (:mod:`.catalog`).
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.rulesets.multiversus import movement
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.sheets import ScenarioSheet, TeamSheet, UnitSheet
from multiversus_core.rulesets.multiversus.terms import Side
from multiversus_core.rulesets.multiversus.units import Unit, coin_id


@functools.lru_cache(maxsize=16)
def lay_out(
    heroes: TeamSheet, adversaries: TeamSheet, scenario: ScenarioSheet
) -> tuple[tuple[Unit, ...], Board, tuple[Figure, ...]]:
    """Return the units, the board and the figures in their starting squares for a pairing.

    A pure function of three immutable sheets: the last few pairings are kept
    (a simulation or a verification of many logs lays out the same ones again).

    :raises IllegalCommandError: if two units or figures would share an id, or
        the scenario has no room for a figure.
    """
    units = _units(heroes, adversaries)
    for ids in ([u.id for u in units], [f for u in units for f in u.figures]):
        if len(set(ids)) != len(ids):
            twice = next(i for n, i in enumerate(ids) if i in ids[:n])
            raise IllegalCommandError(f"two units or figures would share the id {twice!r}")
    board = scenario.board()
    return units, board, _deploy(board, scenario, heroes, adversaries, units)


def _units(heroes: TeamSheet, adversaries: TeamSheet) -> tuple[Unit, ...]:
    hero_ids = {u.id for u in heroes.units}
    units = []
    for sheet in (heroes, adversaries):
        for u in sheet.units:
            # Unit ids must be unique in the match; qualify an Adversary unit
            # that shares its id with a Hero unit.
            uid = f"{sheet.id}-{u.id}" if sheet is adversaries and u.id in hero_ids else u.id
            units.append(_unit(uid, u, sheet.side))
    return tuple(units)


def _unit(uid: str, u: UnitSheet, side: Side) -> Unit:
    figures = (
        (uid,) if u.characters == 1 else tuple(f"{uid}-{i}" for i in range(1, u.characters + 1))
    )
    coins = tuple(coin_id(uid, "green", i) for i in range(1, u.green_coins + 1)) + tuple(
        coin_id(uid, "grey", i) for i in range(1, u.grey_coins + 1)
    )
    return Unit(
        id=uid,
        name=u.name,
        side=side,
        role=u.role,
        figures=figures,
        coins=coins,
        size=u.size,
        abilities=u.abilities,
    )


def _figure(unit: Unit, sheet_unit: UnitSheet, index: int) -> Figure:
    fid = unit.figures[index]
    name = unit.name if len(unit.figures) == 1 else f"{unit.name} {index + 1}"
    terrain = unit.is_terrain
    return Figure(
        id=fid,
        name=name,
        unit=unit.id,
        side=unit.side,
        square=None,
        size=unit.size,
        terrain=terrain,
        blocking=sheet_unit.blocking if terrain else True,
        obscuring=sheet_unit.obscuring if terrain else True,
    )


def _deploy(
    board: Board,
    scenario: ScenarioSheet,
    heroes: TeamSheet,
    adversaries: TeamSheet,
    units: tuple[Unit, ...],
) -> tuple[Figure, ...]:
    """Place the Adversaries where the scenario says, and the Heroes in its zone in roster order."""
    placed: list[Figure] = []
    hero_units = units[: len(heroes.units)]
    adversary_units = units[len(heroes.units) :]
    for unit, sheet_unit in zip(adversary_units, adversaries.units, strict=True):
        squares = next(p.squares for p in scenario.adversaries if p.unit == sheet_unit.id)
        for i, square in enumerate(squares):
            placed.append(_place(board, placed, _figure(unit, sheet_unit, i), (square,), scenario))
    zone = list(scenario.heroes)
    hero_figures = []
    for unit, sheet_unit in zip(hero_units, heroes.units, strict=True):
        for i in range(len(unit.figures)):
            figure = _place(board, placed, _figure(unit, sheet_unit, i), tuple(zone), scenario)
            assert figure.square is not None
            zone.remove(figure.square)
            placed.append(figure)
            hero_figures.append(figure)
    return tuple(hero_figures) + tuple(f for f in placed if f.side == "adversaries")


def _place(
    board: Board,
    placed: list[Figure],
    figure: Figure,
    candidates: tuple[tuple[int, int], ...],
    scenario: ScenarioSheet,
) -> Figure:
    for square in candidates:
        candidate = replace(figure, square=square)
        if movement.can_stand(board, tuple(placed), candidate, square):
            return candidate
    raise IllegalCommandError(f"{scenario.name} has no room to set up {figure.name}")
