"""Held-out cases and timing inputs for the textwrap task (CPython 3.11's textwrap as
textwrap_src)."""

import random

WORDS = ["the", "a", "wrapping", "of", "text", "is", "well-known", "state-of-the-art",
         "e-mail", "--", "x--y", "co-operate", "re-enter", "long-winded", "Hello,", "world!",
         "it's", "\"quoted\"", "end.", "Next", "why?", "yes!", "caf\u00e9", "na\u00efve",
         "\u00fcber-cool", "1999-2001", "-b", "--option", "a-", "-", "mid-1990s",
         "supercalifragilisticexpialidocious", "x", "and", "or", "not"]


def _text(rng, n, spaces=(" ", " ", " ", "  ", "\t", "\n")):
    out = []
    for _ in range(n):
        out.append(rng.choice(WORDS))
        out.append(rng.choice(spaces))
    return "".join(out)


def _call(cid, covers, name, *args, **kw):
    return {"id": cid, "covers": covers, "call": name, "args": list(args), "kwargs": kw}


SAMPLE = ("Hello there -- you goof-ball, use the -b option! The well-known "
          "state-of-the-art e-mail client re-enters   the\tloop.\nNext  line here.")


def cases():
    out = [
        _call("wrap-basic", ["wrap"], "wrap", SAMPLE),
        _call("wrap-narrow", ["wrap", "hyphens"], "wrap", SAMPLE, 12),
        _call("wrap-empty", ["wrap"], "wrap", ""),
        _call("wrap-blank", ["wrap", "whitespace"], "wrap", "   \t\n  "),
        _call("wrap-one-word", ["wrap"], "wrap", "word", 4),
        _call("fill-basic", ["fill"], "fill", SAMPLE, 30),
        _call("fill-empty", ["fill"], "fill", ""),
        _call("hyphens-on", ["hyphens"], "wrap",
              "well-known state-of-the-art mid-1990s x--y a--b -- c 1999-2001 --opt", 10),
        _call("hyphens-off", ["hyphens"], "wrap",
              "well-known state-of-the-art mid-1990s x--y a--b -- c 1999-2001 --opt", 10,
              break_on_hyphens=False),
        _call("hyphens-truthy", ["hyphens"], "wrap", "well-known state-of-the-art e-mail", 6,
              break_on_hyphens=1),
        _call("emdash", ["hyphens"], "wrap", "Hello--world. Say--\"what\" a---b c--", 7),
        _call("hyphen-unicode", ["hyphens"], "wrap", "\u00fcber-cool caf\u00e9-bar x1-y2 ab-cd-ef", 6),
        _call("long-break", ["long-words"], "wrap", "supercalifragilisticexpialidocious is long", 10),
        _call("long-hyphen", ["long-words", "hyphens"], "wrap",
              "aaaa-bbbbbbbbbbbbbbbbbb-cccc dd ---------x ----", 10),
        _call("long-hyphen-off", ["long-words", "hyphens"], "wrap",
              "aaaa-bbbbbbbbbbbbbbbbbb-cccc dd", 10, break_on_hyphens=False),
        _call("long-keep", ["long-words"], "wrap",
              "a supercalifragilisticexpialidocious b cdefghijklmnop q", 10,
              break_long_words=False),
        _call("long-keep-first", ["long-words"], "wrap", "supercalifragilistic b", 5,
              break_long_words=False),
        _call("long-after-text", ["long-words"], "wrap", "ab abcdefghijklmnopqrstuvwxyz", 8),
        _call("long-space-left", ["long-words"], "wrap", "abcdef ghijklmnopqrstuv", 7),
        _call("indents", ["indents"], "wrap", SAMPLE, 20, initial_indent="* ",
              subsequent_indent="    "),
        _call("indent-too-wide", ["indents", "long-words"], "wrap", "abc defg hi", 4,
              initial_indent="------", subsequent_indent=">>>>"),
        _call("indent-equal-width", ["indents", "long-words"], "wrap", "abc de", 3,
              initial_indent="...", subsequent_indent=".."),
        _call("fill-indents", ["indents", "fill"], "fill", SAMPLE, 25, initial_indent="    ",
              subsequent_indent="  | "),
        _call("tabs", ["whitespace"], "wrap", "a\tbb\tccc\tdddd\te", 40),
        _call("tabsize", ["whitespace"], "wrap", "a\tbb\tccc\tdddd\te", 40, tabsize=4),
        _call("tabs-no-expand", ["whitespace"], "wrap", "a\tbb\tccc", 40, expand_tabs=False),
        _call("tabs-keep", ["whitespace"], "wrap", "a\tbb\tccc\nd\x0be\x0cf\rg", 40,
              expand_tabs=False, replace_whitespace=False),
        _call("no-replace", ["whitespace"], "wrap", "a\nb\x0bc d\re", 40,
              replace_whitespace=False),
        _call("keep-whitespace", ["whitespace"], "wrap", "  lead  and  trail  words  ", 8,
              drop_whitespace=False),
        _call("drop-whitespace", ["whitespace"], "wrap", "  lead  and  trail  words  ", 8),
        _call("keep-whitespace-long", ["whitespace", "long-words"], "wrap",
              "a" + " " * 15 + "b", 6, drop_whitespace=False),
        _call("drop-whitespace-long", ["whitespace", "long-words"], "wrap",
              "a" + " " * 15 + "b  ", 6),
        _call("capital-x", ["wrap"], "wrap", "aXb cXXd XeX", 4),
        _call("default-width", ["wrap"], "wrap", "x" * 69 + " y"),
        _call("default-width-fill", ["fill"], "fill", "y" * 68 + " zz " + "w" * 69 + " v"),
        {"id": "default-width-class", "covers": ["class"], "ops": [
            {"call": "TextWrapper", "as": "w", "observe": False},
            {"call": "$w.wrap", "args": ["q" * 69 + " r"]}, {"get": "$w.width"}]},
        _call("sentences-trailing", ["sentences", "whitespace"], "wrap", "a b. ", 20,
              fix_sentence_endings=True, drop_whitespace=False),
        _call("sentences-leading", ["sentences", "whitespace"], "wrap", " a. b.", 20,
              fix_sentence_endings=True, drop_whitespace=False),
        _call("emdash-width-1", ["long-words", "hyphens"], "wrap", "a--b", 1),
        _call("emdash-indent", ["long-words", "indents"], "wrap", "a--b c", 3,
              initial_indent="..", subsequent_indent=".."),
        _call("long-hyphen-second", ["long-words", "hyphens"], "wrap", "a-bcdefgh", 4),
        _call("long-hyphen-leading", ["long-words", "hyphens"], "wrap", "--bcdefgh -x-yzabc", 4),
        _call("nbsp", ["whitespace"], "wrap", "a\u00a0b c\u2003d e", 3),
        _call("sentences", ["sentences"], "wrap",
              "One end. Two ends! Three? \"Quoted.\" 'Single!' U.S. Mr. Smith. x", 30,
              fix_sentence_endings=True),
        _call("sentences-off", ["sentences"], "wrap", "One end. Two ends! Three?", 30),
        _call("sentences-fill", ["sentences", "fill"], "fill", "a. b. c! d? e", 80,
              fix_sentence_endings=True),
        _call("max-lines", ["max-lines"], "wrap", SAMPLE, 20, max_lines=3),
        _call("max-lines-1", ["max-lines"], "wrap", SAMPLE, 20, max_lines=1),
        _call("max-lines-fits", ["max-lines"], "wrap", "short text", 20, max_lines=1),
        _call("max-lines-exact", ["max-lines"], "wrap", "aaaa bbbb cccc", 4, max_lines=3),
        _call("max-lines-trailing", ["max-lines"], "wrap", "aaaa bbbb   ", 4, max_lines=2,
              placeholder="..."),
        _call("max-lines-keep-ws", ["max-lines", "whitespace"], "wrap", "aaaa bbbb   ", 4,
              max_lines=2, placeholder="...", drop_whitespace=False),
        _call("max-lines-placeholder", ["max-lines"], "wrap", SAMPLE, 20, max_lines=2,
              placeholder=" (more)"),
        _call("max-lines-prev", ["max-lines"], "wrap", "aaaa bbbbbbbb cccc", 8, max_lines=2,
              placeholder=" ..."),
        _call("max-lines-prev-2", ["max-lines"], "wrap", "aa bbbbbbbb cccc", 8, max_lines=2,
              placeholder=" ..."),
        _call("max-lines-indent", ["max-lines", "indents"], "wrap", SAMPLE, 16, max_lines=2,
              initial_indent="> ", subsequent_indent="  "),
        _call("max-lines-long", ["max-lines", "long-words"], "wrap",
              "abcdefghijklmnopqrstuvwxyz", 8, max_lines=2, placeholder="~"),
        _call("max-lines-too-large", ["max-lines", "errors"], "wrap", "abc", 5, max_lines=2,
              placeholder=" [......]"),
        _call("max-lines-too-large-1", ["max-lines", "errors"], "wrap", "abc", 5, max_lines=1,
              initial_indent="xxx"),
        _call("max-lines-too-large-sub", ["max-lines", "errors"], "wrap", "abc", 8,
              max_lines=3, initial_indent="xxxxxxx", placeholder="..", subsequent_indent="yy"),
        _call("max-lines-2-subsequent", ["max-lines", "errors", "indents"], "wrap", "abc def", 8,
              max_lines=2, subsequent_indent="xxxxxx", placeholder=" [..]"),
        _call("max-lines-2-fits", ["max-lines", "indents"], "wrap", "abc def ghi jkl", 8,
              max_lines=2, initial_indent="xxxxxx", subsequent_indent="y", placeholder=" [..]"),
        _call("max-lines-none", ["max-lines"], "wrap", SAMPLE, 20, max_lines=None),
        _call("width-zero", ["errors"], "wrap", "abc", 0),
        _call("width-negative", ["errors"], "fill", "abc", -3),
        _call("width-zero-empty", ["errors", "wrap"], "wrap", "", 0),
        _call("width-one", ["long-words"], "wrap", "ab c-d", 1),
        _call("shorten", ["shorten"], "shorten", "Hello  world!", 12),
        _call("shorten-cut", ["shorten"], "shorten", "Hello  world!", 11),
        _call("shorten-long", ["shorten"], "shorten", SAMPLE, 40, placeholder="..."),
        _call("shorten-blank", ["shorten"], "shorten", "   ", 5),
        _call("shorten-too-small", ["shorten", "errors"], "shorten", "Hello world", 4),
        _call("dedent", ["dedent"], "dedent", "    a\n      b\n    c\n"),
        _call("dedent-tabs", ["dedent"], "dedent", "\ta\n\t\tb\n\t c\n"),
        _call("dedent-mixed", ["dedent"], "dedent", "  \ta\n \tb\n"),
        _call("dedent-partial", ["dedent"], "dedent", "   \t x\n   \t\ty\n   \t  z\n"),
        _call("dedent-blank-lines", ["dedent"], "dedent", "  a\n \t \n\n    b\n  \n"),
        _call("dedent-none", ["dedent"], "dedent", "a\n  b\n"),
        _call("dedent-deeper-first", ["dedent"], "dedent", "      a\n    b\n        c\n"),
        _call("dedent-empty", ["dedent"], "dedent", ""),
        _call("dedent-regex-chars", ["dedent"], "dedent", "  .a\n  *b\n"),
        _call("indent", ["indent"], "indent", "a\n\n  \nb\r\nc", "> "),
        _call("indent-empty", ["indent"], "indent", "", "> "),
        {"id": "indent-predicate", "covers": ["indent"], "ops": [
            {"get": "_whitespace_only_re.match", "as": "p", "observe": False},
            {"call": "indent", "args": ["a\n  \nb\n\t\n"], "kwargs": {"prefix": "#",
                                                               "predicate": "$p"}}]},
        {"id": "class", "covers": ["class", "wrap", "fill"], "ops": [
            {"call": "TextWrapper", "kwargs": {"width": 15, "initial_indent": "- "},
             "as": "w", "observe": False},
            {"call": "$w.wrap", "args": [SAMPLE]}, {"call": "$w.fill", "args": [SAMPLE]},
            {"get": "$w.width"}, {"get": "$w.placeholder"}, {"get": "$w.max_lines"},
            {"get": "$w.tabsize"}, {"get": "$w.break_on_hyphens"}]},
        {"id": "class-settings", "covers": ["class"], "ops": [
            {"call": "TextWrapper", "as": "w", "observe": False},
            {"get": "$w.__dict__", "as": "d", "observe": False},
            {"op": "[]=", "args": ["$d", "width", 9]},
            {"op": "[]=", "args": ["$d", "subsequent_indent", ". "]},
            {"call": "$w.wrap", "args": [SAMPLE]},
            {"op": "[]=", "args": ["$d", "max_lines", 2]},
            {"call": "$w.fill", "args": [SAMPLE]}]},
        {"id": "class-positional", "covers": ["class"], "ops": [
            {"call": "TextWrapper", "args": [12, "[", "]", False, False, True, False, False,
                                             False, 4], "as": "w", "observe": False},
            {"call": "$w.wrap", "args": ["A b.\tC-d supercalifragilistic e. F g."]}]},
        {"id": "class-reuse", "covers": ["class"], "ops": [
            {"call": "TextWrapper", "kwargs": {"width": 10}, "as": "w", "observe": False},
            {"call": "$w.wrap", "args": ["one two three four"]},
            {"call": "$w.wrap", "args": ["five six seven"]}]},
        {"id": "wrap-chunks", "covers": ["class"], "ops": [
            {"call": "TextWrapper", "kwargs": {"width": 6}, "as": "w", "observe": False},
            {"call": "$w._wrap_chunks", "args": [["ab", " ", "", "cd", "  ", "efghijkl",
                                                  " ", "x"]]}]},
        {"id": "split", "covers": ["hyphens", "class"], "ops": [
            {"call": "TextWrapper", "as": "w", "observe": False},
            {"call": "$w._split", "args": [" Look, goof-ball -- use the -b option! "]}]},
    ]
    for k in range(12):
        rng = random.Random(k)
        kw = {"width": rng.choice([8, 15, 30, 50, 70])}
        covers = ["wrap", "hyphens"]
        if k % 3 == 1:
            kw["break_on_hyphens"] = False
        if k % 4 == 2:
            kw["initial_indent"], kw["subsequent_indent"] = "  ", "> "
            covers.append("indents")
        if k % 5 == 3:
            kw["break_long_words"] = False
            covers.append("long-words")
        if k % 6 == 4:
            kw["fix_sentence_endings"] = True
            covers.append("sentences")
        if k % 7 == 5:
            kw["max_lines"] = 4
            covers.append("max-lines")
        out.append(_call(f"random-{k}", covers, "wrap", _text(rng, 20 + 10 * k), **kw))
    for k in range(3):
        rng = random.Random(50 + k)
        lines = "\n".join(rng.choice(["    ", "  \t", "\t", "     "]) + " " * rng.randrange(3)
                          + _text(rng, 3, (" ",)) for _ in range(12))
        out.append(_call(f"random-dedent-{k}", ["dedent"], "dedent", lines))
    return out


def timing_inputs():
    def make(n, width, **kw):
        def one(seed):
            return _call("t", [], "fill", _text(random.Random(seed), n), width, **kw)
        return one

    return [
        {"id": "words500", "size": 500, "make": make(500, 70)},
        {"id": "words3000", "size": 3000, "make": make(3000, 60)},
        {"id": "narrow3000", "size": 3000, "make": make(3000, 24, initial_indent="* ",
                                                        subsequent_indent="  ")},
    ]
