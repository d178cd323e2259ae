"""The launcher of a side's commands in a Docker container, and of the local
backend where no sandbox can be made: it starts each command, times it,
collects its output and reports on it as one JSON line (exit status, output,
the wall time measured here, the CPU time the kernel charged it, the system
calls it was refused, how many processes it left behind, which are then
killed). Standard library only: it runs on whatever python3 the image has.
(Where a sandbox is made for each command, its init is fm-init instead.)

    run.py REQUEST_JSON                one command (the Docker backend: one exec each,
                                       in namespaces made for it: see run_fresh)
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

    def __init__(self, program=None, seccomp_nr=None, fd=None):
        if fd is None:
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
        for fd in (self.fd, self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)


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


class Streams:
    """The command's standard streams, served by threads: its input written,
    its output read. What is kept is bounded: the rest of a stream is read and
    dropped. Output is not waited for at the end (see run_command)."""

    def __init__(self, stdin_w, stdout_r, stderr_r, data, cap):
        self.cap = cap
        self.chunks = {"out": [], "err": []}
        self.sizes = {"out": 0, "err": 0}
        self.threads = [
            threading.Thread(target=self._read, args=(stdout_r, "out"), daemon=True),
            threading.Thread(target=self._read, args=(stderr_r, "err"), daemon=True),
            threading.Thread(target=self._write, args=(stdin_w, data), daemon=True)]
        for t in self.threads:
            t.start()

    def _read(self, fd, key):
        with open(fd, "rb", buffering=0, closefd=True) as stream:
            for block in iter(lambda: stream.read(65536), b""):
                if self.sizes[key] < self.cap:
                    self.chunks[key].append(block[:self.cap - self.sizes[key]])
                self.sizes[key] += len(block)

    @staticmethod
    def _write(fd, data):
        with contextlib.suppress(OSError), open(fd, "wb", buffering=0, closefd=True) as stream:
            if data:
                stream.write(data)

    def finish(self):
        for t in self.threads:
            t.join(timeout=2)
        return {
            "stdout": base64.b64encode(b"".join(self.chunks["out"])).decode(),
            "stderr": base64.b64encode(b"".join(self.chunks["err"])).decode(),
            "stdout_truncated": self.sizes["out"] > self.cap,
            "stderr_truncated": self.sizes["err"] > self.cap,
        }


def run_command(req):
    """Run one command and report on it."""
    if req.get("namespaces"):
        return run_fresh(req)
    uid, gid = req["uid"], req["gid"]
    if req.get("clear_scratch"):
        clear_scratch(uid, gid)
    supervisor = Supervisor(base64.b64decode(req["seccomp"]["program"]),
                            req["seccomp"]["nr"]) if req.get("seccomp") else None
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
    # the command's time (it is killed below and counted as left behind).
    streams = Streams(os.dup(proc.stdin.fileno()), os.dup(proc.stdout.fileno()),
                      os.dup(proc.stderr.fileno()), base64.b64decode(req["stdin"]),
                      req["max_output"])
    for f in (proc.stdin, proc.stdout, proc.stderr):
        f.close()
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
    denied = []
    if supervisor is not None:
        supervisor.close()
        denied = list(supervisor.denied)
    return {
        "denied": denied,
        "exit_code": code if code >= 0 else -1,
        "signal": -code if code < 0 else 0,
        "timed_out": timed_out,
        **streams.finish(),
        "wall_ns": wall,
        "user_ns": int((after.ru_utime - before.ru_utime) * 1e9),
        "sys_ns": int((after.ru_stime - before.ru_stime) * 1e9),
        "leftover": leftover,
        "launcher_cpu_ns": int((own_after.ru_utime + own_after.ru_stime
                                - own.ru_utime - own.ru_stime) * 1e9),
        "cgroup_cpu_ns": group1 - group0 if group0 >= 0 and group1 >= 0 else -1,
    }


# Every namespace a command gets of its own (sched.h's CLONE_NEW* flags).
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = (0x08000000, 0x10000000,
                                                            0x20000000, 0x40000000)
FRESH = (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER
         | CLONE_NEWPID | CLONE_NEWNET)
SYS_CLONE = {"x86_64": 56, "aarch64": 220}
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def _clone(flags):
    """fork(), with new namespaces for the child. Called through PyDLL so
    the interpreter lock is held across the call (a thread taking it
    meanwhile would leave the child's copy locked), and with the
    interpreter's own fork hooks around it, as os.fork has."""
    libc = ctypes.PyDLL(None, use_errno=True)
    nr = SYS_CLONE[os.uname().machine]
    ctypes.pythonapi.PyOS_BeforeFork()
    pid = libc.syscall(nr, ctypes.c_ulong(flags | signal.SIGCHLD), None, None, None, None)
    if pid == 0:
        ctypes.pythonapi.PyOS_AfterFork_Child()
    else:
        ctypes.pythonapi.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(ctypes.get_errno(), "clone with new namespaces")
    return pid


# Waits for the launcher's "go" on descriptor 3, closes it, and becomes the
# command (a missing command: 127, as from a shell).
WAIT_FOR_GO = 'read -r _ <&3; exec 3<&-; exec "$@"'


def _fresh_init(req, ctl, maps_r, go_r, stdio):
    """PID 1 of the command's namespaces (never returns). Gives the command
    memory of its own at /tmp and /dev/shm and a loopback interface, starts
    it, and reports how it ended; when this process is told to go, the
    kernel kills whatever the command left in the namespace."""
    try:
        os.read(maps_r, 1)  # the launcher has written our uid and gid maps
        libc = ctypes.CDLL(None, use_errno=True)
        for target in (b"/tmp", b"/dev/shm"):
            if libc.mount(b"tmpfs", target, b"tmpfs", 0x2 | 0x4,  # nosuid, nodev
                          f"mode=1777,size={req.get('scratch_mb', 16)}m".encode()) != 0:
                raise OSError(ctypes.get_errno(), f"mount tmpfs on {target.decode()}")
        import socket
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            ifr = struct.pack("16sH22x", b"lo", 0)
            flags = struct.unpack_from("16sH", fcntl.ioctl(s, SIOCGIFFLAGS, ifr))[1]
            fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))
        pid = os.fork()
        if pid == 0:
            _fresh_command(req, ctl, go_r, stdio)
        for fd in (*stdio, go_r):
            os.close(fd)
        # Reap everything; the command's own end is the one reported.
        while True:
            got, status, usage = os.wait4(-1, 0)
            if got == pid:
                break
        ctl.sendall(json.dumps({"status": status, "user": usage.ru_utime,
                                "sys": usage.ru_stime}).encode() + b"\n")
        while True:  # until the launcher has counted what is left, and kills us
            signal.pause()
    except BaseException as exc:  # noqa: BLE001 - reported, never raised past the fork
        with contextlib.suppress(OSError):
            ctl.sendall(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode() + b"\n")
    finally:
        os._exit(1)


