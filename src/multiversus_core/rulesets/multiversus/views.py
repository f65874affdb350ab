"""Views: a match as one side sees it, the one door to hidden information (R4, R23).

Hidden from everyone but their own player, until a public event reveals them:

- a coin selection, active (until :class:`CoinsRevealed`) or reactive (until
  :class:`ReactionRevealed`); selecting nothing is public (R3);
- a set-up secret's choice (until :class:`SecretRevealed`);
- the salt of each of those, which would open its commitment; the
  commitment itself is public, so a viewer can hold the other side to it;
- the match seed (a view's settings say 0): with it, a player could work out
  the dice and flips to come and, when salts come from the seed, open every
  commitment;
- which coins are in a stash. Every coin not face up is public knowledge
  (:attr:`PilesView.face_down`: the stash plus any unrevealed selection of
  that side), but the split between stash and selection is not, or the stash
  would tell which coin was selected.

:func:`view` redacts a state; :func:`redact` and :func:`redact_log` redact
events and log entries, replacing hidden ones by placeholders that keep the
sequence. The referee (``"referee"``) sees everything: :func:`view` returns
the state itself and :func:`redact` the events themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, TypeAlias, overload

import msgspec

from multiversus_core.engine.viewlog import RedactedEntry as RedactedEntry  # moved: re-exported
from multiversus_core.engine.viewlog import RedactedLog as RedactedLog
from multiversus_core.engine.viewlog import redact_log as redact_log
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.commands import (
    ChooseSecret,
    Command,
    SelectCoins,
    SelectReaction,
)
from multiversus_core.rulesets.multiversus.events import (
    CoinsSelected,
    Event,
    ReactionSelected,
    SecretChosen,
)
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import (
    Action,
    Activation,
    ForcedChoice,
    MatchState,
    Offer,
    Pending,
    Secret,
    SecretOffer,
    standing,
)
from multiversus_core.rulesets.multiversus.terms import ActionKind, Seat, Side
from multiversus_core.rulesets.multiversus.units import CoinId, Unit

PlayerViewer: TypeAlias = Literal["heroes", "adversaries", "spectator"]
"""A viewer who may not see everything: one side's player, or the public (what both may know)."""

Viewer: TypeAlias = Literal["heroes", "adversaries", "spectator", "referee"]
"""Whoever a view is for; the referee sees the whole state."""

PLAYER_VIEWERS: Final[tuple[PlayerViewer, ...]] = ("heroes", "adversaries", "spectator")


def viewer_of(state: MatchState, seat: Seat | None) -> PlayerViewer:
    """Return the viewer a seat is: its side, or the spectator (None, or sides not chosen)."""
    if seat is None:
        return "spectator"
    side = state.side_of(seat)
    return "spectator" if side is None else side


def can_see(viewer: Viewer, side: Side) -> bool:
    """True if ``viewer`` may see ``side``'s hidden choices before they are revealed."""
    return viewer in ("referee", side)


# --- the redacted state ----------------------------------------------------------


class PilesView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One side's unit coins as a viewer may know them."""

    stash: tuple[CoinId, ...] | None
    """The stash, to its own player; None to anyone else."""
    stash_count: int
    """How many coins are in the stash (public)."""
    face_down: tuple[CoinId, ...]
    """The stash plus any unrevealed selection of this side, sorted: every coin not face up.

    Public: anyone can work it out from the face-up coins, and it is the same
    whichever coin was selected.
    """
    discard: tuple[CoinId, ...]
    removed: tuple[CoinId, ...]


class ActivationView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The activation under way as a viewer may know it (:class:`Activation`, redacted).

    A field that is None because it is hidden has its ``hidden`` or
    ``reaction_hidden`` flag set.
    """

    side: Side
    hidden: bool
    """The active selection is not revealed and the viewer may not see it."""
    unit: str | None
    """The active unit; None while hidden."""
    coin: CoinId | None
    """The active unit coin; None while hidden or once discarded."""
    actions: tuple[ActionKind, ...] | None
    """None while hidden."""
    remaining: tuple[ActionKind, ...] | None
    """None while hidden."""
    revealed: bool
    reaction_hidden: bool
    """The reactive player selected a coin, not revealed, and the viewer may not see it."""
    reaction_coin: CoinId | None
    """None while hidden, if they selected nothing, or once the coin was settled."""
    reaction_actions: tuple[ActionKind, ...] | None
    """None while hidden."""
    reaction_selected: bool
    reaction_revealed: bool
    reacted: bool
    action: Action | None
    reaction: Action | None
    offer: Offer | None
    reacted_to_action: bool
    defending: bool
    braced: bool
    struck: bool
    attacked_units: tuple[str, ...]
    number: int
    commitment: str
    """The active selection's commitment (public)."""
    salt: str | None
    """None while hidden."""
    reaction_commitment: str
    """The reactive selection's commitment (public); empty if nothing was selected."""
    reaction_salt: str | None
    """None while hidden."""
    forced: ForcedChoice | None = None
    """A forced move waiting for a player's choice (R20): public."""


