"""Given/when/then helpers for rule tests.

``given`` builds a state by folding events (or by playing commands),
``when`` decides a command against it, and the test states the events or the
error that follow.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable

from hypothesis import strategies as st
from msgspec.structs import replace

from multiversus_core import (
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    DeclineReaction,
    EndAction,
    Event,
    FlipForSetUp,
    MatchSettings,
    MatchState,
    RollInitiative,
    SelectCoins,
    SelectReaction,
    apply,
    decide,
    decider_seat,
    fold,
    legal_commands,
    start_match,
)
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.play import play_match
from multiversus_core.engine.position import edit_position, read_position, write_position
from multiversus_core.rulesets.multiversus import forced, setup
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.events import ReactionDeclined, ReactionTriggered
from multiversus_core.rulesets.multiversus.terms import ActionKind, Colour, Condition, Seat, Side

SETTINGS = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=11)
"""The bundled default pairing, with a fixed seed."""


def play(state: MatchState, *commands: Command) -> MatchState:
    """Apply commands in order and return the final state."""
    for command in commands:
        state, _ = apply(state, command)
    return state


def given(state: MatchState | MatchSettings, *events: Event) -> MatchState:
    """Return the state after folding ``events``."""
    return fold(events, state)


def when(state: MatchState, command: Command) -> tuple[Event, ...]:
    """Return the events ``command`` causes (raising what decide raises)."""
    return decide(command, state)


def unsalted(events: Iterable[Event]) -> tuple[Event, ...]:
    """Return events with their commitments and salts blanked, to compare what the rules did.

    Rule tests compare choices and reveals; test_commitments.py tests the
    commitments and salts themselves.
    """
    return tuple(_unsalted(event) for event in events)


def _unsalted(event: Event) -> Event:
    changes = {name: "" for name in ("commitment", "salt") if hasattr(event, name)}
    return replace(event, **changes) if changes else event


def kinds(events: Iterable[Event]) -> list[str]:
    """Return the tags of some events, in order."""
    return [type(e).__struct_config__.tag for e in events]  # type: ignore[misc]


def set_up(
    settings: MatchSettings = SETTINGS,
    *,
    set_up_player: Seat = 1,
    starting: Side = "heroes",
    heroes_seat: Seat = 1,
) -> MatchState:
    """Return a state at the start of round 1, after the four set-up steps."""
    state = start_match(settings)
    state = play(state, FlipForSetUp(player=1, winner=set_up_player))
    (teams,) = [c for c in legal_commands(state, set_up_player) if isinstance(c, ChooseTeams)]
    other: Seat = 2 if set_up_player == 1 else 1
    other_side: Side = "heroes" if heroes_seat == other else "adversaries"
    state = play(
        state,
        teams,
        ChooseStartingTeam(player=set_up_player, side=starting),
        ChooseSide(player=other, side=other_side),
    )
    # Set-up secrets (R23): each takes its first option.
    while state.pending == "secret":
        state = play(state, legal_commands(state, seat(state))[0])
    return state


def seat(state: MatchState) -> Seat:
    """Return the seat the match waits for."""
    player = decider_seat(state)
    assert player is not None
    return player


def react(state: MatchState, unit: str | None = None, colour: Colour = "green") -> MatchState:
    """Make the reactive selection: the given unit's coin with a Defend coin, or the first option."""
    player = seat(state)
    if unit is None:
        options = legal_commands(state, player)
        return play(state, options[0])
    return play(state, SelectReaction(player=player, unit=unit, colour=colour, actions=("defend",)))


def activate(
    state: MatchState,
    unit: str,
    colour: Colour = "green",
    actions: tuple[ActionKind, ...] = ("move",),
) -> MatchState:
    """Select coins for ``unit``, let the reactive player select, and end the move at once."""
    state = play(state, SelectCoins(player=seat(state), unit=unit, colour=colour, actions=actions))
    state = react(state)
    return play(state, EndAction(player=seat(state)))


def roll(state: MatchState, die: int) -> MatchState:
    """Roll a physical die showing ``die``."""
    return play(state, RollInitiative(player=seat(state), die=die))


def placed(state: MatchState, squares: dict[str, tuple[int, int] | None]) -> MatchState:
    """Return the state with some figures put on other squares (None: off the board).

    :raises PositionError: if the position that gives is one no match can hold.
    """
    figures: dict[str, dict[str, object]] = {
        f: {"square": list(sq) if sq is not None else None} for f, sq in squares.items()
    }
    return _figures(state, figures)


def conditioned(state: MatchState, conditions: dict[str, Condition]) -> MatchState:
    """Return the state with some characters' conditions set (eliminated ones leave the board).

    :raises PositionError: if the position that gives is one no match can hold.
    """
    figures: dict[str, dict[str, object]] = {
        f: {"condition": c, "square": None} if c == "eliminated" else {"condition": c}
        for f, c in conditions.items()
    }
    return _figures(state, figures)


