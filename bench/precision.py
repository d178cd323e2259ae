"""Interval width for a microsecond-scale callable within a 2 s budget.

Target: 95% interval half-width <= +-1% within 2 s of measuring.
Usage: python bench/precision.py [--trials 10]
"""

from __future__ import annotations

import argparse
import statistics
import time

import frontier_measure as fm
from _util import chunks, show


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=10)
    args = ap.parse_args()
    rows = []
    for label, ref, cand in (
        ("~2 us callable, A/A", chunks(1, 300), chunks(1, 300)),
        ("~20 us callable, 1.10x", chunks(11, 180), chunks(10, 180)),
    ):
        widths, secs, rounds = [], [], []
        for seed in range(args.trials):
            t0 = time.perf_counter()
            r = fm.compare(ref, cand, precision=0.01, max_time=2.0, seed=seed)
            secs.append(time.perf_counter() - t0)
            widths.append(r.summary.half_width or float("inf"))
            rounds.append(r.summary.rounds)
        hit = sum(w <= 0.01 for w in widths)
        rows.append([label, args.trials, f"{statistics.median(widths):.2%}", f"{max(widths):.2%}",
                     f"{hit}/{args.trials}", statistics.median(rounds), f"{statistics.median(secs):.2f}"])
    show("interval half-width within a 2 s budget (rounds='auto', precision 1%)",
         ["sides", "trials", "median half-width", "worst", "<= 1%", "median rounds", "median s"], rows)


if __name__ == "__main__":
    main()
