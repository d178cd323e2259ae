"""Shared pieces of the benchmarks: the busy-loop binary, chunked callables,
and printing. Benchmarks print tables; they assert nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from frontier_measure.display import table

HERE = Path(__file__).resolve().parent
BUILD = HERE.parent / "build" / "bench"


def _compiled(name: str) -> str:
    """Compile bench/<name>.c once (static, so start-up is small and stable)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    out = BUILD / name
    src = HERE / f"{name}.c"
    if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
        subprocess.run(["cc", "-O1", "-static", "-o", str(out), str(src)], check=True)
    return str(out)


def busy_binary() -> str:
    return _compiled("busy")


def spawn_runs(argv: list[str], reps: int) -> list[tuple[int, int]]:
    """(wall, cpu) in ns of each of `reps` runs of a command, measured outside
    frontier-measure: bench/launch.c, posix_spawn from a small process."""
    out = subprocess.run([_compiled("launch"), str(reps), *argv], capture_output=True,
                         text=True, check=True).stdout
    return [(int(w), int(c)) for w, c in (line.split() for line in out.splitlines())]


def outside_ratio(slow: list[str], fast: list[str], reps: int = 60) -> float:
    """The true ratio of two CPU-bound commands, start-up included, measured
    outside the instrument under test: the ratio of the CPU time the kernel
    charged each (on a quiet machine it is the wall ratio; unlike wall time
    it hardly moves under load), from alternating bursts of runs."""
    import statistics

    a: list[int] = []
    b: list[int] = []
    for _ in range(6):
        a += [c for _, c in spawn_runs(slow, reps // 6)]
        b += [c for _, c in spawn_runs(fast, reps // 6)]
    return statistics.median(a) / statistics.median(b)


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
