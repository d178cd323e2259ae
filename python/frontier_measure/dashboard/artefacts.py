"""An attempt's files, as the centre column shows them: the agent's terminal
output, the workspace (tree, diff, one file), the configuration and prompt, and
the verification (the gate's checks, the evaluator's items and timing inputs).

Paths come from the database (`attempts.dir`, relative to the run directory)
and from the platform's layout: the artefact directory `attempts/aNNNNN/`, the
live checkout `scratch/aNNNNN-gG/workspace` while the attempt runs. Nothing
here writes; a path asked for by a browser is resolved and must stay inside the
tree it names.
"""

from __future__ import annotations

import codecs
import functools
import json
import os
import tomllib
from pathlib import Path
from typing import Any

from ..platform import checkout as co
from ..platform import tasks as tasks_mod

TERMINAL_FIRST = 64 * 1024  # a browser that joins late sees this much of the log's end
TERMINAL_CHUNK = 256 * 1024  # at most this much per read
TREE_LIMIT = 5000  # files listed per workspace
PATCH_LIMIT = 512 * 1024
FILE_LIMIT = 512 * 1024
ITEMS_LIMIT = 200  # functional items shown per result (failed ones first)


def attempt_dir(run_dir: Path, row: dict[str, Any]) -> Path | None:
    rel = row.get("dir")
    if not rel:
        return None
    path = (run_dir / str(rel)).resolve()
    return path if run_dir.resolve() in path.parents else None


def terminal_path(adir: Path) -> Path:
    """The command agent writes its output to agent/agent.log as it runs; the
    built-in agents' log is written to agent.log when they finish."""
    live = adir / "agent" / "agent.log"
    return live if live.exists() else adir / "agent.log"


class TerminalTail:
    """Reads a growing log incrementally, as text (multi-byte characters split
    across reads stay whole). A new file (an attempt run again) starts over."""

    def __init__(self, first: int = TERMINAL_FIRST) -> None:
        self.first = first
        self.identity: tuple[int, int] | None = None
        self.offset = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def read(self, path: Path | None) -> tuple[bool, str, int] | None:
        """(reset, text, offset after it), or None when nothing is new."""
        try:
            if path is None:
                raise FileNotFoundError
            f = open(path, "rb")  # noqa: SIM115 - closed below, after fstat
        except OSError:
            if self.identity is not None:
                self.identity, self.offset = None, 0
                return True, "", 0
            return None
        with f:
            st = os.fstat(f.fileno())
            identity = (st.st_dev, st.st_ino)
            reset = identity != self.identity or st.st_size < self.offset
            if reset:
                self.identity = identity
                self.offset = max(0, st.st_size - self.first)
                self._decoder.reset()
            if st.st_size == self.offset and not reset:
                return None
            f.seek(self.offset)
            data = f.read(TERMINAL_CHUNK)
        self.offset += len(data)
        return reset, self._decoder.decode(data), self.offset


# ---------------------------------------------------------------- workspace


@functools.lru_cache(maxsize=256)
def _task(task_path: str) -> tasks_mod.PlatformTask | None:
    try:
        return tasks_mod.load(task_path)
    except tasks_mod.PlatformTaskError:
        return None


def live_checkout(run_dir: Path, row: dict[str, Any]) -> co.Checkout | None:
    """The running attempt's checkout (the platform's scratch layout), if it is there."""
    adir = attempt_dir(run_dir, row)
    task = _task(str(row.get("task_path") or ""))
    if adir is None or task is None or row.get("state") != "running":
        return None
    root = run_dir / "scratch" / f"{adir.name}-g{row.get('generation')}"
    if not (root / "workspace").is_dir():
        return None
    return co.Checkout(task.pristine, root, overlay=(root / "upper").is_dir())


def _tree(root: Path) -> tuple[list[str], bool]:
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        # What patches leave out (tool caches) the tree leaves out too.
        ignored = co.ignore_tool_files(rel, dirnames + filenames) | {".git"}
        dirnames[:] = sorted(d for d in dirnames if d not in ignored)
        for name in sorted(n for n in filenames if n not in ignored):
            out.append(name if rel == "." else f"{rel}/{name}")
            if len(out) >= TREE_LIMIT:
                return out, True
    return out, False


