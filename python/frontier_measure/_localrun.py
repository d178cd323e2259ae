"""Runs a task's functional cases on one copy of Python code, for authoring
tools (authoring.py): `validate`'s coverage and `mutate`'s mutants.

Not an evaluation: the code is the author's own reference (or a mutant of it),
trusted, run in a plain child process of the evaluator with no isolation and
no clock. Reads one msgpack request on stdin

    {root, entry, cases: [[id, ops], ...], coverage: bool, out: path}

and writes one msgpack reply to `out` (stdout is the code's own):

    {items: {"case/op/kind": value}, unresolved: {case: [[op, why]]},
     failures: {case: why}, error: str?, coverage: {...}?}

With coverage, the cases run under coverage.py (statements and branches of
every .py file below root) and the reply says which public callables of the
entry (its `__all__`, else its public names defined below root, and their
classes' methods) never ran.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
from typing import Any

from .observe import pack, unpack
from .worker import Worker, import_entry


def _code_of(obj: Any) -> Any:
    obj = inspect.unwrap(obj) if callable(obj) else obj
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    return getattr(obj, "__code__", None)


def _body_lines(code: Any) -> set[int]:
    lines = {line for _s, _e, line in code.co_lines() if line is not None}
    body = lines - {code.co_firstlineno}
    return body or lines


def public_callables(module: Any, root: str) -> list[tuple[str, Any]]:
    """(name, code object) of every public function, class method and
    property of `module` whose code lives below `root`."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    out: list[tuple[str, Any]] = []

    def mine(code: Any) -> bool:
        return code is not None and os.path.realpath(code.co_filename).startswith(root + os.sep)

    for name in sorted(set(names)):
        obj = getattr(module, name, None)
        if inspect.isclass(obj):
            for attr, member in sorted(vars(obj).items()):
                if attr.startswith("_") and not (attr.startswith("__") and attr.endswith("__")):
                    continue
                code = _code_of(member)
                if mine(code):
                    out.append((f"{name}.{attr}", code))
        elif callable(obj):
            code = _code_of(obj)
            if mine(code):
                out.append((name, code))
    return out


def main() -> int:
    req = unpack(sys.stdin.buffer.read())
    root = os.path.realpath(req["root"])
    reply: dict[str, Any] = {"items": {}, "unresolved": {}, "failures": {}}
    cov = None
    if req.get("coverage"):
        import coverage

        cov = coverage.Coverage(data_file=None, branch=True, source=[root], config_file=False)
        if req.get("every_line"):
            cov.clear_exclude()  # a library's "pragma: no cover" lines run all the same
        cov.start()
    sys.path.insert(0, root)
    worker = Worker()
    real_stdout = sys.stdout
    try:
        worker.module = import_entry(req["entry"], req.get("imports", ()))
    except BaseException as exc:
        reply["error"] = f"importing '{req['entry']}' raised {type(exc).__name__}: {exc}"
    else:
        for cid, ops in req["cases"]:
            try:
                items = worker.observe(ops)
            except BaseException as exc:
                sys.stdout = real_stdout
                reply["failures"][cid] = f"{type(exc).__name__}: {exc}"
                continue
            for key, value in items.items():
                reply["items"][f"{cid}/{key}"] = value
            if worker.unresolved:
                reply["unresolved"][cid] = [[j, why] for j, why in worker.unresolved]
    if cov is not None:
        cov.stop()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "coverage.json")
            cov.json_report(outfile=path)
            with open(path) as f:
                data = json.load(f)
        files = {}
        executed: dict[str, set[int]] = {}
        for name, info in data["files"].items():
            rel = os.path.relpath(os.path.realpath(name), root)
            s = info["summary"]
            files[rel] = {"statements": s["num_statements"], "covered": s["covered_lines"],
                          "branches": s.get("num_branches", 0),
                          "covered_branches": s.get("covered_branches", 0),
                          "missing_lines": info["missing_lines"],
                          "executed_lines": info["executed_lines"]}
            executed[os.path.realpath(name)] = set(info["executed_lines"])
        uncovered = []
        if worker.module is not None:
            for name, code in public_callables(worker.module, root):
                ran = executed.get(os.path.realpath(code.co_filename), set())
                if not ran & _body_lines(code):
                    uncovered.append(name)
        reply["coverage"] = {"files": files, "uncovered_callables": uncovered}
    with open(req["out"], "wb") as f:
        f.write(pack(reply))
    return 0


if __name__ == "__main__":
    sys.exit(main())
