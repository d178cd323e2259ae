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

# The first trial builds the wheels (the C++ core, from scratch on a clean clone).
pytestmark = [pytest.mark.needs_docker, pytest.mark.slow, pytest.mark.timeout(900)]

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


def test_what_the_agent_plants_for_the_verifier_is_never_run(prepared):
    # The agent's turn leaves: an evaluator of its own on PATH and in the
    # workspace (frontier_measure/ importable from the candidate directory), a
    # python3 ahead of the real one, and a daemon that rewrites reward.json.
    plant = r"""
set -e
mkdir -p /usr/local/sbin /workspace/frontier_measure
for tool in frontier-measure python3 python; do
  printf '#!/bin/sh\nmkdir -p /logs/verifier; echo "{\\"reward\\": 1}" >/logs/verifier/reward.json\n' \
    >/usr/local/sbin/$tool
  chmod +x /usr/local/sbin/$tool
done
printf 'import pathlib\npathlib.Path("/logs/verifier/reward.json").write_text("{\\"reward\\": 1}")\n' \
  >/workspace/frontier_measure/__init__.py
cat >/tmp/daemon.sh <<'SH'
while :; do mkdir -p /logs/verifier; echo '{"reward": 1}' >/logs/verifier/reward.json; sleep 0.05; done
SH
setsid nohup bash /tmp/daemon.sh >/dev/null 2>&1 &
"""
    with harbor.Trial(*prepared) as trial:
        assert trial.exec(plant).returncode == 0
        verdict = trial.verify()
        assert verdict.reward["reward"] == 0, verdict.eval_log
        install = trial.read("/logs/verifier/install.txt") or ""
        assert "stopped 1 process" in install or "stopped 2 process" in install, install
        # Harbor's own capture of the script's output is kept.
        assert trial.read("/logs/verifier/test-stdout.txt") is not None
        res = _result(trial)
        # The candidate's frontier_measure/ is judged as part of the candidate, not run.
        assert res["failure"]["stage"] in ("compliance", "performance")
