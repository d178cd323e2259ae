"""(g) What the process runner adds to each command it measures, against a
bare posix_spawn from a small process (bench/launch.c), side by side in one
run (the ways interleaved in bursts, so machine drift hits all alike).

  bare posix_spawn      launch.c: posix_spawn + wait4 in a tiny static process
  runner                frontier-measure's runner as compare() and the local
                        backend use it: clone(CLONE_VM|CLONE_VFORK), no counters
  runner + counters     the same with software counters: fork, held before exec

Columns: median wall and CPU (user + sys charged to the command) per run, and
the CPU the runner adds. A forked child of a large process (the evaluator has
numpy and more loaded) pays for tearing down its copy of that address space at
exec, inside the measured window; the vfork start does not.

Usage: python bench/launch_overhead.py [--runs 300]
"""

from __future__ import annotations

import argparse
import statistics

import numpy  # noqa: F401  (the evaluator's process is this large in real use)

from _util import busy_binary, show, spawn_runs
from frontier_measure import _core


def runner(argv: list[str], counters: list[str]) -> tuple[int, int]:
    s = _core.ProcessSpec()
    s.argv = argv
    s.counters = counters
    r = _core.run_process(s)
    return r.wall_ns, r.user_ns + r.sys_ns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=300)
    args = ap.parse_args()
    rows = []
    for label, argv in (("/bin/true", ["/bin/true"]),
                        ("busy loop, 1e5 iterations", [busy_binary(), "100000"])):
        ways: dict[str, list[tuple[int, int]]] = {"bare posix_spawn": [], "runner": [],
                                                  "runner + counters": []}
        burst = 20
        for _ in range(max(1, args.runs // burst)):
            ways["bare posix_spawn"] += spawn_runs(argv, burst)
            ways["runner"] += [runner(argv, []) for _ in range(burst)]
            ways["runner + counters"] += [runner(argv, ["task-clock"]) for _ in range(burst)]
        bare_cpu = statistics.median(c for _, c in ways["bare posix_spawn"])
        for way, runs in ways.items():
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            rows.append([label, way, f"{wall / 1e6:.3f} ms", f"{cpu / 1e6:.3f} ms",
                         f"{(cpu - bare_cpu) / 1e6:+.3f} ms"])
    show(f"launch overhead per command ({args.runs} runs per way)",
         ["command", "way", "wall", "CPU", "CPU added"], rows)


if __name__ == "__main__":
    main()
