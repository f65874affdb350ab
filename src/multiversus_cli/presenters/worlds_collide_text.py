"""worlds-collide in the terminal: the board with its levels, the mission and the models, each
entry in words, and where a match stands in rounds and turns.

Nothing is hidden in this game (W20): a viewer's view is the state without its
chance seed, and every board is drawn from that view. Squares are named as
:func:`~multiversus_core.engine.grid.square_name` names them: column letters a to q
left to right, row numbers from 1 at the top (W27: row 0 is "1").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Final, NamedTuple

import msgspec
from rich import box
from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from multiversus_cli import transcript
from multiversus_cli.grid_text import FRAME_STYLE, coloured, with_result
from multiversus_cli.presenters import Folded
from multiversus_core.engine.grid import square_name as square
from multiversus_core.engine.log import LogEntry
from multiversus_core.engine.ruleset import REFEREE, Seat
from multiversus_core.engine.text import printable
from multiversus_core.rulesets.worlds_collide import rules
from multiversus_core.rulesets.worlds_collide.content import (
    LOW_WALL,
    OBJECTIVE,
    RUIN,
    EnvironmentEntry,
    Penalty,
    RoundEffect,
)
from multiversus_core.rulesets.worlds_collide.model import (
    ROUNDS,
    ActivationEnded,
    Command,
    Coord,
    Event,
    Model,
    PlayerOut,
    RoundStarted,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.render import (
    CLIMB_WORDS,
    DEFENSE_LETTERS,
    FALLEN,
    MODEL_LETTERS,
    SQUARE_WORDS,
    heading,
    letters,
    map_lines,
    objectives_near,
    weapon_words,
)
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET
from multiversus_core.rulesets.worlds_collide.words import (
    PLAN_WORDS,
    describe_command,
    tactic_name,
    where,
)

SEAT_STYLES: Final[dict[Seat, str]] = {1: "bold bright_blue", 2: "bold red"}
"""The colour of each seat's models and names."""
ZONE_STYLES: Final[dict[Seat, str]] = {1: "blue", 2: "red"}
"""The colour of the ground of each seat's deployment rows."""


class Square(NamedTuple):
    """A square of the legend (W2): its kind's name, what it is in a few words, its style."""

    kind: str
    words: str
    style: str


SQUARE_STYLES: Final[dict[str, str]] = {
    ".": "grey50",
    LOW_WALL: "yellow",
    RUIN: "bold white on grey23",
    OBJECTIVE: "bold magenta",
}
"""The colour of each square of the map (W2), by its character."""
SQUARES: Final[dict[str, Square]] = {
    char: Square(kind, words, SQUARE_STYLES[char]) for char, (kind, words) in SQUARE_WORDS.items()
}
"""Each square of the legend (W2), by its character."""
MARKED_STYLE: Final = "bold black on bright_green"
"""The squares a choice may go to (a placement, the end of a move)."""


def shown_state(state: WorldsState, viewer: str) -> WorldsState:
    """The state as ``viewer`` may know it: the view's (the referee's is the state itself).

    :raises ValueError: for a viewer the game does not know.
    """
    return state if viewer == REFEREE else RULESET.view(state, viewer).state


# --- rounds and turns -------------------------------------------------------------------------


def progress(
    entries: Sequence[LogEntry[Command, Event]], position: int, state: WorldsState
) -> tuple[int, int]:
    """The round (0 before the first) and the turn in it at ``position`` (``state`` there):
    1 for the first activation or pass of the round, 2 for the next, and so on; 0 outside the
    activations (deployment, the start of a round, the end)."""
    if state.phase != "activations":
        return state.round, 0
    done = 0
    for entry in reversed(entries[:position]):
        for event in reversed(entry.events):
            if isinstance(event, RoundStarted):
                return state.round, done + 1
            if isinstance(event, ActivationEnded) or (
                isinstance(event, PlayerOut) and event.reason == "passed"
            ):
                done += 1
    return state.round, done + 1  # pragma: no cover - activations follow a RoundStarted


def entry_head(number: int, before: WorldsState, turn: tuple[int, int], command: Command) -> str:
    """An entry's head line: ``"40. [round 2, turn 3] Ann: activate Ann's Rifleman 1 (move,
    then attack)"``; ``turn`` is :func:`progress` before it."""
    round_, count = turn
    at = f"round {round_}, turn {count}" if count else where(before)
    return f"{number}. [{at}] {describe_command(command, before)}"


