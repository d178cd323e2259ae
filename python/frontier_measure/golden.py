"""Golden outputs on disk: tests/golden.json, the same format at every scale.

    {"schema_version": 2, "scale", "task", "recorded_at", "runs",
     "reference_digest",       # what it was recorded from (see `digest`)
     "cases": [case id, ...],
     "items": {item id: value},            # stable in every recording
     "excluded": {item id: reason},        # varied; a mapping item's single
                                           # varying key is "<item id>:<key>"
     "timing_digests": {timing input id: digest}}

One item per line, so a re-recording diffs readably.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .task import Task, TaskError

SCHEMA_VERSION = 2


def digest(reference: Path, held_out: Iterable[Path]) -> str:
    """sha256 over the reference's files and the held-out files golden outputs
    depend on (path and content), so a recording can be matched with what it
    was recorded from: a changed reference, harness, case file or fixture
    means the recording is stale."""
    try:
        return _digest(reference, held_out)
    except OSError as exc:
        raise TaskError(_task_root(reference), [
            f"{exc.filename or reference}: unreadable ({exc.strerror or exc}); the recording's "
            "digest reads every file of the reference and the held-out data"]) from None


def _task_root(reference: Path) -> Path:
    """The task directory of a reference (environment/workspace or tests/reference)."""
    return Path(reference).parent.parent


def _digest(reference: Path, held_out: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(reference, onerror=_raise):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".pyc", ".pyo")):
                continue
            p = Path(dirpath) / name
            h.update(str(p.relative_to(reference)).encode() + b"\0")
            h.update(p.read_bytes() + b"\0")
    for p in held_out:
        h.update(b"held-out\0" + p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _raise(exc: OSError) -> None:
    raise exc


def load(task: Task, expected_digest: str) -> dict[str, Any]:
    """The task's golden outputs, checked to be of this format and recorded
    from what the task holds now."""
    rel = task.golden_path.relative_to(task.path)
    try:
        data = json.loads(task.golden_path.read_text())
    except FileNotFoundError:
        raise TaskError(task.path, [f"{rel}: missing; run `frontier-measure record "
                                    f"{task.path}`"]) from None
    except (json.JSONDecodeError, UnicodeDecodeError, OSError) as exc:
        raise TaskError(task.path, [f"{rel}: unreadable ({exc})"]) from None
    if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION \
            or not isinstance(data.get("items"), dict) \
            or not isinstance(data.get("excluded"), dict):
        raise TaskError(task.path, [f"{rel}: not a golden file of schema {SCHEMA_VERSION}; "
                                    f"re-run `frontier-measure record {task.path}`"])
    if data.get("reference_digest") != expected_digest:
        raise TaskError(task.path, [f"{rel}: recorded from a different reference, cases or "
                                    f"fixtures (re-run `frontier-measure record {task.path}`)"])
    return data


def dumps(golden: dict[str, Any]) -> str:
    """JSON with one item per line."""
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


def write(task: Task, golden: dict[str, Any]) -> None:
    tmp = task.golden_path.with_suffix(".json.tmp")
    tmp.write_text(dumps(golden))
    os.replace(tmp, task.golden_path)
