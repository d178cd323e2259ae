"""The hostile corpus (tests/hostile/corpus.toml): every candidate fails at its
stage, for one of its rules, and an attack on the measurement buys nothing."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from eval_support import ROOT, quick_task
from frontier_measure.evaluate import evaluate

HOSTILE = Path(__file__).resolve().parent / "hostile"
CORPUS = tomllib.loads((HOSTILE / "corpus.toml").read_text())["candidate"]

pytestmark = pytest.mark.slow


def task_for(entry: dict, tmp_path: Path) -> Path:
    scale, name = entry["task"].split("/")
    task = quick_task(tmp_path, scale, name, allow_imports=entry.get("allowed_imports"))
    if "allow" in entry:
        chk = task / "tests" / "checklist.toml"
        chk.write_text(re.sub(r"(?m)^allow = \[", "allow = ["
                              + "".join(f'"{a}", ' for a in entry["allow"]), chk.read_text()))
    if "cost" in entry:
        toml = task / "task.toml"
        toml.write_text(re.sub(r'(?m)^cost = ".*"$', f'cost = "{entry["cost"]}"',
                               toml.read_text()))
    return task


def test_every_entry_is_complete():
    for e in CORPUS:
        assert {"name", "task", "candidate", "class", "stage", "rules"} <= set(e), e
        assert (HOSTILE / e["candidate"]).is_dir(), e["candidate"]
        assert (ROOT / "tasks" / e["task"]).is_dir(), e["task"]


@pytest.mark.parametrize("entry", CORPUS, ids=[e["name"] for e in CORPUS])
def test_hostile_candidate_is_caught(entry, tmp_path):
    res = evaluate(task_for(entry, tmp_path), HOSTILE / entry["candidate"])
    failure = res["failure"]
    assert not res["strict_success"] and failure is not None, entry["class"]
    assert failure["stage"] == entry["stage"], failure
    assert failure["rule"] in entry["rules"], failure
    if "max_speedup" in entry:
        assert res["performance"]["speedup"] < entry["max_speedup"], res["performance"]
