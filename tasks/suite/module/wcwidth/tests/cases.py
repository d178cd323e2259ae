"""Held-out cases and timing inputs for the wcwidth module task.

Cases measure single characters and strings with wcwidth and wcswidth under
several Unicode versions (control characters, combining marks, zero-width
characters, East Asian wide and full-width characters, emoji, ZWJ sequences,
variation selector 16), the version matching helpers, and chunk sums over
dense and sparse samples of the code space that pin the width tables down.
Lone surrogates appear in one case only; the table sweeps leave them out.
Timing inputs measure long generated strings of mixed scripts and emoji."""

import random

VERSIONS = ["4.1.0", "5.0.0", "6.0.0", "8.0.0", "9.0.0", "11.0.0", "12.1.0", "13.0.0",
            "14.0.0", "15.0.0", "15.1.0"]

ZWJ = "\u200d"
VS16 = "\ufe0f"
FAMILY = "\U0001F468" + ZWJ + "\U0001F469" + ZWJ + "\U0001F467"
HEART = "\u2764" + VS16
KEYCAP = "#" + VS16 + "\u20e3"
FLAG = "\U0001F1EB\U0001F1F7"

DENSE = [(0x0300, 0x0400), (0x0480, 0x0500), (0x0590, 0x0700), (0x0900, 0x0A00),
         (0x1100, 0x1200), (0x1AB0, 0x1B00), (0x1DC0, 0x1E00), (0x200B, 0x2070),
         (0x20D0, 0x2100), (0x231A, 0x2400), (0x2600, 0x2800), (0x2B00, 0x2C00),
         (0x2E80, 0x3100), (0x3190, 0x3400), (0x4DB0, 0x4E10), (0x9FB0, 0xA000),
         (0xA4C0, 0xA500), (0xA960, 0xA980), (0xABE0, 0xAC10), (0xD7A0, 0xD800),
         (0xF900, 0xFB00), (0xFE00, 0xFE70), (0xFF00, 0xFFF0), (0x11000, 0x11100),
         (0x16FE0, 0x17010), (0x18AF0, 0x18D10), (0x1AFF0, 0x1B170), (0x1D160, 0x1D250),
         (0x1F000, 0x1FB00), (0x1FFF0, 0x20010), (0x2A6D0, 0x2A710), (0x2FFF0, 0x30010),
         (0x3FFF0, 0x40000), (0xE0000, 0xE0200)]

