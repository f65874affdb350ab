"""Bots decide from their side's view only: legal, total, reproducible, and blind to secrets."""

from __future__ import annotations

import importlib.metadata
import json
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from multiversus_core import MatchSettings, apply, decider_seat, legal_commands, start_match
from multiversus_core.engine.bots import ShortlistBot, UniformBot
from multiversus_core.engine.ismcts import search
from multiversus_core.engine.play import play_match
from multiversus_core.rulesets.multiversus.bots.determinize import determinize
from multiversus_core.rulesets.multiversus.bots.evaluation import (
    ADVANCE,
    evaluate,
    mean_gap,
    objective_squares,
    score,
    search_evaluate,
    search_score,
)
from multiversus_core.rulesets.multiversus.bots.heuristic import (
    HeuristicBot,
    Ratings,
    initiative_loss_odds,
    push_luck_risk,
    rate_reactions,
    rate_selections,
)
from multiversus_core.rulesets.multiversus.bots.search import (
    DEFAULT_ITERATIONS,
    GAME,
    MODEL_TEMPERATURE,
    SearchBot,
)
from multiversus_core.rulesets.multiversus.bots.specs import (
    BOT_NAMES,
    Bot,
    RandomBot,
    bot_names,
    command_for,
    make_bot,
)
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.commands import (
    Command,
    SelectCoins,
    Step,
)
from multiversus_core.rulesets.multiversus.selections import active_selections, reactive_selections
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import Seat, other_side
from multiversus_core.rulesets.multiversus.units import coin_colour, coin_unit
from multiversus_core.rulesets.multiversus.variants import VARIANTS
from multiversus_core.rulesets.multiversus.views import MatchView, view, viewer_of
from tests.positions import at
from tests.support import conditioned, placed, play, react, set_up

SEEDS = st.integers(min_value=0, max_value=2**32)
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEROES = sorted(t.id for t in installed_teams() if t.side == "heroes")
ADVERSARIES = sorted(t.id for t in installed_teams() if t.side == "adversaries")
SPECS = ("random", "heuristic", "mcts:4")
"""Every bot; the search with a small budget, so that the properties run quickly."""


def match_settings(seed: int, variants: frozenset[str] = frozenset()) -> MatchSettings:
    rng = random.Random(seed)
    return MatchSettings(
        heroes=rng.choice(HEROES),
        adversaries=rng.choice(ADVERSARIES),
        variants=tuple(sorted(variants)),
        seed=seed,
    )


# --- legal, total, reproducible ----------------------------------------------------


@PROPERTY
@given(
    seed=SEEDS,
    first=st.sampled_from(SPECS),
    second=st.sampled_from(SPECS),
    variants=st.frozensets(st.sampled_from(sorted(VARIANTS))),
)
def test_bots_only_give_legal_commands_and_finish_every_match(
    seed: int, first: str, second: str, variants: frozenset[str]
) -> None:
    # command_for raises if a bot answers with a command that is not legal.
    bots = {1: make_bot(first, seed), 2: make_bot(second, seed + 1)}
    _, final = play_match(match_settings(seed, variants), bots)
    assert final.is_over


@pytest.mark.parametrize(("heroes", "adversaries"), [(h, a) for h in HEROES for a in ADVERSARIES])
def test_every_bot_finishes_every_pairing_with_every_variant_on(
    heroes: str, adversaries: str
) -> None:
    variants = tuple(sorted(VARIANTS))
    for first, second in (("heuristic", "mcts:2"), ("mcts:2", "random")):
        settings_ = MatchSettings(heroes=heroes, adversaries=adversaries, variants=variants, seed=7)
        _, final = play_match(settings_, {1: make_bot(first, 1), 2: make_bot(second, 2)})
        assert final.is_over


@pytest.mark.parametrize("spec", SPECS)
def test_a_bot_with_the_same_seed_plays_the_same_match(spec: str) -> None:
    settings_ = match_settings(3)
    first = play_match(settings_, {1: make_bot(spec, 1), 2: make_bot("heuristic", 2)})
    again = play_match(settings_, {1: make_bot(spec, 1), 2: make_bot("heuristic", 2)})
    assert first == again


