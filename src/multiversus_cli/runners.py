"""Where a simulation's matches are played: local worker processes, or a Dask cluster.

Both runners take the same tasks, of any game's grid (a
:class:`~multiversus_core.engine.simulation.Task`: Multiversus'
:class:`~multiversus_core.rulesets.multiversus.simulation.MatchTask`, any game's
:class:`~multiversus_core.engine.simulation.GameTask`),
play them in batches (one scheduled job per batch, so scheduling costs little),
and hand every result to a callback, in the calling thread, as its batch
comes back. Which runner plays a task never changes its result.

A worker that dies takes its batch with it. The local runner then plays
every match that was in flight alone, one at a time, so the match that
kills its worker is known: it is tried once more and then recorded as
``worker_died``. On Dask the scheduler retries a dead worker's tasks
itself; a batch it gives up on (``KilledWorker``) is split into single
matches, a single match it gives up on is played again alone (it may only
have shared a worker with the match that killed it), and a match it gives
up on when played alone is recorded as ``worker_died``.
Either way each match is reported exactly once.

Nothing is left running when the program is killed (kill -9 included):
local workers end with it, and on Dask, where the scheduler cancels the
tasks of a client that went away, a batch under way stops after its match.

Dask is imported only by :class:`DaskRunner`.
"""

from __future__ import annotations

import contextlib
import functools
import math
import multiprocessing
import os
import select
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any, Final, Protocol

from multiversus_core.engine import simulation
from multiversus_core.engine.simulation import MatchResult, Task

Play = Callable[[Any], MatchResult]
"""Plays one task (a module-level function, so that it pickles by name); by default
:func:`~multiversus_core.engine.simulation.play`, the task's own play."""
Batch = tuple[Task, ...]

MAX_BATCH: Final = 25
"""The most matches one batch holds."""
BATCHES_PER_WORKER: Final = 16
"""Batches per worker a run is cut into, at least, so the work spreads evenly to the end."""
IN_FLIGHT_PER_WORKER: Final = 2
"""Batches submitted ahead per worker: enough to keep it busy, few to wait for at Ctrl-C."""
TRIES: Final = 2
"""Times a match is played alone before its worker's death is blamed on it."""
CLOSE_TIMEOUT: Final = 10
"""Seconds a worker process gets to exit when a pool is closed."""
POLL: Final = 0.2
"""Seconds between checks for Ctrl-C while waiting for results."""


class Runner(Protocol):
    """Plays tasks and reports each result once."""

    workers: int
    """How many matches it plays at once."""

    def run(
        self,
        tasks: Sequence[Task],
        report: Callable[[MatchResult], None],
        stopping: Callable[[], bool],
    ) -> None:
        """Play the tasks, calling ``report`` once per task, until done or ``stopping()``.

        When ``stopping()`` turns true no new batch starts; batches under way
        are waited for and reported.
        """
        ...

    def close(self, wait: bool = True) -> None:
        """Let go of the workers (or the cluster); ``wait=False`` does not wait for batches."""
        ...


def batch_size(tasks: int, workers: int) -> int:
    """Matches per batch: at least :data:`BATCHES_PER_WORKER` batches a worker, at most 25 each."""
    return max(1, min(MAX_BATCH, math.ceil(tasks / (workers * BATCHES_PER_WORKER))))


def split(tasks: Sequence[Task], size: int) -> deque[Batch]:
    """The tasks in consecutive batches of ``size``."""
    return deque(tuple(tasks[i : i + size]) for i in range(0, len(tasks), size))


# --- in a worker process -------------------------------------------------------

_interrupted = False


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    global _interrupted
    _interrupted = True


def _worker_init(main: int) -> None:
    """In each worker: Ctrl-C ends the batch after the match under way, without a traceback;
    and the worker dies with ``main``, the process that asked for it, whatever kills that
    (kill -9 included): no worker is left behind, nor the fork server and resource tracker,
    which end once no worker holds them."""
    signal.signal(signal.SIGINT, _on_interrupt)
    threading.Thread(
        target=_die_with, args=(main,), name="watch the main process", daemon=True
    ).start()


def _die_with(main: int) -> None:
    """Wait for process ``main`` to end, then end this process at once."""
    try:
        handle = os.pidfd_open(main)  # Linux 5.3+: readable once the process has ended
    except ProcessLookupError:
        os._exit(1)  # already gone
    except (AttributeError, OSError):  # elsewhere: ask every second
        while _alive(main):
            time.sleep(1.0)
        os._exit(1)
    select.select([handle], [], [])
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def play_batch(
    play: Play, batch: Batch, wanted: Callable[[], bool] = lambda: True
) -> list[MatchResult]:
    """Play a batch of tasks in order; after a Ctrl-C, or once ``wanted()`` turns false,
    return the ones played so far."""
    results: list[MatchResult] = []
    for task in batch:
        if _interrupted or not wanted():
            break
        results.append(play(task))
    return results