# Code points around the ends of the ranges in the width tables of every
# version (each range's first and last code point and their outer neighbours),
# control characters and surrogates left out; then the same around the ranges
# of the VS16 table. Stored as hexadecimal gaps from the previous one.
EDGES = """
    ac 1 1 251 1 6f 1 112 1 3 1 1 1 1 106 1 28 1 1 2 1 1 1 1 1 1 1 1 1 1 1 37 1 3 1 1 1
    9 1 5 1 4 1 1 1 2d 1 13 1 1 f 1 1 64 1 7 1 1 5 1 1 1 1 1 1 3 1 20 1 1 1 1 1d 1 1a 1
    5a 1 a 1 39 1 8 1 8 1 1 17 1 3 1 1 8 1 1 2 1 1 4 1 2a 1 2 1 33 1 1 1 5 1 7 1 29 1 8
    1 1 e 1 1 1a 1 1 1 2 1 35 1 1 1 1 1 f 1 1 1 1 3 1 1 1 1 9 1 1 1 1c 1 2 1 37 1 1 1 6
    1 1 1 1 1 1 1 2 1 8 1 1 9 1 1 1 19 1 1 1 1 2 1 37 1 1 1 4 1 3 1 1 1 1 1 2 1 2 1 1 1d
    1 1 1 2 1 1 a 1 2 1 37 1 1 1 7 1 1 2 1 1 2 1 13 1 1 1 15 1 5 1 1 2 1 37 1 1 1 5 1 1
    1 1 1 1 1 1 2 1 6 1 1 1 1 9 1 1 1 1d 1 1 3a 1 4 1 2 1 2 1 1 3 1 8 1 1 27 1 1 2 1 1
    36 1 1 1 6 1 1 2 1 1 3 1 6 1 1 1 a 1 1 1 1c 1 1 1 1 37 1 1 1 6 1 1 2 1 1 3 1 6 1 1 1
    a 1 1 1 e 1 1 b 1 1 1 1 1 36 1 1 1 1 5 1 1 1 2 1 1 3 1 8 1 1 9 1 1 1 1c 1 1 1 1 45 1
    1 3 1 5 1 1 1 1 7 1 11 1 1 1 3c 1 1 1 1 6 1 b 1 7 1 61 1 1 1 1 5 1 1 1 1 a 1 5 1 1
    48 1 1 1 1a 1 1 1 1 1 1 3 1 1 1 30 1 13 1 1 1 1 4 1 2 1 7 1 1 23 1 8 1 1 63 1 1 6 1
    2 1 3 1 4 1 16 1 3 1 3 1 2 1 1 2 1 1 1 6 1 2 1 3 1 c 1 b 1 1 1 9 1 3 1 61 1 59 1 4 1
    1 9f 1 15c 1 1 1 1 3b1 1 2 1 1 1b 1 2 1 1c 1 1 1 1d 1 1 1 3f 1 1f 1 8 1 1 2c 1 2 1 1
    1 74 1 1 1 21 1 1 75 1 b 1 3 1 b 1 73 1 10 1 6 1 1 1 4c 1 4 1 38 1 9 1 1 1c 1 1 1 1
    2f 1 e 1 1 1 d 1 30 1 4 1 2e 1 10 1 25 1 8 1 b 1 2 1 1d 1 9 1 2 1 37 1 d 1 2f 1 13 1
    97 1 2 1 1 14 1 3 1 1 3 1 1 1 1 1 1 1 1 1 c5 1 3 1 6 1 1b 1 e 1 3 1 1 1 1 1 1 1 20a
    1 4 1 17 1 6 1 30 1 3 1 1 1 3 1 5 1 5f 1 1b 1 3 1 1 228 1 1 1 c 1 1 1 bd 1 3 1 2 1 1
    1 1 1 208 1 1 1 14 1 1 1 31 1 b 1 2a 1 1 12 1 1 c 1 1 7 1 1 1 10 1 1 1 4 1 1 1 7 1 1
    4 1 1 14 1 1 6 1 1 1 1 1 3 1 1 1 1 1 6 1 1 3 1 1 1 1b 1 1 22 1 1 1 1 3 1 2 1 1 1 3c
    1 2 1 17 1 1 d 1 1 35a 1 1 1 32 1 1 3 1 1 198 1 2 1 8c 1 1 5f 1 1f 1 7f 1 19 1 1 58
    1 b 1 d5 1 19 1 b 1 3 1 29 1 5 1 e 1 1 1 55 1 1 1 1 1 64 1 4 1 27 1 1 1 1 1 5d 1 1
    27 1 2 1 4 1 f 1 13 1 a 1 1 2e 1 1 23 1 3 1 7 1 ae 1 1 1ab5 1 9 1 3f 1 51bb 1 7 1 3b
    1 48c 1 2 1 36 1 1a7 1 3 1 1 7 1 1 1 1f 1 1 1 4f 1 1 1 10f 1 1 2 1 1 3 1 1 16 1 4 1
    3 1 1 52 1 1 1 31 1 10 1 1 19 1 11 1 c 1 1 25 1 7 1 18 1 c 1 b 1 1c 1 2 1 3 1 2e 1 d
    1 23 1 1 42 1 d 1 b 1 1 7 1 1 1 2c 1 1 1 1 31 1 1 1 2 1 1 1 1 1 4 1 1 1 1 1 28 1 4 1
    4 1 1 1 eb 1 7 1 1 1 1 11 1 2ba3 1 b 1 4f 2100 1 12d 1 1 1 3a 1 4 1 69 1 25 1 1d 1 1
    2e0 1 f 1 9 1 5 1 3 1 2 1 6 1 1 1 22 1 1 12 1 1 3 1 92 1 1 1 5f 1 7e 1 6 1 11 1 2 1
    200 1 1 e1 1 1 94 1 4 1 685 1 2 1 1 1 1 4 1 3 1 27 1 2 1 3 1 1 a4 1 1 1 23c 1 3 1
    182 1 1 1 4f 1 2 1 45 1 a 1 30 1 3 1 79 1 2 1 34 1 e 1 28 1 1 1 1 1 1 9 1 1 2 1 2c 1
    a 1 1 1 1 3 1 1 9 1 1 31 1 2 1 23 1 d 1 f 1 1 1 2b 1 1 b 1 2 1 2f 1 d 1 7 1 1 2 1 1
    1 1 5b 1 b 1 5 1 1 1 1 1 9c 1 b 1 14 1 1 2 1 36 1 1 1 1 6 1 1 1 1 1 1 1 2 1 8 1 1 9
    1 1 1 1 1 6 1 2 1 4 1 bf 1 11 1 16 1 1 50 1 13 1 ea 1 6 1 1 1 8 1 1a 1 1 1 51 1 10 1
    69 1 c 1 64 1 e 1 ff 1 e 1 f4 1 5 1 1 1 1 1 1 3 1 1 1 1 1 1 8c 1 6 1 1 1 6 1 2 1 1
    1b 1 9 1 27 1 6 1 1 3 1 7 1 1 8 1 a 1 2d 1 f 1 194 1 7 1 1 7 1 51 1 15 1 1 d 1 79 1
    5 1 2 1 1 1 1 1 1 6 1 1 1 41 1 4 1 1 1 1 1 4 1 15a 1 3 1 8 1 1 1 1 1 2f 1 6 1 2 1 4
    1 14ec 1 8 1 7 1 5 1 e 1 3699 1 4 1 3a 1 6 1 417 1 1 1 2d 1 8 1 6 1 3 1 4c 1 1 1 1 1
    1 a 1 1 1 d 1 17ec 1 4 1 5 1 7 1 2f2 1 1e2 1 29 1 8 1 22e6 1 3 1 1 6 1 1 1 1 1 1 1
    11c 1 3 1 e 1 1 1c 1 2 1 1 1 1 d 1 3 1 7 1 18b 1 9a0 1 1 1 1 3 1 125b 1 2d 1 1 1 16
    1 21d 1 4 1 2 1 15 1 1 1 6 1 1d 1 3 1 93 1 2 1 7ba 1 36 1 3 1 31 1 7 1 1 d 1 1 15 1
    4 1 1 e 1 54f 1 6 1 1 10 1 1 1 6 1 1 1 1 1 4 1 63 1 1 9f 1 6 1 176 1 1 3c 1 3 1 1fb
    1 3 1 3df 1 6 1 6c 1 6 1 6b8 1 1 c9 1 1 bd 1 1 1 1 9 1 64 1 1 1 1 c 1 21 1 8 1 1 3 1
    8 1 6 1 1 1 d 1 5 1 99 1 20 1 b 1 8 1 1 45 1 1 15 1 b 1 2a 1 3 1 4 1 b 1 10 1 2 1 1
    2 1 2 1 4 1 3e 1 1 1 1 ba 1 1 1 3e 1 c 1 3 1 1 17 1 11 1 1 19 1 1 1 c 1 1 55 1 54 1
    2f 1 45 1 5 1 1 2 1 2 1 1 1 1 1 1 3 1 1 2 1 a 1 1 1 6 1 2 1 1 1 1 1 1 1 e2 1 b 1 3 1
    1 11a 1 1 2 1 e 1 1 7 1 7 1 1 1 1 7 1 1 2 1 1 5 1 1 4 1 1 2 1 e 1 c 1 4 1 1 1 3 1 1
    1 1 1 1 3 1 11 1 5 1 a 1 1 1 5 1 2 1 1 1 9 1 5 1 1 1 1 7 1 1 1 2 1 16 1 18 1 6f 1 3
    1 1 2 1 2 1 1 1 2 1 2 1 3 1 1 1 6 1 5 1 12 1 3 1 2 1 6 1 3 1 2 1 1 1 2 1 2 1 7 1 1 1
    6 1 2 1 1 1 3 1 7 1 1 6 1 6 1 1 1 506 1 fffd 1 1 1 fffd 1 a0002 1 1 1d 1 5f 1 7f 1
    ef 1
"""
VS16_EDGES = """
    22 1 1 5 1 1 4 1 9 1 6e 1 1 3 1 1 1f8c 1 1 b 1 1 d7 1 1 15 1 1 59 1 5 1 e 1 1 1 17c
    1 1 a5 1 1 1c 1 2 1 1 1 1 4 1 2 1 c6 1 1 e6 1 1 1 9 1 1 8 1 1 39 1 1 1 2 1 4 1 8 1 1
    1 1 1 5 1 1 3 1 1 1 1 1 1 1 1 1 1 1 2 1 1 2 1 1 1 7 1 2 1 4 1 1 1 1 1b 1 1 1 1 1 1 1
    1 1 1 1 11 1 1 1 1 1 12 1 1 1 3 1 1 1 1 1 1 2 1 1 5 1 1 7 1 1 1 15 1 1 5 1 1 1 1 1 1
    14 1 1 5 1 1 1 1 1 1 1 1 2 1 7 1 1 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 5 1 1 2 1 1 10
    1 1 1 e 1 1 1 1 1 1a 1 1 1 3b 1 1 191 1 1 1 1ce 1 2 1 1c667 1 1 1 b 1 1 1 1a0 1 1 1
    1 8 1 8 1 1 45 1 1 17 1 1 1 1 2 1 1 1 1 1 2a 1 3 1 4 1 b 1 12 1 1 1 1 1 1 46 1 1 1 1
    ba 1 1 4a 1 1 1 23 1 1 1 1 1 6 1 c 1 1 1 1 3 1 1 1 1 13 1 1 1 1 1 7 1 1 1 8 1 1 4 1
    2 1 b 1 2 1 7 1 2 1 1 1 1 1 1 3 1 1 5 1 1 2 1 1 5 1 1 cf 1 1 1 2 1 f 1 5 1 2 1 1 5 1
    1 1 1 1
"""