# --- blind to what its side cannot see -----------------------------------------------


def position(seed: int, wanted_hidden: bool) -> tuple[MatchState, Seat]:
    """Random play to a random decision with a real choice (and, if wanted, something hidden)."""
    rng = random.Random(seed)
    state = start_match(match_settings(seed, frozenset(rng.sample(sorted(VARIANTS), 2))))
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    stop = rng.randrange(30, 500)
    found: tuple[MatchState, Seat] | None = None
    for number in range(2000):
        seat = decider_seat(state)
        if seat is None:
            break
        if len(legal_commands(state, seat)) > 1 and state.side_of(seat) is not None:
            hidden = _something_hidden(state, seat)
            if not wanted_hidden or hidden:
                found = (state, seat)
                if number >= stop:
                    break
        state, _ = apply(state, command_for(bots[seat], state, seat))
    assert found is not None
    return found


def _something_hidden(state: MatchState, seat: Seat) -> bool:
    side = state.side_of(seat)
    assert side is not None
    act = state.activation
    opponent = other_side(side)
    if any(s.side == opponent and not s.revealed for s in state.secrets):
        return True
    return act is not None and (
        (act.side == opponent and not act.revealed)
        or (act.side == side and act.reaction_coin is not None and not act.reaction_revealed)
    )


def other_truth(state: MatchState, seat: Seat, rng: random.Random) -> MatchState:
    """The state with everything ``seat``'s side cannot see drawn again: the opponent's
    unrevealed selection and secrets, and the chance to come (the seed)."""
    side = state.side_of(seat)
    assert side is not None
    opponent = other_side(side)
    secrets = {
        str(i): {"choice": rng.choice(_options(state, s.side, s.name))}
        for i, s in enumerate(state.secrets)
        if s.side == opponent and not s.revealed
    }
    changes: dict[str, Any] = {"secrets": secrets} if secrets else {}
    changes["settings"] = {"seed": rng.getrandbits(64)}
    act = state.activation
    piles = state.piles(opponent)
    if act is None:
        pass  # nothing selected: only the secrets and the chance to come
    elif act.side == opponent and not act.revealed and act.coin is not None:
        pool = (*piles.stash, act.coin)
        coin, actions = _draw(state, pool, rng, active=True)
        chosen = {"coin": coin, "unit": coin_unit(coin), "actions": actions, "remaining": actions}
        changes["activation"] = chosen
        changes[opponent] = {"stash": sorted(set(pool) - {coin}, key=pool.index)}
    elif act.side == side and act.reaction_coin is not None and not act.reaction_revealed:
        pool = (*piles.stash, act.reaction_coin)
        coin, actions = _draw(state, pool, rng, active=False)
        changes["activation"] = {"reaction_coin": coin, "reaction_actions": actions}
        changes[opponent] = {"stash": sorted(set(pool) - {coin}, key=pool.index)}
    other: MatchState = at(state, " ".join(f"{k}={json.dumps(v)}" for k, v in changes.items()))
    return other


def _options(state: MatchState, side: str, name: str) -> tuple[str, ...]:
    return next(o.options for o in state.secret_offers if (o.side, o.name) == (side, name))


def _draw(
    state: MatchState, pool: Sequence[str], rng: random.Random, *, active: bool
) -> tuple[str, tuple[str, ...]]:
    options = []
    for coin in pool:
        unit = state.unit(coin_unit(coin))
        kinds = active_selections(state, unit) if active else reactive_selections(state, unit)
        options.extend((coin, a) for a in kinds)
    return rng.choice(options) if options else (pool[0], ("attack",))


