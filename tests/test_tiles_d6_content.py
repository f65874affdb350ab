"""tiles-d6 content: the bundled rosters and map (T29, T30), rosters and maps from files and
from other packages (T32), and hostile files refused in one line naming the field."""

from __future__ import annotations

import importlib.metadata
import random
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from multiversus_core.engine.errors import DataFileError
from multiversus_core.rulesets.tiles_d6.content import (
    BLOCKS_MOVEMENT,
    MAP_GROUP,
    MAX_BYTES,
    ROSTER_GROUP,
    GameMap,
    bundled_maps,
    bundled_rosters,
    decode_map,
    decode_roster,
    find_map,
    find_roster,
    forget_installed,
    installed_maps,
    installed_rosters,
    invalid_maps,
    invalid_rosters,
    load_map,
    load_roster,
)
from tests.packages import installed

T29 = {
    "keep-guard": (
        "Keep Guard",
        [
            ("Captain", 1, (4, 4, 4, 0, 0, 3, 8, 1), ()),
            ("Spearman", 2, (4, 3, 3, 0, 0, 3, 6, 1), ()),
            ("Crossbow", 2, (4, 2, 2, 3, 3, 3, 5, 0), ()),
        ],
    ),
    "marsh-raiders": (
        "Marsh Raiders",
        [
            ("Ogre", 1, (4, 3, 5, 0, 0, 2, 10, 1), ("large",)),
            ("Goblin", 3, (5, 3, 2, 0, 0, 3, 5, 0), ("small",)),
            ("Harpy", 1, (6, 2, 2, 3, 2, 4, 5, 0), ("flying",)),
        ],
    ),
}
"""T29's table: name, count, Mv Co St Ra Po Ev He De, traits."""

T30 = (
    "..T....#....",
    "..T....#.~~.",
    ".......+.~~.",
    "###=##......",
    "......^^..T.",
    ".T....^^....",
    "....^^....T.",
    ".T..^^......",
    "......##=###",
    ".~~.+.......",
    ".~~.#....T..",
    "....#....T..",
)

ROSTER = """\
id = "swamp-folk"
name = "Swamp Folk"

[[units]]
id = "frog"
name = "Frog"
count = 2
move = 3
combat = 2
strength = 2
ranged = 0
power = 0
evade = 4
health = 3
defense = 0
traits = ["small"]

[[units]]
id = "heron"
name = "Heron"
move = 6
combat = 3
strength = 3
ranged = 2
power = 0
evade = 3
health = 4
defense = 1
traits = ["flying"]
"""
"""A roster that is not bundled; the Heron has Ranged but no Power (allowed, and cannot fire)."""

MAP = """\
id = "ford"
name = "Ford"
rows = [
    "........",
    ".~~T....",
    "..^#....",
    "...#^...",
    "...^#...",
    "....#^..",
    "....T~~.",
    "........",
]
"""


def _map(*rows: str) -> bytes:
    quoted = ", ".join(f'"{row}"' for row in rows)
    return f'id = "m"\nname = "M"\nrows = [{quoted}]\n'.encode()


def _flood(rows: tuple[str, ...]) -> set[tuple[int, int]]:
    """The open tiles reached from the first by 8-neighbour steps (no corner is cut here)."""
    open_tiles = {(c, r) for r, row in enumerate(rows) for c, t in enumerate(row) if t not in "T#="}
    start = min(open_tiles, key=lambda t: (t[1], t[0]))
    reached, todo = {start}, [start]
    while todo:
        c, r = todo.pop()
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                to = (c + dc, r + dr)
                if to in open_tiles and to not in reached:
                    reached.add(to)
                    todo.append(to)
    return reached if reached == open_tiles else set()


# --- the bundled content ------------------------------------------------------------------


def test_t29_the_bundled_rosters_have_the_ruled_stats() -> None:
    rosters = {r.id: r for r in bundled_rosters()}
    assert set(rosters) == set(T29)
    for roster_id, (name, table) in T29.items():
        roster = rosters[roster_id]
        assert roster.name == name
        assert [
            (
                u.name,
                u.count,
                (u.move, u.combat, u.strength, u.ranged, u.power, u.evade, u.health, u.defense),
                u.traits,
            )
            for u in roster.units
        ] == table
        assert len(roster.fielded()) == 5
        assert find_roster(roster_id) == roster


