"""Held-out cases and timing inputs for the difflib task (CPython 3.11's difflib as difflib_src)."""

import random

WORDS = ["alpha", "beta", "gamma", "delta", "value", "index", "return", "self", "print",
         "count", "total", "items", "result", "for", "in", "if", "else", "None", "True",
         "data", "line", "text", "parse", "open", "close", "read", "write", "x", "y", "z",
         "caf\u00e9", "\u00fcber", "na\u00efve", "0", "1", "42", "3.14", "(", ")", ":", "=",
         "+=", "[i]", "{}", "#", "'s'", '"q"']


def _line(rng, indent=True):
    n = rng.randrange(1, 10)
    body = " ".join(rng.choice(WORDS) for _ in range(n))
    lead = " " * (4 * rng.randrange(4)) if indent else ""
    if rng.random() < 0.05:
        lead = "\t" + lead
    return lead + body + "\n"


def _tweak(rng, line):
    """A line with a few characters changed: a near match for ndiff."""
    chars = list(line.rstrip("\n"))
    for _ in range(rng.randrange(1, 4)):
        k = rng.randrange(3)
        p = rng.randrange(len(chars) + 1)
        if k == 0:
            chars.insert(p, rng.choice("abcxyz_ 1"))
        elif k == 1 and chars:
            del chars[min(p, len(chars) - 1)]
        elif chars:
            chars[min(p, len(chars) - 1)] = rng.choice("ABQ!9")
    return "".join(chars) + "\n"


def _text(rng, n):
    return [_line(rng) for _ in range(n)]


def _edit(rng, lines, edits, tweak_share=0.5, block=3):
    """A copy of LINES with EDITS random edits: lines tweaked, replaced, inserted, deleted."""
    out = list(lines)
    for _ in range(edits):
        if not out:
            out.append(_line(rng))
            continue
        p = rng.randrange(len(out))
        m = rng.randrange(1, block + 1)
        r = rng.random()
        if r < tweak_share:
            for q in range(p, min(p + m, len(out))):
                out[q] = _tweak(rng, out[q])
        elif r < tweak_share + 0.2:
            out[p:p + m] = [_line(rng) for _ in range(m)]
        elif r < tweak_share + 0.35:
            out[p:p] = [_line(rng) for _ in range(m)]
        else:
            del out[p:p + m]
    return out


def _pair(seed, n, edits, **kw):
    rng = random.Random(seed)
    a = _text(rng, n)
    return a, _edit(rng, a, edits, **kw)


def _chars(rng, n, alphabet="abcdefghij  "):
    return "".join(rng.choice(alphabet) for _ in range(n))


def _mutate_str(rng, s, edits):
    cs = list(s)
    for _ in range(edits):
        p = rng.randrange(len(cs) + 1)
        k = rng.randrange(3)
        if k == 0:
            cs[p:p] = list(_chars(rng, rng.randrange(1, 6)))
        elif k == 1:
            del cs[p:p + rng.randrange(1, 6)]
        else:
            cs[p:p + 3] = list(_chars(rng, 3))
    return "".join(cs)


