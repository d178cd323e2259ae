"""Infrastructure failures are not the candidate's: a side whose process or
sandbox cannot start is an evaluation error (exit status 3, failure stage
"error", rule "infrastructure"), while a side that starts and then dies in its
own code is still judged. And the evaluator installed the plain way, into a
venv of Debian's own python3, starts its sides, as root and as an ordinary
account."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from eval_support import ROOT, quick_task
from frontier_measure import IsolationError, SpawnError
from frontier_measure import runners as runners_pkg
from frontier_measure.cli import main
from frontier_measure.evaluate import EvaluationError, evaluate
from frontier_measure.runners import SideStartError
from frontier_measure.runners import module as module_runner

DEDUPE = ROOT / "tasks" / "module" / "dedupe"


def _result(out: Path) -> dict:
    return json.loads(next(out.rglob("result.json")).read_text())


# ----------------------------------------------------------- what is whose failure


@pytest.fixture
def broken_worker_python(monkeypatch):
    """Make worker_python answer with what the test sets (cache bypassed)."""
    real = module_runner.worker_python

    def use(python: str | None = None, sitedirs: list[str] | None = None) -> None:
        def fake(switched: bool, sandboxed: bool = False) -> tuple[str, list[str]]:
            found, dirs = real(switched, sandboxed)
            return python or found, dirs if sitedirs is None else sitedirs

        monkeypatch.setattr(module_runner, "worker_python", fake)

    return use


def test_an_interpreter_that_is_not_there_is_an_evaluation_error(tmp_path, broken_worker_python):
    broken_worker_python(python="/nonexistent/bin/python3")
    task = quick_task(tmp_path, "module", "dedupe")
    with pytest.raises(EvaluationError, match="infrastructure"):
        evaluate(task, out=tmp_path / "out", timing=False)
    res = _result(tmp_path / "out")
    assert res["failure"]["stage"] == "error" and res["failure"]["rule"] == "infrastructure"
    assert res["reward"]["reward"] == 0 and not res["strict_success"]
    assert not (res.get("functional") or {}).get("failed")  # no verdict on the candidate


def test_a_worker_that_dies_before_its_first_reply_did_not_start(tmp_path, broken_worker_python):
    # Our packages missing from the worker's view: it dies importing them,
    # before anything of the side was loaded.
    empty = Path(tempfile.mkdtemp(prefix="fm-empty-site-"))  # one the sandbox can bind
    os.chmod(empty, 0o755)
    broken_worker_python(sitedirs=[str(empty)])
    task = runners_pkg.load(DEDUPE)[0]
    try:
        with module_runner.ModuleSession(task, task.oracle_dir, guard=False) as session, \
                pytest.raises(SideStartError, match="candidate's process did not start") as err:
            session.observe("candidate", runners_pkg.runner_for(task).cases(task)[:2])
    finally:
        empty.rmdir()
    assert "No module named 'frontier_measure'" in err.value.reason  # the worker's last words


def test_the_cli_exits_3_when_a_side_cannot_start(tmp_path, broken_worker_python):
    broken_worker_python(python="/nonexistent/bin/python3")
    task = quick_task(tmp_path, "module", "dedupe")
    r = CliRunner().invoke(main, ["eval", str(task), "--out", str(tmp_path / "out")])
    assert r.exit_code == 3, r.output
    assert "infrastructure" in r.output and "Traceback" not in r.output
    assert _result(tmp_path / "out")["failure"]["rule"] == "infrastructure"


def test_a_candidate_that_dies_while_loading_is_still_judged(tmp_path):
    # It started (it answered the first request); its own code ended it.
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "dedupe.py").write_text("import os\nos._exit(3)\n")
    task = quick_task(tmp_path, "module", "dedupe", allow_imports=["os"])
    res = evaluate(task, cand, out=tmp_path / "out", timing=False)
    assert res["failure"]["stage"] == "functional", res["failure"]
    assert "worker exited (exit code 3)" in json.dumps(res["functional"]["case_failures"])


def test_a_repository_side_whose_sandbox_cannot_run_is_an_evaluation_error(monkeypatch):
    from frontier_measure.isolation import local
    from frontier_measure.runners.repository import RepositorySession

    # In a sandbox, its init exits at once (never says "up"); without one, the
    # launcher itself cannot be spawned. Either way before any of the side ran.
    monkeypatch.setattr(local, "init_program", lambda: Path("/bin/false"))
    monkeypatch.setattr(local, "_launcher_python", lambda: "/nonexistent/bin/python3")
    task = runners_pkg.load(ROOT / "tasks" / "repository" / "logstat")[0]
    with pytest.raises((IsolationError, SpawnError)):
        RepositorySession(task, task.oracle_dir).close()


# ------------------------------------------------------------ worker interpreter


def test_a_venvs_link_is_started_by_the_real_path_in_a_sandbox(tmp_path, monkeypatch):
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    system = Path(f"/usr/bin/python{version}")
    if not system.is_file():
        pytest.skip(f"{system} is not installed")
    # A venv's bin/python: a link, outside /usr, to the system's interpreter.
    link = tmp_path / "venv" / "bin" / "python"
    link.parent.mkdir(parents=True)
    link.symlink_to(system)
    monkeypatch.setattr(sys, "executable", str(link))
    monkeypatch.setattr(module_runner, "_PYTHON_CACHE", {})
    python, sitedirs = module_runner.worker_python(False, sandboxed=True)
    assert python == str(system)  # not the link, whose directory the sandbox does not show
    assert len(sitedirs) == 1 and not sitedirs[0].startswith(str(tmp_path))


def test_a_stage_directory_others_can_write_is_not_used(tmp_path, monkeypatch):
    parent = tmp_path / "var-tmp"
    parent.mkdir()
    name = "frontier-measure-site" if os.geteuid() == 0 else f"frontier-measure-site-{os.geteuid()}"
    planted = parent / name
    planted.mkdir()
    os.chmod(planted, 0o777)  # anyone could have put packages there
    monkeypatch.setattr(module_runner, "_STAGE_PARENT", parent)
    monkeypatch.setattr(module_runner, "_stage_root_cache", None)
    root = module_runner._stage_root()
    assert root != planted and root.parent == parent
    assert root.stat().st_mode & 0o777 == 0o755 and root.stat().st_uid == os.geteuid()
    shutil.rmtree(root)
    os.chmod(planted, 0o755)
    monkeypatch.setattr(module_runner, "_stage_root_cache", None)
    assert module_runner._stage_root() == planted  # ours and closed: reused


# ------------------------------------------- the evaluator in a venv of Debian's python3

DEBIAN_PYTHON = Path("/usr/bin/python3")
NOBODY = 65534


def _debian_python_reason() -> str | None:
    if not DEBIAN_PYTHON.is_file():
        return f"{DEBIAN_PYTHON} is not installed"
    r = subprocess.run([str(DEBIAN_PYTHON), "-c",
                        "import sys, venv, ensurepip; print('%d.%d' % sys.version_info[:2])"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return f"{DEBIAN_PYTHON} has no venv/ensurepip (Debian package python3-venv)"
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    if r.stdout.strip() != "3.11" or here != "3.11":
        return f"{DEBIAN_PYTHON} is {r.stdout.strip()} and the build's Python {here}, not both 3.11"
    return None


@pytest.fixture(scope="session")
def debian_venv() -> Iterator[tuple[Path, Path]]:
    """(venv, an open directory) : a venv made by Debian's python3 with this
    checkout's wheel installed, its dependencies from the package index, in a
    directory every account can read (as a pip install in /opt would be)."""
    reason = _debian_python_reason()
    if reason:
        pytest.skip(reason)
    base = Path(tempfile.mkdtemp(prefix="fm-debian-venv-"))
    os.chmod(base, 0o755)
    try:
        wheels = base / "wheels"
        # The build directory outlives the session: later sessions rebuild
        # only what changed (and ccache serves the rest), while the editable
        # install's own build directory is left alone.
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--no-build-isolation", "-w", str(wheels),
                        "--config-settings=build-dir=" + str(ROOT / "build" / "debian-venv-test"),
                        str(ROOT)], check=True, timeout=1200)
        venv = base / "venv"
        subprocess.run([str(DEBIAN_PYTHON), "-m", "venv", str(venv)], check=True, timeout=300)
        wheel = next(wheels.glob("frontier_measure-*.whl"))
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)],
                       check=True, timeout=900)
        yield venv, base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _eval_in(venv: Path, task: Path, home: Path, account: int | None) -> tuple[int, str, dict]:
    """`frontier-measure eval` of the task's oracle by the venv's CLI, as
    `account` (None: ours), with a clean environment."""
    out = home / "out"
    prefix = [] if account is None else [
        "setpriv", f"--reuid={account}", f"--regid={account}", "--clear-groups"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    r = subprocess.run([*prefix, str(venv / "bin" / "frontier-measure"), "eval", str(task),
                        "--out", str(out)], cwd=home, env=env, capture_output=True, text=True,
                       timeout=600)
    found = list(out.rglob("result.json"))
    return r.returncode, r.stdout + r.stderr, json.loads(found[0].read_text()) if found else {}


def _assert_the_oracle_was_judged(code: int, output: str, res: dict) -> None:
    assert code != 3 and res, output
    failure = res.get("failure")
    # The performance verdict may be noisy on a loaded machine; nothing else may fail.
    assert failure is None or failure["stage"] == "performance", (failure, output)
    assert res["functional"]["failed"] == 0 and res["compliance"]["compliant"]
    python = res["isolation"]["worker_python"]
    assert python.startswith("/usr/"), python


def _open_task(base: Path, name: str) -> Path:
    parent = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base))
    os.chmod(parent, 0o755)
    # Oracle speedups are tens of times on this task: 1.2 keeps a loaded
    # machine from deciding the test.
    return quick_task(parent, "module", "dedupe", threshold=1.2)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_a_venv_of_debians_python_evaluates_an_oracle(debian_venv):
    venv, base = debian_venv
    task = _open_task(base, "own")
    home = Path(tempfile.mkdtemp(prefix="home-", dir=base))
    code, output, res = _eval_in(venv, task, home, None)
    _assert_the_oracle_was_judged(code, output, res)
    assert code == 0 or res["failure"]["stage"] == "performance"


@pytest.mark.slow
@pytest.mark.needs_root
@pytest.mark.timeout(1800)
def test_a_venv_of_debians_python_evaluates_an_oracle_as_an_ordinary_account(debian_venv):
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed")
    venv, base = debian_venv
    task = _open_task(base, "nobody")
    home = Path(tempfile.mkdtemp(prefix="home-", dir=base))
    os.chown(home, NOBODY, NOBODY)  # results go only to a directory the evaluator owns
    code, output, res = _eval_in(venv, task, home, NOBODY)
    _assert_the_oracle_was_judged(code, output, res)
    assert res["isolation"]["account_switch"] is False
