"""Views of a match drawn with rich: the board, the status line, units and coin piles.

Every view takes the state and the viewer's seat (None for the public view)
and shows only what that viewer may know: whatever may be hidden (stashes,
selections, set-up secrets) is drawn from :func:`multiversus_core.rulesets.multiversus.views.view`
for :func:`~multiversus_core.rulesets.multiversus.views.viewer_of` that seat, never from the raw
state. The board, the units and the discards are public.
"""

from __future__ import annotations

import io
from typing import Final

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from multiversus_cli.grid_text import coloured
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.multiversus.abilities import abilities_of, title
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.narrate import (
    action_name,
    actions_name,
    coin_name,
    coin_summary,
    condition_name,
    figure_name,
    result_text,
    secrets_summary,
    side_label,
    side_name,
    square,
    trigger_words,
    unit_name,
)
from multiversus_core.rulesets.multiversus.render import (
    CONDITION_MARKS,
    NOT_LAID_OUT,
    figure_labels,
    grid_cells,
    tile_marks,
)
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.terms import (
    SIDES,
    Condition,
    Seat,
    Side,
    other_side,
)
from multiversus_core.rulesets.multiversus.units import coin_unit
from multiversus_core.rulesets.multiversus.views import (
    ActivationView,
    MatchView,
    can_see,
    view,
    viewer_of,
)

SIDE_STYLES: Final[dict[Side, str]] = {
    "heroes": "bold bright_blue",
    "adversaries": "bold red",
}
"""The colour of each side's figures and names."""

TERRAIN_PIECE_STYLE: Final = "italic magenta"
TILE_STYLE: Final = "on grey30"
BLOCKING_TILE_STYLE: Final = "on grey15"
CONDITION_STYLES: Final[dict[Condition, str]] = {
    "unharmed": "",
    "wounded": "yellow",
    "disabled": "dim",
    "eliminated": "dim strike",
}


# --- labels -------------------------------------------------------------------


def figure_style(figure: Figure) -> str:
    """Return the rich style of a figure: its side's colour, or the terrain-piece style."""
    return TERRAIN_PIECE_STYLE if figure.terrain else SIDE_STYLES[figure.side]


def figure_mark(figure: Figure, label: str) -> Text:
    """Return a figure's label with its condition mark: "BK", "TM2*" (Wounded), "Sm×" (Disabled)."""
    text = Text(label, style=figure_style(figure))
    if not figure.terrain and figure.condition != "unharmed":
        text.append(CONDITION_MARKS[figure.condition], style=CONDITION_STYLES[figure.condition])
    return text


# --- the board ------------------------------------------------------------------


def board_grid(state: MatchState) -> RenderableType:
    """Return the board as a grid: column numbers across the top, row numbers down the left
    (:func:`~multiversus_core.rulesets.multiversus.render.grid_cells`, in colours).

    Each space shows the label of the figure on it (a Large figure's label
    fills its four spaces), the mark of a special tile, or a dot.
    """
    lines = grid_cells(state)
    if lines is None:
        return Text(NOT_LAID_OUT, style="dim")
    return coloured(lines, _style)


_ROLE_STYLES: Final[dict[str, str]] = {
    "frame": "dim",
    "head": "bold",
    "tile": TILE_STYLE,
    "blocking": BLOCKING_TILE_STYLE,
    "terrain": TERRAIN_PIECE_STYLE,
    "mark": "dim",
    "empty": "dim",
    **{str(side): style for side, style in SIDE_STYLES.items()},
    **{str(condition): style for condition, style in CONDITION_STYLES.items() if style},
}
"""The style of each role of a space of the board (:func:`board_grid`)."""


def _style(role: str) -> str:
    """The colour of a span of the board, by its roles: the tile's ground first, then the
    others in order (a condition's colour over its side's)."""
    words = role.split()
    ground = [w for w in words if w in ("tile", "blocking")]
    styles = (_ROLE_STYLES.get(w, "") for w in [*ground, *(w for w in words if w not in ground)])
    return " ".join(s for s in styles if s)


