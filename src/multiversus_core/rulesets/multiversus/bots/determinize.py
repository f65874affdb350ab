"""Determinization: a full match state consistent with what one side may know.

A search bot that cannot see the opponent's hidden choices samples them
(Cowling, Powley and Whitehouse, 2012): :func:`determinize` turns a
:class:`~multiversus_core.rulesets.multiversus.views.MatchView` into a :class:`MatchState` that
the viewer could not tell from the truth. What the view hides is drawn from
the bot's own random source:

- the opponent's unrevealed coin selection (active or reactive): a unit coin
  among those face down (its stash plus that selection), of a unit that can
  make such a selection, with action coins the unit may select (R3); every
  such selection alike, unless the caller picks among them (a search's model
  of the opponent, :data:`Pick`);
- the opponent's unrevealed set-up secrets: one of the sheet's options (R23);
- the chance to come: a fresh seed, so dice and flips are new draws. The
  match's own seed is never used: with seeded salts it would open every
  commitment;
- the salts of secrets chosen in the sample: a stand-in (:func:`apply_sampled`).

Like :func:`~multiversus_core.engine.viewlog.replayable`, which fills hidden
selections with stand-ins, the result is never a match log and never shown
to anyone: it is a sample to search on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeAlias

from msgspec.structs import replace

from multiversus_core.engine.chance import Chance
from multiversus_core.engine.commit import STAND_IN_SALT
from multiversus_core.rulesets.multiversus.commands import (
    ChooseSecret,
    Command,
    SelectCoins,
    SelectReaction,
)
from multiversus_core.rulesets.multiversus.events import Event
from multiversus_core.rulesets.multiversus.match import apply
from multiversus_core.rulesets.multiversus.selections import active_selections, reactive_selections
from multiversus_core.rulesets.multiversus.state import Activation, MatchState, Piles, Secret
from multiversus_core.rulesets.multiversus.terms import ActionKind, Side, other_side
from multiversus_core.rulesets.multiversus.units import CoinId, coin_unit
from multiversus_core.rulesets.multiversus.views import (
    ActivationView,
    MatchView,
    PilesView,
    SecretView,
)

Selection: TypeAlias = tuple[CoinId, tuple[ActionKind, ...]]
"""A unit coin and the action coins selected with it."""

Pick: TypeAlias = Callable[[MatchState, Side, Sequence[Selection], bool, random.Random], Selection]
"""Picks one of the selections (never empty) a side could have made, given the state drawn so
far, the side, whether the selection is active (else reactive) and the random source."""


def _any(
    state: MatchState, side: Side, options: Sequence[Selection], active: bool, rng: random.Random
) -> Selection:
    return rng.choice(options)


def determinize(view: MatchView, rng: random.Random, pick: Pick = _any) -> MatchState:
    """Return a full state consistent with ``view``, its hidden parts drawn from ``rng``.

    An unrevealed coin selection is ``pick``'s among those the side could have
    made (by default any, alike).

    The state's settings are the view's, so that its view is ``view`` again;
    the chance to come is drawn from a fresh seed: in the settings when the
    match's chance is public, or as the state's secret chance when the
    settings commit to one. Apply commands to it with :func:`apply_sampled`.
    """
    seed = rng.getrandbits(64)
    if view.settings.chance:
        settings, chance = view.settings, Chance(seed=seed, salt=STAND_IN_SALT)
    else:
        settings, chance = replace(view.settings, seed=seed), None
    state = MatchState(
        settings=settings,
        chance=chance,
        pending=view.pending,
        draws=view.draws,
        set_up_player=view.set_up_player,
        heroes_team=view.heroes_team,
        adversaries_team=view.adversaries_team,
        scenario=view.scenario,
        units=view.units,
        board=view.board,
        figures=view.figures,
        starting_side=view.starting_side,
        heroes_seat=view.heroes_seat,
        round=view.round,
        turns_in_round=view.turns_in_round,
        active=view.active,
        may_give_up=view.may_give_up,
        heroes=_all_face_down(view.heroes),
        adversaries=_all_face_down(view.adversaries),
        activation=None,
        ended=view.ended,
        winner=view.winner,
        secret_offers=view.secret_offers,
        secrets=tuple(_secret(view, s, rng) for s in view.secrets),
        activations=view.activations,
    )
    if view.activation is not None:
        state = _with_activation(state, view.activation, rng, pick)
    return state


def apply_sampled(state: MatchState, command: Command) -> tuple[MatchState, tuple[Event, ...]]:
    """Apply a command to a sampled state (:func:`determinize`): a secret command of a match
    that salts its secrets gets the stand-in salt.

    :raises InvalidCommandError: if the command is not well formed.
    :raises IllegalCommandError: if the rules do not allow it now.
    """
    if state.settings.salts == "secrets":
        match command:
            case SelectCoins(salt=None) | SelectReaction(salt=None) | ChooseSecret(salt=None):
                command = replace(command, salt=STAND_IN_SALT)
            case _:
                pass
    return apply(state, command)


def hidden_secrets(view: MatchView) -> tuple[tuple[Side, str], ...]:
    """Return (side, name) of every set-up secret chosen but hidden from the viewer."""
    return tuple((s.side, s.name) for s in view.secrets if s.choice is None)


def secret_options(view: MatchView | MatchState, side: Side, name: str) -> tuple[str, ...]:
    """Return the options the sheet offered for a side's secret (empty if none)."""
    for offer in view.secret_offers:
        if (offer.side, offer.name) == (side, name):
            return offer.options
    return ()


