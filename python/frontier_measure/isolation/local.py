"""The local backend: sides as processes on this machine, through the core's process runner."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import _core
from . import cgroups
from .accounts import SIDES, is_root
from .base import SAFE_PATH, Backend, CommandResult, Policy
from .procs import (
    _comm,
    _proc_info,
    _scan_uid,
    become_subreaper,
    processes_of_uid,
    processes_with_token,
    user_process_count,
)


class LocalBackend(Backend):
    """Sides as processes on this machine, through the core's process runner."""

    name = "local"

    def __init__(self, policy: Policy | None = None) -> None:
        super().__init__(policy)
        self._tokens = {s: secrets.token_hex(8) for s in SIDES}
        self.last_leftover: list[str] = []
        uids = self._side_accounts()
        # Each side is its cgroup: every process a command starts is counted,
        # killed when the command's leader exits, and charged to the side's
        # CPU time, whatever process group or session it moved to.
        self.cgroups: dict[str, cgroups.Cgroup] = {}
        why_not = cgroups.unavailable_reason()
        if why_not is None:
            try:
                for side in SIDES:
                    self.cgroups[side] = cgroups.Cgroup(
                        side, pids_max=self.policy.nproc, memory_max=self.policy.memory_mb << 20)
            except BaseException:
                self._remove_cgroups()
                raise
        else:
            self.notes.append(f"no cgroups ({why_not}): processes that leave the command's "
                              "process group are found by account or token and killed after "
                              "the command; their CPU time is not charged to the side")
        if is_root():
            self._subreaper = become_subreaper()
        else:
            self._subreaper = False
            self.notes.append(
                "not root: both sides run as the evaluator's account (no account switch), so "
                "they could read or change the evaluator's files and each other's; the process "
                "limit counts all of this account's processes"
            )
        self._make_areas(uids)

    def _spec(self, side: str, argv: list[str], cwd: str, env: dict[str, str],
              timeout: float | None, stdin: bytes) -> Any:
        p = self.policy
        s = _core.ProcessSpec()
        s.argv = argv
        s.cwd = cwd
        s.inherit_env = False
        s.env = env
        s.stdin_data = stdin
        s.cpus = list(p.cpus)
        s.timeout_s = float(timeout if timeout is not None else p.timeout_s)
        s.max_output = p.max_output
        lim = _core.Limits()
        # RLIMIT_NPROC counts every process of the real uid: without root that
        # includes the evaluator's own, so the budget sits on top of them.
        lim.nproc = p.nproc if is_root() else user_process_count() + p.nproc
        lim.address_space = p.memory_mb << 20
        lim.file_size = p.file_size_mb << 20
        lim.open_files = p.open_files
        s.limits = lim
        if is_root():
            uid, gid = self._owners[side]
            s.uid, s.gid = uid, gid
        cg = self.cgroups.get(side)
        if cg is not None:
            s.cgroups = cg.procs_files
            s.kill_cgroup = cg.kill_dir
        return s

    def _env(self, side: str, env: Mapping[str, str] | None, path_prepend: Sequence[str],
             cwd: str) -> dict:
        out = {
            "PATH": ":".join([*path_prepend, SAFE_PATH]),
            # HOME is the command's own directory: whatever a program keeps
            # there is part of the observed state, not hidden across runs.
            "HOME": cwd,
            "TMPDIR": "/tmp",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "FM_SIDE_TOKEN": self._tokens[side],
        }
        if env:
            out.update(env)
        out["FM_SIDE_TOKEN"] = self._tokens[side]
        return out

    def run(self, side, command, *, cwd="", stdin=b"", timeout=None, env=None,
            path_prepend=()) -> CommandResult:
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        where = self.side_path(side, cwd)
        spec = self._spec(side, argv, where, self._env(side, env, path_prepend, where),
                          timeout, stdin)
        cg = self.cgroups.get(side)
        cpu0 = cg.cpu_ns() if cg is not None else -1
        r = _core.run_process(spec)
        leftover = r.leftover
        if cg is not None:
            # The runner killed what was left (v2); wait for it to be gone (and
            # kill it here where there is no cgroup.kill), so its CPU is counted.
            killed = cg.kill()
            leftover = leftover or killed
        leftover += self.sweep(side)
        cpu = cg.cpu_ns() - cpu0 if cg is not None else r.user_ns + r.sys_ns
        return CommandResult.from_process(r, leftover=leftover, cpu_ns=cpu)

    def _side_processes(self, side: str) -> list[int]:
        if is_root():
            return processes_of_uid(self._owners[side][0])
        return processes_with_token(self._tokens[side])

    def sweep(self, side: str) -> int:
        if is_root() and not _scan_uid(self._owners[side][0]):
            return 0  # the common case, in one cheap look
        found = self._side_processes(side)
        if not found:
            self._await_reaping(side)
            return 0
        # Members of the command's process group were sent SIGKILL by the
        # runner and may still be on their way out; what remains after a
        # moment escaped the group and is counted.
        for delay in (0.002, 0.005, 0.01, 0.02, 0.05):
            time.sleep(delay)
            found = self._side_processes(side)
            if not found:
                self._await_reaping(side)
                return 0
        self.last_leftover = [_comm(p) for p in found]
        for _ in range(100):
            if is_root():
                # kill(-1) from a process of the side's own account reaches all of
                # its processes in one call, also those forked while we look.
                s = _core.ProcessSpec()
                s.argv = ["/bin/sh", "-c", "kill -KILL -1 2>/dev/null; exit 0"]
                s.inherit_env = False
                s.env = {"PATH": SAFE_PATH}
                s.uid, s.gid = self._owners[side]
                s.timeout_s = 10.0
                _core.run_process(s)
            else:
                for pid in self._side_processes(side):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            left = self._side_processes(side)
            if not left:
                self._await_reaping(side)
                return len(found)
            time.sleep(0.005)
        raise _core.IsolationError(f"could not stop every process of the {side}")

    def _await_reaping(self, side: str, limit_s: float = 5.0) -> None:
        # Killed processes are reaped by init, which may lag behind a fork
        # bomb's thousands; until then they count against the side's process
        # limit, and its next command could not fork.
        if not is_root():
            return
        uid = self._owners[side][0]
        deadline = time.monotonic() + limit_s
        me = os.getpid()
        while time.monotonic() < deadline:
            left = processes_of_uid(uid, zombies=True)
            if not left:
                return
            for pid in left:
                info = _proc_info(str(pid))
                # Only orphans that came to us as subreaper: the runner has
                # already reaped every process it started itself.
                if info and info[1] == "Z" and info[2] == me:
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, os.WNOHANG)
            time.sleep(0.002)

    def suspend(self, side: str) -> None:
        # Between commands a side has no business running: anything alive is a
        # leftover and is killed rather than merely stopped.
        self.sweep(side)

    def can_read(self, side: str, path: Path) -> bool:
        r = self.run(side, ["/bin/sh", "-c", 'test -r "$1" && { test -f "$1" || ls "$1"; }',
                            "probe", str(path)], timeout=10)
        return r.exit_code == 0

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d["process_sweep"] = "kill(-1) as the side's account" if is_root() else "by environment token"
        cg = next(iter(self.cgroups.values()), None)
        d["cgroups"] = cg.guarantees() if cg is not None else None
        d["cpu_cost"] = ("the side's cgroup: every process a command started" if cg is not None
                         else "the command and the children it waited for (rusage)")
        return d

    def _remove_cgroups(self) -> None:
        for cg in self.cgroups.values():
            cg.remove()
        self.cgroups = {}

    def close(self) -> None:
        super().close()
        self._remove_cgroups()
