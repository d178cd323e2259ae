"""Held-out cases and timing inputs for the shlex task (CPython 3.11's shlex as shlex_src)."""

import random

WORDS = ["ls", "-la", "--color=auto", "/usr/local/bin", "grep", "-E", "x.y", "make",
         "CFLAGS=-O2", "build/out.o", "a_b", "README.md", "2>&1", "~/notes", "*.txt",
         "caf\u00e9", "na\u00efve", "\u00e0bc", "$HOME", "$(pwd)", "a|b", "x;y", "f(1)"]


def _piece(rng):
    k = rng.randrange(8)
    w = rng.choice(WORDS)
    if k == 0:
        return "'" + w.replace("'", "") + " " + rng.choice(WORDS) + "'"
    if k == 1:
        inner = rng.choice(['a\\"b', 'c\\\\d', 'e\\$f', w, w + " " + rng.choice(WORDS), ""])
        return '"' + inner + '"'
    if k == 2:
        return w + "\\ " + rng.choice(WORDS)
    if k == 3:
        return w + "'" + rng.choice(WORDS) + "'" + rng.choice(WORDS)
    return w


def _line(rng, n, comments=False):
    out = []
    for _ in range(n):
        out.append(_piece(rng))
        out.append(rng.choice([" ", " ", "  ", "\t", " \n ", "\r\n"]))
        if comments and rng.random() < 0.05:
            out.append("# a comment 'with \"quotes\n")
    return "".join(out)


def _arg(s):
    """A string argument as the cases name it ('$...' names a kept value)."""
    return "$" + s if s.startswith("$") else s


def _split(cid, covers, s, **kw):
    return {"id": cid, "covers": covers, "call": "split", "args": [_arg(s)], "kwargs": kw}


def _lexer(cid, covers, text, settings=None, ops=None, **kw):
    """A shlex lexer on TEXT, its attributes set through its __dict__, then OPS
    (default: every token, as a list)."""
    script = [{"call": "shlex", "args": [_arg(text)], "kwargs": kw, "as": "l", "observe": False}]
    if settings:
        script.append({"get": "$l.__dict__", "as": "d", "observe": False})
        for k, v in settings.items():
            script.append({"op": "[]=", "args": ["$d", k, v]})
    script += ops if ops is not None else [{"op": "list", "args": ["$l"]}]
    return {"id": cid, "covers": covers, "ops": script}


