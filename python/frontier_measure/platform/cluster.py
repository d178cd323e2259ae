"""Running a spec on a Ray cluster: `frontier-measure run SPEC --cluster ADDRESS`.

Ray (PyPI `ray`, the `cluster` extra) places the work; nothing here schedules.
The head is the process that runs `frontier-measure run`: it alone writes the
run's database, serves the model gateway and keeps the artefacts. An attempt is
two Ray tasks with different resource demands:

    agent stage       {"CPU": agent_cpus}
        on the node Ray picks: a fresh checkout (and the attempt's container)
        made there, the agent's turn (its model traffic through the head's
        gateway), the patch; a RefactorBench task's AST tests run here too
        (they are not timed). Returns the artefacts and the candidate as bytes.
    evaluation stage  {"CPU": eval_cpus, "<timing_resource>": 1}   (performance tasks)
        the gate, on any node with a free timing slot: every node advertises
        how many timed evaluations it can run quietly (one by default), so two
        never overlap on a node while agents run beside them. Returns the gate's
        verdict and the evaluator's output as bytes.

Each stage is a streaming generator: its first item says which node it landed
on (recorded as an event), its second is the result. Ray itself never retries
(max_retries=0), so no stage can run twice behind the head's back; when a node
dies, the head sees a Ray system error and

* mid-attempt: the generation is put back (db.requeue, event `node-lost`) and the
  attempt runs again from scratch, on whichever node Ray picks, in a new
  generation; at most `[cluster] node_retries` times, then the attempt finishes
  with outcome `error`;
* mid-evaluation: the evaluation runs again from the beginning (event
  `evaluation-restarted`), on another node; rounds of two machines are never pooled;
* the head itself dies: Ray ends its tasks; the next `run` resumes from the
  database as without a cluster (attempts left running start over).

Artefacts arrive at the head as tar archives; each is unpacked beside the attempt
directory and moved into place by rename, and the database references an
attempt's artefacts only in the transaction that finishes it, so a partial
artefact is never taken for a finished one.

Nodes need what the head has: this package (same version) with its extras, the
task directories at the same paths (or a shared directory), the agents' tools
(scripts/agents.sh) and, for isolation = "docker", Docker and the image.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import os
import shutil
import socket
import tarfile
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import agents as agents_mod
from . import checkout as co
from . import tasks as tasks_mod
from .gate import run_gate
from .runner import Runner, RunnerError, label_results, write_attempt_record, write_text_atomic
from .spec import Spec

PLACED = "placed"


class NodeLost(Exception):
    """A stage's node (or its worker process) died: a Ray system error."""

    def __init__(self, stage: str, node: str | None, why: str) -> None:
        self.stage, self.node, self.why = stage, node, why
        super().__init__(f"{stage} stage lost on node {node or '?'}: {why}")


# ---------------------------------------------------------------- archives


