"""Stopping: SIGINT and SIGTERM end a command at any point, also while it waits
for the measurement lock, with exit status 130 / 143, leaving no process and
no result behind; and the wait for the lock is a progress step of its own
that names the holder. Real processes and real signals throughout."""

from __future__ import annotations

import fcntl
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from frontier_measure.lock import holder, measurement_lock

ROOT = Path(__file__).resolve().parents[1]
DEDUPE = ROOT / "tasks" / "module" / "dedupe"


def _hold(lock: Path) -> subprocess.Popen:
    """Another process holding the lock until it is killed."""
    p = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "time.sleep(600)\n")], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "held"
    return p


def _end(p: subprocess.Popen) -> None:
    if p.poll() is None:
        p.kill()
    p.wait()
    for stream in (p.stdout, p.stderr):
        if stream is not None:
            stream.close()


def _stderr_until(p: subprocess.Popen, needle: str, timeout: float) -> str:
    """The process's stderr up to the first line containing `needle`."""
    assert p.stderr is not None
    seen = ""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or p.poll() is not None:
            raise AssertionError(f"{needle!r} never shown (exit {p.poll()}):\n{seen[-3000:]}")
        ready, _, _ = select.select([p.stderr], [], [], min(left, 1.0))
        if ready:
            chunk = os.read(p.stderr.fileno(), 65536).decode(errors="replace")
            seen += chunk
    return seen


def _processes_with(marker: str) -> list[int]:
    """Live processes whose environment holds `marker` (this run's lock path)."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            if marker.encode() in (d / "environ").read_bytes():
                found.append(int(d.name))
        except OSError:
            continue
    return found


def test_holder_is_the_process_holding_the_lock(tmp_path):
    lock = tmp_path / "measurement.lock"
    lock.touch()
    assert holder(lock) is None
    p = _hold(lock)
    try:
        assert holder(lock) == p.pid
    finally:
        _end(p)


def test_a_waiter_is_told_who_holds_the_lock_and_for_how_long(tmp_path):
    lock = tmp_path / "measurement.lock"
    p = _hold(lock)
    told: list[tuple[int | None, float]] = []

    def waiting(pid: int | None, so_far: float) -> None:
        told.append((pid, so_far))
        if len(told) == 3:
            p.kill()

    with measurement_lock(lock, waiting=waiting) as waited:
        fd = os.open(lock, os.O_RDONLY)
        try:
            with pytest.raises(BlockingIOError):  # held by us now
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    _end(p)
    assert [pid for pid, _ in told] == [p.pid] * 3
    assert told[0][1] < told[1][1] < told[2][1] <= waited


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_an_evaluation_waiting_for_the_lock(tmp_path, sig, status):
    lock = tmp_path / "measurement.lock"
    # The evaluation's own temporary directory, to see that it leaves nothing
    # there; open to the sides' accounts, as /tmp is.
    tmp = Path(tempfile.mkdtemp(prefix="fm-stop-test-"))
    tmp.chmod(0o1777)
    out = tmp_path / "out"
    blocker = _hold(lock)
    env = {**os.environ, "FM_MEASUREMENT_LOCK": str(lock), "TMPDIR": str(tmp)}
    try:
        p = subprocess.Popen([sys.executable, "-m", "frontier_measure", "eval", str(DEDUPE),
                              "--out", str(out)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            shown = _stderr_until(p, "waiting for the measurement lock", timeout=600)
            assert f"held by pid {blocker.pid}" in shown
            p.send_signal(sig)
            p.wait(timeout=60)
        finally:
            _end(p)
    finally:
        _end(blocker)
    left = sorted(tmp.iterdir())
    shutil.rmtree(tmp)
    assert p.returncode == status
    # Nothing left: no process of the evaluation, no temporary file, no result.
    assert _processes_with(str(lock)) == []
    assert left == []
    assert not list(out.rglob("result.json"))


def test_sigterm_stops_a_comparison_while_it_times(tmp_path):
    marker = f"fm-stop-{os.getpid()}-{time.monotonic_ns()}"
    env = {**os.environ, "FM_STOP_MARKER": marker}
    p = subprocess.Popen([sys.executable, "-m", "frontier_measure", "compare", "--rounds",
                          "10000", "sleep 0.02", "sleep 0.01"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _stderr_until(p, "round", timeout=300)
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=60)
    finally:
        _end(p)
    assert p.returncode == 143
    assert _processes_with(marker) == []
