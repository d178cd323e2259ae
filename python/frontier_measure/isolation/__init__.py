"""Execution isolation for the two sides of an evaluation.

A *backend* gives each side (reference, candidate) a private working area and
runs commands there under that side's restrictions. Two backends implement the
same small interface (`base.Backend`), so runners never care which one is in use:

* `LocalBackend` (local.py): every command of a side in a sandbox made for
  it on this machine (sandbox.py: bubblewrap, new user, PID, IPC, mount, UTS,
  network and cgroup namespaces; the system read-only, the side's area at
  /work and nothing else in view), as an id drawn for the evaluation
  (accounts.py), in the side's cgroup (cgroups.py: limits, a cpuset, CPU
  accounting), under the sides' system-call allow-list (seccomp.py); the
  sandbox's init (fm-init) runs, times and cleans up after the command.
* `DockerBackend` (docker.py): each side in its own container (no network,
  pids limit, cpuset, memory limit, read-only root, its area bind-mounted as
  /work, the same allow-list); the idle container is paused while the other
  side runs.

Held-out data is out of the sides' view; where no sandbox can be made it is
closed to them by its mode bits while they run (guards.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .accounts import ACCOUNTS, SIDES, claim_accounts, claim_uids, ensure_account, is_root, release_uids
from .base import Backend, CommandResult, Policy
from .guards import guard_acquire, guard_release
from .local import LocalBackend
from .procs import processes_of_uid

BACKENDS = ("local", "docker")


def open_backend(name: str, policy: Policy | None = None) -> Backend:
    """The backend called `name` ('local' or 'docker')."""
    if name == "local":
        return LocalBackend(policy)
    if name == "docker":
        from .docker import DockerBackend

        return DockerBackend(policy)
    raise ValueError(f"unknown isolation backend '{name}' (choose from {', '.join(BACKENDS)})")


@contextlib.contextmanager
def backend(name: str, policy: Policy | None = None) -> Iterator[Backend]:
    b = open_backend(name, policy)
    try:
        yield b
    finally:
        b.close()


def __getattr__(name: str) -> object:
    # The Docker backend imports the docker SDK, an optional extra: loaded on use.
    if name in ("DockerBackend", "docker_client", "DEFAULT_IMAGE"):
        from . import docker

        return getattr(docker, name)
    raise AttributeError(name)


__all__ = ["ACCOUNTS", "BACKENDS", "SIDES", "Backend", "CommandResult", "LocalBackend", "Policy",
           "backend", "claim_accounts", "claim_uids", "ensure_account", "guard_acquire",
           "guard_release", "release_uids",
           "is_root", "open_backend", "processes_of_uid"]
