"""Shared pieces of the benchmarks: the busy-loop binary, chunked callables,
and printing. Benchmarks print tables; they assert nothing."""

from __future__ import annotations

import subprocess
import sys
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


def _run_ns(exe: str, iters: int) -> int:
    from frontier_measure import _core

    spec = _core.ProcessSpec()
    spec.argv = [exe, str(iters)]
    return _core.run_process(spec).wall_ns


def iterations_for(ms: float) -> int:
    """Busy-loop iterations whose work (start-up excluded) takes about `ms` here."""
    exe = busy_binary()
    startup = min(_run_ns(exe, 0) for _ in range(5))
    n = 1_000_000
    while True:
        work = min(_run_ns(exe, n) for _ in range(3)) - startup
        if work > 20e6:
            return int(n * ms * 1e6 / work)
        n *= 4


def startup_fraction(exe: str, n: int, reps: int = 61) -> float:
    """Process start-up s as a fraction of the work W of `n` iterations, so a
    command doing k N iterations against N has true ratio (s/W + k)/(s/W + 1).
    Runs of 0 and of n iterations alternate, so both see the same machine."""
    import statistics

    empty, full = [], []
    for _ in range(reps):
        empty.append(_run_ns(exe, 0))
        full.append(_run_ns(exe, n))
    startup = statistics.median(empty)
    return startup / (statistics.median(full) - startup)


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
