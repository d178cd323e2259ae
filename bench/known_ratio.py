"""(c) A known ratio: the same work, N vs 1.10 N. Detection rate and interval
coverage over many trials.

Targets: the 1.10x case is called 'faster' in >= 95% of trials, and the 95%
interval covers the true ratio in >= 95% of trials.
Each trial is one compare() as a user runs it: rounds='auto' (stop at a 1%
half-width or the 10 s budget) unless --rounds fixes the count.
Usage: python bench/known_ratio.py [--trials 100] [--rounds auto|N]
"""

from __future__ import annotations

import argparse
import statistics
import time

import frontier_measure as fm
from _util import busy_binary, chunks, iterations_for, show, startup_fraction, true_ratio


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
    args = ap.parse_args()
    rounds = args.rounds if args.rounds == "auto" else int(args.rounds)
    exe = busy_binary()
    n = iterations_for(30.0)
    cmd_truth = true_ratio(1.1, startup_fraction(exe, n))
    cases = [
        ("callables, 11 vs 10 chunks", lambda: (chunks(11), chunks(10)), 1.10),
        ("commands, 1.1 N vs N busy loop", lambda: ([exe, str(int(n * 1.1))], [exe, str(n)]),
         cmd_truth),
    ]
    rows = []
    for label, make, truth in cases:
        det, cov, med, used, secs = run_trials(make, args.trials, rounds, truth)
        rows.append([label, f"{truth:.4f}", f"{med:.4f}", f"{det / args.trials:.1%}",
                     f"{cov / args.trials:.1%}", used, f"{secs:.0f}"])
    show(f"known ratio 1.10 ({args.trials} trials, rounds {args.rounds})",
         ["sides", "true ratio", "median estimate", "detected (>=95%)", "CI coverage (>=95%)",
          "median rounds", "s"], rows)


if __name__ == "__main__":
    main()
