"""Events: the facts a match is made of, in the past tense.

Every event is a frozen msgspec struct with an explicit snake_case tag, so
logs do not depend on class names. :data:`Event` is the union of them all.
Storage details (line numbers, hashes) belong to the log, never to events.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import msgspec

from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.state import (
    ActionName,
    ForcedMove,
    SecretOffer,
    Suspended,
    Trigger,
)
from multiversus_core.rulesets.multiversus.terms import (
    ActionKind,
    Condition,
    Count,
    Face,
    Seat,
    Side,
    Square,
)
from multiversus_core.rulesets.multiversus.units import CoinId, Unit


class _Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False, tag_field="kind"):
    pass


# --- set-up (rulebook: Set up) ---------------------------------------------


class SetUpCoinFlipped(_Event, frozen=True, tag="set_up_coin_flipped"):
    """The coin was flipped and decided who is the Set Up Player (step 1)."""

    set_up_player: Seat


class TeamsChosen(_Event, frozen=True, tag="teams_chosen"):
    """The Set Up Player chose the Hero team, the Adversary team and the scenario (step 2)."""

    heroes: str
    adversaries: str
    scenario: str
    units: tuple[Unit, ...]
    """Every unit in play, Heroes first, as the sheets define them."""
    secrets: tuple[SecretOffer, ...] = ()
    """The set-up secrets the two sheets let their players choose (R23)."""


class BoardSetUp(_Event, frozen=True, tag="board_set_up"):
    """The Set Up Player laid out the tiles and placed every figure (step 2)."""

    board: Board
    figures: tuple[Figure, ...]


class StartingTeamChosen(_Event, frozen=True, tag="starting_team_chosen"):
    """The Set Up Player chose which team begins every round with the Initiative (step 3)."""

    side: Side


class SideChosen(_Event, frozen=True, tag="side_chosen"):
    """The Other Player chose the team they control; the Set Up Player has the other (step 4)."""

    seat: Seat
    side: Side


# --- rounds and turns (rulebook: Gameplay; R13-R16) -------------------------


class RoundStarted(_Event, frozen=True, tag="round_started"):
    """A new round began."""

    round: Count


class TurnStarted(_Event, frozen=True, tag="turn_started"):
    """A team took the Initiative die and began its turn."""

    side: Side


class DiscardReturned(_Event, frozen=True, tag="discard_returned"):
    """Unit coins went from a player's discard back to their stash (R14)."""

    side: Side
    coins: tuple[CoinId, ...]


class TurnEnded(_Event, frozen=True, tag="turn_ended"):
    """A team's turn ended and it lost the Initiative die."""

    side: Side
    reason: Literal["initiative_lost", "initiative_given_up", "no_activation", "recovery"]


class RoundEnded(_Event, frozen=True, tag="round_ended"):
    """Both teams had their turn; the round is over."""

    round: Count


class MatchEnded(_Event, frozen=True, tag="match_ended"):
    """The match is over, with its result (rulebook: Scoring)."""

    reason: str
    """"elimination", "six_rounds_played", or the name of the win condition that decided it."""
    winner: Side | None = None
    """The winning side; None for a draw."""


class SecretChosen(_Event, frozen=True, tag="secret_chosen"):
    """A player chose a set-up secret their sheet offers (R23), committing to it."""

    side: Side
    name: str
    choice: str
    commitment: str = ""
    """SHA-256 of the salt and the secret's opening (:mod:`~.secrets`)."""
    salt: str = ""
    """The salt, 64 hex digits: secret until revealed."""


class SecretRevealed(_Event, frozen=True, tag="secret_revealed"):
    """A set-up secret was revealed, by use or at the end of the match (R23).

    ``salt`` opens the commitment of its :class:`SecretChosen`.
    """

    side: Side
    name: str
    choice: str
    salt: str = ""


# --- activations (rulebook: Taking actions; R3, R4) -------------------------


