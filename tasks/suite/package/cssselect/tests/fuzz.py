"""Differential fuzzing of the cssselect task: generated selectors.

Selectors are drawn from the grammar of CSS 3 selectors as cssselect reads
them: type and universal selectors with namespaces, ids and classes (with
escapes and non-ASCII names), attribute selectors with every operator and
quoted or bare values, pseudo-classes, :nth-*() with An+B series at their
edges, :not(), :is(), :where(), :has() with relative combinators,
:contains(), :lang(), pseudo-elements (functional ones too), combinators,
comments and groups. Each is translated by the three translators of the
cases and parsed, and the parsed selectors' specificity, canonical form and
pseudo-element are observed. A second target breaks a selector at one place,
so the parser's error messages are compared too."""

from hypothesis import strategies as st

NAME_START = "abcxyzABCZ_"
NAME_CHARS = NAME_START + "0189-"
IDENT = st.one_of(
    st.tuples(st.sampled_from(["", "-"]), st.text(NAME_START, min_size=1, max_size=1),
              st.text(NAME_CHARS, max_size=5)).map("".join),
    st.sampled_from(["\\31 a", "a\\:b", "\\61 b", "\u00e9t\u00e9", "\u65e5\u672c", "x\\ y",
                     "\\30 ", "-\\2d", "a\\0", "\\110000", "\U0001F600"]))
STRING_BODY = st.lists(st.sampled_from(list("ab \u00e9'\"") + ["\\'", '\\"', "\\61 ", "\\\n"]),
                      max_size=6).map("".join)


@st.composite
def quoted(draw):
    body = draw(STRING_BODY)
    q = draw(st.sampled_from(["'", '"']))
    return q + body.replace(q, "\\" + q) + q


NAMESPACE = st.sampled_from(["", "", "", "ns|", "*|", "|", "svg|"])
TYPE = st.one_of(st.sampled_from(["div", "p", "a", "DIV", "li", "Rect", "*", "input"]), IDENT)
SERIES = st.one_of(
    st.sampled_from(["odd", "even", "n", "-n", "+n", "0", "1", "-1", "n+0", "-n+3", "2n+1",
                     " 2n + 1 ", "+3n-2", "0n+0", "-0n", "10n-1"]),
    st.tuples(st.integers(-12, 12), st.integers(-12, 12)).map(
        lambda ab: f"{ab[0]}n{ab[1]:+d}"))
PSEUDO = st.sampled_from([":first-child", ":last-child", ":only-child", ":first-of-type",
                          ":last-of-type", ":only-of-type", ":empty", ":root", ":checked",
                          ":link", ":disabled", ":enabled", ":hover", ":visited", ":active",
                          ":focus", ":target", ":scope", ":FIRST-CHILD"])
FUNC = st.sampled_from([":nth-child", ":nth-last-child", ":nth-of-type", ":nth-last-of-type"])
OPERATOR = st.sampled_from(["=", "~=", "|=", "^=", "$=", "*=", "!="])
COMBINATOR = st.sampled_from([" ", " > ", " + ", " ~ ", ">", "+", "~", "  ", " /* c */ "])
PSEUDO_ELEMENT = st.sampled_from(["::before", "::after", ":first-line", ":first-letter",
                                  "::selection", "::first-line", "::x(1 'b' c)", "::x()"])


@st.composite
def attribute(draw):
    ns = draw(st.sampled_from(["", "", "ns|", "*|"]))
    name = draw(st.one_of(st.sampled_from(["href", "lang", "data-X", "A", "title"]), IDENT))
    if draw(st.integers(0, 3)) == 0:
        return f"[{ns}{name}]"
    value = draw(st.one_of(quoted(), IDENT))
    sp = draw(st.sampled_from(["", " "]))
    return f"[{sp}{ns}{name}{sp}{draw(OPERATOR)}{sp}{value}{sp}]"


