"""The local isolation backend with real processes and real accounts."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from frontier_measure import _core, isolation
from frontier_measure.isolation import LocalBackend, Policy


@pytest.fixture(scope="module")
def local():
    with LocalBackend(Policy(nproc=32, disk_mb=16, file_size_mb=4, timeout_s=20)) as b:
        yield b


def test_command_result_shape(local):
    r = local.run("candidate", "printf out; printf err >&2; exit 3")
    assert (r.exit_code, r.stdout, r.stderr, r.leftover) == (3, b"out", b"err", 0)
    assert not r.ok and r.describe() == "exit code 3"
    assert r.wall_ns > 0


def test_runs_in_its_working_directory_with_home_there(local):
    work = local.fresh_copy("reference", None, "w")
    r = local.run("reference", "pwd; echo $HOME; echo hi > f; cat f", cwd="w")
    assert r.stdout.decode().splitlines() == [str(work), str(work), "hi"]
    assert (work / "f").read_text() == "hi\n"


@pytest.mark.needs_root
def test_area_and_sealed_program_are_not_writable_by_the_side(local, tmp_path):
    (tmp_path / "prog").write_text("#!/bin/sh\necho run\n")
    os.chmod(tmp_path / "prog", 0o755)
    local.fresh_copy("candidate", tmp_path, "program")
    local.seal("candidate", "program")
    r = local.run("candidate", "touch ../x; touch x; echo y >> prog; ./prog", cwd="program")
    assert r.stdout == b"run\n" and r.stderr.count(b"Permission denied") == 3
    assert not (local.area("candidate") / "x").exists()


@pytest.mark.needs_root
def test_scratch_files_are_cleared_at_each_fresh_start(local):
    local.fresh_copy("candidate", None, "w")
    local.run("candidate", "echo cached > /tmp/fm-cache-test", cwd="w")
    assert Path("/tmp/fm-cache-test").exists()
    local.fresh_copy("candidate", None, "w")
    assert not Path("/tmp/fm-cache-test").exists()


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
    ref = local.side_path("reference")
    r = local.run("candidate", f"cat {ref}/secret; echo x > {ref}/planted; ls {ref}")
    assert r.exit_code != 0
    assert b"golden" not in r.stdout
    assert not (local.area("reference") / "planted").exists()
    assert not local.can_read("candidate", local.area("reference"))


@pytest.mark.needs_root
def test_guard_closes_evaluator_data_and_restores_it():
    # Under a world-readable parent, as a task checkout usually is.
    top = Path(tempfile.mkdtemp(prefix="fm-guard-"))
    os.chmod(top, 0o755)
    data = top / "tests"
    data.mkdir()
    (data / "golden.json").write_text("{}")
    os.chmod(data, 0o755)
    b = LocalBackend(Policy(timeout_s=10))
    try:
        assert b.can_read("candidate", data / "golden.json")
        b.guard([data])
        assert not b.can_read("candidate", data / "golden.json")
        r = b.run("candidate", f"cat {data}/golden.json")
        assert r.exit_code != 0 and b"Permission denied" in r.stderr
    finally:
        b.close()
    assert stat.S_IMODE(data.stat().st_mode) == 0o755
    shutil.rmtree(top)


def test_leftover_processes_are_killed_and_counted(local):
    # Two background jobs outlive the command: one in its process group, one
    # that left it (setsid; given time to do so before the leader exits). In a
    # cgroup both are counted, whatever their group; without one only the
    # escaper is (the group dies with the command), found by account or token.
    r = local.run("candidate", "sleep 300 & setsid sleep 301 & sleep 0.3; echo started")
    assert r.exit_code == 0 and r.stdout == b"started\n"
    assert r.leftover == (2 if local.cgroups else 1)
    assert f"left {r.leftover} process(es) running" in r.describe()
    assert local.sweep("candidate") == 0


@pytest.mark.needs_root
def test_a_side_is_its_cgroup(local):
    # A helper that left the process group and was never waited for: rusage
    # knows nothing of its CPU time, the side's cgroup does.
    r = local.run("candidate", "setsid sh -c 'while :; do :; done' & sleep 0.3")
    assert r.leftover == 1
    assert r.cpu_ns - (r.user_ns + r.sys_ns) > 20e6
    assert local.describe()["cgroups"]["missing"] == []
    assert all(cg.empty() for cg in local.cgroups.values())


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
    assert r.exit_code != 0 and b"not permitted" in r.stderr


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


def test_close_removes_areas():
    b = LocalBackend(Policy(timeout_s=5))
    area = b.area("candidate")
    b.run("candidate", "echo x > f")
    b.close()
    assert not area.exists()


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown isolation backend"):
        isolation.open_backend("chroot")


@pytest.mark.needs_root
def test_files_left_in_shared_scratch_dirs_are_removed_on_close():
    b = LocalBackend(Policy(timeout_s=10))
    b.run("candidate", "mkdir -p /tmp/fm-left-behind/x && echo x > /dev/shm/fm-left-behind")
    assert Path("/tmp/fm-left-behind").exists()
    b.close()
    assert not Path("/tmp/fm-left-behind").exists()
    assert not Path("/dev/shm/fm-left-behind").exists()
    assert "/tmp/fm-left-behind" in b.removed_elsewhere


def test_processes_are_found_by_their_side_token():
    # Without root a side's processes are told apart by an environment token.
    s = _core.ProcessSpec()
    s.argv = ["sh", "-c", "setsid sleep 30 & sleep 0.3; exit 0"]
    s.env = {"FM_SIDE_TOKEN": "t-found-by-token"}
    _core.run_process(s)
    found = isolation.processes_with_token("t-found-by-token")
    assert len(found) == 1
    os.kill(found[0], 9)


@pytest.mark.needs_root
def test_overlapping_guards_keep_the_data_closed_until_the_last_closes():
    top = Path(tempfile.mkdtemp(prefix="fm-guard2-"))
    os.chmod(top, 0o755)
    data = top / "tests"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    first, second = LocalBackend(Policy(timeout_s=10)), LocalBackend(Policy(timeout_s=10))
    try:
        first.guard([data])
        second.guard([data])
        first.close()
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        assert not second.can_read("candidate", data)
    finally:
        first.close()
        second.close()
    assert stat.S_IMODE(data.stat().st_mode) == 0o755
    shutil.rmtree(top)
