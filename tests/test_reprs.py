"""A state's repr says where the match stands and does not pretend to paste back; a
command's repr pastes back; a view's repr says its seed is hidden."""

from __future__ import annotations

import pytest

from multiversus_core import MatchSettings, SelectCoins, Step, start_match
from multiversus_core.rulesets.multiversus.views import view
from tests.support import set_up


def test_a_states_repr_says_where_the_match_stands_and_never_pretends_to_paste_back() -> None:
    state = set_up()
    assert repr(state) == (
        "<MatchState banner-knight v smogon, round 1, turn 1 of the heroes, pending select, "
        "0 activations>"
    )
    with pytest.raises(SyntaxError):
        eval(repr(state))
    assert repr(start_match(MatchSettings())).startswith("<MatchState ? v ?, set-up, pending flip")


def test_a_views_repr_says_whose_view_it_is_and_that_the_seed_is_hidden() -> None:
    seen = view(set_up(), "heroes")
    assert seen.settings.seed == 0  # 0 in the record, which is no seed of the match
    assert repr(seen).startswith("<MatchView as heroes: banner-knight v smogon, round 1")
    assert repr(seen).endswith("; seed hidden>")


@pytest.mark.parametrize(
    "command",
    [
        SelectCoins(player=1, unit="knight", colour="green", actions=("move",)),
        Step(player=1, figure="knight", direction=(0, -1)),
    ],
)
def test_a_commands_repr_pastes_back(command: object) -> None:
    assert eval(repr(command), {"SelectCoins": SelectCoins, "Step": Step}) == command
