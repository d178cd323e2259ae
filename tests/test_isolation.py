"""The local isolation backend with real processes, real accounts, real
namespaces (bubblewrap) and real cgroups."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
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


def test_scratch_and_ipc_are_cleared_at_each_fresh_start(local):
    # What a side keeps in /tmp, /dev/shm or System V shared memory would
    # survive from one timed run to the next: a fresh start clears it.
    if shutil.which("ipcmk") is None:
        pytest.skip("ipcmk (util-linux) not installed")
    local.fresh_copy("candidate", None, "w")
    local.run("candidate", "echo cached > /tmp/fm-cache-test; echo x > /dev/shm/fm-c; "
                           "ipcmk -M 4096", cwd="w")
    kept = local.run("candidate", "ls /tmp /dev/shm; ipcs -m | grep -c 0x", cwd="w")
    assert b"fm-cache-test" in kept.stdout and kept.stdout.split()[-1] != b"0"
    local.fresh_copy("candidate", None, "w")
    r = local.run("candidate", "ls /tmp /dev/shm; ipcs -m | grep -c 0x", cwd="w")
    assert b"fm-cache-test" not in r.stdout and b"fm-c" not in r.stdout
    assert r.stdout.split()[-1] == b"0"


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
    # The launcher and everything it starts are in the side's cgroup: frozen,
    # the other side's turn cannot be used by anything of it.
    cg = local.cgroups["candidate"]
    assert local.launchers["candidate"].pid in cg.pids_now()
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
    assert isolation.processes_of_uid(uid) == []
    # The side still works afterwards.
    assert local.run("candidate", "echo ok").stdout == b"ok\n"


@pytest.mark.needs_root
def test_candidate_cannot_signal_the_evaluator(local):
    r = local.run("candidate", f"kill -KILL {os.getpid()}; kill -STOP {os.getppid()}")
    assert r.exit_code != 0
    assert b"not permitted" in r.stderr or b"No such process" in r.stderr


@pytest.mark.needs_root
def test_a_side_cannot_signal_its_launcher(local):
    # The launcher times the side's commands: it runs as root, out of their reach.
    r = local.run("candidate", "kill -STOP $PPID; kill -KILL $PPID")
    assert r.stderr.count(b"not permitted") == 2
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
    launcher = b.launchers["candidate"].pid
    b.run("candidate", "echo x > f")
    b.close()
    assert not area.exists()
    assert not Path(f"/proc/{launcher}").exists()


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
