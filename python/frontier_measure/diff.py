"""Item-by-item comparison of observations, with readable diffs. The same
comparison serves every scale.

An *item* is one observation of one case (a return value, an exception, the
state of one argument after the call, a program's stdout or exit status, the
files in its working directory). The golden value comes from the reference;
the candidate's value is compared with it exactly, types included (`False` is
not `0`, `1` is not `1.0`, a subclass of a builtin is not the builtin), floats
bit-exactly unless the task sets a float tolerance.

Values are JSON-able trees: canonical Python observations (observe.py, with
"$"-tagged objects), strings, numbers, and *mapping items*: plain objects
whose keys carry no "$" tag (a directory snapshot: path -> entry), compared
key by key, with keys the recorder found unstable left out.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .observe import describe

MAX_DIFF_LINES = 8
MAX_LINE = 400  # characters of one diff line: a side's text goes into result.json
# Strings up to this many characters are diffed line by line over their whole
# length; longer ones around their first difference only (difflib's cost grows
# with the number of lines, and a side's output may have millions).
WHOLE_TEXT = 1 << 20


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
    missing: bool = False  # the candidate produced no observation of it

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "case": self.case, "passed": self.passed}
        if self.diff:
            out["diff"] = self.diff
        if self.missing:
            out["missing"] = True
        return out



def _cut(names: list[str], shown: int = 5) -> str:
    """At most `shown` names, then how many more there are."""
    text = ", ".join(names[:shown])
    more = f", ... {len(names) - shown} more" if len(names) > shown else ""
    return f"[{text}{more}]"

def same(e: Any, a: Any) -> bool:
    """Exact equality of two JSON-able trees, types included: Python's ==
    holds True == 1 == 1.0, which would let a wrong type pass."""
    if type(e) is not type(a):
        return False
    if isinstance(e, dict):
        return e.keys() == a.keys() and all(same(v, a[k]) for k, v in e.items())
    if isinstance(e, list):
        return len(e) == len(a) and all(same(x, y) for x, y in zip(e, a, strict=True))
    return bool(e == a)


def is_mapping_item(value: Any) -> bool:
    """A plain mapping (no "$"-tagged key): compared, and recorded, key by key."""
    return isinstance(value, dict) and not any(str(k).startswith("$") for k in value)


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


def _line(text: str) -> str:
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 3] + "..."


def _note(out: list[str], path: str, expected: Any, actual: Any) -> None:
    if len(out) < MAX_DIFF_LINES:
        out.append(_line(f"{path or 'value'}: expected {describe(expected)}, "
                         f"got {describe(actual)}"))
    elif len(out) == MAX_DIFF_LINES:
        out.append("... (more differences)")


def _tag(c: Any) -> str:
    if isinstance(c, dict) and len(c) >= 1:
        return next(iter(c))
    return type(c).__name__


def _walk(e: Any, a: Any, tol: Tolerance, path: str, out: list[str]) -> None:
    if len(out) > MAX_DIFF_LINES:
        return
    if same(e, a) and (tol.exact or not _has_floats(e)):
        return
    if not path and is_mapping_item(e) and isinstance(a, dict):
        _mapping(e, a, out)
        return
    if not path and isinstance(e, str) and isinstance(a, str) and \
            max(len(e.splitlines()), len(a.splitlines())) > 1:
        _text(e, a, out)
        return
    te, ta = _tag(e), _tag(a)
    if te != ta or type(e) is not type(a):
        _note(out, path, e, a)
        return
    if isinstance(e, list):
        if len(e) != len(a):
            out.append(f"{path or 'value'}: expected {len(e)} elements, got {len(a)}")
        for i, (x, y) in enumerate(zip(e, a, strict=False)):
            if len(out) > MAX_DIFF_LINES:
                break
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
        if not same(ek, ak):
            # Keys as hashable values, types kept apart (as by `same`): one
            # pass each, where comparing every key with every other would
            # take a side's dict of a million keys a day.
            ekeys, akeys = [_key(k) for k in ek], [_key(k) for k in ak]
            eset, aset = set(ekeys), set(akeys)
            missing = [describe(k) for k, t in zip(ek, ekeys, strict=True) if t not in aset]
            extra = [describe(k) for k, t in zip(ak, akeys, strict=True) if t not in eset]
            if missing or extra:
                out.append(f"{path or 'value'}: keys differ (missing {_cut(missing)}, "
                           f"unexpected {_cut(extra)})")
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
            out.append(_line(f"{path or 'exception'} message: expected "
                             f"{describe(e.get('message'), MAX_LINE // 2)}, "
                             f"got {describe(a.get('message'), MAX_LINE // 2)}"))
        return
    if te == "$object" and e.get("$object") == a.get("$object") and "value" in e and "value" in a:
        _walk(e["value"], a["value"], tol, path, out)
        if e.keys() == a.keys():
            return
    if not same(e, a):
        _note(out, path, e, a)


def _mapping(e: dict[str, Any], a: dict[str, Any], out: list[str]) -> None:
    added = sorted(set(a) - set(e))
    removed = sorted(set(e) - set(a))
    changed = sorted(k for k in set(e) & set(a) if not same(e[k], a[k]))
    if added:
        out.append("added: " + ", ".join(added[:20]) + (f" (and {len(added) - 20} more)"
                                                          if len(added) > 20 else ""))
    if removed:
        out.append("removed: " + ", ".join(removed[:20]) + (f" (and {len(removed) - 20} more)"
                                                              if len(removed) > 20 else ""))
    for k in changed[:MAX_DIFF_LINES]:
        out.append(_line(f"changed: {k}: expected {e[k]}, got {a[k]}"))


def _key(k: Any) -> tuple[str, Any]:
    """A canonical key as something hashable that tells types apart."""
    if k is None or type(k) in (bool, int, str):
        return type(k).__name__, k
    import json

    return "tree", json.dumps(k, sort_keys=True)


def _text(e: str, a: str, out: list[str]) -> None:
    import difflib

    if len(e) + len(a) > WHOLE_TEXT:
        _long_text(e, a, out)
        return
    lines = list(difflib.unified_diff(e.splitlines(), a.splitlines(), "expected", "got",
                                      lineterm="", n=1))
    if not lines:  # they differ only in line endings
        out.append(f"expected {e!r}, got {a!r}"[:400])
        return
    body = lines[2:]
    out.extend(_line(b) for b in body[:MAX_DIFF_LINES * 2])
    if len(body) > MAX_DIFF_LINES * 2:
        out.append(f"... ({len(body) - MAX_DIFF_LINES * 2} more diff lines)")


def _long_text(e: str, a: str, out: list[str], context: int = 2, shown: int = 12) -> None:
    """The first difference of two long texts, with the lines around it:
    found by comparing blocks (a slice compare runs at memory speed), so a
    text of many megabytes is never split into lines or held twice."""
    import difflib

    at, n, step = 0, min(len(e), len(a)), 1 << 16
    while at < n and e[at:at + step] == a[at:at + step]:
        at += step
    while at < n and e[at] == a[at]:
        at += 1
    start = e.rfind("\n", 0, at) + 1  # the two agree up to `at`: the same start for both
    for _ in range(context):
        if start:
            start = e.rfind("\n", 0, start - 1) + 1
    line = e.count("\n", 0, start) + 1
    out.append(f"texts of {len(e):,} and {len(a):,} characters first differ at character "
               f"{at:,}, line {e.count(chr(10), 0, at) + 1:,}:")
    ours, theirs = _lines(e, start, shown), _lines(a, start, shown)
    body = list(difflib.unified_diff(ours, theirs, lineterm="", n=context))[3:]
    out.append(f"@@ from line {line:,} @@")
    out.extend(_line(b) for b in body[:MAX_DIFF_LINES * 2])


def _lines(text: str, start: int, count: int) -> list[str]:
    """`count` lines of `text` from `start`, each cut to a diff line's width."""
    lines: list[str] = []
    while len(lines) < count and start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        lines.append(_line(text[start:min(end, start + MAX_LINE)]))
        start = end + 1
    return lines


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


