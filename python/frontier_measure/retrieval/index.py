"""A code index over one directory tree: chunks, their terms, a ranker.

    index = CodeIndex(root, AstChunker())      # or NaiveChunker()
    stats = index.refresh()                    # incremental: only changed files are read again
    hits = index.search("rename render_template_string", k=10)

`refresh()` walks the tree and looks at every source file of a language the
chunker supports. A file whose size and mtime are what they were is taken as
unchanged; another is read and hashed, and a file whose hash is in the chunk
cache (cache.py) is not parsed again. Only when some file was added, changed or
removed is the ranker rebuilt. Each refresh returns what it did and what that
cost (`BuildStats`), which the MCP server reports as telemetry.

What is indexed: files under `max_file_bytes` in directories other than version
control, virtual environments and caches. Each chunk is ranked on its own terms
plus its file path's and, for AST chunks, its qualified name's (a method is found
by its class's name too).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .cache import ChunkCache
from .chunks import Chunk, Chunker
from .rank import BM25Ranker
from .terms import path_terms, terms

SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox",
                       ".venv", "venv", ".mypy_cache", ".pytest_cache", ".ruff_cache",
                       ".eggs", "site-packages"})
MAX_FILE_BYTES = 1 << 20


@dataclass
class FileEntry:
    path: str
    mtime_ns: int
    size: int
    sha: str
    chunks: list[Chunk]
    ids: list[list[int]]  # per chunk: its document's term ids (path, name, text)


@dataclass
class BuildStats:
    """What one refresh did, and what it cost."""

    chunker: str
    ranker: str
    files: int = 0
    chunks: int = 0
    unchanged: int = 0  # same size and mtime, or same content
    cached: int = 0  # changed or new here, found in the chunk cache
    chunked: int = 0  # parsed now
    removed: int = 0
    skipped: int = 0  # too large, unreadable
    rebuilt: bool = False  # the ranker was rebuilt
    scan_s: float = 0.0
    chunk_s: float = 0.0
    rank_s: float = 0.0
    total_s: float = 0.0
    tokens: int = 0  # model tokens spent (embeddings); BM25 spends none

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Hit:
    rank: int
    score: float
    chunk: Chunk


def _chunk_terms(c: Chunk, content: bytes) -> str:
    """A chunk's own terms, space-separated (the form the cache keeps)."""
    return " ".join(terms(c.text(content)))


