"""A terminal for the tests of a game's match at the terminal: a console on a buffer, and a
person who answers each prompt from what it shows (the menu last printed, its keys, the
squares it takes), as ``test_cli_tiles_d6_play.py`` and ``test_cli_worlds_collide_play.py``
play whole matches."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from rich.console import Console


def rendered(renderable: object, width: int = 140) -> str:
    """What a renderable prints, without colours."""
    out = io.StringIO()
    Console(file=out, width=width, no_color=True, highlight=False).print(renderable)
    return out.getvalue()


def cell(drawn: str, at: tuple[int, int]) -> str:
    """The three characters of a board's map drawn for square ``at`` (the map framed by
    :func:`multiversus_core.engine.render.text_grid`, its rows numbered in 2 places)."""
    lines = drawn.splitlines()
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("a  b  c"))
    row = lines[first + 1 + at[1]]
    start = 3 + 3 * at[0]  # the row number in 2 places and a space, then 3 a square
    return row[start : start + 3]


def expand(squares: str) -> list[str]:
    """Every square of a printed list: ``a1-c1 f1`` is a1, b1, c1 and f1."""
    names = []
    for token in squares.split():
        first, _, last = token.partition("-")
        if not last:
            names.append(first)
        else:
            names += [chr(c) + first[1:] for c in range(ord(first[0]), ord(last[0]) + 1)]
    return names


@dataclass
class Screen:
    """A console on a buffer, and a person who answers each prompt from what it shows. A
    game's tests say how its menus print (the class variables)."""

    OPTION: ClassVar[re.Pattern[str]]
    """A menu's option as printed: its key, then what it says."""
    SQUARES: ClassVar[re.Pattern[str]]
    """The squares a menu takes, as printed: ``a1-c1 f1 ...``."""
    HEADING: ClassVar[re.Pattern[str]]
    """The first line of the board."""
    PROMPT: ClassVar[str]
    """How every prompt begins."""
    WIDTH: ClassVar[int] = 120
    MOST: ClassVar[int] = 6000
    """The most prompts a match may take before it is taken never to end."""

    pick: Callable[[Screen], str]
    """Chooses the answer from the menu last shown."""
    out: Console = field(init=False)
    buffer: io.StringIO = field(default_factory=io.StringIO)
    read: int = 0
    keys: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    squares: list[str] = field(default_factory=list)
    prompts: int = 0
    menus: list[int] = field(default_factory=list)
    """The number of choices of each menu shown."""
    boards: int = 0
    """Boards drawn before a menu."""
    fresh: str = ""
    """What was printed since the last prompt."""

    def __post_init__(self) -> None:
        self.out = Console(
            file=self.buffer, width=self.WIDTH, no_color=True, highlight=False, soft_wrap=True
        )

    def ask(self, prompt: str) -> str:
        assert prompt.startswith(self.PROMPT)
        self.prompts += 1
        if self.prompts > self.MOST:
            raise AssertionError("the match never ended")
        self.fresh = self.buffer.getvalue()[self.read :]
        self.read = len(self.buffer.getvalue())
        lines = self.fresh.splitlines()
        keys = [m.groups() for line in lines if (m := self.OPTION.match(line))]
        squares = [expand(m.group(1)) for line in lines if (m := self.SQUARES.match(line))]
        if keys or squares:
            self.keys = [key for key, _ in keys]
            self.labels = [label for _, label in keys]
            self.squares = squares[-1] if squares else []
            self.menus.append(len(keys))
        self.boards += sum(1 for line in lines if self.HEADING.match(line))
        return self.pick(self)

    @property
    def text(self) -> str:
        return self.buffer.getvalue()


def scripted(*answers: str) -> Callable[[Screen], str]:
    """A person who types these answers, then closes the input."""
    left = list(answers)

    def pick(screen: Screen) -> str:
        if not left:
            raise EOFError
        return left.pop(0)

    return pick
