"""``multiversus diff`` on tiles-d6: units one by one, squares and units by name."""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_cli.presenters import Folded
from multiversus_cli.presenters.tiles_d6_diff import difference_line, state_differences
from multiversus_core.engine.log import MatchLog, encode_log, read_log
from multiversus_core.rulesets.tiles_d6.model import Place, StepTo, TilesState
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET
from tests.cli_checks import diverging

GOLDEN = (
    Path(__file__).resolve().parent.parent
    / "replays"
    / "tiles-d6"
    / "keep-guard--marsh-raiders--concussion.jsonl"
)


def lines(a: TilesState, b: TilesState) -> list[str]:
    return [difference_line(found, b) for found in state_differences(a, b)]


def test_a_unit_that_moved_and_was_hurt_is_one_line_naming_it_and_its_squares() -> None:
    folded = Folded.of(read_log(GOLDEN))
    a, b = folded.states[100], folded.states[-1]
    told = lines(a, b)
    assert "Bot 1's Spearman 2: square g5 in A, d6 in B; health 6 in A, 1 in B" in told
    assert (
        "Bot 2's Ogre: square e7 in A, off the board in B; health 4 in A, 0 in B; "
        "injured no in A, yes in B"
    ) in told
    assert "injured: 0 by seat 1 and 1 by seat 2 in A, 1 by seat 1 and 1 by seat 2 in B" in told
    assert "reason: none in A, round 8 ended with 1 injured on each side in B" in told


def test_the_action_under_way_and_the_units_that_acted_are_named() -> None:
    folded = Folded.of(read_log(GOLDEN))
    told = lines(folded.states[63], folded.states[64])
    assert told == [
        "acted: Bot 1's Crossbow 2, Bot 1's Crossbow 1, Bot 1's Spearman 2 in A, "
        "Bot 1's Crossbow 2, Bot 1's Crossbow 1, Bot 1's Spearman 2, Bot 1's Captain in B",
        "action: none in A, the charge of Bot 1's Captain, 3 points left in B",
    ]


def test_a_unit_in_one_state_only_is_told_so() -> None:
    folded = Folded.of(read_log(GOLDEN))
    state = folded.states[-1]
    fewer = replace(state, units=state.units[1:])
    name = "Bot 1's Captain"
    assert state.units[0].id == "1.captain"
    assert lines(state, fewer) == [f"{name}: in A only"]


def _diverging(log: MatchLog, at: int) -> MatchLog:
    """``log`` to entry ``at``, then another legal command, then random bots to the end."""

    def other(state: TilesState) -> object:
        legal = RULESET.legal_commands(state, RULESET.to_act(state)[0])
        return next(c for c in legal if c != log.entries[at].command)

    return diverging(RULESET, log, at, other)


def test_diff_of_two_matches_parting_in_the_set_up_names_the_unit_placed(tmp_path: Path) -> None:
    log = read_log(GOLDEN)
    at = next(i for i, e in enumerate(log.entries) if isinstance(e.command, Place))
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(encode_log(log))
    b.write_bytes(encode_log(_diverging(log, at)))
    result = CliRunner().invoke(app, ["diff", str(a), str(b)], env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert f"entry {at + 1}" in result.stdout
    assert (
        "The states after it differ:\n  Bot 2's Ogre: square c10 in A, a7 in B\n" in result.stdout
    )


def test_diff_of_a_match_and_itself_finds_nothing(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    a.write_bytes(GOLDEN.read_bytes())
    result = CliRunner().invoke(app, ["diff", str(a), str(GOLDEN)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output


def test_a_step_is_told_by_square_name() -> None:
    folded = Folded.of(read_log(GOLDEN))
    k = next(i for i, e in enumerate(folded.log.entries) if isinstance(e.command, StepTo))
    told = lines(folded.states[k], folded.states[k + 1])
    assert any("square" in line and " in A, " in line for line in told), told
