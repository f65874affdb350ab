"""Golden replays: every log in replays/ verifies, covers the rules, and plays as recorded.

The logs are made by ``python scripts/make_goldens.py``; the coverage they
must reach is computed here from their own events, and the final state and
the board at the end of every round, for each view, are syrupy snapshots.
See docs/goldens.md for regenerating them when a rule changes on purpose.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from multiversus_cli.render import render_board, to_text
from multiversus_core import MatchState, evolve, initial_state
from multiversus_core.engine.log import encode_log, read_log, replay
from multiversus_core.engine.verify import check_commitments, verify_file
from multiversus_core.rulesets.multiversus.events import MatchEnded, RoundEnded
from multiversus_core.rulesets.multiversus.terms import Side
from multiversus_core.rulesets.multiversus.views import PLAYER_VIEWERS, redact_log
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
GOLDENS = sorted(REPLAYS.glob("*.jsonl"))
IDS = [path.stem for path in GOLDENS]


make_goldens = load_script("make_goldens")

# The issue's list, spelled out so that the script's list cannot quietly shrink.
MUST_COVER = frozenset(
    {
        *(
            f"pairing:{h}+{a}"
            for h in ("banner-knight", "witch-hunters")
            for a in ("black-goblins", "smogon", "swartzblak")
        ),
        *(f"action:{k}" for k in ("attack", "defend", "move", "stunt", "mixed")),
        *(f"double:{k}" for k in ("attack", "move", "stunt")),
        *(f"reaction:{k}" for k in ("attack", "defend", "move", "stunt", "declined")),
        *(
            f"trigger:{t}"
            for t in (
                "left_adjacent",
                "attacked_other",
                "stunted",
                "recovered",
                "double_attacked",
                "targeted",
                "concluded",
            )
        ),
        "recovery:succeeded",
        "recovery:failed",
        "initiative:lost_on_six",
        "initiative:lost_on_greys",
        "initiative:given_up",
        "victory:elimination",
        "victory:scenario",
        *(
            f"variant:{v}"
            for v in (
                "adjacent-triggers",
                "costly-recovery",
                "diagonal-double-move",
                "diagonal-movement",
                "disengage-trigger",
                "double-attack-pushes",
                "move-reaction-at-end",
                "no-automatic-six",
                "secret-schemes",
            )
        ),
    }
)


def test_there_are_at_least_twelve_goldens() -> None:
    assert len(GOLDENS) >= 12
    assert {path.name for path in GOLDENS} == {g.name for g in make_goldens.GOLDENS}


def test_the_required_coverage_includes_the_issues_list() -> None:
    assert make_goldens.required() >= MUST_COVER


def test_goldens_together_cover_every_rule_the_issue_lists() -> None:
    covered = frozenset().union(*(make_goldens.coverage(read_log(path)) for path in GOLDENS))
    assert sorted(make_goldens.required() - covered) == []


@pytest.mark.parametrize("golden", make_goldens.GOLDENS, ids=lambda g: g.name)
def test_the_script_makes_each_golden_byte_for_byte(golden: Any) -> None:
    path = REPLAYS / golden.name
    assert encode_log(make_goldens.play(golden)) == path.read_bytes()


@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_golden_verifies(path: Path) -> None:
    result = verify_file(path)
    assert result.ok, result.problem
    assert result.finished
    # Made from seeds, so reproducible and marked not secret; every commitment
    # is opened in each side's log as well.
    assert result.salts == "seed"
    log = read_log(path)
    for viewer in PLAYER_VIEWERS:
        assert check_commitments(redact_log(log, viewer)) == ()


@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_golden_final_state(path: Path, snapshot: object) -> None:
    state = replay(read_log(path), str(path))
    assert state.is_over
    text = msgspec.json.format(msgspec.json.encode(state), indent=1).decode()
    assert text == snapshot


def _round_ends(path: Path) -> list[tuple[str, MatchState]]:
    """The state after every round_ended event, and the final state if it came later."""
    log = read_log(path)
    state = initial_state(log.settings)
    shots: list[tuple[str, MatchState]] = []
    for entry in log.entries:
        for event in entry.events:
            state = evolve(state, event)
            if isinstance(event, RoundEnded):
                shots.append((f"end of round {event.round}", state))
            elif isinstance(event, MatchEnded):
                shots.append((f"match ended ({event.reason})", state))
    return shots


VIEWS: tuple[Side | None, ...] = ("heroes", "adversaries", None)


@pytest.mark.parametrize("viewer", VIEWS, ids=["heroes", "adversaries", "spectator"])
@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_golden_boards_at_the_end_of_every_round(
    path: Path, viewer: Side | None, snapshot: object
) -> None:
    pages = []
    for title, state in _round_ends(path):
        seat = None if viewer is None else state.seat_of(viewer)
        board = "\n".join(
            line.rstrip() for line in to_text(render_board(state, seat), 120).splitlines()
        )
        pages.append(f"=== {title} ===\n{board}")
    assert "\n".join(pages) == snapshot
