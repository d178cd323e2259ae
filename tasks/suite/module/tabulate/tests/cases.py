"""Held-out cases and timing inputs for the tabulate module task.

A case is mostly one call of tabulate() on a small table in one format with
some options; a few cases build rows the module's own way (its Line
namedtuple, a dataclass made with its dataclasses import, a file object from
its io import) or call a module-level helper directly. No cell holds a wide
(East Asian) or zero-width character: wcwidth is absent where the sides run,
and those widths are the one thing that would depend on it.
Timing inputs draw generated tables of a few hundred rows of words, ints,
floats, numeric strings and missing values, in several formats."""

import random

import numpy as np

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
         "omicron pi rho sigma tau upsilon phi chi psi omega apple pear plum fig "
         "kiwi lime table column row cell width border header line").split()

RED = "\x1b[31m"
GREEN = "\x1b[32m"
RESET = "\x1b[0m"
LINK = "\x1b]8;;https://example.com\x1b\\link text\x1b]8;;\x1b\\"

MIXED = [["spam", 41.9999, 1, True, None],
         ["eggs", -451.0, 22, False, "x"],
         ["bacon and sausage", 0.000123, -333, True, 7]]
HEAD = ["item", "price", "qty", "ok", "note"]

NUMS = [["1", "2.5", "1,000.5", "inf", "1e3"],
        ["-12", "3", "10", "-inf", ".5"],
        ["+7", "nan", "12,345", "1e-3", "0x1f"],
        [" 8 ", "1_000", "١٢", "NaN", "1e400"]]

MULTI = [["one\ntwo", 1, "a"],
         ["three", 22.5, "b\nc\nd"],
         ["four\r\nfive", None, "e"]]

SEP = "\001"  # tabulate.SEPARATING_LINE


def tab(cid, covers, data, *args, **kwargs):
    if kwargs.get("tablefmt") in ("html", "unsafehtml"):
        # an html table is a str subclass (JupyterHTMLStr): observed as its text and type
        return {"id": cid, "covers": covers, "ops": [
            {"call": "tabulate", "args": [data, *args], "kwargs": kwargs, "as": "t",
             "observe": False},
            {"op": "str", "args": ["$t"]}, {"op": "type", "args": ["$t"]}]}
    return {"id": cid, "covers": covers, "call": "tabulate", "args": [data, *args],
            "kwargs": kwargs}


def _words(rng, k):
    return " ".join(rng.choice(WORDS) for _ in range(k))


def _row(rng, i):
    r = rng.random()
    return [rng.choice(WORDS) + str(i),
            rng.randrange(-10 ** 6, 10 ** 6),
            round(rng.uniform(-1000, 1000), rng.randrange(0, 6)),
            str(rng.randrange(-500, 5000)),
            None if r < 0.15 else rng.random() * 10 ** rng.randrange(-4, 7),
            rng.choice(["yes", "no", "1.5", "n/a", "2,500", ""]),
            r < 0.5]


def _table(seed, n):
    rng = random.Random(seed)
    return [_row(rng, i) for i in range(n)]


def _multiline_table(seed, n):
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        rows.append([_words(rng, rng.randrange(1, 4)).replace(" ", "\n", rng.randrange(0, 2)),
                     rng.randrange(-10 ** 4, 10 ** 4),
                     "\n".join(_words(rng, 2) for _ in range(rng.randrange(1, 4))),
                     rng.uniform(-50, 50)])
    return rows


def _colour_table(seed, n):
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        c = rng.choice([RED, GREEN])
        rows.append([c + rng.choice(WORDS) + RESET, c + str(rng.randrange(1000)) + RESET,
                     rng.uniform(-9, 9), rng.choice(WORDS)])
    return rows


ALL_FORMATS = ["asciidoc", "double_grid", "double_outline", "fancy_grid", "fancy_outline",
               "github", "grid", "heavy_grid", "heavy_outline", "html", "jira", "latex",
               "latex_booktabs", "latex_longtable", "latex_raw", "mediawiki", "mixed_grid",
               "mixed_outline", "moinmoin", "orgtbl", "outline", "pipe", "plain", "presto",
               "pretty", "psql", "rounded_grid", "rounded_outline", "rst", "simple",
               "simple_grid", "simple_outline", "textile", "tsv", "unsafehtml", "youtrack"]
MULTILINE_FORMATS = ["plain", "simple", "grid", "simple_grid", "rounded_grid", "heavy_grid",
                     "mixed_grid", "double_grid", "fancy_grid", "pipe", "orgtbl", "jira",
                     "presto", "pretty", "psql", "rst"]


def _main_case(cid, argv, files, out_name):
    """_main, the command line, run with sys.argv (reached through the module's
    dataclasses import) holding `argv` for the time of the call; input files
    are written and the output file read back in the side's directory."""
    ops = []
    for name, text in files.items():
        ops += [{"call": "io.open", "args": [name, "w"], "as": "w", "observe": False},
                {"call": "$w.write", "args": [text], "observe": False},
                {"call": "$w.close", "observe": False}]
    ops += [{"get": "dataclasses.sys.argv", "as": "argv", "observe": False},
            {"call": "$argv.extend", "args": [argv], "observe": False},
            {"call": "_main"}]
    ops += [{"call": "$argv.pop", "observe": False} for _ in argv]
    if out_name:
        ops += [{"call": "io.open", "args": [out_name], "as": "r", "observe": False},
                {"call": "$r.read"}, {"call": "$r.close", "observe": False}]
    return {"id": cid, "covers": ["helpers"], "ops": ops}


