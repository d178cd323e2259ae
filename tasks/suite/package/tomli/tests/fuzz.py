"""Differential fuzzing of the tomli task: generated TOML documents.

Documents are drawn from the grammar: bare, quoted and dotted keys; basic
and literal strings, one-line and multi-line, with escapes and non-ASCII
text; integers in four bases with underscores and at the 64-bit bounds;
floats with exponents, inf and nan; booleans; dates, times and date-times
at the calendar's edges; arrays and inline tables nested; table and
array-of-table headers. A second target breaks such a document at one
place (a character dropped, doubled or replaced), so the error paths and
their reported positions are compared too."""

from hypothesis import strategies as st

BARE = st.text("abcXYZ019_-", min_size=1, max_size=6)
ESCAPES = ["\\n", "\\t", "\\\\", '\\"', "\\b", "\\f", "\\r", "\\u00e9", "\\U0001F600",
           "\\u0000", "\\uD7FF", "\\uE000", "\\U0010FFFF"]
# Text for strings: printable ASCII, Latin, CJK and astral letters, tab.
PLAIN = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"),
                              exclude_characters="\"\\'\x7f") | st.just("\t"), max_size=12)


def _basic(draw_parts):
    return '"' + "".join(draw_parts) + '"'


QUOTED_KEY = st.one_of(
    st.lists(st.one_of(PLAIN, st.sampled_from(ESCAPES)), max_size=4).map(_basic),
    PLAIN.map(lambda s: "'" + s + "'"))
KEY_PART = st.one_of(BARE, BARE, QUOTED_KEY)
SPACE = st.sampled_from(["", " ", "\t", "  "])


@st.composite
def key(draw):
    parts = draw(st.lists(KEY_PART, min_size=1, max_size=3))
    return draw(SPACE).join(p if i == 0 else "." + draw(SPACE) + p for i, p in enumerate(parts))


def _digits(draw, alphabet, max_size=8):
    first = draw(st.sampled_from(alphabet))
    rest = draw(st.lists(st.tuples(st.booleans(), st.sampled_from(alphabet)), max_size=max_size))
    return first + "".join(("_" if sep else "") + d for sep, d in rest)


@st.composite
def integer(draw):
    kind = draw(st.sampled_from(["dec", "dec", "hex", "oct", "bin", "bound"]))
    if kind == "bound":
        return draw(st.sampled_from(["9223372036854775807", "-9223372036854775808", "0", "+0",
                                     "-0", "18446744073709551616", "0x0", "0o0", "0b0"]))
    if kind == "dec":
        sign = draw(st.sampled_from(["", "+", "-"]))
        return sign + (draw(st.sampled_from("123456789")) + _digits(draw, "0123456789")
                       if draw(st.booleans()) else "0")
    alphabet = {"hex": "0123456789abcdefABCDEF", "oct": "01234567", "bin": "01"}[kind]
    return "0" + {"hex": "x", "oct": "o", "bin": "b"}[kind] + _digits(draw, alphabet)


@st.composite
def floating(draw):
    if draw(st.integers(0, 5)) == 0:
        return draw(st.sampled_from(["inf", "+inf", "-inf", "nan", "+nan", "-nan", "0.0",
                                     "-0.0", "1e308", "1e309", "5e-324", "1.7976931348623157e308"]))
    sign = draw(st.sampled_from(["", "+", "-"]))
    whole = draw(st.sampled_from("123456789")) + _digits(draw, "0123456789", 4) \
        if draw(st.booleans()) else "0"
    frac = "." + _digits(draw, "0123456789", 6) if draw(st.booleans()) else ""
    exp = ""
    if not frac or draw(st.booleans()):
        exp = draw(st.sampled_from(["e", "E"])) + draw(st.sampled_from(["", "+", "-"])) + \
            _digits(draw, "0123456789", 2)
    return sign + whole + frac + exp


