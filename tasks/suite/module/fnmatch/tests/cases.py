"""Held-out cases and timing inputs for the fnmatch task (CPython 3.11's fnmatch as
fnmatch_src)."""

import random

PARTS = ["src", "lib", "*", "?", "[a-z]", "[!0-9]", "**", ".py", "test_", "_v", "-",
         "build", "x", "data", "(1)", "$", "+", "{a,b}", "caf\u00e9", ".", "~", "#", " "]

TRICKY = [
    "", "a", "abc", "*", "**", "***", "?", "??", "*.py", "*a*", "a*b*c", "*a*b*c*", "a**b",
    "?*?", "*?*", "a?c", "[abc]", "[!abc]", "[]]", "[!]]", "[]a]", "[!]a]", "[", "[a", "a[",
    "[!", "[!a", "[]", "[!]", "[]]]", "[a-z]", "[!a-z]", "[a-c-e]", "[a-]", "[-a]", "[!-a]",
    "[--a]", "[a--]", "[z-a]", "[a-a]", "[b-a-c]", "[a-cz-x]", "[c-a-e]", "[a-b-c-d]",
    "[\\]", "[\\-x]", "[a\\b]", "[a-\\]", "[\\-\\]", "[^a]", "[!^a]", "[[a]", "[a[]",
    "[&&]", "[a&&b]", "[~~]", "[a||b]", "[|]", "[-]", "[!-]", "[--]", "[---]",
    "[a-c]*[x-z]?", "*[!.]*", "a.b", "a+b(c)", "$x^y", "{a,b}", "a\nb", "\\", "\\*",
    "caf\u00e9*", "\u4e2d[\u6587-\u6599]", "[!\u00e9]", "[\u00e9-\u00e0]", "*[]*", "[*]",
    "[?]", "[[]", "[]-]", "[]-a]", "[!]-a]", "[a-]]", "[!a-]]",
    "[!b-a]", "[b-a]", "[a--a-a]", "[a--b-a]", "[c-b-a-z]",
]

MATCHES = [
    ("abc", "a*"), ("abc", "*c"), ("abc", "*b"), ("abc", "a?c"), ("ac", "a?c"),
    ("a.py", "*.py"), (".py", "*.py"), ("a.pyc", "*.py"), ("ABC", "abc"), ("abc", "ABC"),
    ("a\nb", "a?b"), ("a\nb", "a*"), ("x", "[a-z]"), ("X", "[a-z]"), ("-", "[a-]"),
    ("b", "[a-c-e]"), ("-", "[a-c-e]"), ("d", "[a-c-e]"), ("]", "[]]"), ("a", "[!]]"),
    ("[", "["), ("[a", "[a"), ("", "*"), ("", ""), ("", "?"), ("a", "[]"), ("a", "[!]"),
    ("\\", "[\\]"), ("&", "[a&&b]"), ("aXbXc", "*X*X*"), ("aXb", "*X*X*"),
    ("foo/bar", "*/*"), ("foo/bar", "foo*"), ("a" * 30 + "b", "*a*a*a*c"), ("^", "[^]"),
    ("b", "[z-a]"), ("z", "[z-a]"), ("-", "[z-a]"), ("caf\u00e9.txt", "caf?.txt"),
    ("q", "[!b-a]"), ("b", "[b-a]"),
]


def _arg(a):
    """An argument as the cases name it ('$...' names a kept value)."""
    return "$" + a if isinstance(a, str) and a.startswith("$") else a


def _call(cid, covers, name, *args):
    return {"id": cid, "covers": covers, "call": name, "args": [_arg(a) for a in args]}


def _pattern(rng, n):
    return "".join(rng.choice(PARTS) for _ in range(n))


def cases():
    out = []
    for k, pat in enumerate(TRICKY):
        covers = ["translate"]
        if "[" in pat:
            covers.append("brackets")
        if "*" in pat:
            covers.append("stars")
        out.append(_call(f"translate-{k}", covers, "translate", pat))
    for k, (name, pat) in enumerate(MATCHES):
        covers = ["fnmatchcase"] + (["brackets"] if "[" in pat else [])
        out.append(_call(f"case-{k}", covers, "fnmatchcase", name, pat))
        out.append(_call(f"fnmatch-{k}", ["fnmatch"], "fnmatch", name, pat))
    out += [
        _call("filter", ["filter"], "filter",
              ["a.py", "b.txt", "c.py", ".py", "A.PY", "d.pyc", "a.py"], "*.py"),
        _call("filter-empty", ["filter"], "filter", [], "*"),
        _call("filter-none", ["filter"], "filter", ["x", "y"], "z*"),
        _call("filter-brackets", ["filter", "brackets"], "filter",
              ["f1", "f2", "fa", "f-", "f]", "f"], "f[!0-9]"),
        _call("filter-tuple", ["filter"], "filter", ("ab", "ba", "aa"), "a?"),
        _call("filter-non-string", ["filter", "errors"], "filter", ["a", 1], "*"),
        _call("bytes-case", ["bytes"], "fnmatchcase", b"abc.py", b"*.py"),
        _call("bytes-case-no", ["bytes"], "fnmatchcase", b"abc.py", b"*.txt"),
        _call("bytes-latin1", ["bytes"], "fnmatchcase", b"caf\xe9", b"caf[\xe0-\xef]"),
        _call("bytes-fnmatch", ["bytes", "fnmatch"], "fnmatch", b"x[1]", b"x[[]1]"),
        _call("bytes-filter", ["bytes", "filter"], "filter", [b"a1", b"b2", b"a3"], b"a*"),
        _call("mixed-types", ["errors"], "fnmatchcase", "abc", b"abc"),
        _call("mixed-types-2", ["errors"], "fnmatchcase", b"abc", "abc"),
        _call("translate-none", ["errors"], "translate", None),
        _call("translate-bytes", ["errors"], "translate", b"a*"),
        _call("fnmatch-int", ["errors"], "fnmatch", "a", 1),
    ]
    for k in range(12):
        rng = random.Random(k)
        pat = _pattern(rng, 3 + 2 * k)
        out.append(_call(f"random-translate-{k}", ["translate", "stars", "brackets"],
                         "translate", pat))
        names = ["".join(rng.choice("abcxyz019._-/[]") for _ in range(rng.randrange(12)))
                 for _ in range(20)]
        out.append(_call(f"random-filter-{k}", ["filter"], "filter", names,
                         rng.choice(["*", "a*", "*[0-9]*", "?[!a-c]*", "*.*", "[xyz]?*"])))
    return out


def timing_inputs():
    def make(n):
        def one(seed):
            return _call("t", [], "translate", _pattern(random.Random(seed), n))
        return one

    return [
        {"id": "parts100", "size": 100, "make": make(100)},
        {"id": "parts600", "size": 600, "make": make(600)},
        {"id": "parts2000", "size": 2000, "make": make(2000)},
    ]
