"""The simulation core: seeds, the task, the records and the summary (no processes here)."""

from __future__ import annotations

import functools
from pathlib import Path

import msgspec
import pytest

from multiversus_core import MatchSettings
from multiversus_core.engine.log import decode_log, replay
from multiversus_core.engine.verify import verify_file
from multiversus_core.rulesets.multiversus.bots.specs import make_bot
from multiversus_core.rulesets.multiversus.simulation import (
    Cell,
    Grid,
    MatchRecord,
    MatchTask,
    bot_seed,
    decode_header,
    decode_record,
    encode_header,
    encode_record,
    match_seed,
    play_task,
    summarize,
    wilson,
)
from tests import simulate_faults

GRID = Grid(
    heroes=("banner-knight", "witch-hunters"),
    adversaries=("smogon",),
    variants=((), ("diagonal-movement",)),
    heroes_bot="random",
    adversaries_bot="random",
    matches=3,
    seed=11,
)


def record(winner: str | None, index: int = 0, rounds: int = 6, reason: str = "x") -> MatchRecord:
    return MatchRecord(
        heroes="banner-knight",
        adversaries="smogon",
        variants=(),
        heroes_bot="random",
        adversaries_bot="random",
        index=index,
        seed=index,
        winner=winner,  # type: ignore[arg-type]
        reason=reason if winner else "error",
        rounds=rounds,
        commands=100,
        error=None if winner else "RuntimeError: boom",
    )


def test_a_match_seed_depends_on_the_master_seed_the_cell_and_the_index_only() -> None:
    cell = Cell("banner-knight", "smogon")
    assert match_seed(11, cell, 0) == match_seed(11, Cell("banner-knight", "smogon", ()), 0)
    seeds = {
        match_seed(11, cell, 0),
        match_seed(12, cell, 0),
        match_seed(11, cell, 1),
        match_seed(11, Cell("witch-hunters", "smogon"), 0),
        match_seed(11, Cell("banner-knight", "smogon", ("diagonal-movement",)), 0),
    }
    assert len(seeds) == 5
    assert all(0 <= s < 2**64 for s in seeds)


def test_the_seeds_do_not_depend_on_the_bots_or_the_number_of_matches() -> None:
    other = msgspec.structs.replace(GRID, heroes_bot="random", matches=5, heroes=("witch-hunters",))
    mine = {t.key: t.seed for t in GRID.tasks()}
    theirs = {t.key: t.seed for t in other.tasks()}
    shared = mine.keys() & theirs.keys()
    assert len(shared) == 3 * 2
    assert all(mine[k] == theirs[k] for k in shared)


def test_every_match_of_a_grid_has_its_own_seed_and_cells_interleave() -> None:
    tasks = GRID.tasks()
    assert len(tasks) == 3 * 4
    assert len({t.seed for t in tasks}) == len(tasks)
    assert [t.index for t in tasks[:4]] == [0, 0, 0, 0]  # match 0 of every cell first
    assert {t.cell for t in tasks[:4]} == set(GRID.cells())


def test_bot_seeds_are_apart_from_the_chance_seed_and_from_each_other() -> None:
    seed = match_seed(11, Cell("banner-knight", "smogon"), 0)
    seeds = {
        seed,
        bot_seed(seed, "heroes"),
        bot_seed(seed, "adversaries"),
        bot_seed(seed, "set-up"),
    }
    assert len(seeds) == 4


def test_a_task_plays_the_same_match_every_time() -> None:
    task = GRID.tasks()[5]
    assert play_task(task) == play_task(task)


def test_a_task_is_the_match_its_settings_and_bot_seeds_give() -> None:
    task = msgspec.structs.replace(GRID.tasks()[2], keep_log=True)
    result = play_task(task)
    assert result.log is not None
    log = decode_log(result.log)
    assert log.settings == MatchSettings(
        heroes=task.cell.heroes,
        adversaries=task.cell.adversaries,
        variants=task.cell.variants,
        seed=task.seed,
    )
    assert log.finished
    assert result.record.commands == len(log.entries)
    assert result.record.seed == task.seed
    state = replay(log)
    assert (state.winner or "draw") == result.record.winner
    assert state.ended == result.record.reason
    assert state.round == result.record.rounds


def test_a_task_keeps_no_log_unless_asked() -> None:
    assert play_task(GRID.tasks()[0]).log is None