def pack(root: Path, ignore: Any = None) -> bytes:
    """A directory as a gzipped tar archive, in memory (names relative to root)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=1) as tar:
        for dirpath, dirnames, filenames in os.walk(root):
            here = Path(dirpath)
            if ignore is not None:
                dropped = ignore(dirpath, dirnames + filenames)
                dirnames[:] = [d for d in dirnames if d not in dropped]
                filenames = [f for f in filenames if f not in dropped]
            for name in sorted(dirnames + filenames):
                p = here / name
                tar.add(p, arcname=str(p.relative_to(root)), recursive=False)
    return buf.getvalue()


def unpack(data: bytes, dest: Path) -> Path:
    """Unpack an archive to `dest` whole or not at all: into a partial directory
    beside it, then renamed into place (a `dest` already there is replaced)."""
    partial = dest.with_name(f".{dest.name}.partial-{uuid.uuid4().hex[:8]}")
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            tar.extractall(partial, filter="data")
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(partial, dest)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return dest


def scratch_root() -> Path:
    """Node-local scratch ($FM_SCRATCH, or the system's temporary directory)."""
    return Path(os.environ.get("FM_SCRATCH") or tempfile.gettempdir()) / "frontier-measure-scratch"


def timing_slots(task_path: str | Path, resource: str) -> dict[str, float]:
    """The Ray resources an evaluation of the task holds besides CPUs: one
    timing slot of its node, unless the task's cost is not host time (kernel
    scale: simulated cycles, the same whatever else runs), whose evaluations
    run beside timed ones as the measurement lock lets them on one machine."""
    from ..runners import runner_for
    from ..task import load as load_task

    try:
        host_timed = getattr(runner_for(load_task(task_path)), "HOST_TIMED", True)
    except Exception:  # a broken task: its evaluation reports it, under a slot as before
        host_timed = True
    return {resource: 1} if host_timed else {}


def _placement(stage: str) -> dict[str, Any]:
    import ray

    return {"kind": PLACED, "stage": stage, "node": ray.get_runtime_context().get_node_id(),
            "host": socket.gethostname(), "pid": os.getpid()}


# ---------------------------------------------------------------- on the nodes


def agent_stage(job: dict[str, Any]) -> Any:
    """A Ray task (streaming generator): one attempt generation's agent work."""
    yield _placement("agent")
    yield asyncio.run(_agent_work(job))


async def _agent_work(job: dict[str, Any]) -> dict[str, Any]:
    task = tasks_mod.load(job["task_path"])
    agent = agents_mod.make(job["agent"], job["agent_table"], Path(job["base_dir"]))
    root = scratch_root() / job["label"] / f"a{job['attempt']:05d}-g{job['generation']}"
    await asyncio.to_thread(co.remove_tree, root)
    adir = root / "attempt"
    adir.mkdir(parents=True)
    checkout = await asyncio.to_thread(co.Checkout.create, task.pristine, root / "checkout")
    container: co.Container | None = None
    out: dict[str, Any] = {"figures": {}}
    try:
        if job["isolation"] == "docker":
            container = await co.Container.start(
                job["image"], checkout.path, task.workdir,
                {co.LABEL: job["label"], f"{co.LABEL}.attempt": str(job["attempt"])},
                cpus=job["cpus"], memory_mb=job["memory_mb"])
        model = agents_mod.ModelAccess(**job["model"]) if job["model"] else None
        ctx = agents_mod.AttemptContext(
            task=task, instruction=task.prompt(job["prompt_mode"]), workspace=checkout.path,
            container=container, directory=adir, timeout_s=job["timeout_s"], model=model,
            extra={"image": job["image"]})
        t0 = time.perf_counter()
        try:
            outcome = await asyncio.wait_for(agent.run(ctx), job["timeout_s"] + 120)
        except TimeoutError:
            outcome = agents_mod.AgentOutcome(timed_out=True)
        out["figures"]["agent_s"] = time.perf_counter() - t0
    finally:
        if container is not None:
            await container.remove()
    try:
        if outcome.log:
            write_text_atomic(adir / "agent.log", outcome.log)
        changes = await asyncio.to_thread(checkout.changes)
        write_text_atomic(adir / "patch.diff", changes.patch())
        added, removed = changes.line_counts()
        out["figures"].update(files_changed=changes.files, lines_added=added,
                              lines_removed=removed)
        out["outcome"] = {"exit_code": outcome.exit_code, "timed_out": outcome.timed_out,
                          "error": outcome.error, "steps": outcome.steps,
                          "files": sorted(outcome.files)}
        judge = not outcome.timed_out and not (outcome.error and outcome.exit_code == 0)
        if judge and task.kind == "performance":
            # The candidate travels to whichever node has a free timing slot.
            out["candidate"] = await asyncio.to_thread(pack, checkout.path, co.ignore_tool_files)
        elif judge:
            # AST tests are not timed: they run here, beside the checkout.
            t0 = time.perf_counter()
            gate = await asyncio.to_thread(run_gate, task, checkout.path, adir / "evaluation",
                                           timeout_s=job["gate_timeout_s"])
            out["figures"]["gate_s"] = time.perf_counter() - t0
            out["gate"] = gate.to_dict()
        out["artefacts"] = await asyncio.to_thread(pack, adir)
        return out
    finally:
        await asyncio.to_thread(checkout.close)
        await asyncio.to_thread(co.remove_tree, root)


def evaluation_stage(task_path: str, candidate: bytes, isolation: str | None) -> Any:
    """A Ray task (streaming generator): the gate of a performance task's candidate,
    from the beginning, on this node (under its timing slot)."""
    yield _placement("evaluation")
    yield _evaluate(task_path, candidate, isolation)


def _check_seals(out: Path) -> None:
    """Every result under `out` is checked against its seal before it leaves the node."""
    import json

    from ..results import verify

    for res in sorted(out.glob("*/result.json")):
        if (why := verify(json.loads(res.read_text()))) is not None:
            raise RuntimeError(f"{res.name}: {why}")


def _evaluate(task_path: str, candidate: bytes, isolation: str | None) -> dict[str, Any]:
    task = tasks_mod.load(task_path)
    root = scratch_root() / f"eval-{uuid.uuid4().hex[:12]}"
    root.mkdir(parents=True)
    try:
        judged = unpack(candidate, root / "candidate")
        t0 = time.perf_counter()
        gate = run_gate(task, judged, root / "evaluation", isolation=isolation)
        gate_s = time.perf_counter() - t0
        _check_seals(root / "evaluation")  # this node's seals; the head renews them
        return {"gate": gate.to_dict(), "gate_s": gate_s,
                "evaluation": pack(root / "evaluation") if (root / "evaluation").is_dir()
                else None}
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def follow(stage: str, refs: Any, placed: Any) -> dict[str, Any]:
    """Follow a stage's streaming generator: its placement (passed to `placed`),
    then its result. NodeLost when a node or worker died (a Ray system error);
    RuntimeError when the stage's own code failed."""
    import ray

    node: str | None = None
    try:
        async for ref in refs:
            item = await ref
            if isinstance(item, dict) and item.get("kind") == PLACED:
                node = item["node"]
                placed(item)
                continue
            return dict(item)
    except ray.exceptions.RayTaskError as exc:
        # The stage's own code failed: no node was lost; the platform's error.
        raise RuntimeError(f"{stage} stage: {exc.cause!r}") from None
    except ray.exceptions.RayError as exc:
        raise NodeLost(stage, node, f"{type(exc).__name__}: {str(exc)[:300]}") from None
    raise NodeLost(stage, node, "the stage ended without a result")


# ---------------------------------------------------------------- on the head


class ClusterRunner(Runner):
    """The runner with attempts on a Ray cluster (see the module's docstring)."""

    def __init__(self, spec: Spec, address: str, db_path: Path | None = None,
                 listener: Any = None) -> None:
        super().__init__(spec, db_path, listener)
        self.address = address
        self._ray_started = False

    async def _prepare(self) -> list[str]:
        try:
            import ray
        except ImportError:
            raise RunnerError("--cluster needs Ray: pip install 'frontier-measure[cluster]'") \
                from None
        if not ray.is_initialized():
            ray.init(address=self.address, namespace="frontier-measure", log_to_driver=False,
                     configure_logging=False)
            self._ray_started = True
        self._remote_agent = ray.remote(agent_stage)
        self._remote_eval = ray.remote(evaluation_stage)
        self._node_ip = ray.util.get_node_ip_address()
        await asyncio.to_thread(co.remove_tree, self.run_dir / "scratch")
        return []

    def _check_plan(self, planned: list[dict[str, Any]]) -> None:
        import ray

        res = self.spec.cluster.timing_resource
        if any(p["kind"] == "performance" for p in planned) \
                and ray.cluster_resources().get(res, 0) < 1:
            raise RunnerError(
                f"no node of the cluster at {self.address} advertises '{res}': start each "
                f"node with ray start ... --resources='{{\"{res}\": 1}}'")

    def _gateway_host(self) -> str:
        # Agents on other machines reach the gateway at the head's address.
        return str(self._node_ip)

    def _teardown(self) -> None:
        if self._ray_started:
            import ray

            ray.shutdown()
            self._ray_started = False

    # ------------------------------------------------------------------ one attempt

    async def _attempt(self, attempt_id: int) -> None:
        row = self.db.attempt(attempt_id)
        assert row is not None
        adir = self.run_dir / "attempts" / f"a{attempt_id:05d}"
        started = time.perf_counter()
        retries = self.spec.cluster.node_retries
        lost = 0
        while True:
            await asyncio.to_thread(shutil.rmtree, adir, True)
            adir.mkdir(parents=True)
            gen = self.db.start(attempt_id, str(adir.relative_to(self.run_dir)))
            info = dict(row) | {"generation": gen}
            self.listener("attempt-start", info)
            checks: list[dict[str, Any]] = []
            try:
                figures, checks = await self._attempt_body(row, gen, adir)
            except NodeLost as exc:
                lost += 1
                data = {"stage": exc.stage, "node": exc.node, "why": exc.why, "retry": lost,
                        "retries": retries}
                if lost <= retries:
                    self.db.requeue(attempt_id, gen, "node-lost", data)
                    self.listener("attempt-lost", info | data)
                    continue
                self.db.event(row["run_id"], attempt_id, gen, "node-lost", data)
                figures = {"outcome": "error", "passed": 0,
                           "error": f"{exc} (the attempt's node died {lost} times)"}
            except Exception as exc:  # the platform's own failure: recorded, never a verdict
                figures = {"outcome": "error", "passed": 0,
                           "error": f"{type(exc).__name__}: {exc}"}
            break
        figures["wall_s"] = time.perf_counter() - started
        at = write_attempt_record(self.db, adir, row, gen, figures)
        self.db.finish(attempt_id, gen, figures, checks, finished_at=at)
        self.listener("attempt-done", info | figures)

    async def _stage(self, stage: str, row: Any, gen: int, refs: Any) -> dict[str, Any]:
        """Follow a stage's streaming generator: its placement, then its result."""
        def placed(item: dict[str, Any]) -> None:
            self.db.event(row["run_id"], row["id"], gen, "placed", item)
            self.listener("attempt-placed", dict(row) | {"generation": gen} | item)

        return await follow(stage, refs, placed)

    async def _attempt_body(self, row: Any, gen: int, adir: Path) \
            -> tuple[dict[str, Any], list[dict[str, Any]]]:
        spec = self.spec
        task = self.tasks[row["task"]]
        agent = self.agents[row["agent"]]
        transcript = adir / "transcript.jsonl"
        token: str | None = None
        model: dict[str, Any] | None = None
        if agent.uses_model:
            m = spec.models[row["model"]]
            endpoint = self.endpoints[m.endpoint]
            token = self.gateway.open(row["id"], gen, endpoint, transcript)
            model = {"name": m.model, "base_url": self.gateway.base_url(token),
                     "api_key": token, "api": endpoint.api}
        job = {"task_path": str(task.path), "agent": row["agent"],
               "agent_table": spec.agents[row["agent"]], "base_dir": str(spec.base_dir),
               "label": self.label, "attempt": row["id"], "generation": gen,
               "isolation": spec.isolation, "image": spec.image, "cpus": spec.cpus,
               "memory_mb": spec.memory_mb, "prompt_mode": row["prompt_mode"],
               "timeout_s": spec.timeout_s, "gate_timeout_s": spec.gate_timeout_s, "model": model}
        try:
            refs = self._remote_agent.options(num_cpus=spec.cluster.agent_cpus, max_retries=0,
                                              name=f"agent a{row['id']}g{gen}").remote(job)
            res = await self._stage("agent", row, gen, refs)
        finally:
            if token is not None:
                self.gateway.close_route(token)
        figures: dict[str, Any] = dict(res["figures"])
        outcome = res["outcome"]
        await asyncio.to_thread(_move_in, res["artefacts"], adir)
        tel = self.db.telemetry(row["id"], gen)
        figures.update(requests=tel["requests"], tokens_in=tel["tokens_in"],
                       tokens_out=tel["tokens_out"], tokens_cached=tel["tokens_cached"],
                       cost=tel["cost"], steps=tel["steps"] if agent.uses_model else outcome["steps"])
        if transcript.exists():
            with open(transcript, "rb") as src, gzip.open(adir / ".transcript.partial", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(adir / ".transcript.partial", adir / "transcript.jsonl.gz")
            transcript.unlink()
        checks: list[dict[str, Any]] = []
        gate: dict[str, Any] | None = res.get("gate")
        candidate: Path | None = None
        if outcome["timed_out"]:
            figures.update(outcome="timeout", passed=0, passed_plus=0,
                           error=f"the agent did not finish in {spec.timeout_s:g} s")
        elif outcome["error"] and outcome["exit_code"] == 0:
            figures.update(outcome="agent-error", passed=0, passed_plus=0,
                           error=outcome["error"])
        else:
            if gate is None:  # a performance task: the timed evaluation, in a slot of its own
                gate, gate_s = await self._evaluation(row, gen, task.path, res["candidate"], adir)
                figures["gate_s"] = gate_s
                candidate = adir / "candidate"
                await asyncio.to_thread(unpack, res["candidate"], candidate)
            from ..results import write_json

            write_json(gate, adir / "gate.json")
            await asyncio.to_thread(label_results, row, figures, adir, candidate)
            checks = list(gate["checks"])
            plus = gate.get("passed_plus")
            figures.update(passed=int(gate["passed"]), speedup=gate["speedup"],
                           passed_plus=None if plus is None else int(plus),
                           codebleu=gate["codebleu"],
                           outcome="error" if gate["error"] else
                           "passed" if gate["passed"] else "failed",
                           error=gate["error"] or outcome["error"])
        from ..results import write_json

        write_json({"attempt": dict(row) | {"generation": gen}, "figures": figures,
                    "agent": {k: outcome[k] for k in ("exit_code", "timed_out", "error", "files")}},
                   adir / "attempt.json")
        return figures, checks

    async def _evaluation(self, row: Any, gen: int, task_path: Path, candidate: bytes,
                          adir: Path) -> tuple[dict[str, Any], float]:
        """The gate of a performance task on a node with a free timing slot; run
        again from the beginning on another node if its node dies."""
        import ray

        c = self.spec.cluster
        ref = ray.put(candidate)
        restarts = 0
        while True:
            refs = self._remote_eval.options(
                num_cpus=c.eval_cpus, resources=timing_slots(task_path, c.timing_resource),
                max_retries=0,
                name=f"evaluation a{row['id']}g{gen}").remote(str(task_path), ref,
                                                            self.spec.gate_isolation)
            try:
                res = await self._stage("evaluation", row, gen, refs)
                break
            except NodeLost as exc:
                restarts += 1
                data = {"node": exc.node, "why": exc.why, "restart": restarts,
                        "retries": c.node_retries}
                self.db.event(row["run_id"], row["id"], gen, "evaluation-restarted"
                              if restarts <= c.node_retries else "evaluation-lost", data)
                if restarts > c.node_retries:
                    raise RuntimeError(f"{exc} (the evaluation's node died {restarts} times)") \
                        from None
                self.listener("evaluation-lost", dict(row) | {"generation": gen} | data)
        if res.get("evaluation") is not None:
            await asyncio.to_thread(unpack, res["evaluation"], adir / "evaluation")
        return dict(res["gate"]), float(res["gate_s"])


def _move_in(archive: bytes, adir: Path, before: Callable[[Path], None] | None = None) -> None:
    """A node's artefacts (the agent stage's, or an evaluation's output) into
    `adir`: unpacked aside, `before` given the staged copy, then each top-level
    entry renamed into place."""
    staged = unpack(archive, adir / f".from-node-{uuid.uuid4().hex[:8]}")
    try:
        if before is not None:
            before(staged)
        for entry in sorted(staged.iterdir()):
            target = adir / entry.name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            os.replace(entry, target)
    finally:
        shutil.rmtree(staged, ignore_errors=True)


# ---------------------------------------------------------------- eval over many candidates


def candidate_stage(task_path: str, candidate: bytes | None, isolation: str | None,
                    attempt: dict[str, Any]) -> Any:
    """A Ray task (streaming generator): `frontier-measure eval` of one candidate
    (None: the task's oracle), from the beginning, on this node (under its
    timing slot). Returns the result and its output directory as an archive."""
    yield _placement("evaluation")
    yield _evaluate_candidate(task_path, candidate, isolation, attempt)


def _evaluate_candidate(task_path: str, candidate: bytes | None, isolation: str | None,
                        attempt: dict[str, Any]) -> dict[str, Any]:
    from ..evaluate import evaluate

    root = scratch_root() / f"eval-{uuid.uuid4().hex[:12]}"
    root.mkdir(parents=True)
    try:
        judged = unpack(candidate, root / "candidate") if candidate is not None else None
        result = evaluate(task_path, judged, out=root / "out", isolation=isolation,
                          attempt=attempt)
        _check_seals(root / "out")
        return {"result": result, "out": pack(root / "out")}
    finally:
        shutil.rmtree(root, ignore_errors=True)


class EvalJob:
    """One evaluation of `eval --cluster`: a task, a candidate (None: the
    task's oracle) and the directory below OUT its results go to."""

    def __init__(self, task: Path, candidate: Path | None, name: str) -> None:
        self.task, self.candidate, self.name = task, candidate, name


def evaluate_on_cluster(jobs: list[EvalJob], address: str, out: Path, *,
                        isolation: str | None = None, attempt: dict[str, Any] | None = None,
                        timing_resource: str = "frontier_timing", eval_cpus: float = 1.0,
                        node_retries: int = 2, listener: Any = None) -> list[dict[str, Any]]:
    """Every job as a Ray task holding one timing slot of its node, so no two
    timed evaluations overlap on a node; a job whose node dies runs again from
    the beginning on another (at most `node_retries` times; rounds of two
    machines are never pooled). Results go to OUT/<job name>/<scale>-<task>/,
    unpacked whole or not at all, their seals renewed here. One result per job,
    in the order given ({"task", "error"} for a job that could not be done)."""
    try:
        import ray
    except ImportError:
        raise RunnerError("--cluster needs Ray: pip install 'frontier-measure[cluster]'") \
            from None
    say = listener or (lambda event, info: None)
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, namespace="frontier-measure", log_to_driver=False,
                 configure_logging=False)
    try:
        if ray.cluster_resources().get(timing_resource, 0) < 1:
            raise RunnerError(
                f"no node of the cluster at {address} advertises '{timing_resource}': start "
                f"each node with ray start ... --resources='{{\"{timing_resource}\": 1}}'")
        remote = ray.remote(candidate_stage)

        async def one(job: EvalJob) -> dict[str, Any]:
            data = ray.put(pack(job.candidate) if job.candidate is not None else None)
            restarts = 0
            while True:
                refs = remote.options(num_cpus=eval_cpus,
                                      resources=timing_slots(job.task, timing_resource),
                                      max_retries=0, name=f"eval {job.name}").remote(
                    str(job.task), data, isolation, attempt or {})
                try:
                    res = await follow("evaluation", refs,
                                       lambda item: say("placed", {"job": job.name} | item))
                    break
                except NodeLost as exc:
                    restarts += 1
                    say("evaluation-restarted", {"job": job.name, "node": exc.node,
                                                 "why": exc.why, "restart": restarts})
                    if restarts > node_retries:
                        raise RuntimeError(f"{exc} (its node died {restarts} times)") from None
            dest = out / job.name
            await asyncio.to_thread(_land, res["out"], dest, job.candidate)
            say("done", {"job": job.name})
            return dict(res["result"])

        async def all_jobs() -> list[dict[str, Any]]:
            async def guarded(job: EvalJob) -> dict[str, Any]:
                try:
                    return await one(job)
                except Exception as exc:  # one failed job must not hide the others
                    say("failed", {"job": job.name, "why": str(exc)})
                    return {"task": str(job.task), "error": str(exc)}
            return list(await asyncio.gather(*(guarded(j) for j in jobs)))

        return asyncio.run(all_jobs())
    finally:
        if started:
            ray.shutdown()


def _land(archive: bytes, dest: Path, candidate: Path | None) -> None:
    """A node's output directory into `dest`, each result's seal renewed here
    (naming the candidate's files here, which it judged a copy of) before
    its <scale>-<task> directory is renamed into place."""
    import json

    from ..results import verify, write_result

    def reseal(staged: Path) -> None:
        for res in sorted(staged.glob("*/result.json")):
            data = json.loads(res.read_text())
            if candidate is not None and isinstance(data.get("candidate"), dict):
                data["candidate"]["path"] = str(candidate.resolve())
            write_result(data, res)
            if (why := verify(data)) is not None:
                raise RuntimeError(f"{res.parent.name}: {why}")

    dest.mkdir(parents=True, exist_ok=True)
    _move_in(archive, dest, before=reseal)
