"""(b) A/A false-positive rate: identical sides, many trials, each a complete
comparison as a user runs it. A trial is positive when it calls the sides
different ('faster' or 'slower').

Three kinds of sides:
  callables    in-process (compare() with callables)
  commands     a ~3 ms busy loop, a new process per run (compare() with argv)
  workers      a bundled task's reference against itself through the module
               runner: a pair of fresh worker processes per block, so the
               variation between processes is in the interval

Target: <= 5% of trials claim a difference at alpha = 0.05, on a quiet
machine and under the load generator (--load N: N processes in random
busy/idle phases, see _load.py).

Usage: python bench/aa_false_positives.py [--trials 200] [--load 0] [--kinds callables,commands,workers]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import frontier_measure as fm
from _load import Load
from _util import busy_binary, chunks, iterations_for, show

ROOT = Path(__file__).resolve().parents[1]


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


def compare_trials(make_pair, trials: int, rounds: int | str) -> list[str]:
    verdicts = []
    for seed in range(trials):
        ref, cand = make_pair()
        verdicts.append(fm.compare(ref, cand, rounds=rounds, warmup=1, seed=seed).verdict)
    return verdicts


def worker_trials(task_dir: Path, input_id: str, trials: int, blocks: int) -> list[str]:
    """The task's reference against itself on one timing input, `blocks`
    pairs of fresh workers per trial."""
    from frontier_measure import runners

    task, runner = runners.load(task_dir)
    task.timing.min_blocks = task.timing.max_blocks = blocks
    task.timing.max_time_s = 60.0
    [inp] = [t for t in runner.timing_inputs(task) if t.id == input_id]
    verdicts = []
    with runner.open_session(task, task.reference_dir) as session:
        for _ in range(trials):
            verdicts.append(session.time([inp])[0].summary["verdict"])
    return verdicts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--rounds", default="30", help="rounds per compare() trial, or auto")
    ap.add_argument("--load", type=int, default=0, help="load generator processes")
    ap.add_argument("--kinds", default="callables,commands,workers")
    ap.add_argument("--task", default="module/dedupe:n300",
                    help="task and timing input of the workers kind")
    args = ap.parse_args()
    rounds = args.rounds if args.rounds == "auto" else int(args.rounds)
    kinds = args.kinds.split(",")
    exe = busy_binary()
    cmd = [exe, str(iterations_for(3.0))]
    task, input_id = args.task.split(":")
    runs = {
        "callables": ("identical callables (~20 us)",
                      lambda: compare_trials(lambda: (chunks(2), chunks(2)), args.trials, rounds)),
        "commands": ("identical commands (~3 ms busy loop)",
                     lambda: compare_trials(lambda: (cmd, list(cmd)), args.trials, rounds)),
        "workers": (f"{task} reference vs itself, {input_id} (fresh workers per block)",
                    lambda: worker_trials(ROOT / "tasks" / task, input_id, args.trials, 8)),
    }
    rows = []
    with Load(args.load) as load:
        for kind in kinds:
            label, run = runs[kind]
            t0 = time.perf_counter()
            verdicts = run()
            k = sum(v in ("faster", "slower") for v in verdicts)
            n = len(verdicts)
            # The direction tells drift from bias: false positives of an
            # unbiased interval split evenly; all one way is a systematic
            # difference between the two sides' positions.
            split = f"{verdicts.count('faster')} / {verdicts.count('slower')}"
            rows.append([label, n, k, split, f"{k / n:.1%}", f"{clopper_upper(k, n):.1%}", "<= 5%",
                         f"{time.perf_counter() - t0:.0f}"])
        where = load.describe() if args.load else "no load generator"
    show(f"A/A false positives (alpha = 0.05; {where})",
         ["sides", "trials", "claimed a difference", "faster / slower", "rate", "95% upper bound",
          "target", "s"], rows)


if __name__ == "__main__":
    main()
