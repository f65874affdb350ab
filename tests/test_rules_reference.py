"""docs/rules-reference.md cites real tests and real code, and covers every ruling."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "rules-reference.md"


def _cited_tests() -> list[tuple[str, str]]:
    """Return (test file, test name) for every test the reference names.

    A citation is ``test_file.py::test_name``, or ``::test_name`` for the
    file named last before it in the same table cell.
    """
    cited = []
    for line in REFERENCE.read_text(encoding="utf-8").splitlines():
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


def test_every_cited_test_exists() -> None:
    cited = _cited_tests()
    assert len(cited) > 100
    missing = []
    for file_, name in cited:
        path = ROOT / "tests" / file_
        if not path.exists() or not re.search(rf"def {name}\b", path.read_text(encoding="utf-8")):
            missing.append(f"{file_}::{name}")
    assert not missing, missing


def test_every_ruling_r1_to_r23_is_referenced() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    missing = [f"R{n}" for n in range(1, 24) if not re.search(rf"\bR{n}\b", text)]
    assert not missing, missing


def test_every_cited_module_exists() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    tests = set(re.findall(r"`(test_\w+\.py)", text))
    modules = set(re.findall(r"`(\w+\.py)(?:::\w+)?`", text)) - tests
    core = ROOT / "src" / "multiversus_core"
    folders = (
        core / "rulesets" / "multiversus",
        core / "rulesets" / "sealed_bids",
        core / "engine",
        core,
    )
    missing = [m for m in modules if not any((folder / m).exists() for folder in folders)]
    assert not missing, missing