def test_a_match_that_raises_is_an_error_record_with_its_seed_and_log(tmp_path: Path) -> None:
    task = GRID.tasks()[1]
    make = functools.partial(simulate_faults.make_failing, seeds={bot_seed(task.seed, "heroes")})
    result = play_task(task, make)
    assert result.record.failed
    assert result.record.winner is None
    assert result.record.reason == "error"
    assert result.record.error == "RuntimeError: the bot broke down"
    assert result.record.seed == task.seed
    assert result.log is not None
    log = decode_log(result.log)
    assert not log.finished
    assert 0 < len(log.entries) == result.record.commands
    path = tmp_path / "error.jsonl"
    path.write_bytes(result.log)
    assert verify_file(path).ok


def test_records_and_headers_read_back_as_written() -> None:
    one = play_task(GRID.tasks()[3]).record
    assert decode_record(encode_record(one)) == one
    assert decode_header(encode_header(GRID)).grid == GRID
    line = msgspec.json.decode(encode_record(one))
    for field in (
        "heroes",
        "adversaries",
        "variants",
        "heroes_bot",
        "adversaries_bot",
        "seed",
        "winner",
        "reason",
        "rounds",
        "commands",
    ):
        assert field in line


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_the_wilson_interval_matches_published_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    interval = wilson(successes, trials)
    assert interval is not None
    assert interval.low == pytest.approx(low, abs=1e-4)
    assert interval.high == pytest.approx(high, abs=1e-4)


def test_the_wilson_interval_of_no_trials_is_none_and_bad_counts_raise() -> None:
    assert wilson(0, 0) is None
    with pytest.raises(ValueError, match="successes"):
        wilson(3, 2)


def test_the_win_rate_leaves_draws_out_and_errors_apart() -> None:
    grid = msgspec.structs.replace(GRID, heroes=("banner-knight",), variants=((),), matches=6)
    records = [
        record("heroes", 0, rounds=4, reason="won"),
        record("heroes", 1, rounds=6, reason="won"),
        record("adversaries", 2, rounds=5, reason="lost"),
        record("draw", 3, reason="six_rounds_played"),
        record(None, 4),
    ]
    summary = summarize(grid, records)
    (cell,) = summary.cells
    assert (cell.matches, cell.heroes_wins, cell.adversaries_wins, cell.draws, cell.errors) == (
        4,
        2,
        1,
        1,
        1,
    )
    assert cell.win_rate == pytest.approx(2 / 3)
    assert cell.interval == wilson(2, 3)
    assert cell.mean_rounds == pytest.approx((4 + 6 + 5 + 6) / 4)
    assert cell.reasons == {"won": 2, "error": 1, "lost": 1, "six_rounds_played": 1}
    assert cell.rounds == {4: 1, 5: 1, 6: 2}
    assert not cell.unbalanced
    assert (summary.total, summary.played, summary.errors) == (6, 5, 1)


def test_a_cell_whose_interval_excludes_half_is_unbalanced() -> None:
    grid = msgspec.structs.replace(GRID, heroes=("banner-knight",), variants=((),), matches=20)
    heroes_favoured = summarize(
        grid, [record("heroes", i) for i in range(9)] + [record("adversaries", 9)]
    )
    assert heroes_favoured.cells[0].unbalanced
    assert heroes_favoured.cells[0].favoured == "heroes"
    even = summarize(grid, [record("heroes", i) for i in range(6)] + [record("adversaries", 9)])
    assert not even.cells[0].unbalanced
    assert even.cells[0].favoured is None
    none_decided = summarize(grid, [record("draw", i) for i in range(5)])
    assert none_decided.cells[0].win_rate is None
    assert not none_decided.cells[0].unbalanced


def test_a_summary_follows_the_grid_and_leaves_out_other_cells() -> None:
    stray = msgspec.structs.replace(record("heroes"), heroes="nobody")
    summary = summarize(GRID, [stray])
    assert [c.cell for c in summary.cells] == list(GRID.cells())
    assert summary.played == 0


def test_bots_come_from_their_specs() -> None:
    task = GRID.tasks()[0]
    with pytest.raises(ValueError, match="unknown bot"):
        play_task(msgspec.structs.replace(task, heroes_bot="nobody"))
    assert make_bot(task.heroes_bot, 1) is not None


def test_a_record_alone_replays_its_match() -> None:
    original = play_task(GRID.tasks()[7]).record
    task = MatchTask(
        cell=original.cell,
        index=original.index,
        seed=original.seed,
        heroes_bot=original.heroes_bot,
        adversaries_bot=original.adversaries_bot,
    )
    assert play_task(task).record == original