class CoinsSelected(_Event, frozen=True, tag="coins_selected"):
    """The active player secretly selected a unit coin and action coins, committing to them."""

    side: Side
    coin: CoinId
    actions: tuple[ActionKind, ...]
    commitment: str = ""
    """SHA-256 of the salt and the secret's opening (:mod:`~.secrets`)."""
    salt: str = ""
    """The salt, 64 hex digits: secret until revealed."""


class ReactionSelected(_Event, frozen=True, tag="reaction_selected"):
    """The reactive player secretly selected a unit coin and action coin(s), or nothing (R3).

    Selecting nothing is public: it has no commitment and no salt.
    """

    side: Side
    coin: CoinId | None
    actions: tuple[ActionKind, ...]
    commitment: str = ""
    """SHA-256 of the salt and the secret's opening (:mod:`~.secrets`)."""
    salt: str = ""
    """The salt, 64 hex digits: secret until revealed."""


class CoinsRevealed(_Event, frozen=True, tag="coins_revealed"):
    """The active player revealed their selection before the first action (R4).

    ``salt`` opens the commitment of its :class:`CoinsSelected`.
    """

    side: Side
    coin: CoinId
    actions: tuple[ActionKind, ...]
    salt: str = ""


class ActionStarted(_Event, frozen=True, tag="action_started"):
    """The active unit began one action (two coins of one kind make one amplified action)."""

    side: Side
    unit: str
    action: ActionName
    double: bool


class FigureStepped(_Event, frozen=True, tag="figure_stepped"):
    """A figure moved one space as part of a Move action or reaction (R19)."""

    figure: str
    to: Square
    steps_left: Count
    """Spaces the figure may still move in this action after this step."""


class ActionEnded(_Event, frozen=True, tag="action_ended"):
    """The active unit finished an action."""

    side: Side
    action: ActionName


# --- reactions (rulebook: Reactions; R5, R6) --------------------------------


class ReactionTriggered(_Event, frozen=True, tag="reaction_triggered"):
    """An active figure's step may let the reactive player react; the step waits (R6).

    It comes at every trigger that any unit the reactive player might have
    selected could answer, so it tells nothing about the hidden selection.
    """

    side: Side
    """The reactive side, who may react or let it pass."""
    triggers: tuple[Trigger, ...]
    figure: str
    held: Suspended


class ReactionDeclined(_Event, frozen=True, tag="reaction_declined"):
    """The reactive player chose not to react to a trigger."""

    side: Side


class ReactionStarted(_Event, frozen=True, tag="reaction_started"):
    """The reactive unit began its reaction."""

    side: Side
    unit: str
    action: ActionKind
    double: bool


class ReactionEnded(_Event, frozen=True, tag="reaction_ended"):
    """The reaction is over; the held step goes on if it still can (R6)."""

    side: Side


# --- attacks, stunts and recovery (rulebook: Actions; R8-R12) ---------------


class AttackMade(_Event, frozen=True, tag="attack_made"):
    """One character attacked one target (R8)."""

    attacker: str
    target: str
    advantage: bool
    """The target was adjacent to more enemies than its allies plus one (R21)."""
    defended: bool
    """The target's unit was defending."""
    hit: bool


class ConditionChanged(_Event, frozen=True, tag="condition_changed"):
    """A character's condition changed; an eliminated character leaves the board."""

    figure: str
    condition: Condition


class FollowUpChosen(_Event, frozen=True, tag="follow_up_chosen"):
    """An attacker chose to Step, Push its target, or neither (R9)."""

    attacker: str
    choice: Literal["step", "push", "stay"]


class FigureMoved(_Event, frozen=True, tag="figure_moved"):
    """A figure moved outside a Move action: a step after an attack, or forced movement."""

    figure: str
    to: Square
    how: Literal["step", "push", "pull", "slide", "place"]


class ForcedMoveHeld(_Event, frozen=True, tag="forced_move_held"):
    """A forced move waits for a player's choice (R20): public, as the move is.

    With ``ally``, an allied character of the moved figure is in the way and
    its player chooses whether it blocks; without, the side that may stop the
    move short chooses where it stops.
    """

    side: Side
    """The side that chooses."""
    move: ForcedMove
    ally: str | None
    queue: tuple[ForcedMove, ...] = ()
    """Forced moves still to come after this one."""


