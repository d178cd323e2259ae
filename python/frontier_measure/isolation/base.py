"""What every isolation backend offers: a private area per side, commands run
in it under the side's limits, and a record of what each command left behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _core
from . import seccomp
from .accounts import SIDES, claim_uids, is_root, release_uids
from .guards import guard_acquire, guard_release
from .sweep import mark

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"


def _default_cpus() -> list[int]:
    # Both sides share one CPU (they never run at the same time), away from
    # CPU 0 where the evaluator and interrupts tend to sit.
    try:
        allowed = sorted(_core.get_affinity())
    except _core.IsolationError:
        return []
    return [allowed[-1]] if len(allowed) > 1 else []


@dataclass
class Policy:
    """Limits applied to every command of a side."""

    nproc: int = 64  # processes (and threads) of the side at once
    memory_mb: int = 1024  # RLIMIT_AS locally; the cgroup memory limit in Docker
    disk_mb: int = 256  # size of the side's private area (tmpfs as root / in Docker)
    file_size_mb: int = 128  # RLIMIT_FSIZE: largest file a command may write
    open_files: int = 256
    timeout_s: float = 60.0  # default per command
    cpus: list[int] = field(default_factory=_default_cpus)
    max_output: int = 16 << 20  # bytes kept per stream
    # System calls beyond the sides' allow-list that the task names (seccomp.py)
    syscalls: list[str] = field(default_factory=list)
    # Host directories shown read-only in every sandbox of the sides besides
    # the system, as (host path, path in the sandbox): a toolchain outside
    # /usr (the kernel scale's compiler, from a Python environment)
    read_only: list[tuple[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "nproc": self.nproc,
            "memory_mb": self.memory_mb,
            "disk_mb": self.disk_mb,
            "file_size_mb": self.file_size_mb,
            "open_files": self.open_files,
            "timeout_s": self.timeout_s,
            "cpus": list(self.cpus),
            "syscalls": list(self.syscalls),
            "read_only": [list(v) for v in self.read_only],
        }


@dataclass
class CommandResult:
    """What one command did, in the shape of the core's ProcessResult."""

    exit_code: int
    signal: int
    timed_out: bool
    stdout: bytes
    stderr: bytes
    wall_ns: int  # the command's own wall time (in-container in Docker)
    user_ns: int = 0
    sys_ns: int = 0
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    leftover: int = 0  # processes of the side still alive after it, killed
    host_wall_ns: int = 0  # wall time seen from the evaluator, overhead included
    cpu_ns: int = -1  # CPU charged to the side for it (its cgroup where there is one)
    denied: list[str] = field(default_factory=list)  # system calls refused to it, by name

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.signal == 0 and not self.timed_out

    def describe(self) -> str:
        if self.timed_out:
            text = "timed out"
        elif self.signal:
            text = f"killed by {_core.signal_name(self.signal)}"
        else:
            text = f"exit code {self.exit_code}"
        if self.leftover:
            text += f"; left {self.leftover} process(es) running (killed)"
        return text

    def __post_init__(self) -> None:
        if self.cpu_ns < 0:
            self.cpu_ns = self.user_ns + self.sys_ns

    @classmethod
    def from_process(cls, r: Any, leftover: int = 0, host_wall_ns: int = 0,
                     cpu_ns: int = -1) -> CommandResult:
        return cls(
            exit_code=r.exit_code,
            signal=r.signal,
            timed_out=r.timed_out,
            stdout=bytes(r.stdout),
            stderr=bytes(r.stderr),
            wall_ns=r.wall_ns,
            user_ns=r.user_ns,
            sys_ns=r.sys_ns,
            stdout_truncated=r.stdout_truncated,
            stderr_truncated=r.stderr_truncated,
            leftover=leftover,
            host_wall_ns=host_wall_ns or r.wall_ns,
            cpu_ns=cpu_ns,
        )