@dataclass(frozen=True)
class Checked:
    """What is kept of an item that was compared with its expected value as
    it arrived (`checker`): the differences, never the value."""

    diff: tuple[str, ...]


# Deep enough for the deepest value a reply can hold (msgpack decodes 1,024
# levels), at a few frames a level.
_DEEP = 6000


@contextlib.contextmanager
def _deep() -> Iterator[None]:
    old = sys.getrecursionlimit()
    if old < _DEEP:
        sys.setrecursionlimit(_DEEP)
    try:
        yield
    finally:
        if old < _DEEP:
            sys.setrecursionlimit(old)


def _skips(excluded: Iterable[str]) -> dict[str, set[str]]:
    skip: dict[str, set[str]] = {}
    for e in excluded:
        if ":" in e:
            item, key = e.split(":", 1)
            skip.setdefault(item, set()).add(key)
    return skip


def compare_one(expected: Any, actual: Any, tolerance: Tolerance = EXACT,
                skip: set[str] | None = None) -> list[str]:
    """The differences of one item (keys in `skip` of a mapping item left out)."""
    if isinstance(actual, Checked):
        return list(actual.diff)
    if skip and isinstance(actual, dict):
        actual = {k: v for k, v in actual.items() if k not in skip}
    try:
        with _deep():
            return differences(expected, actual, tolerance)
    except RecursionError:
        return ["value: nested too deeply to compare"]


