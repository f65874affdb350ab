"""Multiversus' pictures and words of a position, drawn from one viewer's view: its board in
SVG and in text, and a command in words (:class:`MultiversusRenderer`, the ruleset's
``renderer``).

:func:`board_svg` draws a :class:`~multiversus_core.rulesets.multiversus.views.MatchView` (or
the referee's state, which has the same public fields): the tiles and their terrain kinds,
every figure labelled in its side's colour (Large figures across their four spaces), Wounded
and Disabled figures marked, and figures off the board in a strip below it. :func:`changes`
reads what a log entry changed from the view before it and the entry's events as the viewer
knows them (a moved figure's path, an attack, a push, a die roll); the board draws them over
the figures. :func:`grid_cells` draws the board in text, each space the label of the figure
on it, the mark of a special tile, or a dot.

Only public fields are read: the board, the figures and the units. The SVG is built from parts
(:func:`board_parts`), so that a page of many boards can store each distinct part once;
joined, the parts are :func:`board_svg`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Final, Literal, Protocol, TypeAlias

import msgspec

from multiversus_core.engine.render import (
    ARROWS,
    Line,
    Pick,
    Span,
    attack_mark,
    path_mark,
    plain,
)
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.multiversus.board import Board, Figure
from multiversus_core.rulesets.multiversus.bots.determinize import determinize
from multiversus_core.rulesets.multiversus.commands import Attack as AttackCommand
from multiversus_core.rulesets.multiversus.commands import Command, Step
from multiversus_core.rulesets.multiversus.events import (
    AttackMade,
    FigureMoved,
    FigureStepped,
    InitiativeRolled,
    RecoveryMade,
)
from multiversus_core.rulesets.multiversus.geometry import figure_squares, tile_at
from multiversus_core.rulesets.multiversus.narrate import (
    actions_name,
    coins_by_unit,
    describe_command,
    side_name,
)
from multiversus_core.rulesets.multiversus.terms import Side, Square
from multiversus_core.rulesets.multiversus.units import CoinId, Unit, coin_unit
from multiversus_core.rulesets.multiversus.views import ActivationView, MatchView, ViewEvent

NOT_LAID_OUT: Final = "The board is not laid out yet."
"""What a board says before the set-up lays it out."""

CELL: Final = 48
"""The side of one space, in SVG units."""
MARGIN: Final = 22
"""Room for the column and row numbers."""
STRIP: Final = 44
"""The height of the strip of figures off the board."""
LEGEND_ROW: Final = 20

SIDE_COLOURS: Final[dict[Side, str]] = {"heroes": "#1d4ed8", "adversaries": "#b91c1c"}
"""The fill of each side's figures (the same sides the terminal shows blue and red)."""
TERRAIN_PIECE_COLOUR: Final = "#7e22ce"
TILE_COLOURS: Final = ("#86c06c", "#6fa8dc", "#e0a458", "#c27ba0", "#a0a0a0", "#d9c36a")
"""Special terrain kinds in the order the board lists them."""
ORDINARY: Final = ("#efe6d2", "#e6dbc2")
"""Face-down tiles, alternating so that each two-by-two tile shows."""


class HasBoard(Protocol):
    """What the board is drawn from: a view, or the referee's state (public fields only)."""

    @property
    def board(self) -> Board | None: ...
    @property
    def figures(self) -> tuple[Figure, ...]: ...
    @property
    def units(self) -> tuple[Unit, ...]: ...


class Path(msgspec.Struct, frozen=True, gc=False):
    """Spaces a figure went through in one entry, its start first."""

    figure: str
    kind: Literal["move", "push"]
    """``move``: its own steps; ``push``: pushed, pulled, slid or placed by another."""
    squares: tuple[Square, ...]


class Attack(msgspec.Struct, frozen=True, gc=False):
    """An attack made in one entry."""

    attacker: str
    target: str
    hit: bool
    attacker_square: Square | None
    target_square: Square | None


