"""Held-out cases and timing inputs for the idna package task.

Domain names and labels written for this task (ASCII, Latin, Greek, Cyrillic,
Arabic, Hebrew, Devanagari, CJK, joiners, context rules, bidi rules, invalid
input). Timing inputs encode and decode long seeded lists of domain names."""

import random

DOMAINS = [
    "example.com", "Example.COM", "xn--nxasmq6b.com", "bücher.example", "BÜCHER.de", "straße.de",
    "faß.de", "ᏚᎢᎵᎬᎢᎬᏒ.com", "домен.рф", "παράδειγμα.δοκιμή", "例え.テスト", "例子。测试",
    "mañana．com", "ｅｘａｍｐｌｅ.com", "a.b.c.d.e", "trailing.dot.", "xn--bcher-kva.example",
    "münchen-ost.de", "ab--cd.com", "-lead.com", "trail-.com", "xn--.com", "a..b", "", ".",
    "..", "x" * 64 + ".com", ".".join(["a" * 63] * 4), ".".join(["a" * 63] * 3) + "." + "a" * 61,
    ".".join(["a" * 63] * 3) + "." + "a" * 61 + ".", "under_score.com", "space here.com",
    "ﻋﺮﺑﻲ.com", "عربي.com", "مثال.إختبار", "עברית.com", "א1.com", "1א.com", "ab\u05d0.com",
    "\u05d0\u0660\u06f0.com", "\u05d0\u0661.com", "\u05d0a.com", "\u05d0\u0300.com",
    "\u0300a.com", "ａ\u3002b", "a\uff61b\uff0ec", "xn--ls8h.la", "💩.la", "ǅ.com",
    "\u0627\u0661\u0662.com", "\u0627\u06f1.com", "\u0627\u0661\u06f1.com",
    "l\u00b7l.cat", "a\u00b7l.cat", "\u00b7l.cat", "\u0375\u03b1.gr", "\u0375a.gr", "a\u0375",
    "\u05d0\u05f3.il", "a\u05f3.il", "\u05f3", "\u30fb\u30a2", "\u30fba", "\u30fb\u4e00",
    "\u30fb\u3042", "\u0660\u0661", "\u0660\u06f0", "\u06f0\u06f1", "\u06f0\u0660",
    "\u0915\u094d\u200d\u0937", "a\u200db", "\u0915\u094d\u200c\u0937", "\u0628\u200c\u0628",
    "\u0628\u064b\u200c\u064b\u0628", "a\u200cb", "\u200c", "\u200d", "\u0628\u200c",
    "\u0628\u200ca", "XN--BCHER-KVA.EXAMPLE", "xn--bcher-kva-.de", "xn--a.com", "xn--zz.com",
    "xn--tda.com", "e\u0301.com", "\u00e9.com", "A.com", "a\u2160.com", "\u2163.com",
    "\u00ad.com", "a\u00adb.com", "\u0221.com", "\U000e0001.com", "\ufdd0.com", "a\u0000b",
    "a/b.com", "\u2488.com", "\u3002", "\u0378.com", "\U0001f1e6.com",
]
LABELS = ["abc", "ABC", "bücher", "xn--bcher-kva", "XN--BCHER-KVA", "例え", "", "a" * 63,
          "a" * 64, "ü" * 30, "ü" * 60, "xn--", "xn--a-", "xn--9", "-a", "a-", "ab--c",
          "\u0300x", "e\u0301", "a_b", "\u05d0", "\u05d0a", "1\u05d0"]


def _domain_ops(d, k):
    ops = []
    for kw in ({}, {"uts46": True}, {"uts46": True, "transitional": True},
               {"uts46": True, "std3_rules": True}, {"strict": True}):
        ops.append({"call": "encode", "args": [d], "kwargs": kw})
    for kw in ({}, {"uts46": True}, {"uts46": True, "std3_rules": True}, {"strict": True}):
        ops.append({"call": "decode", "args": [d], "kwargs": kw})
    if k % 3 == 0:
        ops.append({"call": "uts46_remap", "args": [d]})
        ops.append({"call": "uts46_remap", "args": [d], "kwargs": {"std3_rules": False,
                                                                    "transitional": True}})
    return ops


