"""worlds-collide's pictures and words of a position, drawn from one viewer's view: its board
in SVG and in text, and a command in words (:class:`WorldsRenderer`, the ruleset's
``renderer``).

:func:`board_svg` draws the board: every square by its kind (W2: ground, low wall, a ruin
raised a level, an objective marker) with a legend, columns lettered and rows numbered as
players name squares, each side's deployment rows (W18), the ground each objective counts (W19)
in the colour of the side ahead there, every model as a token in its seat's colour with a short
label (a leader crowned, lost HP as a bar, the models activating ringed, those that have
activated faded), fallen tokens (W17), models not deployed yet in a strip below, and an entry's
deployments, moves and attacks (:func:`highlight`) drawn over it. :func:`map_lines` draws the
map in text: each square its legend character, each model its letter.

Nothing is hidden in this game (W20) but the chance seed, which nothing here reads.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from html import escape
from typing import Final, Literal, Protocol

import msgspec

from multiversus_core.engine.grid import distance
from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.render import (
    MARGIN,
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
from multiversus_core.rulesets.worlds_collide import rules
from multiversus_core.rulesets.worlds_collide.content import LOW_WALL, OBJECTIVE, RUIN, Weapon
from multiversus_core.rulesets.worlds_collide.model import (
    ROUNDS,
    Act,
    Activate,
    AttackHit,
    AttackLost,
    AttackMissed,
    Command,
    Coord,
    Deploy,
    Model,
    ModelDeployed,
    ModelMoved,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.words import command_words

SQUARE_WORDS: Final[dict[str, tuple[str, str]]] = {
    ".": ("ground", "ground, level 0"),
    LOW_WALL: ("low-wall", "low wall, level 0: cover"),
    RUIN: ("ruin", "ruin, level 1: blocks sight;"),
    OBJECTIVE: ("objective", "objective marker, on ground"),
}
"""Each square of the legend (W2), by its character: its kind's name, and what it is in a few
words."""
CLIMB_WORDS: Final = "    on or off it costs 2 more"
"""The legend's line under the ruin's (W2)."""
FALLEN: Final = "*"
"""A fallen token on the map (W17, W32), where no model stands."""
MODEL_LETTERS: Final = "acdefgijklmnoprstuvwxyz"
"""The letters models are shown by, in faction order: 23, more than a faction's most (20);
b, h and q are the keys of going back, help and quitting at the terminal."""
DEFENSE_LETTERS: Final = {"physical": "P", "energy": "E", "arcane": "A"}
"""A defense type in short (W23)."""


def letters(state: WorldsState) -> dict[str, str]:
    """A letter for every model, by id, in faction order (:data:`MODEL_LETTERS`): seat 1's
    upper case (A, C, D, ...), seat 2's lower case (a, c, d, ...)."""
    return seat_letters(((m.id, m.seat) for m in state.models), MODEL_LETTERS)


def heading(state: WorldsState) -> str:
    """The map, and where the match stands: "Collision Point: round 2 of 5, Ann's
    activation"."""
    players = state.settings.players
    match state.phase:
        case "roll_off":
            now = "the deployment roll-off"
        case "deploy":
            seat = rules.deployer(state)
            now = "deployment" + ("" if seat is None else f": {players[seat - 1]} places a model")
        case "round":
            now = f"round {state.round} of {ROUNDS} is over; round {state.round + 1} is next"
            if state.round == 0:
                now = f"deployment is over; round 1 of {ROUNDS} is next"
        case "over":
            now = f"the match is over after round {state.round}"
        case _:
            seat = state.active if state.activation is None else state.activation.seat
            whose = "" if seat is None else f", {players[seat - 1]}'s activation"
            now = f"round {state.round} of {ROUNDS}{whose}"
    return f"{state.game_map.name}: {now}"


def objectives_near(state: WorldsState) -> list[tuple[Coord, tuple[int, int]]]:
    """Each objective (W19) and how many models of seat 1 and of seat 2 are within the
    mission's radius of it now."""
    radius = state.game_map.mission.objective_radius

    def near(seat: Seat, at: Coord) -> int:
        return sum(1 for m in rules.on_board(state, seat) if m.at and distance(m.at, at) <= radius)

    return [(at, (near(1, at), near(2, at))) for at in state.game_map.objectives]


