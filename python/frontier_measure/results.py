"""result.json: the record of one evaluation, and the reward derived from it.

Reports (tables, figures, html) are rendered from this file only, never from
live objects, so its shape is a stable, versioned contract:

    {
      "schema": "frontier-measure/result", "schema_version": 1,
      "task":       {"name", "path", "scale", "threshold", "cost", "entry"},
      "candidate":  {"path", "is_oracle"},
      "started_at", "elapsed_s",
      "compliance": {"compliant": bool, "findings": [{"file", "line", "rule", "detail"}]},
      "functional": {"ran": bool, "passed": int, "failed": int, "total": int,
                     "excluded": int, "pass_rate": float|null, "summary": "N/M items passed",
                     "case_failures": {case id: reason},
                     "items": [{"id", "case", "passed", "diff"?: [str]}],   # every item
                     "excluded_items": {item id: reason}},
      "performance": {"ran": bool, "cost", "unit", "threshold",
                      "inputs": [{"id", "size", "loops", "rounds", "speedup", "ci_low",
                                  "ci_high", "lower_bound", "verdict", "meets_threshold",
                                  "confidence", "half_width", "reference_median",
                                  "candidate_median", "elapsed_s", "warnings", "error",
                                  "outputs_checked",
                                  "samples": [{"index", "reference_first", "reference",
                                               "candidate", "reference_wall_ns", ...}]}],
                      "worst_input", "speedup", "verdict", "meets_threshold"},
      "strict_success": bool,
      "failure": null | {"stage": "compliance"|"functional"|"performance"|"error",
                         "rule", "reason"},
      "reward": {"reward", "speedup", "functional_pass_rate", "compliant"},  # reward.json
      "isolation": {...}, "environment": {...}   # environment.environment()
    }

Ratios are reference cost / candidate cost: above 1 means the candidate is faster.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

SCHEMA = "frontier-measure/result"
SCHEMA_VERSION = 1


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
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"{path}: result schema version {data.get('schema_version')} "
                         f"(this frontier-measure reads {SCHEMA_VERSION})")
    return data
