"""Item-by-item comparison of canonical observations, with readable diffs.

An *item* is one observation of one case (a return value, an exception, the
state of one argument after the call, the captured stdout). The golden value
comes from the reference; the candidate's value is compared with it exactly —
floats bit-exactly — unless the task sets a float tolerance.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .observe import describe

MAX_DIFF_LINES = 8


@dataclass(frozen=True)
class Tolerance:
    """Floats a and b match when |a-b| <= max(rel * max(|a|,|b|), abs).
    The default (0, 0) means bit-exact. NaN always matches NaN."""

    rel: float = 0.0
    abs: float = 0.0

    @property
    def exact(self) -> bool:
        return self.rel == 0.0 and self.abs == 0.0


EXACT = Tolerance()


@dataclass
class ItemResult:
    id: str
    case: str
    passed: bool
    diff: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "case": self.case, "passed": self.passed}
        if self.diff:
            out["diff"] = self.diff
        return out


def _floats_match(a: str, b: str, tol: Tolerance) -> bool:
    if a == b:
        return True
    x, y = float.fromhex(a), float.fromhex(b)
    if math.isnan(x) and math.isnan(y):
        return True  # payloads are not part of behaviour
    if tol.exact or math.isinf(x) or math.isinf(y) or math.isnan(x) or math.isnan(y):
        return False
    return abs(x - y) <= max(tol.rel * max(abs(x), abs(y)), tol.abs)


def differences(expected: Any, actual: Any, tol: Tolerance = EXACT, path: str = "") -> list[str]:
    """Where two canonical values differ, as 'path: expected X, got Y' lines."""
    out: list[str] = []
    _walk(expected, actual, tol, path, out)
    return out


def _note(out: list[str], path: str, expected: Any, actual: Any) -> None:
    if len(out) < MAX_DIFF_LINES:
        out.append(f"{path or 'value'}: expected {describe(expected)}, got {describe(actual)}")
    elif len(out) == MAX_DIFF_LINES:
        out.append("... (more differences)")


def _tag(c: Any) -> str:
    if isinstance(c, dict) and len(c) >= 1:
        return next(iter(c))
    return type(c).__name__


def _walk(e: Any, a: Any, tol: Tolerance, path: str, out: list[str]) -> None:
    if len(out) > MAX_DIFF_LINES:
        return
    if e == a and (tol.exact or not _has_floats(e)):
        return
    te, ta = _tag(e), _tag(a)
    if te != ta or type(e) is not type(a):
        _note(out, path, e, a)
        return
    if isinstance(e, list):
        if len(e) != len(a):
            out.append(f"{path or 'value'}: expected {len(e)} elements, got {len(a)}")
        for i, (x, y) in enumerate(zip(e, a, strict=False)):
            _walk(x, y, tol, f"{path}[{i}]", out)
        return
    if not isinstance(e, dict):
        _note(out, path, e, a)
        return
    if te == "$float":
        if not _floats_match(e["$float"], a["$float"], tol):
            _note(out, path, e, a)
        return
    if te in ("$tuple", "$set", "$frozenset"):
        _walk(e[te], a[te], tol, path, out)
        return
    if te == "$dict":
        ek = [k for k, _ in e["$dict"]]
        ak = [k for k, _ in a["$dict"]]
        if ek != ak:
            missing = [describe(k) for k in ek if k not in ak]
            extra = [describe(k) for k in ak if k not in ek]
            if missing or extra:
                out.append(f"{path or 'value'}: keys differ (missing {missing[:5]}, "
                           f"unexpected {extra[:5]})")
            else:
                out.append(f"{path or 'value'}: same keys in a different order")
            return
        for (k, x), (_, y) in zip(e["$dict"], a["$dict"], strict=True):
            _walk(x, y, tol, f"{path}[{describe(k, 40)}]", out)
        return
    if te == "$ndarray":
        ea, aa = e["$ndarray"], a["$ndarray"]
        if ea["dtype"] != aa["dtype"] or ea["shape"] != aa["shape"]:
            out.append(f"{path or 'value'}: expected array {_dtype(ea['dtype'])} "
                       f"{tuple(ea['shape'])}, got {_dtype(aa['dtype'])} {tuple(aa['shape'])}")
            return
        _walk(ea["values"], aa["values"], tol, f"{path}.flat", out)
        return
    if te == "$exception":
        if e["$exception"] != a["$exception"]:
            _note(out, f"{path}exception type" if not path else f"{path}.type", e, a)
        elif e.get("message") != a.get("message"):
            out.append(f"{path or 'exception'} message: expected {e.get('message')!r}, "
                       f"got {a.get('message')!r}")
        return
    if te == "$object" and e.get("$object") == a.get("$object") and "value" in e and "value" in a:
        _walk(e["value"], a["value"], tol, path, out)
        if e.keys() == a.keys():
            return
    if e != a:
        _note(out, path, e, a)


def _dtype(code: str) -> str:
    try:
        import numpy as np

        return str(np.dtype(code))
    except TypeError:
        return code


def _has_floats(c: Any) -> bool:
    if isinstance(c, dict):
        return "$float" in c or any(_has_floats(v) for v in c.values())
    if isinstance(c, list):
        return any(_has_floats(v) for v in c)
    return False


def compare_items(
    golden: Mapping[str, Any],
    observed: Mapping[str, Any],
    *,
    tolerance: Tolerance = EXACT,
    missing_reason: Mapping[str, str] | None = None,
) -> list[ItemResult]:
    """Compare every golden item with the candidate's observation of it.

    An item the candidate did not produce (its case crashed or timed out) fails
    with the reason given in `missing_reason` (keyed by case id)."""
    results: list[ItemResult] = []
    for item_id, expected in golden.items():
        case = item_id.split("/", 1)[0]
        if item_id not in observed:
            why = (missing_reason or {}).get(case, "no observation was produced")
            results.append(ItemResult(item_id, case, False, [why]))
            continue
        diff = differences(expected, observed[item_id], tolerance)
        results.append(ItemResult(item_id, case, not diff, diff))
    return results


def summary_line(results: list[ItemResult]) -> str:
    passed = sum(r.passed for r in results)
    return f"{passed}/{len(results)} items passed"