def deployment_rows(state: WorldsState) -> dict[int, Seat]:
    """Each deployment row's seat (W18), once the roll-off has said who deploys first."""
    first = state.first_deployer
    if first is None:
        return {}
    deployment = state.game_map.deployment
    zones = dict.fromkeys(deployment.first, first)
    zones.update(dict.fromkeys(deployment.second, rules.other(first)))
    return zones


def weapon_words(weapon: Weapon) -> str:
    """A weapon in short (W23): its name, M(elee) or R(anged), attacks x knack, damage, and
    the defense types it doubles against (P, E, A): "Rifle R 1x4+ d2 x2:A"."""
    kind = "M" if weapon.kind == "melee" else "R"
    against = "".join(DEFENSE_LETTERS[t] for t in weapon.effective_vs)
    double = f" x2:{against}" if against else ""
    return f"{weapon.name} {kind} {weapon.attacks}x{weapon.knack}+ d{weapon.damage}{double}"


def map_lines(state: WorldsState, marked: Collection[Coord] = ()) -> list[Line]:
    """The map in text: row numbers down the sides, column letters along the top and bottom,
    each square its legend character (role ``square-`` and the character; a deployment row's
    ground ``zone-1`` or ``zone-2``), each model its letter (role ``seat-1`` or ``seat-2``, then
    ``moving`` while it activates or ``done`` once it has) followed by the square it stands on
    when that is not ground (``A#``: on a ruin), fallen tokens as :data:`FALLEN`, ``marked``
    squares in brackets (role ``marked``)."""
    game_map = state.game_map
    shown = letters(state)
    on = {m.at: m for m in rules.on_board(state)}
    fallen = {m.at for m in state.models if m.fallen}
    zones = deployment_rows(state)
    active = set() if state.activation is None else set(state.activation.models)

    def cell(at: Coord) -> tuple[Span, ...]:
        char = game_map.square(at)
        model = on.get(at)
        if model is not None:
            role = f"seat-{model.seat}"
            if model.id in active:
                role += " moving"
            elif model.activated:
                role += " done"
            under = " " if char == "." else char
            return Span(" "), Span(shown[model.id], role), Span(under, f"square-{char}")
        middle = FALLEN if at in fallen else char
        if at in marked:
            return (Span(f"[{middle}]", "marked"),)
        role = f"square-{char}"
        if char == "." and at[1] in zones:
            role = f"zone-{zones[at[1]]}"
        if middle == FALLEN:
            return (Span(f" {FALLEN}{' ' if char == '.' else char}", role),)
        return (Span(f" {char} ", role),)

    return text_grid(game_map.width, game_map.height, cell)


# --- the board in SVG ------------------------------------------------------------------------

CELL: Final = 32
"""The side of one square, in SVG units."""
STRIP: Final = 34
"""The height of a line of the strip of models not deployed."""

KINDS: Final[Mapping[str, str]] = {char: kind for char, (kind, _) in SQUARE_WORDS.items()}
"""Each legend character of a map (W2) by the name of its kind."""

_KIND_WORDS: Final[Mapping[str, str]] = {
    kind: words + (" " + CLIMB_WORDS.strip() if char == RUIN else "")
    for char, (kind, words) in SQUARE_WORDS.items()
}
"""Each kind of square in words, as the terminal's legend tells it."""

_SYMBOLS: Final[Mapping[str, str]] = {
    "ground": '<rect width="32" height="32" fill="#efe6d2"/>',
    "low-wall": (
        '<rect width="32" height="32" fill="#efe6d2"/>'
        '<rect x="2" y="11" width="28" height="10" rx="2" fill="#a8a29e" stroke="#57534e"/>'
        '<path d="M9,11V21M16,11V21M23,11V21" stroke="#57534e" stroke-width="1"/>'
    ),
    "ruin": (
        '<rect width="32" height="32" fill="#57534e"/>'
        '<rect x="3" y="3" width="26" height="26" fill="#78716c" stroke="#292524" '
        'stroke-width="1.5"/><path d="M3,29L29,3" stroke="#44403c" stroke-width="1"/>'
        '<path d="M3,3H29V29" fill="none" stroke="#a8a29e" stroke-width="1.5"/>'
    ),
    "objective": (
        '<rect width="32" height="32" fill="#efe6d2"/>'
        '<circle cx="16" cy="16" r="11" fill="#fde68a" stroke="#b45309" stroke-width="2"/>'
        '<path d="M16,7L18.6,13.4L25.5,13.9L20.2,18.3L21.9,25L16,21.3L10.1,25L11.8,18.3'
        'L6.5,13.9L13.4,13.4Z" fill="#b45309"/>'
    ),
}
"""How each kind of square is drawn, in a 32 by 32 box."""