def _gen(cid, covers, name, *args, **kw):
    """A call of a function returning an iterator, observed as a list."""
    return {"id": cid, "covers": covers, "ops": [
        {"call": name, "args": list(args), "kwargs": kw, "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]}]}


def _sm(cid, covers, a, b, methods, isjunk=None, autojunk=True, junk_ops=()):
    """A SequenceMatcher on A and B, then each method of METHODS (name or (name, args))."""
    ops = list(junk_ops)
    ops.append({"call": "SequenceMatcher", "args": [isjunk, a, b],
                "kwargs": {"autojunk": autojunk}, "as": "s", "observe": False})
    for m in methods:
        name, args = (m, []) if isinstance(m, str) else m
        if name.startswith("."):
            ops.append({"get": "$s" + name})
        elif name == "get_grouped_opcodes":
            ops.append({"call": "$s." + name, "args": list(args), "as": "gg",
                        "observe": False})
            ops.append({"op": "list", "args": ["$gg"]})
        else:
            ops.append({"call": "$s." + name, "args": list(args)})
    return {"id": cid, "covers": covers, "ops": ops}


def _find(out, cid):
    return next(c for c in out if c["id"] == cid)


# a junk predicate true for " " only: str.__eq__ bound to a space
SPACE_JUNK = [{"op": "str", "args": [" "], "as": "sp", "observe": False},
              {"get": "$sp.__eq__", "as": "junk", "observe": False}]

ALL = ["ratio", "quick_ratio", "real_quick_ratio", "get_matching_blocks", "get_opcodes"]


def cases():
    rng = random.Random(7)
    out = [
        # SequenceMatcher on strings
        _sm("sm-basic", ["sm-ratios", "sm-blocks", "sm-opcodes"], "abxcd", "abcd", ALL),
        _sm("sm-doc", ["sm-ratios", "sm-opcodes"], "qabxcd", "abycdf", ALL),
        _sm("sm-empty", ["sm-ratios", "sm-blocks", "sm-opcodes"], "", "", ALL + [
            ("get_grouped_opcodes", [])]),
        _sm("sm-empty-a", ["sm-ratios", "sm-opcodes"], "", "abc", ALL),
        _sm("sm-empty-b", ["sm-ratios", "sm-opcodes"], "abc", "", ALL),
        _sm("sm-same", ["sm-ratios", "sm-opcodes"], "same text", "same text", ALL),
        _sm("sm-disjoint", ["sm-ratios", "sm-opcodes"], "abc", "xyz", ALL),
        _sm("sm-repeats", ["sm-blocks", "sm-opcodes"], "aaabaaab", "abaaaabaa", ALL),
        _sm("sm-prefix-trap", ["sm-blocks"], "ab", "acab", ALL),
        _sm("sm-ties", ["sm-blocks"], "xyxy", "yxyx", ALL),
        _sm("sm-unicode", ["sm-ratios", "sm-blocks"], "caf\u00e9 \u00fcber \u4e2d\u6587",
            "cafe uber \u4e2d\u6587!", ALL),
        _sm("sm-lists", ["sm-blocks", "sm-seqs"], [1, 2, 3, 4, 5, 6], [0, 2, 3, 9, 5, 6, 7],
            ALL),
        _sm("sm-tuples-mixed", ["sm-blocks", "sm-seqs"], (1, 2.0, True, "1", None),
            (1.0, 2, 1, "1", None), ALL),
        _sm("sm-lines", ["sm-blocks", "sm-opcodes"], ["a\n", "b\n", "c\n", "d\n"],
            ["a\n", "x\n", "c\n", "d\n", "e\n"], ALL + [("get_grouped_opcodes", [1])]),
        # find_longest_match with ranges
        _sm("flm-defaults", ["sm-blocks"], " abcd", "abcd abcd", [
            "find_longest_match", ("find_longest_match", [0, 5, 0, 9]),
            ("find_longest_match", [1, 4, 5, 9]), ("find_longest_match", [2, 4, 0, 3]),
            ("find_longest_match", [0, 0, 0, 9]), ("find_longest_match", [3])]),
        _sm("flm-junk", ["sm-blocks", "sm-junk"], " abcd", "abcd abcd", [
            "find_longest_match", ("find_longest_match", [0, 5, 4, 9]),
            ("find_longest_match", [0, 1, 0, 9]), ".bjunk"],
            isjunk="$junk", junk_ops=SPACE_JUNK),
        _sm("flm-junk-both-sides", ["sm-blocks", "sm-junk"], "x  ab  y  ab  z", "  ab  ",
            ALL + ["find_longest_match", ("find_longest_match", [5, 15, 0, 6]), ".b2j"],
            isjunk="$junk", junk_ops=SPACE_JUNK),
        _sm("flm-mid-range", ["sm-blocks"], "abcabcabc", "cabcabca", [
            ("find_longest_match", [2, 7, 1, 5]), ("find_longest_match", [0, 9, 3, 8]),
            ("find_longest_match", [4, 9, 0, 4]), ("find_longest_match", [1, 3, 6, 8])]),
        _sm("sm-charjunk", ["sm-junk", "sm-ratios"], "private Thread currentThread;",
            "private volatile Thread currentThread;",
            ALL + [".bjunk", ".bpopular"], isjunk="$junk",
            junk_ops=[{"get": "IS_CHARACTER_JUNK", "as": "junk", "observe": False}]),
        _sm("sm-linejunk", ["sm-junk", "sm-opcodes"],
            ["a\n", "\n", "b\n", "  # \n", "c\n", "\n"], ["\n", "a\n", "b\n", "\n", "c\n"],
            ALL + [".bjunk", ".b2j"], isjunk="$junk",
            junk_ops=[{"get": "IS_LINE_JUNK", "as": "junk", "observe": False}]),
    ]
    # autojunk: popular elements (more than 1% + 1 of a sequence of >= 200)
    long_a = _chars(random.Random(11), 400, "abcdefghijklmnopqrstuvwxyz      ")
    long_b = _mutate_str(random.Random(12), long_a, 12)
    out += [
        _sm("autojunk-on", ["sm-junk", "sm-ratios", "sm-blocks"], long_a, long_b,
            ALL + [".bpopular", ".bjunk", ("get_grouped_opcodes", [2])]),
        _sm("autojunk-off", ["sm-junk", "sm-ratios", "sm-blocks"], long_a, long_b,
            ALL + [".bpopular", ("get_grouped_opcodes", [0])], autojunk=False),
        _sm("autojunk-199", ["sm-junk"], "a" * 150 + "b" * 49, "ab" * 50 + "a" * 99,
            ALL + [".bpopular"]),
        _sm("autojunk-200", ["sm-junk"], "a" * 150 + "b" * 50, "a" * 100 + "b" * 50 + "c" * 50,
            ALL + [".bpopular"]),
        _sm("autojunk-ntest", ["sm-junk"], "xy" * 40, "x" * 3 + "y" * 4 + "z" * 193,
            ALL + [".bpopular", ".b2j"]),
        _sm("autojunk-with-junk", ["sm-junk", "sm-blocks"], long_a, long_b,
            ALL + [".bpopular", ".bjunk", "find_longest_match"], isjunk="$junk",
            junk_ops=[{"get": "IS_CHARACTER_JUNK", "as": "junk", "observe": False}]),
    ]
    # set_seq1 / set_seq2 / set_seqs and the cached results
    out.append({"id": "sm-set-seqs", "covers": ["sm-seqs", "sm-ratios"], "ops": [
        {"call": "SequenceMatcher", "as": "s", "observe": False},
        {"call": "$s.set_seqs", "args": ["abcd", "bcde"]}, {"call": "$s.ratio"},
        {"call": "$s.set_seq1", "args": ["bcde"]}, {"call": "$s.ratio"},
        {"call": "$s.quick_ratio"}, {"call": "$s.set_seq2", "args": ["xbcdx"]},
        {"call": "$s.quick_ratio"}, {"call": "$s.get_opcodes"}, {"call": "$s.ratio"},
        {"get": "$s.a"}, {"get": "$s.b"}, {"get": "$s.b2j"},
        {"call": "$s.set_seq1", "args": ["xx"]}, {"call": "$s.get_matching_blocks"},
        {"call": "$s.real_quick_ratio"}]})
    out.append({"id": "sm-same-object", "covers": ["sm-seqs"], "ops": [
        {"call": "SequenceMatcher", "args": [None, "abc", "abd"], "as": "s", "observe": False},
        {"call": "$s.get_opcodes", "as": "o1"},
        {"get": "$s.a", "as": "a", "observe": False},
        {"call": "$s.set_seq1", "args": ["$a"]},
        {"call": "$s.get_opcodes", "as": "o2"},
        {"op": "is", "args": ["$o1", "$o2"]},
        {"call": "$s.get_matching_blocks", "as": "m1"},
        {"call": "$s.get_matching_blocks", "as": "m2"},
        {"op": "is", "args": ["$m1", "$m2"]},
        {"op": "[]", "args": ["$m1", 0], "as": "m0"},
        {"get": "$m0.size"}, {"get": "$m0.a"}, {"op": "type", "args": ["$m0"]}]})
    out.append({"id": "sm-class-getitem", "covers": ["sm-seqs"], "ops": [
        {"get": "SequenceMatcher", "as": "S", "observe": False},
        {"op": "[]", "args": ["$S", "$S"], "as": "g", "observe": False},
        {"op": "repr", "args": ["$g"]}, {"call": "Match", "args": [1, 2, 3]}]})
    out.append({"id": "sm-unhashable", "covers": ["sm-seqs"], "call": "SequenceMatcher",
                "args": [None, [[1], [2]], [[1]]]})
    out.append(_sm("sm-unhashable-a", ["sm-seqs"], [[1]], [1, 2], ["ratio", "quick_ratio"]))
    # grouped opcodes
    a = [str(k) + "\n" for k in range(1, 40)]
    b = a[:8] + ["i\n"] + a[8:20] + ["x\n"] + a[21:23] + a[28:30] + ["y\n"] + a[31:]
    out += [
        _sm("grouped-default", ["sm-opcodes"], a, b, [("get_grouped_opcodes", []),
                                                      "get_opcodes"]),
        _sm("grouped-n0", ["sm-opcodes"], a, b, [("get_grouped_opcodes", [0])]),
        _sm("grouped-n1", ["sm-opcodes"], a, b, [("get_grouped_opcodes", [1])]),
        _sm("grouped-n10", ["sm-opcodes"], a, b, [("get_grouped_opcodes", [10])]),
        _sm("grouped-equal", ["sm-opcodes"], a, a, [("get_grouped_opcodes", [])]),
        _sm("grouped-edges", ["sm-opcodes"], ["x\n"] + a[1:-1] + ["y\n"], a,
            [("get_grouped_opcodes", [2])]),
    ]
    for k in range(6):
        r = random.Random(200 + k)
        s1 = _chars(r, 30 + 40 * k)
        s2 = _mutate_str(r, s1, 3 + k)
        out.append(_sm(f"sm-random-{k}", ["sm-ratios", "sm-blocks", "sm-opcodes"], s1, s2,
                       ALL + [("get_grouped_opcodes", [k % 4])]))
    for k in range(4):
        a, b = _pair(300 + k, 60 + 50 * k, 5 + 2 * k)
        out.append(_sm(f"sm-lines-random-{k}", ["sm-blocks", "sm-opcodes"], a, b,
                       ["get_opcodes", "ratio", "quick_ratio"]))
    # get_close_matches
    words = sorted({rng.choice(WORDS) + rng.choice(WORDS) for _ in range(300)})
    out += [
        {"id": "close-doc", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["appel", ["ape", "apple", "peach", "puppy"]]},
        {"id": "close-words", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["countitems", words]},
        {"id": "close-n", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["datatext", words], "kwargs": {"n": 7, "cutoff": 0.3}},
        {"id": "close-cutoff-0", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["ab", ["", "a", "b", "ab", "ba", "xyz", "abab"]], "kwargs": {"n": 10,
                                                                             "cutoff": 0.0}},
        {"id": "close-cutoff-1", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["ab", ["ab", "ba", "abc", "ab"]], "kwargs": {"cutoff": 1.0}},
        {"id": "close-empty-word", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["", ["", "a", ""]], "kwargs": {"cutoff": 1}},
        {"id": "close-ties", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["abcd", ["abce", "abcf", "abdd", "xbcd", "abcd"]], "kwargs": {"n": 4}},
        {"id": "close-long", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["a" * 120 + "b" * 100, ["a" * 110 + "b" * 90, "ab" * 100,
                                          "a" * 200 + "b" * 30]], "kwargs": {"cutoff": 0.5}},
        {"id": "close-lists", "covers": ["close-matches"], "call": "get_close_matches",
         "args": [[1, 2, 3], [[1, 2], [3, 2, 1], [1, 2, 3, 4], (1, 2, 3)]]},
        {"id": "close-n-zero", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["a", ["a"]], "kwargs": {"n": 0}},
        {"id": "close-cutoff-high", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["a", ["a"]], "kwargs": {"cutoff": 1.5}},
        {"id": "close-cutoff-neg", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["a", ["a"]], "kwargs": {"cutoff": -0.1}},
        {"id": "close-bad-item", "covers": ["close-matches"], "call": "get_close_matches",
         "args": ["abc", ["abd", 5]]},
        {"id": "close-unhashable", "covers": ["close-matches"], "call": "get_close_matches",
         "args": [[1, 2], [[[1], 2]]], "kwargs": {"cutoff": 0.0}},
    ]
    # unified and context diffs
    a, b = _pair(400, 80, 8)
    one = ["one\n", "two\n", "three\n", "four\n"]
    two = ["zero\n", "one\n", "tree\n", "four\n"]
    out += [
        _gen("unified-doc", ["unified-diff"], "unified_diff", ["one", "two", "three", "four"],
             ["zero", "one", "tree", "four"], "Original", "Current", "2005-01-26 23:30:50",
             "2010-04-02 10:20:52", lineterm=""),
        _gen("unified-basic", ["unified-diff"], "unified_diff", one, two),
        _gen("unified-files", ["unified-diff"], "unified_diff", a, b, "a.py", "b.py",
             fromfiledate="2020-01-01", n=2),
        _gen("unified-n0", ["unified-diff"], "unified_diff", a, b, n=0),
        _gen("unified-n-large", ["unified-diff"], "unified_diff", a, b, n=100),
        _gen("unified-same", ["unified-diff"], "unified_diff", a, a),
        _gen("unified-from-empty", ["unified-diff"], "unified_diff", [], one, n=0),
        _gen("unified-to-empty", ["unified-diff"], "unified_diff", one, []),
        _gen("unified-one-line", ["unified-diff"], "unified_diff", ["a\n"], ["b\n"], n=0),
        _gen("unified-bad-type", ["unified-diff"], "unified_diff", [b"a\n"], ["b\n"]),
        _gen("unified-bad-type-b", ["unified-diff"], "unified_diff", ["a\n"], [1]),
        _gen("unified-bad-arg", ["unified-diff"], "unified_diff", ["a\n"], ["b\n"], b"x"),
        _gen("context-doc", ["context-diff"], "context_diff", one, two, "Original", "Current"),
        _gen("context-files", ["context-diff"], "context_diff", a, b, "a.py", "b.py",
             "2020-01-01", "2020-01-02", n=1),
        _gen("context-n0", ["context-diff"], "context_diff", a, b, n=0, lineterm=""),
        _gen("context-same", ["context-diff"], "context_diff", a, a),
        _gen("context-insert-only", ["context-diff"], "context_diff", one, one[:2] + ["x\n"]
             + one[2:]),
        _gen("context-delete-only", ["context-diff"], "context_diff", one, one[1:], n=0),
        _gen("context-from-empty", ["context-diff"], "context_diff", [], ["x\n"]),
        _gen("context-bad-type", ["context-diff"], "context_diff", ["a\n"], ["b\n"],
             tofiledate=3),
        _gen("diff-bytes-unified", ["diff-bytes"], "diff_bytes", "$u",
             [b"one\n", b"tw\xffo\n", b"three\n"], [b"one\n", b"two\n", b"thr\xeee\n"],
             b"a", b"b", b"d1", b"d2", 1),
        _gen("diff-bytes-context", ["diff-bytes"], "diff_bytes", "$c",
             [b"x\n", b"y\n"], [b"x\n", b"z\n"], lineterm=b""),
        _gen("diff-bytes-str", ["diff-bytes"], "diff_bytes", "$u", ["x\n"], [b"y\n"]),
        _gen("diff-bytes-str-name", ["diff-bytes"], "diff_bytes", "$u", [b"x\n"], [b"y\n"],
             "a"),
    ]
    for c in out:
        if c["id"].startswith("diff-bytes"):
            c["ops"][0:0] = [{"get": "unified_diff", "as": "u", "observe": False},
                         {"get": "context_diff", "as": "c", "observe": False}]
    for k in range(4):
        a, b = _pair(500 + k, 40 + 30 * k, 4 + k)
        out.append(_gen(f"unified-random-{k}", ["unified-diff"], "unified_diff", a, b,
                        n=k))
        out.append(_gen(f"context-random-{k}", ["context-diff"], "context_diff", a, b,
                        n=3 - k))
    # ndiff, Differ, restore
    text1 = ["  1. Beautiful is better than ugly.\n", "  2. Explicit is better than implicit.\n",
             "  3. Simple is better than complex.\n", "  4. Complex is better than complicated.\n"]
    text2 = ["  1. Beautiful is better than ugly.\n", "  3.   Simple is better than complex.\n",
             "  4. Complicated is better than complex.\n", "  5. Flat is better than nested.\n"]
    out += [
        _gen("ndiff-doc", ["ndiff-differ"], "ndiff", text1, text2),
        _gen("ndiff-short", ["ndiff-differ"], "ndiff", ["one\n", "two\n", "three\n"],
             ["ore\n", "tree\n", "emu\n"]),
        _gen("ndiff-tabs", ["ndiff-differ"], "ndiff", ["\tabcDefghiJkl\n", "x\n"],
             ["\tabcdefGhijkl\n", "y\n"]),
        _gen("ndiff-ws", ["ndiff-differ"], "ndiff", ["a b\tc  d\n"], ["a  b c\td\n"]),
        _gen("ndiff-equal-in-replace", ["ndiff-differ"], "ndiff",
             ["p\n", "same\n", "qqqq\n"], ["r\n", "same\n", "s\n", "zzzz\n"]),
        _gen("ndiff-no-charjunk", ["ndiff-differ"], "ndiff", text1, text2, charjunk=None),
        _gen("ndiff-linejunk", ["ndiff-differ", "junk-predicates"], "ndiff",
             ["a\n", "\n", "#\n", "b\n"], ["\n", "a\n", "  #  \n", "c\n"],
             linejunk="$lj"),
        _gen("ndiff-empty", ["ndiff-differ"], "ndiff", [], []),
        _gen("ndiff-one-side", ["ndiff-differ"], "ndiff", ["a\n", "b\n"], []),
        _gen("ndiff-plain", ["ndiff-differ"], "ndiff", ["abc\n", "def\n", "ghi\n"],
             ["xyz\n", "uvw\n"]),
        _gen("ndiff-plain-more-b", ["ndiff-differ"], "ndiff", ["abc\n"],
             ["xyz\n", "uvw\n"]),
        _gen("ndiff-no-newline", ["ndiff-differ"], "ndiff", ["abcdefg"], ["abcxefg"]),
        _gen("ndiff-near-twice", ["ndiff-differ"], "ndiff",
             ["the quick brown fox\n", "jumps over\n", "the lazy dog\n"],
             ["the quick brown fax\n", "the quick brown fox!\n", "jumped over\n",
              "the lazy dogs\n"]),
        _gen("ndiff-both-empty-lines", ["ndiff-differ"], "ndiff", ["", "x"], ["", "y"]),
    ]
    _find(out, "ndiff-linejunk")["ops"][0:0] = [
        {"get": "IS_LINE_JUNK", "as": "lj", "observe": False}]
    for k in range(6):
        a, b = _pair(600 + k, 20 + 10 * k, 3 + k, tweak_share=0.7, block=2 + k)
        out.append(_gen(f"ndiff-random-{k}", ["ndiff-differ"], "ndiff", a, b))
    out.append({"id": "differ-compare", "covers": ["ndiff-differ"], "ops": [
        {"call": "Differ", "as": "d", "observe": False},
        {"call": "$d.compare", "args": [text1, text2], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]},
        {"call": "$d.compare", "args": [["x\n"], ["y\n"]], "as": "g2", "observe": False},
        {"op": "list", "args": ["$g2"]},
        {"get": "$d.linejunk"}, {"get": "$d.charjunk"}]})
    out.append({"id": "differ-junk", "covers": ["ndiff-differ", "junk-predicates"], "ops": [
        {"get": "IS_LINE_JUNK", "as": "lj", "observe": False},
        {"get": "IS_CHARACTER_JUNK", "as": "cj", "observe": False},
        {"call": "Differ", "args": ["$lj", "$cj"], "as": "d", "observe": False},
        {"call": "$d.compare", "args": [["a b\n", "\n", "c\n"], ["ab\n", "\n", "c d\n"]],
         "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]}]})
    out.append({"id": "differ-fancy-replace", "covers": ["ndiff-differ"], "ops": [
        {"call": "Differ", "as": "d", "observe": False},
        {"call": "$d._fancy_replace", "args": [["abcDefghiJkl\n"], 0, 1, ["abcdefGhijkl\n"],
                                                0, 1], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]},
        {"call": "$d._qformat", "args": ["\tabcDefghiJkl\n", "\tabcdefGhijkl\n",
                                          "  ^ ^  ^      ", "  ^ ^  ^      "],
         "as": "q", "observe": False},
        {"op": "list", "args": ["$q"]}]})
    out.append({"id": "differ-bad-tag", "covers": ["ndiff-differ"], "ops": [
        {"call": "Differ", "as": "d", "observe": False},
        {"call": "$d._dump", "args": ["?", ["a", "b", "c"], 1, 3], "as": "g",
         "observe": False},
        {"op": "list", "args": ["$g"]},
        {"call": "$d._plain_replace", "args": [["a"], 0, 1, ["b", "c"], 0, 2], "as": "p",
         "observe": False},
        {"op": "list", "args": ["$p"]},
        {"call": "$d._fancy_helper", "args": [["a"], 0, 0, ["b"], 0, 0], "as": "h",
         "observe": False},
        {"op": "list", "args": ["$h"]}]})
    a, b = _pair(700, 30, 6, tweak_share=0.7)
    for which in (1, 2, "2", 3, "x"):
        out.append({"id": f"restore-{which!r}".replace("'", "s"), "covers": ["restore"], "ops": [
            {"call": "ndiff", "args": [a, b], "as": "d", "observe": False},
            {"op": "list", "args": ["$d"], "as": "dl", "observe": False},
            {"call": "restore", "args": ["$dl", which], "as": "r", "observe": False},
            {"op": "list", "args": ["$r"]}]})
    out.append(_gen("restore-plain", ["restore"], "restore",
                    ["  a\n", "- b\n", "+ c\n", "? ^\n", "  d"], 2))
    # junk predicates
    for k, line in enumerate(["\n", "  #   \n", "hello\n", "", "#", "##\n", " x\n", "\t#\t\n"]):
        out.append({"id": f"line-junk-{k}", "covers": ["junk-predicates"],
                    "call": "IS_LINE_JUNK", "args": [line]})
    for k, ch in enumerate([" ", "\t", "\n", "x", "", "  "]):
        out.append({"id": f"char-junk-{k}", "covers": ["junk-predicates"],
                    "call": "IS_CHARACTER_JUNK", "args": [ch]})
    out.append({"id": "char-junk-ws", "covers": ["junk-predicates"],
                "call": "IS_CHARACTER_JUNK", "args": ["x"], "kwargs": {"ws": "xy"}})
    # HtmlDiff: its anchors carry a class-wide counter, so each case builds its
    # tables in the same order on both sides.
    a, b = _pair(800, 25, 5, tweak_share=0.6)
    a[3] = "\tindented\twith tabs and a very long line that has to be wrapped somewhere\n"
    b[3] = "\tindented  with tabs and a very long line that had to be wrapped somewhere\n"
    out += [
        {"id": "html-file", "covers": ["html-diff"], "ops": [
            {"call": "HtmlDiff", "as": "h", "observe": False},
            {"call": "$h.make_file", "args": [a, b, "from.txt", "to.txt"]}]},
        {"id": "html-table-context", "covers": ["html-diff"], "ops": [
            {"call": "HtmlDiff", "kwargs": {"tabsize": 4, "wrapcolumn": 30}, "as": "h",
             "observe": False},
            {"call": "$h.make_table", "args": [a, b], "kwargs": {"context": True,
                                                                  "numlines": 1}}]},
        {"id": "html-table-numlines0", "covers": ["html-diff"], "ops": [
            {"call": "HtmlDiff", "kwargs": {"wrapcolumn": 12}, "as": "h", "observe": False},
            {"call": "$h.make_table", "args": [a, b, "x<y", "a&b"],
             "kwargs": {"context": True, "numlines": 0}},
            {"call": "$h.make_table", "args": [a, b], "kwargs": {"numlines": 0}}]},
        {"id": "html-same", "covers": ["html-diff"], "ops": [
            {"call": "HtmlDiff", "as": "h", "observe": False},
            {"call": "$h.make_table", "args": [a, a], "kwargs": {"context": True}},
            {"call": "$h.make_table", "args": [[], []]}]},
        {"id": "html-charset", "covers": ["html-diff"], "ops": [
            {"call": "HtmlDiff", "kwargs": {"linejunk": "$lj", "charjunk": None},
             "as": "h", "observe": False},
            {"call": "$h.make_file", "args": [["caf\u00e9 <b>\n", "x\n"], ["cafe <i>\n"]],
             "kwargs": {"charset": "ascii", "context": True}}]},
        {"id": "html-wrap-markers", "covers": ["html-diff"], "ops": [
            {"call": "HtmlDiff", "kwargs": {"wrapcolumn": 5}, "as": "h", "observe": False},
            {"call": "$h.make_table", "args": [["abcdefghijklmnop\n", "same line\n", "q\n"],
                                               ["abcXefghijkYmnopqrstu\n", "same line\n"]]}]},
        {"id": "mdiff", "covers": ["html-diff"], "ops": [
            {"call": "_mdiff", "args": [a, b], "kwargs": {"context": 2}, "as": "g",
             "observe": False},
            {"op": "list", "args": ["$g"]},
            {"call": "_mdiff", "args": [["a\n", "b\n"], ["a\n", "c\n", "d\n"]], "as": "g2",
             "observe": False},
            {"op": "list", "args": ["$g2"]},
            {"call": "_mdiff", "args": [["x\n", "y\n", "z\n"], ["x\n"]],
             "kwargs": {"context": 0}, "as": "g3", "observe": False},
            {"op": "list", "args": ["$g3"]}]},
    ]
    _find(out, "html-charset")["ops"][0:0] = [
        {"get": "IS_LINE_JUNK", "as": "lj", "observe": False}]
    # _mdiff's pairs for blocks of deleted and added lines, and the blank
    # lines that keep the two sides level
    ctx = ["a\n", "b\n"]
    for cid, fl, tl in [("mdiff-del-add", ["x1\n", "x2\n"], ["y1\n", "y2\n", "y3\n"]),
                        ("mdiff-add-del", ["x1\n", "x2\n", "x3\n"], ["y1\n", "y2\n"]),
                        ("mdiff-del", ["x1\n", "x2\n", "x3\n"], []),
                        ("mdiff-add", [], ["y1\n", "y2\n"])]:
        out.append(_gen(cid, ["html-diff"], "_mdiff", ctx[:1] + fl + ctx[1:],
                        ctx[:1] + tl + ctx[1:]))
    out.append({"id": "html-escapes", "covers": ["html-diff"], "ops": [
        {"call": "HtmlDiff", "as": "h", "observe": False},
        {"call": "$h.make_table", "args": [["a & b < c > d X\n", "same X\n", "endX"],
                                           ["a & b <= c X\n", "same X\n", "endY"]]},
        {"call": "$h.make_table", "args": [["p\n", "q\n", "r\n"], ["p\n", "q\n", "r\n"]]}]})
    out.append({"id": "flm-popular-then-junk", "covers": ["sm-blocks", "sm-junk"], "ops":
                SPACE_JUNK + [
                    {"call": "SequenceMatcher", "args": ["$junk", " xQRS", " xQRS" + "x" * 250],
                     "as": "s", "observe": False},
                    {"get": "$s.bpopular"}, {"call": "$s.find_longest_match"},
                    {"call": "$s.find_longest_match", "args": [0, 5, 0, 5]}]})
    for k in range(3):
        a, b = _pair(900 + k, 30, 6, tweak_share=0.5, block=3)
        out.append({"id": f"html-random-{k}", "covers": ["html-diff"], "ops": [
            {"call": "HtmlDiff", "kwargs": {"wrapcolumn": [None, 20, 40][k]}, "as": "h",
             "observe": False},
            {"call": "$h.make_table", "args": [a, b],
             "kwargs": {"context": k != 1, "numlines": k + 1}}]})
    return out


def timing_inputs():
    def unified(n, edits):
        def one(seed):
            a, b = _pair(seed, n, edits)
            return _gen("t", [], "unified_diff", a, b)
        return one

    def ndiff(n, edits):
        def one(seed):
            a, b = _pair(seed, n, edits, tweak_share=0.8, block=8)
            return _gen("t", [], "ndiff", a, b)
        return one

    def close(n):
        def one(seed):
            rng = random.Random(seed)
            words = [rng.choice(WORDS) + rng.choice(WORDS) + rng.choice(WORDS)
                     for _ in range(n)]
            word = rng.choice(words)[:-1] + "e"
            return {"id": "t", "covers": [], "call": "get_close_matches",
                    "args": [word, words], "kwargs": {"n": 5, "cutoff": 0.5}}
        return one

    def ratio(n):
        def one(seed):
            rng = random.Random(seed)
            s1 = _chars(rng, n, "abcdefghijklmnopqrstuvwxyz       ")
            s2 = _mutate_str(rng, s1, n // 40)
            return {"id": "t", "covers": [], "ops": [
                {"call": "SequenceMatcher", "args": [None, s1, s2],
                 "kwargs": {"autojunk": False}, "as": "s", "observe": False},
                {"call": "$s.ratio"}, {"call": "$s.get_opcodes"}]}
        return one

    return [
        {"id": "unified1000", "size": 1000, "make": unified(1000, 30)},
        {"id": "ndiff150", "size": 150, "make": ndiff(150, 12)},
        {"id": "close2000", "size": 2000, "make": close(2000)},
        {"id": "ratio800", "size": 800, "make": ratio(800)},
    ]
