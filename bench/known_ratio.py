"""(c) A known ratio: the same work, N vs 1.10 N. Detection rate and interval
coverage over many trials.

Targets: the 1.10x case is called 'faster' in >= 95% of trials, and the 95%
interval covers the true ratio in >= 95% of trials.
Usage: python bench/known_ratio.py [--trials 100] [--rounds 30]
"""

from __future__ import annotations

import argparse
import statistics
import time

import frontier_measure as fm
from _util import busy_binary, chunks, iterations_for, show
from frontier_measure import _core


def command_true_ratio(exe: str, n: int) -> float:
    """(start-up + 1.1 W) / (start-up + W): start-up measured with 0 iterations,
    W from the slope between two long runs. Start-up is ~1% of W here."""
    def median_ns(iters: int, reps: int = 15) -> float:
        s = _core.ProcessSpec()
        s.argv = [exe, str(iters)]
        return statistics.median(_core.run_process(s).wall_ns for _ in range(reps))

    startup = median_ns(0)
    w = median_ns(n) - startup
    return (startup + 1.1 * w) / (startup + w)


def run_trials(make_pair, trials: int, rounds: int, truth: float):
    detected = covered = 0
    estimates = []
    t0 = time.perf_counter()
    for seed in range(trials):
        ref, cand = make_pair()
        r = fm.compare(ref, cand, rounds=rounds, warmup=1, seed=seed)
        detected += r.verdict == "faster"
        lo, hi = r.ci
        covered += lo is not None and lo <= truth <= hi
        estimates.append(r.speedup)
    return detected, covered, statistics.median(estimates), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=30)
    args = ap.parse_args()
    exe = busy_binary()
    n = iterations_for(10.0)
    cmd_truth = command_true_ratio(exe, n)
    cases = [
        ("callables, 11 vs 10 chunks", lambda: (chunks(11), chunks(10)), 1.10),
        ("commands, 1.1 N vs N busy loop", lambda: ([exe, str(int(n * 1.1))], [exe, str(n)]),
         cmd_truth),
    ]
    rows = []
    for label, make, truth in cases:
        det, cov, med, secs = run_trials(make, args.trials, args.rounds, truth)
        rows.append([label, f"{truth:.4f}", f"{med:.4f}", f"{det / args.trials:.0%}",
                     f"{cov / args.trials:.0%}", f"{secs:.0f}"])
    show(f"known ratio 1.10 ({args.trials} trials x {args.rounds} rounds)",
         ["sides", "true ratio", "median estimate", "detected (>=95%)", "CI coverage (>=95%)", "s"],
         rows)


if __name__ == "__main__":
    main()
