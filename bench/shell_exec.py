"""(t) Commands measured as themselves: a ~5 ms pair of busy loops, 2N vs N
iterations, compared by `frontier-measure compare` with each way of starting
a command, against the true ratio, side by side in one run (the ways in
rotation, --reps times; the truth measured between them).

  truth            bench/launch.c: posix_spawn from a small process, the two
                   commands alternating (the geometric mean of the pairs' ratios)
  -N               no shell: the words run directly
  default shell    'busy 2N' through the CLI's default /bin/sh: plain words,
                   so run without a shell (shellcmd.py)
  shell, exec      'busy 2N > /dev/null': the shell is needed for the
                   redirection and execs the program; its start-up remains
  shell stays      'busy 2N; :': a list, which the shell runs as its child and
                   waits for, as the default shell did for every command before
                   (dash does not exec the last command of sh -c)

Printed per way: the geometric mean of its speedups over the reps, its range,
and its difference from -N and from the truth; with the load average.
Usage: python bench/shell_exec.py [--reps 3] [--rounds 40] [--ms 5]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _util import busy_binary, iterations_for, outside_ratio, show


def measured(ref: str, cand: str, extra: list[str], rounds: int) -> float:
    with tempfile.TemporaryDirectory(prefix="fm-shell-bench-") as tmp:
        out = Path(tmp) / "c.json"
        subprocess.run([sys.executable, "-m", "frontier_measure", "-q", "compare", "--rounds",
                        str(rounds), "--json", str(out), *extra, ref, cand],
                       check=True, stdout=subprocess.DEVNULL)
        doc = json.loads(out.read_text())
    return float(doc["comparisons"][0]["summary"]["speedup"])


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--ms", type=float, default=2.5, help="work of the fast command (the slow "
                                                         "one does twice as much)")
    args = ap.parse_args()
    exe = busy_binary()
    n = iterations_for(args.ms)
    slow, fast = f"{exe} {2 * n}", f"{exe} {n}"
    ways = {
        "-N (no shell)": (slow, fast, ["-N"]),
        "default shell": (slow, fast, []),
        "shell, exec (redirection)": (f"{slow} > /dev/null", f"{fast} > /dev/null", []),
        "shell stays (before)": (f"{slow}; :", f"{fast}; :", []),
    }
    got: dict[str, list[float]] = {w: [] for w in ways}
    truths: list[float] = []
    load_before = os.getloadavg()
    for rep in range(args.reps):
        truths.append(outside_ratio(slow.split(), fast.split(), pairs=100)[0])
        names = list(ways)
        names = names[rep % len(names):] + names[:rep % len(names)]
        for w in names:
            ref, cand, extra = ways[w]
            got[w].append(measured(ref, cand, extra, args.rounds))
    truths.append(outside_ratio(slow.split(), fast.split(), pairs=100)[0])
    load_after = os.getloadavg()
    truth = geomean(truths)
    no_shell = geomean(got["-N (no shell)"])
    rows = [["truth (launch.c)", f"{truth:.3f}", f"{min(truths):.3f}-{max(truths):.3f}", "",
             ""]]
    for w, xs in got.items():
        g = geomean(xs)
        rows.append([w, f"{g:.3f}", f"{min(xs):.3f}-{max(xs):.3f}",
                     f"{(g / no_shell - 1) * 100:+.1f}%", f"{(g / truth - 1) * 100:+.1f}%"])
    show(f"2x pair of ~{args.ms * 2:g} + {args.ms:g} ms busy loops, {args.reps} reps of "
         f"{args.rounds} rounds (load {load_before[0]:.1f} before, {load_after[0]:.1f} after)",
         ["way", "speedup (geomean)", "range", "vs -N", "vs truth"], rows)


if __name__ == "__main__":
    main()
