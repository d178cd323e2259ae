"""(d) The same comparisons by frontier-measure, hyperfine and pyperf, side by
side in one run: verdicts, error against the true ratio, wall time to a decision.

Each tool times the reference (busy loop of k N iterations) against the
candidate (N iterations). Neither hyperfine nor pyperf gives a paired verdict:
for hyperfine the verdict is read off its ratio +- error (as it prints them);
for pyperf off `pyperf compare_to` ("Not significant" or "N.NNx faster/slower").
Usage: python bench/vs_hyperfine_pyperf.py [--trials 3]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import frontier_measure as fm
from _util import busy_binary, iterations_for, show, startup_fraction, true_ratio


def run_fm(ref: list[str], cand: list[str]) -> tuple[float, str]:
    r = fm.compare(ref, cand, precision=0.01, max_time=30)
    return r.speedup, r.verdict


def run_hyperfine(ref: list[str], cand: list[str]) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "h.json"
        subprocess.run(["hyperfine", "-N", "--warmup", "3", "--style", "none", "--export-json",
                        str(out), " ".join(ref), " ".join(cand)], check=True,
                       capture_output=True)
        res = json.loads(out.read_text())["results"]
    (mr, sr), (mc, sc) = ((x["mean"], x["stddev"] or 0.0) for x in res)
    ratio = mr / mc
    err = ratio * math.sqrt((sr / mr) ** 2 + (sc / mc) ** 2)
    verdict = "faster" if ratio - err > 1 else "slower" if ratio + err < 1 else "indistinguishable"
    return ratio, verdict


def run_pyperf(ref: list[str], cand: list[str]) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as d:
        files = []
        for name, cmd in (("ref", ref), ("cand", cand)):
            f = str(Path(d) / f"{name}.json")
            subprocess.run([sys.executable, "-m", "pyperf", "command", "--fast", "-q", "-o", f,
                            "--", *cmd], check=True, capture_output=True)
            files.append(f)
        means = [json.loads(Path(f).read_text()) for f in files]
        vals = [statistics.mean(v for run in m["benchmarks"][0]["runs"] for v in run.get("values", []))
                for m in means]
        text = subprocess.run([sys.executable, "-m", "pyperf", "compare_to", *files],
                              capture_output=True, text=True, check=True).stdout
    ratio = vals[0] / vals[1]
    if "Not significant" in text:
        verdict = "indistinguishable"
    else:
        m = re.search(r"([\d.]+)x (faster|slower)", text)
        # compare_to reads "[ref] -> [cand]: 1.10x faster" when the candidate is faster.
        verdict = m.group(2) if m else "?"
    return ratio, verdict


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=3)
    args = ap.parse_args()
    exe = busy_binary()
    n = iterations_for(10.0)
    tools = [("frontier-measure", run_fm)]
    if shutil.which("hyperfine"):
        tools.append(("hyperfine", run_hyperfine))
    tools.append(("pyperf --fast", run_pyperf))
    fraction = startup_fraction(exe, n)
    rows = []
    for k in (1.0, 1.1, 2.0):
        truth = true_ratio(k, fraction)
        expected = "indistinguishable" if k == 1.0 else "faster"
        for tool, fn in tools:
            ests, verdicts, secs = [], [], []
            for _ in range(args.trials):
                t0 = time.perf_counter()
                ratio, verdict = fn([exe, str(int(n * k))], [exe, str(n)])
                secs.append(time.perf_counter() - t0)
                ests.append(ratio)
                verdicts.append(verdict)
            err = statistics.median(abs(e - truth) / truth for e in ests)
            right = sum(v == expected for v in verdicts)
            rows.append([f"{k:.2f}x", f"{truth:.4f}", tool, f"{statistics.median(ests):.4f}",
                         f"{err:.2%}", f"{right}/{args.trials}", f"{statistics.median(secs):.1f}"])
    show(f"same comparisons, three tools ({args.trials} trials each, ~10 ms commands)",
         ["case", "true ratio", "tool", "median ratio", "median |error|", "right verdict",
          "median s to decide"], rows)


if __name__ == "__main__":
    main()