def cases():
    out = [
        _split("words", ["split-words"], "ls -la  /tmp\tfoo\r\nbar\n"),
        _split("empty", ["split-empty"], ""),
        _split("blank", ["split-empty"], " \t\r\n  "),
        _split("empty-quotes", ["split-empty", "split-quotes"], "'' \"\" a'' ''b \"\"''"),
        _split("single-quotes", ["split-quotes"], "echo 'a  b' 'it''s' 'x\\y' '\"q\"'"),
        _split("double-quotes", ["split-quotes", "split-escapes"],
               'echo "a  b" "x\\"y" "p\\\\q" "r\\$s" "t\\u" "\'" "a\nb"'),
        _split("mixed", ["split-quotes", "split-escapes"],
               "pre'mid'\"dq\"post \\'x 'a'\"b\"c\\ d"),
        _split("escapes", ["split-escapes"], "a\\ b c\\\\d \\\"e\\' f\\\ng \\x"),
        _split("unicode", ["split-words"], "caf\u00e9 \u00e0\u00ff \u4e2d\u6587 \u00c0B"),
        _split("punct", ["split-words"], "a|b c;d (e) <f> g&&h ~/x ./y *.c k=v"),
        _split("hash-kept", ["split-words", "split-comments"], "a #b c#d '#e'"),
        _split("comments", ["split-comments"], "a #b c\nd e#f g\n#h\n'i#j' k", comments=True),
        _split("comment-last", ["split-comments"], "a b # c 'unclosed", comments=True),
        _split("comment-first", ["split-comments"], "#only\n#more\nx", comments=True),
        _split("comment-truthy", ["split-comments"], "x #y\nz", comments=1),
        _split("unclosed-single", ["split-errors"], "a 'bc d"),
        _split("unclosed-double", ["split-errors"], 'a "b\\"c'),
        _split("unclosed-double-esc", ["split-errors"], 'a "bc\\'),
        _split("trailing-escape", ["split-errors"], "a b\\"),
        _split("lone-escape", ["split-errors"], "\\"),
        _split("error-after-comment", ["split-errors", "split-comments"], "a 'b # c", comments=True),
        _split("nonposix", ["split-nonposix"], "a 'b c' \"d e\" f\\ g", posix=False),
        _split("nonposix-adjacent", ["split-nonposix"], "x'y'z \"p\"q 'r'\"s\"", posix=False),
        _split("nonposix-comments", ["split-nonposix", "split-comments"], "a b#c\nd 'e#'",
               posix=False, comments=True),
        _split("nonposix-unclosed", ["split-nonposix", "split-errors"], "a 'b", posix=False),
        _split("posix-truthy", ["split-quotes"], "'a b' c", posix=1),
        _split("posix-falsy", ["split-nonposix"], "'a b' c", posix=0),
        {"id": "join", "covers": ["join-quote"], "call": "join",
         "args": [["ls", "-l", "a b", "", "it's", "$x", "caf\u00e9", "a@b%c+d=e:f,g./h-i"]]},
        {"id": "join-empty", "covers": ["join-quote"], "call": "join", "args": [[]]},
        {"id": "quote-safe", "covers": ["join-quote"], "call": "quote", "args": ["abc/def.txt"]},
        {"id": "quote-empty", "covers": ["join-quote"], "call": "quote", "args": [""]},
        {"id": "quote-quote", "covers": ["join-quote"], "call": "quote", "args": ["a'b\"c d"]},
        {"id": "quote-roundtrip", "covers": ["join-quote", "split-quotes"], "ops": [
            {"call": "join", "args": [["a b", "it's", "", "x\\y", "\"q\""]], "as": "j"},
            {"call": "split", "args": ["$j"]}]},
        # the lexer class
        _lexer("lexer-default", ["lexer-tokens"], "foo bar(1, 2); x.y = 'q r' # c\nz"),
        _lexer("lexer-posix", ["lexer-tokens"], "foo 'a b'\"c\"d e\\ f # c\ng", posix=True),
        _lexer("lexer-posix-comment", ["lexer-tokens"], "ab#cd\nef 'x'#y\n\"\"#z\nw",
               posix=True),
        _lexer("lexer-posix-punct", ["lexer-tokens"], "a,b (c) \"d\"e'f'", posix=True),
        _lexer("lexer-nonposix-quotes", ["lexer-tokens"], "a'b c'd \"e\" 'f'"),
        _lexer("lexer-nonposix-unclosed", ["lexer-tokens", "split-errors"], "a \"b"),
        _lexer("lexer-posix-esc-eof", ["lexer-tokens", "split-errors"], "a \\", posix=True),
        _lexer("lexer-wordchars", ["lexer-tokens"], "a-b c.d e+f",
               settings={"wordchars": "abcdef-."}),
        _lexer("lexer-whitespace", ["lexer-tokens"], "a,b,,c d",
               settings={"whitespace": ",", "whitespace_split": True}),
        _lexer("lexer-escapedquotes", ["lexer-tokens"], "'a\\'b' \"c\\\"d\"",
               posix=True, settings={"escapedquotes": "'\""}),
        _lexer("punct-true", ["lexer-punctuation"], "a&&b||c; (d) >e 2>&1 ~/f.x *.y",
               punctuation_chars=True),
        _lexer("punct-true-chars", ["lexer-punctuation"], "", punctuation_chars=True,
               ops=[{"get": "$l.punctuation_chars"}, {"get": "$l.wordchars"}]),
        _lexer("punct-custom", ["lexer-punctuation"], "a:=b c::d e", punctuation_chars=":="),
        _lexer("punct-posix", ["lexer-punctuation"], "a;'b c'|d\"e\"&&f\\ g #h\ni",
               posix=True, punctuation_chars=True),
        _lexer("punct-split", ["lexer-punctuation"], "a;b c|d x=y;z",
               punctuation_chars=";|", settings={"whitespace_split": True}),
        _lexer("punct-split-posix", ["lexer-punctuation"], "a;b|c de&&f",
               punctuation_chars=True, posix=True, settings={"whitespace_split": True}),
        _lexer("punct-comment", ["lexer-punctuation"], "a;#x\nb&&#y\n",
               punctuation_chars=True),
        _lexer("punct-chars", ["lexer-punctuation"], "", punctuation_chars="<>",
               ops=[{"get": "$l.punctuation_chars"}, {"get": "$l.wordchars"}]),
        _lexer("punct-none", ["lexer-punctuation"], "", ops=[{"get": "$l.punctuation_chars"},
                                                            {"get": "$l.wordchars"}]),
        _lexer("lexer-attrs", ["lexer-tokens"], "", posix=True, ops=[
            {"get": "$l.eof"}, {"get": "$l.wordchars"}, {"get": "$l.whitespace"},
            {"get": "$l.quotes"}, {"get": "$l.escape"}, {"get": "$l.commenters"},
            {"get": "$l.posix"}, {"get": "$l.infile"}]),
        _lexer("get-token", ["lexer-tokens"], "one two\nthree\n\nfour", ops=[
            {"call": "$l.get_token"}, {"get": "$l.lineno"},
            {"call": "$l.get_token"}, {"call": "$l.get_token"}, {"get": "$l.lineno"},
            {"call": "$l.get_token"}, {"call": "$l.get_token"}, {"call": "$l.get_token"},
            {"get": "$l.lineno"}]),
        _lexer("get-token-posix-eof", ["lexer-tokens"], "x", posix=True, ops=[
            {"call": "$l.get_token"}, {"call": "$l.get_token"}, {"call": "$l.read_token"}]),
        _lexer("push-token", ["lexer-tokens"], "a b", ops=[
            {"call": "$l.push_token", "args": ["z"]}, {"call": "$l.push_token", "args": ["y"]},
            {"call": "$l.get_token"}, {"call": "$l.get_token"}, {"call": "$l.get_token"},
            {"op": "list", "args": ["$l"]}]),
        _lexer("next", ["lexer-tokens"], "p q", ops=[
            {"op": "next", "args": ["$l"]}, {"op": "iter", "args": ["$l"], "as": "it",
                                             "observe": False},
            {"op": "is", "args": ["$it", "$l"]}, {"op": "next", "args": ["$it"]},
            {"op": "next", "args": ["$l"]}]),
        _lexer("read-token", ["lexer-tokens"], "a  b;c", ops=[
            {"call": "$l.read_token"}, {"call": "$l.read_token"}, {"call": "$l.read_token"},
            {"call": "$l.read_token"}, {"call": "$l.read_token"}, {"call": "$l.read_token"}]),
        _lexer("error-leader", ["lexer-sources"], "a\nb\nc", infile="conf.sh", ops=[
            {"call": "$l.error_leader"}, {"call": "$l.get_token"}, {"call": "$l.get_token"},
            {"call": "$l.get_token"}, {"call": "$l.error_leader"},
            {"call": "$l.error_leader", "args": ["other.sh", 7]},
            {"call": "$l.error_leader", "kwargs": {"lineno": 3}}]),
        _lexer("push-source", ["lexer-sources"], "outer1 outer2", infile="main", ops=[
            {"call": "$l.get_token"},
            {"call": "$l.push_source", "args": ["in1 in2\nin3"], "kwargs": {"newfile": "inc"}},
            {"get": "$l.infile"}, {"call": "$l.get_token"}, {"call": "$l.get_token"},
            {"call": "$l.get_token"}, {"get": "$l.lineno"}, {"call": "$l.get_token"},
            {"get": "$l.infile"}, {"get": "$l.lineno"}, {"call": "$l.get_token"}]),
        _lexer("push-source-stream", ["lexer-sources"], "o1 o2", ops=[
            {"call": "StringIO", "args": ["s1 s2"], "as": "io", "observe": False},
            {"call": "$l.push_source", "args": ["$io"]},
            {"op": "list", "args": ["$l"]}]),
        _lexer("pop-source", ["lexer-sources"], "o1 o2", ops=[
            {"call": "$l.push_source", "args": ["p1 p2"]}, {"call": "$l.get_token"},
            {"call": "$l.pop_source"}, {"op": "list", "args": ["$l"]}]),
        _lexer("source-missing", ["lexer-sources"], "a source inc.sh b",
               infile="/nonexistent-fm/main.sh", settings={"source": "source"}),
        _lexer("source-abs", ["lexer-sources"], "a source /nonexistent-fm/x b",
               settings={"source": "source"}, posix=True),
        _lexer("source-quoted", ["lexer-sources"], "a source \"/nonexistent-fm/q.sh\" b",
               settings={"source": "source"}),
        _lexer("source-stream-infile", ["lexer-sources"], "a source rel b",
               settings={"source": "source"}),
        _lexer("source-devnull", ["lexer-sources"], "a source /dev/null b source /dev/null",
               settings={"source": "source", "whitespace_split": True}, posix=True),
        _lexer("source-devnull-nonposix", ["lexer-sources"], "source /dev/null x",
               settings={"source": "source", "whitespace_split": True}),
        _lexer("sourcehook", ["lexer-sources"], "", infile="/nonexistent-fm/dir/f", ops=[
            {"call": "$l.sourcehook", "args": ["\"x.sh\""]}]),
        _lexer("debug-tokens", ["lexer-debug"], "a 'b' c", settings={"debug": 1}, ops=[
            {"call": "$l.push_token", "args": ["t"]}, {"op": "list", "args": ["$l"]}]),
        _lexer("debug-2", ["lexer-debug"], "a  b;c 'd", settings={"debug": 2}),
        _lexer("debug-2-posix", ["lexer-debug"], "a b\\", settings={"debug": 2}, posix=True),
        _lexer("debug-3", ["lexer-debug"], "ab c", settings={"debug": 3}),
        _lexer("debug-file", ["lexer-debug", "lexer-sources"], "o", settings={"debug": 1},
               ops=[{"call": "$l.push_source", "args": ["x"], "kwargs": {"newfile": "f"}},
                    {"call": "$l.get_token"}]),
        {"id": "debug-pop", "covers": ["lexer-debug", "lexer-sources"], "ops": [
            {"call": "shlex", "args": [["outer"]], "as": "l", "observe": False},
            {"get": "$l.__dict__", "as": "d", "observe": False},
            {"op": "[]=", "args": ["$d", "debug", 1]},
            {"call": "$l.push_source", "args": ["x y"], "kwargs": {"newfile": "f"}},
            {"call": "$l.get_token"}, {"call": "$l.pop_source"}, {"get": "$l.infile"},
            {"get": "$l.lineno"}]},
        {"id": "stdin-default", "covers": ["lexer-sources"], "ops": [
            {"call": "shlex", "as": "l", "observe": False}, {"get": "$l.infile"},
            {"get": "$l.eof"}, {"call": "$l.push_source", "args": ["a b"]},
            {"call": "$l.get_token"}, {"call": "$l.error_leader"}]},
        _lexer("custom-quote-escape", ["lexer-tokens"], "aXb\\XcX d", posix=True,
               settings={"quotes": "'\"X", "wordchars": "abcd"}),
        _lexer("sourcehook-false", ["lexer-sources"], "a source rel b",
               settings={"source": "source"}, ops=[
                   {"get": "os.path.isabs", "as": "isabs", "observe": False},
                   {"op": "[]=", "args": ["$d", "sourcehook", "$isabs"]},
                   {"op": "list", "args": ["$l"]}]),
        _lexer("sourcehook-true", ["lexer-sources"], "a source /abs b",
               settings={"source": "source", "whitespace_split": True}, ops=[
                   {"get": "os.path.isabs", "as": "isabs", "observe": False},
                   {"op": "[]=", "args": ["$d", "sourcehook", "$isabs"]},
                   {"op": "list", "args": ["$l"]}]),
        _lexer("debug-3-eof", ["lexer-debug"], "ab c  ", settings={"debug": 3}),
        _lexer("debug-stream", ["lexer-debug", "lexer-sources"], "o", settings={"debug": 1},
               ops=[{"call": "$l.push_source", "args": [["not", "read"]]},
                    {"get": "$l.infile"}, {"get": "$l.lineno"}]),
        _lexer("lineno-comments", ["lexer-tokens"], "a\n# c\nb# d\n\ne # f", ops=[
            {"call": "$l.get_token"}, {"get": "$l.lineno"}, {"call": "$l.get_token"},
            {"get": "$l.lineno"}, {"call": "$l.get_token"}, {"get": "$l.lineno"},
            {"call": "$l.get_token"}, {"get": "$l.lineno"}]),
        _lexer("lineno-comments-posix", ["lexer-tokens"], "a# x\n#y\nb", posix=True, ops=[
            {"call": "$l.get_token"}, {"get": "$l.lineno"}, {"call": "$l.get_token"},
            {"get": "$l.lineno"}]),
        _lexer("after-quote-error", ["lexer-tokens", "lexer-sources", "split-errors"], "  x y",
               ops=[{"call": "$l.push_source", "args": ["'abc"]}, {"call": "$l.get_token"},
                    {"call": "$l.pop_source"}, {"op": "list", "args": ["$l"]}]),
        _lexer("after-escape-error", ["lexer-tokens", "lexer-sources", "split-errors"], "a \\",
               posix=True, ops=[{"call": "$l.get_token"}, {"call": "$l.get_token"},
                                {"call": "$l.push_source", "args": ["x y"]},
                                {"op": "list", "args": ["$l"]}]),
        {"id": "split-no-warning", "covers": ["split-words"], "ops": [
            {"get": "sys.modules", "as": "mods", "observe": False},
            {"op": "[]", "args": ["$mods", "warnings"], "as": "w", "observe": False},
            {"call": "$w.catch_warnings", "kwargs": {"record": True}, "as": "cw",
             "observe": False},
            {"call": "$cw.__enter__", "as": "log", "observe": False},
            {"call": "$w.simplefilter", "args": ["always"]},
            {"call": "split", "args": ["a b"]},
            {"call": "split", "args": ["c"], "kwargs": {"posix": False}},
            {"op": "len", "args": ["$log"]},
            {"call": "$cw.__exit__", "args": [None, None, None]}]},
        _lexer("print-tokens", ["lexer-tokens"], "a b 'c'", ops=[
            {"call": "_print_tokens", "args": ["$l"]}]),
    ]
    for k in range(10):
        rng = random.Random(k)
        comments = k % 3 == 0
        out.append(_split(f"random-{k}", ["split-words", "split-quotes", "split-escapes"]
                          + (["split-comments"] if comments else []),
                          _line(rng, 10 + 6 * k, comments), comments=comments))
    for k in range(3):
        rng = random.Random(100 + k)
        out.append(_split(f"random-nonposix-{k}", ["split-nonposix"],
                          _line(rng, 12).replace("\\", ""), posix=False))
    return out


def timing_inputs():
    def make(n, comments):
        def one(seed):
            return _split("t", [], _line(random.Random(seed), n, comments), comments=comments)
        return one

    return [
        {"id": "words200", "size": 200, "make": make(200, False)},
        {"id": "words1000", "size": 1000, "make": make(1000, False)},
        {"id": "comments1000", "size": 1000, "make": make(1000, True)},
    ]