def cases():
    out = []
    for start in range(0, len(DOMAINS), 10):
        ops = []
        for k, d in enumerate(DOMAINS[start:start + 10], start):
            ops += _domain_ops(d, k)
        out.append({"id": f"domains-{start // 10:02d}",
                    "covers": ["encode", "decode", "uts46", "errors", "contexts", "bidi"],
                    "ops": ops})
    out.append({"id": "bytes", "covers": ["encode", "decode", "errors"], "ops": [
        {"call": "encode", "args": [b"example.com"]}, {"call": "encode", "args": [b"\xc3\xbc.de"]},
        {"call": "decode", "args": [b"xn--bcher-kva.example"]},
        {"call": "decode", "args": [b"\xff.com"]}, {"call": "decode", "args": [bytearray(b"abc.de")]},
        {"call": "encode", "args": [bytearray(b"abc.de")], "kwargs": {"uts46": True}},
        {"call": "alabel", "args": ["abc"]}, {"call": "ulabel", "args": [b"xn--bcher-kva"]},
        {"call": "ulabel", "args": [bytearray(b"abc")]}, {"call": "check_label", "args": [b"abc"]},
        {"call": "check_label", "args": [bytearray("bücher".encode())]}]})
    ops = []
    for lab in LABELS:
        ops += [{"call": "alabel", "args": [lab]}, {"call": "ulabel", "args": [lab]},
                {"call": "check_label", "args": [lab]}]
    out.append({"id": "labels", "covers": ["labels", "errors"], "ops": ops})
    ops = []
    for lab in ["abc", "a-b", "ab--c", "-ab", "ab-", "-", "\u0300a", "a\u0300", "abc\u0300",
                "e\u0301", "\u00e9", "\u212b", "\u05d0", "\u05d0a", "a\u05d0", "1\u05d0",
                "\u05d01", "\u05d0\u0300", "\u0627\u0661\u06f1", "\u0627\u0661", "\u05d0 ",
                "a ", " a", "\u0627.", "a\u0660", "\u05d0\u05d0\u0300\u0300"]:
        for fn in ("check_hyphen_ok", "check_initial_combiner", "check_nfc", "check_bidi"):
            ops.append({"call": fn, "args": [lab]})
        ops.append({"call": "check_bidi", "args": [lab], "kwargs": {"check_ltr": True}})
    ops.append({"call": "check_bidi", "args": ["a\U000e0080b"]})
    ops.append({"call": "check_bidi", "args": ["a\u0378"]})
    for n in (0, 1, 63, 64, 200, 253, 254, 255):
        ops += [{"call": "valid_label_length", "args": ["a" * n]},
                {"call": "valid_label_length", "args": [b"a" * n]},
                {"call": "valid_string_length", "args": ["a" * n, False]},
                {"call": "valid_string_length", "args": ["a" * n, True]}]
    out.append({"id": "checks", "covers": ["checks", "bidi", "errors"], "ops": ops})
    ops = []
    for lab, pos in [("\u0915\u094d\u200d", 2), ("a\u200d", 1), ("\u200d", 0),
                     ("\u0915\u094d\u200c", 2), ("\u0628\u200c\u0628", 1),
                     ("\u0628\u064b\u200c\u064b\u0628", 2), ("\u0628\u064b\u200c\u064ba", 2),
                     ("a\u200c\u0628", 1), ("\u200c\u0628", 0), ("\u0628\u200c", 1), ("ab", 0),
                     ("\u0627\u200c\u0628", 1), ("\u0644\u200c\u0627", 1), ("\u0378\u200c", 1),
                     ("\u0628a\u200c\u0628", 2), ("\u0628\u200ca\u0628", 1), ("\u094d\u200d", 1),
                     ("\u094d\u200c", 1), ("\u0628\u064b\u064b\u200c\u0628", 3)]:
        ops.append({"call": "valid_contextj", "args": [lab, pos]})
    for lab, pos in [("l\u00b7l", 1), ("a\u00b7l", 1), ("l\u00b7a", 1), ("\u00b7l", 0),
                     ("l\u00b7", 1), ("\u0375\u03b1", 0), ("\u0375a", 0), ("a\u0375", 1),
                     ("\u0375", 0), ("\u05d0\u05f3", 1), ("a\u05f4", 1), ("\u05f3", 0),
                     ("\u30fb\u30a2", 0), ("\u30fb\u3042", 0), ("\u30fb\u4e00", 0),
                     ("\u30fba", 0), ("\u30fb\u30fb", 0), ("\u0660\u0661", 0),
                     ("\u0660\u06f0", 0), ("\u06f0\u06f1", 0), ("\u06f0\u0660", 0), ("a", 0),
                     ("\u06f9", 0), ("\u0660\u06f9", 0), ("\u06f9\u0669", 0), ("\u0669\u06f0", 0)]:
        ops.append({"call": "valid_contexto", "args": [lab, pos]})
        ops.append({"call": "valid_contexto", "args": [lab, pos], "kwargs": {"exception": True}})
    out.append({"id": "contexts", "covers": ["contexts"], "ops": ops})
    ranges = [(10 << 32) | 20, (30 << 32) | 31, (40 << 32) | 50]
    out.append({"id": "intranges", "covers": ["intranges"], "ops": [
        {"call": "intranges_contain", "args": [n, ranges]}
        for n in (0, 9, 10, 15, 19, 20, 29, 30, 31, 39, 40, 49, 50, 51, 100)]
        + [{"call": "intranges_contain", "args": [5, []]}, {"get": "__version__"},
           {"call": "intranges.intranges_from_list", "args": [[1, 2, 3, 7, 9, 10, 20]]},
           {"call": "intranges.intranges_from_list", "args": [[5, 3, 4, 4]]},
           {"call": "intranges.intranges_from_list", "args": [[]]}]})
    ops = []
    for d in ["Ａ.com", "a\u2160", "\u00df", "\u03c2", "\u200d", "\u00ad", "\u2488", "a_b",
              "\u0041\u030a", "\U000e0100", "\u0378", "\ufdd0", "abc\u3002def", "\u1e9e",
              "\u0130", "\u2f00", "\u33a1", "\ufb01", "\u0149", "xn--bcher-kva", "\u2474",
              "a\u2474b", "\u00a8", "\u0100\u00ff"]:
        for kw in ({}, {"std3_rules": False}, {"transitional": True},
                   {"std3_rules": False, "transitional": True}):
            ops.append({"call": "uts46_remap", "args": [d], "kwargs": kw})
    out.append({"id": "uts46-remap", "covers": ["uts46", "errors"], "ops": ops})
    return out


