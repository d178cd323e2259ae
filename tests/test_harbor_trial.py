"""A real Harbor-style trial of a module task with the Docker engine: the task's
image built from its exported Dockerfile (on the local base image), the agent's
turn in the container as the unprivileged account export makes, then tests/
uploaded to /tests and /tests/test.sh run there as root, which installs the
evaluator from the shipped wheels."""

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
        # The agent's container holds neither the evaluator nor the held-out data,
        # and the agent is not root there.
        r = trial.agent("python3 -c 'import frontier_measure' 2>/dev/null && echo present; "
                        "ls /tests 2>/dev/null | wc -l; id -un; id -u")
        assert r.stdout.split()[:2] == ["0", harbor.AGENT_USER] and r.stdout.split()[2] != "0"
        trial.oracle()
        verdict = trial.verify()
        assert verdict.reward["reward"] == 1, verdict.eval_log
        assert verdict.reward["functional_pass_rate"] == 1 and verdict.reward["compliant"] == 1
        assert verdict.error == ""
        # Harbor's test-stdout.txt carries the evaluator's output and the reward.
        assert verdict.eval_log and verdict.eval_log in verdict.test_stdout
        assert "reward.json: {" in verdict.test_stdout
        res = _result(trial)
        assert res["strict_success"] and res["candidate"]["path"] == "/workspace"
        # The sides ran as ids drawn for this evaluation, far above any account of
        # this machine or of the image (the agent's included).
        accounts = res["isolation"]["accounts"]
        assert set(accounts) == {"reference", "candidate"}, accounts
        uids = {int(v.split()[1]) for v in accounts.values()}
        assert len(uids) == 2 and all(u >= 1_000_000_000 for u in uids), accounts


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
        # /logs/verifier is writable by the agent, as Harbor leaves it.
        r = trial.agent("echo '{\"reward\": 1}' >/logs/verifier/reward.json"
                        " && touch /logs/verifier/planted.txt")
        assert r.returncode == 0, r.stderr
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
    # Planted as root, which an agent is not (see the next test): even then
    # nothing on PATH is run.
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


# A library that, loaded into any process, would leave a reward of its own when
# that process exits (after the verifier's last write), marked so it can be told
# from the oracle's.
EVIL_SO = r"""
#include <stdio.h>
__attribute__((destructor)) static void plant(void) {
    FILE *f = fopen("/logs/verifier/reward.json", "w");
    if (f) { fputs("{\"reward\": 1, \"planted\": 1}\n", f); fclose(f); }
}
"""


def test_the_agent_cannot_plant_what_the_verifier_loads(prepared):
    # What an agent that was root could do to the verifier, tried by the agent
    # as it is: each plant in the system is refused; what lands in the agent's
    # own home is never read by the verifier (root, empty environment, its own
    # interpreter by absolute path). Then the oracle's work scores 1.
    plant = r"""
cd /tmp && cat >evil.c <<'C'
@EVIL@
C
gcc -shared -fPIC -o /tmp/evil.so evil.c && chmod 755 /tmp/evil.so || exit 9
fake='#!/bin/sh
echo "{\"reward\": 1, \"planted\": 1}" >/logs/verifier/reward.json'
site=$(python3 -c 'import site; print(" ".join(site.getsitepackages()))')
try() { if ( eval "$1" ) 2>/dev/null; then echo "PLANTED $1"; else echo "refused $1"; fi; }
try 'echo /tmp/evil.so >/etc/ld.so.preload'
try 'echo /tmp/evil.so >/etc/ld.so.conf.d/0-evil.conf'
try 'cp /tmp/evil.so /usr/lib/x86_64-linux-gnu/libevil.so'
for f in /etc/profile /etc/bash.bashrc /etc/environment /etc/profile.d/evil.sh \
         /root/.bashrc /root/.profile; do
  try "echo 'export LD_PRELOAD=/tmp/evil.so' >>$f"
done
for d in $site; do
  try "echo 'import os; os.environ[\"LD_PRELOAD\"] = \"/tmp/evil.so\"' >$d/sitecustomize.py"
done
for d in /usr/local/bin /usr/local/sbin /usr/bin /bin; do
  try "printf '%s\n' \"\$fake\" >$d/python3 && chmod +x $d/python3"
done
# Where the agent may write: its own home, read by nothing the verifier runs.
echo 'export LD_PRELOAD=/tmp/evil.so' >>~/.profile
echo 'export LD_PRELOAD=/tmp/evil.so PATH=~/bin:$PATH' >>~/.bashrc
user_site=$(python3 -m site --user-site) && mkdir -p "$user_site" &&
  echo 'import os; os.environ["LD_PRELOAD"] = "/tmp/evil.so"' >"$user_site/sitecustomize.py"
mkdir -p ~/bin && printf '%s\n' "$fake" >~/bin/python3 && chmod +x ~/bin/python3
echo done
""".replace("@EVIL@", EVIL_SO)
    with harbor.Trial(*prepared) as trial:
        r = trial.agent(plant)
        assert r.returncode == 0 and r.stdout.rstrip().endswith("done"), r.stdout + r.stderr
        lines = r.stdout.splitlines()
        assert not [ln for ln in lines if ln.startswith("PLANTED")], r.stdout
        assert sum(ln.startswith("refused") for ln in lines) >= 13, r.stdout
        assert trial.read("/etc/ld.so.preload") is None
        trial.oracle()
        verdict = trial.verify()
        assert verdict.reward["reward"] == 1 and "planted" not in verdict.reward, verdict
        assert verdict.error == ""


@pytest.mark.parametrize("wrong", ["preload", "writable-system", "linked-output"])
def test_a_trial_run_wrongly_is_not_judged(prepared, wrong):
    # Tripwires for a trial in which the agent could have reached the system
    # after all: the verifier writes reward 0 with the reason and runs no
    # evaluator. `preload`: an /etc/ld.so.preload (left by an agent that ran as
    # root); `writable-system`: an image that hands the agent part of /usr;
    # `linked-output`: the agent's link where Harbor, as root, sends test.sh's
    # output, which makes root truncate the task's checklist before test.sh runs.
    with harbor.Trial(*prepared) as trial:
        trial.oracle()
        if wrong == "preload":
            trial.exec("touch /etc/ld.so.preload")
        elif wrong == "writable-system":
            trial.exec(f"chown -R {harbor.AGENT_USER} /usr/local/lib")
        else:
            r = trial.agent("ln -s /tests/checklist.toml /logs/verifier/test-stdout.txt")
            assert r.returncode == 0, r.stderr
        verdict = trial.verify()
        assert verdict.reward == harbor.ZERO_REWARD
        assert verdict.error.startswith("not judged: "), verdict.error
        assert {"preload": "/etc/ld.so.preload exists",
                "writable-system": "can write the system, which the verifier loads from: "
                                   "/usr/local/lib",
                "linked-output": "output went to /tests/checklist.toml"}[wrong] in verdict.error
        assert verdict.eval_log == ""  # the evaluator never ran
