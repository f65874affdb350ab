"""tiles-d6's golden replays: every log in replays/tiles-d6/ verifies, covers the rules, and
plays as recorded.

The logs are made by ``python scripts/make_tiles_d6_goldens.py``; the coverage
they must reach is computed here from their own events, and the final state
and the board at the end of every round, for each view, are syrupy
snapshots. See docs/goldens.md for regenerating them when a rule changes on
purpose.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from multiversus_cli.presenters.tiles_d6_text import board
from multiversus_core.engine.log import encode_log, read_log, replay
from multiversus_core.engine.verify import verify_file
from multiversus_core.rulesets.tiles_d6.model import MatchEnded, RoundStarted
from multiversus_core.rulesets.tiles_d6.ruleset import RULESET, VIEWERS
from tests.golden_boards import boards_text, round_ends
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays" / "tiles-d6"
GOLDENS = sorted(REPLAYS.glob("*.jsonl"))
IDS = [path.stem for path in GOLDENS]


make_goldens = load_script("make_tiles_d6_goldens")

# The issue's list, spelled out so that the script's list cannot quietly shrink.
MUST_COVER = frozenset(
    {
        *(f"action:{a}" for a in ("move", "charge", "attack", "fire", "stand_up")),
        *(f"status:{s}" for s in ("prone", "stunned", "concussed", "injured", "adjacent")),
        "fall:brambles",
        "fall:withdraw",
        "attack:backfire",
        "end:wipe-out",
        "end:points",
    }
)


def test_there_are_at_least_six_goldens() -> None:
    assert len(GOLDENS) >= 6
    assert {path.name for path in GOLDENS} == {g.file_name for g in make_goldens.GOLDENS}


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
    assert result.salts == "seed"


def test_a_points_finish_comes_after_round_8_and_a_wipe_out_before_it_ends() -> None:
    for path in GOLDENS:
        log = read_log(path)
        rounds = [
            e.round for entry in log.entries for e in entry.events if isinstance(e, RoundStarted)
        ]
        (ended,) = [e for e in log.entries[-1].events if isinstance(e, MatchEnded)]
        if "no units left" in ended.reason:
            assert max(rounds) <= 8
            assert ended.winner is not None
        else:
            assert max(rounds) == 8, path.name


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
    assert boards_text(shots, board, viewer, 120) == snapshot
