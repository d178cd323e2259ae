"""Tools for task authors: what the functional cases of a Python task reach.

`validate` (validate.py) asks `audit()` for warnings about a module or package
task's cases: how much of the reference S they run (statement and branch
coverage, coverage.py), which public callables of S no case runs, which cases
test nothing (every operation fails before reaching S: a name S does not have,
so both sides raise the same AttributeError), and which recorded values were
excluded as unstable. `mutate` (mutate.py) runs its mutants through
`run_cases()`.

Cases run on a private copy of the code in a plain child process
(`_localrun.py`): author tooling over the author's own code, not an
evaluation (no isolation, no timing).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .compliance import python as python_compliance
from .observe import pack, unpack
from .runners import Case
from .task import Task

COVERAGE_TARGET = 0.90  # statement coverage of S below which validate warns
PYTHON_SCALES = ("module", "package")


@dataclass
class LocalRun:
    """What the cases observed on one copy of the code."""

    items: dict[str, Any] = field(default_factory=dict)
    unresolved: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    coverage: dict[str, Any] | None = None

    @property
    def statements(self) -> tuple[int, int]:
        files = (self.coverage or {}).get("files", {}).values()
        return sum(f["covered"] for f in files), sum(f["statements"] for f in files)

    @property
    def branches(self) -> tuple[int, int]:
        files = (self.coverage or {}).get("files", {}).values()
        return sum(f["covered_branches"] for f in files), sum(f["branches"] for f in files)


def copy_code(task: Task, source: Path, dest: Path) -> Path:
    """A copy of `source` at `dest/side` without what is never run (compiled
    caches, the paths the task excludes from the candidate surface)."""
    rules = task.settings.compliance

    def leave_out(directory: str, names: list[str]) -> set[str]:
        rel = os.path.relpath(directory, source)
        return {n for n in names if python_compliance.ignored(n) or python_compliance.excluded(
            os.path.normpath(os.path.join(rel, n)), rules)}

    target = dest / "side"
    shutil.copytree(source, target, symlinks=True, ignore=leave_out)
    return target


def run_cases(task: Task, root: Path, cases: list[Case], *, coverage: bool = False,
              timeout: float | None = None, every_line: bool = False) -> LocalRun:
    """Run `cases` on the code at `root` (already a private copy) in a child
    process; a LocalRun, with `error` set when the code would not import or
    the run timed out or crashed. `every_line`: coverage ignores the code's
    own `# pragma: no cover` marks (mutate needs every line that ran)."""
    with tempfile.TemporaryDirectory(prefix="fm-localrun-") as tmp:
        out = Path(tmp) / "reply.msgpack"
        req = {"root": str(root), "entry": task.entry, "imports": list(task.imports),
               "coverage": coverage, "out": str(out),
               "every_line": every_line,
               "cases": [[c.id, c.payload] for c in cases]}
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["PYTHONHASHSEED"] = "0"
        try:
            r = subprocess.run([sys.executable, "-B", "-m", "frontier_measure._localrun"],
                               input=pack(req), cwd=tmp, env=env, capture_output=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return LocalRun(error=f"timed out after {timeout:g} s")
        if r.returncode != 0 or not out.is_file():
            tail = r.stderr.decode(errors="replace").strip().splitlines()[-3:]
            return LocalRun(error=f"exited with status {r.returncode}: " + " | ".join(tail))
        reply = unpack(out.read_bytes())
    return LocalRun(items=reply["items"],
                    unresolved={k: [(int(j), str(w)) for j, w in v]
                                for k, v in reply["unresolved"].items()},
                    failures=reply["failures"], error=reply.get("error"),
                    coverage=reply.get("coverage"))


def measure(task: Task, runner: Any, *, coverage: bool = True) -> LocalRun:
    """The functional cases run on a copy of the reference, with coverage."""
    with tempfile.TemporaryDirectory(prefix="fm-audit-") as tmp:
        root = copy_code(task, task.reference_dir, Path(tmp))
        return run_cases(task, root, runner.cases(task), coverage=coverage,
                         timeout=max(60.0, task.case_timeout_s * 4))


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.0%} ({part}/{whole})" if whole else "n/a (nothing to cover)"


def _listing(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def audit(task: Task, runner: Any, golden: dict[str, Any] | None,
          coverage: bool = True) -> tuple[list[str], list[str]]:
    """(warnings, notes) about what the functional cases test.

    Notes are facts (coverage figures); warnings are what an author should
    look at, each with a count. For module and package tasks the cases are
    run on the reference (with coverage.py unless `coverage` is false); for
    every scale the recorded values excluded as unstable are counted."""
    warnings: list[str] = []
    notes: list[str] = []
    if task.scale in PYTHON_SCALES:
        if coverage and importlib.util.find_spec("coverage") is None:
            warnings.append("coverage.py is not installed, so no coverage was measured "
                            "(pip install 'frontier-measure[author]')")
            coverage = False
        run = measure(task, runner, coverage=coverage)
        if run.error:
            warnings.append(f"the cases could not be run on the reference for the audit: "
                            f"{run.error}")
        else:
            cases = runner.cases(task)
            nothing = [c.id for c in cases if c.id in run.unresolved
                       and len(run.unresolved[c.id]) == len(c.payload)]
            if nothing:
                why = run.unresolved[nothing[0]][0][1]
                warnings.append(f"{len(nothing)} case(s) test nothing: every operation fails "
                                f"before reaching the reference (e.g. {why}), so both sides "
                                f"raise the same error: {_listing(nothing)}")
            partial = [(f"{cid} op {j}", why) for cid, ops in run.unresolved.items()
                       if cid not in nothing for j, why in ops]
            unkept = [(where, why) for where, why in partial if "was not kept" in why]
            missing = [where for where, why in partial if "was not kept" not in why]
            if missing:
                warnings.append(f"{len(missing)} operation(s) name something the reference "
                                f"does not have: {_listing(missing)}")
            if unkept:
                warnings.append(f"{len(unkept)} operation(s) use a value an earlier operation "
                                f"failed to keep (e.g. {unkept[0][0]}: {unkept[0][1]}): "
                                f"{_listing([where for where, _ in unkept])}")
            if run.coverage is not None:
                (sc, st), (bc, bt) = run.statements, run.branches
                notes.append(f"coverage of the reference by the functional cases: statements "
                             f"{_pct(sc, st)}, branches {_pct(bc, bt)}")
                if st and sc / st < COVERAGE_TARGET:
                    worst = sorted(run.coverage["files"].items(),
                                   key=lambda kv: kv[1]["covered"] - kv[1]["statements"])
                    missing = [f"{rel} ({f['statements'] - f['covered']} lines)"
                               for rel, f in worst if f["covered"] < f["statements"]]
                    warnings.append(f"statement coverage {sc / st:.0%} is below "
                                    f"{COVERAGE_TARGET:.0%}: {st - sc} statement(s) of the "
                                    f"reference no case runs, most in {_listing(missing, 4)}")
                un = run.coverage["uncovered_callables"]
                if un:
                    warnings.append(f"{len(un)} public callable(s) no case runs: {_listing(un)}")
    if golden is not None and golden.get("excluded"):
        ex = golden["excluded"]
        first = next(iter(ex.items()))
        hint = (" (a list of a generator, a sorted set)" if task.scale in PYTHON_SCALES
                else "")
        warnings.append(f"{len(ex)} recorded value(s) excluded as unstable, so compared by "
                        f"nothing (e.g. {first[0]}: {first[1]}); make the case observe a "
                        f"stable form{hint}")
    return warnings, notes