class Roll(msgspec.Struct, frozen=True, gc=False):
    """A die rolled in one entry, with what it was for."""

    what: str
    die: int | None
    """The number rolled; None when only the outcome is known (a Recovery)."""
    outcome: str


class Changes(msgspec.Struct, frozen=True, gc=False):
    """What one log entry changed on the board, to highlight."""

    paths: tuple[Path, ...] = ()
    attacks: tuple[Attack, ...] = ()
    rolls: tuple[Roll, ...] = ()


NO_CHANGES: Final = Changes()

_Where: TypeAlias = dict[str, Square | None]


def changes(before: HasBoard, events: Iterable[ViewEvent]) -> Changes:
    """Return what ``events`` changed on the board, starting from the board ``before``."""
    where: _Where = {f.id: f.square for f in before.figures}
    paths: list[Path] = []
    attacks: list[Attack] = []
    rolls: list[Roll] = []
    for event in events:
        match event:
            case FigureStepped(figure=figure, to=to):
                _extend(paths, where, figure, "move", to)
            case FigureMoved(figure=figure, to=to, how=how):
                _extend(paths, where, figure, "move" if how == "step" else "push", to)
            case AttackMade(attacker=attacker, target=target, hit=hit):
                attacks.append(
                    Attack(attacker, target, hit, where.get(attacker), where.get(target))
                )
            case InitiativeRolled(die=die, lost=lost, side=side):
                outcome = "lost" if lost else "kept"
                rolls.append(Roll(f"Initiative ({side.capitalize()})", die, outcome))
            case RecoveryMade(succeeded=succeeded, side=side):
                outcome = "recovered" if succeeded else "failed"
                rolls.append(Roll(f"Recovery ({side.capitalize()})", None, outcome))
            case _:
                pass
    return Changes(tuple(paths), tuple(attacks), tuple(rolls))


def _extend(
    paths: list[Path], where: _Where, figure: str, kind: Literal["move", "push"], to: Square
) -> None:
    start = where.get(figure)
    where[figure] = to
    last = paths[-1] if paths else None
    if last is not None and last.figure == figure and last.kind == kind:
        paths[-1] = Path(figure, kind, (*last.squares, to))
    elif start is not None:
        paths.append(Path(figure, kind, (start, to)))
    else:
        paths.append(Path(figure, kind, (to,)))


# --- drawing ----------------------------------------------------------------------


def board_svg(seen: HasBoard, labels: Mapping[str, str], highlight: Changes = NO_CHANGES) -> str:
    """Return the board of ``seen`` as one SVG document, with ``highlight`` drawn over it.

    ``labels`` gives each figure's short label (:func:`figure_labels`).
    """
    return "".join(board_parts(seen, labels, highlight))


def board_parts(
    seen: HasBoard, labels: Mapping[str, str], highlight: Changes = NO_CHANGES
) -> list[str]:
    """Return :func:`board_svg` as its parts, in order: the frame with the tiles, the
    highlighted paths, one part per figure, the attacks, the dice, and the closing tag."""
    board = seen.board
    if board is None:
        return [_empty_head(), "</svg>"]
    sizes = {f.id: f.size for f in seen.figures}
    offboard = [f for f in seen.figures if f.square is None]
    parts = [_head(board, seen.figures)]
    parts += [_path(path, sizes.get(path.figure, "medium")) for path in highlight.paths]
    # Terrain pieces first, so a character sharing their space is drawn on top.
    for figure in sorted(seen.figures, key=lambda f: not f.terrain):
        if figure.square is not None:
            parts.append(_figure(figure, labels.get(figure.id, figure.id[:3])))
    for slot, figure in enumerate(offboard):
        parts.append(_offboard(figure, labels.get(figure.id, figure.id[:3]), slot, board))
    parts += [_attack(attack, sizes) for attack in highlight.attacks]
    parts += _rolls(highlight.rolls, board)
    parts.append("</svg>")
    return parts


