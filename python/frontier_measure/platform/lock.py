"""The machine-wide measurement lock.

Agents may run side by side, but two timed evaluations on one machine would time
each other: every evaluation the platform runs holds this lock (an fcntl lock on
a well-known path, so it also holds across processes and runs), so verdicts are
as clean as a single `frontier-measure eval`.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DEFAULT_PATH = "/tmp/frontier-measure-measurement.lock"


def lock_path() -> Path:
    return Path(os.environ.get("FM_MEASUREMENT_LOCK", DEFAULT_PATH))


@contextmanager
def measurement_lock(path: Path | None = None) -> Iterator[float]:
    """Hold the lock; yields the seconds spent waiting for it."""
    path = path or lock_path()
    started = time.perf_counter()
    # A new open file description per holder: flock then excludes threads of one
    # process from each other too, not only processes.
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield time.perf_counter() - started
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
