"""worlds-collide's golden replays: every log in replays/worlds-collide/ verifies, covers the
rules the issue lists, and plays as recorded.

The logs are made by ``python scripts/make_worlds_collide_goldens.py``; the
coverage they must reach is computed here from their own events, and each
final state and the board at the end of every round, for each view, are syrupy
snapshots. See docs/goldens.md for regenerating them
when a rule changes on purpose.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from multiversus_cli.presenters.worlds_collide_text import board
from multiversus_core.engine.log import encode_log, read_log, replay
from multiversus_core.engine.verify import verify_file
from multiversus_core.rulesets.worlds_collide.model import MatchEnded, RoundStarted
from multiversus_core.rulesets.worlds_collide.ruleset import RULESET, VIEWERS
from tests.golden_boards import boards_text, round_ends
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays" / "worlds-collide"
GOLDENS = sorted(REPLAYS.glob("*.jsonl"))
IDS = [path.stem for path in GOLDENS]


make_goldens = load_script("make_worlds_collide_goldens")

# The issue's list, spelled out so that the script's list cannot quietly shrink.
MUST_COVER = frozenset(
    {
        "formation:leader",
        "tactic:success",
        "tactic:penalty",
        "reroll",
        "attack:cover",
        "model:fell",
        "end:vp",
    }
)


def test_there_are_at_least_six_goldens_and_no_two_are_one_match() -> None:
    assert len(GOLDENS) >= 6
    assert {path.name for path in GOLDENS} == {g.file_name for g in make_goldens.GOLDENS}
    digests = {hashlib.sha256(path.read_bytes()).hexdigest() for path in GOLDENS}
    assert len(digests) == len(GOLDENS)


def test_the_required_coverage_includes_the_issues_list() -> None:
    assert make_goldens.required() >= MUST_COVER


def test_goldens_together_cover_every_feature_required() -> None:
    covered = frozenset().union(*(make_goldens.coverage(read_log(path)) for path in GOLDENS))
    assert sorted(make_goldens.required() - covered) == []


@pytest.mark.parametrize("golden", make_goldens.GOLDENS, ids=lambda g: g.file_name)
def test_each_golden_has_what_it_is_there_for(golden: Any) -> None:
    assert golden.wants <= make_goldens.coverage(read_log(REPLAYS / golden.file_name))


@pytest.mark.parametrize("golden", make_goldens.GOLDENS, ids=lambda g: g.file_name)
def test_the_script_makes_each_golden_byte_for_byte(golden: Any) -> None:
    assert encode_log(make_goldens.play(golden)) == (REPLAYS / golden.file_name).read_bytes()


@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_golden_verifies_and_finishes(path: Path) -> None:
    result = verify_file(path)
    assert result.ok, result.problem
    assert result.finished


@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_golden_final_state(path: Path, snapshot: object) -> None:
    state = replay(read_log(path), str(path))
    assert state.phase == "over"
    text = msgspec.json.format(msgspec.json.encode(state), indent=1).decode()
    assert text == snapshot


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_golden_boards_at_the_end_of_every_round(path: Path, viewer: str, snapshot: object) -> None:
    shots = round_ends(RULESET, path, RoundStarted, MatchEnded)
    assert shots[-1][0].startswith("match ended")
    assert boards_text(shots, board, viewer, 100) == snapshot
