"""Naive chunking: fixed windows of tokens with an overlap, blind to syntax.

The baseline the AST chunker is measured against. A token here is a word or a
single punctuation character (`\\w+|[^\\w\\s]`), so a window's size does not
depend on indentation; windows of `size` tokens start every `size - overlap`
tokens, and the last one ends at the end of the file. A window's text is exactly
the bytes from its first token to its last, wherever in a line they fall.
"""

from __future__ import annotations

import re

from .chunks import Chunk, Lines
from .languages import language_of

TOKEN = re.compile(rb"\w+|[^\w\s]")


class NaiveChunker:
    """Fixed-size token windows with overlap."""

    name = "naive"

    def __init__(self, size: int = 200, overlap: int = 50) -> None:
        if size < 1 or not 0 <= overlap < size:
            raise ValueError(f"window size {size} and overlap {overlap}: need 0 <= overlap < size")
        self.size = size
        self.overlap = overlap
        self.key = f"naive-1-{size}-{overlap}"

    def supports(self, path: str) -> bool:
        return language_of(path) is not None

    def chunk(self, path: str, content: bytes) -> list[Chunk]:
        tokens = [(m.start(), m.end()) for m in TOKEN.finditer(content)]
        if not tokens:
            return []
        lines = Lines(content)
        stride = self.size - self.overlap
        out = []
        start = 0
        while True:
            window = tokens[start:start + self.size]
            a, b = window[0][0], window[-1][1]
            out.append(Chunk(path, "window", "", ((a, b),),
                             ((lines.line_of(a), lines.line_of(b - 1)),)))
            if start + self.size >= len(tokens):
                return out
            start += stride
