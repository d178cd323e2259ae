"""Differential fuzzing of the tabulate task: generated tables and options.

Tables are lists of rows of mixed cells: words, text with line breaks, tabs
and markup characters, ints and floats at their edges (negative, huge, tiny,
inf), numeric strings the column typing reads as numbers (thousands
separators, exponents, hex, signs, padding), booleans, bytes and missing
values; rows may be ragged or a separating line. Each is formatted in a
drawn table format with drawn options (headers as a list, "firstrow" or
"keys" for rows as dicts, floatfmt, intfmt, numalign, stralign, colalign,
missingval, showindex, disable_numparse, maxcolwidths). No cell holds a wide
or zero-width character: wcwidth is absent where the sides run."""

from hypothesis import strategies as st

FORMATS = ["asciidoc", "double_grid", "double_outline", "fancy_grid", "fancy_outline",
           "github", "grid", "heavy_grid", "heavy_outline", "html", "jira", "latex",
           "latex_booktabs", "latex_longtable", "latex_raw", "mediawiki", "mixed_grid",
           "mixed_outline", "moinmoin", "orgtbl", "outline", "pipe", "plain", "presto",
           "pretty", "psql", "rounded_grid", "rounded_outline", "rst", "simple",
           "simple_grid", "simple_outline", "textile", "tsv", "unsafehtml", "youtrack"]
# Latin text only: no East Asian wide or zero-width characters.
TEXT = st.one_of(
    st.text(st.sampled_from(list("abcXYZ 019.-_|&<>%$#{}\\") + ["\u00e9", "\u00fc"]),
            max_size=8),
    st.sampled_from(["", " ", "a\nb", "line\r\nnext", "tab\tx", "yes", "n/a", "None"]))
NUMERIC_TEXT = st.sampled_from(["1", "2.5", "1,000.5", "inf", "-inf", "1e3", "nan", "+7",
                                "12,345", "1e-3", "0x1f", " 8 ", "1_000", "1e400", "-0",
                                ".5", "5.", "0b101", "1.0e+02"])
CELL = st.one_of(TEXT, NUMERIC_TEXT, st.integers(-10**12, 10**12),
                 st.sampled_from([0, -1, 2**63, -2**70]),
                 st.floats(allow_nan=False, width=64), st.sampled_from([1e-9, 123456.789, -0.0,
                                                                        float("inf")]),
                 st.booleans(), st.none(), st.just(b"bytes"))


@st.composite
def table(draw):
    width = draw(st.integers(1, 5))
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        if rows and draw(st.integers(0, 9)) == 0:
            rows.append("\x01")  # tabulate.SEPARATING_LINE
            continue
        n = width if draw(st.integers(0, 5)) else draw(st.integers(0, width + 1))
        rows.append(draw(st.lists(CELL, min_size=n, max_size=n)))
    return rows, width


ALIGN = st.sampled_from(["left", "right", "center", "decimal", None])


@st.composite
def call(draw):
    rows, width = draw(table())
    kw = {"tablefmt": draw(st.sampled_from(FORMATS))}
    headers = draw(st.sampled_from(["none", "list", "firstrow", "keys"]))
    if headers == "list":
        kw["headers"] = draw(st.lists(TEXT, min_size=0, max_size=width + 1))
    elif headers == "firstrow":
        kw["headers"] = "firstrow"
    elif headers == "keys":
        keys = draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4,
                             unique=True))
        rows = [dict(zip(keys, r, strict=False)) for r in rows if isinstance(r, list)]
        kw["headers"] = "keys"
    for name, strategy in [
            ("floatfmt", st.sampled_from(["g", ".2f", ".0e", "", ",.3f"])),
            ("intfmt", st.sampled_from(["", ",", "x", "_"])),
            ("numalign", ALIGN), ("stralign", ALIGN),
            ("missingval", st.sampled_from(["", "?", "(none)"])),
            ("showindex", st.sampled_from(["always", "never", "default"])),
            ("disable_numparse", st.booleans()),
            ("colalign", st.lists(ALIGN, max_size=width)),
            ("maxcolwidths", st.one_of(st.integers(1, 12),
                                       st.lists(st.one_of(st.none(), st.integers(1, 12)),
                                                max_size=width)))]:
        if draw(st.integers(0, 3)) == 0:
            kw[name] = draw(strategy)
    if kw["tablefmt"] in ("html", "unsafehtml"):
        # an html table is a str subclass (JupyterHTMLStr): observed as its text
        return {"ops": [{"call": "tabulate", "args": [rows], "kwargs": kw, "as": "t",
                         "observe": False}, {"op": "str", "args": ["$t"]}]}
    return {"call": "tabulate", "args": [rows], "kwargs": kw}


def targets():
    return [{"id": "tables", "examples": 200, "strategy": call()}]