def test_t29_a_roster_fields_each_unit_with_its_own_id_in_file_order() -> None:
    guard = find_roster("keep-guard")
    assert guard is not None
    assert [(u.id, u.name) for u in guard.fielded()] == [
        ("captain", "Captain"),
        ("spearman-1", "Spearman 1"),
        ("spearman-2", "Spearman 2"),
        ("crossbow-1", "Crossbow 1"),
        ("crossbow-2", "Crossbow 2"),
    ]
    assert guard.fielded()[2].unit_type == guard.units[1]


def test_t30_crossing_is_the_ruled_map_12x12_symmetric_and_connected() -> None:
    (crossing,) = bundled_maps()
    assert find_map("crossing") == crossing
    assert (crossing.id, crossing.name, crossing.rows) == ("crossing", "Crossing", T30)
    assert (crossing.width, crossing.height) == (12, 12)
    for r in range(12):
        for c in range(12):
            assert crossing.tile(c, r) == crossing.tile(11 - c, 11 - r)
    assert _flood(crossing.rows), "every open tile is reached from every other"


def test_t31_coordinates_are_column_then_row_from_the_top_left() -> None:
    crossing = find_map("crossing")
    assert crossing is not None
    assert (crossing.tile(7, 0), crossing.tile(7, 2), crossing.tile(3, 3)) == ("#", "+", "=")
    assert crossing.tile(11, 11) == "."
    for off in ((12, 0), (0, 12), (-1, 0), (0, -1)):
        with pytest.raises(IndexError):
            crossing.tile(*off)


def test_t27_halves_and_centre_of_the_crossing() -> None:
    crossing = find_map("crossing")
    assert crossing is not None
    assert crossing.halves == (range(6), range(6, 12))
    barred = {c for c in range(12) if crossing.centre_distance(c, 5) <= 2}
    assert barred == set(range(3, 9))
    assert GameMap("m", "M", ("." * 5,) * 5).halves == (range(2), range(3, 5))


# --- rosters and maps from files -----------------------------------------------------------


def test_t32_a_roster_and_a_map_from_a_file_are_used_like_the_bundled_ones(
    tmp_path: Path,
) -> None:
    (tmp_path / "swamp-folk.toml").write_text(ROSTER)
    (tmp_path / "ford.toml").write_text(MAP)
    roster = load_roster(tmp_path / "swamp-folk.toml")
    assert [u.id for u in roster.fielded()] == ["frog-1", "frog-2", "heron"]
    heron = roster.units[1]
    assert (heron.ranged, heron.power, heron.traits, heron.count) == (2, 0, ("flying",), 1)
    ford = load_map(tmp_path / "ford.toml")
    assert (ford.width, ford.height, ford.tile(3, 2)) == (8, 8, "#")


def test_t32_the_corner_rule_of_t5_applies_to_a_map_from_a_file() -> None:
    # The two walls meet at a corner, so the diagonal past them is no step (T5).
    corner = ("....#.....",) * 5 + (".....#....",) * 5
    with pytest.raises(DataFileError, match=r"^m: rows: the open tile at column 5, row 0 cannot"):
        decode_map(_map(*corner), "m")
    # With one of the two tiles open, the walls no longer meet.
    gap = (*corner[:5], "." * 10, *corner[6:])
    assert decode_map(_map(*gap), "m").rows == gap


def test_a_missing_file_is_refused_naming_it() -> None:
    with pytest.raises(DataFileError) as error:
        load_roster(Path("/no/such/roster.toml"))
    assert str(error.value) == "/no/such/roster.toml: no such file"


# --- hostile files -------------------------------------------------------------------------

