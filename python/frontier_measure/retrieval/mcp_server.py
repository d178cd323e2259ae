"""The code index as an MCP server (the official `mcp` Python SDK, MCPServer).

    frontier-measure index serve ROOT [--chunker ast|naive] [--http PORT]

Tools:

    search_code(query, k)     the k chunks (default 8, or --k) of the tree that best match the query
                              (BM25), each with its path, lines, kind, qualified
                              name and source (line-numbered, cut at max_lines)
    index_status()            what is indexed: files, chunks by kind, chunker

The index is built when the server starts (in the background: the MCP handshake
does not wait for it) and refreshed before every search, incrementally: an edit
the agent made since the last search is in the index when its next search runs.
Every build and every search is measured here and reported as telemetry
(platform/telemetry.py) when the server runs for an agent of the platform.

Transports: stdio (what an agent's tool layer starts as a subprocess) or
streamable HTTP on loopback (`--http PORT`, path /mcp).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from ..platform.telemetry import Reporter, tokens_of
from .cache import ChunkCache
from .chunks import Chunk
from .index import BuildStats, CodeIndex, Hit, make_chunker

DESCRIPTION = ("Search the repository's source code. Give a description of what you are "
               "looking for, or names (functions, classes, files); returns the best-matching "
               "{what}, ranked, with file paths and line numbers.")
WHAT = {"ast": "definitions (whole functions, methods and classes, named by their scope, and "
               "top-level blocks)",
        "naive": "windows of source text"}


def format_hit(hit: Hit, content: bytes | None, max_lines: int) -> str:
    c: Chunk = hit.chunk
    head = f"## {hit.rank}. {c.title()}  score {hit.score:.2f}"
    if content is None:
        return head + "\n(file no longer readable)"
    src = content.decode("utf-8", "replace").split("\n")
    body: list[str] = []
    for n, (a, b) in enumerate(c.lines):
        if n:
            body.append("      ...")
        body += [f"{i:6d}  {src[i - 1]}" for i in range(a, min(b, len(src)) + 1)]
    if len(body) > max_lines:
        body = body[:max_lines] + [f"      ... ({len(body) - max_lines} more lines)"]
    return "\n".join([head, *body])


class IndexService:
    """The index behind the server, with the measurements it reports."""

    def __init__(self, root: Path, chunker: str = "ast", cache: bool = True,
                 reporter: Reporter | None = None, max_lines: int = 30, k: int = 8) -> None:
        self.index = CodeIndex(root, make_chunker(chunker), cache=ChunkCache() if cache else None)
        self.chunker = chunker
        self.reporter = reporter or Reporter("index")
        self.max_lines = max_lines
        self.k = k
        self._ready = threading.Event()
        self.first_build: BuildStats | None = None

    def build_in_background(self) -> None:
        threading.Thread(target=self._first_build, name="index-build", daemon=True).start()

    def _first_build(self) -> None:
        try:
            self.first_build = self._refresh("index-build")
        finally:
            self._ready.set()

    def _refresh(self, tool: str) -> BuildStats:
        stats = self.index.refresh()
        if stats.rebuilt or stats.chunked or stats.cached:
            self.reporter.report(tool, stats.total_s, tokens=stats.tokens, detail=stats.to_dict())
        return stats

    def search(self, query: str, k: int | None = None) -> str:
        self._ready.wait()
        t0 = time.perf_counter()
        self._refresh("index-update")
        k = max(1, min(int(k or self.k), 50))
        hits = self.index.search(query, k)
        contents: dict[str, bytes | None] = {}
        for h in hits:
            if h.chunk.path not in contents:
                try:
                    contents[h.chunk.path] = (self.index.root / h.chunk.path).read_bytes()
                except OSError:
                    contents[h.chunk.path] = None
        if hits:
            text = "\n\n".join(format_hit(h, contents[h.chunk.path], self.max_lines) for h in hits)
        else:
            text = "No chunk of the repository matches these words."
        self.reporter.report("search_code", time.perf_counter() - t0, tokens=tokens_of(text),
                             detail={"k": k, "hits": len(hits), "chunker": self.chunker})
        return text

    def status(self) -> dict[str, Any]:
        self._ready.wait()
        return self.index.status()


def build_server(service: IndexService) -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("frontier-measure-index", log_level="WARNING",
                       instructions="A code index of the repository you work in.")

    @server.tool(description=DESCRIPTION.format(what=WHAT[service.chunker]),
                 structured_output=False)
    def search_code(query: str, k: int | None = None) -> str:
        return service.search(query, k)

    @server.tool(description="What the code index holds: files, chunks by kind, the chunker.",
                 structured_output=False)
    def index_status() -> str:
        import json

        return json.dumps(service.status(), indent=1, sort_keys=True)

    return server


def serve(root: Path, chunker: str = "ast", http_port: int | None = None,
          cache: bool = True, k: int = 8) -> None:
    """Serve until the client goes away (stdio) or the process is stopped (HTTP)."""
    service = IndexService(root, chunker, cache=cache, reporter=Reporter.from_env("index"), k=k)
    service.build_in_background()
    server = build_server(service)
    if http_port is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=http_port)