def board_legend(state: MatchState) -> RenderableType:
    """Return the legend: each label with its figure's name, condition marks, eliminated
    figures, and each tile mark."""
    labels = figure_labels(state)
    units = Table.grid(padding=(0, 1))
    units.add_column()
    units.add_column()
    units.add_column()
    for side in SIDES:
        first = True
        for unit in state.units:
            if unit.side != side:
                continue
            figures = [f for f in state.figures if f.unit == unit.id]
            unit_labels = Text()
            for i, figure in enumerate(figures):
                if i:
                    unit_labels.append(" ")
                unit_labels.append_text(figure_mark(figure, labels[figure.id]))
            name = unit.name
            if len(figures) > 1:
                name += f" {', '.join(str(n) for n in range(1, len(figures) + 1))}"
            if unit.size == "large":
                name += " (Large)"
            for condition in ("wounded", "disabled", "eliminated"):
                hurt = [f.name for f in figures if f.condition == condition and not f.terrain]
                if hurt and len(figures) == 1:
                    name += f" ({condition_name(condition)})"
                elif hurt:
                    name += f" ({condition_name(condition)}: {', '.join(hurt)})"
            gone = [f.name for f in figures if f.square is None and f.condition != "eliminated"]
            if gone:
                name += f" (off the board: {', '.join(gone)})"
            heading = Text(f"{side_name(side)}:", style=SIDE_STYLES[side]) if first else Text("")
            units.add_row(heading, unit_labels, Text(printable(name)))
            first = False
    legend = Text()
    if state.board is not None:
        marks = tile_marks(state.board)
        seen: set[str] = set()
        parts: list[str] = []
        for tile in state.board.tiles:
            if tile.terrain in seen:
                continue
            seen.add(tile.terrain)
            props = ", ".join(
                p for p, on in (("blocking", tile.blocking), ("obscuring", tile.obscuring)) if on
            )
            kind = f" ({props})" if props else ""
            parts.append(f"{marks[tile.terrain]} {tile.terrain}{kind}")
        if parts:
            legend.append("Tiles: ", style="dim")
            legend.append(", ".join(parts))
            legend.append("\n")
        if any(f.condition != "unharmed" for f in state.figures if not f.terrain):
            legend.append("Marks: * Wounded, × Disabled, † Eliminated.", style="dim")
            legend.append("\n")
        pieces = [f for f in state.figures if f.terrain]
        if pieces:
            legend.append(
                "Italic labels are terrain pieces; spaces are (column,row) from the top left.",
                style="dim",
            )
        else:
            legend.append("Spaces are (column,row) from the top left.", style="dim")
    legend.rstrip()
    return Group(units, legend)


def status_line(state: MatchState, viewer: Seat | None, *, result: bool = True) -> Text:
    """Return the status: round, who holds the Initiative, each side's coin counts, and
    the activation under way as ``viewer`` may know it.

    Once the match is over it says so, with the result unless ``result`` is False (for a
    screen that prints the result itself).
    """
    seen = view(state, viewer_of(state, viewer))
    text = Text()
    if state.is_over:
        text.append("The match is over", style="bold")
        told = f": {result_text(state)}" if result else ""
        text.append(f" after round {state.round} of 6{told}.")
    elif state.round == 0:
        text.append("Set-up", style="bold")
        if state.starting_side is not None:
            text.append(f" · the {side_name(state.starting_side)} start each round")
    else:
        text.append(f"Round {state.round} of 6", style="bold")
        if state.active is not None:
            text.append(" · ")
            text.append(side_label(state, state.active), style=SIDE_STYLES[state.active])
            text.append(f" hold the Initiative (turn {state.turns_in_round} of 2)")
            if state.may_give_up:
                text.append(" · they may give it up")
    if state.heroes_team is not None:
        for side in SIDES:
            piles = seen.piles(side)
            text.append("\n")
            text.append(side_label(state, side), style=SIDE_STYLES[side])
            text.append(f": stash {piles.stash_count}, discard {len(piles.discard)}")
            if seen.viewer == side:
                text.append(" (you)", style="dim")
    if seen.activation is not None:
        text.append("\n")
        text.append(_activation_text(state, seen, seen.activation, viewer))
    secrets = secrets_summary(state, viewer)
    if secrets:
        text.append("\n")
        text.append("Secrets: ", style="bold")
        text.append("; ".join(secrets))
    return text


def _activation_text(
    state: MatchState, seen: MatchView, act: ActivationView, viewer: Seat | None
) -> Text:
    """The activation as ``seen`` (the viewer's view) shows it; ``state`` only gives names."""
    text = Text("Activation: ")
    text.append(side_name(act.side), style=SIDE_STYLES[act.side])
    if not act.hidden and act.unit is not None:
        coin = coin_name(state, act.coin) if act.coin is not None else unit_name(state, act.unit)
        text.append(f" — {coin} with {actions_name(act.actions or ())}")
        if not act.revealed:
            text.append(" (your secret)", style="dim")
    else:
        text.append(" — coins selected in secret")
    reactive = other_side(act.side)
    text.append(" · reaction: ")
    if not act.reaction_selected:
        text.append("not selected yet")
    elif not act.reaction_hidden and (act.reaction_revealed or can_see(seen.viewer, reactive)):
        if act.reaction_coin is None:
            text.append("none")
        else:
            text.append(
                f"{coin_name(state, act.reaction_coin)} with "
                f"{actions_name(act.reaction_actions or ())}"
            )
            if not act.reaction_revealed:
                text.append(" (your secret)", style="dim")
    elif act.reaction_coin is None and act.reaction_actions == ():
        # Selecting nothing is announced at the table, so it is public.
        text.append("none")
    else:
        text.append("selected in secret")
    action = act.action
    if action is not None:
        text.append(f" · action: {action_name(action.kind, double=action.double)}")
        if action.target_unit is not None:
            text.append(f" at {unit_name(state, action.target_unit)}")
        if action.mover is not None:
            text.append(
                f", moving: {figure_name(state, action.mover)}, "
                f"{action.steps_left} space{'s' if action.steps_left != 1 else ''} left"
            )
    if act.braced and act.unit is not None:
        text.append(f" · {unit_name(state, act.unit)} Defends")
    if act.defending and act.reaction_coin is not None:
        text.append(f" · {unit_name(state, coin_unit(act.reaction_coin))} Defends (reaction)")
    if act.offer is not None and act.reaction is None:
        offer = act.offer
        words = trigger_words(state, offer.triggers, offer.held)
        text.append(" · ")
        text.append(f"the {side_name(reactive)} may react", style="bold")
        text.append(f" ({words})")
    reaction = act.reaction
    if reaction is not None:
        text.append(" · ")
        text.append(f"{side_name(reactive)} reaction under way", style="bold")
        text.append(
            f": {unit_name(state, reaction.unit)} "
            f"{action_name(reaction.kind, double=reaction.double)}"
        )
        if reaction.mover is not None:
            text.append(
                f", moving: {figure_name(state, reaction.mover)}, "
                f"{reaction.steps_left} space{'s' if reaction.steps_left != 1 else ''} left"
            )
    return text


