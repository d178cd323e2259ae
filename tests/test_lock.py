"""The measurement lock: an evaluation's timing waits for another holder, and
its functional stage does not need the lock."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from eval_support import ROOT
from frontier_measure.evaluate import evaluate
from frontier_measure.lock import measurement_lock


def _someone_waits_on(path: Path) -> bool:
    # A blocked flock shows in /proc/locks as a line with "->" on the file's inode.
    ino = os.stat(path).st_ino
    return any("->" in line and f":{ino} " in line
               for line in Path("/proc/locks").read_text().splitlines())


def test_timing_waits_for_the_measurement_lock(tmp_path, monkeypatch):
    lock = tmp_path / "measurement.lock"
    monkeypatch.setenv("FM_MEASUREMENT_LOCK", str(lock))
    held, released = threading.Event(), []

    def holder() -> None:
        with measurement_lock():
            held.set()
            deadline = time.monotonic() + 120
            while not _someone_waits_on(lock) and time.monotonic() < deadline:
                time.sleep(0.05)
            released.append(time.monotonic())

    t = threading.Thread(target=holder)
    t.start()
    assert held.wait(10)
    res = evaluate(ROOT / "tasks" / "kernel" / "histogram")
    finished = time.monotonic()
    t.join()
    assert res["strict_success"], res["failure"]
    # The evaluation got as far as timing while the lock was held, waited, then timed.
    assert released and released[0] < finished
    assert res["performance"]["lock_wait_s"] > 0
