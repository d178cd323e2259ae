"""Read-only queries over a run database, for the dashboard's views.

The dashboard never writes the database and never takes its write lock: it
opens it with `mode=ro` (platform.db.connect_readonly) and, the database being
in WAL mode, reads a consistent snapshot while the runner commits.

Everything here is defensive about the schema. The platform grows (new columns
in `attempts`, new tables), and a database may come from an older or newer
version than the dashboard: rows are read with `SELECT *` and turned into
dicts, fields are looked up with `.get`, and a missing table reads as empty.

A *cursor* says how far the database has been read: the highest ids of
`events`, `requests` and `attempts`. Every state change of an attempt is an
event (started, finished, retry, interrupted); the gateway's telemetry is a
`requests` row; planning adds `attempts` rows. So the attempts that changed
since a cursor are the ones those new rows name.
"""

from __future__ import annotations

import contextlib
import json
import math
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..platform import metrics
from ..platform.db import TELEMETRY_SUMS

# What the task queue shows of an attempt (the centre column reads the whole row).
ROW_FIELDS = ("id", "run_id", "task", "kind", "scale", "agent", "model", "prompt_mode", "regime",
              "number", "state", "generation", "outcome", "passed", "started_at", "finished_at",
              "wall_s", "agent_s", "gate_s", "steps", "requests", "tokens_in", "tokens_out",
              "tokens_cached", "cost", "files_changed", "lines_added", "lines_removed", "speedup",
              "codebleu", "error", "dir", "passed_plus", "spent", "usage_source", "stage",
              "stage_note")
TELEMETRY = ("requests", "steps", "tokens_in", "tokens_out", "tokens_cached", "cost")
ERROR_CHARS = 400
# The gate's sub-checks of a performance task, in the order the evaluator runs them.
PERF_STAGES = ("compliance", "functional", "performance")
# More new events than this in one read: rescan every attempt instead of naming them.
EVENTS_PER_READ = 2000


def _missing_schema(exc: sqlite3.OperationalError) -> bool:
    text = str(exc)
    return "no such table" in text or "no such column" in text


