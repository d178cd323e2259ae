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


def outside_ratio(slow: list[str], fast: list[str], pairs: int = 200) -> tuple[float, float]:
    """The true ratio of two commands' wall times, start-up included, measured
    outside the instrument under test (bench/launch.c: posix_spawn from a small
    process, the two commands alternating A B, B A), with the half-width of its
    95% interval (as a factor): the geometric mean of the pairs' ratios, so
    drift of the machine between runs cancels as it does in the evaluator's
    own rounds. Bursts of one command then the other, compared by their
    medians, moved by 1-2% from one burst to the next on a quiet machine."""
    import math
    import statistics

    out = subprocess.run([_compiled("launch"), str(pairs), *slow, "--", *fast],
                         capture_output=True, text=True, check=True).stdout
    runs = [(line[0], int(line.split()[1])) for line in out.splitlines()]
    logs = [math.log(runs[i][1] / runs[i + 1][1]) if runs[i][0] == "A"
            else math.log(runs[i + 1][1] / runs[i][1]) for i in range(0, len(runs), 2)]
    half = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(statistics.fmean(logs)), math.exp(half)


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
