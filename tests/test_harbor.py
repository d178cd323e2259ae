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


def verify(task: Path, candidate: Path, logs: Path, **env: str) -> dict:
    env = {**os.environ, "FM_TASK_DIR": str(task), "FM_CANDIDATE": str(candidate),
           "FM_LOGS": str(logs), "FM_PYTHON": sys.executable, **env}
    # Executed as Harbor does: its #! line counts.
    subprocess.run([str(task / "tests" / "test.sh")], env=env, timeout=300, check=False)
    return json.loads((logs / "reward.json").read_text())


@pytest.mark.slow
def test_verifier_clears_logs_and_writes_a_flat_reward(tmp_path):
    task = quick_task(tmp_path, "module", "dedupe")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "reward.json").write_text('{"reward": 1}')  # planted by an agent
    (logs / "stale.txt").write_text("x")
    (logs / "test-stdout.txt").write_text("Harbor's own")
    reward = verify(task, CANDIDATES / "module" / "wrong_value", logs)
    assert not (logs / "stale.txt").exists()
    assert (logs / "test-stdout.txt").read_text() == "Harbor's own"
    assert reward["reward"] == 0.0 and reward["compliant"] == 1.0
    assert all(isinstance(v, (int, float)) for v in reward.values())
    assert (logs / "out" / "module-dedupe" / "result.json").is_file()


def test_verifier_writes_zero_reward_when_the_evaluator_cannot_run(tmp_path):
    task = quick_task(tmp_path, "module", "dedupe")
    logs = tmp_path / "logs"
    reward = verify(task, tmp_path / "no-such-candidate", logs)
    assert reward == {"reward": 0, "speedup": 0, "functional_pass_rate": 0, "compliant": 0}
    assert "does not exist" in (logs / "eval.txt").read_text()


def test_the_verifiers_output_is_what_harbor_keeps(tmp_path):
    # Harbor sends test.sh's output to test-stdout.txt in the log directory: it
    # carries the evaluator's output (also in eval.txt) and the reward.
    task = quick_task(tmp_path, "module", "dedupe")
    logs = tmp_path / "logs"
    logs.mkdir()
    env = {**os.environ, "FM_TASK_DIR": str(task), "FM_CANDIDATE": str(tmp_path / "nothing"),
           "FM_LOGS": str(logs), "FM_PYTHON": sys.executable}
    with open(logs / "test-stdout.txt", "w") as out:
        subprocess.run([str(task / "tests" / "test.sh")], env=env, stdout=out,
                       stderr=subprocess.STDOUT, timeout=300, check=False)
    shown = (logs / "test-stdout.txt").read_text()
    evaluator = (logs / "eval.txt").read_text()
    assert "does not exist" in evaluator
    assert evaluator in shown
    reward = (logs / "reward.json").read_text().strip()
    assert f"reward.json: {reward}" in shown


@pytest.mark.slow
def test_the_verifier_runs_nothing_the_environment_plants(tmp_path):
    # What an agent could leave for the verifier's shell: a frontier-measure
    # and a python3 first on PATH, a package of the same name on PYTHONPATH,
    # a startup file (BASH_ENV) and an exported function shadowing a builtin.
    # Each would write a perfect reward; none may run.
    task = quick_task(tmp_path, "module", "dedupe")
    logs = tmp_path / "logs"
    logs.mkdir()
    evil = tmp_path / "evil"
    (evil / "frontier_measure").mkdir(parents=True)
    forge = f"echo '{{\"reward\": 1}}' >{logs}/reward.json; touch {evil}/ran\n"
    for name in ("frontier-measure", "python3", "env.sh"):
        (evil / name).write_text("#!/bin/sh\n" + forge)
        (evil / name).chmod(0o755)
    (evil / "frontier_measure" / "__init__.py").write_text(
        f"import pathlib; pathlib.Path('{evil}/ran').touch()\n")
    reward = verify(task, CANDIDATES / "module" / "wrong_value", logs,
                    PATH=f"{evil}:{os.environ['PATH']}", PYTHONPATH=str(evil),
                    BASH_ENV=str(evil / "env.sh"), **{"BASH_FUNC_exec%%": "() { " + forge + "}"})
    assert not (evil / "ran").exists()
    assert reward["reward"] == 0 and reward["compliant"] == 1
    assert (logs / "out" / "module-dedupe" / "result.json").is_file()
