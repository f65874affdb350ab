"""Faults for the simulation tests: bots that raise, and matches that kill their worker.

Workers import these by name (they are module-level functions, bound with
``functools.partial``), so they run in real worker processes, local or Dask.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from multiversus_core.rulesets.multiversus.bots.specs import Bot, make_bot
from multiversus_core.rulesets.multiversus.commands import Command
from multiversus_core.rulesets.multiversus.simulation import (
    MatchResult,
    MatchTask,
    bot_seed,
    play_task,
)

FAIL_AT = 40
"""The choice at which a failing bot raises."""


class FailingBot:
    """Plays like the bot it wraps, then raises at its ``FAIL_AT``-th choice."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self._choices = 0

    def choose(self, *args: Any) -> Command:
        self._choices += 1
        if self._choices == FAIL_AT:
            raise RuntimeError("the bot broke down")
        command: Command = self._bot.choose(*args)
        return command


def make_failing(spec: str, seed: int, *, seeds: Collection[int]) -> Bot:
    """``make_bot``, but the bots seeded with one of ``seeds`` fail mid-match."""
    bot = make_bot(spec, seed)
    return FailingBot(bot) if seed in seeds else bot


def failing_runner(task: MatchTask, workers: int) -> Callable[[Any, Any], Any]:
    """A stand-in for ``multiversus_cli.simulate._runner``: ``workers`` local processes whose
    Adversaries' bot fails mid-match in the match of ``task``."""
    from multiversus_cli import runners

    make = functools.partial(make_failing, seeds={bot_seed(task.seed, "adversaries")})
    play = functools.partial(play_task, make=make)
    return lambda scheduler, _workers: runners.LocalRunner(workers, play)


def play_or_die(
    task: MatchTask, *, seeds: Collection[int], once_in: str | None = None
) -> MatchResult:
    """Play the task, but kill this worker process on the matches seeded with ``seeds``.

    With ``once_in`` (a folder), each such match kills its worker only the
    first time it is played, leaving a mark there; without, every time.
    """
    if task.seed in seeds:
        mark = Path(once_in, str(task.seed)) if once_in is not None else None
        if mark is None or not mark.exists():
            if mark is not None:
                mark.touch()
            os._exit(70)
    return play_task(task)
