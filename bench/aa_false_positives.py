"""(b) A/A false-positive rate of compare(): identical sides, many trials.

Target: <= 5% of trials claim a difference at alpha = 0.05.
Usage: python bench/aa_false_positives.py [--trials 200] [--rounds 20]
"""

from __future__ import annotations

import argparse
import math
import time

import frontier_measure as fm
from _util import busy_binary, chunks, iterations_for, show


def clopper_upper(k: int, n: int, conf: float = 0.95) -> float:
    """One-sided upper confidence bound on a rate from k of n (exact, by bisection)."""
    if k == n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(60):
        p = (lo + hi) / 2
        cdf = sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))
        if cdf > 1 - conf:
            lo = p
        else:
            hi = p
    return hi


def trial_rate(make_pair, trials: int, rounds: int) -> tuple[int, float, float]:
    positives = 0
    t0 = time.perf_counter()
    for seed in range(trials):
        ref, cand = make_pair()
        r = fm.compare(ref, cand, rounds=rounds, warmup=1, seed=seed)
        positives += r.verdict in ("faster", "slower")
    return positives, time.perf_counter() - t0, clopper_upper(positives, trials)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    exe = busy_binary()
    n = iterations_for(3.0)
    cmd = [exe, str(n)]
    rows = []
    for label, make in (
        ("identical callables (~20 us)", lambda: (chunks(2), chunks(2))),
        ("identical commands (~3 ms busy loop)", lambda: (cmd, list(cmd))),
    ):
        k, secs, upper = trial_rate(make, args.trials, args.rounds)
        rows.append([label, args.trials, k, f"{k / args.trials:.1%}", f"{upper:.1%}", "<= 5%",
                     f"{secs:.0f}"])
    show(f"A/A false positives ({args.rounds} rounds per trial, alpha = 0.05)",
         ["sides", "trials", "claimed a difference", "rate", "95% upper bound", "target", "s"], rows)


if __name__ == "__main__":
    main()
