"""Bot spec strings name bots everywhere: make_bot(spec, seed)."""

import pytest

from multiversus_core import MatchSettings
from multiversus_core.engine.play import play_match
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
