"""The state of a run, in one SQLite file (stdlib sqlite3, WAL).

Every state change is one transaction, so a runner killed at any instant
(`kill -9` included) leaves a database that says exactly what was finished:

    pending  --start()-->  running  --finish()-->  finished
                              |
                              +-- the runner died: recover() puts it back to pending;
                              |   it is run again from scratch (a new generation)
                              +-- its cluster node died: requeue() does the same, at once

A finished attempt is never run again unless asked (`retry()`). Artefacts
(patches, transcripts, results) live on disk beside the database; an attempt
references them only in the transaction that finishes it, after they are
written completely.

Tables:
    runs(id, name, spec_path, spec, created_at)
    attempts(id, run_id, key, task, task_path, kind, scale, agent, model, prompt_mode,
             regime, number, state, generation, outcome, passed, started_at, finished_at,
             wall_s, agent_s, gate_s, steps, requests, tokens_in, tokens_out, tokens_cached,
             cost, files_changed, lines_added, lines_removed, speedup, codebleu, dir, error)
    events(id, run_id, attempt_id, generation, at, kind, data)
    requests(id, attempt_id, generation, at, api, path, model, status, latency_s,
             tokens_in, tokens_out, tokens_cached, tokens_cache_write, cost, usage_source,
             stream, step, error)        # written by the gateway, one row per model request
    checks(id, attempt_id, generation, name, kind, passed, value, output)
                                         # the gate's sub-checks ('gate') and diagnostics
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec_path TEXT, spec TEXT,
    created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), key TEXT NOT NULL UNIQUE,
    task TEXT NOT NULL, task_path TEXT NOT NULL, kind TEXT NOT NULL, scale TEXT,
    agent TEXT NOT NULL, model TEXT NOT NULL, prompt_mode TEXT NOT NULL, regime TEXT NOT NULL,
    number INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending', generation INTEGER NOT NULL DEFAULT 0,
    outcome TEXT, passed INTEGER, started_at TEXT, finished_at TEXT,
    wall_s REAL, agent_s REAL, gate_s REAL, steps INTEGER, requests INTEGER,
    tokens_in INTEGER, tokens_out INTEGER, tokens_cached INTEGER, cost REAL,
    files_changed INTEGER, lines_added INTEGER, lines_removed INTEGER,
    speedup REAL, codebleu REAL, dir TEXT, error TEXT);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY, run_id INTEGER, attempt_id INTEGER, generation INTEGER,
    at TEXT NOT NULL, kind TEXT NOT NULL, data TEXT);
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY, attempt_id INTEGER, generation INTEGER, at TEXT NOT NULL,
    api TEXT, path TEXT, model TEXT, status INTEGER, latency_s REAL,
    tokens_in INTEGER, tokens_out INTEGER, tokens_cached INTEGER, tokens_cache_write INTEGER,
    cost REAL, usage_source TEXT, stream INTEGER, step INTEGER, error TEXT);
CREATE TABLE IF NOT EXISTS checks (
    id INTEGER PRIMARY KEY, attempt_id INTEGER NOT NULL, generation INTEGER NOT NULL,
    name TEXT NOT NULL, kind TEXT NOT NULL, passed INTEGER, value REAL, output TEXT);
CREATE INDEX IF NOT EXISTS attempts_run ON attempts(run_id, state);
CREATE INDEX IF NOT EXISTS requests_attempt ON requests(attempt_id, generation);
CREATE INDEX IF NOT EXISTS checks_attempt ON checks(attempt_id, generation);
"""

# Figures an attempt's finish() may set (from the telemetry, the patch and the gate).
FIGURES = ("outcome", "passed", "wall_s", "agent_s", "gate_s", "steps", "requests", "tokens_in",
           "tokens_out", "tokens_cached", "cost", "files_changed", "lines_added", "lines_removed",
           "speedup", "codebleu", "error")
OUTCOMES = ("passed", "failed", "timeout", "agent-error", "error")


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")


