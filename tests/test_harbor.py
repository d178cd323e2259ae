"""tests/test.sh as Harbor runs it: clears the verifier log directory first and
writes reward.json (a flat map of numbers) last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from eval_support import CANDIDATES, quick_task

FM = str(Path(sys.executable).parent / "frontier-measure")


def verify(task: Path, candidate: Path, logs: Path) -> dict:
    env = {**os.environ, "FM_TASK_DIR": str(task), "FM_CANDIDATE": str(candidate),
           "FM_LOGS": str(logs), "FM_BIN": FM}
    subprocess.run(["bash", str(task / "tests" / "test.sh")], env=env, timeout=300, check=False)
    return json.loads((logs / "reward.json").read_text())


@pytest.mark.slow
def test_verifier_clears_logs_and_writes_a_flat_reward(tmp_path):
    task = quick_task(tmp_path, "module", "dedupe")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "reward.json").write_text('{"reward": 1}')  # planted by an agent
    (logs / "stale.txt").write_text("x")
    reward = verify(task, CANDIDATES / "module" / "wrong_value", logs)
    assert not (logs / "stale.txt").exists()
    assert reward["reward"] == 0.0 and reward["compliant"] == 1.0
    assert all(isinstance(v, (int, float)) for v in reward.values())
    assert (logs / "out" / "module-dedupe" / "result.json").is_file()


def test_verifier_writes_zero_reward_when_the_evaluator_cannot_run(tmp_path):
    task = quick_task(tmp_path, "module", "dedupe")
    logs = tmp_path / "logs"
    reward = verify(task, tmp_path / "no-such-candidate", logs)
    assert reward == {"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}
    assert "does not exist" in (logs / "eval.txt").read_text()
