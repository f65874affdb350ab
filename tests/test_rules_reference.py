"""docs/rules-reference.md cites real tests and real code, and covers every ruling."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "rules-reference.md"
TILES = ROOT / "docs" / "tiles-d6-reference.md"
"""tiles-d6's rulings, on a page of their own."""
WORLDS = ROOT / "docs" / "worlds-collide-reference.md"
"""worlds-collide's rulings, on a page of their own."""


def _cited_tests(page: Path = REFERENCE) -> list[tuple[str, str]]:
    """Return (test file, test name) for every test the reference names.

    A citation is ``test_file.py::test_name``, or ``::test_name`` for the
    file named last before it in the same table cell.
    """
    cited = []
    for line in page.read_text(encoding="utf-8").splitlines():
        for cell in line.split("|"):
            current = None
            for match in re.finditer(r"`(test_\w+\.py)?::(test_\w+)`|`(test_\w+\.py)`", cell):
                file_, name, bare = match.groups()
                if bare:
                    current = bare
                    continue
                current = file_ or current
                assert current is not None, f"no file before ::{name} in: {line[:80]}"
                cited.append((current, name))
    return cited


def _test_file(name: str) -> Path | None:
    return next((ROOT / "tests").rglob(name), None)


@pytest.mark.parametrize(("page", "least"), [(REFERENCE, 100), (TILES, 60), (WORLDS, 80)])
def test_every_cited_test_exists(page: Path, least: int) -> None:
    cited = _cited_tests(page)
    assert len(cited) > least
    missing = []
    for file_, name in cited:
        path = _test_file(file_)
        if path is None or not re.search(rf"def {name}\b", path.read_text(encoding="utf-8")):
            missing.append(f"{file_}::{name}")
    assert not missing, missing


def test_every_ruling_r1_to_r28_is_referenced() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    missing = [f"R{n}" for n in range(1, 29) if not re.search(rf"\bR{n}\b", text)]
    assert not missing, missing


def test_every_tiles_d6_ruling_t1_to_t40_has_its_row() -> None:
    text = TILES.read_text(encoding="utf-8")
    missing = [f"T{n}" for n in range(1, 41) if not re.search(rf"^\| T{n} ", text, re.MULTILINE)]
    assert not missing, missing


def test_every_worlds_collide_ruling_w1_to_w40_has_its_row() -> None:
    text = WORLDS.read_text(encoding="utf-8")
    missing = [f"W{n}" for n in range(1, 41) if not re.search(rf"^\| W{n} ", text, re.MULTILINE)]
    assert not missing, missing


@pytest.mark.parametrize("page", [REFERENCE, TILES, WORLDS])
def test_every_cited_module_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    tests = set(re.findall(r"`(test_\w+\.py)", text))
    modules = set(re.findall(r"`(\w+\.py)(?:::\w+)?`", text)) - tests
    core = ROOT / "src" / "multiversus_core"
    folders = (
        core / "rulesets" / "multiversus",
        core / "rulesets" / "sealed_bids",
        core / "rulesets" / "tiles_d6",
        core / "rulesets" / "worlds_collide",
        core / "engine",
        core,
    )
    missing = [m for m in modules if not any((folder / m).exists() for folder in folders)]
    assert not missing, missing
