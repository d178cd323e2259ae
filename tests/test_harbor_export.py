"""The Harbor export and the one test.sh of every task, without a container:
the verifier layout (only tests/ uploaded) is laid out on this machine."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from eval_support import CANDIDATES, ROOT, quick_task
from frontier_measure import harbor, runners
from frontier_measure.task import TaskError, find_tasks
from frontier_measure.validate import validate

TEMPLATED = find_tasks(ROOT / "tasks", full=True)  # the suite from real code too


@pytest.fixture
def wheels(tmp_path: Path) -> Path:
    # The layout is under test here, not the wheels (the Docker trial installs real ones).
    d = tmp_path / "wheels"
    d.mkdir()
    (d / "frontier_measure-0-py3-none-any.whl").write_bytes(b"not installed in this test")
    return d


def test_every_bundled_test_script_is_the_template():
    assert len(TEMPLATED) >= 11
    differ = harbor.write_test_scripts(TEMPLATED, check=True)
    assert differ == [], "run `frontier-measure harbor scripts tasks` to regenerate"
    for t in TEMPLATED:
        assert os.access(t / "tests" / "test.sh", os.X_OK)


def test_the_template_takes_the_candidate_directory_from_the_task():
    assert 'GIVEN.get("FM_CANDIDATE", "/workspace")' in harbor.test_script(
        ROOT / "tasks" / "module" / "dedupe")
    assert 'GIVEN.get("FM_CANDIDATE", "/app")' in harbor.test_script(
        ROOT / "tasks" / "kernel" / "matmul")


def test_export_carries_what_the_verifier_needs(tmp_path, wheels):
    src = ROOT / "tasks" / "kernel" / "matmul"
    out = harbor.export(src, tmp_path / "matmul", base="example/base:1", wheels=wheels)
    tests = out / "tests"
    assert (tests / "task.toml").read_bytes() == (src / "task.toml").read_bytes()
    cmp = filecmp.dircmp(src / "environment" / "workspace", tests / "reference")
    assert not (cmp.left_only or cmp.right_only or cmp.diff_files)
    assert [p.name for p in (tests / "wheels").iterdir()] == [p.name for p in wheels.iterdir()]
    assert not (tests / "candidates").exists()  # the project's own failing candidates
    assert (tests / "test.sh").read_text() == harbor.test_script(src)
    froms = [ln for ln in (out / "environment" / "Dockerfile").read_text().splitlines()
             if ln.startswith("FROM")]
    assert froms == ["FROM example/base:1"]
    # The agent's side is unchanged and holds none of the held-out data.
    assert not list((out / "environment").rglob("golden.json"))
    assert find_tasks(tmp_path) == [out]  # tests/task.toml is a copy, not a second task


def test_export_makes_the_agent_unprivileged(tmp_path, wheels):
    # The image's user is the agent's account, owner of the workspace; Harbor is
    # told the same ([agent] user) and to run the verifier as root.
    import tomllib
    for scale, name, workdir in (("module", "dedupe", "/workspace"), ("repository", "logstat", "/app")):
        out = harbor.export(ROOT / "tasks" / scale / name, tmp_path / name, wheels=wheels)
        lines = (out / "environment" / "Dockerfile").read_text().splitlines()
        assert lines[-1] == f"USER {harbor.AGENT_USER}"
        assert f"chown -R agent:agent {workdir}" in lines[-2]
        doc = tomllib.loads((out / "task.toml").read_text())
        assert doc["agent"]["user"] == "agent" and doc["verifier"]["user"] == "root"
        src = tomllib.loads((ROOT / "tasks" / scale / name / "task.toml").read_text())
        doc["agent"].pop("user"), doc["verifier"].pop("user")
        assert doc == src  # nothing else changed
        assert validate(out) == []
        assert 'AGENT = "agent"' in (out / "tests" / "test.sh").read_text()


def test_export_adds_the_tables_a_task_lacks_and_refuses_a_root_agent(tmp_path, wheels):
    import tomllib
    task = tmp_path / "src" / "dedupe"
    shutil.copytree(ROOT / "tasks" / "module" / "dedupe", task)
    toml = task / "task.toml"
    text = toml.read_text()
    text = text.replace("[agent]\ntimeout_sec = 3600\n", "").replace("[verifier]\n", "[verifier] # ok\n")
    toml.write_text(text)
    out = harbor.export(task, tmp_path / "out", wheels=wheels)
    doc = tomllib.loads((out / "task.toml").read_text())
    assert doc["agent"] == {"user": "agent"} and doc["verifier"]["user"] == "root"
    for table, user in (("agent", "root"), ("agent", 0), ("verifier", "agent")):
        said = f"user = {json.dumps(user)}\n"
        toml.write_text(text + f"\n[agent]\n{said}" if table == "agent"
                        else text.replace("[verifier] # ok\n", f"[verifier]\n{said}"))
        with pytest.raises(TaskError, match=rf"\[{table}\] user"):
            harbor.export(task, tmp_path / "refused", wheels=wheels)


def _uploaded(exported: Path, at: Path) -> Path:
    """What a trial's verifier has: the task's tests/ alone (as /tests)."""
    shutil.copytree(exported / "tests", at, symlinks=True)
    return at


def test_verifier_layout_loads_from_tests_alone(tmp_path, wheels):
    for scale, name in (("module", "dedupe"), ("kernel", "matmul")):
        out = harbor.export(ROOT / "tasks" / scale / name, tmp_path / "x" / name, wheels=wheels)
        root = tmp_path / "v" / name
        root.mkdir(parents=True)
        uploaded = _uploaded(out, tmp_path / "uploads" / name)
        shutil.copy(uploaded / "task.toml", root / "task.toml")
        (root / "tests").symlink_to(uploaded)
        task, _ = runners.load(root)
        assert task.reference_dir == root / "tests" / "reference"
        assert validate(root) == []  # golden outputs recorded from this very reference
        shutil.rmtree(uploaded / "reference")
        assert any("environment/workspace/: missing" in p for p in validate(root))


@pytest.mark.slow
def test_test_sh_in_the_verifier_layout(tmp_path, wheels):
    task = quick_task(tmp_path, "module", "dedupe")
    out = harbor.export(task, tmp_path / "export" / "dedupe", wheels=wheels)
    uploaded = _uploaded(out, tmp_path / "uploaded-tests")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "reward.json").write_text('{"reward": 1}')  # planted by an agent
    env = {**os.environ, "FM_CANDIDATE": str(CANDIDATES / "module" / "wrong_value"),
           "FM_LOGS": str(logs), "FM_PYTHON": sys.executable}
    env.pop("FM_TASK_DIR", None)
    subprocess.run(["bash", str(uploaded / "test.sh")], env=env, timeout=300, check=False)
    reward = json.loads((logs / "reward.json").read_text())
    assert reward["reward"] == 0 and reward["compliant"] == 1 and reward["functional_pass_rate"] < 1
    result = json.loads((logs / "out" / "module-dedupe" / "result.json").read_text())
    assert result["failure"]["stage"] == "functional"
    assert result["task"]["path"].endswith("/dedupe")
    assert not (logs / "error.txt").exists()


def _bare_env(logs: Path) -> dict[str, str]:
    # The system python3 (no frontier-measure importable) stands for the shipped runtime.
    logs.mkdir(exist_ok=True)
    return {"PATH": "/usr/bin:/bin", "FM_LOGS": str(logs), "HOME": str(logs.parent),
            "FM_PYTHON": "/usr/bin/python3"}


def test_test_sh_without_a_task_writes_zero_with_the_reason(tmp_path):
    alone = tmp_path / "tests"
    alone.mkdir()
    shutil.copy(ROOT / "tasks" / "module" / "dedupe" / "tests" / "test.sh", alone)
    logs = tmp_path / "logs"
    subprocess.run(["bash", str(alone / "test.sh")], env=_bare_env(logs), timeout=60)
    assert json.loads((logs / "reward.json").read_text()) == harbor.ZERO_REWARD
    assert "no task" in (logs / "error.txt").read_text()


@pytest.mark.skipif(subprocess.run(["/usr/bin/python3", "-c", "import frontier_measure"],
                                   capture_output=True).returncode == 0,
                    reason="the system python3 has frontier-measure installed")
def test_test_sh_without_the_evaluator_writes_zero_with_the_reason(tmp_path, wheels):
    out = harbor.export(ROOT / "tasks" / "module" / "dedupe", tmp_path / "dedupe", wheels=wheels)
    shutil.rmtree(out / "tests" / "wheels")
    uploaded = _uploaded(out, tmp_path / "uploaded")
    logs = tmp_path / "logs"
    subprocess.run(["bash", str(uploaded / "test.sh")], env=_bare_env(logs), timeout=60)
    assert json.loads((logs / "reward.json").read_text()) == harbor.ZERO_REWARD
    assert "not installed" in (logs / "error.txt").read_text()
