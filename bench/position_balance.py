"""Item 8 of issue 32: callable estimates drifted upward under load (A/A +2.9%,
2.00x +5.4% above truth). Same run, interleaved: each trial compares 20 vs 10
identical chunks of work (a true 2.00x) and 10 vs 10 (a true 1.00x) under the
load generator, once with every block's AB BA / BA AB pairs balanced
(perf.balanced_seed, now) and once with the seeds of before (block b used
seed + b, so consecutive trials shared their blocks' orientations).
Prints each variant's median and mean log error against the truth.

    .venv/bin/python bench/position_balance.py [--trials 20] [--load 4] [--rounds 16]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics

import frontier_measure as fm
from _load import Load
from _util import chunks, show
from frontier_measure import perf


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--load", type=int, default=4)
    ap.add_argument("--rounds", default="16")
    a = ap.parse_args()
    rounds: int | str = a.rounds if a.rounds == "auto" else int(a.rounds)
    balanced = perf.balanced_seed
    variants = {"balanced blocks (now)": balanced,
                "seed + block (before)": lambda seed, block, pairs: seed + block}
    errors: dict[tuple[str, float], list[float]] = {}
    loads = []
    with Load(a.load):
        for trial in range(a.trials):
            for truth, (ref, cand) in ((2.0, (chunks(20), chunks(10))),
                                       (1.0, (chunks(10), chunks(10)))):
                for name, fn in variants.items():
                    perf.balanced_seed = fn  # type: ignore[assignment]
                    r = fm.compare(ref, cand, rounds=rounds, warmup=1, seed=trial)
                    errors.setdefault((name, truth), []).append(math.log(r.speedup / truth))
                    loads.append(os.getloadavg()[0])
    perf.balanced_seed = balanced
    rows = []
    for (name, truth), e in sorted(errors.items()):
        se = statistics.stdev(e) / math.sqrt(len(e))
        rows.append([name, f"{truth:.2f}x", len(e), f"{math.expm1(statistics.median(e)):+.2%}",
                     f"{math.expm1(statistics.mean(e)):+.2%}", f"{statistics.mean(e) / se:+.1f}"])
    show(f"estimate vs truth under {a.load} load processes (load average "
         f"{statistics.mean(loads):.1f}), rounds={a.rounds}",
         ["blocks", "truth", "trials", "median error", "mean error", "t"], rows)


if __name__ == "__main__":
    main()
