"""tiles-d6 in the terminal: the board with its legend and units, each entry in words, and
where a match stands in rounds and turns.

Nothing is hidden in this game (T28): a viewer's view is the state without its
chance seed, and every board is drawn from that view. Squares are named as
:func:`~multiversus_core.rulesets.tiles_d6.words.square` names them: file
letters left to right, rank numbers from 1 at the top (the north).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Final

from rich import box
from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from multiversus_cli import transcript
from multiversus_cli.grid_text import FRAME_STYLE, coloured, with_result
from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.ruleset import REFEREE, Seat
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.content import TILES, find_map
from multiversus_core.rulesets.tiles_d6.model import ROUNDS, Command, Coord, Event, TilesState, Unit
from multiversus_core.rulesets.tiles_d6.render import (
    PRONE,
    STUNNED,
    UNIT_LETTERS,
    letters,
    map_lines,
)
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET
from multiversus_core.rulesets.tiles_d6.words import (
    describe_command,
    own_name,
    where,
)

SEAT_STYLES: Final[dict[Seat, str]] = {1: "bold bright_blue", 2: "bold red"}
"""The colour of each seat's units and names."""

TILE_WORDS: Final[dict[str, tuple[str, str]]] = {
    ".": ("ground", "no effect"),
    "T": ("tree", "blocks movement and sight"),
    "#": ("wall", "blocks movement and sight"),
    "+": ("door", "blocks sight, not movement"),
    "=": ("window", "blocks movement, not sight"),
    "~": ("water", "leaving it costs 1 more point"),
    "^": ("brambles", "leaving it rolls, a 1 falls; Fire through it -1"),
}
"""Each tile of the legend (T7): its name and what it does."""
assert set(TILE_WORDS) == set(TILES)

TILE_STYLES: Final[dict[str, str]] = {
    ".": "grey50",
    "T": "green",
    "#": "bold white on grey23",
    "+": "yellow",
    "=": "cyan",
    "~": "blue",
    "^": "magenta",
}

MARKED_STYLE: Final = "bold black on bright_green"
"""The squares a choice may go to (a step, a placement)."""


def progress(state: TilesState) -> tuple[int, int]:
    """The round (0 before the first) and the turn in it (1: player one's, 2: player two's;
    0 before the first turn)."""
    if state.round == 0:
        return 0, 0
    return state.round, state.turn - 2 * (state.round - 1)


def entry_head(number: int, before: TilesState, command: Command) -> str:
    """An entry's head line: ``"12. [round 2, turn 1] Ann: step Ann's Spearman 2 to c4"``."""
    round_, turn = progress(before)
    at = f"round {round_}, turn {turn}" if round_ else where(before)
    return f"{number}. [{at}] {describe_command(command, before)}"


def event_lines(before: TilesState, events: Iterable[Event]) -> tuple[str, ...]:
    """The events that came of an entry given in ``before``, each in a line (events not worth
    telling are passed over); every viewer reads the same (T28)."""
    return transcript.event_lines(RULESET, before, events)


def shown_state(state: TilesState, viewer: str) -> TilesState:
    """The state as ``viewer`` may know it: the view's (the referee's is the state itself)."""
    return state if viewer == REFEREE else RULESET.view(state, viewer).state


def board(
    state: TilesState, viewer: str, *, result: bool = True, marked: Collection[Coord] = ()
) -> RenderableType:
    """The match as ``viewer`` may see it: a heading, the map with its units and legend, and
    each side's units; ``result=False`` leaves out a result the transcript just told, and
    ``marked`` squares stand out (where a choice may go).

    :raises ValueError: for a viewer the game does not know.
    """
    state = shown_state(state, viewer)
    parts: list[RenderableType] = [Text(printable(heading(state)), style="bold")]
    # side by side where the screen is wide enough, else the legend below the map
    parts.append(
        Columns([map_text(state, marked), legend(state, marked=bool(marked))], padding=(0, 3))
    )
    parts.extend(roster(state, seat) for seat in (1, 2))
    outcome = rules.outcome(state)
    return with_result(parts, outcome.reason if result and outcome is not None else None)


def heading(state: TilesState) -> str:
    """The map, and where the match stands: "Crossing: round 2 of 8, Ann's turn"."""
    found = find_map(state.settings.map)
    name = found.name if found is not None else state.settings.map
    players = state.settings.players
    match state.phase:
        case "roll_off":
            now = "the roll-off for who goes first"
        case "choose_half":
            assert state.first is not None
            now = f"set-up: {players[state.first - 1]} (player one) chooses a half"
        case "deploy":
            seat = rules.deployer(state)
            unit = None if seat is None else rules.next_to_place(state, seat)
            now = "set-up" if unit is None else f"set-up: {players[unit.seat - 1]} places "
            now += "" if unit is None else f"{own_name(unit)} ({letters(state)[unit.id]})"
        case "over":
            now = f"the match is over after round {state.round}"
        case _:
            active = "" if state.active is None else f", {players[state.active - 1]}'s turn"
            now = f"round {state.round} of {ROUNDS}{active}"
    return f"{name}: {now}"


