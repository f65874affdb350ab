"""Pictures and words of a position, for every game: pure functions from a view to text, as
python-chess's ``chess/svg.py``.

A game offers them through its ruleset's ``renderer`` (:class:`Renderer`, found with
:func:`renderer_of`): its board as one SVG document and as plain text, and a command in words
for the player choosing it. A game without a board says so: its board is None.

The rest of this module is what every square board shares, so that no game copies it:

- the board in text (:func:`text_grid`): file letters along the top and bottom, rank numbers
  down both sides, each square three characters wide, as :class:`Span` pieces that name their
  role (a seat's piece, a kind of square), so that a terminal may colour them; and squares
  listed in a short line (:func:`square_list`);
- the board in SVG: where squares and the strip of pieces off the board are drawn
  (:class:`Layout`), the document's head (:func:`board_head`), the grid's lines and names,
  short labels that tell pieces apart, a piece's health as a bar, and the marks drawn over an
  entry's changes: the way a piece went (:func:`path_mark`), an attack (:func:`attack_mark`),
  a ring round a square a piece was placed on (:func:`placed_mark`).

Squares are named as :func:`~multiversus_core.engine.grid.square_name` names them: file letters
left to right, rank numbers from 1 at the top.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import Any, Final, Literal, NamedTuple, Protocol, TypeVar, runtime_checkable

import msgspec

from multiversus_core.engine.grid import Coord, square_name

ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
CommandT_contra = TypeVar("CommandT_contra", contravariant=True)


@runtime_checkable
class Renderer(Protocol[ViewT_contra, CommandT_contra]):
    """A game's pictures and words of a position, each a pure function of a view (what the
    ruleset's ``view(state, viewer)`` returns; never the referee's state, so that a picture
    never shows what its viewer may not know).

    A ruleset offers one as its attribute ``renderer``; :func:`renderer_of` finds it. It may
    also say where a command is given on its board, ``command_pick(command, view) -> Pick |
    None``, an optional member :func:`pick_of` finds, and where an option of a tree of
    choices is chosen on it, ``option_pick(key, view) -> Pick | None``, one
    :func:`option_pick_of` finds, and what the view holds beside its board, in the game's
    words, ``view_facts(view) -> Mapping[str, object]``, one :func:`facts_of` finds.
    """

    def board_svg(self, view: ViewT_contra) -> str | None:
        """The board ``view`` shows, as one SVG document; None for a game without a board."""
        ...

    def board_text(self, view: ViewT_contra) -> str | None:
        """The board ``view`` shows, as plain text of a few lines (a fixed-width font lines it
        up); None for a game without a board."""
        ...

    def command_words(self, command: CommandT_contra, view: ViewT_contra) -> str:
        """A command (one of the legal commands of the position ``view`` shows) in words, for
        the player choosing it: what a menu says of it. Commands that differ read
        differently."""
        ...


def renderer_of(ruleset: object) -> Renderer[Any, Any] | None:
    """The renderer a ruleset offers as its ``renderer``; None when it offers none."""
    found = getattr(ruleset, "renderer", None)
    return found if isinstance(found, Renderer) else None


class Pick(NamedTuple):
    """Where a command is given on the board: the piece it moves or acts with, and the square
    it goes to or aims at (either None). A board shows a piece as an element with
    ``data-piece="ID"`` and a square as one with ``data-square="NAME"``, so that a page can
    give the command by a click on the piece, then one on the square."""

    piece: str | None
    square: str | None


def pick_of(renderer: object, command: object, view: object) -> Pick | None:
    """Where ``command`` is given on the board ``view`` shows: the renderer's
    ``command_pick(command, view)``, an optional member; None when it has none, or when the
    command is not given on the board (ending a turn)."""
    pick = getattr(renderer, "command_pick", None)
    if pick is None:
        return None
    found = pick(command, view)
    return found if isinstance(found, Pick) else None


def option_pick_of(renderer: object, key: str, view: object) -> Pick | None:
    """Where the option ``key`` of a choice on the way to a command (a tree of choices'
    :class:`~multiversus_core.engine.choices.Option`) is chosen on the board ``view`` shows:
    the renderer's ``option_pick(key, view)``, an optional member, giving the piece the option
    names or the square it names; None when it has none, or the option names neither."""
    pick = getattr(renderer, "option_pick", None)
    if pick is None:
        return None
    found = pick(key, view)
    return found if isinstance(found, Pick) else None


def facts_of(renderer: object, view: object) -> object:
    """What a panel beside the board shows of ``view``: the renderer's ``view_facts(view)``,
    an optional member (what the view holds that the board does not show, named in the game's
    words: a mapping of names to values, nested as deep as it likes), or, without one, the
    view itself, which :func:`facts_html` names field by field."""
    facts = getattr(renderer, "view_facts", None)
    return view if facts is None else facts(view)


def humanised(key: str) -> str:
    """A field's name in words: ``"stash_count"`` is ``"Stash count"``; a key already in words
    (a space or a capital in it: ``"Torch-bearing Villagers"``) is kept as it is."""
    if " " in key or key != key.lower():
        return key
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def facts_html(value: object) -> str:
    """``value`` as HTML for a panel beside the board: a mapping or a struct as a definition
    list (``<dl class="mv-facts">``, its keys :func:`humanised`), a list or a tuple of them
    with the same keys as a table, of plain values as one line, of anything else as a list,
    each nested as deep as it goes; None or an empty list as "none", a bool as "yes" or
    "no", anything else as its text, escaped."""
    return _facts(msgspec.to_builtins(value, str_keys=True))


def _facts(value: object) -> str:
    if value is None or value == "" or (isinstance(value, (list, tuple, dict)) and not value):
        return "none"
    match value:
        case bool():
            return "yes" if value else "no"
        case dict():
            rows = "".join(
                f"<dt>{escape(humanised(str(k)))}</dt><dd>{_facts(v)}</dd>"
                for k, v in value.items()
            )
            return f'<dl class="mv-facts">{rows}</dl>'
        case list() | tuple():
            if all(not isinstance(v, (dict, list, tuple)) for v in value):
                return escape(", ".join("none" if v is None else str(v) for v in value))
            keys = list(value[0]) if isinstance(value[0], dict) else []
            if keys and all(isinstance(v, dict) and list(v) == keys for v in value):
                head = "".join(f"<th>{escape(humanised(str(k)))}</th>" for k in keys)
                rows = "".join(
                    "<tr>" + "".join(f"<td>{_facts(v[k])}</td>" for k in keys) + "</tr>"
                    for v in value
                )
                return f'<table class="mv-facts"><tr>{head}</tr>{rows}</table>'
            items = "".join(f"<li>{_facts(v)}</li>" for v in value)
            return f'<ol class="mv-facts">{items}</ol>'
    return escape(str(value))


# --- the board in text --------------------------------------------------------------------------


class Span(NamedTuple):
    """A piece of a line of a text board, and what it shows (its ``role``), for a terminal to
    colour: ``"frame"`` for the files and ranks, a game's own names for the rest (``"seat-1"``,
    ``"tile-#"``); ``""`` for plain text."""

    text: str
    role: str = ""


Line = tuple[Span, ...]
"""A line of a text board."""


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


def text_grid(width: int, height: int, cell: Callable[[Coord], Sequence[Span]]) -> list[Line]:
    """A board of ``width`` by ``height`` squares as lines: rank numbers down both sides, file
    letters along the top and bottom (role ``"frame"``), and each square as ``cell`` gives it
    (three characters wide, to line up under its file's letter)."""
    number = len(str(height))
    files: Line = (
        Span(" " * (number + 1)),
        *(Span(file_name(column).center(3), "frame") for column in range(width)),
    )
    lines: list[Line] = [files]
    for row in range(height):
        line: list[Span] = [Span(f"{row + 1:>{number}} ", "frame")]
        for column in range(width):
            line.extend(cell((column, row)))
        line.append(Span(f" {row + 1}", "frame"))
        lines.append(tuple(line))
    lines.append(files)
    return lines


def plain(lines: Iterable[Line]) -> str:
    """Lines of spans as plain text, one line each."""
    return "\n".join("".join(span.text for span in line) for line in lines)


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


# --- the board in SVG: marks over an entry's changes ---------------------------------------------

ARROWS: Final = (
    '<marker id="mv-arrow-move" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#f59e0b"/>'
    "</marker>"
    '<marker id="mv-arrow-push" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#0d9488"/>'
    "</marker>"
    '<marker id="mv-arrow-attack" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#dc2626"/>'
    "</marker>"
)
"""The arrow heads of :func:`path_mark` and :func:`attack_mark`, for a board's ``<defs>``."""


def path_mark(
    figure: str, kind: Literal["move", "push"], points: Sequence[tuple[float, float]]
) -> str:
    """Return the way a piece went in one entry, through ``points`` (its start first), as a
    line with an arrow head (:data:`ARROWS`): ``move`` solid, ``push`` dashed."""
    colour = "#f59e0b" if kind == "move" else "#0d9488"
    line = " ".join(f"{x:g},{y:g}" for x, y in points)
    x0, y0 = points[0]
    dash = ' stroke-dasharray="7 4"' if kind == "push" else ""
    return (
        f'<g class="mv-change mv-{kind}" data-figure="{escape(figure)}">'
        f'<circle cx="{x0:g}" cy="{y0:g}" r="5" fill="{colour}"/>'
        f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="5" '
        f'stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.85"{dash} '
        f'marker-end="url(#mv-arrow-{kind})"/></g>'
    )


def attack_mark(
    attacker: str,
    target: str,
    word: str,
    source: tuple[tuple[float, float], float],
    aim: tuple[tuple[float, float], float],
    kind: str = "attack",
) -> str:
    """Return an attack as an arrow from the attacker to a ring round the target, ``word``
    (``"hit"``, ``"miss"``) above it. ``source`` and ``aim`` are each piece's centre and the
    room to leave round it, so that the arrow covers neither piece's label."""
    (x1, y1), start = source
    (x2, y2), end = aim
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    x1, y1 = x1 + ux * min(start, length / 2), y1 + uy * min(start, length / 2)
    tx, ty = x2, y2
    x2, y2 = x2 - ux * min(end, length / 2), y2 - uy * min(end, length / 2)
    return (
        f'<g class="mv-change mv-{kind} mv-{word}" data-figure="{escape(attacker)}" '
        f'data-target="{escape(target)}">'
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#dc2626" '
        'stroke-width="4" stroke-dasharray="2 5" stroke-linecap="round" '
        'marker-end="url(#mv-arrow-attack)"/>'
        f'<circle cx="{tx:g}" cy="{ty:g}" r="{end:g}" fill="none" stroke="#dc2626" '
        f'stroke-width="3"/><text class="mv-mark" x="{tx:g}" y="{ty - end - 8:g}" '
        f'fill="#dc2626">{word}</text></g>'
    )


# --- the board in SVG: squares, names and pieces ------------------------------------------------

MARGIN: Final = 24
"""Room for the file letters above a board and the rank numbers left of it."""
OFF_LEFT: Final = 110
"""Where the pieces off the board begin, right of the strip's name."""
ROW: Final = 20
"""The height of a legend line."""
SEAT_COLOURS: Final[Mapping[int, str]] = {1: "#1d4ed8", 2: "#b91c1c"}
"""Each seat's pieces in a two-seat game: blue and red, as the terminal shows them."""


class Layout(NamedTuple):
    """Where a board is drawn: its squares from the top left corner (``margin``, ``margin``),
    ``cell`` units a side, then a strip below for the pieces off the board, a line of it
    ``strip`` high, the pieces from ``off_left`` on."""

    cell: int
    margin: int
    columns: int
    rows: int
    width: int
    """The picture's width."""
    strip: int
    off_left: int = OFF_LEFT

    def xy(self, at: Coord) -> tuple[int, int]:
        """The top left corner of a square."""
        return self.margin + at[0] * self.cell, self.margin + at[1] * self.cell

    def centre(self, at: Coord) -> tuple[float, float]:
        """The centre of a square."""
        x, y = self.xy(at)
        return x + self.cell / 2, y + self.cell / 2

    @property
    def bottom(self) -> int:
        """The bottom edge of the board."""
        return self.margin + self.rows * self.cell

    def per_line(self) -> int:
        """How many pieces a line of the strip holds."""
        return max((self.width - self.margin - self.off_left) // (self.cell - 2), 1)

    def off_xy(self, slot: int) -> tuple[int, int]:
        """Where the ``slot``-th piece off the board is drawn."""
        line, place = divmod(slot, self.per_line())
        x = self.margin + self.off_left + place * (self.cell - 2)
        return x, self.bottom + 6 + line * self.strip

    def below_strip(self, pieces: int) -> int:
        """Below the strip, with a line for each piece it may have to hold at once."""
        return self.bottom + 6 + self.strip * -(-pieces // self.per_line())


def health_bar(x: int, y: int, width: int, left: float, height: int = 4) -> str:
    """A piece's health as a bar, red for what was lost, green for the share ``left`` (0 to
    1) that remains."""
    return (
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="#dc2626"/>'
        f'<rect x="{x}" y="{y}" width="{width * max(left, 0.0):g}" height="{height}" '
        'fill="#16a34a"/>'
    )


def placed_mark(layout: Layout, at: Coord, css: str) -> str:
    """A ring round the square a piece was placed on in an entry."""
    cx, cy = layout.centre(at)
    return (
        f'<g class="mv-change {css}" data-square="{square_name(at)}">'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{layout.cell / 2 - 1:g}" fill="none" '
        'stroke="#f59e0b" stroke-width="3"/></g>'
    )


def board_head(
    css: str,
    size: tuple[int, int],
    title: str,
    symbols: Iterable[tuple[str, str]],
    box: int,
    style: str,
) -> tuple[str, str, str]:
    """A board's SVG document begun: its opening tag (classes ``mv-board`` and
    ``{css}-board``, labelled by its title), its title, and its definitions (each kind of
    square of ``symbols``, a kind and its drawing, as a symbol ``{css}-{kind}`` drawn in a
    ``box`` by ``box`` square; the arrow heads of :data:`ARROWS`) with
    ``style`` and the background."""
    width, height = size
    drawn = "".join(
        f'<symbol id="{css}-{kind}" viewBox="0 0 {box} {box}">{symbol}</symbol>'
        for kind, symbol in symbols
    )
    opening = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mv-board {css}-board" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{css}-board-title">'
    )
    titled = f'<title id="{css}-board-title">{escape(title)}</title>'
    defs = f'<defs>{drawn}{ARROWS}</defs>{style}<rect width="100%" height="100%" fill="#fafafa"/>'
    return opening, titled, defs


def grid_lines(left: int, top: int, columns: int, rows: int, cell: int) -> str:
    """The lines between the squares of a board whose top left corner is at (``left``,
    ``top``), as one path."""
    right, bottom = left + columns * cell, top + rows * cell
    lines = [f"M{left + c * cell},{top}V{bottom}" for c in range(columns + 1)]
    lines += [f"M{left},{top + r * cell}H{right}" for r in range(rows + 1)]
    return f'<path d="{"".join(lines)}" stroke="#00000033" stroke-width="1" fill="none"/>'


def grid_names(left: int, top: int, columns: int, rows: int, cell: int, css: str) -> str:
    """The file letters above the board and the rank numbers left of it, each a ``<text>`` of
    class ``css``, centred in the margin (``left`` and ``top`` wide)."""
    out = []
    for c in range(columns):
        x = left + c * cell + cell // 2
        out.append(f'<text class="{css}" x="{x}" y="{top // 2}">{file_name(c)}</text>')
    for r in range(rows):
        y = top + r * cell + cell // 2
        out.append(f'<text class="{css}" x="{left // 2}" y="{y}">{r + 1}</text>')
    return "".join(out)


class Piece(NamedTuple):
    """A piece to label: its id, its side, its type's name, and its number among its type
    ("" when it is the only one)."""

    id: str
    side: int
    kind: str
    number: str


def short_labels(pieces: Iterable[Piece]) -> dict[str, str]:
    """Each piece's short label, by id: the fewest first letters of its type's name that tell
    its side's types apart (two at least), then its number ("Go2" for Goblin 2)."""
    every = list(pieces)
    out: dict[str, str] = {}
    for side in {p.side for p in every}:
        names = {p.kind for p in every if p.side == side}
        for piece in (p for p in every if p.side == side):
            name = piece.kind
            size = next(
                (n for n in range(2, len(name)) if all(o[:n] != name[:n] for o in names - {name})),
                len(name),
            )
            out[piece.id] = name[:size].capitalize() + piece.number
    return out


__all__ = [
    "ARROWS",
    "MARGIN",
    "OFF_LEFT",
    "ROW",
    "SEAT_COLOURS",
    "Layout",
    "Line",
    "Pick",
    "Piece",
    "Renderer",
    "Span",
    "attack_mark",
    "board_head",
    "facts_html",
    "facts_of",
    "file_name",
    "grid_lines",
    "grid_names",
    "health_bar",
    "humanised",
    "option_pick_of",
    "path_mark",
    "pick_of",
    "placed_mark",
    "plain",
    "renderer_of",
    "seat_letters",
    "short_labels",
    "square_list",
    "text_grid",
]