def _fresh_command(req, ctl, go_r, stdio):
    """The command's own process, up to its exec: the side's account, its
    directory and session, the filter (its listener handed to the launcher),
    then it waits for the launcher's clock."""
    try:
        for target, fd in enumerate(stdio):
            os.dup2(fd, target)
        os.setsid()
        os.setgroups([])
        os.setresgid(req["gid"], req["gid"], req["gid"])
        os.setresuid(req["uid"], req["uid"], req["uid"])
        os.chdir(req["cwd"])
        if req.get("seccomp"):
            import socket
            fd = install_filter(base64.b64decode(req["seccomp"]["program"]),
                                req["seccomp"]["nr"], listener=True)
            socket.send_fds(ctl, [b"L"], [fd])
            os.close(fd)
        ctl.close()
        # The wait for the clock happens in a small shell, not in this copy
        # of the launcher: exec'ing out of a whole Python process (tearing
        # down its address space) would be inside the timed window.
        os.dup2(go_r, 3)
        os.close(go_r)
        os.execve("/bin/sh", ["sh", "-c", WAIT_FOR_GO, "fm-command", *req["argv"]], req["env"])
    except BaseException as exc:  # noqa: BLE001
        with contextlib.suppress(OSError):
            os.write(2, f"frontier-measure: command set-up failed: {exc}\n".encode())
    os._exit(127)


