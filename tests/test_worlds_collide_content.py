"""worlds-collide content: the bundled factions (W23-W25) and map with its mission (W18, W19,
W26), factions and maps from files and from other packages, and hostile files refused in one
line naming the field."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from multiversus_core.engine.errors import DataFileError
from multiversus_core.rulesets.worlds_collide.content import (
    FACTION_GROUP,
    MAP_GROUP,
    MAX_BYTES,
    Penalty,
    RoundEffect,
    TacticEffect,
    bundled_factions,
    bundled_maps,
    decode_faction,
    decode_map,
    find_faction,
    find_map,
    forget_installed,
    installed_factions,
    installed_maps,
    invalid_factions,
    invalid_maps,
    load_faction,
    load_map,
)
from tests.packages import installed

PHY, ENE, ARC = "physical", "energy", "arcane"

W23 = {
    "iron-legion": (
        "Iron Legion",
        [
            (
                "Commander",
                1,
                (4, 6, 1, (PHY,), "Command", 2),
                [("Pistol", "ranged", 1, 4, 2, (ARC,)), ("Sabre", "melee", 2, 2, 2, (ARC,))],
            ),
            (
                "Sergeant",
                1,
                (4, 4, 1, (PHY,), "Line", 1),
                [("Rifle", "ranged", 1, 4, 2, (ARC,)), ("Bayonet", "melee", 1, 4, 1, ())],
            ),
            (
                "Rifleman",
                5,
                (4, 3, 1, (PHY,), "Line", 0),
                [("Rifle", "ranged", 1, 4, 2, (ARC,)), ("Bayonet", "melee", 1, 5, 1, ())],
            ),
            (
                "Heavy Gunner",
                3,
                (3, 5, 2, (PHY, ENE), "Heavy", 0),
                [("Cannon", "ranged", 2, 6, 3, (PHY, ARC)), ("Fists", "melee", 1, 4, 1, ())],
            ),
        ],
    ),
    "wyldfae": (
        "Wyldfae",
        [
            (
                "Thorn Queen",
                1,
                (5, 6, 1, (ARC,), "Court", 2),
                [
                    ("Thorn Lash", "melee", 3, 3, 2, (PHY,)),
                    ("Hex", "ranged", 1, 4, 2, (PHY, ENE)),
                ],
            ),
            (
                "Hedge Witch",
                1,
                (4, 4, 0, (ARC,), "Grove", 1),
                [("Hex Bolt", "ranged", 2, 4, 2, (PHY,))],
            ),
            ("Sprite", 6, (6, 2, 0, (), "Swarm", 0), [("Claws", "melee", 2, 4, 2, (PHY,))]),
            (
                "Treant",
                2,
                (3, 8, 2, (PHY, ARC), "Grove", 0),
                [("Slam", "melee", 2, 4, 3, (PHY, ENE))],
            ),
        ],
    ),
}
"""W23's table: name, count, (Move, HP, defense value, types, training, leadership), weapons
(name, kind, attacks, knack, damage, effective vs)."""

W24 = {
    "iron-legion": [
        ("volley", "Volley", 4, TacticEffect(ranged_damage=1)),
        ("forced-march", "Forced March", 3, TacticEffect(move=2)),
    ],
    "wyldfae": [
        ("wild-hunt", "Wild Hunt", 4, TacticEffect(melee_attacks=1)),
        ("glamour", "Glamour", 3, TacticEffect(through_enemies=True)),
    ],
}
"""W24's tactics: id, name, knack, effect."""

W25 = {
    "iron-legion": [
        (1, "Overcast", RoundEffect(), Penalty(lose_ap=1)),
        (2, "Smog", RoundEffect(sight=6), Penalty(no_attack=True)),
        (3, "Mud", RoundEffect(move=-1), Penalty(no_move=True)),
        (4, "Barrage", RoundEffect(cover_value=5), Penalty(damage=1)),
        (5, "Supply Drop", RoundEffect(gain_ap=1), Penalty(lose_ap=1)),
        (6, "Gale", RoundEffect(ranged_knack=1), Penalty(opponent_ap=1)),
    ],
    "wyldfae": [
        (1, "Twilight", RoundEffect(sight=8), Penalty(lose_ap=1)),
        (2, "Overgrowth", RoundEffect(move=-1, unless_type="arcane"), Penalty(no_move=True)),
        (3, "Ley Surge", RoundEffect(melee_knack=-1), Penalty(damage=1)),
        (4, "Mist", RoundEffect(sight=4), Penalty(no_attack=True)),
        (5, "Moonrise", RoundEffect(gain_ap=1), Penalty(lose_ap=1)),
        (6, "Stillness", RoundEffect(), Penalty(opponent_ap=1)),
    ],
}
"""W25's environment tables: roll, name, the round's effect, the tactic-failure penalty."""

