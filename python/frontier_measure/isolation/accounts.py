"""The unprivileged accounts sides run as, and the claim an evaluator holds on a pair."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import secrets
import subprocess
import tempfile
from pathlib import Path

from .. import _core

SIDES = ("reference", "candidate")
# The first pair of accounts; evaluators running at the same time on one
# machine claim further pairs (fm-ref1/fm-cand1, ...), see `claim_accounts`.
ACCOUNTS = {"reference": os.environ.get("FM_ACCOUNT_REFERENCE", "fm-ref"),
            "candidate": os.environ.get("FM_ACCOUNT_CANDIDATE", "fm-cand")}
MAX_ACCOUNT_PAIRS = 16
_LOCK_DIR = Path(os.environ.get("FM_LOCK_DIR", "/run/lock" if Path("/run/lock").is_dir()
                                else tempfile.gettempdir()))


def is_root() -> bool:
    return os.geteuid() == 0


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


# Per-evaluation ids: drawn afresh for every evaluation, far above any account
# a system hands out, and in no /etc/passwd. Whatever the kernel keeps per user
# (keyrings, message-queue and inotify quotas, files owned anywhere) is keyed
# to an id that no later evaluation will have.
EVALUATION_UIDS = range(1_000_000_000, 2_000_000_000)


def claim_uids() -> tuple[dict[str, tuple[int, int]], list[int]]:
    """A fresh (uid, gid) per side for one evaluation, and the open lock
    files that hold the claim against a concurrent evaluator drawing the same
    id (close them to release). Needs root to be of any use: only root can
    start a process as another id."""
    out: dict[str, tuple[int, int]] = {}
    held: list[int] = []
    rng = secrets.SystemRandom()
    while len(out) < len(SIDES):
        uid = rng.randrange(EVALUATION_UIDS.start, EVALUATION_UIDS.stop)
        fd = os.open(_LOCK_DIR / f"frontier-measure-uid-{uid}.lock",
                     os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        held.append(fd)
        out[SIDES[len(out)]] = (uid, uid)
    return out, held


def release_uids(held: list[int]) -> None:
    for fd in held:
        with contextlib.suppress(OSError):
            path = os.readlink(f"/proc/self/fd/{fd}")
            os.unlink(path)
        with contextlib.suppress(OSError):
            os.close(fd)
    held.clear()
