"""Golden outputs: the reference observed on every case in several fresh runs.

Each recording opens a fresh session of the task's runner (fresh processes,
fresh copies, a fresh build) and observes the reference on every case. An item
is kept only when every recording produced exactly the same value; anything
that varies (timestamps, addresses, temporary paths, the order of a set under
hash randomisation ...) is excluded and listed with the reason. A mapping item
(a directory snapshot) keeps its stable keys and excludes only the varying
ones. Timing inputs must be deterministic: the reference's outputs on them
must agree across recordings, or recording fails.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from . import golden as golden_file
from .diff import is_mapping_item
from .observe import describe
from .task import Task, TaskError

_MISSING = object()


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def stable_items(recordings: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, str]]:
    """Items equal in every recording, and why each other one was excluded."""
    items: dict[str, Any] = {}
    excluded: dict[str, str] = {}
    ids = list(dict.fromkeys(i for rec in recordings for i in rec))
    n = len(recordings)
    for item_id in ids:
        values = [rec.get(item_id, _MISSING) for rec in recordings]
        if any(v is _MISSING for v in values):
            excluded[item_id] = "missing in some recordings"
            continue
        texts = [_text(v) for v in values]
        if len(set(texts)) == 1:
            items[item_id] = values[0]
        elif all(is_mapping_item(v) for v in values):
            keys = list(dict.fromkeys(k for v in values for k in v))
            kept = {}
            for k in keys:
                entries = [_text(v.get(k)) if k in v else None for v in values]
                if len(set(entries)) == 1 and entries[0] is not None:
                    kept[k] = values[0][k]
                else:
                    excluded[f"{item_id}:{k}"] = f"varied between the {n} recordings"
            items[item_id] = kept
        else:
            distinct = list(dict.fromkeys(texts))
            excluded[item_id] = (f"varied between recordings ({len(distinct)} distinct values, "
                                 f"e.g. {describe(json.loads(distinct[0]), 60)} / "
                                 f"{describe(json.loads(distinct[1]), 60)})")
    return items, excluded


def record(task: Task, runner: ModuleType, runs: int | None = None, *,
           isolation: str | None = None,
           progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Record the reference's observations `runs` times (default: the task's
    repetitions) and write tests/golden.json; the golden document."""
    from .runners import SideFailure
    from .validate import shape_problems

    defects = shape_problems(task, runner)
    if defects:
        raise TaskError(task.path, defects)
    try:
        return _record(task, runner, runs, isolation=isolation, progress=progress)
    except SideFailure as exc:
        # The reference failing while being built or run is the task's defect.
        raise TaskError(task.path, [f"the reference failed: {exc.reason}"]) from None


def _record(task: Task, runner: ModuleType, runs: int | None, *, isolation: str | None,
            progress: Callable[[str], None] | None) -> dict[str, Any]:
    runs = runs or task.repetitions
    cases = runner.cases(task)
    inputs = runner.timing_inputs(task)
    recordings: list[dict[str, Any]] = []
    timing: list[dict[str, str]] = []
    for k in range(runs):
        if progress:
            progress(f"recording {k + 1}/{runs}")
        # Recording reads no held-out data through the sides, and golden.json
        # is being written: no guard (the reference is trusted code).
        with runner.open_session(task, task.reference_dir, isolation=isolation,
                                 recording=True) as session:
            # Module and package scale: the reference runs under the task's
            # run-time audit, which reports every violation and goes on; a
            # reference that breaks its own checklist is not recorded.
            if hasattr(session, "audit_reference"):
                session.audit_reference = True
            b = session.build("reference")
            if not b.ok:
                raise TaskError(task.path, [f"the reference does not build ({b.status}): "
                                            f"{b.log[-2000:]}"])
            obs = session.observe("reference", cases)
            _audited(task, session)
            if obs.failures:
                cid, why = next(iter(obs.failures.items()))
                raise TaskError(task.path, [f"the reference failed on case '{cid}' in "
                                            f"recording {k + 1}: {why}"])
            if obs.problems:
                p = obs.problems[0]
                raise TaskError(task.path, [f"the reference misbehaves on case '{p.case}' in "
                                            f"recording {k + 1}: {p.reason}"])
            recordings.append(obs.items)
            timing.append(session.timing_digests("reference", inputs))
            _audited(task, session)
    for t in inputs:
        if len({d[t.id] for d in timing}) > 1:
            raise TaskError(task.path, [f"timing input '{t.id}': the reference's outputs differ "
                                        "between recordings; timing inputs must be "
                                        "deterministic"])
    items, excluded = stable_items(recordings)
    golden = {
        "schema_version": golden_file.SCHEMA_VERSION,
        "scale": task.scale,
        "task": task.name,
        "recorded_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "runs": runs,
        "reference_digest": golden_file.digest(task.reference_dir, runner.held_out(task)),
        "files": golden_file.file_digests(task.path, task.reference_dir, runner.held_out(task)),
        "cases": [c.id for c in cases],
        "items": items,
        "excluded": excluded,
        "timing_digests": timing[0],
    }
    golden_file.write(task, golden)
    return golden


def _audited(task: Task, session: Any) -> None:
    """A TaskError naming every violation of the reference's run-time audit so
    far, each with its stack (module and package scale)."""
    from .validate import violations_of

    if hasattr(session, "audit_reports"):
        broken = violations_of(task, session.audit_reports("reference"))
        if broken:
            raise TaskError(task.path, broken)
