"""Time budgets are caps: compare() at several max_time values, quiet and under
the load generator, interleaved in one run; prints elapsed / max_time.

Target (issue 32): every comparison ends within 1.25 x max_time plus one
block, whatever the load; one the budget cannot support says "insufficient"
with what a claim would take. Each trial is compare(ref, cand, max_time=T)
on callables of a true 2x (40 vs 20 chunks of work), seed varied.
Usage: python bench/budget_cap.py [--budgets 0.5,1,3,10] [--trials 3] [--loads 0,4,8]
(--loads counts load processes: 2x and 4x the cores of a 2-core machine are 4 and 8.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import frontier_measure as fm
from _load import Load
from _util import chunks, show


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budgets", default="0.5,1,3,10")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--loads", default="0,4,8")
    a = ap.parse_args()
    budgets = [float(x) for x in a.budgets.split(",")]
    loads = [int(x) for x in a.loads.split(",")]
    fm.compare(chunks(2), chunks(1), rounds=16)  # the clock's probe and imports, once
    rows: dict[tuple[int, float], list[tuple[float, float, str, float]]] = {}
    for trial in range(a.trials):
        for n in loads:  # interleaved: every load in every trial
            with Load(n) if n else _Quiet():
                for t in budgets:
                    t0 = time.perf_counter()
                    r = fm.compare(chunks(40), chunks(20), max_time=t, seed=trial)
                    took = time.perf_counter() - t0
                    block = took / max(1, r.summary.blocks)
                    rows.setdefault((n, t), []).append(
                        (took / t, (took - block) / t, r.verdict, os.getloadavg()[0]))
    out = []
    for (n, t), v in sorted(rows.items()):
        ratio = [x[0] for x in v]
        out.append([f"{n}", f"{t:g}", f"{statistics.median(ratio):.2f}", f"{max(ratio):.2f}",
                    f"{max(x[1] for x in v):.2f}",
                    ", ".join(f"{k}:{sum(x[2] == k for x in v)}"
                              for k in sorted({x[2] for x in v})),
                    f"{statistics.mean(x[3] for x in v):.1f}"])
    show("compare(max_time=T) on a 2x pair: elapsed / T",
         ["load procs", "T (s)", "median", "max", "max (elapsed - one block) / T", "verdicts", "load avg"],
         out)


class _Quiet:
    def __enter__(self) -> _Quiet:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


if __name__ == "__main__":
    main()
