"""What a tiles-d6 log records: the settings, the commands and the events, and the state.

Everything is open (T28): no command or event is ever hidden, so a viewer's
view is the state without its chance seed. Every die is a chance point: a
command may supply the faces rolled at the table (``dice``); otherwise they
are drawn from the match's chance in the order the rules roll them.
Coordinates are (column, row) from 0 at the top left (T31).
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.chance import Chance, Seed
from multiversus_core.engine.commit import SaltSource
from multiversus_core.engine.ruleset import Seat

ROUNDS: Final = 8
"""A match lasts at most 8 rounds (T3)."""
SEATS: Final = (1, 2)

Coord: TypeAlias = tuple[int, int]
"""A tile: (column, row) from 0 at the top left (T31)."""
Half: TypeAlias = Literal["north", "south"]
Trait: TypeAlias = Literal["flying", "large", "small"]
Die: TypeAlias = int
"""A d6's face, 1 to 6."""


class _Struct(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    pass


class TilesSettings(_Struct, frozen=True):
    """The players, the map and each seat's roster (both open to both: T27), and the chance."""

    players: tuple[str, str] = ("Player 1", "Player 2")
    map: str = "crossing"
    rosters: tuple[str, str] = ("keep-guard", "marsh-raiders")
    """Seat 1's roster, then seat 2's."""
    seed: Seed = 0
    """The public chance seed; 0 when chance is secret."""
    salts: SaltSource = "seed"
    """Where commitment salts come from: the game commits to nothing (T28), but the engine
    asks every game."""
    chance: str = ""
    """The commitment to a secret chance seed; empty when ``seed`` is public."""


# --- commands -------------------------------------------------------------------------------


class _Command(_Struct, frozen=True, tag_field="kind"):
    player: Seat
    """The seat giving the command."""


class RollOff(_Command, frozen=True, tag="roll_off"):
    """Both players roll a die for who goes first (T1); ``dice`` are seat 1's and seat 2's
    faces when rolled at the table."""

    dice: tuple[Die, Die] | None = None


class ChooseHalf(_Command, frozen=True, tag="choose_half"):
    """Player one chooses the half of the board it deploys in (T27)."""

    half: Half


class Place(_Command, frozen=True, tag="place"):
    """Place the next unit of the roster that is not on the board yet (T27)."""

    at: Coord


class StartMove(_Command, frozen=True, tag="start_move"):
    """A unit begins a Move (T10): steps follow, one command each."""

    unit: str


class StartCharge(_Command, frozen=True, tag="start_charge"):
    """A unit begins a Charge (T14): a Move with one point fewer and one attack at -1."""

    unit: str


class StandUp(_Command, frozen=True, tag="stand_up"):
    """The moving unit stands up from prone, for 1 point, before its first step (T10)."""


class StepTo(_Command, frozen=True, tag="step_to"):
    """The moving unit steps to a neighbouring tile (T5, T10); ``dice`` are the brambles and
    withdraw rolls, in that order, when rolled at the table (T11, T19, T35)."""

    to: Coord
    dice: tuple[Die, ...] | None = None


class Attack(_Command, frozen=True, tag="attack"):
    """A melee attack on an adjacent enemy (T22-T25): the unit's whole action, or the one
    attack of a Charge (``unit`` is then the charging unit)."""

    unit: str
    target: str
    die: Die | None = None


class Fire(_Command, frozen=True, tag="fire"):
    """A ranged attack on an enemy in sight, at any distance (T26)."""

    unit: str
    target: str
    die: Die | None = None


class EndAction(_Command, frozen=True, tag="end_action"):
    """The moving or charging unit stops: its action is over (T40)."""


class EndTurn(_Command, frozen=True, tag="end_turn"):
    """The player ends its turn (T2); ``dice`` are the concussion rolls of its concussed units,
    in roster order, when rolled at the table (T15)."""

    dice: tuple[Die, ...] | None = None


Command: TypeAlias = (
    RollOff
    | ChooseHalf
    | Place
    | StartMove
    | StartCharge
    | StandUp
    | StepTo
    | Attack
    | Fire
    | EndAction
    | EndTurn
)


# --- events ---------------------------------------------------------------------------------


class _Event(_Struct, frozen=True, tag_field="kind"):
    pass


class RollOffRolled(_Event, frozen=True, tag="roll_off_rolled"):
    """Both players rolled; a tie is rolled again (T1)."""

    dice: tuple[Die, Die]


class FirstPlayerChosen(_Event, frozen=True, tag="first_player_chosen"):
    """The higher roll makes this seat player one (T1)."""

    seat: Seat


class HalfChosen(_Event, frozen=True, tag="half_chosen"):
    """Player one deploys in this half; player two in the other (T27)."""

    seat: Seat
    half: Half


class UnitPlaced(_Event, frozen=True, tag="unit_placed"):
    """A unit was set up on a tile (T27)."""

    unit: str
    at: Coord


class RoundStarted(_Event, frozen=True, tag="round_started"):
    round: int


class TurnStarted(_Event, frozen=True, tag="turn_started"):
    seat: Seat


class ActionStarted(_Event, frozen=True, tag="action_started"):
    """A unit began its one action of the turn (T2)."""

    unit: str
    action: Literal["move", "charge", "attack", "fire"]
    points: int = 0
    """The move points of a Move or Charge (T10, T14)."""


class StoodUp(_Event, frozen=True, tag="stood_up"):
    """The moving unit stood up from prone for 1 point (T10)."""

    unit: str


class BramblesRolled(_Event, frozen=True, tag="brambles_rolled"):
    """Leaving brambles: a 1 falls (T11)."""

    unit: str
    die: Die
    fell: bool


class WithdrawRolled(_Event, frozen=True, tag="withdraw_rolled"):
    """Leaving a tile adjacent to an enemy: die, -1 to an adjacent tile, +1 Flying; 3 or less
    falls (T19)."""

    unit: str
    die: Die
    total: int
    fell: bool


class Stepped(_Event, frozen=True, tag="stepped"):
    """The unit entered a neighbouring tile for ``cost`` points (T10)."""

    unit: str
    to: Coord
    cost: int
    fell: bool = False
    """It fell into the tile: it is prone and its action ends (T13)."""


class Attacked(_Event, frozen=True, tag="attacked"):
    """A melee attack (T22, T23): the die, the total and what came of it."""

    unit: str
    target: str
    die: Die
    total: int
    result: Literal["hit", "miss", "backfire"]
    charge: bool = False


class Fired(_Event, frozen=True, tag="fired"):
    """A ranged attack (T26): the die, the total and whether it hit."""

    unit: str
    target: str
    die: Die
    total: int
    hit: bool


class Damaged(_Event, frozen=True, tag="damaged"):
    """A unit lost health (T24, T25, T26); at 0 or less it is Injured (T17)."""

    unit: str
    damage: int
    health: int


class KnockedDown(_Event, frozen=True, tag="knocked_down"):
    """The unit is now prone (T24)."""

    unit: str


class StunnedEvent(_Event, frozen=True, tag="stunned"):
    """The unit cannot act in its owner's next turn (T15, T24)."""

    unit: str


class ConcussedEvent(_Event, frozen=True, tag="concussed"):
    """A hit that would stun a prone unit concusses it (T16): prone, and it cannot act until
    an end-of-turn roll of 4+ (T15)."""

    unit: str


class Injured(_Event, frozen=True, tag="injured"):
    """The unit is removed from play; ``by`` is the seat credited with it (T3, T38)."""

    unit: str
    by: Seat


class ActionEnded(_Event, frozen=True, tag="action_ended"):
    unit: str


class StunRecovered(_Event, frozen=True, tag="stun_recovered"):
    """At the end of its owner's turn, a unit stunned before it recovers (T15)."""

    unit: str


class ConcussionRolled(_Event, frozen=True, tag="concussion_rolled"):
    """At the end of its owner's turn, a concussed unit rolls: 4+ recovers (T15)."""

    unit: str
    die: Die
    recovered: bool


class TurnEnded(_Event, frozen=True, tag="turn_ended"):
    seat: Seat


class MatchEnded(_Event, frozen=True, tag="match_ended"):
    """A side was wiped out, or round 8 ended (T3)."""

    winner: Seat | None
    injured: tuple[int, int]
    """How many enemy units each seat injured, seat 1 first (T3, T38)."""
    reason: str


Event: TypeAlias = (
    RollOffRolled
    | FirstPlayerChosen
    | HalfChosen
    | UnitPlaced
    | RoundStarted
    | TurnStarted
    | ActionStarted
    | StoodUp
    | BramblesRolled
    | WithdrawRolled
    | Stepped
    | Attacked
    | Fired
    | Damaged
    | KnockedDown
    | StunnedEvent
    | ConcussedEvent
    | Injured
    | ActionEnded
    | StunRecovered
    | ConcussionRolled
    | TurnEnded
    | MatchEnded
)


# --- the state ------------------------------------------------------------------------------


class Stats(_Struct, frozen=True):
    """A unit type's attribute values (T8, T9) and traits."""

    type: str
    name: str
    move: int
    combat: int
    strength: int
    ranged: int
    power: int
    evade: int
    health: int
    defense: int
    traits: tuple[Trait, ...] = ()


class Unit(_Struct, frozen=True):
    """A unit in the match: its stats and where and how it is."""

    id: str
    seat: Seat
    stats: Stats
    health: int
    at: Coord | None = None
    """None before it is placed, and once it is Injured."""
    prone: bool = False
    stunned: int = 0
    """The turn it was stunned in (0: not stunned)."""
    concussed: int = 0
    """The turn it was concussed in (0: not concussed)."""
    injured: bool = False


class Action(_Struct, frozen=True):
    """The Move or Charge under way (T10, T14)."""

    unit: str
    charge: bool
    points: int
    stood: bool = False
    steps: int = 0
    attacked: bool = False


Phase: TypeAlias = Literal["roll_off", "choose_half", "deploy", "play", "over"]


class TilesState(_Struct, frozen=True):
    """Everything about a match (nothing is hidden: T28)."""

    settings: TilesSettings
    rows: tuple[str, ...]
    """The map's tiles, row by row (its legend characters: T7)."""
    units: tuple[Unit, ...]
    """Seat 1's units in roster order, then seat 2's."""
    chance: Chance | None = None
    phase: Phase = "roll_off"
    first: Seat | None = None
    """Player one's seat (T1)."""
    north: Seat | None = None
    """The seat that deploys in the north half (T27)."""
    round: int = 0
    turn: int = 0
    """Turns begun in the match (1 is player one's turn of round 1)."""
    active: Seat | None = None
    """The seat whose turn it is."""
    acted: tuple[str, ...] = ()
    """The units that acted this turn (T2)."""
    action: Action | None = None
    injured: tuple[int, int] = (0, 0)
    """Enemy units injured by seat 1, by seat 2 (T3, T38)."""
    draws: int = 0
    """The counter of the next chance draw."""
    winner: Seat | None = None
    reason: str = ""

    def unit(self, unit_id: str) -> Unit | None:
        """The unit with this id, if any."""
        return next((u for u in self.units if u.id == unit_id), None)


__all__ = [
    "ROUNDS",
    "SEATS",
    "Action",
    "Command",
    "Coord",
    "Event",
    "Stats",
    "TilesSettings",
    "TilesState",
    "Unit",
]
