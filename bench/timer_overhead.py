"""(a) Timer read overhead, and the per-call cost of the callable loop.

Target: a timer read <= 25 ns.
"""

from __future__ import annotations

import time

from _util import show
from frontier_measure import _core


def python_perf_counter_ns(reads: int = 1_000_000) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter_ns()
        for _ in range(reads):
            time.perf_counter_ns()
        best = min(best, (time.perf_counter_ns() - t0) / reads)
    return best


def callable_loop_ns(loops: int = 2_000_000) -> float:
    def empty() -> None:
        return None

    return min(_core.time_callable(empty, loops).wall_ns / loops for _ in range(5))


def main() -> None:
    info = _core.clock_info()
    rows = [
        ["fm core clock read (C++ loop)", f"{info.overhead_ns:.1f}", "<= 25"],
        ["clock resolution (smallest step)", f"{info.resolution_ns:.1f}", ""],
        ["time.perf_counter_ns() from Python", f"{python_perf_counter_ns():.1f}", "(for scale)"],
        ["callable loop, empty fn, per call", f"{callable_loop_ns():.1f}", ""],
    ]
    show(f"timer overhead (clocksource {info.clocksource})", ["what", "ns", "target"], rows)


if __name__ == "__main__":
    main()
