"""Held-out cases and timing inputs for the texttable module task.

A case builds a table with the module's public API (Texttable and its
setters), draws it and observes the string; some cases call the module-level
helpers (len, obj2unicode, uchar_width, textwrapper) directly. Timing inputs
draw generated tables of words, numbers and multi-line cells."""

import random

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
         "omicron pi rho sigma tau upsilon phi chi psi omega table column row cell "
         "width wrap border header line text value number").split()


def _t(ops, build=None, max_width=None):
    """A case: make a Texttable (kept as $t), run `ops`, draw it."""
    first = {"call": "Texttable", "as": "t", "observe": False}
    if max_width is not None:
        first["args"] = [max_width]
    return [first] + ops + [{"call": "$t.draw"}]


def case(cid, covers, ops):
    return {"id": cid, "covers": covers, "ops": ops}


ROWS = [["Name", "Age", "Nickname"],
        ["Mr\nXavier\nHuon", 32, "Xav'"],
        ["Mr\nBaptiste\nClement", 1, "Baby"],
        ["Mme\nLouise\nBourgeau", 28, "Lou\n \nLoue"]]

NUMS = [["text", "float", "exp", "int", "auto"],
        ["abcd", "67", 654, 89, 128.001],
        ["efghijk", 67.5434, .654, 89.6, 12800000000000000000000.00023],
        ["lmn", 5e-78, 5e-78, 89.4, .000000000000128],
        ["opqrstu", .023, 5e+78, 92., 12800000000000000000000]]


MODULE_INFO = ["__author__", "__license__", "__version__", "__credits__"]


