"""What dead evaluators left behind, found and removed at the next start.

An evaluator killed with SIGKILL runs no cleanup. Its sides die with it where
the kernel can see to that (bubblewrap's --die-with-parent, the process
runner's parent-death signal), but some of its state is not a process:

* cgroups named after it (`<pid>-<token>-<side>`, cgroups.py), possibly frozen
  with processes inside;
* its working directories under the temporary directory (the local backend's
  areas with their tmpfs mounts, the module runner's worker areas), each
  marked with the evaluator's pid (`mark`);
* a held-out directory it closed (guards.py) and nobody opened again;
* the Docker containers of its sides, labelled with its pid, perhaps paused;
* processes of a pair of side accounts that no live evaluator holds.

`sweep()` removes all of these and returns one line per thing removed, so the
caller can say what it did. It touches only what names a dead evaluator (or
accounts nobody holds), so it is safe while other evaluators run.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from . import cgroups
from .accounts import _LOCK_DIR, ACCOUNTS, MAX_ACCOUNT_PAIRS
from .procs import alive, processes_of_uid

MARK = ".frontier-measure-evaluator"  # holds the pid of the evaluator that made the directory
DOCKER_LABEL = "frontier-measure.evaluator"  # the same, on a side's container


def mark(directory: Path) -> None:
    """Mark `directory` as this evaluator's, for the sweep after a crash."""
    (directory / MARK).write_text(f"{os.getpid()}\n")


def _owner(directory: Path) -> int | None:
    try:
        text = (directory / MARK).read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _kill_cgroup(path: Path) -> int:
    """Kill everything in a cgroup (thawed first: a frozen process takes no
    signal) and remove it. Returns how many processes were in it."""
    pids: list[int] = []
    for _ in range(20):
        with contextlib.suppress(OSError):
            pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
        for knob, value in (("cgroup.freeze", "0"), ("freezer.state", "THAWED")):
            if (path / knob).exists():
                with contextlib.suppress(OSError):
                    (path / knob).write_text(value)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
    for sub in sorted(path.glob("**/"), key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):
            sub.rmdir()
    return len(pids)


def _mounts_under(root: Path) -> list[str]:
    out = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            target = line.split()[1].replace("\\040", " ")
            if target == str(root) or target.startswith(f"{root}/"):
                out.append(target)
    return sorted(out, key=len, reverse=True)


def _sweep_cgroups() -> list[str]:
    out = []
    for path in cgroups.leftovers():
        n = _kill_cgroup(path)
        out.append(f"cgroup {path}" + (f" ({n} process(es) killed)" if n else ""))
    return out


def _sweep_directories() -> list[str]:
    out = []
    tmp = Path(tempfile.gettempdir())
    for d in sorted(tmp.glob("fm-*")):
        owner = _owner(d)
        if owner is None or alive(owner) or not d.is_dir() or d.is_symlink():
            continue
        mounts = _mounts_under(d)
        for target in mounts:
            subprocess.run(["umount", "-l", target], capture_output=True)
        shutil.rmtree(d, ignore_errors=True)
        out.append(f"directory {d}" + (f" ({len(mounts)} mount(s))" if mounts else ""))
    return out


def _sweep_guards() -> list[str]:
    out = []
    for state_path in sorted(Path(tempfile.gettempdir()).glob("frontier-measure-guard-*.json")):
        try:
            fd = os.open(state_path, os.O_RDWR)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                state = json.loads(os.read(fd, 1 << 16) or b"{}")
            except ValueError:
                continue
            holders = [int(p) for p in state.get("holders", []) if alive(int(p))]
            mode, path = int(state.get("mode", -1)), state.get("path")
            if holders or mode < 0 or not path:
                continue
            with contextlib.suppress(OSError):
                os.chmod(path, mode)
                out.append(f"mode {mode:o} of {path} restored")
            os.lseek(fd, 0, os.SEEK_SET)
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps({"holders": [], "mode": -1, "path": path}).encode())
        finally:
            os.close(fd)
    return out


def _sweep_containers() -> list[str]:
    if shutil.which("docker") is None or not Path("/var/run/docker.sock").exists():
        return []
    try:
        r = subprocess.run(["docker", "ps", "-a", "--filter", f"label={DOCKER_LABEL}",
                            "--format", f'{{{{.ID}}}} {{{{.Label "{DOCKER_LABEL}"}}}}'],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    dead = [line.split()[0] for line in r.stdout.splitlines()
            if len(line.split()) == 2 and line.split()[1].isdigit()
            and not alive(int(line.split()[1]))]
    if dead:
        subprocess.run(["docker", "rm", "-f", *dead], capture_output=True, timeout=120)
    return [f"container {c}" for c in dead]


def _sweep_accounts() -> list[str]:
    """Processes of side accounts that no live evaluator has claimed. Those in
    a container are the container's (removed above, or a live evaluator's)."""
    import pwd

    out = []
    for n in range(MAX_ACCOUNT_PAIRS):
        lock = _LOCK_DIR / f"frontier-measure-accounts-{n}.lock"
        if not lock.exists():
            continue
        fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a live evaluator holds this pair
            for base in ACCOUNTS.values():
                name = base if n == 0 else f"{base}{n}"
                try:
                    uid = pwd.getpwnam(name).pw_uid
                except KeyError:
                    continue
                for pid in processes_of_uid(uid):
                    with contextlib.suppress(OSError):
                        if "docker" in Path(f"/proc/{pid}/cgroup").read_text():
                            continue
                        os.kill(pid, signal.SIGKILL)
                        out.append(f"process {pid} of {name}")
        finally:
            os.close(fd)
    return out


def sweep() -> list[str]:
    """Remove what dead evaluators left behind; one line per thing removed.
    Does nothing (and says nothing) when not root: the leftovers are root's."""
    if os.geteuid() != 0:
        return []
    removed: list[str] = []
    for part in (_sweep_cgroups, _sweep_containers, _sweep_accounts, _sweep_directories,
                 _sweep_guards):
        with contextlib.suppress(Exception):  # one part failing must not stop an evaluation
            removed += part()
    return removed
