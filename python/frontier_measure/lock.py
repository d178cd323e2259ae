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

# How often a waiter tries the lock again. Waiting by polling, not in a
# blocking flock: a blocked flock cannot be interrupted from another thread,
# and between tries the waiter can say how long it has waited, and for whom.
POLL_S = 0.2

# waiting(holder_pid or None, seconds waited so far), about once a second.
Waiting = Callable[[int | None, float], None]


def lock_path() -> Path:
    """$FM_MEASUREMENT_LOCK, else the machine-wide path. The test suite sets its
    own (tests/conftest.py), so it never waits on evaluations of others."""
    return Path(os.environ.get("FM_MEASUREMENT_LOCK", DEFAULT_PATH))


def holder(path: Path) -> int | None:
    """The pid holding the lock on `path` (from /proc/locks), None if unknown."""
    try:
        ino = os.stat(path).st_ino
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        # "1: FLOCK  ADVISORY  WRITE 4242 00:2d:1234 0 EOF"; waiters' lines have "->".
        fields = line.split()
        if "->" in line or len(fields) < 6 or fields[1] != "FLOCK":
            continue
        if fields[5].rsplit(":", 1)[-1] == str(ino) and fields[4].isdigit():
            return int(fields[4])
    return None


@contextmanager
def measurement_lock(path: Path | None = None, *,
                     on_wait: Callable[[], None] | None = None,
                     waiting: Waiting | None = None) -> Iterator[float]:
    """Hold the lock; yields the seconds spent waiting for it. If another
    process holds it, `on_wait` is called once, before waiting, and while it
    waits `waiting` is told who holds it and for how long it has waited."""
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
        told, first = -1.0, True
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pass
            if first and on_wait is not None:
                on_wait()
            first = False
            waited = time.perf_counter() - started
            if waiting is not None and waited - told >= 1.0:
                waiting(holder(path), waited)
                told = waited
            time.sleep(POLL_S)
        try:
            yield time.perf_counter() - started
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