def _figures(state: MatchState, figures: dict[str, dict[str, object]]) -> MatchState:
    """Return the state with these figures' fields changed (``{"knight": {"square": [2, 7]}}``),
    through the position notation, which checks the state.

    :raises PositionError: if the position that gives is one no match can hold.
    """
    changes = "figures=" + json.dumps(figures, separators=(",", ":"))
    return _edited(write_position(state), changes)


@functools.cache
def _edited(text: str, changes: str) -> MatchState:
    # Many tests place the same figures on the same set-up; a position and its edit are
    # plain text and the state immutable, so each is read and checked once.
    result: MatchState = read_position(edit_position(text, changes))
    return result


def select(
    state: MatchState,
    unit: str,
    actions: tuple[ActionKind, ...],
    reaction: tuple[str, tuple[ActionKind, ...]] | None = None,
) -> MatchState:
    """Select the active coins, then the reactive ones (a given unit and coins, or the first option)."""
    state = play(state, SelectCoins(player=seat(state), unit=unit, colour="green", actions=actions))
    if reaction is None:
        return react(state)
    unit_id, coins = reaction
    return play(
        state, SelectReaction(player=seat(state), unit=unit_id, colour="green", actions=coins)
    )


def when_passing(state: MatchState, command: Command) -> tuple[Event, ...]:
    """Return the events of ``command``, letting every reaction offer it raises pass.

    Offers come wherever any hidden selection might answer (they leak nothing),
    so rules that are not about reactions are tested past them; the offers and
    declines themselves are left out of the result.
    """
    events = list(decide(command, state))
    state = fold(events, state)
    while state.pending == "offer":
        passed = decide(DeclineReaction(player=seat(state)), state)
        state = fold(passed, state)
        events.extend(passed)
    return tuple(e for e in events if not isinstance(e, (ReactionTriggered, ReactionDeclined)))


def play_passing(state: MatchState, *commands: Command) -> MatchState:
    """Apply commands in order, letting every reaction offer pass."""
    for command in commands:
        state = play(state, command)
        while state.pending == "offer":
            state = play(state, DeclineReaction(player=seat(state)))
    return state


MUTATION = st.tuples(
    st.sampled_from(["flip", "insert", "delete"]),
    st.integers(min_value=0),
    st.integers(min_value=0, max_value=255),
)
"""One random edit of a file's bytes: flip, insert or delete a byte somewhere."""


def mutated(data: bytes, mutations: Iterable[tuple[str, int, int]]) -> bytes:
    """Return ``data`` with each of the ``MUTATION`` edits applied in turn."""
    out = bytearray(data)
    for operation, position, value in mutations:
        at = position % (len(out) + 1)
        if operation == "insert":
            out[at:at] = bytes([value])
        elif out and operation == "delete":
            del out[at % len(out)]
        elif out:
            out[at % len(out)] ^= value or 1
    return bytes(out)


def bot_match(settings: MatchSettings, second_bot_seed: int) -> tuple[MatchLog, MatchState]:
    """Play a complete match between two random bots; return its log and final state.

    The first bot is seeded with the match seed, the second with ``second_bot_seed``.
    """
    return play_match(settings, {1: RandomBot(settings.seed), 2: RandomBot(second_bot_seed)})


def rechained(data: bytes) -> bytes:
    """Recompute the chain of a match log or a view log after an edit: every ``seq``,
    ``prev`` and the end record's ``count`` and ``head``, as a forger holding the file can."""
    lines = data.split(b"\n")[:-1]
    out: list[bytes] = [lines[0]]
    for seq, line in enumerate(lines[1:], start=1):
        record = json.loads(line)
        head = hashlib.sha256(out[-1]).hexdigest()
        if record["record"] == "end":
            record = {**record, "count": seq - 1, "head": head}
        else:
            record = {
                "record": "entry",
                "seq": seq,
                "prev": head,
                **{k: v for k, v in record.items() if k not in ("record", "seq", "prev")},
            }
        out.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode())
    return b"\n".join(out) + b"\n"


def plain_decider_seat(state: MatchState) -> Seat | None:
    """The seat to decide, by one plain ``match`` over every decision: the reference the
    fast paths of decide.decider_seat and decide._expect are checked against."""
    match state.pending:
        case "flip":
            return 1
        case "teams" | "starting_team":
            return state.set_up_player
        case "side":
            return None if state.set_up_player is None else (2 if state.set_up_player == 1 else 1)
        case "react" | "offer":
            return None if state.reactive is None else state.seat_of(state.reactive)
        case "forced":
            choice = forced.held(state)
            return None if choice is None else state.seat_of(choice.side)
        case "secret":
            offer = setup.next_secret(state)
            return None if offer is None else state.seat_of(offer.side)
        case "over":
            return None
        case "move" | "attack" | "after_attack" | "stunt" if (
            state.activation is not None and state.activation.reaction is not None
        ):
            return state.seat_of(state.activation.reaction.side)
        case _:
            return None if state.active is None else state.seat_of(state.active)