def event_lines(before: WorldsState, events: Iterable[Event]) -> tuple[str, ...]:
    """The events that came of an entry given in ``before``, each in a line (events not worth
    telling are passed over); every viewer reads the same (W20)."""
    return transcript.event_lines(RULESET, before, events)


def entry_told(folded: Folded, number: int) -> tuple[str, tuple[str, ...]]:
    """Entry ``number`` of a match in the game's words: its head line (with the round and the
    turn) and its events; every viewer reads the same (W20)."""
    before, entry = folded.states[number - 1], folded.log.entries[number - 1]
    turn = progress(folded.log.entries, number - 1, before)
    return entry_head(number, before, turn, entry.command), event_lines(before, entry.events)


# --- the environment in words -----------------------------------------------------------------


def effect_words(effect: RoundEffect) -> str:
    """What an environment entry does all round (W5, W25), in words: "Move -1 (not Arcane
    models)", "no sight beyond 6 squares", or "no effect"."""
    parts: list[str] = []
    if effect.sight is not None:
        parts.append(f"no sight beyond {effect.sight} squares")
    if effect.move:
        spared = f" (not {effect.unless_type.capitalize()} models)" if effect.unless_type else ""
        parts.append(f"Move {effect.move:+d} for every model{spared}")
    if effect.ranged_knack:
        parts.append(f"ranged attacks need {_more(effect.ranged_knack)} on the die")
    if effect.melee_knack:
        parts.append(f"melee attacks need {_more(effect.melee_knack)} on the die")
    if effect.cover_value is not None:
        parts.append(f"cover gives defense {effect.cover_value} (not 3)")
    if effect.gain_ap:
        parts.append(f"its table's faction gained {effect.gain_ap} AP")
    return "; ".join(parts) or "no effect"


def _more(delta: int) -> str:
    return f"{delta} more" if delta > 0 else f"{-delta} less"


def fields_words(struct: msgspec.Struct, said: Mapping[str, str], joined: str) -> str:
    """A struct of numbers and flags in words: each field that is set, as ``said`` tells it
    (``{}`` stands for its value), joined by ``joined``; "nothing" if none is set."""
    parts = [
        words.format(getattr(struct, name)) for name, words in said.items() if getattr(struct, name)
    ]
    return joined.join(parts) or "nothing"


PENALTY_WORDS: Final = {
    "lose_ap": "its player loses {} AP",
    "opponent_ap": "the opponent gains {} AP",
    "no_attack": "the activated models cannot attack",
    "no_move": "the activated models cannot move",
    "damage": "each activated model takes {} damage",
}
"""Each field of a penalty (W11, W21, W25) in words."""


def penalty_words(penalty: Penalty) -> str:
    """What a failed tactic check costs this round (W11, W21, W25), in words."""
    return fields_words(penalty, PENALTY_WORDS, "; ")


def environment_line(state: WorldsState) -> str:
    """The environment in force this round, what it does and what a failed tactic costs."""
    entry: EnvironmentEntry | None = state.environment
    if entry is None:
        return "Environment: none yet (rolled at the start of each round)."
    owner = state.environment_seat
    table = (
        "" if owner is None else f" ({state.sides[owner - 1].faction.name}'s table, {entry.roll})"
    )
    return (
        f"Environment, round {state.round}: {entry.name}{table}: "
        f"{effect_words(entry.effect)}. A failed tactic check: {penalty_words(entry.penalty)}."
    )


# --- the board --------------------------------------------------------------------------------


def board(
    state: WorldsState, viewer: str, *, result: bool = True, marked: Collection[Coord] = ()
) -> RenderableType:
    """The match as ``viewer`` may see it: a heading, the environment and the activation under
    way, the map with its models and legend, the objectives, and each side's models;
    ``result=False`` leaves out a result the transcript just told, and ``marked`` squares
    stand out (where a choice may go).

    :raises ValueError: for a viewer the game does not know.
    """
    state = shown_state(state, viewer)
    parts: list[RenderableType] = [Text(printable(heading(state)), style="bold")]
    parts.extend(Text(printable(line)) for line in status_lines(state))
    # side by side where the screen is wide enough, else the legend below the map
    parts.append(
        Columns([map_text(state, marked), legend(state, marked=bool(marked))], padding=(0, 3))
    )
    parts.append(Text(printable(objectives_line(state))))
    parts.append(Text(ROSTER_KEY))
    parts.extend(roster(state, seat) for seat in (1, 2))
    outcome = rules.outcome(state)
    return with_result(parts, outcome.reason if result and outcome is not None else None)


