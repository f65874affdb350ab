"""The modules that moved when the engine was split from the Multiversus ruleset.

``import multiversus_core.abilities`` and the like keep working for one
release: each old name is the very module at its new place (the same
object, so patching or registering through either name is the same), and
importing it by its old name warns with a :class:`DeprecationWarning`. Two
old modules were also split: their old names (:data:`SPLIT`) are a module
that reads each name from the new module, or else from where it went.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Final

_RULES: Final = "multiversus_core.rulesets.multiversus"

MOVED: Final[dict[str, str]] = {
    **{
        f"multiversus_core.{name}": f"{_RULES}.{name}"
        for name in (
            "abilities",
            "activation",
            "board",
            "builder",
            "combat",
            "commands",
            "decide",
            "events",
            "evolve",
            "forced",
            "geometry",
            "initiative",
            "legal",
            "match",
            "movement",
            "scoring",
            "settings",
            "setup",
            "sheets",
            "state",
            "terms",
            "units",
            "variants",
            "views",
            "teams",
        )
    },
    "multiversus_core.commitments": f"{_RULES}.secrets",
    "multiversus_core.game": f"{_RULES}.bots.search",
    "multiversus_core.heuristic": f"{_RULES}.bots.heuristic",
    "multiversus_core.evaluation": f"{_RULES}.bots.evaluation",
    "multiversus_core.determinize": f"{_RULES}.bots.determinize",
    "multiversus_core.dice": "multiversus_core.engine.chance",
    "multiversus_core.errors": "multiversus_core.engine.errors",
    "multiversus_core.ismcts": "multiversus_core.engine.ismcts",
    "multiversus_core.log": "multiversus_core.engine.log",
    "multiversus_core.bots": f"{_RULES}.bots.specs",
    "multiversus_core.simulation": f"{_RULES}.simulation",
    "multiversus_core.viewlog": "multiversus_core.engine.viewlog",
    "multiversus_core.verify": "multiversus_core.engine.verify",
}
"""Old module name to new, for every module that moved (``teams`` with its submodules)."""

SPLIT: Final[dict[str, str]] = {
    "multiversus_core.activation": f"{_RULES}.selections",
    "multiversus_core.sheets": f"{_RULES}.catalog",
    "multiversus_core.bots": "multiversus_core.engine.play",
    "multiversus_core.simulation": "multiversus_core.engine.simulation",
}
"""An old module part of which went elsewhere: its old name finds those names there too."""


def new_name(old: str) -> str | None:
    """Return the new name of a moved module (or of a module below a moved package)."""
    if old in MOVED:
        return MOVED[old]
    package, dot, _ = old.rpartition(".")
    while dot:
        if package in MOVED:
            return f"{MOVED[package]}.{old[len(package) + 1 :]}"
        package, dot, _ = package.rpartition(".")
    return None


class _Alias(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.target}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(self.target)
        if spec.name in SPLIT:
            module = _Joined(spec.name, module, importlib.import_module(SPLIT[spec.name]))
        sys.modules[spec.name] = module
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at its new place is already loaded."""


class _Joined(ModuleType):
    """An old module's name over the module at its new place and the one where its other
    names went: reading a name tries the first, then the second."""

    def __init__(self, name: str, first: ModuleType, second: ModuleType) -> None:
        super().__init__(name, first.__doc__)
        self._first = first
        self._second = second

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return getattr(self._first, name)
        except AttributeError:
            return getattr(self._second, name)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("multiversus_core."):
            return None
        new = new_name(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install() -> None:
    """Let the old module names import (once per process)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