def cases():
    out = [
        _main_case("main-grid", ["-1", "-f", "grid", "-F", ".2f", "-o", "tab-out1.txt",
                                 "tab-in1.txt", "tab-in2.txt"],
                   {"tab-in1.txt": "name value\nspam 1.5\neggs 22\n",
                    "tab-in2.txt": "a b c\n1 2 3\n"}, "tab-out1.txt"),
        _main_case("main-long", ["--header", "--sep=;", "--float=.1f", "--int=",
                                 "--format=pipe", "--align=x", "-o", "tab-out2.txt",
                                 "tab-in3.txt"],
                   {"tab-in3.txt": "h1;h2;h3\n1234567;2.25;x\n\n9;1e3;yy\n"},
                   "tab-out2.txt"),
        _main_case("main-help", ["-h"], {}, None),
        _main_case("main-bad-format", ["-f", "nope", "-o", "tab-out4.txt", "tab-in4.txt"],
                   {"tab-in4.txt": "x y\n"}, None),
        _main_case("main-bad-option", ["-X", "-o", "tab-out5.txt", "tab-in5.txt"],
                   {"tab-in5.txt": "x y\n"}, None),
    ]
    # every format, with and without headers
    for f in ALL_FORMATS:
        out.append(tab(f"fmt-{f}", ["formats", "headers"], MIXED, HEAD, tablefmt=f))
        out.append(tab(f"fmt-{f}-nohead", ["formats"], MIXED, tablefmt=f))
        out.append(tab(f"fmt-{f}-escapes", ["formats", "escaping"],
                       [["<b>&", "50%", "a_b$#"], ["{x}^~\\", "<i>", 3]], ["h<1>", "&", "c"],
                       tablefmt=f))
    for f in MULTILINE_FORMATS:
        out.append(tab(f"multi-{f}", ["multiline", "formats"], MULTI, ["a\nb", "num", "c"],
                       tablefmt=f))
    for f in ["html", "latex", "mediawiki", "tsv", "textile", "moinmoin", "youtrack"]:
        out.append(tab(f"multi-unsupported-{f}", ["multiline", "formats"], MULTI,
                       ["a\nb", "num", "c"], tablefmt=f))
    for f in ["simple", "grid", "pipe", "html", "latex", "mediawiki", "moinmoin",
              "textile", "asciidoc", "rst", "pretty"]:
        for a in ["left", "right", "center", "decimal", None]:
            out.append(tab(f"align-{f}-{a}", ["align", "formats"], MIXED, HEAD,
                           tablefmt=f, colalign=[a, a, a, a, a]))
    for f in ["unknown-format", "jira", "github"]:
        out.append(tab(f"fmt-name-{f}", ["formats"], MIXED, HEAD, tablefmt=f))

    out += [
        # data shapes and headers
        tab("lol-plain", ["data-shapes"], [[1, 2], [3, 4]]),
        tab("none-data", ["data-shapes", "empty"], None),
        tab("empty-list", ["empty"], []),
        tab("empty-headers", ["empty", "headers"], [], ["a", "b"]),
        tab("empty-keys", ["empty", "headers"], [], "keys"),
        tab("empty-firstrow", ["empty", "headers"], [], "firstrow"),
        tab("empty-rows", ["empty"], [[], []]),
        tab("empty-grid", ["empty", "formats"], [], ["a", "b"], tablefmt="grid"),
        tab("empty-html", ["empty", "formats"], [], tablefmt="html"),
        tab("firstrow", ["headers"], [["a", "b", "c"], [1, 2, 3], [4, 5, 6]], "firstrow"),
        tab("firstrow-only", ["headers"], [["a", "b"]], "firstrow"),
        tab("keys-lol", ["headers"], [[1, 2, 3], [4, 5, 6]], "keys"),
        tab("short-headers", ["headers"], [[1, 2, 3], [4, 5, 6]], ["only"]),
        tab("long-headers", ["headers"], [[1, 2], [4, 5]], ["one", "two", "three"]),
        tab("header-numbers", ["headers"], [[1, 2], [4, 5]], [10, 2.5]),
        tab("wide-headers", ["headers", "align"], [[1, 2.5, "x"]],
            ["a very long header", "another long one", "h"]),
        tab("dict-cols", ["data-shapes", "headers"], {"a": [1, 2, 3], "b": ["x", "y"]}, "keys"),
        tab("dict-cols-nokeys", ["data-shapes"], {"a": [1, 2, 3], "b": ["x", "y"]}),
        tab("dict-cols-firstrow", ["data-shapes", "headers"],
            {"a": ["h1", 2, 3], "b": ["h2", "y", "z"]}, "firstrow"),
        tab("dict-cols-int-keys", ["data-shapes", "headers"], {1: [1.5, 2], 2: [None, 4]},
            "keys"),
        tab("lod-keys", ["data-shapes", "headers"],
            [{"name": "Alice", "age": 24}, {"name": "Bob", "city": "Paris"},
             {"age": 7, "zip": "75001"}], "keys"),
        tab("lod-nohead", ["data-shapes"], [{"a": 1, "b": 2}, {"b": 3, "c": 4}]),
        tab("lod-firstrow", ["data-shapes", "headers"],
            [{"a": "Alpha", "b": "Beta"}, {"a": 1, "b": 2, "c": 3}, {"c": 5}], "firstrow"),
        tab("lod-firstrow-only", ["data-shapes", "headers"], [{"a": "A", "b": "B"}],
            "firstrow"),
        tab("lod-dict-headers", ["data-shapes", "headers"],
            [{"a": 1, "b": 2}, {"a": 3, "c": 4}], {"a": "Col A", "c": 99}),
        tab("lod-bad-headers", ["data-shapes", "errors"], [{"a": 1}], ["x"]),
        tab("rows-of-tuples", ["data-shapes"], [(1, "a"), (2, "b")]),
        tab("rows-of-strings", ["data-shapes"], ["abc", "de"]),
        tab("rows-ragged", ["data-shapes"], [[1], [1, 2, 3], [4, 5]], ["x", "y", "z"]),
        tab("not-iterable", ["errors"], 42),
        tab("row-not-iterable", ["errors"], [[1, 2], 3]),
        {"id": "namedtuple-rows", "covers": ["data-shapes", "headers"], "ops": [
            {"call": "Line", "args": ["a", 1, 2.5, None], "as": "r1", "observe": False},
            {"call": "Line", "args": ["bb", 22, -1.0, "z"], "as": "r2", "observe": False},
            {"op": "list", "args": [[0, 0]], "as": "rows", "observe": False},
            {"op": "[]=", "args": ["$rows", 0, "$r1"]},
            {"op": "[]=", "args": ["$rows", 1, "$r2"]},
            {"call": "tabulate", "args": ["$rows", "keys"]},
            {"call": "tabulate", "args": ["$rows"], "kwargs": {"tablefmt": "grid"}}]},
        {"id": "dataclass-rows", "covers": ["data-shapes", "headers"], "ops": [
            {"call": "dataclasses.make_dataclass", "args": ["Point", ["x", "y", "label"]],
             "as": "P", "observe": False},
            {"call": "$P", "args": [1, 2.5, "first"], "as": "p1", "observe": False},
            {"call": "$P", "args": [-3, None, "second"], "as": "p2", "observe": False},
            {"op": "list", "args": [[0, 0]], "as": "rows", "observe": False},
            {"op": "[]=", "args": ["$rows", 0, "$p1"]},
            {"op": "[]=", "args": ["$rows", 1, "$p2"]},
            {"call": "tabulate", "args": ["$rows", "keys"]},
            {"call": "tabulate", "args": ["$rows"], "kwargs": {"tablefmt": "psql"}}]},
        {"id": "generator-rows", "covers": ["data-shapes"], "ops": [
            {"op": "iter", "args": [[[1, 2], [3, 4]]], "as": "it", "observe": False},
            {"call": "tabulate", "args": ["$it", ["a", "b"]]}]},
        {"id": "chain-rows", "covers": ["data-shapes"], "ops": [
            {"call": "chain", "args": [[["x", 1]], [["y", 2.5]]], "as": "it",
             "observe": False},
            {"call": "tabulate", "args": ["$it", "firstrow"]}]},
        # column types
        tab("types-mixed", ["types"], MIXED, HEAD),
        tab("types-numeric-strings", ["types", "align"], NUMS, ["int", "float", "sep", "inf", "exp"]),
        tab("types-numeric-strings-grid", ["types"], NUMS, tablefmt="grid"),
        tab("types-bools", ["types"], [[True, "True"], [False, "False"], [True, "true"]]),
        tab("types-bool-int", ["types"], [[True, 1], [2, False]]),
        tab("types-none", ["types", "missing"], [[None, 1], [None, None]], ["n", "v"]),
        tab("types-bytes", ["types"], [[b"abc", b"12", b"\xff\xfe"], [b"de", b"3.5", b"x"]],
            ["b", "n", "bad"]),
        tab("types-bytes-num", ["types"], [[b"1,000.5"], [b"12"]]),
        tab("types-bytes-headers", ["types", "headers"], [[1, 2]], [b"h1", b"h2"]),
        tab("types-floats", ["types", "floatfmt"],
            [[1.0, 1e-10, 123456789.123], [float("inf"), float("nan"), -0.0],
             [1e100, 2.5, float("-inf")]]),
        tab("types-big-ints", ["types"], [[10 ** 30, -(10 ** 25)], [1, 2]]),
        tab("types-int-float-col", ["types", "align"], [[1, 2.25], [3.5, 4], [10, "100"]]),
        tab("types-objects", ["types"], [[[1, 2], {"k": 1}], [(3,), "s"]]),
        tab("types-str-col", ["types", "align"], [["abc", 1], ["12", 2], ["1.5", "x"]]),
        tab("types-spaces", ["types", "align"], [["  left", "right  "], [" mid ", "x"]]),
        {"id": "types-dates", "covers": ["types"], "ops": [
            {"call": "dataclasses.make_dataclass", "args": ["D", ["isoformat"]], "as": "D",
             "observe": False},
            {"call": "$D", "args": ["2020-01-01"], "as": "d", "observe": False},
            {"op": "list", "args": [[[0, 1]]], "as": "rows", "observe": False},
            {"op": "[]", "args": ["$rows", 0], "as": "row", "observe": False},
            {"op": "[]=", "args": ["$row", 0, "$d"]},
            {"call": "tabulate", "args": ["$rows"]}]},
        # float and int formats
        tab("floatfmt", ["floatfmt"], MIXED, HEAD, floatfmt=".2f"),
        tab("floatfmt-e", ["floatfmt"], [[1234.5, "2.5"], [0.001, "1e5"]], floatfmt=".3e"),
        tab("floatfmt-list", ["floatfmt"], [[1.23456, 2.34567, 3.45678]],
            floatfmt=[".1f", ".4f"]),
        tab("floatfmt-thousands", ["floatfmt"], [[1234567.891], [1.5]], floatfmt=",.2f"),
        tab("intfmt", ["intfmt"], [[1234567, 2], [-98765, 3]], intfmt=","),
        tab("intfmt-list", ["intfmt"], [[1234567, 255, 3]], intfmt=[",", "x"]),
        tab("intfmt-str", ["intfmt", "types"], [["1234567"], ["12"]], intfmt=","),
        tab("floatfmt-colored", ["floatfmt", "invisible"],
            [[RED + "3.14159" + RESET, 2.5], ["1.5", 1]], floatfmt=".2f"),
        tab("floatfmt-colored-bytes", ["floatfmt", "invisible"],
            [[b"\x1b[31m3.14159\x1b[0m"], [b"2.5"]], floatfmt=".1f"),
        # missing values
        tab("missingval", ["missing"], MIXED, HEAD, missingval="N/A"),
        tab("missingval-list", ["missing"], [[None, None, None], [1, "a", 2.5]],
            missingval=["-", "?"]),
        tab("missingval-grid", ["missing", "formats"], [[None, 1.5], ["a", None]],
            tablefmt="grid", missingval="(none)"),
        # alignment
        tab("numalign-right", ["align"], MIXED, HEAD, numalign="right"),
        tab("numalign-left", ["align"], MIXED, HEAD, numalign="left"),
        tab("numalign-center", ["align"], MIXED, HEAD, numalign="center"),
        tab("numalign-none", ["align"], MIXED, HEAD, numalign=None),
        tab("stralign-right", ["align"], MIXED, HEAD, stralign="right"),
        tab("stralign-center", ["align"], MIXED, HEAD, stralign="center"),
        tab("stralign-none", ["align"], [[" a ", 1], ["bb ", 2]], ["x", "y"], stralign=None),
        tab("decimal-align", ["align"],
            [[1.5, "12.345"], [-10.25, "1e5"], [100.0, "3"], [0.125, "1,234.5"]]),
        tab("decimal-exp", ["align", "floatfmt"], [[1e-20], [2.5], [1e20]]),
        tab("colalign-partial", ["align"], MIXED, HEAD, colalign=["right"]),
        tab("colalign-tuple", ["align"], MIXED, HEAD, colalign=("center", None, "left")),
        tab("center-odd", ["align"], [["a", "bb"], ["ccc", "d"], ["eeeee", "ffff"]],
            ["header one", "h2"], colalign=["center", "center"]),
        tab("center-header", ["align", "headers"], [["abcdefgh", 1]], ["h", "v"],
            stralign="center", numalign="center"),
        tab("left-header", ["align", "headers"], [[1, 2]], ["num", "n"], numalign="left"),
        tab("none-header", ["align", "headers"], [[1, "x"]], ["num", "s"], numalign=None,
            stralign=None),
        # showindex
        tab("showindex-always", ["showindex"], MIXED, HEAD, showindex="always"),
        tab("showindex-true", ["showindex"], MIXED, showindex=True),
        tab("showindex-false", ["showindex"], MIXED, HEAD, showindex=False),
        tab("showindex-never", ["showindex"], MIXED, HEAD, showindex="never"),
        tab("showindex-default", ["showindex"], MIXED, HEAD, showindex="default"),
        tab("showindex-list", ["showindex"], MIXED, HEAD, showindex=["a", "b", "c"]),
        tab("showindex-bad-length", ["showindex", "errors"], MIXED, showindex=[1, 2]),
        tab("showindex-str", ["showindex"], MIXED, showindex="yes"),
        tab("showindex-int", ["showindex"], MIXED, showindex=1),
        tab("showindex-zero", ["showindex"], MIXED, showindex=0),
        tab("showindex-firstrow", ["showindex", "headers"],
            [["a", "b"], [1, 2], [3, 4]], "firstrow", showindex="always"),
        tab("showindex-dict", ["showindex", "data-shapes"], {"a": [1, 2], "b": [3, 4]},
            "keys", showindex=True),
        {"id": "showindex-iter", "covers": ["showindex"], "ops": [
            {"op": "iter", "args": [["x", "y", "z"]], "as": "it", "observe": False},
            {"call": "tabulate", "args": [MIXED], "kwargs": {"showindex": "$it"}}]},
        {"id": "showindex-range", "covers": ["showindex"], "ops": [
            {"op": "reversed", "args": [[10, 20, 30]], "as": "it", "observe": False},
            {"call": "tabulate", "args": [MIXED, HEAD], "kwargs": {"showindex": "$it"}}]},
        tab("showindex-separating", ["showindex", "separating"],
            [[1, 2], [SEP], [3, 4]], ["a", "b"], showindex="always"),
        # numparse
        tab("disable-numparse", ["numparse"], NUMS, disable_numparse=True),
        tab("disable-numparse-list", ["numparse"], NUMS, disable_numparse=[0, 2]),
        tab("disable-numparse-floats", ["numparse", "floatfmt"], [[1.23456, "2.34567"]],
            floatfmt=".2f", disable_numparse=True),
        # multiline
        tab("multiline-simple", ["multiline"], MULTI, ["a\nb", "num", "c"]),
        tab("multiline-headers-only", ["multiline", "headers"], [[1, 2]], ["two\nlines", "x"]),
        tab("multiline-rowalign", ["multiline"], MULTI, tablefmt="grid",
            rowalign="bottom"),
        tab("multiline-rowalign-center", ["multiline"], MULTI, tablefmt="grid",
            rowalign="center"),
        tab("multiline-rowalign-list", ["multiline"], MULTI, tablefmt="grid",
            rowalign=["bottom", "center"]),
        tab("multiline-rowalign-top", ["multiline"], MULTI, tablefmt="psql",
            rowalign="top"),
        tab("multiline-colalign", ["multiline", "align"], MULTI, ["a\nb", "num", "c"],
            tablefmt="grid", colalign=["right", "center", None]),
        tab("multiline-decimal", ["multiline", "align"],
            [["1.5\n22.25", "x"], ["3", "y\nz"]], tablefmt="grid"),
        tab("multiline-cr", ["multiline"], [["a\rb", 1], ["c", 2]], tablefmt="grid"),
        tab("multiline-bytes", ["multiline", "types"], [[b"ab\ncd", 1], [b"e", 2]],
            tablefmt="grid"),
        tab("multiline-empty-cell", ["multiline"], [["", "x\ny"], ["z", ""]],
            tablefmt="grid"),
        tab("multiline-colour", ["multiline", "invisible"],
            [[RED + "red\nline" + RESET, "b"], ["c", GREEN + "g" + RESET]], ["h\n1", "h2"],
            tablefmt="grid"),
        tab("multiline-colour-center", ["multiline", "invisible", "align"],
            [[RED + "red\nl" + RESET, 1.5], ["cc", 22.25]], ["h", "v"], tablefmt="grid",
            stralign="center"),
        tab("multiline-table-format", ["multiline", "custom-format"],
            [["a\nb", 1]], ["h", "v"], tablefmt="pretty"),
        tab("multiline-separating", ["multiline", "separating"],
            [["a\nb", 1], [SEP], ["c", 2]], tablefmt="simple"),
        # invisible codes
        tab("ansi-colours", ["invisible"],
            [[RED + "red" + RESET, GREEN + "12" + RESET], ["plain", "3"]], ["c", "n"]),
        tab("ansi-grid", ["invisible", "formats"],
            [[RED + "red" + RESET, 1.5], ["plain text", 22.25]], ["c", "n"],
            tablefmt="grid", stralign="center"),
        tab("ansi-headers", ["invisible", "headers"], [["a", 1]],
            [RED + "head" + RESET, "n"], tablefmt="pipe"),
        tab("ansi-hyperlink", ["invisible"], [[LINK, 1], ["short", 22]], ["link", "n"]),
        tab("ansi-decimal", ["invisible", "align"],
            [[RED + "1.5" + RESET], [RED + "10.25" + RESET], ["3"]], ["x"]),
        tab("ansi-bytes", ["invisible", "types"],
            [[b"\x1b[31mred\x1b[0m", 1], [b"plain", 2]], ["b", "n"]),
        # separating lines
        tab("separating", ["separating"], [[1, 2], [SEP], [3, 4]], ["a", "b"]),
        tab("separating-grid", ["separating", "formats"], [[1, 2], [SEP], [3, 4]],
            tablefmt="grid"),
        tab("separating-plain", ["separating", "formats"], [[1, 2], [SEP], [3, 4]],
            tablefmt="plain"),
        tab("separating-second", ["separating"], [["x", 2], ["y", SEP], [3, 4]]),
        tab("separating-pipe", ["separating", "formats"], [["a", 2], [SEP], ["b", 4]],
            ["h", "v"], tablefmt="pipe"),
        # wrapping
        tab("maxcolwidths", ["wrap"],
            [["a fairly long sentence that will need wrapping", 12345678, 1.5],
             ["short", 2, "another long piece of text here"]],
            ["text", "num", "other"], maxcolwidths=10),
        tab("maxcolwidths-list", ["wrap"],
            [["a fairly long sentence", "second column that is long", "x"]],
            maxcolwidths=[6, None], tablefmt="grid"),
        tab("maxcolwidths-longword", ["wrap"],
            [["supercalifragilisticexpialidocious word", "abc"]], maxcolwidths=[8, 2]),
        tab("maxcolwidths-numbers", ["wrap", "numparse"],
            [[123456789, "12345678901", None]], maxcolwidths=4, disable_numparse=[1]),
        tab("maxcolwidths-colour", ["wrap", "invisible"],
            [[RED + "red words that go on and on" + RESET + " plain tail", 1]],
            maxcolwidths=[9, None], tablefmt="grid"),
        tab("maxheadercolwidths", ["wrap", "headers"],
            [[1, 2, 3]], ["a long header name", "short", "another long header"],
            maxheadercolwidths=7),
        tab("maxheadercolwidths-list", ["wrap", "headers"],
            [[1, 2]], ["a long header name", "another long header"],
            maxheadercolwidths=[5], tablefmt="grid"),
        # rst and pretty specifics
        tab("rst-empty-first", ["formats", "escaping"], [["", 1], ["  ", 2], ["x", 3]],
            ["", "n"], tablefmt="rst"),
        tab("rst-bytes-first", ["formats", "escaping"], [[b"", 1], [None, 2]], tablefmt="rst"),
        tab("rst-empty-row", ["formats", "escaping"], [[], [1]], tablefmt="rst"),
        tab("pretty-aligns", ["formats", "align"], MIXED, HEAD, tablefmt="pretty",
            numalign="right", stralign="left"),
        tab("html-jupyter", ["formats", "escaping"], [["<a>", 1]], tablefmt="html"),
        tab("asciidoc-header", ["formats", "headers"], MIXED, HEAD, tablefmt="asciidoc",
            colalign=["left", "right", "center", "decimal", "left"]),
        # custom formats
        {"id": "separated-format", "covers": ["custom-format"], "ops": [
            {"call": "simple_separated_format", "args": [";"], "as": "f"},
            {"call": "tabulate", "args": [MIXED, HEAD], "kwargs": {"tablefmt": "$f"}},
            {"call": "tabulate", "args": [MULTI], "kwargs": {"tablefmt": "$f"}}]},
        {"id": "separated-format-tab", "covers": ["custom-format"], "ops": [
            {"call": "simple_separated_format", "args": ["\t"], "as": "f"},
            {"call": "tabulate", "args": [[["a", 1], ["bb", 2.5]]],
             "kwargs": {"tablefmt": "$f"}}]},
        {"id": "custom-tableformat", "covers": ["custom-format"], "ops": [
            {"call": "Line", "args": ["+", "=", "+", "+"], "as": "ln", "observe": False},
            {"call": "DataRow", "args": ["| ", " | ", " |"], "as": "dr", "observe": False},
            {"call": "TableFormat", "kwargs": {
                "lineabove": "$ln", "linebelowheader": "$ln", "linebetweenrows": "$ln",
                "linebelow": "$ln", "headerrow": "$dr", "datarow": "$dr", "padding": 1,
                "with_header_hide": None}, "as": "fmt", "observe": False},
            {"call": "tabulate", "args": [MIXED, HEAD], "kwargs": {"tablefmt": "$fmt"}},
            {"call": "tabulate", "args": [MULTI], "kwargs": {"tablefmt": "$fmt"}}]},
        {"id": "custom-hide", "covers": ["custom-format"], "ops": [
            {"call": "Line", "args": ["", "~", " ", ""], "as": "ln", "observe": False},
            {"call": "DataRow", "args": ["", " ", ""], "as": "dr", "observe": False},
            {"call": "TableFormat", "args": [
                "$ln", "$ln", None, "$ln", "$dr", "$dr", 0,
                ["lineabove", "linebelowheader", "linebelow"]], "as": "fmt",
                "observe": False},
            {"call": "tabulate", "args": [MIXED, HEAD], "kwargs": {"tablefmt": "$fmt"}},
            {"call": "tabulate", "args": [MIXED], "kwargs": {"tablefmt": "$fmt"}}]},
        {"id": "module-values", "covers": ["helpers"], "ops": [
            {"get": "tabulate_formats"}, {"get": "MIN_PADDING"},
            {"get": "PRESERVE_WHITESPACE"}, {"get": "SEPARATING_LINE"},
            {"get": "WIDE_CHARS_MODE"}]},
        # helpers
        {"id": "textwrap-helper", "covers": ["helpers", "wrap"], "ops": [
            {"call": "_CustomTextWrap", "kwargs": {"width": 12}, "as": "w", "observe": False},
            {"call": "$w.wrap", "args": ["the quick brown fox jumps over the lazy dog"]},
            {"call": "$w.wrap", "args": [RED + "coloured words wrap " + RESET + "on and on"]},
            {"call": "$w.wrap", "args": ["abcdefghijklmnopqrstuvwxyz0123456789"]}]},
        {"id": "textwrap-maxlines", "covers": ["helpers", "wrap"], "ops": [
            {"call": "_CustomTextWrap",
             "kwargs": {"width": 10, "max_lines": 2, "placeholder": " [..]"}, "as": "w",
             "observe": False},
            {"call": "$w.wrap", "args": ["one two three four five six seven eight"]},
            {"call": "$w.wrap", "args": ["short"]},
            {"call": "$w.wrap", "args": ["abcdefghij klmnopqrst uvwxyz"]},
            {"call": "$w.wrap", "args": ["aaaa bbbbbbbbb cccccc"]}]},
        {"id": "textwrap-maxlines-one", "covers": ["helpers", "wrap"], "ops": [
            {"call": "_CustomTextWrap",
             "kwargs": {"width": 8, "max_lines": 1, "placeholder": "..."}, "as": "w",
             "observe": False},
            {"call": "$w.wrap", "args": ["one two three"]},
            {"call": "$w.wrap", "args": ["abcdefghijkl"]},
            {"call": "$w.wrap", "args": ["abcdef   "]},
            {"call": "$w.wrap", "args": ["ab cdefghijkl"]}]},
        {"id": "textwrap-placeholder-too-large", "covers": ["helpers", "errors"], "ops": [
            {"call": "_CustomTextWrap",
             "kwargs": {"width": 4, "max_lines": 1, "placeholder": "[....]"}, "as": "w",
             "observe": False},
            {"call": "$w.wrap", "args": ["one two three"]}]},
        {"id": "textwrap-maxlines-prev", "covers": ["helpers", "wrap"], "ops": [
            {"call": "_CustomTextWrap",
             "kwargs": {"width": 6, "max_lines": 2, "placeholder": "~"}, "as": "w",
             "observe": False},
            {"call": "$w.wrap", "args": ["abc defghijklmnop"]},
            {"call": "$w.wrap", "args": ["abcdef ghijklmnop qr"]},
            {"call": "$w.wrap", "args": ["ab cd ef gh ij kl"]}]},
        {"id": "textwrap-nobreak", "covers": ["helpers", "wrap"], "ops": [
            {"call": "_CustomTextWrap",
             "kwargs": {"width": 5, "break_long_words": False}, "as": "w", "observe": False},
            {"call": "$w.wrap", "args": ["ab abcdefghij cd"]},
            {"call": "$w.wrap", "args": ["abcdefghij"]}]},
        {"id": "textwrap-indent", "covers": ["helpers", "wrap"], "ops": [
            {"call": "_CustomTextWrap",
             "kwargs": {"width": 4, "initial_indent": "  ", "subsequent_indent": " "},
             "as": "w", "observe": False},
            {"call": "$w.wrap", "args": ["abcdef gh"]}]},
        {"id": "textwrap-bad-width", "covers": ["helpers", "errors"], "ops": [
            {"call": "_CustomTextWrap", "kwargs": {"width": 0}, "as": "w", "observe": False},
            {"call": "$w.wrap", "args": ["abc"]}]},
        {"id": "textwrap-reset", "covers": ["helpers", "wrap", "invisible"], "ops": [
            {"call": "_CustomTextWrap", "kwargs": {"width": 6}, "as": "w", "observe": False},
            {"call": "$w.wrap", "args": [RED + "aaa bbb" + RESET + " ccc " + GREEN + "ddd eee"]}]},
        {"id": "pprint-file", "covers": ["helpers"], "ops": [
            {"call": "io.StringIO", "args": ["a b c\n1 2.5 x\n\n3 4 y\n"], "as": "f",
             "observe": False},
            {"call": "io.StringIO", "as": "out", "observe": False},
            {"call": "_pprint_file", "args": ["$f"], "kwargs": {
                "headers": "firstrow", "tablefmt": "grid", "sep": r"\s+", "floatfmt": "g",
                "intfmt": "", "file": "$out", "colalign": None}},
            {"call": "$out.getvalue"}]},
        {"id": "pprint-file-sep", "covers": ["helpers"], "ops": [
            {"call": "io.StringIO", "args": ["a;b\n1.25;22\n"], "as": "f", "observe": False},
            {"call": "io.StringIO", "as": "out", "observe": False},
            {"call": "_pprint_file", "args": ["$f"], "kwargs": {
                "headers": [], "tablefmt": "simple", "sep": ";", "floatfmt": ".1f",
                "intfmt": ",", "file": "$out", "colalign": ["right", "left"]}},
            {"call": "$out.getvalue"}]},
        {"id": "is-file", "covers": ["helpers"], "ops": [
            {"call": "io.StringIO", "as": "f", "observe": False},
            {"call": "_is_file", "args": ["$f"]},
            {"call": "_is_file", "args": ["name.txt"]}]},
        {"id": "asciidoc-helper-error", "covers": ["helpers", "errors"],
         "call": "_asciidoc_row", "args": [False, 1, 2, 3, 4]},
        {"id": "strip-ansi", "covers": ["helpers", "invisible"], "call": "_strip_ansi",
         "args": [RED + "x" + RESET + LINK]},
        {"id": "visible-width", "covers": ["helpers", "invisible"], "call": "_visible_width",
         "args": [12345]},
        {"id": "multiline-width", "covers": ["helpers", "multiline"],
         "call": "_multiline_width", "args": ["ab\ncdef\rg"]},
        {"id": "afterpoint", "covers": ["helpers", "align"], "ops": [
            {"call": "_afterpoint", "args": [s]} for s in
            ["123.45", "1001", "eggs", "123e45", "1E5", "123,456.78", "1,000", "inf", "1.",
             ".5", b"1,000.25", "nan"]]},
        {"id": "isnumber", "covers": ["helpers", "types"], "ops": [
            {"call": "_isnumber", "args": [s]} for s in
            ["123.45", "spam", "123e45678", "inf", "-inf", "nan", "NaN", "Infinity", b"inf",
             b"1.5", None, 3, "1e400", "-1e400"]]},
        {"id": "isnumber-thousands", "covers": ["helpers", "types"], "ops": [
            {"call": "_isnumber_with_thousands_separator", "args": [s]} for s in
            [".", "1", "1,000", "1,0000", b"1,000.12", b"\xff", "-1,000.5", "12,34"]]},
        {"id": "format-helper", "covers": ["helpers", "types"], "ops": [
            {"call": "_format", "args": [12, "other", "g", ""]},
            {"call": "_format", "args": ["1.5", "other", ".3f", "", "", False]},
            {"call": "_format", "args": [None, "other", "g", "", "MISSING"]}]},
        {"id": "align-column-helper", "covers": ["helpers", "align"], "ops": [
            {"call": "_align_column", "args": [["a", "bbb", "cc"], "right", 5, False, False,
                                               False]},
            {"call": "_align_column", "args": [["a\nbb", "ccc"], "center", 0, False, False,
                                               True]},
            {"call": "_align_column", "args": [["1.5", "22.125"], "decimal", 0, True]}]},
        {"id": "to-str", "covers": ["helpers"], "ops": [
            {"call": "_to_str", "args": [b"ab\xffc"]},
            {"call": "_to_str", "args": [42]}]},
        {"id": "expand", "covers": ["helpers"], "ops": [
            {"call": "_expand_iterable", "args": [[1, 2], 4, 0]},
            {"call": "_expand_iterable", "args": ["ab", 3, "x"]},
            {"call": "_expand_numparse", "args": [[1], 3]},
            {"call": "_expand_numparse", "args": [False, 2]}]},
        {"id": "bool-helper", "covers": ["helpers"], "ops": [
            {"call": "_bool", "args": [[]]},
            {"call": "_bool", "args": ["x"]}]},
        {"id": "row-helpers", "covers": ["helpers"], "ops": [
            {"call": "_pipe_line_with_colons", "args": [[3, 4], []]},
            {"call": "_pipe_line_with_colons", "args": [[3, 4, 5], ["left", "center", "right"]]},
            {"call": "_is_multiline", "args": [b"a\nb"]},
            {"call": "_is_multiline", "args": [b"ab"]},
            {"call": "_remove_separating_lines", "args": [[[1], [SEP], [2]]]},
            {"op": "iter", "args": [[[1], [2]]], "as": "it", "observe": False},
            {"call": "_remove_separating_lines", "args": ["$it"], "as": "r", "observe": False},
            {"op": "[]", "args": ["$r", 1]},
            {"call": "_prepend_row_index", "args": [[[1], [2]], None]},
            {"call": "_prepend_row_index", "args": [[[1], [2]], False]},
            {"call": "_build_row", "args": [["a"], [1], ["left"], None]},
            {"call": "_build_line", "args": [[1], ["left"], None]},
            {"call": "_build_line", "args": [[2, 3], ["left", "right"], ["+", "-", "+", "+"]]}]},
        {"id": "textwrap-long-word", "covers": ["helpers", "wrap"], "ops": [
            {"call": "_CustomTextWrap", "kwargs": {"width": 5}, "as": "w", "observe": False},
            {"op": "list", "args": [["abcdef"]], "as": "chunks", "observe": False},
            {"op": "list", "args": [[]], "as": "line", "observe": False},
            {"call": "$w._handle_long_word", "args": ["$chunks", "$line", 0, 0]},
            {"op": "list", "args": ["$line"]}, {"op": "list", "args": ["$chunks"]},
            {"call": "$w._handle_long_word", "args": ["$chunks", "$line", 1, 3]},
            {"op": "list", "args": ["$line"]}, {"op": "list", "args": ["$chunks"]}]},
        {"id": "more-generic-other", "covers": ["helpers", "types"], "ops": [
            {"get": "JupyterHTMLStr", "as": "T", "observe": False},
            {"call": "_more_generic", "args": ["$T", "$T"], "as": "g", "observe": False},
            {"get": "$g.__name__"}]},
        {"id": "pad-row-empty", "covers": ["helpers"], "ops": [
            {"call": "_pad_row", "args": [[], 1]},
            {"call": "_pad_row", "args": [["a", "b"], 2]}]},
        tab("keys-one-row", ["headers"], [[1, 2, 3]], "keys"),
        tab("numpy-2d", ["data-shapes"], np.array([[1.5, 2.0], [3.25, -4.0]]), ["a", "b"]),
        tab("right-strips", ["align"], [[" a ", " 1 "], ["bb  ", "22"]], ["x", "y"],
            colalign=["right", "center"]),
        tab("right-strips-multi", ["align", "multiline"], [[" a \n b", 1], ["cc  ", 2]],
            ["x", "y"], colalign=["right", "left"], tablefmt="grid"),
        {"id": "jupyter-str", "covers": ["helpers", "formats"], "ops": [
            {"call": "tabulate", "args": [[[1, "<b>"]]], "kwargs": {"tablefmt": "html"},
             "as": "h", "observe": False},
            {"call": "$h._repr_html_", "as": "r", "observe": False},
            {"op": "str", "args": ["$r"]},
            {"get": "$h.str", "as": "s", "observe": False},
            {"op": "type", "args": ["$s"]}]},
    ]
    # random tables, one per format family and option mix
    fams = ["simple", "grid", "pipe", "psql", "html", "latex", "rst", "pretty", "github",
            "orgtbl", "mediawiki", "tsv", "fancy_grid", "presto", "plain", "moinmoin"]
    for k in range(32):
        rng = random.Random(1000 + k)
        n = rng.randrange(0, 12)
        data = _table(2000 + k, n)
        kw = {"tablefmt": fams[k % len(fams)]}
        if k % 3 == 0:
            kw["floatfmt"] = rng.choice([".2f", ".3g", "e", ",.1f"])
        if k % 4 == 1:
            kw["missingval"] = "-"
        if k % 5 == 2:
            kw["showindex"] = "always"
        if k % 7 == 3:
            kw["intfmt"] = ","
        if k % 6 == 4:
            kw["disable_numparse"] = [1, 3]
        head = ["name", "int", "float", "numstr", "maybe", "misc", "flag"] if k % 2 else ()
        out.append(tab(f"random-{k}", ["formats", "types", "align"], data, head, **kw))
    for k in range(6):
        out.append(tab(f"random-multi-{k}", ["multiline", "types"],
                       _multiline_table(3000 + k, 4 + k), ["words", "n", "lines", "x"],
                       tablefmt=MULTILINE_FORMATS[k * 2]))
        out.append(tab(f"random-colour-{k}", ["invisible", "types"],
                       _colour_table(4000 + k, 3 + k), ["c", "n", "f", "w"],
                       tablefmt=["simple", "grid", "github"][k % 3], floatfmt=".3f"))
    return out


