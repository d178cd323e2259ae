"""AST-aware chunking: a chunk is a whole definition, named by its scope.

With tree-sitter, each file is cut where its language draws lines between
definitions:

* a function, or a method, with its decorators and the comments right above it,
  is one chunk, named by its enclosing scope (`Flask.render`, `Outer.Inner.run`);
  functions nested in it stay inside it;
* a class (Java: also interfaces, enums, records) is one chunk of its own made of
  its header and the statements of its body that are not members (docstring,
  fields, constants), and its methods and inner classes are chunks of their own;
* what lies between definitions at the top level (imports, constants, a
  `__main__` block) is grouped into small blocks of at most `max_block_lines`
  lines; a single larger statement is cut into pieces of that size.

Files whose language has no grammar here are not supported by this chunker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .chunks import Chunk, Lines, line_chunk
from .languages import GRAMMARS, Grammar, language_of, node_name, parser_for

COMMENTS = ("comment", "line_comment", "block_comment")


def _rows(node: Any) -> tuple[int, int]:
    """1-based first and last line of a node (an end at column 0 is the line before)."""
    first = node.start_point[0] + 1
    last = node.end_point[0] + (1 if node.end_point[1] > 0 else 0)
    return first, max(first, last)


@dataclass
class _Cut:
    path: str
    grammar: Grammar
    lines: Lines
    max_block_lines: int
    out: list[Chunk] = field(default_factory=list)
    block: list[tuple[int, int]] = field(default_factory=list)

    # ------------------------------------------------------------------ blocks

    def add_block(self, first: int, last: int) -> None:
        if self.block and last - self.block[0][0] + 1 > self.max_block_lines:
            self.flush()
        if last - first + 1 > self.max_block_lines:
            self.flush()
            for a in range(first, last + 1, self.max_block_lines):
                self.out.append(line_chunk(self.path, "block", "",
                                           [(a, min(last, a + self.max_block_lines - 1))],
                                           self.lines))
            return
        self.block.append((first, last))

    def flush(self) -> None:
        if self.block:
            # One contiguous piece: the blank lines between its statements belong to it.
            self.out.append(line_chunk(self.path, "block", "",
                                       [(self.block[0][0], self.block[-1][1])], self.lines))
            self.block = []

    def leading_comments(self, first: int) -> int:
        """Take the comment lines right above a definition out of the pending block."""
        while self.block and self.block[-1][1] == first - 1 and self.block[-1] in self._comments:
            first = self.block.pop()[0]
        return first

    # ------------------------------------------------------------------ definitions

    def definition(self, node: Any) -> tuple[str, Any] | None:
        """('function' | 'class', the definition node) when node is (or wraps) one."""
        g = self.grammar
        inner = node
        if node.type in g.wrappers:
            inner = node.child_by_field_name("definition") or \
                next((c for c in node.named_children if c.type in g.functions | g.classes), None)
            if inner is None:
                return None
        if inner.type in g.functions:
            return "function", inner
        if inner.type in g.classes:
            return "class", inner
        return None

    def level(self, nodes: list[Any], scope: list[str]) -> None:
        """Statements of the top level (or of a container walked through)."""
        for node in nodes:
            if node.type in self.grammar.transparent:
                self.flush()
                self.level(node.named_children, scope)
                continue
            found = self.definition(node)
            first, last = _rows(node)
            if found is None:
                if node.type in COMMENTS:
                    self._comments.add((first, last))
                self.add_block(first, last)
                continue
            first = self.leading_comments(first)
            self.flush()
            what, inner = found
            if what == "function":
                self.out.append(line_chunk(self.path, "function",
                                           ".".join([*scope, node_name(inner)]),
                                           [(first, last)], self.lines))
            else:
                self.klass(inner, first, last, scope)

    def klass(self, node: Any, first: int, last: int, scope: list[str]) -> None:
        name = ".".join([*scope, node_name(node)])
        body = node.child_by_field_name("body")
        members = list(body.named_children) if body is not None else []
        flat: list[Any] = []
        for m in members:
            flat += m.named_children if m.type in self.grammar.member_lists else [m]
        own: list[tuple[int, int]] = []
        subs: list[tuple[Any, Any, int, int]] = []
        pending_comments: list[tuple[int, int]] = []
        for m in flat:
            found = self.definition(m)
            a, b = _rows(m)
            if found is None:
                (pending_comments if m.type in COMMENTS else own).append((a, b))
                continue
            # Comments right above a member go with it, the others stay with the class.
            while pending_comments and pending_comments[-1][1] == a - 1:
                a = pending_comments.pop()[0]
            own += pending_comments
            pending_comments = []
            subs.append((found, m, a, b))
        own += pending_comments
        body_first = min((a for *_, a, _b in subs), default=last + 1)
        body_first = min([body_first, *(a for a, _ in own)]) if own else body_first
        header_last = max(first, body_first - 1) if body_first <= last else first
        self.out.append(line_chunk(self.path, "class", name, [(first, header_last), *own],
                                   self.lines))
        for (what, inner), _m, a, b in subs:
            if what == "function":
                self.out.append(line_chunk(self.path, "method", f"{name}.{node_name(inner)}",
                                           [(a, b)], self.lines))
            else:
                self.klass(inner, a, b, name.split("."))

    def __post_init__(self) -> None:
        self._comments: set[tuple[int, int]] = set()


class AstChunker:
    """Chunks at definitions (tree-sitter), with the enclosing scope named."""

    name = "ast"

    def __init__(self, max_block_lines: int = 40) -> None:
        self.max_block_lines = max_block_lines
        self.key = f"ast-1-{max_block_lines}"

    def supports(self, path: str) -> bool:
        lang = language_of(path)
        return lang is not None and parser_for(lang) is not None

    def chunk(self, path: str, content: bytes) -> list[Chunk]:
        lang = language_of(path)
        parser = parser_for(lang) if lang else None
        if lang is None or parser is None:
            raise ValueError(f"{path}: no tree-sitter grammar for this file here")
        tree = parser.parse(content)
        cut = _Cut(path, GRAMMARS[lang], Lines(content), self.max_block_lines)
        cut.level(tree.root_node.named_children, [])
        cut.flush()
        return sorted(cut.out, key=lambda c: (c.start, c.end))
