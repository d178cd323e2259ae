"""Golden outputs: the reference run on every case in several fresh processes.

An item is kept only when every recording produced exactly the same canonical
value; anything that varies (timestamps, addresses, temporary paths, the order
of a set turned into a list under hash randomisation ...) is excluded and
listed with the reason. Timing inputs must be deterministic: their digests on
the first seeds must agree across recordings, or recording fails.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .observe import describe
from .task import Task, TaskError

GOLDEN_SCHEMA = 1


def reference_digest(root: Path) -> str:
    """sha256 over the reference's files (path and content), so a golden
    recording can be matched with the reference it was made from."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".pyc", ".pyo")):
                continue
            p = Path(dirpath) / name
            h.update(str(p.relative_to(root)).encode() + b"\0")
            h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def record(task: Task, runs: int | None = None,
           progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Record the reference's observations `runs` times and write tests/golden.json."""
    if task.scale == "repository":
        # Commands and directories, not calls: the repository runner records itself.
        from .runners import repository

        return repository.record_task(task.path, runs, progress=progress)
    from .runners import open_session

    runs = runs or task.repetitions
    cases = task.cases()
    inputs = task.timing_inputs()
    recordings = []
    timing = []
    # Recording reads no held-out data through the sides, and golden.json is
    # being written: no guard (the reference is trusted code).
    with open_session(task, task.reference_dir, guard=False) as session:
        for k in range(runs):
            if progress:
                progress(f"recording {k + 1}/{runs}")
            obs = session.observe("reference", cases)
            if obs.failures:
                cid, why = next(iter(obs.failures.items()))
                raise TaskError(task.path, [f"the reference failed on case '{cid}' in recording "
                                            f"{k + 1}: {why}"])
            recordings.append(obs.items)
            timing.append(session.timing_digests("reference", inputs))
    for t in inputs:
        seen = {d[t.id] for d in timing}
        if len(seen) > 1:
            raise TaskError(task.path, [f"tests/cases.py timing input '{t.id}': the reference's "
                                        "outputs differ between recordings; timing inputs must "
                                        "be deterministic"])
    items: dict[str, Any] = {}
    excluded: dict[str, str] = {}
    first = recordings[0]
    all_ids = list(dict.fromkeys(i for rec in recordings for i in rec))
    for item_id in all_ids:
        values = [rec.get(item_id, _MISSING) for rec in recordings]
        if any(v is _MISSING for v in values):
            excluded[item_id] = "missing in some recordings"
            continue
        texts = [json.dumps(v, sort_keys=True) for v in values]
        if len(set(texts)) == 1:
            items[item_id] = first[item_id]
        else:
            distinct = list(dict.fromkeys(texts))
            excluded[item_id] = (f"varied between recordings ({len(distinct)} distinct values, "
                                 f"e.g. {describe(json.loads(distinct[0]), 60)} / "
                                 f"{describe(json.loads(distinct[1]), 60)})")
    golden = {
        "schema_version": GOLDEN_SCHEMA,
        "task": task.name,
        "recorded_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "runs": runs,
        "reference_digest": reference_digest(task.reference_dir),
        "cases": [c.id for c in cases],
        "items": items,
        "excluded": excluded,
        "timing_digests": timing[0],
    }
    tmp = task.golden_path.with_suffix(".json.tmp")
    tmp.write_text(dumps_golden(golden))
    os.replace(tmp, task.golden_path)
    return golden


def dumps_golden(golden: dict[str, Any]) -> str:
    """JSON with one item per line: small, and a re-recording diffs readably."""
    lines = ["{"]
    keys = list(golden)
    for n, key in enumerate(keys):
        value = golden[key]
        comma = "," if n < len(keys) - 1 else ""
        if isinstance(value, dict) and value and key in ("items", "excluded", "timing_digests"):
            lines.append(f" {json.dumps(key)}: {{")
            sub = list(value.items())
            for m, (k, v) in enumerate(sub):
                c = "," if m < len(sub) - 1 else ""
                lines.append(f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}{c}")
            lines.append(f" }}{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


_MISSING = object()