W26 = (
    ".................",
    ".................",
    ".................",
    "...##.......:....",
    "...##.......:....",
    "........##.......",
    ".:......##....#..",
    ".:............#..",
    "..O...:.O.:...O..",
    "..#............:.",
    "..#....##......:.",
    ".......##........",
    "....:.......##...",
    "....:.......##...",
    ".................",
    ".................",
    ".................",
)

FACTION = """\
id = "marsh-kin"
name = "Marsh Kin"

[[models]]
id = "elder"
name = "Elder"
move = 4
hp = 5
defense = 1
defense_types = ["arcane"]
training = "Elder"
leadership = 1

[[models.weapons]]
name = "Staff"
kind = "melee"
attacks = 1
knack = 4
damage = 2
effective_vs = ["energy"]

[[models]]
id = "frog"
name = "Frog"
count = 9
move = 3
hp = 2
defense = 0
defense_types = []
training = "Pond"

[[models.weapons]]
name = "Tongue"
kind = "ranged"
attacks = 1
knack = 5
damage = 1

[[tactics]]
id = "leap"
name = "Leap"
knack = 3
effect = { move = 2 }

[[environment]]
roll = 6
name = "Rain"
effect = { sight = 5 }
penalty = { lose_ap = 1 }

[[environment]]
roll = 2
name = "Reeds"
effect = { move = -1, unless_type = "physical" }
penalty = { no_move = true }

[[environment]]
roll = 3
name = "Croak"
effect = { melee_knack = 1, ranged_knack = -1 }
penalty = { damage = 2 }

[[environment]]
roll = 4
name = "Mire"
effect = { cover_value = 4 }
penalty = { no_attack = true, lose_ap = 1 }

[[environment]]
roll = 5
name = "Spawn"
effect = { gain_ap = 2 }
penalty = { opponent_ap = 1 }

[[environment]]
roll = 1
name = "Calm"
penalty = { lose_ap = 1 }
"""
"""A faction that is not bundled: ten models, one tactic, its table out of roll order."""

MAP_ROWS = (
    "..........",
    "..........",
    "..........",
    "..#...O...",
    "....##....",
    "....##....",
    "...O...#..",
    "..........",
    "..........",
    "..........",
)


def _map(
    rows: tuple[str, ...] = MAP_ROWS,
    first: str = "[0, 1, 2]",
    second: str = "[7, 8, 9]",
    mission: str = 'id = "collision-point"\nname = "Collision Point"\n',
) -> bytes:
    quoted = ", ".join(f'"{row}"' for row in rows)
    return (
        f'id = "pond"\nname = "Pond"\nrows = [{quoted}]\n'
        f"[deployment]\nfirst = {first}\nsecond = {second}\n"
        f"[mission]\n{mission}"
    ).encode()


MAP = _map().decode()


def _mission(line: str) -> bytes:
    """The map with W19's mission and one more line in its table."""
    return _map(mission=f'id = "collision-point"\nname = "C"\n{line}\n')


def _reached(rows: tuple[str, ...]) -> set[tuple[int, int]]:
    """The squares reached from (0, 0) by W2/W37 steps: to any neighbour, a diagonal barred only
    when both orthogonal squares beside it are ruins."""
    width, height = len(rows[0]), len(rows)
    reached, todo = {(0, 0)}, [(0, 0)]
    while todo:
        c, r = todo.pop()
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                to = (c + dc, r + dr)
                if not (0 <= to[0] < width and 0 <= to[1] < height) or to in reached:
                    continue
                if dc and dr and rows[r][c + dc] == "#" and rows[r + dr][c] == "#":
                    continue
                reached.add(to)
                todo.append(to)
    return reached


# --- the bundled factions ---------------------------------------------------------------


