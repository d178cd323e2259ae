"""The verification gate: conjunctive, every sub-check recorded with its output.

* A performance task passes through the evaluator: strict success (compliant,
  functionally identical on every held-out item, and faster than the threshold on
  the worst timing input). The evaluation holds the measurement lock.
* A RefactorBench task passes when every one of its AST unit tests passes; there
  is no partial credit. Each test is a sub-check.

CodeBLEU against a reference (the oracle's workspace, or the reference files the
importer made from a hand-written solution) is logged as a diagnostic: it never
enters pass/fail.

The gate runs on the host, after the agent and its container are gone: it reads
the attempt's checkout, and nothing the agent left can run in its place.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .tasks import PlatformTask

AST_RUNNER = Path(__file__).resolve().parent / "refactorbench" / "run_ast_tests.py"


@dataclass
class Check:
    name: str
    passed: bool | None
    output: str = ""
    kind: str = "gate"  # gate | diagnostic
    value: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "passed": self.passed, "value": self.value,
                "output": self.output}


@dataclass
class GateResult:
    passed: bool
    checks: list[Check] = field(default_factory=list)
    speedup: float | None = None
    codebleu: float | None = None
    error: str | None = None  # the gate itself could not run: no verdict on the candidate
    lock_wait_s: float | None = None
    # gate+: the gate and the static check and the import smoke test (None: the static
    # check could not run, so gate+ has no verdict)
    passed_plus: bool | None = None
    inconclusive: bool = False  # the timing was too noisy to decide: no verdict either

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "passed_plus": self.passed_plus, "error": self.error,
                "inconclusive": self.inconclusive,
                "speedup": self.speedup,
                "codebleu": self.codebleu, "lock_wait_s": self.lock_wait_s,
                "checks": [c.to_dict() for c in self.checks]}


def run_gate(task: PlatformTask, workspace: Path, out_dir: Path, *,
             isolation: str | None = None, timeout_s: float = 600,
             progress: Callable[[str], None] | None = None) -> GateResult:
    """Judge the checkout `workspace` of one attempt (blocking: the runner runs it in
    a process of its own, gate_process.py). `progress` is told each step."""
    say = progress or (lambda text: None)
    if task.kind == "performance":
        res = _performance(task, workspace, out_dir, isolation, progress)
        res.passed_plus = res.passed
    else:
        say("AST tests")
        res = _ast_tests(task, workspace, timeout_s)
        if res.error is None:
            gate_plus(task, workspace, res, timeout_s, say)
    say("CodeBLEU")
    diag = codebleu_check(task, workspace)
    if diag is not None:
        res.checks.append(diag)
        res.codebleu = diag.value
    return res


# ---------------------------------------------------------------- performance tasks


def _performance(task: PlatformTask, workspace: Path, out_dir: Path,
                 isolation: str | None, progress: Callable[[str], None] | None = None) \
        -> GateResult:
    from ..evaluate import evaluate

    # The evaluation holds the measurement lock while it times (evaluate.py), and
    # says so while it waits for it.
    try:
        r = evaluate(task.path, workspace, out=out_dir, isolation=isolation, progress=progress)
    except Exception as exc:  # the evaluation's own failure, not a verdict
        return GateResult(False, [Check("evaluation", None, f"{type(exc).__name__}: {exc}")],
                          error=f"the evaluation could not be completed: {exc}")
    failure = r.get("failure") or {}
    stage = failure.get("stage")
    reason = f"{failure.get('rule')}: {failure.get('reason')}" if failure else ""
    comp = r.get("compliance") or {}
    fun = r.get("functional") or {}
    perf = r.get("performance") or {}
    checks = [Check("compliance", comp.get("compliant") if comp else None,
                    reason if stage == "compliance" else
                    f"{len(comp.get('findings', []))} finding(s)" if comp else "did not run")]
    checks.append(Check("functional", None if not fun.get("ran") else stage != "functional",
                        (fun.get("summary", "") + (f"; {reason}" if stage == "functional" else ""))
                        if fun.get("ran") else "did not run"))
    if perf.get("ran"):
        checks.append(Check("performance", bool(perf.get("meets_threshold")),
                            f"worst input {perf.get('worst_input')}: speedup "
                            f"{_fmt(perf.get('speedup'))}, verdict {perf.get('verdict')}, "
                            f"threshold {perf.get('threshold')}x"
                            + (f"; {reason}" if stage == "performance" else ""),
                            value=perf.get("speedup")))
    else:
        checks.append(Check("performance", None, "did not run"))
    passed = bool(r.get("strict_success"))
    checks.append(Check("strict-success", passed, reason or "all three stages passed"))
    from ..results import outcome

    return GateResult(passed, checks, speedup=perf.get("speedup"),
                      lock_wait_s=perf.get("lock_wait_s"),
                      inconclusive=outcome(r) == "inconclusive")


def gate_plus(task: PlatformTask, workspace: Path, res: GateResult, timeout_s: float,
              say: Callable[[str], None] = lambda text: None) -> None:
    """Add gate+'s two checks (kind 'gate+') to a RefactorBench gate's result."""
    from . import static
    from .refactorbench import BASE_IMAGE

    say("gate+: static check")
    try:
        ok, out, _ = static.static_check(task.pristine, workspace, timeout_s)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        ok, out = None, f"not run: {type(exc).__name__}: {exc}"
    res.checks.append(Check("static-check", ok, out, kind="gate+"))
    say("gate+: import smoke test")
    try:
        smoke, sout = static.import_smoke(task.path, task.pristine, workspace, BASE_IMAGE,
                                          timeout_s)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        smoke, sout = None, f"not run: {type(exc).__name__}: {exc}"
    res.checks.append(Check("import-smoke", smoke, sout, kind="gate+"))
    # An inconclusive smoke test (the modules' dependencies are not in the image)
    # leaves the verdict to the static check; a static check that could not run
    # leaves gate+ without one.
    if not res.passed or ok is False or smoke is False:
        res.passed_plus = False
    elif ok is None:
        res.passed_plus = None
    else:
        res.passed_plus = True


def _fmt(x: Any) -> str:
    return f"{x:.2f}x" if isinstance(x, (int, float)) else "n/a"


# ---------------------------------------------------------------- RefactorBench tasks


def _ast_tests(task: PlatformTask, workspace: Path, timeout_s: float) -> GateResult:
    test = task.path / "tests" / str(task.meta.get("test", ""))
    if not test.is_file():
        return GateResult(False, [Check("ast-tests", None, f"{test}: missing")],
                          error=f"the task's test file is missing: {test}")
    results, error = run_ast_tests(test, workspace, timeout_s)
    if error is not None:
        return GateResult(False, [Check("ast-tests", None, error)],
                          error=f"the AST tests could not run: {error}")
    checks = [Check(r["name"], bool(r["passed"]), r.get("output", "")) for r in results]
    passed = bool(checks) and all(c.passed for c in checks)
    return GateResult(passed, checks)


def run_ast_tests(test: Path, workspace: Path, timeout_s: float = 120) \
        -> tuple[list[dict[str, Any]], str | None]:
    """Run one RefactorBench test file against a repository tree. Its tests open
    files as '../<path>', so they run in a fresh directory one level below the
    repository root; in isolated mode (-I), so nothing in the tree is imported."""
    here = workspace / f".fm-gate-{secrets.token_hex(4)}"
    here.mkdir()
    try:
        r = subprocess.run([sys.executable, "-I", str(AST_RUNNER), str(test.resolve())],
                           cwd=here, capture_output=True, text=True, timeout=timeout_s,
                           env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"})
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout_s:g} s"
    finally:
        shutil.rmtree(here, ignore_errors=True)
    try:
        report = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return [], f"no report from the test runner (exit {r.returncode}): {r.stderr[-1000:]}"
    if report.get("error"):
        return [], str(report["error"])
    return list(report.get("tests", [])), None


# ---------------------------------------------------------------- CodeBLEU (diagnostic)


def reference_files(task: PlatformTask) -> dict[str, str]:
    """Python files of the reference solution, by path relative to the workspace."""
    for rel in ("solution/workspace", "solution/reference"):
        root = task.path / rel
        if root.is_dir():
            out = {}
            for p in sorted(root.rglob("*.py")):
                if "__pycache__" not in p.parts:
                    try:
                        out[str(p.relative_to(root))] = p.read_text()
                    except (OSError, UnicodeDecodeError):
                        continue
            return out
    return {}


def codebleu_check(task: PlatformTask, workspace: Path) -> Check | None:
    refs = reference_files(task)
    if not refs:
        return None
    cands = []
    for rel in refs:
        try:
            cands.append((workspace / rel).read_text())
        except (OSError, UnicodeDecodeError):
            cands.append("")
    try:
        score = codebleu(list(refs.values()), cands)
    except Exception as exc:  # a diagnostic never fails an attempt
        return Check("codebleu", None, f"not computed: {type(exc).__name__}: {exc}",
                     kind="diagnostic")
    return Check("codebleu", None, json.dumps({k: round(v, 4) for k, v in score.items()}),
                 kind="diagnostic", value=score["codebleu"])


def codebleu(references: list[str], candidates: list[str]) -> dict[str, float]:
    """Corpus CodeBLEU (Python) of candidates against references, file by file."""
    from codebleu import calc_codebleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dict(calc_codebleu([[r] for r in references], candidates, lang="python"))
