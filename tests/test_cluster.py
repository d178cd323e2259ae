"""Scale-out on Ray (platform/cluster.py): a real multi-node Ray cluster on this
machine (ray.cluster_utils.Cluster: a head and worker raylets, each with its own
CPUs and one timing slot), the real mini-swe-agent driven by the scripted model,
a worker node killed mid-attempt and another mid-evaluation; every attempt must
end with exactly one result. Plus the pieces that need no cluster."""

from __future__ import annotations

import importlib.util
import io
import sqlite3
import subprocess
import tarfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from frontier_measure.platform import cluster as cl
from frontier_measure.platform import spec
from frontier_measure.platform.db import Database

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "agents"
MINI = ROOT / ".agents" / "bin" / "mini"
TIMING = "frontier_timing"

needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason="ray not installed (scripts/setup.sh --with cluster)")
needs_mini = pytest.mark.skipif(not MINI.exists(),
                                reason="mini-swe-agent not installed (scripts/agents.sh)")


# ---------------------------------------------------------------- without a cluster


def test_pack_unpack_round_trip_and_whole_or_nothing(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "pkg" / "__pycache__").mkdir(parents=True)
    (src / "pkg" / "mod.py").write_text("x = 1\n")
    (src / "pkg" / "__pycache__" / "mod.pyc").write_bytes(b"\0")
    (src / "link").symlink_to("pkg/mod.py")
    data = cl.pack(src, lambda d, names: {n for n in names if n == "__pycache__"})
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "stale").write_text("from an older generation")
    cl.unpack(data, dest)
    assert (dest / "pkg" / "mod.py").read_text() == "x = 1\n"
    assert (dest / "link").is_symlink() and not (dest / "pkg" / "__pycache__").exists()
    assert not (dest / "stale").exists()  # replaced whole
    # A truncated archive leaves nothing behind: neither dest nor a partial directory.
    with pytest.raises((tarfile.TarError, EOFError, OSError)):
        cl.unpack(data[: len(data) // 2], tmp_path / "broken")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest", "src"]
    # Names that climb out of the destination are refused.
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("../escape")
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(tarfile.TarError):
        cl.unpack(buf.getvalue(), tmp_path / "evil")
    assert not (tmp_path / "escape").exists()


def test_requeue_gives_a_new_generation_and_one_result(tmp_path: Path) -> None:
    db = Database(tmp_path / "s.sqlite")
    try:
        run = db.run_id("r", "spec.toml", "")
        db.ensure_attempts(run, [{"key": "k", "task": "t", "task_path": "/t", "kind": "performance",
                                  "agent": "a", "model": "m", "prompt_mode": "base",
                                  "regime": "S1", "number": 1}])
        aid = int(db.attempts(run)[0]["id"])
        g1 = db.start(aid, "attempts/a1")
        db.requeue(aid, g1, "node-lost", {"node": "n1", "retry": 1})
        with pytest.raises(RuntimeError):  # the lost generation can no longer finish
            db.finish(aid, g1, {"outcome": "passed"})
        g2 = db.start(aid, "attempts/a1")
        db.finish(aid, g2, {"outcome": "passed", "passed": 1})
        with pytest.raises(RuntimeError):
            db.finish(aid, g2, {"outcome": "failed"})
        row = db.attempt(aid)
        assert row is not None and (row["state"], row["generation"], row["outcome"]) == \
            ("finished", 2, "passed")
        kinds = [r["kind"] for r in db.rows("SELECT kind FROM events WHERE attempt_id = ?", (aid,))]
        assert kinds == ["started", "node-lost", "started", "finished"]
    finally:
        db.close()


def test_cluster_table_of_the_spec(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    base = '[tasks]\npaths = ["."]\n[agents.nop]\n'
    f.write_text(base)
    s = spec.load(f)
    assert (s.cluster.agent_cpus, s.cluster.eval_cpus, s.cluster.timing_resource,
            s.cluster.node_retries) == (1.0, 1.0, TIMING, 2)
    f.write_text(base + "[cluster]\nagent_cpus = 0.5\nnode_retries = -1\nslots = 2\n")
    with pytest.raises(spec.SpecError) as err:
        spec.load(f)
    assert err.value.problems == ["[cluster].node_retries: must not be negative",
                                  "[cluster].slots: unknown key"]


# ---------------------------------------------------------------- a real cluster


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A head without CPUs (it only drives) and three worker raylets with two
    CPUs and one timing slot each: one cluster for the module (Ray's start-up is
    the expensive part). The nodes' scratch is under the test's directory."""
    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray not installed")
    from ray.cluster_utils import Cluster

    mp = pytest.MonkeyPatch()
    scratch = tmp_path_factory.mktemp("nodes")
    mp.setenv("FM_SCRATCH", str(scratch))
    c = Cluster(initialize_head=True,
                head_node_args={"num_cpus": 0, "include_dashboard": False,
                                "object_store_memory": 100 << 20})
    for _ in range(3):
        c.add_node(num_cpus=2, resources={TIMING: 1}, object_store_memory=100 << 20)
    c.wait_for_nodes()
    c.fm_scratch = scratch  # type: ignore[attr-defined]
    try:
        yield c
    finally:
        c.shutdown()
        mp.undo()
        # Checkouts of attempts whose node was killed are still mounted (as root:
        # overlays); a machine that really died takes them along.
        for line in Path("/proc/mounts").read_text().splitlines():
            where = line.split()[1]
            if where.startswith(str(scratch)):
                subprocess.run(["umount", "-l", where], check=False)


def _unmount_below(root: Path) -> None:
    for line in Path("/proc/mounts").read_text().splitlines():
        where = line.split()[1]
        if where.startswith(str(root)):
            subprocess.run(["umount", "-l", where], check=False)


@pytest.fixture(autouse=True)
def _killed_nodes_checkouts(request: pytest.FixtureRequest) -> Any:
    """Checkouts of attempts whose node was killed stay mounted: a machine that
    really died takes them along, but these nodes share this one. Unmounted
    after each test, before the suite's check that a test leaves no mount."""
    yield
    cluster = request.node.funcargs.get("ray_cluster")
    if cluster is not None:
        _unmount_below(cluster.fm_scratch)


def _spec(tmp_path: Path, attempts: int) -> Path:
    f = tmp_path / "cluster.toml"
    f.write_text(f"""
[run]
name = "cluster"
attempts = {attempts}
concurrency = {attempts}
timeout_s = 300
isolation = "copy"
[tasks]
paths = ["{ROOT / 'tasks' / 'module' / 'dedupe'}"]
[agents.mini]
template = "mini-swe-agent"
[models.fix]
endpoint = "scripted"
[endpoints.scripted]
kind = "scripted"
scripts = "{EXAMPLES / 'scripted-model'}"
[cluster]
agent_cpus = 1
eval_cpus = 1
node_retries = 2
""")
    return f


@pytest.mark.slow
@pytest.mark.timeout(900)
@needs_ray
@needs_mini
def test_spec_on_a_cluster_survives_a_node_killed_mid_attempt_and_mid_evaluation(
        ray_cluster: Any, tmp_path: Path) -> None:
    nodes = {n.node_id: n for n in ray_cluster.worker_nodes}
    killed: dict[str, str] = {}  # stage -> node id
    lock = threading.Lock()

    def kill(stage: str, node_id: str, after_s: float) -> None:
        time.sleep(after_s)
        ray_cluster.remove_node(nodes[node_id], allow_graceful=False)

    def listener(kind: str, d: dict[str, Any]) -> None:
        # The first agent stage placed, a few seconds in (the agent at work), and the
        # first evaluation on another node, a second in (the evaluator timing).
        if kind != "attempt-placed":
            return
        with lock:
            if d["stage"] in killed or d["node"] in killed.values():
                return
            if d["stage"] == "evaluation" and "agent" not in killed:
                return
            killed[d["stage"]] = d["node"]
        threading.Thread(target=kill, args=(d["stage"], d["node"],
                                            5.0 if d["stage"] == "agent" else 4.0)).start()

    db = tmp_path / "run" / "state.sqlite"
    summary = cl.ClusterRunner(spec.load(_spec(tmp_path, 4)), ray_cluster.address, db,
                               listener=listener).run()
    assert set(killed) == {"agent", "evaluation"}
    assert summary.planned == 4 and len(summary.ran) == 4
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    try:
        rows = c.execute("SELECT * FROM attempts ORDER BY id").fetchall()
        events = c.execute("SELECT * FROM events WHERE attempt_id IS NOT NULL ORDER BY id").fetchall()
    finally:
        c.close()
    # Exactly one result per attempt, every one of them a verdict: the scripted fix is
    # compliant and right on every item; its speedup clears the threshold unless this
    # busy machine (killed nodes' orphans included) makes the interval too wide to say.
    assert all(r["state"] == "finished" and r["outcome"] in ("passed", "failed") and r["error"]
               is None for r in rows), [dict(r) for r in rows]
    with sqlite3.connect(db) as c:
        gate = c.execute("SELECT name, passed FROM checks WHERE name IN ('compliance', "
                         "'functional')").fetchall()
    assert len(gate) == 8 and all(p == 1 for _, p in gate)
    finished = [e["attempt_id"] for e in events if e["kind"] == "finished"]
    assert sorted(finished) == [r["id"] for r in rows]
    import json

    def of(kind: str) -> list[sqlite3.Row]:
        return [e for e in events if e["kind"] == kind]

    # Every attempt a dead node was running ran again from scratch, in a new
    # generation, on a node still alive; the count is bounded and recorded.
    lost = of("node-lost")
    assert lost and any(json.loads(e["data"])["node"] == killed["agent"] for e in lost)
    for r in rows:
        mine = [json.loads(e["data"]) for e in lost if e["attempt_id"] == r["id"]]
        assert r["generation"] == 1 + len(mine) <= 1 + 2
        assert [m["retry"] for m in mine] == list(range(1, len(mine) + 1))
        for g, m in enumerate(mine, start=2):
            assert m["node"] in killed.values()
            later = [json.loads(e["data"])["node"] for e in of("placed")
                     if e["attempt_id"] == r["id"] and e["generation"] == g]
            assert later and m["node"] not in later
    # The evaluation whose node died started over, from the beginning, on another
    # node, in the same generation (the agent's work is kept).
    restarted = of("evaluation-restarted")
    assert len(restarted) == 1 and json.loads(restarted[0]["data"])["node"] == killed["evaluation"]
    rid, rgen = restarted[0]["attempt_id"], restarted[0]["generation"]
    evals = [json.loads(e["data"])["node"] for e in of("placed") if e["attempt_id"] == rid
             and json.loads(e["data"])["stage"] == "evaluation"]
    assert len(evals) == 2 and evals[0] == killed["evaluation"] != evals[1]
    assert next(r for r in rows if r["id"] == rid)["generation"] == rgen
    # The artefacts are complete and alone: one result.json each, nothing partial.
    run_dir = db.parent
    for r in rows:
        adir = run_dir / r["dir"]
        assert (adir / "attempt.json").is_file() and (adir / "gate.json").is_file()
        assert len(list((adir / "evaluation").glob("*/result.json"))) == 1
        assert (adir / "patch.diff").read_text() and (adir / "transcript.jsonl.gz").is_file()
        assert not [p for p in adir.rglob("*") if "partial" in p.name or p.name == ".from-node"]
        assert r["speedup"] > 1 and r["steps"] == 4


@pytest.mark.slow
@pytest.mark.full  # 70 s; CI kills worker nodes in the spec test above
@pytest.mark.timeout(600)
@needs_ray
@needs_mini
def test_a_head_killed_mid_run_resumes_from_the_database(ray_cluster: Any, tmp_path: Path) -> None:
    import json
    import os
    import signal
    import sys

    f = _spec(tmp_path, 2)
    f.write_text(f.read_text().replace("concurrency = 2", "concurrency = 1"))
    db = tmp_path / "run" / "state.sqlite"
    head = subprocess.Popen([sys.executable, "-m", "frontier_measure", "run", str(f), "--db",
                             str(db), "--quiet", "--cluster", ray_cluster.address],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            assert head.poll() is None, "the head ended before it could be killed"
            if db.exists():
                c = sqlite3.connect(db)
                try:
                    placed = c.execute("SELECT COUNT(*) FROM events WHERE kind = 'placed'"
                                       ).fetchone()[0]
                    reqs = c.execute("SELECT COUNT(*) FROM requests").fetchone()[0]
                except sqlite3.OperationalError:
                    placed = reqs = 0
                finally:
                    c.close()
                if placed and reqs:  # the first agent is at work on a node
                    break
            time.sleep(0.3)
        else:
            pytest.fail("no attempt was placed")
        os.kill(head.pid, signal.SIGKILL)
        head.wait()
    finally:
        if head.poll() is None:
            head.kill()
    summary = cl.ClusterRunner(spec.load(f), ray_cluster.address, db).run()
    assert summary.recovered == [1] and summary.ran == [1, 2]
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    try:
        rows = c.execute("SELECT * FROM attempts ORDER BY id").fetchall()
        kinds = [e["kind"] for e in c.execute("SELECT kind FROM events WHERE attempt_id = 1 "
                                              "ORDER BY id")]
        gens = {g for (g,) in c.execute("SELECT DISTINCT generation FROM requests "
                                         "WHERE attempt_id = 1")}
    finally:
        c.close()
    assert [(r["state"], r["generation"], r["error"]) for r in rows] == [
        ("finished", 2, None), ("finished", 1, None)]
    assert all(r["outcome"] in ("passed", "failed") for r in rows)
    assert kinds == ["started", "placed", "interrupted", "started", "placed", "placed",
                     "finished"]
    assert gens == {1, 2}
    adir = db.parent / rows[0]["dir"]
    assert json.loads((adir / "attempt.json").read_text())["attempt"]["generation"] == 2


@pytest.mark.slow
@needs_ray
def test_a_cluster_without_timing_slots_is_refused(ray_cluster: Any, tmp_path: Path) -> None:
    s = spec.load(_spec(tmp_path, 1))
    s.cluster.timing_resource = "no_such_slot"
    with pytest.raises(cl.RunnerError, match="no_such_slot"):
        cl.ClusterRunner(s, ray_cluster.address, tmp_path / "db.sqlite").run()


# ---------------------------------------------------------------- eval over many candidates


def _quick_dedupe(tmp_path: Path) -> Path:
    from eval_support import quick_task

    return quick_task(tmp_path, "module", "dedupe")


@pytest.mark.slow
@pytest.mark.full  # 30 s; CI runs eval --cluster (below) and a node killed mid-evaluation (above)
@pytest.mark.timeout(900)
@needs_ray
def test_eval_of_many_candidates_on_a_cluster_with_a_node_killed_mid_evaluation(
        ray_cluster: Any, tmp_path: Path) -> None:
    import json

    from frontier_measure.results import verify

    # Fresh nodes: earlier tests of this module killed some.
    for _ in range(2):
        ray_cluster.add_node(num_cpus=2, resources={TIMING: 1}, object_store_memory=100 << 20)
    ray_cluster.wait_for_nodes()
    nodes = {n.node_id: n for n in ray_cluster.worker_nodes}
    task = _quick_dedupe(tmp_path)
    wrong = ROOT / "tests" / "candidates" / "module" / "wrong_value"
    jobs = [cl.EvalJob(task, task / "solution" / "workspace", "oracle"),
            cl.EvalJob(task, task / "environment" / "workspace", "reference"),
            cl.EvalJob(task, wrong, "wrong_value")]
    events: list[tuple[str, dict[str, Any]]] = []
    killed: list[str] = []

    def listener(event: str, info: dict[str, Any]) -> None:
        events.append((event, info))
        if event == "placed" and info["job"] == "oracle" and not killed:
            killed.append(info["node"])  # the oracle's first node dies while it is timed
            threading.Timer(3.0, ray_cluster.remove_node,
                            args=(nodes[info["node"]],), kwargs={"allow_graceful": False}).start()

    out = tmp_path / "out"
    rows = cl.evaluate_on_cluster(jobs, ray_cluster.address, out, listener=listener,
                                  node_retries=2)
    assert killed and any(e == "evaluation-restarted" and i["job"] == "oracle"
                          for e, i in events), events
    placed = [i["node"] for e, i in events if e == "placed" and i["job"] == "oracle"]
    assert placed[0] == killed[0] and placed[-1] != killed[0]  # restarted elsewhere
    assert [bool(r.get("strict_success")) or r["failure"]["stage"] for r in rows] == [
        rows[0].get("strict_success") or rows[0]["failure"]["stage"], "performance",
        "functional"]
    # The oracle is compliant and right on every item (its speed on this busy
    # machine is not under test); the reference against itself is no success.
    assert rows[0]["functional"]["pass_rate"] == 1 and rows[1]["functional"]["pass_rate"] == 1
    # Exactly one result per job, each in its own directory, sealed here.
    for job in jobs:
        found = sorted((out / job.name).glob("*/result.json"))
        assert len(found) == 1, found
        data = json.loads(found[0].read_text())
        assert verify(data) is None
        assert data["candidate"]["path"] == str(job.candidate.resolve())
    assert not list(out.rglob("*.partial*")) and not list(out.rglob(".from-node*"))


@pytest.mark.slow
@needs_ray
def test_eval_cli_on_a_cluster(ray_cluster: Any, tmp_path: Path) -> None:
    import sys

    task = _quick_dedupe(tmp_path)
    wrong = ROOT / "tests" / "candidates" / "module" / "wrong_value"
    r = subprocess.run([sys.executable, "-m", "frontier_measure", "eval", str(task),
                        "--candidate", str(wrong), "--candidate", str(wrong),
                        "--out", str(tmp_path / "out"), "--cluster", ray_cluster.address],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 1, r.stderr  # done; neither candidate is a strict success
    assert "wrong_value-2" in r.stdout and "functional" in r.stdout
    for name in ("wrong_value", "wrong_value-2"):
        assert len(list((tmp_path / "out" / name).glob("*/result.json"))) == 1
    bad = subprocess.run([sys.executable, "-m", "frontier_measure", "eval", str(task),
                          "--cluster", ray_cluster.address, "--reward", str(tmp_path / "r")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--reward" in bad.stderr


def test_kernel_evaluations_hold_no_timing_slot() -> None:
    # Simulated cycles do not depend on what else a node runs.
    assert cl.timing_slots(ROOT / "tasks" / "kernel" / "histogram", "frontier_timing") == {}
    assert cl.timing_slots(ROOT / "tasks" / "module" / "dedupe", "frontier_timing") == \
        {"frontier_timing": 1}
