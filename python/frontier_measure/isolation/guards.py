"""Held-out data closed to the sides while an evaluation runs.

As root, a task's tests/ directory (cases, golden outputs) loses its group and
other permissions for as long as any evaluation of the task runs; several
evaluations of one task may overlap, so a shared record counts the holders.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .procs import alive


def _guard_file(path: Path) -> Path:
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"frontier-measure-guard-{digest}.json"


def _with_guard_state(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Run `change` on the shared guard record of `path` under an exclusive lock.
    Evaluations of the same task may overlap (several evaluators on a machine):
    the first one in closes the directory, the last one out restores its mode,
    so no evaluation's candidate can read it while another ends. Holders are
    process ids; those of evaluators that died are dropped."""
    state_path = _guard_file(path)
    fd = os.open(state_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        raw = os.read(fd, 1 << 16)
        try:
            state = json.loads(raw) if raw else {}
        except ValueError:
            state = {}
        holders = [int(p) for p in state.get("holders", []) if alive(int(p))]
        # The path, so a sweep after a crash can restore a mode no holder will.
        state = {"holders": holders, "mode": int(state.get("mode", -1)),
                 "path": str(path.resolve())}
        change(state)
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps(state).encode())
    finally:
        os.close(fd)


def guard_acquire(path: Path) -> None:
    def change(state: dict[str, Any]) -> None:
        if not state["holders"]:
            mode = stat.S_IMODE(path.stat().st_mode)
            if state["mode"] < 0 or mode & 0o077:
                state["mode"] = mode  # else: left closed by a dead holder; keep its record
            os.chmod(path, mode & 0o700)
        state["holders"].append(os.getpid())

    _with_guard_state(path, change)


def guard_release(path: Path) -> None:
    def change(state: dict[str, Any]) -> None:
        if os.getpid() in state["holders"]:
            state["holders"].remove(os.getpid())
        if not state["holders"]:
            if state["mode"] >= 0:
                os.chmod(path, state["mode"])
            state["mode"] = -1

    _with_guard_state(path, change)
