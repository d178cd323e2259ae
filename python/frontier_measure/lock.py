"""The machine-wide measurement lock.

Two timed evaluations on one machine would time each other: the performance
stage of every evaluation (`evaluate`, so `frontier-measure eval`, the agent
platform and anything embedding it alike) holds this lock, an fcntl lock on a
well-known path, so it holds across processes and runs. Compliance and the
functional stage run without it: they measure nothing. Nor does a scale whose
cost is not host time (kernel: simulated cycles, the same whatever else the
machine runs) take it: its evaluations run alongside each other and alongside
a timed one.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

DEFAULT_PATH = "/tmp/frontier-measure-measurement.lock"


def lock_path() -> Path:
    return Path(os.environ.get("FM_MEASUREMENT_LOCK", DEFAULT_PATH))


@contextmanager
def measurement_lock(path: Path | None = None, *,
                     on_wait: Callable[[], None] | None = None) -> Iterator[float]:
    """Hold the lock; yields the seconds spent waiting for it. `on_wait` is
    called once if the lock is held by someone else, before waiting (so a
    progress line can say what the evaluation is doing)."""
    path = path or lock_path()
    started = time.perf_counter()
    # A new open file description per holder: flock then excludes threads of one
    # process from each other too, not only processes.
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except PermissionError:
        # Made by another account (the umask left it 0644), or refused by
        # protected_regular in a sticky /tmp: flock needs no write access,
        # and evaluators of every account must share one lock.
        fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield time.perf_counter() - started
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
