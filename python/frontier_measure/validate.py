"""Validation of a task directory: every problem, each naming its file and field.

The Harbor fields of task.toml, checked as Harbor's task model would
(harbor_fields), then the same audits for every scale (the task loads, its scale's settings read,
there are cases and timing inputs of at least two sizes, every promised
behaviour is covered by a case, golden outputs exist, were recorded from what
the task holds now and cover every case), plus what only the scale's runner
can see (`runner.validate`).

`check()` adds the authoring audit (authoring.py): warnings about what the
cases test (coverage of the reference, public callables no case runs, cases
that test nothing, values excluded as unstable), which `validate --strict`
counts as problems. At module and package scale it also runs the reference
under the task's run-time audit (`runtime_audit`: the audit hook a candidate
runs under, reporting every violation with its stack instead of ending the
run), and, asked (`quick_eval`), times the oracle against the reference on
the smallest timing input within a budget.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import golden, harbor_fields
from .runners import SideFailure, load
from .task import Task, TaskError, read_toml

PYTHON_SCALES = ("module", "package")
QUICK_EVAL_BUDGET_S = 20.0  # validate --quick-eval: the timing's budget, by default


def _harbor_problems(root: Path) -> list[str]:
    """What Harbor's own task model would reject in task.toml (harbor_fields)."""
    if not (root / "task.toml").is_file():
        return []
    problems: list[str] = []
    doc = read_toml(root / "task.toml", "task.toml", problems)
    return harbor_fields.check(doc) if doc else []


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def validate(path: str | Path) -> list[str]:
    """Every problem with a task, as 'file: field: problem' lines (empty = valid)."""
    return check(path, audit=False).problems


def check(path: str | Path, *, audit: bool = True, coverage: bool = True,
          quick_eval: float | None = None) -> Report:
    """Problems and, with `audit`, the run-time audit of the reference (its
    violations are problems) and the authoring audit's warnings and notes
    (only for a task without problems). `quick_eval`: time the oracle against
    the reference within that many seconds, and warn when it is not above
    the task's threshold."""
    report = Report()
    recorded: dict[str, Any] | None = None
    harbor = _harbor_problems(Path(path))
    try:
        task, runner = load(path)
    except TaskError as exc:
        report.problems = _with_harbor(harbor, exc.problems)
        return report
    shape = shape_problems(task, runner)
    if shape:
        report.problems = _with_harbor(harbor, shape)
        return report
    if audit and task.scale in PYTHON_SCALES:
        try:
            found = runtime_audit(task, runner)
        except TaskError as exc:
            report.problems += exc.problems
        else:
            report.problems += found.problems
            report.notes += found.notes
            report.warnings += found.warnings
    problems, recorded = _recording_problems(task, runner)
    report.problems = _with_harbor(harbor, report.problems + problems)
    if audit and not report.problems:
        from .authoring import audit as run_audit

        try:
            warnings, notes = run_audit(task, runner, recorded, coverage=coverage)
        except ImportError as exc:
            warnings, notes = [f"no coverage measured ({exc}; pip install "
                               "'frontier-measure[author]')"], []
        report.warnings += warnings
        report.notes += notes
    if audit and not report.problems:
        copy = oracle_copy_warning(task)
        if copy:
            report.warnings.append(copy)
    if quick_eval is not None and not report.problems:
        q = quick_eval_oracle(path, quick_eval)
        (report.warnings if q.warn else report.notes).append(q.message)
    return report


def _with_harbor(harbor: list[str], problems: list[str]) -> list[str]:
    """Harbor's field checks first; the loader's word on the same field (its
    own type checks keep a malformed task from failing later) is not repeated."""
    fields = {p.split(": ", 1)[0] for p in harbor}
    return harbor + [p for p in problems if p.split(": ", 1)[0] not in fields]


