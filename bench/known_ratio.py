"""(c) Known ratios: detection and interval coverage over many trials.

  callables  11 vs 10 identical chunks of work: a true 1.10
  commands   a busy loop of 1.1 N vs N and of 2 N vs N iterations; the true
             ratios (start-up included) are measured outside frontier-measure,
             by bench/launch.c (posix_spawn from a small process), as the
             ratio of the CPU time the kernel charged each command

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


def run_trials(make_pair, trials: int, rounds: int | str, truth: float):
    detected = covered = 0
    estimates, used = [], []
    t0 = time.perf_counter()
    for seed in range(trials):
        ref, cand = make_pair()
        r = fm.compare(ref, cand, rounds=rounds, warmup=1, seed=seed)  # type: ignore[arg-type]
        used.append(r.summary.rounds)
        detected += r.verdict == "faster"
        lo, hi = r.ci
        covered += lo is not None and lo <= truth <= hi
        estimates.append(r.speedup)
    return (detected, covered, statistics.median(estimates), statistics.median(used),
            time.perf_counter() - t0)


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
    # Truth first, on the quiet machine (CPU time hardly moves under load anyway).
    truth_11 = outside_ratio([exe, str(int(n * 1.1))], [exe, str(n)])
    truth_2 = outside_ratio([exe, str(2 * n)], [exe, str(n)])
    cases = {
        "callables": [("callables, 11 vs 10 chunks", lambda: (chunks(11), chunks(10)), 1.10)],
        "commands": [
            ("commands, 1.1 N vs N busy loop", lambda: ([exe, str(int(n * 1.1))], [exe, str(n)]),
             truth_11),
            ("commands, 2 N vs N busy loop", lambda: ([exe, str(2 * n)], [exe, str(n)]), truth_2),
        ],
    }
    rows = []
    with Load(args.load) as load:
        for kind in args.kinds.split(","):
            for label, make, truth in cases[kind]:
                det, cov, med, used, secs = run_trials(make, args.trials, rounds, truth)
                rows.append([label, f"{truth:.4f}", f"{med:.4f}", f"{det / args.trials:.1%}",
                             f"{cov / args.trials:.1%}", used, f"{secs:.0f}"])
        where = load.describe() if args.load else "no load generator"
    show(f"known ratios ({args.trials} trials, rounds {args.rounds}; {where})",
         ["sides", "true ratio", "median estimate", "detected (>=95%)", "CI coverage (>=95%)",
          "median rounds", "s"], rows)


if __name__ == "__main__":
    main()
