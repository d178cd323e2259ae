"""Held-out cases and timing inputs for the tomli package task.

Every case parses one TOML document with `loads` (valid documents give a
dict, invalid ones a TOMLDecodeError whose message ends with the position);
a few pass `parse_float` and call `load`. Timing inputs parse generated
configuration-like documents of several sizes."""

import random

VALID = {
    # tables
    "table": ("[a]\nx = 1\n[b]\ny = 2\n", ["tables"]),
    "table-dotted": ("[a.b.c]\nx = 1\n[a]\ny = 2\n", ["tables"]),
    "table-super-later": ("[x.y.z.w]\n[x]\n", ["tables"]),
    "table-ws": ("[ a . b ]\nk=1\n[ 'q x' . \"r\\ty\" ]\n", ["tables", "keys"]),
    "table-empty": ("[empty]\n", ["tables"]),
    "table-after-dotted": ("[a]\nb.c = 1\n[a.d]\ne = 2\n", ["tables"]),
    "table-implicit-then-define": ("[a.b]\n[a]\nc=1\n", ["tables"]),
    "table-in-aot-sub": ("[[f]]\n[f.g]\nh=1\n[[f]]\n[f.g]\nh=2\n", ["arrays-of-tables"]),
    # arrays of tables
    "aot": ("[[p]]\nn = 1\n[[p]]\nn = 2\n[[p]]\n", ["arrays-of-tables"]),
    "aot-nested": ("[[a]]\n[[a.b]]\nx=1\n[[a.b]]\nx=2\n[[a]]\n[[a.b]]\nx=3\n", ["arrays-of-tables"]),
    "aot-sub": ("[[fruit]]\nname='apple'\n[fruit.physical]\ncolor='red'\n[[fruit.variety]]\nname='x'\n",
                ["arrays-of-tables"]),
    "aot-ws": ("[[ a . b ]]\nc = 1\n", ["arrays-of-tables", "keys"]),
    "aot-dotted-parent": ("[a]\n[[a.b]]\n[[a.b]]\nk=2\n", ["arrays-of-tables"]),
    "aot-nested-reopen": ("[[a.b]]\n[a.b.c]\nx=1\n[[a.b]]\n[a.b.c]\nx=2\n", ["arrays-of-tables"]),
    "aot-deep-reopen": ("[[p.q.r]]\n[p.q.r.s]\n[[p.q.r]]\n[p.q.r.s]\ny=1\n", ["arrays-of-tables"]),
    # keys
    "key-bare": ("a-b_C9 = 1\n0 = 2\n-_- = 3\n", ["keys"]),
    "key-quoted": ("\"a b\" = 1\n'c.d' = 2\n\"\" = 3\n\"\\u00e9\" = 4\n", ["keys"]),
    "key-dotted": ("a.b.c = 1\na.b.d = 2\na . e = 3\n\"x\".'y'.z = 4\n", ["keys"]),
    "key-dotted-in-table": ("[t]\na.b = 1\na.c = 2\n[u]\nv.w.x = 3\n", ["keys", "tables"]),
    "key-ws": ("  k  =  1  \n\tj\t=\t2\t\n", ["keys", "comments"]),
    "key-digits": ("1234 = 'x'\n3.14 = 'pi'\n", ["keys"]),
    "key-dotted-ws-tab": ("a\t.\tb = 1\n", ["keys"]),
    # strings
    "str-basic": ("s = \"hello world\"\ne = \"\"\n", ["strings"]),
    "str-escapes": ("s = \"a\\bb\\tc\\nd\\fe\\rf\\\"g\\\\h\"\n", ["strings"]),
    "str-unicode": ("s = \"\\u00E9\\U0001F600\\u0000\\uD7FF\\uE000\\U0010FFFF\"\n", ["strings"]),
    "str-literal": ("s = 'C:\\Users\\x'\nt = '<\\i\\c*\\s*>'\ne = ''\n", ["strings"]),
    "str-tab": ("s = \"a\tb\"\nt = 'c\td'\n", ["strings"]),
    "str-nonascii": ("s = \"é ü 日本\"\n\"ключ\" = 'значение'\n", ["strings", "keys"]),
    "str-hash": ("s = \"a # not a comment\" # comment\n", ["strings", "comments"]),
    # multi-line strings
    "ml-basic": ("s = \"\"\"\nRoses are red\nViolets are blue\"\"\"\n", ["multiline"]),
    "ml-basic-noline": ("s = \"\"\"abc\"\"\"\n", ["multiline"]),
    "ml-basic-backslash": ("s = \"\"\"\nThe quick \\\n\n   brown \\\n   fox.\\\n  \"\"\"\n", ["multiline"]),
    "ml-basic-backslash-ws": ("s = \"\"\"a \\   \n  b\"\"\"\n", ["multiline"]),
    "ml-basic-backslash-tab": ("s = \"\"\"a \\\t\n\tb\"\"\"\n", ["multiline"]),
    "ml-basic-quotes": ("s = \"\"\"Here are two quotation marks: \"\". Simple.\"\"\"\n", ["multiline"]),
    "ml-basic-end4": ("s = \"\"\"x\"\"\"\"\n", ["multiline"]),
    "ml-basic-end5": ("s = \"\"\"x\"\"\"\"\"\n", ["multiline"]),
    "ml-basic-escapes": ("s = \"\"\"tab\\there\\u0041\n\"quoted\"\n\"\"\"\n", ["multiline"]),
    "ml-literal": ("s = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''\n",
                   ["multiline"]),
    "ml-literal-end4": ("s = '''x''''\n", ["multiline"]),
    "ml-literal-end5": ("s = '''x'''''\n", ["multiline"]),
    "ml-literal-quotes": ("s = '''I [dw]on't need \\d{2} apples'''\n", ["multiline"]),
    "ml-crlf": ("s = \"\"\"\r\na\r\nb\"\"\"\r\nt = '''\r\nc\r\n'''\r\n", ["multiline", "comments"]),
    "ml-empty": ("a = \"\"\"\"\"\"\nb = ''''''\n", ["multiline"]),
    # integers
    "int-dec": ("a = 99\nb = +17\nc = 0\nd = -5\ne = 1_000\nf = 5_349_221\ng = -0\nh = +0\n", ["integers"]),
    "int-big": ("a = 9223372036854775807\nb = -9223372036854775808\n", ["integers"]),
    "int-hex": ("a = 0xDEADBEEF\nb = 0xdead_beef\nc = 0x0\n", ["integers"]),
    "int-oct": ("a = 0o01234567\nb = 0o755\nc = 0o7_7\n", ["integers"]),
    "int-bin": ("a = 0b11010110\nb = 0b1_0\n", ["integers"]),
    # floats
    "float-frac": ("a = +1.0\nb = 3.1415\nc = -0.01\nd = 224_617.445_991\n", ["floats"]),
    "float-exp": ("a = 5e+22\nb = 1e06\nc = -2E-2\nd = 6.626e-34\ne = 1e1_0\n", ["floats"]),
    "float-special": ("a = inf\nb = +inf\nc = -inf\nd = nan\ne = +nan\nf = -nan\n", ["floats"]),
    "float-zero": ("a = 0.0\nb = -0.0\nc = +0.0\nd = 0e0\n", ["floats"]),
    # booleans
    "bool": ("t = true\nf = false\narr = [true, false]\n", ["booleans"]),
    # datetimes
    "dt-offset": ("a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00-07:00\nc = 1979-05-27T00:32:00.999999-07:00\n",
                  ["datetimes"]),
    "dt-space": ("a = 1979-05-27 07:32:00Z\nb = 1979-05-27t07:32:00z\n", ["datetimes"]),
    "dt-local": ("a = 1979-05-27T07:32:00\nb = 1979-05-27T00:32:00.5\nc = 2000-02-29T23:59:59.1234567\n",
                 ["datetimes"]),
    "dt-offsets": ("a = 2021-01-01T00:00:00+05:30\nb = 2021-01-01T00:00:00+00:00\nc = 2021-01-01T00:00:00-00:00\n"
                   "d = 2021-01-01T00:00:00-23:59\ne = 2021-01-01T00:00:00+05:30\n", ["datetimes"]),
    "date-local": ("a = 1979-05-27\nb = 2024-02-29\n", ["datetimes"]),
    "time-local": ("a = 07:32:00\nb = 00:32:00.999999\nc = 23:59:59.12\nd = 12:00:00.1234567\n", ["datetimes"]),
    "dt-in-array": ("a = [1979-05-27, 07:32:00, 1979-05-27T07:32:00Z]\n", ["datetimes", "inline"]),
    # inline arrays and tables
    "array": ("a = [1, 2, 3]\nb = ['x', \"y\"]\nc = []\nd = [ ]\n", ["inline"]),
    "array-nested": ("a = [[1, 2], ['a', 'b'], [[]], [{}]]\n", ["inline"]),
    "array-mixed": ("a = [1, 'two', 3.0, true, 1979-05-27, {x = 1}, [2]]\n", ["inline"]),
    "array-trailing": ("a = [1, 2, ]\nb = [\n  1,\n  2,\n]\n", ["inline"]),
    "array-comments": ("a = [ # open\n  1, # one\n  # alone\n  2 # two\n  , 3\n] # close\n", ["inline", "comments"]),
    "array-ws": ("a = [\n\n\t1\t,\n\n2]\n", ["inline"]),
    "inline-table": ("p = { x = 1, y = 2 }\ne = {}\nf = { }\n", ["inline"]),
    "inline-nested": ("a = { b = { c = { d = 1 } }, e = [1, {f = 2}] }\n", ["inline"]),
    "inline-dotted": ("a = { b.c = 1, b.d = 2, e.f.g = 'x' }\n", ["inline", "keys"]),
    "inline-in-table": ("[t]\nu = { v = 1 }\nw = 2\n", ["inline", "tables"]),
    "inline-quoted-key": ("a = { \"b c\" = 1, 'd' = 2 }\n", ["inline", "keys"]),
    # comments, whitespace, line endings
    "comments": ("# top\n\n  # indented\na = 1 # trailing\n#\n[t] # header comment\n[[u]] # aot comment\n", ["comments"]),
    "comment-tab": ("a = 1 #\tcomment with tab\n", ["comments"]),
    "comment-eof": ("a = 1 # no newline", ["comments"]),
    "crlf": ("a = 1\r\n[t]\r\nb = 'x'\r\n# c\r\n", ["comments"]),
    "blank": ("", ["comments"]),
    "only-ws": ("  \n\t\n\n", ["comments"]),
    "no-final-newline": ("a = 1", ["comments"]),
    "unicode-comment": ("# ünïcödé ☃\na = 1\n", ["comments"]),
}

