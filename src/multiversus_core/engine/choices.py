"""Commands built from choices: the legal commands of a decision too big to list.

Most decisions list their commands: ``legal_commands`` returns a sequence,
and a bot or a menu picks one. Some cannot: one activation that moves a
formation of ten models, each to any square it can reach, then attacks with
each at a target of its choice, has more commands than any list could hold.
For such a decision ``legal_commands`` returns a :class:`CommandTree`: the
command is built one small choice at a time (which model, which square,
which weapon, which target), each an :class:`Ask` with a few options, until
the tree gives the whole command. The rules still decide the whole command
at once (``decide``), and the tree knows which whole commands are legal
(``command in tree``).

A tree has no dead ends: every option it offers leads on to at least one
legal command, so a bot choosing at random, or a newcomer at a menu, always
finishes. It need not offer every way to a command it holds: a legal
command given whole is accepted even if no walk of the tree builds it.

:data:`Legal` is what ``legal_commands`` returns, either kind; the functions
here work on both, so that the engine, bots and front ends need not tell
them apart: :func:`is_legal`, :func:`random_command`, :func:`asks` (a list
read as a tree of one choice) and :func:`listed`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import (
    Any,
    Final,
    Generic,
    NamedTuple,
    Protocol,
    TypeAlias,
    TypeGuard,
    TypeVar,
    runtime_checkable,
)

C = TypeVar("C")
"""A game's command type."""
C_co = TypeVar("C_co", covariant=True)


class Option(NamedTuple):
    """One option of an :class:`Ask`: the key that chooses it, and what it says."""

    key: str
    """Stable and short ("3", "c4", "rifleman-2"): a menu may let a player type it."""
    label: str
    """The option in words, for a menu."""


class Ask(NamedTuple):
    """One choice on the way to a command: what is being chosen, and the options."""

    prompt: str
    """The question, in words ("Where does Rifleman 2 move?")."""
    options: tuple[Option, ...]
    """Never empty; keys differ."""


@runtime_checkable
class CommandTree(Protocol[C_co]):
    """The legal commands of a decision, built one choice at a time."""

    def ask(self, chosen: Sequence[str]) -> Ask | C_co:
        """The next choice after the options ``chosen`` (keys, in order), or the command they
        make once complete.

        :raises ValueError: if ``chosen`` holds a key that was not an option.
        """
        ...

    def __contains__(self, command: object) -> bool:
        """Whether ``command`` is legal now, however it was built."""
        ...


Legal: TypeAlias = "Sequence[Any] | CommandTree[Any]"
"""What ``legal_commands`` returns: the commands as a list, or as a tree of choices."""

MOST_STEPS: Final = 1000
"""The most choices a walk of a tree makes before the tree is taken to loop."""


def is_tree(legal: object) -> TypeGuard[CommandTree[Any]]:
    """Whether ``legal`` is a :class:`CommandTree` rather than a list."""
    if isinstance(legal, (tuple, list)):
        return False  # the common case, told apart without a protocol check
    return isinstance(legal, CommandTree) and not isinstance(legal, Sequence)


def is_legal(legal: Sequence[C] | CommandTree[C], command: object) -> bool:
    """Whether ``command`` is one of ``legal``."""
    return command in legal


def is_empty(legal: Sequence[C] | CommandTree[C]) -> bool:
    """Whether there is no command to give."""
    if is_tree(legal):
        first = legal.ask(())
        return isinstance(first, Ask) and not first.options
    return not legal


def walk(tree: CommandTree[C], pick: Callable[[Ask, tuple[str, ...]], str]) -> C:
    """Build a command, ``pick`` choosing a key at each :class:`Ask` (given the keys so far).

    :raises ValueError: if ``pick`` gives a key that is not an option, or the tree asks more
        than :data:`MOST_STEPS` times.
    """
    chosen: tuple[str, ...] = ()
    for _ in range(MOST_STEPS):
        step = tree.ask(chosen)
        if not isinstance(step, Ask):
            return step
        if not step.options:
            raise ValueError(f"the choice {step.prompt!r} has no option (a dead end)")
        key = pick(step, chosen)
        if all(option.key != key for option in step.options):
            raise ValueError(f"{key!r} is not an option of {step.prompt!r}")
        chosen = (*chosen, key)
    raise ValueError(f"the tree asked more than {MOST_STEPS} times")


