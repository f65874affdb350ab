"""The fuzz run's "sheets at the limits" reach every documented limit of a team sheet, and
only a Hero sheet too big for the bundled scenarios is refused at installation."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from multiversus_core.engine.errors import SheetError
from multiversus_core.rulesets.multiversus.ability import REGISTRY
from multiversus_core.rulesets.multiversus.catalog import bundled_teams, check_pairings
from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS
from multiversus_core.rulesets.multiversus.sheets import (
    LIMITS,
    MAX_ID,
    MAX_NAME,
    MAX_SHEET_BYTES,
    MAX_TEXT,
    TeamSheet,
    decode_sheet,
)
from multiversus_core.rulesets.multiversus.teams import register_bundled

FUZZ = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_trust.py"


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def fuzz() -> ModuleType:
    return _module("fuzz_trust_under_test", FUZZ)


@pytest.fixture
def installed(fuzz: ModuleType, tmp_path: Path) -> Iterator[dict[str, TeamSheet]]:
    """The limit sheets and the crowded Hero sheet, decoded once the limit package's module
    has registered its win conditions (unregistered again afterwards)."""
    register_bundled()
    files: dict[str, str] = {**fuzz.limit_sheets(), **fuzz.crowded_heroes()}
    fuzz._install(tmp_path, files)
    before = set(WIN_CONDITIONS)
    try:
        _module("limit_teams_under_test", tmp_path / "limit_teams.py")
        sheets = {
            team: decode_sheet((tmp_path / f"{team}.toml").read_bytes(), team) for team in files
        }
        assert all(len((tmp_path / f"{t}.toml").read_bytes()) == MAX_SHEET_BYTES for t in files)
        yield sheets
    finally:
        for name in set(WIN_CONDITIONS) - before:
            del WIN_CONDITIONS[name]
        sys.modules.pop("limit_teams_under_test", None)


def _reached(sheets: list[TeamSheet]) -> dict[str, int]:
    """The largest value each limit takes on these sheets."""
    units = [u for s in sheets for u in s.units]
    scenarios = [sc for s in sheets for sc in s.scenarios]
    secrets = [x for s in sheets for x in s.secrets]
    return {
        "units": max(len(s.units) for s in sheets),
        "characters": max(u.characters for u in units),
        "figures": max(sum(u.characters for u in s.units) for s in sheets),
        "green_coins": max(u.green_coins for u in units),
        "grey_coins": max(u.grey_coins for u in units),
        "abilities": max(len(u.abilities) for u in units),
        "scenarios": max(len(s.scenarios) for s in sheets),
        "width": max(sc.width for sc in scenarios),
        "height": max(sc.height for sc in scenarios),
        "tiles": max(len(sc.tiles) for sc in scenarios),
        "heroes": max(len(sc.heroes) for sc in scenarios),
        "secrets": max(len(s.secrets) for s in sheets),
        "options": max(len(x.options) for x in secrets),
        "win_conditions": max(len(s.win_conditions) for s in sheets),
    }


def test_the_installable_limit_sheets_reach_every_limit(
    fuzz: ModuleType, installed: dict[str, TeamSheet]
) -> None:
    heroes, adversaries = installed[fuzz.HEROES_ID], installed[fuzz.ADVERSARIES_ID]
    large = installed[fuzz.LARGE_HEROES_ID]
    sheets = [heroes, large, adversaries]
    assert _reached(sheets) == {k: most for k, (_, most) in LIMITS.items()}
    ids = [s.id for s in sheets] + [u.id for s in sheets for u in s.units]
    ids += [sc.id for sc in adversaries.scenarios] + [x.name for s in sheets for x in s.secrets]
    assert max(map(len, ids)) == MAX_ID
    names = [s.name for s in sheets] + [u.name for s in sheets for u in s.units]
    names += [t.terrain for sc in adversaries.scenarios for t in sc.tiles]
    assert min(map(len, names)) == MAX_NAME
    texts = [s.description for s in sheets] + [x.text for s in sheets for x in s.secrets]
    assert min(map(len, texts)) == MAX_TEXT
    # The shapes the rules treat apart: Large and Terrain units, a board two spaces wide.
    assert {u.role for u in adversaries.units} >= {"beast", "minions", "terrain"}
    assert any(u.size == "large" for u in adversaries.units)
    assert any(u.size == "large" for u in large.units)
    assert min(min(sc.width, sc.height) for sc in adversaries.scenarios) == 2
    # Every bundled ability is on some unit, and every unit has the most it may.
    named = {a for s in sheets for u in s.units for a in u.abilities}
    assert named == {*fuzz.CATALOGUE, "Large"}
    assert named <= set(REGISTRY)
    assert {len(u.abilities) for s in sheets for u in s.units} == {LIMITS["abilities"][1]}
    # The secrets the catalogue's abilities and win conditions read are among them.
    assert {x.name for x in adversaries.secrets} >= {"shapeshifter", "plunder"}
    assert "hunters-kit" in {x.name for x in heroes.secrets}


def test_the_limit_sheets_set_up_with_the_bundled_teams(
    fuzz: ModuleType, installed: dict[str, TeamSheet]
) -> None:
    heroes, adversaries = installed[fuzz.HEROES_ID], installed[fuzz.ADVERSARIES_ID]
    large = installed[fuzz.LARGE_HEROES_ID]
    check_pairings(adversaries, bundled_teams(), "limit adversaries")
    check_pairings(heroes, [*bundled_teams(), adversaries], "limit heroes")
    check_pairings(large, [*bundled_teams(), adversaries], "limit heroes, Large")


def test_a_hero_sheet_of_24_figures_is_valid_but_has_no_room_in_the_bundled_scenarios(
    fuzz: ModuleType, installed: dict[str, TeamSheet]
) -> None:
    crowded = installed[fuzz.CROWDED_ID]
    assert sum(u.characters for u in crowded.units) == LIMITS["figures"][1]
    assert max(u.characters for u in crowded.units) == LIMITS["characters"][1]
    with pytest.raises(SheetError, match="has no room"):
        check_pairings(crowded, bundled_teams(), "crowded heroes")
