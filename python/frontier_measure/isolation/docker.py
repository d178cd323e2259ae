"""The Docker backend: each side in its own container; the idle one is paused."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import signal
import time
from pathlib import Path
from typing import Any

from .. import _core
from . import seccomp
from .accounts import SIDES
from .base import SAFE_PATH, Backend, CommandResult, Policy
from .sweep import DOCKER_LABEL

DEFAULT_IMAGE = os.environ.get("FM_DOCKER_IMAGE", "frontier-measure/base:bookworm-1")
# Where the in-container timing wrapper lives (bind-mounted read-only).
_WRAPPER_DIR = Path(__file__).resolve().parent.parent / "_container"


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
        notify = self._notify_filter()
        self._filter = {**notify, "program": base64.b64encode(notify["program"]).decode()}
        uids = self._side_accounts()
        self._make_areas(uids)
        self.containers: dict[str, Any] = {}
        self._paused: dict[str, bool] = {}
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
                    # The sides' allow-list (seccomp.py), plus the calls the launcher's own
                    # filter refuses by name; the launcher installs that filter on every
                    # command, so a side gets the same list in both backends.
                    security_opt=["no-new-privileges",
                                  f"seccomp={seccomp.docker_profile(p.syscalls, named=True)}"],
                    ulimits=[
                        docker.types.Ulimit(name="fsize", soft=p.file_size_mb << 20,
                                            hard=p.file_size_mb << 20),
                        docker.types.Ulimit(name="nofile", soft=p.open_files, hard=p.open_files),
                    ],
                    labels={"frontier-measure": "side", "frontier-measure.side": side,
                            DOCKER_LABEL: str(os.getpid())},  # see sweep.py
                    auto_remove=True,  # gone with its process, whoever stops it
                    working_dir=self.workdir,
                )
                self._paused[side] = False
        except Exception:
            self.close()
            raise

    def side_path(self, side: str, rel: str = "") -> str:
        return f"{self.workdir}/{rel}" if rel else self.workdir

    def clear_scratch(self, side: str) -> list[str]:
        # Each command's /tmp, /dev/shm and IPC are its own (the launcher makes
        # its namespaces) and go with it: nothing to clear between runs.
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
            "PATH": ":".join([*path_prepend, SAFE_PATH]),
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
            # New user, PID, IPC, mount, UTS, network and cgroup namespaces,
            # with their own /tmp and /dev/shm, for this command alone.
            "namespaces": True,
            "seccomp": self._filter,
            "cgroup_cpu": True,  # the container's cgroup: every process of the side
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
            cpu_ns=int(reply["cgroup_cpu_ns"]) - int(reply.get("launcher_cpu_ns", 0))
            if int(reply.get("cgroup_cpu_ns", -1)) >= 0 else -1,
            denied=self._note_denied(side, reply.get("denied", [])),
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
            "syscalls": self._filter_record(),
            "cpu_cost": "the container's cgroup's CPU usage over the command (every process, "
                        "orphans included), less the wrapper's own",
        })
        return d

    def close(self) -> None:
        for c in getattr(self, "containers", {}).values():
            with contextlib.suppress(Exception):
                c.remove(force=True)
        if hasattr(self, "containers"):
            self.containers.clear()
        super().close()