def render_board(state: MatchState, viewer: Seat | None, *, result: bool = True) -> RenderableType:
    """Return the status line, the board and its legend, as ``viewer`` may see them
    (``result``: as :func:`status_line`)."""
    status = status_line(state, viewer, result=result)
    return Group(status, Text(""), board_grid(state), board_legend(state))


# --- units and piles --------------------------------------------------------------


def render_units(state: MatchState, viewer: Seat | None) -> RenderableType:
    """Return every unit with its figures, their labels, spaces and conditions (all public)."""
    labels = figure_labels(state)
    tables: list[RenderableType] = []
    for side in SIDES:
        mine = viewer_of(state, viewer) == side
        title = Text(side_label(state, side) + (" (you)" if mine else ""), style=SIDE_STYLES[side])
        table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("Unit (role)")
        table.add_column("Label", no_wrap=True)
        table.add_column("Figure")
        table.add_column("Space", no_wrap=True)
        table.add_column("Condition", no_wrap=True)
        for unit in state.units:
            if unit.side != side:
                continue
            role = unit.role + (", Large" if unit.size == "large" else "")
            for i, figure_id in enumerate(unit.figures):
                try:
                    figure = state.figure(figure_id)
                except KeyError:
                    continue
                table.add_row(
                    Text(printable(f"{unit.name} ({role})")) if i == 0 else "",
                    Text(labels[figure.id], style=figure_style(figure)),
                    Text(printable(figure.name)),
                    square(figure.square),
                    "terrain" if figure.terrain else condition_name(figure.condition),
                )
        tables.append(table)
        tables.append(_unit_rules(state, side))
    return Group(*tables)


def _unit_rules(state: MatchState, side: Side) -> RenderableType:
    """The rules of a side's units: each ability, marked (!) or (!!), on a line of its own,
    its text below it, indented and wrapped between words."""
    parts: list[RenderableType] = []
    for unit in state.units:
        if unit.side != side:
            continue
        for ability in abilities_of(unit):
            head = Text(f"{printable(unit.name)}: ", style="bold")
            head.append(title(ability), style="italic")
            parts.append(head)
            if ability.text:
                parts.append(Padding(Text(printable(ability.text)), (0, 0, 0, 2)))
    return Group(*parts) if parts else Text("(no special abilities)", style="dim")


def render_piles(state: MatchState, viewer: Seat | None) -> RenderableType:
    """Return each side's stash and discard as ``viewer`` may know them.

    Discards are face up; a stash is shown in full only to its own player,
    and the opponent's only as a count (the view hides it).
    """
    seen = view(state, viewer_of(state, viewer))
    table = Table(title="Unit coins", title_justify="left")
    table.add_column("Side")
    table.add_column("Stash")
    table.add_column("Discard (face up)")
    for side in SIDES:
        piles = seen.piles(side)
        own = seen.viewer == side
        if piles.stash is not None:
            stash = f"{piles.stash_count}: {coin_summary(state, piles.stash)}"
        else:
            stash = f"{piles.stash_count} coins (hidden)"
        discard = f"{len(piles.discard)}: {coin_summary(state, piles.discard)}"
        label = side_label(state, side) + (" (you)" if own else "")
        table.add_row(Text(label, style=SIDE_STYLES[side]), stash, discard)
    parts: list[RenderableType] = [table]
    if seen.activation is not None:
        parts.append(_activation_text(state, seen, seen.activation, viewer))
    secrets = secrets_summary(state, viewer)
    if secrets:
        parts.append(Text("Secrets: " + "; ".join(secrets)))
    parts.append(
        Text("Action coins (Attack, Defend, Move, Stunt, two of each) always return.", style="dim")
    )
    return Group(*parts)


def to_text(renderable: RenderableType, width: int = 100) -> str:
    """Return a renderable as plain text, as a terminal of that width would show it."""
    console = Console(width=width, file=io.StringIO(), color_system=None, highlight=False)
    console.print(renderable)
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


__all__ = [
    "SIDE_STYLES",
    "board_grid",
    "board_legend",
    "figure_labels",
    "render_board",
    "render_piles",
    "render_units",
    "status_line",
    "tile_marks",
    "to_text",
]
