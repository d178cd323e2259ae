"""Helpers for the end-to-end evaluation tests: a private copy of a bundled task
with a shorter timing budget, and the failing candidates under tests/candidates."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from frontier_measure.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[1]
CANDIDATES = Path(__file__).resolve().parent / "candidates"

# Enough rounds for an interval, little enough to keep the suite quick.
QUICK_TIMING = {"min_blocks": 8, "max_blocks": 10, "max_time_s": 2, "warmup": 1}


def quick_task(tmp_path: Path, scale: str, name: str, allow_imports: list[str] | None = None,
               **timing: Any) -> Path:
    dest = tmp_path / name
    shutil.copytree(ROOT / "tasks" / scale / name, dest)
    toml = dest / "task.toml"
    text = toml.read_text()
    for key, value in {**QUICK_TIMING, **timing}.items():
        text, n = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", text)
        assert n == 1, key
    toml.write_text(text)
    if allow_imports is not None:
        chk = dest / "tests" / "checklist.toml"
        chk.write_text(re.sub(r"(?m)^allowed_imports = \[", "allowed_imports = ["
                              + "".join(f'"{m}", ' for m in allow_imports), chk.read_text()))
    return dest


def run(task: Path, candidate: Path | None, out: Path | None = None) -> dict[str, Any]:
    return evaluate(task, candidate, out=out)


def failure(res: dict[str, Any]) -> tuple[str, str]:
    f = res["failure"]
    assert f is not None, "expected the candidate to fail"
    return f["stage"], f["rule"]
