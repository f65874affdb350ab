"""What a worlds-collide log records: the settings, the commands and the events, and the state.

Everything is on the table (W20): no command or event is hidden, so a
viewer's view is the state without its chance seed (and, under the variant
"environment-deck", which card comes next: it is drawn from the chance). Every die
is a chance point: a command may supply the faces rolled at the table
(``dice``); otherwise they are drawn from the match's chance in the order the
rules roll them. Coordinates are (column, row) from 0 at the top left (W27).

One activation (W10-W14) is: :class:`Activate` (the models, the plan, a
tactic), the tactic's check; then :class:`Act`, every move and every attack
of the whole formation in one command, checked as one. After each roll that
failed, while its owner has AP, the match waits for a re-roll decision
(:class:`Reroll` one die, or :class:`KeepDice`: W16).
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.chance import Chance, Seed
from multiversus_core.engine.commit import SaltSource
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.worlds_collide.content import (
    EnvironmentEntry,
    Faction,
    GameMap,
    ModelType,
    Penalty,
    TacticEffect,
)

ROUNDS: Final = 5
"""A game is played in 5 rounds (the text)."""
SEATS: Final = (1, 2)
BASE_AP: Final = 2
"""AP each player gains a round before leadership (W6)."""

Coord: TypeAlias = tuple[int, int]
"""A square: (column, row) from 0 at the top left (W27)."""
Die: TypeAlias = int
"""A d6's face, 1 to 6."""
Plan: TypeAlias = Literal["move_attack", "attack_move", "move_twice"]
"""What an activation does after its tactic (W12, W34): move then attack, attack then move,
or move twice (one move of up to twice the Move)."""
Variant: TypeAlias = Literal["environment-deck"]
"""W20's optional card rule: the twelve table entries shuffled, one drawn a round."""
Phase: TypeAlias = Literal["roll_off", "deploy", "round", "activations", "over"]
"""The deployment roll-off, deployment, the start of a round (its environment and AP), the
activations, and the end."""


