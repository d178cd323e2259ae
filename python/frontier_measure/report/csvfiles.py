"""The report as CSV: one row per attempt, and one row per timing input of
every timed attempt. Numbers keep their full precision; empty means absent."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from .model import Report

ATTEMPT_COLUMNS = (
    "scale", "task", "attempt", "label", "candidate", "is_oracle", "result_file", "steps",
    "compliant", "functional_ran", "items_passed", "items_total", "pass_rate", "functional",
    "timed", "speedup", "worst_input", "verdict", "faster", "threshold", "meets_threshold",
    "strict_success", "failure_stage", "failure_rule", "failure_reason", "failing_items",
)
INPUT_COLUMNS = (
    "scale", "task", "attempt", "label", "input", "size", "rounds", "loops", "speedup",
    "ci_low", "ci_high", "lower_bound", "confidence", "verdict", "faster", "threshold",
    "meets_threshold", "error",
)


def _value(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, dict)):
        return json.dumps(v, sort_keys=True)
    return str(v)


def _write(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    buf = io.StringIO()
    # "\n" line ends so the bytes do not depend on the platform.
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([_value(v) for v in row])
    return buf.getvalue()


def attempts(report: Report) -> str:
    rows = []
    for a in report.attempts:
        rows.append([
            a.scale, a.task, a.number, a.label, a.candidate, a.is_oracle, a.source, a.steps,
            a.compliant, a.functional_ran, a.passed, a.total, a.pass_rate, a.functional,
            a.timed, a.speedup, a.worst_input, a.perf_verdict, a.faster, a.threshold,
            a.meets_threshold, a.strict, a.failure_stage, a.failure_rule, a.failure_reason,
            " ".join(a.failed_items),
        ])
    return _write(ATTEMPT_COLUMNS, rows)


def inputs(report: Report) -> str:
    rows = []
    for a in report.timed_attempts():
        for i in a.inputs:
            rows.append([
                a.scale, a.task, a.number, a.label, i.id, i.size, i.rounds, i.loops, i.speedup,
                i.ci_low, i.ci_high, i.lower_bound, i.confidence, i.verdict, i.faster,
                a.threshold, i.meets_threshold, i.error,
            ])
    return _write(INPUT_COLUMNS, rows)