@PROPERTY
@given(seed=SEEDS, spec=st.sampled_from(SPECS))
def test_a_bot_chooses_the_same_whatever_its_side_cannot_see(seed: int, spec: str) -> None:
    state, seat = position(seed, wanted_hidden=True)
    other = other_truth(state, seat, random.Random(seed))
    viewer = viewer_of(state, seat)
    seen, seen_other = view(state, viewer), view(other, viewer)
    # The two states differ only where this side cannot look, the seed included.
    assert seen_other == seen
    legal = legal_commands(state, seat)
    assert legal_commands(other, seat) == legal
    assert make_bot(spec, seed).choose(seen, legal) == make_bot(spec, seed).choose(
        seen_other, legal
    )


def test_the_no_peek_property_is_tested_on_positions_with_hidden_choices() -> None:
    found = 0
    for seed in range(6):
        state, seat = position(seed, wanted_hidden=True)
        found += _something_hidden(state, seat)
        other = other_truth(state, seat, random.Random(seed))
        assert other != state
    assert found == 6


# --- determinization ----------------------------------------------------------------


@PROPERTY
@given(seed=SEEDS)
def test_a_determinization_looks_exactly_like_the_view_it_came_from(seed: int) -> None:
    state, seat = position(seed, wanted_hidden=False)
    viewer = viewer_of(state, seat)
    seen = view(state, viewer)
    for sample in (
        determinize(seen, random.Random(seed)),
        GAME.determinize(seen, random.Random(seed)),
    ):
        assert replace(view(sample, viewer), settings=seen.settings) == seen
        assert sample.settings.seed != state.settings.seed or seed == 0
        assert legal_commands(sample, seat) == legal_commands(state, seat)


SPREAD = 23
"""A match whose first reactive selection with more than four choices has ratings far apart."""


def reacting(seed: int) -> tuple[MatchState, Seat]:
    """Random play to a reactive selection, the active one made and hidden from its seat."""
    state = start_match(match_settings(seed))
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        if state.pending == "react" and len(legal_commands(state, seat)) > 4:
            return state, seat
        state, _ = apply(state, command_for(bots[seat], state, seat))
    pytest.fail(f"no reactive selection in match {seed}")


def shares(ratings: Sequence[float]) -> list[float]:
    """The share of draws each rating should get from the search's model."""
    weights = [math.exp((r - max(ratings)) / MODEL_TEMPERATURE) for r in ratings]
    return [w / sum(weights) for w in weights]


def test_the_search_draws_a_hidden_selection_as_the_heuristic_rates_it_not_alike() -> None:
    state, seat = reacting(SPREAD)
    side = other_side(state.side_of(seat) or "heroes")
    seen = view(state, viewer_of(state, seat))
    first = determinize(seen, random.Random(0))
    assert first.activation is not None and first.activation.coin is not None
    options = [
        (coin, actions)
        for coin in (*first.piles(side).stash, first.activation.coin)
        for actions in active_selections(first, first.unit(coin_unit(coin)))
    ]
    ratings = rate_selections(
        first, side, [(coin_unit(c), a, coin_colour(c)) for c, a in options], active=True
    )
    best = max(range(len(options)), key=lambda i: ratings[i])
    expected = shares(ratings)[best]
    assert expected > 3 / len(options)

    def drawn(sample: MatchState) -> tuple[str | None, tuple[str, ...]]:
        assert sample.activation is not None
        return sample.activation.coin, sample.activation.actions

    rng = random.Random(1)
    modelled = [drawn(GAME.determinize(seen, rng)) for _ in range(400)]
    alike = [drawn(determinize(seen, rng)) for _ in range(400)]
    assert abs(modelled.count(options[best]) / 400 - expected) < 0.06
    assert abs(alike.count(options[best]) / 400 - 1 / len(options)) < 0.06