def status_lines(state: WorldsState) -> list[str]:
    """The environment in force, the activation under way and the roll awaiting a re-roll
    decision, each in a line."""
    lines = [environment_line(state)] if state.round else []
    activation = state.activation
    if activation is None:
        return lines
    shown = letters(state)
    who = state.settings.players[activation.seat - 1]
    models = ", ".join(
        f"{m.name} ({shown[m.id]})" for m in (state.model(i) for i in activation.models) if m
    )
    said = f"{who}'s activation: {models}, {PLAN_WORDS.get(activation.plan, activation.plan)}"
    if activation.tactic is not None:
        name = tactic_name(state, activation.seat, activation.tactic)
        told = (
            "succeeded"
            if activation.boon is not None
            else "failed"
            if activation.penalty is not None
            else "rolled"
        )
        said += f", {name} {told}"
    lines.append(said + ".")
    if activation.roll is not None:
        lines.append(roll_line(state))
    return lines


def knack_words(knack: int) -> str:
    """The face a die needs (W15), as the game's words tell it: "4+"; "2+" below (a 1 always
    fails); "6 only" above 6 (a ranged weapon next to an enemy: only an unmodified 6)."""
    return "6 only" if knack > 6 else f"{max(knack, 2)}+"


def roll_line(state: WorldsState) -> str:
    """The roll awaiting its owner's re-roll decision (W16): each die, whose it is, its face,
    what it needs, and whether it hit."""
    activation = state.activation
    assert activation is not None and activation.roll is not None
    roll = activation.roll
    if roll.target is None:
        tactic = tactic_name(state, activation.seat, activation.tactic or "")
        what, whose = f"{tactic} check", [tactic] * len(roll.faces)
    else:
        target = state.model(roll.target)
        what = f"attacks at {target.name if target else roll.target}"
        whose = []
        for attack in roll.attacks:
            model = state.model(attack.model)
            whose.append(f"{model.name if model else attack.model}'s {attack.weapon}")
    dice = "; ".join(
        f"die {i + 1} ({whose[i]}): {face}, needs {knack_words(need)}, "
        + ("hits" if roll.hits(i) else "fails, re-rolled" if roll.rerolled[i] else "fails")
        for i, (face, need) in enumerate(zip(roll.faces, roll.needed, strict=True))
    )
    return f"Roll of the {what}: {dice}."


def map_text(state: WorldsState, marked: Collection[Coord] = ()) -> Text:
    """The map (:func:`~multiversus_core.rulesets.worlds_collide.render.map_lines`) in colours:
    each square in its kind's (a deployment row's ground in its seat's), each model in its
    seat's (reversed while it activates, dim once it has), ``marked`` squares standing out."""
    return coloured(map_lines(state, marked), _style)


def _style(role: str) -> str:
    """The colour of a span of the map, by its role."""
    if role == "frame":
        return FRAME_STYLE
    if role == "marked":
        return MARKED_STYLE
    kind, _, state = role.partition(" ")
    if kind.startswith("square-"):
        return SQUARE_STYLES[kind[7:]]
    if kind.startswith("zone-"):
        return ZONE_STYLES[int(kind[5:])]
    if kind.startswith("seat-"):
        return SEAT_STYLES[int(kind[5:])] + {"moving": " reverse", "done": " dim", "": ""}[state]
    return ""


def _rows(rows: Sequence[int]) -> str:
    ordered = sorted(r + 1 for r in rows)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"rows {ordered[0]}-{ordered[-1]}"
    return ("row " if len(ordered) == 1 else "rows ") + ", ".join(map(str, ordered))


def legend(state: WorldsState, *, marked: bool = False) -> Text:
    """What each square and mark on the map stands for, whose models are whose, and each
    side's deployment rows."""
    text = Text()
    for char, square_ in SQUARES.items():
        text.append(f" {char} ", style=square_.style)
        text.append(f" {square_.words}\n")
        if char == RUIN:
            text.append(CLIMB_WORDS + "\n")
    text.append(f" {FALLEN} ")
    text.append(" fallen token\n")
    text.append(" A# ", style=SEAT_STYLES[1])
    text.append("model A on a ruin\n")
    shown = letters(state)
    players = state.settings.players
    for own_seat in (1, 2):
        own = [shown[m.id] for m in state.models if m.seat == own_seat]
        span = own[0] if len(own) == 1 else f"{own[0]}-{own[-1]}" if own else "-"
        text.append(f" {span} ", style=SEAT_STYLES[own_seat])
        text.append(printable(f" {players[own_seat - 1]}'s models") + "\n")
    deployment = state.game_map.deployment
    first = state.first_deployer
    for rows, seat, order in (
        (deployment.first, first, "first"),
        (deployment.second, None if first is None else rules.other(first), "second"),
    ):
        whose = f"{players[seat - 1]} deploys" if seat is not None else "deploys"
        text.append(" " + _rows(rows), style=ZONE_STYLES[seat] if seat is not None else "")
        text.append(printable(f": {whose} {order}") + "\n")
    text.append(" reverse: activating, dim: activated")
    if marked:
        text.append("\n ")
        text.append("[.]", style=MARKED_STYLE)
        text.append(" a square you may choose")
    return text


