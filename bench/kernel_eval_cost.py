"""What a kernel evaluation costs in the evaluator's time, side by side in one run.

1. The functional stage with the simulator's timing model on (as timed runs
   are, so the cycle counter cannot tell a checked run from a timed one)
   against the same stage with it off, per kernel task: CPU time of the
   candidate's held-out cases, best of 3, alternated.
2. The sandboxed build: compiling the candidate's sources in a sandbox of its
   own (runners/kernel_build.py) against the same compile on the host, with
   empty object caches, best of 3, alternated.

Prints ratios with the load average (the machine is shared: absolute times
move with the load, ratios measured in the same minute much less).

Usage: python bench/kernel_eval_cost.py [TASK ...]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _util import show
from frontier_measure import runners
from frontier_measure.runners import kernel, kernel_build

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [*sorted((ROOT / "tasks" / "kernel").iterdir()),
           *sorted((ROOT / "tasks" / "suite" / "kernel").iterdir())]


def _cpu(fn) -> float:
    t0 = time.thread_time()
    fn()
    return time.thread_time() - t0


def functional_cost(task_dir: Path) -> tuple[float, float, int]:
    task, runner = runners.load(task_dir)
    cases = runner.cases(task)
    with runner.open_session(task, task.oracle_dir) as session:
        session.build("candidate")
        elf = session._elf("candidate")
        prog = kernel._program(elf)

        def run(timing: bool) -> None:
            for c in cases:
                kernel.sim.run(prog, stdin=c.payload, machine=task.settings.machine,
                               argv=["kernel"], max_instructions=task.settings.max_instructions,
                               timing=timing)

        off, on = [], []
        for _ in range(3):
            off.append(_cpu(lambda: run(False)))
            on.append(_cpu(lambda: run(True)))
    return min(off), min(on), len(cases)


def build_cost(task_dir: Path) -> tuple[float, float]:
    task, _ = runners.load(task_dir)
    s = task.settings
    staged = kernel.stage(task, task.oracle_dir)
    tc = kernel_build.toolchain()
    host, boxed = [], []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            for src in s.sources:
                subprocess.run([*tc.host_argv, "-c", s.opt, "-I", str(staged), "-H", "-MD",
                                "-MF", f"{tmp}/k.d", str(staged / src), "-o", f"{tmp}/k.o"],
                               capture_output=True, check=True)
            host.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            kernel_build.compile_side(staged, s.sources, s.opt, s.rules.allowed_headers,
                                      Path(tmp) / "cache", "candidate")
            boxed.append(time.perf_counter() - t0)
    return min(host), min(boxed)


def main() -> None:
    tasks = [Path(a) for a in sys.argv[1:]] or DEFAULT
    load0 = os.getloadavg()[0]
    rows_f, rows_b = [], []
    for t in tasks:
        off, on, n = functional_cost(t)
        rows_f.append([t.name, n, f"{off:.2f}", f"{on:.2f}", f"{on / off:.2f}x"])
        host, boxed = build_cost(t)
        rows_b.append([t.name, f"{host:.2f}", f"{boxed:.2f}", f"+{boxed - host:.2f}"])
    load1 = os.getloadavg()[0]
    show("functional stage, candidate's held-out cases (CPU s, best of 3)",
         ["task", "cases", "timing off", "timing on", "on/off"], rows_f)
    show("compiling the candidate (wall s, best of 3)",
         ["task", "on the host", "in its sandbox", "difference"], rows_b)
    print(f"load average {load0:.1f} at the start, {load1:.1f} at the end")


if __name__ == "__main__":
    main()
