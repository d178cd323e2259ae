"""Held-out cases and timing inputs for the cssselect package task.

Every case translates one selector with three translators and parses it;
valid selectors also have their first and last Selector's specificity,
canonical form and pseudo-element observed. Timing inputs translate batches
of generated selectors."""

import random

VALID = {
    # element, universal, namespaces
    "div": ["generic", "parse"], "*": ["generic"], "DIV": ["html"], "ns|div": ["attributes"],
    "*|*": ["attributes"], "|a": ["attributes"], "ns|*": ["attributes"], "h1 ": ["parse"],
    # hash, class
    "#main": ["generic"], "div#main.item": ["specificity"], ".a.b.c": ["specificity"],
    "a#x-y_z": ["escapes"], "p.\\31 23": ["escapes"], "#\\41 b": ["escapes"],
    # attributes
    "[href]": ["attributes"], "a[href='x']": ["attributes"], "a[rel~=\"nofollow\"]": ["attributes"],
    "[lang|=en]": ["attributes"], "[title^='a b']": ["attributes"], "[src$=\".png\"]": ["attributes"],
    "[class*=nav]": ["attributes"], "[x!=y]": ["attributes"], "[ns|attr=v]": ["attributes"],
    "[*|attr]": ["attributes"], "[a='']": ["attributes"],
    "[a~='']": ["attributes"], "[a^='']": ["attributes"], "[a$='']": ["attributes"],
    "[a*='']": ["attributes"], "[a=\"it's\"]": ["literal"],
    "[a=\"x'y\\\"z\"]": ["literal"], "[a='\\'q\\'']": ["escapes"], "[a='line\\\nnext']": ["escapes"],
    "[A=b]": ["html"], "[data-X='1']": ["html"],
    # pseudo-classes
    ":first-child": ["generic"], ":last-child": ["generic"], ":only-child": ["generic"],
    ":first-of-type": ["generic"], ":last-of-type": ["generic"], ":only-of-type": ["generic"],
    "*:first-of-type": ["generic"], "div:only-of-type": ["generic"],
    ":empty": ["generic"], ":root": ["generic"], ":checked": ["html"], ":link": ["html"],
    ":disabled": ["html"], ":enabled": ["html"], ":hover": ["html"], ":visited": ["html"],
    ":active": ["html"], ":focus": ["html"], ":target": ["html"], ":scope": ["functional"],
    ":scope > a": ["functional"], "a, :scope": ["functional"], "a , :scope p": ["functional"],
    " :scope": ["functional"],
    # nth
    ":nth-child(3)": ["nth"], ":nth-child(odd)": ["nth"], ":nth-child(even)": ["nth"],
    ":nth-child(n)": ["nth"], ":nth-child(-n+3)": ["nth"], ":nth-child(2n+1)": ["nth"],
    ":nth-child(2n)": ["nth"], ":nth-child(-2n+5)": ["nth"], ":nth-child(+3n-2)": ["nth"],
    ":nth-child(0n+0)": ["nth"], ":nth-child(1n+0)": ["nth"], ":nth-child(-n)": ["nth"],
    ":nth-child( 2n + 1 )": ["nth"], ":nth-last-child(2)": ["nth"], ":nth-of-type(2n+1)": ["nth"],
    ":nth-last-of-type(-n+2)": ["nth"], "*:nth-of-type(3)": ["nth"], ":nth-child(0)": ["nth"],
    ":nth-child(-1n+0)": ["nth"], ":nth-last-child(0n+3)": ["nth"], ":nth-child(5n-7)": ["nth"],
    ":nth-child(n+3)": ["nth"], ":nth-child(-n-1)": ["nth"], ":nth-child(3n)": ["nth"],
    ":nth-last-child(n)": ["nth"], ":nth-last-child(-2n+4)": ["nth"], ":nth-last-of-type(5)": ["nth"],
    # functional
    ":not(p)": ["functional"], "a:not(.x)": ["functional"], ":not(*)": ["functional"],
    ":not(#a)": ["functional"], ":not([x])": ["functional"], ":not(:first-child)": ["functional"],
    ":is(a, b)": ["functional"], ":matches(p, .x)": ["functional"], ":is(*|*)": ["functional"],
    ":where(a, .b)": ["functional", "specificity"], ":is(#a, .b)": ["specificity"],
    "a:has(> b)": ["functional"], "a:has(b)": ["functional"], "a:has(+ .c)": ["functional"],
    "a:has(~ b)": ["functional"], ":contains('x')": ["functional"], ":contains(x)": ["functional"],
    ":lang(en)": ["functional", "html"], ":lang('fr')": ["html"], "p:lang(EN-us)": ["html"],
    ":foo(1)": ["expression-errors"], ":unknown": ["expression-errors"],
    ":first-child(1)": ["expression-errors"], ":nth-child(foo)": ["expression-errors"],
    ":nth-child(2n+)": ["expression-errors"], "a:scope": ["functional"],
    "a b:scope": ["functional"], ":scope:scope": ["functional"], "a|b|c": ["attributes"],
    ":lang()": ["expression-errors"], ":contains()": ["expression-errors"],
    ":contains(1 2)": ["expression-errors"],
    # combinators and groups
    "a b": ["combinators"], "a > b": ["combinators"], "a + b": ["combinators"],
    "a ~ b": ["combinators"], "a>b+c~d e": ["combinators"], "a, b": ["combinators"],
    "a,b ,c": ["combinators"], "div > p:first-child + ul li.x": ["combinators", "specificity"],
    "a /* comment */ b": ["escapes"], "a/* unclosed": ["escapes"], "/**/a": ["escapes"],
    # pseudo-elements
    "::before": ["pseudo-element"], "a::after": ["pseudo-element"], "p:first-line": ["pseudo-element"],
    "p:FIRST-LETTER": ["pseudo-element"], "a::selection": ["pseudo-element"],
    "a::x(1 'b')": ["pseudo-element"], "a:before, b::after": ["pseudo-element"],
    # escapes and case
    "\\61 b": ["escapes"], "a\\:b": ["escapes"], "\\31 a": ["escapes"], "-a": ["escapes"],
    "a\\0": ["escapes"], "\\110000": ["escapes"], "é.ü": ["escapes"], "A.B#C": ["html"],
    "svg|Rect": ["html"], "[href='a\\62 c']": ["escapes"],
}

