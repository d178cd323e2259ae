"""result.json: the record of one evaluation, and the reward derived from it.

Reports (tables, figures, html) are rendered from this file only, never from
live objects, so its shape is a stable, versioned contract:

    {
      "schema": "frontier-measure/result", "schema_version": 2,
      "task":       {"name", "path", "scale", "threshold", "cost", "entry"},
      "candidate":  {"path", "is_oracle"},
      "started_at", "elapsed_s",
      "compliance": {"compliant": bool, "findings": [{"file", "line", "rule", "detail"}]},
      "build"?:     {"reference": {"ok", "command", "status", "log", "seconds"}, "candidate": ...},
      "functional": {"ran": bool, "passed": int, "failed": int, "total": int,
                     "excluded": int, "pass_rate": float|null, "summary": "N/M items passed",
                     "case_failures": {case id: reason},
                     "problems": [{"case", "rule", "reason"}],   # timeouts, left processes
                     "items": [{"id", "case", "passed", "diff"?: [str], "missing"?: true}],
                     "excluded_items": {item id: reason}},
      "performance": {"ran": bool, "cost", "unit", "threshold",
                      "inputs": [{"id", "size", "loops", "rounds", "pairs", "blocks",
                                  "speedup", "ci_low", "ci_high", "lower_bound", "verdict",
                                  "meets_threshold", "confidence", "half_width",
                                  "reference_median", "candidate_median", "elapsed_s",
                                  "warnings", "error", "error_side", "outputs_checked",
                                  ... the runner's own figures (processes, commands, cycles),
                                  "samples": [{"index", "pair", "block", "reference_first",
                                               "reference", "candidate",
                                               "reference_wall_ns", ...}]}],
                      "worst_input", "speedup", "verdict", "meets_threshold"},
      "strict_success": bool,
      "failure": null | {"stage": "compliance"|"functional"|"performance"|"error",
                         "rule", "reason"},
      "reward": {"reward", "speedup", "functional_pass_rate", "compliant"},  # reward.json
      "isolation": {...}, "environment": {...}   # environment.environment()
    }

Ratios are reference cost / candidate cost: above 1 means the candidate is faster.
A failure at stage "error" is the evaluation's own (a broken task, a reference
that fails, an isolation failure), never a verdict on the candidate.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

SCHEMA = "frontier-measure/result"
SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1 lacks pairs, blocks and builds; reports need neither


def new(task: dict[str, Any], candidate: Path, oracle: Path) -> dict[str, Any]:
    """A result before any stage has run: every runner starts from this, so
    an evaluation that breaks off still leaves a well-formed record."""
    import datetime as _dt

    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "task": task,
        "candidate": {"path": str(candidate), "is_oracle": candidate == oracle},
        "started_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "compliance": None,
        "functional": {"ran": False},
        "performance": {"ran": False},
        "strict_success": False,
        "failure": None,
    }


def reward(result: dict[str, Any]) -> dict[str, float]:
    """The flat map of numbers a Harbor verifier writes as reward.json."""
    perf = result.get("performance") or {}
    fun = result.get("functional") or {}
    speedup = perf.get("speedup")
    if speedup is None or (isinstance(speedup, float) and math.isnan(speedup)):
        speedup = 0.0
    rate = fun.get("pass_rate")
    return {
        "reward": 1.0 if result.get("strict_success") else 0.0,
        "speedup": float(speedup),
        "functional_pass_rate": float(rate) if rate is not None else 0.0,
        "compliant": 1.0 if (result.get("compliance") or {}).get("compliant") else 0.0,
    }


def _clean(value: Any) -> Any:
    """JSON has no NaN/inf: write them as null."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def write_json(data: Any, path: str | Path) -> Path:
    """Write JSON atomically: a reader sees the old file or the new one, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(_clean(data), f, indent=1, allow_nan=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(path: str | Path) -> dict[str, Any]:
    data = json.loads(Path(path).read_text())
    if data.get("schema") != SCHEMA:
        raise ValueError(f"{path}: not a frontier-measure result")
    if data.get("schema_version") not in READABLE_VERSIONS:
        raise ValueError(f"{path}: result schema version {data.get('schema_version')} "
                         f"(this frontier-measure reads {', '.join(map(str, READABLE_VERSIONS))})")
    return data


# ---------------------------------------------------------------- the stages' sections


def failure(stage: str, rule: str, reason: str) -> dict[str, str]:
    return {"stage": stage, "rule": rule, "reason": reason}


def functional(items: list[Any], recorded: dict[str, Any], case_failures: dict[str, str],
               problems: list[Any], tolerance: Any) -> dict[str, Any]:
    """The functional section from the item comparison (diff.ItemResult list)."""
    passed = sum(i.passed for i in items)
    return {
        "ran": True,
        "passed": passed,
        "failed": len(items) - passed,
        "total": len(items),
        "excluded": len(recorded.get("excluded", {})),
        "pass_rate": passed / len(items) if items else None,
        "summary": f"{passed}/{len(items)} items passed",
        "case_failures": dict(case_failures),
        "problems": [{"case": p.case, "rule": p.rule, "reason": p.reason} for p in problems],
        "items": [i.to_dict() for i in items],
        "excluded_items": recorded.get("excluded", {}),
        "tolerance": {"float_rel": tolerance.rel, "float_abs": tolerance.abs},
    }


def _lower(d: dict[str, Any]) -> float:
    lb = d.get("lower_bound")
    return -math.inf if lb is None else float(lb)


def _fmt(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2f}x"


def performance(timings: list[Any], threshold: float, cost: str,
                unit: str) -> tuple[dict[str, Any], dict[str, str] | None]:
    """The performance section from every timing input (runners.InputTiming),
    and the failure, if any. The worst input decides: every input's one-sided
    lower bound must exceed the threshold (an intersection-union test)."""
    inputs = [t.to_dict() for t in timings]
    perf: dict[str, Any] = {"ran": True, "cost": cost, "unit": unit, "threshold": threshold,
                            "inputs": inputs}
    broken = next((t for t in inputs if t["error"]), None)
    if broken is not None:
        perf.update(worst_input=broken["id"], speedup=None, verdict="violation",
                    meets_threshold=False)
        return perf, failure("performance", "timing-violation",
                             f"timing input '{broken['id']}': {broken['error']}")
    if not inputs:
        perf.update(worst_input=None, speedup=None, verdict=None, meets_threshold=False)
        return perf, failure("performance", "no-timing-inputs", "the task has no timing inputs")
    worst = min(inputs, key=_lower)
    meets = all(d["meets_threshold"] for d in inputs)
    perf.update(worst_input=worst["id"], speedup=worst["speedup"], verdict=worst["verdict"],
                meets_threshold=meets)
    if meets:
        return perf, None
    v = worst["verdict"]
    rule = {"slower": "slower", "indistinguishable": "no-speedup",
            "insufficient": "insufficient-data"}.get(v, "below-threshold")
    desc = {"slower": "slower than the reference",
            "indistinguishable": "no speedup: the difference is inside the noise",
            "insufficient": "too few blocks of rounds for any claim",
            }.get(v, f"not shown to be above {threshold:g}x")
    return perf, failure(
        "performance", rule,
        f"timing input '{worst['id']}': {desc} (speedup {_fmt(worst['speedup'])}, "
        f"95% CI {_fmt(worst['ci_low'])}..{_fmt(worst['ci_high'])}, threshold {threshold:g}x)")