INVALID = {
    # statements
    "bad-statement": ("= 1\n", ["syntax-errors"]),
    "bad-statement-line2": ("a = 1\n  ?\n", ["syntax-errors"]),
    "after-value": ("a = 1 b = 2\n", ["syntax-errors"]),
    "after-header": ("[a] b\n", ["syntax-errors"]),
    "no-equals": ("a\n", ["syntax-errors"]),
    "no-equals-eof": ("a", ["syntax-errors"]),
    "no-value": ("a =\n", ["syntax-errors"]),
    "no-value-eof": ("a = ", ["syntax-errors"]),
    "bad-value": ("a = yes\n", ["syntax-errors"]),
    "bad-value-t": ("a = tru\n", ["syntax-errors"]),
    "bad-value-f": ("x = 1\na = fals\n", ["syntax-errors"]),
    "bad-key-char": ("a.= 1\n", ["syntax-errors"]),
    "bad-key-eof": ("a.", ["syntax-errors"]),
    "bad-key-start-table": ("[]\n", ["syntax-errors"]),
    "bad-key-start-aot": ("[[]]\n", ["syntax-errors"]),
    "bracket-eof": ("[", ["syntax-errors"]),
    "table-unclosed": ("[a\n", ["syntax-errors"]),
    "aot-unclosed": ("[[a]\n", ["syntax-errors"]),
    "aot-unclosed-eof": ("[[a", ["syntax-errors"]),
    # strings
    "str-unterminated": ("a = \"abc\n", ["syntax-errors"]),
    "str-unterminated-eof": ("a = \"abc", ["syntax-errors"]),
    "str-bad-escape": ("a = \"\\q\"\n", ["syntax-errors"]),
    "str-bad-escape-space": ("a = \"a\\ b\"\n", ["syntax-errors"]),
    "str-bad-unicode": ("a = \"\\u00G0\"\n", ["syntax-errors"]),
    "str-short-unicode": ("a = \"\\u00\"\n", ["syntax-errors"]),
    "str-short-unicode-eof": ("a = \"\\U0001", ["syntax-errors"]),
    "str-surrogate": ("a = \"\\uD800\"\n", ["syntax-errors"]),
    "str-too-big": ("a = \"\\U00110000\"\n", ["syntax-errors"]),
    "str-ctrl": ("a = \"a\x01b\"\n", ["syntax-errors"]),
    "str-del": ("a = \"a\x7fb\"\n", ["syntax-errors"]),
    "literal-unterminated": ("a = 'abc\n", ["syntax-errors"]),
    "literal-unterminated-eof": ("a = 'abc", ["syntax-errors"]),
    "literal-ctrl": ("a = 'a\x00b'\n", ["syntax-errors"]),
    "key-literal-unterminated": ("'abc = 1\n", ["syntax-errors"]),
    "key-basic-unterminated": ("\"abc = 1\n", ["syntax-errors"]),
    "key-newline-in-quoted": ("\"a\nb\" = 1\n", ["syntax-errors"]),
    "ml-unterminated": ("a = \"\"\"abc\n", ["syntax-errors"]),
    "ml-literal-unterminated": ("a = '''abc\ndef\n", ["syntax-errors"]),
    "ml-literal-ctrl": ("a = '''a\x08b'''\n", ["syntax-errors"]),
    "ml-ctrl": ("a = \"\"\"a\x1fb\"\"\"\n", ["syntax-errors"]),
    "ml-backslash-text": ("a = \"\"\"a\\  b\"\"\"\n", ["syntax-errors"]),
    "ml-backslash-eof": ("a = \"\"\"a\\  ", ["syntax-errors"]),
    "ml-end6": ("a = \"\"\"x\"\"\"\"\"\"\n", ["syntax-errors"]),
    "ml-bad-escape": ("a = \"\"\"\\x41\"\"\"\n", ["syntax-errors"]),
    # comments
    "comment-ctrl": ("a = 1 # bad\x01\n", ["syntax-errors", "comments"]),
    "comment-ctrl-line3": ("a = 1\nb = 2\n# \x7f\n", ["syntax-errors", "comments"]),
    "comment-ctrl-eof": ("# ok\n#\x00", ["syntax-errors", "comments"]),
    "cr-alone": ("a = 1\rb = 2\n", ["syntax-errors"]),
    # numbers
    "int-leading-zero": ("a = 01\n", ["syntax-errors"]),
    "int-double-underscore": ("a = 1__0\n", ["syntax-errors"]),
    "int-trailing-underscore": ("a = 1_\n", ["syntax-errors"]),
    "int-hex-upper-prefix": ("a = 0XFF\n", ["syntax-errors"]),
    "int-hex-empty": ("a = 0x\n", ["syntax-errors"]),
    "float-no-int": ("a = .5\n", ["syntax-errors"]),
    "float-no-frac": ("a = 1.\n", ["syntax-errors"]),
    "float-bad-exp": ("a = 1e\n", ["syntax-errors"]),
    "float-inf-upper": ("a = Inf\n", ["syntax-errors"]),
    "float-nan-signless": ("a = -na\n", ["syntax-errors"]),
    # datetimes
    "dt-bad-day": ("a = 2021-02-30\n", ["syntax-errors", "datetimes"]),
    "dt-bad-day-time": ("x = 1\na = 2021-02-29T00:00:00\n", ["syntax-errors", "datetimes"]),
    "dt-bad-month": ("a = 2021-13-01\n", ["syntax-errors"]),
    "dt-bad-hour": ("a = 24:00:00\n", ["syntax-errors"]),
    "dt-no-secs": ("a = 07:32\n", ["syntax-errors"]),
    "dt-trailing": ("a = 1979-05-27T07:32:00Zx\n", ["syntax-errors"]),
    # arrays and inline tables
    "array-unclosed": ("a = [1, 2\n", ["syntax-errors"]),
    "array-unclosed-eof": ("a = [1", ["syntax-errors"]),
    "array-no-comma": ("a = [1 2]\n", ["syntax-errors"]),
    "array-double-comma": ("a = [1,,2]\n", ["syntax-errors"]),
    "array-leading-comma": ("a = [,1]\n", ["syntax-errors"]),
    "inline-unclosed": ("a = {x = 1\n", ["syntax-errors"]),
    "inline-no-comma": ("a = {x = 1 y = 2}\n", ["syntax-errors"]),
    "inline-trailing-comma": ("a = {x = 1,}\n", ["syntax-errors"]),
    "inline-newline": ("a = {x = 1,\n y = 2}\n", ["syntax-errors"]),
    "inline-dup": ("a = {x = 1, x = 2}\n", ["redefinition-errors"]),
    "inline-dup-dotted": ("a = {x.y = 1, x.y = 2}\n", ["redefinition-errors"]),
    "inline-overwrite": ("a = {x = 1, x.y = 2}\n", ["redefinition-errors"]),
    "inline-frozen": ("a = {x = {y = 1}, x.z = 2}\n", ["redefinition-errors"]),
    "inline-frozen-array": ("a = {x = [1], x.z = 2}\n", ["redefinition-errors"]),
    # redefinitions
    "dup-key": ("a = 1\na = 2\n", ["redefinition-errors"]),
    "dup-key-table": ("[t]\na = 1\na = 2\n", ["redefinition-errors"]),
    "dup-table": ("[a]\n[a]\n", ["redefinition-errors"]),
    "dup-table-dotted": ("[a.b]\n[a.b]\n", ["redefinition-errors"]),
    "table-over-value": ("a = 1\n[a]\n", ["redefinition-errors"]),
    "table-over-value-deep": ("a.b = 1\n[a.b.c]\n", ["redefinition-errors"]),
    "table-over-inline": ("a = {}\n[a]\n", ["redefinition-errors"]),
    "table-over-inline-sub": ("a = {b = {}}\n[a.b]\n", ["redefinition-errors"]),
    "table-over-array": ("a = [1]\n[a]\n", ["redefinition-errors"]),
    "aot-over-value": ("a = 1\n[[a]]\n", ["redefinition-errors"]),
    "aot-over-table": ("[a]\n[[a]]\n", ["redefinition-errors"]),
    "aot-over-array": ("a = []\n[[a]]\n", ["redefinition-errors"]),
    "aot-over-inline-sub": ("a = {b = []}\n[[a.b]]\n", ["redefinition-errors"]),
    "table-over-aot": ("[[a]]\n[a]\n", ["redefinition-errors"]),
    "dotted-over-value": ("a = 1\na.b = 2\n", ["redefinition-errors"]),
    "dotted-over-inline": ("a = {b = 1}\na.c = 2\n", ["redefinition-errors"]),
    "dotted-redefines-table": ("[a.b]\nc = 1\n[a]\nb.d = 2\n", ["redefinition-errors"]),
    "table-redefines-dotted": ("[a]\nb.c = 1\n[a.b]\nd = 2\n", ["redefinition-errors"]),
    "dotted-into-array": ("a = [1]\na.b = 2\n", ["redefinition-errors"]),
    "dotted-over-string": ("a.b = 's'\na.b.c = 1\n", ["redefinition-errors"]),
    "dotted-over-aot": ("[[a]]\n[b]\na.c = 1\n", ["tables", "keys"]),
    "key-in-aot-after-dotted": ("[[a]]\nb.c = 1\n[[a]]\nb.c = 2\n", ["arrays-of-tables", "keys"]),
    "table-then-dotted-same": ("[a]\nx.y = 1\n[b]\n[a.x.z]\n", ["redefinition-errors"]),
    "explicit-then-dotted-deep": ("[a.b.c]\n[a]\nb.c.d = 1\n", ["redefinition-errors"]),
    "aot-then-frozen": ("[[a.b]]\n[a]\nb = 1\n", ["redefinition-errors"]),
    "frozen-deep-header": ("a = {b = {c = 1}}\n[a.b.d]\n", ["redefinition-errors"]),
    "frozen-aot-deep": ("a = {b = {c = 1}}\n[[a.b.d]]\n", ["redefinition-errors"]),
    "dotted-in-frozen-from-table": ("[t]\na = {b = 1}\n[t.a.c]\n", ["redefinition-errors"]),
    "frozen-from-header": ("[t]\na = {b = 1}\n[u]\n[t]\n", ["redefinition-errors"]),
    "flags-aot-reopen": ("[[a]]\n[a.b]\n[[a]]\n[a.b]\nx=1\n[a.b]\n", ["redefinition-errors"]),
}


