"""worlds-collide content: factions and maps with their mission, read from data files.

Rulings W23 (factions and their models), W24 (tactics), W25 (environment
tables), W26 (the bundled map), W18 (deployment rows) and W19 (the mission
"Collision Point"). Factions and maps are TOML files decoded by msgspec into
the structs below, then checked by :func:`validate_faction` and
:func:`validate_map`; every problem is a one-line
:class:`~multiversus_core.engine.errors.DataFileError` naming the file and the
field. A file may come from anyone, so everything in it is bounded
(:data:`LIMITS`, :data:`MAX_BYTES`, :data:`MAX_DEPTH`, and the id and name
rules of :mod:`multiversus_core.engine.datafile`).

Tactics and environment entries say what they do in a small fixed vocabulary
(:class:`TacticEffect`, :class:`RoundEffect`, :class:`Penalty`): each field is
a number or a flag the rules apply the same way whatever the faction, so a new
faction needs no code.

The installed factions and maps are the bundled ones, then those other
packages offer through the entry point groups :data:`FACTION_GROUP` and
:data:`MAP_GROUP` (see :class:`~multiversus_core.engine.catalog.Catalog`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.catalog import Catalog, Provider
from multiversus_core.engine.datafile import (
    MAX_TEXT,
    Fail,
    check_id,
    check_name,
    check_once,
    check_range,
    failing,
    numbered,
)
from multiversus_core.engine.grid import Coord, Grid

DefenseType: TypeAlias = Literal["physical", "energy", "arcane"]
"""The defense types (W23): Physical, Energy, Arcane; a model may have none of them."""
WeaponKind: TypeAlias = Literal["melee", "ranged"]
"""A weapon's kind (W14): melee at an adjacent enemy, ranged at an enemy in sight."""
TieBreak: TypeAlias = Literal["models_on_board"]
"""A tie-break of W19, applied when the VP are equal: the player with more models on the
board wins."""

SQUARES: Final = ".:#O"
"""The legend (W2): ground, low wall, ruin (one level high), objective marker on ground."""
RUIN: Final = "#"
"""The ruin (W2): one level high, blocks sight through it (W3); climbable at +2 a step."""
LOW_WALL: Final = ":"
"""The low wall (W2, W4): ground height; a line of sight over it gives cover."""
OBJECTIVE: Final = "O"
"""An objective marker (W2, W19), on ground."""
ROUNDS: Final = 5
"""A game is played in 5 rounds (the text); a mission scores at the end of some of them."""
ROLLS: Final = range(1, 7)
"""An environment table's rolls (W5, W25): one entry for each face of a d6."""

_PACKAGE: Final = "multiversus_core.rulesets.worlds_collide"
FACTION_GROUP: Final = "multiversus.worlds_collide.factions"
"""The entry point group other packages use to offer factions."""
MAP_GROUP: Final = "multiversus.worlds_collide.maps"
"""The entry point group other packages use to offer maps."""

MAX_BYTES: Final = 64 * 1024
"""The largest faction or map file read, in bytes (a bundled faction takes under 5 KiB)."""
MAX_DEPTH: Final = 6
"""The deepest nesting of tables and arrays a file may use (a faction needs 6: the file,
``models``, a model type, its ``weapons``, a weapon, its ``effective_vs``)."""

