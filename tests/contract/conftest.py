"""The rulesets the contract kit checks, and the settings it starts their matches from.

To check another game, add one line to :data:`RULESETS` (its id, through the
registry); if its default settings cannot start a match, add its base
settings to :data:`BASE_SETTINGS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from multiversus_core.engine.registry import load_ruleset

RULESETS = [
    pytest.param(load_ruleset("multiversus"), id="multiversus"),
    pytest.param(load_ruleset("sealed-bids"), id="sealed-bids"),
    pytest.param(load_ruleset("tiles-d6"), id="tiles-d6"),
    pytest.param(load_ruleset("worlds-collide"), id="worlds-collide"),
]
"""Every ruleset the kit checks, with its test id."""

BASE_SETTINGS: dict[str, Callable[[], msgspec.Struct]] = {}
"""Base settings by game id, for a game whose default settings cannot start a match.

The kit varies only the fields :meth:`Ruleset.table` maps (``seed``, ``salts``,
``chance``, through :meth:`Ruleset.with_table`); see :func:`tests.contract.kit.examples`.
"""


@pytest.fixture(params=RULESETS, scope="session")
def ruleset(request: pytest.FixtureRequest) -> Any:
    """Each ruleset of :data:`RULESETS` in turn."""
    return request.param


@pytest.fixture(scope="session")
def base_settings(ruleset: Any) -> msgspec.Struct:
    """The ruleset's settings the kit starts from: its defaults, unless :data:`BASE_SETTINGS`
    says otherwise."""
    make = BASE_SETTINGS.get(ruleset.id, ruleset.settings_type)
    return make()
