"""The report's tables as plain data (headers and rows of strings).

Markdown and HTML render the same `Table`s, so both formats always show the
same cells. Symbols: ✓ passed, ✗ failed, N/A no speedup because functionality
failed, — no attempt of the task was functional.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .model import PASS_RATE_BUCKETS, Attempt, Funnel, Report

OK, FAIL, NA, NONE = "✓", "✗", "N/A", "—"
NEAREST_MISSES = 15  # how many functional failures are listed by name
REASON_CHARS = 140


@dataclass(frozen=True)
class Table:
    key: str  # stable identifier (html anchors, tests)
    title: str
    headers: list[str]
    rows: list[list[str]]
    align: str  # one of l/r/c per column
    notes: list[str] = field(default_factory=list)
    # Optional header groups over the columns, as (label, span); "" leaves columns ungrouped.
    # HTML shows them as a header row above; flat formats prefix each header with its label.
    groups: list[tuple[str, int]] = field(default_factory=list)

    @property
    def flat_headers(self) -> list[str]:
        if not self.groups:
            return list(self.headers)
        out, col = [], 0
        for label, span in self.groups:
            for h in self.headers[col:col + span]:
                out.append(f"{label} {h}" if label else h)
            col += span
        return out


# -- cell formatting ---------------------------------------------------------------------


def mark(ok: bool) -> str:
    return OK if ok else FAIL


def ratio(x: float | None) -> str:
    """A speedup with about three significant digits and a times sign."""
    if x is None or not math.isfinite(x):
        return NA
    if x >= 100:
        return f"{x:.0f}×"
    if x >= 10:
        return f"{x:.1f}×"
    return f"{x:.2f}×"


def interval(lo: float | None, hi: float | None) -> str:
    if lo is None or hi is None:
        return NONE
    return f"{ratio(lo)} – {ratio(hi)}"


def percent(x: float | None) -> str:
    """A rate as a percentage; anything short of all shows below 100.0% (99.96% is
    "99.9%"), and anything above none above 0.0%, so a failure never reads as a pass."""
    if x is None:
        return NONE
    text = f"{x * 100:.1f}%"
    if x < 1 and text == "100.0%":
        return "99.9%"
    if x > 0 and text == "0.0%":
        return "0.1%"
    return text


def count_of(n: int, total: int) -> str:
    return f"{n}/{total} ({percent(n / total)})" if total else "0/0"


def number(x: float | None) -> str:
    if x is None:
        return NONE
    return f"{x:g}"


def threshold(x: float | None) -> str:
    return NONE if x is None else f"≥ {x:g}×"


def shorten(text: str | None, limit: int = REASON_CHARS) -> str:
    if not text:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def items(a: Attempt) -> str:
    if a.passed is None or a.total is None:
        return NONE
    return f"{a.passed}/{a.total}"


def outcome(a: Attempt) -> str:
    """One word for where an attempt stopped."""
    if a.strict:
        return "strict success"
    if a.inconclusive:
        return "inconclusive: too noisy to decide, re-run"
    if a.failure_stage:
        return f"{a.failure_stage}: {a.failure_rule}" if a.failure_rule else a.failure_stage
    # result.json is written even when the evaluation itself broke off
    return "incomplete: the evaluation stopped before a verdict"


# -- tables ------------------------------------------------------------------------------


def summary(report: Report) -> Table:
    steps = report.has_steps
    headers = ["Scale", "Tasks", "Attempts", "Functional pass rate", "Strict success",
               "Inconclusive"]
    if steps:
        headers.append("Median steps")
    headers += ["Faster attempts", "Median speedup of faster attempts"]
    rows = []
    for s in report.summaries():
        row = [s.scale, str(s.tasks), str(s.attempts), count_of(s.functional, s.attempts),
               count_of(s.strict, s.attempts), str(s.inconclusive)]
        if steps:
            row.append(number(s.median_steps))
        row += [str(s.faster), ratio(s.median_faster_speedup) if s.faster else NONE]
        rows.append(row)
    return Table("summary", "Summary by scale", headers, rows, "l" + "r" * (len(headers) - 1),
                 ["Functional pass rate: attempts whose every held-out item matched the reference. "
                  "Inconclusive: attempts whose timing was too noisy to decide the threshold "
                  "(no verdict, no reward; not failures: re-run them on a quieter machine). "
                  "Faster: every timing input's confidence interval lies above 1×; their "
                  "speedup is the worst input's."])


_ATTEMPT_STAGES = (
    ("attempts", "Attempts"),
    ("compliant", "compliant"),
    ("functional", "functional"),
    ("faster", "genuinely faster (CI excludes 1×)"),
    ("meets_threshold", "at or above the threshold"),
)
_TASK_STAGES = (
    ("tasks", "Tasks"),
    ("solved", "solved at least once (functional)"),
    ("strictly_solved", "strictly solved at least once"),
    ("always_strictly_solved", "strictly solved on every attempt"),
)


def funnel(report: Report) -> Table:
    scales = report.scales
    funnels: list[Funnel] = [report.funnel(s) for s in scales] + [report.funnel()]
    headers = ["Stage"] + scales + ["All"]
    rows = []
    for stages, base in ((_ATTEMPT_STAGES, "attempts"), (_TASK_STAGES, "tasks")):
        for key, label in stages:
            row = [label if key == base else f"→ {label}"]
            for f in funnels:
                n, total = getattr(f, key), getattr(f, base)
                row.append(str(n) if key == base else count_of(n, total))
            rows.append(row)
    notes = ["Each attempt stage counts the attempts that also passed every stage above it. "
             "A task is solved when an attempt is functional, strictly solved when an attempt "
             "is also at or above the task's threshold on its worst timing input."]
    broken = sum(not a.inspected for a in report.attempts)
    if broken:
        notes.append(f"{broken} of the attempts that are not compliant never reached the "
                     "compliance check: their evaluation broke off first (see Attempts).")
    return Table("funnel", "Funnel", headers, rows, "l" + "r" * (len(headers) - 1), notes)


def scale_tasks(report: Report, scale: str) -> Table:
    """One row per task; per attempt: functionality, speedup, strict success (and steps)."""
    tasks = report.tasks_of(scale)
    numbers = sorted({a.number for t in tasks for a in t.attempts})
    steps = any(a.steps is not None for t in tasks for a in t.attempts)
    # The per-task totals come first so they stay in view when many attempts scroll.
    headers, align = ["Task", "Threshold", "Strict", "Best speedup"], "lrrr"
    groups = [("", 4)]
    for n in numbers:
        headers += ["functional", "speedup", "strict"]
        align += "crc"
        if steps:
            headers.append("steps")
            align += "r"
        groups.append((f"#{n}", 4 if steps else 3))
    rows = []
    for t in tasks:
        by_number = {a.number: a for a in t.attempts}
        all_failed = not t.solved
        strict = sum(a.strict for a in t.attempts)
        row = [t.name, threshold(t.threshold), f"{strict}/{len(t.attempts)}",
               NONE if all_failed else ratio(t.best_speedup)]
        for n in numbers:
            a = by_number.get(n)
            if a is None:
                row += ["", "", ""] + ([""] if steps else [])
                continue
            if all_failed:
                speed = NONE
            elif not a.functional:
                speed = NA
            else:
                speed = ratio(a.speedup)
            row += [mark(a.functional), speed, mark(a.strict)]
            if steps:
                row.append(number(a.steps))
        rows.append(row)
    return Table(f"tasks-{scale}", f"{scale} scale: tasks", headers, rows, align,
                 ["Strict: attempts with strict success. #n: attempt n. "
                  "Speedup: reference cost / candidate cost on the worst timing "
                  f"input. {NA}: functionality failed, so the attempt was not timed; "
                  f"{NONE}: no attempt of the task was functional."], groups)


def scale_attempts(report: Report, scale: str) -> Table:
    """Every attempt in detail: where it stopped and why."""
    steps = any(a.steps is not None for t in report.tasks_of(scale) for a in t.attempts)
    headers = ["Task", "#", "Candidate", "Compliant", "Items passed", "Speedup", "Verdict",
               "Strict"]
    align = "lrlcrrlc"
    if steps:
        headers.append("Steps")
        align += "r"
    headers.append("Outcome")
    align += "l"
    rows = []
    for t in report.tasks_of(scale):
        for a in t.attempts:
            label = a.label + (" (oracle)" if a.is_oracle and a.agent != "oracle" else "")
            row = [t.name, str(a.number), label, mark(a.compliant) if a.inspected else NONE,
                   items(a) if a.functional_ran else NONE,
                   ratio(a.speedup) if a.timed else NA, a.perf_verdict or NONE, mark(a.strict)]
            if steps:
                row.append(number(a.steps))
            why = f" — {a.failure_reason}" if a.failure_reason else ""
            row.append(shorten(outcome(a) + why))
            rows.append(row)
    return Table(f"attempts-{scale}", f"{scale} scale: attempts", headers, rows, align)


def scale_inputs(report: Report, scale: str) -> Table:
    """Per-input speedups of every timed attempt, with intervals and the threshold."""
    headers = ["Task", "#", "Timing input", "Size", "Rounds", "Speedup", "95% CI",
               "Lower bound", "Threshold", "Verdict", "Meets threshold"]
    rows = []
    for a in report.timed_attempts(scale):
        for i in a.inputs:
            if i.ci_low is not None and i.ci_low == i.ci_high:
                ci = "exact"  # a deterministic cost (simulated cycles) has no spread
            else:
                conf = f"{i.confidence:.0%} CI: " if i.confidence not in (None, 0.95) else ""
                ci = conf + interval(i.ci_low, i.ci_high)
            rows.append([
                a.task, str(a.number), i.id, "" if i.size is None else str(i.size),
                number(i.rounds), ratio(i.speedup), ci,
                ratio(i.lower_bound) if i.lower_bound is not None else NONE,
                threshold(a.threshold),
                f"error: {shorten(i.error, 80)}" if i.error else (i.verdict or NONE),
                mark(i.meets_threshold is True),
            ])
    return Table(f"inputs-{scale}", f"{scale} scale: speedup per timing input", headers, rows,
                 "lrlrrrrrrlc",
                 ["Lower bound: the one-sided bound the threshold is tested against (margin test); "
                  "an input meets the threshold only when this bound is above it."])


def pass_rate_distribution(report: Report) -> Table:
    scales = [s for s in report.scales
              if any(a.scale == s for a in report.functional_failures())]
    headers = ["Items passed"] + scales + ["All"]
    per_scale = [report.pass_rate_buckets(s) for s in scales] + [report.pass_rate_buckets()]
    rows = [[b] + [str(c[b]) for c in per_scale] for b in PASS_RATE_BUCKETS]
    return Table("pass-rates", "How close functional failures came", headers, rows,
                 "l" + "r" * (len(headers) - 1),
                 ["Per-item pass rate of each attempt that ran its functional cases and failed "
                  "(attempts stopped by compliance are not counted; no items at all "
                  "counts as 0%)."])


def nearest_misses(report: Report, limit: int = NEAREST_MISSES) -> Table:
    fails = report.functional_failures()
    rows = []
    for a in fails[:limit]:
        first = ", ".join(a.failed_items[:3])
        if len(a.failed_items) > 3:
            first += f" (+{len(a.failed_items) - 3} more)"
        rows.append([a.scale, a.task, str(a.number), a.label, items(a), percent(a.pass_rate),
                     shorten(first, 100) or NONE, shorten(a.failure_reason)])
    notes = []
    if len(fails) > limit:
        notes.append(f"{len(fails) - limit} more functional failures are in attempts.csv.")
    return Table("nearest-misses", "Nearest misses", ["Scale", "Task", "#", "Candidate",
                 "Items passed", "Pass rate", "Failing items", "First failure"], rows,
                 "llrlrrll", notes)


def skipped(report: Report) -> Table:
    return Table("skipped", "Skipped files", ["File", "Reason"],
                 [[s.path, s.reason] for s in report.skipped], "ll")
