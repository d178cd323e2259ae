"""Execution isolation for the two sides of an evaluation.

A *backend* gives each side (reference, candidate) a private working area and
runs commands there under that side's restrictions. Two backends implement the
same small interface, so runners never care which one is in use:

* `LocalBackend`: processes on this machine through the core's process runner.
  As root each side runs as its own unprivileged account (created on demand),
  its area is a size-limited tmpfs owned by that account and closed to the
  other, RLIMIT_NPROC binds (it does not bind root), and after every command
  every process of the side's account is killed, so nothing it started is
  alive during the other side's turn. Without root the same, minus the account
  switch and the tmpfs: stated in `describe()`.
* `DockerBackend`: each side in its own container (no network, pids limit,
  cpuset, memory limit, read-only root, its area bind-mounted as /work); the
  idle container is paused while the other side runs.

Both record per command what the side left behind (`CommandResult.leftover`),
which runners treat as a failure of that side.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import fcntl
import json
import os
import pwd
import secrets
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import _core

SIDES = ("reference", "candidate")
# The first pair of accounts; evaluators running at the same time on one
# machine claim further pairs (fm-ref1/fm-cand1, ...), see `claim_accounts`.
ACCOUNTS = {"reference": os.environ.get("FM_ACCOUNT_REFERENCE", "fm-ref"),
            "candidate": os.environ.get("FM_ACCOUNT_CANDIDATE", "fm-cand")}
MAX_ACCOUNT_PAIRS = 16
_LOCK_DIR = Path(os.environ.get("FM_LOCK_DIR", "/run/lock" if Path("/run/lock").is_dir()
                                else tempfile.gettempdir()))
DEFAULT_IMAGE = os.environ.get("FM_DOCKER_IMAGE", "frontier-measure/base:bookworm-1")
BACKENDS = ("local", "docker")
# Where the in-container timing wrapper lives (bind-mounted read-only).
_WRAPPER_DIR = Path(__file__).resolve().parent / "_container"
_SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"


def is_root() -> bool:
    return os.geteuid() == 0


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "nproc": self.nproc,
            "memory_mb": self.memory_mb,
            "disk_mb": self.disk_mb,
            "file_size_mb": self.file_size_mb,
            "open_files": self.open_files,
            "timeout_s": self.timeout_s,
            "cpus": list(self.cpus),
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

    @classmethod
    def from_process(cls, r: Any, leftover: int = 0, host_wall_ns: int = 0) -> CommandResult:
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
        )


# --------------------------------------------------------------------- accounts


def ensure_account(name: str) -> tuple[int, int]:
    """(uid, gid) of the unprivileged system account `name`, creating it (and
    its own group) first if needed. Needs root to create."""
    try:
        pw = pwd.getpwnam(name)
        return pw.pw_uid, pw.pw_gid
    except KeyError:
        pass
    if not is_root():
        raise _core.IsolationError(f"account '{name}' does not exist and only root can create it")
    nologin = "/usr/sbin/nologin" if Path("/usr/sbin/nologin").exists() else "/bin/false"
    r = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--user-group", "--home-dir", "/nonexistent",
         "--shell", nologin, name],
        capture_output=True, text=True,
    )
    # Exit 9: created meanwhile by a concurrent evaluator; fine.
    if r.returncode not in (0, 9):
        raise _core.IsolationError(f"useradd {name} failed: {r.stderr.strip()}")
    pw = pwd.getpwnam(name)
    return pw.pw_uid, pw.pw_gid


def claim_accounts() -> tuple[dict[str, str], int]:
    """A pair of side accounts no other evaluator on this machine is using,
    and the open lock file that holds the claim (close it to release).

    Each backend kills every process of its accounts between commands, so two
    evaluators sharing a pair would kill each other's sides."""
    for n in range(MAX_ACCOUNT_PAIRS):
        fd = os.open(_LOCK_DIR / f"frontier-measure-accounts-{n}.lock",
                     os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        suffix = str(n) if n else ""
        return {s: ACCOUNTS[s] + suffix for s in SIDES}, fd
    raise _core.IsolationError(f"all {MAX_ACCOUNT_PAIRS} pairs of side accounts are in use")


# --------------------------------------------------------------------- /proc helpers


def _proc_uids(pid: str) -> tuple[int, str] | None:
    """(real uid, state) of a process, None if gone."""
    info = _proc_info(pid)
    return (info[0], info[1]) if info else None


def _proc_info(pid: str) -> tuple[int, str, int] | None:
    """(real uid, state, parent pid) of a process, None if gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            uid = ppid = -1
            state = "?"
            for line in f:
                if line.startswith("State:"):
                    state = line.split()[1]
                elif line.startswith("PPid:"):
                    ppid = int(line.split()[1])
                elif line.startswith("Uid:"):
                    uid = int(line.split()[1])
                    break
            return uid, state, ppid
    except (OSError, ValueError, IndexError):
        return None


def _become_subreaper() -> bool:
    # Orphans of the sides then become our children instead of init's, and we
    # reap them at once: some inits reap slowly, and until a killed process is
    # reaped it still counts against its account's process limit.
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(36, 1, 0, 0, 0)) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def processes_of_uid(uid: int, zombies: bool = False) -> list[int]:
    """Processes whose real uid is `uid` (live ones; with `zombies`, also the
    dead but not yet reaped, which still count against RLIMIT_NPROC)."""
    return [pid for pid, state, _ in _scan_uid(uid)
            if zombies or state not in ("Z", "X")]


def _scan_uid(uid: int) -> list[tuple[int, str, int]]:
    """(pid, state, parent pid) of every process of `uid`, zombies included.
    The owner of /proc/<pid> is a cheap first filter (it is the process's
    effective uid); the status file then gives the real uid and the state."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            owner = os.stat(f"/proc/{entry}").st_uid
        except OSError:
            continue
        if owner != uid:
            # Misses only a side's process running a set-uid program of the
            # system (effective uid not the side's); kill(-1) from the side's
            # account still reaches it, as permission goes by the real uid.
            continue
        info = _proc_info(entry)
        if info and info[0] == uid:
            out.append((int(entry), info[1], info[2]))
    return out


def processes_with_token(token: str) -> list[int]:
    """Live processes of this account whose environment carries `token`."""
    needle = f"FM_SIDE_TOKEN={token}".encode()
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        info = _proc_uids(entry)
        if needle in env.split(b"\0") and info and info[1] not in ("Z", "X"):
            out.append(int(entry))
    return out


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace").strip()[:80]
    except OSError:
        return "?"


def _user_process_count() -> int:
    return len(processes_of_uid(os.getuid()))


# --------------------------------------------------------------------- interface


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
        self.accounts: dict[str, str] = dict(ACCOUNTS)
        self._account_lock: int | None = None
        self.removed_elsewhere: list[str] = []

    def _side_accounts(self) -> dict[str, tuple[int, int]]:
        """(uid, gid) per side: a claimed pair of accounts as root, else ours."""
        if not is_root():
            return {s: (os.getuid(), os.getgid()) for s in SIDES}
        self.accounts, self._account_lock = claim_accounts()
        return {s: ensure_account(self.accounts[s]) for s in SIDES}

    # -- areas
    def _make_areas(self, uids: Mapping[str, tuple[int, int]]) -> None:
        self._base = Path(tempfile.mkdtemp(prefix=f"fm-{self.name}-"))
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
            # Shared with the module runner: evaluations of one task may overlap,
            # the first in closes the directory and the last out restores it.
            from .runners.module import guard_acquire

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

    def describe(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "account_switch": is_root(),
            "accounts": dict(self.accounts) if is_root() else None,
            "policy": self.policy.to_dict(),
            "notes": list(self.notes),
        }

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for side in SIDES:
            with contextlib.suppress(Exception):
                self.sweep(side)
        if self._guarded:
            from .runners.module import guard_release

            for p in self._guarded:
                with contextlib.suppress(OSError):
                    guard_release(p)
        self._guarded.clear()
        self.removed_elsewhere = self._remove_side_files()
        for area in self._mounted:
            subprocess.run(["umount", "-l", str(area)], capture_output=True)
        if self._base is not None:
            shutil.rmtree(self._base, ignore_errors=True)
        if self._account_lock is not None:
            os.close(self._account_lock)
            self._account_lock = None

    def _remove_side_files(self) -> list[str]:
        """What the sides' accounts left in the machine's shared scratch
        directories (their own area is removed with it), removed."""
        return [p for side in SIDES for p in self.clear_scratch(side)]

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------- local


class LocalBackend(Backend):
    """Sides as processes on this machine, through the core's process runner."""

    name = "local"

    def __init__(self, policy: Policy | None = None) -> None:
        super().__init__(policy)
        self._tokens = {s: secrets.token_hex(8) for s in SIDES}
        self.last_leftover: list[str] = []
        uids = self._side_accounts()
        if is_root():
            self._subreaper = _become_subreaper()
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
        lim.nproc = p.nproc if is_root() else _user_process_count() + p.nproc
        lim.address_space = p.memory_mb << 20
        lim.file_size = p.file_size_mb << 20
        lim.open_files = p.open_files
        s.limits = lim
        if is_root():
            uid, gid = self._owners[side]
            s.uid, s.gid = uid, gid
        return s

    def _env(self, side: str, env: Mapping[str, str] | None, path_prepend: Sequence[str],
             cwd: str) -> dict:
        out = {
            "PATH": ":".join([*path_prepend, _SAFE_PATH]),
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
        r = _core.run_process(spec)
        return CommandResult.from_process(r, leftover=self.sweep(side))

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
                s.env = {"PATH": _SAFE_PATH}
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
        return d


# --------------------------------------------------------------------- docker


def docker_client() -> Any:
    """A client of the local Docker engine, or IsolationError saying why not."""
    try:
        import docker
    except ImportError as exc:
        raise _core.IsolationError(
            "the docker backend needs the 'docker' package: pip install 'frontier-measure[docker]'"
        ) from exc
    try:
        client = docker.from_env(timeout=120)
        client.ping()
    except Exception as exc:  # the SDK raises several unrelated types here
        raise _core.IsolationError(
            f"no Docker engine answering ({exc}); scripts/services.sh starts one"
        ) from exc
    return client


class DockerBackend(Backend):
    """Each side in its own container; the idle one is paused."""

    name = "docker"
    workdir = "/work"

    def __init__(self, policy: Policy | None = None, image: str = DEFAULT_IMAGE) -> None:
        super().__init__(policy)
        import docker

        self.client = docker_client()
        self.image = image
        try:
            self.client.images.get(image)
        except docker.errors.ImageNotFound as exc:
            raise _core.IsolationError(
                f"Docker image {image} not found: scripts/docker-image.sh builds it"
            ) from exc
        uids = self._side_accounts()
        self._make_areas(uids)
        self.containers: dict[str, Any] = {}
        self._paused: dict[str, bool] = {}
        self._clear_next: dict[str, bool] = {}
        tag = secrets.token_hex(4)
        p = self.policy
        try:
            for side in SIDES:
                self.containers[side] = self.client.containers.run(
                    image,
                    ["sleep", "infinity"],
                    name=f"fm-{side}-{tag}",
                    detach=True,
                    init=True,  # reaps what the side orphans; runs as the (powerless) container root
                    network_mode="none",
                    pids_limit=p.nproc + 8,  # + init, sleep and the wrapper
                    cpuset_cpus=",".join(map(str, p.cpus)) or None,
                    mem_limit=f"{p.memory_mb}m",
                    memswap_limit=f"{p.memory_mb}m",
                    read_only=True,
                    tmpfs={"/tmp": "size=16m,mode=1777,nosuid,nodev"},
                    volumes={
                        str(self._areas[side]): {"bind": self.workdir, "mode": "rw"},
                        str(_WRAPPER_DIR): {"bind": "/opt/fm", "mode": "ro"},
                    },
                    # The container's root keeps only what the wrapper needs to enter the
                    # side's area, start commands as its account and sweep it.
                    cap_drop=["ALL"],
                    cap_add=["SETUID", "SETGID", "KILL", "DAC_READ_SEARCH"],
                    security_opt=["no-new-privileges"],
                    ulimits=[
                        docker.types.Ulimit(name="fsize", soft=p.file_size_mb << 20,
                                            hard=p.file_size_mb << 20),
                        docker.types.Ulimit(name="nofile", soft=p.open_files, hard=p.open_files),
                    ],
                    labels={"frontier-measure": "side", "frontier-measure.side": side},
                    working_dir=self.workdir,
                )
                self._paused[side] = False
        except Exception:
            self.close()
            raise

    def side_path(self, side: str, rel: str = "") -> str:
        return f"{self.workdir}/{rel}" if rel else self.workdir

    def clear_scratch(self, side: str) -> list[str]:
        if hasattr(self, "_clear_next"):
            self._clear_next[side] = True
        return []

    def _exec(self, side: str, argv: list[str]) -> tuple[int, bytes]:
        container = self.containers[side]
        self.resume(side)
        # exec_run has no timeout of its own; the wrapper enforces the command's,
        # so the API call returns shortly after it. The wrapper runs as the
        # container's root and drops to the side's account for the command.
        r = container.exec_run(argv, user="0:0", workdir=self.workdir, demux=True)
        out, err = r.output
        if r.exit_code == 128 + signal.SIGKILL:
            return r.exit_code, b""  # see run(): the memory limit took the wrapper too
        if r.exit_code != 0:
            raise _core.IsolationError(
                f"timing wrapper failed in the {side}'s container (exit {r.exit_code}): "
                f"{(err or b'').decode(errors='replace')[-400:]}"
            )
        return r.exit_code, out or b""

    def run(self, side, command, *, cwd="", stdin=b"", timeout=None, env=None,
            path_prepend=()) -> CommandResult:
        p = self.policy
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        full_env = {
            "PATH": ":".join([*path_prepend, _SAFE_PATH]),
            "HOME": self.side_path(side, cwd),
            "TMPDIR": "/tmp",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
        if env:
            full_env.update(env)
        request = {
            "argv": argv,
            "cwd": self.side_path(side, cwd),
            "env": full_env,
            "stdin": base64.b64encode(stdin).decode(),
            "timeout": float(timeout if timeout is not None else p.timeout_s),
            "max_output": p.max_output,
            "nproc": p.nproc,
            "address_space": p.memory_mb << 20,
            "uid": self._owners[side][0],
            "gid": self._owners[side][1],
            # The container's own /tmp and /dev/shm: emptied of the side's
            # files at each fresh start, as the local backend does on the host.
            "clear_scratch": self._clear_next.pop(side, False),
        }
        t0 = time.perf_counter_ns()
        code, out = self._exec(side, ["python3", "/opt/fm/run.py", json.dumps(request)])
        host = time.perf_counter_ns() - t0
        if code == 128 + signal.SIGKILL:
            # Only the kernel can kill the (root-owned) wrapper: the container's
            # memory limit was reached and the OOM killer chose it.
            return CommandResult(
                exit_code=-1, signal=signal.SIGKILL, timed_out=False, stdout=b"",
                stderr=b"frontier-measure: the container's memory limit was reached\n",
                wall_ns=host, leftover=self.sweep(side), host_wall_ns=host)
        try:
            reply = json.loads(out.decode().strip().splitlines()[-1])
        except (ValueError, IndexError) as exc:
            raise _core.IsolationError(f"unreadable reply from the {side}'s container") from exc
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
        # The wrapper already kills what a command leaves behind; this is for
        # callers that want a clean container at any other moment.
        if side not in self.containers:
            return 0
        uid, gid = self._owners[side]
        self.resume(side)
        r = self.containers[side].exec_run(
            ["python3", "/opt/fm/run.py", "--sweep", str(uid), str(gid)], user="0:0")
        try:
            return int(r.output.decode().strip() or 0)
        except ValueError:
            return 0

    def suspend(self, side: str) -> None:
        if side in self.containers and not self._paused.get(side):
            self.containers[side].pause()
            self._paused[side] = True

    def resume(self, side: str) -> None:
        if side in self.containers and self._paused.get(side):
            c = self.containers[side]
            c.unpause()
            self._paused[side] = False
            # The engine may report the thaw before it is complete; an exec
            # issued in between is refused as "container is paused".
            for _ in range(200):
                c.reload()
                if c.status != "paused":
                    break
                time.sleep(0.005)

    def paused(self, side: str) -> bool:
        return self._paused.get(side, False)

    def can_read(self, side: str, path: Path) -> bool:
        # A container sees only its image and its own area: host paths do not
        # exist there. Probe anyway, so a wrong mount would show.
        r = self.run(side, ["/bin/sh", "-c", 'test -r "$1"', "probe", str(path)], timeout=10)
        return r.exit_code == 0

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update({
            "image": self.image,
            "network": "none",
            "read_only_root": True,
            "pids_limit": self.policy.nproc + 8,
            "idle_side": "container paused",
            "timing": "wall time measured inside the container by the wrapper",
        })
        return d

    def close(self) -> None:
        for c in getattr(self, "containers", {}).values():
            with contextlib.suppress(Exception):
                c.remove(force=True)
        if hasattr(self, "containers"):
            self.containers.clear()
        super().close()


def open_backend(name: str, policy: Policy | None = None) -> Backend:
    """The backend called `name` ('local' or 'docker')."""
    if name == "local":
        return LocalBackend(policy)
    if name == "docker":
        return DockerBackend(policy)
    raise ValueError(f"unknown isolation backend '{name}' (choose from {', '.join(BACKENDS)})")


@contextlib.contextmanager
def backend(name: str, policy: Policy | None = None) -> Iterator[Backend]:
    b = open_backend(name, policy)
    try:
        yield b
    finally:
        b.close()
