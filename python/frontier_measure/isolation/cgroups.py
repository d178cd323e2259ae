"""A side is its cgroup: accounted, frozen, limited and killed whole.

Process groups and sessions are the side's to change (setsid escapes a group
kill; a process that leaves its group escapes SIGSTOP), but a process cannot
leave a cgroup whose files belong to root. So each side's processes live in a
cgroup of their own, joined by the process runner before the command starts
(`ProcessSpec.cgroups`), and:

* suspending a side freezes its cgroup (every process, however it was started);
* the `cpu` cost of a batch is the cgroup's CPU usage: helpers included;
* the process limit is the cgroup's pids limit, the memory limit its memory limit;
* after each command everything left in it is killed, and counted.

Both cgroup versions are used as this machine offers them: a v2 (unified)
hierarchy gives freezing (cgroup.freeze), killing (cgroup.kill) and CPU usage
(cpu.stat) even with no controller enabled; v1 hierarchies give the freezer,
cpuacct (CPU usage in ns), pids and memory controllers. A machine may have
both (hybrid: v2 for membership, v1 for the controllers). Where a function has
no cgroup behind it, `guarantees()` says so, and the result records it.

Cgroups are made below the evaluator's own cgroup in each hierarchy, under a
directory named `frontier-measure`, and named `<pid>-<token>-<side>`, so a
later evaluator can tell the leftovers of a dead one (see `leftovers`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .. import _core
from .procs import alive

ROOT_NAME = "frontier-measure"
V1_CONTROLLERS = ("freezer", "cpuacct", "pids", "memory", "cpuset")


@dataclass(frozen=True)
class Layout:
    """Where this machine's cgroup hierarchies are, and our place in each."""

    v2: Path | None = None  # our own cgroup in the unified hierarchy
    v2_controllers: frozenset[str] = frozenset()  # enabled for our children
    v1: dict[str, Path] = field(default_factory=dict)  # controller -> our own cgroup in it

    def usable(self) -> bool:
        return self.v2 is not None or "freezer" in self.v1


def _own_paths() -> dict[str, str]:
    """hierarchy key -> our path in it, from /proc/self/cgroup ("" for v2)."""
    out: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _id, controllers, path = line.split(":", 2)
            if controllers == "":
                out[""] = path
            for c in controllers.split(","):
                if c:
                    out[c] = path
    return out


@cache
def layout() -> Layout:
    """The hierarchies this process can create cgroups in (needs root)."""
    if os.geteuid() != 0:
        return Layout()
    own = _own_paths()
    v2: Path | None = None
    v1: dict[str, Path] = {}
    controllers: frozenset[str] = frozenset()
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return Layout()
    for line in mounts:
        parts = line.split()
        if len(parts) < 4:
            continue
        mount, fstype, options = Path(parts[1]), parts[2], parts[3].split(",")
        if fstype == "cgroup2" and "" in own and v2 is None:
            here = mount / own[""].lstrip("/")
            if (here / "cgroup.procs").exists() and os.access(here, os.W_OK):
                v2 = here
                with contextlib.suppress(OSError):
                    controllers = frozenset((here / "cgroup.controllers").read_text().split())
        elif fstype == "cgroup":
            for c in V1_CONTROLLERS:
                if c in options and c in own and c not in v1:
                    here = mount / own[c].lstrip("/")
                    if here.is_dir() and os.access(here, os.W_OK):
                        v1[c] = here
    return Layout(v2=v2, v2_controllers=controllers, v1=v1)


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _read(path: Path) -> str:
    with open(path) as f:
        return f.read()