def test_the_models_ratings_are_remembered_by_position_and_a_new_position_rated_anew() -> None:
    state, seat = reacting(SPREAD)
    side = state.side_of(seat)
    assert side is not None
    legal = legal_commands(state, seat)
    memo: Ratings = {}
    first = rate_reactions(state, side, legal, memo)
    assert first == rate_reactions(state, side, legal)
    assert rate_reactions(state, side, legal, memo) == first
    assert len(memo) == 1
    # Another position (the reacting side's characters wounded) is rated anew, not recalled.
    other = replace(
        state,
        figures=tuple(
            replace(f, condition="wounded") if f.side == side and not f.terrain else f
            for f in state.figures
        ),
    )
    fresh = rate_reactions(other, side, legal)
    assert fresh != first
    assert rate_reactions(other, side, legal, memo) == fresh
    assert len(memo) == 2


def test_the_search_models_a_reactive_selection_and_searches_every_other_decision() -> None:
    state, seat = reacting(SPREAD)
    legal = legal_commands(state, seat)
    side = state.side_of(seat)
    assert side is not None
    ratings = rate_reactions(state, side, legal)
    expected = shares([r for r, _ in ratings])
    best = max(range(len(ratings)), key=lambda i: expected[i])
    assert expected[best] > 3 / len(ratings)
    rng = random.Random(2)
    drawn = [GAME.modelled(state, legal, rng) for _ in range(400)]
    assert all(d in legal for d in drawn)
    assert abs(drawn.count(ratings[best][1]) / 400 - expected[best]) < 0.06
    other = position(4, wanted_hidden=False)[0]
    for state in (start_match(match_settings(4)), other):
        if state.pending != "react":
            seat = decider_seat(state)
            assert seat is not None
            assert GAME.modelled(state, legal_commands(state, seat), rng) is None


# --- the evaluation and the odds ------------------------------------------------------


def test_the_evaluation_of_an_ended_match_is_its_result() -> None:
    state = start_match(match_settings(1))
    won = at(state, "pending=over ended=elimination winner=heroes")
    assert evaluate(won, "heroes") == 1.0
    assert evaluate(won, "adversaries") == -1.0
    assert evaluate(at(won, "winner=null"), "heroes") == 0.0


def playing(seed: int = 2) -> MatchState:
    state, _ = position(seed, wanted_hidden=False)
    return state


def test_harm_dealt_raises_the_evaluation_and_harm_suffered_lowers_it() -> None:
    state = playing()
    enemy = next(f for f in state.figures if f.side == "adversaries" and not f.terrain)
    hurt = at(state, f'figures={{"{enemy.id}":{{"condition":"wounded"}}}}')
    assert evaluate(hurt, "heroes") > evaluate(state, "heroes")
    assert evaluate(hurt, "adversaries") < evaluate(state, "adversaries")


def test_standing_alone_on_the_objective_raises_the_evaluation() -> None:
    settings_ = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=4)
    state = playing_with(settings_)
    squares = sorted(objective_squares(state))
    assert squares, "the Smoke Vent is the objective"
    hero = next(
        f for f in state.figures if f.side == "heroes" and not f.terrain and f.size == "medium"
    )
    others = [f for f in state.figures if f.id != hero.id]
    free = next(s for s in squares if all(f.square != s for f in others))
    column, row = free
    there = at(state, f'figures={{"{hero.id}":{{"square":[{column},{row}]}}}}')
    assert evaluate(there, "heroes") > evaluate(state, "heroes")


def rear_knight() -> MatchState:
    """The Heroes' first turn against the cats (no objective tile): the Knight, on the back
    row, stands behind every other Hero."""
    state = set_up(MatchSettings(heroes="banner-knight", adversaries="swartzblak", seed=3))
    forward = {"squire": (3, 6), "militia-1": (5, 6), "militia-2": (7, 6), "militia-3": (9, 6)}
    return placed(state, forward)


