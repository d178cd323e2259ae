"""Launching, retrying and stopping runs: the platform's runner, in processes of its own.

The dashboard never runs an attempt itself. A *job* is one `frontier-measure
run SPEC --db DB [--retry N]` process (the platform's runner, exactly as from a
terminal), in a session of its own, its output in `dashboard/jobs/N.log` beside
the database. The runner holds an exclusive lock on `runner.lock` in the run
directory while it works, one runner per database; so jobs wait in a queue and
start when no runner (the dashboard's or anyone's) holds the lock. Whether one
does is read from /proc/locks, without touching the lock: trying it would make
a runner starting at that instant fail.

Stopping is what Ctrl-C does at a terminal: SIGINT, and the runner cancels its
attempts (their agents' sessions are killed, their containers and checkouts
removed, their gates stopped) and records them as interrupted, to be run again
from scratch at its next start or by a retry.
Anything that start would still remove (a container whose removal was cut
short) is removed as soon as the runner is gone. A runner still there after a grace
period is killed, and what it leaves is removed the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..platform import checkout as co
from ..platform.runner import db_label
from .events import Live

SUPERVISE_S = 0.5
STOP_GRACE_S = 30.0
KEEP_FINISHED = 20  # finished jobs listed


def runner_pid(run_dir: Path, locks: Path = Path("/proc/locks")) -> int | None:
    """The pid of the runner holding this run directory's lock, or None."""
    lock = run_dir / "runner.lock"
    try:
        st = os.stat(lock)
        table = locks.read_text()
    except OSError:
        return None
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in table.splitlines():
        parts = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; waiters are marked "->".
        if len(parts) >= 6 and parts[1] != "->" and parts[5] == want:
            # The runner writes its pid into the file just after locking it.
            with contextlib.suppress(OSError, ValueError, IndexError):
                return int(lock.read_text().split()[0])
            with contextlib.suppress(ValueError):
                return int(parts[4])
            return None
    return None


@dataclass
class Job:
    id: int
    kind: str  # run | retry
    spec: Path
    attempt: int | None = None
    state: str = "queued"  # queued | running | done | failed | stopped | cancelled
    created: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    pid: int | None = None
    exit_code: int | None = None
    log: Path | None = None
    message: str = ""
    process: asyncio.subprocess.Process | None = None

    def view(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "spec": str(self.spec), "attempt": self.attempt,
                "state": self.state, "created": self.created, "started": self.started,
                "ended": self.ended, "pid": self.pid, "exit_code": self.exit_code,
                "log": str(self.log) if self.log else None, "message": self.message}