class Cgroup:
    """One side's cgroup: a directory in each hierarchy that serves a need.

    Membership, freezing, killing and CPU usage come from the v2 hierarchy when
    there is one, else from the v1 freezer and cpuacct hierarchies; the pids
    and memory limits from whichever hierarchy has those controllers."""

    def __init__(self, side: str, *, pids_max: int | None = None,
                 memory_max: int | None = None, cpus: list[int] | None = None,
                 lay: Layout | None = None) -> None:
        self.side = side
        self.layout = lay or layout()
        if not self.layout.usable():
            raise _core.IsolationError("no cgroup hierarchy this evaluator can create cgroups in "
                                       "(needs root and a mounted cgroup filesystem)")
        self.name = f"{os.getpid()}-{secrets.token_hex(4)}-{side}"
        self.dirs: list[Path] = []
        self.v2: Path | None = None
        self.freezer: Path | None = None
        self.cpuacct: Path | None = None
        self.pids: Path | None = None  # the directory holding the pids limit
        self.memory: Path | None = None
        self.cpuset: Path | None = None  # the directory holding the side's CPUs
        self.cpus: list[int] = list(cpus or [])
        self.missing: list[str] = []
        try:
            self._make(pids_max, memory_max)
            if cpus:
                self._pin(cpus)
        except BaseException:
            self.remove()
            raise

    def _mkdir(self, parent: Path) -> Path:
        root = parent / ROOT_NAME
        with contextlib.suppress(FileExistsError):
            root.mkdir()
        d = root / self.name
        d.mkdir()
        self.dirs.append(d)
        return d

    def _make(self, pids_max: int | None, memory_max: int | None) -> None:
        lay = self.layout
        if lay.v2 is not None:
            self.v2 = self._mkdir(lay.v2)
            wanted = {c for c in ("pids", "memory", "cpu") if c in lay.v2_controllers}
            if wanted:
                # Controllers must be enabled on the way down to be usable in
                # our cgroups; a parent that holds processes cannot (v2's "no
                # internal processes" rule), and then the v1 ones or rlimits serve.
                with contextlib.suppress(OSError):
                    _write(self.v2.parent / "cgroup.subtree_control",
                           " ".join(f"+{c}" for c in sorted(wanted)))
            enabled = set()
            with contextlib.suppress(OSError):
                enabled = set(_read(self.v2 / "cgroup.controllers").split())
            if "pids" in enabled:
                self.pids = self.v2
            if "memory" in enabled:
                self.memory = self.v2
        else:
            self.freezer = self._mkdir(lay.v1["freezer"])
        for c in ("cpuacct", "pids", "memory"):
            if c in lay.v1 and (c == "cpuacct" or getattr(self, c) is None):
                d = self._mkdir(lay.v1[c])
                setattr(self, c, d)
        if pids_max is not None:
            if self.pids is not None:
                _write(self.pids / "pids.max", str(pids_max))
            else:
                self.missing.append("process limit by cgroup (RLIMIT_NPROC only)")
        if memory_max is not None:
            if self.memory is None:
                self.missing.append("memory limit by cgroup (RLIMIT_AS only)")
            elif self.memory == self.v2:
                _write(self.memory / "memory.max", str(memory_max))
                with contextlib.suppress(OSError):
                    _write(self.memory / "memory.swap.max", "0")
            else:
                _write(self.memory / "memory.limit_in_bytes", str(memory_max))
        if self.v2 is None and self.cpuacct is None:
            self.missing.append("CPU usage of the whole side (cpu cost from the process itself)")

    def _pin(self, cpus: list[int]) -> None:
        """The side's CPUs as a cpuset: unlike an affinity mask, which any
        process may widen with sched_setaffinity, a cpuset is the kernel's
        bound on every process of the cgroup."""
        value = ",".join(str(c) for c in sorted(cpus))
        lay = self.layout
        if self.v2 is not None and "cpuset" in lay.v2_controllers:
            with contextlib.suppress(OSError):
                _write(self.v2.parent / "cgroup.subtree_control", "+cpuset")
            if (self.v2 / "cpuset.cpus").exists():
                _write(self.v2 / "cpuset.cpus", value)
                self.cpuset = self.v2
                return
        if "cpuset" in lay.v1:
            parent = lay.v1["cpuset"]
            root = parent / ROOT_NAME
            with contextlib.suppress(FileExistsError):
                root.mkdir()
            # A v1 cpuset starts empty, and a process cannot join an empty
            # one: our directory takes its parent's CPUs and memory nodes.
            for knob in ("cpuset.cpus", "cpuset.mems"):
                if not _read(root / knob).strip():
                    _write(root / knob, _read(parent / knob).strip())
            d = self._mkdir(parent)
            _write(d / "cpuset.mems", _read(root / "cpuset.mems").strip())
            _write(d / "cpuset.cpus", value)
            self.cpuset = d
            return
        self.missing.append("CPUs bound by a cpuset (an affinity mask only, which a side "
                            "may widen)")

    # ---- membership
    @property
    def procs_files(self) -> list[str]:
        """The cgroup.procs files a process writes itself into to join."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    @property
    def kill_dir(self) -> str:
        """The v2 directory the process runner empties when a command's leader
        exits ("" where there is none: the caller sweeps with `kill`)."""
        return str(self.v2) if self.v2 is not None else ""

    def _membership(self) -> Path:
        d = self.v2 if self.v2 is not None else self.freezer
        assert d is not None
        return d

    def pids_now(self) -> list[int]:
        """Every process in the cgroup now."""
        try:
            text = _read(self._membership() / "cgroup.procs")
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def empty(self) -> bool:
        if self.v2 is not None:
            with contextlib.suppress(OSError):
                for line in _read(self.v2 / "cgroup.events").splitlines():
                    if line.startswith("populated "):
                        return line.split()[1] == "0"
        return not self.pids_now()

    # ---- freezing
    def freeze(self, timeout_s: float = 10.0) -> None:
        """Stop every process of the side; returns once they are all stopped."""
        if self.v2 is not None:
            v2 = self.v2
            _write(v2 / "cgroup.freeze", "1")
            self._await(lambda: "frozen 1" in _read(v2 / "cgroup.events"), timeout_s, "freeze")
        elif self.freezer is not None:
            fz = self.freezer
            _write(fz / "freezer.state", "FROZEN")
            self._await(lambda: _read(fz / "freezer.state").strip() == "FROZEN", timeout_s,
                        "freeze")

    def thaw(self) -> None:
        if self.v2 is not None:
            _write(self.v2 / "cgroup.freeze", "0")
        elif self.freezer is not None:
            _write(self.freezer / "freezer.state", "THAWED")

    def _await(self, done: Callable[[], bool], timeout_s: float, what: str) -> None:
        deadline = time.monotonic() + timeout_s
        delay = 20e-6
        while not done():
            if time.monotonic() > deadline:
                raise _core.IsolationError(f"the {self.side}'s cgroup did not {what} "
                                           f"within {timeout_s:g} s")
            time.sleep(delay)
            delay = min(delay * 2, 0.005)

    # ---- accounting
    def cpu_ns(self) -> int:
        """CPU time charged to every process that ever ran in the cgroup."""
        if self.cpuacct is not None:
            return int(_read(self.cpuacct / "cpuacct.usage"))
        if self.v2 is not None:
            for line in _read(self.v2 / "cpu.stat").splitlines():
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) * 1000
        return -1

    # ---- killing
    def kill(self, timeout_s: float = 10.0) -> int:
        """Kill every process in the cgroup and wait until it is empty; how
        many there were."""
        found = self.pids_now()
        if not found:
            return 0
        deadline = time.monotonic() + timeout_s
        while not self.empty():
            if self.v2 is not None:
                _write(self.v2 / "cgroup.kill", "1")
            else:
                # v1 has no kill file: freeze, so nothing forks while we look,
                # kill what is there, thaw so the signals are delivered.
                with contextlib.suppress(_core.IsolationError):
                    self.freeze(timeout_s=1.0)
                for pid in self.pids_now():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, 9)
                self.thaw()
            if time.monotonic() > deadline:
                raise _core.IsolationError(f"could not empty the {self.side}'s cgroup")
            time.sleep(0.001)
        return len(found)

    def remove(self) -> None:
        """Kill what is left and remove the cgroup's directories."""
        with contextlib.suppress(OSError, _core.IsolationError):
            if self.dirs:
                self.thaw()
                self.kill()
        for d in reversed(self.dirs):
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY:
                        break
                    time.sleep(0.01)  # its last processes are still being torn down
        self.dirs = []

    def guarantees(self) -> dict[str, object]:
        """What this cgroup enforces, for the result's isolation record."""
        return {
            "version": "v2" if self.v2 is not None and not self.layout.v1 else
                       "hybrid (v2 + v1 controllers)" if self.v2 is not None else "v1",
            "freeze": "cgroup.freeze" if self.v2 is not None else "freezer.state",
            "kill": "cgroup.kill" if self.v2 is not None else "freeze, kill each, thaw",
            "cpu": "cpuacct.usage" if self.cpuacct is not None else
                   "cpu.stat" if self.v2 is not None else None,
            "pids_limit": self.pids is not None,
            "cpuset": self.cpuset is not None,
            "memory_limit": self.memory is not None,
            "missing": list(self.missing),
        }


def leftovers() -> list[Path]:
    """cgroups of evaluators that are no longer running (crashed or killed)."""
    lay = layout()
    roots = [p / ROOT_NAME for p in ([lay.v2] if lay.v2 else []) + list(lay.v1.values())]
    found = []
    for root in roots:
        with contextlib.suppress(OSError):
            for d in root.iterdir():
                pid = d.name.split("-", 1)[0]
                if d.is_dir() and pid.isdigit() and not alive(int(pid)):
                    found.append(d)
    return found


def unavailable_reason() -> str | None:
    """Why sides cannot get cgroups here, or None when they can."""
    if os.geteuid() != 0:
        return "not root: cgroups cannot be created"
    if not layout().usable():
        return "no writable cgroup hierarchy with a freezer (v1) or cgroup.freeze (v2)"
    return None
