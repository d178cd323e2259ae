"""Held-out cases and timing inputs for the commonmark package task.

The documents are the examples of the CommonMark spec 0.29 (tests/spec.txt,
John MacFarlane, CC-BY-SA 4.0), in groups by section, rendered to HTML (with
default and non-default options) and to reStructuredText, and dumped. Timing
inputs are long documents made of seeded draws of the examples."""

import random
import re
from pathlib import Path

SPEC = (Path(__file__).with_name("spec.txt")).read_text(encoding="utf-8")

SECTIONS = {
    "Tabs": "tabs", "Insecure characters": "entities", "Precedence": "blocks",
    "Thematic breaks": "blocks", "ATX headings": "blocks", "Setext headings": "blocks",
    "Indented code blocks": "code", "Fenced code blocks": "code", "HTML blocks": "html-blocks",
    "Link reference definitions": "links", "Paragraphs": "blocks", "Blank lines": "blocks",
    "Block quotes": "blocks", "List items": "lists", "Lists": "lists", "Inlines": "inlines",
    "Backslash escapes": "entities", "Entity and numeric character references": "entities",
    "Code spans": "inlines", "Emphasis and strong emphasis": "inlines", "Links": "links",
    "Images": "links", "Autolinks": "links", "Raw HTML": "html-blocks",
    "Hard line breaks": "inlines", "Soft line breaks": "inlines", "Textual content": "inlines",
}


def _examples():
    out = []
    section = None
    for m in re.finditer(r"^(#{1,2}) ([^\n]*)$|^`{32} example\n(.*?)^\.\n", SPEC, re.M | re.S):
        if m.group(1) is not None:
            if m.group(2) in SECTIONS:
                section = m.group(2)
        elif section is not None:
            out.append((section, m.group(3).replace("\u2192", "\t")))
    return out


EXAMPLES = _examples()


def _renderers():
    return [{"call": "HtmlRenderer", "as": "html", "observe": False},
            {"call": "HtmlRenderer", "args": [{"safe": True, "softbreak": "<br />",
                                              "sourcepos": True}], "as": "safe",
             "observe": False},
            {"call": "ReStructuredTextRenderer", "as": "rst", "observe": False},
            {"call": "Parser", "as": "parser", "observe": False}]


def _document_ops(k, text):
    ops = [{"call": "commonmark", "args": [text]}]
    if k % 2 == 0:
        ops += [{"call": "$parser.parse", "args": [text], "as": "ast", "observe": False},
                {"call": "$safe.render", "args": ["$ast"]},
                {"call": "$rst.render", "args": ["$ast"]}]
    if k % 10 == 0:
        ops.append({"call": "dumpJSON", "args": ["$ast"]})
    if k % 50 == 0:
        ops.append({"call": "dumpAST", "args": ["$ast"]})
    return ops


