"""Menus for ``multiversus play``: the legal commands as numbered choices, in steps.

The engine lists one command per decision (:func:`~.legal.legal_commands`);
grouping them is the screen's business. A coin selection is always made in three
steps, the unit coin, the action coins, and the whole selection shown to be
committed or taken back; any other list longer than :data:`MAX_CHOICES` is split by its
groups (a figure's steps, an attacker's targets), and pages if it is still too
long. No menu lists more than :data:`MAX_CHOICES` choices, going back included.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from multiversus_core.rulesets.multiversus.commands import Command, SelectCoins
from multiversus_core.rulesets.multiversus.narrate import command_parts
from multiversus_core.rulesets.multiversus.state import MatchState

MAX_CHOICES: Final = 20
"""The most choices one menu lists, a way back included."""

_STEPPED: Final = ("select", "react")
"""Decisions always made in steps: the unit coin, then the action coins."""


@dataclass(frozen=True)
class Choice:
    """One numbered line of a menu: a command, or a further step."""

    label: str
    heading: str | None = None
    """The group the choice is listed under on the screen, or None for a line of its own."""
    command: Command | None = None
    """The command this choice gives (None for a further step)."""
    submenu: Menu | None = None
    """The next step (None for a command)."""


@dataclass(frozen=True)
class Menu:
    """One step of a decision: its choices, and whether it can go back to the step before."""

    choices: tuple[Choice, ...]
    back: str | None = None
    """How choice 0 goes back to the step before (None: this is the first step)."""

    def commands(self) -> Iterator[Command]:
        """Yield every command this menu and its further steps lead to, in order."""
        for choice in self.choices:
            if choice.command is not None:
                yield choice.command
            if choice.submenu is not None:
                yield from choice.submenu.commands()

    def path_to(self, command: Command) -> tuple[int, ...] | None:
        """Return the numbers to type, step by step, to give ``command`` (None if absent)."""
        for number, choice in enumerate(self.choices, start=1):
            if choice.command == command:
                return (number,)
            if choice.submenu is not None:
                rest = choice.submenu.path_to(command)
                if rest is not None:
                    return (number, *rest)
        return None


def build_menu(state: MatchState, commands: Sequence[Command], limit: int = MAX_CHOICES) -> Menu:
    """Return the menu of ``commands``, the legal commands of the decision in ``state``.

    A coin selection comes in steps: its first step lists the unit coins (and
    giving up the Initiative, a choice of its own); each unit coin leads to its
    action coins. Other decisions list their commands at once unless there are
    more than ``limit``; then each group becomes a step of its own. A step with
    a single choice that leads to another step is skipped.
    """
    entries = [(*command_parts(state, command), command) for command in commands]
    stepped = state.pending in _STEPPED
    if not stepped and len(entries) <= limit:
        return Menu(tuple(Choice(label, heading, command) for heading, label, command in entries))
    groups: dict[str | None, list[tuple[str, Command]]] = {}
    choices: list[Choice] = []
    for heading, label, command in entries:
        if heading is None:
            choices.append(Choice(label, None, command))
            continue
        if heading not in groups:
            groups[heading] = []
            choices.append(Choice(heading, "Unit coins" if stepped else None))
        groups[heading].append((label, command))
    steps: list[Choice] = []
    for choice in choices:
        if choice.command is not None:
            steps.append(choice)
            continue
        items = groups[choice.label]
        if stepped:
            # A Recovery (no action coin) comes last, so that the action coins keep their
            # numbers whether a unit may recover or not.
            items.sort(key=lambda item: _is_recovery(item[1]))
        if not stepped and len(items) == 1:
            label, command = items[0]
            steps.append(Choice(f"{choice.label}: {label}", None, command))
            continue
        back = "Back: choose another unit coin" if stepped else "Back to the other choices"
        if stepped:  # shown whole and confirmed, or taken back, before it is committed
            inner = [
                Choice(label, choice.label, submenu=_confirm(choice.label, label, command))
                for label, command in items
            ]
        else:
            inner = [Choice(label, choice.label, command) for label, command in items]
        steps.append(Choice(choice.label, choice.heading, submenu=_paged(inner, limit, back)))
    menu = _paged(steps, limit, None)
    while len(menu.choices) == 1 and menu.choices[0].submenu is not None and menu.back is None:
        menu = Menu(menu.choices[0].submenu.choices, None)
    return menu


def _confirm(coin: str, actions: str, command: Command) -> Menu:
    """The last step of a coin selection: the whole selection, to commit or take back."""
    return Menu((Choice(f"Commit: {coin} with {actions}", None, command),), CONFIRM_BACK)


CONFIRM_BACK: Final = "Back: choose other action coins"
"""How a confirmation goes back to the action coins."""


def _is_recovery(command: Command) -> bool:
    """True for a coin selection with no action coin: a Recovery."""
    return isinstance(command, SelectCoins) and not command.actions


def _paged(choices: Sequence[Choice], limit: int, back: str | None) -> Menu:
    """A menu of ``choices`` within ``limit`` (its way back counted); the rest on more pages."""
    room = limit - (back is not None)
    if len(choices) <= room:
        return Menu(tuple(choices), back)
    rest = _paged(choices[room - 1 :], limit, "Back to the first choices")
    more = Choice("More choices", None, submenu=rest)
    return Menu((*choices[: room - 1], more), back)


__all__ = ["MAX_CHOICES", "Choice", "Menu", "build_menu"]
