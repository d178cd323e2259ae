"""Differential fuzzing of the PyYAML task: generated values and documents.

Values are nested lists and mappings of strings (empty, with quotes, colons,
hashes, leading spaces, line breaks, non-ASCII and astral text, and words the
resolver reads as something else: yes, null, 1e3, 0o17, 2001-01-01), ints
at their edges, floats and booleans. Each is dumped with a drawn set of the
dumper's options (flow style, sort_keys, allow_unicode, width, indent,
explicit start and end, canonical) and the text loaded back. Documents are
drawn as text too, from YAML's syntax: block and flow collections nested,
plain, single- and double-quoted scalars with escapes, literal and folded
block scalars with chomping and indentation indicators, anchors and aliases,
tags, comments and document markers; a third target breaks such a document
at one place, so the scanner's and parser's error messages are compared."""

from hypothesis import strategies as st

TRICKY = ["", " ", "yes", "No", "on", "null", "~", "true", "1e3", "0o17", "0x1F", "1_000",
          "2001-01-01", "12:30:45", ".inf", "-.nan", "a: b", "- x", "# c", "'q'", '"dq"',
          "key:", "&a", "*a", "!tag", "%dir", "@at", "`bt`", "|", ">", "{x}", "[1]", "a,b",
          "line\nbreak", "trail ", " lead", "tab\there", "\u00e9t\u00e9", "\U0001F600",
          "\u2028", "\x85", "\x07bell", "\ufeffbom", "---", "..."]
TEXT = st.one_of(st.sampled_from(TRICKY), st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8),
    st.text("abc :#-'\"\n", max_size=8))
SCALAR = st.one_of(TEXT, TEXT, st.integers(), st.sampled_from([0, -1, 2**63, -2**63, 2**64]),
                   st.floats(allow_nan=False), st.booleans(), st.none())
KEY = st.one_of(TEXT, st.integers(-5, 5))
VALUE = st.recursive(SCALAR, lambda c: st.one_of(
    st.lists(c, max_size=4), st.dictionaries(KEY, c, max_size=4)), max_leaves=12)
DUMP_OPTIONS = st.fixed_dictionaries({}, optional={
    "default_flow_style": st.sampled_from([False, True, None]), "sort_keys": st.booleans(),
    "allow_unicode": st.booleans(), "width": st.sampled_from([5, 20, 80, 1000]),
    "indent": st.integers(2, 9), "explicit_start": st.booleans(),
    "explicit_end": st.booleans(), "canonical": st.booleans(),
    "default_style": st.sampled_from([None, "'", '"', "|", ">"])})

# --- documents as text
PLAIN = st.one_of(st.sampled_from(["a", "word", "two words", "1", "-2.5", "yes", "~", "null",
                                   "2002-12-14", "0x1F", "\u00e9", "a:b", "a #b", "x-y"]),
                  st.text("abcxyz", min_size=1, max_size=5))
DQ = st.lists(st.sampled_from(["a", " ", "\\n", "\\t", "\\\"", "\\\\", "\\x41", "\\u00e9",
                               "\\U0001F600", "\\0", "\\N", "\\_", "\\L", "'", "#", ":"]),
              max_size=5).map(lambda xs: '"' + "".join(xs) + '"')
SQ = st.lists(st.sampled_from(["a", " ", "''", '"', "\\", "#", ": "]), max_size=5).map(
    lambda xs: "'" + "".join(xs) + "'")
TAG = st.sampled_from([""] * 9 + ["!!str ", "!!int ", "!!float ", "!!bool ", "!!null ",
                                 "!!binary ", "!local ", "!!map ", "!!seq ", "!!set ", "!!omap "])
SCALAR_TEXT = st.tuples(TAG, st.one_of(PLAIN, PLAIN, DQ, SQ)).map("".join)


def _indent(text, by):
    return "\n".join((by + line) if line else line for line in text.split("\n"))


@st.composite
def node(draw, depth=0):
    kind = draw(st.integers(0, 9 if depth < 3 else 2))
    if kind <= 2:
        return draw(SCALAR_TEXT)
    if kind == 3:
        head = draw(st.sampled_from(["|", ">", "|-", ">+", "|2", ">-", "|+"]))
        lines = draw(st.lists(st.sampled_from(["line", "  more", "", "x: y", "# no comment"]),
                              min_size=1, max_size=4))
        return head + "\n" + _indent("\n".join(lines), "  ")
    if kind in (4, 5):
        items = draw(st.lists(node(depth + 1), min_size=1, max_size=3))
        return "\n".join("- " + _indent(i, "  ")[2:] for i in items)
    if kind in (6, 7):
        keys = draw(st.lists(PLAIN, min_size=1, max_size=3, unique=True))
        out = []
        for k in keys:
            v = draw(node(depth + 1))
            out.append(f"{k}:\n" + _indent(v, "  ") if "\n" in v or v.startswith(("- ", "|", ">"))
                       else f"{k}: {v}")
        return "\n".join(out)
    if kind == 8:
        items = draw(st.lists(st.one_of(SCALAR_TEXT, st.just("[a, b]"), st.just("{k: v}")),
                              max_size=4))
        return "[" + ", ".join(items) + "]"
    pairs = draw(st.lists(st.tuples(PLAIN, SCALAR_TEXT), max_size=3))
    return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"


@st.composite
def document(draw):
    body = draw(node())
    if draw(st.integers(0, 4)) == 0:  # an anchor on the root, an alias to it after
        body = "base: &b\n" + _indent(body, "  ") + "\nagain: *b\n"
    head = draw(st.sampled_from(["", "", "--- ", "---\n", "%YAML 1.1\n---\n", "# top\n"]))
    tail = draw(st.sampled_from(["", "\n", "\n...\n", "  # end\n", "\n---\nsecond\n"]))
    return head + body + tail


@st.composite
def broken(draw):
    doc = draw(document())
    at = draw(st.integers(0, len(doc)))
    how = draw(st.sampled_from(["cut", "insert", "drop"]))
    if how == "cut":
        return doc[:at]
    if how == "drop":
        return doc[:at] + doc[at + 1:]
    return doc[:at] + draw(st.sampled_from(["\t", ":", "- ", "[", "{", "}", '"', "'", "&",
                                            "*", "!", "%", "@", "\x00", "\n  ", ",", "?"])) \
        + doc[at:]


def _dump(value, options):
    return {"ops": [{"call": "safe_dump", "args": [value], "kwargs": options, "as": "text"},
                    {"call": "safe_load", "args": ["$text"]},
                    {"call": "dump", "args": [value], "kwargs": {"default_flow_style": True}}]}


def _load(doc):
    return {"ops": [{"call": "safe_load_all", "args": [doc], "as": "docs", "observe": False},
                    {"op": "list", "args": ["$docs"]},
                    {"call": "safe_load", "args": [doc]}]}


def targets():
    return [
        {"id": "dump-load", "examples": 100,
         "strategy": st.builds(_dump, VALUE, DUMP_OPTIONS)},
        {"id": "documents", "examples": 100, "strategy": document().map(_load)},
        {"id": "broken-documents", "examples": 60, "strategy": broken().map(_load)},
    ]