def _size(board: Board, kinds: int) -> tuple[int, int]:
    width = MARGIN + board.width * CELL + 8
    height = MARGIN + board.height * CELL + STRIP + LEGEND_ROW * (2 + (kinds + 1) // 2) + 8
    return width, height


def terrain_kinds(board: Board) -> list[tuple[str, bool, bool]]:
    """Return each special terrain of the board once: (name, blocking, obscuring)."""
    kinds: dict[str, tuple[str, bool, bool]] = {}
    for tile in board.tiles:
        kinds.setdefault(tile.terrain, (tile.terrain, tile.blocking, tile.obscuring))
    return list(kinds.values())


_DEFS: Final = (
    "<defs>"
    '<pattern id="mv-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#333" '
    'stroke-width="2" stroke-opacity="0.45"/></pattern>'
    '<pattern id="mv-dots" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<circle cx="3" cy="3" r="1" fill="#222" fill-opacity="0.35"/></pattern>' + ARROWS + "</defs>"
    "<style>"
    ".mv-label{font:bold 13px sans-serif;fill:#fff;text-anchor:middle;dominant-baseline:central}"
    ".mv-large .mv-label{font-size:20px}"
    ".mv-terrain .mv-label{font-style:italic}"
    ".mv-num{font:11px sans-serif;fill:#666;text-anchor:middle;dominant-baseline:central}"
    ".mv-text{font:12px sans-serif;fill:#222;dominant-baseline:central}"
    ".mv-mark{font:bold 13px sans-serif;text-anchor:middle;dominant-baseline:central}"
    "</style>"
)


def _empty_head() -> str:
    width, height = 360, 60
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mv-board" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">{_DEFS}'
        '<rect width="100%" height="100%" fill="#fafafa"/>'
        f'<text class="mv-text" x="12" y="{height // 2}">{NOT_LAID_OUT}</text>'
    )


