"""Held-out cases and timing inputs for the PyYAML package task.

Most cases load one YAML document with `safe_load` (valid documents give
Python values, invalid ones a YAMLError whose message names the problem and
shows where, with a snippet of the line); others load with the other
loaders, dump values back to text with the dumper's options, and run the
lower layers (scan, parse, compose, emit, serialize). Timing inputs load
generated configuration-like documents, long lists and block scalars."""

import random

# --- documents for safe_load ------------------------------------------------

VALID = {
    # scalars and the implicit resolver
    "scalars": ("a: 1\nb: -2\nc: 0o17\nd: 0x1F\ne: 0b101\nf: 1_000\ng: 0\nh: +12\ni: 0017\nj: 190:20:30\n",
                ["scalars"]),
    "floats": ("a: 1.5\nb: -0.5e+3\nc: .inf\nd: -.Inf\ne: .NaN\nf: 6.8523015e+5\ng: 685.230_15e+03\n"
               "h: 190:20:30.15\ni: 1e3\nj: .5\nk: 1.\n", ["scalars"]),
    "bools-nulls": ("a: yes\nb: No\nc: true\nd: FALSE\ne: on\nf: Off\ng: ~\nh: null\ni:\nj: NULL\nk: y\n",
                    ["scalars"]),
    "strings": ("a: hello world\nb: 'single ''quoted'''\nc: \"double \\\"quoted\\\"\"\nd: 123abc\n"
                "e: '123'\nf: -\ng: a:b\nh: x # comment\ni: 'multi\n  line\n\n  folded'\n", ["scalars", "quoting"]),
    "escapes": ("- \"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\\"\\/\\\\\\N\\_\\L\\P\"\n- \"\\x41\\u00e9\\U0001F600\"\n"
                "- \"line one \\\n  continued\"\n- \"a\\\tb\"\n- \"  lead\n\n  trail  \"\n", ["quoting"]),
    "plain-multiline": ("key: this is\n  a plain scalar\n\n  over lines\nnext: v\n", ["scalars"]),
    "unicode": ("name: \u00e9t\u00e9\nemoji: \U0001F600\ncjk: \u65e5\u672c\u8a9e\n\u00fc: \u00fc\n",
                ["scalars"]),
    "bom": ("\ufeffa: 1\n", ["scalars"]),
    "crlf": ("a: 1\r\nb:\r\n  - x\r\n  - y\r\nc: |\r\n  l1\r\n  l2\r\n", ["scalars", "block-scalars"]),
    "other-breaks": ("a: 1\x85b: 2\u2028c: 3\u2029d: \"x\u2028y\"\n", ["scalars"]),
    # collections
    "nested": ("top:\n  list:\n    - 1\n    - [2, 3]\n    - {x: 1, y: [a, b]}\n  map:\n    k: v\n"
               "    empty_list: []\n    empty_map: {}\n", ["collections"]),
    "seq-of-maps": ("- name: a\n  v: 1\n- name: b\n  v: 2\n-\n  name: c\n- - x\n  - y\n", ["collections"]),
    "indentless": ("key:\n- a\n- b\nother:\n- c\n", ["collections"]),
    "flow": ("{a: [1, 2, {b: c}], d: {e: f}, 'g h': \"i\", j: , ? k : l, m}\n", ["collections"]),
    "flow-seq-pairs": ("[a: 1, b: 2, ? c : 3, d, [e], {f: g}, ]\n", ["collections"]),
    "flow-multiline": ("[\n  one,\n  two,  # c\n  three\n]\n", ["collections"]),
    "complex-key": ("? - a\n  - b\n: seq-key\n? |\n  block key\n: v\n", ["collections"]),
    "explicit-keys": ("? a\n: 1\n? b\n?\n: 3\n", ["collections"]),
    "empty-values": ("a:\nb:\n  c:\n-:\n", ["collections"]),
    "top-scalar": ("just a string\n", ["scalars"]),
    "empty": ("", ["streams"]),
    "comments-only": ("# nothing\n\n   # more\n", ["streams"]),
    # block scalars
    "literal": ("a: |\n  line 1\n   line 2\n\n  line 3\nb: after\n", ["block-scalars"]),
    "folded": ("a: >\n  folded\n  text\n\n  para\n    indented\n  back\nb: x\n", ["block-scalars"]),
    "chomping": ("s: |-\n  strip\n\nk: |+\n  keep\n\nc: |\n  clip\n\n\n", ["block-scalars"]),
    "indent-indicator": ("a: |2\n    two extra\n  base\nb: >-1\n  x\n", ["block-scalars"]),
    "block-top": ("--- |\n  top literal\n  text\n", ["block-scalars"]),
    "folded-more": (">\n a\n b\n\n  c\n d\n\n\n e\n", ["block-scalars"]),
    "block-comment": ("a: | # comment\n  x\n", ["block-scalars"]),
    # anchors, aliases, merge keys
    "anchors": ("a: &x [1, 2]\nb: *x\nc: &y {k: v}\nd: *y\ne: &s str\nf: *s\n", ["anchors"]),
    "merge": ("base: &b {x: 1, y: 2}\nother: &o {z: 3}\nm:\n  <<: *b\n  y: 9\nn:\n  <<: [*b, *o]\n  w: 0\n"
              "p: {<<: {q: 1}}\n", ["merge"]),
    "merge-nested": ("a: &a {k: 1}\nb: &b {<<: *a, l: 2}\nc: {<<: *b, m: 3}\n", ["merge"]),
    "recursive": ("&r [1, *r]\n", ["anchors"]),
    "value-key": ("=: v\n", ["tags"]),
    # timestamps
    "timestamps": ("a: 2001-12-14t21:59:43.10-05:00\nb: 2001-12-14 21:59:43.10 -5\nc: 2001-12-15T02:59:43.1Z\n"
                   "d: 2002-12-14\ne: 2001-12-15 2:59:43.10\nf: 2001-12-14 21:59:43.1234567 +05:30\n"
                   "g: 2001-12-14T21:59:43Z\n", ["timestamps"]),
    # tags
    "tags": ("a: !!str 123\nb: !!int '42'\nc: !!float '1'\nd: !!bool 'yes'\ne: !!null ''\n"
             "f: !!binary aGVsbG8gd29ybGQ=\ng: !!set {x, y}\nh: !!omap [a: 1, b: 2]\ni: !!pairs [a: 1, a: 2]\n"
             "j: !!seq [1]\nk: !!map {a: 1}\nl: !<tag:yaml.org,2002:str> 5\nm: !!timestamp 2001-01-01\n",
             ["tags"]),
    "binary-block": ("b: !!binary |\n  R0lGODlhDAAMAIQAAP//9/X\n  17unp5WZmZgAAAOfn515eXvPz7Y6OjuDg4J+fn5\n", ["tags"]),
    "directives": ("%YAML 1.1\n%TAG !e! tag:example.com,2000:\n%TAG ! !local-\n---\na: !!str x\n", ["tags"]),
    "ints-more": ("a: -0b11\nb: 0x_ff\nc: -0o7\nd: +0\ne: 1_2:3_0\nf: 0\ng: -190:20\n", ["scalars"]),
    "document-markers": ("--- a\n...\n--- b\n", ["streams"]),
    "doc-start-map": ("---\nkey: value\n...\n", ["streams"]),
    "tabs": ("a:\tb\nc: [1,\t2]\n", ["scalars"]),
    "long-key": ("k" * 100 + ": v\n", ["collections"]),
    "quoted-key-flow": ("{\"a\": 1, 'b': 2}\n", ["quoting"]),
    "question-plain": ("a: ?x\nb: -y\nc: :z\n", ["scalars"]),
    "single-multiline": ("a: 'one\n\n  two\n  three'\n", ["quoting"]),
    "double-escaped-break": ("a: \"x\\\r\n  y\"\n", ["quoting"]),
    "capital-x": ("# a comment with X in it\nk: [aXb, 'X', \"X Y\", X: Y]\n-X: 1\n---x: 2\n...x: 3\n",
                  ["scalars"]),
    "top-block-indent1": ("--- |\n x\n  y\n", ["block-scalars"]),
    "flow-empty-key": ("[{? : v}, {? }, {? k}]\n", ["collections"]),
    "bom-inside": ("a: \ufeffx\n", ["scalars"]),
    "tag-escape-more": ("a: !!str b\nc: !<tag:yaml.org,2002:st%72> d\n", ["tags"]),
    "flow-in-block": ("- [a, b]: c\n", ["collections"]),
    "nested-seq-same-line": ("- - - a\n    - b\n  - c\n", ["collections"]),
    "flow-seq-empty-value": ("[a: , b:]\n", ["collections"]),
    "question-capital": ("?X: 1\n?Y\n", ["scalars"]),
    "colon-capital": (":X: 1\nc:\n- :X\n", ["scalars"]),
}