class _Struct(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    pass


class WorldsSettings(_Struct, frozen=True):
    """The players, the map with its mission, each seat's faction (both open to both: W20),
    the variants, and the chance."""

    players: tuple[str, str] = ("Player 1", "Player 2")
    map: str = "collision-point"
    factions: tuple[str, str] = ("iron-legion", "wyldfae")
    """Seat 1's faction, then seat 2's."""
    variants: tuple[Variant, ...] = ()
    seed: Seed = 0
    """The public chance seed; 0 when chance is secret."""
    salts: SaltSource = "seed"
    """Where commitment salts come from: the game commits to nothing (W20), but the engine
    asks every game."""
    chance: str = ""
    """The commitment to a secret chance seed; empty when ``seed`` is public."""


# --- commands -------------------------------------------------------------------------------


class _Command(_Struct, frozen=True, tag_field="kind"):
    player: Seat


class RollOff(_Command, frozen=True, tag="roll_off"):
    """Seat 1 rolls the deployment roll-off for both (W18, W29: ties are rolled again);
    ``dice`` are the faces rolled at the table, seat 1's then seat 2's, pair after pair."""

    dice: tuple[Die, ...] | None = None


class Deploy(_Command, frozen=True, tag="deploy"):
    """The deploying player places one of its models in its deployment rows (W18)."""

    model: str
    at: Coord


class StartRound(_Command, frozen=True, tag="start_round"):
    """Seat 1 rolls for the round: the environment roll-off and the winner's table die (W5),
    then, if the AP are equal, the roll-off for who goes first (W7); ``dice`` are the faces
    rolled at the table, in that order."""

    dice: tuple[Die, ...] | None = None


class Activate(_Command, frozen=True, tag="activate"):
    """Pay 1 AP to activate one model or a formation (W8, W10), with what it will do
    (``plan``: W12, W34) and optionally a tactic (W11), whose check is rolled at once;
    ``dice`` is that die when rolled at the table."""

    models: tuple[str, ...]
    plan: Plan
    tactic: str | None = None
    dice: tuple[Die, ...] | None = None


class MoveTo(_Struct, frozen=True):
    """One model's move in an :class:`Act`: where it ends (W2, W13)."""

    model: str
    to: Coord


class AttackWith(_Struct, frozen=True):
    """One attack in an :class:`Act`: the model, its weapon (by name) and the target, chosen
    before any die is rolled (W14)."""

    model: str
    weapon: str
    target: str


class Act(_Command, frozen=True, tag="act"):
    """The activation's moves and attacks, the whole formation at once (W12-W14): in its
    plan's order; each model's move is where it ends, each attack one die at its target.
    ``dice`` are the attack dice when rolled at the table, target by target in the order the
    targets first appear."""

    moves: tuple[MoveTo, ...] = ()
    attacks: tuple[AttackWith, ...] = ()
    dice: tuple[Die, ...] | None = None


class Reroll(_Command, frozen=True, tag="reroll"):
    """Pay 1 AP to re-roll one failed die of the roll just made (W16): ``die`` is its
    position in the roll, from 0; ``dice`` its new face (and the rolls that follow) when
    rolled at the table."""

    die: int
    dice: tuple[Die, ...] | None = None


class KeepDice(_Command, frozen=True, tag="keep_dice"):
    """Keep the roll just made as it stands (W16); ``dice`` are the rolls that follow, when
    rolled at the table."""

    dice: tuple[Die, ...] | None = None


class Pass(_Command, frozen=True, tag="pass"):
    """Stop activating for the rest of the round, saving the AP (W7)."""


Command: TypeAlias = RollOff | Deploy | StartRound | Activate | Act | Reroll | KeepDice | Pass


# --- events ---------------------------------------------------------------------------------


class _Event(_Struct, frozen=True, tag_field="kind"):
    pass


RollOffPurpose: TypeAlias = Literal["deployment", "environment", "initiative"]


class RollOffRolled(_Event, frozen=True, tag="roll_off_rolled"):
    """Both players rolled a d6 (W5, W7, W18); a tie is rolled again (W29)."""

    purpose: RollOffPurpose
    dice: tuple[Die, Die]


class FirstDeployerChosen(_Event, frozen=True, tag="first_deployer_chosen"):
    """The deployment roll-off's winner places first, in the first deployment rows (W18)."""

    seat: Seat


class ModelDeployed(_Event, frozen=True, tag="model_deployed"):
    model: str
    at: Coord


class RoundStarted(_Event, frozen=True, tag="round_started"):
    round: int


class EnvironmentRolled(_Event, frozen=True, tag="environment_rolled"):
    """The roll-off's winner rolled on its own faction's table (W5), or under the variant
    "environment-deck" the card drawn (W20): the entry holds this round for both."""

    seat: Seat
    """Whose table the entry is from."""
    roll: Die
    name: str
    card: int | None = None
    """Under "environment-deck", the card's place (from 1) among the cards left, in order of
    table and roll: the chance drawn."""


class APGained(_Event, frozen=True, tag="ap_gained"):
    """A player gained AP (W6, W21, W25): ``total`` is what it has now."""

    seat: Seat
    amount: int
    total: int
    reason: str


class APLost(_Event, frozen=True, tag="ap_lost"):
    """A player spent or lost AP (W8, W16, W21): ``total`` is what it has now."""

    seat: Seat
    amount: int
    total: int
    reason: str


class FirstPlayerChosen(_Event, frozen=True, tag="first_player_chosen"):
    """The player with fewer AP, or the roll-off's winner, takes the first activation (W7)."""

    seat: Seat


class ActivationStarted(_Event, frozen=True, tag="activation_started"):
    """One model or a formation activated (W8, W10), with its plan and tactic."""

    seat: Seat
    models: tuple[str, ...]
    plan: Plan
    tactic: str | None = None


class TacticRolled(_Event, frozen=True, tag="tactic_rolled"):
    """A tactic's knack check (W11, W15): ``face`` against ``knack``."""

    tactic: str
    face: Die
    knack: int
    success: bool


class ActionsDeclared(_Event, frozen=True, tag="actions_declared"):
    """The activation's moves and attacks, as its :class:`Act` gave them (W12-W14): the
    attacks to roll, target by target, and the moves to make after them (attack then
    move)."""

    attacks: tuple[AttackWith, ...]
    moves_after: tuple[MoveTo, ...] = ()


class AttacksRolled(_Event, frozen=True, tag="attacks_rolled"):
    """The dice of every attack at one target, rolled together (W14, W15): ``faces`` in the
    order of ``attacks``, ``needed`` each die's knack after modifiers (7: only an unmodified
    6 hits, W15's ranged weapons in melee)."""

    target: str
    attacks: tuple[AttackWith, ...]
    faces: tuple[Die, ...]
    needed: tuple[int, ...]


class AttacksResolved(_Event, frozen=True, tag="attacks_resolved"):
    """The roll at one target stands and has dealt its damage (W16, W17)."""

    target: str


class DieRerolled(_Event, frozen=True, tag="die_rerolled"):
    """A failed die rolled again for 1 AP (W16): the new face stands."""

    die: int
    face: Die


class TacticResolved(_Event, frozen=True, tag="tactic_resolved"):
    """The tactic's check stands: success gives its effect for the activation, failure the
    round's penalty (W11)."""

    tactic: str
    success: bool


class ModelMoved(_Event, frozen=True, tag="model_moved"):
    """A model ended its move on ``to`` for ``cost`` movement (W2, W13)."""

    model: str
    to: Coord
    cost: int


class AttackHit(_Event, frozen=True, tag="attack_hit"):
    """An attack landed for ``damage`` (W17, W30)."""

    model: str
    weapon: str
    target: str
    damage: int


class AttackMissed(_Event, frozen=True, tag="attack_missed"):
    model: str
    weapon: str
    target: str


class AttackLost(_Event, frozen=True, tag="attack_lost"):
    """An attack whose target fell before its roll is lost (W33)."""

    model: str
    weapon: str
    target: str


class Damaged(_Event, frozen=True, tag="damaged"):
    """A model took damage; ``hp`` is what it has left."""

    model: str
    damage: int
    hp: int


class ModelFell(_Event, frozen=True, tag="model_fell"):
    """At 0 hit points a model is removed and a fallen token marks its square (W17, W32)."""

    model: str


class ActivationEnded(_Event, frozen=True, tag="activation_ended"):
    seat: Seat


class PlayerOut(_Event, frozen=True, tag="player_out"):
    """A player is out of the round: it passed, has no AP or no model left to activate (W7,
    W29)."""

    seat: Seat
    reason: str


class TurnGiven(_Event, frozen=True, tag="turn_given"):
    """The next activation is this player's (W7: alternate; alone once the other is out)."""

    seat: Seat


class ObjectiveScored(_Event, frozen=True, tag="objective_scored"):
    """At the end of a scoring round an objective scored for the player with more models
    near it (W19); ``seat`` None: neither has more."""

    at: Coord
    seat: Seat | None
    vp: int


class LeadersScored(_Event, frozen=True, tag="leaders_scored"):
    """At the end of the last round, VP for the enemy leaders fallen (W19, W28)."""

    seat: Seat
    leaders: int
    vp: int


class RoundEnded(_Event, frozen=True, tag="round_ended"):
    round: int


class MatchEnded(_Event, frozen=True, tag="match_ended"):
    """The end (W19): the winner (None: a draw), each player's VP, and why."""

    winner: Seat | None
    vp: tuple[int, int]
    reason: str


Event: TypeAlias = (
    RollOffRolled
    | FirstDeployerChosen
    | ModelDeployed
    | RoundStarted
    | EnvironmentRolled
    | APGained
    | APLost
    | FirstPlayerChosen
    | ActivationStarted
    | TacticRolled
    | ActionsDeclared
    | AttacksRolled
    | AttacksResolved
    | DieRerolled
    | TacticResolved
    | ModelMoved
    | AttackHit
    | AttackMissed
    | AttackLost
    | Damaged
    | ModelFell
    | ActivationEnded
    | PlayerOut
    | TurnGiven
    | ObjectiveScored
    | LeadersScored
    | RoundEnded
    | MatchEnded
)


# --- the state ------------------------------------------------------------------------------


class Model(_Struct, frozen=True):
    """A model of a faction (W23): its type as the faction's page gives it, and how it
    stands."""

    id: str
    """``<seat>.<fielded id>`` ("1.rifleman-3")."""
    seat: Seat
    name: str
    """As the faction names it ("Rifleman 3")."""
    kind: ModelType
    hp: int
    at: Coord | None = None
    """Its square; once fallen, its fallen token's (W17, W32)."""
    fallen: bool = False
    activated: bool = False
    """Activated this round (W9)."""

    @property
    def on_board(self) -> bool:
        """Deployed and not fallen."""
        return self.at is not None and not self.fallen


class Side(_Struct, frozen=True):
    """A player's faction page (open to both) and what it holds in play."""

    faction: Faction
    ap: int = 0
    out: bool = False
    """Out of this round (W7, W29)."""
    vp: int = 0


def meets_knack(face: Die, knack: int) -> bool:
    """Whether a die hits or succeeds (W15): an unmodified 6 always, a 1 never, else the face
    meets the knack."""
    return face == 6 or (face != 1 and face >= knack)


class Roll(_Struct, frozen=True):
    """A roll awaiting its owner's re-roll decision (W16), or being resolved."""

    faces: tuple[Die, ...]
    needed: tuple[int, ...]
    """Each die's knack after modifiers; 7 and above: only an unmodified 6 (W15)."""
    rerolled: tuple[bool, ...]
    target: str | None = None
    """The target of an attack roll; None for a tactic check."""
    attacks: tuple[AttackWith, ...] = ()
    """An attack roll's attacks, one a die."""

    def hits(self, index: int) -> bool:
        """Whether die ``index`` hits (W15: :func:`meets_knack`)."""
        return meets_knack(self.faces[index], self.needed[index])

    def rerollable(self) -> tuple[int, ...]:
        """The dice that failed and were not re-rolled yet (W16)."""
        return tuple(i for i in range(len(self.faces)) if not self.hits(i) and not self.rerolled[i])


class Activation(_Struct, frozen=True):
    """The activation under way (W10-W14)."""

    seat: Seat
    models: tuple[str, ...]
    plan: Plan
    tactic: str | None = None
    boon: TacticEffect | None = None
    """The tactic's effect, once its check succeeded (W11)."""
    penalty: Penalty | None = None
    """The round's penalty, once the tactic's check failed (W11)."""
    acted: bool = False
    """Its :class:`Act` was given."""
    moves: tuple[MoveTo, ...] = ()
    """Moves still to make (attack then move: after the attacks)."""
    attacks: tuple[AttackWith, ...] = ()
    """Attacks still to roll, target by target."""
    roll: Roll | None = None
    """The roll awaiting a re-roll decision."""


class WorldsState(_Struct, frozen=True):
    """A match of worlds-collide as the referee knows it."""

    settings: WorldsSettings
    game_map: GameMap
    """The map and its mission (W1, W2, W19, W26)."""
    sides: tuple[Side, Side]
    models: tuple[Model, ...]
    """Seat 1's models in its faction's order, then seat 2's."""
    chance: Chance | None = None
    phase: Phase = "roll_off"
    first_deployer: Seat | None = None
    round: int = 0
    environment: EnvironmentEntry | None = None
    """The round's entry (W5)."""
    environment_seat: Seat | None = None
    """Whose table the entry is from."""
    deck: tuple[tuple[Seat, Die], ...] = ()
    """Under "environment-deck", the cards not drawn yet, (whose table, roll) (W20)."""
    active: Seat | None = None
    """Whose activation it is (W7)."""
    activation: Activation | None = None
    draws: int = 0
    """The counter of the next chance draw."""
    winner: Seat | None = None
    reason: str = ""

    def model(self, model_id: str) -> Model | None:
        """The model with this id, if any."""
        return next((m for m in self.models if m.id == model_id), None)


__all__ = [
    "BASE_AP",
    "ROUNDS",
    "SEATS",
    "Act",
    "Activate",
    "Activation",
    "AttackWith",
    "Command",
    "Coord",
    "Deploy",
    "Event",
    "KeepDice",
    "Model",
    "MoveTo",
    "Pass",
    "Reroll",
    "Roll",
    "RollOff",
    "Side",
    "StartRound",
    "WorldsSettings",
    "WorldsState",
]
