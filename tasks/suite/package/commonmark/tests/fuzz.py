"""Differential fuzzing of the commonmark task: generated Markdown documents.

Documents are drawn block by block: ATX and setext headings, paragraphs,
block quotes and lists (ordered and not, nested by indentation, loose and
tight), indented and fenced code, thematic breaks, raw HTML blocks, link
reference definitions and blank lines; inline text mixes emphasis and
strong emphasis (balanced or not), code spans, links and images (inline and
by reference, with titles), autolinks, inline HTML, entities, backslash
escapes, hard breaks, tabs and non-ASCII text. Each document is rendered as
the cases render theirs: `commonmark`, and parsed once then rendered to
safe HTML with source positions, to reStructuredText and dumped as JSON."""

from hypothesis import strategies as st

WORD = st.one_of(st.sampled_from(["alpha", "beta", "x", "Ünïcödé", "日本語", "a_b", "foo*bar",
                                  "1.", "2)", "#", "-", "+", "<", ">", "&", "&amp;", "&copy;",
                                  "&#35;", "&#xZZ;", "\\*", "\\_", "\\`", "\\\\", "\\[", "`"]),
                 st.text("abcdefxyz", min_size=1, max_size=6))
URL = st.sampled_from(["http://example.com", "/path?a=1&b=2", "<a b>", "#frag", "", "mailto:a@b.c",
                       "http://é.com/ü", "(paren)"])
TITLE = st.sampled_from(["", ' "title"', " 'it''s'", " (paren)", ' "quote \\" in"'])
LABEL = st.sampled_from(["ref", "Ref", "a b", "1", "ünï"])


def _inline(children):
    return st.one_of(
        children.map(lambda t: f"*{t}*"), children.map(lambda t: f"**{t}**"),
        children.map(lambda t: f"_{t}_"), children.map(lambda t: f"__{t}__"),
        children.map(lambda t: f"***{t}***"),
        st.tuples(children, URL, TITLE).map(lambda t: f"[{t[0]}]({t[1]}{t[2]})"),
        st.tuples(children, URL, TITLE).map(lambda t: f"![{t[0]}]({t[1]}{t[2]})"),
        st.tuples(children, LABEL).map(lambda t: f"[{t[0]}][{t[1]}]"),
        st.lists(children, min_size=1, max_size=3).map(" ".join),
    )


INLINE_LEAF = st.one_of(
    WORD, WORD, WORD,
    WORD.map(lambda w: f"`{w}`"), WORD.map(lambda w: f"``{w} ` {w}``"),
    st.sampled_from(["<http://auto.link>", "<a@b.cc>", "<span class=\"x\">", "</span>", "<br/>",
                     "<!-- c -->", "*", "**", "_", "[", "]", "![", "  \n", "\\\n", "\t",
                     "[ref]", "[Ref][]"]))
INLINE = st.recursive(INLINE_LEAF, _inline, max_leaves=8)
LINE = st.lists(INLINE, min_size=1, max_size=5).map(" ".join)


def _blocks(children):
    def indent(block, by):
        return "\n".join(by + line if line else line for line in block.split("\n"))

    return st.one_of(
        children.map(lambda b: indent(b, "> ")),
        st.tuples(st.sampled_from(["- ", "* ", "+ ", "1. ", "2) ", "10. "]),
                  st.lists(children, min_size=1, max_size=3), st.booleans()).map(
            lambda t: ("\n\n" if t[2] else "\n").join(
                t[0] + indent(b, " " * len(t[0]))[len(t[0]):] for b in t[1])),
        st.tuples(st.sampled_from(["- ", "1. "]), children, children).map(
            lambda t: t[0] + t[1] + "\n\n" + indent(t[2], "    ")),
    )


LEAF_BLOCK = st.one_of(
    LINE, LINE, st.lists(LINE, min_size=2, max_size=3).map("\n".join),
    st.tuples(st.integers(1, 7), LINE, st.sampled_from(["", " #", " ##"])).map(
        lambda t: "#" * t[0] + " " + t[1] + t[2]),
    st.tuples(LINE, st.sampled_from(["===", "---", "="])).map("\n".join),
    st.lists(WORD, min_size=1, max_size=3).map(lambda ws: "\n".join("    " + w for w in ws)),
    st.tuples(st.sampled_from(["```", "~~~", "````"]), st.sampled_from(["", "python", "a b"]),
              st.lists(LINE, max_size=2)).map(
        lambda t: t[0] + t[1] + "\n" + "\n".join(t[2]) + "\n" + t[0]),
    st.sampled_from(["***", "---", "___", "* * *", "- - -"]),
    st.tuples(LINE, st.sampled_from(["div", "p", "table"]), st.booleans()).map(
        lambda t: "<" + t[1] + (' markdown="1"' if t[2] else "") + ">\n" + t[0]
        + "\n</" + t[1] + ">"),
    st.tuples(LABEL, URL, TITLE).map(lambda t: f"[{t[0]}]: {t[1] or '<>'}{t[2]}"),
)
BLOCK = st.recursive(LEAF_BLOCK, _blocks, max_leaves=6)
DOCUMENT = st.tuples(st.lists(BLOCK, min_size=1, max_size=5),
                     st.sampled_from(["\n\n", "\n", "\n\n\n", "\r\n\r\n"]),
                     st.sampled_from(["", "\n", "  ", "\t"])).map(
    lambda t: t[1].join(t[0]) + t[2])


def _render(text):
    return {"ops": [
        {"call": "HtmlRenderer", "args": [{"safe": True, "softbreak": "<br />",
                                          "sourcepos": True}], "as": "safe", "observe": False},
        {"call": "ReStructuredTextRenderer", "as": "rst", "observe": False},
        {"call": "Parser", "as": "parser", "observe": False},
        {"call": "commonmark", "args": [text]},
        {"call": "$parser.parse", "args": [text], "as": "ast", "observe": False},
        {"call": "$safe.render", "args": ["$ast"]},
        {"call": "$rst.render", "args": ["$ast"]},
        {"call": "dumpJSON", "args": ["$ast"]}]}


def targets():
    return [
        {"id": "documents", "examples": 100, "strategy": DOCUMENT.map(_render)},
        {"id": "inline", "examples": 60, "strategy": LINE.map(_render)},
    ]