@st.composite
def datetime(draw):
    # Mostly valid, at the edges; one in eight may be out of range (a 30th of
    # February, a 60th second), an error both sides must report alike.
    edge = draw(st.integers(0, 7)) == 0
    year = draw(st.sampled_from([1, 1979, 2000, 2024, 2100, 9999]))
    month = draw(st.integers(1, 12))
    day = draw(st.sampled_from([1, 28, 29, 30, 31] if edge else [1, 9, 15, 28]))
    date = f"{year:04d}-{month:02d}-{day:02d}"
    hh, mm, ss = draw(st.integers(0, 23)), draw(st.sampled_from([0, 30, 59])), \
        draw(st.sampled_from([0, 59, 60] if edge else [0, 1, 59]))
    time = f"{hh:02d}:{mm:02d}:{ss:02d}" + draw(st.sampled_from(
        ["", ".5", ".123456", ".1234567", ".999999999"]))
    offset = draw(st.sampled_from(["", "Z", "z", "+00:00", "-07:00", "+05:30", "-23:59",
                                   "+24:00"]))
    form = draw(st.sampled_from(["date", "time", "local", "offset", "space"]))
    if form == "date":
        return date
    if form == "time":
        return time
    sep = " " if form == "space" else draw(st.sampled_from(["T", "t"]))
    return date + sep + time + (offset if form != "local" else "")


@st.composite
def string(draw):
    form = draw(st.sampled_from(["basic", "basic", "literal", "ml-basic", "ml-literal"]))
    parts = draw(st.lists(st.one_of(PLAIN, st.sampled_from(ESCAPES)), max_size=5))
    if form == "basic":
        return _basic(parts)
    text = "".join(p for p in parts if not p.startswith("\\"))
    if form == "literal":
        return "'" + text + "'"
    lines = draw(st.lists(st.one_of(PLAIN, st.sampled_from(ESCAPES + ['"', '""', "\\\n  "])),
                          max_size=5))
    if form == "ml-basic":
        lead = draw(st.sampled_from(["", "\n", "\r\n"]))
        return '"""' + lead + "\n".join(lines) + draw(st.sampled_from(["", '"', '""'])) + '"""'
    return "'''" + draw(st.sampled_from(["", "\n"])) + "\n".join(
        x for x in lines if "\\" not in x) + draw(st.sampled_from(["", "'", "''"])) + "'''"


SCALAR = st.one_of(string(), integer(), floating(), datetime(),
                   st.sampled_from(["true", "false"]))


def _array(children):
    return st.tuples(st.lists(children, max_size=4), SPACE, st.booleans(), st.booleans()).map(
        lambda t: "[" + t[1] + ("," + t[1]).join(t[0]) + ("," if t[2] and t[0] else "")
        + ("\n" if t[3] else "") + "]")


def _inline(children):
    return st.lists(st.tuples(key(), children), max_size=3).map(
        lambda kvs: "{" + ", ".join(f"{k} = {v}" for k, v in kvs) + "}" if kvs else "{}")


VALUE = st.recursive(SCALAR, lambda c: st.one_of(_array(c), _inline(c)), max_leaves=8)
COMMENT = st.one_of(st.just(""), PLAIN.map(lambda s: " #" + s))


@st.composite
def document(draw):
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["pair", "pair", "pair", "table", "aot", "blank"]))
        if kind == "pair":
            lines.append(f"{draw(key())}{draw(SPACE)}={draw(SPACE)}{draw(VALUE)}{draw(COMMENT)}")
        elif kind == "table":
            lines.append(f"[{draw(SPACE)}{draw(key())}{draw(SPACE)}]{draw(COMMENT)}")
        elif kind == "aot":
            lines.append(f"[[{draw(key())}]]{draw(COMMENT)}")
        else:
            lines.append(draw(st.sampled_from(["", "# note", "   "])))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return newline.join(lines) + draw(st.sampled_from(["", newline]))


@st.composite
def broken(draw):
    doc = draw(document().filter(bool))
    at = draw(st.integers(0, len(doc) - 1))
    how = draw(st.sampled_from(["drop", "double", "replace"]))
    if how == "drop":
        return doc[:at] + doc[at + 1:]
    if how == "double":
        return doc[:at] + doc[at] + doc[at:]
    return doc[:at] + draw(st.sampled_from("=[]{}\"',.#\n\x00\x7f\u00e9 ")) + doc[at + 1:]


def _loads(doc):
    return {"ops": [{"call": "loads", "args": [doc]}]}


def targets():
    return [
        {"id": "documents", "examples": 100, "strategy": document().map(_loads)},
        {"id": "broken-documents", "examples": 60, "strategy": broken().map(_loads)},
        {"id": "values", "examples": 60,
         "strategy": st.lists(VALUE, min_size=1, max_size=5).map(
             lambda vs: _loads("".join(f"k{i} = {v}\n" for i, v in enumerate(vs))))},
    ]