# --- what an entry did ------------------------------------------------------------------------


class Strike(msgspec.Struct, frozen=True, gc=False):
    """An attack resolved in one entry (W14-W17, W33)."""

    model: str
    target: str
    outcome: Literal["hit", "miss", "lost"]
    source: Coord
    aim: Coord


class Highlight(msgspec.Struct, frozen=True, gc=False):
    """What one entry did on the board, to draw over it."""

    moves: tuple[tuple[str, Coord, Coord], ...] = ()
    """Each model that moved: its id, where it began and where it ended (W13)."""
    placed: tuple[Coord, ...] = ()
    """The squares models were deployed on (W18)."""
    strikes: tuple[Strike, ...] = ()


def highlight(before: WorldsState, events: Iterable[msgspec.Struct]) -> Highlight:
    """What ``events`` did on the board, starting from the board ``before``."""
    where: dict[str, Coord | None] = {m.id: m.at for m in before.models}
    moves: list[tuple[str, Coord, Coord]] = []
    placed: list[Coord] = []
    strikes: list[Strike] = []

    def strike(model: str, target: str, outcome: Literal["hit", "miss", "lost"]) -> None:
        source, aim = where.get(model), where.get(target)
        if source is not None and aim is not None:
            strikes.append(Strike(model, target, outcome, source, aim))

    for event in events:
        match event:
            case ModelMoved(model=model, to=to):
                start = where.get(model)
                if start is not None and start != to:
                    moves.append((model, start, to))
                where[model] = to
            case ModelDeployed(at=at):
                placed.append(at)
            case AttackHit(model=model, target=target):
                strike(model, target, "hit")
            case AttackMissed(model=model, target=target):
                strike(model, target, "miss")
            case AttackLost(model=model, target=target):
                strike(model, target, "lost")
            case _:
                pass
    return Highlight(tuple(moves), tuple(placed), tuple(strikes))


# --- drawing ----------------------------------------------------------------------------------


def labels(models: Iterable[Model]) -> dict[str, str]:
    """Each model's short label: the fewest first letters of its type's name that tell its
    side's types apart, then its number ("Ri3" for Rifleman 3)."""
    return short_labels(Piece(m.id, m.seat, m.kind.name, kind_number(m)) for m in models)


def kind_number(model: Model) -> str:
    """The model's number among its type, when its faction fields several ("3")."""
    last = model.name.rsplit(" ", 1)
    return last[1] if len(last) == 2 and last[1].isdigit() and model.kind.count > 1 else ""


def _layout(seen: WorldsState) -> Layout:
    """Where the board of ``seen`` is drawn."""
    columns, rows = seen.game_map.width, seen.game_map.height
    return Layout(CELL, MARGIN, columns, rows, MARGIN + columns * CELL + 8, STRIP)


def _legend_top(seen: WorldsState) -> int:
    """Below the strip, with a line for each model the strip may have to hold at once."""
    return _layout(seen).below_strip(len(seen.models))


def _size(seen: WorldsState) -> tuple[int, int]:
    return _layout(seen).width, _legend_top(seen) + ROW * (4 + len(KINDS)) + 8


_STYLE: Final = (
    "<style>"
    ".wc-label{font:bold 11px sans-serif;fill:#fff;text-anchor:middle;"
    "dominant-baseline:central}"
    ".wc-num{font:11px sans-serif;fill:#555;text-anchor:middle;dominant-baseline:central}"
    ".wc-text{font:12px sans-serif;fill:#222;dominant-baseline:central}"
    ".mv-mark{font:bold 13px sans-serif;text-anchor:middle;dominant-baseline:central}"
    ".wc-badge{font:bold 9px sans-serif;text-anchor:middle;dominant-baseline:central}"
    "</style>"
)


