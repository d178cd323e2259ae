"""A synthetic run database, for the dashboard's benchmark and tests.

Every row is written through the platform's own Database API (plan, start,
gateway requests, finish with the gate's checks), so the database has exactly
the shape a real run leaves, only without agents: N attempts over the bundled
tasks, most finished with a mix of outcomes, some running, the rest pending.
Deterministic for a given seed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ..platform.db import Database, now

TASKS = ("module/dedupe", "module/csvstats", "module/intervals", "module/rolling",
         "module/wordfreq", "package/graphs", "package/ledger", "package/textindex")
AGENTS = (("mini", ("fix", "wrong-fix", "give-up")), ("nop", ("-",)))
MODES = ("descriptive", "base", "lazy")
OUTCOMES = (("passed", 0.45), ("failed", 0.40), ("timeout", 0.07), ("agent-error", 0.04),
            ("error", 0.04))


def plan(n: int, tasks_root: Path) -> list[dict[str, Any]]:
    """n attempts, cycling through tasks x agents/models x modes x numbers."""
    out: list[dict[str, Any]] = []
    number = 0
    while len(out) < n:
        number += 1
        for task in TASKS:
            for agent, models in AGENTS:
                for model in models:
                    for mode in MODES:
                        if len(out) == n:
                            return out
                        name = f"frontier-measure/{task.split('/')[1]}"
                        out.append({"key": "|".join([name, agent, model, mode, "S1", str(number)]),
                                    "task": name, "task_path": str(tasks_root / task),
                                    "kind": "performance", "scale": task.split("/")[0],
                                    "agent": agent, "model": model, "prompt_mode": mode,
                                    "regime": "S1", "number": number})
    return out


def _outcome(r: float) -> str:
    """The outcome a uniform draw r in [0, 1) falls on, by the shares of OUTCOMES."""
    for outcome, share in OUTCOMES:
        r -= share
        if r < 0:
            return outcome
    return OUTCOMES[-1][0]


def request(attempt_id: int, generation: int, step: int, rng: random.Random) -> dict[str, Any]:
    tin = rng.randint(800, 6000)
    return {"attempt_id": attempt_id, "generation": generation, "at": now(), "api": "openai",
            "path": "/v1/chat/completions", "model": "fix", "status": 200,
            "latency_s": rng.uniform(0.2, 3.0), "tokens_in": tin, "tokens_out": rng.randint(50, 900),
            "tokens_cached": tin // 2, "tokens_cache_write": 0, "cost": tin * 2e-6,
            "usage_source": "api", "stream": 0, "step": 1, "error": None}


def finish(db: Database, attempt_id: int, generation: int, outcome: str,
           rng: random.Random) -> None:
    tel = db.telemetry(attempt_id, generation)
    passed = outcome == "passed"
    figures: dict[str, Any] = {
        "outcome": outcome, "passed": int(passed),
        # gate+ fails one passed attempt in five (no draw: the other figures stay as they were)
        "passed_plus": int(passed and attempt_id % 5 != 0), "wall_s": rng.uniform(20, 400),
        "agent_s": rng.uniform(10, 300), "gate_s": rng.uniform(1, 30), **tel,
        "files_changed": rng.randint(1, 3) if outcome != "agent-error" else 0,
        "lines_added": rng.randint(0, 120), "lines_removed": rng.randint(0, 80),
        "speedup": rng.uniform(2, 8) if passed else rng.uniform(0.8, 1.3),
        "error": None if outcome in ("passed", "failed") else f"synthetic {outcome}"}
    checks = []
    if outcome in ("passed", "failed"):
        functional = passed or rng.random() < 0.5
        checks = [{"name": "compliance", "passed": True, "output": "0 finding(s)"},
                  {"name": "functional", "passed": functional, "output": "synthetic"},
                  {"name": "performance", "passed": passed, "value": figures["speedup"],
                   "output": f"speedup {figures['speedup']:.2f}x"},
                  {"name": "strict-success", "passed": passed, "output": ""}]
    db.finish(attempt_id, generation, figures, checks)


def make(path: Path, n: int = 1000, running: int = 4, pending: int = 40, seed: int = 1,
         tasks_root: Path | None = None, terminal: bool = True) -> Database:
    """Write the database at `path` (replacing it); returns it open for more changes."""
    from .launch import BUNDLED_TASKS

    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    rng = random.Random(seed)
    db = Database(path)
    db.conn.execute("PRAGMA synchronous=OFF")  # synthetic data: no need to reach the disk
    run_id = db.run_id("synthetic", str(path.parent / "synthetic.toml"), "[run]\nname = \"synthetic\"\n")
    db.ensure_attempts(run_id, plan(n, tasks_root or BUNDLED_TASKS))
    ids = [int(r["id"]) for r in db.attempts(run_id)]
    started = ids[:max(0, n - pending)]
    for i, attempt_id in enumerate(started):
        adir = path.parent / "attempts" / f"a{attempt_id:05d}"
        gen = db.start(attempt_id, str(adir.relative_to(path.parent)))
        if terminal:
            (adir / "agent").mkdir(parents=True, exist_ok=True)
            (adir / "agent" / "agent.log").write_text(
                f"synthetic agent output of attempt {attempt_id}\n$ cat dedupe.py\n")
        for step in range(rng.randint(1, 8)):
            db.record_request(request(attempt_id, gen, step, rng))
        if i < len(started) - running:
            finish(db, attempt_id, gen, _outcome(rng.random()), rng)
    db.conn.execute("PRAGMA synchronous=FULL")
    return db
