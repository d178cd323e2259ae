"""The Docker isolation backend against a real engine (scripts/services.sh
starts dockerd and builds the base image). One pair of containers serves the
whole module, so the suite stays quick."""

from __future__ import annotations

import os

import pytest

from frontier_measure import isolation
from frontier_measure.isolation import DockerBackend, Policy

pytestmark = pytest.mark.needs_docker


@pytest.fixture(scope="module")
def dock():
    with DockerBackend(Policy(nproc=32, disk_mb=16, file_size_mb=4, memory_mb=256,
                              timeout_s=20)) as b:
        yield b


def test_runs_unprivileged_in_work(dock):
    r = dock.run("candidate", "id -u; pwd")
    uid, cwd = r.stdout.decode().split()
    assert int(uid) != 0 and cwd == "/work"
    assert r.wall_ns > 0 and r.host_wall_ns >= r.wall_ns


def test_no_network(dock):
    r = dock.run("candidate", "ls /sys/class/net")
    assert r.stdout.split() == [b"lo"]


def test_root_is_read_only_and_work_is_writable(dock):
    work = dock.fresh_copy("candidate", None, "w")
    r = dock.run("candidate", "touch /usr/planted; echo $?; echo hi > f; cat f; echo $HOME",
                 cwd="w")
    assert r.stdout.decode().split() == ["1", "hi", "/work/w"]
    assert (work / "f").read_text() == "hi\n"


def test_each_command_has_its_own_scratch(dock):
    dock.fresh_copy("candidate", None, "w")
    r = dock.run("candidate", "echo cached > /tmp/cache; echo shm > /dev/shm/c; cat /tmp/cache",
                 cwd="w")
    assert r.stdout == b"cached\n"
    assert dock.run("candidate", "cat /tmp/cache || cat /dev/shm/c").exit_code != 0


NAMESPACES = ("user", "pid", "ipc", "mnt", "uts", "net", "cgroup")


def test_each_command_runs_in_namespaces_of_its_own(dock):
    show = "for n in " + " ".join(NAMESPACES) + "; do readlink /proc/self/ns/$n; done"
    inside = dock.run("candidate", show).stdout.decode().split()
    # The container's own, read from the host (a namespace's inode number is
    # reused once it is gone, so two commands cannot be compared this way).
    container = dock.containers["candidate"]
    container.reload()
    host_pid = container.attrs["State"]["Pid"]
    outside = [os.readlink(f"/proc/{host_pid}/ns/{n}") for n in NAMESPACES]
    assert len(inside) == len(NAMESPACES)
    for mine, theirs in zip(inside, outside, strict=True):
        assert mine != theirs, f"the command shares the container's {theirs}"
    # The command is its init's child in its own PID namespace, and only its
    # own uid and gid exist there (no root).
    r = dock.run("candidate", "echo $$; cat /proc/self/uid_map /proc/self/gid_map")
    pid, *maps = r.stdout.decode().split("\n")
    assert int(pid) == 2
    maps = [m.split() for m in maps if m.strip()]
    assert len(maps) == 2 and all(m[0] != "0" and m[2] == "1" for m in maps)


def test_sides_see_only_their_own_area(dock):
    (dock.area("reference") / "golden").write_text("secret")
    r = dock.run("candidate", f"cat /work/golden {dock.area('reference')}/golden")
    assert r.exit_code != 0 and b"secret" not in r.stdout


def test_cannot_see_or_signal_the_evaluator(dock):
    r = dock.run("candidate", f"kill -KILL {os.getpid()}")
    assert r.exit_code != 0
    r = dock.run("candidate", "ls /proc | grep -c '^[0-9]'")
    assert int(r.stdout) < 10  # its own pid namespace


def test_idle_container_is_paused(dock):
    dock.suspend("reference")
    c = dock.containers["reference"]
    c.reload()
    assert c.status == "paused" and dock.paused("reference")
    dock.resume("reference")
    c.reload()
    assert c.status == "running"


def test_run_resumes_a_paused_side(dock):
    dock.suspend("candidate")
    assert dock.run("candidate", "echo back").stdout == b"back\n"


def test_leftover_process_is_killed_and_counted(dock):
    r = dock.run("candidate", "setsid sleep 300 & echo started")
    assert r.stdout == b"started\n" and r.leftover == 1
    assert dock.sweep("candidate") == 0


def test_timeout(dock):
    r = dock.run("candidate", "sleep 1000", timeout=0.5)
    assert r.timed_out


def test_fork_bomb_hits_the_pids_limit(dock):
    r = dock.run("candidate", "b() { b | b & }; b; sleep 1", timeout=10)
    assert b"fork" in r.stderr.lower() or b"unavailable" in r.stderr
    assert dock.run("candidate", "echo alive").stdout == b"alive\n"


def test_file_size_limit(dock):
    work = dock.fresh_copy("candidate", None, "w")
    r = dock.run("candidate", "head -c 50000000 /dev/zero > big", cwd="w")
    assert r.exit_code != 0
    assert (work / "big").stat().st_size <= 4 << 20


def test_cpuset_applied(dock):
    if not dock.policy.cpus:
        pytest.skip("one CPU: nothing to pin to")
    r = dock.run("candidate", "grep Cpus_allowed_list /proc/self/status")
    assert r.stdout.split()[-1].decode() == ",".join(map(str, dock.policy.cpus))


def test_stdin_is_fed(dock):
    assert dock.run("reference", "cat", stdin=b"abc\x00def").stdout == b"abc\x00def"


def test_describe_names_the_restrictions(dock):
    d = dock.describe()
    assert d["backend"] == "docker" and d["network"] == "none" and d["read_only_root"]


def test_containers_are_removed_on_close():
    b = DockerBackend(Policy(timeout_s=10))
    names = [c.name for c in b.containers.values()]
    b.close()
    left = isolation.docker_client().containers.list(all=True, filters={"name": names[0]})
    assert left == []


def test_memory_limit_is_enforced_and_survived(dock):
    # Four processes of ~80 MB each against a 256 MB container: the kernel
    # kills some of them; the evaluator gets a result and the side still works.
    hog = "python3 -c 'b = b\"x\" * (80 * 10**6); import time; time.sleep(2); print(\"ok\")'"
    r = dock.run("candidate", f"for i in 1 2 3 4 5; do {hog} & done; wait; echo done", timeout=20)
    assert r.signal == 9 or r.stdout.count(b"ok") < 5
    stats = dock.containers["candidate"].stats(stream=False)
    assert stats["memory_stats"]["limit"] <= 256 << 20
    assert dock.run("candidate", "echo alive").stdout == b"alive\n"
