"""Runs in a fresh process with a worker's interpreter: times one side's calls
directly, without the evaluator's measurement path, and prints the cost per
call in ns. Used by harness_overhead.py as the out-of-harness truth.

    python _direct.py SIDE_DIR ENTRY CALLS_FILE LOOPS BATCHES

CALLS_FILE holds the packed list of calls (each a list of operations, as the
evaluator sends them); every batch decodes a fresh copy first (untimed), so
each call sees new objects, as in the evaluator.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time

from frontier_measure.observe import Ref, unpack


def run_ops(module, ops):
    env = {}
    for op in ops:
        target = op["target"]
        if target.startswith("$"):
            base, _, attr = target[1:].partition(".")
            obj = env[base]
        else:
            obj, attr = module, target
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
        if op["kind"] == "call":
            args = [env[a.name] if isinstance(a, Ref) else a for a in op["args"]]
            kwargs = {k: env[v.name] if isinstance(v, Ref) else v for k, v in op["kwargs"].items()}
            try:
                value = obj(*args, **kwargs)
            except Exception as exc:
                value = exc
        else:
            value = obj
        if "as" in op:
            env[op["as"]] = value


def main() -> None:
    side_dir, entry, calls_file, loops, batches = sys.argv[1:6]
    sys.path.insert(0, side_dir)
    sys.dont_write_bytecode = True
    module = importlib.import_module(entry)
    with open(calls_file, "rb") as f:
        packed = f.read()
    per_call = []
    for _ in range(int(batches)):
        calls = unpack(packed)[: int(loops)]
        t0 = time.perf_counter_ns()
        for ops in calls:
            run_ops(module, ops)
        per_call.append((time.perf_counter_ns() - t0) / len(calls))
    print(statistics.median(per_call))


if __name__ == "__main__":
    main()
