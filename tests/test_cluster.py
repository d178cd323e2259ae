"""Scale-out on Ray (platform/cluster.py): a real multi-node Ray cluster on this
machine (ray.cluster_utils.Cluster: a head and worker raylets, each with its own
CPUs and one timing slot), the real mini-swe-agent driven by the scripted model,
a worker node killed mid-attempt and another mid-evaluation; every attempt must
end with exactly one result. Plus the pieces that need no cluster."""

from __future__ import annotations

import importlib.util
import io
import subprocess
import tarfile
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
                               reason="ray not installed (the cluster extra; scripts/setup.sh)")
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
@needs_ray
def test_a_cluster_without_timing_slots_is_refused(ray_cluster: Any, tmp_path: Path) -> None:
    s = spec.load(_spec(tmp_path, 1))
    s.cluster.timing_resource = "no_such_slot"
    with pytest.raises(cl.RunnerError, match="no_such_slot"):
        cl.ClusterRunner(s, ray_cluster.address, tmp_path / "db.sqlite").run()
