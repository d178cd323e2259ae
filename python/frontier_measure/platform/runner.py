"""Running a spec: asyncio workers, one attempt at a time each.

One attempt, from the task's pristine workspace to a verdict:

    start (db: pending -> running, new generation)
    fresh checkout (overlay or copy) + the attempt's container   (checkout.py)
    the agent's turn, under the operational timeout, with its regime's tools
        (regimes.py) and the agents it delegates to (tree.py); its model
        traffic through the gateway, which records every request (gateway.py),
        its tool servers' measurements through the control endpoint (control.py)
    container removed; changes -> patch.diff, line counts
    the gate, on the host, in a process of its own (performance tasks: the
        evaluator, under the machine-wide measurement lock; the wait for it is
        the attempt's 'lock-wait' stage, naming the holder)  (gate.py, gate_process.py)
    artefacts written atomically; finish (db: running -> finished, figures, checks)

A stop (SIGINT, SIGTERM) cancels every attempt wherever it is: agents' sessions
killed, containers removed, checkouts unmounted, a gate stopped (SIGTERM, then
its session killed), a wait for the measurement lock ended; each running attempt
is recorded as interrupted, with what it spent and how long it ran. Then the
signal goes on to the handler it had before the run (the CLI's: exit 130 / 143).

Resuming after an interruption (kill -9 included) costs one start-up: the
runner lock is taken, containers and scratch directories a dead runner left are
removed, attempts it left 'running' are recorded as interrupted, and interrupted
attempts are run again from scratch; finished attempts are never redone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import fcntl
import gzip
import hashlib
import json
import os
import shutil
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..results import verify, write_json, write_result
from . import agents as agents_mod
from . import checkout as co
from . import gate_process
from . import tasks as tasks_mod
from .agents.command import tools_dir
from .control import ControlServer
from .db import RUNNABLE, Database
from .gateway import Endpoint, Gateway
from .prices import PriceTable
from .spec import NO_MODEL, Spec
from .tree import AgentTree

T = TypeVar("T")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

Listener = Callable[[str, dict[str, Any]], None]


class RunnerError(Exception):
    pass


def default_db(spec: Spec) -> Path:
    return Path("runs") / spec.name / "state.sqlite"


def db_label(db_path: Path) -> str:
    """Labels this database's containers, so leftovers are found and only they."""
    return hashlib.sha256(str(db_path.resolve()).encode()).hexdigest()[:16]


def write_text_atomic(path: Path, text: str) -> Path:
    tmp = path.with_name(f".{path.name}.partial")
    tmp.write_text(text)
    os.replace(tmp, path)
    return path


def load_tasks(spec: Spec) -> list[tasks_mod.PlatformTask]:
    paths = tasks_mod.find(spec.task_paths) if spec.task_paths else []
    if spec.refactorbench is not None:
        from . import refactorbench as rb

        rbs = spec.refactorbench
        paths += rb.import_snapshot(rbs.get("snapshot"), select=rbs.get("select"))
    loaded = [tasks_mod.load(p) for p in paths]
    seen: dict[str, Path] = {}
    for t in loaded:
        if t.name in seen and seen[t.name] != t.path:
            raise RunnerError(f"two tasks are named {t.name}: {seen[t.name]} and {t.path}")
        seen[t.name] = t.path
    return loaded