LIMITS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        # a faction
        "model_types": (1, 10),
        "models": (10, 20),
        "count": (1, 20),
        "move": (1, 12),
        "hp": (1, 20),
        "defense": (0, 6),
        "leadership": (0, 5),
        "weapons": (0, 4),
        "attacks": (1, 6),
        "knack": (2, 6),
        "damage": (1, 6),
        "tactics": (1, 6),
        "tactic_bonus": (0, 3),
        "tactic_move": (0, 6),
        # an environment entry
        "sight": (1, 40),
        "move_delta": (-3, 3),
        "knack_delta": (-2, 2),
        "cover_value": (0, 10),
        "ap": (0, 3),
        "penalty_damage": (0, 3),
        # a map and its mission
        "width": (8, 40),
        "height": (8, 40),
        "objectives": (1, 9),
        "objective_radius": (0, 8),
        "vp": (0, 5),
    }
)
"""The range (least, most) of every number in a faction or map.

A faction fields ``models`` in all (10 to 20: "10 to 20 models per player"), of 1 to
``model_types``, ``count`` of each; a model type's ``move``, ``hp``, ``defense``,
``leadership`` and ``weapons``; a weapon's ``attacks``, ``knack`` (2 to 6, as the text
defines a knack) and ``damage``; 1 to ``tactics`` a faction, each with bonuses of
``tactic_bonus`` (damage, attacks) and ``tactic_move``; an environment entry's ``sight``
limit, ``move_delta``, ``knack_delta``, ``cover_value``, ``ap`` gained or lost and
``penalty_damage``; a map's ``width`` and ``height`` in squares, its ``objectives``, and its
mission's ``objective_radius`` and each ``vp`` award."""


# --- a faction ---------------------------------------------------------------------------


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A weapon on a model type's stat block (W23): "Rifle R 1xk4 d2 vs Arcane"."""

    name: str
    """The weapon's name as printed, unique on its model type ("Rifle")."""
    kind: WeaponKind
    """Melee or ranged (W14); ranged weapons of a model adjacent to an enemy hit only on an
    unmodified 6 (W15)."""
    attacks: int
    """Attacks with it in one activation (W14)."""
    knack: int
    """The d6 score an attack must meet or beat (W15), 2 to 6."""
    damage: int
    """Damage of a hit, before doubling and defense (W17, W30)."""
    effective_vs: tuple[DefenseType, ...] = ()
    """The defense types it is effective against: damage doubles when these hold every type
    of the target, and always against a target with none (W17)."""

    def is_effective_against(self, defense_types: Iterable[DefenseType]) -> bool:
        """True if a hit's damage doubles against a target of these defense types (W17)."""
        return all(kind in self.effective_vs for kind in defense_types)