def _head(board: Board, figures: Sequence[Figure]) -> str:
    kinds = terrain_kinds(board)
    colours = {name: TILE_COLOURS[i % len(TILE_COLOURS)] for i, (name, _, _) in enumerate(kinds)}
    width, height = _size(board, len(kinds))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mv-board" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">',
        _DEFS,
        '<rect width="100%" height="100%" fill="#fafafa"/>',
    ]
    for tr in range(0, board.height, 2):
        for tc in range(0, board.width, 2):
            x, y = _xy((tc, tr))
            shade = ORDINARY[(tc // 2 + tr // 2) % 2]
            out.append(
                f'<rect x="{x}" y="{y}" width="{2 * CELL}" height="{2 * CELL}" fill="{shade}"/>'
            )
    for tile in board.tiles:
        x, y = _xy(tile.origin)
        name = escape(tile.terrain)
        out.append(
            f'<g class="mv-tile" data-terrain="{name}"><title>{name}</title>'
            f'<rect x="{x}" y="{y}" width="{2 * CELL}" height="{2 * CELL}" '
            f'fill="{colours[tile.terrain]}"/>'
        )
        for on, pattern in ((tile.blocking, "mv-hatch"), (tile.obscuring, "mv-dots")):
            if on:
                out.append(
                    f'<rect x="{x}" y="{y}" width="{2 * CELL}" height="{2 * CELL}" '
                    f'fill="url(#{pattern})"/>'
                )
        out.append("</g>")
    left, top = MARGIN, MARGIN
    right, bottom = MARGIN + board.width * CELL, MARGIN + board.height * CELL
    grid = [f"M{left + c * CELL},{top}V{bottom}" for c in range(board.width + 1)]
    grid += [f"M{left},{top + r * CELL}H{right}" for r in range(board.height + 1)]
    out.append(f'<path d="{"".join(grid)}" stroke="#00000022" stroke-width="1" fill="none"/>')
    thick = [f"M{left + c * CELL},{top}V{bottom}" for c in range(0, board.width + 1, 2)]
    thick += [f"M{left},{top + r * CELL}H{right}" for r in range(0, board.height + 1, 2)]
    out.append(f'<path d="{"".join(thick)}" stroke="#00000055" stroke-width="1.5" fill="none"/>')
    for c in range(board.width):
        out.append(f'<text class="mv-num" x="{left + c * CELL + CELL // 2}" y="11">{c}</text>')
    for r in range(board.height):
        out.append(f'<text class="mv-num" x="11" y="{top + r * CELL + CELL // 2}">{r}</text>')
    strip = bottom + 6
    out.append(f'<text class="mv-text" x="{left}" y="{strip + 8}">Off the board:</text>')
    legend = bottom + STRIP + LEGEND_ROW // 2 + 4
    out.append(_legend_sides(left, legend))
    for i, (name, blocking, obscuring) in enumerate(kinds):
        x = left + (i % 2) * 240
        y = legend + LEGEND_ROW * (2 + i // 2)
        props = ", ".join(p for p, on in (("blocking", blocking), ("obscuring", obscuring)) if on)
        words = escape(name) + (f" ({props})" if props else "")
        out.append(
            f'<rect x="{x}" y="{y - 7}" width="14" height="14" fill="{colours[name]}"/>'
            + (
                f'<rect x="{x}" y="{y - 7}" width="14" height="14" fill="url(#mv-hatch)"/>'
                if blocking
                else ""
            )
            + f'<text class="mv-text" x="{x + 19}" y="{y}">{words}</text>'
        )
    return "".join(out)


def _legend_sides(x: int, y: int) -> str:
    out = []
    entries = (
        (SIDE_COLOURS["heroes"], "Heroes"),
        (SIDE_COLOURS["adversaries"], "Adversaries"),
        (TERRAIN_PIECE_COLOUR, "terrain piece"),
    )
    for i, (colour, words) in enumerate(entries):
        cx = x + i * 120
        out.append(
            f'<circle cx="{cx + 7}" cy="{y}" r="7" fill="{colour}"/>'
            f'<text class="mv-text" x="{cx + 19}" y="{y}">{words}</text>'
        )
    out.append(
        f'<text class="mv-text" x="{x}" y="{y + LEGEND_ROW}">'
        "Marks: * Wounded · × Disabled · † Eliminated</text>"
    )
    return "".join(out)


def _xy(square: Square) -> tuple[int, int]:
    return MARGIN + square[0] * CELL, MARGIN + square[1] * CELL


def _centre(square: Square, size: str) -> tuple[float, float]:
    x, y = _xy(square)
    span = 2 * CELL if size == "large" else CELL
    return x + span / 2, y + span / 2


_MARKS: Final = {"wounded": "*", "disabled": "×", "eliminated": "†"}
_MARK_COLOURS: Final = {"wounded": "#b45309", "disabled": "#111", "eliminated": "#111"}


def _token(figure: Figure, label: str, x: float, y: float, span: float, where: str) -> str:
    """One figure drawn with its top-left at (x, y), ``span`` across."""
    colour = TERRAIN_PIECE_COLOUR if figure.terrain else SIDE_COLOURS[figure.side]
    classes = ["mv-figure", f"mv-{figure.side}"]
    if figure.terrain:
        classes.append("mv-terrain")
    if figure.size == "large":
        classes.append("mv-large")
    condition = "terrain" if figure.terrain else figure.condition
    if not figure.terrain and figure.condition != "unharmed":
        classes.append(f"mv-{figure.condition}")
    pad = 4
    title = escape(figure.name) + ("" if figure.terrain else f" ({figure.condition})")
    out = [
        f'<g class="{" ".join(classes)}" data-figure="{escape(figure.id)}" '
        f'data-piece="{escape(figure.id)}" data-square="{where}" data-condition="{condition}">'
        f"<title>{title}</title>"
    ]
    inner = span - 2 * pad
    opacity = ' fill-opacity="0.45"' if figure.condition in ("disabled", "eliminated") else ""
    if figure.terrain:
        out.append(
            f'<rect x="{x + pad}" y="{y + pad}" width="{inner}" height="{inner}" rx="3" '
            f'fill="{colour}" fill-opacity="0.8" stroke="#3b0764" stroke-dasharray="4 2"/>'
        )
    elif figure.size == "large":
        out.append(
            f'<rect x="{x + pad}" y="{y + pad}" width="{inner}" height="{inner}" rx="14" '
            f'fill="{colour}"{opacity} stroke="#111" stroke-width="1.5"/>'
        )
    else:
        out.append(
            f'<circle cx="{x + span / 2}" cy="{y + span / 2}" r="{inner / 2}" '
            f'fill="{colour}"{opacity} stroke="#111" stroke-width="1.5"/>'
        )
    if figure.condition == "wounded" and not figure.terrain:
        out.append(
            f'<circle cx="{x + span / 2}" cy="{y + span / 2}" r="{inner / 2 + 1}" fill="none" '
            'stroke="#facc15" stroke-width="3" stroke-dasharray="5 3"/>'
        )
    out.append(
        f'<text class="mv-label" x="{x + span / 2}" y="{y + span / 2}">{escape(label)}</text>'
    )
    mark = _MARKS.get(figure.condition) if not figure.terrain else None
    if mark is not None:
        out.append(
            f'<circle cx="{x + span - 7}" cy="{y + 7}" r="7" fill="#fff" stroke="#111"/>'
            f'<text class="mv-mark" x="{x + span - 7}" y="{y + 7}" '
            f'fill="{_MARK_COLOURS[figure.condition]}">{mark}</text>'
        )
    out.append("</g>")
    return "".join(out)


def _figure(figure: Figure, label: str) -> str:
    assert figure.square is not None
    x, y = _xy(figure.square)
    span = 2 * CELL if figure.size == "large" else CELL
    where = f"{figure.square[0]},{figure.square[1]}"
    return _token(figure, label, x, y, span, where)


def _offboard(figure: Figure, label: str, slot: int, board: Board) -> str:
    x = MARGIN + 100 + slot * (CELL - 4)
    y = MARGIN + board.height * CELL + 6
    return _token(figure, label, x, y, CELL - 6, "")


def _path(path: Path, size: str) -> str:
    return path_mark(path.figure, path.kind, [_centre(s, size) for s in path.squares])


def _attack(attack: Attack, sizes: Mapping[str, str]) -> str:
    if attack.attacker_square is None or attack.target_square is None:
        return '<g class="mv-change mv-attack"></g>'
    start = (CELL if sizes.get(attack.attacker) == "large" else CELL / 2) - 4
    end = (CELL if sizes.get(attack.target) == "large" else CELL / 2) + 2
    return attack_mark(
        attack.attacker,
        attack.target,
        "hit" if attack.hit else "miss",
        (_centre(attack.attacker_square, sizes.get(attack.attacker, "medium")), start),
        (_centre(attack.target_square, sizes.get(attack.target, "medium")), end),
    )


_CHAR_WIDTH: Final = 7
"""A generous average width of a character of ``.mv-text`` (12px sans-serif), in pixels."""


def _rolls(rolls: Sequence[Roll], board: Board) -> list[str]:
    """Draw the entry's rolls under the board, from its right edge leftwards, each with
    room for its words, so that no outcome is cut off at the picture's edge."""
    end = MARGIN + board.width * CELL + 4
    y = MARGIN + board.height * CELL + 6
    out = []
    for roll in rolls:
        face = "" if roll.die is None else str(roll.die)
        said = f"{roll.what}: {roll.outcome}"
        x = end - 36 - _CHAR_WIDTH * len(said)
        end = x - 12
        out.append(
            f'<g class="mv-change mv-roll" data-die="{face}">'
            f'<rect x="{x}" y="{y}" width="30" height="30" rx="6" fill="#fff" stroke="#111" '
            'stroke-width="2"/>'
            f'<text class="mv-mark" x="{x + 15}" y="{y + 15}" fill="#111">{face or "?"}</text>'
            f'<text class="mv-text" x="{x + 36}" y="{y + 15}">{escape(said)}</text></g>'
        )
    return out


# --- labels ------------------------------------------------------------------------------------


def _abbreviation(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[1][0]).upper()


def figure_labels(state: HasBoard) -> dict[str, str]:
    """Return a short label for every figure, for example "BK", "TM2" or "Sm".

    A unit's figures share an abbreviation of its name, numbered when the unit
    has more than one; labels are unique in the match.
    """
    used: set[str] = set()
    labels: dict[str, str] = {}
    for index, unit in enumerate(state.units, start=1):
        abbr = _abbreviation(printable(unit.name))
        candidates = [abbr, *(abbr[0] + ch.lower() for ch in unit.name[1:] if ch.isalnum())]
        abbr = next((c for c in candidates if c not in used), f"{abbr[0]}{index}")
        used.add(abbr)
        for number, figure_id in enumerate(unit.figures, start=1):
            labels[figure_id] = abbr if len(unit.figures) == 1 else f"{abbr}{number}"
    for figure in state.figures:  # figures of no listed unit: keep them visible
        labels.setdefault(figure.id, figure.id[:3])
    return labels


def tile_marks(board: Board) -> dict[str, str]:
    """Return a lower-case mark for each special terrain on the board, for example "sv"."""
    marks: dict[str, str] = {}
    for tile in board.tiles:
        if tile.terrain in marks:
            continue
        mark = _abbreviation(tile.terrain).lower()
        if mark in marks.values():
            mark = f"{mark[0]}{len(marks) + 1}"
        marks[tile.terrain] = mark
    return marks


# --- the board in text ------------------------------------------------------------------------

EMPTY: Final = "·"
"""A space with no figure and no special tile."""
CONDITION_MARKS: Final[Mapping[str, str]] = {
    "unharmed": "",
    "wounded": "*",
    "disabled": "×",
    "eliminated": "†",
}
"""The mark after a figure's label for its condition (eliminated figures are off the board)."""


def _occupants(seen: HasBoard) -> dict[Square, list[Figure]]:
    cells: dict[Square, list[Figure]] = {}
    # Characters first, so a character sharing a space with a terrain piece leads its cell.
    for figure in sorted(seen.figures, key=lambda f: f.terrain):
        for sq in figure_squares(figure):
            cells.setdefault(sq, []).append(figure)
    return cells


def _cell(
    figures: Sequence[Figure], labels: Mapping[str, str], mark: str | None, ground: str
) -> list[Span]:
    """One space's spans: its figures' labels joined by "+", each with its condition's mark, or
    the mark of its special tile, or :data:`EMPTY`; every role ends with ``ground``."""
    out: list[Span] = []
    for i, figure in enumerate(figures):
        if i:
            out.append(Span("+", ground))
        side = "terrain" if figure.terrain else figure.side
        out.append(Span(labels[figure.id], _words(side, ground)))
        if not figure.terrain and figure.condition != "unharmed":
            mark_role = _words(side, figure.condition, ground)
            out.append(Span(CONDITION_MARKS[figure.condition], mark_role))
    if not out:
        out.append(Span(EMPTY, "empty") if mark is None else Span(mark, _words("mark", ground)))
    return out


def _words(*roles: str) -> str:
    return " ".join(role for role in roles if role)


def grid_cells(seen: HasBoard) -> list[Line] | None:
    """The board in text, as lines of spans: the column numbers across the top (roles
    ``frame head``) and the row numbers down the left (``frame``), each space the label of the
    figure on it (role ``heroes``, ``adversaries`` or ``terrain``; a Large figure's label fills
    its four spaces) with its condition's mark (its side's role, then ``wounded`` or
    ``disabled``), the mark of a special tile (``mark``), or :data:`EMPTY` (``empty``); a space
    of a special tile adds ``tile`` (or ``blocking``) to its roles. None before the board is
    laid out.

    The columns are as wide as their widest space (three at least), each centred, two spaces
    apart.
    """
    board = seen.board
    if board is None:
        return None
    labels = figure_labels(seen)
    marks = tile_marks(board)
    cells = _occupants(seen)
    head = [(str(c), "frame head") for c in range(board.width)]
    rows: list[list[tuple[list[Span], str]]] = [
        [([Span("", "frame")], "")] + [([Span(text, role)], "") for text, role in head]
    ]
    for row in range(board.height):
        line: list[tuple[list[Span], str]] = [([Span(str(row), "frame")], "")]
        for column in range(board.width):
            tile = tile_at(board, (column, row))
            ground = "" if tile is None else "blocking" if tile.blocking else "tile"
            mark = None if tile is None else marks[tile.terrain]
            line.append((_cell(cells.get((column, row), []), labels, mark, ground), ground))
        rows.append(line)
    widths = [max(2, *(_length(r[0][0]) for r in rows))]
    widths += [max(3, *(_length(r[c][0]) for r in rows)) for c in range(1, board.width + 1)]
    out: list[Line] = []
    for line in rows:
        spans: list[Span] = []
        for c, (cell, ground) in enumerate(line):
            excess = widths[c] - _length(cell)
            if c == 0:  # the row numbers, to the right
                spans += [Span(" " * excess, "frame"), *cell]
            else:  # a space, centred, with room on both sides
                left = excess // 2
                spans += [Span(" "), Span(" " * left, ground), *cell]
                spans.append(Span(" " * (excess - left), ground))
            if c < len(line) - 1:
                spans.append(Span(" "))
        out.append(tuple(span for span in spans if span.text))
    return out


def _length(spans: Sequence[Span]) -> int:
    return sum(len(span.text) for span in spans)


# --- the renderer -----------------------------------------------------------------------------


def space_marks(board: Board) -> str:
    """A clear square over each space of the board, named as a figure's ``data-square``
    names its space (``"C,R"``), so that a click on an empty space can name it."""
    out = ['<g class="mv-spaces">']
    for row in range(board.height):
        for column in range(board.width):
            x, y = _xy((column, row))
            out.append(
                f'<rect class="mv-space" data-square="{column},{row}" x="{x}" y="{y}" '
                f'width="{CELL}" height="{CELL}" fill="#000" fill-opacity="0"/>'
            )
    out.append("</g>")
    return "".join(out)


def command_pick(command: Command, view: HasBoard) -> Pick | None:
    """The figure a command moves or attacks with, and the space it steps to (its top left
    space, for a Large figure) or the target's space; None for the rest."""
    where = {f.id: f.square for f in view.figures}
    match command:
        case Step(figure=figure, direction=(dx, dy)):
            at = where.get(figure)
            return Pick(figure, None if at is None else f"{at[0] + dx},{at[1] + dy}")
        case AttackCommand(attacker=attacker, target=target):
            aim = where.get(target)
            return Pick(attacker, None if aim is None else f"{aim[0]},{aim[1]}")
    return None


def view_facts(view: MatchView) -> dict[str, object]:
    """What a view holds that the board does not show, in words: each side's coins (the
    viewer's own stash by unit and colour, the other's by count), the selection under way,
    and the set-up secrets (a choice the viewer may not see is "hidden")."""
    units = {u.id: printable(u.name) for u in view.units}
    figures = {f.id: printable(f.name) for f in view.figures}

    def coins(given: Sequence[CoinId]) -> str:
        return coins_by_unit(given, lambda unit: units.get(unit, printable(unit)))

    facts: dict[str, object] = {}
    if view.viewer != "spectator":
        facts["You play"] = side_name(view.viewer)
    for side in ("heroes", "adversaries"):
        piles = view.piles(side)
        whose = "Your coins" if side == view.viewer else f"{side_name(side)}' coins"
        stash = coins(piles.stash) if piles.stash is not None else f"{piles.stash_count} (hidden)"
        facts[whose] = {
            "Remaining (stash)": stash,
            "Spent (discard)": coins(piles.discard),
            "Out of the match": coins(piles.removed),
        }
    facts["Selection under way"] = (
        "none" if view.activation is None else _selection(view.activation, units)
    )
    secrets: list[dict[str, object]] = [
        {
            "Side": side_name(s.side),
            "Secret": s.name,
            "Choice": "hidden" if s.choice is None else _option(s.choice, figures),
            "Revealed": s.revealed,
        }
        for s in view.secrets
    ]
    chosen = {(s.side, s.name) for s in view.secrets}
    secrets.extend(
        {"Side": side_name(o.side), "Secret": o.name, "Choice": "not chosen yet", "Revealed": False}
        for o in view.secret_offers
        if (o.side, o.name) not in chosen
    )
    facts["Secrets"] = secrets
    return facts


def _option(choice: str, figures: Mapping[str, str]) -> str:
    """A secret's choice in words, as :func:`~multiversus_core.rulesets.multiversus.narrate.\
secret_option_name` says it: a figure's name, or the option with its hyphens as spaces."""
    return figures.get(choice, choice.replace("-", " "))


def _selection(act: ActivationView, units: Mapping[str, str]) -> dict[str, object]:
    """The activation under way in words: the active side's selection, then the reaction."""
    active: dict[str, object] = {"Side": side_name(act.side)}
    if act.hidden:
        active["Selection"] = "selected in secret"
    else:
        active["Unit"] = units.get(act.unit or "", act.unit)
        active["Actions"] = None if act.actions is None else actions_name(act.actions)
        active["Actions left"] = actions_name(act.remaining) if act.remaining else "none"
        active["Revealed"] = act.revealed
    if act.reaction_hidden:
        active["Reaction"] = "selected in secret"
    elif act.reaction_selected:
        unit = units.get(coin_unit(act.reaction_coin), "") if act.reaction_coin else ""
        actions = act.reaction_actions
        shown = actions_name(actions) if actions is not None else "hidden"
        active["Reaction"] = f"{unit}: {shown}" if unit else shown
    return active


class MultiversusRenderer:
    """Multiversus' pictures and words (:class:`~multiversus_core.engine.render.Renderer`)."""

    def board_svg(self, view: MatchView) -> str:
        """The board as one SVG document (:func:`board_svg`), each space marked for a click
        (:func:`space_marks`): "not laid out yet" before the set-up lays it out."""
        parts = board_parts(view, figure_labels(view))
        if view.board is not None:
            parts.insert(1, space_marks(view.board))  # under the figures
        return "".join(parts)

    def command_pick(self, command: Command, view: MatchView) -> Pick | None:
        """Where the command is given on the board (:func:`command_pick`)."""
        return command_pick(command, view)

    def view_facts(self, view: MatchView) -> dict[str, object]:
        """The coins, the selection under way and the secrets, in words (:func:`view_facts`)."""
        return view_facts(view)

    def board_text(self, view: MatchView) -> str:
        """The board as text (:func:`grid_cells`): "The board is not laid out yet." before the
        set-up lays it out."""
        lines = grid_cells(view)
        return NOT_LAID_OUT if lines is None else plain(lines)

    def command_words(self, command: Command, view: MatchView) -> str:
        """The command in words, as the menus give it
        (:func:`~multiversus_core.rulesets.multiversus.narrate.describe_command`).

        The words are told from the view filled in to a whole state (with a fixed seed, so
        the same view reads the same): a seat's legal commands name only what its view shows
        (its own coins and secrets, the public board), never what the filling drew.
        """
        return describe_command(determinize(view, random.Random(0)), command)


RENDERER: Final = MultiversusRenderer()
"""Multiversus' renderer, the ruleset's ``renderer``."""

__all__ = [
    "ARROWS",
    "CONDITION_MARKS",
    "EMPTY",
    "NOT_LAID_OUT",
    "RENDERER",
    "SIDE_COLOURS",
    "Attack",
    "Changes",
    "HasBoard",
    "MultiversusRenderer",
    "Path",
    "Roll",
    "board_parts",
    "board_svg",
    "changes",
    "command_pick",
    "figure_labels",
    "grid_cells",
    "space_marks",
    "terrain_kinds",
    "tile_marks",
    "view_facts",
]