def _case(cid, doc, covers):
    return {"id": cid, "covers": covers, "ops": [{"call": "loads", "args": [doc]}]}


def cases():
    out = []
    for cid, (doc, covers) in VALID.items():
        out.append(_case("valid-" + cid, doc, covers))
    for cid, (doc, covers) in INVALID.items():
        out.append(_case("invalid-" + cid, doc, covers))
    float_doc = "a = 1.5\nb = [2.25, -0.0, inf, nan]\nc = { d = 1e3 }\ne = 7\n"
    out.append({"id": "parse-float", "covers": ["parse-float"], "ops": [
        {"op": "str", "args": ["<"], "as": "lt", "observe": False},
        {"get": "$lt.__add__", "as": "prefix", "observe": False},
        {"call": "loads", "args": [float_doc], "kwargs": {"parse_float": "$prefix"}},
        {"call": "loads", "args": ["x = -inf\ny = +nan\n"], "kwargs": {"parse_float": "$prefix"}},
        {"get": "$lt.split", "as": "split", "observe": False},
        {"call": "loads", "args": ["a = 1\nb = 2.5\n"], "kwargs": {"parse_float": "$split"}},
        {"call": "loads", "args": ["a = inf\n"], "kwargs": {"parse_float": "$split"}},
        {"get": "$lt.partition", "as": "part", "observe": False},
        {"call": "loads", "args": ["a = 2.5\n"], "kwargs": {"parse_float": "$part"}},
        {"get": "$lt.zfill", "as": "bad", "observe": False},
        {"call": "loads", "args": ["a = 2.5\n"], "kwargs": {"parse_float": "$bad"}},
        {"call": "loads", "args": ["a = 2\nb = 'x'\n"], "kwargs": {"parse_float": "$bad"}}]})
    out.append({"id": "load", "covers": ["load"], "ops": [
        {"call": "load", "args": ["a = 1"]},
        {"call": "load", "args": [b"a = 1"]},
        {"call": "load", "args": [None]}]})
    out.append({"id": "api", "covers": ["api"], "ops": [
        {"get": "__all__"}, {"get": "__version__"}, {"get": "TOMLDecodeError.__module__"},
        {"get": "TOMLDecodeError.__name__"},
        {"op": "str", "args": ["$$not a document"], "as": "s", "observe": False},
        {"call": "loads", "args": ["a = 1"], "kwargs": {"parse_float": None}},
        {"call": "loads", "args": [5]},
        {"call": "loads", "args": [b"a = 1"]}]})
    out.append({"id": "big-mixed", "covers": ["tables", "arrays-of-tables", "keys", "strings"],
                "ops": [{"call": "loads", "args": [document(random.Random(7), 30)]},
                        {"call": "loads", "args": [document(random.Random(8), 12)]}]})
    return out


