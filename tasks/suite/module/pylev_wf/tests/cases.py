"""Held-out cases and timing inputs for the pylev_wf module task (pylev's
Wagner-Fischer Levenshtein distances).

Each case calls wf_levenshtein or wfi_levenshtein on two sequences; most are
run on both functions. Timing inputs are pairs of generated strings, related
by random edits (as when comparing versions of a text) or unrelated."""

import random

FUNCS = ("wf_levenshtein", "wfi_levenshtein")

PAIRS = [
    # (id, covers, a, b)
    ("kitten", ["distance"], "kitten", "sitting"),
    ("sitting", ["distance", "symmetric"], "sitting", "kitten"),
    ("same", ["identical"], "kitten", "kitten"),
    ("empty-both", ["empty"], "", ""),
    ("empty-left", ["empty"], "", "abc"),
    ("empty-right", ["empty"], "abcd", ""),
    ("one-char", ["distance"], "a", "b"),
    ("one-char-same", ["identical"], "a", "a"),
    ("insert", ["distance"], "abc", "abxc"),
    ("delete", ["distance"], "abxc", "abc"),
    ("substitute", ["distance"], "flaw", "lawn"),
    ("prefix", ["distance"], "abc", "abcdef"),
    ("suffix", ["distance"], "defabc", "abc"),
    ("disjoint", ["distance"], "aaaa", "bbb"),
    ("case", ["distance"], "Hello", "hello"),
    ("transpose", ["distance"], "ab", "ba"),
    ("repeats", ["distance"], "aaaaab", "baaaaa"),
    ("longer-first", ["symmetric"], "intention", "execution"),
    ("longer-second", ["symmetric"], "execution", "intention"),
    ("sunday", ["distance"], "saturday", "sunday"),
    ("unicode", ["unicode"], "café", "cafe"),
    ("unicode-cjk", ["unicode"], "日本語", "日本人"),
    ("combining", ["unicode"], "e\u0301", "é"),
    ("emoji", ["unicode"], "😀a😀", "a😀"),
    ("spaces", ["distance"], "a b c", "abc"),
    ("lists", ["sequences"], ["the", "quick", "fox"], ["the", "slow", "brown", "fox"]),
    ("tuples", ["sequences"], (1, 2, 3, 4), (1, 3, 4, 5)),
    ("list-tuple", ["sequences"], [1, 2, 3], (1, 2, 3)),
    ("list-tuple-diff", ["sequences"], [1, 2, 3], (3, 2, 1)),
    ("str-list", ["sequences"], "abc", ["a", "b", "c"]),
    ("str-list-diff", ["sequences"], "abc", ["a", "x"]),
    ("numbers-equal", ["sequences"], [1, 2.0, True], [1.0, 2, 1]),
    ("nested", ["sequences"], [[1], [2, 3]], [[1], [2]]),
    ("bytes", ["sequences"], b"kitten", b"sitting"),
    ("bytes-str", ["sequences"], b"abc", "abc"),
    ("empty-list", ["empty", "sequences"], [], [1, 2]),
    ("empty-mixed", ["empty", "sequences"], [], ""),
    ("none-elements", ["sequences"], [None, 1], [None, 2, None]),
]

ERRORS = [
    ("int", ["errors"], 5, "abc"),
    ("none", ["errors"], "abc", None),
    ("float", ["errors"], 1.5, 2.5),
    ("set", ["errors"], {1, 2}, {2, 3}),
    ("dict", ["errors"], {"a": 1}, {"b": 2}),
    ("dict-int-keys", ["errors"], {0: "a", 1: "b"}, {0: "a", 1: "c"}),
    ("set-empty", ["errors", "empty"], set(), {1}),
]


def _edited(rng, s, edits, alphabet):
    s = list(s)
    for _ in range(edits):
        op = rng.randrange(3)
        k = rng.randrange(len(s) + 1)
        if op == 0 or not s:
            s.insert(k, rng.choice(alphabet))
        elif op == 1:
            del s[min(k, len(s) - 1)]
        else:
            s[min(k, len(s) - 1)] = rng.choice(alphabet)
    return "".join(s)


def _pair(seed, n, related, alphabet="abcdefghijklmnopqrstuvwxyz ,."):
    rng = random.Random(seed)
    a = "".join(rng.choice(alphabet) for _ in range(n))
    if related:
        b = _edited(rng, a, max(1, n // 8), alphabet)
    else:
        b = "".join(rng.choice(alphabet) for _ in range(n + rng.randrange(-n // 4, n // 4 + 1)))
    return a, b


def cases():
    out = []
    for cid, covers, a, b in PAIRS + ERRORS:
        for f in FUNCS:
            out.append({"id": f"{f}-{cid}", "covers": covers, "call": f, "args": [a, b]})
    out.append({"id": "nan", "covers": ["sequences"], "ops": [
        {"op": "float", "args": ["nan"], "as": "x", "observe": False},
        {"op": "list", "args": [[0]], "as": "l", "observe": False},
        {"op": "[]=", "args": ["$l", 0, "$x"]},
        {"call": "wf_levenshtein", "args": ["$l", "$l"]},
        {"call": "wfi_levenshtein", "args": ["$l", "$l"]},
        {"op": "list", "args": [[0]], "as": "m", "observe": False},
        {"op": "[]=", "args": ["$m", 0, "$x"]},
        {"call": "wf_levenshtein", "args": ["$l", "$m"]},
        {"call": "wfi_levenshtein", "args": ["$l", "$m"]}]})
    out.append({"id": "py2-flag", "covers": ["module"], "ops": [{"get": "PY2"}]})
    out.append({"id": "keywords", "covers": ["distance"], "ops": [
        {"call": f, "kwargs": {"string_1": "gumbo", "string_2": "gambol"}} for f in FUNCS]})
    for k in range(16):
        rng = random.Random(k)
        n = rng.randrange(1, 40)
        a, b = _pair(k, n, k % 2 == 0, "abcd" if k < 8 else "abcdefghij")
        out.append({"id": f"random-{k}", "covers": ["distance"], "ops": [
            {"call": f, "args": [a, b]} for f in FUNCS] + [
            {"call": f, "args": [b, a]} for f in FUNCS]})
    for k in range(6):
        a, b = _pair(100 + k, 70 + 13 * k, True, "ab日 ")
        out.append({"id": f"random-long-{k}", "covers": ["distance", "unicode"], "ops": [
            {"call": f, "args": [a, b]} for f in FUNCS]})
    return out


def timing_inputs():
    def make(f, n, related):
        def one(seed):
            return {"call": f, "args": list(_pair(seed, n, related))}
        return one

    return [
        {"id": "wf-100", "size": 100, "make": make("wf_levenshtein", 100, True)},
        {"id": "wfi-60", "size": 60, "make": make("wfi_levenshtein", 60, False)},
        {"id": "wfi-200", "size": 200, "make": make("wfi_levenshtein", 200, True)},
    ]
