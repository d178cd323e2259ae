"""The module/package runner: worker processes, isolation, failures of the
candidate's process, and recording of golden outputs."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from eval_support import ROOT, quick_task
from frontier_measure import runners
from frontier_measure.isolation.accounts import EVALUATION_UIDS
from frontier_measure.record import record
from frontier_measure.runners.module import ModuleSession, WorkerFailure


def load(path: Path):
    return runners.load(path)[0]


def cases(task):
    return runners.runner_for(task).cases(task)

DEDUPE = ROOT / "tasks" / "module" / "dedupe"


def candidate(tmp_path: Path, source: str) -> Path:
    d = tmp_path / "cand"
    d.mkdir(exist_ok=True)
    (d / "dedupe.py").write_text(source)
    return d


PROBE = '''
import os


def dedupe(records, key=None, verbose=False):
    return list(records)


def probe(path):
    try:
        with open(path, "rb") as f:
            return f.read(16)
    except OSError as exc:
        return type(exc).__name__


def whoami():
    return os.getuid()
'''


@pytest.fixture
def open_task_copy():
    """A copy of the dedupe task readable by every account, as a checkout
    usually is (pytest's own tmp_path is closed to other accounts, which would
    prove nothing), private to this test so no other evaluation guards it."""
    base = Path(tempfile.mkdtemp(prefix="fm-test-task-"))
    os.chmod(base, 0o755)
    shutil.copytree(DEDUPE, base / "dedupe")
    # copytree copies modes, and another evaluation may be guarding the
    # bundled task right now: open the copy as a fresh checkout would be.
    os.chmod(base / "dedupe" / "tests", 0o755)
    yield base / "dedupe"
    shutil.rmtree(base, ignore_errors=True)


@pytest.mark.needs_root
def test_worker_runs_as_its_own_account_and_cannot_read_held_out_data(tmp_path, open_task_copy):
    task = load(open_task_copy)
    golden = str(task.golden_path)
    with ModuleSession(task, candidate(tmp_path, PROBE)) as session:
        # In a sandbox the held-out data is not in view at all; without one it
        # is closed to the side by its mode bits for the session.
        hidden = "FileNotFoundError" if session.sandboxed else "PermissionError"
        w = session.spawn("candidate")
        try:
            items = w.observe([
                {"kind": "call", "target": "whoami", "args": [], "kwargs": {}},
                {"kind": "call", "target": "probe", "args": [golden], "kwargs": {}},
                {"kind": "call", "target": "probe",
                 "args": [str(task.reference_dir / "dedupe.py")], "kwargs": {}},
                {"kind": "call", "target": "probe",
                 "args": [str(session.dirs["reference"] / "dedupe.py")], "kwargs": {}},
                {"kind": "call", "target": "probe",
                 "args": [str(task.path / "solution" / "workspace" / "dedupe.py")],
                 "kwargs": {}},
            ], 10)
        finally:
            w.close()
        # the candidate's id, drawn for this evaluation (no account has it)
        assert items["0/result"] == session.owners["candidate"][0]
        assert items["0/result"] in EVALUATION_UIDS
        assert items["1/result"] == hidden
        # Neither the reference (the task's, or the reference's private copy) nor
        # the oracle is there for the candidate to read.
        assert items["3/result"] in ("FileNotFoundError", "PermissionError")
        if session.sandboxed:
            assert items["2/result"] == items["4/result"] == "FileNotFoundError"
    assert os.stat(task.tests_dir).st_mode & 0o005  # readable by all again (or never closed)


@pytest.mark.needs_root
def test_a_sandboxed_worker_has_no_network_and_its_own_tmp(tmp_path, open_task_copy):
    task = load(open_task_copy)
    src = PROBE + """

def net():
    with open("/proc/net/dev") as f:
        return [line.split(":")[0].strip() for line in f.readlines()[2:]]


def tmp():
    import os
    return sorted(os.listdir("/tmp")), os.uname().nodename