# Generated configuration-like documents.
WORDS = ["alpha", "beta", "gamma", "delta", "server", "port", "name", "path", "enabled",
         "timeout", "retries", "owner", "version", "tags", "items", "db", "cache", "log"]


def _word(rng):
    return rng.choice(WORDS) + (str(rng.randrange(100)) if rng.random() < 0.5 else "")


def _string(rng):
    r = rng.random()
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 8)))
    if r < 0.5:
        return '"' + words + '"'
    if r < 0.65:
        return '"' + words.replace(" ", "\\t", 1) + '\\u00e9"'
    if r < 0.85:
        return "'" + words + "'"
    if r < 0.93:
        return '"""\n' + words + "\n" + words + '"""'
    return "'''" + words + "\n" + words + "'''"


def _scalar(rng):
    r = rng.random()
    if r < 0.35:
        return _string(rng)
    if r < 0.55:
        return str(rng.randrange(-10000, 100000))
    if r < 0.65:
        return f"{rng.uniform(-1e4, 1e4):.4f}"
    if r < 0.72:
        return rng.choice(["true", "false"])
    if r < 0.8:
        return (f"{rng.randrange(1970, 2030)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
                f"T{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"
                + rng.choice(["Z", "+02:00", "", ".123"]))
    if r < 0.84:
        return f"0x{rng.randrange(1 << 20):x}"
    if r < 0.88:
        return f"{rng.randrange(1, 9)}_{rng.randrange(100, 999)}"
    return f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:00"