def _points(text):
    out, at = [], 0
    for gap in text.split():
        at += int(gap, 16)
        out.append(at)
    return out


def _chars(lo, hi, step=1):
    return "".join(chr(c) for c in range(lo, hi, step)
                   if not (0xD800 <= c < 0xE000) and not (c < 0x20 or 0x7F <= c < 0xA0))


def _chunks(s, size):
    return [s[i:i + size] for i in range(0, len(s), size)]


def c(cid, covers, f, *args, **kwargs):
    return {"id": cid, "covers": covers, "call": f, "args": list(args), "kwargs": kwargs}


def ops(cid, covers, calls):
    return {"id": cid, "covers": covers, "ops": [
        {"call": f, "args": list(a), "kwargs": kw} for f, a, kw in calls]}


def _mixed(rng, n, specials=True):
    """A string of about n characters: words, accents, CJK, Hangul, emoji."""
    parts = []
    size = 0
    while size < n:
        k = rng.randrange(12)
        if k < 3:
            p = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ,.") for _ in range(rng.randrange(3, 12)))
        elif k == 3:
            p = "".join(rng.choice("aeiou") + chr(rng.randrange(0x300, 0x370)) for _ in range(3))
        elif k == 4:
            p = "".join(chr(rng.randrange(0x4E00, 0x9FA0)) for _ in range(rng.randrange(2, 8)))
        elif k == 5:
            p = "".join(chr(rng.randrange(0xAC00, 0xD7A0)) for _ in range(rng.randrange(2, 6)))
        elif k == 6:
            p = "".join(chr(rng.randrange(0x1F300, 0x1F650)) for _ in range(rng.randrange(1, 4)))
        elif k == 7 and specials:
            p = rng.choice([FAMILY, HEART, KEYCAP, "\U0001F469" + ZWJ + "\U0001F4BB",
                            "\u263a" + VS16, "\U0001F3F3" + VS16 + ZWJ + "\U0001F308"])
        elif k == 8:
            p = "".join(chr(rng.randrange(0x0400, 0x0530)) for _ in range(rng.randrange(3, 9)))
        elif k == 9:
            p = "".join(chr(rng.randrange(0x3040, 0x30FF)) for _ in range(rng.randrange(2, 7)))
        elif k == 10:
            p = rng.choice(["\u200b", "\u00ad", "\u2060", "\ufeff", "\u0e31", "\u1160"])
        else:
            p = "".join(chr(rng.randrange(0xFF01, 0xFF5F)) for _ in range(rng.randrange(1, 5)))
        parts.append(p)
        size += len(p)
    return "".join(parts)


