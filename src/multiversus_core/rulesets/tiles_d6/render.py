"""tiles-d6's pictures and words of a position, drawn from one viewer's view: its board in
SVG and in text, and a command in words (:class:`TilesRenderer`, the ruleset's ``renderer``).

:func:`board_svg` draws the board: every tile by its kind (T7) with a legend, files lettered
and ranks numbered as players name tiles (:func:`~multiversus_core.rulesets.tiles_d6.words.square`),
the set-up halves while units are placed (T27), every unit as a token in its seat's colour
with a short label, a prone unit lying flat, Stunned and Concussed marked, lost health as a
bar, units off the board (not placed yet, or Injured) in a strip below, and an entry's steps,
attacks and shots (:func:`highlight`) drawn over it. :func:`map_lines` draws the map in text:
each tile its legend character, each unit its letter.

Nothing is hidden in this game (T28) but the chance seed, which nothing here reads.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from html import escape
from typing import Final, Literal, Protocol, TypeAlias

import msgspec

from multiversus_core.engine.grid import centre_tiles
from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.render import (
    MARGIN,
    OFF_LEFT,
    ROW,
    SEAT_COLOURS,
    Layout,
    Line,
    Pick,
    Piece,
    Span,
    attack_mark,
    board_head,
    grid_lines,
    grid_names,
    health_bar,
    path_mark,
    placed_mark,
    plain,
    seat_letters,
    short_labels,
    text_grid,
)
from multiversus_core.engine.ruleset import Seat
from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.content import BLOCKS_MOVEMENT, CENTRE_GAP, find_map
from multiversus_core.rulesets.tiles_d6.model import (
    ROUNDS,
    Attack,
    Attacked,
    Command,
    Coord,
    Fire,
    Fired,
    Place,
    StartCharge,
    StartMove,
    Stepped,
    StepTo,
    TilesState,
    Unit,
    UnitPlaced,
)
from multiversus_core.rulesets.tiles_d6.rules import (
    BLOCKS_SIGHT,
    deployer,
    grid_of,
    next_to_place,
)
from multiversus_core.rulesets.tiles_d6.words import command_words, unit_name

CELL: Final = 40
"""The side of one tile, in SVG units."""
STRIP: Final = 40
"""The height of a line of the strip of units off the board."""
WIDEST: Final = 500
"""The least width of the picture, so that the legend fits beside a small map."""

Kind: TypeAlias = Literal["ground", "tree", "wall", "door", "window", "water", "brambles"]
KINDS: Final[Mapping[str, Kind]] = {
    ".": "ground",
    "T": "tree",
    "#": "wall",
    "+": "door",
    "=": "window",
    "~": "water",
    "^": "brambles",
}
"""Each legend character of a map (T7) by the name of its kind."""

_SYMBOLS: Final[Mapping[Kind, str]] = {
    "ground": '<rect width="40" height="40" fill="#efe6d2"/>',
    "tree": (
        '<rect width="40" height="40" fill="#d4e6c3"/>'
        '<rect x="18" y="25" width="4" height="11" fill="#6b4423"/>'
        '<circle cx="20" cy="17" r="12" fill="#2f7d32" stroke="#1b4d1e"/>'
    ),
    "wall": (
        '<rect width="40" height="40" fill="#6b6b6b"/>'
        '<path d="M0,10H40M0,20H40M0,30H40M12,0V10M32,0V10M2,10V20M22,10V20M12,20V30'
        'M32,20V30M2,30V40M22,30V40" stroke="#444" stroke-width="1.5"/>'
    ),
    "door": (
        '<rect width="40" height="40" fill="#6b6b6b"/>'
        '<rect x="8" y="3" width="24" height="34" rx="3" fill="#a0522d" stroke="#5c2e12"/>'
        '<circle cx="27" cy="21" r="2" fill="#f5d76e"/>'
    ),
    "window": (
        '<rect width="40" height="40" fill="#6b6b6b"/>'
        '<rect x="6" y="9" width="28" height="22" fill="#bfe3f5" stroke="#f8fafc" '
        'stroke-width="2"/><path d="M20,9V31M6,20H34" stroke="#f8fafc" stroke-width="2"/>'
    ),
    "water": (
        '<rect width="40" height="40" fill="#6fa8dc"/>'
        '<path d="M4,13q4,-4 8,0t8,0t8,0t8,0M4,25q4,-4 8,0t8,0t8,0t8,0" fill="none" '
        'stroke="#e0f2fe" stroke-width="2"/>'
    ),
    "brambles": (
        '<rect width="40" height="40" fill="#c9d7a1"/>'
        '<path d="M3,12l5,-6l5,6l5,-6l5,6l5,-6l5,6l5,-6M3,28l5,-6l5,6l5,-6l5,6l5,-6l5,6l5,-6" '
        'fill="none" stroke="#7c4a12" stroke-width="2"/>'
    ),
}
"""How each kind of tile is drawn, in a 40 by 40 box."""


def _blocks(character: str) -> str:
    """What a tile blocks (T5, T6, T7), in words."""
    blocked = [
        what
        for what, tiles in (("movement", BLOCKS_MOVEMENT), ("sight", BLOCKS_SIGHT))
        if character in tiles
    ]
    return " and ".join(blocked)


# --- what an entry did -------------------------------------------------------------------------


class Strike(msgspec.Struct, frozen=True, gc=False):
    """A melee attack (T22) or a shot (T26) made in one entry."""

    kind: Literal["attack", "fire"]
    unit: str
    target: str
    outcome: str
    """``hit``, ``miss`` or (an attack's) ``backfire`` (T25)."""
    source: Coord
    aim: Coord


class Highlight(msgspec.Struct, frozen=True, gc=False):
    """What one entry did on the board, to draw over it."""

    steps: tuple[tuple[str, tuple[Coord, ...]], ...] = ()
    """Each unit that stepped, with the tiles it went through, its start first."""
    placed: tuple[Coord, ...] = ()
    """The tiles units were set up on."""
    strikes: tuple[Strike, ...] = ()


def highlight(before: TilesState, events: Iterable[msgspec.Struct]) -> Highlight:
    """What ``events`` did on the board, starting from the board ``before``."""
    where: dict[str, Coord | None] = {u.id: u.at for u in before.units}
    steps: dict[str, list[Coord]] = {}
    placed: list[Coord] = []
    strikes: list[Strike] = []

    def strike(kind: Literal["attack", "fire"], unit: str, target: str, outcome: str) -> None:
        source, aim = where.get(unit), where.get(target)
        if source is not None and aim is not None:
            strikes.append(Strike(kind, unit, target, outcome, source, aim))

    for event in events:
        match event:
            case Stepped(unit=unit, to=to):
                start = where.get(unit)
                steps.setdefault(unit, [] if start is None else [start]).append(to)
                where[unit] = to
            case UnitPlaced(at=at):
                placed.append(at)
            case Attacked(unit=unit, target=target, result=result):
                strike("attack", unit, target, result)
            case Fired(unit=unit, target=target, hit=hit):
                strike("fire", unit, target, "hit" if hit else "miss")
            case _:
                pass
    paths = tuple((unit, tuple(path)) for unit, path in steps.items())
    return Highlight(paths, tuple(placed), tuple(strikes))


# --- drawing ----------------------------------------------------------------------------------


def labels(units: Sequence[Unit]) -> dict[str, str]:
    """Each unit's short label: the fewest first letters of its type's name that tell the
    seat's types apart, then its number on the roster ("Go2" for Goblin 2)."""
    return short_labels(Piece(u.id, u.seat, u.stats.name, roster_number(u)) for u in units)


def roster_number(unit: Unit) -> str:
    """The unit's number on its roster, when it fields several of its type ("2")."""
    tail = unit.id.rsplit("-", 1)
    return tail[1] if len(tail) == 2 and tail[1].isdigit() else ""


def statuses(unit: Unit) -> tuple[str, ...]:
    """The unit's statuses (T15-T17): ``stunned``, ``concussed``, ``injured``."""
    marked = (("stunned", unit.stunned), ("concussed", unit.concussed), ("injured", unit.injured))
    return tuple(name for name, on in marked if on)


def posture(unit: Unit) -> str:
    """``prone`` or ``standing`` (T10, T13, T24)."""
    return "prone" if unit.prone else "standing"


def board_parts(seen: TilesState, change: Highlight | None = None) -> list[str]:
    """The board of ``seen`` as SVG parts, in order: the frame with its title, the tiles and
    the legend, the set-up halves (while units are placed), the entry's steps, one part per
    unit, the entry's attacks and shots, and the closing tag. Joined, they are one SVG
    document."""
    change = change or Highlight()
    short = labels(seen.units)
    layout = _layout(seen)
    parts = _head(seen)
    if seen.phase in ("choose_half", "deploy"):
        parts.append(_halves(seen))
    parts += [
        path_mark(unit, "move", [layout.centre(at) for at in path]) for unit, path in change.steps
    ]
    parts += [placed_mark(layout, at, "tiles-placed") for at in change.placed]
    off = 0
    for unit in seen.units:
        if unit.at is not None:
            parts.append(_token(seen, unit, short[unit.id], layout.xy(unit.at), CELL))
        else:
            parts.append(_token(seen, unit, short[unit.id], layout.off_xy(off), CELL - 6))
            off += 1
    parts += [
        attack_mark(
            s.unit,
            s.target,
            s.outcome,
            (layout.centre(s.source), 14),
            (layout.centre(s.aim), 20),
            s.kind,
        )
        for s in change.strikes
    ]
    parts.append("</svg>")
    return parts


def board_svg(seen: TilesState, change: Highlight | None = None) -> str:
    """The board of ``seen`` as one SVG document (:func:`board_parts`, joined)."""
    return "".join(board_parts(seen, change))


def _layout(seen: TilesState) -> Layout:
    """Where the board of ``seen`` is drawn."""
    columns, rows = len(seen.rows[0]), len(seen.rows)
    width = max(MARGIN + columns * CELL + 8, WIDEST)
    return Layout(CELL, MARGIN, columns, rows, width, STRIP, OFF_LEFT)


def _kinds(seen: TilesState) -> list[str]:
    """The legend characters of the map, in the order of :data:`KINDS`."""
    present = {c for row in seen.rows for c in row}
    return [c for c in KINDS if c in present]


def _size(seen: TilesState) -> tuple[int, int]:
    layout = _layout(seen)
    lines = 3 + (len(_kinds(seen)) + 1) // 2
    return layout.width, _legend_top(seen) + ROW * lines + 8


def _legend_top(seen: TilesState) -> int:
    """Below the strip, with a line for each unit the strip may have to hold at once."""
    return _layout(seen).below_strip(len(seen.units))


_STYLE: Final = (
    "<style>"
    ".tiles-label{font:bold 12px sans-serif;fill:#fff;text-anchor:middle;"
    "dominant-baseline:central}"
    ".tiles-num{font:11px sans-serif;fill:#555;text-anchor:middle;dominant-baseline:central}"
    ".tiles-text{font:12px sans-serif;fill:#222;dominant-baseline:central}"
    ".mv-mark{font:bold 13px sans-serif;text-anchor:middle;dominant-baseline:central}"
    ".tiles-badge{font:bold 10px sans-serif;text-anchor:middle;dominant-baseline:central}"
    "</style>"
)


def _title(seen: TilesState) -> str:
    game_map = find_map(seen.settings.map)
    name = game_map.name if game_map is not None else seen.settings.map
    return f"tiles-d6 board, {name}: {where_words(seen)}"


def _head(seen: TilesState) -> list[str]:
    """The opening tag, the title (where the match stands), then the tiles and the legend: the
    first and the last are the same all match long, so a page stores them once."""
    width, height = _size(seen)
    layout = _layout(seen)
    opening, title, defs = board_head(
        "tiles", (width, height), _title(seen), _SYMBOLS.items(), 40, _STYLE
    )
    out = [defs]
    for row, characters in enumerate(seen.rows):
        for column, character in enumerate(characters):
            kind, x, y = KINDS[character], *layout.xy((column, row))
            name = square((column, row))
            out.append(
                f'<g class="tiles-tile" data-square="{name}" data-kind="{kind}">'
                f"<title>{name}: {kind}</title>"
                f'<use href="#tiles-{kind}" x="{x}" y="{y}" width="{CELL}" height="{CELL}"/></g>'
            )
    columns, rows = len(seen.rows[0]), len(seen.rows)
    left, bottom = MARGIN, layout.bottom
    out.append(grid_lines(MARGIN, MARGIN, columns, rows, CELL))
    out.append(grid_names(MARGIN, MARGIN, columns, rows, CELL, "tiles-num"))
    out.append(f'<text class="tiles-text" x="{left}" y="{bottom + 6 + CELL // 2 - 3}">')
    out.append("Off the board:</text>")
    out.append(_legend(seen, left, _legend_top(seen) + ROW // 2 + 4))
    return [opening, title, "".join(out)]


def _legend(seen: TilesState, x: int, y: int) -> str:
    names = seen.settings.players
    out = []
    for i, seat in enumerate((1, 2)):
        out.append(
            f'<circle cx="{x + i * 200 + 7}" cy="{y}" r="7" fill="{SEAT_COLOURS[seat]}"/>'
            f'<text class="tiles-text" x="{x + i * 200 + 19}" y="{y}">'
            f"{escape(names[seat - 1])} (seat {seat})</text>"
        )
    out.append(
        f'<text class="tiles-text" x="{x}" y="{y + ROW}">Flat: prone · S Stunned · '
        "C Concussed · red: health lost · faded: acted this turn</text>"
    )
    for i, character in enumerate(_kinds(seen)):
        kind = KINDS[character]
        lx, ly = x + (i % 2) * 240, y + ROW * (2 + i // 2)
        blocks = _blocks(character)
        words = f"{kind} ({character})" + (f", blocks {blocks}" if blocks else "")
        out.append(
            f'<g class="tiles-key" data-kind="{kind}">'
            f'<use href="#tiles-{kind}" x="{lx}" y="{ly - 8}" width="16" height="16"/>'
            f'<text class="tiles-text" x="{lx + 22}" y="{ly}">{escape(words)}</text></g>'
        )
    return "".join(out)


def _halves(seen: TilesState) -> str:
    """The north and south halves (T27), each in its seat's colour once chosen, and the
    tiles round the centre where no unit may be set up."""
    grid = grid_of(seen)
    half = grid.height // 2
    names = seen.settings.players
    layout = _layout(seen)
    out = ['<g class="tiles-halves">']
    for name, first in (("north", 0), ("south", grid.height - half)):
        seat: Seat | None = None
        if seen.north is not None:
            seat = seen.north if name == "north" else 3 - seen.north
        colour = "#64748b" if seat is None else SEAT_COLOURS[seat]
        whose = "" if seat is None else f": {names[seat - 1]} sets up here"
        x, y = layout.xy((0, first))
        out.append(
            f'<rect class="tiles-half" data-half="{name}" x="{x + 2}" y="{y + 2}" '
            f'width="{grid.width * CELL - 4}" height="{half * CELL - 4}" fill="{colour}" '
            f'fill-opacity="0.12" stroke="{colour}" stroke-width="3" stroke-dasharray="8 4">'
            f"<title>The {name} half{escape(whose)}</title></rect>"
        )
    centres = centre_tiles(grid)
    (c0, r0), (c1, r1) = centres[0], centres[-1]
    x, y = layout.xy((max(c0 - CENTRE_GAP, 0), max(r0 - CENTRE_GAP, 0)))
    x1, y1 = layout.xy(
        (min(c1 + CENTRE_GAP, grid.width - 1) + 1, min(r1 + CENTRE_GAP, grid.height - 1) + 1)
    )
    out.append(
        f'<rect class="tiles-centre" x="{x}" y="{y}" width="{x1 - x}" height="{y1 - y}" '
        'fill="#0f172a" fill-opacity="0.08" stroke="#0f172a" stroke-dasharray="3 3">'
        f"<title>No unit is set up within {CENTRE_GAP} tiles of the centre</title></rect></g>"
    )
    return "".join(out)


def _token(seen: TilesState, unit: Unit, label: str, xy: tuple[int, int], span: int) -> str:
    """A unit drawn with its tile's top left at ``xy``, ``span`` across."""
    x, y = xy
    cx, cy = x + span / 2, y + span / 2
    colour = SEAT_COLOURS[unit.seat]
    marks = statuses(unit)
    acted = unit.id in seen.acted and unit.at is not None
    where = "" if unit.at is None else square(unit.at)
    classes = " ".join(
        ["tiles-unit", f"tiles-seat-{unit.seat}", f"tiles-{posture(unit)}"]
        + [f"tiles-{m}" for m in marks]
        + (["tiles-acted"] if acted else [])
    )
    said = [posture(unit), *marks, f"{max(unit.health, 0)} of {unit.stats.health} health"]
    title = f"{unit_name(seen, unit.id)} ({label}){', on ' + where if where else ''}: "
    out = [
        f'<g class="{classes}" data-unit="{escape(unit.id)}" data-piece="{escape(unit.id)}" '
        f'data-square="{where}" '
        f'data-posture="{posture(unit)}" data-statuses="{" ".join(marks)}" '
        f'data-health="{unit.health}"><title>{escape(title + ", ".join(said))}</title>'
    ]
    opacity = ' fill-opacity="0.5"' if acted or unit.injured else ""
    r = span / 2 - 4
    if unit.prone:
        out.append(
            f'<ellipse class="tiles-body" cx="{cx:g}" cy="{cy + 4:g}" rx="{r + 2:g}" '
            f'ry="{r / 2 + 1:g}" fill="{colour}"{opacity} stroke="#111" stroke-width="1.5"/>'
        )
        label_y = cy + 4
    else:
        out.append(
            f'<circle class="tiles-body" cx="{cx:g}" cy="{cy:g}" r="{r:g}" '
            f'fill="{colour}"{opacity} stroke="#111" stroke-width="1.5"/>'
        )
        label_y = cy
    out.append(f'<text class="tiles-label" x="{cx:g}" y="{label_y:g}">{escape(label)}</text>')
    if unit.health < unit.stats.health:
        out.append(health_bar(x + 4, y + span - 5, span - 8, unit.health / unit.stats.health))
    badges = [("S", "#facc15", "stunned"), ("C", "#c084fc", "concussed"), ("†", "#fff", "injured")]
    corner = 0
    for letter, fill, name in badges:
        if name in marks:
            bx = x + span - 7 - corner * 14
            out.append(
                f'<circle cx="{bx}" cy="{y + 7}" r="7" fill="{fill}" stroke="#111"/>'
                f'<text class="tiles-badge" x="{bx}" y="{y + 7}" fill="#111">{letter}</text>'
            )
            corner += 1
    out.append("</g>")
    return "".join(out)


def where_words(seen: TilesState) -> str:
    """Where the match stands, in a few words ("round 3 of 8, Bob's turn")."""
    names = seen.settings.players
    match seen.phase:
        case "roll_off":
            return "set-up, the roll-off"
        case "choose_half":
            first = "" if seen.first is None else f": {names[seen.first - 1]} chooses a half"
            return "set-up" + first
        case "deploy":
            placing = deployer(seen)
            return "set-up" + ("" if placing is None else f": {names[placing - 1]} places")
        case "over":
            return f"the match is over after round {seen.round}"
    turn = "" if seen.active is None else f", {names[seen.active - 1]}'s turn"
    return f"round {seen.round} of {ROUNDS}{turn}"


# --- the board in text ------------------------------------------------------------------------

UNIT_LETTERS: Final = "abcdefgijklmnoprstuvwxyz"
"""The letters units are shown by, in roster order: 24, a roster's most (h and q are the
keys of help and quitting at the terminal)."""

PRONE: Final = "_"
"""The mark after a prone unit's letter on the map."""
STUNNED: Final = "*"
"""The mark after a standing, stunned unit's letter."""


def letters(state: TilesState) -> dict[str, str]:
    """A letter for every unit, by id, in roster order (:data:`UNIT_LETTERS`): seat 1's upper
    case (A, B, ...), seat 2's lower case (a, b, ...)."""
    return seat_letters(((u.id, u.seat) for u in state.units), UNIT_LETTERS)


def map_lines(state: TilesState, marked: Collection[Coord] = ()) -> list[Line]:
    """The map in text: rank numbers down the sides, file letters along the top and bottom,
    each tile its legend character (role ``tile-`` and the character), each unit its letter
    (role ``seat-1`` or ``seat-2``, then ``moving`` for the unit whose action is under way or
    ``done`` for one of the seat to act that can act no more) with :data:`PRONE` or
    :data:`STUNNED` after it, and ``marked`` squares in brackets (role ``marked``)."""
    grid = rules.grid_of(state)
    shown = letters(state)
    on = {u.at: u for u in rules.on_board(state)}

    def cell(at: Coord) -> tuple[Span, ...]:
        unit = on.get(at)
        char = rules.tile(state, at)
        if unit is not None:
            mark = PRONE if unit.prone else STUNNED if unit.stunned else " "
            role = f"seat-{unit.seat}"
            if state.action is not None and state.action.unit == unit.id:
                role += " moving"
            elif not rules.can_act(state, unit) and unit.seat == state.active:
                role += " done"
            return Span(" "), Span(shown[unit.id], role), Span(mark, role)
        if at in marked:
            return (Span(f"[{char}]", "marked"),)
        return (Span(f" {char} ", f"tile-{char}"),)

    return text_grid(grid.width, grid.height, cell)


# --- the renderer -----------------------------------------------------------------------------


class Seen(Protocol):
    """A view of tiles-d6 (``TilesView``): the state without its chance seed."""

    @property
    def state(self) -> TilesState: ...


class TilesRenderer:
    """tiles-d6's pictures and words (:class:`~multiversus_core.engine.render.Renderer`)."""

    def board_svg(self, view: Seen) -> str:
        """The board as one SVG document (:func:`board_svg`)."""
        return board_svg(view.state)

    def board_text(self, view: Seen) -> str:
        """The map as text (:func:`map_lines`)."""
        return plain(map_lines(view.state))

    def command_words(self, command: Command, view: Seen) -> str:
        """The command in words (:func:`.words.command_words`)."""
        return command_words(command, view.state)

    def command_pick(self, command: Command, view: Seen) -> Pick | None:
        """Where the command is given on the board (:func:`command_pick`)."""
        return command_pick(command, view.state)


def command_pick(command: Command, state: TilesState) -> Pick | None:
    """The unit a command moves or acts with and the tile it goes to or aims at: a unit set
    up on its tile (T27), a step of the moving unit (T10), an attack or a shot at the target's
    tile (T22, T26), a Move or a Charge begun by the unit alone; None for the rest."""
    match command:
        case Place(player=seat, at=at):
            placed = next_to_place(state, seat)
            return Pick(None if placed is None else placed.id, square(at))
        case StepTo(to=to) if state.action is not None:
            return Pick(state.action.unit, square(to))
        case Attack(unit=unit, target=target) | Fire(unit=unit, target=target):
            aim = state.unit(target)
            return Pick(unit, None if aim is None or aim.at is None else square(aim.at))
        case StartMove(unit=unit) | StartCharge(unit=unit):
            return Pick(unit, None)
    return None


RENDERER: Final = TilesRenderer()
"""tiles-d6's renderer, the ruleset's ``renderer``."""

__all__ = [
    "KINDS",
    "PRONE",
    "RENDERER",
    "STUNNED",
    "UNIT_LETTERS",
    "Highlight",
    "Strike",
    "TilesRenderer",
    "board_parts",
    "board_svg",
    "command_pick",
    "highlight",
    "labels",
    "letters",
    "map_lines",
    "posture",
    "roster_number",
    "statuses",
    "where_words",
]