class ModelType(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A model type of a faction and how many the faction fields (W23): "Commander x1: 4, 6, 1
    [Physical], Command, L2"."""

    id: str
    """Short id, unique in the faction, used in logs ("commander")."""
    name: str
    """The type's name as printed ("Commander")."""
    move: int
    """Squares of movement in one move (W2, W12)."""
    hp: int
    """Hit points; at 0 the model is removed (W17)."""
    defense: int
    """Defense value, subtracted from a hit's damage (W17)."""
    defense_types: tuple[DefenseType, ...]
    """Defense types, none to all three (W17: "None is also valid")."""
    training: str
    """The training tag (W10): models of one training may form a formation; an id-like tag
    compared exactly ("Line")."""
    leadership: int = 0
    """AP the model adds each round while on the board (W6); 1 or more makes it a leader
    (W28)."""
    weapons: tuple[Weapon, ...] = ()
    count: int = 1
    """How many models of this type the faction fields."""

    @property
    def is_leader(self) -> bool:
        """True if the model is a leader: leadership 1 or more (W28)."""
        return self.leadership > 0


class FieldedModel(msgspec.Struct, frozen=True):
    """One model a faction fields: its own id and name, and its type."""

    id: str
    """The type's id, or ``<type>-<n>`` from 1 when the faction fields several ("sprite-2")."""
    name: str
    """The type's name, or ``<name> <n>`` when the faction fields several ("Sprite 2")."""
    model_type: ModelType


class TacticEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a tactic gives the activated models until the end of the activation (W11, W24).

    Every field is a bonus added to what the models have (0 or False: none).
    """

    ranged_damage: int = 0
    """Added to each ranged hit's damage after doubling, before defense (W30: Volley)."""
    melee_damage: int = 0
    """Added to each melee hit's damage after doubling, before defense (W30)."""
    ranged_attacks: int = 0
    """Added to each ranged weapon's attacks (W14)."""
    melee_attacks: int = 0
    """Added to each melee weapon's attacks (W24: Wild Hunt)."""
    move: int = 0
    """Added to each model's Move (W24: Forced March), before a double move doubles it
    (W12)."""
    through_enemies: bool = False
    """The models may move through enemy models (W24: Glamour; W2 forbids it otherwise); they
    still end on an empty square."""


class Tactic(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A faction's tactic (W11, W24): "Volley (knack 4) ranged weapons +1 damage"."""

    id: str
    """Short id, unique in the faction, used in commands and logs ("volley")."""
    name: str
    """The tactic's name as printed ("Volley")."""
    knack: int
    """The d6 score the tactic check must meet or beat (W11), 2 to 6; environment knack
    modifiers never apply to it (W36)."""
    effect: TacticEffect
    """What success gives (W11)."""


class RoundEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An environment entry's active effect: it holds for both players the whole round (W5,
    W25). The defaults change nothing ("none")."""

    sight: int | None = None
    """No line of sight is longer than this many squares (W3); distance ``sight`` itself is
    in sight (W38) (Smog 6, Twilight 8, Mist 4)."""
    move: int = 0
    """Added to every model's Move (Mud −1), before a double move doubles it (W12)."""
    unless_type: DefenseType | None = None
    """Models with this defense type among theirs are spared :attr:`move` (W39: Overgrowth's
    "unless Arcane"). Only with a :attr:`move`."""
    ranged_knack: int = 0
    """Added to the knack of every ranged attack (Gale +1: harder), never to a tactic check
    (W36)."""
    melee_knack: int = 0
    """Added to the knack of every melee attack (Ley Surge −1: easier), never to a tactic
    check (W36)."""
    cover_value: int | None = None
    """The defense value cover gives instead of 3, still with the Physical type (W4; Barrage:
    [Physical 5])."""
    gain_ap: int = 0
    """AP the table's own faction gains at once when the entry is rolled (Supply Drop,
    Moonrise)."""


class Penalty(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An environment entry's penalty for a failed tactic check: it applies to the activation
    whose check failed, whichever player's it is (W11, W25)."""

    lose_ap: int = 0
    """AP the failing player loses, none below 0 (W21)."""
    opponent_ap: int = 0
    """AP the failing player's opponent gains, always (W21)."""
    no_attack: bool = False
    """The activated models cannot attack this activation; they may still move, twice
    (W34)."""
    no_move: bool = False
    """The activated models cannot move this activation; they may still attack (W34)."""
    damage: int = 0
    """Damage each activated model takes at once, not reduced by defense (W25: Barrage, Ley
    Surge; W35)."""


class EnvironmentEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of a faction's environment table (W5, W25): "3 Mud: Move −1 / cannot move"."""

    roll: int
    """The d6 roll that selects it, 1 to 6, each once in a table."""
    name: str
    """The entry's name as printed ("Mud")."""
    penalty: Penalty
    """What a failed tactic check costs this round."""
    effect: RoundEffect = RoundEffect()
    """What holds for the whole round (the defaults: none)."""


class Faction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A faction page (W23, W24, W25): its model types, tactics and environment table; open to
    both players (W20)."""

    id: str
    name: str
    models: tuple[ModelType, ...]
    """The model types, each with how many the faction fields (10 to 20 in all)."""
    tactics: tuple[Tactic, ...]
    environment: tuple[EnvironmentEntry, ...]
    """The environment table: six entries, one for each roll 1 to 6, in any order."""
    description: str = ""

    def fielded(self) -> tuple[FieldedModel, ...]:
        """Return the models the faction fields, in file order, each with its own id."""
        return tuple(
            FieldedModel(model_id, name, model)
            for model in self.models
            for model_id, name in numbered(model.id, model.name, model.count)
        )

    def entry(self, roll: int) -> EnvironmentEntry:
        """Return the environment entry a d6 roll selects (W5).

        :raises ValueError: if no entry has this roll (a roll is 1 to 6).
        """
        for entry in self.environment:
            if entry.roll == roll:
                return entry
        raise ValueError(f"{self.name}'s environment table has no roll {roll}")

    def tactic(self, tactic_id: str) -> Tactic:
        """Return the tactic with this id (W11).

        :raises ValueError: if the faction has no such tactic.
        """
        for tactic in self.tactics:
            if tactic.id == tactic_id:
                return tactic
        raise ValueError(f"{self.name} has no tactic {tactic_id!r}")


# --- a map and its mission ---------------------------------------------------------------


class Deployment(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The rows each player deploys in (W18): the roll-off winner places first."""

    first: tuple[int, ...]
    """The first deployer's rows (W18: 0, 1, 2)."""
    second: tuple[int, ...]
    """The second deployer's rows (W18: 14, 15, 16)."""


class Mission(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How a game on the map is won (W19), with the parameters of its scoring.

    The id names the scoring the rules apply; the numbers tune it.
    """

    id: Literal["collision-point"]
    """The mission: "collision-point" (W19), the one the rules know."""
    name: str
    """The mission's name as printed ("Collision Point")."""
    objective_radius: int = 2
    """A model within this distance of an objective marker counts for it (W19: 2)."""
    scoring_rounds: tuple[int, ...] = (2, 3, 4, 5)
    """At the end of these rounds each objective scores (W19: rounds 2 to 5)."""
    objective_vp: int = 1
    """VP an objective scores for the player with more models near it (W19: 1)."""
    fallen_leader_vp: int = 1
    """VP for each enemy leader fallen, at the end of the last round (W19: 1; W28)."""
    tie_breaks: tuple[TieBreak, ...] = ("models_on_board",)
    """With equal VP, these decide in order; if all are equal, a draw (W19)."""


class GameMap(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A board of squares (W1, W2): one string of legend characters per row, top row first,
    with its deployment rows (W18) and its mission (W19).

    Coordinates are (column, row) from 0 at the top left (W27).
    """

    id: str
    name: str
    rows: tuple[str, ...]
    """The rows, top first; each character is a square of :data:`SQUARES`."""
    deployment: Deployment
    mission: Mission
    description: str = ""

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.rows)

    @property
    def grid(self) -> Grid:
        """The map's square grid (W1)."""
        return Grid(self.width, self.height)

    def square(self, at: Coord) -> str:
        """Return the legend character of the square at ``(column, row)``.

        :raises IndexError: if the square is not on the map.
        """
        column, row = at
        if not (0 <= column < self.width and 0 <= row < self.height):
            raise IndexError(f"{at} is not on the {self.width}x{self.height} map")
        return self.rows[row][column]

    def level(self, at: Coord) -> int:
        """Return the square's level: 1 on a ruin, else 0 (W2: a step that changes it costs
        2 more)."""
        return 1 if self.square(at) == RUIN else 0

    def blocks_sight(self, at: Coord) -> bool:
        """True if the square blocks sight through it: a ruin (W3)."""
        return self.square(at) == RUIN

    def gives_cover(self, at: Coord) -> bool:
        """True if a line of sight through the square (or ending on it) gives cover: a low
        wall (W4, W31; models give it too, which is the caller's to see)."""
        return self.square(at) == LOW_WALL

    @property
    def objectives(self) -> tuple[Coord, ...]:
        """The objective markers (W19), row by row from the top, each row left to right."""
        return tuple(at for at in self.grid.tiles() if self.square(at) == OBJECTIVE)

    def deployment_zone(self, first: bool) -> tuple[Coord, ...]:
        """The squares the first (or the second) deployer may place models on (W18), row by
        row in the file's order."""
        rows = self.deployment.first if first else self.deployment.second
        return tuple((column, row) for row in rows for column in range(self.width))


# --- validation --------------------------------------------------------------------------


def _check(value: int, limit: str, field: str, fail: Fail, below: str = "") -> None:
    check_range(value, *LIMITS[limit], field, fail, below)


def validate_faction(faction: Faction, source: str) -> None:
    """Check the rules a well-typed faction must still follow: ids, names, :data:`LIMITS`, an
    environment table of one entry for each roll 1 to 6, and effects that do something.

    :raises DataFileError: naming the source and the field at fault.
    """
    fail = failing(source, faction.id)
    check_id(faction.id, "id", fail)
    check_name(faction.name, "name", fail)
    check_name(faction.description, "description", fail, longest=MAX_TEXT, empty=True)
    _check(len(faction.models), "model_types", "models", fail, "a faction needs a model type")
    check_once([m.id for m in faction.models], "models", fail, "id")
    for i, model in enumerate(faction.models):
        _validate_model(model, f"models[{i}]", fail)
    least, most = LIMITS["models"]
    total = sum(model.count for model in faction.models)
    if not least <= total <= most:
        fail("models", f"a faction fields {least} to {most} models in all, not {total}")
    ids = [model.id for model in faction.fielded()]
    twice = next((m for i, m in enumerate(ids) if m in ids[:i]), None)
    if twice is not None:
        fail("models", f"two models would share the id {twice!r} (a model type's id clashes)")
    _check(len(faction.tactics), "tactics", "tactics", fail, "a faction needs a tactic (W24)")
    check_once([t.id for t in faction.tactics], "tactics", fail, "id")
    for i, tactic in enumerate(faction.tactics):
        check_id(tactic.id, f"tactics[{i}].id", fail)
        where = f"tactics[{i}] ({tactic.id})"
        check_name(tactic.name, f"{where}.name", fail)
        _check(tactic.knack, "knack", f"{where}.knack", fail)
        _validate_tactic_effect(tactic.effect, f"{where}.effect", fail)
    if len(faction.environment) != len(ROLLS):
        fail(
            "environment",
            f"the table has {len(faction.environment)} entries, not 6: one for each roll 1 to 6",
        )
    check_once([e.roll for e in faction.environment], "environment", fail, "roll")
    for i, entry in enumerate(faction.environment):
        check_range(entry.roll, ROLLS[0], ROLLS[-1], f"environment[{i}].roll", fail)
        where = f"environment[{i}] (roll {entry.roll})"
        check_name(entry.name, f"{where}.name", fail)
        _validate_round_effect(entry.effect, f"{where}.effect", fail)
        _validate_penalty(entry.penalty, f"{where}.penalty", fail)


def _validate_model(model: ModelType, where: str, fail: Fail) -> None:
    check_id(model.id, f"{where}.id", fail)
    where = f"{where} ({model.id})"
    check_name(model.name, f"{where}.name", fail)
    for field in ("move", "hp", "defense", "leadership", "count"):
        _check(getattr(model, field), field, f"{where}.{field}", fail)
    check_once(model.defense_types, f"{where}.defense_types", fail)
    check_id(model.training, f"{where}.training", fail)
    _check(len(model.weapons), "weapons", f"{where}.weapons", fail)
    check_once([w.name for w in model.weapons], f"{where}.weapons", fail, "name")
    for j, weapon in enumerate(model.weapons):
        at = f"{where}.weapons[{j}]"
        check_name(weapon.name, f"{at}.name", fail)
        at = f"{at} ({weapon.name})"
        for field in ("attacks", "knack", "damage"):
            _check(getattr(weapon, field), field, f"{at}.{field}", fail)
        check_once(weapon.effective_vs, f"{at}.effective_vs", fail)


def _validate_tactic_effect(effect: TacticEffect, where: str, fail: Fail) -> None:
    for field in ("ranged_damage", "melee_damage", "ranged_attacks", "melee_attacks"):
        _check(getattr(effect, field), "tactic_bonus", f"{where}.{field}", fail)
    _check(effect.move, "tactic_move", f"{where}.move", fail)
    if effect == TacticEffect():
        fail(where, "a tactic must do something: give it a bonus (W24)")


def _validate_round_effect(effect: RoundEffect, where: str, fail: Fail) -> None:
    if effect.sight is not None:
        _check(effect.sight, "sight", f"{where}.sight", fail)
    _check(effect.move, "move_delta", f"{where}.move", fail)
    if effect.unless_type is not None and effect.move == 0:
        fail(f"{where}.unless_type", "spares models from a move change, but move is 0 (W39)")
    _check(effect.ranged_knack, "knack_delta", f"{where}.ranged_knack", fail)
    _check(effect.melee_knack, "knack_delta", f"{where}.melee_knack", fail)
    if effect.cover_value is not None:
        _check(effect.cover_value, "cover_value", f"{where}.cover_value", fail)
    _check(effect.gain_ap, "ap", f"{where}.gain_ap", fail)


def _validate_penalty(penalty: Penalty, where: str, fail: Fail) -> None:
    _check(penalty.lose_ap, "ap", f"{where}.lose_ap", fail)
    _check(penalty.opponent_ap, "ap", f"{where}.opponent_ap", fail)
    _check(penalty.damage, "penalty_damage", f"{where}.damage", fail)
    if penalty == Penalty():
        fail(where, "a failed tactic must cost something: give the penalty a value (W25)")


def validate_map(game_map: GameMap, source: str) -> None:
    """Check the rules a well-typed map must still follow.

    Its size is within :data:`LIMITS`, every row is as long and holds only
    :data:`SQUARES`; each deployment zone is rows of the map, the two share no
    row, hold no objective, and each has a square for every model a faction may
    field; the mission's numbers are in range. Every square can be entered (a
    ruin by climbing, W2) and no orthogonal step is ever barred (W37), so every
    square is reachable from every other and there is nothing to check there.

    :raises DataFileError: naming the source and the field at fault.
    """
    fail = failing(source, game_map.id)
    check_id(game_map.id, "id", fail)
    check_name(game_map.name, "name", fail)
    check_name(game_map.description, "description", fail, longest=MAX_TEXT, empty=True)
    _check(game_map.height, "height", "rows", fail)
    least, most = LIMITS["width"]
    width = game_map.width
    if not least <= width <= most:
        fail("rows[0]", f"a row is from {least} to {most} squares long, not {width}")
    for r, row in enumerate(game_map.rows):
        if len(row) != width:
            fail(f"rows[{r}]", f"is {len(row)} squares long, but rows[0] is {width}")
        for c, square in enumerate(row):
            if square not in SQUARES:
                fail(
                    f"rows[{r}]",
                    f"column {c} holds {square!r}, not a square "
                    f"(the squares are {' '.join(SQUARES)})",
                )
    least, most = LIMITS["objectives"]
    if not least <= len(game_map.objectives) <= most:
        fail(
            "rows",
            f"a map holds {least} to {most} objective markers 'O', not {len(game_map.objectives)}",
        )
    _validate_deployment(game_map, fail)
    _validate_mission(game_map.mission, fail)


def _validate_deployment(game_map: GameMap, fail: Fail) -> None:
    deployment = game_map.deployment
    needed = LIMITS["models"][1]
    objectives = set(game_map.objectives)
    for which, rows in (("first", deployment.first), ("second", deployment.second)):
        field = f"deployment.{which}"
        if not rows:
            fail(field, "a player needs a row to deploy in (W18)")
        check_once(rows, field, fail)
        for i, row in enumerate(rows):
            check_range(row, 0, game_map.height - 1, f"{field}[{i}]", fail)
        zone = game_map.deployment_zone(which == "first")
        if len(zone) < needed:
            fail(field, f"holds {len(zone)} squares, too few for a faction of {needed} models")
        held = next((at for at in zone if at in objectives), None)
        if held is not None:
            fail(field, f"row {held[1]} holds an objective at column {held[0]} (W19)")
    shared = sorted(set(deployment.first) & set(deployment.second))
    if shared:
        fail("deployment.second", f"row {shared[0]} is also the first deployer's (W18)")


def _validate_mission(mission: Mission, fail: Fail) -> None:
    check_name(mission.name, "mission.name", fail)
    _check(mission.objective_radius, "objective_radius", "mission.objective_radius", fail)
    if not mission.scoring_rounds:
        fail("mission.scoring_rounds", "objectives must score in at least one round (W19)")
    check_once(mission.scoring_rounds, "mission.scoring_rounds", fail)
    for i, rnd in enumerate(mission.scoring_rounds):
        check_range(rnd, 1, ROUNDS, f"mission.scoring_rounds[{i}]", fail)
    _check(mission.objective_vp, "vp", "mission.objective_vp", fail)
    _check(mission.fallen_leader_vp, "vp", "mission.fallen_leader_vp", fail)
    check_once(mission.tie_breaks, "mission.tie_breaks", fail)


# --- the installed factions and maps -----------------------------------------------------

FACTIONS: Final = Catalog(
    _PACKAGE,
    "faction",
    FACTION_GROUP,
    Faction,
    validate_faction,
    max_bytes=MAX_BYTES,
    max_depth=MAX_DEPTH,
)
"""The installed factions: the bundled ``data/factions/``, then those :data:`FACTION_GROUP`
offers."""
MAPS: Final = Catalog(
    _PACKAGE, "map", MAP_GROUP, GameMap, validate_map, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH
)
"""The installed maps: the bundled ``data/maps/``, then those :data:`MAP_GROUP` offers."""

FactionProvider: TypeAlias = Provider[Faction]
"""What a :data:`FACTION_GROUP` entry point loads to: a callable returning factions or paths of
TOML faction files."""
MapProvider: TypeAlias = Provider[GameMap]
"""What a :data:`MAP_GROUP` entry point loads to: a callable returning maps or paths of TOML
map files."""


decode_faction: Final = FACTIONS.decode
"""Decode and validate a TOML faction; raises :class:`DataFileError` naming the source and the
field at fault."""
load_faction: Final = FACTIONS.load
"""Read a faction file (at most :data:`MAX_BYTES` of it); raises :class:`DataFileError` if it
cannot be read or is not a valid faction."""
bundled_factions: Final = FACTIONS.bundled
"""Return the factions that ship with the library (W23), by file name."""
installed_factions: Final = FACTIONS.installed
"""Return the bundled factions, then the valid factions of the :data:`FACTION_GROUP` entry points
by id (read once; :func:`forget_installed` reads them again)."""
invalid_factions: Final = FACTIONS.invalid
"""Return why each faction the entry points offer was left out of :func:`installed_factions`:
each error names its source and, when it could be read that far, the id it claims."""
find_faction: Final = FACTIONS.find
"""Return the installed faction with this id, or None (entry points are read only for an id no
bundled faction has)."""
decode_map: Final = MAPS.decode
"""Decode and validate a TOML map; raises :class:`DataFileError` naming the source and the
field at fault."""
load_map: Final = MAPS.load
"""Read a map file (at most :data:`MAX_BYTES` of it); raises :class:`DataFileError` if it
cannot be read or is not a valid map."""
bundled_maps: Final = MAPS.bundled
"""Return the maps that ship with the library (W26), by file name."""
installed_maps: Final = MAPS.installed
"""Return the bundled maps, then the valid maps of the :data:`MAP_GROUP` entry points by id
(read once; :func:`forget_installed` reads them again)."""
invalid_maps: Final = MAPS.invalid
"""Return why each map the entry points offer was left out of :func:`installed_maps`."""
find_map: Final = MAPS.find
"""Return the installed map with this id, or None (entry points are read only for an id no
bundled map has)."""


def forget_installed() -> None:
    """Forget what the entry points offered, so that the next question reads them again (after
    a package is installed during a session)."""
    FACTIONS.forget()
    MAPS.forget()