class Backend(ABC):
    """A private area per side and a way to run commands in it.

    Paths given to `run` (cwd) are relative to the side's area; `side_path`
    turns one into the path as the side sees it (a host path locally, under
    /work in a container). The evaluator reaches the area through
    `area(side)` (always a host path) to copy files in and snapshot them.
    """

    name = "abstract"

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy or Policy()
        self._areas: dict[str, Path] = {}
        self._owners: dict[str, tuple[int, int]] = {}
        self._mounted: list[Path] = []
        self._base: Path | None = None
        self._guarded: list[Path] = []
        self.notes: list[str] = []
        self._closed = False
        self.accounts: dict[str, str] = {}
        self._uid_locks: list[int] = []
        self.denied: dict[str, list[str]] = {s: [] for s in SIDES}  # calls refused, by name
        self.removed_elsewhere: list[str] = []

    def _side_accounts(self) -> dict[str, tuple[int, int]]:
        """(uid, gid) per side: ids drawn for this evaluation as root, else ours."""
        if not is_root():
            return {s: (os.getuid(), os.getgid()) for s in SIDES}
        ids, self._uid_locks = claim_uids()
        self.accounts = {s: f"uid {ids[s][0]} (this evaluation's)" for s in SIDES}
        return ids

    # -- areas
    def _make_areas(self, uids: Mapping[str, tuple[int, int]]) -> None:
        self._base = Path(tempfile.mkdtemp(prefix=f"fm-{self.name}-"))
        mark(self._base)  # for the sweep, should this evaluator be killed
        # Others may pass through the base to reach their own area, not list it.
        os.chmod(self._base, 0o711)
        for side in SIDES:
            area = self._base / side
            area.mkdir()
            uid, gid = uids[side]
            if is_root():
                # A tmpfs bounds how much the side can write in total (a full
                # disk is the other side's and the evaluator's problem too).
                # The area itself belongs to root and is only entered by the
                # side's group: the side writes only in the directories the
                # evaluator hands it (a fresh working directory per case and
                # per timed run), so nothing it keeps can outlive a run.
                r = subprocess.run(
                    ["mount", "-t", "tmpfs", "-o",
                     f"size={self.policy.disk_mb}m,mode=0750,uid=0,gid={gid},nodev,nosuid",
                     f"fm-{side}", str(area)],
                    capture_output=True, text=True,
                )
                if r.returncode == 0:
                    self._mounted.append(area)
                else:
                    self.notes.append(f"no tmpfs for the {side}'s area ({r.stderr.strip()}): "
                                      "its total disk use is not bounded")
                os.chown(area, 0, gid)
                os.chmod(area, 0o750)
            else:
                os.chmod(area, 0o700)
            self._areas[side] = area
            self._owners[side] = (uid, gid)

    def area(self, side: str) -> Path:
        return self._areas[side]

    def side_path(self, side: str, rel: str = "") -> str:
        return str(self._areas[side] / rel) if rel else str(self._areas[side])

    def owner(self, side: str) -> tuple[int, int]:
        return self._owners[side]

    def fresh_copy(self, side: str, source: Path | None, rel: str) -> Path:
        """Replace `rel` in the side's area with a fresh copy of `source`
        (an empty directory when None), owned by the side. What the side left
        in the machine's scratch directories goes too: a fresh start has no
        state from earlier runs (a cache there would flatter its timing)."""
        self.clear_scratch(side)
        dest = self._areas[side] / rel
        if dest == self._areas[side]:
            # The area itself is a mount point: empty it, keep it.
            for child in list(dest.iterdir()):
                self._remove(side, child)
        elif dest.exists() or dest.is_symlink():
            self._remove(side, dest)
        if source is None:
            dest.mkdir(parents=True, exist_ok=True)
        else:
            shutil.copytree(source, dest, symlinks=True, dirs_exist_ok=True)
        if is_root():
            uid, gid = self._owners[side]
            for root, dirs, files in os.walk(dest):
                os.lchown(root, uid, gid)
                for n in dirs + files:
                    os.lchown(os.path.join(root, n), uid, gid)
        return dest

    def seal(self, side: str, rel: str) -> None:
        """Make `rel` (e.g. the built program) read-only for the side: owned
        by root, readable and executable through the side's group."""
        root = self._areas[side] / rel
        if not is_root():
            # The side runs as this account and could undo it: best effort.
            for dirpath, dirnames, filenames in os.walk(root):
                for n in [dirpath, *(os.path.join(dirpath, f) for f in dirnames + filenames)]:
                    if not os.path.islink(n):
                        os.chmod(n, stat.S_IMODE(os.lstat(n).st_mode) & ~0o222)
            return
        gid = self._owners[side][1]
        for dirpath, dirnames, filenames in os.walk(root):
            for n in [dirpath, *(os.path.join(dirpath, f) for f in dirnames + filenames)]:
                os.lchown(n, 0, gid)
                if os.path.islink(n):
                    continue
                mode = stat.S_IMODE(os.lstat(n).st_mode)
                # Owner's read/execute bits given to the group; write taken from all.
                os.chmod(n, (mode & ~0o7222 & ~0o070) | ((mode & 0o500) >> 3))

    def clear_scratch(self, side: str) -> list[str]:
        """Remove what the side's account owns in /tmp, /var/tmp and /dev/shm."""
        if not is_root() or side not in self._owners:
            return []
        uid = self._owners[side][0]
        removed = []
        for scratch in ("/tmp", "/var/tmp", "/dev/shm"):
            try:
                entries = list(os.scandir(scratch))
            except OSError:
                continue
            for e in entries:
                with contextlib.suppress(OSError):
                    if e.stat(follow_symlinks=False).st_uid == uid:
                        self._remove(side, Path(e.path))
                        removed.append(e.path)
        return removed

    def _remove(self, side: str, path: Path) -> None:
        # The side may have left directories without write permission.
        def onerror(func: Any, p: str, _exc: Any) -> None:
            with contextlib.suppress(OSError):
                os.chmod(os.path.dirname(p), 0o700)
                os.chmod(p, 0o700)
                func(p)

        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, onerror=onerror)
        else:
            path.unlink()

    # -- evaluator data
    def guard(self, paths: Iterable[Path]) -> None:
        """Make sure neither side can read `paths` (held-out data, golden
        outputs): as root, take away group/other access for as long as this
        backend is open (restored on close), then prove it with a probe run
        as each side. Without root the sides run as this account: noted."""
        for p in paths:
            p = Path(p).resolve()
            if not p.exists():
                continue
            if not is_root():
                self.notes.append(f"{p} stays readable: without root the sides run as the "
                                  "evaluator's own account")
                continue
            # Evaluations of one task may overlap: the first in closes the
            # directory and the last out restores it.
            guard_acquire(p)
            self._guarded.append(p)
            for side in SIDES:
                if self.can_read(side, p):
                    raise _core.IsolationError(f"the {side} can still read {p}")

    @abstractmethod
    def can_read(self, side: str, path: Path) -> bool:
        """Whether `side` can open `path` (a probe run as the side)."""

    # -- commands
    @abstractmethod
    def run(
        self,
        side: str,
        command: str | Sequence[str],
        *,
        cwd: str = "",
        stdin: bytes = b"",
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        path_prepend: Sequence[str] = (),
    ) -> CommandResult:
        """Run `command` (a shell string or an argv) as `side` in its area,
        then kill whatever it left behind."""

    @abstractmethod
    def sweep(self, side: str) -> int:
        """Kill every process of the side; returns how many there were."""

    def suspend(self, side: str) -> None:  # noqa: B027 - optional hook
        """Stop the side while the other is timed."""

    def resume(self, side: str) -> None:  # noqa: B027 - optional hook
        """Let the side run again."""

    def _notify_filter(self) -> dict[str, Any]:
        """The sides' allow-list as the launcher installs it: refused calls
        wait for its answer (EPERM) and are named (`_note_denied`)."""
        return {"program": seccomp.program(seccomp.NOTIFY, tuple(self.policy.syscalls)),
                "nr": seccomp.seccomp_syscall_number()}

    def _note_denied(self, side: str, numbers: Iterable[int]) -> list[str]:
        """The names of the calls a command was refused, kept for the side."""
        names = [seccomp.name_of(int(nr)) for nr in numbers]
        for name in names:
            if name not in self.denied[side]:
                self.denied[side].append(name)
        return names

    def _filter_record(self) -> dict[str, Any]:
        return {"allowed": seccomp.allowed(self.policy.syscalls),
                "denied_action": "EPERM, the call named in the result",
                "task_extra": list(self.policy.syscalls)}

    def describe(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "account_switch": is_root(),
            "accounts": dict(self.accounts) if is_root() else None,
            "policy": self.policy.to_dict(),
            "notes": list(self.notes),
            "denied_syscalls": {s: list(v) for s, v in self.denied.items() if v},
        }

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for side in SIDES:
            with contextlib.suppress(Exception):
                self.sweep(side)
        if self._guarded:
            for p in self._guarded:
                with contextlib.suppress(OSError):
                    guard_release(p)
        self._guarded.clear()
        self.removed_elsewhere = self._remove_side_files()
        for area in self._mounted:
            subprocess.run(["umount", "-l", str(area)], capture_output=True)
        if self._base is not None:
            shutil.rmtree(self._base, ignore_errors=True)
        release_uids(self._uid_locks)

    def _remove_side_files(self) -> list[str]:
        """What the sides' accounts left in the machine's shared scratch
        directories (their own area is removed with it), removed."""
        return [p for side in SIDES for p in self.clear_scratch(side)]

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