class Database:
    """One connection, used from one thread (the runner's event loop)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE ... COMMIT).
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a transaction that returned is on disk, even if the machine stops.
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        with self.tx() as c:
            for stmt in filter(str.strip, SCHEMA.split(";")):
                c.execute(stmt)

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of it is stored, or none of it."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # ------------------------------------------------------------------ runs

    def run_id(self, name: str, spec_path: str, spec_text: str) -> int:
        with self.tx() as c:
            row = c.execute("SELECT id FROM runs WHERE name = ?", (name,)).fetchone()
            if row:
                c.execute("UPDATE runs SET spec_path = ?, spec = ? WHERE id = ?",
                          (spec_path, spec_text, row["id"]))
                return int(row["id"])
            cur = c.execute("INSERT INTO runs(name, spec_path, spec, created_at) VALUES (?,?,?,?)",
                            (name, spec_path, spec_text, now()))
            return int(cur.lastrowid or 0)

    def runs(self) -> list[sqlite3.Row]:
        return self.conn.execute("SELECT * FROM runs ORDER BY id").fetchall()

    # ------------------------------------------------------------------ attempts

    def ensure_attempts(self, run_id: int, planned: Sequence[dict[str, Any]]) -> int:
        """Add the planned attempts that are not in the database yet; returns how many."""
        added = 0
        with self.tx() as c:
            for a in planned:
                cur = c.execute(
                    "INSERT OR IGNORE INTO attempts(run_id, key, task, task_path, kind, scale, "
                    "agent, model, prompt_mode, regime, number) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (run_id, a["key"], a["task"], a["task_path"], a["kind"], a.get("scale"),
                     a["agent"], a["model"], a["prompt_mode"], a["regime"], a["number"]))
                added += cur.rowcount
            if added:
                self._event(c, run_id, None, None, "planned", {"added": added})
        return added

    def attempts(self, run_id: int | None = None, state: str | None = None) -> list[sqlite3.Row]:
        sql, args = "SELECT * FROM attempts WHERE 1=1", list[Any]()
        if run_id is not None:
            sql += " AND run_id = ?"
            args.append(run_id)
        if state is not None:
            sql += " AND state = ?"
            args.append(state)
        return self.conn.execute(sql + " ORDER BY id", args).fetchall()

    def attempt(self, attempt_id: int) -> sqlite3.Row | None:
        return self.conn.execute("SELECT * FROM attempts WHERE id = ?", (attempt_id,)).fetchone()

    def recover(self, run_id: int) -> list[int]:
        """Attempts left 'running' by a runner that died go back to 'pending'."""
        with self.tx() as c:
            rows = c.execute("SELECT id, generation FROM attempts WHERE run_id = ? AND state = "
                             "'running'", (run_id,)).fetchall()
            for r in rows:
                c.execute("UPDATE attempts SET state = 'pending' WHERE id = ?", (r["id"],))
                self._event(c, run_id, r["id"], r["generation"], "interrupted",
                            {"reason": "the runner stopped while the attempt was running"})
        return [int(r["id"]) for r in rows]

    def start(self, attempt_id: int, directory: str) -> int:
        """pending -> running, in a new generation; returns the generation."""
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None or row["state"] != "pending":
                raise RuntimeError(f"attempt {attempt_id} is not pending")
            gen = int(row["generation"]) + 1
            c.execute("UPDATE attempts SET state = 'running', generation = ?, started_at = ?, "
                      "dir = ?, " + ", ".join(f"{f} = NULL" for f in FIGURES) + " WHERE id = ?",
                      (gen, now(), directory, attempt_id))
            c.execute("DELETE FROM checks WHERE attempt_id = ?", (attempt_id,))
            self._event(c, row["run_id"], attempt_id, gen, "started", {})
        return gen

    def finish(self, attempt_id: int, generation: int, figures: dict[str, Any],
               checks: Sequence[dict[str, Any]] = ()) -> None:
        """running -> finished with its figures and the gate's checks, in one transaction."""
        unknown = set(figures) - set(FIGURES)
        if unknown:
            raise ValueError(f"unknown attempt figures: {', '.join(sorted(unknown))}")
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None or row["state"] != "running" or row["generation"] != generation:
                raise RuntimeError(f"attempt {attempt_id} generation {generation} is not running")
            cols = list(figures)
            c.execute("UPDATE attempts SET state = 'finished', finished_at = ?"
                      + "".join(f", {k} = ?" for k in cols) + " WHERE id = ?",
                      (now(), *[figures[k] for k in cols], attempt_id))
            for ch in checks:
                c.execute("INSERT INTO checks(attempt_id, generation, name, kind, passed, value, "
                          "output) VALUES (?,?,?,?,?,?,?)",
                          (attempt_id, generation, ch["name"], ch.get("kind", "gate"),
                           None if ch.get("passed") is None else int(bool(ch["passed"])),
                           ch.get("value"), ch.get("output", "")))
            self._event(c, row["run_id"], attempt_id, generation, "finished",
                        {"outcome": figures.get("outcome")})

    def requeue(self, attempt_id: int, generation: int, kind: str,
                data: dict[str, Any]) -> None:
        """running -> pending: the generation was lost (its cluster node died); the
        attempt is run again from scratch in a new generation. Recorded as `kind`."""
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None or row["state"] != "running" or row["generation"] != generation:
                raise RuntimeError(f"attempt {attempt_id} generation {generation} is not running")
            c.execute("UPDATE attempts SET state = 'pending' WHERE id = ?", (attempt_id,))
            self._event(c, row["run_id"], attempt_id, generation, kind, data)

    def retry(self, attempt_id: int) -> None:
        """A finished (or interrupted) attempt goes back to 'pending', to be run anew."""
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None:
                raise KeyError(f"no attempt {attempt_id}")
            if row["state"] == "running":
                raise RuntimeError(f"attempt {attempt_id} is running")
            c.execute("UPDATE attempts SET state = 'pending' WHERE id = ?", (attempt_id,))
            self._event(c, row["run_id"], attempt_id, row["generation"], "retry", {})

    # ------------------------------------------------------------------ telemetry

    def record_request(self, row: dict[str, Any]) -> None:
        cols = ("attempt_id", "generation", "at", "api", "path", "model", "status", "latency_s",
                "tokens_in", "tokens_out", "tokens_cached", "tokens_cache_write", "cost",
                "usage_source", "stream", "step", "error")
        with self.tx() as c:
            c.execute(f"INSERT INTO requests({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                      tuple(row.get(k) for k in cols))

    def telemetry(self, attempt_id: int, generation: int) -> dict[str, Any]:
        """An attempt generation's totals, from the gateway's rows."""
        r = self.conn.execute(
            "SELECT COUNT(*) AS requests, COALESCE(SUM(step), 0) AS steps, "
            "COALESCE(SUM(tokens_in), 0) AS tokens_in, COALESCE(SUM(tokens_out), 0) AS tokens_out, "
            "COALESCE(SUM(tokens_cached), 0) AS tokens_cached, COALESCE(SUM(cost), 0.0) AS cost "
            "FROM requests WHERE attempt_id = ? AND generation = ?",
            (attempt_id, generation)).fetchone()
        return dict(r)

    def event(self, run_id: int | None, attempt_id: int | None, generation: int | None,
              kind: str, data: dict[str, Any] | None = None) -> None:
        with self.tx() as c:
            self._event(c, run_id, attempt_id, generation, kind, data or {})

    @staticmethod
    def _event(c: sqlite3.Connection, run_id: int | None, attempt_id: int | None,
               generation: int | None, kind: str, data: dict[str, Any]) -> None:
        c.execute("INSERT INTO events(run_id, attempt_id, generation, at, kind, data) "
                  "VALUES (?,?,?,?,?,?)",
                  (run_id, attempt_id, generation, now(), kind, json.dumps(data, sort_keys=True)))

    def rows(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, args).fetchall()
