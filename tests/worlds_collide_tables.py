"""Positions of worlds-collide set by hand, for the tests of its rules: the models wanted, on
the squares wanted, the others left out, and commands given with the dice rolled."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from multiversus_core.rulesets.worlds_collide import rules
from multiversus_core.rulesets.worlds_collide.model import (
    Command,
    Coord,
    Event,
    WorldsSettings,
    WorldsState,
)
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET

LEGION, FAE = "iron-legion", "wyldfae"


def start(**settings: Any) -> WorldsState:
    """A new match: Ann (seat 1, the Iron Legion) and Bob (seat 2, the Wyldfae) unless told."""
    settings.setdefault("players", ("Ann", "Bob"))
    return RULESET.initial_state(WorldsSettings(**settings), None)


def table(
    placed: Mapping[str, Coord],
    *,
    phase: str = "activations",
    round: int = 1,
    ap: tuple[int, int] = (3, 3),
    active: int | None = 1,
    environment: tuple[int, int] | None = None,
    **settings: Any,
) -> WorldsState:
    """Only the models named (``"1.rifleman-1"``), on their squares; in round ``round`` with
    these AP, ``active`` to activate, and the environment entry (whose table, roll) if given."""
    state = start(**settings)
    models = tuple(replace(m, at=placed[m.id]) for m in state.models if m.id in placed)
    missing = set(placed) - {m.id for m in models}
    assert not missing, f"no such models: {missing}"
    sides = tuple(replace(side, ap=n) for side, n in zip(state.sides, ap, strict=True))
    entry = None
    if environment is not None:
        entry = state.sides[environment[0] - 1].faction.entry(environment[1])
    return replace(
        state,
        models=models,
        sides=(sides[0], sides[1]),
        phase=phase,
        round=round,
        active=active if phase == "activations" else None,
        first_deployer=1,
        environment=entry,
        environment_seat=None if environment is None else environment[0],
    )


def given(state: WorldsState, command: Command) -> tuple[tuple[Event, ...], WorldsState]:
    """The events of a command and the state after them."""
    return rules.decide(command, state)


def run(state: WorldsState, commands: Sequence[Command]) -> tuple[list[Event], WorldsState]:
    """Every event of the commands, in order, and the state after the last."""
    events: list[Event] = []
    for command in commands:
        more, state = rules.decide(command, state)
        events.extend(more)
    return events, state


def of(events: Sequence[Event], kind: type) -> list[Any]:
    """The events of one kind."""
    return [e for e in events if isinstance(e, kind)]