def play_dask_batch(play: Play, batch: Batch) -> list[MatchResult]:
    """On a Dask worker, play a batch as :func:`play_batch` does, stopping between matches
    once nobody wants it: the scheduler cancels the task of a client that went away (killed
    with -9 included), but cannot stop a task under way; this stops it after its match."""
    import distributed

    worker = distributed.get_worker()
    key = worker.get_current_task()

    def wanted() -> bool:
        task = worker.state.tasks.get(key)
        return task is not None and task.state != "cancelled"

    return play_batch(play, batch, wanted)


# --- local processes ---------------------------------------------------------


class LocalRunner:
    """Plays matches in ``workers`` processes of this machine."""

    def __init__(self, workers: int, play: Play = simulation.play) -> None:
        self.workers = workers
        self._play = play
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        if self._pool is not None:
            _end(self._pool, wait=False)  # broken: what ran in it is played again
        # forkserver: workers start clean, never forked from a thread holding a lock.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__, self._play_module()])
        self._pool = ProcessPoolExecutor(
            self.workers, context, initializer=_worker_init, initargs=(os.getpid(),)
        )
        return self._pool

    def _play_module(self) -> str:
        play = self._play
        while isinstance(play, functools.partial):
            play = play.func
        return getattr(play, "__module__", None) or __name__

    def run(
        self,
        tasks: Sequence[Task],
        report: Callable[[MatchResult], None],
        stopping: Callable[[], bool],
    ) -> None:
        queue = split(tasks, batch_size(len(tasks), self.workers))
        suspects: deque[Task] = deque()
        tries: dict[tuple[Any, int], int] = {}
        pool = self._pool or self._new_pool()
        in_flight: dict[Future[list[MatchResult]], Batch] = {}
        isolated: Future[list[MatchResult]] | None = None  # a suspect, played with nothing else
        while in_flight or ((queue or suspects) and not stopping()):
            try:
                if suspects and not in_flight:
                    # After a death, matches that were under way are played alone.
                    isolated = pool.submit(play_batch, self._play, (suspects[0],))
                    in_flight[isolated] = (suspects.popleft(),)
                while (
                    isolated is None
                    and not suspects
                    and queue
                    and not stopping()
                    and len(in_flight) < self._ahead
                ):
                    batch = queue.popleft()
                    try:
                        in_flight[pool.submit(play_batch, self._play, batch)] = batch
                    except BrokenProcessPool:
                        queue.appendleft(batch)
                        raise
            except BrokenProcessPool:  # a worker died since the last wait: its futures say which
                if not in_flight:
                    pool = self._new_pool()
            done, _ = wait(in_flight, timeout=POLL, return_when=FIRST_COMPLETED)
            broken: list[Batch] = []
            for future in done:
                batch = in_flight.pop(future)
                if future is isolated:
                    isolated = None
                try:
                    results = future.result()
                except BrokenProcessPool:
                    broken.append(batch)
                    continue
                for result in results:
                    report(result)
            if broken:
                broken.extend(in_flight.values())  # the whole pool went down with it
                in_flight.clear()
                isolated = None
                alone = len(broken) == 1 and len(broken[0]) == 1
                for task in (t for batch in broken for t in batch):
                    if alone:
                        tries[task.key] = tries.get(task.key, 0) + 1
                        if tries[task.key] >= TRIES:
                            report(MatchResult(record=task.died(tries[task.key])))
                            continue
                    suspects.append(task)
                pool = self._new_pool()

    @property
    def _ahead(self) -> int:
        return self.workers * IN_FLIGHT_PER_WORKER

    def close(self, wait: bool = True) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            _end(pool, wait)


def _end(pool: ProcessPoolExecutor, wait: bool) -> None:
    """Shut a pool down; its workers get :data:`CLOSE_TIMEOUT` seconds with ``wait``, else none.

    A worker still running then is terminated: after another worker died,
    Python 3.11's pool would otherwise wait for it forever.
    """
    processes = list((pool._processes or {}).values())  # private, but no other handle exists
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + (CLOSE_TIMEOUT if wait else 0)
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.terminate()
            process.join(CLOSE_TIMEOUT)


# --- Dask ----------------------------------------------------------------------

INSTALL_DASK: Final = "--scheduler needs Dask: pip install 'multiversus[cluster]'"
CONNECT_TIMEOUT: Final = 5
"""Seconds to wait for a scheduler before giving up."""