def shape_problems(task: Any, runner: Any) -> list[str]:
    """What a task must meet before anything is recorded: its scale's own
    rules, cases that cover every promised behaviour, timing inputs of at
    least two sizes. `record` checks these first, so a defect is named before
    minutes of recording, not after."""
    problems: list[str] = []
    try:
        problems.extend(runner.validate(task))
        cases = runner.cases(task)
        inputs = runner.timing_inputs(task)
    except TaskError as exc:
        return problems + exc.problems
    # The file the cases come from, named in what is said about them.
    source = next((f"tests/{n}: " for n in ("cases.py", "cases.toml", "inputs.py")
                   if (task.tests_dir / n).is_file()), "")
    if not cases:
        problems.append(f"{source}the task has no functional cases (no behaviour of "
                        "tests/checklist.toml has a case that covers it)")
    if len({t.size for t in inputs}) < 2 or len(inputs) < 2:
        problems.append("the task needs timing inputs of at least 2 sizes")
    covered: dict[str, list[str]] = {b: [] for b in task.behaviours}
    for c in cases:
        for b in c.covers:
            if b not in covered:
                problems.append(f"{source}case '{c.id}'.covers: unknown behaviour '{b}' "
                                "(not in tests/checklist.toml [behaviours])")
            else:
                covered[b].append(c.id)
    for b, ids in covered.items():
        if not ids:
            problems.append(f"tests/checklist.toml [behaviours].{b}: no case covers it")
    return problems


def _problems(task: Any, runner: Any) -> tuple[list[str], dict[str, Any] | None]:
    problems = shape_problems(task, runner)
    if problems:
        return problems, None
    return _recording_problems(task, runner)


def _recording_problems(task: Any, runner: Any) -> tuple[list[str], dict[str, Any] | None]:
    """What is wrong with tests/golden.json, for a task of the right shape."""
    problems: list[str] = []
    cases = runner.cases(task)
    try:
        recorded = golden.load(task, golden.digest(task.reference_dir, runner.held_out(task)))
    except TaskError as exc:
        return problems + exc.problems, None
    seen = {i.split("/", 1)[0] for i in [*recorded["items"], *recorded["excluded"]]}
    for c in cases:
        if c.id not in seen:
            problems.append(f"tests/golden.json: case '{c.id}' has no recorded items "
                            "(re-run `frontier-measure record`)")
    return problems, recorded


# ------------------------------------------------------------ the run-time audit


@dataclass
class RuntimeAudit:
    problems: list[str] = field(default_factory=list)  # violations, each with its stack
    notes: list[str] = field(default_factory=list)  # what libraries imported for themselves
    warnings: list[str] = field(default_factory=list)  # the audit could not run


def runtime_audit(task: Task, runner: Any) -> RuntimeAudit:
    """The reference run under the task's run-time policy (the audit hook a
    candidate's worker installs, here reporting every violation and going on):
    every case, and the first input of every timing input, in the workers and
    sandboxes of an evaluation. Each violation is a problem with the stack that
    caused it; modules the standard library or a permitted library imported
    for themselves are notes (permitted, or violations under
    library_imports = "listed")."""
    out = RuntimeAudit()
    try:
        with runner.open_session(task, task.reference_dir, recording=True) as session:
            session.audit_reference = True
            obs = session.observe("reference", runner.cases(task))
            if obs.failures:
                cid, why = next(iter(obs.failures.items()))
                out.problems.append(f"the reference failed on case '{cid}' in a worker "
                                    f"(as it runs in an evaluation): {why}")
            try:
                session.timing_digests("reference", runner.timing_inputs(task), seeds=1)
            except SideFailure as exc:
                out.problems.append(f"the reference failed on a timing input in a worker: "
                                    f"{exc.reason}")
            reports = session.audit_reports("reference")
    except TaskError:
        raise
    except Exception as exc:  # the machine's: no sandbox, no account ...
        out.warnings.append(f"the run-time audit of the reference could not run here "
                            f"({type(exc).__name__}: {exc})")
        return out
    out.problems += violations_of(task, reports)
    out.notes += library_notes(reports)
    return out


