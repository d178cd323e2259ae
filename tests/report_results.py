"""Result dicts that follow results.py's documented schema (version 1), for the
report tests: every stage of the pipeline, every scale."""

from __future__ import annotations

import json
import math
from typing import Any

from frontier_measure import results

SCHEMA = "frontier-measure/result"


def timing_input(id: str, speedup: float, half: float = 0.05, threshold: float = 1.5,
                 size: Any = 1000, rounds: int = 20, error: str | None = None) -> dict[str, Any]:
    """One timing input: interval speedup*exp(+-half); the one-sided bound a bit inside it."""
    lo, hi = speedup * math.exp(-half), speedup * math.exp(half)
    lower = speedup * math.exp(-0.8 * half)
    verdict = "faster" if lo > 1 else "slower" if hi < 1 else "indistinguishable"
    return {
        "id": id, "size": size, "loops": 8, "rounds": rounds, "speedup": speedup,
        "ci_low": lo, "ci_high": hi, "lower_bound": lower, "verdict": verdict,
        "meets_threshold": lower > threshold, "confidence": 0.95, "half_width": half,
        "reference_median": 2.0e6, "candidate_median": 2.0e6 / speedup, "elapsed_s": 1.5,
        "warnings": [], "error": error,
        "samples": [{"index": k, "reference_first": k % 2 == 0, "reference": 2.0e6,
                     "candidate": 2.0e6 / speedup} for k in range(3)],
    }


def result(task: str, scale: str = "module", *, candidate: str = "cand", threshold: float = 1.5,
           stage: str = "ok", passed: int = 10, total: int = 10,
           inputs: list[tuple[str, float]] | None = None, oracle: bool = False,
           started_at: str = "2026-11-29T20:00:00+00:00", **extra: Any) -> dict[str, Any]:
    """A result at the given stage: "ok" (timed; strict iff every input meets the
    threshold), "compliance" (violation), "functional" (passed < total), "error"."""
    res: dict[str, Any] = {
        "schema": SCHEMA, "schema_version": 1,
        "task": {"name": task, "path": f"/tasks/{scale}/{task}", "scale": scale,
                 "threshold": threshold, "cost": "wall", "entry": "solve"},
        "candidate": {"path": f"/runs/{task}/{candidate}", "is_oracle": oracle},
        "started_at": started_at, "elapsed_s": 12.5,
        "compliance": {"compliant": True, "findings": []},
        "functional": {"ran": False}, "performance": {"ran": False},
        "strict_success": False, "failure": None,
        "isolation": {"backend": "local"}, "environment": {"hostname": "test"},
    }
    if stage == "compliance":
        res["compliance"] = {"compliant": False, "findings": [
            {"file": "solve.py", "line": 3, "rule": "forbidden-import", "detail": "ctypes"}]}
        res["failure"] = {"stage": "compliance", "rule": "forbidden-import",
                          "reason": "solve.py:3: import of ctypes is not permitted"}
    elif stage == "error":
        res["compliance"] = None
        res["failure"] = {"stage": "error", "rule": "exception", "reason": "worker died"}
    else:
        items = [{"id": f"c{k}/return", "case": f"c{k}", "passed": k < passed}
                 for k in range(total)]
        for it in items:
            if not it["passed"]:
                it["diff"] = ["value: expected 1, got 2"]
        res["functional"] = {
            "ran": True, "passed": passed, "failed": total - passed, "total": total,
            "excluded": 0, "pass_rate": passed / total if total else None,
            "summary": f"{passed}/{total} items passed", "case_failures": {},
            "items": items, "excluded_items": {},
        }
        if passed < total:
            first = next(i for i in items if not i["passed"])
            res["failure"] = {"stage": "functional", "rule": "wrong-value",
                              "reason": f"{first['id']}: value: expected 1, got 2"}
        else:
            ins = [timing_input(i, s, threshold=threshold) for i, s in (inputs or [("n1000", 2.0)])]
            worst = min(ins, key=lambda d: d["lower_bound"])
            meets = all(d["meets_threshold"] for d in ins)
            res["performance"] = {"ran": True, "cost": "wall", "unit": "ns",
                                  "threshold": threshold, "inputs": ins,
                                  "worst_input": worst["id"], "speedup": worst["speedup"],
                                  "verdict": worst["verdict"], "meets_threshold": meets}
            res["strict_success"] = meets
            if not meets:
                res["failure"] = {"stage": "performance", "rule": "below-threshold",
                                  "reason": f"timing input '{worst['id']}': not shown to be at "
                                            f"least {threshold:g}x faster"}
    res["reward"] = {"reward": 1.0 if res["strict_success"] else 0.0,
                     "speedup": (res["performance"].get("speedup") or 0.0),
                     "functional_pass_rate": res["functional"].get("pass_rate") or 0.0,
                     "compliant": 1.0 if (res["compliance"] or {}).get("compliant") else 0.0}
    res.update(extra)
    return res


def suite() -> list[tuple[str, dict[str, Any]]]:
    """(relative path, result) for a small benchmark run over all four scales."""
    out = []

    def add(path: str, res: dict[str, Any]) -> None:
        out.append((path, res))

    # module: "dedupe" solved every time, "histogram" solved once, "parse" never functional.
    add("module/dedupe/a1", result("dedupe", candidate="a1", steps=12,
                                   inputs=[("n1000", 3.1), ("n100000", 8.4)]))
    add("module/dedupe/a2", result("dedupe", candidate="a2", steps=30,
                                   inputs=[("n1000", 2.2), ("n100000", 5.0)]))
    add("module/dedupe/a3", result("dedupe", candidate="a3", steps=7,
                                   inputs=[("n1000", 1.9), ("n100000", 2.5)]))
    add("module/histogram/a1", result("histogram", candidate="a1", steps=20,
                                      inputs=[("small", 1.2), ("large", 4.0)]))
    add("module/histogram/a2", result("histogram", candidate="a2", steps=25,
                                      inputs=[("small", 0.7), ("large", 0.8)]))
    add("module/histogram/a3", result("histogram", candidate="a3", steps=9, passed=997, total=1000))
    add("module/parse/a1", result("parse", candidate="a1", stage="compliance", steps=4))
    add("module/parse/a2", result("parse", candidate="a2", passed=80, total=100, steps=40))
    add("module/parse/a3", result("parse", candidate="a3", passed=10, total=100, steps=50))
    # package: one task, one strict attempt and one indistinguishable one.
    add("package/lru/a1", result("lru", "package", candidate="a1", threshold=1.2,
                                 inputs=[("ops10k", 1.6)]))
    add("package/lru/a2", result("lru", "package", candidate="a2", threshold=1.2,
                                 inputs=[("ops10k", 1.01)]))
    # repository: an evaluator error and a near miss.
    add("repository/grep/a1", result("grep", "repository", candidate="a1", stage="error"))
    add("repository/grep/a2", result("grep", "repository", candidate="a2", passed=9995,
                                     total=10000))
    # kernel: the oracle.
    add("kernel/saxpy/oracle", result("saxpy", "kernel", candidate="oracle", oracle=True,
                                      threshold=2.0, inputs=[("n4096", 3.3)],
                                      started_at="2026-11-29T21:00:00+00:00"))
    return out


def sealed(res: dict[str, Any], **kw: Any) -> str:
    """The result as JSON with this account's seal, as the evaluator writes it."""
    return json.dumps(results.seal(dict(res)), **kw)
