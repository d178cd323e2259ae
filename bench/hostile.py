"""The hostile corpus (tests/hostile/corpus.toml), every entry under every
backend it lists: caught/total per backend, and each entry's verdict.

An entry is caught when the evaluation fails at the entry's stage for one of
its rules (and, for attacks on the measurement, the speedup stays below the
entry's max_speedup) and nothing of the sides outlives it. The tests run the
same corpus (tests/test_hostile.py, tests/test_repository.py); this prints it
whole, as a figure for the benchmarks pages (docs/).

Usage: python bench/hostile.py [--backend local|docker] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from _util import show

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from frontier_measure.evaluate import evaluate  # noqa: E402
from test_hostile import CORPUS, REPOSITORY_CASES, candidate_for, leftovers, task_for  # noqa: E402


def judge(entry: dict, backend: str, work: Path) -> tuple[bool, str]:
    task = task_for(entry, work)
    candidate = work / "cand"  # a copy: the hint below is written into it
    shutil.copytree(candidate_for(entry, work), candidate)
    # A candidate that hunts for held-out data is told where it is.
    (candidate / "target.path").write_text(str(task / "tests" / "golden.json"))
    kwargs: dict = {}
    if entry["task"].startswith("repository/"):
        kwargs["only_cases"] = REPOSITORY_CASES
    if entry.get("timing", True) is False:
        kwargs["timing"] = False
    res = evaluate(task, candidate, isolation=backend, **kwargs)
    f = res["failure"] or {}
    where = f"{f.get('stage')}/{f.get('rule')}"
    if res["strict_success"] or f.get("stage") != entry["stage"] or f.get("rule") not in entry["rules"]:
        return False, f"not caught: {where}"
    if "max_speedup" in entry and res["performance"]["speedup"] >= entry["max_speedup"]:
        return False, f"{where}, but {res['performance']['speedup']:.2f}x"
    left = leftovers()
    if left:
        return False, f"{where}, left: {'; '.join(left)[:80]}"
    return True, where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", choices=["local", "docker"], action="append")
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    rows, caught, total = [], defaultdict(int), defaultdict(int)
    for entry in CORPUS:
        if args.only and entry["name"] not in args.only:
            continue
        for backend in entry.get("backends", ["local"]):
            if args.backend and backend not in args.backend:
                continue
            started = time.perf_counter()
            with tempfile.TemporaryDirectory(prefix="fm-bench-hostile-") as tmp:
                try:
                    ok, where = judge(entry, backend, Path(tmp))
                except Exception as exc:  # the evaluation itself failed: not a catch
                    ok, where = False, f"error: {type(exc).__name__}: {exc}"[:100]
            total[backend] += 1
            caught[backend] += ok
            rows.append([entry["name"], entry["task"], backend, "caught" if ok else "MISSED",
                         where, f"{time.perf_counter() - started:.1f}"])
    show("hostile corpus", ["candidate", "task", "backend", "verdict", "stage/rule", "s"], rows)
    show("caught / total", ["backend", "caught", "total"],
         [[b, caught[b], total[b]] for b in sorted(total)])


if __name__ == "__main__":
    main()
