"""The chunk cache: a file's chunks and terms, kept by the hash of its content.

Indexes are rebuilt often (every attempt starts from the same pristine tree,
and an agent edits a few files of it), so what a file was cut into is kept in a
SQLite file under `$FM_CACHE/index/` (default `~/.cache/frontier-measure/index/`),
keyed by the chunker's key and the SHA-256 of the file's bytes: a file seen
before, anywhere, under any path, is not parsed again. Values are msgpack,
zlib-compressed. Several processes may share the file (WAL, busy timeout); a
damaged entry is a miss.
"""

from __future__ import annotations

import os
import sqlite3
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgpack


def default_dir() -> Path:
    return Path(os.environ.get("FM_CACHE") or Path.home() / ".cache" / "frontier-measure") / "index"


class ChunkCache:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_dir() / "chunks.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # One connection, used under the index's lock from whichever thread holds it.
        self.conn = sqlite3.connect(self.path, timeout=60, isolation_level=None,
                                    check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS files (key TEXT PRIMARY KEY, data BLOB)")

    def close(self) -> None:
        self.conn.close()

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i in range(0, len(keys), 500):
            part = keys[i:i + 500]
            rows = self.conn.execute(
                f"SELECT key, data FROM files WHERE key IN ({','.join('?' * len(part))})", part)
            for key, data in rows:
                try:
                    out[key] = msgpack.unpackb(zlib.decompress(data), use_list=False)
                except (zlib.error, ValueError, msgpack.UnpackException):
                    continue
        return out

    def put_many(self, items: Iterable[tuple[str, Any]]) -> None:
        rows = [(k, zlib.compress(msgpack.packb(v), 3)) for k, v in items]
        if rows:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                self.conn.executemany("INSERT OR REPLACE INTO files(key, data) VALUES (?, ?)", rows)
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
