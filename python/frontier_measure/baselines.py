"""Saved baselines: `compare ... --save NAME` and `check NAME CMD`.

A baseline is a compare document (schema "frontier-measure/compare",
comparisons.document) written to DIR/NAME.json: the reference command, the
candidates, every option and the parameter, and each comparison's rounds
(per-round costs) and summary.

What a check compares, and why: a timing taken at another time is not
comparable with one taken now (the machine's load, frequency, caches and
even the binary's layout differ between sessions by more than the effects
worth detecting), so `check` never compares the candidate with the saved
numbers. It re-runs the saved *reference command* against the candidate in
fresh paired, interleaved rounds, with the saved options, at each saved value
of the parameter. The saved rounds stay in the file as the record of what was
measured then, and the table shows the saved speedup beside the new one for
information only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from . import comparisons

DEFAULT_DIR = Path(".frontier-measure") / "baselines"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class BaselineError(Exception):
    """A baseline that cannot be used; `usage` when the name itself is wrong
    (no such baseline, not a valid name), else the file is damaged."""

    def __init__(self, message: str, *, usage: bool) -> None:
        super().__init__(message)
        self.usage = usage


def check_name(name: str) -> str:
    if not NAME.fullmatch(name) or len(name) > 200:
        raise BaselineError(f"a baseline name is letters, digits, '.', '_' and '-', starting with "
                            f"a letter or digit (got {name!r})", usage=True)
    return name


def path_of(name: str, directory: Path | None = None) -> Path:
    return (directory or DEFAULT_DIR) / f"{check_name(name)}.json"


def save(doc: dict[str, Any], name: str, directory: Path | None = None) -> Path:
    """Write the document as baseline NAME (atomically; an older one of the
    same name is replaced)."""
    from .results import write_json

    return write_json(doc, path_of(name, directory))


def saved(directory: Path | None = None) -> list[str]:
    d = directory or DEFAULT_DIR
    return sorted(p.stem for p in d.glob("*.json")) if d.is_dir() else []


def load(name: str, directory: Path | None = None) -> dict[str, Any]:
    """A saved baseline, checked for what a check needs."""
    path = path_of(name, directory)
    if not path.is_file():
        there = saved(directory)
        raise BaselineError(
            f"no baseline '{name}' in {path.parent}"
            + (f" (saved there: {', '.join(there)})" if there else " (none saved there)")
            + "; save one with compare ... --save NAME", usage=True)
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BaselineError(f"{path}: not a readable JSON file ({exc})", usage=False) from None
    problem = _problem(doc)
    if problem:
        raise BaselineError(f"{path}: not a frontier-measure baseline: {problem}", usage=False)
    return doc


def _problem(doc: Any) -> str | None:
    if not isinstance(doc, dict) or doc.get("schema") != comparisons.SCHEMA:
        return f"'schema' is not {comparisons.SCHEMA!r}"
    if doc.get("schema_version") != comparisons.SCHEMA_VERSION:
        return (f"schema_version {doc.get('schema_version')!r}; this version saves and reads "
                f"{comparisons.SCHEMA_VERSION}")
    ref = (doc.get("commands") or {}).get("reference")
    if not isinstance(ref, str) or not ref.strip():
        return "no reference command under 'commands'"
    options = doc.get("options")
    if not isinstance(options, dict):
        return "no 'options'"
    try:
        comparisons.Settings.from_options(options)
    except (TypeError, KeyError, ValueError) as exc:
        return f"unusable 'options' ({exc})"
    return None


def settings(doc: dict[str, Any]) -> comparisons.Settings:
    """The saved options, for measuring the same way. A threshold is the
    saved comparison's own business, not the check's."""
    s = comparisons.Settings.from_options(doc["options"])
    s.threshold = None
    return s


def saved_speedups(doc: dict[str, Any]) -> dict[str | None, float | None]:
    """The saved speedup of the first candidate at each parameter value (for
    the record, shown beside a check's own; never compared with it)."""
    out: dict[str | None, float | None] = {}
    for c in doc.get("comparisons", []):
        value = (c.get("parameter") or {}).get("value")
        out.setdefault(value, (c.get("summary") or {}).get("speedup"))
    return out
