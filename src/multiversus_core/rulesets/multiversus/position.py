"""Multiversus positions as text: written against the teams and scenario laid out.

A Multiversus match lays its content out at set-up, when the Set Up Player
chooses the teams and scenario: a position names them (``heroes_team``,
``adversaries_team``, ``scenario``, by their ids), and the rest of it is
written against the state that choice gives (every unit, the board and the
figures where the scenario places them), so that a position mid-match names
only what play changed: figures moved or harmed, coins spent, the round, the
Initiative, the activation under way and the decision waited for.

A side's position (:func:`~multiversus_core.engine.position.redact_position`)
hides what its view hides (R4, R23): the other side's coin selection not
revealed yet, active or reactive, stands in as the first of that side's
face-down coins with no action coins (its unit that coin's, its stash the
other face-down coins), and each of its set-up secrets not revealed yet as
the secret's first option; every salt of them empty. A selection is revealed
before its activation acts, so nothing depends on its stand-in; a set-up
secret never revealed may be any of its options.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, cast

from msgspec.structs import replace

from multiversus_core.engine.audit import Revealed
from multiversus_core.engine.position import Bound, Known, Limit, PositionError, check_squares
from multiversus_core.rulesets.multiversus.catalog import find_team, missing_team
from multiversus_core.rulesets.multiversus.evolve import evolve_all
from multiversus_core.rulesets.multiversus.geometry import figure_squares
from multiversus_core.rulesets.multiversus.initiative import ROUNDS
from multiversus_core.rulesets.multiversus.setup import laid_out
from multiversus_core.rulesets.multiversus.state import Action, MatchState, Piles, Secret
from multiversus_core.rulesets.multiversus.terms import MAX_COUNT, SIDES, ActionKind, Side
from multiversus_core.rulesets.multiversus.units import CoinId, coin_unit
from multiversus_core.rulesets.multiversus.views import can_see

__all__ = ["NOTATION", "MultiversusNotation"]


class MultiversusNotation:
    """The template of a Multiversus position: its teams and scenario laid out."""

    keys: Final = ("heroes_team", "adversaries_team", "scenario")
    """The fields naming the teams and scenario, written first."""

    def template(self, state: MatchState) -> MatchState:
        """``state`` with its teams and scenario laid out, as set-up lays them out (step 2);
        ``state`` itself before they are chosen.

        :raises PositionError: if a team or scenario it names is not installed.
        """
        names = (state.heroes_team, state.adversaries_team, state.scenario)
        if names == (None, None, None):
            return state
        heroes_id, adversaries_id, scenario_id = names
        if heroes_id is None or adversaries_id is None or scenario_id is None:
            raise PositionError("name both teams and the scenario, or none of them")
        heroes, adversaries = find_team(heroes_id), find_team(adversaries_id)
        for team_id, sheet in ((heroes_id, heroes), (adversaries_id, adversaries)):
            if sheet is None:
                raise PositionError(missing_team(team_id))
        assert heroes is not None and adversaries is not None
        if heroes.side != "heroes" or adversaries.side != "adversaries":
            raise PositionError("heroes_team names a Hero team, adversaries_team an Adversary team")
        try:
            events = laid_out(state, heroes, adversaries, scenario_id)
        except KeyError:
            raise PositionError(f"{adversaries.name} has no scenario {scenario_id!r}") from None
        return evolve_all(state, events)

    def limits(self, state: MatchState) -> Iterator[Limit]:
        """The round within the match's six (R16), two turns a round, the activations
        counted, each coin in a pile one of its side's units' (a coin in one place at a
        time is :meth:`check`'s), the activation under way naming units, coins and figures
        of the sides it concerns (its offer's held step, its forced moves, their queue and
        the allies in their way, an attack's follow-up included), and each set-up secret one
        its sheet offers (R23)."""
        yield Bound("round", state.round, 0, ROUNDS)
        yield Bound("turns_in_round", state.turns_in_round, 0, 2)
        yield Bound("activations", state.activations, 0, MAX_COUNT)
        units = {side: {u.id for u in state.units if u.side == side} for side in SIDES}
        coins = {
            side: {coin for u in state.units if u.side == side for coin in u.coins}
            for side in SIDES
        }
        for side in SIDES:
            piles = state.piles(side)
            for pile in ("stash", "discard", "removed"):
                for coin in getattr(piles, pile):
                    yield Known(f"{side}.{pile}", coin, coins[side], f"a coin of the {side}")
        for index, secret in enumerate(state.secrets):
            offers = {o.name: o.options for o in state.secret_offers if o.side == secret.side}
            yield Known(
                f"secrets.{index}.name", secret.name, offers, f"a secret of the {secret.side}"
            )
            options = offers.get(secret.name, ())
            yield Known(f"secrets.{index}.choice", secret.choice, options, "one of its options")
        activation = state.activation
        if activation is None:
            return
        side = activation.side
        other: Side = "adversaries" if side == "heroes" else "heroes"
        yield Known("activation.unit", activation.unit, units[side], f"a unit of the {side}")
        yield Bound("activation.number", activation.number, 1, state.activations)
        if activation.coin is not None:
            yield Known("activation.coin", activation.coin, coins[side], f"a coin of the {side}")
        if activation.reaction_coin is not None:
            yield Known(
                "activation.reaction_coin",
                activation.reaction_coin,
                coins[other],
                f"a coin of the {other}",
            )
        figures = {f.id for f in state.figures}
        for unit_id in activation.attacked_units:
            yield Known("activation.attacked_units", unit_id, units[other], "an enemy unit")
        if activation.offer is not None:
            offer = activation.offer
            yield Known("activation.offer.figure", offer.figure, figures, "a figure")
            yield Known("activation.offer.held.figure", offer.held.figure, figures, "a figure")
            if offer.held.target is not None:
                yield Known("activation.offer.held.target", offer.held.target, figures, "a figure")
        forced = activation.forced
        if forced is not None:
            if forced.ally is not None:
                yield Known("activation.forced.ally", forced.ally, figures, "a figure")
            for n, move in enumerate((forced.move, *forced.queue)):
                field = "activation.forced.move" if n == 0 else f"activation.forced.queue.{n - 1}"
                yield Known(f"{field}.figure", move.figure, figures, "a figure")
                for ally in move.let_through:
                    yield Known(f"{field}.let_through", ally, figures, "a figure")
        for name in ("action", "reaction"):
            action: Action | None = getattr(activation, name)
            if action is not None:
                if action.mover is not None:
                    yield Known(f"activation.{name}.mover", action.mover, figures, "a figure")
                for figure in action.done:
                    yield Known(f"activation.{name}.done", figure, figures, "a figure")
                for figure in action.follow_up or ():
                    yield Known(f"activation.{name}.follow_up", figure, figures, "a figure")
                yield Known(
                    f"activation.{name}.unit",
                    action.unit,
                    units[action.side],
                    f"a unit of the {action.side}",
                )
                if action.target_unit is not None:
                    yield Known(
                        f"activation.{name}.target_unit",
                        action.target_unit,
                        units[other if action.side == side else side],
                        "an enemy unit",
                    )

    def check(self, state: MatchState) -> None:
        """Each coin in one place at a time; every figure on the board within it (a moving
        figure may pass through an ally, so two may share a space for a while).

        :raises PositionError: naming the coin or the figure.
        """
        for side in SIDES:
            piles = state.piles(side)
            seen: set[str] = set()
            for coin in (*piles.stash, *piles.discard, *piles.removed):
                if coin in seen:
                    raise PositionError(f"{side}: coin {coin} is in two places")
                seen.add(coin)
        placed = [f for f in state.figures if f.square is not None]
        if placed and state.board is None:
            raise PositionError("figures stand on a board not laid out")
        if state.board is None:
            return
        width, height = state.board.width, state.board.height
        for f in placed:
            check_squares([(f.id, figure_squares(f))], width, height)

    def hide(self, state: MatchState, viewer: str) -> tuple[MatchState, tuple[str, ...]]:
        """``state`` as ``viewer`` may know it: each coin selection and set-up secret of
        another side not revealed yet stood in for, and their audit keys (``coins:heroes:``,
        ``reaction:adversaries:``, ``secret:heroes:shapeshifter``)."""
        return _hide(state, viewer)

    def fill(
        self, state: MatchState, key: str, revealed: Revealed | None
    ) -> tuple[MatchState, ...]:
        """``state`` with the stand-in under ``key`` filled in from its reveal; never
        revealed, the state itself for a selection, each option in turn for a set-up secret.

        :raises PositionError: if ``key`` names nothing hidden, or the reveal gives a coin
            that is not face down.
        """
        return _fill(state, key, revealed)


NOTATION: Final = MultiversusNotation()
"""Multiversus' notation, as its ruleset offers it."""


def _hide(state: MatchState, viewer: str) -> tuple[MatchState, tuple[str, ...]]:
    keys: list[str] = []
    secrets = list(state.secrets)
    for index, secret in enumerate(secrets):
        if not secret.revealed and not _sees(viewer, secret.side):
            first = _options(state, secret)[0]
            secrets[index] = replace(secret, choice=first, salt="")
            keys.append(f"secret:{secret.side}:{secret.name}")
    act = state.activation
    piles = {"heroes": state.heroes, "adversaries": state.adversaries}
    if act is not None:
        side, reactive = act.side, _other(act.side)
        if not act.revealed and act.coin is not None and not _sees(viewer, side):
            coin = min((*piles[side].stash, act.coin))  # the first face-down coin
            piles[side] = _swapped(piles[side], act.coin, coin)
            act = replace(act, unit=coin_unit(coin), coin=coin, actions=(), remaining=(), salt="")
            keys.append(f"coins:{side}:")
        chosen = act.reaction_coin
        if (
            act.reaction_selected
            and chosen is not None
            and not act.reaction_revealed
            and not _sees(viewer, reactive)
        ):
            first = min((*piles[reactive].stash, chosen))
            piles[reactive] = _swapped(piles[reactive], chosen, first)
            act = replace(act, reaction_coin=first, reaction_actions=(), reaction_salt="")
            keys.append(f"reaction:{reactive}:")
    if not keys:
        return state, ()
    hidden = replace(
        state,
        secrets=tuple(secrets),
        activation=act,
        heroes=piles["heroes"],
        adversaries=piles["adversaries"],
    )
    return hidden, tuple(keys)


def _fill(state: MatchState, key: str, revealed: Revealed | None) -> tuple[MatchState, ...]:
    kind, side_name, name = key.split(":", 2)
    if side_name not in SIDES:
        raise PositionError(f"hidden: no side in {key!r}")
    side: Side = side_name
    if kind == "secret":
        found = [s for s in state.secrets if (s.side, s.name) == (side, name)]
        if not found:
            raise PositionError(f"hidden: no set-up secret {key!r}")
        if revealed is None:  # kept to the end, and the rules may act on it before
            options = _options(state, found[0])
            return tuple(_with_secret(state, side, name, option, "") for option in options)
        return (_with_secret(state, side, name, revealed.value[0], revealed.salt),)
    act = state.activation
    if act is None or kind not in ("coins", "reaction"):
        raise PositionError(f"hidden: no coin selection {key!r} under way")
    if revealed is None:  # revealed before its activation acts: nothing depends on it
        return (state,)
    coin, *rest = revealed.value
    actions = cast(tuple[ActionKind, ...], tuple(rest))
    shown = act.coin if kind == "coins" else act.reaction_coin
    piles = state.piles(side)
    if shown is None or coin not in (shown, *piles.stash):
        raise PositionError(f"the reveal of {key!r} gives {coin!r}, not a face-down coin")
    piles = _swapped(piles, shown, coin)
    if kind == "coins":
        act = replace(
            act,
            unit=coin_unit(coin),
            coin=coin,
            actions=actions,
            remaining=actions,
            salt=revealed.salt,
        )
    else:
        act = replace(
            act, reaction_coin=coin, reaction_actions=actions, reaction_salt=revealed.salt
        )
    if side == "heroes":
        return (replace(state, activation=act, heroes=piles),)
    return (replace(state, activation=act, adversaries=piles),)


def _sees(viewer: str, side: Side) -> bool:
    return viewer in SIDES and can_see(viewer, side)


def _other(side: Side) -> Side:
    return "adversaries" if side == "heroes" else "heroes"


def _options(state: MatchState, secret: Secret) -> tuple[str, ...]:
    """The options a set-up secret's sheet offers (one empty choice if it names none)."""
    for offer in state.secret_offers:
        if (offer.side, offer.name) == (secret.side, secret.name) and offer.options:
            return offer.options
    return ("",)


def _with_secret(state: MatchState, side: Side, name: str, choice: str, salt: str) -> MatchState:
    secrets = tuple(
        replace(s, choice=choice, salt=salt) if (s.side, s.name) == (side, name) else s
        for s in state.secrets
    )
    return replace(state, secrets=secrets)


def _swapped(piles: Piles, out: CoinId, back: CoinId) -> Piles:
    """The piles with ``out`` back in the stash and ``back`` taken out: stashes stay sorted."""
    stash = [*piles.stash, out]
    stash.remove(back)
    stash.sort()
    return replace(piles, stash=tuple(stash))
