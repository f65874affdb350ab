"""Every game's catalogs of content (tiles-d6's rosters and maps, worlds-collide's factions and
maps) pass the same checks: bundled files load, offered ones are checked and kept apart, a
broken entry point is reported, and a mutated file is read or refused in one line."""

from __future__ import annotations

import importlib
import importlib.metadata
import random
import re
import textwrap
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from multiversus_core.engine.catalog import DATA, Catalog
from multiversus_core.engine.errors import DataFileError
from tests.packages import installed

CATALOGS = [
    ("multiversus_core.rulesets.tiles_d6.content", "ROSTERS"),
    ("multiversus_core.rulesets.tiles_d6.content", "MAPS"),
    ("multiversus_core.rulesets.worlds_collide.content", "FACTIONS"),
    ("multiversus_core.rulesets.worlds_collide.content", "MAPS"),
]
"""Every catalog, as (module, attribute): what an offering package imports."""


def _catalog(where: tuple[str, str]) -> Catalog[Any]:
    catalog = getattr(importlib.import_module(where[0]), where[1])
    assert isinstance(catalog, Catalog)
    return catalog


def _first_file(catalog: Catalog[Any]) -> bytes:
    """The bytes of the first bundled file of the catalog (a file known to be valid)."""
    folder = resources.files(catalog.package).joinpath(DATA, catalog.folder)
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)[
        0
    ].read_bytes()


@pytest.fixture(params=CATALOGS, ids=lambda where: f"{where[0].split('.')[-2]}.{where[1]}")
def where(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    catalog = _catalog(request.param)
    catalog.forget()
    yield request.param
    catalog.forget()


def test_the_bundled_files_load_and_are_found_by_id(where: tuple[str, str]) -> None:
    catalog = _catalog(where)
    bundled = catalog.bundled()
    assert bundled and len({item.id for item in bundled}) == len(bundled)
    for item in bundled:
        assert catalog.find(item.id) == item
    assert catalog.bundled_folder.endswith(f"/{DATA}")
    assert catalog.decode(_first_file(catalog), "f.toml") == bundled[0]


def test_offered_items_come_after_the_bundled_ones_by_id_and_a_taken_id_is_left_out(
    tmp_path: Path, where: tuple[str, str]
) -> None:
    catalog = _catalog(where)
    first = catalog.bundled()[0]
    (tmp_path / "copy.toml").write_bytes(_first_file(catalog))
    module = textwrap.dedent(
        f"""
        from pathlib import Path
        from msgspec.structs import replace
        from {where[0]} import {where[1]} as CATALOG

        def offered():
            first = CATALOG.bundled()[0]
            return [replace(first, id="zz-last"), replace(first, id="aa-first"),
                    Path(__file__).parent / "copy.toml"]
        """
    )
    with installed(
        tmp_path, "kit", {catalog.group: {"kit": "kit_offer:offered"}}, {"kit_offer": module}
    ):
        ids = [item.id for item in catalog.installed()]
        assert ids == [*(item.id for item in catalog.bundled()), "aa-first", "zz-last"]
        (taken,) = catalog.invalid()
        assert str(taken) == (
            f"{tmp_path / 'copy.toml'}: id: the {catalog.noun} id {first.id!r} is taken by "
            f"{catalog.bundled_folder}/{catalog.folder} ({first.id})"
        )
        assert taken.claimed == first.id
    catalog.forget()
    assert catalog.find("aa-first") is None and catalog.invalid() == ()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("kit_junk:NOT_CALLABLE", "loads to something that is not callable"),
        ("kit_junk:missing", "cannot be loaded"),
        ("kit_junk:failing", "failed to list its {noun}s: none today"),
        ("kit_junk:junk", "{noun} 0 is a int, not a {struct} or a path"),
        ("kit_junk:mistyped", r"{noun} 0 \(x\): name: should be text, not the number"),
        ("kit_junk:unnamed", r"{noun} 0 \(x\): name: must not be empty"),
    ],
)
def test_a_broken_entry_point_is_reported_and_skipped(
    tmp_path: Path, where: tuple[str, str], value: str, message: str
) -> None:
    catalog = _catalog(where)
    module = textwrap.dedent(
        f"""
        from msgspec.structs import replace
        from {where[0]} import {where[1]} as CATALOG
        NOT_CALLABLE = 3
        def failing():
            raise RuntimeError("none today")
        def junk():
            return [7]
        def mistyped():
            return [replace(CATALOG.bundled()[0], id="x", name=7)]
        def unnamed():
            return [replace(CATALOG.bundled()[0], id="x", name="")]
        """
    )
    points = {catalog.group: {"junk": value}}
    with installed(tmp_path, "kit-junk", points, {"kit_junk": module}):
        assert catalog.installed() == catalog.bundled()
        (error,) = catalog.invalid()
        assert error.source.startswith(f"entry point 'junk' ({value})")
        expected = message.format(noun=catalog.noun, struct=catalog.struct.__name__)
        assert re.search(expected, str(error)), str(error)
        assert "\n" not in str(error)


def test_finding_a_bundled_id_reads_no_entry_point(
    monkeypatch: pytest.MonkeyPatch, where: tuple[str, str]
) -> None:
    def entry_points(**params: str) -> importlib.metadata.EntryPoints:
        raise AssertionError("entry points were read")

    catalog = _catalog(where)
    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert catalog.find(catalog.bundled()[-1].id) == catalog.bundled()[-1]
    with pytest.raises(AssertionError, match="entry points were read"):
        catalog.find("nobody")


_PIECES = (
    '"',
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    ".",
    "\n",
    "7",
    "13",
    "-1",
    "0",
    "X",
    "#",
    "\\u0000",
    "O",
    "T",
)


def _mutated(rnd: random.Random, data: bytes) -> bytes:
    text = data.decode()
    for _ in range(rnd.randint(1, 4)):
        at = rnd.randrange(len(text))
        text = text[:at] + rnd.choice(_PIECES) + text[at + rnd.randint(0, 3) :]
    return text.encode()


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False))
def test_mutated_bundled_files_are_read_or_refused_in_one_line(rnd: random.Random) -> None:
    for where in CATALOGS:
        catalog = _catalog(where)
        refusal = ""
        try:
            catalog.decode(_mutated(rnd, _first_file(catalog)), "f.toml")
        except DataFileError as error:
            refusal = str(error)
        assert not refusal or (refusal.startswith("f.toml: ") and "\n" not in refusal)
