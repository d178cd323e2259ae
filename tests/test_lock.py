"""The measurement lock: an evaluation timed in host time waits for another
holder (and says so on its progress line), its functional stage does not need
the lock, and a kernel evaluation (simulated cycles) never takes it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from eval_support import ROOT, quick_task
from frontier_measure.evaluate import evaluate
from frontier_measure.lock import measurement_lock


def _hold(lock: Path, until: threading.Event, held: threading.Event) -> None:
    with measurement_lock(lock):
        held.set()
        until.wait(300)


def test_on_wait_is_called_only_when_the_lock_is_taken(tmp_path):
    lock = tmp_path / "measurement.lock"
    called: list[int] = []
    with measurement_lock(lock, on_wait=lambda: called.append(1)) as waited:
        assert waited >= 0
    assert called == []
    held, release = threading.Event(), threading.Event()
    t = threading.Thread(target=_hold, args=(lock, release, held))
    t.start()
    assert held.wait(10)
    threading.Timer(0.3, release.set).start()
    with measurement_lock(lock, on_wait=lambda: called.append(1)) as waited:
        assert waited > 0
    t.join()
    assert called == [1]


@pytest.mark.slow
def test_host_timed_evaluation_waits_for_the_lock_and_says_so(tmp_path, monkeypatch):
    lock = tmp_path / "measurement.lock"
    monkeypatch.setenv("FM_MEASUREMENT_LOCK", str(lock))
    task = quick_task(tmp_path, "module", "dedupe")
    held, released, waits = threading.Event(), [], threading.Event()

    def holder() -> None:
        with measurement_lock():
            held.set()
            waits.wait(240)  # until the evaluation says it waits for the lock
            released.append(time.monotonic())

    t = threading.Thread(target=holder)
    t.start()
    assert held.wait(10)
    stages: list[str] = []

    def stage(what: str) -> None:
        stages.append(what)
        if what.startswith("waiting for the measurement lock"):
            waits.set()

    res = evaluate(task, progress=stage)
    finished = time.monotonic()
    t.join()
    assert res["performance"]["ran"], res["failure"]
    # The evaluation got as far as timing while the lock was held, waited, then timed.
    assert released and released[0] < finished
    assert res["performance"]["lock_wait_s"] > 0
    # While it waited, its progress line said so (not "functional").
    k = next(i for i, s in enumerate(stages) if s.startswith("waiting for the measurement lock"))
    assert "held by pid" in stages[k] and "so far" in stages[k]
    assert any(s.startswith("timing ") for s in stages[k + 1:])


@pytest.mark.needs_zig
def test_kernel_evaluation_takes_no_lock(tmp_path, monkeypatch):
    # Simulated cycles do not depend on what else the machine runs: a kernel
    # evaluation finishes while another evaluation holds the lock.
    lock = tmp_path / "measurement.lock"
    monkeypatch.setenv("FM_MEASUREMENT_LOCK", str(lock))
    held, release = threading.Event(), threading.Event()
    t = threading.Thread(target=_hold, args=(lock, release, held))
    t.start()
    try:
        assert held.wait(10)
        stages: list[str] = []
        res = evaluate(ROOT / "tasks" / "kernel" / "histogram", progress=stages.append)
        assert not release.is_set()  # the lock was held all along
    finally:
        release.set()
        t.join()
    assert res["strict_success"], res["failure"]
    assert res["performance"]["lock_wait_s"] is None
    assert not any(s.startswith("waiting for the measurement lock") for s in stages)