def _patch_files(patch: str) -> dict[str, str]:
    """path -> added | modified | deleted, from a git-style patch."""
    out: dict[str, str] = {}
    current = None
    for line in patch.splitlines():
        if line.startswith("diff --git a/"):
            current = line.split(" b/", 1)[-1]
            out[current] = "modified"
        elif current and line.startswith("new file mode"):
            out[current] = "added"
        elif current and line.startswith("deleted file mode"):
            out[current] = "deleted"
    return out


def _clip(text: str, limit: int) -> tuple[str, bool]:
    return (text[:limit], True) if len(text) > limit else (text, False)


def workspace(run_dir: Path, row: dict[str, Any]) -> dict[str, Any]:
    """The files of the attempt's workspace and its changes: live while it runs
    (the checkout), else the patch it left (and the judged candidate's tree)."""
    adir = attempt_dir(run_dir, row)
    task = _task(str(row.get("task_path") or ""))
    live = live_checkout(run_dir, row)
    if live is not None:
        try:
            changes = live.changes()
        except OSError as exc:  # the attempt ended under our feet
            return {"source": "gone", "files": [], "changes": {}, "patch": "",
                    "note": f"the checkout went away: {exc}"}
        patch, clipped = _clip(changes.patch(), PATCH_LIMIT)
        added, removed = changes.line_counts()
        files, more = _tree(live.path)
        return {"source": "live", "files": files, "more_files": more,
                "changes": {c.path: c.kind for c in changes.items}, "patch": patch,
                "patch_clipped": clipped, "lines_added": added, "lines_removed": removed}
    patch_file = adir / "patch.diff" if adir is not None else None
    patch = patch_file.read_text(errors="replace") if patch_file and patch_file.is_file() else ""
    root = _finished_root(adir, task)
    files, more = _tree(root) if root is not None else ([], False)
    patch, clipped = _clip(patch, PATCH_LIMIT)
    source = "none" if root is None else "candidate" if root.parent == adir else "pristine"
    return {"source": source,
            "files": files, "more_files": more, "changes": _patch_files(patch), "patch": patch,
            "patch_clipped": clipped, "lines_added": row.get("lines_added"),
            "lines_removed": row.get("lines_removed")}


def _finished_root(adir: Path | None, task: tasks_mod.PlatformTask | None) -> Path | None:
    if adir is not None and (adir / "candidate").is_dir():
        return adir / "candidate"
    if task is not None and task.pristine.is_dir():
        return task.pristine
    return None


def read_file(run_dir: Path, row: dict[str, Any], rel: str) -> dict[str, Any]:
    """One file of the workspace as it is now (live) or as it was judged."""
    live = live_checkout(run_dir, row)
    root = live.path if live is not None else _finished_root(attempt_dir(run_dir, row),
                                                             _task(str(row.get("task_path") or "")))
    if root is None:
        raise FileNotFoundError(rel)
    root = root.resolve()
    path = (root / rel).resolve()
    if root not in path.parents or not path.is_file():
        raise FileNotFoundError(rel)
    data = path.read_bytes()[:FILE_LIMIT + 1]
    clipped = len(data) > FILE_LIMIT
    if b"\0" in data[:8192]:
        return {"path": rel, "binary": True, "text": "", "clipped": False}
    return {"path": rel, "binary": False, "text": data[:FILE_LIMIT].decode(errors="replace"),
            "clipped": clipped}


# ---------------------------------------------------------------- configuration


