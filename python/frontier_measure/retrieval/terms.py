"""Terms for lexical ranking: how a piece of code or a problem statement becomes
the bag of words BM25 scores.

Code names things in compounds (`render_template_string`, `getDebugFlag`), while
a problem statement names them either whole ("rename render_template_string")
or in words ("the function that renders a template string"). So each identifier
yields itself, lower-cased, and its parts: snake_case and camelCase are split,
digits stand apart. Single characters and a short list of English function words
are dropped; keywords of the programming languages are kept (IDF weighs them
down, and a statement may well say "class" or "return").
"""

from __future__ import annotations

import re

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# camelCase / PascalCase boundaries, runs of capitals (HTTPServer -> HTTP, Server)
PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# English function words that carry nothing in a query about code.
STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "if",
    "in", "into", "is", "it", "its", "of", "on", "or", "so", "such", "that", "the", "their",
    "then", "there", "these", "they", "this", "those", "to", "was", "were", "which", "while",
    "will", "with", "all", "any", "each", "every", "some", "should", "would", "could", "can",
    "may", "must", "do", "does", "make", "makes", "made", "also",
})


def split_identifier(name: str) -> list[str]:
    """The lower-cased parts of one identifier (without the whole)."""
    parts: list[str] = []
    for piece in name.split("_"):
        parts += [p.lower() for p in PARTS.findall(piece)]
    return parts


def terms(text: str) -> list[str]:
    """The terms of a text, in order, repeated as often as they occur."""
    out: list[str] = []
    for m in IDENT.finditer(text):
        word = m.group()
        low = word.lower()
        if len(low) > 1 and low not in STOPWORDS:
            out.append(low)
        parts = split_identifier(word)
        if len(parts) > 1:
            out += [p for p in parts if len(p) > 1 and p not in STOPWORDS]
    return out


def path_terms(path: str) -> list[str]:
    """Terms of a file path: its directory names and the file's stem."""
    return terms(re.sub(r"\.[A-Za-z0-9]+$", "", path).replace("/", " "))
