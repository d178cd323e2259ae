"""(c) Known ratios: detection and interval coverage over many trials.

  callables  11 vs 10 identical chunks of work: a true 1.10
  commands   a busy loop of 1.1 N vs N and of 2 N vs N iterations; the true
             ratios (start-up included) are measured outside frontier-measure,
             by bench/launch.c (posix_spawn from a small process, the two
             commands alternating A B, B A: the geometric mean of the pairs'
             wall-time ratios, with its own 95% interval), in segments of
             --truth-pairs pairs interleaved with the trials (before the first
             and after every --truth-every trials), under the same load. The
             truth is the geometric mean of the segments; their range is shown
             so the truth's own steadiness can be judged (on the quiet machine
             11 segments of 200 pairs ranged over 0.8-0.9%, as their +-0.5%
             intervals predict, so their mean is good to about +-0.15%: a truth
             as uncertain as the estimate would cost coverage by itself, 83% at
             equal widths). Start-up does not scale with N: each 0.1 ms of it
             moves the 2x pair's ratio by 0.3%, the 1.1x pair's by 0.03%.
             On a busier day the segments drift by more than their own
             intervals (1.0749-1.1051 at +-0.66% each), so coverage is also
             shown against each trial's own truth: the geometric mean of the
             segments just before and after its group of trials.

Targets: a 1.10x difference is called 'faster' in >= 95% of trials, and the
95% interval covers the true ratio in >= 95% of trials, on a quiet machine
and under the load generator (--load N, see _load.py).
Each trial is one compare() as a user runs it: rounds='auto' (stop at a 1%
half-width or the 10 s budget) unless --rounds fixes the count.
Usage: python bench/known_ratio.py [--trials 100] [--rounds auto|N] [--load 0] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

import frontier_measure as fm
from _load import Load
from _util import busy_binary, chunks, iterations_for, outside_ratio, show


def run_trials(make_pair, trials: int, rounds: int | str, between=None, every: int = 10):
    """Each trial's verdict, interval and estimate; the median rounds; seconds
    spent in trials. `between(i)` runs before trial 0 and after every `every`
    trials (and after the last), untimed."""
    verdicts, intervals, estimates, used = [], [], [], []
    spent = 0.0
    for seed in range(trials):
        if between and seed % every == 0:
            between(seed)
        t0 = time.perf_counter()
        ref, cand = make_pair()
        r = fm.compare(ref, cand, rounds=rounds, warmup=1, seed=seed)  # type: ignore[arg-type]
        spent += time.perf_counter() - t0
        used.append(r.summary.rounds)
        verdicts.append(r.verdict)
        intervals.append(r.ci)
        estimates.append(r.speedup)
    if between:
        between(trials)
    return verdicts, intervals, estimates, statistics.median(used), spent


def geomean(values) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--rounds", default="auto")
    ap.add_argument("--load", type=int, default=0, help="load generator processes")
    ap.add_argument("--kinds", default="callables,commands")
    ap.add_argument("--truth-pairs", type=int, default=200,
                    help="A B / B A pairs in each segment of a command pair's true ratio")
    ap.add_argument("--truth-every", type=int, default=10,
                    help="trials between segments of the true ratio")
    ap.add_argument("--json", help="write every trial's interval and the truth's segments here")
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
    saved: dict[str, dict] = {}
    with Load(args.load) as load:
        for kind in args.kinds.split(","):
            for label, make, k in cases[kind]:
                segments: list[tuple[int, float, float]] = []  # (trial it precedes, ratio, half)

                def measure_truth(before_trial: int, k=k, segments=segments) -> None:
                    segments.append((before_trial, *outside_ratio(*commands(k),
                                                                  pairs=args.truth_pairs)))

                verdicts, intervals, estimates, used, secs = run_trials(
                    make, args.trials, rounds, measure_truth if k else None, args.truth_every)
                if k:
                    ratios = [r for _, r, _ in segments]
                    truth = geomean(ratios)
                    shown = (f"{truth:.4f} ({len(segments)} segments {min(ratios):.4f}"
                             f"-{max(ratios):.4f}, each x/ "
                             f"{statistics.median(h for _, _, h in segments):.4f})")
                    # A trial's own truth: the segments just before and after its
                    # group of trials (a shared machine's ratio drifts, see above).
                    local = [geomean([ratios[i // args.truth_every],
                                      ratios[i // args.truth_every + 1]])
                             for i in range(args.trials)]
                else:
                    truth, shown = 1.10, "1.1000"
                    local = [truth] * args.trials
                det = sum(v == "faster" for v in verdicts)
                cov = sum(lo is not None and lo <= truth <= hi for lo, hi in intervals)
                cov_local = sum(lo is not None and lo <= t <= hi
                                for (lo, hi), t in zip(intervals, local, strict=True))
                saved[label] = {"segments": segments, "intervals": intervals,
                                "estimates": estimates, "verdicts": verdicts, "local_truth": local}
                widths = [math.log(hi / lo) / 2 for lo, hi in intervals if lo is not None]
                rows.append([label, shown, f"{statistics.median(estimates):.4f}",
                             f"{det / args.trials:.1%}", f"{cov / args.trials:.1%}",
                             f"{cov_local / args.trials:.1%}",
                             f"{statistics.median(widths):.2%}" if widths else "-", used,
                             f"{secs:.0f}"])
        where = load.describe() if args.load else "no load generator"
    show(f"known ratios ({args.trials} trials, rounds {args.rounds}; {where})",
         ["sides", "true ratio (segments' range, median 95% half-width as a factor)",
          "median estimate", "detected (>=95%)", "CI coverage (>=95%)",
          "coverage of the neighbouring segments' truth", "median CI half-width",
          "median rounds", "s in trials"], rows)
    if args.json:
        Path(args.json).write_text(json.dumps(saved, indent=1))


if __name__ == "__main__":
    main()