def _all_face_down(piles: PilesView) -> Piles:
    """Piles with every face-down coin in the stash; a hidden selection takes one out later."""
    stash = piles.stash if piles.stash is not None else piles.face_down
    return Piles(stash=stash, discard=piles.discard, removed=piles.removed)


def _secret(view: MatchView, secret: SecretView, rng: random.Random) -> Secret:
    choice = secret.choice
    if choice is None:
        options = secret_options(view, secret.side, secret.name)
        choice = rng.choice(options) if options else ""
    return Secret(
        side=secret.side,
        name=secret.name,
        choice=choice,
        revealed=secret.revealed,
        commitment=secret.commitment,
        salt=secret.salt or "",
    )


def _with_activation(
    state: MatchState, act: ActivationView, rng: random.Random, pick: Pick
) -> MatchState:
    reactive = other_side(act.side)
    unit, coin, actions, remaining = act.unit, act.coin, act.actions, act.remaining
    if act.hidden:
        coin, actions = _draw_selection(state, act.side, rng, pick, active=True)
        unit, remaining = coin_unit(coin), actions
        state = _take_from_stash(state, act.side, coin)
    reaction_coin, reaction_actions = act.reaction_coin, act.reaction_actions
    if act.reaction_hidden:
        reaction_coin, reaction_actions = _draw_selection(state, reactive, rng, pick, active=False)
        state = _take_from_stash(state, reactive, reaction_coin)
    assert unit is not None and actions is not None and remaining is not None
    activation = Activation(
        side=act.side,
        unit=unit,
        coin=coin,
        actions=actions,
        remaining=remaining,
        revealed=act.revealed,
        reaction_coin=reaction_coin,
        reaction_actions=reaction_actions or (),
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
        salt=act.salt or "",
        reaction_commitment=act.reaction_commitment,
        reaction_salt=act.reaction_salt or "",
        forced=act.forced,
    )
    return replace(state, activation=activation)


def _draw_selection(
    state: MatchState, side: Side, rng: random.Random, pick: Pick, *, active: bool
) -> Selection:
    """Pick a coin of ``side``'s stash and action coins its unit could have selected."""
    options: list[Selection] = []
    stash = state.piles(side).stash
    for coin in stash:
        unit = state.unit(coin_unit(coin))
        selections = active_selections(state, unit) if active else reactive_selections(state, unit)
        options.extend((coin, actions) for actions in selections)
    if options:
        return pick(state, side, options, active, rng)
    # The unit it selected may have been Disabled since: any face-down coin will do.
    fallback: tuple[ActionKind, ...] = ("attack",)
    return (rng.choice(stash) if stash else "", fallback)


def _take_from_stash(state: MatchState, side: Side, coin: CoinId) -> MatchState:
    piles = state.piles(side)
    stash = list(piles.stash)
    if coin in stash:
        stash.remove(coin)
    piles = replace(piles, stash=tuple(stash))
    return replace(state, heroes=piles) if side == "heroes" else replace(state, adversaries=piles)


__all__ = ["Pick", "Selection", "determinize", "hidden_secrets", "secret_options"]