"""
    with ModuleSession(task, candidate(tmp_path, src)) as session:
        if not session.sandboxed:
            pytest.skip("bubblewrap is not usable here")
        w = session.spawn("candidate")
        try:
            items = w.observe([
                {"kind": "call", "target": "net", "args": [], "kwargs": {}},
                {"kind": "call", "target": "tmp", "args": [], "kwargs": {}}], 10)
        finally:
            w.close()
    assert items["0/result"] == ["lo"]  # no network but loopback
    assert items["1/result"] == {"$tuple": [[], "candidate"]}


def test_a_workers_calls_off_the_allow_list_fail(tmp_path):
    # The sides' system-call filter is installed by the worker before it
    # imports anything of the side: a cache in a message queue or the keyring
    # and a namespace of its own are refused (EPERM), even where the task's
    # rules let the side reach libc.
    from frontier_measure.isolation import seccomp

    task_dir = quick_task(tmp_path, "module", "dedupe", allow_imports=["ctypes"])
    chk = task_dir / "tests" / "checklist.toml"  # the audit hook lets ctypes through too
    chk.write_text(chk.read_text().replace("allow = [", 'allow = ["ctypes", ', 1))
    task = load(task_dir)
    nr = {n: seccomp.number(n) for n in ("add_key", "mq_open", "unshare", "shmget")}
    src = f"""
import ctypes


def calls():
    libc = ctypes.CDLL(None, use_errno=True)
    out = []
    for args in [({nr['add_key']}, b"user", b"k", b"v", 1, -4), ({nr['mq_open']}, b"/q", 66, 384, 0),
                 ({nr['unshare']}, 0x10000000), ({nr['shmget']}, 0, 4096, 0o1600)]:
        ctypes.set_errno(0)
        out.append([libc.syscall(*args), ctypes.get_errno()])
    return out
