"""(f) The measurement path's own cost, and what it does to a ratio.

At module and package scale a timed batch is timed from sending its inputs to
receiving every output as plain data (decoding the inputs, dispatching the
operations and digesting the outputs happen inside the window, so no side can
work where the clock does not look). That path costs both sides the same, so
it pulls ratios towards 1; the runner measures it with a dry run in the
reference's worker and takes it off both sides.

For every bundled module and package task and each timing input, side by side
in one run:
  harness per call    the dry run's median cost per call (ns), and per batch
  share               harness / the candidate's raw cost per call
  evaluator           the speedup frontier-measure reports (oracle vs reference):
                      every batch less the latest dry run of the reference
  smallest dry run    the same rounds refitted with the rule used before: every
                      batch less the smallest dry run of its block (from the
                      raw and dry times the round records keep)
  direct              the same calls on the same inputs timed directly, outside
                      the harness (bench/_direct.py: pairs of fresh processes
                      with the workers' interpreter and one hash seed per pair,
                      the geometric mean of the pairs' ratios and their IQR, GC
                      on as in the workers; each call's operations compiled to
                      straight-line Python, as a timeit snippet would be)
  difference          evaluator / direct - 1; target within +-5%
  mean of last 3      the same rounds refitted with every batch charged the mean
                      of the reference's last three dry runs (its own included
                      where it has one) instead of the latest one alone

Usage: python bench/harness_overhead.py [--tasks module/dedupe,...] [--repeats 11]
"""

from __future__ import annotations

import argparse
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
    """The speedup timed directly, and the interquartile range of its pairs: `repeats`
    back-to-back pairs of fresh processes, each pair's two processes with the same
    PYTHONHASHSEED (a different one per pair), the geometric mean of the pairs' ratios.
    The hash seed is a per-process random effect: on module/csvstats single processes of
    the same code differed by up to 70% with random seeds and by 15% with one fixed seed;
    a pair shares it, and a ratio within a pair cancels the slow drift of a shared machine."""
    python, sitedirs = worker_python(is_root())
    calls = [t.payload(10**9 + s) for s in range(loops)]
    with tempfile.NamedTemporaryFile(suffix=".msgpack") as f:
        f.write(pack(calls))
        f.flush()
        boot = (f"import site, sys\nfor d in {sitedirs!r}: site.addsitedir(d)\n"
                f"sys.argv = sys.argv[1:]\nexec(open({str(HERE / '_direct.py')!r}).read())\n")
        ratios = []
        for i in range(repeats):
            # Alternate which side goes first, so neither always follows the other.
            order = [("reference", task.reference_dir), ("candidate", task.oracle_dir)]
            cost = {}
            for side, d in order if i % 2 == 0 else order[::-1]:
                r = subprocess.run([python, "-I", "-c", boot, "_direct.py", str(d), task.entry,
                                    f.name, str(loops), "7"], capture_output=True, text=True,
                                   check=True, env={**os.environ, "PYTHONHASHSEED": str(i + 1)})
                cost[side] = float(r.stdout)
            ratios.append(cost["reference"] / cost["candidate"])
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    return statistics.geometric_mean(ratios), q1, q3


def smallest_dry_run(rounds: list[dict]) -> float:
    """The speedup of the same rounds when every batch is charged the smallest
    dry run of its block (the earlier rule), floored as the runner floors."""
    smallest: dict[int, int] = {}
    for r in rounds:
        smallest[r["block"]] = min(smallest.get(r["block"], r["reference_dry_wall_ns"]),
                                   r["reference_dry_wall_ns"])

    def net(r: dict, side: str) -> float:
        raw = r[f"{side}_raw_wall_ns"]
        return max(raw - smallest[r["block"]], 0.1 * raw)

    s = stats.summarize([net(r, "reference") for r in rounds],
                        [net(r, "candidate") for r in rounds],
                        pairs=[r["pair"] for r in rounds], blocks=[r["block"] for r in rounds])
    return s.speedup


def mean_of_last(rounds: list[dict], k: int) -> float:
    """The speedup of the same rounds when every batch is charged the mean of
    the reference's last `k` dry runs at its time (k=1 is the runner's rule),
    in the order the rounds ran, floored as the runner floors."""
    dry: list[int] = []
    net: dict[tuple[int, str], float] = {}

    def charge(i: int, side: str) -> None:
        raw = rounds[i][f"{side}_raw_wall_ns"]
        h = statistics.fmean(dry[-k:]) if dry else 0.0
        net[(i, side)] = max(raw - h, 0.1 * raw)

    for i in sorted(range(len(rounds)), key=lambda i: rounds[i]["index"]):
        r = rounds[i]
        if r["reference_first"]:
            dry.append(r["reference_dry_wall_ns"])
            charge(i, "reference")
            charge(i, "candidate")
        else:
            charge(i, "candidate")
            dry.append(r["reference_dry_wall_ns"])
            charge(i, "reference")
    s = stats.summarize([net[(i, "reference")] for i in range(len(rounds))],
                        [net[(i, "candidate")] for i in range(len(rounds))],
                        pairs=[r["pair"] for r in rounds], blocks=[r["block"] for r in rounds])
    return s.speedup


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tasks", default="", help="comma-separated scale/name (default: all)")
    ap.add_argument("--repeats", type=int, default=11, help="pairs of direct runs")
    args = ap.parse_args()
    dirs = [ROOT / "tasks" / t for t in args.tasks.split(",")] if args.tasks else [
        p for p in find_tasks(ROOT / "tasks") if p.parent.name in ("module", "package")]
    rows = []
    for d in dirs:
        task, runner = runners.load(d)
        started = time.perf_counter()
        with runner.open_session(task, task.oracle_dir) as session:
            timings = session.time(runner.timing_inputs(task))
        inputs = {t.id: t for t in runner.timing_inputs(task)}
        for timing in timings:
            row = timing.to_dict()
            truth, q1, q3 = direct(task, runner, inputs[timing.id], max(1, timing.loops),
                                   args.repeats)
            h = row["harness_ns_per_call"]
            old = smallest_dry_run(timing.rounds)
            last3 = mean_of_last(timing.rounds, 3)
            rows.append([f"{task.scale}/{d.name}", timing.id, f"{h / 1e3:.1f} us",
                         f"{h * timing.loops / 1e6:.2f} ms", f"{row['harness_share']:.0%}",
                         f"{row['speedup']:.3f}x [{row['ci_low']:.2f}, {row['ci_high']:.2f}]",
                         f"{truth:.3f}x [{q1:.2f}, {q3:.2f}]", f"{row['speedup'] / truth - 1:+.1%}",
                         f"{old:.3f}x ({old / truth - 1:+.1%})",
                         f"{last3:.3f}x ({last3 / truth - 1:+.1%})"])
        print(f"{d.name}: {time.perf_counter() - started:.0f} s", flush=True)
    show("measurement path cost, and the evaluator's speedup next to direct timing",
         ["task", "timing input", "harness/call", "harness/batch", "share", "evaluator [95% CI]",
          "direct [pairs' IQR]", "difference", "smallest dry run (difference)",
          "mean of last 3 (difference)"], rows)


if __name__ == "__main__":
    main()