INVALID = {
    "unclosed-flow": ("[1, 2\n", ["errors"]),
    "unclosed-map": ("{a: 1\n", ["errors"]),
    "bad-indent": ("a:\n  b: 1\n c: 2\n", ["errors"]),
    "tab-indent": ("a:\n\tb: 1\n", ["errors"]),
    "undefined-alias": ("a: *nope\n", ["errors", "anchors"]),
    "unclosed-quote": ("a: 'abc\n", ["errors"]),
    "unclosed-dquote": ("a: \"abc", ["errors"]),
    "bad-escape": ("a: \"\\q\"\n", ["errors"]),
    "bad-hex-escape": ("a: \"\\xZZ\"\n", ["errors"]),
    "duplicate-anchor-use": ("a: &x 1\nb: *x\nc: &x 2\nd: *x\n", ["anchors"]),
    "mapping-in-seq-bad": ("- a\nb: c\n", ["errors"]),
    "unknown-tag": ("a: !foo bar\n", ["errors", "tags"]),
    "undefined-tag-handle": ("a: !e!x bar\n", ["errors", "tags"]),
    "bad-int-tag": ("a: !!int abc\n", ["errors", "tags"]),
    "bad-binary": ("a: !!binary \"\u00e9\"\n", ["errors", "tags"]),
    "bad-binary-padding": ("a: !!binary abc\n", ["errors", "tags"]),
    "bad-set": ("a: !!set [1]\n", ["errors", "tags"]),
    "bad-omap": ("a: !!omap {a: 1}\n", ["errors", "tags"]),
    "bad-omap-item": ("a: !!omap [1]\n", ["errors", "tags"]),
    "bad-omap-multi": ("a: !!omap [{a: 1, b: 2}]\n", ["errors", "tags"]),
    "bad-pairs": ("a: !!pairs {a: 1}\n", ["errors", "tags"]),
    "bad-pairs-item": ("a: !!pairs [1]\n", ["errors", "tags"]),
    "bad-pairs-multi": ("a: !!pairs [{a: 1, b: 2}]\n", ["errors", "tags"]),
    "bad-merge": ("a: {<<: 1}\n", ["errors", "merge"]),
    "bad-merge-seq": ("a: {<<: [1]}\n", ["errors", "merge"]),
    "unhashable-key": ("? [a]\n: 1\n", ["errors"]),
    "unhashable-flow": ("{[a]: 1}\n", ["errors"]),
    "scalar-as-seq": ("a: !!seq x\n", ["errors", "tags"]),
    "scalar-as-map": ("a: !!map x\n", ["errors", "tags"]),
    "seq-as-scalar": ("a: !!str [1]\n", ["errors", "tags"]),
    "two-docs": ("a\n--- b\n", ["errors", "streams"]),
    "bad-directive": ("%YAML 2.0\n--- a\n", ["errors"]),
    "bad-directive-version": ("%YAML 1.x\n--- a\n", ["errors"]),
    "dup-yaml-directive": ("%YAML 1.1\n%YAML 1.1\n--- a\n", ["errors"]),
    "dup-tag-directive": ("%TAG !a! x\n%TAG !a! y\n--- a\n", ["errors"]),
    "directive-no-doc": ("%YAML 1.1\na\n", ["errors"]),
    "unknown-directive": ("%FOO bar\n--- a\n", ["errors"]),
    "bad-tag-handle": ("%TAG a b\n--- x\n", ["errors"]),
    "bad-tag-directive-prefix": ("%TAG !a! \n--- x\n", ["errors"]),
    "yaml-directive-garbage": ("%YAML 1.1 x\n--- a\n", ["errors"]),
    "yaml-directive-char": ("%YAML 1.1@\n--- a\n", ["errors"]),
    "tag-handle-char": ("a: !a^b!c d\n", ["errors", "tags"]),
    "tag-directive-handle-char": ("%TAG !a^! x\n--- a\n", ["errors"]),
    "tag-uri-escape": ("a: !<tag:ex%41mple> v\n", ["errors", "tags"]),
    "block-indicator-x": ("a: |X\n  b\n", ["errors", "block-scalars"]),
    "bom-error-column": ("a: \ufeffx y: z\n", ["errors"]),
    "bad-anchor-char": ("a: &\n", ["errors"]),
    "bad-anchor-end": ("a: &x? b\n", ["errors"]),
    "bad-tag-uri": ("a: !<x y\n", ["errors"]),
    "bad-tag-escape": ("a: !<%zz> b\n", ["errors"]),
    "bad-tag-utf8": ("a: !<%ff> b\n", ["errors"]),
    "tag-no-suffix": ("a: !e! b\n", ["errors"]),
    "block-bad-indicator": ("a: |x\n", ["errors", "block-scalars"]),
    "block-zero-indent": ("a: |0\n  x\n", ["errors", "block-scalars"]),
    "block-double-indicator": ("a: |++\n", ["errors", "block-scalars"]),
    "block-bad-trailer": ("a: | x\n", ["errors", "block-scalars"]),
    "plain-colon-flow": ("{a:b: c}\n", ["errors"]),
    "key-too-long": ("k" * 1100 + ": v\n", ["errors"]),
    "multiline-key": ("a\nb: c\n", ["errors"]),
    "special-char": ("a: @x\n", ["errors"]),
    "backquote": ("`x`\n", ["errors"]),
    "control-char": ("a: \x07b\n", ["errors"]),
    "control-char-long": ("x" * 50 + "\x01" + "y" * 50 + "\n", ["errors"]),
    "flow-end-block": ("a: ]\n", ["errors"]),
    "block-seq-in-flow": ("[- a]\n", ["errors"]),
    "key-in-flow-block": ("{? a\n\n: b, c}\n", ["collections"]),
    "doc-end-in-quote": ("a: 'x\n--- y'\n", ["errors"]),
    "doc-end-in-dquote": ("a: \"x\n... y\"\n", ["errors"]),
    "bad-sequence-entry": ("a: - b\n", ["errors"]),
    "bad-mapping-value": ("a: b: c\n", ["errors"]),
    "bad-flow-entry": ("[a, , b]\n", ["errors"]),
    "bad-flow-map-entry": ("{a: 1 b: 2}\n", ["errors"]),
    "flow-missing-comma": ("[a b\n c d]\n", ["collections"]),
    "alias-with-props": ("a: &x 1\nb: !!str *x\n", ["errors", "anchors"]),
    "tab-in-block-plain": ("a:\n  - x\n\t- y\n", ["errors"]),
    "block-map-no-value": ("a: 1\n- b\n", ["errors"]),
    "bad-flow-seq-end": ("[a}\n", ["errors"]),
    "bad-flow-map-end": ("{a]\n", ["errors"]),
    "bad-timestamp": ("a: !!timestamp nope\n", ["errors", "timestamps"]),
    "bad-bool": ("a: !!bool maybe\n", ["errors", "tags"]),
    "dup-keys": ("a: 1\na: 2\n", ["collections"]),
    "nul-byte": ("a: \x00\n", ["errors"]),
    "tag-uri-caret": ("a: !<tag:a^b> x\n", ["errors", "tags"]),
    "tag-uri-backslash": ("a: !<tag:a\\b> x\n", ["errors", "tags"]),
}

