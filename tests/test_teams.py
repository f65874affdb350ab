"""Team sheets as content: the bundled teams, sheet validation, teams from other packages
through entry points, and every pairing played to a result (rulebook: Teams, Abilities,
Scoring; R1, R2, R17, R23)."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from msgspec.structs import replace

from multiversus_core import (
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    FlipForSetUp,
    MatchSettings,
    MatchState,
    SettingsError,
    SheetError,
    apply,
    legal_commands,
    start_match,
)
from multiversus_core.rulesets.multiversus.abilities import (
    REGISTRY,
    Ability,
    hidden_identity,
    secret_figure,
)
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, play_out
from multiversus_core.rulesets.multiversus.catalog import (
    bundled_teams,
    find_team,
    installed_teams,
    invalid_teams,
    missing_team,
)
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.sheets import (
    ENTRY_POINT_GROUP,
    TeamSheet,
    UnitSheet,
    decode_sheet,
    load_sheet,
)
from tests.support import play, seat

TEAMS_FOLDER = resources.files("multiversus_core.rulesets.multiversus").joinpath("data", "teams")
SHEET_FILES = sorted(e.name for e in TEAMS_FOLDER.iterdir() if e.name.endswith(".toml"))

HEROES = [t.id for t in bundled_teams() if t.side == "heroes"]
ADVERSARIES = [t for t in bundled_teams() if t.side == "adversaries"]
PAIRINGS = [(h, a.id, sc.id) for h in HEROES for a in ADVERSARIES for sc in a.scenarios]


# --- the bundled sheets ---------------------------------------------------------------


@pytest.mark.parametrize("name", SHEET_FILES)
def test_every_bundled_sheet_loads_and_validates(name: str) -> None:
    with resources.as_file(TEAMS_FOLDER.joinpath(name)) as path:
        sheet = load_sheet(path)
    assert f"{sheet.id}.toml" == name
    assert find_team(sheet.id) == sheet


def test_bundled_teams_two_hero_and_two_adversary_teams_named_as_the_rulebook_names_them() -> None:
    assert len(HEROES) >= 2 and len(ADVERSARIES) >= 2
    names = {u.name for t in bundled_teams() for u in t.units}
    for wanted in ("The Witch Hunter", "Feral Cat", "Banner Knight", "Black Goblin", "Smogon"):
        assert wanted in names
    assert {"Dragonkith Bruisers", "Curtain", "Cloud"} <= names


def test_bundled_teams_use_every_ability_kind_and_every_kind_of_secret() -> None:
    abilities = [REGISTRY[a] for t in bundled_teams() for u in t.units for a in u.abilities]
    assert {a.kind for a in abilities} == {"passive", "triggered", "stunt", "double_stunt"}
    units = [(t, u) for t in bundled_teams() for u in t.units]
    # A Large Beast, and terrain whose pieces do something when interacted with.
    assert any(u.role == "beast" and u.size == "large" and "Large" in u.abilities for _, u in units)
    assert any(
        u.role == "terrain"
        and any(type(REGISTRY[a]).on_interact is not Ability.on_interact for a in u.abilities)
        for _, u in units
    )
    kinds = {s.kind for t in bundled_teams() for s in t.secrets}
    assert {"identity", "power", "scheme"} <= kinds


def test_bundled_adversaries_each_win_by_more_than_elimination() -> None:
    for team in ADVERSARIES:
        assert team.win_conditions, team.id
        assert all(name in WIN_CONDITIONS for name in team.win_conditions)


def test_importing_the_library_registers_the_bundled_abilities() -> None:
    code = (
        "from multiversus_core import start_match\n"
        "from multiversus_core.rulesets.multiversus.abilities import REGISTRY\n"
        "from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS\n"
        "assert {'Rally', 'Smoke Breath', 'Shapeshifter', 'Troll Sweep'} <= set(REGISTRY)\n"
        "assert 'the-smoke-vent' in WIN_CONDITIONS\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- sheet validation: errors name the file, the field and the problem -----------------

GOOD = b"""
id = "wardens"
name = "The Wardens"
side = "heroes"

