"""Filling a side's view log in: what each placeholder stood for (R4, R23).

The engine pairs each placeholder with the reveal that opens it
(:mod:`multiversus_core.engine.viewlog`); here a placeholder becomes the
selection or secret its reveal shows, with the salt that opens its
commitment. One the log never reveals becomes a stand-in its viewer cannot
tell from the truth: the first coin of the stash with no action coins (a
selection is revealed before its activation acts, so nothing later depends
on it), or each option of a set-up secret in turn, since a secret is kept
to the end and the rules may act on it before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import msgspec

from multiversus_core.engine.audit import Revealed
from multiversus_core.engine.commit import STAND_IN_SALT
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
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import ActionKind, Side
from multiversus_core.rulesets.multiversus.units import CoinId, coin_colour, coin_unit
from multiversus_core.rulesets.multiversus.views import (
    HiddenChooseSecret,
    HiddenCoinsSelected,
    HiddenReactionSelected,
    HiddenSecretChosen,
    HiddenSelectCoins,
    HiddenSelectReaction,
)


def fill_event(
    hidden: msgspec.Struct, revealed: Revealed | None, state: MatchState
) -> tuple[Event, ...]:
    """The events a placeholder may stand for: the one its reveal opens, or stand-ins."""
    match hidden:
        case HiddenCoinsSelected(side=side, commitment=commitment):
            if revealed is None:
                return (CoinsSelected(side, _first_coin(state, side), (), commitment),)
            coin, actions = _selection(revealed)
            return (CoinsSelected(side, coin, actions, commitment, revealed.salt),)
        case HiddenReactionSelected(side=side, commitment=commitment):
            if revealed is None:
                return (ReactionSelected(side, _first_coin(state, side), (), commitment),)
            coin, actions = _selection(revealed)
            return (ReactionSelected(side, coin, actions, commitment, revealed.salt),)
        case HiddenSecretChosen(side=side, name=name, commitment=commitment):
            if revealed is not None:
                return (SecretChosen(side, name, revealed.value[0], commitment, revealed.salt),)
            offered = [o.options for o in state.secret_offers if (o.side, o.name) == (side, name)]
            options = offered[0] if offered and offered[0] else ("",)
            return tuple(SecretChosen(side, name, option, commitment) for option in options)
    raise ValueError(f"not a placeholder of a Multiversus event: {hidden!r}")


def _selection(revealed: Revealed) -> tuple[CoinId, tuple[ActionKind, ...]]:
    """The coin and action coins a selection's reveal opens (its value: the coin, then the
    actions)."""
    coin, *actions = revealed.value
    return coin, cast(tuple[ActionKind, ...], tuple(actions))


def _first_coin(state: MatchState, side: Side) -> CoinId:
    """A stand-in for a coin never revealed: which one the stash lost does not show."""
    stash = state.piles(side).stash
    return stash[0] if stash else ""


def fill_command(
    hidden: msgspec.Struct, events: Sequence[msgspec.Struct], state: MatchState
) -> Command | None:
    """The command a placeholder stands for, from its entry's filled-in event, salted as it was
    given in a ``"secrets"`` match; None if the entry holds no such event."""
    salted = state.settings.salts == "secrets"
    match hidden:
        case HiddenSelectCoins(player=player):
            for event in events:
                if isinstance(event, CoinsSelected):
                    coin, salt = event.coin, _salt(event.salt, salted)
                    return SelectCoins(
                        player, coin_unit(coin), coin_colour(coin), event.actions, salt
                    )
        case HiddenSelectReaction(player=player):
            for event in events:
                if isinstance(event, ReactionSelected) and event.coin is not None:
                    coin, salt = event.coin, _salt(event.salt, salted)
                    return SelectReaction(
                        player, coin_unit(coin), coin_colour(coin), event.actions, salt
                    )
        case HiddenChooseSecret(player=player, name=name):
            for event in events:
                if isinstance(event, SecretChosen) and event.name == name:
                    return ChooseSecret(player, name, event.choice, _salt(event.salt, salted))
        case _:
            raise ValueError(f"not a placeholder of a Multiversus command: {hidden!r}")
    return None


def _salt(salt: str, salted: bool) -> str | None:
    """A command's salt: none in a ``"seed"`` match, else its event's (a stand-in's if none)."""
    return (salt or STAND_IN_SALT) if salted else None
