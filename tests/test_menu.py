"""The play screen's menus: every legal command reachable, in steps, no menu over 20 choices.

The engine lists one command per decision; :func:`multiversus_cli.menu.build_menu`
groups them for the screen. These tests walk every menu of random matches.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from multiversus_cli.menu import MAX_CHOICES, Menu, build_menu
from multiversus_core import (
    EndAction,
    GiveUpInitiative,
    MatchSettings,
    MatchState,
    RollInitiative,
    SelectCoins,
    SelectReaction,
    apply,
    decider_seat,
    legal_commands,
    start_match,
)
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.commands import Command
from tests.support import SETTINGS, placed, select, set_up


def _menus(menu: Menu) -> list[Menu]:
    """The menu and every further step under it."""
    found = [menu]
    for choice in menu.choices:
        if choice.submenu is not None:
            found += _menus(choice.submenu)
    return found


def _check(menu: Menu, commands: tuple[Command, ...], limit: int = MAX_CHOICES) -> None:
    # Every legal command is reached once, by the numbers path_to gives.
    assert sorted(map(repr, menu.commands())) == sorted(map(repr, commands))
    for command in commands:
        path = menu.path_to(command)
        assert path is not None
        step = menu
        for number in path[:-1]:
            submenu = step.choices[number - 1].submenu
            assert submenu is not None
            step = submenu
        assert step.choices[path[-1] - 1].command == command
    # No step lists more than 20 choices, its way back included; the first has none.
    assert menu.back is None
    for step in _menus(menu):
        assert 1 <= len(step.choices) + (step.back is not None) <= limit
        assert all((c.command is None) != (c.submenu is None) for c in step.choices)


@pytest.mark.parametrize(
    "settings",
    [
        MatchSettings(seed=3),
        MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=4),
        MatchSettings(
            heroes="witch-hunters",
            adversaries="black-goblins",
            seed=5,
            variants=("diagonal-double-move", "diagonal-movement"),
        ),
    ],
)
def test_every_decision_of_a_match_fits_menus_of_at_most_20_choices(
    settings: MatchSettings,
) -> None:
    state = start_match(settings)
    bot = RandomBot(settings.seed)
    largest = 0
    while not state.is_over:
        seat = decider_seat(state)
        assert seat is not None
        commands = legal_commands(state, seat)
        largest = max(largest, len(commands))
        _check(build_menu(state, commands), commands)
        state, _ = apply(state, command_for(bot, state, seat))
    assert largest > MAX_CHOICES  # the steps mattered


def test_a_coin_selection_takes_three_steps_and_giving_up_is_a_choice_of_its_own() -> None:
    state = set_up()
    commands = legal_commands(state, 1)
    menu = build_menu(state, commands)
    labels = [c.label for c in menu.choices]
    assert labels == [
        "Banner Knight (green coin)",
        "Banner Knight (grey coin)",
        "Town Militia (green coin)",
        "Town Militia (grey coin)",
        "Squire Aldous (green coin)",
        "Squire Aldous (grey coin)",
    ]
    first = menu.choices[0].submenu
    assert first is not None and first.back == "Back: choose another unit coin"
    assert [c.label for c in first.choices][:4] == ["Attack", "Defend", "Move", "Stunt"]
    # Each choice of action coins shows the whole selection, to commit or to take back.
    for choice in first.choices:
        assert choice.command is None and choice.submenu is not None
        (commit,) = choice.submenu.choices
        assert commit.label == f"Commit: Banner Knight (green coin) with {choice.label}"
        assert isinstance(commit.command, SelectCoins) and commit.command.unit == "knight"
        assert choice.submenu.back == "Back: choose other action coins"
    # After a kept roll, giving up the Initiative is listed apart, under no unit coin.
    kept = state
    for command in (
        SelectCoins(player=1, unit="knight", colour="green", actions=("move",)),
        SelectReaction(player=2, unit="smogon", colour="green", actions=("move",)),
    ):
        kept, _ = apply(kept, command)
    kept, _ = apply(kept, EndAction(player=1))
    kept, _ = apply(kept, RollInitiative(player=1, die=3))
    menu = build_menu(kept, legal_commands(kept, 1))
    give_up = menu.choices[-1]
    assert give_up.command == GiveUpInitiative(player=1)
    assert give_up.heading is None and give_up.label == "Give up the Initiative willingly"
    assert all(c.heading == "Unit coins" for c in menu.choices[:-1])


def test_a_short_list_is_one_menu_as_the_engine_gives_it() -> None:
    state = start_match(MatchSettings(seed=1))
    commands = legal_commands(state, 1)
    menu = build_menu(state, commands)
    assert tuple(c.command for c in menu.choices) == commands


def test_a_long_list_is_split_by_figure_with_a_way_back() -> None:
    # Under diagonal-movement three Town Militia in the open have 8 steps each: 25 choices.
    settings = replace(SETTINGS, variants=("diagonal-movement",))
    state = placed(
        set_up(settings), {"militia-1": (2, 7), "militia-2": (5, 7), "militia-3": (8, 7)}
    )
    state = select(state, "militia", ("move",), ("smogon", ("move",)))
    commands = legal_commands(state, 1)
    assert len(commands) > MAX_CHOICES
    menu = build_menu(state, commands)
    _check(menu, commands)
    labels = [c.label for c in menu.choices]
    assert labels[:3] == [
        "Town Militia 1 at (2,7), 3 spaces left",
        "Town Militia 2 at (5,7), 3 spaces left",
        "Town Militia 3 at (8,7), 3 spaces left",
    ]
    assert menu.choices[-1].command == EndAction(player=1)
    steps = menu.choices[0].submenu
    assert steps is not None and steps.back == "Back to the other choices"
    assert len(steps.choices) == 8


@pytest.mark.parametrize("limit", [3, 4, 7])
def test_a_list_too_long_even_in_steps_goes_on_over_pages(limit: int) -> None:
    state = set_up()
    commands = legal_commands(state, 1)
    menu = build_menu(state, commands, limit=limit)
    _check(menu, commands, limit)
    pages = [c.submenu for step in _menus(menu) for c in step.choices if c.label == "More choices"]
    assert pages and all(page is not None and page.back is not None for page in pages)


def test_action_coins_keep_their_numbers_when_a_recovery_becomes_possible() -> None:
    from tests.support import conditioned

    def labels(state: MatchState) -> list[str]:
        menu = build_menu(state, legal_commands(state, 1))
        (militia,) = [c for c in menu.choices if c.label == "Town Militia (green coin)"]
        assert militia.submenu is not None
        return [c.label for c in militia.submenu.choices]

    unharmed = labels(set_up())
    hurt = labels(conditioned(set_up(), {"militia-1": "wounded"}))
    assert "Recovery (no action coin)" not in unharmed
    assert hurt == [*unharmed, "Recovery (no action coin)"]
