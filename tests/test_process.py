"""The process runner through the Python binding: real processes only."""

from __future__ import annotations

import os
import signal
import time

import pytest

from frontier_measure import IsolationError, SpawnError, _core

NOBODY = 65534


def spec(*argv: str, **kw) -> _core.ProcessSpec:
    s = _core.ProcessSpec()
    s.argv = list(argv)
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def test_runs_and_measures():
    r = _core.run_process(spec("sh", "-c", "cat; echo oops >&2; exit 4", stdin_data=b"abc"))
    assert (r.exit_code, r.stdout, r.stderr) == (4, b"abc", b"oops\n")
    assert not r.ok and r.describe() == "exit code 4"
    assert r.wall_ns > 0 and r.max_rss_kb > 0


def test_large_stdin_and_stdout_do_not_deadlock():
    data = os.urandom(3 << 20)
    r = _core.run_process(spec("cat", stdin_data=data))
    assert r.ok and r.stdout == data


def test_signal_is_reported_by_name():
    r = _core.run_process(spec("sh", "-c", "kill -SEGV $$"))
    assert r.signal == signal.SIGSEGV
    assert r.describe() == "killed by SIGSEGV"


def test_missing_command_is_a_clear_error():
    with pytest.raises(SpawnError, match="command not found on PATH: 'no-such-cmd-42'"):
        _core.run_process(spec("no-such-cmd-42"))
    with pytest.raises(SpawnError, match="working directory does not exist"):
        _core.run_process(spec("true", cwd="/no/such/dir"))


def test_shell_only_when_asked():
    r = _core.run_process(spec("echo $((2+3))", shell=True))
    assert r.stdout == b"5\n"
    r = _core.run_process(spec("echo", "$((2+3))"))
    assert r.stdout == b"$((2+3))\n"


def test_env_cwd_and_cpus(tmp_path):
    s = spec("sh", "-c", "pwd; echo $FM_X; cat /proc/self/status | grep Cpus_allowed_list",
             cwd=str(tmp_path), env={"FM_X": "42"}, cpus=[0])
    r = _core.run_process(s)
    out = r.stdout.decode().splitlines()
    assert out[0] == str(tmp_path)
    assert out[1] == "42"
    assert out[2].split()[-1] == "0"


def test_timeout_kills_grandchildren():
    start = time.monotonic()
    r = _core.run_process(spec("sh", "-c", "sh -c 'echo $$; exec sleep 60' & wait", timeout_s=0.5))
    assert r.timed_out and r.describe() == "timed out"
    assert time.monotonic() - start < 10
    grandchild = int(r.stdout.split()[0])
    time.sleep(0.1)
    assert not _alive(grandchild)


def test_background_leftovers_are_killed_when_the_command_exits():
    r = _core.run_process(spec("sh", "-c", "sleep 60 & echo $!"))
    assert r.ok
    time.sleep(0.1)
    assert not _alive(int(r.stdout))


def test_file_size_limit(tmp_path):
    s = spec("sh", "-c", "head -c 100000 /dev/zero > big; echo $?", cwd=str(tmp_path))
    s.limits.file_size = 10000
    r = _core.run_process(s)
    assert r.stdout.strip() != b"0"  # head was stopped by SIGXFSZ
    assert (tmp_path / "big").stat().st_size == 10000


@pytest.mark.needs_root
def test_switches_to_an_unprivileged_account():
    r = _core.run_process(spec("id", "-u", uid=NOBODY, gid=NOBODY, cwd="/"))
    assert r.stdout.strip() == str(NOBODY).encode()


@pytest.mark.needs_root
def test_fork_past_nproc_limit_fails_cleanly():
    s = spec("sh", "-c", "for i in $(seq 40); do sleep 5 & done; wait; echo finished",
             uid=NOBODY, gid=NOBODY, cwd="/", timeout_s=30)
    s.limits.nproc = 5
    start = time.monotonic()
    r = _core.run_process(s)
    assert time.monotonic() - start < 20
    assert b"fork" in r.stderr.lower() or b"resource" in r.stderr.lower()


def test_account_switch_without_privilege_is_an_isolation_error():
    if os.geteuid() == 0:
        pytest.skip("as root the switch succeeds")
    with pytest.raises(IsolationError, match="cannot switch"):
        _core.run_process(spec("true", uid=0 if os.geteuid() else 1, gid=-1))


def test_suspended_worker_accumulates_no_cpu():
    h = _core.ProcessHandle(spec("sh", "-c", "while :; do :; done", keep_stdin_open=True,
                                 timeout_s=20))
    time.sleep(0.15)
    h.suspend()
    assert h.suspended
    before = h.cpu_ns()
    time.sleep(0.3)
    assert h.cpu_ns() == before > 0
    h.resume()
    time.sleep(0.15)
    assert h.cpu_ns() > before
    h.signal_group(signal.SIGKILL)
    assert h.wait().signal == signal.SIGKILL


@pytest.mark.needs_perf
def test_software_counters_follow_the_child():
    s = spec("sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done")
    s.counters = ["task-clock", "page-faults", "cycles"]
    r = _core.run_process(s)
    by = {c.name: c for c in r.counters}
    assert by["task-clock"].available and by["task-clock"].value > 1e6
    assert by["page-faults"].value > 0
    # Hardware may be missing (VMs): then it says why instead of raising.
    assert by["cycles"].available or by["cycles"].reason


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")
