"""What an index is made of: chunks of source files, and the interface every
chunker implements.

A chunk is a piece of one file, given by byte spans. Most chunks are one span
(a function, a window of tokens); a class chunk is its header and its own
statements without its methods, which are chunks of their own, so it has a span
per piece. Line numbers (1-based, inclusive) are kept beside the byte spans: they
are what an agent and the retrieval benchmark talk in.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Protocol

KINDS = ("function", "method", "class", "block", "window")


@dataclass(frozen=True)
class Chunk:
    path: str  # relative to the indexed root, '/'-separated
    kind: str  # function | method | class | block | window
    symbol: str  # qualified name within the file ("Flask.render"); '' for blocks and windows
    spans: tuple[tuple[int, int], ...]  # byte ranges [start, end) in the file
    lines: tuple[tuple[int, int], ...]  # the same pieces as line ranges (1-based, inclusive)

    @property
    def start(self) -> int:
        return self.lines[0][0]

    @property
    def end(self) -> int:
        return self.lines[-1][1]

    @property
    def id(self) -> str:
        return f"{self.path}:{self.start}-{self.end}"

    def covers(self, line: int) -> bool:
        return any(a <= line <= b for a, b in self.lines)

    def text(self, content: bytes) -> str:
        """The chunk's source; the gaps of a class chunk (its methods) show as '...'."""
        return "\n    ...\n".join(content[a:b].decode("utf-8", "replace") for a, b in self.spans)

    def title(self) -> str:
        what = f"{self.kind} {self.symbol}" if self.symbol else self.kind
        return f"{self.id} ({what})"


class Chunker(Protocol):
    """Cuts one file into chunks. `key` names the chunker and every parameter that
    changes its output: cached chunks are reused only under the same key."""

    name: str
    key: str

    def supports(self, path: str) -> bool: ...

    def chunk(self, path: str, content: bytes) -> list[Chunk]: ...


class Lines:
    """Byte offsets of a file's lines, to go between bytes and line numbers."""

    def __init__(self, content: bytes) -> None:
        self.size = len(content)
        self.starts = [0]
        i = content.find(b"\n")
        while i >= 0:
            self.starts.append(i + 1)
            i = content.find(b"\n", i + 1)

    @property
    def count(self) -> int:
        """Lines in the file (a final newline does not start another one)."""
        n = len(self.starts)
        return n - 1 if n > 1 and self.starts[-1] == self.size else n

    def line_of(self, offset: int) -> int:
        """1-based line of a byte offset."""
        return bisect.bisect_right(self.starts, offset)

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Byte range of lines first..last (1-based, inclusive), without the last newline."""
        start = self.starts[first - 1]
        end = self.starts[last] - 1 if last < len(self.starts) else self.size
        return start, max(start, end)


def merge_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line ranges sorted, with touching or overlapping ones joined."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def line_chunk(path: str, kind: str, symbol: str, ranges: list[tuple[int, int]],
               lines: Lines) -> Chunk:
    """A chunk made of whole lines."""
    merged = tuple(merge_ranges(ranges))
    return Chunk(path, kind, symbol, tuple(lines.span(a, b) for a, b in merged), merged)