[[units]]
id = "warden"
name = "Warden"
role = "champion"
abilities = ["Ranged"]

[[units]]
id = "pack"
name = "Hound"
role = "mob"
characters = 2
"""

FOES = b"""
id = "foes"
name = "Foes"
side = "adversaries"
win_conditions = ["the-smoke-vent"]

[[units]]
id = "brute"
name = "Brute"
role = "beast"

[[scenarios]]
id = "field"
name = "Field"
width = 4
height = 4
heroes = [[0, 3], [1, 3], [2, 3], [3, 3], [0, 2], [1, 2]]

[[scenarios.adversaries]]
unit = "brute"
squares = [[0, 0]]
"""


def _error(data: bytes, source: str = "wardens.toml") -> str:
    with pytest.raises(SheetError) as error:
        decode_sheet(data, source)
    assert error.value.source == source
    return str(error.value)


def test_a_good_sheet_with_abilities_and_secrets_decodes() -> None:
    sheet = decode_sheet(
        GOOD + b'[[secrets]]\nname = "traitor"\nkind = "identity"\noptions = ["pack-2"]\n',
        "wardens.toml",
    )
    assert sheet.units[0].abilities == ("Ranged",)
    assert sheet.secrets[0].kind == "identity"
    assert decode_sheet(FOES, "foes.toml").win_conditions == ("the-smoke-vent",)


def test_sheet_error_an_unregistered_ability_names_the_file_unit_and_ability() -> None:
    message = _error(GOOD.replace(b'["Ranged"]', b'["Ranged", "Flying"]'))
    assert message == (
        "wardens.toml: units[0] (warden).abilities[1]: "
        "Warden names the ability 'Flying', which is not registered"
    )


def test_sheet_error_an_unregistered_win_condition_names_the_field() -> None:
    message = _error(FOES.replace(b'"the-smoke-vent"', b'"hold-the-bridge"'), "foes.toml")
    assert message == (
        "foes.toml: win_conditions[0]: no win condition 'hold-the-bridge' is registered"
    )
    message = _error(b'win_conditions = ["the-smoke-vent"]\n' + GOOD)
    assert message == "wardens.toml: win_conditions: only an Adversary sheet names win conditions"


@pytest.mark.parametrize(
    ("secret", "message"),
    [
        (
            b'name = "traitor"\nkind = "identity"\noptions = ["pack-1", "pack-3"]',
            "secrets[0] (traitor).options[1]: a hidden identity names a figure of this sheet "
            "(warden, pack-1, pack-2), not 'pack-3'",
        ),
        (
            b'name = "traitor"\nkind = "identity"\noptions = ["pack"]',
            "secrets[0] (traitor).options[0]: a hidden identity names a figure",
        ),
        (b'name = "vow"\noptions = []', "secrets[0] (vow).options: a secret needs at least one"),
        (b'name = "vow"\noptions = ["a", "a"]', "secrets[0] (vow).options[1]: 'a' is listed twice"),
        (
            b'name = "vow"\nkind = "mood"\noptions = ["a"]',
            "secrets[0].kind: 'mood' is not one of identity, power, scheme",
        ),
    ],
)
def test_sheet_error_a_bad_secret_names_the_secret_and_the_option(
    secret: bytes, message: str
) -> None:
    assert message in _error(GOOD + b"[[secrets]]\n" + secret + b"\n")


def test_sheet_error_two_secrets_of_one_name() -> None:
    twice = b'[[secrets]]\nname = "vow"\noptions = ["a"]\n'
    assert "secrets[1] (vow).name: two secrets share this name" in _error(GOOD + twice + twice)


def test_sheet_error_large_exactly_when_size_is_large() -> None:
    message = _error(GOOD.replace(b'["Ranged"]', b'["Large"]'))
    assert 'units[0] (warden).size: a unit is size = "large" exactly when it has Large' in message
    assert "units[0] (warden).size" in _error(
        GOOD.replace(b'role = "champion"', b'role = "champion"\nsize = "large"')
    )


def test_sheet_error_unknown_role_and_deployment_off_the_board() -> None:
    assert "units[1] (pack).role: must be one of champion" in _error(
        GOOD.replace(b'"mob"', b'"rabble"')
    )
    message = _error(FOES.replace(b"[[0, 3], ", b"[[0, 4], "), "foes.toml")
    assert "scenarios[0] (field).heroes[0]: [0, 4] is not on the board" in message


# --- teams from other packages: the multiversus.teams entry point group ---------------

WARDENS = decode_sheet(GOOD, "wardens.toml")


class _FakeEntryPoints:
    """Replaces importlib.metadata.entry_points with a fixed list for one group."""

    def __init__(self, points: list[importlib.metadata.EntryPoint]) -> None:
        self.points = points
        self.groups: list[str] = []

    def __call__(self, *, group: str) -> list[importlib.metadata.EntryPoint]:
        self.groups.append(group)
        return self.points if group == ENTRY_POINT_GROUP else []


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[_FakeEntryPoints]:
    fake = _FakeEntryPoints([])
    monkeypatch.setattr(importlib.metadata, "entry_points", fake)
    installed_teams.cache_clear()
    yield fake
    installed_teams.cache_clear()


def _point(attribute: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(
        name=attribute.strip("_"), value=f"tests.test_teams:{attribute}", group=ENTRY_POINT_GROUP
    )


def wardens_provider() -> list[TeamSheet | str]:
    """A provider as another package would write it: sheets and paths to TOML sheets."""
    return [WARDENS, str(Path(__file__).parent / "data" / "missing.toml")]


def wardens_only() -> list[TeamSheet]:
    return [WARDENS]


def clashing_provider() -> list[TeamSheet]:
    return [replace(WARDENS, id="smogon")]


def junk_provider() -> list[object]:
    return [42]


NOT_CALLABLE = "a sheet"


def test_entry_points_add_installed_teams_after_the_bundled_ones(
    entry_points: _FakeEntryPoints,
) -> None:
    entry_points.points = [_point("wardens_only")]
    teams = installed_teams()
    assert ENTRY_POINT_GROUP in entry_points.groups
    assert find_team("wardens") == WARDENS
    assert set(bundled_teams()) < set(teams)
    assert [t.side for t in teams] == sorted((t.side for t in teams), key=lambda s: s != "heroes")
    # Offered to the match settings.
    assert start_match(MatchSettings(heroes="wardens", adversaries="smogon")).settings.heroes


def test_entry_points_may_offer_paths_to_toml_sheets(
    entry_points: _FakeEntryPoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet_path = tmp_path / "foes.toml"
    sheet_path.write_bytes(FOES)
    monkeypatch.setattr(
        sys.modules[__name__], "wardens_provider", lambda: [WARDENS, str(sheet_path)]
    )
    entry_points.points = [_point("wardens_provider")]
    assert find_team("foes") == decode_sheet(FOES, "foes.toml")
    assert find_team("wardens") == WARDENS


def test_entry_point_module_registers_its_abilities_when_loaded(
    entry_points: _FakeEntryPoints, monkeypatch: pytest.MonkeyPatch
) -> None:
    class _Point:
        name, value = "gusts", "gusts.teams:sheets"

        def load(self) -> object:
            # What importing the module does: register the team's ability.
            class Gust(Ability):
                name = "Gust"

            monkeypatch.setitem(REGISTRY, "Gust", Gust())
            unit = replace(WARDENS.units[0], abilities=("Gust",))
            return lambda: [replace(WARDENS, id="gusts", units=(unit, *WARDENS.units[1:]))]

    entry_points.points = [_Point()]  # type: ignore[list-item]
    gusts = find_team("gusts")
    assert gusts is not None and gusts.units[0].abilities == ("Gust",)


def test_entry_point_team_with_an_unregistered_ability_is_left_out_and_listed(
    entry_points: _FakeEntryPoints, monkeypatch: pytest.MonkeyPatch
) -> None:
    unit = replace(WARDENS.units[0], abilities=("Gust",))
    monkeypatch.setattr(
        sys.modules[__name__], "wardens_only", lambda: [replace(WARDENS, units=(unit,))]
    )
    entry_points.points = [_point("wardens_only")]
    assert find_team("wardens") is None
    (error,) = invalid_teams()
    assert error.source == (
        "entry point 'wardens_only' (tests.test_teams:wardens_only), team 0 (wardens)"
    )
    assert error.team == "wardens"
    assert "units[0] (warden).abilities[0]: Warden names the ability 'Gust'" in str(error)
    assert missing_team("wardens").startswith("the installed team 'wardens' is invalid: entry")
    with pytest.raises(SettingsError, match="the installed team 'wardens' is invalid"):
        start_match(MatchSettings(heroes="wardens"))


@pytest.mark.parametrize(
    ("attribute", "message"),
    [
        (
            "clashing_provider",
            "id: the team id 'smogon' is taken by multiversus_core/rulesets/multiversus/data/teams",
        ),
        ("junk_provider", "team 0 is a int, not a TeamSheet or a path"),
        ("NOT_CALLABLE", "loads to something that is not callable"),
        ("no_such_attribute", "cannot be loaded"),
        ("wardens_provider", "missing.toml: no such file"),
        ("mistyped_provider", r"units\[0\]\.characters: should be a whole number, not the text"),
    ],
)
def test_entry_point_errors_name_the_entry_point(
    entry_points: _FakeEntryPoints, attribute: str, message: str
) -> None:
    entry_points.points = [_point(attribute)]
    teams = installed_teams()
    assert teams == bundled_teams() or find_team("wardens") == WARDENS
    assert [e for e in invalid_teams() if re.search(message, str(e))]


def mistyped_provider() -> list[TeamSheet]:
    """A sheet built in Python with a field of the wrong type, which msgspec does not check."""
    unit = replace(WARDENS.units[0], characters="3")
    return [replace(WARDENS, id="mistyped", units=(unit,))]


def test_entry_points_two_installed_teams_with_one_id_are_refused(
    entry_points: _FakeEntryPoints,
) -> None:
    entry_points.points = [_point("wardens_only"), _point("wardens_only")]
    assert find_team("wardens") == WARDENS
    (error,) = invalid_teams()
    assert "the team id 'wardens' is taken by entry point" in str(error)


def tiny_foes() -> list[TeamSheet]:
    """An Adversary sheet valid on its own whose scenario has no room for the Hero teams."""
    foes = decode_sheet(FOES, "foes.toml")
    scenario = replace(foes.scenarios[0], heroes=foes.scenarios[0].heroes[:2])
    return [replace(foes, scenarios=(scenario,))]


def test_entry_point_sheet_that_does_not_set_up_with_an_installed_team_is_left_out(
    entry_points: _FakeEntryPoints,
) -> None:
    entry_points.points = [_point("tiny_foes")]
    assert find_team("foes") is None
    (error,) = invalid_teams()
    assert error.team == "foes"
    assert "scenarios[0] (field).heroes: with the Hero team 'banner-knight': Field has no room" in (
        str(error)
    )


# --- every pairing sets up and plays to a result ----------------------------------------


def _set_up(heroes: str, adversaries: str, scenario: str, seed: int) -> MatchState:
    """Play the set-up through legal commands only; each secret takes a seeded option."""
    settings = MatchSettings(heroes=heroes, adversaries=adversaries, scenario=scenario, seed=seed)
    state = play(start_match(settings), FlipForSetUp(player=1))
    (teams,) = legal_commands(state, seat(state))
    assert isinstance(teams, ChooseTeams) and teams.scenario == scenario
    state = play(state, teams)
    state = play(state, ChooseStartingTeam(player=seat(state), side="adversaries"))
    state = play(state, ChooseSide(player=seat(state), side="heroes"))
    while state.pending == "secret":
        options = legal_commands(state, seat(state))
        assert all(isinstance(c, ChooseSecret) for c in options)
        state, _ = apply(state, options[seed % len(options)])
    return state


@pytest.mark.parametrize(("heroes", "adversaries", "scenario"), PAIRINGS)
def test_every_pairing_sets_up_and_plays_a_random_match_to_a_result(
    heroes: str, adversaries: str, scenario: str
) -> None:
    hero_sheet, foe_sheet = find_team(heroes), find_team(adversaries)
    assert hero_sheet is not None and foe_sheet is not None
    for seed in (1, 2):
        state = _set_up(heroes, adversaries, scenario, seed)
        assert state.pending == "select" and state.round == 1
        on_board = [f for f in state.figures if f.square is not None]
        assert len(on_board) == sum(u.characters for u in (*hero_sheet.units, *foe_sheet.units))
        assert len(state.secrets) == len(hero_sheet.secrets) + len(foe_sheet.secrets)
        final = play_out(state, {1: RandomBot(seed), 2: RandomBot(seed + 100)})
        assert final.is_over
        assert final.ended in {"elimination", "six_rounds_played", *foe_sheet.win_conditions}
        assert final.winner in ("heroes", "adversaries") or final.ended == "six_rounds_played"
        assert all(s.revealed for s in final.secrets)


def large_heroes() -> list[TeamSheet]:
    """A Hero team whose Champion is Large, to check every scenario has room for it."""
    giant = UnitSheet(id="giant", name="Giant", role="champion", size="large", abilities=("Large",))
    return [replace(WARDENS, id="giants", units=(giant, *WARDENS.units[1:]))]


@pytest.mark.parametrize(("adversaries", "scenario"), sorted({(a, s) for _, a, s in PAIRINGS}))
def test_every_scenario_has_room_for_a_large_hero(
    entry_points: _FakeEntryPoints, adversaries: str, scenario: str
) -> None:
    entry_points.points = [_point("large_heroes")]
    state = play(start_match(MatchSettings(seed=4)), FlipForSetUp(player=1, winner=1))
    state = play(
        state, ChooseTeams(player=1, heroes="giants", adversaries=adversaries, scenario=scenario)
    )
    assert all(f.square is not None for f in state.figures)
    assert state.figure("giant").size == "large"


def clashing_heroes() -> list[TeamSheet]:
    """A Hero team whose Mob has the id of Swartzblak's cats."""
    mob = replace(WARDENS.units[1], id="cats", characters=3)
    return [replace(WARDENS, id="cat-herders", units=(WARDENS.units[0], mob))]


def test_a_hidden_identity_finds_its_figure_when_a_clash_qualifies_the_unit_id(
    entry_points: _FakeEntryPoints,
) -> None:
    entry_points.points = [_point("clashing_heroes")]
    state = play(start_match(MatchSettings(seed=4)), FlipForSetUp(player=1, winner=1))
    state = play(
        state,
        ChooseTeams(
            player=1, heroes="cat-herders", adversaries="swartzblak", scenario="swartzblak-alleys"
        ),
        ChooseStartingTeam(player=1, side="heroes"),
        ChooseSide(player=2, side="adversaries"),
        ChooseSecret(player=2, name="shapeshifter", choice="cats-2"),
    )
    assert state.figure("swartzblak-cats-2").side == "adversaries"
    shifter = secret_figure(state, "adversaries", "shapeshifter")
    assert shifter is not None and shifter.id == "swartzblak-cats-2"
    assert hidden_identity(state, shifter) is not None
    assert hidden_identity(state, state.figure("cats-2")) is None