def test_w23_the_bundled_factions_have_the_ruled_stat_blocks() -> None:
    factions = {f.id: f for f in bundled_factions()}
    assert set(factions) == set(W23)
    for faction_id, (name, table) in W23.items():
        faction = factions[faction_id]
        assert faction.name == name
        assert [
            (
                m.name,
                m.count,
                (m.move, m.hp, m.defense, m.defense_types, m.training, m.leadership),
                [(w.name, w.kind, w.attacks, w.knack, w.damage, w.effective_vs) for w in m.weapons],
            )
            for m in faction.models
        ] == table
        assert len(faction.fielded()) == 10
        assert find_faction(faction_id) == faction


def test_w23_key_numbers_spelled_out() -> None:
    legion, fae = find_faction("iron-legion"), find_faction("wyldfae")
    assert legion is not None and fae is not None
    commander, sergeant, rifleman, gunner = legion.models
    assert (commander.move, commander.hp, commander.defense) == (4, 6, 1)
    assert (commander.defense_types, commander.training, commander.leadership) == (
        ("physical",),
        "Command",
        2,
    )
    pistol, sabre = commander.weapons
    assert (pistol.kind, pistol.attacks, pistol.knack, pistol.damage) == ("ranged", 1, 4, 2)
    assert (sabre.kind, sabre.attacks, sabre.knack, sabre.damage) == ("melee", 2, 2, 2)
    assert pistol.effective_vs == sabre.effective_vs == ("arcane",)
    # The Rifleman's Rifle is the Sergeant's; its Bayonet is k5, the Sergeant's k4.
    assert rifleman.weapons[0] == sergeant.weapons[0]
    assert (rifleman.weapons[1].knack, sergeant.weapons[1].knack) == (5, 4)
    assert rifleman.weapons[1].effective_vs == ()
    assert (gunner.count, gunner.weapons[0].attacks, gunner.weapons[0].knack) == (3, 2, 6)
    treant = fae.models[3]
    assert (treant.count, treant.hp, treant.defense_types) == (2, 8, ("physical", "arcane"))
    (slam,) = treant.weapons
    assert (slam.name, slam.effective_vs) == ("Slam", ("physical", "energy"))
    sprite = fae.models[2]
    assert (sprite.count, sprite.move, sprite.defense, sprite.defense_types) == (6, 6, 0, ())


def test_w23_a_faction_fields_each_model_with_its_own_id_in_file_order() -> None:
    legion = find_faction("iron-legion")
    assert legion is not None
    assert [(m.id, m.name) for m in legion.fielded()] == [
        ("commander", "Commander"),
        ("sergeant", "Sergeant"),
        *[(f"rifleman-{n}", f"Rifleman {n}") for n in range(1, 6)],
        *[(f"heavy-gunner-{n}", f"Heavy Gunner {n}") for n in range(1, 4)],
    ]
    assert legion.fielded()[2].model_type == legion.models[2]


def test_w17_a_weapon_doubles_only_against_every_type_of_the_target() -> None:
    legion, fae = find_faction("iron-legion"), find_faction("wyldfae")
    assert legion is not None and fae is not None
    cannon = legion.models[3].weapons[0]  # vs Physical + Arcane
    treant, sprite = fae.models[3], fae.models[2]
    assert cannon.is_effective_against(treant.defense_types)  # [Physical, Arcane]
    assert not cannon.is_effective_against(legion.models[3].defense_types)  # [Physical, Energy]
    bayonet = legion.models[2].weapons[1]  # effective vs nothing
    assert bayonet.is_effective_against(sprite.defense_types)  # no type: always doubled
    assert not bayonet.is_effective_against(("physical",))


def test_w28_leaders_are_the_models_with_leadership() -> None:
    leaders = {m.name for f in bundled_factions() for m in f.models if m.is_leader}
    assert leaders == {"Commander", "Sergeant", "Thorn Queen", "Hedge Witch"}


def test_w24_the_bundled_tactics() -> None:
    for faction in bundled_factions():
        assert [(t.id, t.name, t.knack, t.effect) for t in faction.tactics] == W24[faction.id]
        assert faction.tactic(faction.tactics[0].id) == faction.tactics[0]
        with pytest.raises(ValueError, match="has no tactic 'x'"):
            faction.tactic("x")


