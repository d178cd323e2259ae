"""How often the bundled (and suite) oracles end undecided or wrongly rejected,
quiet and under the load generator at 2x and 4x the cores, interleaved in one
run: every trial evaluates each task's oracle once per condition, in turn.

An oracle is a real speedup, so any "failed" outcome is a wrongful rejection;
"inconclusive" (the noise left the threshold undecided, exit status 3) is not
a rejection. Target (issue 32): no wrongful rejection of an oracle with a
margin of at least 1.5x over its threshold (its measured speedup / threshold).

    .venv/bin/python bench/oracle_outcomes.py tasks/module/dedupe tasks/package/ledger \
        --trials 3 [--loads 0,2,4]   # load processes per core
"""

from __future__ import annotations

import argparse
import collections
import os
import time
from pathlib import Path

from _load import Load
from _util import show
from frontier_measure.evaluate import evaluate
from frontier_measure.results import outcome


class _Quiet:
    def __enter__(self) -> _Quiet:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tasks", nargs="+", type=Path)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--loads", default="0,2,4", help="load processes per core, per condition")
    a = ap.parse_args()
    cores = os.cpu_count() or 1
    per_core = [int(x) for x in a.loads.split(",")]
    seen: dict[tuple[str, int], collections.Counter[str]] = collections.defaultdict(
        collections.Counter)
    margins: dict[str, list[float]] = collections.defaultdict(list)
    loadavg: dict[int, list[float]] = collections.defaultdict(list)
    started = time.perf_counter()
    for trial in range(a.trials):
        for task in a.tasks:
            for k in per_core:
                with Load(k * cores) if k else _Quiet():
                    res = evaluate(task)
                    loadavg[k].append(os.getloadavg()[0])
                o = outcome(res)
                seen[(task.name, k)][o] += 1
                perf = res.get("performance") or {}
                if perf.get("speedup") and res["task"]["threshold"]:
                    margins[task.name].append(perf["speedup"] / res["task"]["threshold"])
                f = res.get("failure") or {}
                print(f"trial {trial + 1} {task.name} load {k}x cores: {o}"
                      + (f" ({f.get('rule')}: {f.get('reason', '')[:160]})" if f else ""),
                      flush=True)
    rows = []
    for (name, k), c in sorted(seen.items()):
        n = sum(c.values())
        low = min(margins[name]) if margins[name] else float("nan")
        rows.append([name, f"{k}x cores", n, c["success"], c["inconclusive"], c["failed"],
                     c["error"], f"{low:.1f}x",
                     f"{sum(loadavg[k]) / len(loadavg[k]):.1f}"])
    show(f"oracle outcomes, {a.trials} trial(s), {time.perf_counter() - started:.0f} s",
         ["task", "load generator", "runs", "success", "inconclusive", "wrongly rejected",
          "error", "least margin", "load avg"], rows)


if __name__ == "__main__":
    main()