def cases():
    out = [
        case("default", ["default-draw", "add-rows"],
             _t([{"call": "$t.add_rows", "args": [ROWS]}])),
        case("aligned", ["align", "valign", "default-draw"],
             _t([{"call": "$t.set_cols_align", "args": [["l", "r", "c"]]},
                 {"call": "$t.set_cols_valign", "args": [["t", "m", "b"]]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("valign-odd", ["valign"],
             _t([{"call": "$t.set_cols_valign", "args": [["m", "m", "b"]]},
                 {"call": "$t.add_rows", "args": [[["h", "i", "j"],
                                                   ["a\nb\nc\nd", "x", "y\nz"],
                                                   ["1\n2\n3\n4\n5", "q\nr", "s"]]]}])),
        case("header-align", ["align"],
             _t([{"call": "$t.set_header_align", "args": [["r", "l", "c"]]},
                 {"call": "$t.set_cols_align", "args": [["c", "c", "r"]]},
                 {"call": "$t.header", "args": [["first", "second", "x"]]},
                 {"call": "$t.add_row", "args": [["a", "bb", "ccccccccc"]]},
                 {"call": "$t.add_row", "args": [["dddddddd", "e", "f"]]}])),
        case("dtypes", ["dtype", "deco"],
             _t([{"call": "$t.set_deco", "args": [2]},
                 {"call": "$t.set_cols_dtype", "args": [["t", "f", "e", "i", "a"]]},
                 {"call": "$t.set_cols_align", "args": [["l", "r", "r", "r", "l"]]},
                 {"call": "$t.add_rows", "args": [NUMS]}])),
        case("auto", ["dtype"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["v", "w"], [1, 2.5], [True, False], [float("nan"), float("inf")],
                 [-3.0, 123456789.5], [None, "12"], ["x1", 1e8], [-1e9, "0.5"],
                 [2 ** 40, -0.0], ["", 0]]]}])),
        case("bools-ints", ["dtype"],
             _t([{"call": "$t.set_cols_dtype", "args": [["b", "i", "i", "b"]]},
                 {"call": "$t.add_rows", "args": [[[0, 2.5, "7", ""], [1, -2.5, 3.5, "x"],
                                                   ["", "abc", None, []]]],
                  "kwargs": {"header": False}}])),
        case("floats-text", ["dtype", "precision"],
             _t([{"call": "$t.set_precision", "args": [1]},
                 {"call": "$t.set_cols_dtype", "args": [["f", "e", "f"]]},
                 {"call": "$t.add_rows", "args": [[["a", "b", "c"], ["x", None, "1e3"],
                                                   [0.05, 12345.678, -0.25]]]}])),
        case("precision-0", ["precision"],
             _t([{"call": "$t.set_precision", "args": [0]},
                 {"call": "$t.add_rows", "args": [[["a", "b"], [2.5, 1.75], [3.25, 1e9]]]}])),
        case("precision-bad", ["precision", "errors"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"call": "$t.set_precision", "args": [-1]},
              {"call": "$t.set_precision", "args": [2.0]},
              {"call": "$t.set_precision", "args": [True]},
              {"call": "$t.set_precision", "args": [4]}]),
        case("deco-none", ["deco"],
             _t([{"call": "$t.set_deco", "args": [0]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("deco-border", ["deco"],
             _t([{"call": "$t.set_deco", "args": [1]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("deco-vlines", ["deco"],
             _t([{"call": "$t.set_deco", "args": [8]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("deco-hlines", ["deco"],
             _t([{"call": "$t.set_deco", "args": [4 | 2]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("deco-border-header", ["deco"],
             _t([{"call": "$t.set_deco", "args": [1 | 2]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("deco-after-draw", ["deco"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"call": "$t.add_rows", "args": [ROWS]},
              {"call": "$t.draw"},
              {"call": "$t.set_deco", "args": [1 | 4]},
              {"call": "$t.draw"}]),
        case("constants", ["deco"],
             [{"get": "Texttable.BORDER"}, {"get": "Texttable.HEADER"},
              {"get": "Texttable.HLINES"}, {"get": "Texttable.VLINES"}]),
        case("chars", ["chars"],
             _t([{"call": "$t.set_chars", "args": [["~", ":", "*", "#"]]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("chars-long", ["chars"],
             _t([{"call": "$t.set_chars", "args": [["ab", 1, "", "=="]]},
                 {"call": "$t.add_rows", "args": [[["x", "y"], ["1", "2"]]]}])),
        case("chars-bad", ["chars", "errors"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"call": "$t.set_chars", "args": [["-", "|", "+"]]},
              {"call": "$t.set_chars", "args": [["-", "|", "+", "=", "x"]]}]),
        case("wrap", ["wrap"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["title", "description"],
                 ["short", "a rather long description that will not fit in the width "
                           "and must therefore be wrapped over several lines of text"],
                 ["another one", "supercalifragilisticexpialidociousword " * 3]]]}],
                max_width=40)),
        case("wrap-many", ["wrap"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["a" * 12, "b" * 3, "c" * 30, "d"],
                 ["x " * 10, "y", "z " * 25, "w w w w"]]]}],
                max_width=30)),
        case("wrap-unlimited", ["wrap"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["k", "v"], ["key", "word " * 40]]]}], max_width=0)),
        case("wrap-negative", ["wrap"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["k", "v"], ["key", "word " * 30]]]}], max_width=-5)),
        case("wrap-exact", ["wrap"],
             _t([{"call": "$t.add_rows", "args": [[["ab", "cd"], ["efgh", "ij"]]]}],
                max_width=13)),
        case("wrap-exact-over", ["wrap"],
             _t([{"call": "$t.add_rows", "args": [[["ab", "cd"], ["efgh", "ij"]]]}],
                max_width=12)),
        case("set-max-width", ["wrap"],
             _t([{"call": "$t.set_max_width", "args": [25]},
                 {"call": "$t.add_rows", "args": [[["x", "y"], ["one two three four", "five six"]]]}])),
        case("too-narrow", ["wrap", "errors"],
             _t([{"call": "$t.add_rows", "args": [[["aaaa", "bbbb", "cccc"], ["1", "2", "3"]]]}],
                max_width=12)),
        case("narrow-ok", ["wrap"],
             _t([{"call": "$t.add_rows", "args": [[["aaaa", "bbbb", "cccc"], ["1", "2", "3"]]]}],
                max_width=13)),
        case("narrow-noborder", ["wrap", "deco"],
             _t([{"call": "$t.set_deco", "args": [8]},
                 {"call": "$t.add_rows", "args": [[["aaaa", "bbbb", "cccc"], ["1", "2", "3"]]]}],
                max_width=9)),
        case("cols-width", ["cols-width"],
             _t([{"call": "$t.set_cols_width", "args": [[3, 10, 5]]},
                 {"call": "$t.add_rows", "args": [ROWS]}])),
        case("cols-width-str", ["cols-width"],
             _t([{"call": "$t.set_cols_width", "args": [["4", 2.9]]},
                 {"call": "$t.add_rows", "args": [[["abcdef", "xyz"], ["g", "hi jk"]]]}])),
        case("cols-width-bad", ["cols-width", "errors"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"call": "$t.set_cols_width", "args": [[3, 0]]},
              {"call": "$t.set_cols_width", "args": [[3, -1]]},
              {"call": "$t.set_cols_width", "args": [[3, "x"]]},
              {"call": "$t.set_cols_width", "args": [[1, 1]]}]),
        case("size-mismatch", ["errors", "add-rows"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"call": "$t.header", "args": [["a", "b", "c"]]},
              {"call": "$t.add_row", "args": [["1", "2"]]},
              {"call": "$t.set_cols_align", "args": [["l", "r", "c", "l"]]},
              {"call": "$t.set_cols_valign", "args": [["t"]]},
              {"call": "$t.set_cols_dtype", "args": [["t", "t"]]},
              {"call": "$t.set_header_align", "args": [["l"]]},
              {"call": "$t.set_cols_width", "args": [[1]]},
              {"call": "$t.add_row", "args": [["1", "2", "3"]]},
              {"call": "$t.draw"}]),
        case("array-size-error", ["errors"],
             [{"call": "ArraySizeError", "args": ["boom"], "as": "e"},
              {"get": "$e.msg"}, {"op": "str", "args": ["$e"]},
              {"get": "$e.args"}]),
        case("empty", ["empty"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"call": "$t.draw"},
              {"call": "$t.header", "args": [["only", "a", "header"]]},
              {"call": "$t.draw"},
              {"call": "$t.reset"},
              {"call": "$t.draw"},
              {"call": "$t.add_row", "args": [["x"]]},
              {"call": "$t.draw"}]),
        case("rows-only", ["empty", "add-rows"],
             _t([{"call": "$t.add_rows", "args": [[["1", "2"], ["3", "4"]]],
                  "kwargs": {"header": False}}])),
        case("add-row-chain", ["add-rows"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"call": "$t.add_row", "args": [[1, "a"]], "as": "u"},
              {"call": "$u.add_row", "args": [[2, "b"]]},
              {"call": "$t.set_cols_align", "args": [["r", "l"]], "as": "v"},
              {"call": "$v.set_cols_valign", "args": [["t", "t"]], "as": "w"},
              {"call": "$w.set_header_align", "args": [["l", "l"]]},
              {"call": "$t.set_cols_dtype", "args": [["a", "t"]]},
              {"call": "$t.set_cols_width", "args": [[5, 5]]},
              {"call": "$t.set_chars", "args": [["-", "|", "+", "="]]},
              {"call": "$t.set_deco", "args": [15]},
              {"call": "$t.set_max_width", "args": [50]},
              {"call": "$t.header", "args": [["n", "s"]]},
              {"call": "$t.add_rows", "args": [[["x", "y"]]]},
              {"call": "$t.draw"}]),
        case("tuples-rows", ["add-rows"],
             _t([{"call": "$t.add_rows", "args": [(("h1", "h2"), (1, 2), (3, 4))]}])),
        case("unicode", ["unicode-width"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["名前", "city", "note"],
                 ["山田太郎", "東京", "café"],
                 ["e\u0301e\u0301", "Zürich", "ｆｕｌｌ"],
                 ["x", "日本語のテキスト", "\u4e00"]]]}])),
        case("unicode-align", ["unicode-width", "align"],
             _t([{"call": "$t.set_cols_align", "args": [["r", "c"]]},
                 {"call": "$t.add_rows", "args": [[["漢字", "ab"], ["a", "漢"], ["ｱｲｳ", "ñ"]]]}])),
        case("unicode-wrap", ["unicode-width", "wrap"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["k", "v"], ["名", "日本語 の テキスト を 折り返す ため の 長い 文"]]]}],
                max_width=20)),
        case("bytes", ["bytes"],
             _t([{"call": "$t.add_rows", "args": [[
                 [b"head", "x"], [b"caf\xc3\xa9", b"plain"], [b"bad\xff", 1]]]}])),
        case("tabs-newlines", ["newlines-tabs"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["a\tb", "c"], ["x\ty\tz", "line1\nline2\n\nline4"],
                 ["1234567\t8", "  \n  "], ["12345678\t9", "\tlead"],
                 ["", "tail \t"]]]}])),
        case("spaces", ["newlines-tabs", "wrap"],
             _t([{"call": "$t.add_rows", "args": [[
                 ["a", "b"], ["  leading", "trailing   "], ["in  side", " "],
                 ["x\u3000", "\u00a0y"]]]}], max_width=30)),
        case("helpers-len", ["helpers", "unicode-width"],
             [{"call": "len", "args": ["abc"]}, {"call": "len", "args": ["日本"]},
              {"call": "len", "args": ["e\u0301"]}, {"call": "len", "args": [b"ab\xc3\xa9"]},
              {"call": "len", "args": [[1, 2, 3]]}, {"call": "len", "args": [""]},
              {"call": "len", "args": [(1,)]}, {"call": "len", "args": [5]}]),
        case("helpers-uchar", ["helpers", "unicode-width"],
             [{"call": "uchar_width", "args": [c]} for c in
              ["a", "日", "\u0301", "ｆ", "ｱ", "\x00", "é", "\u3000", "😀"]]),
        case("helpers-obj2unicode", ["helpers", "bytes"],
             [{"call": "obj2unicode", "args": [v]} for v in
              ["s", b"b", b"\xe2\x82\xac", b"\xff\xfe", 3, 2.5, None, [1], True]]),
        case("helpers-wrap", ["helpers", "wrap"],
             [{"call": "textwrapper", "args": ["the quick brown fox jumps", 10]},
              {"call": "textwrapper", "args": ["", 5]},
              {"call": "textwrapper", "args": ["abc", 0]}]),
        case("callable-dtype", ["dtype"],
             [{"call": "Texttable", "as": "t", "observe": False},
              {"get": "obj2unicode", "as": "f", "observe": False},
              {"op": "list", "args": [["a", "t"]], "as": "dt", "observe": False},
              {"op": "[]=", "args": ["$dt", 0, "$f"]},
              {"call": "$t.set_cols_dtype", "args": ["$dt"]},
              {"call": "$t.add_rows", "args": [[["h", "i"], [1.5, 2.5], [b"x", None]]]},
              {"call": "$t.draw"}]),
        case("default-width", ["wrap", "default-draw"],
             _t([{"call": "$t.add_rows", "args": [[["a" * 36, "b" * 38], ["c", "d"]]]}])),
        case("default-width-fits", ["wrap", "default-draw"],
             _t([{"call": "$t.add_rows", "args": [[["a" * 36, "b" * 36], ["c", "d"]]]}])),
        case("tab-stops", ["newlines-tabs"],
             _t([{"call": "$t.add_rows", "args": [[["h"], ["12345678\tx"]]]}])),
        case("tab-stops-long", ["newlines-tabs"],
             _t([{"call": "$t.add_rows", "args": [[["h"], ["123456789abcdefgh\ty"], ["z"]]]}])),
        case("module-info", ["helpers"],
             [{"get": n} for n in MODULE_INFO]),
        case("fallback", ["dtype"],
             [{"call": "FallbackToText", "as": "f"}, {"op": "str", "args": ["$f"]}]),
    ]
    for k in range(6):
        out.append(case(f"random-{k}", ["default-draw", "wrap", "align", "valign", "dtype"],
                        _random_ops(k, 4 + k, 2 + k % 4, 50 + 10 * k, k % 2 == 0)))
    return out


