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
    assert "$.units[0].characters" in str(error.value)


def test_sheet_unknown_fields_are_rejected() -> None:
    with pytest.raises(SheetError, match="unknown field"):
        decode_sheet(GOOD + b'colour = "blue"\n', "wardens.toml")


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
