"""The state of a run, in one SQLite file (stdlib sqlite3, WAL).

Every state change is one transaction, so a runner killed at any instant
(`kill -9` included) leaves a database that says exactly what was finished:

    pending  --start()-->  running  --finish()-->  finished
                              |
                              +-- the runner was stopped (SIGINT, SIGTERM): interrupt()
                              |   makes it interrupted, with what it spent and how long
                              |   it ran; the runner died (kill -9): recover() does the
                              |   same at the next start
                              +-- its cluster node died: requeue() puts it back to pending

An interrupted attempt is run again from scratch (a new generation) by the next
run of the spec, or by a retry, as a pending one is.

A finished attempt is never run again unless asked (`retry()`). Artefacts
(patches, transcripts, results) live on disk beside the database; an attempt
references them only in the transaction that finishes it, after they are
written completely.

Tables:
    runs(id, name, spec_path, spec, created_at, prices)
    attempts(id, run_id, key, task, task_path, kind, scale, agent, model, prompt_mode,
             regime, number, state, generation, outcome, passed, started_at, finished_at,
             wall_s, agent_s, gate_s, steps, requests, tokens_in, tokens_out, tokens_cached,
             cost, files_changed, lines_added, lines_removed, speedup, codebleu, dir, error,
             delegated, children, tool_calls, tool_s, tool_tokens, lsp_s, lsp_tokens,
             index_s, index_tokens, passed_plus, spent, usage_source, stage, stage_note)
    events(id, run_id, attempt_id, generation, at, kind, data)
    requests(id, attempt_id, generation, at, api, path, model, status, latency_s,
             tokens_in, tokens_out, tokens_cached, tokens_cache_write, cost, usage_source,
             stream, step, error, node_id)   # written by the gateway, one row per model request
    checks(id, attempt_id, generation, name, kind, passed, value, output)
                                         # the gate's sub-checks ('gate') and diagnostics
    nodes(id, attempt_id, generation, parent_id, depth, agent, instruction, state,
          started_at, finished_at, agent_s, exit_code, timed_out, error, steps, requests,
          tokens_in, tokens_out, tokens_cached, cost)
                                         # the tree of agents of an attempt: the root, and
                                         # the children it delegated to (regime S3)
    tool_calls(id, attempt_id, generation, node_id, at, server, tool, duration_s, tokens,
               ok, detail)               # measured by the tool servers (index, lsp, delegate)

Columns added after the first release (delegated ... passed_plus, requests.node_id)
are added to an older database when it is opened; they are NULL where they do
not apply (an attempt of a regime without delegation has delegated = NULL).
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
import urllib.parse
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
CREATE TABLE IF NOT EXISTS nodes (
    id INTEGER PRIMARY KEY, attempt_id INTEGER NOT NULL, generation INTEGER NOT NULL,
    parent_id INTEGER, depth INTEGER NOT NULL, agent TEXT NOT NULL, instruction TEXT,
    state TEXT NOT NULL DEFAULT 'running', started_at TEXT NOT NULL, finished_at TEXT,
    agent_s REAL, exit_code INTEGER, timed_out INTEGER, error TEXT, steps INTEGER,
    requests INTEGER, tokens_in INTEGER, tokens_out INTEGER, tokens_cached INTEGER, cost REAL);
CREATE TABLE IF NOT EXISTS tool_calls (
    id INTEGER PRIMARY KEY, attempt_id INTEGER NOT NULL, generation INTEGER NOT NULL,
    node_id INTEGER, at TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL,
    duration_s REAL, tokens INTEGER, ok INTEGER, detail TEXT);
CREATE INDEX IF NOT EXISTS attempts_run ON attempts(run_id, state);
CREATE INDEX IF NOT EXISTS nodes_attempt ON nodes(attempt_id, generation);
CREATE INDEX IF NOT EXISTS tool_calls_attempt ON tool_calls(attempt_id, generation);
CREATE INDEX IF NOT EXISTS requests_attempt ON requests(attempt_id, generation);
CREATE INDEX IF NOT EXISTS checks_attempt ON checks(attempt_id, generation);
"""