def plan(spec: Spec, tasks: list[tasks_mod.PlatformTask],
         agents: dict[str, agents_mod.Agent]) -> list[dict[str, Any]]:
    """Every attempt the spec asks for."""
    out = []
    problems = []
    for t in tasks:
        missing = t.missing_prompts(spec.prompt_modes)
        if missing:
            problems.append(f"{t.path}: no prompts/{', '.join(m + '.md' for m in missing)}")
    if problems:
        raise RunnerError("; ".join(problems))
    for t in tasks:
        for agent_name, agent in agents.items():
            models = list(spec.models) if agent.uses_model else [NO_MODEL]
            if agent.uses_model and not models:
                raise RunnerError(f"agent '{agent_name}' uses a model, and the spec has no [models]")
            for model in models:
                for mode in spec.prompt_modes:
                    for regime in spec.regimes:
                        if spec.excluded({"task": t.name, "agent": agent_name, "model": model,
                                          "prompt_mode": mode, "regime": regime}):
                            continue
                        for n in range(1, spec.attempts + 1):
                            out.append({
                                "key": "|".join([t.name, agent_name, model, mode, regime, str(n)]),
                                "task": t.name, "task_path": str(t.path), "kind": t.kind,
                                "scale": t.scale, "agent": agent_name, "model": model,
                                "prompt_mode": mode, "regime": regime, "number": n})
    return out


@dataclass
class RunSummary:
    run_id: int
    db: Path
    planned: int
    recovered: list[int]
    ran: list[int]
    startup_s: float
    wall_s: float
    leftovers: list[str] = field(default_factory=list)