def list_of_versions():
    """Every version wcwidth 0.2.13 has tables for."""
    return ["4.1.0", "5.0.0", "5.1.0", "5.2.0", "6.0.0", "6.1.0", "6.2.0", "6.3.0", "7.0.0",
            "8.0.0", "9.0.0", "10.0.0", "11.0.0", "12.0.0", "12.1.0", "13.0.0", "14.0.0",
            "15.0.0", "15.1.0"]


def cases():
    out = []
    # single characters
    singles = ["a", " ", "~", "\x00", "\x01", "\x1b", "\x7f", "\x80", "\x9f", "\xa0", "\xad",
               "\u0301", "\u0483", "\u05bf", "\u0600", "\u094d", "\u1100", "\u115f", "\u1160",
               "\u11ff", "\u200b", "\u200c", "\u200d", "\u200e", "\u2028", "\u2060", "\u20d0",
               "\u231a", "\u2329", "\u232a", "\u23e9", "\u2614", "\u2764", "\u2e80", "\u3000",
               "\u3001", "\u303f", "\u3099", "\u30a2", "\u3164", "\u4e00", "\u9fff", "\ua960",
               "\uac00", "\ud7a3", "\ud7b0", "\ue000", "\uf900", "\ufe00", "\ufe0f", "\ufe10",
               "\ufe30", "\ufeff", "\uff01", "\uff61", "\uffe0", "\ufffd", "\U00011000",
               "\U00016fe0", "\U0001b000", "\U0001d167", "\U0001f004", "\U0001f1e6",
               "\U0001f300", "\U0001f3fb", "\U0001f600", "\U0001f90c", "\U0001fa70",
               "\U0001faf8", "\U00020000", "\U0002fffd", "\U00030000", "\U0003fffd",
               "\U000e0001", "\U000e0100", "\U000f0000", "\U0010ffff", ""]
    for k, ch in enumerate(singles):
        out.append(c(f"wcwidth-{k}", ["wcwidth"], "wcwidth", ch))
    for v in ["4.1.0", "6.0.0", "9.0.0", "12.0.0", "latest", "auto"]:
        out.append(ops(f"wcwidth-v{v}", ["wcwidth", "versions"],
                       [("wcwidth", [ch, v], {}) for ch in singles]))
    out.append(ops("wcwidth-kw", ["wcwidth", "versions"],
                   [("wcwidth", ["\u4e00"], {"unicode_version": "5.0"}),
                    ("wcwidth", ["\U0001f90c"], {"unicode_version": "13"}),
                    ("wcwidth", ["\U0001f90c"], {"unicode_version": "12.9"})]))
    out.append(ops("surrogates", ["wcwidth", "wcswidth"], [
        ("wcwidth", ["\ud800"], {}), ("wcwidth", ["\udfff"], {"unicode_version": "4.1.0"}),
        ("wcswidth", ["a\ud800b\u4e00"], {}), ("wcswidth", ["\udc00" + VS16], {}),
        ("wcswidth", ["\u2764" + ZWJ + "\ud83d"], {})]))
    out.append(c("wcwidth-two-chars", ["wcwidth", "errors"], "wcwidth", "ab"))
    out.append(c("wcwidth-int", ["wcwidth", "errors"], "wcwidth", 65))
    out.append(c("wcwidth-none", ["wcwidth", "errors"], "wcwidth", None))
    out.append(c("wcwidth-bad-version-type", ["wcwidth", "errors"], "wcwidth", "\u4e00", 5))

    # strings
    strings = {
        "empty": "", "ascii": "hello, world", "control": "abc\x01def", "del": "ab\x7f",
        "c1": "x\x85y", "nul": "a\x00b", "newline": "line\n", "cjk": "\u4e2d\u6587\u5b57",
        "mixed": "abc\u4e2d\u6587def", "combining": "e\u0301a\u0300o\u0302",
        "hangul-jamo": "\u1100\u1161\u11a8", "fullwidth": "\uff21\uff22\uff23",
        "zero-width": "a\u200bb\u200cc\u2060d", "family": FAMILY, "heart": HEART,
        "keycap": KEYCAP, "flag": FLAG, "zwj-end": "a" + ZWJ, "zwj-start": ZWJ + "\u4e00b",
        "zwj-double": "a" + ZWJ + ZWJ + "\u4e00", "zwj-control": "a" + ZWJ + "\x01b",
        "vs16-start": VS16 + "a", "vs16-after-zero": "\u200b" + VS16,
        "vs16-after-wide": "\u4e00" + VS16, "vs16-twice": "\u2764" + VS16 + VS16,
        "vs16-ascii": "#" + VS16, "vs16-after-combining": "e\u0301" + VS16,
        "emoji-skin": "\U0001F44D\U0001F3FD", "emoji-text": "I \u2764 NY \u263a" + VS16,
        "rainbow-flag": "\U0001F3F3" + VS16 + ZWJ + "\U0001F308",
        "tags": "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",
        "thai": "\u0e01\u0e31\u0e49\u0e1a", "devanagari": "\u0915\u094d\u0937",
        "soft-hyphen": "co\u00adop", "bom": "\ufeffabc", "private": "\ue000\uf8ff",
        "noncharacter": "\ufffe\uffff", "tab": "a\tb",
    }
    for name, s in strings.items():
        out.append(c(f"wcswidth-{name}", ["wcswidth"], "wcswidth", s))
        out.append(ops(f"wcswidth-{name}-versions", ["wcswidth", "versions"],
                       [("wcswidth", [s], {"unicode_version": v})
                        for v in ["4.1.0", "8.0.0", "9.0.0", "latest"]]))
    out.append(ops("wcswidth-n", ["wcswidth", "n"], [
        ("wcswidth", ["abc\u4e00def"], {"n": 4}),
        ("wcswidth", ["abc\u4e00def"], {"n": 0}),
        ("wcswidth", ["abc\u4e00def"], {"n": -2}),
        ("wcswidth", ["abc\u4e00def"], {"n": 7}),
        ("wcswidth", ["abc"], {"n": 5}),
        ("wcswidth", ["a" + ZWJ], {"n": 3}),
        ("wcswidth", ["ab" + ZWJ], {"n": 4}),
        ("wcswidth", [FAMILY], {"n": 2}),
        ("wcswidth", [HEART + "x"], {"n": 1}),
        ("wcswidth", [HEART + "x"], {"n": 2}),
        ("wcswidth", ["a\x01b"], {"n": 1}),
        ("wcswidth", ["\u4e00\u4e00"], {"n": 1, "unicode_version": "4.1.0"})]))
    out.append(ops("wcswidth-positional", ["wcswidth", "n", "versions"], [
        ("wcswidth", ["\u2764" + VS16, None, "8.0.0"], {}),
        ("wcswidth", ["\u2764" + VS16, None, "9.0"], {}),
        ("wcswidth", ["\u2764" + VS16, 2, "15.1.0"], {})]))
    out.append(ops("wcswidth-sequences", ["wcswidth", "errors"], [
        ("wcswidth", [["a", "\u4e00", "b"]], {}),
        ("wcswidth", [("\u4e00", ZWJ, "\u4e00", "x")], {}),
        ("wcswidth", [["\u2764", VS16]], {}),
        ("wcswidth", [["ab"]], {}),
        ("wcswidth", [None], {}),
        ("wcswidth", [123], {}),
        ("wcswidth", ["\u4e00"], {"unicode_version": 5}),
        ("wcswidth", ["abc"], {"unicode_version": 5})]))

    # versions
    out.append(c("list-versions", ["versions"], "list_versions"))
    out.append(ops("match-version", ["versions"], [
        ("_wcmatch_version", [v], {}) for v in
        ["auto", "latest", "4.1.0", "5.0.0", "15.1.0", "4.9.9", "8.0", "8", "1", "0.1",
         "4.1", "4", "5", "5.1", "5.1.5", "6.3", "12", "12.0", "12.1", "13.0.1", "15",
         "15.0", "15.1", "15.2", "16", "100.0.0", "9.0.0.1", "x.y", "", "7.0.0",
         "11.0", "14.0.0"]]))
    out.append(ops("version-value", ["versions"], [
        ("_wcversion_value", [v], {}) for v in ["1.2.3", "15.1.0", "4", "10.0", "x"]]))
    out.append(ops("bisearch", ["bisearch"], [
        ("_bisearch", [ucs, [[10, 20], [30, 40], [50, 50]]], {}) for ucs in
        [0, 9, 10, 15, 20, 21, 29, 30, 40, 45, 50, 51, 100]] + [
        ("_bisearch", [5, [[5, 5]]], {}), ("_bisearch", [6, [[5, 5]]], {}),
        ("_bisearch", [35, [[10, 20], [30, 40]]], {}),
        ("_bisearch", [25, [[10, 20], [30, 40]]], {})]))
    out.append({"id": "module-values", "covers": ["versions"], "ops": [
        {"get": "__version__"}, {"get": "__all__"},
        {"get": "ZERO_WIDTH", "as": "z", "observe": False},
        {"get": "WIDE_EASTASIAN", "as": "w", "observe": False},
        {"get": "VS16_NARROW_TO_WIDE", "as": "v", "observe": False},
        {"op": "sorted", "args": ["$z"]}, {"op": "sorted", "args": ["$w"]},
        {"op": "sorted", "args": ["$v"]}]})

    # table pins: chunk sums over dense regions and a sparse sweep
    dense = "".join(_chars(lo, hi) for lo, hi in DENSE)
    sparse = _chars(0xA0, 0x40000, 89) + _chars(0xE0000, 0xE01F0, 7)
    for v in ["4.1.0", "6.0.0", "9.0.0", "11.0.0", "13.0.0", "15.1.0"]:
        out.append(ops(f"dense-{v}", ["tables", "versions"],
                       [("wcswidth", [ch], {"unicode_version": v})
                        for ch in _chunks(dense, 24)]))
        out.append(ops(f"sparse-{v}", ["tables", "versions"],
                       [("wcswidth", [ch], {"unicode_version": v})
                        for ch in _chunks(sparse, 48)]))
    for v in VERSIONS:
        out.append(ops(f"totals-{v}", ["tables", "versions"],
                       [("wcswidth", [dense], {"unicode_version": v}),
                        ("wcswidth", [sparse], {"unicode_version": v})]))

    # every range end of every table, in every version
    edges = "".join(chr(p) for p in _points(EDGES))
    vs16 = "".join(chr(p) + VS16 for p in _points(VS16_EDGES))
    for v in list_of_versions():
        out.append(ops(f"edges-{v}", ["tables", "versions"],
                       [("wcswidth", [ch], {"unicode_version": v})
                        for ch in _chunks(edges, 64)]))
        out.append(ops(f"vs16-edges-{v}", ["tables", "versions", "wcswidth"],
                       [("wcswidth", [ch], {"unicode_version": v})
                        for ch in _chunks(vs16, 64)]))

    # generated strings
    for k in range(20):
        rng = random.Random(500 + k)
        s = _mixed(rng, rng.randrange(5, 300), specials=k % 3 != 0)
        v = ["auto", "9.0.0", "4.1.0", "15.1.0", "11.0"][k % 5]
        out.append(ops(f"random-{k}", ["wcswidth", "versions"], [
            ("wcswidth", [s], {"unicode_version": v}),
            ("wcswidth", [s, len(s) // 2], {}),
            ("wcswidth", [s + "\x07"], {})]))
    return out


def timing_inputs():
    def mixed(n, version="auto", specials=True):
        def one(seed):
            rng = random.Random(seed)
            return {"call": "wcswidth", "args": [_mixed(rng, n, specials)],
                    "kwargs": {"unicode_version": version}}
        return one

    def cjk(n):
        def one(seed):
            rng = random.Random(seed)
            return {"call": "wcswidth",
                    "args": ["".join(chr(rng.randrange(0x4E00, 0x9FA0)) for _ in range(n))]}
        return one

    return [
        {"id": "mixed-4000", "size": 4000, "make": mixed(4000)},
        {"id": "mixed-4000-v9", "size": 4000, "make": mixed(4000, "9.0.0")},
        {"id": "plain-6000", "size": 6000, "make": mixed(6000, "latest", specials=False)},
        {"id": "cjk-3000", "size": 3000, "make": cjk(3000)},
    ]