def violations_of(task: Task, reports: list[dict[str, Any]]) -> list[str]:
    """The violations among a report-only hook's reports, described: one per
    violation and place in the reference's code (the same import reached from
    a case and from a timed call is one)."""
    out: dict[tuple[str, str, str], str] = {}
    for r in reports:
        if r.get("notice"):
            continue
        frames = _frames(task, r)
        key = (_what(r), str(r.get("rule")), frames[-1] if frames else "")
        out.setdefault(key, describe_violation(task, r))
    return list(out.values())


_IMPORT_ARGS = re.compile(r"^\('([^']*)'")


def _what(report: dict[str, Any]) -> str:
    event, args = str(report.get("event", "?")), str(report.get("args", ""))
    if event == "import":
        m = _IMPORT_ARGS.match(args)
        return f"import of '{m.group(1) if m else args}'"
    return f"{event} {args[:160]}"


def _frames(task: Task, report: dict[str, Any]) -> list[str]:
    """The report's stack as a traceback reads (most recent call last): the
    reference's files by their path in the task; the import machinery and the
    evaluator's worker left out."""
    ref = os.path.relpath(task.reference_dir, task.path)
    stack = [str(f) for f in report.get("stack", [])]
    whose = list(report.get("whose", [])) + ["?"] * len(stack)
    out = []
    for frame, who in zip(stack, whose, strict=False):
        # The worker's own frames: its boot script, its compiled timed operations.
        if who == "machinery" or "/frontier_measure/" in frame or \
                frame.startswith(("<string>:", "<timed operation>:")):
            continue
        out.append(frame.replace("<reference>/", ref + "/", 1))
    return list(reversed(out))


def describe_violation(task: Task, report: dict[str, Any]) -> str:
    """One violation as a problem: what, the rule, and the stack that caused it."""
    frames = _frames(task, report)
    lines = [f"run time: the reference breaks tests/checklist.toml [compliance]: "
             f"{_what(report)} ({report.get('rule', '?')})"]
    lines += [f"      {f}" for f in frames[-12:]]
    if len(frames) > 12:
        lines.insert(1, f"      ... {len(frames) - 12} frame(s) before")
    return "\n".join(lines)


def library_notes(reports: list[dict[str, Any]]) -> list[str]:
    """What libraries imported for themselves (notices), one line per importer."""
    by: dict[str, list[str]] = {}
    for r in reports:
        # (What the evaluator's worker imports to load the entry is its own.)
        if r.get("notice") and "the library 'frontier_measure'" not in str(r.get("rule")):
            by.setdefault(str(r.get("rule", "")), []).append(str(r.get("args", "")))
    return [f"run time: {', '.join(sorted(set(names)))} {rule}" for rule, names in by.items()]


# ------------------------------------------------------------ the oracle, quickly


def _tree_digest(root: Path) -> str | None:
    """sha256 over a directory's files (compiled caches left out), or None."""
    h = hashlib.sha256()
    try:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".pyc", ".pyo")):
                    continue
                p = Path(dirpath) / name
                h.update(os.path.relpath(p, root).encode() + b"\0" + p.read_bytes() + b"\0")
    except OSError:
        return None
    return h.hexdigest()


def oracle_copy_warning(task: Task) -> str | None:
    """A warning when the oracle (solution/workspace) is the reference byte for
    byte: it cannot be faster, and eval would say so only after timing it."""
    if not task.oracle_dir.is_dir() or not task.reference_dir.is_dir():
        return None
    if _tree_digest(task.oracle_dir) == _tree_digest(task.reference_dir) is not None:
        return (f"{os.path.relpath(task.oracle_dir, task.path)}: the oracle is a byte copy of "
                f"the reference: it cannot be faster than the {task.threshold:g}x threshold")
    return None