class SecretView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A set-up secret a side chose (R23), as a viewer may know it."""

    side: Side
    name: str
    choice: str | None
    """None while hidden from the viewer."""
    revealed: bool
    commitment: str
    """The commitment to the choice (public)."""
    salt: str | None
    """None while hidden from the viewer."""


class MatchView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A match state as one player, or the public, may know it (:class:`MatchState`, redacted)."""

    viewer: PlayerViewer
    settings: MatchSettings
    """The match's settings with the seed set to 0: the seed would tell the dice to come,
    and with seeded salts it opens every commitment."""
    pending: Pending
    draws: int
    set_up_player: Seat | None
    heroes_team: str | None
    adversaries_team: str | None
    scenario: str | None
    units: tuple[Unit, ...]
    board: Board | None
    figures: tuple[Figure, ...]
    starting_side: Side | None
    heroes_seat: Seat | None
    round: int
    turns_in_round: int
    active: Side | None
    may_give_up: bool
    heroes: PilesView
    adversaries: PilesView
    activation: ActivationView | None
    ended: str | None
    winner: Side | None
    secret_offers: tuple[SecretOffer, ...]
    secrets: tuple[SecretView, ...]
    activations: int

    def __repr__(self) -> str:
        """Whose view and where the match stands, in angle brackets; the seed is hidden (its
        settings say 0, which is no seed of the match)."""
        return f"<MatchView as {self.viewer}: {standing(self)}; seed hidden>"

    def piles(self, side: Side) -> PilesView:
        """Return a side's unit coin piles as the viewer may know them."""
        return self.heroes if side == "heroes" else self.adversaries


def _without_seed(settings: MatchSettings) -> MatchSettings:
    return msgspec.structs.replace(settings, seed=0) if settings.seed else settings


@overload
def view(state: MatchState, viewer: Literal["referee"]) -> MatchState: ...
@overload
def view(state: MatchState, viewer: PlayerViewer) -> MatchView: ...
def view(state: MatchState, viewer: Viewer) -> MatchState | MatchView:
    """Return the state as ``viewer`` may know it; the referee gets the state itself.

    :raises ValueError: if ``viewer`` is not a viewer.
    """
    if viewer == "referee":
        return state
    if viewer not in PLAYER_VIEWERS:
        raise ValueError(f"no viewer {viewer!r} (heroes, adversaries, spectator or referee)")
    act = state.activation
    return MatchView(
        viewer=viewer,
        settings=_without_seed(state.settings),
        pending=state.pending,
        draws=state.draws,
        set_up_player=state.set_up_player,
        heroes_team=state.heroes_team,
        adversaries_team=state.adversaries_team,
        scenario=state.scenario,
        units=state.units,
        board=state.board,
        figures=state.figures,
        starting_side=state.starting_side,
        heroes_seat=state.heroes_seat,
        round=state.round,
        turns_in_round=state.turns_in_round,
        active=state.active,
        may_give_up=state.may_give_up,
        heroes=_piles_view(state, "heroes", viewer),
        adversaries=_piles_view(state, "adversaries", viewer),
        activation=None if act is None else _activation_view(act, viewer),
        ended=state.ended,
        winner=state.winner,
        secret_offers=state.secret_offers,
        secrets=tuple(_secret_view(s, viewer) for s in state.secrets),
        activations=state.activations,
    )


def _secret_view(secret: Secret, viewer: PlayerViewer) -> SecretView:
    shown = secret.revealed or can_see(viewer, secret.side)
    return SecretView(
        side=secret.side,
        name=secret.name,
        choice=secret.choice if shown else None,
        revealed=secret.revealed,
        commitment=secret.commitment,
        salt=secret.salt if shown else None,
    )


def _unrevealed_coins(state: MatchState, side: Side) -> tuple[CoinId, ...]:
    """Return ``side``'s selected coins that are still face down."""
    act = state.activation
    if act is None:
        return ()
    if act.side == side:
        return (act.coin,) if act.coin is not None and not act.revealed else ()
    if act.reaction_selected and not act.reaction_revealed and act.reaction_coin is not None:
        return (act.reaction_coin,)
    return ()


def _piles_view(state: MatchState, side: Side, viewer: PlayerViewer) -> PilesView:
    piles = state.piles(side)
    return PilesView(
        stash=piles.stash if can_see(viewer, side) else None,
        stash_count=len(piles.stash),
        face_down=tuple(sorted((*piles.stash, *_unrevealed_coins(state, side)))),
        discard=piles.discard,
        removed=piles.removed,
    )


