"""A/A check of the module/package pipeline: evaluate a task's reference
against itself N times and count how often a timing input is not called
`indistinguishable` (at 95% each input should err about 5% of the time).

    .venv/bin/python bench/eval_aa.py tasks/module/dedupe --trials 20
"""

from __future__ import annotations

import argparse
import collections
import shutil
import sys
import tempfile
import time
from pathlib import Path

from frontier_measure.evaluate import evaluate


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("task", type=Path)
    ap.add_argument("--trials", type=int, default=20)
    args = ap.parse_args()
    started = time.perf_counter()
    counts: collections.Counter[str] = collections.Counter()
    wrong_trials = 0
    with tempfile.TemporaryDirectory() as tmp:
        # The candidate is a copy of the reference: the same code, another directory.
        cand = Path(tmp) / "same"
        shutil.copytree(args.task / "environment" / "workspace", cand)
        for k in range(args.trials):
            res = evaluate(args.task, cand)
            verdicts = [i["verdict"] for i in res["performance"]["inputs"]]
            counts.update(verdicts)
            wrong_trials += any(v != "indistinguishable" for v in verdicts)
            ratios = ", ".join(f"{i['speedup']:.3f}" for i in res["performance"]["inputs"])
            print(f"trial {k + 1:3d}: {' '.join(verdicts)}  ({ratios})", flush=True)
    n = sum(counts.values())
    print(f"\n{args.task}: {n} input verdicts over {args.trials} trials: {dict(counts)}")
    print(f"inputs not indistinguishable: {n - counts['indistinguishable']}/{n} "
          f"({(n - counts['indistinguishable']) / n:.1%}); trials with any: "
          f"{wrong_trials}/{args.trials}; {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