@contextlib.contextmanager
def tolerant() -> Iterator[None]:
    """A query on a table or column this database does not have reads as empty."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if not _missing_schema(exc):
            raise


def _all(conn: sqlite3.Connection, sql: str, args: Sequence[Any] = ()) -> list[dict[str, Any]]:
    with tolerant():
        return [dict(r) for r in conn.execute(sql, args).fetchall()]
    return []


def _scalar(conn: sqlite3.Connection, sql: str, args: Sequence[Any] = ()) -> Any:
    with tolerant():
        row = conn.execute(sql, args).fetchone()
        return row[0] if row is not None else None
    return None


def _in(ids: Iterable[int]) -> tuple[str, list[int]]:
    xs = sorted(set(ids))
    return ",".join("?" * len(xs)), xs


# ---------------------------------------------------------------- cursor


@dataclass(frozen=True)
class Cursor:
    events: int = 0
    requests: int = 0
    attempts: int = 0

    def __str__(self) -> str:
        return f"{self.events}.{self.requests}.{self.attempts}"

    @classmethod
    def parse(cls, text: str | None) -> Cursor | None:
        try:
            e, r, a = (int(x) for x in (text or "").split("."))
        except ValueError:
            return None
        return cls(e, r, a) if min(e, r, a) >= 0 else None

    def after(self, other: Cursor) -> bool:
        """Not behind `other` in any table (a database that went back was replaced)."""
        return (self.events >= other.events and self.requests >= other.requests
                and self.attempts >= other.attempts)


def cursor_now(conn: sqlite3.Connection) -> Cursor:
    def top(table: str) -> int:
        return int(_scalar(conn, f"SELECT COALESCE(MAX(id), 0) FROM {table}") or 0)

    return Cursor(top("events"), top("requests"), top("attempts"))


@dataclass
class Changes:
    cursor: Cursor
    attempt_ids: set[int]
    events: list[dict[str, Any]]
    rescan: bool  # something changed that no new row names: compare every attempt
    runs_changed: bool


def changes_since(conn: sqlite3.Connection, since: Cursor) -> Changes:
    """What was added since `since`, and which attempts it names."""
    now = cursor_now(conn)
    events = _all(conn, "SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?",
                  (since.events, EVENTS_PER_READ))
    ids = {int(e["attempt_id"]) for e in events if e.get("attempt_id") is not None}
    rescan = len(events) >= EVENTS_PER_READ
    ids |= {int(r["attempt_id"]) for r in _all(
        conn, "SELECT DISTINCT attempt_id FROM requests WHERE id > ? AND attempt_id IS NOT NULL",
        (since.requests,))}
    ids |= {int(r["id"]) for r in _all(conn, "SELECT id FROM attempts WHERE id > ?",
                                       (since.attempts,))}
    runs_changed = any(e.get("attempt_id") is None for e in events)
    if now == since:
        # The database changed (its data_version moved) and no new row says how:
        # someone updated rows in place. Compare them all.
        rescan = True
    return Changes(now, ids, [event_view(e) for e in events[-200:]], rescan, runs_changed)


def event_view(e: dict[str, Any]) -> dict[str, Any]:
    data: Any = e.get("data")
    with contextlib.suppress(TypeError, ValueError):
        data = json.loads(data) if isinstance(data, str) else data
    return {"id": e.get("id"), "run_id": e.get("run_id"), "attempt_id": e.get("attempt_id"),
            "generation": e.get("generation"), "at": e.get("at"), "kind": e.get("kind"),
            "data": data}


# ---------------------------------------------------------------- attempts


def runs(conn: sqlite3.Connection, specs: bool = False) -> list[dict[str, Any]]:
    """The runs (with `specs`, each with its spec's text)."""
    keys = ("id", "name", "spec_path", "created_at") + (("spec",) if specs else ())
    return [{k: r.get(k) for k in keys} for r in _all(conn, "SELECT * FROM runs ORDER BY id")]


def finite(value: Any) -> Any:
    """`value` with every NaN or infinity replaced by None: JSON has no such numbers,
    and a browser's JSON.parse rejects a whole message for one of them."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def row_view(a: dict[str, Any]) -> dict[str, Any]:
    """The task queue's view of an attempt row (figures rounded for display)."""
    out = {k: a.get(k) for k in ROW_FIELDS}
    if isinstance(out["error"], str) and len(out["error"]) > ERROR_CHARS:
        out["error"] = out["error"][:ERROR_CHARS] + " ..."
    for k, v in out.items():
        if isinstance(v, float):
            out[k] = round(v, 6 if k in ("cost", "spent") else 3) if math.isfinite(v) else None
    return out


def packed(rows: Iterable[dict[str, Any]]) -> list[list[Any]]:
    """Rows as lists in ROW_FIELDS order: a third of the bytes of a list of objects."""
    return [[r.get(k) for k in ROW_FIELDS] for r in rows]


def attempts(conn: sqlite3.Connection, ids: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """Attempts (all, or those with `ids`) as task-queue rows; a running attempt's
    telemetry is summed from the gateway's rows so far (its own columns are only
    set when it finishes)."""
    if ids is None:
        rows = _all(conn, "SELECT * FROM attempts ORDER BY id")
    else:
        marks, args = _in(ids)
        if not args:
            return []
        rows = _all(conn, f"SELECT * FROM attempts WHERE id IN ({marks}) ORDER BY id", args)
    out = [row_view(r) for r in rows]
    running = [r for r in out if r["state"] == "running"]
    if running:
        live = telemetry(conn, [(int(r["id"]), int(r["generation"] or 0)) for r in running])
        for r in running:
            r.update(live.get(int(r["id"]), dict.fromkeys(TELEMETRY, 0)))
    # What an unfinished attempt has spent so far, over every generation (a finished or
    # interrupted one has it recorded).
    open_ = [r for r in out if r["state"] in ("running", "pending")]
    if open_:
        marks, ids = _in(int(r["id"]) for r in open_)
        spent = {int(x["attempt_id"]): float(x["spent"] or 0.0) for x in _all(
            conn, f"SELECT attempt_id, SUM(cost) AS spent FROM requests "
                  f"WHERE attempt_id IN ({marks}) GROUP BY attempt_id", ids)}
        for r in open_:
            r["spent"] = round(spent.get(int(r["id"]), 0.0), 6)
    return out


def telemetry(conn: sqlite3.Connection, generations: Sequence[tuple[int, int]]) \
        -> dict[int, dict[str, Any]]:
    """Telemetry totals of (attempt id, generation) pairs, from the gateway's rows."""
    out: dict[int, dict[str, Any]] = {}
    marks, ids = _in(a for a, _ in generations)
    if not ids:
        return out
    wanted = dict(generations)
    for r in _all(conn, f"SELECT attempt_id, generation, {TELEMETRY_SUMS} FROM requests "
                        f"WHERE attempt_id IN ({marks}) GROUP BY attempt_id, generation", ids):
        if wanted.get(int(r["attempt_id"])) == r["generation"]:
            out[int(r["attempt_id"])] = {k: r[k] for k in TELEMETRY}
    return out


def attempt(conn: sqlite3.Connection, attempt_id: int) -> dict[str, Any] | None:
    """The whole row, whatever columns this database has."""
    rows = _all(conn, "SELECT * FROM attempts WHERE id = ?", (attempt_id,))
    return rows[0] if rows else None


def run_of(conn: sqlite3.Connection, run_id: int) -> dict[str, Any] | None:
    rows = _all(conn, "SELECT * FROM runs WHERE id = ?", (run_id,))
    return rows[0] if rows else None


def checks(conn: sqlite3.Connection, attempt_id: int) -> list[dict[str, Any]]:
    return [{"name": c.get("name"), "kind": c.get("kind"), "passed": c.get("passed"),
             "value": c.get("value"), "output": c.get("output")}
            for c in _all(conn, "SELECT * FROM checks WHERE attempt_id = ? ORDER BY id",
                          (attempt_id,))]


def stage_checks(conn: sqlite3.Connection, ids: Iterable[int] | None = None) \
        -> dict[int, dict[str, bool | None]]:
    """attempt id -> {stage: passed} for the evaluator's stages of performance tasks."""
    sql = ("SELECT attempt_id, name, passed FROM checks WHERE kind = 'gate' AND name IN "
           f"({','.join('?' * len(PERF_STAGES))})")
    args: list[Any] = list(PERF_STAGES)
    if ids is not None:
        marks, xs = _in(ids)
        if not xs:
            return {}
        sql += f" AND attempt_id IN ({marks})"
        args += xs
    out: dict[int, dict[str, bool | None]] = {}
    for r in _all(conn, sql, args):
        out.setdefault(int(r["attempt_id"]), {})[str(r["name"])] = \
            None if r["passed"] is None else bool(r["passed"])
    return out


def requests_of(conn: sqlite3.Connection, attempt_id: int, generation: int,
                limit: int = 500) -> list[dict[str, Any]]:
    return _all(conn, "SELECT * FROM requests WHERE attempt_id = ? AND generation = ? "
                      "ORDER BY id DESC LIMIT ?", (attempt_id, generation, limit))[::-1]


def events_of(conn: sqlite3.Connection, attempt_id: int, limit: int = 200) -> list[dict[str, Any]]:
    return [event_view(e) for e in _all(
        conn, "SELECT * FROM events WHERE attempt_id = ? ORDER BY id DESC LIMIT ?",
        (attempt_id, limit))[::-1]]


# ---------------------------------------------------------------- cumulative metrics


def cumulative(rows: Iterable[dict[str, Any]],
               stages: dict[int, dict[str, bool | None]]) -> dict[str, Any]:
    """PR_task, CE and the rest per configuration (platform.metrics), and the
    funnels: every attempt through the platform, performance attempts through
    the evaluator's stages."""
    rows = list(rows)
    finished = [r for r in rows if r.get("state") == "finished"]
    configs = []
    for s in metrics.summarize(rows):  # spend counts unfinished attempts too
        configs.append({"label": s.config.label(), "agent": s.config.agent,
                        "model": s.config.model, "prompt_mode": s.config.prompt_mode,
                        "regime": s.config.regime, "tasks": s.tasks, "attempts": s.attempts,
                        "passed": s.passed, "errors": s.errors, "pr_task": s.pr_task,
                        "solved": s.solved, "cost": s.cost, "ce": s.ce, "steps": s.steps,
                        "wall_s": s.wall_s, "passed_plus": s.passed_plus,
                        "pr_task_plus": s.pr_task_plus, "solved_plus": s.solved_plus,
                        "ce_plus": s.ce_plus, "cost_per_attempt": s.cost_per_attempt,
                        "usage_source": s.usage_source})
    worked = [r for r in finished if r.get("outcome") not in ("timeout", "agent-error", "error")]
    changed = [r for r in worked if (r.get("files_changed") or 0) > 0]
    perf = [r for r in finished if r.get("kind") == "performance"
            and r.get("outcome") not in metrics.EXCLUDED]
    compliant = [r for r in perf if stages.get(int(r["id"]), {}).get("compliance")]
    functional = [r for r in compliant if stages.get(int(r["id"]), {}).get("functional")]
    fast = [r for r in functional if stages.get(int(r["id"]), {}).get("performance")]
    totals = {
        "attempts": len(rows),
        "pending": sum(r.get("state") == "pending" for r in rows),
        "running": sum(r.get("state") == "running" for r in rows),
        "interrupted": sum(r.get("state") == "interrupted" for r in rows),
        "finished": len(finished),
        "passed": sum(bool(r.get("passed")) for r in finished),
        "passed_plus": sum(bool(r.get("passed_plus")) for r in finished),
        # every generation of every attempt (metrics.spent): finished, interrupted, running
        "cost": sum(metrics.spent(r) for r in rows),
        "tokens_in": sum(int(r.get("tokens_in") or 0) for r in rows),
        "tokens_out": sum(int(r.get("tokens_out") or 0) for r in rows),
    }
    totals["ce"] = totals["cost"] / totals["passed"] if totals["passed"] else None
    return {
        "totals": totals,
        "configs": configs,
        "funnel": [["attempts", len(rows)], ["finished", len(finished)],
                   ["agent finished its turn", len(worked)], ["changed files", len(changed)],
                   ["passed the gate", sum(bool(r.get("passed")) for r in changed)],
                   ["passed gate+", sum(bool(r.get("passed_plus")) for r in changed)]],
        "performance_funnel": [["performance attempts", len(perf)], ["compliant", len(compliant)],
                               ["functional", len(functional)],
                               ["≥ threshold on the worst input", len(fast)]],
    }