# --- generated documents ----------------------------------------------------

WORDS = ["alpha", "beta", "gamma", "delta", "server", "port", "name", "path", "enabled",
         "timeout", "retries", "owner", "version", "tags", "items", "db", "cache", "log",
         "host", "user", "region", "replicas", "image", "memory", "limit"]


def _word(rng):
    return rng.choice(WORDS) + (str(rng.randrange(100)) if rng.random() < 0.4 else "")


def _scalar(rng):
    r = rng.random()
    if r < 0.3:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 6)))
    if r < 0.45:
        return str(rng.randrange(-10000, 100000))
    if r < 0.52:
        return f"{rng.uniform(-1e4, 1e4):.3f}"
    if r < 0.6:
        return rng.choice(["true", "false", "yes", "no", "null", "~"])
    if r < 0.67:
        return "'" + " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 5))) + "'"
    if r < 0.74:
        return '"' + rng.choice(WORDS) + "\\t" + rng.choice(WORDS) + '\\u00e9"'
    if r < 0.8:
        return (f"{rng.randrange(1970, 2030)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
                + rng.choice(["", f" {rng.randrange(24):02d}:{rng.randrange(60):02d}:00Z"]))
    if r < 0.85:
        return "/" + "/".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 5)))
    if r < 0.9:
        return "[" + ", ".join(_word(rng) for _ in range(rng.randrange(0, 5))) + "]"
    if r < 0.95:
        return "{" + ", ".join(f"{w}: {rng.randrange(100)}" for w in rng.sample(WORDS, 2)) + "}"
    return f"0x{rng.randrange(1 << 16):x}"


def _block(rng, lines, depth, indent):
    pad = " " * indent
    used = set()
    for _ in range(rng.randrange(2, 7)):
        k = _word(rng)
        if k in used:
            continue
        used.add(k)
        r = rng.random()
        comment = "  # note" if rng.random() < 0.1 else ""
        if r < 0.2 and depth < 3:
            lines.append(f"{pad}{k}:")
            _block(rng, lines, depth + 1, indent + 2)
        elif r < 0.32 and depth < 3:
            lines.append(f"{pad}{k}:")
            for _ in range(rng.randrange(1, 5)):
                if rng.random() < 0.3:
                    lines.append(f"{pad}- {_word(rng)}: {_scalar(rng)}")
                    lines.append(f"{pad}  {_word(rng)}x: {_scalar(rng)}")
                else:
                    lines.append(f"{pad}- {_scalar(rng)}")
        elif r < 0.37:
            lines.append(f"{pad}{k}: |")
            for _ in range(rng.randrange(1, 4)):
                lines.append(f"{pad}  {_scalar(rng)}")
        else:
            lines.append(f"{pad}{k}: {_scalar(rng)}{comment}")


def config(rng, sections):
    lines = ["# generated configuration", f"title: doc {rng.randrange(1000)}",
             "defaults: &defaults", "  retries: 3", "  timeout: 30"]
    for s in range(sections):
        lines.append(f"section{s}:")
        if rng.random() < 0.2:
            lines.append("  <<: *defaults")
        _block(rng, lines, 1, 2)
    return "\n".join(lines) + "\n"


def long_list(rng, n):
    lines = []
    for i in range(n):
        r = rng.random()
        if r < 0.5:
            lines.append(f"- id: {i}\n  name: {_word(rng)} {_word(rng)}\n  value: {_scalar(rng)}")
        elif r < 0.8:
            lines.append(f"- {_scalar(rng)}")
        else:
            lines.append(f"- [{rng.randrange(100)}, {_word(rng)}, {rng.random():.4f}]")
    return "\n".join(lines) + "\n"


def block_text(rng, n):
    lines = []
    for i in range(n):
        style = rng.choice(["|", ">", "|-", ">+"])
        lines.append(f"entry{i}: {style}")
        for j in range(rng.randrange(3, 9)):
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(3, 14)))
            lines.append("  " + ("  " if j and rng.random() < 0.15 else "") + words)
            if rng.random() < 0.15:
                lines.append("")
        if rng.random() < 0.3:
            lines.append(f"quoted{i}: \"" + " ".join(rng.choice(WORDS) for _ in range(8)) + "\"")
    return "\n".join(lines) + "\n"


# --- cases --------------------------------------------------------------------

def _load(cid, doc, covers):
    return {"id": cid, "covers": covers, "ops": [{"call": "safe_load", "args": [doc]}]}


def _loader(name):
    return {"get": name, "as": name, "observe": False}


def _lists_of_kept(case):
    """A "$name" inside a list literal is a plain string (only a whole argument
    passes a kept value), so an argument written as a list of "$name"s is built
    first: a new list, kept under a name of its own, and one append per value."""
    ops = []
    for op in case["ops"]:
        args = op.get("args", [])
        if args and isinstance(args[0], list) and args[0] \
                and all(isinstance(a, str) and a.startswith("$") for a in args[0]):
            name = "built%d" % len(ops)
            ops.append({"op": "list", "args": [[]], "as": name, "observe": False})
            ops += [{"call": "$%s.append" % name, "args": [a], "observe": False} for a in args[0]]
            op = dict(op, args=["$" + name] + list(args[1:]))
        ops.append(op)
    return dict(case, ops=ops)


def cases():
    return [_lists_of_kept(case) for case in _cases()]


