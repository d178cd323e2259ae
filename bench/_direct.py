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
from frontier_measure.worker import OPERATIONS


def compile_call(ops: list[dict], k: int) -> object:
    """One timed call's operations as straight-line Python, as an author would
    write them in a timeit snippet: `f(m, A)` runs them on the module `m` with
    the decoded arguments `A` (one (args, kwargs) per operation). Compiling
    them, rather than walking the operations as the worker does, keeps the
    dispatch of hundreds of operations per call (package tasks) out of the
    direct figure. An exception ends only its own operation, as in the worker."""
    names: dict[str, str] = {}

    def ref(name: str) -> str:
        return names.setdefault(name, f"v_{len(names)}")

    lines = ["def f(m, A):"]
    for j, op in enumerate(ops):
        target, kind = op["target"], op["kind"]
        if kind == "op":
            head = f"OPS[{target!r}]"
        elif target.startswith("$"):
            base, _, attr = target[1:].partition(".")
            head = ref(base) + (f".{attr}" if attr else "")
        else:
            head = f"m.{target}"
        if kind == "get":
            expr = head
        else:
            args = [ref(a.name) if isinstance(a, Ref) else f"A[{j}][0][{i}]"
                    for i, a in enumerate(op["args"])]
            args += [f"{key}=" + (ref(v.name) if isinstance(v, Ref) else f"A[{j}][1][{key!r}]")
                     for key, v in op["kwargs"].items()]
            expr = f"{head}({', '.join(args)})"
        out = ref(op["as"]) if "as" in op else "_"
        lines += ["    try:", f"        {out} = {expr}",
                  "    except Exception as exc:", f"        {out} = exc"]
    scope: dict = {"OPS": OPERATIONS}
    exec(compile("\n".join(lines) + "\n", f"<call {k}>", "exec"), scope)
    return scope["f"]


def main() -> None:
    side_dir, entry, calls_file, loops, batches = sys.argv[1:6]
    sys.path.insert(0, side_dir)
    sys.dont_write_bytecode = True
    module = importlib.import_module(entry)
    with open(calls_file, "rb") as f:
        packed = f.read()
    calls = unpack(packed)[: int(loops)]
    funcs = [compile_call(ops, k) for k, ops in enumerate(calls)]
    per_call = []
    for _ in range(int(batches)):
        # Fresh objects for every batch, decoded before the clock starts.
        args = [[(op["args"], op["kwargs"]) for op in ops] for ops in unpack(packed)[: int(loops)]]
        t0 = time.perf_counter_ns()
        for f, a in zip(funcs, args, strict=True):
            f(module, a)
        per_call.append((time.perf_counter_ns() - t0) / len(funcs))
    print(statistics.median(per_call))


if __name__ == "__main__":
    main()