def test_w25_the_bundled_environment_tables() -> None:
    for faction in bundled_factions():
        table = [(e.roll, e.name, e.effect, e.penalty) for e in faction.environment]
        assert table == W25[faction.id]
        for roll in range(1, 7):
            assert faction.entry(roll).roll == roll
        with pytest.raises(ValueError, match="has no roll 7"):
            faction.entry(7)


def test_w25_w39_overgrowth_spares_the_arcane_and_barrage_raises_cover() -> None:
    fae, legion = find_faction("wyldfae"), find_faction("iron-legion")
    assert fae is not None and legion is not None
    overgrowth = fae.entry(2).effect
    assert (overgrowth.move, overgrowth.unless_type) == (-1, "arcane")
    assert "arcane" in fae.models[3].defense_types  # the Treant is not slowed
    assert legion.entry(4).effect.cover_value == 5
    assert legion.entry(1).effect.cover_value is None  # the rules' 3
    assert legion.entry(1).effect.sight is None


# --- the bundled map and mission ----------------------------------------------------------


def test_w26_collision_point_is_the_ruled_map_17x17_and_symmetric() -> None:
    (point,) = bundled_maps()
    assert find_map("collision-point") == point
    assert (point.id, point.name, point.rows) == ("collision-point", "Collision Point", W26)
    assert (point.width, point.height) == (17, 17)
    for r in range(17):
        for c in range(17):
            assert point.square((c, r)) == point.square((16 - c, 16 - r))


def test_w26_objectives_deployment_and_terrain() -> None:
    point = find_map("collision-point")
    assert point is not None
    assert point.objectives == ((2, 8), (8, 8), (14, 8))
    assert (point.deployment.first, point.deployment.second) == ((0, 1, 2), (14, 15, 16))
    assert point.deployment_zone(first=True)[:2] == ((0, 0), (1, 0))
    assert len(point.deployment_zone(first=False)) == 51
    assert {r for _, r in point.deployment_zone(first=False)} == {14, 15, 16}
    assert (point.square((3, 3)), point.level((3, 3)), point.blocks_sight((3, 3))) == ("#", 1, True)
    assert (point.square((12, 3)), point.level((12, 3)), point.gives_cover((12, 3))) == (
        ":",
        0,
        True,
    )
    assert not point.gives_cover((2, 8)) and point.level((2, 8)) == 0
    with pytest.raises(IndexError):
        point.square((17, 0))


def test_w19_the_mission_s_scoring() -> None:
    point = find_map("collision-point")
    assert point is not None
    mission = point.mission
    assert (mission.id, mission.name) == ("collision-point", "Collision Point")
    assert (mission.objective_radius, mission.scoring_rounds) == (2, (2, 3, 4, 5))
    assert (mission.objective_vp, mission.fallen_leader_vp) == (1, 1)
    assert mission.tie_breaks == ("models_on_board",)


def test_w2_w37_every_square_is_reachable_so_no_map_needs_a_check() -> None:
    point = find_map("collision-point")
    assert point is not None
    assert len(_reached(point.rows)) == 17 * 17
    # Ruins are climbed, and no orthogonal step is ever barred: even a wall of ruins does not
    # cut a map in two, and the map is accepted.
    walled = (*MAP_ROWS[:4], "#" * 10, *MAP_ROWS[5:])
    assert len(_reached(walled)) == 100
    assert decode_map(_map(walled), "m").rows == walled


# --- factions and maps from files -----------------------------------------------------------


def test_a_faction_and_a_map_from_a_file_are_used_like_the_bundled_ones(tmp_path: Path) -> None:
    (tmp_path / "marsh-kin.toml").write_text(FACTION)
    (tmp_path / "pond.toml").write_text(MAP)
    faction = load_faction(tmp_path / "marsh-kin.toml")
    assert [m.id for m in faction.fielded()][:3] == ["elder", "frog-1", "frog-2"]
    assert faction.entry(1).name == "Calm" and faction.entry(6).effect.sight == 5
    assert faction.entry(4).penalty == Penalty(no_attack=True, lose_ap=1)
    pond = load_map(tmp_path / "pond.toml")
    assert (pond.width, pond.height, pond.objectives) == (10, 10, ((6, 3), (3, 6)))
    assert pond.mission.scoring_rounds == (2, 3, 4, 5)  # W19's, by default


