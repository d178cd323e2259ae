"""Differential fuzzing's cost: one worker per side for a target's drawn
inputs, against two fresh workers per input (the path before), in one run.

The task is module/dedupe with a tests/fuzz.py of its own (a target of 100
drawn lists of small ints, as tests/test_fuzz_differential.py uses); the
candidate is the task's oracle, so no input differs and all 100 are run. Each
path runs `fuzz.differential` on the same session, alternately, `--repeats`
times; the table gives each path's median wall time and the ratio.

Usage: python bench/fuzz_workers.py [--repeats 2] [--examples 100]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from _util import show
from frontier_measure import fuzz, runners

ROOT = Path(__file__).resolve().parent.parent

FUZZ = '''
from hypothesis import strategies as st


def targets():
    lists = st.lists(st.integers(-5, 5), max_size=40)
    return [{{"id": "small-ints", "examples": {examples},
             "strategy": lists.map(lambda xs: {{"call": "dedupe", "args": [xs]}})}}]
'''


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--examples", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        task_dir = Path(tmp) / "dedupe"
        shutil.copytree(ROOT / "tasks" / "module" / "dedupe", task_dir)
        (task_dir / "tests" / "fuzz.py").write_text(FUZZ.format(examples=args.examples))
        task, runner = runners.load(task_dir)
        found = fuzz.targets(task)
        held = fuzz._held
        paths = {
            "two fresh workers per input (before)": lambda s: contextlib.nullcontext(),
            "one worker per side per target": held,
        }
        times: dict[str, list[float]] = {k: [] for k in paths}
        tried: dict[str, int] = {}
        with runner.open_session(task, task.oracle_dir) as session:
            for _ in range(args.repeats):
                for name, hold in paths.items():
                    fuzz._held = hold
                    t0 = time.perf_counter()
                    [outcome] = fuzz.differential(session, task, found)
                    times[name].append(time.perf_counter() - t0)
                    assert outcome["difference"] is None, outcome
                    tried[name] = outcome["examples"]
        fuzz._held = held
    base = statistics.median(times["two fresh workers per input (before)"])
    rows = [[name, str(tried[name]), f"{statistics.median(ts):.1f} s",
             " ".join(f"{t:.1f}" for t in ts), f"{base / statistics.median(ts):.1f}x"]
            for name, ts in times.items()]
    load = os.getloadavg()
    show(f"fuzzing module/dedupe, oracle vs reference (load {load[0]:.1f} {load[1]:.1f} "
         f"{load[2]:.1f}, {os.cpu_count()} CPUs)",
         ["path", "inputs", "median", "each run (s)", "faster than before"], rows)


if __name__ == "__main__":
    main()