def test_the_searchs_evaluation_counts_every_character_closing_in_not_only_the_nearest() -> None:
    state = rear_knight()
    assert state.figure("knight").square == (1, 9)
    closer = placed(state, {"knight": (1, 8)})
    # The heuristic's score counts the nearest character only: it sees no difference.
    assert score(closer, "heroes") == score(state, "heroes")
    assert mean_gap(closer, "heroes") == pytest.approx(mean_gap(state, "heroes") - 1 / 5)
    gained = search_score(closer, "heroes") - search_score(state, "heroes")
    assert gained == pytest.approx(ADVANCE / 12 / 5)
    assert search_evaluate(closer, "heroes") > search_evaluate(state, "heroes")
    # A disabled character has no goal to close in on (the Knight was 6 from the cat at
    # (5, 3)); nor has a side with no one able.
    down = conditioned(state, {"knight": "disabled"})
    assert mean_gap(down, "heroes") == pytest.approx((5 * mean_gap(state, "heroes") - 6) / 4)
    heroes = [f.id for f in state.figures if f.side == "heroes"]
    assert mean_gap(conditioned(state, dict.fromkeys(heroes, "disabled")), "heroes") == 0.0


def test_the_goal_is_the_objective_tile_when_a_win_condition_names_one() -> None:
    state = playing_with(MatchSettings(heroes="banner-knight", adversaries="smogon", seed=4))
    vent = sorted(objective_squares(state))
    others = [f.id for f in state.figures if f.side == "heroes" and f.id != "knight"]
    alone = conditioned(state, dict.fromkeys(others, "eliminated"))
    free = next(s for s in vent if all(f.square != s for f in alone.figures))
    assert mean_gap(placed(alone, {"knight": free}), "heroes") == 0.0
    # Three columns and two rows from the tile's nearest space, (6, 4): three king's moves.
    assert vent[0] == (6, 4)
    assert mean_gap(placed(alone, {"knight": (3, 2)}), "heroes") == 3


def test_the_search_steps_its_rear_characters_towards_their_goal_where_the_heuristic_idles() -> (
    None
):
    state = play(
        rear_knight(),
        SelectCoins(player=1, unit="knight", colour="green", actions=("move", "move")),
    )
    state = react(state, "cats")  # a Defend coin: nothing to answer a step with
    assert state.pending == "move"
    seen, legal = view(state, viewer_of(state, 1)), legal_commands(state, 1)
    forward = Step(player=1, figure="knight", direction=(0, -1))
    assert forward in legal
    assert {SearchBot(seed).choose(seen, legal) for seed in range(8)} == {forward}
    # Every step the Knight could take leaves the heuristic's score where it was.
    assert len({HeuristicBot(seed).choose(seen, legal) for seed in range(8)}) > 1


def playing_with(settings_: MatchSettings) -> MatchState:
    state = start_match(settings_)
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    while state.round < 2:
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], state, seat))
    return state


@pytest.mark.parametrize(
    ("greys", "six_loses", "odds"),
    [
        (0, True, Fraction(1, 6)),
        (1, True, Fraction(2, 6)),
        (2, True, Fraction(3, 6)),
        (5, True, Fraction(1)),
        (6, True, Fraction(1)),
        (0, False, Fraction(0)),
        (2, False, Fraction(2, 6)),
        (6, False, Fraction(1)),
    ],
)
def test_the_odds_of_losing_the_initiative_are_exact(
    greys: int, six_loses: bool, odds: Fraction
) -> None:
    assert initiative_loss_odds(greys, six_loses=six_loses) == odds


def test_pushing_luck_risks_nothing_in_the_rounds_second_turn() -> None:
    state = playing()
    side = state.active
    assert side is not None
    assert push_luck_risk(at(state, "turns_in_round=2"), side, grey_next=True) == 0.0
    assert push_luck_risk(at(state, "turns_in_round=1"), side, grey_next=True) > 0.0


# --- a generic search -----------------------------------------------------------------