def timing_inputs():
    head = ["name", "int", "float", "numstr", "maybe", "misc", "flag"]

    def plain(n, fmt, **kw):
        def one(seed):
            return {"call": "tabulate", "args": [_table(seed, n), head],
                    "kwargs": {"tablefmt": fmt, **kw}}
        return one

    def multi(n):
        def one(seed):
            return {"call": "tabulate", "args": [_multiline_table(seed, n),
                                                 ["words", "n", "lines", "x"]],
                    "kwargs": {"tablefmt": "grid"}}
        return one

    def colour(n):
        def one(seed):
            return {"call": "tabulate", "args": [_colour_table(seed, n), ["c", "n", "f", "w"]],
                    "kwargs": {"tablefmt": "psql", "floatfmt": ".2f"}}
        return one

    return [
        {"id": "simple-200", "size": 200, "make": plain(200, "simple")},
        {"id": "grid-150-index", "size": 150,
         "make": plain(150, "grid", showindex="always", missingval="?")},
        {"id": "pipe-200-floatfmt", "size": 200, "make": plain(200, "pipe", floatfmt=".3f")},
        {"id": "latex-150", "size": 150, "make": plain(150, "latex")},
        {"id": "multiline-80", "size": 80, "make": multi(80)},
        {"id": "colour-150", "size": 150, "make": colour(150)},
    ]