"""
    with ModuleSession(task, candidate(tmp_path, src), guard=False) as session:
        if not session.sandboxed:
            pytest.skip("bubblewrap is not usable here")
        w = session.spawn("candidate")
        try:
            items = w.observe([{"kind": "call", "target": "calls", "args": [], "kwargs": {}}], 10)
        finally:
            w.close()
    assert items["0/result"] == [[-1, 1]] * 4, items


def test_hanging_case_times_out_and_the_rest_still_run(tmp_path):
    task_dir = quick_task(tmp_path, "module", "dedupe")
    toml = task_dir / "task.toml"
    toml.write_text(toml.read_text().replace("case_timeout_s = 20", "case_timeout_s = 2"))
    src = (DEDUPE / "solution" / "workspace" / "dedupe.py").read_text().replace(
        "    kept = []\n", "    kept = []\n    while records == [] and not verbose:\n        pass\n", 1)
    task = load(task_dir)
    with ModuleSession(task, candidate(tmp_path, src), guard=False) as session:
        obs = session.observe("candidate", cases(task))
    assert obs.failures == {"empty": "timed out after 2 s"}
    assert "verbose-empty/0/result" in obs.items and "random-3/0/result" in obs.items


def test_candidate_that_breaks_on_import_or_exits(tmp_path):
    task = load(DEDUPE)
    for source, expect in [
        ("raise RuntimeError('no')\n", "importing 'dedupe' raised RuntimeError: no"),
        ("import os\nos._exit(3)\n", "worker exited (exit code 3)"),
    ]:
        with ModuleSession(task, candidate(tmp_path, source), guard=False) as session:
            obs = session.observe("candidate", cases(task)[:3])
            assert set(obs.failures) == {"small-ints", "empty", "unique"}
            assert all(r.startswith(expect) for r in obs.failures.values()), obs.failures
            with pytest.raises(WorkerFailure):
                session.spawn("candidate")


def test_output_printed_by_the_candidate_cannot_corrupt_the_protocol(tmp_path):
    src = ("import os, sys\n"
           "def dedupe(records, key=None, verbose=False):\n"
           "    os.write(1, b'garbage on fd 1')\n"
           "    print('to stdout')\n"
           "    sys.stderr.write('to stderr')\n"
           "    return list(records)\n")
    task = load(DEDUPE)
    with ModuleSession(task, candidate(tmp_path, src), guard=False) as session:
        obs = session.observe("candidate", cases(task)[:1])
    assert obs.failures == {}
    assert obs.items["small-ints/0/stdout"] == "to stdout\n"


def test_record_keeps_stable_items_and_lists_the_others(tmp_path):
    task_dir = tmp_path / "dedupe"
    shutil.copytree(DEDUPE, task_dir)
    ref = task_dir / "environment" / "workspace" / "dedupe.py"
    # The clock varies between recordings: those items must be excluded.
    ref.write_text("import time\n" + ref.read_text().replace(
        'print(f"dedupe: kept {len(kept)} of {len(records)} records")',
        'print(f"dedupe: kept {len(kept)} of {len(records)} records ({time.time_ns()})")'))
    task, runner = runners.load(task_dir)
    golden = record(task, runner, runs=3)
    assert golden["runs"] == 3
    assert set(golden["excluded"]) == {"verbose/0/stdout", "verbose-empty/0/stdout"}
    assert "varied between recordings" in golden["excluded"]["verbose/0/stdout"]
    assert "verbose/0/result" in golden["items"]
    stored = json.loads(task.golden_path.read_text())
    assert stored["items"] == golden["items"] and stored["excluded"] == golden["excluded"]
    assert stored["reference_digest"] == golden["reference_digest"]


def test_a_side_that_keeps_hanging_is_given_up_after_three_cases(tmp_path):
    task_dir = quick_task(tmp_path, "module", "dedupe")
    toml = task_dir / "task.toml"
    toml.write_text(toml.read_text().replace("case_timeout_s = 20", "case_timeout_s = 1"))
    src = "def dedupe(records, key=None, verbose=False):\n    while True:\n        pass\n"
    task = load(task_dir)
    with ModuleSession(task, candidate(tmp_path, src), guard=False) as session:
        obs = session.observe("candidate", cases(task))
    reasons = list(obs.failures.values())
    assert len(reasons) == len(cases(task)) and not obs.items
    assert reasons[:3] == ["timed out after 1 s"] * 3
    assert set(reasons[3:]) == {"not run: 3 cases of the candidate had timed out"}


def test_guard_is_shared_by_overlapping_evaluations(tmp_path):
    import subprocess
    import sys

    from frontier_measure.isolation import guard_acquire, guard_release

    d = tmp_path / "tests"
    d.mkdir(mode=0o755)
    os.chmod(d, 0o755)
    guard_acquire(d)  # evaluation A
    guard_acquire(d)  # evaluation B (nested here; another process in practice)
    guard_release(d)  # A ends: B still runs, so the data stays closed
    assert os.stat(d).st_mode & 0o777 == 0o700
    guard_release(d)
    assert os.stat(d).st_mode & 0o777 == 0o755
    # An evaluator that dies holding the guard does not keep it forever.
    code = ("import sys; from pathlib import Path; "
            "from frontier_measure.isolation import guard_acquire; "
            "guard_acquire(Path(sys.argv[1]))")
    subprocess.run([sys.executable, "-c", code, str(d)], check=True)
    assert os.stat(d).st_mode & 0o777 == 0o700
    guard_acquire(d)
    guard_release(d)
    assert os.stat(d).st_mode & 0o777 == 0o755


@pytest.mark.needs_root
def test_staged_site_is_importable_by_an_unprivileged_account():
    # Used when the evaluator's environment lives below a private directory.
    import frontier_measure
    from frontier_measure import _core
    from frontier_measure.runners.module import _staged_site

    stage = _staged_site(Path(frontier_measure.__file__).resolve().parent)
    assert stage == _staged_site(Path(frontier_measure.__file__).resolve().parent)  # reused
    spec = _core.ProcessSpec()
    python = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    if not Path(python).exists():
        pytest.skip(f"{python} not installed")
    spec.argv = [python, "-I", "-c",
                 f"import sys; sys.path.insert(0, {str(stage)!r}); "
                 "import frontier_measure.worker, msgpack, numpy; print('ok')"]
    spec.uid = spec.gid = 65534
    spec.cwd = "/"
    r = _core.run_process(spec)
    assert r.stdout.strip() == b"ok", r.stderr.decode()


def test_which_side_starts_first_alternates_between_blocks(tmp_path, monkeypatch):
    """The second process of a block's pair starts on a machine the first has
    just disturbed; a fixed order would hand that to one side in every block."""
    task_dir = quick_task(tmp_path, "module", "dedupe", min_blocks=4, max_blocks=4)
    task, runner = runners.load(task_dir)
    first = runner.timing_inputs(task)[0]
    started: list[str] = []
    spawn = ModuleSession.spawn

    def recording_spawn(self, side):
        started.append(side)
        return spawn(self, side)

    monkeypatch.setattr(ModuleSession, "spawn", recording_spawn)
    with runner.open_session(task, task.reference_dir) as session:
        [timing] = session.time([first])
    # Four blocks, or more when a busy machine left the threshold open and the
    # evaluator extended the plan: the order alternates in every block either way.
    assert timing.error is None and timing.summary["blocks"] >= 4
    assert len(started) == 2 * timing.summary["blocks"], started
    firsts, seconds = started[0::2], started[1::2]
    assert firsts == [("reference", "candidate")[b % 2] for b in range(len(firsts))], started
    assert all({a, b} == {"reference", "candidate"} for a, b in zip(firsts, seconds, strict=True)), started