def objectives_line(state: WorldsState) -> str:
    """The mission's objectives (W19) and the models near each now, seat 1's then seat 2's."""
    mission = state.game_map.mission
    rounds = mission.scoring_rounds
    when = (
        f"rounds {rounds[0]}-{rounds[-1]}"
        if list(rounds) == list(range(rounds[0], rounds[-1] + 1)) and len(rounds) > 1
        else "round " + ", ".join(map(str, rounds))
    )
    near = [f"{square(at)} {n1}-{n2}" for at, (n1, n2) in objectives_near(state)]
    players = state.settings.players
    return (
        f"{mission.name}: an objective scores {mission.objective_vp} VP at the end of {when} "
        f"for the side with more models within {mission.objective_radius}; each fallen enemy "
        f"leader {mission.fallen_leader_vp} VP after round {ROUNDS}. Models within "
        f"{mission.objective_radius} now ({players[0]}-{players[1]}): " + ", ".join(near) + "."
    )


ROSTER_KEY: Final = (
    "In the rosters: defense value and types (P physical, E energy, A arcane); L2 a leader of "
    "leadership 2 (+2 AP a round); a weapon is R ranged or M melee, attacks x knack, d damage, "
    "x2: the types it deals double against."
)


def roster(state: WorldsState, seat: Seat) -> Table:
    """One side's models: letter, name, square, HP, Move, defense, training (and leadership:
    ``L2``) and status; the title has the side's faction, AP and VP, and whether it is out of the
    round; the caption each model type's weapons."""
    players = state.settings.players
    side = state.sides[seat - 1]
    title = f"{players[seat - 1]} (seat {seat}), {side.faction.name}: {side.ap} AP, {side.vp} VP"
    if state.phase == "activations" and side.out:
        title += ", out of the round"
    kinds = {m.kind.name: m.kind for m in state.models if m.seat == seat}
    caption = "Weapons: " + "; ".join(
        f"{name}: {', '.join(weapon_words(w) for w in kind.weapons) or 'none'}"
        for name, kind in kinds.items()
    )
    table = Table(
        title=printable(title),
        title_justify="left",
        title_style=SEAT_STYLES[seat],
        caption=printable(caption),
        caption_justify="left",
        caption_style="",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for header in ("", "model", "square", "HP", "Move", "defense", "training", "status"):
        table.add_column(header, no_wrap=True)
    shown = letters(state)
    for model in state.models:
        if model.seat != seat:
            continue
        kind = model.kind
        training = kind.training + (f" L{kind.leadership}" if kind.is_leader else "")
        types = "".join(DEFENSE_LETTERS[t] for t in kind.defense_types)
        table.add_row(
            Text(shown[model.id], style=SEAT_STYLES[seat]),
            printable(model.name),
            "-" if model.at is None else square(model.at),
            f"{max(model.hp, 0)}/{kind.hp}",
            str(kind.move),
            f"{kind.defense} {types}".rstrip(),
            printable(training),
            status(state, model),
            style="dim" if model.fallen else None,
        )
    return table


def status(state: WorldsState, model: Model) -> str:
    """A model's status: fallen (its token's square), not deployed, activating, activated
    (this round), or nothing."""
    if model.fallen:
        return "fallen"
    if model.at is None:
        return "not deployed"
    if state.activation is not None and model.id in state.activation.models:
        return "activating"
    if model.activated:
        return "activated"
    return ""


__all__ = [
    "CLIMB_WORDS",
    "MODEL_LETTERS",
    "ROSTER_KEY",
    "SEAT_STYLES",
    "SQUARES",
    "Square",
    "board",
    "effect_words",
    "entry_head",
    "entry_told",
    "environment_line",
    "event_lines",
    "fields_words",
    "heading",
    "knack_words",
    "legend",
    "letters",
    "map_text",
    "objectives_line",
    "objectives_near",
    "penalty_words",
    "progress",
    "roll_line",
    "roster",
    "shown_state",
    "status",
    "status_lines",
    "weapon_words",
]
