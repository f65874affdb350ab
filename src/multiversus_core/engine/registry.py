"""Which games are installed: bundled rulesets by id, others through an entry point group.

A bundled ruleset is imported only when asked for, so naming one costs only
its own import. Third-party rulesets are offered by packages through the
``multiversus.rulesets`` entry point group (the name is the game's id, the
value ``"module:attribute"`` of its :class:`~multiversus_core.engine.ruleset.Ruleset`);
entry points are scanned only for an id that is not bundled, or to list every game.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, Final, TypeAlias

from multiversus_core.engine.errors import UnknownGameError
from multiversus_core.engine.records import DEFAULT_GAME
from multiversus_core.engine.ruleset import Ruleset

AnyRuleset: TypeAlias = Ruleset[Any, Any, Any, Any, Any]
"""A ruleset of any game."""

ENTRY_POINT_GROUP: Final = "multiversus.rulesets"
"""The entry point group through which other packages offer games."""

BUNDLED: Final[dict[str, str]] = {
    "multiversus": "multiversus_core.rulesets.multiversus.ruleset:RULESET",
    "sealed-bids": "multiversus_core.rulesets.sealed_bids:RULESET",
    "tiles-d6": "multiversus_core.rulesets.tiles_d6.ruleset:RULESET",
    "worlds-collide": "multiversus_core.rulesets.worlds_collide.ruleset:RULESET",
}
"""The games this library brings: id to ``"module:attribute"``."""


MEMBERS: Final = tuple(sorted(name for name in vars(Ruleset) if not name.startswith("_")))
"""The members every ruleset has (:class:`~.ruleset.Ruleset`)."""


def _load(target: str, game: str) -> AnyRuleset:
    module, _, attribute = target.partition(":")
    ruleset: AnyRuleset = getattr(importlib.import_module(module), attribute)
    if getattr(ruleset, "id", None) != game:
        raise UnknownGameError(f"{target} is not the ruleset of the game {game!r}")
    missing = [name for name in MEMBERS if not hasattr(ruleset, name)]
    if missing:
        raise UnknownGameError(
            f"{target} is not a whole ruleset of the game {game!r}: it lacks "
            f"{', '.join(missing)} (see docs/engine.md)"
        )
    return ruleset


@functools.cache
def load_ruleset(game: str = DEFAULT_GAME) -> AnyRuleset:
    """Return the ruleset of the game ``game``.

    :raises UnknownGameError: if no bundled or installed ruleset has that id.
    """
    target = BUNDLED.get(game)
    if target is not None:
        return _load(target, game)
    import importlib.metadata  # only for a game that is not bundled: start-up

    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=game):
        return _load(point.value, game)
    raise UnknownGameError(f"unknown game {game!r}: the games are {', '.join(game_ids())}")


def ruleset_of(settings: object) -> AnyRuleset:
    """Return the ruleset of the game whose settings ``settings`` are.

    :raises UnknownGameError: if no bundled or installed ruleset has settings of that type.
    """
    found = _BY_SETTINGS.get(type(settings))
    if found is None:
        for game in game_ids():
            ruleset = load_ruleset(game)
            if ruleset.settings_type is type(settings):
                found = _BY_SETTINGS[type(settings)] = ruleset
                break
        else:
            raise UnknownGameError(
                f"no installed game has settings of the type {type(settings).__name__}"
            )
    return found


_BY_SETTINGS: Final[dict[type, AnyRuleset]] = {}


def game_ids() -> tuple[str, ...]:
    """Return the id of every game: the bundled ones, then the installed ones, sorted."""
    import importlib.metadata  # only when the games are listed: start-up

    installed = {p.name for p in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return (*BUNDLED, *sorted(installed - set(BUNDLED)))