def _pidfd_of_child(pid):
    """A pidfd on the one child of `pid` (the command, under its init), or
    None where the kernel cannot give one."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = f.read().split()
        return os.pidfd_open(int(children[0])) if len(children) == 1 else None
    except (OSError, ValueError, AttributeError):
        return None


def run_fresh(req):
    """One command in new user, PID, IPC, mount, UTS, network and cgroup
    namespaces made for it (the Docker backend): nothing it creates in any
    of them outlives it (message queues, System V objects, keys of its user
    namespace, files in its /tmp and /dev/shm, processes). The container's
    /proc stays (a new one cannot be mounted under Docker's masked paths
    without privileges the launcher does not hold). Only the side's uid and
    gid are mapped into the user namespace; nothing in it is root after the
    command's exec. The set-up is outside the timed window: the clock starts
    when the command is ready to exec."""
    import socket
    uid, gid = req["uid"], req["gid"]
    ctl, ctl_child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    maps_r, maps_w = os.pipe()
    go_r, go_w = os.pipe()
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    init = _clone(FRESH)
    if init == 0:
        ctl.close()
        for fd in (maps_w, go_w, in_w, out_r, err_r):
            os.close(fd)
        _fresh_init(req, ctl_child, maps_r, go_r, (in_r, out_w, err_w))
    ctl_child.close()
    for fd in (maps_r, go_r, in_r, out_w, err_w):
        os.close(fd)
    supervisor = None
    try:
        for name, own_id in (("uid_map", uid), ("gid_map", gid)):
            fd = os.open(f"/proc/{init}/{name}", os.O_WRONLY)
            try:
                os.write(fd, f"{own_id} {own_id} 1\n".encode())
            finally:
                os.close(fd)
        os.write(maps_w, b"m")
        ctl.settimeout(30)
        if req.get("seccomp"):
            msg, fds, _flags, _addr = socket.recv_fds(ctl, 1024, 1)
            if not fds:
                raise RuntimeError("the command's filter was not handed over: "
                                   + msg.decode(errors="replace"))
            supervisor = Supervisor(fd=fds[0])
        streams = Streams(in_w, out_r, err_r, base64.b64decode(req["stdin"]), req["max_output"])
        own = resource.getrusage(resource.RUSAGE_SELF)
        group0 = cgroup_cpu_ns() if req.get("cgroup_cpu") else -1
        # The command's end is seen here directly, through a pidfd on its
        # process, not through its init's report: one wake-up, as when the
        # launcher waits on its own child.
        ended = _pidfd_of_child(init)
        timeout = req["timeout"] or None
        t0 = time.perf_counter_ns()
        os.write(go_w, b"g\n")
        poller = select.poll()
        poller.register(ended if ended is not None else ctl.fileno(), select.POLLIN)
        timed_out = not poller.poll(None if timeout is None else int(timeout * 1000))
        wall = time.perf_counter_ns() - t0
        group1 = cgroup_cpu_ns() if group0 >= 0 else -1
        own_after = resource.getrusage(resource.RUSAGE_SELF)
        if ended is not None:
            os.close(ended)
        line = b""
        if not timed_out:
            ctl.settimeout(30)  # the init reports as soon as it has reaped the command
            with contextlib.suppress(TimeoutError):
                while not line.endswith(b"\n"):
                    part = ctl.recv(4096)
                    if not part:
                        break
                    line += part
        # The command itself is not left behind when it was stopped for time.
        leftover = max(0, len(own_processes(uid)) - (1 if timed_out else 0))
        os.kill(init, signal.SIGKILL)  # and with it, the namespace: everything in it
        os.waitpid(init, 0)
        leftover = max(leftover, sweep(uid, gid))
        end = json.loads(line) if line.strip() else {}
        if "error" in end:
            raise RuntimeError(f"the command's namespaces: {end['error']}")
        if timed_out or "status" not in end:
            code, usage = -signal.SIGKILL, resource.getrusage(resource.RUSAGE_CHILDREN)
            user = usage.ru_utime - before.ru_utime
            sys_ = usage.ru_stime - before.ru_stime
        else:
            code = os.waitstatus_to_exitcode(end["status"])
            user, sys_ = end["user"], end["sys"]
    finally:
        for fd in (maps_w, go_w):
            os.close(fd)
        ctl.close()
        with contextlib.suppress(ChildProcessError, OSError):
            os.kill(init, signal.SIGKILL)
            os.waitpid(init, 0)
    denied = []
    if supervisor is not None:
        supervisor.close()
        denied = list(supervisor.denied)
    return {
        "denied": denied,
        "exit_code": code if code >= 0 else -1,
        "signal": -code if code < 0 else 0,
        "timed_out": timed_out,
        **streams.finish(),
        "wall_ns": wall,
        "user_ns": int(user * 1e9),
        "sys_ns": int(sys_ * 1e9),
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