def map_text(state: TilesState, marked: Collection[Coord] = ()) -> Text:
    """The map (:func:`~multiversus_core.rulesets.tiles_d6.render.map_lines`) in colours: each
    tile in its kind's, each unit in its seat's (reversed while its action is under way, dim
    once it can act no more), ``marked`` squares standing out."""
    return coloured(map_lines(state, marked), _style)


def _style(role: str) -> str:
    """The colour of a span of the map, by its role."""
    if role == "frame":
        return FRAME_STYLE
    if role == "marked":
        return MARKED_STYLE
    if role.startswith("tile-"):
        return TILE_STYLES.get(role[5:], "")
    seat, _, state = role.partition(" ")
    if seat.startswith("seat-"):
        style = SEAT_STYLES[int(seat[5:])]
        return style + {"moving": " reverse", "done": " dim", "": ""}[state]
    return ""


def legend(state: TilesState, *, marked: bool = False) -> Text:
    """What each tile character and mark on the map stands for."""
    text = Text()
    for char in TILES:
        name, effect = TILE_WORDS[char]
        text.append(f" {char} ", style=TILE_STYLES[char])
        text.append(f" {name}: {effect}\n")
    shown = letters(state)
    for seat in (1, 2):
        own = [shown[u.id] for u in state.units if u.seat == seat]
        name = state.settings.players[seat - 1]
        span = own[0] if len(own) == 1 else f"{own[0]}-{own[-1]}" if own else "-"
        text.append(f" {span} ", style=SEAT_STYLES[seat])
        text.append(printable(f" {name}'s units (seat {seat})") + "\n")
    text.append(f" A{PRONE} prone   A{STUNNED} stunned")
    if marked:
        text.append("   ")
        text.append("[.]", style=MARKED_STYLE)
        text.append(" a square you may choose")
    return text


def roster(state: TilesState, seat: Seat) -> Table:
    """One side's units: letter, name, square, health, posture, statuses and attributes."""
    players = state.settings.players
    title = f"{players[seat - 1]} (seat {seat})"
    if state.first is not None:
        title += ", player one" if seat == state.first else ", player two"
    if state.north is not None:
        title += ", north half" if seat == state.north else ", south half"
    title += f": {state.injured[seat - 1]} enemy injured"
    table = Table(
        title=printable(title),
        title_justify="left",
        title_style=SEAT_STYLES[seat],
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for header in ("", "unit", "square", "health", "posture", "status", "Mv Co St Ra Po Ev De"):
        table.add_column(header, no_wrap=header != "status")
    shown = letters(state)
    for unit in state.units:
        if unit.seat != seat:
            continue
        stats = unit.stats
        values = (
            *(stats.move, stats.combat, stats.strength, stats.ranged),
            *(stats.power, stats.evade, stats.defense),
        )
        name = own_name(unit) + "".join(f" ({trait})" for trait in stats.traits)
        table.add_row(
            Text(shown[unit.id], style=SEAT_STYLES[seat]),
            printable(name),
            "-" if unit.at is None else square(unit.at),
            f"{max(unit.health, 0)}/{stats.health}",
            "-" if unit.at is None else "prone" if unit.prone else "standing",
            ", ".join(statuses(state, unit)),
            " ".join(f"{value:<2}" for value in values).rstrip(),
            style="dim" if unit.injured else None,
        )
    return table


def statuses(state: TilesState, unit: Unit) -> tuple[str, ...]:
    """A unit's statuses in words: injured, not placed yet, stunned, concussed, adjacent (to
    an enemy), moving or charging (with its points left), acted (this turn)."""
    if unit.injured:
        return ("injured",)
    if unit.at is None:
        return ("not placed",)
    found: list[str] = []
    if unit.stunned:
        found.append("stunned")
    if unit.concussed:
        found.append("concussed")
    if rules.adjacent_enemies(state, unit):
        found.append("adjacent")
    action = state.action
    if action is not None and action.unit == unit.id:
        kind = "charging" if action.charge else "moving"
        points = "1 point" if action.points == 1 else f"{action.points} points"
        attack = ", attack made" if action.attacked else ""
        found.append(f"{kind}: {points} left{attack}")
    elif unit.id in state.acted and state.phase == "play":
        found.append("acted")
    return tuple(found)


__all__ = [
    "SEAT_STYLES",
    "TILE_WORDS",
    "UNIT_LETTERS",
    "board",
    "entry_head",
    "event_lines",
    "heading",
    "legend",
    "letters",
    "map_text",
    "progress",
    "roster",
    "shown_state",
    "statuses",
]
