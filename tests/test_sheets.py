"""Team sheets and match settings: typed decoding and errors that name the file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from multiversus_core import MatchSettings, SettingsError, SheetError, start_match
from multiversus_core.rulesets.multiversus.catalog import bundled_teams, check_pairings, find_team
from multiversus_core.rulesets.multiversus.sheets import decode_sheet, load_sheet

GOOD = b"""
id = "wardens"
name = "The Wardens"
side = "heroes"

[[units]]
id = "warden"
name = "Warden"
role = "champion"
"""


def test_bundled_teams_load_heroes_first() -> None:
    sides = [t.side for t in bundled_teams()]
    assert sides == sorted(sides, key=lambda s: s != "heroes")
    assert find_team("banner-knight") is not None and find_team("nobody") is None


def test_a_sheet_decodes_with_defaults_r2() -> None:
    sheet = decode_sheet(GOOD, "wardens.toml")
    unit = sheet.units[0]
    assert (unit.characters, unit.size, unit.green_coins, unit.grey_coins) == (1, "medium", 1, 2)


def test_sheet_errors_name_the_file_and_the_field() -> None:
    bad = GOOD.replace(b'role = "champion"', b'role = "champion"\ncharacters = "three"')
    with pytest.raises(SheetError) as error:
        decode_sheet(bad, "wardens.toml")
    assert error.value.source == "wardens.toml"
    assert str(error.value) == (
        "wardens.toml: units[0].characters: should be a whole number, not the text 'three'"
    )


def test_sheet_unknown_fields_are_rejected() -> None:
    with pytest.raises(SheetError, match=r"^wardens.toml: units\[0\]\.colour: no such field$"):
        decode_sheet(GOOD + b'colour = "blue"\n', "wardens.toml")


def test_every_problem_of_a_sheet_is_reported_in_plain_words_with_the_nearest_name() -> None:
    # Misspelt fields, a value not allowed, a missing field and a wrong kind of value, all
    # found at once; a field or value near a known one names it.
    bad = (
        GOOD.replace(
            b'role = "champion"', b'role = "champion"\ncharactres = 2\nsize = "huge"'
        ).replace(b'name = "', b'nmae = "', 1)
        + b'[[units]]\nid = "b"\nrole = "mob"\ncharacters = "two"\n'
    )
    with pytest.raises(SheetError) as error:
        decode_sheet(bad, "wardens.toml")
    assert error.value.problems == (
        "nmae: no such field (did you mean 'name'?)",
        "name: missing",
        "units[0].charactres: no such field (did you mean 'characters'?)",
        "units[0].size: 'huge' is not one of large, medium",
        "units[1].name: missing",
        "units[1].characters: should be a whole number, not the text 'two'",
    )
    assert str(error.value).endswith("(and 5 more)")


def test_every_broken_rule_of_a_sheet_is_reported_one_per_part() -> None:
    # Once the sheet reads, each part is checked on its own: a unit's role, each ability
    # (with the nearest registered one), a second unit's count, a third unit's name.
    bad = (
        GOOD.replace(b'role = "champion"', b'role = "champoin"\nabilities = ["Rangd", "Larg"]')
        + b'[[units]]\nid = "b"\nname = "B"\nrole = "mob"\ncharacters = 40\n'
        + b'[[units]]\nid = "c"\nname = ""\nrole = "mob"\n'
    )
    with pytest.raises(SheetError) as error:
        decode_sheet(bad, "wardens.toml")
    assert error.value.problems == (
        "units[0] (warden).role: must be one of champion, lieutenant, mob, beast, minions, "
        "terrain, not 'champoin' (did you mean 'champion'?)",
        "units[0] (warden).abilities[0]: Warden names the ability 'Rangd', which is not "
        "registered (did you mean 'Ranged'?)",
        "units[0] (warden).abilities[1]: Warden names the ability 'Larg', which is not "
        "registered (did you mean 'Large'?)",
        "units[1] (b).characters: must be from 1 to 12, not 40",
        "units[2] (c).name: must not be empty",
        "units: the units have 42 characters in all; a sheet has at most 24",
    )


def test_sheet_rules_checked_after_decoding() -> None:
    with pytest.raises(
        SheetError, match=r"units\[0\] \(warden\)\.characters: a unit has at least one"
    ):
        decode_sheet(GOOD + b"characters = 0\n", "wardens.toml")
    with pytest.raises(SheetError, match="an Adversary sheet needs at least one scenario"):
        decode_sheet(GOOD.replace(b'"heroes"', b'"adversaries"'), "wardens.toml")


def test_sheet_that_is_not_toml_or_missing() -> None:
    with pytest.raises(SheetError, match="not valid TOML"):
        decode_sheet(b"id = ", "broken.toml")
    with pytest.raises(SheetError) as error:
        load_sheet(Path("/no/such/sheet.toml"))
    assert error.value.source == "/no/such/sheet.toml"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (MatchSettings(heroes="nobody"), "no team 'nobody' is installed"),
        (MatchSettings(heroes="smogon"), "plays the adversaries, not the heroes"),
        (MatchSettings(scenario="moon"), "no Adversary sheet has a scenario 'moon'"),
        (MatchSettings(variants=("no-such-variant",)), "no variant 'no-such-variant'"),
        (MatchSettings(seed=-1), "the seed must be from 0"),
        (MatchSettings(players=("Ann", " ")), "name both players"),
    ],
)
def test_settings_naming_unknown_things_are_refused(settings: MatchSettings, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        start_match(settings)


def test_every_bundled_sheet_sets_up_with_every_bundled_team_of_the_other_side() -> None:
    for sheet in bundled_teams():
        check_pairings(sheet, bundled_teams(), sheet.id)
