"""A side's processes found through /proc, by account or by environment token
(where no cgroup holds them)."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path


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


def become_subreaper() -> bool:
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


def user_process_count() -> int:
    return len(processes_of_uid(os.getuid()))
