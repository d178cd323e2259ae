"""Throughput of `run --cluster` against the number of Ray nodes, with the
scripted model (so the figure measures the platform, not a model), and the
A/A false-positive rate of evaluations run through the cluster against local
ones.

Each configuration starts a fresh cluster on this machine (ray.cluster_utils:
a head without CPUs and N worker raylets with --cpus CPUs and one timing slot
each), runs the same spec (the real mini-swe-agent, scripted model `fix`,
--attempts attempts of tasks/module/dedupe, isolation "copy") and reports
attempts per minute. All raylets share this machine's cores (and its
machine-wide measurement lock), so past the core count more nodes cannot help:
the figure is the platform's overhead and parallelism, not a real cluster's.

    .venv/bin/python bench/ray_scaling.py --nodes 1,2,3 --attempts 6
    .venv/bin/python bench/ray_scaling.py --nodes 2 --aa 20   # + A/A, cluster vs local
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from frontier_measure.display import table
from frontier_measure.evaluate import evaluate
from frontier_measure.platform import spec
from frontier_measure.platform.cluster import ClusterRunner

ROOT = Path(__file__).resolve().parents[1]
TASK = ROOT / "tasks" / "module" / "dedupe"
SCRIPTS = ROOT / "examples" / "agents" / "scripted-model"
TIMING = "frontier_timing"


def spec_file(tmp: Path, name: str, attempts: int, agent: str, concurrency: int) -> Path:
    agent_tbl = ('[agents.mini]\ntemplate = "mini-swe-agent"\n[models.fix]\nendpoint = "scripted"\n'
                 f'[endpoints.scripted]\nkind = "scripted"\nscripts = "{SCRIPTS}"\n'
                 if agent == "mini" else "[agents.nop]\n")
    f = tmp / f"{name}.toml"
    f.write_text(f'[run]\nname = "{name}"\nattempts = {attempts}\nconcurrency = {concurrency}\n'
                 f'timeout_s = 600\nisolation = "copy"\n[tasks]\npaths = ["{TASK}"]\n'
                 + agent_tbl)
    return f


def cluster(nodes: int, cpus: int) -> Any:
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False,
                                                       "object_store_memory": 100 << 20})
    for _ in range(nodes):
        c.add_node(num_cpus=cpus, resources={TIMING: 1}, object_store_memory=100 << 20)
    c.wait_for_nodes()
    return c


def verdicts(run_dir: Path) -> list[list[str]]:
    """Per attempt, the verdicts of its timing inputs."""
    out = []
    for res in sorted(run_dir.glob("attempts/*/evaluation/*/result.json")):
        perf = json.loads(res.read_text()).get("performance") or {}
        out.append([i["verdict"] for i in perf.get("inputs", [])])
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", default="1,2,3", help="node counts, comma-separated")
    ap.add_argument("--attempts", type=int, default=6)
    ap.add_argument("--cpus", type=int, default=1, help="Ray CPUs of each worker node")
    ap.add_argument("--aa", type=int, default=0,
                    help="A/A trials (the nop agent: candidate = reference) through the "
                         "cluster of the last node count, and as many local evaluations")
    args = ap.parse_args()
    rows = []
    base = None
    last = None
    with tempfile.TemporaryDirectory() as tmpd:
        tmp = Path(tmpd)
        counts = [int(n) for n in args.nodes.split(",")]
        for n in counts:
            c = cluster(n, args.cpus)
            try:
                name = f"scale{n}"
                s = spec.load(spec_file(tmp, name, args.attempts, "mini", args.attempts))
                t0 = time.perf_counter()
                summary = ClusterRunner(s, c.address, tmp / name / "state.sqlite").run()
                wall = time.perf_counter() - t0
                per_min = len(summary.ran) / wall * 60
                base = base or per_min
                rows.append([str(n), str(len(summary.ran)), f"{wall:.0f}",
                             f"{per_min:.2f}", f"{per_min / base:.2f}x"])
                print(f"{n} node(s): {len(summary.ran)} attempts in {wall:.0f} s", flush=True)
                if args.aa and n == counts[-1]:
                    s = spec.load(spec_file(tmp, "aa", args.aa, "nop", args.aa))
                    ClusterRunner(s, c.address, tmp / "aa" / "state.sqlite").run()
                    last = verdicts(tmp / "aa")
            finally:
                c.shutdown()
        print(table(["nodes", "attempts", "wall s", "attempts/min", "vs 1 node"], rows))
        if args.aa:
            local = []
            cand = tmp / "same"
            shutil.copytree(TASK / "environment" / "workspace", cand)
            for k in range(args.aa):
                res = evaluate(TASK, cand, out=tmp / f"local-aa-{k}")
                local.append([i["verdict"] for i in res["performance"]["inputs"]])
            aa_rows = []
            for where, vs in (("cluster", last or []), ("local", local)):
                inputs = [v for t in vs for v in t]
                wrong = sum(v != "indistinguishable" for v in inputs)
                aa_rows.append([where, str(len(vs)), f"{wrong}/{len(inputs)}",
                                f"{wrong / max(1, len(inputs)):.1%}"])
            print(table(["A/A", "trials", "inputs not indistinguishable", "rate"], aa_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
