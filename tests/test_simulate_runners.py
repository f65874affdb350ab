"""Where matches run never changes them: one local worker, two, and a real Dask cluster.

The cluster is a real ``dask.distributed.LocalCluster`` of two worker
processes; a worker is killed for real (``os._exit``) mid-run to show its
matches are played again, or reported, and never lost or counted twice.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from multiversus_cli.runners import DaskRunner, LocalRunner, Play, Runner, batch_size
from multiversus_core.rulesets.multiversus.simulation import (
    Grid,
    MatchRecord,
    MatchResult,
    MatchTask,
    play_task,
)
from tests import simulate_faults

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

GRID = Grid(
    heroes=("banner-knight", "witch-hunters"),
    adversaries=("smogon", "swartzblak"),
    heroes_bot="random",
    adversaries_bot="random",
    matches=4,
    seed=5,
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Dask cluster of two single-threaded worker processes; its scheduler's address.

    A task is given up after it killed two workers, to keep the test short.
    """
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 1}),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        ) as local,
    ):
        yield local.scheduler_address


def run(runner: Runner, tasks: Sequence[MatchTask]) -> list[MatchRecord]:
    results: list[MatchResult] = []
    try:
        runner.run(tasks, results.append, lambda: False)
    finally:
        runner.close()
    return [r.record for r in results]


def by_key(records: Sequence[MatchRecord]) -> dict[object, MatchRecord]:
    keyed = {r.key: r for r in records}
    assert len(keyed) == len(records), "a match was reported twice"
    return keyed


def test_one_worker_two_workers_and_a_dask_cluster_give_the_same_matches(cluster: str) -> None:
    tasks = GRID.tasks()
    expected = {t.key: play_task(t).record for t in tasks}
    one = run(LocalRunner(1), tasks)
    two = run(LocalRunner(2), tasks)
    on_dask = run(DaskRunner(cluster), tasks)
    backwards = run(LocalRunner(2), tasks[::-1])
    assert by_key(one) == expected
    assert by_key(two) == expected
    assert by_key(on_dask) == expected
    assert by_key(backwards) == expected


def _dies_once(tmp_path: Path, tasks: Sequence[MatchTask]) -> Play:
    return functools.partial(
        simulate_faults.play_or_die, seeds={tasks[3].seed, tasks[10].seed}, once_in=str(tmp_path)
    )


def test_a_local_worker_that_dies_has_its_matches_played_again(tmp_path: Path) -> None:
    tasks = GRID.tasks()
    records = run(LocalRunner(2, _dies_once(tmp_path, tasks)), tasks)
    assert by_key(records) == {t.key: play_task(t).record for t in tasks}
    assert len(list(tmp_path.iterdir())) == 2  # both matches did kill their worker once


def test_a_dask_worker_that_dies_has_its_matches_played_again(cluster: str, tmp_path: Path) -> None:
    tasks = GRID.tasks()
    records = run(DaskRunner(cluster, _dies_once(tmp_path, tasks)), tasks)
    assert by_key(records) == {t.key: play_task(t).record for t in tasks}
    assert len(list(tmp_path.iterdir())) == 2


def _always_dies(tasks: Sequence[MatchTask]) -> Play:
    return functools.partial(simulate_faults.play_or_die, seeds={tasks[7].seed})


def _check_killer_reported(records: Sequence[MatchRecord], tasks: Sequence[MatchTask]) -> None:
    keyed = by_key(records)
    assert keyed.keys() == {t.key for t in tasks}
    killer = keyed[tasks[7].key]
    assert killer.failed
    assert killer.reason == "worker_died"
    assert killer.seed == tasks[7].seed
    assert "worker process died" in (killer.error or "")
    for task in tasks:
        if task is not tasks[7]:
            assert keyed[task.key] == play_task(task).record


def test_a_match_that_kills_every_local_worker_is_reported_and_the_rest_played() -> None:
    tasks = GRID.tasks()
    _check_killer_reported(run(LocalRunner(2, _always_dies(tasks)), tasks), tasks)


def test_a_match_that_kills_every_dask_worker_is_reported_and_the_rest_played(
    cluster: str,
) -> None:
    tasks = GRID.tasks()
    _check_killer_reported(run(DaskRunner(cluster, _always_dies(tasks)), tasks), tasks)


def test_a_stopped_run_reports_only_whole_batches_and_nothing_twice() -> None:
    tasks = GRID.tasks()
    results: list[MatchResult] = []
    runner = LocalRunner(2)
    try:
        runner.run(tasks, results.append, lambda: len(results) > 0)
    finally:
        runner.close()
    records = [r.record for r in results]
    assert 0 < len(records) < len(tasks)
    expected = {t.key: play_task(t).record for t in tasks}
    assert all(expected[k] == r for k, r in by_key(records).items())


def test_batches_are_small_enough_to_spread_and_never_empty() -> None:
    assert batch_size(1, 4) == 1
    assert batch_size(64, 2) == 2
    assert batch_size(640, 2) == 20
    assert batch_size(100_000, 2) == 25


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_simulate_leaves_no_worker_fork_server_or_resource_tracker() -> None:
    # simulate on two local workers: its fork server, resource tracker and workers run below
    # it. Killed with SIGKILL, it cannot clean up; they must end by themselves all the same.
    command = [sys.executable, "-m", "multiversus_cli.app", "simulate", "--game", "tiles-d6",
               "--players", "random,random", "--matches", "400", "--workers", "2", "--quiet"]  # fmt: skip
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    below: list[int] = []
    while time.monotonic() < deadline and len(below) < 4:  # tracker, fork server, 2 workers
        time.sleep(0.2)
        below = _descendants(child.pid)
    assert len(below) >= 4, below
    child.kill()
    child.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_running(pid) for pid in below):
        time.sleep(0.2)
    left = [pid for pid in below if _running(pid)]
    for pid in left:  # clean up before failing
        os.kill(pid, signal.SIGKILL)
    assert left == []


def _busy(watch: distributed.Client) -> tuple[int, int]:
    """The tasks the cluster's workers are executing, and those its scheduler holds."""
    executing = watch.run(lambda dask_worker: len(dask_worker.state.executing))
    held = watch.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
    return sum(executing.values()), held


def test_kill_9_of_a_dask_simulate_stops_its_matches_on_the_cluster(cluster: str) -> None:
    # Batches of 25 heuristic matches take minutes; a batch whose client is killed must stop
    # after the match under way (seconds), not play on to its end.
    command = [sys.executable, "-m", "multiversus_cli.app", "simulate", "--game", "tiles-d6",
               "--players", "heuristic,heuristic", "--matches", "800", "--scheduler", cluster,
               "--quiet"]  # fmt: skip
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with distributed.Client(cluster, set_as_default=False) as watch:
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and _busy(watch)[0] < 2:
                time.sleep(0.2)
            assert _busy(watch)[0] == 2, "both workers play a batch"
            time.sleep(1.0)
        finally:
            child.kill()
            child.wait()
        killed = time.monotonic()
        while time.monotonic() < killed + 120 and (busy := _busy(watch)) != (0, 0):
            time.sleep(0.2)
        stopped = time.monotonic() - killed
    assert busy == (0, 0)
    assert stopped < 30, f"the cluster played on for {stopped:.0f} s after its client died"
