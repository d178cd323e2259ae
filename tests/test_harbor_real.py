"""Harbor's own answers on every task (bundled and suite) and every exported one:
its task model loads each one (harbor.models.task.task.Task, as `harbor run` does) and its
static checker (`harbor lint`) finds nothing. Harbor needs Python >= 3.12 and
lives in its own venv (.harbor-venv, made by scripts/setup.sh; $FM_HARBOR
names another venv)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from eval_support import ROOT
from frontier_measure import harbor
from frontier_measure.task import find_tasks

BUNDLED = find_tasks(ROOT / "tasks")
EVERY = find_tasks(ROOT / "tasks", full=True)  # the suite built from real code too
HARBOR_VENV = Path(os.environ.get("FM_HARBOR", ROOT / ".harbor-venv"))
HARBOR = HARBOR_VENV / "bin" / "harbor"
PYTHON = HARBOR_VENV / "bin" / "python"

pytestmark = pytest.mark.skipif(
    not HARBOR.exists(),
    reason=f"Harbor is not installed at {HARBOR_VENV} (scripts/setup.sh installs it there when a "
           "Python >= 3.12 exists on this machine; none was found)")

LOAD = r"""
import json, sys, warnings
from harbor.models.task.task import Task
out = {}
for d in sys.argv[1:]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            t = Task(d)
        c = t.config
        out[d] = {"ok": True, "name": t.name,
                  "authors": [a.name for a in c.task.authors],
                  "network_mode": c.environment.network_mode.value,
                  "cpus": c.environment.cpus, "memory_mb": c.environment.memory_mb,
                  "verifier_timeout": c.verifier.timeout_sec,
                  "agent_user": c.agent.user, "verifier_user": c.verifier.user}
    except Exception as exc:
        out[d] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
print(json.dumps(out))
"""


def harbor_load(dirs: list[Path]) -> dict[str, dict]:
    r = subprocess.run([str(PYTHON), "-c", LOAD, *map(str, dirs)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def harbor_lint(dirs: list[Path], *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(HARBOR), "lint", *options, *map(str, dirs)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)


def test_harbor_is_the_real_one():
    r = subprocess.run([str(PYTHON), "-c", "import importlib.metadata as m; print(m.version('harbor'))"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    major, minor = (int(x) for x in r.stdout.strip().split(".")[:2])
    assert (major, minor) >= (0, 25)


def test_harbor_loads_every_bundled_task():
    assert len(BUNDLED) == 12
    loaded = harbor_load(BUNDLED)
    bad = {d: v["error"] for d, v in loaded.items() if not v["ok"]}
    assert not bad, bad
    for d, v in loaded.items():
        assert v["authors"] == ["frontier-measure"], d
        assert v["network_mode"] == "no-network", d
        assert v["name"].startswith("frontier-measure/")


def test_harbor_lint_passes_every_task_suite_included():
    assert len(EVERY) > len(BUNDLED)
    r = harbor_lint(EVERY)
    assert r.returncode == 0, r.stdout + r.stderr


def test_harbor_loads_every_suite_task():
    suite = [t for t in EVERY if t not in BUNDLED]
    loaded = harbor_load(suite)
    bad = {d: v["error"] for d, v in loaded.items() if not v["ok"]}
    assert not bad, bad


def test_harbor_rejects_what_validate_rejects(tmp_path):
    # The example: both Harbor and `frontier-measure validate` refuse it.
    import shutil

    from frontier_measure.validate import validate
    dest = tmp_path / "dedupe"
    shutil.copytree(ROOT / "tasks" / "module" / "dedupe", dest)
    text = (dest / "task.toml").read_text()
    text = text.replace('authors = [{ name = "frontier-measure" }]', 'authors = "me"')
    text = text.replace('network_mode = "no-network"', 'network_mode = "offline"')
    text = text.replace("cpus = 2", 'cpus = "two"')
    (dest / "task.toml").write_text(text)
    assert not harbor_load([dest])[str(dest)]["ok"]
    assert harbor_lint([dest]).returncode != 0
    assert len(validate(dest)) == 3


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[Path]:
    out = tmp_path_factory.mktemp("exported")
    wheels = out / "_wheels"
    wheels.mkdir()
    # What Harbor checks is the task's layout and task.toml, not the wheels' contents
    # (the trials in test_harbor_real_trial.py install real ones).
    (wheels / "frontier_measure-0-py3-none-any.whl").write_bytes(b"layout only")
    return [harbor.export(t, out / f"{t.parent.name}-{t.name}", wheels=wheels) for t in BUNDLED]


@pytest.mark.slow
def test_harbor_loads_and_lints_every_exported_task(exported):
    assert len(exported) == len(BUNDLED)
    loaded = harbor_load(exported)
    bad = {d: v["error"] for d, v in loaded.items() if not v["ok"]}
    assert not bad, bad
    # Harbor runs the agent unprivileged and the verifier as root; its own rule
    # against a root agent (not on by default) finds nothing either.
    assert all(v["agent_user"] == harbor.AGENT_USER and v["verifier_user"] == "root"
               for v in loaded.values()), loaded
    r = harbor_lint(exported, "--extend-select", "root-agent")
    assert r.returncode == 0, r.stdout + r.stderr