def configuration(run_dir: Path, row: dict[str, Any], run: dict[str, Any] | None) -> dict[str, Any]:
    """What the attempt was asked and with what: the prompt in its mode, the
    spec's tables for its agent and model, the run's settings, the whole row."""
    adir = attempt_dir(run_dir, row)
    prompt = ""
    given = adir / "agent" / "instruction.md" if adir is not None else None
    if given is not None and given.is_file():
        prompt = given.read_text(errors="replace")
    else:
        task = _task(str(row.get("task_path") or ""))
        try:
            prompt = task.prompt(str(row.get("prompt_mode"))) if task is not None else ""
        except (tasks_mod.PlatformTaskError, OSError):
            prompt = ""
    spec_text = str((run or {}).get("spec") or "")
    try:
        doc = tomllib.loads(spec_text)
    except tomllib.TOMLDecodeError:
        doc = {}
    model = doc.get("models", {}).get(row.get("model"), {})
    endpoint = doc.get("endpoints", {}).get(model.get("endpoint"), {}) \
        if isinstance(model, dict) else {}
    return {"attempt": row, "prompt_mode": row.get("prompt_mode"), "prompt": prompt,
            "run": doc.get("run", {}), "agent": doc.get("agents", {}).get(row.get("agent"), {}),
            "model": model, "endpoint": endpoint, "spec_path": (run or {}).get("spec_path"),
            "spec": spec_text}


# ---------------------------------------------------------------- verification


def result_files(run_dir: Path, row: dict[str, Any]) -> list[Path]:
    adir = attempt_dir(run_dir, row)
    if adir is None:
        return []
    return sorted((adir / "evaluation").glob("*/result.json"))


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _result_view(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    fun = data.get("functional") or {}
    perf = data.get("performance") or {}
    items = [i for i in fun.get("items") or [] if isinstance(i, dict)]
    items.sort(key=lambda i: bool(i.get("passed")))
    shown = [{"id": i.get("id"), "case": i.get("case"), "passed": i.get("passed"),
              "diff": i.get("diff"), "missing": i.get("missing")} for i in items[:ITEMS_LIMIT]]
    inputs = [{k: i.get(k) for k in ("id", "size", "speedup", "ci_low", "ci_high", "lower_bound",
                                     "verdict", "meets_threshold", "rounds", "loops", "error")}
              for i in perf.get("inputs") or [] if isinstance(i, dict)]
    return {"file": path.parent.name, "task": (data.get("task") or {}).get("name"),
            "strict_success": data.get("strict_success"), "failure": data.get("failure"),
            "compliance": data.get("compliance"),
            "functional": {"ran": fun.get("ran"), "summary": fun.get("summary"),
                           "passed": fun.get("passed"), "total": fun.get("total"),
                           "case_failures": fun.get("case_failures"),
                           "problems": fun.get("problems"), "items": shown,
                           "items_hidden": max(0, len(items) - len(shown))},
            "performance": {"ran": perf.get("ran"), "threshold": perf.get("threshold"),
                            "unit": perf.get("unit"), "cost": perf.get("cost"),
                            "worst_input": perf.get("worst_input"), "speedup": perf.get("speedup"),
                            "verdict": perf.get("verdict"),
                            "meets_threshold": perf.get("meets_threshold"), "inputs": inputs}}


def verification(run_dir: Path, row: dict[str, Any], checks: list[dict[str, Any]]) -> dict[str, Any]:
    adir = attempt_dir(run_dir, row)
    gate = _read_json(adir / "gate.json") if adir is not None else None
    results = []
    for path in result_files(run_dir, row):
        data = _read_json(path)
        if data is not None:
            results.append(_result_view(path, data))
    timed = any(r["performance"]["inputs"] for r in results)
    return {"checks": checks, "gate": {k: v for k, v in (gate or {}).items() if k != "checks"},
            "results": results, "figure": timed}


def speedups_figure(paths: list[Path]) -> str | None:
    """The evaluator's per-input speedup figure for these results (SVG), or None."""
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in paths if p.is_file())
    return _figure(stamp) if stamp else None


@functools.lru_cache(maxsize=64)
def _figure(stamp: tuple[tuple[str, int], ...]) -> str | None:
    from ..report import figures, model

    if figures.missing():
        return None
    report = model.build([p for p, _ in stamp])
    parts = [svg for scale in report.scales
             if (svg := figures.speedups(report, scale)) is not None]
    return "\n".join(parts) if parts else None
