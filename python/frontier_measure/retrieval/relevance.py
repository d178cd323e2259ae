"""What a RefactorBench task is about: the files and definitions its AST tests
inspect, taken as the relevant set of a retrieval query.

A task's test file reads source files of the repository (`'../src/flask/
templating.py'`, or a directory joined with a file name) and looks for
definitions, imports and calls by name. Here:

* the relevant files are those paths that exist in the repository before the
  refactoring and are source files the index covers (documentation files the
  tests also read, and files the refactoring is to create, cannot be retrieved
  and are left out);
* the relevant definitions are the functions, methods and classes of those
  files, as they are before the refactoring, whose name appears as a string in
  the test (the test checks that the old name is gone, or that it was changed),
  each with the line its `def` or `class` keyword is on.

The test file is parsed, never run.
"""

from __future__ import annotations

import ast
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from .languages import language_of


@dataclass(frozen=True)
class Definition:
    path: str
    name: str  # qualified within its file: "Flask.render"
    line: int  # the line of its def/class keyword


@dataclass
class Relevant:
    files: set[str] = field(default_factory=set)
    definitions: list[Definition] = field(default_factory=list)


def _strings(tree: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _definitions(path: str, source: str) -> list[Definition]:
    out: list[Definition] = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                out.append(Definition(path, ".".join([*scope, child.name]), child.lineno))
                visit(child, [*scope, child.name])
            elif not isinstance(child, ast.expr):
                visit(child, scope)

    try:
        visit(ast.parse(source), [])
    except (SyntaxError, ValueError, RecursionError):
        return []
    return out


def relevant_set(test_file: Path, repo: Path) -> Relevant:
    """The relevant set of the task whose AST tests are `test_file`, in `repo` as
    it is before the refactoring."""
    tree = ast.parse(test_file.read_text(errors="replace"))
    strings = _strings(tree)
    # Paths are relative to a directory one level below the repository root.
    up = [s[3:].rstrip("/") for s in strings if s.startswith("../")]
    names = [s for s in strings if "/" not in s and "." in s and language_of(s)]
    candidates = {posixpath.normpath(p) for p in up}
    candidates |= {posixpath.normpath(f"{d}/{n}") for d in up for n in names}
    rel = Relevant()
    for c in sorted(candidates):
        if c.startswith("..") or not language_of(c) or not (repo / c).is_file():
            continue
        rel.files.add(c)
        if language_of(c) == "python":
            idents = {s for s in strings if s.isidentifier()}
            for d in _definitions(c, (repo / c).read_text(errors="replace")):
                if d.name.rsplit(".", 1)[-1] in idents:
                    rel.definitions.append(d)
    return rel