_ROSTER = ROSTER.encode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_ROSTER + b"#" * MAX_BYTES, f"the file is larger than {MAX_BYTES} bytes"),
        (b"\xff" + _ROSTER, "not valid TOML: not UTF-8"),
        (b"id = ", "not valid TOML: "),
        (b"x = [[[[[[1]]]]]]\n" + _ROSTER, "nested more than 5 deep"),
        (b"a.b.c.d.e.f = 1\n" + _ROSTER, "nested more than 5 deep"),
        (_ROSTER + b'colour = "green"\n', r"units\[1\]\.colour: no such field"),
        (
            _ROSTER.replace(b"move = 3", b'move = "three"'),
            r"units\[0\]\.move: should be a whole number, not the text 'three'",
        ),
        (
            _ROSTER.replace(b"move = 3", b"move = 3.0"),
            r"units\[0\]\.move: should be a whole number, not the number 3\.0",
        ),
        (
            _ROSTER.replace(b'"small"', b'"tiny"'),
            r"units\[0\]\.traits\[0\]: 'tiny' is not one of flying, large, small",
        ),
        (
            _ROSTER.replace(b"move = 3", b"move = 13"),
            r"units\[0\] \(frog\).move: must be from 1 to 12, not 13",
        ),
        (
            _ROSTER.replace(b"move = 3", b"move = 0"),
            r"units\[0\] \(frog\).move: must be from 1 to 12, not 0",
        ),
        (
            _ROSTER.replace(b"health = 3", b"health = 0"),
            r"units\[0\] \(frog\).health: must be from 1",
        ),
        (
            _ROSTER.replace(b"evade = 4", b"evade = -1"),
            r"units\[0\] \(frog\).evade: must be from 0 to 12",
        ),
        (
            _ROSTER.replace(b"power = 0\nevade = 3", b"power = 99999999999999999999999\nevade = 3"),
            r"units\[1\] \(heron\).power: must be",
        ),
        (
            _ROSTER.replace(b"count = 2", b"count = 13"),
            r"units\[0\] \(frog\).count: must be from 1 to 12, not 13",
        ),
        (
            _ROSTER.replace(b"count = 2", b"count = 0"),
            r"units\[0\] \(frog\).count: must be from 1 to 12, not 0",
        ),
        (
            _ROSTER.replace(b'["small"]', b'["small", "large"]'),
            r"units\[0\] \(frog\).traits: a unit type is not both",
        ),
        (
            _ROSTER.replace(b'["small"]', b'["small", "small"]'),
            r"units\[0\] \(frog\).traits\[1\]: 'small' is listed twice",
        ),
        (
            _ROSTER.replace(b'"heron"', b'"frog"'),
            r"units\[1\] \(frog\).id: two unit types share this id",
        ),
        (_ROSTER.replace(b'"heron"', b'"frog-1"'), r"units: two units would share the id 'frog-1'"),
        (_ROSTER.replace(b'"heron"', b'"-heron"'), r"units\[1\].id: an id is 1 to 32"),
        (
            _ROSTER.replace(b'"Heron"', b'"He\\u001bron"'),
            r"units\[1\] \(heron\).name: holds the control",
        ),
        (_ROSTER.replace(b'name = "Swamp Folk"', b'name = "  "'), r"name: must not be blank"),
        (
            b'id = "none"\nname = "None"\nunits = []\n',
            r"units: a roster needs at least one unit type",
        ),
    ],
)
def test_a_hostile_roster_is_refused_in_one_line_naming_the_field(
    data: bytes, message: str
) -> None:
    with pytest.raises(DataFileError, match=message) as error:
        decode_roster(data, "roster.toml")
    assert str(error.value).startswith("roster.toml: ")
    assert "\n" not in str(error.value)


