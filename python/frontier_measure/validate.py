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
counts as problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import golden, harbor_fields
from .runners import load
from .task import TaskError, read_toml


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


def check(path: str | Path, *, audit: bool = True, coverage: bool = True) -> Report:
    """Problems and, with `audit`, the authoring audit's warnings and notes
    (only for a task without problems)."""
    report = Report()
    recorded: dict[str, Any] | None = None
    harbor = _harbor_problems(Path(path))
    try:
        task, runner = load(path)
    except TaskError as exc:
        report.problems = _with_harbor(harbor, exc.problems)
        return report
    problems, recorded = _problems(task, runner)
    report.problems = _with_harbor(harbor, problems)
    if audit and not report.problems:
        from .authoring import audit as run_audit

        try:
            report.warnings, report.notes = run_audit(task, runner, recorded, coverage=coverage)
        except ImportError as exc:
            report.warnings.append(f"no coverage measured ({exc}; pip install "
                                   "'frontier-measure[author]')")
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
