"""Golden outputs on disk: tests/golden.json, the same format at every scale.

    {"schema_version": 2, "scale", "task", "recorded_at", "runs",
     "reference_digest",       # what it was recorded from (see `digest`)
     "files": {path: sha256},  # the same, file by file (paths relative to the
                               # task), so a stale recording names what changed
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
from collections.abc import Iterable, Iterator
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


def _rel(p: Path, root: Path) -> str:
    return os.path.relpath(p, root)


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _reference_files(reference: Path) -> Iterator[Path]:
    """The reference's files `digest` reads, in its order."""
    for dirpath, dirnames, filenames in os.walk(reference, onerror=_raise):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if not name.endswith((".pyc", ".pyo")):
                yield Path(dirpath) / name


def file_digests(task_root: Path, reference: Path, held_out: Iterable[Path]) -> dict[str, str]:
    """sha256 of every file `digest` reads, by its path relative to the task:
    what a recording keeps so that a stale one can say which file changed."""
    try:
        out = {_rel(p, task_root): _sha(p) for p in _reference_files(reference)}
        for p in held_out:
            out[_rel(Path(p), task_root)] = _sha(Path(p))
    except OSError as exc:
        raise TaskError(task_root, [
            f"{exc.filename or reference}: unreadable ({exc.strerror or exc}); the recording's "
            "digest reads every file of the reference and the held-out data"]) from None
    return out


def _changes(task: Task, recorded: dict[str, str]) -> list[str]:
    """What differs between the files a recording was made from and the task's
    now: one problem per held-out file, one for the reference's files."""
    ref_rel = _rel(task.reference_dir, task.path)
    now: dict[str, str | None] = {}
    try:
        for p in _reference_files(task.reference_dir):
            now[_rel(p, task.path)] = _sha(p)
    except OSError:
        pass  # the digest itself names an unreadable reference
    for rel in recorded:
        if rel not in now:
            p = task.path / rel
            try:
                now[rel] = _sha(p) if p.is_file() else None
            except OSError:
                now[rel] = None
    rel_golden = task.golden_path.relative_to(task.path)
    hint = "re-run `frontier-measure record`"
    problems: list[str] = []
    changed, added, removed = [], [], []
    for rel in sorted(set(now) | set(recorded)):
        in_ref = rel == ref_rel or rel.startswith(ref_rel + "/")
        was, is_ = recorded.get(rel), now.get(rel)
        if was == is_:
            continue
        if in_ref:
            (added if was is None else removed if is_ is None else changed).append(rel)
        elif is_ is None:
            problems.append(f"{rel}: missing, and {rel_golden} was recorded with it ({hint} "
                            "once it is back, or with what replaces it)")
        else:
            problems.append(f"{rel}: changed since {rel_golden} was recorded ({hint})")
    if changed or added or removed:
        parts = [f"{what} {', '.join(names[:5])}{' ...' if len(names) > 5 else ''}"
                 for what, names in (("changed:", changed), ("added:", added),
                                     ("removed:", removed)) if names]
        problems.insert(0, f"{rel_golden}: recorded from another version of the reference "
                           f"({'; '.join(parts)}) ({hint})")
    return problems


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
        raise TaskError(task.path, _stale(task, data, rel))
    return data


def _stale(task: Task, data: dict[str, Any], rel: Path) -> list[str]:
    """Why a recording does not match the task: each difference its own problem."""
    problems: list[str] = []
    if data.get("scale") not in (None, task.scale):
        problems.append(f"{rel}: recorded for a {data.get('scale')} task; this one is "
                        f"{task.scale} scale (re-run `frontier-measure record`)")
    files = data.get("files")
    if isinstance(files, dict) and all(isinstance(v, str) for v in files.values()):
        problems += _changes(task, files)
    if not problems:
        # A recording older than its per-file digests, or one the files
        # cannot explain (the task's held-out files are others now).
        why = ("" if isinstance(files, dict) else "; it predates per-file digests, so which "
               "file changed cannot be said")
        problems.append(f"{rel}: {STALE_TEXT}{why} (re-run `frontier-measure record`)")
    return problems


STALE_TEXT = "recorded from a different reference, cases or fixtures"


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
