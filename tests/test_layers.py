"""The core's layers: the engine imports no game, and no module imports itself back.

Imports are read from the source (every ``import`` anywhere in a module,
in functions and under ``TYPE_CHECKING`` too), so an import moved into a
function cannot hide a circle from these tests.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).parent.parent / "src" / "multiversus_core"

TOP_LEVEL = frozenset(
    {
        "multiversus_core",
        "multiversus_core._version",
        "multiversus_core._moved",
        "multiversus_core.openspiel",
    }
)
"""The only modules outside ``engine/`` and ``rulesets/``: the public API, the version, the
old names of moved modules, and the games as OpenSpiel games."""

THIRD_PARTY = frozenset({"msgspec"})
"""What the core imports beside the standard library and itself."""

OPTIONAL_IMPORTS = frozenset(
    {("multiversus_core.openspiel", "pyspiel"), ("multiversus_core.openspiel", "numpy")}
)
"""The one exception: :mod:`multiversus_core.openspiel` imports OpenSpiel (and its numpy),
the ``openspiel`` extra; nothing in the core imports that module."""

LAZY_STANDARD_IMPORTS = frozenset(
    {
        ("multiversus_core.engine.datafile", "importlib.metadata"),
        ("multiversus_core.engine.registry", "importlib.metadata"),
        ("multiversus_core.engine.log", "json"),
        ("multiversus_core.engine.log", "sys"),
        ("multiversus_core.engine.viewlog", "json"),
        ("multiversus_core.engine.viewlog", "sys"),
    }
)
"""Standard-library modules imported inside a function on purpose (start-up time, or a
script's main): never a module of the core."""


ENGINE_MAY_IMPORT = frozenset({"multiversus_core._version"})
"""What the engine may import from outside itself: the library's version, which logs record."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in CORE.rglob("*.py"):
        parts = list(path.relative_to(CORE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> list[tuple[str, bool]]:
    """Every module ``path`` imports, and whether the import is inside a function."""
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((alias.name, nested) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    name = f"{child.module}.{alias.name}"
                    found.append((name if name in MODULES else child.module, nested))
            visit(child, nested)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _graph() -> dict[str, set[str]]:
    """Module to the core modules it imports (the package itself, the public face, left out)."""
    return {
        name: {m for m, _ in _imports(path) if m in MODULES and m not in (name, "multiversus_core")}
        for name, path in MODULES.items()
        if name != "multiversus_core"
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_the_engine_imports_no_game_and_nothing_outside_the_engine() -> None:
    outside = [
        f"{name} imports {imported}"
        for name, imported in sorted(
            (name, imported)
            for name, path in MODULES.items()
            if name.startswith("multiversus_core.engine")
            for imported, _ in _imports(path)
            if imported.startswith("multiversus_core")
        )
        if not imported.startswith("multiversus_core.engine") and imported not in ENGINE_MAY_IMPORT
    ]
    assert not outside


def test_the_core_imports_only_msgspec_beside_the_standard_library() -> None:
    foreign = sorted(
        f"{name} imports {imported}"
        for name, path in MODULES.items()
        for imported, _ in _imports(path)
        if (top := imported.partition(".")[0]) not in sys.stdlib_module_names
        and top not in THIRD_PARTY
        and top != "multiversus_core"
        and (name, top) not in OPTIONAL_IMPORTS
    )
    assert not foreign


def test_nothing_in_the_core_imports_the_openspiel_module() -> None:
    importers = sorted(
        name
        for name, path in MODULES.items()
        for imported, _ in _imports(path)
        if imported == "multiversus_core.openspiel"
    )
    assert not importers


def test_no_import_circle_in_the_core() -> None:
    assert _cycles(_graph()) == []


def test_no_module_of_the_core_is_imported_inside_a_function() -> None:
    hidden = sorted(
        f"{name} imports {imported} in a function"
        for name, path in MODULES.items()
        for imported, nested in _imports(path)
        if nested
        and (
            imported.startswith("multiversus_core") or (name, imported) not in LAZY_STANDARD_IMPORTS
        )
    )
    assert not hidden


def test_every_module_is_the_engine_s_or_a_game_s() -> None:
    outside = {
        name
        for name in MODULES
        if not name.startswith(("multiversus_core.engine", "multiversus_core.rulesets"))
    }
    assert outside == TOP_LEVEL


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_the_cycle_finder_finds_circles(
    graph: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert _cycles(graph) == expected


def test_the_import_reader_sees_imports_inside_functions(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from multiversus_core.rulesets.multiversus import state\n"
        "def f():\n    import multiversus_core.log\n"
    )
    assert _imports(source) == [
        ("typing", False),
        ("multiversus_core.rulesets.multiversus.state", False),
        ("multiversus_core.log", True),
    ]