class Nim:
    """Take one or two from a pile; who takes the last wins. Perfect information."""

    def to_move(self, state: tuple[int, int]) -> int | None:
        return None if state[0] == 0 else state[1]

    def legal(self, state: tuple[int, int], player: int) -> Sequence[int]:
        return [n for n in (1, 2) if n <= state[0]]

    def apply(self, state: tuple[int, int], command: int) -> tuple[int, int]:
        return state[0] - command, 1 - state[1]

    def determinize(self, view: tuple[int, int], rng: random.Random) -> tuple[int, int]:
        return view

    def evaluate(self, state: tuple[int, int], player: int) -> float:
        if state[0] > 0:
            return 0.0
        return 1.0 if state[1] != player else -1.0  # the player who just took the last won

    def is_horizon(self, start: tuple[int, int], state: tuple[int, int]) -> bool:
        return False

    def playout(self, state: tuple[int, int], legal: Sequence[int], rng: random.Random) -> int:
        return rng.choice(list(legal))

    def modelled(
        self, state: tuple[int, int], legal: Sequence[int], rng: random.Random
    ) -> int | None:
        return None


class Pennies:
    """Seat 0 shows 1 or 2, then seat 1 does, unseen by seat 0 in truth; seat 0 wins if they
    differ. Seat 1's choice is modelled as ``answer`` if given."""

    def __init__(self, answer: int | None) -> None:
        self.answer = answer

    def to_move(self, state: tuple[int, ...]) -> int | None:
        return None if len(state) == 2 else len(state)

    def legal(self, state: tuple[int, ...], player: int) -> Sequence[int]:
        return [1, 2]

    def apply(self, state: tuple[int, ...], command: int) -> tuple[int, ...]:
        return (*state, command)

    def determinize(self, view: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        return view

    def evaluate(self, state: tuple[int, ...], player: int) -> float:
        won = state[0] != state[1]
        return 1.0 if won == (player == 0) else -1.0

    def is_horizon(self, start: tuple[int, ...], state: tuple[int, ...]) -> bool:
        return False

    def playout(self, state: tuple[int, ...], legal: Sequence[int], rng: random.Random) -> int:
        return rng.choice(list(legal))

    def modelled(
        self, state: tuple[int, ...], legal: Sequence[int], rng: random.Random
    ) -> int | None:
        return self.answer if len(state) == 1 else None


def test_a_modelled_decision_is_played_as_the_model_says_never_answered_by_the_tree() -> None:
    # As a node, seat 1's choice answers seat 0's, which it cannot see: every choice loses.
    searched = search(Pennies(None), (), [1, 2], 0, random.Random(1), iterations=200)
    assert max(searched.values.values()) < 0
    # Modelled, in the tree and the playouts alike, the choice that beats the model wins.
    modelled = search(Pennies(1), (), [1, 2], 0, random.Random(1), iterations=200)
    assert modelled.command == 2
    assert modelled.values == {1: -1.0, 2: 1.0}
    # A new node's first visit plays out at once: the model answers there too.
    for seed in range(10):
        first = search(Pennies(1), (), [1, 2], 0, random.Random(seed), iterations=2)
        assert first.values == {1: -1.0, 2: 1.0}


@pytest.mark.parametrize(("pile", "winning"), [(4, 1), (5, 2), (7, 1), (8, 2)])
def test_the_search_finds_the_winning_move_of_a_game_it_knows_only_by_its_interface(
    pile: int, winning: int
) -> None:
    result = search(Nim(), (pile, 0), [1, 2], 0, random.Random(1), iterations=400)
    assert result.command == winning
    assert result.iterations == 400


class Take(NamedTuple):
    player: int
    count: int


class CountedNim(Nim):
    """Nim with commands that name their player, counting its iterations (each determinizes
    once) and its moves: its work."""

    def __init__(self) -> None:
        self.iterations = 0
        self.moves = 0

    def legal(self, state: tuple[int, int], player: int) -> Sequence[Take]:
        return [Take(player, n) for n in super().legal(state, player)]

    def determinize(self, view: tuple[int, int], rng: random.Random) -> tuple[int, int]:
        self.iterations += 1
        return view

    def apply(self, state: tuple[int, int], command: Take) -> tuple[int, int]:
        self.moves += 1
        return super().apply(state, command.count)

    def playout(self, state: tuple[int, int], legal: Sequence[Take], rng: random.Random) -> Take:
        return rng.choice(list(legal))


class NimSearch(ShortlistBot):
    """A search of Nim's two takes whose work is the moves it plays, at most ``limit`` an
    iteration of its budget."""

    def __init__(self, limit: float | None, iterations: int) -> None:
        self.work_per_iteration = limit
        super().__init__(Nim(), 1, iterations=iterations)
        self.searched: list[CountedNim] = []

    def heuristic(self, seed: int) -> UniformBot:
        return UniformBot(seed)

    def shortlist(self, view: Any, legal: Any) -> Sequence[Any] | None:
        return [Take(0, 1), Take(0, 2)]

    def guided(self, view: Any, candidates: Sequence[Any]) -> CountedNim:
        self.searched.append(CountedNim())
        return self.searched[-1]

    def work_done(self, game: Any) -> Any:
        return lambda: float(game.moves)


def test_a_search_stops_after_the_iteration_that_passes_its_work_limit() -> None:
    unbounded = NimSearch(None, 50)
    unbounded.choose((12, 0), [Take(0, 1), Take(0, 2)])
    (whole,) = unbounded.searched
    assert whole.iterations == 50 and whole.moves > 50 * 2
    bounded = NimSearch(2, 50)  # 100 moves: each iteration plays several
    bounded.choose((12, 0), [Take(0, 1), Take(0, 2)])
    (cut,) = bounded.searched
    assert 1 <= cut.iterations < 50
    assert 100 <= cut.moves < 100 + 12  # the last iteration plays at most the pile
    again = NimSearch(2, 50)
    again.choose((12, 0), [Take(0, 1), Take(0, 2)])
    assert (again.searched[0].iterations, again.searched[0].moves) == (cut.iterations, cut.moves)


def test_the_search_is_reproducible_with_an_iteration_budget_and_a_seed() -> None:
    state, seat = position(4, wanted_hidden=False)
    seen, legal = view(state, viewer_of(state, seat)), legal_commands(state, seat)
    choices = {SearchBot(9, iterations=12).choose(seen, legal) for _ in range(3)}
    assert len(choices) == 1


# --- bot specs and installed bots -----------------------------------------------------


def test_make_bot_names_every_bot() -> None:
    assert BOT_NAMES == ("random", "heuristic", "mcts")
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)
    default = make_bot("mcts", 1)
    assert isinstance(default, SearchBot) and default.iterations == DEFAULT_ITERATIONS
    chosen = make_bot("mcts:7", 1)
    assert isinstance(chosen, SearchBot) and chosen.iterations == 7


