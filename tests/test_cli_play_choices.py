"""``multiversus play`` at a decision given as a tree of choices: one short menu a choice,
``b`` to take one back, ``q`` to stop."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.console import Console

from multiversus_cli.play_any import BY_NUMBER, Decision, Quit
from multiversus_core.engine.choices import Grouped
from multiversus_core.rulesets.tiles_d6 import rules
from multiversus_core.rulesets.tiles_d6.model import TilesSettings
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET


def _answers(*lines: str) -> tuple[Iterator[str], object]:
    given = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(given)
        except StopIteration:
            raise EOFError from None

    return given, ask


def _placement() -> Decision:
    """Seat 1 placing its first unit, its commands grouped by row as a tree."""
    state = RULESET.initial_state(TilesSettings(seed=4), None)
    while state.phase != "deploy":
        seat = RULESET.to_act(state)[0]
        state = RULESET.decide(RULESET.legal_commands(state, seat)[0], state)[1]
    seat = RULESET.to_act(state)[0]
    commands = RULESET.legal_commands(state, seat)
    tree = Grouped(commands, lambda c: f"rank {c.at[1] + 1}", lambda c: f"on {c.at}", "Which rank?")
    return Decision(RULESET, state, seat, tree, ("Ann", "Bob"))


def test_a_tree_is_chosen_one_menu_at_a_time_and_b_takes_a_choice_back() -> None:
    decision = _placement()
    out = Console(file=io.StringIO(), width=100, color_system=None)
    _, ask = _answers("x", "1", "b", "2", "3")
    command = BY_NUMBER.choose(decision, out, ask)  # type: ignore[arg-type]
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert "Which rank?" in text and "Type a number from 1 to 6, or q." in text
    every = rules.legal_commands(decision.state, decision.seat)
    ranks = list(dict.fromkeys(c.at[1] for c in every))
    in_rank = [c for c in every if c.at[1] == ranks[1]]
    assert command == in_rank[2]
    assert command in decision.legal


def test_an_option_may_be_chosen_by_its_key_as_well_as_its_number() -> None:
    from multiversus_core.rulesets.worlds_collide.choices import DeployChoices
    from multiversus_core.rulesets.worlds_collide.model import Deploy, RollOff, WorldsSettings
    from multiversus_core.rulesets.worlds_collide.ruleset import RULESET as WORLDS

    state = WORLDS.initial_state(WorldsSettings(), None)
    state = WORLDS.decide(RollOff(1, dice=(6, 1)), state)[1]
    decision = Decision(WORLDS, state, 1, DeployChoices(state, 1), ("Ann", "Bob"))
    out = Console(file=io.StringIO(), width=100, color_system=None)
    _, ask = _answers("1.HEAVY-GUNNER-2", "2", "c2")
    assert BY_NUMBER.choose(decision, out, ask) == Deploy(1, "1.heavy-gunner-2", (2, 1))  # type: ignore[arg-type]


def test_q_or_the_end_of_input_stops_at_any_choice() -> None:
    out = Console(file=io.StringIO(), width=100, color_system=None)
    for lines in (("1", "q"), ("1",)):
        _, ask = _answers(*lines)
        with pytest.raises(Quit):
            BY_NUMBER.choose(_placement(), out, ask)  # type: ignore[arg-type]
