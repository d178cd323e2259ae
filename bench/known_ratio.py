"""(c) Known ratios: detection and interval coverage over many trials.

  callables  11 vs 10 identical chunks of work: a true 1.10
  commands   a busy loop of 1.1 N vs N and of 2 N vs N iterations; the true
             ratios (start-up included) are measured outside frontier-measure,
             by bench/launch.c (posix_spawn from a small process, the two
             commands alternating A B, B A for 200 pairs: the geometric mean
             of the pairs' wall-time ratios, with its own 95% interval), under
             the same load as the trials, just before and just after them (the
             truth is their geometric mean; both are shown: start-up does not
             scale with N and costs more on a busy machine, so the true ratio
             of a loaded machine is not the quiet one's)

Targets: a 1.10x difference is called 'faster' in >= 95% of trials, and the
95% interval covers the true ratio in >= 95% of trials, on a quiet machine
and under the load generator (--load N, see _load.py).
Each trial is one compare() as a user runs it: rounds='auto' (stop at a 1%
half-width or the 10 s budget) unless --rounds fixes the count.
Usage: python bench/known_ratio.py [--trials 100] [--rounds auto|N] [--load 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import frontier_measure as fm
from _load import Load
from _util import busy_binary, chunks, iterations_for, outside_ratio, show


def run_trials(make_pair, trials: int, rounds: int | str):
    """Each trial's verdict, interval and estimate; the median rounds; seconds."""
    verdicts, intervals, estimates, used = [], [], [], []
    t0 = time.perf_counter()
    for seed in range(trials):
        ref, cand = make_pair()
        r = fm.compare(ref, cand, rounds=rounds, warmup=1, seed=seed)  # type: ignore[arg-type]
        used.append(r.summary.rounds)
        verdicts.append(r.verdict)
        intervals.append(r.ci)
        estimates.append(r.speedup)
    return verdicts, intervals, estimates, statistics.median(used), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--rounds", default="auto")
    ap.add_argument("--load", type=int, default=0, help="load generator processes")
    ap.add_argument("--kinds", default="callables,commands")
    args = ap.parse_args()
    rounds = args.rounds if args.rounds == "auto" else int(args.rounds)
    exe = busy_binary()
    n = iterations_for(30.0)

    def commands(k: float) -> tuple[list[str], list[str]]:
        return [exe, str(int(n * k))], [exe, str(n)]

    cases = {
        "callables": [("callables, 11 vs 10 chunks", lambda: (chunks(11), chunks(10)), None)],
        "commands": [("commands, 1.1 N vs N busy loop", lambda: commands(1.1), 1.1),
                     ("commands, 2 N vs N busy loop", lambda: commands(2), 2)],
    }
    rows = []
    with Load(args.load) as load:
        for kind in args.kinds.split(","):
            for label, make, k in cases[kind]:
                before = outside_ratio(*commands(k)) if k else None
                verdicts, intervals, estimates, used, secs = run_trials(make, args.trials, rounds)
                if before is not None:
                    after = outside_ratio(*commands(k))
                    truth = (before[0] * after[0]) ** 0.5
                    shown = (f"{truth:.4f} ({before[0]:.4f} x/ {before[1]:.4f}, "
                             f"{after[0]:.4f} x/ {after[1]:.4f})")
                else:
                    truth, shown = 1.10, "1.1000"
                det = sum(v == "faster" for v in verdicts)
                cov = sum(lo is not None and lo <= truth <= hi for lo, hi in intervals)
                rows.append([label, shown, f"{statistics.median(estimates):.4f}",
                             f"{det / args.trials:.1%}", f"{cov / args.trials:.1%}", used,
                             f"{secs:.0f}"])
        where = load.describe() if args.load else "no load generator"
    show(f"known ratios ({args.trials} trials, rounds {args.rounds}; {where})",
         ["sides", "true ratio (before, after: x/ its 95% half-width)", "median estimate", "detected (>=95%)",
          "CI coverage (>=95%)", "median rounds", "s"], rows)


if __name__ == "__main__":
    main()
