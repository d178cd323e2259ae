"""The hostile corpus (tests/hostile/corpus.toml): every candidate fails at its
stage, for one of its rules, under every backend it lists; an attack on the
measurement buys nothing; and nothing of the sides outlives an evaluation."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from eval_support import ROOT, quick_task
from frontier_measure.evaluate import evaluate
from frontier_measure.isolation import cgroups, sweep

HOSTILE = Path(__file__).resolve().parent / "hostile"
CORPUS = tomllib.loads((HOSTILE / "corpus.toml").read_text())["candidate"]
# A few cases of the repository task: enough for each attack to show.
REPOSITORY_CASES = ["summary-malformed", "missing-file", "report-basic", "filter-class"]

pytestmark = pytest.mark.slow


def task_for(entry: dict, tmp_path: Path) -> Path:
    scale, name = entry["task"].split("/")
    if scale == "repository":
        task = tmp_path / name
        shutil.copytree(ROOT / "tasks" / scale / name, task)
        toml = task / "task.toml"  # a short command timeout, for the sleeper
        text = re.sub(r"(?m)^command_timeout_s = .*$", "command_timeout_s = 3", toml.read_text())
        if "cost" in entry:
            text = re.sub(r'(?m)^cost = ".*"$', f'cost = "{entry["cost"]}"', text)
        toml.write_text(text)
        tmp_path.chmod(0o755)
        return task
    if scale == "kernel":
        # Simulated cycles need no shorter timing budget: the bundled task as is.
        return ROOT / "tasks" / scale / name
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


def leftovers() -> list[str]:
    """What this process's evaluations left: processes in cgroups named after
    it, containers labelled with it (other evaluators on the machine may be
    running: theirs are not ours). Kernel objects of a side (IPC, keys) cannot
    be left: each run's namespaces are its own and the calls are off the
    sides' allow-list (tests/test_isolation.py)."""
    mine = f"{cgroups.ROOT_NAME}/{os.getpid()}-"
    found = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                state = (p / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state not in "ZX" and mine in (p / "cgroup").read_text():
                    found.append(f"process {p.name}: {(p / 'cmdline').read_bytes()[:80]!r}")
    if shutil.which("docker"):
        r = subprocess.run(["docker", "ps", "-aq", "--filter",
                            f"label={sweep.DOCKER_LABEL}={os.getpid()}"],
                           capture_output=True, text=True)
        found += [f"container {c}" for c in r.stdout.split()]
    return found


def candidate_for(entry: dict, tmp_path: Path) -> Path:
    """The entry's candidate. A repository entry holds only what it changes
    (a launcher, a Makefile): the rest is the reference's workspace, laid
    under it here, as an agent would start from it."""
    own = HOSTILE / entry["candidate"]
    scale, name = entry["task"].split("/")
    if scale != "repository":
        return own
    dest = tmp_path / "candidate"
    shutil.copytree(ROOT / "tasks" / scale / name / "environment" / "workspace", dest)
    shutil.copytree(own, dest, dirs_exist_ok=True)
    return dest


def _runs() -> list[tuple[dict, str]]:
    return [(e, b) for e in CORPUS if "run_by" not in e for b in e.get("backends", ["local"])]


def _params() -> list:
    # An entry's `full_backends` run in the full run only (FM_FULL=1): CI's time budget.
    return [pytest.param(e, b, id=f"{e['name']}-{b}",
                         marks=[pytest.mark.full] if b in e.get("full_backends", []) else [])
            for e, b in _runs()]


def test_every_entry_is_complete():
    for e in CORPUS:
        assert {"name", "task", "candidate", "class", "stage", "rules"} <= set(e), e
        assert (HOSTILE / e["candidate"]).is_dir(), e["candidate"]
        assert (ROOT / "tasks" / e["task"]).is_dir(), e["task"]
        assert set(e.get("backends", ["local"])) <= {"local", "docker"}, e


@pytest.mark.parametrize("entry,backend", _params())
def test_hostile_candidate_is_caught(entry, backend, tmp_path):
    if backend == "docker" and subprocess.run(["docker", "info"], capture_output=True).returncode:
        pytest.skip("no Docker engine (scripts/services.sh starts one)")
    task = task_for(entry, tmp_path)
    kwargs = {"only_cases": REPOSITORY_CASES} if entry["task"].startswith("repository/") else {}
    if entry.get("timing", True) is False:
        kwargs["timing"] = False
    res = evaluate(task, candidate_for(entry, tmp_path), isolation=backend, **kwargs)
    failure = res["failure"]
    assert not res["strict_success"] and failure is not None, entry["class"]
    assert failure["stage"] == entry["stage"], failure
    assert failure["rule"] in entry["rules"], failure
    if "reason_contains" in entry:
        assert entry["reason_contains"] in failure["reason"], failure
    if "max_speedup" in entry:
        assert res["performance"]["speedup"] < entry["max_speedup"], res["performance"]
    assert leftovers() == []