class Runner:
    def __init__(self, spec: Spec, db_path: Path | None = None,
                 listener: Listener | None = None) -> None:
        self.spec = spec
        self.db_path = (db_path or default_db(spec)).resolve()
        self.run_dir = self.db_path.parent
        self.listener = listener or (lambda kind, data: None)
        self.label = db_label(self.db_path)

    # ------------------------------------------------------------------ the run

    def run(self, retry: int | None = None) -> RunSummary:
        """The run, until it ends or a SIGINT or SIGTERM stops it (in the main thread):
        then every attempt is cancelled and cleaned up, and the signal is raised again
        for the handler it had before (KeyboardInterrupt for SIGINT, the CLI's exit
        status 143 for SIGTERM, or the default action)."""
        if threading.current_thread() is not threading.main_thread():
            return asyncio.run(self.arun(retry))
        caught: list[int] = []
        before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}

        async def main() -> RunSummary:
            loop = asyncio.get_running_loop()
            me = asyncio.current_task()
            assert me is not None

            def stop(sig: int) -> None:
                if not caught:  # a second signal changes nothing: the stop is under way
                    caught.append(sig)
                    self.listener("stopping", {"signal": signal.Signals(sig).name})
                    me.cancel()

            for sig in STOP_SIGNALS:
                loop.add_signal_handler(sig, stop, sig)
            try:
                return await self.arun(retry)
            finally:
                for sig in STOP_SIGNALS:
                    loop.remove_signal_handler(sig)
                    signal.signal(sig, before[sig])

        try:
            return asyncio.run(main())
        except asyncio.CancelledError:
            if not caught:
                raise
        # Everything is cleaned up: the signal goes where it went before the run.
        signal.raise_signal(caught[0])
        raise RunnerError(f"stopped by {signal.Signals(caught[0]).name}")

    async def arun(self, retry: int | None = None) -> RunSummary:
        started = time.perf_counter()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        lock_fd = os.open(self.run_dir / "runner.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RunnerError(f"another runner is using {self.db_path}") from None
            os.ftruncate(lock_fd, 0)
            os.write(lock_fd, f"{os.getpid()}\n".encode())
            return await self._locked(retry, started)
        finally:
            os.close(lock_fd)

    async def _locked(self, retry: int | None, started: float) -> RunSummary:
        spec = self.spec
        leftovers = await self._prepare()
        self.db = Database(self.db_path)
        try:
            tasks = await asyncio.to_thread(load_tasks, spec)
            self.tasks = {t.name: t for t in tasks}
            self.agents = {n: agents_mod.make(n, tbl, spec.base_dir)
                           for n, tbl in spec.agents.items()}
            planned = plan(spec, tasks, self.agents)
            self._check_plan(planned)
            run_id = self.db.run_id(spec.name, str(spec.path), spec.text)
            recovered = self.db.recover(run_id)
            for a in recovered:
                # Agents run in sessions of their own: a runner killed with -9 leaves them
                # (the root's agent/agent.pid, and those of the children it delegated to).
                for pid_file in sorted((self.run_dir / "attempts" / f"a{a:05d}").rglob("agent.pid")):
                    co.kill_recorded(pid_file)
            self.db.ensure_attempts(run_id, planned)
            keys = {p["key"] for p in planned}
            if retry is not None:
                row = self.db.attempt(retry)
                if row is None or row["run_id"] != run_id:
                    raise RunnerError(f"no attempt {retry} in run '{spec.name}'")
                self.db.retry(retry)
                todo = [retry]
            else:
                todo = sorted(int(r["id"]) for state in RUNNABLE
                              for r in self.db.attempts(run_id, state) if r["key"] in keys)
            self.prices = PriceTable.load(*spec.prices)
            self.db.set_prices(run_id, self.prices.entries)  # every export carries it
            servers, endpoints = self._endpoints()
            self.endpoints = endpoints
            self.gateway = Gateway(self.prices, self.db.record_request, host=self._gateway_host())
            await self.gateway.start()
            self.control = ControlServer(self.db.record_tool_call)
            await self.control.start()
            startup = time.perf_counter() - started
            self.db.event(run_id, None, None, "runner-started",
                          {"pid": os.getpid(), "startup_s": startup, "recovered": recovered,
                           "leftover_containers": leftovers, "todo": len(todo)})
            self.listener("start", {"run_id": run_id, "planned": len(planned), "todo": todo,
                                    "recovered": recovered, "startup_s": startup})
            try:
                queue: asyncio.Queue[int] = asyncio.Queue()
                for a in todo:
                    queue.put_nowait(a)
                workers = [asyncio.create_task(self._worker(queue))
                           for _ in range(min(spec.concurrency, max(1, len(todo))))]
                await asyncio.gather(*workers)
            except asyncio.CancelledError:
                # Stopped: every attempt has unwound (gather waits for them). A container
                # whose `docker run` was cut short may still have been made: none stays.
                if spec.isolation == "docker":
                    await asyncio.to_thread(co.remove_labelled_containers, self.label)
                self.db.event(run_id, None, None, "runner-stopped", {"stopped": True})
                raise
            finally:
                await self.control.stop()
                await self.gateway.stop()
                for s in servers:
                    s.stop()
            self.db.event(run_id, None, None, "runner-stopped", {})
            wall = time.perf_counter() - started
            self.listener("done", {"run_id": run_id, "wall_s": wall})
            return RunSummary(run_id, self.db_path, len(planned), recovered, todo, startup, wall,
                              leftovers)
        finally:
            self.db.close()
            self._teardown()

    # ------------------------------------------------------------------ where attempts run
    # (the cluster runner, cluster.py, overrides these and _attempt)

    async def _prepare(self) -> list[str]:
        """Checks and clean-up before the database is opened; returns the leftover
        containers of a runner that died."""
        spec = self.spec
        if spec.isolation == "docker":
            why = co.docker_available()
            if why:
                raise RunnerError(f"isolation = \"docker\": {why} (or set isolation = \"copy\")")
        # What a runner that died left behind: its containers and checkouts.
        leftovers = await asyncio.to_thread(co.remove_labelled_containers, self.label) \
            if spec.isolation == "docker" or co.docker_available() is None else []
        await asyncio.to_thread(co.remove_tree, self.run_dir / "scratch")
        return leftovers

    def _check_plan(self, planned: list[dict[str, Any]]) -> None:
        pass

    def _gateway_host(self) -> str:
        return "127.0.0.1"

    def _teardown(self) -> None:
        pass

    def _endpoints(self) -> tuple[list[Any], dict[str, Endpoint]]:
        from .scripted_model import ScriptedModelServer

        servers, out = [], {}
        used = {m.endpoint for m in self.spec.models.values()}
        for name, e in self.spec.endpoints.items():
            if name not in used:
                continue
            if e.kind == "scripted":
                assert e.scripts is not None
                server = ScriptedModelServer(e.scripts).start()
                servers.append(server)
                base = server.base_url if e.api == "openai" else server.base_url[:-3]
                out[name] = Endpoint(name, base, e.api, "")
            else:
                key = os.environ.get(e.api_key_env, "") if e.api_key_env else ""
                if e.api_key_env and not key:
                    raise RunnerError(f"[endpoints.{name}]: ${e.api_key_env} is not set")
                out[name] = Endpoint(name, e.base_url, e.api, key)
        return servers, out

    async def _worker(self, queue: asyncio.Queue[int]) -> None:
        while True:
            try:
                attempt_id = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            await self._attempt(attempt_id)

    # ------------------------------------------------------------------ one attempt

    async def _attempt(self, attempt_id: int) -> None:
        row = self.db.attempt(attempt_id)
        assert row is not None
        adir = self.run_dir / "attempts" / f"a{attempt_id:05d}"
        # A generation that died left partial files: none of them was referenced.
        await asyncio.to_thread(shutil.rmtree, adir, True)
        adir.mkdir(parents=True)
        gen = self.db.start(attempt_id, str(adir.relative_to(self.run_dir)))
        info = dict(row) | {"generation": gen}
        self.listener("attempt-start", info)
        started = time.perf_counter()
        figures: dict[str, Any] = {}
        checks: list[dict[str, Any]] = []
        try:
            figures, checks = await self._attempt_body(row, gen, adir)
        except asyncio.CancelledError:
            # A stopped run: what the attempt made is gone (its body unwound); it is
            # interrupted, to be run again, and its runtime stops here.
            wall = time.perf_counter() - started
            if self.db.interrupt(attempt_id, gen, wall, "the run was stopped"):
                write_interrupted_record(self.db, adir, attempt_id)
            self.listener("attempt-interrupted", info | {"wall_s": wall})
            raise
        except Exception as exc:  # the platform's own failure: recorded, never a verdict
            figures = {"outcome": "error", "passed": 0, "passed_plus": 0,
                       "error": f"{type(exc).__name__}: {exc}"}
        figures["wall_s"] = time.perf_counter() - started
        at = write_attempt_record(self.db, adir, row, gen, figures)
        self.db.finish(attempt_id, gen, figures, checks, finished_at=at)
        self.listener("attempt-done", info | figures)

    def _stage(self, row: Any, gen: int, stage: str, note: str | None = None) -> None:
        """What the attempt is doing now, in the database and for the listener."""
        self.db.set_stage(row["id"], gen, stage, note)
        self.listener("attempt-stage", dict(row) | {"generation": gen, "stage": stage,
                                                    "note": note})

    async def _attempt_body(self, row: Any, gen: int, adir: Path) \
            -> tuple[dict[str, Any], list[dict[str, Any]]]:
        task = self.tasks[row["task"]]
        self._stage(row, gen, "checkout")
        scratch = self.run_dir / "scratch" / f"{adir.name}-g{gen}"
        checkout = await _to_the_end(co.Checkout.create, task.pristine, scratch,
                                     undo=co.Checkout.close)
        try:
            return await self._in_checkout(row, gen, adir, checkout)
        finally:
            # Also when the attempt is cancelled (a stopped run): an overlay checkout
            # stays mounted otherwise, until the runner's next start.
            await _to_the_end(checkout.close)

    async def _in_checkout(self, row: Any, gen: int, adir: Path, checkout: co.Checkout) \
            -> tuple[dict[str, Any], list[dict[str, Any]]]:
        spec = self.spec
        task = self.tasks[row["task"]]
        agent = self.agents[row["agent"]]
        container: co.Container | None = None
        transcript = adir / "transcript.jsonl"
        figures: dict[str, Any] = {}
        try:
            if spec.isolation == "docker":
                image = spec.image
                self._stage(row, gen, "container")
                container = await co.Container.start(
                    image, checkout.path, task.workdir,
                    {co.LABEL: self.label, f"{co.LABEL}.attempt": str(row["id"])},
                    cpus=spec.cpus, memory_mb=spec.memory_mb)
            model = None
            if agent.uses_model:
                m = spec.models[row["model"]]
                model = (m.model, self.endpoints[m.endpoint])
            tools_bin = tools_dir()
            tree = AgentTree(self.db, self.gateway, self.control, row["id"], gen, adir, task,
                             row["agent"], agent, spec.regime(row["regime"]), checkout, container,
                             transcript, spec.timeout_s, model, image=spec.image,
                             tool_path=[str(tools_bin)] if tools_bin else [])
            t0 = time.perf_counter()
            self._stage(row, gen, "agent")
            outcome = await tree.run(task.prompt(row["prompt_mode"]))
            figures["agent_s"] = time.perf_counter() - t0
            figures.update(tree.figures())
        finally:
            if container is not None:
                await container.remove()
        if outcome.log:
            write_text_atomic(adir / "agent.log", outcome.log)
        changes = await asyncio.to_thread(checkout.changes)
        write_text_atomic(adir / "patch.diff", changes.patch())
        added, removed = changes.line_counts()
        figures.update(files_changed=changes.files, lines_added=added, lines_removed=removed)
        tel = self.db.telemetry(row["id"], gen)
        figures.update(requests=tel["requests"], tokens_in=tel["tokens_in"],
                       tokens_out=tel["tokens_out"], tokens_cached=tel["tokens_cached"],
                       cost=tel["cost"],
                       steps=tel["steps"] if agent.uses_model else outcome.steps)
        if transcript.exists():
            with open(transcript, "rb") as src, gzip.open(adir / ".transcript.partial", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(adir / ".transcript.partial", adir / "transcript.jsonl.gz")
            transcript.unlink()
        checks: list[dict[str, Any]] = []
        if outcome.timed_out:
            figures.update(outcome="timeout", passed=0, passed_plus=0,
                           error=f"the agent did not finish in {spec.timeout_s:g} s")
        elif outcome.error and outcome.exit_code == 0:
            # The agent never ran (a missing tool, a task without an oracle ...).
            figures.update(outcome="agent-error", passed=0, passed_plus=0, error=outcome.error)
        else:
            t0 = time.perf_counter()
            self._stage(row, gen, "gate")
            judged = checkout.path
            if task.kind == "performance":
                # The candidate is what the patch says: the workspace without the
                # files tools leave (bytecode caches), which the patch leaves out too.
                judged = adir / "candidate"
                await asyncio.to_thread(shutil.copytree, checkout.path, judged, symlinks=True,
                                        ignore=co.ignore_tool_files)
            shown: list[tuple[str, str | None]] = [("gate", None)]

            def progress(text: str, holder: int | None) -> None:
                # The wait for the measurement lock is a stage of its own, naming the
                # holder; the database hears of changes of stage only.
                now = ("lock-wait", f"held by pid {holder}" if holder else
                       "held by another process") if holder is not None else ("gate", None)
                if now != shown[-1]:
                    shown.append(now)
                    self._stage(row, gen, *now)

            gate = await gate_process.run(task.path, judged, adir / "evaluation",
                                          adir / ".gate-result.json",
                                          isolation=spec.gate_isolation,
                                          timeout_s=spec.gate_timeout_s,
                                          log=adir / "gate.log", on_progress=progress)
            figures["gate_s"] = time.perf_counter() - t0
            write_json(gate.to_dict(), adir / "gate.json")
            label_results(row, figures, adir)
            checks = [c.to_dict() for c in gate.checks]
            figures.update(passed=int(gate.passed), speedup=gate.speedup,
                           passed_plus=None if gate.passed_plus is None else int(gate.passed_plus),
                           codebleu=gate.codebleu,
                           outcome="error" if gate.error else
                           "inconclusive" if getattr(gate, "inconclusive", False) else
                           "passed" if gate.passed else "failed",
                           error=gate.error or outcome.error)
        write_json({"attempt": dict(row) | {"generation": gen}, "figures": figures,
                    "agent": {"exit_code": outcome.exit_code, "timed_out": outcome.timed_out,
                              "error": outcome.error,
                              "files": sorted(outcome.files)}},
                   adir / "attempt.json")
        return figures, checks


_THREADS = concurrent.futures.ThreadPoolExecutor(8, thread_name_prefix="checkout")


async def _to_the_end(fn: Callable[..., T], *args: Any,
                      undo: Callable[[T], object] | None = None) -> T:
    """fn(*args) in a thread, carried through to its end even when the caller is
    cancelled meanwhile: the caller then waits for it (blocking: mounting,
    unmounting, removing a scratch directory are short), undoes what it made, and
    the cancellation goes on."""
    job = _THREADS.submit(fn, *args)
    try:
        # Shielded: a cancelled wait must not cancel a job still queued.
        return await asyncio.shield(asyncio.wrap_future(job))
    except asyncio.CancelledError:
        concurrent.futures.wait([job])
        if undo is not None and not job.cancelled() and job.exception() is None:
            undo(job.result())
        raise


def write_attempt_record(db: Database, adir: Path, row: Any, gen: int,
                         figures: dict[str, Any]) -> str:
    """attempt.json with the attempt's final values (what finish() is about to
    write, and what it spent over all generations), written before the transaction
    that finishes the attempt references it. Returns the finishing time to record."""
    from .db import now, spend_of

    at = now()
    path = adir / "attempt.json"
    try:
        agent = json.loads(path.read_text()).get("agent")
    except (OSError, ValueError):
        agent = None  # the attempt failed before the agent's part was written
    spend = spend_of(db.conn, row["id"])
    final = dict(row) | figures | {"generation": gen, "state": "finished", "finished_at": at,
                                   "spent": spend["spent"],
                                   "usage_source": spend["usage_source"]}
    write_json({"attempt": final, "figures": figures, "agent": agent}, path)
    return at


def write_interrupted_record(db: Database, adir: Path, attempt_id: int) -> None:
    """attempt.json of an interrupted attempt: its row as interrupt() left it."""
    row = db.attempt(attempt_id)
    if row is None or not adir.is_dir():
        return
    try:
        agent = json.loads((adir / "attempt.json").read_text()).get("agent")
    except (OSError, ValueError):
        agent = None
    write_json({"attempt": dict(row), "figures": None, "agent": agent}, adir / "attempt.json")


def label_results(row: Any, figures: dict[str, Any], adir: Path,
                  candidate: Path | None = None) -> None:
    """Add the optional fields the evaluator's report reads (report/model.py) to the
    attempt's result.json files, and renew their seals. `candidate`: where the
    judged candidate now is, when it was judged elsewhere (another node)."""
    for res in sorted((adir / "evaluation").glob("*/result.json")):
        data = json.loads(res.read_text())
        if candidate is not None and isinstance(data.get("candidate"), dict):
            data["candidate"]["path"] = str(candidate)
            write_result(data, res)  # sealed here: it verifies against the copy here
        if (why := verify(data)) is not None:
            raise RuntimeError(f"{res}: {why}")
        data.update(attempt=row["number"], steps=figures.get("steps"),
                    label=f"{row['agent']}/{row['model']}/{row['prompt_mode']}/{row['regime']}")
        write_result(data, res)  # renews the evaluator's seal


def status(db_path: Path) -> dict[str, Any]:
    """Counts of attempts by state and outcome, per run (for the CLI)."""
    db = Database(db_path)
    try:
        out = {}
        for run in db.runs():
            rows = db.attempts(run["id"])
            by: dict[str, int] = {}
            for r in rows:
                k = r["outcome"] or r["state"]
                by[k] = by.get(k, 0) + 1
            out[run["name"]] = {"attempts": len(rows), **by}
        return out
    finally:
        db.close()


def dump(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=True, default=str)
