"""A square board in the terminal, any game's: the core's text board
(:func:`multiversus_core.engine.render.text_grid`) in colours, and the result after the board.

Squares are named as :func:`~multiversus_core.engine.grid.square_name` names them: file
letters left to right, rank numbers from 1 at the top.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from multiversus_core.engine.render import Line
from multiversus_core.engine.text import printable

FRAME_STYLE = "bold"
"""The files and ranks round a square board."""


def coloured(lines: Iterable[Line], style: Callable[[str], str]) -> Text:
    """A text board's lines, each span in the style ``style`` gives its role."""
    text = Text()
    for number, line in enumerate(lines):
        if number:
            text.append("\n")
        for span in line:
            text.append(span.text, style=style(span.role))
    return text


def with_result(parts: list[RenderableType], reason: str | None) -> Group:
    """A board's parts, then the match's result in a line when there is one to tell."""
    if reason is not None:
        parts.append(Text(printable(f"The match is over: {reason}."), style="bold"))
    return Group(*parts)


__all__ = ["FRAME_STYLE", "coloured", "with_result"]