@pytest.mark.parametrize("spec", ["mcts:0", "mcts:x", "mcts:", "mcts:-3", "heuristic:2"])
def test_make_bot_refuses_a_bad_argument(spec: str) -> None:
    with pytest.raises(ValueError, match=r"mcts:N|takes no argument"):
        make_bot(spec, 0)


class FirstBot:
    """A third-party bot: always the first legal command."""

    def choose(self, view: MatchView, legal: Sequence[Command]) -> Command:
        return legal[0]


def first_bot(argument: str, seed: int) -> Bot:
    return FirstBot()


def test_a_bot_installed_through_the_entry_point_group_is_made_by_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    point = importlib.metadata.EntryPoint(
        name="first", value="tests.test_bots:first_bot", group="multiversus.bots"
    )
    real = importlib.metadata.entry_points

    def entry_points(**params: str) -> importlib.metadata.EntryPoints:
        if params.get("group") == "multiversus.bots":
            wanted = params.get("name")
            return importlib.metadata.EntryPoints([point] if wanted in (None, "first") else [])
        return real(**params)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert "first" in bot_names()
    assert isinstance(make_bot("first", 3), FirstBot)
    _, final = play_match(match_settings(2), {1: make_bot("first", 1), 2: make_bot("heuristic", 2)})
    assert final.is_over