@dataclass
class QuickEval:
    """The oracle timed against the reference on one timing input."""

    message: str
    warn: bool
    input_id: str | None = None
    speedup: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    threshold: float | None = None
    elapsed_s: float = 0.0


def quick_eval_oracle(path: str | Path, budget_s: float = QUICK_EVAL_BUDGET_S) -> QuickEval:
    """Time the task's oracle against its reference on the smallest timing
    input, through the evaluator's own timing (the paired, interleaved blocks
    of `eval`, its output checks included), within `budget_s` seconds of
    timing: the plan's time cap, no extension past it. A warning when the
    oracle is not above the task's threshold (its estimate at or below it, a
    byte copy, a timed output that differs, a side that fails), a note
    otherwise (above by its estimate; whether the interval already clears
    the threshold is said)."""
    from .evaluate import _timing_lock
    from .perf import COST_UNITS
    from .results import performance
    from .runners import fresh_timing_seed

    started = time.perf_counter()
    task, runner = load(path)
    copy = oracle_copy_warning(task)
    if copy is not None:
        return QuickEval(f"quick eval: {copy}", True, threshold=task.threshold)
    if not task.oracle_dir.is_dir():
        return QuickEval(f"quick eval: no oracle to time "
                         f"({os.path.relpath(task.oracle_dir, task.path)} is missing)", True)
    inputs = runner.timing_inputs(task)
    if not inputs:
        return QuickEval("quick eval: the task has no timing inputs", True)
    smallest = min(inputs, key=lambda t: (t.size is None, t.size or 0))
    budget = max(1.0, float(budget_s))
    t = task.timing
    task.timing = dataclasses.replace(t, max_time_s=budget, max_time_cap_s=budget,
                                      decide_blocks=0)
    try:
        with runner.open_session(task, task.oracle_dir) as session:
            for side in ("reference", "candidate"):
                b = session.build(side)
                if not b.ok:
                    who = "reference" if side == "reference" else "oracle"
                    return QuickEval(f"quick eval: the {who} does not build ({b.status})", True)
            with _timing_lock(runner, None):
                timings = session.time([smallest], None, seed=fresh_timing_seed())
    except SideFailure as exc:
        who = "oracle" if exc.side == "candidate" else exc.side
        return QuickEval(f"quick eval: the {who} failed: {exc.reason}", True)
    perf, failure = performance(timings, task.threshold, task.cost, COST_UNITS[task.cost])
    d = perf["inputs"][0]
    elapsed = time.perf_counter() - started
    size = f", size {smallest.size}" if smallest.size is not None else ""
    where = f"'{smallest.id}'{size}"
    if d["error"]:
        who = "the oracle" if d.get("error_side") in (None, "candidate") else "the reference"
        return QuickEval(f"quick eval: on timing input {where}, {who} failed: {d['error']}",
                         True, smallest.id, threshold=task.threshold, elapsed_s=elapsed)
    q = QuickEval("", False, smallest.id, d.get("speedup"), d.get("ci_low"), d.get("ci_high"),
                  task.threshold, elapsed)
    est = q.speedup
    interval = (f" (interval {q.ci_low:.2f}x..{q.ci_high:.2f}x)"
                if q.ci_low is not None and q.ci_high is not None else "")
    head = (f"quick eval: the oracle measures {est:.2f}x{interval} against the reference on "
            f"timing input {where}" if est is not None else
            f"quick eval: no speedup could be measured on timing input {where}")
    tail = f" [{elapsed:.0f} s, a {budget:g} s timing budget; `eval` decides]"
    if est is None or est <= task.threshold:
        q.warn = True
        q.message = head + f": not above the task's {task.threshold:g}x threshold" + tail
    elif d.get("meets_threshold"):
        q.message = head + f": above the {task.threshold:g}x threshold" + tail
    else:
        q.message = (head + f": above the {task.threshold:g}x threshold by its estimate, not "
                     f"yet shown in this budget" + tail)
    return q