def _cell(rng):
    r = rng.random()
    if r < 0.15:
        return rng.randrange(-10 ** 6, 10 ** 6)
    if r < 0.25:
        return round(rng.uniform(-1e4, 1e4), rng.randrange(0, 6))
    if r < 0.3:
        return rng.choice([1e9, -3.5e12, 0.000123, 2.0, "3.50", "-7"])
    n = rng.randrange(1, 9)
    words = [rng.choice(WORDS) for _ in range(n)]
    if rng.random() < 0.2:
        words.insert(rng.randrange(len(words) + 1), "\n")
    return " ".join(words).replace(" \n ", "\n")


def _random_ops(seed, nrows, ncols, max_width, header=True, unicode=False):
    rng = random.Random(seed)
    rows = [[_cell(rng) for _ in range(ncols)] for _ in range(nrows + 1)]
    if unicode:
        for row in rows[1:]:
            i = rng.randrange(ncols)
            row[i] = rng.choice(["café au lait", "naïve résumé", "東京 大阪", "Straße",
                                 "ｆｕｌｌ ｗｉｄｔｈ", "e\u0301clair"]) + " " + str(row[i])
    ops = [{"call": "Texttable", "args": [max_width], "as": "t", "observe": False},
           {"call": "$t.set_cols_align", "args": [[rng.choice("lcr") for _ in range(ncols)]],
            "observe": False},
           {"call": "$t.set_cols_valign", "args": [[rng.choice("tmb") for _ in range(ncols)]],
            "observe": False},
           {"call": "$t.add_rows", "args": [rows], "kwargs": {"header": header},
            "observe": False},
           {"call": "$t.draw"}]
    return ops


def timing_inputs():
    def make(nrows, ncols, width, unicode):
        def one(seed):
            return {"ops": _random_ops(seed, nrows, ncols, width, True, unicode)}
        return one

    return [
        {"id": "rows25", "size": 25, "make": make(25, 5, 100, False)},
        {"id": "rows60", "size": 60, "make": make(60, 6, 120, False)},
        {"id": "rows50-unicode", "size": 50, "make": make(50, 5, 100, True)},
    ]