@dataclass
class CodeIndex:
    root: Path
    chunker: Chunker
    ranker: BM25Ranker = field(default_factory=BM25Ranker)
    cache: ChunkCache | None = None
    max_file_bytes: int = MAX_FILE_BYTES
    entries: dict[str, FileEntry] = field(default_factory=dict)
    docs: list[tuple[FileEntry, int]] = field(default_factory=list)
    vocab: dict[str, int] = field(default_factory=dict)
    builds: int = 0

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ building

    def _walk(self) -> list[tuple[str, os.stat_result]]:
        found = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS
                                 and not d.startswith(".fm-"))
            rel_dir = os.path.relpath(dirpath, self.root)
            for name in sorted(filenames):
                rel = name if rel_dir == "." else f"{rel_dir}/{name}".replace(os.sep, "/")
                if not self.chunker.supports(rel):
                    continue
                try:
                    st = os.stat(os.path.join(dirpath, name))
                except OSError:
                    continue
                found.append((rel, st))
        return found

    def refresh(self) -> BuildStats:
        with self._lock:
            return self._refresh()

    def _refresh(self) -> BuildStats:
        t0 = time.perf_counter()
        stats = BuildStats(self.chunker.name, self.ranker.name)
        seen: set[str] = set()
        todo: dict[str, tuple[bytes, str, os.stat_result]] = {}
        for rel, st in self._walk():
            if st.st_size > self.max_file_bytes:
                stats.skipped += 1
                continue
            seen.add(rel)
            old = self.entries.get(rel)
            if old is not None and (old.mtime_ns, old.size) == (st.st_mtime_ns, st.st_size):
                stats.unchanged += 1
                continue
            try:
                content = (self.root / rel).read_bytes()
            except OSError:
                stats.skipped += 1
                seen.discard(rel)
                continue
            sha = hashlib.sha256(content).hexdigest()
            if old is not None and old.sha == sha:
                old.mtime_ns, old.size = st.st_mtime_ns, st.st_size
                stats.unchanged += 1
                continue
            todo[rel] = (content, sha, st)
        gone = set(self.entries) - seen
        for rel in gone:
            del self.entries[rel]
        stats.removed = len(gone)
        stats.scan_s = time.perf_counter() - t0

        t1 = time.perf_counter()
        keys = {rel: f"{self.chunker.key}:{sha}" for rel, (_, sha, _) in todo.items()}
        cached = self.cache.get_many(sorted(set(keys.values()))) if self.cache and todo else {}
        fresh: list[tuple[str, Any]] = []
        for rel, (content, sha, st) in todo.items():
            data = cached.get(keys[rel])
            if data is not None:
                chunks = [Chunk(rel, kind, symbol, tuple(map(tuple, spans)), tuple(map(tuple, lines)))
                          for kind, symbol, spans, lines in data[0]]
                chunk_terms = list(data[1])
                stats.cached += 1
            else:
                try:
                    chunks = self.chunker.chunk(rel, content)
                except (ValueError, RecursionError):
                    chunks = []
                chunk_terms = [_chunk_terms(c, content) for c in chunks]
                fresh.append((keys[rel], ([(c.kind, c.symbol, c.spans, c.lines) for c in chunks],
                                          chunk_terms)))
                stats.chunked += 1
            self.entries[rel] = FileEntry(rel, st.st_mtime_ns, st.st_size, sha, chunks,
                                          self._ids(rel, chunks, chunk_terms))
        if self.cache is not None and fresh:
            self.cache.put_many(fresh)
        stats.chunk_s = time.perf_counter() - t1

        if todo or gone or self.builds == 0:
            t2 = time.perf_counter()
            self.docs = [(e, i) for rel in sorted(self.entries)
                         for e in [self.entries[rel]] for i in range(len(e.chunks))]
            self.ranker.build([e.ids[i] for e, i in self.docs], self.vocab)
            stats.rebuilt = True
            stats.rank_s = time.perf_counter() - t2
        self.builds += 1
        stats.files = len(self.entries)
        stats.chunks = len(self.docs)
        stats.total_s = time.perf_counter() - t0
        return stats

    def _ids(self, rel: str, chunks: list[Chunk], chunk_terms: list[str]) -> list[list[int]]:
        """Each chunk's document as term ids: the file path's terms, the chunk's
        qualified name's (AST chunks) and its own."""
        vocab = self.vocab
        head = path_terms(rel)
        out = []
        for c, own in zip(chunks, chunk_terms, strict=True):
            words = [*head, *(terms(c.symbol) if c.symbol else ()), *own.split()]
            out.append([vocab.setdefault(w, len(vocab)) for w in words])
        return out

    # ------------------------------------------------------------------ searching

    def search(self, query: str, k: int = 10) -> list[Hit]:
        with self._lock:
            if self.builds == 0:
                self._refresh()
            ranked = self.ranker.top(terms(query), k)
            return [Hit(r + 1, score, self.docs[i][0].chunks[self.docs[i][1]])
                    for r, (i, score) in enumerate(ranked)]

    def text(self, chunk: Chunk) -> str:
        """A chunk's source, read from the tree as it is now."""
        try:
            return chunk.text((self.root / chunk.path).read_bytes())
        except OSError as exc:
            return f"<cannot read {chunk.path}: {exc.strerror}>"

    def status(self) -> dict[str, Any]:
        with self._lock:
            kinds: dict[str, int] = {}
            for e, i in self.docs:
                kinds[e.chunks[i].kind] = kinds.get(e.chunks[i].kind, 0) + 1
            return {"root": str(self.root), "chunker": self.chunker.key, "ranker": self.ranker.name,
                    "files": len(self.entries), "chunks": len(self.docs), "kinds": kinds,
                    "builds": self.builds}


def make_chunker(name: str, **options: Any) -> Chunker:
    """'ast' or 'naive', with their options (max_block_lines; size, overlap)."""
    from .ast_chunker import AstChunker
    from .naive_chunker import NaiveChunker

    if name == "ast":
        return AstChunker(**options)
    if name == "naive":
        return NaiveChunker(**options)
    raise ValueError(f"unknown chunker '{name}' (choose from ast, naive)")