def test_a_roster_fielding_more_than_24_units_or_12_types_is_refused() -> None:
    unit = _ROSTER.split(b"[[units]]")[1].replace(b"count = 2", b"count = 5")
    five = b'id = "many"\nname = "Many"\n' + b"".join(
        b"[[units]]" + unit.replace(b'"frog"', f'"frog{i}"'.encode()) for i in range(5)
    )
    with pytest.raises(DataFileError, match=r"units: the roster fields 25 units in all, more"):
        decode_roster(five, "many.toml")
    thirteen = five.replace(b"count = 5", b"count = 1") + b"".join(
        b"[[units]]" + unit.replace(b'"frog"', f'"toad{i}"'.encode()) for i in range(8)
    )
    with pytest.raises(DataFileError, match=r"units: must be from 1 to 12, not 13"):
        decode_roster(thirteen.replace(b"count = 5", b"count = 1"), "many.toml")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_map("....", "....", "...."), r"rows: must be from 4 to 40, not 3"),
        (_map(*["." * 41] * 4), r"rows\[0\]: a row is from 4 to 40 tiles long, not 41"),
        (_map(*["...."] * 41), r"rows: must be from 4 to 40, not 41"),
        (
            _map("......", ".....", "......", "......"),
            r"rows\[1\]: is 5 tiles long, but rows\[0\] is 6",
        ),
        (
            _map("......", "..X...", "......", "......"),
            r"rows\[1\]: column 2 holds 'X', not a tile \(the tiles are \. T # \+ = ~ \^\)",
        ),
        (
            _map("......", "..\\t...", "......", "......"),
            r"rows\[1\]: column 2 holds '\\t', not a tile",
        ),
        (
            _map(*["#" * 8] * 2, *["#......#"] * 3, *["." * 8] * 5),
            r"rows: the north half \(rows 0 to 4\) has no tile to set up on",
        ),
        (
            _map(*["." * 8] * 5, *["#......#"] * 3, "T" * 8, "=" * 8),
            r"rows: the south half \(rows 5 to 9\) has no tile to set up on",
        ),
        (_map(*["." * 4] * 4), r"rows: the north half \(rows 0 to 1\) has no tile to set up on"),
        (
            _map(*["." * 8] * 4, "#" * 8, *["." * 8] * 4),
            r"rows: the open tile at column 0, row 5 cannot be reached from column 0, row 0",
        ),
        (
            _map("..#.....", "..#.....", "###.....", *["." * 8] * 7),
            r"rows: the open tile at column 3, row 0 cannot be reached from column 0, row 0",
        ),
        (
            b'id = "m"\nname = "M"\nrows = "...."\n',
            r"rows: should be a list, not the text '\.\.\.\.'",
        ),
        (b'id = "m"\nname = "M"\nrows = ["...."]\nwidth = 4\n', r"width: no such field"),
        (b'id = "m m"\nname = "M"\nrows = []\n', r"id: an id is 1 to 32"),
    ],
)
def test_a_hostile_map_is_refused_in_one_line_naming_the_field(data: bytes, message: str) -> None:
    with pytest.raises(DataFileError, match=message) as error:
        decode_map(data, "maps/m.toml")
    assert str(error.value).startswith("maps/m.toml: ")
    assert "\n" not in str(error.value)


def test_a_map_error_claims_the_map_s_id() -> None:
    with pytest.raises(DataFileError) as error:
        decode_map(_map("....", "....", "...."), "m.toml")
    assert error.value.claimed == "m"


def test_the_set_up_check_counts_only_tiles_a_unit_may_stand_on() -> None:
    # Only water and brambles in the north: they do not block movement (T7).
    rows = ("~^~^~^~^", "^~^~^~^~", *["#......#"] * 3, *["." * 8] * 5)
    assert decode_map(_map(*rows), "m").rows == rows
    assert not set("~^+") & BLOCKS_MOVEMENT


# --- rosters and maps from other packages ----------------------------------------------------

_PACKAGE = """
from pathlib import Path

from multiversus_core.rulesets.tiles_d6.content import Roster, UnitType

HERE = Path(__file__).parent


def rosters():
    wisp = UnitType(
        id="wisp", name="Wisp", move=5, combat=1, strength=1, ranged=2, power=2, evade=5,
        health=2, defense=0, traits=("flying", "small"), count=3,
    )
    return [HERE / "swamp-folk.toml", Roster(id="wisps", name="Wisps", units=(wisp,))]


def empty():
    return [Roster(id="lonely", name="Lonely", units=())]


def maps():
    return [str(HERE / "ford.toml")]


def broken_maps():
    return [HERE / "ragged.toml"]
"""


@pytest.fixture
def fresh() -> Iterator[None]:
    forget_installed()
    yield
    forget_installed()


def test_t32_rosters_and_maps_from_an_installed_package_are_found_by_id(
    tmp_path: Path, fresh: None
) -> None:
    (tmp_path / "swamp-folk.toml").write_text(ROSTER)
    (tmp_path / "ford.toml").write_text(MAP)
    (tmp_path / "ragged.toml").write_bytes(_map("......", ".....", "......", "......"))
    points = {
        ROSTER_GROUP: {"swamp": "tiles_extra:rosters", "empty": "tiles_extra:empty"},
        MAP_GROUP: {"ford": "tiles_extra:maps", "ragged": "tiles_extra:broken_maps"},
    }
    with installed(tmp_path, "tiles-extra", points, {"tiles_extra": textwrap.dedent(_PACKAGE)}):
        swamp, wisps = find_roster("swamp-folk"), find_roster("wisps")
        assert swamp is not None and wisps is not None
        assert [u.id for u in wisps.fielded()] == ["wisp-1", "wisp-2", "wisp-3"]
        assert [r.id for r in installed_rosters()] == [
            "keep-guard",
            "marsh-raiders",
            "swamp-folk",
            "wisps",
        ]
        guard = find_roster("keep-guard")
        assert guard is not None and guard.name == "Keep Guard"
        (empty,) = invalid_rosters()
        assert str(empty) == (
            "entry point 'empty' (tiles_extra:empty), roster 0 (lonely): "
            "units: a roster needs at least one unit type"
        )
        ford = find_map("ford")
        assert ford is not None and ford.tile(3, 2) == "#"
        assert [m.id for m in installed_maps()] == ["crossing", "ford"]
        (ragged,) = invalid_maps()
        assert (
            str(ragged) == f"{tmp_path / 'ragged.toml'}: rows[1]: is 5 tiles long, but rows[0] is 6"
        )
        assert find_map("m") is None
    forget_installed()
    assert find_roster("swamp-folk") is None and invalid_rosters() == ()