def cases():
    out = []
    groups = {}
    for k, (section, text) in enumerate(EXAMPLES):
        groups.setdefault(section, []).append((k, text))
    for section, items in groups.items():
        behaviour = SECTIONS[section]
        slug = re.sub(r"[^a-z]+", "-", section.lower()).strip("-")
        for start in range(0, len(items), 8):
            ops = _renderers()
            for k, text in items[start:start + 8]:
                ops += _document_ops(k, text)
            covers = [behaviour, "html-renderer"]
            if any(k % 2 == 0 for k, _ in items[start:start + 8]):
                covers += ["rst-renderer"]
            if any(k % 10 == 0 for k, _ in items[start:start + 8]):
                covers += ["dump"]
            out.append({"id": f"{slug}-{start // 8:02d}", "covers": covers, "ops": ops})
    sample = "# T\n\n\"Hi\" -- it's 'x' --- ok... a---b ----- c\n\n* [l](/u 'T')\n"
    for fmt in ("html", "json", "ast", "rst", "xml"):
        out.append({"id": f"format-{fmt}", "covers": ["formats"], "ops": [
            {"call": "commonmark", "args": [sample], "kwargs": {"format": fmt}}]})
    smart = ["\"a\" 'b' \"c 'd' e\"", "a--b---c----d-----e------f", "wait... ok.....",
             "it's 'quoted' and \"double\"", "'unclosed and \"also", "x -- y --- z",
             "--\n---\n----", "a'b'c", "\"\"", "''"]
    out.append({"id": "smart", "covers": ["smart", "inlines"], "ops": [
        {"call": "Parser", "kwargs": {"options": {"smart": True}}, "as": "p",
         "observe": False},
        {"call": "HtmlRenderer", "as": "h", "observe": False},
        *[op for k, text in enumerate(smart) for op in (
            {"call": "$p.parse", "args": [text], "as": f"a{k}", "observe": False},
            {"call": "$h.render", "args": [f"$a{k}"]})]]})
    out.append({"id": "nodes", "covers": ["nodes", "html-renderer"], "ops": [
        {"call": "Parser", "as": "p", "observe": False},
        {"call": "HtmlRenderer", "as": "h", "observe": False},
        {"call": "$p.parse", "args": ["a *b* c\n\n# d\n\n> e\n"], "as": "doc",
         "observe": False},
        {"get": "$doc.first_child", "as": "para"},
        {"get": "$para.first_child", "as": "t1"},
        {"get": "$para.last_child", "as": "t3"},
        {"get": "$doc.last_child", "as": "quote"},
        {"call": "$para.is_container"}, {"call": "$t1.is_container"},
        {"call": "$quote.append_child", "args": ["$t1"]},
        {"call": "$quote.prepend_child", "args": ["$t3"]},
        {"call": "$h.render", "args": ["$doc"]},
        {"get": "$doc.first_child", "as": "p2"},
        {"call": "$p2.insert_after", "args": ["$quote"]},
        {"call": "$p2.insert_before", "args": ["$t1"]},
        {"call": "$h.render", "args": ["$doc"]},
        {"call": "$doc.normalize"},
        {"call": "$quote.unlink"},
        {"call": "$h.render", "args": ["$doc"]},
        {"call": "node.Node", "args": ["custom_block", [[1, 1], [1, 1]]], "as": "cb"},
        {"call": "node.Node", "args": ["custom_inline", [[1, 1], [1, 1]]], "as": "ci"},
        {"call": "$cb.append_child", "args": ["$ci"]},
        {"call": "$doc.append_child", "args": ["$cb"]},
        {"call": "$h.render", "args": ["$doc"]},
        {"call": "$doc.walker", "as": "w", "observe": False},
        {"call": "$w.nxt"}, {"call": "$w.resume_at", "args": ["$cb", False]}, {"call": "$w.nxt"},
        {"call": "dumpAST", "args": ["$doc"]}]})
    # Reference labels that differ only in their first character, or whose case
    # folds only with Unicode 14's table (U+2C2F), URLs the safe renderer drops,
    # and delimiter runs where emphasis must skip removed delimiters.
    edge = ["[foo]: /a\n\n[goo] and [foo]\n", "[\u2c2f]: /u\n\n[\u2c5f] and [\u2c2f]\n",
            "[x](javascript:alert(1)) ![y](vbscript:x) <file:///etc> "
            "[d](data:image/png;base64,AA) [e](data:text/html,x)\n",
            "***foo _bar** baz_\n", "*a **b _c* d** e_\n", "***a _b** c_ d*\n",
            "_a *b __c_ d* e__\n", "**a _b* c__ d_ e**\n", "***foo* bar _baz** q_\n",
            "*a _b **c* d_ e** f*\n"]
    ops = _renderers()
    for k, text in enumerate(edge):
        ops += [{"call": "commonmark", "args": [text]},
                {"call": "$parser.parse", "args": [text], "as": "ast", "observe": False},
                {"call": "$safe.render", "args": ["$ast"]}]
    out.append({"id": "edges", "covers": ["links", "inlines", "html-renderer"], "ops": ops})
    out.append({"id": "custom-nodes", "covers": ["nodes", "html-renderer"], "ops": [
        {"call": "Parser", "as": "p", "observe": False},
        {"call": "HtmlRenderer", "as": "h", "observe": False},
        {"call": "$p.parse", "args": ["a\n"], "as": "doc", "observe": False},
        {"call": "node.Node", "args": ["custom_block", [[1, 1], [1, 1]]], "as": "cb"},
        {"call": "node.Node", "args": ["custom_inline", [[1, 1], [1, 1]]], "as": "ci"},
        {"call": "node.Node", "args": ["custom_block", [[1, 1], [1, 1]]], "as": "cb2"},
        {"call": "$cb.__setattr__", "args": ["on_enter", "<section>"]},
        {"call": "$cb.__setattr__", "args": ["on_exit", "</section>"]},
        {"call": "$ci.__setattr__", "args": ["on_enter", "<b>"]},
        {"call": "$ci.__setattr__", "args": ["on_exit", "</b>"]},
        {"call": "$cb2.__setattr__", "args": ["on_exit", "<hr>"]},
        {"call": "$cb.append_child", "args": ["$ci"]},
        {"call": "$doc.append_child", "args": ["$cb"]},
        {"call": "$doc.append_child", "args": ["$cb2"]},
        {"call": "$h.render", "args": ["$doc"]}]})
    whole = "\n\n".join(text for _, text in EXAMPLES[:120])
    out.append({"id": "long-document", "covers": ["blocks", "html-renderer"],
                "ops": [{"call": "commonmark", "args": [whole]}]})
    return out


def _document(rng, n):
    return "\n\n".join(rng.choice(EXAMPLES)[1] for _ in range(n))


def timing_inputs():
    def make(n):
        def one(seed):
            return {"call": "commonmark", "args": [_document(random.Random(seed), n)]}
        return one

    return [
        {"id": "examples100", "size": 100, "make": make(100)},
        {"id": "examples600", "size": 600, "make": make(600)},
    ]
