"""The evaluator's own peak memory when a candidate returns too much.

Each shape is a hostile candidate evaluated in a fresh process of its own (a
process's peak RSS only grows, so shapes must not share one); the table puts
its peak RSS next to the honest oracle's on the same task, evaluated the same
way, and the machine's load average. The evaluator reads a side's outputs one
item at a time, each within the task's item cap (task.toml [metadata.frontier]
max_item_mb, 16 MiB by default), compares it with its golden value as it
arrives and keeps only the outcome; timed outputs stay packed until the few
calls compared are decoded. The target: every shape under 500 MB.

Shapes (module/dedupe: the candidate's return value in every case; module/rolling:
only on timed calls, after passing every case; repository/logstat: every command):

    ints-2M        a list of 2,000,000 small ints (over the cap: 1,048,576 values)
    strings-2M     a list of 2,000,000 short strings (over the cap)
    nested-1M      1,000,000 one-element lists (2,000,001 values, over the cap)
    string-200MB   one string of 200,000,000 characters (over the cap: 16 MiB)
    deep-1000      lists nested 1,000 deep (the worker's canonical form stops at 200)
    strings-1M     1,000,000 strings of 8 characters: under the cap, in each of 31
                   cases (kept until the comparison, they took the evaluator 4 GB)
    timed-1M       module/rolling: 1,000,000 floats from each call on the timing input
                   of 1,000 values (the cases pass), with timing on
    stdout-200MB   repository/logstat: 200 MB on stdout from every command

Usage: python bench/evaluator_memory.py [--only SHAPE ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))

TARGET_MB = 500

# The body of dedupe() for each module/dedupe shape: what it returns.
DEDUPE = {
    "ints-2M": "list(range(1000, 2_001_000))",
    "strings-2M": "[str(i) for i in range(2_000_000)]",
    "nested-1M": "[[i] for i in range(1_000_000)]",
    "string-200MB": "'x' * 200_000_000",
    "deep-1000": "_deep(1000)",
    "strings-1M": "[f'{i:08d}' for i in range(1_000_000)]",
}
SHAPES = [*DEDUPE, "timed-1M", "stdout-200MB"]
TASK = {**dict.fromkeys(DEDUPE, "module/dedupe"), "timed-1M": "module/rolling",
        "stdout-200MB": "repository/logstat"}
REPOSITORY_CASES = ["summary-malformed", "missing-file", "report-basic", "filter-class"]


def _dedupe(shape: str) -> str:
    return f'''
def _deep(n):
    v = []
    for _ in range(n):
        v = [v]
    return v


def dedupe(records, key=None, verbose=False):
    return {DEDUPE[shape]}
'''


def _rolling(oracle: Path) -> str:
    # The oracle, except on the timing input of 1,000 values (no case has as
    # many), where it returns 1,000,000 floats.
    return oracle.read_text() + '''

_honest = rolling_mean


def rolling_mean(values, window):
    if len(values) >= 1000:
        return [0.5] * 1_000_000
    return _honest(values, window)
'''


def prepare(shape: str | None, task_name: str, work: Path) -> tuple[Path, Path | None]:
    """A quick copy of the task, and the shape's candidate (None: the oracle)."""
    from eval_support import quick_task

    scale, name = task_name.split("/")
    if scale == "repository":
        task = work / name
        shutil.copytree(ROOT / "tasks" / scale / name, task)
        work.chmod(0o755)
    else:
        task = quick_task(work, scale, name)
    if shape is None:
        return task, None
    cand = work / "candidate"
    # From the reference for a command (the oracle is in C), else the oracle.
    shutil.copytree(task / ("environment" if scale == "repository" else "solution") / "workspace",
                    cand)
    if shape in DEDUPE:
        (cand / "dedupe.py").write_text(_dedupe(shape))
    elif shape == "timed-1M":
        (cand / "rolling.py").write_text(_rolling(task / "solution" / "workspace" / "rolling.py"))
    elif shape == "stdout-200MB":
        launcher = cand / "logstat.in"
        launcher.write_text(launcher.read_text().replace(
            "exec ", "head -c 200000000 /dev/zero | tr '\\0' x\nexec ", 1))
    return task, cand


def one(shape: str | None, task_name: str) -> dict:
    """Evaluate in this process; its peak RSS afterwards."""
    from frontier_measure.evaluate import evaluate

    work = Path(tempfile.mkdtemp(prefix="fm-memory-"))
    try:
        task, cand = prepare(shape, task_name, work)
        kwargs: dict = {"timing": task_name == "module/rolling"}
        if task_name.startswith("repository/"):
            kwargs["only_cases"] = REPOSITORY_CASES
        started = time.perf_counter()
        res = evaluate(task, cand, **kwargs)
        f = res["failure"] or {}
        return {"shape": shape or "oracle", "task": task_name,
                "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "seconds": time.perf_counter() - started,
                "verdict": f"{f.get('stage')}/{f.get('rule')}" if f else "pass",
                "reason": (f.get("reason") or "")[:160]}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def fresh(shape: str | None, task_name: str) -> dict:
    """`one` in a fresh interpreter."""
    argv = [sys.executable, __file__, "--child", task_name] + ([shape] if shape else [])
    r = subprocess.run(argv, capture_output=True, text=True)
    lines = [line for line in r.stdout.splitlines() if line.startswith("{")]
    if r.returncode != 0 or not lines:
        return {"shape": shape or "oracle", "task": task_name, "peak_mb": float("nan"),
                "seconds": float("nan"), "verdict": "error",
                "reason": (r.stderr.strip().splitlines() or ["?"])[-1][:160]}
    return json.loads(lines[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=SHAPES)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(one(args.child[1] if len(args.child) > 1 else None, args.child[0])))
        return
    shapes = args.only or SHAPES
    load_before = os.getloadavg()
    oracles = {t: fresh(None, t) for t in dict.fromkeys(TASK[s] for s in shapes)}
    rows = [fresh(s, TASK[s]) for s in shapes]
    load_after = os.getloadavg()
    for r in rows:
        r["oracle_peak_mb"] = oracles[r["task"]]["peak_mb"]
        r["ratio"] = r["peak_mb"] / r["oracle_peak_mb"]
        r["under_target"] = r["peak_mb"] < TARGET_MB
    if args.json:
        print(json.dumps({"rows": rows, "oracles": list(oracles.values()),
                          "load_average": [load_before, load_after],
                          "target_mb": TARGET_MB}, indent=1))
        return
    from frontier_measure.display import table

    print(table(["shape", "task", "peak MB", "oracle MB", "ratio", f"< {TARGET_MB} MB",
                 "verdict", "s"],
                [[r["shape"], r["task"], f"{r['peak_mb']:.0f}", f"{r['oracle_peak_mb']:.0f}",
                  f"{r['ratio']:.2f}", "yes" if r["under_target"] else "NO", r["verdict"],
                  f"{r['seconds']:.0f}"] for r in rows]))
    for r in rows:
        if r["reason"]:
            print(f"  {r['shape']}: {r['reason']}")
    print(f"load average (1, 5, 15 min) before {', '.join(f'{x:.2f}' for x in load_before)}; "
          f"after {', '.join(f'{x:.2f}' for x in load_after)}")


if __name__ == "__main__":
    main()
