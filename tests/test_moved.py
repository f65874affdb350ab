"""The modules that moved when the engine was split keep importing by their old names."""

from __future__ import annotations

import importlib
import sys

import pytest

from multiversus_core._moved import MOVED, SPLIT, new_name


@pytest.mark.parametrize(
    ("old", "new"), [(old, new) for old, new in sorted(MOVED.items()) if old not in SPLIT]
)
def test_an_old_module_name_is_the_module_at_its_new_place_and_warns(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


@pytest.mark.parametrize(
    ("old", "name", "home"),
    [
        ("multiversus_core.sheets", "installed_teams", "catalog"),
        ("multiversus_core.sheets", "find_team", "catalog"),
        ("multiversus_core.sheets", "decode_sheet", "sheets"),
        ("multiversus_core.activation", "has_legal_activation", "selections"),
        ("multiversus_core.activation", "select_coins", "activation"),
    ],
)
def test_a_split_module_s_old_name_finds_every_name_it_had(old: str, name: str, home: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to"):
        module = importlib.import_module(old)
    found = importlib.import_module(f"multiversus_core.rulesets.multiversus.{home}")
    assert getattr(module, name) is getattr(found, name)
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_a_module_below_a_moved_package_moves_with_it() -> None:
    assert new_name("multiversus_core.teams.smogon") == (
        "multiversus_core.rulesets.multiversus.teams.smogon"
    )
    sys.modules.pop("multiversus_core.teams.smogon", None)
    with pytest.warns(DeprecationWarning, match="teams.* moved to"):
        module = importlib.import_module("multiversus_core.teams.smogon")
    assert module is importlib.import_module("multiversus_core.rulesets.multiversus.teams.smogon")


def test_a_module_that_did_not_move_has_no_new_name() -> None:
    assert new_name("multiversus_core.engine.log") is None
    assert new_name("multiversus_core.rulesets.multiversus.state") is None


def test_the_old_plugin_api_still_registers_abilities() -> None:
    sys.modules.pop("multiversus_core.abilities", None)
    with pytest.warns(DeprecationWarning, match="abilities moved"):
        from multiversus_core.abilities import REGISTRY, Ability
    from multiversus_core.rulesets.multiversus.ability import REGISTRY as registry

    assert REGISTRY is registry
    assert issubclass(type(REGISTRY["Ranged"]), Ability)


def test_the_old_bots_module_finds_the_bots_and_the_engine_play_loop() -> None:
    sys.modules.pop("multiversus_core.bots", None)
    with pytest.warns(DeprecationWarning, match="bots moved"):
        from multiversus_core.bots import make_bot, play_match
    from multiversus_core.engine.play import play_match as engine_play_match
    from multiversus_core.rulesets.multiversus.bots.specs import make_bot as specs_make_bot

    assert (make_bot, play_match) == (specs_make_bot, engine_play_match)


def test_the_old_log_module_is_the_engines_log() -> None:
    sys.modules.pop("multiversus_core.log", None)
    with pytest.warns(DeprecationWarning, match="log moved to multiversus_core.engine.log"):
        module = importlib.import_module("multiversus_core.log")
    assert module is importlib.import_module("multiversus_core.engine.log")
