"""A real Harbor-style trial of a module task with the Docker engine: the task's
image built from its exported Dockerfile (on the local base image), the agent's
turn in the container, then tests/ uploaded to /tests and /tests/test.sh run
there, which installs the evaluator from the shipped wheels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from eval_support import ROOT
from frontier_measure import harbor

pytestmark = [pytest.mark.needs_docker, pytest.mark.slow]

TASK = ROOT / "tasks" / "module" / "dedupe"
FM = str(Path(sys.executable).parent / "frontier-measure")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> tuple[Path, str]:
    base = harbor.BASE_IMAGE
    if subprocess.run(["docker", "image", "inspect", base], capture_output=True).returncode:
        pytest.skip(f"base image {base} missing (scripts/services.sh builds it)")
    return harbor.prepare(TASK, tmp_path_factory.mktemp("harbor"))


def _result(trial: harbor.Trial) -> dict:
    raw = trial.read("/logs/verifier/out/module-dedupe/result.json")
    assert raw is not None, "the verifier left no result.json"
    return json.loads(raw)


def test_oracle_scores_one(prepared):
    with harbor.Trial(*prepared) as trial:
        # The agent's container holds neither the evaluator nor the held-out data.
        r = trial.exec("python3 -c 'import frontier_measure' 2>/dev/null && echo present; "
                       "ls /tests 2>/dev/null | wc -l")
        assert r.stdout.split() == ["0"]
        trial.oracle()
        verdict = trial.verify()
        assert verdict.reward["reward"] == 1, verdict.eval_log
        assert verdict.reward["functional_pass_rate"] == 1 and verdict.reward["compliant"] == 1
        assert verdict.error == ""
        res = _result(trial)
        assert res["strict_success"] and res["candidate"]["path"] == "/workspace"
        # The sides ran under their own accounts inside the container, with uids
        # that no account of this machine has (see Trial.__enter__).
        accounts = {ln.split(":")[0]: int(ln.split(":")[2])
                    for ln in (trial.read("/etc/passwd") or "").splitlines()}
        assert accounts["fm-py-cand"] >= 200_000 and accounts["fm-py-ref"] >= 200_000


def test_nop_scores_zero_through_the_command_line():
    r = subprocess.run([FM, "harbor", "trial", str(TASK), "--agent", "nop"],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("reward.json: "))
    reward = json.loads(line.removeprefix("reward.json: "))
    # The reference judged against itself: functional, compliant, not faster by 3x.
    assert reward["reward"] == 0
    assert reward["functional_pass_rate"] == 1 and reward["compliant"] == 1


def test_a_reward_planted_by_the_agent_does_not_survive(prepared):
    with harbor.Trial(*prepared) as trial:
        trial.exec("mkdir -p /logs/verifier && echo '{\"reward\": 1}' >/logs/verifier/reward.json"
                   " && touch /logs/verifier/planted.txt")
        verdict = trial.verify()
        assert verdict.reward["reward"] == 0
        assert trial.read("/logs/verifier/planted.txt") is None
        res = _result(trial)
        assert res["failure"]["stage"] == "performance"
        assert res["failure"]["rule"] in ("no-speedup", "below-threshold", "slower")
