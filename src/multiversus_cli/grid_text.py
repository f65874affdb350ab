"""A square board in the terminal, any game's: the frame of files and ranks round a map, the
pieces' letters on it, the result after the board, and squares listed in a short line.

Squares are named as :func:`~multiversus_core.engine.grid.square_name` names them: file
letters left to right, rank numbers from 1 at the top.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from multiversus_core.engine.grid import Coord, square_name
from multiversus_core.engine.text import printable


def file_name(column: int) -> str:
    """A column's letters, as :func:`square_name` names it ("a", "q", "aa")."""
    return square_name((column, 0))[:-1]


def seat_letters(pieces: Iterable[tuple[str, int]], alphabet: str) -> dict[str, str]:
    """A letter for every piece (its id and its seat, in order), by id: each seat's pieces
    take ``alphabet`` in turn, seat 1's upper case (A, B, ...), the others' lower case."""
    shown: dict[str, str] = {}
    counts: dict[int, int] = {}
    for ident, seat in pieces:
        count = counts.get(seat, 0)
        letter = alphabet[count % len(alphabet)]
        shown[ident] = letter.upper() if seat == 1 else letter
        counts[seat] = count + 1
    return shown


def grid_map(width: int, height: int, cell: Callable[[Coord], Text]) -> Text:
    """A board of ``width`` by ``height`` squares: rank numbers down both sides, file letters
    along the top and bottom, and each square as ``cell`` draws it (three characters wide,
    to line up under its file's letter)."""
    number = len(str(height))
    files = Text(" " * (number + 1))
    for column in range(width):
        files.append(file_name(column).center(3), style="bold")
    text = Text()
    text.append_text(files)
    text.append("\n")
    for row in range(height):
        text.append(f"{row + 1:>{number}} ", style="bold")
        for column in range(width):
            text.append_text(cell((column, row)))
        text.append(f" {row + 1}", style="bold")
        text.append("\n")
    text.append_text(files)
    return text


def with_result(parts: list[RenderableType], reason: str | None) -> Group:
    """A board's parts, then the match's result in a line when there is one to tell."""
    if reason is not None:
        parts.append(Text(printable(f"The match is over: {reason}."), style="bold"))
    return Group(*parts)


def square_list(squares: Iterable[Coord]) -> str:
    """Squares in a short line, rank by rank, neighbours on a rank as a run:
    ``"a1-c1 f1 a2-b2"``."""
    runs: list[list[Coord]] = []
    for at in sorted(squares, key=lambda c: (c[1], c[0])):
        last = runs[-1][-1] if runs else None
        if last is not None and last[1] == at[1] and last[0] + 1 == at[0]:
            runs[-1].append(at)
        else:
            runs.append([at])
    return " ".join(
        square_name(run[0]) if len(run) == 1 else f"{square_name(run[0])}-{square_name(run[-1])}"
        for run in runs
    )


__all__ = ["file_name", "grid_map", "seat_letters", "square_list", "with_result"]
