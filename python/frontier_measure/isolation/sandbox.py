"""A side's view of the machine: namespaces built by bubblewrap.

Each side runs in its own mount, PID, IPC, UTS and network namespace: no
network, its own /tmp and /dev/shm (memory, gone with the sandbox), its own
System V IPC, the system's programs and libraries read-only, and one writable
directory, its area, at /work. Nothing else of the machine is in its view:
not the task's tests/ (golden outputs), not solution/, not the evaluator's
checkout, not the other side's area. A side that looks for them finds
nothing there, rather than a directory closed by its mode bits.

Why bubblewrap: it is a small, audited tool packaged by Debian (Flatpak's
sandbox) that does exactly this and nothing more; building the same view with
unshare(2), mounts and pivot_root in the core would be a second copy of that
code to keep correct. Its cost (~10 ms to set up the namespaces here) is paid
once per sandbox, never inside a timed window: a worker is a long-lived
process, and a repository side's commands are run by a launcher inside one
sandbox per side (_container/run.py --serve), which times them itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

WORK = "/work"  # where a side's area appears in its view
SYSTEM_RO = ("usr", "etc")  # bound read-only
SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")  # merged-/usr links or dirs


def bwrap() -> str | None:
    return shutil.which("bwrap")


@cache
def unavailable_reason() -> str | None:
    """Why sides cannot be given their own namespaces here, or None."""
    exe = bwrap()
    if exe is None:
        return "bubblewrap (bwrap) is not installed (Debian package 'bubblewrap')"
    # The sandbox as the sides get it: a user namespace of its own, made by
    # an unprivileged account (as root, the probe runs as nobody).
    probe = argv(View(work=Path("/"), writable=False, own_user=True), ["/bin/true"])
    ids: dict[str, Any] = {"user": 65534, "group": 65534, "extra_groups": []} \
        if os.geteuid() == 0 else {}
    try:
        r = subprocess.run(probe, capture_output=True, text=True, timeout=20, cwd="/", **ids)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not run: {exc}"
    if r.returncode != 0:
        return f"bubblewrap cannot create namespaces here: {r.stderr.strip()[-300:]}"
    return None


@dataclass
class View:
    """What a sandbox shows its side."""

    work: Path  # the side's area on the host, at /work in the view
    writable: bool = True
    # more host paths, read-only: at the same path, or (host path, path in the view)
    read_only: Sequence[Path | tuple[Path, str]] = ()
    cwd: str = WORK
    hostname: str = "side"
    keep_caps: Sequence[str] = ()  # capabilities the sandbox's root keeps (when run as root)
    extra: list[str] = field(default_factory=list)  # more bwrap arguments
    # A user namespace of its own, entered as the account bwrap is started
    # as (a per-evaluation uid): no capability, and no state kept by the
    # kernel per user (keyrings, ucounts) shared with anything outside the run.
    own_user: bool = False
    as_pid_1: bool = False  # the command is the PID namespace's init (see _container/run.py)


def argv(view: View, command: Sequence[str]) -> list[str]:
    """The bwrap command line that runs `command` in `view`."""
    exe = bwrap() or "bwrap"
    out = [exe, "--die-with-parent", "--new-session",
           "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
           "--unshare-cgroup-try", "--hostname", view.hostname]
    if view.own_user:
        # --disable-userns: nor can the side make user namespaces of its own
        # (the seccomp filter denies unshare and clone's namespace flags too).
        out += ["--unshare-user", "--disable-userns"]
    if view.as_pid_1:
        out += ["--as-pid-1"]
    for d in SYSTEM_RO:
        out += ["--ro-bind", f"/{d}", f"/{d}"]
    for d in SYSTEM_LINKS:
        p = Path("/") / d
        if p.is_symlink():
            out += ["--symlink", os.readlink(p), f"/{d}"]
        elif p.is_dir():
            out += ["--ro-bind", str(p), str(p)]
    # /tmp and /dev/shm: the side's own, in memory, writable by all like the
    # real ones (bwrap makes them 0755 unless told otherwise).
    out += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/tmp",
            "--perms", "1777", "--tmpfs", "/dev/shm",
            "--bind" if view.writable else "--ro-bind", str(view.work), WORK]
    made: set[Path] = set()
    for entry in view.read_only:
        host, inside = (entry, Path(entry)) if isinstance(entry, Path) else \
            (entry[0], Path(entry[1]))
        # The directories leading to a mount point are made by bwrap, closed
        # (0700) unless told otherwise: the side must be able to pass through.
        for parent in reversed(inside.parents):
            if parent != Path("/") and parent not in made and parent.parts[1] not in (
                    *SYSTEM_RO, *SYSTEM_LINKS):
                made.add(parent)
                out += ["--perms", "0755", "--dir", str(parent)]
        out += ["--ro-bind", str(host), str(inside)]
    if os.geteuid() == 0 and not view.own_user:
        out += ["--cap-drop", "ALL"]
        for cap in view.keep_caps:
            out += ["--cap-add", cap]
    out += [*view.extra, "--chdir", view.cwd, "--", *command]
    return out
