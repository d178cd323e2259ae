"""The launcher of a side's commands in a Docker container, and of the local
backend where no sandbox can be made: it starts each command, times it,
collects its output and reports on it as one JSON line (exit status, output,
the wall time measured here, the CPU time the kernel charged it, the system
calls it was refused, how many processes it left behind, which are then
killed). Standard library only: it runs on whatever python3 the image has.
(Where a sandbox is made for each command, its init is fm-init instead.)

    run.py REQUEST_JSON                one command (the Docker backend: one exec each)
    run.py --serve UID GID LIMITS      one JSON request per line on stdin, one reply per
                                       line on stdout (the local backend without a
                                       sandbox: one launcher per side and evaluation)
    run.py --sweep UID GID             kill every process of the side

Who measures matters: the launcher is not the side's code. It runs as root
(in a container, with only the capabilities it needs: start commands as the
side's account and kill what they leave) and starts every command as the
side's account, in a session of its own, under the sides' system-call
filter; the side can neither signal it, nor trace it, nor read or write its
memory.
"""

import base64
import contextlib
import ctypes
import fcntl
import json
import os
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time

PR_SET_NO_NEW_PRIVS = 38
SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3
# struct seccomp_notif is 80 bytes, struct seccomp_notif_resp 24: _IOWR('!', 0 / 1, ...)
NOTIF_RECV = 0xC0502100
NOTIF_SEND = 0xC0182101
EPERM = 1


def own_processes(uid, exclude=()):
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me or int(entry) in exclude:
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        state = fields.get("State", "?").split()[0]
        if int(fields.get("Uid", "-1").split()[0]) == uid and state not in ("Z", "X"):
            out.append(int(entry))
    return out


def sweep(uid, gid):
    """Kill every process of the side's account: kill(-1) from a child running
    as that account reaches all of them (and nothing of ours: the launcher and
    the namespace's init run as root)."""
    found = own_processes(uid)
    for _ in range(200):
        if not own_processes(uid):
            break
        subprocess.run(["/bin/sh", "-c", "kill -KILL -1 2>/dev/null; exit 0"],
                       user=uid, group=gid, extra_groups=[], env={"PATH": "/usr/bin:/bin"})
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        time.sleep(0.002)
    return len(found)