def _cases():
    out = []
    for cid, (doc, covers) in VALID.items():
        out.append(_load("valid-" + cid, doc, covers))
    for cid, (doc, covers) in INVALID.items():
        out.append(_load("invalid-" + cid, doc, covers))
    # byte and stream input
    out.append({"id": "bytes-input", "covers": ["input"], "ops": [
        {"call": "safe_load", "args": [b"a: 1\nb: [x, y]\n"]},
        {"call": "safe_load", "args": ["a: \u00e9\n".encode("utf-8")]},
        {"call": "safe_load", "args": ["\ufeffa: \u00e9\n".encode("utf-16-le")]},
        {"call": "safe_load", "args": ["\ufeffa: \u00e9\n".encode("utf-16-be")]},
        {"call": "safe_load", "args": [b"\xef\xbb\xbfa: 2\n"]},
        {"call": "safe_load", "args": [b"a: \xff\xfe\n"]},
        {"call": "safe_load", "args": [b"a: \xe9\n"]},
        {"call": "safe_load", "args": [b"x: " + b"y" * 40 + b"\x07" + b"z" * 40]},
        {"call": "safe_load", "args": [5]},
        {"call": "scan", "args": [b"a: 1\n"], "as": "sb", "observe": False},
        {"op": "list", "args": ["$sb"]},
        {"call": "scan", "args": ["\ufeffa\n".encode("utf-16-be")], "as": "sb2", "observe": False},
        {"op": "list", "args": ["$sb2"]},
        {"call": "scan", "args": ["\ufeffa\n".encode("utf-16-le")], "as": "sb3", "observe": False},
        {"op": "list", "args": ["$sb3"]},
    ]})
    # multi-document streams
    out.append({"id": "load-all", "covers": ["streams"], "ops": [
        {"call": "safe_load_all", "args": ["--- 1\n--- [2]\n...\n--- {a: 3}\n"], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]},
        {"call": "safe_load_all", "args": ["a: 1\n---\nb: 2\n--- !!str\n...\n"], "as": "g2", "observe": False},
        {"op": "list", "args": ["$g2"]},
        {"call": "safe_load_all", "args": ["--- 1\n--- [2\n"], "as": "g3", "observe": False},
        {"op": "list", "args": ["$g3"]},
        {"call": "safe_load_all", "args": [""], "as": "g4", "observe": False},
        {"op": "list", "args": ["$g4"]},
        {"call": "safe_load_all", "args": ["%YAML 1.1\n--- a\n...\n%YAML 1.1\n--- b\n"], "as": "g5", "observe": False},
        {"op": "list", "args": ["$g5"]},
        # documents come one at a time: an error further on waits for its turn
        {"call": "safe_load_all", "args": ["a\n--- b\n--- @x\n"], "as": "g6", "observe": False},
        {"op": "next", "args": ["$g6"]},
        {"op": "next", "args": ["$g6"]},
        {"op": "next", "args": ["$g6"]},
        {"call": "parse", "args": ["[a: 1]\n"], "as": "g7", "observe": False},
        {"op": "list", "args": ["$g7"], "as": "g7l", "observe": False},
        {"op": "[]", "args": ["$g7l", 3], "as": "g7m", "observe": False},
        {"get": "$g7m.flow_style"},
    ]})
    # the other loaders
    full_doc = ("a: !!python/tuple [1, 2]\nb: !!python/complex 1+2j\nc: !!python/str x\n"
                "d: !!python/unicode y\ne: !!python/bytes aGk=\nf: !!python/int 3\ng: !!python/long 4\n"
                "h: !!python/float 1.5\ni: !!python/list [1]\nj: !!python/dict {k: v}\nk: !!python/none ''\n"
                "l: !!python/bool true\nm: !!python/name:len\nn: !!python/name:builtins.abs ''\n"
                "o: !!set {1, 2}\n")
    out.append({"id": "loaders", "covers": ["loaders"], "ops": [
        _loader("SafeLoader"), _loader("FullLoader"), _loader("BaseLoader"), _loader("Loader"),
        _loader("UnsafeLoader"),
        {"call": "load", "args": ["a: 1\nb: [true, 1.5, ~, 2001-01-01]\nc: &x {d: *x}\n"],
         "kwargs": {"Loader": "$BaseLoader"}},
        {"call": "load", "args": ["a: !!int 1\n"], "kwargs": {"Loader": "$BaseLoader"}},
        {"call": "load", "args": ["a: !!str 1\n? [x]\n: 2\n"], "kwargs": {"Loader": "$BaseLoader"}},
        {"call": "load", "args": ["a: 1\nb: <<\n"], "kwargs": {"Loader": "$SafeLoader"}},
        {"call": "load", "args": [full_doc], "kwargs": {"Loader": "$FullLoader"}},
        {"call": "full_load", "args": [full_doc]},
        {"call": "full_load_all", "args": ["--- !!python/tuple [1]\n--- 2\n"], "as": "fa", "observe": False},
        {"op": "list", "args": ["$fa"]},
        {"call": "load_all", "args": ["--- 1\n--- x\n"], "kwargs": {"Loader": "$BaseLoader"}, "as": "la",
         "observe": False},
        {"op": "list", "args": ["$la"]},
        {"call": "full_load", "args": ["!!python/name:os.nope ''\n"]},
        {"call": "full_load", "args": ["!!python/name:nosuchmodule.x ''\n"]},
        {"call": "full_load", "args": ["!!python/name: ''\n"]},
        {"call": "full_load", "args": ["!!python/name:len x\n"]},
        {"call": "full_load", "args": ["!!python/bytes \"\u00e9\"\n"]},
        {"call": "full_load", "args": ["!!python/bytes abc\n"]},
        {"call": "full_load", "args": ["!!python/object/apply:len [[1]]\n"]},
        {"call": "full_load", "args": ["!!python/module:sys ''\n"]},
        {"call": "unsafe_load", "args": ["!!python/module:sys ''\n"]},
        {"call": "unsafe_load", "args": ["!!python/module: ''\n"]},
        {"call": "unsafe_load", "args": ["!!python/module:sys x\n"]},
        {"call": "unsafe_load", "args": ["!!python/object/apply:len [[1, 2, 3]]\n"]},
        {"call": "unsafe_load", "args": ["!!python/object/new:builtins.int [7]\n"]},
        {"call": "unsafe_load", "args": ["!!python/object/new:collections.OrderedDict\n"
                                         "dictitems: {a: 1, b: 2}\n"]},
        {"call": "unsafe_load", "args": ["!!python/object/apply:builtins.list\nlistitems: [1, 2]\n"]},
        {"call": "unsafe_load", "args": ["!!python/object/apply:builtins.dict\nkwds: {a: 1}\n"]},
        {"call": "unsafe_load", "args": ["!!python/object:yaml.error.Mark\nname: n\nindex: 1\nline: 2\n"
                                         "column: 3\nbuffer: null\npointer: 0\n"], "as": "mk"},
        {"op": "str", "args": ["$mk"]},
        {"call": "unsafe_load", "args": ["!!python/object/new:yaml.tokens.AliasToken\n"
                                         "args: [v, null, null]\nstate: !!python/tuple [{value: w}, {}]\n"]},
        {"call": "unsafe_load", "args": ["!!python/object/new:yaml.nodes.ScalarNode\n"
                                         "args: [t, v]\nstate: {style: '|'}\n"]},
        {"call": "load", "args": ["!!python/object/apply:abs [-3]\n"], "kwargs": {"Loader": "$Loader"}},
        {"call": "unsafe_load_all", "args": ["--- !!python/tuple []\n--- 1\n"], "as": "ua", "observe": False},
        {"op": "list", "args": ["$ua"]},
    ]})
    # dumping
    data = {"name": "demo", "n": 3, "f": 1.5, "neg": -0.0, "inf": float("inf"), "ninf": float("-inf"),
            "nan": float("nan"), "big": 10 ** 20, "t": True, "none": None, "list": [1, "two", [3, 4], {}],
            "empty": [], "nested": {"b": {"c": "d"}, "a": [{"x": 1, "y": 2}]},
            "text": "line one\nline two\n", "spaces": "  padded  ", "quote": "it's \"q\"",
            "colon": "a: b", "hash": "a #b", "num-like": "123", "bool-like": "yes", "null-like": "~",
            "uni": "\u00e9t\u00e9 \U0001F600", "ctrl": "a\x01b\tc", "bytes": b"\x00\x01bin", "long":
            " ".join(["word"] * 40), "multi-space": "a  b\n\nc d\n", "trail": "x \n", "lead-break": "\nx",
            "date": "2001-01-01", "dash": "- x", "key with space": 1, 3: "int key", None: "null key",
            "tab": "\t", "crlf": "a\r\nb", "nbsp": "a\u00a0b", "bom": "\ufeffx", "ls": "a\u2028b",
            "sur": "a\x85b", "wide": "\U00010000", "e": "", "star": "*x", "amp": "&x", "bang": "!x",
            "pct": "%x", "at": "@x", "q": "?", "qs": "? x", "dq": "\"", "comma": "a, b", "brace": "{x}"}
    out.append({"id": "dump-options", "covers": ["dump"], "ops": [
        {"call": "safe_dump", "args": [data]},
        {"call": "safe_dump", "args": [data], "kwargs": {"default_flow_style": True}},
        {"call": "safe_dump", "args": [data], "kwargs": {"default_flow_style": None, "sort_keys": False}},
        {"call": "safe_dump", "args": [data], "kwargs": {"allow_unicode": True, "width": 30, "indent": 4}},
        {"call": "safe_dump", "args": [data], "kwargs": {"canonical": True}},
        {"call": "safe_dump", "args": [data], "kwargs": {"explicit_start": True, "explicit_end": True,
                                                         "version": [1, 1], "tags": {"!e!": "tag:ex,2000:"}}},
        {"call": "safe_dump", "args": [data], "kwargs": {"line_break": "\r\n", "indent": 1, "width": 5}},
        {"call": "safe_dump", "args": [data], "kwargs": {"default_style": "\"", "width": 1000}},
        {"call": "safe_dump", "args": [data], "kwargs": {"default_style": "'"}},
        {"call": "safe_dump", "args": [data], "kwargs": {"default_style": "|"}},
        {"call": "safe_dump", "args": [data], "kwargs": {"default_style": ">", "allow_unicode": True}},
        {"call": "safe_dump", "args": [data], "kwargs": {"encoding": "utf-8", "allow_unicode": True}},
        {"call": "safe_dump", "args": [data], "kwargs": {"encoding": "utf-16-le"}},
        {"call": "safe_dump", "args": [data], "kwargs": {"line_break": "\r"}},
        {"call": "safe_dump", "args": [[data, data]], "kwargs": {"indent": 3}},
        {"call": "safe_dump", "args": ["top"]},
        {"call": "safe_dump", "args": ["multi\nline\n"]},
        {"call": "safe_dump", "args": [None]},
        {"call": "safe_dump", "args": [[]]},
        {"call": "safe_dump", "args": [{}]},
        {"get": "Mark", "as": "MK", "observe": False},
        {"call": "safe_dump", "args": ["$MK"]},
        {"call": "safe_dump_all", "args": [[1, {"a": [1]}, "x"]], "kwargs": {"explicit_end": True}},
        {"call": "safe_dump_all", "args": [[1, 2]], "kwargs": {"encoding": "utf-8"}},
        {"call": "safe_dump_all", "args": [["x", "y", {"a": "b"}]], "kwargs": {"version": [1, 1]}},
        {"call": "safe_dump_all", "args": [["x", "y"]], "kwargs": {"tags": {"!t!": "tag:t,2000:"}}},
        {"call": "safe_dump", "args": [[1e17, -2.5e-20, 1e300, 12345678.0]]},
        {"call": "safe_load", "args": ["[2001-12-14 21:59:43.10 -5, 2001-12-14 21:59:43, 2002-01-01]\n"],
         "as": "dts", "observe": False},
        {"call": "safe_dump", "args": ["$dts"]},
        {"call": "unsafe_load", "args": ["? !!python/tuple [1, 2]\n: 3\nz: [a, b]\n"], "as": "ck",
         "observe": False},
        {"call": "dump", "args": ["$ck"]},
        {"call": "dump", "args": ["$ck"], "kwargs": {"default_flow_style": True}},
        {"call": "safe_dump", "args": ["aX bX cX dX eX fX\n\nX Y"], "kwargs": {"default_style": ">", "width": 8}},
        {"call": "safe_dump", "args": ["w" * 30 + "\u00e9" * 30 + " \u00e9\u00e9 x"],
         "kwargs": {"default_style": "\"", "width": 20, "allow_unicode": True}},
        {"call": "safe_dump", "args": [{"k": "aX bX cX dX eX fX gX hX iX"}], "kwargs": {"width": 10}},
    ]})
    out.append({"id": "dump-styles", "covers": ["dump"], "ops": [
        {"call": "safe_dump", "args": [s]} for s in [
            "plain", "", " lead", "trail ", "a\nb", "a\n", "a\n\n", "\n", " \n x", "x\n ", "# c",
            "-", "- ", "--- x", "...", "a:b", "a: b", "a #b", "a#b", "'q'", "\"", "é", "\x85",
            "a\u2028", "\ud7ff", "\ue000", "\ufffe", "\U0010ffff", "a" * 100, "a " * 60,
            "  two\n  lines\n", "x\ty", "1e3", "0x10", ".inf", "null", "Yes", "=", "<<", "\t lead",
            "end\t", "mid \n break", "a\n b\n", "[a]", "{a}", ",", "|x", ">x", "a,b", "a\rb",
            "long " * 30 + "\nline", "  \n\n  x  \n", "x" * 90 + " " + "y" * 10,
        ]
    ]})
    out.append({"id": "dump-block-styles", "covers": ["dump"], "ops": [
        {"call": "safe_dump", "args": [s], "kwargs": {"default_style": style, "width": 20}}
        for style in ["|", ">", "'", "\""]
        for s in ["one two three four five six seven eight nine ten", "a\n\nb\n  c\nd  e\n",
                  " lead\n", "trail\n\n\n", "x\n ", "", "a\u2028b", "\x85 x", "a" * 30 + " b",
                  "é\u00a0 \U0001F600", "  x  y  ", "a\tb  c", "'s' \"d\" \\",
                  "aaaa  bbbb  cccc  dddd  eeee  ffff  gggg  hhhh", "a\nXb\n\nXc"]
    ]})
    out.append({"id": "dump-unicode", "covers": ["dump"], "ops": [
        {"call": "safe_dump", "args": [{"k\u00e9": ["\u00e9", "\U0001F600", "\u2028", "\x9f"]}],
         "kwargs": {"allow_unicode": au, "width": 12}} for au in [True, False]
    ] + [
        {"call": "safe_dump", "args": ["w" * 30 + "\u00e9" * 30], "kwargs": {"default_style": "\"", "width": 20}},
        {"call": "safe_dump", "args": ["a b c d e f g h i j k l m n o p"], "kwargs": {"default_style": "'",
                                                                                     "width": 10}},
        {"call": "safe_dump", "args": ["a  b  c  d  e  f  g\n\nh  i"], "kwargs": {"default_style": "\"",
                                                                                   "width": 6}},
    ]})
    odd = ("a: !!python/tuple [1, [2, 3]]\nb: !!python/complex 1+2j\nc: !!python/complex 3j\n"
           "d: !!python/complex 4\ne: !!python/name:len\nf: !!python/module:sys\ng: !!set {x}\n"
           "h: !!python/object/new:collections.OrderedDict [[[k, v], [z, 1]]]\nh2: !!python/object/apply:collections.OrderedDict [[[k, v], [z, 1]]]\n"
           "i: !!python/object:yaml.error.Mark {name: n, index: 1, line: 2, column: 3, buffer: b, pointer: 0}\n"
           "j: !!python/name:yaml.nodes.Node\nk: !!python/object/new:yaml.tokens.AliasToken [v, ~, ~]\n"
           "l: !!python/object/apply:builtins.ValueError [boom]\nm: !!binary aGk=\n"
           "n: !!python/object/apply:builtins.frozenset [[1]]\n"
           "o: !!python/object/new:yaml.YAMLError []\n"
           "p: !!python/complex -1-2j\nq: !!python/name:abs\n"
           "r: !!python/object/new:builtins.bytearray [!!binary aGk=]\n"
           "s: !!python/object/apply:datetime.timedelta [1, 2]\n"
           "t: !!python/object/new:collections.Counter\n  dictitems: {a: 2}\n"
           "u: !!python/object/apply:builtins.getattr [!!python/name:yaml.nodes.Node '', __init__]\n")
    out.append({"id": "dump-python", "covers": ["dump"], "ops": [
        {"call": "unsafe_load", "args": [odd], "as": "odd", "observe": False},
        {"call": "dump", "args": ["$odd"]},
        {"call": "dump", "args": ["$odd"], "kwargs": {"default_flow_style": True}},
        {"call": "safe_dump", "args": ["$odd"]},
        {"call": "dump", "args": [[["x"], ["x"]]]},
        {"get": "Dumper", "as": "D", "observe": False},
        {"get": "SafeDumper", "as": "SD", "observe": False},
        {"get": "BaseDumper", "as": "BD", "observe": False},
        {"call": "dump", "args": [{"a": [1, 2]}], "kwargs": {"Dumper": "$BD"}},
        {"call": "dump", "args": [{"a": (1, {2})}], "kwargs": {"Dumper": "$SD"}},
        {"call": "dump_all", "args": [[(1,), {"a": (2, 3)}]], "kwargs": {"Dumper": "$D", "explicit_start": True}},
    ]})
    # anchors on dump: the same object twice
    out.append({"id": "dump-aliases", "covers": ["dump", "anchors"], "ops": [
        {"call": "safe_load", "args": ["a: &x [1, 2]\nb: *x\nc: &y {k: *x}\nd: *y\nr: &r [*r]\n"], "as": "v",
         "observe": False},
        {"call": "safe_dump", "args": ["$v"]},
        {"call": "safe_dump", "args": ["$v"], "kwargs": {"canonical": True}},
        {"call": "dump", "args": ["$v"], "kwargs": {"default_flow_style": True}},
    ]})
    # lower layers
    low = ("%YAML 1.1\n%TAG !e! tag:ex.com,2000:\n--- !e!root\nseq: &a [1, 'two', \"three\"]\n"
           "ref: *a\nmap: {? k : v}\nlit: |+\n  x\n\nfold: >-\n  y\n? complex\n: !local z\n"
           "- bad\n")
    low_ok = ("%YAML 1.1\n%TAG !e! tag:ex.com,2000:\n--- !e!root\nseq: &a [1, 'two', \"three\"]\n"
              "ref: *a\nmap: {? k : v, ? q}\nlit: |+\n  x\n\nfold: >-\n  y\n? complex\n: !local z\n"
              "b:\n- !!str 1\n- ! non\n- !<tag:x> y\n...\n--- second\n")
    out.append({"id": "layers", "covers": ["layers"], "ops": [
        {"call": "scan", "args": [low_ok], "as": "t", "observe": False},
        {"op": "list", "args": ["$t"]},
        {"call": "scan", "args": [low], "as": "t2", "observe": False},
        {"op": "list", "args": ["$t2"]},
        {"call": "parse", "args": [low_ok], "as": "e", "observe": False},
        {"op": "list", "args": ["$e"], "as": "events"},
        {"call": "compose", "args": [low_ok.split("...")[0]], "as": "node"},
        {"call": "compose", "args": [""]},
        {"call": "compose_all", "args": [low_ok], "as": "nodes_g", "observe": False},
        {"op": "list", "args": ["$nodes_g"], "as": "nodes"},
        {"call": "emit", "args": ["$events"]},
        {"call": "emit", "args": ["$events"], "kwargs": {"canonical": True}},
        {"call": "emit", "args": ["$events"], "kwargs": {"indent": 5, "width": 15, "line_break": "\r\n"}},
        {"call": "serialize", "args": ["$node"]},
        {"call": "serialize", "args": ["$node"], "kwargs": {"explicit_start": True, "explicit_end": True,
                                                            "version": [1, 1],
                                                            "tags": {"!e!": "tag:ex.com,2000:"}}},
        {"call": "serialize_all", "args": ["$nodes"], "kwargs": {"canonical": True, "encoding": "utf-8"}},
        {"call": "serialize_all", "args": ["$nodes"], "kwargs": {"default_flow_style": True}},
    ]})
    # emitter errors and event-level details
    ev = {"get": "ScalarEvent", "as": "SE", "observe": False}
    out.append({"id": "emit-events", "covers": ["layers", "errors"], "ops": [
        ev,
        {"call": "parse", "args": ["- a\n- {b: c}\n"], "as": "pe", "observe": False},
        {"op": "list", "args": ["$pe"], "as": "evs", "observe": False},
        {"op": "[:]", "args": ["$evs", 0, 3], "as": "head", "observe": False},
        {"call": "emit", "args": ["$head"]},
        {"op": "[:]", "args": ["$evs", 2, None], "as": "tail", "observe": False},
        {"call": "emit", "args": ["$tail"]},
        {"call": "emit", "args": [[]]},
        {"call": "StreamStartEvent", "as": "ss"},
        {"call": "StreamEndEvent", "as": "se"},
        {"call": "DocumentStartEvent", "kwargs": {"explicit": True, "version": [1, 1],
                                                   "tags": {"!x!": "tag:x.com,2000:", "!": "!"}}, "as": "ds"},
        {"call": "DocumentEndEvent", "kwargs": {"explicit": True}, "as": "de"},
        {"call": "ScalarEvent", "args": ["anc1", "tag:x.com,2000:foo", [False, False], "v"], "as": "s1"},
        {"call": "ScalarEvent", "args": [None, "tag:other/%20x", [False, False], "w"], "as": "s2"},
        {"call": "ScalarEvent", "args": [None, "!", [False, False], "w"], "as": "s3"},
        {"call": "ScalarEvent", "args": [None, "!local", [False, False], "w", None, None, "'"], "as": "s4"},
        {"call": "AliasEvent", "args": ["anc1"], "as": "al"},
        {"call": "ScalarEvent", "args": [None, None, [False, False], "x"], "as": "s5"},
        {"call": "ScalarEvent", "args": ["bad anchor", None, [True, True], "x"], "as": "s6"},
        {"call": "ScalarEvent", "args": [None, "", [False, False], "x"], "as": "s7"},
        {"call": "ScalarEvent", "args": [None, "x", [False, False], "x"], "as": "s8"},
        {"call": "SequenceStartEvent", "args": [None, "tag:x.com,2000:s", False], "kwargs": {"flow_style": True},
         "as": "qs"},
        {"call": "SequenceEndEvent", "as": "qe"},
        {"call": "MappingStartEvent", "args": [None, None, True], "kwargs": {"flow_style": False}, "as": "ms"},
        {"call": "MappingEndEvent", "as": "me"},
        {"call": "emit", "args": [["$ss", "$ds", "$qs", "$s1", "$s2", "$s3", "$s4", "$al", "$qe", "$de", "$se"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$qs", "$s1", "$s2", "$s3", "$s4", "$al", "$qe", "$de", "$se"]],
         "kwargs": {"canonical": True}},
        {"call": "emit", "args": [["$ss", "$ds", "$ms", "$s5", "$qs", "$qe", "$me", "$de", "$se"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$s6", "$de", "$se"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$s7", "$de", "$se"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$s8", "$de", "$se"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$al", "$de", "$se"]]},
        {"call": "emit", "args": [["$ds"]]},
        {"call": "emit", "args": [["$ss", "$ss"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$se"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$ms", "$qe"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$qs", "$me"]]},
        {"call": "emit", "args": [["$ss", "$de"]]},
        {"call": "emit", "args": [["$ss", "$ds", "$s1", "$s1"]]},
        {"call": "DocumentStartEvent", "kwargs": {"explicit": False, "version": [2, 0]}, "as": "dv"},
        {"call": "emit", "args": [["$ss", "$dv", "$s5", "$de", "$se"]]},
        {"call": "DocumentStartEvent", "kwargs": {"tags": {"x": "y"}}, "as": "dt"},
        {"call": "emit", "args": [["$ss", "$dt", "$s5", "$de", "$se"]]},
        {"call": "DocumentStartEvent", "kwargs": {"tags": {"!x!": ""}}, "as": "dt2"},
        {"call": "emit", "args": [["$ss", "$dt2", "$s5", "$de", "$se"]]},
        {"call": "DocumentStartEvent", "kwargs": {"tags": {"!%b!": "x"}}, "as": "dt4"},
        {"call": "emit", "args": [["$ss", "$dt4", "$s5", "$de", "$se"]]},
        {"call": "DocumentStartEvent", "kwargs": {"tags": {"!y!": "tag:a!b", "!z!": "tag:\u00e9x y",
                                                            "!": "!w!"}}, "as": "dt5"},
        {"call": "emit", "args": [["$ss", "$dt5", "$s5", "$de", "$se"]]},
        {"call": "parse", "args": ["[a: 1, b, {c: d}: e]\n"], "as": "pf", "observe": False},
        {"op": "list", "args": ["$pf"], "as": "pfl", "observe": False},
        {"call": "emit", "args": ["$pfl"]},
        {"call": "DocumentStartEvent", "kwargs": {"tags": {"!a b!": "x"}}, "as": "dt3"},
        {"call": "emit", "args": [["$ss", "$dt3", "$s5", "$de", "$se"]]},
        {"call": "DocumentStartEvent", "as": "dimp"},
        {"call": "DocumentEndEvent", "as": "dimpe"},
        {"call": "ScalarEvent", "args": [None, None, [True, True], ""], "as": "sempty"},
        {"call": "emit", "args": [["$ss", "$dimp", "$sempty", "$dimpe", "$dimp", "$s5", "$dimpe", "$se"]]},
        {"call": "emit", "args": [["$ss", "$dimp", "$ms", "$ms", "$me", "$s5", "$me", "$dimpe", "$se"]]},
        {"call": "emit", "args": [["$ss", "$dimp", "$qs", "$ms", "$me", "$qs", "$qe", "$qe", "$dimpe", "$se"]]},
        {"call": "emit", "args": [["$ss", "$dimp", "$ms", "$qs", "$qe", "$s5", "$me", "$dimpe", "$se"]]},
        # events that stop short: only what the emitter could already write
        {"call": "emit", "args": [["$ss", "$dimp", "$qs", "$s5"]]},
        {"call": "emit", "args": [["$ss", "$dimp", "$ms", "$s5"]]},
        {"call": "emit", "args": [["$ss", "$dimp", "$ms", "$s5", "$s5", "$s5"]]},
        {"call": "emit", "args": [["$ss", "$dimp", "$qs", "$s5", "$s5"]]},
        {"call": "emit", "args": [["$ss", "$ds"]]},
        {"call": "emit", "args": [["$ss", "$dimp", "$s5", "$dimpe", "$dimp"]]},
        {"call": "ScalarNode", "args": ["!a!b", "x"], "as": "bang"},
        {"call": "serialize", "args": ["$bang"]},
        {"call": "ScalarNode", "args": ["!a%b c", "x"], "as": "pct"},
        {"call": "serialize", "args": ["$pct"]},
    ]})
    # errors: their parts and messages
    out.append({"id": "errors", "covers": ["errors"], "ops": [
        {"get": "YAMLError", "as": "YE", "observe": False},
        {"get": "MarkedYAMLError", "as": "ME", "observe": False},
        {"call": "Mark", "args": ["<s>", 5, 1, 2, "abc\ndef\n", 5], "as": "m"},
        {"call": "$m.get_snippet"},
        {"op": "str", "args": ["$m"]},
        {"call": "Mark", "args": ["<s>", 0, 0, 0, None, 0], "as": "m0"},
        {"op": "str", "args": ["$m0"]},
        {"call": "$m0.get_snippet"},
        {"call": "Mark", "args": ["<s>", 100, 0, 100, "a" * 200, 100], "as": "mlong"},
        {"op": "str", "args": ["$mlong"]},
        {"call": "MarkedYAMLError", "args": ["while x", "$m", "found y", "$m0", "note"], "as": "e1"},
        {"op": "str", "args": ["$e1"]},
        {"call": "MarkedYAMLError", "args": ["ctx", "$m", "prob", "$m"], "as": "e2"},
        {"op": "str", "args": ["$e2"]},
        {"call": "MarkedYAMLError", "as": "e3"},
        {"op": "str", "args": ["$e3"]},
        {"call": "Mark", "args": ["<s>", 3, 0, 3, "ab\x85cd\u2028ef", 3], "as": "mb"},
        {"call": "$mb.get_snippet", "args": [2, 3]},
    ]})
    # tokens, nodes and events: reprs and the package's names
    out.append({"id": "api", "covers": ["api"], "ops": [
        {"get": "__version__"},
        {"get": "__with_libyaml__"},
        {"call": "warnings"},
        {"call": "warnings", "args": [{"YAMLLoadWarning": False}]},
        {"call": "ScalarToken", "args": ["v", True, None, None], "as": "tok"},
        {"op": "repr", "args": ["$tok"]},
        {"get": "$tok.id"},
        {"call": "ScalarNode", "args": ["tag:yaml.org,2002:str", "v"], "as": "sn"},
        {"op": "repr", "args": ["$sn"]},
        {"op": "list", "args": [[]], "as": "sl", "observe": False},
        {"call": "$sl.append", "args": ["$sn"], "observe": False},
        {"call": "SequenceNode", "args": ["tag:yaml.org,2002:seq", "$sl"], "as": "qn"},
        {"op": "repr", "args": ["$qn"]},
        {"call": "serialize", "args": ["$qn"]},
        {"call": "ScalarEvent", "args": ["a", "t", [True, False], "v"], "as": "sev"},
        {"op": "repr", "args": ["$sev"]},
        {"call": "MappingStartEvent", "args": [None, None, True], "as": "mev"},
        {"op": "repr", "args": ["$mev"]},
        {"get": "TagToken.id"}, {"get": "AliasToken.id"}, {"get": "AnchorToken.id"},
        {"get": "ScalarToken.id"}, {"get": "KeyToken.id"}, {"get": "ValueToken.id"},
        {"get": "BlockEntryToken.id"}, {"get": "FlowEntryToken.id"}, {"get": "BlockEndToken.id"},
        {"get": "DocumentStartToken.id"}, {"get": "DocumentEndToken.id"}, {"get": "StreamStartToken.id"},
        {"get": "StreamEndToken.id"}, {"get": "DirectiveToken.id"}, {"get": "FlowSequenceStartToken.id"},
        {"get": "FlowSequenceEndToken.id"}, {"get": "FlowMappingStartToken.id"},
        {"get": "FlowMappingEndToken.id"}, {"get": "BlockSequenceStartToken.id"},
        {"get": "BlockMappingStartToken.id"},
        {"call": "DirectiveToken", "args": ["YAML", [1, 1], None, None], "as": "dt"},
        {"op": "repr", "args": ["$dt"]},
    ]})
    out.append({"id": "yaml-object", "covers": ["api"], "ops": [
        {"get": "YAMLObject.yaml_tag"},
        {"get": "YAMLObject.yaml_loader"},
        {"get": "YAMLObject.yaml_dumper"},
        {"get": "YAMLObject.yaml_flow_style"},
        {"call": "unsafe_load", "args": ["!!python/object/new:yaml.YAMLObject []\n"], "as": "yo",
         "observe": False},
        {"call": "dump", "args": ["$yo"]},
    ]})
    # registering tags, resolvers and representers (each under a tag or a class of its own,
    # so no other case sees them)
    out.append({"id": "registration", "covers": ["api"], "ops": [
        {"get": "Loader", "as": "Loader", "observe": False},
        {"get": "YAMLObject.__mro__", "as": "bases", "observe": False},
        {"call": "YAMLObjectMetaclass", "args": ["P", "$bases", {"yaml_tag": "!P"}], "as": "P", "observe": False},
        {"call": "$P", "as": "p", "observe": False},
        {"call": "dump", "args": ["$p"]},
        {"call": "load", "args": ["!P {a: 1, b: [x]}\n"], "kwargs": {"Loader": "$Loader"}, "as": "lp",
         "observe": False},
        {"get": "$lp.a"}, {"get": "$lp.b"},
        {"call": "safe_load", "args": ["!P {a: 1}\n"]},
        {"call": "YAMLObject.from_yaml", "args": ["$Loader", None]},
        {"get": "SafeLoader", "as": "SL", "observe": False},
        {"get": "FullLoader", "as": "FL", "observe": False},
        {"get": "BaseLoader", "as": "BL", "observe": False},
        {"get": "SafeDumper", "as": "SD", "observe": False},
        {"get": "BaseDumper", "as": "BD", "observe": False},
        {"get": "$P.from_yaml", "as": "from_p", "observe": False},
        {"get": "$P.to_yaml", "as": "to_p", "observe": False},
        {"call": "add_constructor", "args": ["!Q", "$from_p"], "kwargs": {"Loader": "$SL"}},
        {"call": "safe_load", "args": ["- !Q {c: 3}\n"], "as": "q", "observe": False},
        {"op": "[]", "args": ["$q", 0], "as": "q0", "observe": False},
        {"get": "$q0.c"},
        {"call": "add_constructor", "args": ["!Q2", "$from_p"]},
        {"call": "full_load", "args": ["!Q2 {d: 4}\n"], "as": "q2", "observe": False},
        {"get": "$q2.d"},
        {"get": "FullLoader.construct_python_name", "as": "cpn", "observe": False},
        {"call": "add_multi_constructor", "args": ["!R:", "$cpn"], "kwargs": {"Loader": "$FL"}},
        {"call": "full_load", "args": ["[!R:len '', !R:abs '']\n"]},
        {"call": "add_multi_constructor", "args": ["!R2:", "$cpn"]},
        {"call": "unsafe_load", "args": ["!R2:len ''\n"]},
        {"call": "add_representer", "args": ["$P", "$to_p"], "kwargs": {"Dumper": "$SD"}},
        {"call": "safe_dump", "args": [["$p"]]},
        {"call": "add_multi_representer", "args": ["$P", "$to_p"], "kwargs": {"Dumper": "$BD"}},
        {"call": "dump", "args": ["$p"], "kwargs": {"Dumper": "$BD"}},
        {"call": "add_path_resolver", "args": ["!P", ["zzspecial"]], "kwargs": {"Loader": "$Loader"}},
        {"call": "load", "args": ["zzspecial: {e: 5}\nother: {e: 6}\n"], "kwargs": {"Loader": "$Loader"}},
        {"call": "add_path_resolver", "args": ["!P", ["zzpath", 0]], "kwargs": {"Loader": "$BL", "Dumper": "$BD"}},
        {"call": "compose", "args": ["zzpath: [a, b]\n"], "kwargs": {"Loader": "$BL"}},
        {"get": "resolver.Resolver.yaml_implicit_resolvers", "as": "impl", "observe": False},
        {"op": "[]", "args": ["$impl", "1"], "as": "ones", "observe": False},
        {"op": "[]", "args": ["$ones", 0], "as": "one", "observe": False},
        {"op": "[]", "args": ["$one", 1], "as": "intre", "observe": False},
        {"call": "add_implicit_resolver", "args": ["!Z", "$intre", ["7"]], "kwargs": {"Loader": "$BL",
                                                                                   "Dumper": "$BD"}},
        {"call": "compose", "args": ["[77, 8]\n"], "kwargs": {"Loader": "$BL"}},
        {"call": "add_implicit_resolver", "args": ["!Z2", "$intre", ["~"]]},
        {"call": "Node", "args": ["t", "v", None, None]},
        # path elements [kind, index]: True matches a key, False and None any value
        {"call": "add_path_resolver", "args": ["!K", ["zzkey", [None, True]]], "kwargs": {"Loader": "$BL"}},
        {"call": "compose", "args": ["zzkey: {a: b}\n"], "kwargs": {"Loader": "$BL"}},
        {"call": "add_path_resolver", "args": ["!V", ["zzval", [None, False]]], "kwargs": {"Loader": "$BL"}},
        {"call": "compose", "args": ["zzval: {a: b}\n"], "kwargs": {"Loader": "$BL"}},
        {"call": "add_path_resolver", "args": ["!N", ["zznone", [None, None]]], "kwargs": {"Loader": "$BL"}},
        {"call": "compose", "args": ["zznone: {a: b}\n"], "kwargs": {"Loader": "$BL"}},
    ]})
    out.append({"id": "big-mixed", "covers": ["collections", "block-scalars", "anchors", "merge"], "ops": [
        {"call": "safe_load", "args": [config(random.Random(3), 6)], "as": "c"},
        {"call": "safe_dump", "args": ["$c"]},
        {"call": "safe_load", "args": [long_list(random.Random(4), 15)], "as": "l"},
        {"call": "safe_dump", "args": ["$l"], "kwargs": {"default_flow_style": True, "width": 60}},
        {"call": "safe_load", "args": [block_text(random.Random(5), 5)], "as": "b"},
        {"call": "safe_dump", "args": ["$b"], "kwargs": {"width": 40}},
    ]})
    return out


def timing_inputs():
    def make(fn, n):
        def one(seed):
            return {"call": "safe_load", "args": [fn(random.Random(seed), n)]}
        return one

    return [
        {"id": "config3", "size": 3, "make": make(config, 3)},
        {"id": "config12", "size": 12, "make": make(config, 12)},
        {"id": "list100", "size": 100, "make": make(long_list, 100)},
        {"id": "blocks30", "size": 30, "make": make(block_text, 30)},
    ]
