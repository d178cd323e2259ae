"""The local backend: each side's every command in a sandbox made for it.

Per side and evaluation: an area (a size-limited tmpfs, as root), a cgroup
(cgroups.py: pids and memory limits, its CPUs as a cpuset, CPU use accounted
for every process in it) and an id drawn for this evaluation (accounts.py).
Per command: a sandbox of its own (sandbox.py: new user, PID, IPC, mount, UTS,
network and cgroup namespaces; the system read-only, the area at /work,
nothing else), started as the side's id in the side's cgroup, whose init
(fm-init, cpp/init/fm_init.cpp) installs the side's system-call filter
(seccomp.py), runs the command, times it and kills what it leaves behind.
Nothing the command makes in the kernel (a message queue, a key, a System V
object, a socket, a process, a mount) outlives its sandbox: a run starts
from nothing by construction, not by a list of things to clear.

What the sandbox costs to make is paid before the command starts: the init
says "ready" once it is set up, and the clock and the cgroup's CPU reading
start at "go". CPU cost is the side's cgroup's usage from "go" to the
command's end, so work handed to an orphaned grandchild is charged too.

Without bubblewrap (or where it cannot make a user namespace) one launcher
per side runs commands outside any namespace (the result says so); without
root the side's id is the evaluator's.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import _core
from . import cgroups, sandbox, seccomp
from .accounts import SIDES, is_root
from .base import SAFE_PATH, Backend, CommandResult, Policy

_WRAPPER_DIR = Path(__file__).resolve().parent.parent / "_container"
REPLY_MARGIN_S = 30.0  # beyond a command's own timeout, for the launcher's sweep and reply


def _launcher_python() -> str:
    """A python3 the sandbox shows (the system's) and the side's account may run."""
    for p in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(p, os.X_OK):
            return p
    return sys.executable


class LocalBackend(Backend):
    """Sides as sandboxed processes on this machine."""

    name = "local"

    def __init__(self, policy: Policy | None = None, *, sandboxed: bool | None = None) -> None:
        """`sandboxed=False` runs commands without namespaces even where
        bubblewrap is present (bench/isolation_overhead.py compares the two)."""
        super().__init__(policy)
        self.launchers: dict[str, Any] = {}
        self.cgroups: dict[str, cgroups.Cgroup] = {}
        self._clear_next: dict[str, bool] = {}
        self.last_leftover: list[str] = []
        self._finishing: list[Any] = []  # sandboxes of ended commands, not yet reaped
        self._warm: dict[str, _Line] = {}  # each side's sandbox for its next command
        self._closing = False
        self._staging: dict[str, cgroups.Cgroup] = {}  # where those are started
        why_no_sandbox = (sandbox.unavailable_reason() or seccomp.unavailable_reason()
                          or _no_init_reason())
        if sandboxed is False:
            why_no_sandbox = "asked for none"
        self.sandboxed = why_no_sandbox is None
        self._filter = self._notify_filter() if self.sandboxed else None
        uids = self._side_accounts()
        try:
            why_not = cgroups.unavailable_reason()
            evaluator_cpus = _evaluator_cpus(self.policy.cpus)
            if why_not is None:
                for side in SIDES:
                    self.cgroups[side] = cgroups.Cgroup(
                        side, pids_max=self.policy.nproc + 4,  # + bwrap, its init, the launcher
                        memory_max=self.policy.memory_mb << 20, cpus=self.policy.cpus)
                    if self.sandboxed and evaluator_cpus:
                        self._staging[side] = cgroups.Cgroup(
                            f"{side}-staging", pids_max=8, memory_max=256 << 20,
                            cpus=evaluator_cpus)
            else:
                self.notes.append(f"no cgroups ({why_not}): a side's processes are not "
                                  "frozen together while the other side is timed, and the "
                                  "process limit is per account")
            if not self.sandboxed:
                self.notes.append(f"no sandbox ({why_no_sandbox}): a side sees the machine's "
                                  "files as its account may, and has the network")
            if not is_root():
                self.notes.append(
                    "not root: both sides run as the evaluator's account (no account switch), "
                    "so without a sandbox they could read or change the evaluator's files "
                    "and each other's")
            self._make_areas(uids)
            if not self.sandboxed:
                for side in SIDES:
                    self._start_launcher(side)
        except BaseException:
            self.close()
            raise

    # -- the launcher (no sandbox: one per side and evaluation)
    def _start_launcher(self, side: str) -> None:
        uid, gid = self._owners[side]
        spec = _core.ProcessSpec()
        spec.argv = [_launcher_python(), "-I", "-B", str(_WRAPPER_DIR / "run.py"), "--serve",
                     str(uid), str(gid), json.dumps(self._limits())]
        spec.cwd = "/"
        spec.inherit_env = False
        spec.env = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        spec.keep_stdin_open = True
        spec.die_with_parent = True
        spec.cpus = list(self.policy.cpus)
        cg = self.cgroups.get(side)
        if cg is not None:
            spec.cgroups = cg.procs_files
        self.launchers[side] = _Line(_core.ProcessHandle(spec), side, "launcher")

    def _request(self, side: str, req: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        """One request to the side's launcher and its reply; _SideGone when
        the launcher is gone."""
        talk = self.launchers[side]
        talk.send(json.dumps(req))
        return talk.expect(None, timeout)

    def _restart(self, side: str) -> None:
        old = self.launchers.pop(side, None)
        if old is not None and old.h.running:
            old.h.signal_group(9)
            old.h.wait(5.0)
        cg = self.cgroups.get(side)
        if cg is not None:
            cg.thaw()
            cg.kill()
        self._start_launcher(side)

    # -- the backend interface
    def side_path(self, side: str, rel: str = "") -> str:
        if not self.sandboxed:
            return super().side_path(side, rel)
        return f"{sandbox.WORK}/{rel}" if rel else sandbox.WORK

    def clear_scratch(self, side: str) -> list[str]:
        # In a sandbox each command's /tmp, /dev/shm and IPC are its own and
        # go with it. Without one, the launcher clears the side's before the
        # next command.
        if not self.sandboxed:
            self._clear_next[side] = True
        return []

    def _env(self, env: Mapping[str, str] | None, path_prepend: Sequence[str],
             cwd: str) -> dict[str, str]:
        out = {
            "PATH": ":".join([*path_prepend, SAFE_PATH]),
            # HOME is the command's own directory: whatever a program keeps
            # there is part of the observed state, not hidden across runs.
            "HOME": cwd,
            "TMPDIR": "/tmp",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
        if env:
            out.update(env)
        return out

    def run(self, side, command, *, cwd="", stdin=b"", timeout=None, env=None,
            path_prepend=()) -> CommandResult:
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        where = self.side_path(side, cwd)
        timeout = float(timeout if timeout is not None else self.policy.timeout_s)
        uid, gid = self._owners[side]
        if self.sandboxed:
            return self._run_fresh(side, {
                "argv": argv, "cwd": where, "env": self._env(env, path_prepend, where),
                "stdin": stdin, "timeout": timeout, "max_output": self.policy.max_output,
                "limits": self._limits(), "seccomp": self._filter})
        req = {
            "argv": argv, "cwd": where, "env": self._env(env, path_prepend, where),
            "stdin": base64.b64encode(stdin).decode(), "timeout": timeout,
            "max_output": self.policy.max_output, "uid": uid, "gid": gid,
            "clear_scratch": self._clear_next.pop(side, False),
        }
        t0 = time.perf_counter_ns()
        try:
            reply = self._request(side, req, timeout + REPLY_MARGIN_S)
        except _SideGone:
            # The launcher died under the side's command (its memory limit, a
            # crash): a failure of this command, and a fresh launcher for the next.
            host = time.perf_counter_ns() - t0
            self._restart(side)
            return CommandResult(exit_code=-1, signal=9, timed_out=False, stdout=b"",
                                 stderr=b"frontier-measure: the side's launcher was killed\n",
                                 wall_ns=host, leftover=1, host_wall_ns=host)
        host = time.perf_counter_ns() - t0
        return CommandResult(
            exit_code=int(reply["exit_code"]),
            signal=int(reply["signal"]),
            timed_out=bool(reply["timed_out"]),
            stdout=base64.b64decode(reply["stdout"]),
            stderr=base64.b64decode(reply["stderr"]),
            wall_ns=int(reply["wall_ns"]),
            user_ns=int(reply["user_ns"]),
            sys_ns=int(reply["sys_ns"]),
            stdout_truncated=bool(reply["stdout_truncated"]),
            stderr_truncated=bool(reply["stderr_truncated"]),
            leftover=int(reply["leftover"]),
            host_wall_ns=host,
        )

    def _limits(self) -> dict[str, int]:
        p = self.policy
        return {"nproc": p.nproc if is_root() else 0,  # binds the side's id, not root
                "address_space": p.memory_mb << 20, "file_size": p.file_size_mb << 20,
                "open_files": p.open_files}

    def _start_sandbox(self, side: str) -> _Line:
        """A new sandbox for the side's next command, its init started and
        waiting for the request. It starts in the side's staging cgroup, on
        the evaluator's CPUs, so that making it (bubblewrap, the namespaces,
        the init's interpreter: tens of ms) overlaps with the commands being
        timed on the sides' CPU instead of adding to every command."""
        uid, gid = self._owners[side]
        spec = _core.ProcessSpec()
        spec.argv = sandbox.argv(sandbox.View(
            work=self._areas[side],
            read_only=[(init_program(), _INIT_IN_VIEW), *((Path(h), v) for h, v in self.policy.read_only)],
            cwd="/",
            hostname=side, own_user=True, as_pid_1=True), [_INIT_IN_VIEW])
        spec.inherit_env = False
        spec.env = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        spec.keep_stdin_open = True
        spec.die_with_parent = True
        if is_root():
            spec.uid, spec.gid = uid, gid
        staging = self._staging.get(side)
        if staging is not None:
            spec.cgroups = staging.procs_files
            spec.cpus = staging.cpus
        else:
            cg = self.cgroups.get(side)
            spec.cpus = list(self.policy.cpus)
            if cg is not None:
                spec.cgroups = cg.procs_files
        return _Line(_core.ProcessHandle(spec), side)

    def _take_sandbox(self, side: str, request: bytes) -> _Line:
        """The side's started sandbox, moved into the side's cgroup (its
        cpuset, limits and accounting) before anything of the side runs,
        given the request and ready; the next one is started at once.

        A sandbox started earlier may have died before it was used (a sweep
        of its cgroup; the parent-death signal of a thread that started it
        and has ended): nothing of the side has run in it, so one more is
        started; a second failure means the sandbox cannot be made here."""
        talk = self._warm.pop(side, None)
        for attempt in range(2):
            if talk is None:
                talk = self._start_sandbox(side)
            try:
                talk.expect("up", SANDBOX_START_S)
                self._into_side_cgroup(side)
                talk.send_bytes(request)
                talk.expect("ready", SANDBOX_START_S)
                break
            except _SideGone:
                why = talk.death()
                talk = None
                if attempt:
                    raise _core.IsolationError(
                        f"the {side}'s sandbox could not be started: {why}") from None
        assert talk is not None
        self._warm[side] = self._start_sandbox(side)
        return talk

    def _into_side_cgroup(self, side: str) -> None:
        staging, cg = self._staging.get(side), self.cgroups.get(side)
        if staging is None or cg is None:
            return
        for pid in staging.pids_now():
            for procs in cg.procs_files:
                with contextlib.suppress(ProcessLookupError), open(procs, "w") as f:
                    f.write(str(pid))
        if staging.pids_now():
            raise _core.IsolationError(f"the {side}'s sandbox could not be moved into its "
                                       "cgroup")

    def _run_fresh(self, side: str, req: dict[str, Any]) -> CommandResult:
        """One command in a sandbox made for it (see the module's docstring)."""
        self._reap()
        cg = self.cgroups.get(side)
        talk = self._take_sandbox(side, _request_frame(req))
        h = talk.h
        try:
            cpu0 = cg.cpu_ns() if cg is not None else -1
            t0 = time.perf_counter_ns()
            talk.send("go")
            try:
                talk.expect("ended", req["timeout"] + REPLY_MARGIN_S)
                host = time.perf_counter_ns() - t0
                cpu1 = cg.cpu_ns() if cg is not None else -1
                talk.send("")
                reply = talk.expect(None, REPLY_MARGIN_S)
                stdout = talk.read_bytes(int(reply["stdout_len"]), REPLY_MARGIN_S)
                stderr = talk.read_bytes(int(reply["stderr_len"]), REPLY_MARGIN_S)
            except _SideGone:
                # The init died under the command (the cgroup's memory limit
                # picked it): a failure of this command.
                host = time.perf_counter_ns() - t0
                return CommandResult(exit_code=-1, signal=9, timed_out=False, stdout=b"",
                                     stderr=b"frontier-measure: the side's sandbox was killed\n",
                                     wall_ns=host, leftover=1, host_wall_ns=host)
        finally:
            # bwrap leaves once its namespaces are torn down (tens of ms, mostly
            # waiting in the kernel): reaped at the next command or at close,
            # not waited for here. Everything of the side in it is dead already.
            self._finishing.append(h)
        return CommandResult(
            exit_code=int(reply["exit_code"]),
            signal=int(reply["signal"]),
            timed_out=bool(reply["timed_out"]),
            stdout=stdout,
            stderr=stderr,
            wall_ns=int(reply["wall_ns"]),
            user_ns=int(reply["user_ns"]),
            sys_ns=int(reply["sys_ns"]),
            stdout_truncated=bool(reply["stdout_truncated"]),
            stderr_truncated=bool(reply["stderr_truncated"]),
            leftover=int(reply["leftover"]),
            host_wall_ns=host,
            cpu_ns=cpu1 - cpu0 - int(reply.get("launcher_cpu_ns", 0)) if cg is not None else -1,
            denied=self._note_denied(side, reply.get("denied", [])),
        )

    def warm_pids(self, side: str) -> list[int]:
        """The processes of the sandbox started for the side's next command
        (they run as the side's id, and nothing of the side is in them yet)."""
        staging = self._staging.get(side)
        if staging is not None:
            return staging.pids_now()
        talk = self._warm.get(side)
        return [talk.h.pid] if talk is not None else []

    def _reap(self) -> None:
        if self._closing:
            self._finishing += self._warm.values()
            self._warm.clear()
        while self._finishing:
            h = self._finishing.pop()
            if isinstance(h, _Line):
                h = h.h
                with contextlib.suppress(Exception):
                    h.signal_group(9)
            with contextlib.suppress(Exception):
                if h.running:
                    h.wait(5.0)
            with contextlib.suppress(Exception):
                if h.running:
                    h.signal_group(9)
                    h.wait(5.0)

    def sweep(self, side: str) -> int:
        if self.sandboxed:
            self._reap()
            # Each command's sandbox takes its processes with it; anything
            # still in the cgroup (a sandbox being torn down) goes now.
            cg = self.cgroups.get(side)
            if cg is None:
                return 0
            with contextlib.suppress(OSError):
                cg.thaw()
            return cg.kill()
        if side not in self.launchers:
            return 0
        try:
            return int(self._request(side, {"sweep": True}, REPLY_MARGIN_S)["leftover"])
        except _SideGone:
            self._restart(side)
            return 1

    def suspend(self, side: str) -> None:
        # Between commands a side has no business running: anything alive is a
        # leftover and is killed rather than merely stopped.
        self.sweep(side)

    def can_read(self, side: str, path: Path) -> bool:
        r = self.run(side, ["/bin/sh", "-c", 'test -r "$1" && { test -f "$1" || ls "$1"; }',
                            "probe", str(path)], timeout=10)
        return r.exit_code == 0

    def guard(self, paths: Iterable[Path]) -> None:
        if self.sandboxed:
            # Nothing outside the side's area is in its view: proven by the probe.
            for p in paths:
                for side in SIDES:
                    if self.can_read(side, Path(p).resolve()):
                        raise _core.IsolationError(f"the {side} can read {p} in its sandbox")
            self.notes.append("held-out data is not in the sides' view (sandbox)")
            return
        super().guard(paths)

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        cg = next(iter(self.cgroups.values()), None)
        d["cgroups"] = cg.guarantees() if cg is not None else None
        if self.sandboxed:
            d["sandbox"] = ("bubblewrap, a new one for every command: own user (the side's id, "
                            "no capabilities), PID, IPC, mount, UTS, network and cgroup "
                            "namespaces; the system read-only, the side's area at /work")
            d["launcher"] = ("fm-init (cpp/init/fm_init.cpp), pid 1 of each command's sandbox: "
                             "installs the system-call filter, times the command, kills what "
                             "it leaves behind")
            d["syscalls"] = self._filter_record()
            d["cpu_cost"] = ("the side's cgroup's CPU usage over the command (every process, "
                             "orphans included)" if self.cgroups else
                             "the command and the children it waited for (rusage)")
        else:
            d["sandbox"] = None
            d["launcher"] = ("_container/run.py --serve, one per side, outside any namespace; it "
                             "starts each command as the side's account, times it and kills "
                             "what it leaves behind")
            d["cpu_cost"] = "the command and the children it waited for (rusage, by the launcher)"
        return d

    def close(self) -> None:
        self._closing = True
        self._reap()
        for side, talk in list(self.launchers.items()):
            with contextlib.suppress(Exception):
                if talk.h.running:
                    talk.h.signal_group(9)
                    talk.h.wait(5.0)
            self.launchers.pop(side, None)
        super().close()
        for cg in [*self.cgroups.values(), *self._staging.values()]:
            cg.remove()
        self.cgroups = {}
        self._staging = {}


_INIT_IN_VIEW = "/opt/fm-init"


def init_program() -> Path:
    """fm-init (cpp/init/fm_init.cpp), built and installed next to _core."""
    return Path(_core.__file__).resolve().parent / "fm-init"


def _no_init_reason() -> str | None:
    p = init_program()
    return None if os.access(p, os.X_OK) else f"{p} is missing (the package was built without it)"


def _request_frame(req: Mapping[str, Any]) -> bytes:
    """A request as fm-init reads it: records of a tag, a 4-byte little-endian
    length and the bytes, ending with 'z'."""
    out = bytearray()

    def put(tag: str, value: str | bytes) -> None:
        data = value.encode() if isinstance(value, str) else value
        out.extend(tag.encode() + len(data).to_bytes(4, "little") + data)

    for a in req["argv"]:
        put("a", a)
    for k, v in req["env"].items():
        put("e", f"{k}={v}")
    put("c", req["cwd"])
    put("i", req["stdin"])
    put("t", str(int(req["timeout"] * 1000)))
    put("m", str(req["max_output"]))
    lim = req["limits"]
    for tag, key in (("p", "nproc"), ("s", "address_space"), ("F", "file_size"),
                     ("o", "open_files")):
        put(tag, str(lim.get(key) or 0))
    if req.get("seccomp"):
        put("f", req["seccomp"]["program"])
        put("n", str(req["seccomp"]["nr"]))
    put("z", b"")
    return bytes(out)


def _evaluator_cpus(side_cpus: list[int]) -> list[int]:
    """The CPUs this process may use that the sides are not timed on."""
    try:
        allowed = sorted(_core.get_affinity())
    except _core.IsolationError:
        return []
    return [c for c in allowed if c not in side_cpus]


SANDBOX_START_S = 60.0  # making a sandbox and starting its init; generous on a loaded machine


class _Line:
    """The evaluator's end of a sandbox init's line protocol (JSON lines)."""

    def __init__(self, handle: Any, side: str, what: str = "sandbox") -> None:
        self.h = handle
        self.side = side
        self.what = what  # in messages: "sandbox", or the launcher where there is none
        self.buf = bytearray()

    def send(self, text: str) -> None:
        self.send_bytes((text + "\n").encode())

    def send_bytes(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.h.stdin_fd, view):]
        except (BrokenPipeError, OSError) as exc:
            raise _SideGone(self.side) from exc

    def expect(self, key: str | None, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _core.IsolationError(
                    f"the {self.side}'s {self.what} did not answer in {timeout:g} s")
            ready, _, _ = select.select([self.h.stdout_fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.h.stdout_fd, 1 << 20)
            if not chunk:
                raise _SideGone(self.side)
            self.buf += chunk
        line, _, rest = bytes(self.buf).partition(b"\n")
        self.buf = bytearray(rest)
        # A word ("up", "ready", "ended") or, at the end, the report (JSON).
        msg: dict[str, Any] = json.loads(line) if line.startswith(b"{") else \
            {line.decode(errors="replace"): True}
        if "error" in msg:
            raise _core.IsolationError(f"the {self.side}'s {self.what}: {msg['error']}")
        if key is not None and not msg.get(key):
            raise _core.IsolationError(f"the {self.side}'s {self.what} said {line[:200]!r}, "
                                       f"not '{key}'")
        return msg

    def read_bytes(self, n: int, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while len(self.buf) < n:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _core.IsolationError(
                    f"the {self.side}'s {self.what} did not send its output in {timeout:g} s")
            ready, _, _ = select.select([self.h.stdout_fd], [], [], remaining)
            if ready:
                chunk = os.read(self.h.stdout_fd, 1 << 20)
                if not chunk:
                    raise _SideGone(self.side)
                self.buf += chunk
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def death(self) -> str:
        try:
            r = self.h.wait(5.0)
        except Exception as exc:
            return str(exc)
        return f"{r.describe()}: {r.stderr.decode(errors='replace').strip()[-300:]}"


class _SideGone(Exception):
    """The side's launcher is gone."""

    def __init__(self, side: str) -> None:
        self.side = side
        super().__init__(side)

