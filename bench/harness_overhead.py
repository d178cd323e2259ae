"""(f) The measurement path's own cost, and what it does to a ratio.

At module and package scale a timed batch is timed from sending its inputs to
receiving every output as plain data (decoding the inputs, dispatching the
operations and digesting the outputs happen inside the window, so no side can
work where the clock does not look). That path costs both sides the same, so
it pulls ratios towards 1; the runner measures it with a dry run in the
reference's worker and takes it off both sides.

For every bundled module and package task and each timing input, side by side
in one run:
  harness per call    the reference's dry runs' median cost per call, and per batch
  share               harness / the candidate's raw cost per call
  evaluator           the speedup frontier-measure reports (oracle vs reference)
  direct              the same calls on the same inputs timed directly, outside
                      the harness (bench/_direct.py: pairs of fresh processes
                      with the workers' interpreter and one hash seed per pair,
                      the geometric mean of the pairs' ratios and its 95%
                      interval, GC on as in the workers; each call's operations
                      compiled to straight-line Python, as a timeit snippet
                      would be)
  difference          evaluator / direct - 1; target within +-5%

Usage: python bench/harness_overhead.py [--tasks module/dedupe,...] [--repeats 31]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from _util import show
from frontier_measure import runners, stats
from frontier_measure.isolation import is_root
from frontier_measure.observe import pack
from frontier_measure.runners.module import worker_python
from frontier_measure.task import find_tasks

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent


def direct(task, runner, t, loops: int, repeats: int) -> tuple[float, float, float]:
    """The speedup timed directly, with a 95% interval: `repeats` back-to-back pairs
    of fresh processes, each pair's two processes with the same PYTHONHASHSEED (a
    different one per pair), the geometric mean of the pairs' ratios and a Student
    t interval over the pairs. The hash seed and the memory layout are per-process
    random effects: on module/csvstats single processes of the same code differed
    by up to 70% with random seeds and by 15% with one fixed seed; a pair shares the
    seed, and a ratio within a pair cancels the slow drift of a shared machine."""
    python, sitedirs = worker_python(is_root())
    calls = [t.payload(10**9 + s) for s in range(loops)]
    with tempfile.NamedTemporaryFile(suffix=".msgpack") as f:
        f.write(pack(calls))
        f.flush()
        boot = (f"import site, sys\nfor d in {sitedirs!r}: site.addsitedir(d)\n"
                f"sys.argv = sys.argv[1:]\nexec(open({str(HERE / '_direct.py')!r}).read())\n")
        logs = []
        for i in range(repeats):
            # Alternate which side goes first, so neither always follows the other.
            order = [("reference", task.reference_dir), ("candidate", task.oracle_dir)]
            cost = {}
            for side, d in order if i % 2 == 0 else order[::-1]:
                r = subprocess.run([python, "-I", "-c", boot, "_direct.py", str(d), task.entry,
                                    f.name, str(loops), "7"], capture_output=True, text=True,
                                   check=True, env={**os.environ, "PYTHONHASHSEED": str(i + 1)})
                cost[side] = float(r.stdout)
            logs.append(math.log(cost["reference"] / cost["candidate"]))
    mean = statistics.fmean(logs)
    half = stats.t_quantile(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tasks", default="", help="comma-separated scale/name (default: all), "
                    "or task directories (bench/fine_ops: 10,000 tiny operations per call)")
    ap.add_argument("--repeats", type=int, default=31, help="pairs of direct runs")
    args = ap.parse_args()
    dirs = [Path(t) if Path(t).is_dir() else ROOT / "tasks" / t
            for t in args.tasks.split(",")] if args.tasks else [
        p for p in find_tasks(ROOT / "tasks") if p.parent.name in ("module", "package")]
    rows = []
    within = overlap = 0
    for d in dirs:
        task, runner = runners.load(d)
        started = time.perf_counter()
        with runner.open_session(task, task.oracle_dir) as session:
            timings = session.time(runner.timing_inputs(task))
        inputs = {t.id: t for t in runner.timing_inputs(task)}
        for timing in timings:
            row = timing.to_dict()
            truth, lo, hi = direct(task, runner, inputs[timing.id], max(1, timing.loops),
                                   args.repeats)
            h = row["harness_ns_per_call"]
            diff = row["speedup"] / truth - 1
            within += abs(diff) <= 0.05
            # An interval may be missing (too few blocks for a claim on a busy machine).
            has_ci = row["ci_low"] is not None and row["ci_high"] is not None
            overlap += has_ci and row["ci_low"] <= hi and lo <= row["ci_high"]
            ci = f"[{row['ci_low']:.2f}, {row['ci_high']:.2f}]" if has_ci else "[no interval]"
            rows.append([f"{task.scale}/{d.name}", timing.id, f"{h / 1e3:.1f} us",
                         f"{h * timing.loops / 1e6:.2f} ms", f"{row['harness_share']:.0%}",
                         f"{row['speedup']:.3f}x {ci}",
                         f"{truth:.3f}x [{lo:.2f}, {hi:.2f}]", f"{diff:+.1%}"])
            # Each row as soon as it is known: a long run loses nothing if stopped.
            print(" | ".join(rows[-1]) + f" | load {os.getloadavg()[0]:.1f}", flush=True)
        print(f"{d.name}: {time.perf_counter() - started:.0f} s", flush=True)
    show("measurement path cost, and the evaluator's speedup next to direct timing",
         ["task", "timing input", "harness/call", "harness/batch", "share", "evaluator [95% CI]",
          "direct [95% CI]", "difference"], rows)
    print(f"\nwithin +-5%: {within}/{len(rows)}; intervals overlap: {overlap}/{len(rows)}")
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
          f"({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
