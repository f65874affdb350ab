"""Bot spec strings name bots everywhere: make_bot(spec, seed), and any game's bot_maker."""

import functools

import pytest

from multiversus_core import MatchSettings
from multiversus_core.engine.bots import (
    SearchBot,
    UnknownBotError,
    bot_maker,
    check_budget,
    grown_shortlist,
    takes_budget,
)
from multiversus_core.engine.play import play_match
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.rulesets.multiversus.bots.specs import BOT_NAMES, RandomBot, make_bot


def test_make_bot_names_the_random_bot() -> None:
    assert "random" in BOT_NAMES
    assert isinstance(make_bot("random", 3), RandomBot)


def test_make_bot_with_one_seed_plays_the_same_match() -> None:
    settings = MatchSettings(seed=5)
    first = play_match(settings, {1: make_bot("random", 1), 2: make_bot("random", 2)})
    again = play_match(settings, {1: make_bot("random", 1), 2: make_bot("random", 2)})
    assert first == again


@pytest.mark.parametrize("spec", ["", "nobody", "random:5", "Random"])
def test_make_bot_refuses_an_unknown_spec_naming_the_known_bots(spec: str) -> None:
    with pytest.raises(ValueError, match="the bots are random"):
        make_bot(spec, 0)


# --- any game's bots by spec: NAME or NAME:N (engine.bots.bot_maker) --------------------------

GAME_BOTS = ("multiversus", "tiles-d6", "worlds-collide", "sealed-bids")


@pytest.mark.parametrize("game", GAME_BOTS)
def test_a_games_mcts_takes_its_iterations_from_the_spec(game: str) -> None:
    bots = load_ruleset(game).bots
    assert bot_maker(bots, "mcts:7")(3).iterations == 7  # type: ignore[attr-defined]
    default = bot_maker(bots, "mcts")(3).iterations  # type: ignore[attr-defined]
    assert default != 7 and default == bots["mcts"](3).iterations  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAME_BOTS)
def test_a_bot_that_takes_no_budget_refuses_one_in_one_line(game: str) -> None:
    bots = load_ruleset(game).bots
    for name in ("random", "heuristic"):
        if name in bots:
            with pytest.raises(ValueError, match=f"the {name} bot takes no number of iterations"):
                bot_maker(bots, f"{name}:5")


@pytest.mark.parametrize("budget", ["0", "-1", "x", "1.5", "", "٣", "1" * 11, "1000000001"])
def test_a_bad_budget_is_refused_in_one_line(budget: str) -> None:
    with pytest.raises(ValueError, match="mcts:N takes a whole number of iterations") as caught:
        bot_maker(load_ruleset("tiles-d6").bots, f"mcts:{budget}")
    assert "\n" not in str(caught.value) and not isinstance(caught.value, UnknownBotError)


def test_an_unknown_name_is_its_own_error_naming_the_games_bots() -> None:
    with pytest.raises(UnknownBotError, match="the bots are random, heuristic, mcts"):
        bot_maker(load_ruleset("tiles-d6").bots, "grandmaster:5")


def test_a_maker_without_iterations_takes_no_budget() -> None:
    assert not takes_budget(lambda seed: SearchBot(object(), seed))  # type: ignore[arg-type]
    assert not takes_budget(print)  # a builtin, with no signature on older Pythons
    assert takes_budget(functools.partial(SearchBot, object(), iterations=3))


@pytest.mark.parametrize(
    ("iterations", "size"),
    [(1, 5), (60, 5), (61, 5), (90, 6), (120, 7), (240, 10), (241, 10), (10_000, 10)],
)
def test_a_larger_budget_grows_the_shortlist_with_its_square_root(
    iterations: int, size: int
) -> None:
    assert grown_shortlist(5, iterations, 60, 10) == size


def test_a_grown_shortlist_never_passes_its_most() -> None:
    assert grown_shortlist(6, 10_000, 200, 6) == 6
    assert grown_shortlist(6, 800, 200, 9) == 9


@pytest.mark.parametrize(
    ("iterations", "shortlist", "message"),
    [
        (0, None, "a search needs at least one iteration, not 0"),
        (-2, 3, "a search needs at least one iteration, not -2"),
        (10, 0, "a search weighs 1 command or more, not 0"),
    ],
)
def test_a_search_of_no_iteration_or_no_command_is_refused_in_one_line(
    iterations: int, shortlist: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        check_budget(iterations, shortlist)
    check_budget(1, 1)
    check_budget(1)