def test_a_missing_file_is_refused_naming_it() -> None:
    with pytest.raises(DataFileError) as error:
        load_faction(Path("/no/such/faction.toml"))
    assert str(error.value) == "/no/such/faction.toml: no such file"


# --- hostile files ---------------------------------------------------------------------------

_FACTION = FACTION.encode()
_ELDER = b'name = "Elder"\nmove = 4\nhp = 5\ndefense = 1'
_STAFF = b"attacks = 1\nknack = 4\ndamage = 2"
_LEAP = b"knack = 3\neffect = { move = 2 }"


def _faction_cases() -> list[tuple[bytes, str]]:
    f = _FACTION
    return [
        (f + b"#" * MAX_BYTES, f"the file is larger than {MAX_BYTES} bytes"),
        (b"\xff" + f, "not valid TOML: not UTF-8"),
        (b"id = ", "not valid TOML: "),
        (b"x = [[[[[[[1]]]]]]]\n" + f, "nested more than 6 deep"),
        (b"a.b.c.d.e.f.g = 1\n" + f, "nested more than 6 deep"),
        (
            f.replace(b'id = "leap"', b'id = "leap"\ncolour = 1'),
            r"tactics\[0\]\.colour: no such field",
        ),
        (
            f.replace(b"move = 4", b'move = "four"'),
            r"models\[0\]\.move: should be a whole number, not the text 'four'",
        ),
        (
            f.replace(b'["arcane"]', b'["fire"]'),
            r"models\[0\]\.defense_types\[0\]: 'fire' is not one of arcane, energy, physical",
        ),
        (
            f.replace(b'"melee"', b'"magic"'),
            r"models\[0\]\.weapons\[0\]\.kind: 'magic' is not one of melee, ranged",
        ),
        (f.replace(b"roll = 1\n", b""), r"environment\[5\]\.roll: missing"),
        (f.replace(b"penalty = { lose_ap = 1 }\n", b"", 1), r"environment\[0\]\.penalty: missing"),
        (f.replace(b"move = 4", b"move = 0"), r"models\[0\] \(elder\).move: must be from 1 to 12"),
        (f.replace(b"hp = 5", b"hp = 21"), r"models\[0\] \(elder\).hp: must be from 1 to 20"),
        (f.replace(b"defense = 1", b"defense = 7"), r"models\[0\] \(elder\).defense: must be"),
        (f.replace(b"leadership = 1", b"leadership = 6"), r"\(elder\).leadership: must be"),
        (f.replace(b"leadership = 1", b"leadership = -1"), r"\(elder\).leadership: must be"),
        (f.replace(b"count = 9", b"count = 0"), r"models\[1\] \(frog\).count: must be from 1"),
        (
            f.replace(b"count = 9", b"count = 8"),
            r"models: a faction fields 10 to 20 models in all, not 9",
        ),
        (
            f.replace(b"count = 9", b"count = 20"),
            r"models: a faction fields 10 to 20 models in all, not 21",
        ),
        (f.replace(b'id = "frog"', b'id = "elder"'), r"models\[1\].id: 'elder' is listed twice"),
        (
            f.replace(b'id = "elder"', b'id = "frog-1"'),
            r"models: two models would share the id 'frog-1'",
        ),
        (f.replace(b'id = "elder"', b'id = "el der"'), r"models\[0\].id: an id is 1 to 32"),
        (
            f.replace(b'name = "Elder"', b'name = ""'),
            r"models\[0\] \(elder\).name: must not be empty",
        ),
        (f.replace(b'"Pond"', b'"Pond Life"'), r"models\[1\] \(frog\).training: an id is"),
        (
            f.replace(b'["arcane"]', b'["arcane", "arcane"]'),
            r"\(elder\).defense_types\[1\]: 'arcane' is listed twice",
        ),
        (
            f.replace(b'["energy"]', b'["energy", "energy"]'),
            r"weapons\[0\] \(Staff\).effective_vs\[1\]: 'energy' is listed",
        ),
        (
            f.replace(_STAFF, _STAFF.replace(b"knack = 4", b"knack = 1")),
            r"models\[0\] \(elder\).weapons\[0\] \(Staff\).knack: must be from 2 to 6, not 1",
        ),
        (
            f.replace(_STAFF, _STAFF.replace(b"knack = 4", b"knack = 7")),
            r"\(Staff\).knack: must be from 2 to 6, not 7",
        ),
        (
            f.replace(_STAFF, _STAFF.replace(b"attacks = 1", b"attacks = 0")),
            r"\(Staff\).attacks: must be from 1 to 6, not 0",
        ),
        (
            f.replace(_STAFF, _STAFF.replace(b"damage = 2", b"damage = 0")),
            r"\(Staff\).damage: must be from 1 to 6, not 0",
        ),
        (f.replace(b'name = "Tongue"', b'name = " "'), r"weapons\[0\].name: must not be blank"),
        (
            f.replace(_LEAP, b"knack = 7\neffect = { move = 2 }"),
            r"tactics\[0\] \(leap\).knack: must be from 2 to 6",
        ),
        (
            f.replace(_LEAP, b"knack = 3\neffect = {}"),
            r"tactics\[0\] \(leap\).effect: a tactic must do something",
        ),
        (
            f.replace(_LEAP, b"knack = 3\neffect = { ranged_damage = 4 }"),
            r"\(leap\).effect.ranged_damage: must be from 0 to 3",
        ),
        (
            f.replace(_LEAP, b"knack = 3\neffect = { move = 7 }"),
            r"\(leap\).effect.move: must be from 0 to 6",
        ),
        (
            f.replace(_LEAP, b"knack = 3\neffect = { fly = true }"),
            r"tactics\[0\]\.effect\.fly: no such field",
        ),
        (
            f.replace(
                b"[[tactics]]",
                b'[[tactics]]\nid = "leap"\nname = "Hop"\nknack = 3\neffect = { move = 1 }\n\n[[tactics]]',
            ),
            r"tactics\[1\].id: 'leap' is listed twice",
        ),
        (
            re.sub(rb"\[\[tactics\]\][^[]*", b"", f).replace(
                b"\n\n[[models]]", b"\ntactics = []\n\n[[models]]", 1
            ),
            r"tactics: a faction needs a tactic \(W24\)",
        ),
        (
            f.replace(b"roll = 1\n", b"roll = 7\n"),
            r"environment\[5\].roll: must be from 1 to 6, not 7",
        ),
        (f.replace(b"roll = 1\n", b"roll = 6\n"), r"environment\[5\].roll: 6 is listed twice"),
        (f.rsplit(b"[[environment]]", 1)[0], r"environment: the table has 5 entries, not 6"),
        (
            f + b'[[environment]]\nroll = 1\nname = "Again"\npenalty = { lose_ap = 1 }\n',
            r"environment: the table has 7 entries, not 6",
        ),
        (
            f.replace(b"{ sight = 5 }", b"{ sight = 0 }"),
            r"environment\[0\] \(roll 6\).effect.sight: must be from 1 to 40",
        ),
        (
            f.replace(b"move = -1, unless", b"move = -4, unless"),
            r"environment\[1\] \(roll 2\).effect.move: must be from -3 to 3",
        ),
        (
            f.replace(b"move = -1, unless", b"move = 0, unless"),
            r"\(roll 2\).effect.unless_type: spares models from a move change, but move is 0",
        ),
        (
            f.replace(b"melee_knack = 1", b"melee_knack = 3"),
            r"\(roll 3\).effect.melee_knack: must be from -2 to 2",
        ),
        (
            f.replace(b"cover_value = 4", b"cover_value = 11"),
            r"\(roll 4\).effect.cover_value: must be from 0 to 10",
        ),
        (
            f.replace(b"gain_ap = 2", b"gain_ap = 4"),
            r"\(roll 5\).effect.gain_ap: must be from 0 to 3",
        ),
        (
            f.replace(b"damage = 2 }", b"damage = 4 }"),
            r"\(roll 3\).penalty.damage: must be from 0 to 3",
        ),
        (
            f.replace(b"{ opponent_ap = 1 }", b"{ opponent_ap = -1 }"),
            r"\(roll 5\).penalty.opponent_ap: must be from 0 to 3",
        ),
        (
            f.replace(b"{ no_move = true }", b"{ no_move = false }"),
            r"\(roll 2\).penalty: a failed tactic must cost something",
        ),
        (
            f.replace(b'name = "Calm"', b'name = "Ca\\u0007lm"'),
            r"environment\[5\] \(roll 1\).name: holds the control",
        ),
        (
            f.replace(b'name = "Marsh Kin"', b'name = "  "'),
            r"^faction.toml: name: must not be blank",
        ),
        (f.replace(b'id = "marsh-kin"', b'id = "_marsh"'), r"^faction.toml: id: an id is 1 to 32"),
        (
            b'id = "none"\nname = "None"\nmodels = []\ntactics = []\nenvironment = []\n',
            r"models: a faction needs a model type",
        ),
    ]


