"""The pipeline: compliance, then functionality, then performance.

It stops at the first "no": a compliance violation means nothing of the
candidate runs; a functional failure means it is not timed. Everything found on
the way goes into the result (see results.py for its schema).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import compliance, results
from .diff import compare_items, summary_line
from .environment import environment
from .perf import COST_UNITS
from .record import reference_digest
from .runners import open_session
from .task import Task, TaskError, load

Progress = Callable[[str], None]


def _failure(stage: str, rule: str, reason: str) -> dict[str, str]:
    return {"stage": stage, "rule": rule, "reason": reason}


def _item_rule(item: Any, golden: dict[str, Any]) -> str:
    """What kind of functional failure an item is, from its id and values."""
    kind = item.id.rsplit("/", 1)[-1]
    if not item.diff or item.diff[0].startswith(("timed out", "worker", "importing")):
        return "no-observation"
    if kind.startswith(("arg", "kwarg:")):
        return "mutated-argument"
    if kind == "stdout":
        return "wrong-stdout"
    expected = golden.get(item.id)
    if isinstance(expected, dict) and "$exception" in expected:
        return "wrong-exception"
    if any("exception" in line for line in item.diff):
        return "unexpected-exception"
    return "wrong-value"


def evaluate(
    task_path: str | Path,
    candidate: str | Path | None = None,
    *,
    out: str | Path | None = None,
    progress: Progress | None = None,
    isolation: str | None = None,
) -> dict[str, Any]:
    """Evaluate one candidate on one task; write result.json under `out`
    (as out/<scale>-<task>/result.json) when given. Returns the result dict.
    `isolation` picks the backend of scales that run sides through one
    ("local" or "docker"; default: the runner's own, $FM_ISOLATION or local)."""
    started = time.perf_counter()
    task = load(task_path)
    cand_dir = Path(candidate).resolve() if candidate else task.oracle_dir
    res = results.new({"name": task.name, "path": str(task.path), "scale": task.scale,
                       "threshold": task.threshold, "cost": task.cost, "entry": task.entry},
                      cand_dir, task.oracle_dir)
    try:
        if task.scale in PIPELINE_SCALES:
            _run(task, cand_dir, res, progress)
        else:
            _delegate(task, candidate, res, progress, isolation)
    except Exception as exc:
        # The evaluation itself could not finish (a broken task, an isolation
        # failure): recorded as such, never as a verdict on the candidate.
        res["strict_success"] = False
        res["failure"] = _failure("error", type(exc).__name__, str(exc))
        raise
    finally:
        res["elapsed_s"] = time.perf_counter() - started
        res["reward"] = results.reward(res)
        res["environment"] = environment()
        if out is not None:
            results.write_json(res, Path(out) / task.slug / "result.json")
    return res


def _run(task: Task, cand_dir: Path, res: dict[str, Any], progress: Progress | None) -> None:
    # 1. compliance
    if progress:
        progress("compliance")
    findings = compliance.inspect(cand_dir, task.compliance, task.scale)
    res["compliance"] = {"compliant": not findings,
                         "findings": [f.to_dict() for f in findings]}
    if findings:
        f = findings[0]
        res["failure"] = _failure("compliance", f.rule, str(f))
        return

    golden = task.golden()
    if golden.get("reference_digest") != reference_digest(task.reference_dir):
        raise TaskError(task.path, ["tests/golden.json: recorded from a different reference "
                                    "(re-run `frontier-measure record`)"])
    items_golden: dict[str, Any] = golden.get("items", {})

    with open_session(task, cand_dir) as session:
        res["isolation"] = session.describe()
        # 2. functionality
        if progress:
            progress("functional")
        obs = session.observe("candidate", task.cases())
        items = compare_items(items_golden, obs.items, tolerance=task.tolerance,
                              missing_reason=obs.failures)
        passed = sum(i.passed for i in items)
        res["functional"] = {
            "ran": True,
            "passed": passed,
            "failed": len(items) - passed,
            "total": len(items),
            "excluded": len(golden.get("excluded", {})),
            "pass_rate": passed / len(items) if items else None,
            "summary": summary_line(items),
            "case_failures": obs.failures,
            "items": [i.to_dict() for i in items],
            "excluded_items": golden.get("excluded", {}),
            "tolerance": {"float_rel": task.tolerance.rel, "float_abs": task.tolerance.abs},
        }
        if passed != len(items) or not items:
            first = next((i for i in items if not i.passed), None)
            if first is None:
                res["failure"] = _failure("functional", "no-items", "no items to compare")
            else:
                res["failure"] = _failure("functional", _item_rule(first, items_golden),
                                          f"{first.id}: {first.diff[0]}")
            return
        # 3. performance
        timings = session.time(task.timing_inputs(), progress)
        res["isolation"] = session.describe()
    inputs = [t.to_dict() for t in timings]
    perf: dict[str, Any] = {"ran": True, "cost": task.cost, "unit": COST_UNITS[task.cost],
                            "threshold": task.threshold, "inputs": inputs}
    res["performance"] = perf
    broken = next((t for t in timings if t.error), None)
    if broken is not None:
        perf.update(worst_input=broken.id, speedup=None, verdict="violation",
                    meets_threshold=False)
        res["failure"] = _failure("performance", "timing-violation",
                                  f"timing input '{broken.id}': {broken.error}")
        return
    worst = min(inputs, key=lambda d: _lower(d))
    meets = all(d["meets_threshold"] for d in inputs)
    perf.update(worst_input=worst["id"], speedup=worst["speedup"], verdict=worst["verdict"],
                meets_threshold=meets)
    if meets:
        res["strict_success"] = True
        return
    v = worst["verdict"]
    rule = {"slower": "slower", "indistinguishable": "no-speedup"}.get(v, "below-threshold")
    desc = {"slower": "slower than the reference",
            "indistinguishable": "no speedup: the difference is inside the noise",
            }.get(v, f"not shown to be at least {task.threshold:g}x faster")
    res["failure"] = _failure(
        "performance", rule,
        f"timing input '{worst['id']}': {desc} (speedup {_fmt(worst['speedup'])}, "
        f"95% CI {_fmt(worst['ci_low'])}..{_fmt(worst['ci_high'])}, "
        f"threshold {task.threshold:g}x)")


# Scales whose runner plugs into the shared pipeline below; the others bring
# their own `evaluate` (runners/<scale>.py) whose result is mapped onto the
# same result.json schema, with the scale's own record kept under "details".
PIPELINE_SCALES = ("module", "package")


def _delegate(task: Task, candidate: str | Path | None, res: dict[str, Any],
              progress: Progress | None, isolation: str | None = None) -> None:
    import importlib

    try:
        mod = importlib.import_module(f"frontier_measure.runners.{task.scale}")
        run = mod.evaluate
    except (ImportError, AttributeError):
        raise TaskError(task.path, [f"task.toml [metadata.frontier].scale: no evaluator for "
                                    f"scale '{task.scale}' in this installation"]) from None
    import inspect

    accepted = inspect.signature(run).parameters
    kwargs: dict[str, Any] = {"progress": progress} if "progress" in accepted else {}
    if isolation is not None and "isolation" in accepted:
        kwargs["isolation"] = isolation
    raw = run(task.path, candidate, **kwargs)
    if raw.get("schema") == results.SCHEMA:
        # The scale's evaluator already speaks result.json.
        for key in list(res):
            res.pop(key)
        res.update(raw)
        return
    res["details"] = raw
    res["isolation"] = raw.get("isolation")
    comp = raw.get("compliance") or {"compliant": True, "findings": []}
    res["compliance"] = {"compliant": bool(comp.get("compliant", True)),
                         "findings": comp.get("findings", [])}
    fun = raw.get("functional") or {}
    total = fun.get("items_total", fun.get("total", 0)) or 0
    passed = fun.get("items_passed", fun.get("passed", 0))
    passed = passed if isinstance(passed, int) and not isinstance(passed, bool) else 0
    res["functional"] = {
        "ran": bool(fun), "passed": passed, "failed": total - passed, "total": total,
        "excluded": len(fun.get("excluded", [])), "pass_rate": passed / total if total else None,
        "summary": fun.get("summary", f"{passed}/{total} items passed"),
        "case_failures": {}, "items": fun.get("items", []),
        "excluded_items": fun.get("excluded", []),
    }
    perf = raw.get("performance") or {}
    rows = raw.get("timing") or []
    res["performance"] = {
        "ran": bool(rows), "cost": task.cost, "unit": COST_UNITS.get(task.cost, "ns"),
        "threshold": task.threshold, "inputs": rows,
        "worst_input": perf.get("worst_input"), "speedup": perf.get("speedup"),
        "verdict": perf.get("verdict"), "meets_threshold": bool(perf.get("passed")),
    }
    res["strict_success"] = bool(raw.get("strict_success"))
    if not res["compliance"]["compliant"]:
        res["failure"] = _failure("compliance", "violation", str(comp.get("findings", [""])[0]))
    elif not fun.get("passed"):
        res["failure"] = _failure("functional", str(fun.get("rule") or "wrong-value"),
                                  str(fun.get("reason")))
    elif not res["strict_success"]:
        res["failure"] = _failure("performance", "below-threshold",
                                  f"worst input {perf.get('worst_input')}: speedup "
                                  f"{_fmt(perf.get('speedup'))} (threshold {task.threshold:g}x)")


def _lower(d: dict[str, Any]) -> float:
    lb = d.get("lower_bound")
    if lb is None:
        return -math.inf
    return float(lb)


def _fmt(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2f}x"