def _value(rng, depth=0):
    r = rng.random()
    if r < 0.12 and depth < 2:
        return "[" + ", ".join(_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))) + "]"
    if r < 0.18 and depth < 2:
        keys = rng.sample(WORDS, rng.randrange(1, 4))
        return "{ " + ", ".join(f"{k} = {_value(rng, depth + 1)}" for k in keys) + " }"
    return _scalar(rng)


def document(rng, tables):
    lines = ["# generated configuration", f'title = "doc {rng.randrange(1000)}"', ""]
    for t in range(tables):
        r = rng.random()
        name = f"{_word(rng)}.{_word(rng)}{t}" if r < 0.3 else f"section{t}"
        if r < 0.2:
            lines.append(f"[[{name}]]")
        else:
            lines.append(f"[{name}]")
        used = set()
        for _ in range(rng.randrange(3, 10)):
            k = _word(rng)
            if k in used:
                continue
            used.add(k)
            if rng.random() < 0.1:
                k = f'"{k} quoted"'
            elif rng.random() < 0.1:
                k = f"{k}.sub"
                if k in used:
                    continue
                used.add(k)
            comment = "  # note" if rng.random() < 0.15 else ""
            lines.append(f"{k} = {_value(rng)}{comment}")
        lines.append("")
    return "\n".join(lines)


def timing_inputs():
    def make(tables):
        def one(seed):
            return {"call": "loads", "args": [document(random.Random(seed), tables)]}
        return one

    return [
        {"id": "tables10", "size": 10, "make": make(10)},
        {"id": "tables60", "size": 60, "make": make(60)},
    ]