def clear_scratch(uid, gid):
    """A fresh start: the side's files in /tmp and /dev/shm and its System V
    IPC objects go (a cache kept there would survive from one timed run to
    the next). Done as the side itself: the owner may delete in a sticky
    directory and remove its own IPC objects."""
    kw = {"user": uid, "group": gid, "extra_groups": []}
    env = {"PATH": "/usr/bin:/bin"}
    subprocess.run(["find", "/tmp", "/dev/shm", "-mindepth", "1", "-maxdepth", "1", "-uid",
                    str(uid), "-exec", "rm", "-rf", "{}", "+"], env=env,
                   stderr=subprocess.DEVNULL, **kw)
    subprocess.run(["ipcrm", "--all"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, **kw)


def set_limits(req):
    """The side's limits, set on this process and so inherited by every command
    (RLIMIT_NPROC binds the side's account, not root)."""
    for res, value in ((resource.RLIMIT_NPROC, req.get("nproc")),
                       (resource.RLIMIT_AS, req.get("address_space")),
                       (resource.RLIMIT_FSIZE, req.get("file_size")),
                       (resource.RLIMIT_NOFILE, req.get("open_files"))):
        if value:
            resource.setrlimit(res, (value, value))


def install_filter(program, seccomp_nr, listener=False):
    """Install a seccomp program (classic BPF, see isolation/seccomp.py) on
    this thread and what it starts; with `listener`, return the descriptor
    on which denied calls wait for an answer."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    buf = ctypes.create_string_buffer(program, len(program))
    prog = struct.pack("HxxxxxxP", len(program) // 8, ctypes.addressof(buf))
    flags = SECCOMP_FILTER_FLAG_NEW_LISTENER if listener else 0
    fd = libc.syscall(seccomp_nr, SECCOMP_SET_MODE_FILTER, flags, ctypes.c_char_p(prog))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER)")
    return fd


class Supervisor:
    """The side's system-call filter, installed on this process (and so on
    every command it starts), with this process as the one that answers the
    calls the filter does not allow: each gets EPERM, and its number is kept
    for the report (the evaluator names it). The side cannot answer for
    itself: the listening descriptor is ours alone (close-on-exec), and this
    process runs as root, out of its reach."""

    def __init__(self, program, seccomp_nr):
        fd = install_filter(program, seccomp_nr, listener=True)
        os.set_inheritable(fd, False)
        self.fd = fd
        self.denied = []
        self._wake_r, self._wake_w = os.pipe()  # close() ends the wait at once
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while True:
            ready, _, _ = select.select([self.fd, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            notif = bytearray(80)
            try:
                fcntl.ioctl(self.fd, NOTIF_RECV, notif)
            except OSError:
                continue  # the caller died meanwhile
            call_id, _pid, _flags, nr = struct.unpack_from("QIIi", notif)
            if nr not in self.denied:
                self.denied.append(nr)
            with contextlib.suppress(OSError):
                fcntl.ioctl(self.fd, NOTIF_SEND, struct.pack("QqiI", call_id, 0, -EPERM, 0))

    def close(self):
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=1)


def cgroup_cpu_ns():
    """CPU time charged so far to this process's cgroup (every process in it,
    orphans included), or -1 where no cgroup file can be read: in a container
    its own cgroup is at the root of /sys/fs/cgroup."""
    paths = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup") as f:
        for line in f:
            _id, controllers, path = line.rstrip("\n").split(":", 2)
            for c in controllers.split(",") if controllers else [""]:
                paths[c] = path
    for ctrl, name in (("cpuacct", "cpuacct.usage"), ("", "cpu.stat")):
        if ctrl not in paths:
            continue
        for mount in (f"/sys/fs/cgroup/{ctrl}", "/sys/fs/cgroup/cpu,cpuacct",
                      "/sys/fs/cgroup/unified", "/sys/fs/cgroup"):
            for where in (mount + paths[ctrl], mount):
                with contextlib.suppress(OSError, ValueError):
                    with open(os.path.join(where, name)) as f:
                        text = f.read()
                    if name == "cpuacct.usage":
                        return int(text)
                    for line in text.splitlines():
                        if line.startswith("usage_usec "):
                            return int(line.split()[1]) * 1000
    return -1


def run_command(req):
    """Run one command and report on it."""
    uid, gid = req["uid"], req["gid"]
    if req.get("clear_scratch"):
        clear_scratch(uid, gid)
    supervisor = Supervisor(base64.b64decode(req["seccomp"]["program"]),
                            req["seccomp"]["nr"]) if req.get("seccomp") else None
    cap = req["max_output"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = resource.getrusage(resource.RUSAGE_SELF)
    group0 = cgroup_cpu_ns() if req.get("cgroup_cpu") else -1
    t0 = time.perf_counter_ns()
    proc = subprocess.Popen(
        req["argv"], cwd=req["cwd"], env=req["env"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        user=uid, group=gid, extra_groups=[])
    # Output is read by threads and the wait is on the process itself, not on
    # end-of-file: a background child holding the pipes open must not stretch
    # the command's time (it is killed below and counted as left behind). What
    # is kept is bounded: the rest of a stream is read and dropped.
    chunks = {"out": [], "err": []}
    sizes = {"out": 0, "err": 0}

    def reader(stream, key):
        for block in iter(lambda: stream.read(65536), b""):
            if sizes[key] < cap:
                chunks[key].append(block[:cap - sizes[key]])
            sizes[key] += len(block)

    def writer(data):
        try:
            if data:
                proc.stdin.write(data)
            proc.stdin.close()
        except OSError:
            pass

    threads = [threading.Thread(target=reader, args=(proc.stdout, "out"), daemon=True),
               threading.Thread(target=reader, args=(proc.stderr, "err"), daemon=True),
               threading.Thread(target=writer, args=(base64.b64decode(req["stdin"]),),
                                daemon=True)]
    for t in threads:
        t.start()
    timed_out = False
    try:
        proc.wait(timeout=req["timeout"] or None)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    wall = time.perf_counter_ns() - t0
    group1 = cgroup_cpu_ns() if group0 >= 0 else -1
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # What this process spent meanwhile (starting the command, reading its
    # output): in the side's cgroup with it, and taken off its CPU cost.
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    code = proc.returncode
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    leftover = sweep(uid, gid)
    for t in threads:
        t.join(timeout=2)
    out, err = b"".join(chunks["out"]), b"".join(chunks["err"])
    denied = []
    if supervisor is not None:
        supervisor.close()
        denied = list(supervisor.denied)
    return {
        "denied": denied,
        "exit_code": code if code >= 0 else -1,
        "signal": -code if code < 0 else 0,
        "timed_out": timed_out,
        "stdout": base64.b64encode(out).decode(),
        "stderr": base64.b64encode(err).decode(),
        "stdout_truncated": sizes["out"] > cap,
        "stderr_truncated": sizes["err"] > cap,
        "wall_ns": wall,
        "user_ns": int((after.ru_utime - before.ru_utime) * 1e9),
        "sys_ns": int((after.ru_stime - before.ru_stime) * 1e9),
        "leftover": leftover,
        "launcher_cpu_ns": int((own_after.ru_utime + own_after.ru_stime
                                - own.ru_utime - own.ru_stime) * 1e9),
        "cgroup_cpu_ns": group1 - group0 if group0 >= 0 and group1 >= 0 else -1,
    }


def serve(uid, gid, limits):
    set_limits(limits)
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            reply = {"leftover": sweep(uid, gid)} if req.get("sweep") else run_command(req)
        except Exception as exc:  # a broken request: the evaluator's, reported to it
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


def main():
    if sys.argv[1] == "--sweep":
        print(sweep(int(sys.argv[2]), int(sys.argv[3])))
        return
    if sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4]))
        return
    req = json.loads(sys.argv[1])
    set_limits(req)
    print(json.dumps(run_command(req)))


if __name__ == "__main__":
    main()