class Jobs:
    """The dashboard's queue of runner processes for one database."""

    def __init__(self, live: Live, python: str = sys.executable) -> None:
        self.live = live
        self.db_path = live.db_path
        self.run_dir = live.run_dir
        self.python = python
        self.jobs: list[Job] = []
        self.stopping: float | None = None  # when a stop was asked for
        self._next = 1
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def start(self) -> None:
        self.publish()
        self._task = asyncio.create_task(self._supervise(), name="dashboard-jobs")

    async def close(self) -> None:
        """The dashboard stops; runners it started go on (they hold their own lock)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # ------------------------------------------------------------------ asking

    def submit(self, kind: str, spec: Path, attempt: int | None = None) -> Job:
        job = Job(self._next, kind, spec, attempt)
        self._next += 1
        self.jobs.append(job)
        self._wake.set()
        self.publish()
        return job

    def cancel(self, job_id: int) -> Job:
        for job in self.jobs:
            if job.id == job_id:
                if job.state != "queued":
                    raise ValueError(f"job {job_id} is {job.state}; only a queued job is cancelled "
                                     "(stop a running one)")
                job.state, job.ended = "cancelled", time.time()
                self.publish()
                return job
        raise KeyError(job_id)

    def stop(self) -> dict[str, Any]:
        """Cancel the queue and interrupt the runner working on this database."""
        cancelled = 0
        for job in self.jobs:
            if job.state == "queued":
                job.state, job.ended = "cancelled", time.time()
                cancelled += 1
        pid = self._runner()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGINT)
            self.stopping = time.monotonic()
        self._wake.set()
        self.publish()
        return {"signalled": pid, "cancelled": cancelled}

    # ------------------------------------------------------------------ state

    def _ours(self) -> Job | None:
        return next((j for j in self.jobs if j.state == "running"), None)

    def _runner(self) -> int | None:
        ours = self._ours()
        if ours is not None and ours.pid is not None:
            return ours.pid
        return runner_pid(self.run_dir)

    def status(self) -> dict[str, Any]:
        holder = runner_pid(self.run_dir)
        ours = self._ours()
        active = [j for j in self.jobs if j.state in ("queued", "running")]
        done = [j for j in self.jobs if j.state not in ("queued", "running")][-KEEP_FINISHED:]
        return {"runner": {"active": holder is not None or ours is not None,
                           "pid": holder if holder is not None else ours.pid if ours else None,
                           "ours": ours is not None},
                "stopping": self.stopping is not None,
                "jobs": [j.view() for j in done + active]}

    def publish(self) -> None:
        self.live.set_status(self.status())

    # ------------------------------------------------------------------ the supervisor

    async def _supervise(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), SUPERVISE_S)
            self._wake.clear()
            try:
                await self._step()
            except Exception as exc:  # the supervisor must outlive any one job
                self.live.error = f"jobs: {type(exc).__name__}: {exc}"
            self.publish()

    async def _step(self) -> None:
        ours = self._ours()
        if ours is not None and ours.process is not None and ours.process.returncode is not None:
            self._ended(ours, ours.process.returncode)
            ours = None
        if self.stopping is not None:
            if self._runner() is None:
                self.stopping = None
                # The runner removes its attempts' checkouts and containers as it stops;
                # whatever an interruption still cut short goes now, as the runner's next
                # start would remove it.
                await asyncio.to_thread(self._leftovers, self._interrupted())
            elif time.monotonic() - self.stopping > STOP_GRACE_S:
                await self._kill()
            return
        if ours is None and runner_pid(self.run_dir) is None:
            nxt = next((j for j in self.jobs if j.state == "queued"), None)
            if nxt is not None:
                await self._launch(nxt)

    def _ended(self, job: Job, code: int) -> None:
        job.exit_code, job.ended = code, time.time()
        if self.stopping is not None:
            job.state = "stopped"
        else:
            job.state = "done" if code == 0 else "failed"
        if code != 0 and job.log is not None:
            with contextlib.suppress(OSError):
                lines = [ln for ln in job.log.read_text(errors="replace").splitlines() if ln.strip()]
                job.message = "\n".join(lines[-6:])

    async def _launch(self, job: Job) -> None:
        logs = self.run_dir / "dashboard" / "jobs"
        logs.mkdir(parents=True, exist_ok=True)
        job.log = logs / f"{int(time.time())}-{job.id}.log"
        argv = [self.python, "-m", "frontier_measure", "run", str(job.spec), "--db",
                str(self.db_path), "--quiet"]
        if job.attempt is not None:
            argv += ["--retry", str(job.attempt)]
        with open(job.log, "wb") as log:
            log.write(("$ " + " ".join(argv) + "\n").encode())
            log.flush()
            job.process = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.DEVNULL, stdout=log,
                stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        job.pid, job.state, job.started = job.process.pid, "running", time.time()

    async def _kill(self) -> None:
        """The runner outlived the grace period: kill it, then remove what it left."""
        pid = self._runner()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for _ in range(50):
            if runner_pid(self.run_dir) is None and (
                    (ours := self._ours()) is None or ours.process is None
                    or ours.process.returncode is not None):
                break
            await asyncio.sleep(0.1)
        await asyncio.to_thread(self._leftovers, self._interrupted())

    def _interrupted(self) -> list[tuple[str, int]]:
        """(artefact directory, generation) of the attempts a runner left running."""
        return [(str(r["dir"]), int(r.get("generation") or 0)) for r in self.live.rows.values()
                if r.get("state") == "running" and r.get("dir")]

    def _leftovers(self, attempts: list[tuple[str, int]]) -> None:
        """What the runner's next start would remove of a stopped run: the agents'
        sessions and checkouts of its interrupted attempts (a next run starts them in
        a new generation, elsewhere) and its labelled containers."""
        for d, gen in attempts:
            co.kill_recorded(self.run_dir / d / "agent" / "agent.pid")
            co.remove_tree(self.run_dir / "scratch" / f"{Path(d).name}-g{gen}")
        # A runner that started meanwhile owns the label now (and removes leftovers itself).
        if runner_pid(self.run_dir) is None and co.docker_available() is None:
            co.remove_labelled_containers(db_label(self.db_path))