# Columns added since the first schema: (table, column, type). Added on open when missing.
ADDED_COLUMNS = (
    ("requests", "node_id", "INTEGER"),
    ("attempts", "delegated", "INTEGER"),  # regimes with a delegate tool: 1 if a child ran
    ("attempts", "children", "INTEGER"),  # agents the attempt's agents delegated to
    ("attempts", "tool_calls", "INTEGER"),  # calls measured by the tool servers
    ("attempts", "tool_s", "REAL"),  # their time, summed
    ("attempts", "tool_tokens", "INTEGER"),  # tokens they fed back to the model (and spent)
    ("attempts", "lsp_s", "REAL"),  # the language server's feedback: time ...
    ("attempts", "lsp_tokens", "INTEGER"),  # ... and tokens of the diagnostics fed back
    ("attempts", "index_s", "REAL"),  # code index builds and updates: time ...
    ("attempts", "index_tokens", "INTEGER"),  # ... and model tokens they spent (embeddings)
    ("attempts", "passed_plus", "INTEGER"),  # gate+: the gate, a static check, an import test
    ("attempts", "spent", "REAL"),  # cost of every generation's requests (retried, interrupted)
    ("attempts", "usage_source", "TEXT"),  # api | estimated | mixed: where the tokens came from
    ("runs", "prices", "TEXT"),  # the price table the gateway used (JSON), for the exports
    # What a running attempt is doing: agent | gate | lock-wait (the note names the
    # measurement lock's holder) | cleanup; NULL once it is no longer running.
    ("attempts", "stage", "TEXT"),
    ("attempts", "stage_note", "TEXT"),
)
# States an attempt is run from (`start()`): never run, or interrupted by a stop.
RUNNABLE = ("pending", "interrupted")
# Figures an attempt's finish() may set (from the telemetry, the patch and the gate).
FIGURES = ("outcome", "passed", "wall_s", "agent_s", "gate_s", "steps", "requests", "tokens_in",
           "tokens_out", "tokens_cached", "cost", "files_changed", "lines_added", "lines_removed",
           "speedup", "codebleu", "error", "delegated", "children", "tool_calls", "tool_s",
           "tool_tokens", "lsp_s", "lsp_tokens", "index_s", "index_tokens", "passed_plus")
OUTCOMES = ("passed", "failed", "inconclusive", "timeout", "agent-error", "error")
# An attempt generation's telemetry, summed over the gateway's rows of `requests`.
TELEMETRY_SUMS = ("COUNT(*) AS requests, COALESCE(SUM(step), 0) AS steps, "
                  "COALESCE(SUM(tokens_in), 0) AS tokens_in, "
                  "COALESCE(SUM(tokens_out), 0) AS tokens_out, "
                  "COALESCE(SUM(tokens_cached), 0) AS tokens_cached, "
                  "COALESCE(SUM(cost), 0.0) AS cost")


def usage_label(requests: int, estimated: int) -> str | None:
    """Where an attempt's token counts came from: the API's usage fields, the
    gateway's own count (the API sent none; it cannot see cached tokens), or both."""
    if not requests:
        return None
    return "api" if not estimated else "estimated" if estimated == requests else "mixed"


def spend_of(c: sqlite3.Connection, attempt_id: int | None = None) -> Any:
    """Spend over every generation: {spent, requests, estimated, usage_source} of
    one attempt, or of each attempt by id when attempt_id is None."""
    sql = ("SELECT attempt_id, COALESCE(SUM(cost), 0.0) AS spent, COUNT(*) AS requests, "
           "COALESCE(SUM(step = 1 AND COALESCE(usage_source, 'api') != 'api'), 0) AS estimated, "
           "COALESCE(SUM(step = 1), 0) AS model_requests FROM requests")
    def one(r: Any) -> dict[str, Any]:
        return {"spent": float(r["spent"] or 0.0), "requests": int(r["requests"] or 0),
                "estimated": int(r["estimated"] or 0),
                "usage_source": usage_label(int(r["model_requests"] or 0),
                                            int(r["estimated"] or 0))}
    if attempt_id is not None:
        r = c.execute(sql + " WHERE attempt_id = ?", (attempt_id,)).fetchone()
        return one(r) if r is not None else one({"spent": 0, "requests": 0, "estimated": 0,
                                                  "model_requests": 0})
    return {r["attempt_id"]: one(r) for r in c.execute(sql + " GROUP BY attempt_id")}


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")


def connect_readonly(path: Path, check_same_thread: bool = True) -> sqlite3.Connection:
    """A read-only connection to an existing database (sqlite3.OperationalError if absent)."""
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None,
                           check_same_thread=check_same_thread)
    conn.row_factory = sqlite3.Row
    return conn


