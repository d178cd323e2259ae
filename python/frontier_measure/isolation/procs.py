"""A side's processes found through /proc, by account: what checks that a
side left nothing behind (its sandbox and cgroup are what contain it)."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """Whether process `pid` exists (another account's included)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _proc_info(pid: str) -> tuple[int, str] | None:
    """(real uid, state) of a process, None if gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            uid = -1
            state = "?"
            for line in f:
                if line.startswith("State:"):
                    state = line.split()[1]
                elif line.startswith("Uid:"):
                    uid = int(line.split()[1])
                    break
            return uid, state
    except (OSError, ValueError, IndexError):
        return None


def processes_of_uid(uid: int, zombies: bool = False) -> list[int]:
    """Processes whose real uid is `uid` (live ones; with `zombies`, also the
    dead but not yet reaped, which still count against RLIMIT_NPROC). The
    owner of /proc/<pid> (the effective uid) is a cheap first filter."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid != uid:
                continue
        except OSError:
            continue
        info = _proc_info(entry)
        if info and info[0] == uid and (zombies or info[1] not in ("Z", "X")):
            out.append(int(entry))
    return out