def random_command(legal: Sequence[C] | CommandTree[C], rng: random.Random) -> C:
    """A command of ``legal`` chosen at random: uniformly from a list; from a tree, each
    choice uniformly among its options.

    :raises ValueError: if there is none.
    """
    if is_tree(legal):
        tree: CommandTree[C] = legal
        return walk(tree, lambda asked, _: rng.choice(asked.options).key)
    commands: Sequence[C] = legal  # type: ignore[assignment]
    if not commands:
        raise ValueError("there is no legal command")
    return rng.choice(commands)


def asks(
    legal: Sequence[C] | CommandTree[C], chosen: Sequence[str], label: Callable[[C], str]
) -> Ask | C:
    """The next choice of ``legal`` after ``chosen``: a tree's own, or a list read as one
    choice whose options are its commands by number from 1 (``label`` tells each)."""
    if is_tree(legal):
        return legal.ask(chosen)
    commands: Sequence[C] = legal  # type: ignore[assignment]
    if not chosen:
        options = tuple(Option(str(n), label(c)) for n, c in enumerate(commands, start=1))
        return Ask("Choose a command", options)
    (key,) = chosen if len(chosen) == 1 else (None,)
    if key is None or not key.isdigit() or not 1 <= int(key) <= len(commands):
        raise ValueError(f"{'.'.join(chosen)!r} is not an option")
    return commands[int(key) - 1]


def listed(legal: Sequence[C] | CommandTree[C], most: int) -> tuple[C, ...] | None:
    """Every command of ``legal``, or None if a tree holds more than ``most`` ways to build
    them (a list is returned whole). A command built two ways is listed once.

    :raises ValueError: if the tree has a dead end (a choice with no option) but at its root.
    """
    if not is_tree(legal):
        return tuple(legal)  # type: ignore[arg-type]
    tree: CommandTree[C] = legal
    found: dict[Any, C] = {}
    paths = 0
    stack: list[tuple[str, ...]] = [()]
    while stack:
        chosen = stack.pop()
        step = tree.ask(chosen)
        if isinstance(step, Ask):
            if not step.options and not chosen:
                return ()  # no command at all: the seat is not to act
            if not step.options:
                raise ValueError(f"the choice {step.prompt!r} has no option (a dead end)")
            stack.extend((*chosen, option.key) for option in reversed(step.options))
            continue
        paths += 1
        if paths > most:
            return None
        found.setdefault(_key(step), step)
    return tuple(found.values())


class Grouped(Generic[C]):
    """A list of commands as a tree of two choices: a group, then a command of it; so that a
    long list is chosen from two short menus. Groups come in the order of their first
    command, each command in the list's order."""

    def __init__(
        self,
        commands: Sequence[C],
        group: Callable[[C], str],
        label: Callable[[C], str],
        prompt: str = "Choose",
    ) -> None:
        self._groups: dict[str, list[C]] = {}
        for command in commands:
            self._groups.setdefault(group(command), []).append(command)
        self._names = list(self._groups)
        self._label = label
        self._prompt = prompt
        self._commands = commands

    def ask(self, chosen: Sequence[str]) -> Ask | C:
        """The group, then the command."""
        if not chosen:
            options = tuple(Option(str(n), name) for n, name in enumerate(self._names, start=1))
            return Ask(self._prompt, options)
        members = self._member_list(chosen[0])
        if len(chosen) == 1:
            options = tuple(Option(str(n), self._label(c)) for n, c in enumerate(members, start=1))
            return Ask(self._names[int(chosen[0]) - 1], options)
        if len(chosen) == 2 and chosen[1].isdigit() and 1 <= int(chosen[1]) <= len(members):
            return members[int(chosen[1]) - 1]
        raise ValueError(f"{'.'.join(chosen)!r} is not an option")

    def _member_list(self, key: str) -> list[C]:
        if not key.isdigit() or not 1 <= int(key) <= len(self._names):
            raise ValueError(f"{key!r} is not an option")
        return self._groups[self._names[int(key) - 1]]

    def __contains__(self, command: object) -> bool:
        """Whether ``command`` is one of the list's."""
        return command in self._commands


def _key(command: object) -> object:
    try:
        hash(command)
    except TypeError:
        return repr(command)
    return command


__all__ = [
    "MOST_STEPS",
    "Ask",
    "CommandTree",
    "Grouped",
    "Legal",
    "Option",
    "asks",
    "is_empty",
    "is_legal",
    "is_tree",
    "listed",
    "random_command",
    "walk",
]
