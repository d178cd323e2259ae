"""Tree-sitter grammars, by file extension, and what each language calls a
definition.

The grammars are the maintained PyPI packages tree-sitter-python, -java and -c,
at the 0.21 line: the platform pins tree-sitter 0.22 for CodeBLEU, and 0.22 takes
a grammar as the int pointer those releases hand over (0.23 and later hand over a
capsule that 0.22 rejects). A grammar that is not installed makes its language
unsupported (the AST chunker then says so), never an import error.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

EXTENSIONS = {".py": "python", ".pyi": "python", ".java": "java", ".c": "c", ".h": "c"}


@dataclass(frozen=True)
class Grammar:
    """The node types the AST chunker cuts at, for one language."""

    language: str
    module: str  # the PyPI grammar package's import name
    functions: frozenset[str]  # a function or method definition: one chunk
    classes: frozenset[str]  # a type whose body holds members: its own chunk plus theirs
    wrappers: frozenset[str] = frozenset()  # wrap a definition (decorators, ...): cut with it
    transparent: frozenset[str] = frozenset()  # walked through (#ifdef around functions, ...)
    member_lists: frozenset[str] = frozenset()  # inside a class body, hold more members


GRAMMARS = {
    "python": Grammar(
        "python", "tree_sitter_python",
        functions=frozenset({"function_definition"}),
        classes=frozenset({"class_definition"}),
        wrappers=frozenset({"decorated_definition"})),
    "java": Grammar(
        "java", "tree_sitter_java",
        functions=frozenset({"method_declaration", "constructor_declaration",
                             "compact_constructor_declaration"}),
        classes=frozenset({"class_declaration", "interface_declaration", "enum_declaration",
                           "record_declaration", "annotation_type_declaration"}),
        member_lists=frozenset({"enum_body_declarations"})),
    "c": Grammar(
        "c", "tree_sitter_c",
        functions=frozenset({"function_definition"}),
        classes=frozenset(),
        transparent=frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                               "linkage_specification", "declaration_list"})),
}


def language_of(path: str) -> str | None:
    dot = path.rfind(".")
    return EXTENSIONS.get(path[dot:].lower()) if dot >= 0 else None


@cache
def parser_for(language: str) -> Any | None:
    """A tree-sitter parser for the language, or None when its grammar is missing."""
    try:
        import tree_sitter

        grammar = importlib.import_module(GRAMMARS[language].module)
        return tree_sitter.Parser(tree_sitter.Language(grammar.language()))
    except (ImportError, KeyError, TypeError, ValueError):
        return None


def available() -> dict[str, bool]:
    """Which languages can be parsed here."""
    return {lang: parser_for(lang) is not None for lang in GRAMMARS}


def node_name(node: Any) -> str:
    """The name a definition node declares ('' when it has none)."""
    name = node.child_by_field_name("name")
    if name is not None:
        return str(name.text.decode("utf-8", "replace"))
    # C: the name sits at the bottom of a chain of declarators (pointer, function ...).
    decl = node.child_by_field_name("declarator")
    while decl is not None:
        if decl.type in ("identifier", "field_identifier", "type_identifier"):
            return str(decl.text.decode("utf-8", "replace"))
        inner = decl.child_by_field_name("declarator")
        if inner is None:
            named = [c for c in decl.named_children if c.type == "identifier"]
            return str(named[0].text.decode("utf-8", "replace")) if named else ""
        decl = inner
    return ""