INVALID = [
    "", " ", ",", "a,", ",a", "a,,b", "#", ".", "a.", "[", "[a", "[a=", "[a=b", "[a b]", "[=b]",
    "[a^b]", "[a=1]", "[*]", "['a'=b]", "a[ 'unclosed", "a['x\nb']", "'a'", "a >", "> a", "a +",
    "a ~ ~ b", ":", "::", "a:", "a::", ":not(", ":not(a", ":not(a b)", ":not(:not(a))",
    ":not(::before)", ":not(a::before)", "::before a", "a::before b", "a::before.x", ":is(",
    ":is(a", ":is(::before)", ":where(", "a:has(", "a:has()", "a:has(> )", ":nth-child(", "::x(",
    "::x(1", ":foo(.)", "div :scope", "a|", "|", "*|",
    "@a", "a!", "a{}", "a%b", "a\\", "\"x\"", "1a", ".1a", "#a#", "a..b", "[a]]",
    "[|x='y']", "[ |x= 'y' ]", "[a='it''s']", ":matches(p .x)", "a::x(1, 'b')", "a:nth-child(1)(2)", "p::first-line::after",
]

TAGS = ["div", "p", "a", "span", "ul", "li", "table", "td", "tr", "input", "h1", "section", "*"]
CLASSES = ["item", "active", "nav", "x-1", "big", "foo_bar"]
IDS = ["main", "top", "c3", "side"]
ATTRS = ["href", "title", "lang", "data-x", "type", "name"]
PSEUDOS = [":first-child", ":last-child", ":only-child", ":empty", ":root", ":checked",
           ":first-of-type", ":last-of-type", ":only-of-type", ":link", ":disabled", ":enabled"]
FUNCS = [":nth-child({})", ":nth-last-child({})", ":nth-of-type({})", ":nth-last-of-type({})"]
SERIES = ["2n+1", "odd", "even", "3", "-n+3", "2n", "n", "5n-2"]
OPS = ["=", "~=", "|=", "^=", "$=", "*=", "!="]
COMB = [" ", " > ", " + ", " ~ ", ">", "+"]


def _simple(rng, depth=0):
    out = rng.choice(TAGS) if rng.random() < 0.8 else ""
    for _ in range(rng.randrange(0, 4)):
        r = rng.random()
        if r < 0.3:
            out += "." + rng.choice(CLASSES)
        elif r < 0.4:
            out += "#" + rng.choice(IDS)
        elif r < 0.6:
            a = rng.choice(ATTRS)
            if rng.random() < 0.3:
                out += f"[{a}]"
            else:
                v = rng.choice(["en", "x y", "http://a", "foo-bar", "1", "it's"])
                q = '"' if "'" in v else rng.choice(["'", '"'])
                out += f"[{a}{rng.choice(OPS)}{q}{v}{q}]"
        elif r < 0.75:
            out += rng.choice(PSEUDOS)
        elif r < 0.88:
            out += rng.choice(FUNCS).format(rng.choice(SERIES))
        elif depth < 1:
            inner = _simple(rng, depth + 1) or "p"
            out += rng.choice([f":not({inner})", f":is({inner}, {_simple(rng, depth + 1) or 'a'})",
                               f":where({inner})", f":contains('{rng.choice(CLASSES)}')"])
    return out or "*"


