"""The live stream: one poller per database, pushed to every browser over SSE.

The poller asks SQLite one cheap question several times a second, `PRAGMA
data_version` (it changes when another connection commits, and costs no read of
the tables). Only when it moved does it read what was added since its cursor
(store.changes_since), re-read the attempts those rows name, and publish the
rows that differ from its picture. A browser never queries the database: its
stream starts with the whole picture (a `snapshot` event, taken from memory)
and continues with `update` events, so there is no moment in which an update
could be missed or applied out of order. A browser that reconnects gets a new
snapshot.

The reads run in a worker thread on a read-only connection; the picture is
changed only on the event loop, so a snapshot is always consistent.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..platform.db import connect_readonly
from . import store

POLL_S = 0.2  # how often the database is asked whether it changed
KEEPALIVE_S = 15.0  # an SSE comment this often keeps proxies and dead-peer detection honest
QUEUE_LIMIT = 512  # a browser this far behind is dropped (it reconnects and gets a snapshot)
RECENT_EVENTS = 50  # the events a snapshot carries, for the page's feed


def sse(event: str, data: Any, event_id: str | None = None) -> bytes:
    """One server-sent event (JSON data on one line)."""
    head = f"id: {event_id}\n" if event_id else ""
    body = json.dumps(store.finite(data), separators=(",", ":"), allow_nan=False)
    return f"{head}event: {event}\ndata: {body}\n\n".encode()


@dataclass
class _Read:
    """What one poll found (made in the worker thread, applied on the loop)."""

    version: int | None
    identity: tuple[int, int] | None  # (device, inode) of the file; None: there is none
    changes: store.Changes | None = None  # None: nothing changed since the last poll
    rows: list[dict[str, Any]] | None = None
    stages: dict[int, dict[str, bool | None]] | None = None
    runs: list[dict[str, Any]] | None = None
    replaced: bool = False  # a new file (or the first read): the picture starts over
    whole: bool = False  # rows holds every attempt


class Live:
    """The dashboard's picture of one run database, kept current by one poller."""

    def __init__(self, db_path: Path, poll_s: float = POLL_S) -> None:
        self.db_path = db_path.resolve()
        self.poll_s = poll_s
        self.rows: dict[int, dict[str, Any]] = {}
        self.stages: dict[int, dict[str, bool | None]] = {}
        self.runs: list[dict[str, Any]] = []
        self.cursor = store.Cursor()
        self.status: dict[str, Any] = {}  # the runner and the dashboard's jobs (jobs.py)
        self.error: str | None = None
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.recent: collections.deque[dict[str, Any]] = collections.deque(maxlen=RECENT_EVENTS)
        self._metrics: dict[str, Any] | None = None
        self._subscribers: set[asyncio.Queue[bytes | None]] = set()
        self._identity: tuple[int, int] | None = None  # of the file the picture is from
        self._version: int | None = None
        # The worker thread's own: one read-only connection, and the file it is open on.
        self._conn: sqlite3.Connection | None = None
        self._conn_identity: tuple[int, int] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def run_dir(self) -> Path:
        return self.db_path.parent

    # ------------------------------------------------------------------ the poller

    async def start(self) -> None:
        await self.poll()
        self._task = asyncio.create_task(self._loop(), name="dashboard-poller")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for q in list(self._subscribers):
            self._offer(q, None)
        self._close()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                await self.poll()
            except sqlite3.Error as exc:  # a damaged or vanishing file: say so, keep trying
                self.error = f"{type(exc).__name__}: {exc}"
                self._close()

    async def poll(self) -> None:
        found = await asyncio.to_thread(self._read, self._identity, self._version, self.cursor)
        self._apply(found)

    def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn, self._conn_identity = None, None

    def _read(self, known: tuple[int, int] | None, version_seen: int | None,
              cursor: store.Cursor) -> _Read:
        """In the worker thread: has the database changed since the picture, and how?"""
        try:
            st = os.stat(self.db_path)
        except OSError:
            self._close()
            return _Read(None, None)
        identity = (st.st_dev, st.st_ino)
        reopened = self._conn is None or identity != self._conn_identity
        if reopened:
            self._close()
            self._conn = connect_readonly(self.db_path, check_same_thread=False)
            self._conn_identity = identity
        conn = self._conn
        assert conn is not None
        # data_version is per connection: after a reopen it cannot be compared.
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        if not reopened and version == version_seen and identity == known:
            return _Read(version, identity)
        conn.execute("BEGIN")  # one snapshot for every query of this poll
        try:
            replaced = identity != known
            since = store.Cursor() if replaced else cursor
            changes = store.changes_since(conn, since)
            if not changes.cursor.after(since):  # ids went back: another database
                replaced, changes = True, store.changes_since(conn, store.Cursor())
            whole = replaced or changes.rescan
            rows = store.attempts(conn, None if whole else changes.attempt_ids)
            done = [int(r["id"]) for r in rows if r["state"] == "finished"]
            # A finished attempt's stages replace what it had (a retry may have fewer).
            stages: dict[int, dict[str, bool | None]] = {i: {} for i in done}
            stages |= store.stage_checks(conn, None if whole else done)
            runs = store.runs(conn) if whole or changes.runs_changed else None
        finally:
            conn.execute("COMMIT")
        return _Read(version, identity, changes, rows, stages, runs, replaced, whole)

    def _apply(self, found: _Read) -> None:
        """On the loop: fold what was read into the picture, publish the difference."""
        self._version = found.version
        if found.identity is None:
            if self._identity is not None:  # the database is gone
                self._identity = None
                self.rows, self.stages, self.runs, self.cursor = {}, {}, [], store.Cursor()
                self._metrics = None
                self.publish_snapshot()
            return
        if found.changes is None:
            return
        assert found.rows is not None and found.stages is not None
        self.error = None
        self._identity = found.identity
        self.cursor = found.changes.cursor
        self.recent.extend(found.changes.events)
        if found.runs is not None:
            self.runs = found.runs
        if found.replaced:
            self.rows = {int(r["id"]): r for r in found.rows}
            self.stages = found.stages
            self._metrics = None
            self.publish_snapshot()
            return
        changed = [r for r in found.rows if self.rows.get(int(r["id"])) != r]
        removed = sorted(set(self.rows) - {int(r["id"]) for r in found.rows}) \
            if found.whole else []
        for i in removed:
            self.rows.pop(i, None)
        for r in changed:
            self.rows[int(r["id"])] = r
        if found.whole:
            self.stages = found.stages
        else:
            self.stages.update(found.stages)
        if not (changed or removed or found.changes.events or found.runs is not None):
            return
        delta: dict[str, Any] = {"cursor": str(self.cursor), "now": time.time(),
                                 "attempts": store.packed(changed), "removed": removed,
                                 "events": found.changes.events}
        if found.runs is not None:
            delta["runs"] = self.runs
        if changed or removed:
            self._metrics = None
            delta["metrics"] = self.metrics()
        for listener in self.listeners:
            listener(delta)
        self.publish(sse("update", delta, str(self.cursor)))

    # ------------------------------------------------------------------ the picture

    def metrics(self) -> dict[str, Any]:
        if self._metrics is None:
            self._metrics = store.cumulative(self.rows.values(), self.stages)
        return self._metrics

    def snapshot(self) -> dict[str, Any]:
        return {"cursor": str(self.cursor), "now": time.time(), "db": str(self.db_path),
                "exists": self._identity is not None, "error": self.error, "runs": self.runs,
                "columns": store.ROW_FIELDS, "attempts": store.packed(self.rows.values()),
                "events": list(self.recent),
                "metrics": self.metrics(), "status": self.status}

    def set_status(self, status: dict[str, Any]) -> None:
        """The runner's and the jobs' state (not in the database): published on change."""
        if status != self.status:
            self.status = status
            self.publish(sse("status", status))

    # ------------------------------------------------------------------ subscribers

    def publish(self, message: bytes) -> None:
        for q in list(self._subscribers):
            self._offer(q, message)

    def publish_snapshot(self) -> None:
        self.publish(sse("snapshot", self.snapshot(), str(self.cursor)))

    def _offer(self, q: asyncio.Queue[bytes | None], message: bytes | None) -> None:
        try:
            q.put_nowait(message)
        except asyncio.QueueFull:
            # Too slow to follow: end its stream; the browser reconnects to a snapshot.
            self._subscribers.discard(q)
            with contextlib.suppress(asyncio.QueueEmpty):
                q.get_nowait()
            q.put_nowait(None)

    async def stream(self) -> AsyncIterator[bytes]:
        """A browser's stream: the snapshot, then every update, until it goes away."""
        q: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUE_LIMIT)
        # Subscribing and taking the snapshot with no await between: nothing is missed.
        self._subscribers.add(q)
        try:
            yield b"retry: 2000\n\n" + sse("snapshot", self.snapshot(), str(self.cursor))
            while True:
                try:
                    message = await asyncio.wait_for(q.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield b": keepalive\n\n"
                    continue
                if message is None:
                    return
                yield message
        finally:
            self._subscribers.discard(q)

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)
