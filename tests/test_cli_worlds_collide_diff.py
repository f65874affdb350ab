"""``multiversus diff`` on worlds-collide: models and sides one by one, squares and models by
name."""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_cli.presenters import Folded
from multiversus_cli.presenters.worlds_collide_diff import difference_line, state_differences
from multiversus_core.engine.grid import square_name
from multiversus_core.engine.log import MatchLog, encode_log, read_log
from multiversus_core.rulesets.worlds_collide.model import Deploy, ModelMoved, WorldsState
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET
from multiversus_core.rulesets.worlds_collide.words import model_name
from tests.cli_checks import diverging
from tests.test_cli_worlds_collide import REPLAYS

GOLDEN = REPLAYS / "wyldfae--iron-legion--fallen.jsonl"


def lines(a: WorldsState, b: WorldsState) -> list[str]:
    return [difference_line(found, b) for found in state_differences(a, b)]


def test_a_model_that_moved_and_fell_is_one_line_naming_it_and_its_squares() -> None:
    folded = Folded.of(read_log(GOLDEN))
    a, b = folded.states[40], folded.states[-1]
    told = lines(a, b)
    fell = [line for line in told if "fallen no in A, yes in B" in line]
    assert fell and all(line.startswith(("Bot 1's ", "Bot 2's ")) for line in fell)
    assert any("square " in line and " in A, " in line for line in fell)
    assert any(line.startswith("Bot 1's side (seat 1): ") and "VP " in line for line in told)
    assert any(line.startswith("round: ") for line in told)
    assert any(line.startswith("environment: ") and " in A, " in line for line in told)


def test_a_move_is_told_by_square_name() -> None:
    folded = Folded.of(read_log(GOLDEN))
    k, moved = next(
        (i, event)
        for i, e in enumerate(folded.log.entries)
        for event in e.events
        if isinstance(event, ModelMoved)
    )
    told = lines(folded.states[k], folded.states[k + 1])
    before = folded.states[k].model(moved.model)
    assert before is not None and before.at is not None
    name = model_name(folded.states[k], moved.model)
    line = f"{name}: square {square_name(before.at)} in A, {square_name(moved.to)} in B"
    assert any(told_line.startswith(line) for told_line in told), told


def test_a_model_in_one_state_only_is_told_so() -> None:
    state = Folded.of(read_log(GOLDEN)).states[-1]
    fewer = replace(state, models=state.models[1:])
    assert lines(state, fewer) == [f"Bot 1's {state.models[0].name}: in A only"]


def test_the_activation_under_way_names_its_models() -> None:
    folded = Folded.of(read_log(GOLDEN))
    k = next(i for i, s in enumerate(folded.states) if s.activation is not None)
    told = lines(folded.states[k - 1], folded.states[k])
    (activation,) = [line for line in told if line.startswith("activation:")]
    activation_ = folded.states[k].activation
    assert activation_ is not None
    names = ", ".join(model_name(folded.states[k], m) for m in activation_.models)
    assert activation.startswith(f"activation: none in A, Bot {activation_.seat}'s activation of")
    assert names in activation


def _diverging(log: MatchLog, at: int) -> MatchLog:
    """``log`` to entry ``at``, then its model deployed a square to the side, then random bots
    to the end."""
    old = log.entries[at].command
    assert isinstance(old, Deploy)
    column = old.at[0] + 1 if old.at[0] < 16 else old.at[0] - 1
    return diverging(RULESET, log, at, lambda state: replace(old, at=(column, old.at[1])))


def test_diff_of_two_matches_parting_in_deployment_names_the_model_placed(tmp_path: Path) -> None:
    log = read_log(GOLDEN)
    at = next(
        i
        for i, e in enumerate(log.entries)
        if isinstance(e.command, Deploy)
        and all(
            m.at != (e.command.at[0] + 1, e.command.at[1]) for m in Folded.of(log).states[i].models
        )
    )
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(encode_log(log))
    b.write_bytes(encode_log(_diverging(log, at)))
    result = CliRunner().invoke(app, ["diff", str(a), str(b)], env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert f"entry {at + 1}" in result.stdout
    assert "The states after it differ:\n  Bot " in result.stdout
    assert " in A, " in result.stdout and "square " in result.stdout


def test_diff_of_a_match_and_itself_finds_nothing(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    a.write_bytes(GOLDEN.read_bytes())
    result = CliRunner().invoke(app, ["diff", str(a), str(GOLDEN)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