def board_parts(
    seen: WorldsState, change: Highlight | None = None, *, pieces: bool = False
) -> list[str]:
    """The board of ``seen`` as SVG parts, in order: the frame with its title, the squares
    and the legend, the deployment rows and the objectives' ground, the fallen tokens, the
    entry's deployments and moves, one part per model, the entry's attacks, and the closing
    tag. Joined, they are one SVG document. With ``pieces``, each model standing is marked
    ``data-piece`` too, for a page that chooses it by a click."""
    change = change or Highlight()
    short = labels(seen.models)
    layout = _layout(seen)
    parts = _head(seen)
    parts.append(_zones(seen))
    parts.append(_objectives(seen))
    parts += [_fallen(seen, m, short[m.id]) for m in seen.models if m.fallen and m.at]
    parts += [
        path_mark(model, "move", [layout.centre(start), layout.centre(end)])
        for model, start, end in change.moves
    ]
    parts += [placed_mark(layout, at, "wc-placed") for at in change.placed]
    off = 0
    for model in seen.models:
        if model.fallen:
            continue
        if model.at is not None:
            xy, span = layout.xy(model.at), CELL
        else:
            xy, span = layout.off_xy(off), CELL - 4
            off += 1
        parts.append(_token(seen, model, short[model.id], xy, span, pieces))
    parts += [
        attack_mark(
            s.model, s.target, s.outcome, (layout.centre(s.source), 12), (layout.centre(s.aim), 16)
        )
        for s in change.strikes
    ]
    parts.append("</svg>")
    return parts


def board_svg(seen: WorldsState, change: Highlight | None = None, *, pieces: bool = False) -> str:
    """The board of ``seen`` as one SVG document (:func:`board_parts`, joined)."""
    return "".join(board_parts(seen, change, pieces=pieces))


