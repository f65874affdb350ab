"""Set-up: the coin flip, teams and layout, the starting team, the Other Player's side.

Rulebook: *Set up*, steps 1 to 4; rulings R1, R2, R17.
"""

from __future__ import annotations

from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.catalog import find_team, installed_teams, missing_team
from multiversus_core.rulesets.multiversus.events import (
    BoardSetUp,
    SecretChosen,
    SetUpCoinFlipped,
    SideChosen,
    StartingTeamChosen,
    TeamsChosen,
)
from multiversus_core.rulesets.multiversus.initiative import start_round
from multiversus_core.rulesets.multiversus.layout import lay_out
from multiversus_core.rulesets.multiversus.secrets import seal
from multiversus_core.rulesets.multiversus.sheets import TeamSheet
from multiversus_core.rulesets.multiversus.state import MatchState, SecretOffer
from multiversus_core.rulesets.multiversus.terms import Seat, Side
from multiversus_core.rulesets.multiversus.variants import is_on


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
        adversaries.scenario(scenario_id)
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
    for event in laid_out(b.state, heroes, adversaries, scenario_id):
        b.emit(event)


def laid_out(
    state: MatchState, heroes: TeamSheet, adversaries: TeamSheet, scenario_id: str
) -> tuple[TeamsChosen, BoardSetUp]:
    """The events that choose these teams and scenario and lay out the board (step 2).

    :raises KeyError: if the Adversary sheet has no such scenario.
    """
    scenario = adversaries.scenario(scenario_id)
    units, board, figures = lay_out(heroes, adversaries, scenario)
    secrets = tuple(
        SecretOffer(side=sheet.side, name=secret.name, options=secret.options)
        for sheet in (heroes, adversaries)
        for secret in sheet.secrets
    )
    if is_on(state, "secret-schemes") and adversaries.win_conditions:
        # The Adversary player picks one win condition in secret (variant secret-schemes).
        scheme = SecretOffer(side="adversaries", name="scheme", options=adversaries.win_conditions)
        secrets = (*secrets, scheme)
    chosen = TeamsChosen(
        heroes=heroes.id,
        adversaries=adversaries.id,
        scenario=scenario.id,
        units=units,
        secrets=secrets,
    )
    return chosen, BoardSetUp(board=board, figures=figures)


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
