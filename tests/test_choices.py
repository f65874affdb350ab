"""Commands built from choices (:mod:`multiversus_core.engine.choices`): a decision too big to
list, walked one small choice at a time by bots and menus alike."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

import pytest

from multiversus_core.engine.bots import UniformBot
from multiversus_core.engine.choices import (
    Ask,
    CommandTree,
    Option,
    asks,
    is_empty,
    is_legal,
    is_tree,
    listed,
    random_command,
    walk,
)
from multiversus_core.engine.errors import IllegalCommandError


class Pair(NamedTuple):
    """A toy command: two neighbouring squares of a row of ``size``, the first lower."""

    player: int
    first: int
    second: int


class Pairs:
    """The pairs of a row of squares, built first square then second: ``size - 1`` commands,
    more than a menu should show at once when ``size`` is large."""

    def __init__(self, size: int, blocked: frozenset[int] = frozenset()) -> None:
        self.size = size
        self.blocked = blocked

    def _free(self, square: int) -> bool:
        return 0 <= square < self.size and square not in self.blocked

    def ask(self, chosen: Sequence[str]) -> Ask | Pair:
        if not chosen:
            firsts = [s for s in range(self.size) if self._free(s) and self._free(s + 1)]
            return Ask("Which square first?", tuple(Option(str(s), f"square {s}") for s in firsts))
        first = int(chosen[0])
        if len(chosen) == 1:
            return Ask("Which square second?", (Option(str(first + 1), f"square {first + 1}"),))
        if len(chosen) == 2 and int(chosen[1]) == first + 1:
            return Pair(1, first, first + 1)
        raise ValueError(f"{chosen!r} is not an option")

    def __contains__(self, command: object) -> bool:
        return (
            isinstance(command, Pair)
            and command.second == command.first + 1
            and self._free(command.first)
            and self._free(command.second)
        )


def test_a_tree_is_told_from_a_list() -> None:
    assert is_tree(Pairs(5))
    assert isinstance(Pairs(5), CommandTree)
    assert not is_tree((Pair(1, 0, 1),))
    assert not is_tree([])


def test_every_walk_of_a_tree_ends_in_a_command_it_holds() -> None:
    tree = Pairs(40, frozenset({7, 8, 20}))
    rng = random.Random(3)
    for _ in range(200):
        command = random_command(tree, rng)
        assert is_legal(tree, command)
        assert command.first not in tree.blocked and command.second not in tree.blocked


def test_listing_a_tree_gives_each_command_once_or_none_past_the_limit() -> None:
    tree = Pairs(6, frozenset({3}))
    assert listed(tree, 100) == (Pair(1, 0, 1), Pair(1, 1, 2), Pair(1, 4, 5))
    assert listed(Pairs(200), 50) is None
    assert listed((Pair(1, 0, 1),), 0) == (Pair(1, 0, 1),)


def test_a_walk_refuses_a_key_that_is_not_offered_and_a_dead_end() -> None:
    with pytest.raises(ValueError, match="not an option"):
        walk(Pairs(5), lambda asked, chosen: "9")
    with pytest.raises(ValueError, match="dead end"):
        walk(Pairs(1), lambda asked, chosen: asked.options[0].key)
    assert is_empty(Pairs(1))
    assert not is_empty(Pairs(2))


def test_a_list_reads_as_one_choice_by_number() -> None:
    commands = (Pair(1, 0, 1), Pair(1, 4, 5))
    first = asks(commands, (), lambda c: f"{c.first}-{c.second}")
    assert first == Ask("Choose a command", (Option("1", "0-1"), Option("2", "4-5")))
    assert asks(commands, ("2",), str) == Pair(1, 4, 5)
    with pytest.raises(ValueError, match="not an option"):
        asks(commands, ("3",), str)


def test_the_uniform_bot_draws_from_a_list_as_before_and_walks_a_tree() -> None:
    commands = [Pair(1, n, n + 1) for n in range(30)]
    expected = random.Random(11)
    bot = UniformBot(11)
    for _ in range(20):
        assert bot.choose(None, commands) == expected.choice(commands)
    tree = Pairs(30, frozenset({5}))
    a, b = UniformBot(4), UniformBot(4)
    picks = [a.choose(None, tree) for _ in range(30)]
    assert picks == [b.choose(None, tree) for _ in range(30)]
    assert all(pick in tree for pick in picks)
    assert len(set(picks)) > 10
    with pytest.raises(IllegalCommandError):
        UniformBot(1).choose(None, Pairs(1))