@pytest.mark.parametrize(("data", "message"), _faction_cases())
def test_a_hostile_faction_is_refused_in_one_line_naming_the_field(
    data: bytes, message: str
) -> None:
    with pytest.raises(DataFileError, match=message) as error:
        decode_faction(data, "faction.toml")
    assert str(error.value).startswith("faction.toml: ")
    assert "\n" not in str(error.value)


def test_weapon_names_are_unique_on_a_model_type() -> None:
    staff = b'name = "Staff"\nkind = "melee"\n' + _STAFF
    twice = _FACTION.replace(staff, staff + b"\n\n[[models.weapons]]\n" + staff, 1)
    with pytest.raises(DataFileError, match=r"models\[0\] \(elder\).weapons\[1\].name: 'Staff'"):
        decode_faction(twice, "faction.toml")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_map(MAP_ROWS[:7]), r"rows: must be from 8 to 40, not 7"),
        (
            _map(tuple(r + "." * 31 for r in MAP_ROWS)),
            r"rows\[0\]: a row is from 8 to 40 squares long, not 41",
        ),
        (
            _map((*MAP_ROWS[:5], "." * 9, *MAP_ROWS[6:])),
            r"rows\[5\]: is 9 squares long, but rows\[0\] is 10",
        ),
        (
            _map((*MAP_ROWS[:5], "....T.....", *MAP_ROWS[6:])),
            r"rows\[5\]: column 4 holds 'T', not a square \(the squares are \. : # O\)",
        ),
        (
            _map(tuple(r.replace("O", ".") for r in MAP_ROWS)),
            r"rows: a map holds 1 to 9 objective markers 'O', not 0",
        ),
        (
            _map(("O" * 10, *MAP_ROWS[1:])),
            r"rows: a map holds 1 to 9 objective markers 'O', not 12",
        ),
        (
            _map((*MAP_ROWS[:2], "O.........", *MAP_ROWS[3:])),
            r"deployment.first: row 2 holds an objective at column 0 \(W19\)",
        ),
        (_map(first="[0, 1, 10]"), r"deployment.first\[2\]: must be from 0 to 9, not 10"),
        (_map(second="[7, 8, 8]"), r"deployment.second\[2\]: 8 is listed twice"),
        (_map(first="[]"), r"deployment.first: a player needs a row to deploy in \(W18\)"),
        (
            _map(first="[0]"),
            r"deployment.first: holds 10 squares, too few for a faction of 20 models",
        ),
        (_map(first="[0, 1, 7]"), r"deployment.second: row 7 is also the first deployer's \(W18\)"),
        (_map(first='"0-2"'), r"deployment\.first: should be a list, not the text '0-2'"),
        (
            _map(mission='id = "capture"\nname = "C"\n'),
            r"mission\.id: 'capture' is not one of collision-point",
        ),
        (
            _mission("objective_radius = 9"),
            r"mission.objective_radius: must be from 0 to 8, not 9",
        ),
        (
            _mission("scoring_rounds = []"),
            r"mission.scoring_rounds: objectives must score",
        ),
        (
            _mission("scoring_rounds = [5, 6]"),
            r"mission.scoring_rounds\[1\]: must be from 1 to 5, not 6",
        ),
        (
            _mission("scoring_rounds = [2, 2]"),
            r"mission.scoring_rounds\[1\]: 2 is listed twice",
        ),
        (
            _mission("objective_vp = 6"),
            r"mission.objective_vp: must be from 0 to 5, not 6",
        ),
        (
            _mission("fallen_leader_vp = -1"),
            r"mission.fallen_leader_vp: must be from 0 to 5",
        ),
        (
            _mission('tie_breaks = ["coin"]'),
            r"mission\.tie_breaks\[0\]: 'coin' is not one of models_on_board",
        ),
        (
            _mission('tie_breaks = ["models_on_board", "models_on_board"]'),
            r"mission.tie_breaks\[1\]: 'models_on_board' is listed twice",
        ),
        (_map(mission='id = "collision-point"\nname = ""\n'), r"mission.name: must not be empty"),
        (
            _mission("rounds = 6"),
            r"mission\.rounds: no such field \(did you mean 'scoring_rounds'\?\)",
        ),
        (b'id = "m"\nname = "M"\nrows = ["........"]\n', r"deployment: missing \(and 1 more\)"),
        (
            b'id = "m m"\nname = "M"\nrows = []\n[deployment]\nfirst = []\nsecond = []\n[mission]\nid = "collision-point"\nname = "C"\n',
            r"id: an id is 1 to 32",
        ),
    ],
)
def test_a_hostile_map_is_refused_in_one_line_naming_the_field(data: bytes, message: str) -> None:
    with pytest.raises(DataFileError, match=message) as error:
        decode_map(data, "maps/m.toml")
    assert str(error.value).startswith("maps/m.toml: ")
    assert "\n" not in str(error.value)