def _head(seen: WorldsState) -> list[str]:
    """The opening tag, the title (where the match stands), then the squares and the legend:
    the first and the last are the same all match long, so a page stores them once."""
    width, height = _size(seen)
    layout = _layout(seen)
    game_map = seen.game_map
    opening, title, defs = board_head(
        "wc",
        (width, height),
        "worlds-collide board, " + heading(seen),
        _SYMBOLS.items(),
        32,
        _STYLE,
    )
    out = [defs]
    for row, characters in enumerate(game_map.rows):
        for column, character in enumerate(characters):
            kind, (x, y) = KINDS[character], layout.xy((column, row))
            name = square((column, row))
            level = game_map.level((column, row))
            out.append(
                f'<g class="wc-square" data-square="{name}" data-kind="{kind}" '
                f'data-level="{level}"><title>{name}: {_KIND_WORDS[kind]}</title>'
                f'<use href="#wc-{kind}" x="{x}" y="{y}" width="{CELL}" height="{CELL}"/></g>'
            )
    columns, rows = game_map.width, game_map.height
    out.append(grid_lines(MARGIN, MARGIN, columns, rows, CELL))
    out.append(grid_names(MARGIN, MARGIN, columns, rows, CELL, "wc-num"))
    out.append(
        f'<text class="wc-text" x="{MARGIN}" y="{layout.bottom + 6 + CELL // 2 - 3}">'
        "Not deployed:</text>"
    )
    out.append(_legend(seen, MARGIN, _legend_top(seen) + ROW // 2 + 4))
    return [opening, title, "".join(out)]


def _legend(seen: WorldsState, x: int, y: int) -> str:
    names = seen.settings.players
    out = []
    for i, seat in enumerate((1, 2)):
        faction = seen.sides[seat - 1].faction.name
        out.append(
            f'<circle cx="{x + i * 260 + 7}" cy="{y}" r="7" fill="{SEAT_COLOURS[seat]}"/>'
            f'<text class="wc-text" x="{x + i * 260 + 19}" y="{y}">'
            f"{escape(names[seat - 1])} (seat {seat}), {escape(faction)}</text>"
        )
    out.append(
        f'<text class="wc-text" x="{x}" y="{y + ROW}">L leader · gold ring: activating · '
        "faded: activated this round · red bar: HP lost · ✕ fallen token</text>"
    )
    out.append(
        f'<text class="wc-text" x="{x}" y="{y + 2 * ROW}">Dashed: deployment rows · dotted: '
        "an objective's ground, coloured by the side ahead</text>"
    )
    for i, kind in enumerate(KINDS.values()):
        ly = y + ROW * (3 + i)
        out.append(
            f'<g class="wc-key" data-kind="{kind}">'
            f'<use href="#wc-{kind}" x="{x}" y="{ly - 8}" width="16" height="16"/>'
            f'<text class="wc-text" x="{x + 22}" y="{ly}">{escape(_KIND_WORDS[kind])}</text></g>'
        )
    return "".join(out)


def _zones(seen: WorldsState) -> str:
    """Each side's deployment rows (W18), in its seat's colour once the roll-off has said who
    deploys first; stronger while models are deployed."""
    deployment = seen.game_map.deployment
    first = seen.first_deployer
    names = seen.settings.players
    strong = seen.phase in ("roll_off", "deploy")
    layout = _layout(seen)
    out = ['<g class="wc-zones">']
    for which, rows in (("first", deployment.first), ("second", deployment.second)):
        seat: Seat | None = None
        if first is not None:
            seat = first if which == "first" else rules.other(first)
        colour = "#64748b" if seat is None else SEAT_COLOURS[seat]
        whose = "" if seat is None else f": {names[seat - 1]}"
        top, bottom = min(rows), max(rows)
        x, y = layout.xy((0, top))
        out.append(
            f'<rect class="wc-zone" data-zone="{which}" x="{x + 2}" y="{y + 2}" '
            f'width="{seen.game_map.width * CELL - 4}" height="{(bottom - top + 1) * CELL - 4}" '
            f'fill="{colour}" fill-opacity="{0.12 if strong else 0.04}" stroke="{colour}" '
            f'stroke-width="{3 if strong else 1.5}" stroke-dasharray="8 4">'
            f"<title>The {which} deployer's rows{escape(whose)}</title></rect>"
        )
    out.append("</g>")
    return "".join(out)


def _objectives(seen: WorldsState) -> str:
    """The ground each objective counts (W19: within the mission's radius), in the colour of
    the side with more models there now, grey when neither leads."""
    radius = seen.game_map.mission.objective_radius
    out = ['<g class="wc-objectives">']
    for at, near in objectives_near(seen):
        ahead: Seat | None = None if near[0] == near[1] else 1 if near[0] > near[1] else 2
        colour = "#78716c" if ahead is None else SEAT_COLOURS[ahead]
        x, y = _layout(seen).xy((at[0] - radius, at[1] - radius))
        side = (2 * radius + 1) * CELL
        out.append(
            f'<rect class="wc-objective" data-square="{square(at)}" '
            f'data-ahead="{"" if ahead is None else ahead}" x="{x + 1}" y="{y + 1}" '
            f'width="{side - 2}" height="{side - 2}" fill="none" stroke="{colour}" '
            f'stroke-width="2" stroke-dasharray="2 4"><title>Objective {square(at)}: '
            f"{near[0]} and {near[1]} models within {radius}</title></rect>"
        )
    out.append("</g>")
    return "".join(out)


def _fallen(seen: WorldsState, model: Model, label: str) -> str:
    """A fallen token (W17, W32): a cross on the square the model fell on."""
    assert model.at is not None
    x, y = _layout(seen).xy(model.at)
    colour = SEAT_COLOURS[model.seat]
    return (
        f'<g class="wc-fallen" data-model="{escape(model.id)}" data-square="{square(model.at)}">'
        f"<title>{escape(_name(seen, model))} ({escape(label)}) fell here</title>"
        f'<path d="M{x + 8},{y + 8}L{x + CELL - 8},{y + CELL - 8}M{x + CELL - 8},{y + 8}'
        f'L{x + 8},{y + CELL - 8}" stroke="{colour}" stroke-width="3" stroke-opacity="0.6"/></g>'
    )


def _name(seen: WorldsState, model: Model) -> str:
    return f"{seen.settings.players[model.seat - 1]}'s {model.name}"


def _token(
    seen: WorldsState, model: Model, label: str, xy: tuple[int, int], span: int, piece: bool
) -> str:
    """A model drawn with its square's top left at ``xy``, ``span`` across; marked
    ``data-piece`` as well if ``piece``."""
    x, y = xy
    cx, cy = x + span / 2, y + span / 2
    colour = SEAT_COLOURS[model.seat]
    kind = model.kind
    activating = seen.activation is not None and model.id in seen.activation.models
    where = "" if model.at is None else square(model.at)
    classes = ["wc-model", f"wc-seat-{model.seat}"]
    classes += ["wc-activating"] if activating else ["wc-activated"] if model.activated else []
    said = [f"{max(model.hp, 0)} of {kind.hp} HP", f"Move {kind.move}", f"defense {kind.defense}"]
    said += [weapon_words(w) for w in kind.weapons]
    if kind.is_leader:
        said.append(f"leader {kind.leadership}")
    title = f"{_name(seen, model)} ({label}){', on ' + where if where else ', not deployed'}: "
    marked = f' data-piece="{escape(model.id)}"' if piece else ""
    out = [
        f'<g class="{" ".join(classes)}" data-model="{escape(model.id)}" data-square="{where}" '
        f'data-hp="{model.hp}"{marked}><title>{escape(title + ", ".join(said))}</title>'
    ]
    if activating:
        out.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{span / 2 - 1:g}" fill="none" '
            'stroke="#f59e0b" stroke-width="3"/>'
        )
    opacity = ' fill-opacity="0.45"' if model.activated and not activating else ""
    r = span / 2 - 4
    out.append(
        f'<circle class="wc-body" cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{colour}"{opacity} '
        'stroke="#111" stroke-width="1.5"/>'
        f'<text class="wc-label" x="{cx:g}" y="{cy:g}">{escape(label)}</text>'
    )
    if model.hp < kind.hp:
        out.append(health_bar(x + 4, y + span - 5, span - 8, model.hp / kind.hp, height=3))
    if kind.is_leader:
        out.append(
            f'<circle cx="{x + span - 6}" cy="{y + 6}" r="6" fill="#facc15" stroke="#111"/>'
            f'<text class="wc-badge" x="{x + span - 6}" y="{y + 6}" fill="#111">L</text>'
        )
    out.append("</g>")
    return "".join(out)


# --- the renderer -----------------------------------------------------------------------------


class Seen(Protocol):
    """A view of worlds-collide (``WorldsView``): the state without its chance seed."""

    @property
    def state(self) -> WorldsState: ...


class WorldsRenderer:
    """worlds-collide's pictures and words (:class:`~multiversus_core.engine.render.Renderer`)."""

    def board_svg(self, view: Seen) -> str:
        """The board as one SVG document (:func:`board_svg`), each model standing marked
        ``data-piece`` and each square ``data-square``."""
        return board_svg(view.state, pieces=True)

    def board_text(self, view: Seen) -> str:
        """The map as text (:func:`map_lines`)."""
        return plain(map_lines(view.state))

    def command_words(self, command: Command, view: Seen) -> str:
        """The command in words (:func:`.words.command_words`)."""
        return command_words(command, view.state)

    def option_pick(self, key: str, view: Seen) -> Pick | None:
        """Where an option of a choice of :mod:`.choices` is chosen on the board
        (:func:`option_pick`)."""
        return option_pick(key, view.state)

    def command_pick(self, command: Command, view: Seen) -> Pick | None:
        """Where a listed command is given on the board (:func:`command_pick`)."""
        return command_pick(command, view.state)


def command_pick(command: Command, state: WorldsState) -> Pick | None:
    """The model a command places, activates, moves or attacks with, and the square it is
    placed on, ends its move on or aims at (its first move's, else its first target's);
    None for the rest (a roll, a re-roll, keeping the dice, passing)."""
    match command:
        case Deploy(model=model, at=at):
            return Pick(model, square(at))
        case Activate(models=models) if models:
            return Pick(models[0], None)
        case Act(moves=moves, attacks=attacks):
            if moves:
                return Pick(moves[0].model, square(moves[0].to))
            if attacks:
                where = {m.id: m.at for m in state.models}
                aim = where.get(attacks[0].target)
                return Pick(attacks[0].model, None if aim is None else square(aim))
    return None


def option_pick(key: str, state: WorldsState) -> Pick | None:
    """The model an option's key names (one to place, activate or attack: W10, W14, W18), or
    the square it names (where a model is placed or ends its move: W12, W18); None for the
    rest (a row, a plan, a tactic, "none")."""
    if any(m.id == key and not m.fallen for m in state.models):
        return Pick(key, None)
    game_map = state.game_map
    for row in range(game_map.height):
        for column in range(game_map.width):
            if square((column, row)) == key:
                return Pick(None, key)
    return None


RENDERER: Final = WorldsRenderer()
"""worlds-collide's renderer, the ruleset's ``renderer``."""

__all__ = [
    "CLIMB_WORDS",
    "DEFENSE_LETTERS",
    "FALLEN",
    "KINDS",
    "MODEL_LETTERS",
    "RENDERER",
    "SQUARE_WORDS",
    "Highlight",
    "Strike",
    "WorldsRenderer",
    "board_parts",
    "board_svg",
    "command_pick",
    "deployment_rows",
    "heading",
    "highlight",
    "kind_number",
    "labels",
    "letters",
    "map_lines",
    "objectives_near",
    "option_pick",
    "weapon_words",
]