def _activation_view(act: Activation, viewer: PlayerViewer) -> ActivationView:
    reactive: Side = "adversaries" if act.side == "heroes" else "heroes"
    hidden = not act.revealed and not can_see(viewer, act.side)
    reaction_hidden = (
        act.reaction_selected
        and act.reaction_coin is not None
        and not act.reaction_revealed
        and not can_see(viewer, reactive)
    )
    return ActivationView(
        side=act.side,
        hidden=hidden,
        unit=None if hidden else act.unit,
        coin=None if hidden else act.coin,
        actions=None if hidden else act.actions,
        remaining=None if hidden else act.remaining,
        revealed=act.revealed,
        reaction_hidden=reaction_hidden,
        reaction_coin=None if reaction_hidden else act.reaction_coin,
        reaction_actions=None if reaction_hidden else act.reaction_actions,
        reaction_selected=act.reaction_selected,
        reaction_revealed=act.reaction_revealed,
        reacted=act.reacted,
        action=act.action,
        reaction=act.reaction,
        offer=act.offer,
        reacted_to_action=act.reacted_to_action,
        defending=act.defending,
        braced=act.braced,
        struck=act.struck,
        attacked_units=act.attacked_units,
        number=act.number,
        commitment=act.commitment,
        salt=None if hidden else act.salt,
        reaction_commitment=act.reaction_commitment,
        reaction_salt=None if reaction_hidden else act.reaction_salt,
        forced=act.forced,
    )


# --- redacted events and commands --------------------------------------------------


class _Hidden(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False, tag_field="kind"):
    pass


class HiddenCoinsSelected(_Hidden, frozen=True, tag="hidden_coins_selected"):
    """A :class:`CoinsSelected` the viewer may not see: the active player selected in secret.

    The commitment stays: the later :class:`CoinsRevealed` must open it.
    """

    side: Side
    commitment: str


class HiddenReactionSelected(_Hidden, frozen=True, tag="hidden_reaction_selected"):
    """A :class:`ReactionSelected` of a coin the viewer may not see (selecting nothing is not).

    The commitment stays: the later :class:`ReactionRevealed` must open it.
    """

    side: Side
    commitment: str


class HiddenSecretChosen(_Hidden, frozen=True, tag="hidden_secret_chosen"):
    """A :class:`SecretChosen` the viewer may not see: which secret and its commitment, not the
    choice."""

    side: Side
    name: str
    commitment: str


class HiddenSelectCoins(_Hidden, frozen=True, tag="hidden_select_coins"):
    """A :class:`SelectCoins` command the viewer may not see."""

    player: Seat


class HiddenSelectReaction(_Hidden, frozen=True, tag="hidden_select_reaction"):
    """A :class:`SelectReaction` command the viewer may not see."""

    player: Seat


class HiddenChooseSecret(_Hidden, frozen=True, tag="hidden_choose_secret"):
    """A :class:`ChooseSecret` command the viewer may not see: which secret, not the choice."""

    player: Seat
    name: str


HiddenEvent: TypeAlias = HiddenCoinsSelected | HiddenReactionSelected | HiddenSecretChosen
"""A placeholder for an event the viewer may not see."""

ViewEvent: TypeAlias = Event | HiddenEvent
"""An event as a viewer may know it."""

HiddenCommand: TypeAlias = HiddenSelectCoins | HiddenSelectReaction | HiddenChooseSecret
"""A placeholder for a command the viewer may not see."""

ViewCommand: TypeAlias = Command | HiddenCommand
"""A command as a viewer may know it."""


def redact_event(event: Event, viewer: Viewer) -> ViewEvent:
    """Return ``event`` as ``viewer`` may know it: itself, or a placeholder if hidden."""
    match event:
        case CoinsSelected(side=side, commitment=commitment) if not can_see(viewer, side):
            return HiddenCoinsSelected(side=side, commitment=commitment)
        case ReactionSelected(side=side, coin=coin, commitment=commitment) if (
            coin is not None and not can_see(viewer, side)
        ):
            return HiddenReactionSelected(side=side, commitment=commitment)
        case SecretChosen(side=side, name=name, commitment=commitment) if not can_see(viewer, side):
            return HiddenSecretChosen(side=side, name=name, commitment=commitment)
        case _:
            return event


def redact(events: Iterable[Event], viewer: Viewer) -> tuple[ViewEvent, ...]:
    """Return events as ``viewer`` saw them, hidden ones replaced by placeholders, in order.

    A placeholder stays a placeholder: what it hid becomes known from the
    reveal event that comes later (which is public).
    """
    return tuple(redact_event(event, viewer) for event in events)


def redact_command(command: Command, side: Side | None, viewer: Viewer) -> ViewCommand:
    """Return ``command``, given by ``side``'s player, as ``viewer`` may know it.

    A ``side`` of None (sides not chosen yet) hides a secret command from all but the referee.
    """
    if viewer == "referee" or (side is not None and can_see(viewer, side)):
        return command
    match command:
        case SelectCoins(player=player):
            return HiddenSelectCoins(player=player)
        case SelectReaction(player=player):
            return HiddenSelectReaction(player=player)
        case ChooseSecret(player=player, name=name):
            return HiddenChooseSecret(player=player, name=name)
        case _:
            return command