ASCII = "abcdefghijklmnopqrstuvwxyz0123456789"
UNI = ["ü", "ö", "é", "ß", "ñ", "ç", "д", "ом", "α", "例", "テ", "ą", "ł", "ş", "ğ"]


def _label(rng):
    n = rng.randint(3, 14)
    chars = [rng.choice(ASCII) for _ in range(n)]
    if rng.random() < 0.25:
        chars[rng.randrange(n)] = rng.choice(UNI)
    if rng.random() < 0.2 and n > 4:
        chars[rng.randrange(1, n - 1)] = "-"
    lab = "".join(chars).replace("--", "-a")
    return lab.strip("-") or "x"


def _domain(rng):
    d = ".".join(_label(rng) for _ in range(rng.randint(2, 4)))
    return d.upper() if rng.random() < 0.2 else d


def timing_inputs():
    def make(n):
        def one(seed):
            rng = random.Random(seed)
            ops = []
            for _ in range(n):
                d = _domain(rng)
                ops.append({"call": "encode", "args": [d], "kwargs": {"uts46": True}})
                ops.append({"call": "decode", "args": [d], "kwargs": {"uts46": True}})
            return {"ops": ops}
        return one

    return [
        {"id": "domains20", "size": 20, "make": make(20)},
        {"id": "domains100", "size": 100, "make": make(100)},
    ]