class BlockChosen(_Event, frozen=True, tag="block_chosen"):
    """The player of an allied character in the way of a forced move chose (R20):
    it blocks (the move stops before it) or lets the figure through."""

    side: Side
    ally: str
    figure: str
    """The figure being moved."""
    block: bool


class ForcedStopChosen(_Event, frozen=True, tag="forced_stop_chosen"):
    """The side that may stop a forced move short chose how many spaces it moves."""

    side: Side
    figure: str
    spaces: Count


class StuntPerformed(_Event, frozen=True, tag="stunt_performed"):
    """A figure used a stunt-based ability or interacted with a figure (R11)."""

    figure: str
    ability: str | None
    target: str | None


class StuntFailed(_Event, frozen=True, tag="stunt_failed"):
    """A stunt failed: its unit was subject to an attack reaction (R11)."""

    side: Side
    unit: str


class RecoveryMade(_Event, frozen=True, tag="recovery_made"):
    """A unit's Recovery succeeded or failed (R12)."""

    side: Side
    unit: str
    succeeded: bool


class ReactionRevealed(_Event, frozen=True, tag="reaction_revealed"):
    """The reactive player revealed their selection: at its first use, or unused (R4).

    ``salt`` opens the commitment of its :class:`ReactionSelected`.
    """

    side: Side
    coin: CoinId
    actions: tuple[ActionKind, ...]
    salt: str = ""


class UnitCoinDiscarded(_Event, frozen=True, tag="unit_coin_discarded"):
    """A used unit coin was left in its player's discard."""

    side: Side
    coin: CoinId


class UnitCoinReturned(_Event, frozen=True, tag="unit_coin_returned"):
    """An unused reactive unit coin went back to its player's stash (R4)."""

    side: Side
    coin: CoinId


class UnitCoinRemoved(_Event, frozen=True, tag="unit_coin_removed"):
    """A discarded unit coin left the match for good (variant costly-recovery)."""

    side: Side
    coin: CoinId


class ActivationEnded(_Event, frozen=True, tag="activation_ended"):
    """The activation is over; every action coin went back to its stash (R3)."""

    side: Side


# --- the Initiative (rulebook: Testing and Losing Initiative; R13) ----------


class InitiativeRolled(_Event, frozen=True, tag="initiative_rolled"):
    """The active player rolled the Initiative die."""

    side: Side
    die: Face
    greys: Count
    """Grey unit coins in that player's discard when the die was rolled."""
    lost: bool
    """True if the die was a 6 or at most ``greys``."""


class InitiativeGivenUp(_Event, frozen=True, tag="initiative_given_up"):
    """The active player kept the Initiative on the die but gave it up willingly."""

    side: Side


Event: TypeAlias = (
    SetUpCoinFlipped
    | TeamsChosen
    | BoardSetUp
    | StartingTeamChosen
    | SideChosen
    | RoundStarted
    | TurnStarted
    | DiscardReturned
    | TurnEnded
    | RoundEnded
    | MatchEnded
    | CoinsSelected
    | ReactionSelected
    | CoinsRevealed
    | ActionStarted
    | FigureStepped
    | ActionEnded
    | ReactionRevealed
    | UnitCoinDiscarded
    | UnitCoinReturned
    | ActivationEnded
    | InitiativeRolled
    | InitiativeGivenUp
    | SecretChosen
    | SecretRevealed
    | ReactionTriggered
    | ReactionDeclined
    | ReactionStarted
    | ReactionEnded
    | AttackMade
    | ConditionChanged
    | FollowUpChosen
    | FigureMoved
    | StuntPerformed
    | StuntFailed
    | RecoveryMade
    | UnitCoinRemoved
    | ForcedMoveHeld
    | BlockChosen
    | ForcedStopChosen
)
"""Every kind of event."""

EVENT_TYPES: tuple[type[Event], ...] = Event.__args__
"""The event classes, in the order of the union."""