class ClusterError(Exception):
    """Dask is missing, the scheduler cannot be reached, or its workers cannot play."""


class DaskRunner:
    """Plays matches on a Dask distributed cluster, through its scheduler."""

    def __init__(self, address: str, play: Play = simulation.play) -> None:
        """Connect to the scheduler at ``address``.

        :raises ClusterError: if Dask is not installed, the scheduler cannot be
            reached within :data:`CONNECT_TIMEOUT` seconds, or a worker cannot
            import this engine.
        """
        try:
            import distributed
            from distributed.comm.addressing import get_address_host_port
        except ImportError:
            raise ClusterError(INSTALL_DASK) from None
        self._distributed = distributed
        self._play = play
        try:
            # A malformed address fails here, before a half-made client lingers until exit.
            get_address_host_port(address)
        except ValueError as exc:
            raise ClusterError(f"not a Dask scheduler address {address!r}: {exc}") from None
        except NotImplementedError:  # a transport without host and port: let the client try
            pass
        try:
            # Dask's Client and its methods are not annotated.
            self._client = distributed.Client(  # type: ignore[no-untyped-call]
                address, timeout=CONNECT_TIMEOUT, set_as_default=False
            )
        except (OSError, TimeoutError, ValueError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
        try:
            self._check_workers()
        except BaseException:
            self._client.close()  # type: ignore[no-untyped-call]
            raise
        self.workers = max(1, sum(self._client.nthreads().values()))  # type: ignore[no-untyped-call]

    def _check_workers(self) -> None:
        import multiversus_core

        deadline = time.monotonic() + CONNECT_TIMEOUT
        while not self._client.nthreads():  # type: ignore[no-untyped-call]
            if time.monotonic() > deadline:
                raise ClusterError("the Dask scheduler has no worker")
            time.sleep(0.1)
        try:
            versions = self._client.run(_engine_version)
        except Exception as exc:
            reason = " ".join(f"{type(exc).__name__}: {exc}".split())
            raise ClusterError(
                f"a Dask worker cannot run this engine ({reason}); "
                "install multiversus on every worker"
            ) from None
        for worker, version in sorted(versions.items()):
            if version != multiversus_core.__version__:
                raise ClusterError(
                    f"the Dask worker {worker} runs engine {version}, not "
                    f"{multiversus_core.__version__}; install the same multiversus everywhere"
                )

    def run(
        self,
        tasks: Sequence[Task],
        report: Callable[[MatchResult], None],
        stopping: Callable[[], bool],
    ) -> None:
        distributed = self._distributed
        queue = split(tasks, batch_size(len(tasks), self.workers))
        suspects: deque[Task] = deque()
        in_flight: dict[Any, Batch] = {}
        isolated: Any = None  # a suspect, played with nothing else on the cluster
        while in_flight or ((queue or suspects) and not stopping()):
            if suspects and not in_flight:
                # A match the scheduler gave up on may only have shared a dying worker:
                # played alone, only the match that kills its worker fails again.
                task = suspects.popleft()
                isolated = self._client.submit(play_dask_batch, self._play, (task,), pure=False)
                in_flight[isolated] = (task,)
            while (
                isolated is None
                and not suspects
                and queue
                and not stopping()
                and len(in_flight) < self.workers * IN_FLIGHT_PER_WORKER
            ):
                batch = queue.popleft()
                future = self._client.submit(play_dask_batch, self._play, batch, pure=False)
                in_flight[future] = batch
            with contextlib.suppress(TimeoutError), self._client.as_current():
                distributed.wait(list(in_flight), timeout=POLL, return_when="FIRST_COMPLETED")
            for future in [f for f in in_flight if f.done()]:
                batch = in_flight.pop(future)
                alone = future is isolated
                if alone:
                    isolated = None
                if future.status == "finished":
                    for result in future.result():
                        report(result)
                    continue
                exc = future.exception()
                if not isinstance(exc, distributed.KilledWorker):
                    future.result()  # raises: a broken cluster, not a match
                if len(batch) > 1:
                    queue.extendleft((task,) for task in reversed(batch))
                elif alone:
                    report(MatchResult(record=batch[0].died(self._tries)))
                else:
                    suspects.append(batch[0])

    @property
    def _tries(self) -> int:
        import dask

        return 1 + int(dask.config.get("distributed.scheduler.allowed-failures"))

    def close(self, wait: bool = True) -> None:
        self._client.close()  # type: ignore[no-untyped-call]


def _engine_version() -> str:
    import multiversus_core

    return multiversus_core.__version__


def local_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
