"""`mutate` over every module and package task of the suite: each task's
score, its time (set-up apart) and the time per mutant, with the load.

With `--max-time S` each task stops starting mutants after S seconds (its
mutants run in an order drawn with --seed, so those run are a random sample)
and the table says how many of how many ran; the time per mutant then
estimates the full run. `--json DIR` keeps each task's report.

Usage: python bench/mutate_suite.py [--max-time S] [--json DIR] [TASK ...]
       (default: tasks/suite/module/* and tasks/suite/package/*, fewest mutants first)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from _util import show
from frontier_measure.mutate import mutate as run_mutants

ROOT = Path(__file__).resolve().parent.parent
# Fewest mutants first (the counts `mutate` reports), so a run cut short has
# done the most tasks.
SUITE = ["module/toposort", "module/base58", "module/pylev_wf", "module/hashids",
         "module/fnmatch", "module/inflection", "module/textwrap", "module/xmltodict",
         "module/shlex", "module/texttable", "module/docopt", "module/semver",
         "module/statistics", "module/jellyfish", "module/difflib", "module/wcwidth",
         "module/tabulate", "package/tomli", "package/idna", "package/cssselect",
         "package/sqlglot", "package/markdown", "package/commonmark", "package/sqlparse",
         "package/yaml"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("tasks", nargs="*")
    ap.add_argument("--max-time", type=float, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    paths = [Path(t) for t in args.tasks] or [ROOT / "tasks" / "suite" / t for t in SUITE]
    rows = []
    started = time.perf_counter()
    total_mutants = 0
    total_s = 0.0
    for path in paths:
        load_before = os.getloadavg()[0]
        r = run_mutants(path, seed=args.seed, max_time=args.max_time)
        run_s = r.elapsed_s - r.setup_s
        ran = len(r.outcomes)
        judged = ran - r.count("not-covered") - r.count("equivalent")
        total_mutants += ran
        total_s += r.elapsed_s
        score = "n/a" if r.score is None else f"{r.score:.1%}"
        rows.append([f"{path.parent.name}/{path.name}", f"{ran}/{r.drawn_from}",
                     f"{r.count('killed')}/{r.count('survived')}/{r.count('not-covered')}/"
                     f"{r.count('equivalent')}", score, f"{r.setup_s:.0f} s", f"{run_s:.0f} s",
                     f"{run_s / max(judged, 1):.2f} s",
                     f"{load_before:.1f}-{os.getloadavg()[0]:.1f}"])
        print(" | ".join(rows[-1]), flush=True)
        if args.json is not None:
            args.json.mkdir(parents=True, exist_ok=True)
            (args.json / f"{path.parent.name}-{path.name}.json").write_text(
                json.dumps(r.to_dict(), indent=1) + "\n")
    show(f"mutate over the suite ({os.cpu_count()} CPUs; {total_mutants} mutants in "
         f"{time.perf_counter() - started:.0f} s, set-up included)",
         ["task", "mutants run/all", "killed/survived/not covered/equivalent", "score",
          "set-up", "mutants' time", "per mutant run", "load (1 min)"], rows)


if __name__ == "__main__":
    main()