def test_an_offered_roster_taking_a_bundled_id_is_left_out(tmp_path: Path, fresh: None) -> None:
    (tmp_path / "guard.toml").write_text(ROSTER.replace('"swamp-folk"', '"keep-guard"'))
    module = "from pathlib import Path\ndef rosters():\n    return [Path(__file__).parent / 'guard.toml']\n"
    points = {ROSTER_GROUP: {"guard": "tiles_guard:rosters"}}
    with installed(tmp_path, "tiles-guard", points, {"tiles_guard": module}):
        assert installed_rosters() == bundled_rosters()
        (error,) = invalid_rosters()
        assert str(error) == (
            f"{tmp_path / 'guard.toml'}: id: the roster id 'keep-guard' is taken by "
            "multiversus_core/rulesets/tiles_d6/data/rosters (keep-guard)"
        )
        assert error.claimed == "keep-guard"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("tiles_junk:NOT_CALLABLE", "loads to something that is not callable"),
        ("tiles_junk:missing", "cannot be loaded"),
        ("tiles_junk:failing", "failed to list its maps: no maps today"),
        ("tiles_junk:junk", "map 0 is a int, not a GameMap or a path"),
        ("tiles_junk:mistyped", r"map 0 \(m\): rows\[0\]: should be text, not the number"),
    ],
)
def test_a_broken_map_entry_point_is_reported_and_skipped(
    tmp_path: Path, fresh: None, value: str, message: str
) -> None:
    module = textwrap.dedent(
        """
        from multiversus_core.rulesets.tiles_d6.content import GameMap
        NOT_CALLABLE = 3
        def failing():
            raise RuntimeError("no maps today")
        def junk():
            return [7]
        def mistyped():
            return [GameMap(id="m", name="M", rows=(1, 2, 3, 4))]
        """
    )
    with installed(tmp_path, "tiles-junk", {MAP_GROUP: {"junk": value}}, {"tiles_junk": module}):
        assert installed_maps() == bundled_maps()
        (error,) = invalid_maps()
        assert error.source.startswith(f"entry point 'junk' ({value})")
        assert re.search(message, str(error))


def test_finding_a_bundled_id_reads_no_entry_point(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def entry_points(**params: str) -> importlib.metadata.EntryPoints:
        raise AssertionError("entry points were read")

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert find_roster("marsh-raiders") == bundled_rosters()[1]
    assert find_map("crossing") == bundled_maps()[0]
    with pytest.raises(AssertionError, match="entry points were read"):
        find_roster("nobody")


# --- mutated files -------------------------------------------------------------------------

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
    "13",
    "-1",
    "0",
    "X",
    "#",
    "\\u0000",
    "T",
)


def _mutated(rnd: random.Random, data: bytes) -> bytes:
    text = data.decode()
    for _ in range(rnd.randint(1, 4)):
        at = rnd.randrange(len(text))
        text = text[:at] + rnd.choice(_PIECES) + text[at + rnd.randint(0, 3) :]
    return text.encode()


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_mutated_rosters_and_maps_are_read_or_refused_in_one_line(rnd: random.Random) -> None:
    for decode, data in ((decode_roster, _ROSTER), (decode_map, MAP.encode())):
        refusal = ""
        try:
            decode(_mutated(rnd, data), "f.toml")
        except DataFileError as error:
            refusal = str(error)
        assert not refusal or (refusal.startswith("f.toml: ") and "\n" not in refusal)
