"""A load generator for benchmarks under load: worker processes that alternate
busy and idle phases of random length (5-300 ms), so the machine's load
drifts on the time scale of a comparison, as on a shared CI runner.

    with Load(2):   # about 1 CPU's worth of load on average, on every CPU
        ...
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import signal
import time


def _spin(seed: int, duty: float) -> None:
    rng = random.Random(seed)
    while True:
        busy = rng.uniform(0.005, 0.3)
        end = time.perf_counter() + busy
        while time.perf_counter() < end:
            pass
        time.sleep(busy * (1 - duty) / duty)


class Load:
    """`workers` processes, each busy `duty` of the time on average."""

    def __init__(self, workers: int, duty: float = 0.5) -> None:
        self.workers = workers
        self.duty = duty
        self.procs: list[mp.Process] = []

    def __enter__(self) -> Load:
        ctx = mp.get_context("fork")
        for k in range(self.workers):
            p = ctx.Process(target=_spin, args=(k, self.duty), daemon=True)
            p.start()
            self.procs.append(p)
        time.sleep(0.5)
        return self

    def __exit__(self, *exc: object) -> None:
        for p in self.procs:
            if p.pid:
                os.kill(p.pid, signal.SIGKILL)
            p.join()

    def describe(self) -> str:
        return (f"{self.workers} load processes, busy {self.duty:.0%} in random 5-300 ms "
                f"phases; load average {os.getloadavg()[0]:.1f}")
