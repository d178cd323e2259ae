"""Crash safety: an evaluator killed with SIGKILL mid-command leaves state
behind (cgroups, areas with their mounts, a closed tests/, containers); the
next start's sweep removes all of it and says what it removed."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eval_support import ROOT
from frontier_measure.isolation import cgroups, sweep

HOSTILE = Path(__file__).resolve().parent / "hostile"

pytestmark = [pytest.mark.needs_root, pytest.mark.slow]


def _in_cgroups_of(pid: int) -> list[int]:
    mine = f"{cgroups.ROOT_NAME}/{pid}-"
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                state = (p / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state not in "ZX" and mine in (p / "cgroup").read_text():
                    out.append(int(p.name))
            except (OSError, IndexError):
                continue
    return out


def _marked_by(pid: int) -> list[Path]:
    import tempfile

    out = []
    for d in Path(tempfile.gettempdir()).glob("fm-*"):
        try:
            if (d / sweep.MARK).read_text().strip() == str(pid):
                out.append(d)
        except OSError:
            continue
    return out


def _containers_of(pid: int) -> list[str]:
    if not shutil.which("docker"):
        return []
    r = subprocess.run(["docker", "ps", "-aq", "--filter", f"label={sweep.DOCKER_LABEL}={pid}"],
                       capture_output=True, text=True)
    return r.stdout.split()


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_what_a_killed_evaluator_left_is_swept(backend, tmp_path):
    if backend == "docker" and subprocess.run(["docker", "info"], capture_output=True).returncode:
        pytest.skip("no Docker engine (scripts/services.sh starts one)")
    task = tmp_path / "logstat"
    shutil.copytree(ROOT / "tasks" / "repository" / "logstat", task)
    toml = task / "task.toml"
    toml.write_text(re.sub(r"(?m)^command_timeout_s = .*$", "command_timeout_s = 120",
                           toml.read_text()))
    tmp_path.chmod(0o755)
    tests_mode = (task / "tests").stat().st_mode & 0o777
    code = ("import sys\nfrom frontier_measure.evaluate import evaluate\n"
            "evaluate(sys.argv[1], sys.argv[2], isolation=sys.argv[3], "
            "only_cases=['report-basic'], timing=False)\n")
    evaluator = subprocess.Popen([sys.executable, "-c", code, str(task),
                                  str(HOSTILE / "hostile_sleep"), backend],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = evaluator.pid
    try:
        deadline = time.monotonic() + 240
        # Killed while a side's command runs: the sleeper's `sleep` is in view.
        while time.monotonic() < deadline:
            if backend == "local" and _in_cgroups_of(pid) and _marked_by(pid):
                time.sleep(3)  # the candidate's first command has started
                break
            if backend == "docker" and _containers_of(pid) and _marked_by(pid):
                time.sleep(3)  # the candidate's first command has started
                break
            assert evaluator.poll() is None, "the evaluation ended before it could be killed"
            time.sleep(0.2)
        else:
            pytest.fail("the evaluation never reached a side's command")
    finally:
        evaluator.send_signal(signal.SIGKILL)
        evaluator.wait()
    assert _marked_by(pid), "a killed evaluator leaves its areas"
    removed = sweep.sweep()
    assert removed, "the sweep names what it removed"
    assert any(line.startswith("directory ") for line in removed), removed
    assert _marked_by(pid) == [] and _in_cgroups_of(pid) == [] and _containers_of(pid) == []
    assert cgroups.leftovers() == []
    assert (task / "tests").stat().st_mode & 0o777 == tests_mode
    mounts = Path("/proc/self/mounts").read_text()
    assert not any(str(d) in mounts for d in _marked_by(pid))
    assert sweep.sweep() == [] or all(str(pid) not in line for line in sweep.sweep())