def test_a_map_error_claims_the_map_s_id() -> None:
    with pytest.raises(DataFileError) as error:
        decode_map(_map(MAP_ROWS[:7]), "m.toml")
    assert error.value.claimed == "pond"


# --- factions and maps from other packages ---------------------------------------------------

_PACKAGE = """
from pathlib import Path

from msgspec.structs import replace

from multiversus_core.rulesets.worlds_collide.content import load_faction

HERE = Path(__file__).parent


def factions():
    kin = load_faction(HERE / "marsh-kin.toml")
    return [HERE / "marsh-kin.toml", replace(kin, id="marsh-kin-2", name="Marsh Kin II")]


def lonely():
    kin = load_faction(HERE / "marsh-kin.toml")
    return [replace(kin, id="lonely", tactics=())]


def maps():
    return [str(HERE / "pond.toml")]


def broken_maps():
    return [HERE / "ragged.toml"]
"""


@pytest.fixture
def fresh() -> Iterator[None]:
    forget_installed()
    yield
    forget_installed()


def test_factions_and_maps_from_an_installed_package_are_found_by_id(
    tmp_path: Path, fresh: None
) -> None:
    (tmp_path / "marsh-kin.toml").write_text(FACTION)
    (tmp_path / "pond.toml").write_text(MAP)
    (tmp_path / "ragged.toml").write_bytes(_map((*MAP_ROWS[:5], "." * 9, *MAP_ROWS[6:])))
    points = {
        FACTION_GROUP: {"kin": "wc_extra:factions", "lonely": "wc_extra:lonely"},
        MAP_GROUP: {"pond": "wc_extra:maps", "ragged": "wc_extra:broken_maps"},
    }
    with installed(tmp_path, "wc-extra", points, {"wc_extra": textwrap.dedent(_PACKAGE)}):
        kin, kin2 = find_faction("marsh-kin"), find_faction("marsh-kin-2")
        assert kin is not None and kin2 is not None
        assert kin2.name == "Marsh Kin II" and kin2.models == kin.models
        assert [f.id for f in installed_factions()] == [
            "iron-legion",
            "wyldfae",
            "marsh-kin",
            "marsh-kin-2",
        ]
        (lonely,) = invalid_factions()
        assert str(lonely) == (
            "entry point 'lonely' (wc_extra:lonely), faction 0 (lonely): "
            "tactics: a faction needs a tactic (W24)"
        )
        assert lonely.claimed == "lonely"
        pond = find_map("pond")
        assert pond is not None and pond.objectives == ((6, 3), (3, 6))
        assert [m.id for m in installed_maps()] == ["collision-point", "pond"]
        (ragged,) = invalid_maps()
        assert str(ragged) == (
            f"{tmp_path / 'ragged.toml'}: rows[5]: is 9 squares long, but rows[0] is 10"
        )
    forget_installed()
    assert find_faction("marsh-kin") is None and invalid_factions() == ()
    assert find_map("pond") is None