_ABSENT = object()


def checker(golden: Mapping[str, Any], excluded: Iterable[str] = (),
            tolerance: Tolerance = EXACT) -> Callable[[str, Any], Any]:
    """A keeper for `runners.Observation.keep`: each item is compared with its
    golden value the moment it is decoded, and only the outcome is kept. A
    side may return up to the task's item cap for every item of every case;
    kept whole until the comparison, those items cost the evaluator
    gigabytes (a candidate returning two million strings for each case of
    module/dedupe took it to 4.2 GB)."""
    skip = _skips(excluded)

    def keep(item_id: str, value: Any) -> Any:
        expected = golden.get(item_id, _ABSENT)
        if expected is _ABSENT:
            return Checked(())  # no golden item: never compared
        return Checked(tuple(compare_one(expected, value, tolerance, skip.get(item_id))))

    return keep


def compare_items(
    golden: Mapping[str, Any],
    observed: Mapping[str, Any],
    *,
    excluded: Iterable[str] = (),
    tolerance: Tolerance = EXACT,
    missing_reason: Mapping[str, str] | None = None,
) -> list[ItemResult]:
    """Compare every golden item with the candidate's observation of it.

    An item the candidate did not produce (its case crashed or timed out) fails
    with the reason given in `missing_reason` (keyed by case id). Keys of a
    mapping item excluded at recording ("<item>:<key>") are left out of the
    candidate's observation too. An observation already compared as it
    arrived (`Checked`, see `checker`) brings its differences."""
    skip = _skips(excluded)
    results: list[ItemResult] = []
    for item_id, expected in golden.items():
        case = item_id.split("/", 1)[0]
        if item_id not in observed:
            why = (missing_reason or {}).get(case, "no observation was produced")
            results.append(ItemResult(item_id, case, False, [why], missing=True))
            continue
        diff = compare_one(expected, observed[item_id], tolerance, skip.get(item_id))
        results.append(ItemResult(item_id, case, not diff, diff))
    return results


def summary_line(results: list[ItemResult]) -> str:
    passed = sum(r.passed for r in results)
    return f"{passed}/{len(results)} items passed"
