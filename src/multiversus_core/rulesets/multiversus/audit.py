"""What Multiversus' events commit, reveal and make due, for the engine's audit (R4, R23).

A coin selection is committed when it is made and revealed before its
activation's actions (it is due before the next activation); a reactive
selection is revealed by the end of its activation; a set-up secret by the
end of the match. A selection or secret that its own player may see (the
whole log, or that side's view log) carries its salt, and is checked
against its commitment at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from multiversus_core.engine.audit import Committed, Due, Held, Revealed, SecretFact
from multiversus_core.rulesets.multiversus.events import (
    ActivationEnded,
    CoinsRevealed,
    CoinsSelected,
    MatchEnded,
    ReactionRevealed,
    ReactionSelected,
    RoundStarted,
    SecretChosen,
    SecretRevealed,
    SideChosen,
)
from multiversus_core.rulesets.multiversus.secrets import (
    Opening,
    SecretKind,
    match_id,
    selection_value,
)
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat, Side
from multiversus_core.rulesets.multiversus.views import (
    HiddenCoinsSelected,
    HiddenReactionSelected,
    HiddenSecretChosen,
)

_SIDE_NAMES: Final[dict[Side, str]] = {"heroes": "the Heroes'", "adversaries": "the Adversaries'"}
_KIND_NAMES: Final[dict[SecretKind, str]] = {
    "coins": "coin selection",
    "reaction": "reactive selection",
    "secret": "secret",
}

_BEFORE_NEXT: Final = Due(("coins:",), "before the next activation")
_END_OF_ACTIVATION: Final = Due(("coins:", "reaction:"), "by the end of its activation")
_END_OF_MATCH: Final = Due(("coins:", "reaction:", "secret:"), "by the end of the match")

AUDITED: Final = frozenset(
    {
        SideChosen,
        RoundStarted,
        CoinsSelected,
        HiddenCoinsSelected,
        ReactionSelected,
        HiddenReactionSelected,
        SecretChosen,
        HiddenSecretChosen,
        CoinsRevealed,
        ReactionRevealed,
        SecretRevealed,
        ActivationEnded,
        MatchEnded,
    }
)
"""The events :meth:`Auditor.read` looks at: the audit passes every other kind by."""


class Auditor:
    """Reads one Multiversus log's events (a whole log or a side's view) for its secrets."""

    audited: Final = AUDITED

    def __init__(self, settings: MatchSettings) -> None:
        self.match = match_id(settings)
        self.round = 0
        self.activations = 0
        self.seats: dict[Side, Seat] = {}

    def read(self, event: object) -> Sequence[SecretFact]:
        """Return what one event of the kinds in :data:`AUDITED` commits, reveals or makes due."""
        match event:  # the cases most frequent in a match first
            case CoinsSelected() | HiddenCoinsSelected():
                self.activations += 1
                commit = self._commit("coins", event.side, "", event.commitment)
                if isinstance(event, CoinsSelected):
                    value = selection_value(event.coin, event.actions)
                    return (_BEFORE_NEXT, commit, self._own(commit, event.salt, value))
                return (_BEFORE_NEXT, commit)
            case ReactionSelected(coin=coin) if coin is not None:
                commit = self._commit("reaction", event.side, "", event.commitment)
                value = selection_value(coin, event.actions)
                return (commit, self._own(commit, event.salt, value))
            case HiddenReactionSelected():
                return (self._commit("reaction", event.side, "", event.commitment),)
            case SecretChosen() | HiddenSecretChosen():
                commit = self._commit("secret", event.side, event.name, event.commitment)
                if isinstance(event, SecretChosen):
                    return (commit, self._own(commit, event.salt, (event.choice,)))
                return (commit,)
            case CoinsRevealed(coin=coin, actions=actions):
                value = selection_value(coin, actions)
                return (self._reveal("coins", event.side, "", value, event.salt),)
            case ReactionRevealed(coin=coin, actions=actions):
                value = selection_value(coin, actions)
                return (self._reveal("reaction", event.side, "", value, event.salt),)
            case SecretRevealed(name=name, choice=choice):
                return (self._reveal("secret", event.side, name, (choice,), event.salt),)
            case ActivationEnded():
                return (_END_OF_ACTIVATION,)
            case RoundStarted(round=number):
                self.round = number
            case SideChosen(seat=seat, side=side):
                other: Side = "adversaries" if side == "heroes" else "heroes"
                self.seats = {side: seat, other: 2 if seat == 1 else 1}
            case MatchEnded():
                return (_END_OF_MATCH,)
            case _:
                pass
        return ()

    def start_at(self, state: MatchState) -> Sequence[Held]:
        """Read on from ``state``: its round, activations and seats; return the selections of
        the activation under way and the set-up secrets not revealed yet."""
        self.round, self.activations = state.round, state.activations
        if state.heroes_seat is not None:
            other: Seat = 2 if state.heroes_seat == 1 else 1
            self.seats = {"heroes": state.heroes_seat, "adversaries": other}
        held = [
            Held(f"secret:{s.side}:{s.name}", s.salt, (s.choice,), _what("secret", s.side, s.name))
            for s in state.secrets
            if s.commitment and not s.revealed
        ]
        activation = state.activation
        if activation is None:
            return tuple(held)
        side = activation.side
        if activation.commitment and not activation.revealed and activation.coin is not None:
            value = selection_value(activation.coin, activation.actions)
            held.append(Held(f"coins:{side}:", activation.salt, value, _what("coins", side, "")))
        coin = activation.reaction_coin
        if activation.reaction_commitment and not activation.reaction_revealed and coin:
            other_side: Side = "adversaries" if side == "heroes" else "heroes"
            value = selection_value(coin, activation.reaction_actions)
            what = _what("reaction", other_side, "")
            held.append(Held(f"reaction:{other_side}:", activation.reaction_salt, value, what))
        return tuple(held)

    def _commit(self, kind: SecretKind, side: Side, name: str, digest: str) -> Committed:
        secret = kind == "secret"
        blank = Opening(
            match=self.match,
            round=0 if secret else self.round,
            activation=0 if secret else self.activations,
            seat=self.seats.get(side, 1),
            side=side,
            kind=kind,
            name=name,
            value=(),
        )
        return Committed(f"{kind}:{side}:{name}", digest, blank, _what(kind, side, name))

    @staticmethod
    def _own(commit: Committed, salt: str, value: tuple[str, ...]) -> Revealed:
        return Revealed(commit.key, salt, value, commit.what, own=True)

    @staticmethod
    def _reveal(
        kind: SecretKind, side: Side, name: str, value: tuple[str, ...], salt: str
    ) -> Revealed:
        return Revealed(f"{kind}:{side}:{name}", salt, value, _what(kind, side, name))


def _what(kind: SecretKind, side: Side, name: str) -> str:
    secret = f"secret {name!r}" if kind == "secret" else _KIND_NAMES[kind]
    return f"{_SIDE_NAMES[side]} {secret}"
