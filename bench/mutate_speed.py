"""`mutate`'s speed: the warm worker (a child forked per mutant, the killing
cases first, stopped at the first difference) against the path before (a
fresh interpreter per mutant running every case), on the same mutants, in
one run.

For each task both paths judge the same `--max` mutants drawn with `--seed`
(the fresh path first, then the warm one, then the fresh one's second half
of the repeats, so a change of load falls on both); the table gives each
path's time for the mutants (set-up apart), the time per mutant, the ratio,
the load average around each, and whether every mutant the path before
killed is killed by the new one (and any verdict that changed).

Usage: python bench/mutate_speed.py [--max 20] [--seed 0]
                                    [TASK ...]  (default: suite/package/idna
                                    and suite/module/semver)
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from _util import show
from frontier_measure.mutate import mutate

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["tasks/suite/package/idna", "tasks/suite/module/semver"]


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("tasks", nargs="*", default=DEFAULT)
    ap.add_argument("--max", type=int, default=20, help="mutants per task")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = []
    notes = []
    for name in args.tasks:
        path = ROOT / name if not Path(name).is_absolute() else Path(name)
        runs = {}
        loads = {}
        for label, fresh in (("fresh interpreter per mutant (before)", True),
                             ("warm worker, fork per mutant", False)):
            before = _load()
            r = mutate(path, limit=args.max, seed=args.seed, fresh=fresh)
            runs[label] = r
            loads[label] = f"{before} -> {_load()}"
        old, new = runs.values()
        old_v = {o.mutant.id: o.status for o in old.outcomes}
        new_v = {o.mutant.id: o.status for o in new.outcomes}
        lost = sorted(i for i, s in old_v.items() if s == "killed" and new_v.get(i) != "killed")
        changed = sorted(i for i in old_v if old_v[i] != new_v.get(i))
        for label, r in runs.items():
            run_s = r.elapsed_s - r.setup_s
            ran = len(r.outcomes) - r.count("not-covered") - r.count("equivalent")
            rows.append([name.removeprefix("tasks/"), label, str(len(r.outcomes)),
                         f"{r.count('killed')}/{r.count('survived')}",
                         f"{r.setup_s:.1f} s", f"{run_s:.1f} s",
                         f"{run_s / max(ran, 1):.2f} s", loads[label]])
        ratio = (old.elapsed_s - old.setup_s) / max(new.elapsed_s - new.setup_s, 1e-9)
        rows[-1].append(f"{ratio:.1f}x")
        rows[-2].append("")
        notes.append(f"{name}: killed before and not now: {lost or 'none'}; "
                     f"verdicts changed: {changed or 'none'}")
    show(f"mutate, the same mutants both ways ({os.cpu_count()} CPUs; load average 1/5/15 "
         "min before -> after each)",
         ["task", "path", "mutants", "killed/survived", "set-up", "mutants' time",
          "per mutant run", "load", "faster"], rows)
    for line in notes:
        print(line)


if __name__ == "__main__":
    main()
