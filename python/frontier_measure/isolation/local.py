"""The local backend: each side in a sandbox of its own on this machine.

Per side and evaluation: an area (a size-limited tmpfs, as root), a cgroup
(cgroups.py: pids and memory limits, frozen while the other side is timed,
emptied at the end), and a sandbox (sandbox.py: its own mount, PID, IPC, UTS
and network namespaces; the system read-only, the area at /work and nothing
else) in which one launcher (_container/run.py --serve) runs the side's
commands as the side's own account, times them, and kills what each one
leaves behind. The launcher is the same program the Docker backend runs in its
containers, so both backends judge commands alike.

Without bubblewrap the launcher runs outside any namespace (the result says
so); without root the side's account is the evaluator's.
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
from . import cgroups, sandbox
from .accounts import SIDES, is_root
from .base import SAFE_PATH, Backend, CommandResult, Policy

_WRAPPER_DIR = Path(__file__).resolve().parent.parent / "_container"
_WRAPPER_IN_VIEW = "/opt/fm"  # where a sandbox shows it (as the Docker backend does)
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

    def __init__(self, policy: Policy | None = None) -> None:
        super().__init__(policy)
        self.launchers: dict[str, Any] = {}
        self.cgroups: dict[str, cgroups.Cgroup] = {}
        self._clear_next: dict[str, bool] = {}
        self.last_leftover: list[str] = []
        why_no_sandbox = sandbox.unavailable_reason()
        self.sandboxed = why_no_sandbox is None
        uids = self._side_accounts()
        try:
            why_not = cgroups.unavailable_reason()
            if why_not is None:
                for side in SIDES:
                    self.cgroups[side] = cgroups.Cgroup(
                        side, pids_max=self.policy.nproc + 4,  # + bwrap, its init, the launcher
                        memory_max=self.policy.memory_mb << 20)
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
            for side in SIDES:
                self._start_launcher(side)
        except BaseException:
            self.close()
            raise

    # -- the launcher
    def _start_launcher(self, side: str) -> None:
        uid, gid = self._owners[side]
        p = self.policy
        limits = {"nproc": p.nproc if is_root() else 0,  # binds the side's account, not root
                  "address_space": p.memory_mb << 20, "file_size": p.file_size_mb << 20,
                  "open_files": p.open_files}
        run_py = f"{_WRAPPER_IN_VIEW}/run.py" if self.sandboxed else str(_WRAPPER_DIR / "run.py")
        command = [_launcher_python(), "-I", "-B", run_py, "--serve", str(uid), str(gid),
                   json.dumps(limits)]
        spec = _core.ProcessSpec()
        if self.sandboxed:
            spec.argv = sandbox.argv(sandbox.View(
                work=self._areas[side], read_only=[(_WRAPPER_DIR, _WRAPPER_IN_VIEW)], cwd="/",
                hostname=side,
                # The launcher stays root with just what it needs: start commands
                # as the side, enter the side's directories, (its helper) kill.
                keep_caps=["CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_DAC_READ_SEARCH"]
                if is_root() else []), command)
        else:
            spec.argv = command
            spec.cwd = "/"
        spec.inherit_env = False
        spec.env = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        spec.keep_stdin_open = True
        spec.die_with_parent = True
        spec.cpus = list(p.cpus)
        cg = self.cgroups.get(side)
        if cg is not None:
            spec.cgroups = cg.procs_files
        self.launchers[side] = _core.ProcessHandle(spec)

    def _request(self, side: str, req: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        """One request to the side's launcher and its reply; _SideGone when
        the launcher is gone."""
        h = self.launchers[side]
        line = (json.dumps(req) + "\n").encode()
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(h.stdin_fd, view):]
        except (BrokenPipeError, OSError) as exc:
            raise _SideGone(side) from exc
        buf = bytearray()
        deadline = time.monotonic() + timeout
        while not buf.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _core.IsolationError(f"the {side}'s launcher did not answer in {timeout:g} s")
            ready, _, _ = select.select([h.stdout_fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(h.stdout_fd, 1 << 20)
            if not chunk:
                raise _SideGone(side)
            buf += chunk
        reply: dict[str, Any] = json.loads(buf)
        if "error" in reply:
            raise _core.IsolationError(f"the {side}'s launcher: {reply['error']}")
        return reply

    def _restart(self, side: str) -> None:
        old = self.launchers.pop(side, None)
        if old is not None and old.running:
            old.signal_group(9)
            old.wait(5.0)
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
        # The side's /tmp, /dev/shm and IPC objects live in its sandbox: the
        # launcher clears them before the next command.
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

    def sweep(self, side: str) -> int:
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
        d["sandbox"] = ("bubblewrap: own mount, PID, IPC, UTS and network namespaces; the "
                        "system read-only, the side's area at /work" if self.sandboxed else None)
        d["launcher"] = ("_container/run.py --serve, one per side in its sandbox, as root with "
                         "CAP_SETUID/SETGID/KILL/DAC_READ_SEARCH only; it starts each command as "
                         "the side's account, times it and kills what it leaves behind")
        d["cpu_cost"] = "the command and the children it waited for (rusage, by the launcher)"
        return d

    def close(self) -> None:
        for side, h in list(self.launchers.items()):
            with contextlib.suppress(Exception):
                if h.running:
                    h.signal_group(9)
                    h.wait(5.0)
            self.launchers.pop(side, None)
        super().close()
        for cg in self.cgroups.values():
            cg.remove()
        self.cgroups = {}


class _SideGone(Exception):
    """The side's launcher is gone."""

    def __init__(self, side: str) -> None:
        self.side = side
        super().__init__(side)