def selector(rng):
    parts = [_simple(rng)]
    for _ in range(rng.randrange(0, 4)):
        parts.append(rng.choice(COMB))
        parts.append(_simple(rng))
    s = "".join(parts)
    if rng.random() < 0.2:
        s += ", " + _simple(rng)
    return s


def _translators():
    return [{"call": "GenericTranslator", "as": "g", "observe": False},
            {"call": "HTMLTranslator", "as": "h", "observe": False},
            {"call": "HTMLTranslator", "kwargs": {"xhtml": True}, "as": "x", "observe": False}]


def _translate(sel):
    return [{"call": "$g.css_to_xpath", "args": [sel]},
            {"call": "$h.css_to_xpath", "args": [sel]},
            {"call": "$x.css_to_xpath", "args": [sel]},
            {"call": "$g.css_to_xpath", "args": [sel], "kwargs": {"prefix": ""}},
            {"call": "parse", "args": [sel], "as": "p"}]


def _inspect(index):
    return [{"op": "[]", "args": ["$p", index], "as": "s", "observe": False},
            {"call": "$s.specificity"}, {"call": "$s.canonical"}, {"get": "$s.pseudo_element"},
            {"get": "$s.parsed_tree"},
            {"call": "$g.selector_to_xpath", "args": ["$s"],
             "kwargs": {"translate_pseudo_elements": True}}]


def cases():
    out = []
    for k, (sel, covers) in enumerate(VALID.items()):
        ops = [*_translators(), *_translate(sel), {"op": "len", "args": ["$p"]}, *_inspect(0)]
        if "," in sel:
            ops += _inspect(-1)
        out.append({"id": f"valid-{k:03d}", "covers": ["parse", "specificity", "canonical", *covers],
                    "ops": ops})
    for k, sel in enumerate(INVALID):
        out.append({"id": f"invalid-{k:03d}", "covers": ["syntax-errors"],
                    "ops": [*_translators(), *_translate(sel)]})
    for k in range(40):
        sel = selector(random.Random(k))
        out.append({"id": f"random-{k:02d}", "covers": ["generic", "html", "combinators"],
                    "ops": [*_translators(), *_translate(sel), *_inspect(0)]})
    literal = ["a", "it's", 'say "hi"', "both ' and \"", "'", '"', "", "x'y'z\"w"]
    out.append({"id": "literal", "covers": ["literal"], "ops": [
        {"call": "GenericTranslator.xpath_literal", "args": [s]} for s in literal]})
    out.append({"id": "prefix", "covers": ["prefix"], "ops": [
        *_translators(),
        {"call": "$g.css_to_xpath", "args": ["a b"], "kwargs": {"prefix": "child::"}},
        {"call": "$h.css_to_xpath", "args": ["a::before"], "kwargs": {"prefix": "//"}},
        {"call": "parse", "args": ["a::before"], "as": "p"},
        {"op": "[]", "args": ["$p", 0], "as": "s", "observe": False},
        {"call": "$g.selector_to_xpath", "args": ["$s"]},
        {"call": "$g.selector_to_xpath", "args": ["$s"], "kwargs": {"prefix": ""}},
        {"call": "$g.selector_to_xpath", "args": ["not a selector"]},
        {"call": "$g.css_to_xpath", "args": [5]}]})
    out.append({"id": "functional-pseudo-element", "covers": ["pseudo-element"], "ops": [
        {"call": "parse", "args": ["a::x(1 'b' c)"], "as": "p"},
        {"op": "[]", "args": ["$p", 0], "as": "s", "observe": False},
        {"get": "$s.pseudo_element", "as": "pe"},
        {"call": "$pe.argument_types"}, {"call": "$pe.canonical"}, {"get": "$pe.name"},
        {"op": "repr", "args": ["$pe"]}]})
    return out


def timing_inputs():
    def make(n):
        def one(seed):
            rng = random.Random(seed)
            ops = _translators()[:2]
            for i in range(n):
                sel = selector(rng)
                ops.append({"call": "$g.css_to_xpath" if i % 2 else "$h.css_to_xpath",
                            "args": [sel]})
            return {"ops": ops}
        return one

    return [
        {"id": "selectors40", "size": 40, "make": make(40)},
        {"id": "selectors160", "size": 160, "make": make(160)},
    ]
