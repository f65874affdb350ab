"""Set-up: the coin flip, teams and layout, the starting team, the Other Player's side.

Rulebook: *Set up*, steps 1 to 4; rulings R1, R2, R17.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from multiversus_core import movement
from multiversus_core.board import Board, Figure
from multiversus_core.builder import Builder
from multiversus_core.commitments import seal
from multiversus_core.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.events import (
    BoardSetUp,
    SecretChosen,
    SetUpCoinFlipped,
    SideChosen,
    StartingTeamChosen,
    TeamsChosen,
)
from multiversus_core.initiative import start_round
from multiversus_core.sheets import (
    ScenarioSheet,
    TeamSheet,
    UnitSheet,
    find_team,
    installed_teams,
    missing_team,
)
from multiversus_core.state import MatchState, SecretOffer
from multiversus_core.terms import Seat, Side
from multiversus_core.units import Unit, coin_id
from multiversus_core.variants import is_on


def flip(b: Builder, winner: Seat) -> None:
    """Record the Set Up Player decided by the coin flip (step 1)."""
    b.emit(SetUpCoinFlipped(set_up_player=winner))


def team_options(state: MatchState) -> tuple[tuple[str, str, str], ...]:
    """Return every (heroes, adversaries, scenario) the Set Up Player may choose (step 2)."""
    settings = state.settings
    heroes = [t for t in installed_teams() if t.side == "heroes"]
    adversaries = [t for t in installed_teams() if t.side == "adversaries"]
    options = []
    for h in heroes:
        if settings.heroes is not None and h.id != settings.heroes:
            continue
        for a in adversaries:
            if settings.adversaries is not None and a.id != settings.adversaries:
                continue
            for sc in a.scenarios:
                if settings.scenario is not None and sc.id != settings.scenario:
                    continue
                options.append((h.id, a.id, sc.id))
    return tuple(options)


def choose_teams(b: Builder, heroes_id: str, adversaries_id: str, scenario_id: str) -> None:
    """Record the teams and scenario, and lay out the board (step 2).

    :raises InvalidCommandError: if a team or scenario does not exist.
    :raises IllegalCommandError: if the settings rule the choice out, or the
        scenario has no room for the Hero team.
    """
    heroes = _team(heroes_id, "heroes")
    adversaries = _team(adversaries_id, "adversaries")
    try:
        scenario = adversaries.scenario(scenario_id)
    except KeyError:
        raise InvalidCommandError(f"{adversaries.name} has no scenario {scenario_id!r}") from None
    settings = b.state.settings
    for chosen, agreed, what in (
        (heroes_id, settings.heroes, "Hero team"),
        (adversaries_id, settings.adversaries, "Adversary team"),
        (scenario_id, settings.scenario, "scenario"),
    ):
        if agreed is not None and chosen != agreed:
            raise IllegalCommandError(f"the match settings name {agreed!r} as the {what}")
    units, board, figures = lay_out(heroes, adversaries, scenario)
    secrets = tuple(
        SecretOffer(side=sheet.side, name=secret.name, options=secret.options)
        for sheet in (heroes, adversaries)
        for secret in sheet.secrets
    )
    if is_on(b.state, "secret-schemes") and adversaries.win_conditions:
        # The Adversary player picks one win condition in secret (variant secret-schemes).
        scheme = SecretOffer(side="adversaries", name="scheme", options=adversaries.win_conditions)
        secrets = (*secrets, scheme)
    b.emit(
        TeamsChosen(
            heroes=heroes.id,
            adversaries=adversaries.id,
            scenario=scenario.id,
            units=units,
            secrets=secrets,
        )
    )
    b.emit(BoardSetUp(board=board, figures=figures))


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


def choose_starting_team(b: Builder, side: Side) -> None:
    """Record which team begins every round with the Initiative (step 3)."""
    b.emit(StartingTeamChosen(side=side))


def choose_side(b: Builder, seat: Seat, side: Side) -> None:
    """Record the Other Player's team (step 4); begin round 1 unless secrets are to be chosen."""
    b.emit(SideChosen(seat=seat, side=side))
    if next_secret(b.state) is None:
        start_round(b, 1)


def next_secret(state: MatchState) -> SecretOffer | None:
    """Return the next set-up secret to choose (Heroes first, R23), or None when all are chosen."""
    chosen = {(s.side, s.name) for s in state.secrets}
    for offer in state.secret_offers:
        if (offer.side, offer.name) not in chosen:
            return offer
    return None


def choose_secret(b: Builder, side: Side, name: str, choice: str, salt: str | None = None) -> None:
    """Record a secret set-up choice, committed with ``salt`` (R23); begin round 1 once all are.

    ``salt`` None derives the salt from the seed.

    :raises IllegalCommandError: if that is not the secret to choose now, or
        not one of its options.
    """
    offer = next_secret(b.state)
    assert offer is not None
    if (offer.side, offer.name) != (side, name):
        raise IllegalCommandError(f"the secret to choose now is {offer.name!r} of the {offer.side}")
    if choice not in offer.options:
        raise IllegalCommandError(f"{choice!r} is not one of the options for {name!r}")
    commitment, salt = seal(b.state, "secret", side, (choice,), salt, name=name)
    b.emit(SecretChosen(side=side, name=name, choice=choice, commitment=commitment, salt=salt))
    if next_secret(b.state) is None:
        start_round(b, 1)


def _team(team_id: str, side: Side) -> TeamSheet:
    sheet = find_team(team_id)
    if sheet is None:
        raise InvalidCommandError(missing_team(team_id))
    if sheet.side != side:
        wanted = "a Hero" if side == "heroes" else "an Adversary"
        raise InvalidCommandError(f"{sheet.name} is not {wanted} team")
    return sheet


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
