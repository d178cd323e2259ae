"""The evaluator's own memory stays bounded whatever a candidate returns.

Each evaluation runs in a fresh interpreter that reports its own peak RSS
(ru_maxrss of RUSAGE_SELF: the evaluator alone, not its workers). Memory is
not noisy the way time is: the bound is the target itself, 500 MB, where the
candidates below took the evaluator to 2.4 and 4.2 GB when every item was
decoded and kept until the comparison (bench/evaluator_memory.py prints the
figures of more shapes, next to the oracle's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from eval_support import quick_task

pytestmark = pytest.mark.slow

TARGET_MB = 500
CHILD = """
import json, resource, sys
from frontier_measure.evaluate import evaluate
res = evaluate(sys.argv[1], sys.argv[2], timing=False, only_cases=sys.argv[3].split(","))
print(json.dumps({"peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "failure": res["failure"]}))
"""
CASES = ["small-ints", "empty", "unique", "strings", "tuples", "random-0", "random-1", "random-2"]


def evaluate_fresh(task: Path, candidate: Path) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, str(task), str(candidate), ",".join(CASES)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def candidate(tmp_path: Path, returns: str) -> Path:
    d = tmp_path / "candidate"
    d.mkdir()
    (d / "dedupe.py").write_text(f"def dedupe(records, key=None, verbose=False):\n"
                                 f"    return {returns}\n")
    return d


def test_items_under_the_cap_in_every_case_are_compared_and_let_go(tmp_path):
    # A million 8-character strings: under the cap (1,048,576 values), about
    # 70 MB each once decoded, returned for each of 8 cases.
    task = quick_task(tmp_path, "module", "dedupe")
    got = evaluate_fresh(task, candidate(tmp_path, "[f'{i:08d}' for i in range(1_000_000)]"))
    print(f"peak RSS {got['peak_mb']:.0f} MB")
    assert got["failure"]["rule"] == "wrong-value"
    assert "got 1000000" in got["failure"]["reason"]
    assert got["peak_mb"] < TARGET_MB


def test_an_item_over_the_cap_fails_naming_it_and_is_never_decoded(tmp_path):
    task = quick_task(tmp_path, "module", "dedupe")
    got = evaluate_fresh(task, candidate(tmp_path, "[str(i) for i in range(2_000_000)]"))
    print(f"peak RSS {got['peak_mb']:.0f} MB")
    assert got["failure"]["rule"] == "output-cap"
    assert got["failure"]["reason"].startswith("small-ints/0/result: exceeds the cap")
    assert "max_item_mb = 16" in got["failure"]["reason"]
    assert got["peak_mb"] < TARGET_MB


def test_the_cap_is_the_task_s_setting(tmp_path):
    # A task that allows bigger items takes the same reply whole (compared,
    # and wrong); one that allows less refuses a smaller one.
    task = quick_task(tmp_path, "module", "dedupe")
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace("case_timeout_s = 20",
                                             "case_timeout_s = 20\nmax_item_mb = 64"))
    got = evaluate_fresh(task, candidate(tmp_path, "list(range(2_000_000))"))
    assert got["failure"]["rule"] == "wrong-value"
    assert got["peak_mb"] < TARGET_MB
    toml.write_text(toml.read_text().replace("max_item_mb = 64", "max_item_mb = 0.001"))
    got = evaluate_fresh(task, tmp_path / "candidate")
    assert got["failure"]["rule"] == "output-cap"
    assert "max_item_mb = 0.001: 1,048 bytes, 65 values" in got["failure"]["reason"]