class Database:
    """One connection, used from one thread (the runner's event loop).

    `readonly=True` opens an existing database for reading only (exports, the
    dashboard): no schema, no pragma that writes, never a write lock, so a
    reader cannot hold up the runner's transactions (WAL lets it read while
    they commit)."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        if readonly:
            self.conn = connect_readonly(self.path)
            return
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
            for table, column, kind in ADDED_COLUMNS:
                have = {r["name"] for r in c.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    c.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

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

    def set_prices(self, run_id: int, entries: dict[str, dict[str, float]]) -> None:
        with self.tx() as c:
            c.execute("UPDATE runs SET prices = ? WHERE id = ?",
                      (json.dumps(entries, sort_keys=True), run_id))

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
        """Attempts left 'running' by a runner that died become 'interrupted' (with
        what they spent; the time they ran is not known, so none is counted)."""
        with self.tx() as c:
            rows = c.execute("SELECT id, generation FROM attempts WHERE run_id = ? AND state = "
                             "'running'", (run_id,)).fetchall()
            for r in rows:
                self._interrupt(c, run_id, int(r["id"]), int(r["generation"]), None,
                                "the runner died while the attempt was running")
        return [int(r["id"]) for r in rows]

    def interrupt(self, attempt_id: int, generation: int, wall_s: float | None,
                  reason: str) -> bool:
        """running -> interrupted (a stopped runner): what the generation spent stays on
        the bill, `wall_s` is how long it ran. False if it was not running."""
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None or row["state"] != "running" or row["generation"] != generation:
                return False
            self._interrupt(c, int(row["run_id"]), attempt_id, generation, wall_s, reason)
        return True

    def _interrupt(self, c: sqlite3.Connection, run_id: int, attempt_id: int, generation: int,
                   wall_s: float | None, reason: str) -> None:
        spend = spend_of(c, attempt_id)
        # No end time when the runner died: how long the attempt ran is not known.
        c.execute("UPDATE attempts SET state = 'interrupted', finished_at = ?, wall_s = ?, "
                  "error = ?, spent = ?, usage_source = ?, stage = NULL, stage_note = NULL "
                  "WHERE id = ?", (None if wall_s is None else now(), wall_s,
                                   f"interrupted: {reason}", spend["spent"],
                                   spend["usage_source"], attempt_id))
        self._event(c, run_id, attempt_id, generation, "interrupted",
                    {"reason": reason, "wall_s": wall_s, "spent": spend["spent"]})

    def set_stage(self, attempt_id: int, generation: int, stage: str | None,
                  note: str | None = None) -> None:
        """What a running attempt is doing now (an event too, for the live views)."""
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None or row["state"] != "running" or row["generation"] != generation:
                return
            c.execute("UPDATE attempts SET stage = ?, stage_note = ? WHERE id = ?",
                      (stage, note, attempt_id))
            self._event(c, row["run_id"], attempt_id, generation, "stage",
                        {"stage": stage, "note": note})

    def start(self, attempt_id: int, directory: str) -> int:
        """pending (or interrupted) -> running, in a new generation; returns the generation."""
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None or row["state"] not in RUNNABLE:
                raise RuntimeError(f"attempt {attempt_id} is not pending")
            gen = int(row["generation"]) + 1
            c.execute("UPDATE attempts SET state = 'running', generation = ?, started_at = ?, "
                      "finished_at = NULL, stage = NULL, stage_note = NULL, dir = ?, "
                      + ", ".join(f"{f} = NULL" for f in FIGURES) + " WHERE id = ?",
                      (gen, now(), directory, attempt_id))
            c.execute("DELETE FROM checks WHERE attempt_id = ?", (attempt_id,))
            self._event(c, row["run_id"], attempt_id, gen, "started", {})
        return gen

    def finish(self, attempt_id: int, generation: int, figures: dict[str, Any],
               checks: Sequence[dict[str, Any]] = (), finished_at: str | None = None) -> None:
        """running -> finished with its figures and the gate's checks, in one transaction."""
        unknown = set(figures) - set(FIGURES)
        if unknown:
            raise ValueError(f"unknown attempt figures: {', '.join(sorted(unknown))}")
        with self.tx() as c:
            row = c.execute("SELECT run_id, state, generation FROM attempts WHERE id = ?",
                            (attempt_id,)).fetchone()
            if row is None or row["state"] != "running" or row["generation"] != generation:
                raise RuntimeError(f"attempt {attempt_id} generation {generation} is not running")
            # What the attempt cost in all: its earlier generations (interrupted by a
            # stopped runner, a lost node, a retry) stay on the bill.
            spend = spend_of(c, attempt_id)
            figures = figures | {"spent": spend["spent"], "usage_source": spend["usage_source"]}
            cols = list(figures)
            c.execute("UPDATE attempts SET state = 'finished', stage = NULL, "
                      "stage_note = NULL, finished_at = ?"
                      + "".join(f", {k} = ?" for k in cols) + " WHERE id = ?",
                      (finished_at or now(), *[figures[k] for k in cols], attempt_id))
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
                "usage_source", "stream", "step", "error", "node_id")
        with self.tx() as c:
            c.execute(f"INSERT INTO requests({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                      tuple(row.get(k) for k in cols))

    def telemetry(self, attempt_id: int, generation: int, node_id: int | None = None) \
            -> dict[str, Any]:
        """An attempt generation's totals, from the gateway's rows (of one agent node
        of its tree, when given; else of all of them)."""
        sql = (f"SELECT {TELEMETRY_SUMS} FROM requests "
               "WHERE attempt_id = ? AND generation = ?")
        args: list[Any] = [attempt_id, generation]
        if node_id is not None:
            sql += " AND node_id = ?"
            args.append(node_id)
        return dict(self.conn.execute(sql, args).fetchone())

    # ------------------------------------------------------------------ the agent tree, tools

    def open_node(self, attempt_id: int, generation: int, parent_id: int | None, depth: int,
                  agent: str, instruction: str) -> int:
        """An agent of an attempt's tree starts: the root (parent None) or a child."""
        with self.tx() as c:
            cur = c.execute("INSERT INTO nodes(attempt_id, generation, parent_id, depth, agent, "
                            "instruction, started_at) VALUES (?,?,?,?,?,?,?)",
                            (attempt_id, generation, parent_id, depth, agent, instruction, now()))
            return int(cur.lastrowid or 0)

    def close_node(self, node_id: int, figures: dict[str, Any]) -> None:
        """An agent of the tree ended: its outcome and its own telemetry, in one transaction."""
        row = self.conn.execute("SELECT attempt_id, generation FROM nodes WHERE id = ?",
                                (node_id,)).fetchone()
        tel = self.telemetry(row["attempt_id"], row["generation"], node_id)
        cols = ("agent_s", "exit_code", "timed_out", "error")
        with self.tx() as c:
            c.execute("UPDATE nodes SET state = 'finished', finished_at = ?, "
                      + ", ".join(f"{k} = ?" for k in (*cols, *tel)) + " WHERE id = ?",
                      (now(), *[figures.get(k) for k in cols], *tel.values(), node_id))

    def nodes(self, attempt_id: int, generation: int) -> list[sqlite3.Row]:
        return self.conn.execute("SELECT * FROM nodes WHERE attempt_id = ? AND generation = ? "
                                 "ORDER BY id", (attempt_id, generation)).fetchall()

    def record_tool_call(self, row: dict[str, Any]) -> None:
        cols = ("attempt_id", "generation", "node_id", "at", "server", "tool", "duration_s",
                "tokens", "ok", "detail")
        row = dict(row, at=row.get("at") or now(),
                   detail=json.dumps(row.get("detail") or {}, sort_keys=True))
        with self.tx() as c:
            c.execute(f"INSERT INTO tool_calls({', '.join(cols)}) "
                      f"VALUES ({', '.join('?' * len(cols))})", tuple(row.get(k) for k in cols))

    def tool_totals(self, attempt_id: int, generation: int) -> dict[str, Any]:
        """An attempt generation's tool figures (the attempts table's tool columns)."""
        rows = self.conn.execute("SELECT server, tool, duration_s, tokens FROM tool_calls "
                                 "WHERE attempt_id = ? AND generation = ?",
                                 (attempt_id, generation)).fetchall()
        out: dict[str, Any] = {"tool_calls": len(rows),
                               "tool_s": sum(r["duration_s"] or 0.0 for r in rows),
                               "tool_tokens": sum(r["tokens"] or 0 for r in rows)}
        for server in ("lsp", "index"):
            mine = [r for r in rows if r["server"] == server and
                    (server == "lsp" or r["tool"].startswith("index-"))]
            out[f"{server}_s"] = sum(r["duration_s"] or 0.0 for r in mine) if mine else None
            out[f"{server}_tokens"] = sum(r["tokens"] or 0 for r in mine) if mine else None
        return out

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