def test_command_for_refuses_a_bot_that_answers_out_of_turn() -> None:
    from multiversus_core.engine.errors import IllegalCommandError

    state = start_match(match_settings(1))
    with pytest.raises(IllegalCommandError, match="not waiting for seat 2"):
        command_for(RandomBot(1), state, 2)


def selection(more_than: int) -> tuple[MatchView, Sequence[Command]]:
    """The view and legal commands of the first random position (by seed) choosing among
    more than ``more_than`` coin selections."""
    for seed in range(40):
        state, seat = position(seed, wanted_hidden=False)
        if state.pending == "select" and len(legal_commands(state, seat)) > more_than:
            return view(state, viewer_of(state, seat)), legal_commands(state, seat)
    pytest.fail(f"no selection with more than {more_than} choices")


def test_the_search_bot_searches_the_heuristics_shortlist_of_coin_selections() -> None:
    seen, legal = selection(8)
    short = HeuristicBot(1).shortlist(seen, legal, 4)
    kept = [c for c in short if c.__struct_config__.tag == "select_coins"]
    assert len(kept) == 4
    assert all(c in legal for c in short)
    assert SearchBot(1, iterations=6, shortlist=4).choose(seen, legal) in short


@pytest.mark.parametrize(
    ("iterations", "size"), [(1, 6), (DEFAULT_ITERATIONS, 6), (240, 8), (480, 12), (5000, 12)]
)
def test_a_larger_budget_weighs_more_coin_selections(iterations: int, size: int) -> None:
    assert SearchBot(1, iterations=iterations).shortlist == size
    assert SearchBot(1, iterations=iterations, shortlist=3).shortlist == 3


def test_the_search_bot_searches_its_budget_s_shortlist(monkeypatch: pytest.MonkeyPatch) -> None:
    import multiversus_core.rulesets.multiversus.bots.search as searching

    seen, legal = selection(14)
    searched: list[int] = []

    def spy(game: Any, view: object, commands: Sequence[Command], *args: Any, **kw: Any) -> Any:
        searched.append(sum(isinstance(c, SelectCoins) for c in commands))
        return search(game, view, commands, *args, **kw)

    monkeypatch.setattr(searching, "search", spy)
    SearchBot(1, iterations=4).choose(seen, legal)
    SearchBot(1, iterations=480).choose(seen, legal)
    assert searched == [6, 12]


def test_the_search_bot_refuses_an_empty_shortlist() -> None:
    with pytest.raises(ValueError, match=r"^a search weighs 1 command or more, not 0$"):
        SearchBot(1, shortlist=0)


def test_judging_unknown_secrets_stays_bounded_on_a_sheet_at_every_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 8 secrets of 24 options each (the sheet limits) are 24**8 ways: the judgement weighs
    # at most MOST_POSSIBLE of them, the same ones each time, and every way that few.
    from msgspec.structs import replace

    from multiversus_core.rulesets.multiversus.bots import evaluation
    from multiversus_core.rulesets.multiversus.state import Secret, SecretOffer
    from tests.support import set_up

    names = [f"s{i}" for i in range(8)]
    options = tuple(f"o{j}" for j in range(24))
    # No installed sheet offers these secrets, so no position can name them: built directly.
    state = replace(
        set_up(),
        secret_offers=tuple(SecretOffer("adversaries", n, options) for n in names),
        secrets=tuple(Secret("adversaries", n, "o0") for n in names),
    )
    seen: list[tuple[str, ...]] = []
    monkeypatch.setattr(
        evaluation,
        "_result",
        lambda s, side: seen.append(tuple(x.choice for x in s.secrets)) or 0.0,
    )
    unknown = [("adversaries", n) for n in names]
    assert evaluation.objective(state, "heroes", unknown) == 0.0
    assert len(seen) == evaluation.MOST_POSSIBLE
    first = list(seen)
    seen.clear()
    evaluation.objective(state, "heroes", unknown)
    assert seen == first  # the same draw every time
    seen.clear()
    evaluation.objective(state, "heroes", unknown[:1])  # 24 ways: every one
    assert sorted(s[0] for s in seen) == sorted(options)
