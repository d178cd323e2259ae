"""The local isolation backend with real processes, real accounts, real
namespaces (bubblewrap) and real cgroups."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

import pytest

from frontier_measure import isolation
from frontier_measure.isolation import LocalBackend, Policy, sandbox


@pytest.fixture(scope="module")
def local():
    with LocalBackend(Policy(nproc=32, disk_mb=16, file_size_mb=4, timeout_s=20)) as b:
        yield b


def needs_sandbox(b: LocalBackend) -> None:
    if not b.sandboxed:
        pytest.skip(f"no sandbox here: {sandbox.unavailable_reason()}")


def test_command_result_shape(local):
    r = local.run("candidate", "printf out; printf err >&2; exit 3")
    assert (r.exit_code, r.stdout, r.stderr, r.leftover) == (3, b"out", b"err", 0)
    assert not r.ok and r.describe() == "exit code 3"
    assert r.wall_ns > 0


def test_runs_in_its_working_directory_with_home_there(local):
    work = local.fresh_copy("reference", None, "w")
    r = local.run("reference", "pwd; echo $HOME; echo hi > f; cat f", cwd="w")
    inside = local.side_path("reference", "w")
    assert r.stdout.decode().splitlines() == [inside, inside, "hi"]
    assert (work / "f").read_text() == "hi\n"


def test_the_sandbox_shows_the_system_and_the_area_only(local):
    needs_sandbox(local)
    r = local.run("candidate", "ls /; echo; hostname")
    top = set(r.stdout.decode().split("\n\n")[0].split())
    # No home, no /root, no checkout of the evaluator, no /var: the system and /work.
    assert top <= {"bin", "dev", "etc", "lib", "lib64", "opt", "proc", "sbin", "tmp", "usr",
                   "work", "lib32", "libx32"}
    assert b"candidate" in r.stdout
    assert not local.can_read("candidate", Path(__file__))
    assert not local.can_read("candidate", local.area("reference"))


def test_no_network_in_the_sandbox(local):
    needs_sandbox(local)
    r = local.run("candidate", "cat /proc/net/dev | tail -n +3 | cut -d: -f1")
    assert r.stdout.split() == [b"lo"]


@pytest.mark.needs_root
def test_area_and_sealed_program_are_not_writable_by_the_side(local, tmp_path):
    (tmp_path / "prog").write_text("#!/bin/sh\necho run\n")
    os.chmod(tmp_path / "prog", 0o755)
    local.fresh_copy("candidate", tmp_path, "program")
    local.seal("candidate", "program")
    r = local.run("candidate", "touch ../x; touch x; echo y >> prog; ./prog", cwd="program")
    assert r.stdout == b"run\n" and r.stderr.count(b"Permission denied") == 3
    assert not (local.area("candidate") / "x").exists()


def test_nothing_a_command_makes_survives_into_the_next(local):
    # Each command runs in a sandbox made for it: what it leaves in /tmp,
    # /dev/shm or its namespaces is gone before the next one starts, with no
    # fresh start asked for.
    local.fresh_copy("candidate", None, "w")
    first = local.run("candidate", "echo cached > /tmp/fm-cache-test; echo x > /dev/shm/fm-c; "
                                   "ls /tmp /dev/shm; hostname", cwd="w")
    assert b"fm-cache-test" in first.stdout and b"fm-c" in first.stdout
    r = local.run("candidate", "ls /tmp /dev/shm", cwd="w")
    assert b"fm-cache-test" not in r.stdout and b"fm-c" not in r.stdout


HOSTILE_CALLS = {
    # name: a Python line that makes the call through libc (ctypes), printing its result
    "add_key": "print(libc.syscall(seccomp_nr('add_key'), b'user', b'k', b'v', 1, -4))",
    "mq_open": "print(libc.mq_open(b'/fm-cache', 0o100 | 2, 0o600, None))",
    "shmget": "print(libc.shmget(0, 4096, 0o1000 | 0o600))",
    "unshare": "print(libc.unshare(0x10000000))",
    "ptrace": "print(libc.ptrace(0, 0, None, None))",
    "perf_event_open": "print(libc.syscall(seccomp_nr('perf_event_open'), None, 0, -1, -1, 0))",
    "userfaultfd": "print(libc.syscall(seccomp_nr('userfaultfd'), 0))",
    "io_uring_setup": "print(libc.syscall(seccomp_nr('io_uring_setup'), 8, None))",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_CALLS))
def test_calls_off_the_allow_list_fail_and_are_named(local, name):
    from frontier_measure.isolation import seccomp

    if not local.sandboxed:
        pytest.skip("no sandbox here")
    script = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
              f"seccomp_nr = {{n: {seccomp.number(name)} for n in [{name!r}]}}.get\n"
              + HOSTILE_CALLS[name] + "\nprint(ctypes.get_errno())\n")
    local.fresh_copy("candidate", None, "w")
    r = local.run("candidate", ["python3", "-c", script], cwd="w")
    assert r.ok, r.stderr
    assert r.stdout.split() == [b"-1", b"1"]  # the call failed with EPERM
    assert name in r.denied and name in local.describe()["denied_syscalls"]["candidate"]


def test_cpu_work_of_an_orphaned_grandchild_is_charged(local):
    # A wrapper that double-forks, lets the grandchild work, and returns when
    # it is done: the children it waited for are not where the work was, the
    # cgroup is. CPU time, not wall time, so the load of the machine does not
    # decide the test.
    if not local.cgroups:
        pytest.skip("no cgroups here (not root)")
    local.fresh_copy("candidate", None, "w")
    work = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo done > /work/w/flag"
    direct = local.run("candidate", work, cwd="w")
    local.fresh_copy("candidate", None, "w")
    orphan = local.run("candidate", f"( ( {work} ) & ) ; while [ ! -f flag ]; do sleep 0.05; "
                                    "done", cwd="w")
    assert direct.ok and orphan.ok
    assert orphan.cpu_ns > 0.8 * direct.cpu_ns, (orphan.cpu_ns, direct.cpu_ns)
    # what the children the command waited for used (rusage) misses the work
    assert orphan.user_ns + orphan.sys_ns < 0.5 * direct.cpu_ns


@pytest.mark.needs_root
def test_a_side_cannot_widen_its_cpus(local):
    if not local.cgroups or not local.policy.cpus:
        pytest.skip("no cgroups or no CPU to pin to here")
    local.fresh_copy("candidate", None, "w")
    r = local.run("candidate", ["python3", "-c", "import os\n"
                                "try: os.sched_setaffinity(0, range(os.cpu_count()))\n"
                                "except OSError as e: print('refused', e.errno)\n"
                                "print(sorted(os.sched_getaffinity(0)))"], cwd="w")
    assert r.ok, r.stderr
    assert r.stdout.split(b"\n")[-2] == str(sorted(local.policy.cpus)).encode()


@pytest.mark.needs_root
def test_side_ids_are_drawn_for_each_evaluation():
    with isolation.backend("local") as a, isolation.backend("local") as b:
        ids = {int(x.run(s, "id -u").stdout) for x in (a, b) for s in isolation.SIDES}
    assert len(ids) == 4 and min(ids) >= isolation.accounts.EVALUATION_UIDS.start


@pytest.mark.needs_root
def test_sides_run_as_their_own_unprivileged_accounts(local):
    uids = {s: int(local.run(s, "id -u").stdout) for s in isolation.SIDES}
    assert uids["reference"] != uids["candidate"]
    assert 0 not in uids.values()
    assert local.describe()["account_switch"] is True


@pytest.mark.needs_root
def test_ensure_account_is_idempotent():
    assert isolation.ensure_account("fm-cand") == isolation.ensure_account("fm-cand")


@pytest.mark.needs_root
def test_candidate_cannot_touch_the_reference_area(local):
    (local.area("reference") / "secret").write_text("golden")
    ref = local.area("reference")  # its host path; in a sandbox it does not exist
    r = local.run("candidate", f"cat {ref}/secret; echo x > {ref}/planted; ls {ref}")
    assert r.exit_code != 0
    assert b"golden" not in r.stdout
    assert not (local.area("reference") / "planted").exists()
    assert not local.can_read("candidate", local.area("reference"))


@pytest.mark.needs_root
def test_held_out_data_is_out_of_view():
    # Under a world-readable parent, as a task checkout usually is: in a
    # sandbox it is not there at all; without one the guard closes it.
    top = Path(tempfile.mkdtemp(prefix="fm-guard-"))
    os.chmod(top, 0o755)
    data = top / "tests"
    data.mkdir()
    (data / "golden.json").write_text("{}")
    os.chmod(data, 0o755)
    b = LocalBackend(Policy(timeout_s=10))
    try:
        b.guard([data])
        assert not b.can_read("candidate", data / "golden.json")
        r = b.run("candidate", f"cat {data}/golden.json")
        assert r.exit_code != 0
        assert (b"No such file" if b.sandboxed else b"Permission denied") in r.stderr
    finally:
        b.close()
    assert stat.S_IMODE(data.stat().st_mode) == 0o755
    shutil.rmtree(top)


def test_leftover_processes_are_killed_and_counted(local):
    # Two background jobs outlive the command: one in its process group, one
    # that left it (setsid; given time to do so before the leader exits). Both
    # are found (every process of the side's account but its launcher) and killed.
    r = local.run("candidate", "sleep 300 & setsid sleep 301 & sleep 0.3; echo started")
    assert r.exit_code == 0 and r.stdout == b"started\n"
    assert r.leftover == 2  # every process of the side still alive when the command ended
    assert f"left {r.leftover} process(es) running" in r.describe()
    assert local.sweep("candidate") == 0


@pytest.mark.needs_root
def test_a_side_is_its_cgroup(local):
    if not local.cgroups:
        pytest.skip("no cgroups here")
    # Each command's sandbox and everything in it are in the side's cgroup:
    # frozen, the other side's turn cannot be used by anything of it.
    import threading

    cg = local.cgroups["candidate"]
    seen: list[int] = []
    t = threading.Thread(target=local.run, args=("candidate", "sleep 1"))
    t.start()
    for _ in range(400):
        seen = cg.pids_now()
        if len(seen) >= 3:  # bwrap, its init (our launcher), the command
            break
        time.sleep(0.005)
    t.join()
    assert len(seen) >= 3
    assert local.sweep("candidate") == 0 and cg.pids_now() == []
    cpu = cg.cpu_ns()
    local.run("candidate", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done")
    assert cg.cpu_ns() > cpu
    cg.freeze()
    frozen = cg.cpu_ns()
    cg.thaw()
    assert frozen >= cpu
    assert local.describe()["cgroups"]["missing"] == []


def test_timeout_kills_a_command_that_sleeps_forever(local):
    r = local.run("candidate", "sleep 1000", timeout=0.5)
    assert r.timed_out and r.describe().startswith("timed out")
    assert local.sweep("candidate") == 0


def test_file_size_limit_stops_a_disk_filler(local):
    work = local.fresh_copy("candidate", None, "w")
    r = local.run("candidate", "head -c 50000000 /dev/zero > big", cwd="w")
    assert r.signal == 25 or r.exit_code != 0  # SIGXFSZ
    assert (work / "big").stat().st_size <= 4 << 20


@pytest.mark.needs_root
def test_area_size_bounds_total_writes(local):
    # Many files each under the file-size limit: the tmpfs runs out, not the disk.
    local.fresh_copy("candidate", None, "w")
    r = local.run("candidate", "i=0; while [ $i -lt 40 ]; do head -c 1000000 /dev/zero > f$i "
                  "|| exit 9; i=$((i+1)); done", cwd="w")
    assert r.exit_code == 9
    assert b"No space left" in r.stderr
    local.fresh_copy("candidate", None, "")


@pytest.mark.needs_root
def test_fork_bomb_is_bounded_and_cleaned_up(local):
    r = local.run("candidate", "b() { b | b & }; b; sleep 2", timeout=5)
    # The process limit is what stopped it: forks were refused.
    assert b"Cannot fork" in r.stderr or b"Resource temporarily unavailable" in r.stderr
    assert local.sweep("candidate") == 0
    uid = local.owner("candidate")[0]
    assert set(isolation.processes_of_uid(uid)) <= set(local.warm_pids("candidate"))
    # The side still works afterwards.
    assert local.run("candidate", "echo ok").stdout == b"ok\n"


@pytest.mark.needs_root
def test_candidate_cannot_signal_the_evaluator(local):
    r = local.run("candidate", f"kill -KILL {os.getpid()}; kill -STOP {os.getppid()}")
    assert r.exit_code != 0
    assert b"not permitted" in r.stderr or b"No such process" in r.stderr


@pytest.mark.needs_root
def test_a_side_cannot_signal_its_launcher(local):
    # The launcher times the side's commands: the init of the command's PID
    # namespace, which takes no signal from inside it (not even SIGKILL).
    r = local.run("candidate", "echo $PPID; kill -STOP $PPID; kill -KILL $PPID; echo after")
    assert r.ok and r.stdout == b"1\nafter\n"
    assert local.run("candidate", "echo ok").stdout == b"ok\n"


def test_fresh_copy_replaces_contents(local, tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("A")
    local.fresh_copy("reference", src, "case")
    (local.area("reference") / "case" / "junk").write_text("x")
    dest = local.fresh_copy("reference", src, "case")
    assert sorted(p.name for p in dest.iterdir()) == ["a.txt"]
    r = local.run("reference", "cat a.txt; echo B > b.txt", cwd="case")
    assert r.stdout == b"A" and (dest / "b.txt").exists()


def test_pinning_is_applied(local):
    if not local.policy.cpus:
        pytest.skip("one CPU: nothing to pin to")
    r = local.run("candidate", "grep Cpus_allowed_list /proc/self/status")
    assert r.stdout.split()[-1].decode() == ",".join(map(str, local.policy.cpus))


def test_close_removes_areas_and_every_process():
    b = LocalBackend(Policy(timeout_s=5))
    area = b.area("candidate")
    uid = b.owner("candidate")[0]
    b.run("candidate", "echo x > f; setsid sleep 100 &")
    b.close()
    assert not area.exists()
    if uid != os.getuid():
        assert isolation.processes_of_uid(uid) == []


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown isolation backend"):
        isolation.open_backend("chroot")


@pytest.mark.needs_root
def test_overlapping_guards_keep_the_data_closed_until_the_last_closes():
    from frontier_measure.isolation import guard_acquire, guard_release

    top = Path(tempfile.mkdtemp(prefix="fm-guard2-"))
    os.chmod(top, 0o755)
    data = top / "tests"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    guard_acquire(data)
    guard_acquire(data)
    guard_release(data)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    guard_release(data)
    assert stat.S_IMODE(data.stat().st_mode) == 0o755
    shutil.rmtree(top)