@st.composite
def simple(draw):
    """One simple selector: what :not() takes in cssselect 1.2."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(NAMESPACE) + draw(TYPE)
    if kind == 1:
        return "." + draw(IDENT)
    if kind == 2:
        return "#" + draw(IDENT)
    if kind == 3:
        return draw(attribute())
    if kind == 4:
        return draw(PSEUDO)
    return f"{draw(FUNC)}({draw(SERIES)})"


@st.composite
def compound(draw, nested=True):
    out = ""
    if draw(st.integers(0, 4)) > 0:
        out = draw(NAMESPACE) + draw(TYPE)
    for _ in range(draw(st.integers(0 if out else 1, 3))):
        kind = draw(st.integers(0, 9 if nested else 6))
        if kind == 0:
            out += "." + draw(IDENT)
        elif kind == 1:
            out += "#" + draw(IDENT)
        elif kind == 2:
            out += draw(attribute())
        elif kind in (3, 4):
            out += draw(PSEUDO)
        elif kind == 5:
            out += f"{draw(FUNC)}({draw(SERIES)})"
        elif kind == 6:
            arg = draw(st.one_of(quoted(), IDENT))
            out += draw(st.sampled_from([f":contains({arg})", f":lang({arg})"]))
        elif kind == 7:
            out += f":not({draw(simple())})"
        elif kind == 8:
            inner = draw(st.lists(compound(nested=False), min_size=1, max_size=3))
            out += f"{draw(st.sampled_from([':is', ':where', ':matches']))}({', '.join(inner)})"
        else:
            rel = draw(st.sampled_from(["", "> ", "+ ", "~ "]))
            # :has() reads its argument as names, numbers, strings, '.'
            # and '*' only, joined (cssselect 1.2's parse_relative_selector).
            arg = draw(st.lists(st.one_of(IDENT.filter(lambda x: "\\" not in x),
                                          st.sampled_from(["*", ".", ".x", "div", "a"])),
                                min_size=1, max_size=3))
            out += f":has({rel}{''.join(arg)})"
    return out


@st.composite
def complex_selector(draw):
    out = draw(compound())
    for _ in range(draw(st.integers(0, 3))):
        out += draw(COMBINATOR) + draw(compound())
    if draw(st.integers(0, 5)) == 0:
        out += draw(PSEUDO_ELEMENT)
    return out


@st.composite
def selector_group(draw):
    parts = draw(st.lists(complex_selector(), min_size=1, max_size=3))
    sep = draw(st.sampled_from([", ", ",", " , "]))
    return draw(st.sampled_from(["", " "])) + sep.join(parts)


@st.composite
def broken(draw):
    sel = draw(selector_group())
    at = draw(st.integers(0, len(sel)))
    how = draw(st.sampled_from(["cut", "insert", "drop"]))
    if how == "cut":
        return sel[:at]
    if how == "drop":
        return sel[:at] + sel[at + 1:]
    return sel[:at] + draw(st.sampled_from(list("[]():,'\"|*#.>+~\\!@{} ") + ["::", "/*"])) \
        + sel[at:]


TRANSLATORS = [{"call": "GenericTranslator", "as": "g", "observe": False},
               {"call": "HTMLTranslator", "as": "h", "observe": False},
               {"call": "HTMLTranslator", "kwargs": {"xhtml": True}, "as": "x", "observe": False}]


def _translate(sel):
    return [{"call": "$g.css_to_xpath", "args": [sel]},
            {"call": "$h.css_to_xpath", "args": [sel]},
            {"call": "$x.css_to_xpath", "args": [sel]},
            {"call": "$g.css_to_xpath", "args": [sel], "kwargs": {"prefix": ""}},
            {"call": "parse", "args": [sel], "as": "p"}]


def _valid(sel):
    return {"ops": [*TRANSLATORS, *_translate(sel), {"op": "len", "args": ["$p"]},
                    {"op": "[]", "args": ["$p", -1], "as": "s", "observe": False},
                    {"call": "$s.specificity"}, {"call": "$s.canonical"},
                    {"get": "$s.pseudo_element"},
                    {"call": "$g.selector_to_xpath", "args": ["$s"],
                     "kwargs": {"translate_pseudo_elements": True}}]}


def targets():
    return [
        {"id": "selectors", "examples": 120, "strategy": selector_group().map(_valid)},
        {"id": "broken-selectors", "examples": 60,
         "strategy": broken().map(lambda s: {"ops": [*TRANSLATORS, *_translate(s)]})},
        {"id": "literals", "examples": 30,
         "strategy": st.lists(st.text(st.sampled_from("a'\" \u00e9"), max_size=6), min_size=1,
                              max_size=4).map(lambda xs: {"ops": [
                                  {"call": "GenericTranslator.xpath_literal", "args": [x]}
                                  for x in xs]})},
    ]
