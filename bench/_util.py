"""Shared pieces of the benchmarks: the busy-loop binary, chunked callables,
and printing. Benchmarks print tables; they assert nothing."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from frontier_measure.display import table

HERE = Path(__file__).resolve().parent
BUILD = HERE.parent / "build" / "bench"


def busy_binary() -> str:
    """Compile bench/busy.c once (static, so start-up is small and stable)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    out = BUILD / "busy"
    src = HERE / "busy.c"
    if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
        subprocess.run(["cc", "-O1", "-static", "-o", str(out), str(src)], check=True)
    return str(out)


def iterations_for(ms: float) -> int:
    """Busy-loop iterations that take about `ms` milliseconds here."""
    exe = busy_binary()
    n = 1_000_000
    while True:
        t0 = time.perf_counter()
        subprocess.run([exe, str(n)], check=True)
        dt = time.perf_counter() - t0
        if dt > 0.02:
            return int(n * ms / 1000.0 / dt)
        n *= 4


def startup_fraction(exe: str, n: int, reps: int = 31) -> float:
    """Process start-up s as a fraction of the work W of `n` iterations, so a
    command doing k N iterations against N has true ratio (s/W + k)/(s/W + 1).
    Medians of many runs, measured through the core's process runner."""
    import statistics

    from frontier_measure import _core

    def median_ns(iters: int) -> float:
        s = _core.ProcessSpec()
        s.argv = [exe, str(iters)]
        return statistics.median(_core.run_process(s).wall_ns for _ in range(reps))

    startup = median_ns(0)
    return startup / (median_ns(n) - startup)


def true_ratio(k: float, fraction: float) -> float:
    return (fraction + k) / (fraction + 1.0)


def chunks(k: int, size: int = 2000):
    """A callable doing k identical chunks of work: cost is k x chunk exactly,
    up to one call's fixed overhead, so 11 vs 10 chunks is a true 1.10 ratio."""

    def run() -> int:
        total = 0
        for _ in range(k):
            total += sum(range(size))
        return total

    return run


def show(title: str, headers: list[str], rows: list[list[object]]) -> None:
    print(f"\n## {title}\n")
    print(table(headers, rows))
    sys.stdout.flush()
