"""Held-out cases and timing inputs for the xmltodict task (xmltodict 0.13.0).

Callables (postprocessors, callbacks, force_list functions, dict
constructors) and file-like or generator inputs cannot cross the wire as
data: a case builds them in the worker with the builtins' eval, reached
through the module's own `__builtins__`, from the source text given here.
"""

import random

DOCS = [
    "<a/>",
    "<a></a>",
    "<a>text</a>",
    "<a>  padded  </a>",
    "<a>\n  </a>",
    '<a x="1" y="two"/>',
    '<a x="1">text</a>',
    "<a><b>1</b><b>2</b><b>3</b></a>",
    "<a><b>1</b><c>x</c><b>2</b></a>",
    "<a><b/><b/><c/></a>",
    "<a>head<b>1</b>middle<b>2</b>tail</a>",
    '<a><b x="1">one</b><b>two</b><b y=""/></a>',
    "<a><b><c><d><e>deep</e></d></c></b></a>",
    "<a>&amp;&lt;&gt;&quot;&apos;&#65;&#x42;</a>",
    "<a><![CDATA[<not a tag> & stuff]]></a>",
    "<a>one<![CDATA[two]]>three</a>",
    '<a attr="&lt;&amp;&gt;"/>',
    "<?xml version=\"1.0\"?>\n<a>\n  <b>1</b>\n  <b>2</b>\n</a>\n",
    "<a><?pi data?><b>x</b></a>",
    "<a>x<!-- note -->y</a>",
    "<!-- before --><a><b>1</b><!-- inside --></a><!-- after -->",
    "<a><!-- one --><!-- two --><b/></a>",
    "<a>\u00e9\u00e8 \u4e2d\u6587 \U0001f600</a>",
    '<root><item id="1"><name>n1</name></item><item id="2"><name>n2</name><name>n3</name></item></root>',
    "<a><b><c>1</c></b><b><c>2</c><c>3</c></b></a>",
    '<a xmlns="http://d/" xmlns:x="http://x/"><x:b x:attr="1">t</x:b><c/></a>',
    '<a xmlns:x="http://x/"><x:b/><b xmlns="http://e/"><c k="v"/></b></a>',
    '<x:a xmlns:x="http://x/" xmlns:y="http://y/" y:k="1"><y:b>t</y:b></x:a>',
    "<a><b>  x  </b><b>   </b><b/></a>",
    '<a b="1"><b>2</b></a>',
    '<a><b c="1"/><b c="2">x</b><b>y</b></a>',
    "<a>\n\t<b>one\n two</b>\n</a>",
]

BAD = [
    "", "<a>", "<a></b>", "<a><b></a></b>", "<a/><b/>", "text", "<a>&undefined;</a>",
    "<a x='1' x='2'/>", "<a><b></a>", "<1a/>", "<a>\x01</a>", "<x:a/>", "<a b=1/>",
    "<a></a>junk", "<?xml version='1.0'?><?xml version='1.0'?><a/>",
]

OPTION_SETS = [
    {},
    {"attr_prefix": "_"},
    {"attr_prefix": ""},
    {"cdata_key": "text"},
    {"cdata_key": "@x"},
    {"force_cdata": True},
    {"force_cdata": True, "cdata_key": "value"},
    {"cdata_separator": "|"},
    {"cdata_separator": "\n", "strip_whitespace": False},
    {"strip_whitespace": False},
    {"xml_attribs": False},
    {"force_list": True},
    {"force_list": False},
    {"force_list": ("b",)},
    {"force_list": ["c", "#text"]},
    {"force_list": ("b", "name", "item")},
    {"process_namespaces": True},
    {"process_namespaces": True, "namespace_separator": "|"},
    {"process_namespaces": True, "namespaces": {"http://x/": "X", "http://d/": None,
                                                "http://e/": ""}},
    {"namespaces": {"x": "ex"}},
    {"process_comments": True},
    {"process_comments": True, "comment_key": "!", "strip_whitespace": False},
    {"process_comments": True, "force_list": ("#comment",)},
    {"encoding": "utf-8"},
]

U_DICTS = [
    {"a": None},
    {"a": ""},
    {"a": "text"},
    {"a": "a < b & c > d"},
    {"a": 5},
    {"a": 1.5},
    {"a": True},
    {"a": False},
    {"a": {"b": ["1", "2", "3"]}},
    {"a": {"@x": "1", "@y": 2, "#text": "t"}},
    {"a": {"@x": 'say "hi"', "@y": "it's", "@z": "both ' and \""}},
    {"a": {"@n": "line\nbreak\ttab\rcr & <>"}},
    {"a": {"b": {"c": {"d": "deep"}}}},
    {"a": {"b": [{"@k": "1"}, None, "x", {"#text": "y", "@k": "2"}, 3, True]}},
    {"a": {"#text": "before", "b": "child"}},
    {"a": {"#text": ""}},
    {"a": {"#text": 0}},
    {"a": {"#text": b"bytes \xc3\xa9"}},
    {"a": {"b": []}},
    {"a": {"b": [[], ["x"]]}},
    {"a": {"b": ("t1", "t2")}},
    {"a": {"b": b"xy"}},
    {"a": {"@xmlns": {"": "http://d/", "x": "http://x/"}, "x:b": "1"}},
    {"a": {"@xmlns": "plain", "b": None}},
    {"a": {"@xmlns:x": "http://x/", "@xmlns": {"x": "http://other/"}}},
    {"a": {"b": None, "c": "", "d": {}, "e": {"@k": "v"}, "f": {"g": None}}},
    {"a": {"@x": None, "@y": True, "@z": 1.0}},
    {"x:a": {"@x:k": "v", "y:b": "t"}},
    {"a": "\u00e9\u4e2d\U0001f600"},
    {"a": {"b": {"c": ["1", {"d": ["2", "3"]}]}}},
]

U_OPTIONS = [
    {},
    {"pretty": True},
    {"pretty": True, "indent": "  "},
    {"pretty": True, "indent": "", "newl": ""},
    {"pretty": True, "newl": "\r\n", "indent": "    "},
    {"pretty": True, "indent": b"  "},
    {"pretty": True, "newl": b"\n"},
    {"full_document": False},
    {"full_document": False, "pretty": True},
    {"short_empty_elements": True},
    {"short_empty_elements": True, "pretty": True},
    {"encoding": "iso-8859-1"},
    {"encoding": "ascii"},
    {"attr_prefix": "_"},
    {"cdata_key": "b"},
    {"expand_iter": "item"},
    {"expand_iter": "@v"},
    {"namespaces": {"x": "http://x/", "y": "http://y/"}},
    {"namespaces": {"x": "http://x/"}, "namespace_separator": "|"},
    {"pretty": True, "short_empty_elements": True, "full_document": False},
]


def _make(name, src):
    """Operations that leave the value of the Python expression `src` as `name`."""
    return [{"get": "__builtins__", "as": "_b", "observe": False},
            {"op": "[]", "args": ["$_b", "eval"], "as": "_eval", "observe": False},
            {"call": "$_eval", "args": [src, {}], "as": name, "observe": False}]


def _p(cid, covers, doc, **kw):
    case = {"id": cid, "covers": covers, "call": "parse", "args": [doc]}
    if kw:
        case["kwargs"] = kw
    return case


def _u(cid, covers, d, **kw):
    case = {"id": cid, "covers": covers, "call": "unparse", "args": [d]}
    if kw:
        case["kwargs"] = kw
    return case


def _covers_for(opts):
    covers = ["parse-options"]
    if "force_list" in opts:
        covers.append("force-list")
    if "process_namespaces" in opts or "namespaces" in opts:
        covers.append("namespaces")
    if "process_comments" in opts:
        covers.append("comments")
    return covers


# A random document generator for more varied shapes (names repeat, so lists
# form; namespaces, comments, CDATA and whitespace appear here and there).
_NAMES = ["a", "b", "c", "x:d", "y:e", "item", "f"]


def _random_doc(rng, depth=0):
    name = rng.choice(_NAMES)
    attrs = []
    for k in rng.sample(["p", "q", "x:r", "id"], rng.randrange(3)):
        attrs.append('%s="%s"' % (k, rng.choice(["1", "", " v ", "a&amp;b", "&lt;"])))
    if depth == 0 or rng.random() < 0.2:
        attrs.append('xmlns:x="http://x/"')
    if rng.random() < 0.1:
        attrs.append('xmlns="http://d/"')
    if depth == 0 or rng.random() < 0.1:
        attrs.append('xmlns:y="http://y/"')
    s = "<" + name + "".join(" " + a for a in attrs)
    kids = rng.randrange(4) if depth < 4 else 0
    if kids == 0 and rng.random() < 0.3:
        return s + "/>"
    s += ">"
    for i in range(kids + 1):
        s += rng.choice(["", " ", "\n  ", "txt", " t ", "<!-- c -->", "<![CDATA[cd]]>", "&amp;"])
        if i < kids:
            s += _random_doc(rng, depth + 1)
    return s + "</" + name + ">"


_RANDOM_OPTIONS = [
    {}, {"process_namespaces": True}, {"process_comments": True},
    {"force_list": ("b", "c")}, {"force_cdata": True, "strip_whitespace": False},
    {"cdata_separator": "+", "process_comments": True},
    {"process_namespaces": True, "namespaces": {"http://x/": "X", "http://y/": ""}},
    {"xml_attribs": False, "force_list": True}, {"attr_prefix": "-", "cdata_key": "$"},
]


def _random_value(rng, depth=0):
    c = rng.random()
    if depth > 3 or c < 0.3:
        return rng.choice(["t", "", "a<&>b", 5, 0, 1.5, None, True, False, "  x ", "q'\"",
                           "tab\t\n"])
    if c < 0.5:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    d = {}
    for _ in range(rng.randrange(5)):
        k = rng.choice(["a", "b", "@p", "@q", "#text", "@xmlns", "x:c", "@x:r", "x", "item"])
        if k == "@xmlns" and rng.random() < 0.5:
            d[k] = {"": "http://d/", "x": "http://x/"}
        elif k.startswith("@"):
            d[k] = rng.choice(["1", 'a"b', "a'b", "a\"'b", "n\nl", 3, None, "x&y<"])
        elif k == "#text":
            d[k] = rng.choice(["t", "", 0, 5, None, "a<b"])
        else:
            d[k] = _random_value(rng, depth + 1)
    return d


_RANDOM_U_OPTIONS = [
    {}, {"pretty": True}, {"short_empty_elements": True}, {"full_document": False},
    {"pretty": True, "short_empty_elements": True, "indent": " "},
    {"namespaces": {"x": "http://x/"}}, {"expand_iter": "it"}, {"attr_prefix": "", "pretty": True},
]


def cases():
    out = []
    # parse: every document under every option set.
    for i, doc in enumerate(DOCS):
        out.append(_p(f"parse-{i}", ["parse-basic"], doc))
        out.append(_p(f"parse-bytes-{i}", ["parse-input"], doc.encode("utf-8")))
        for j, opts in enumerate(OPTION_SETS):
            if opts:
                out.append(_p(f"parse-{i}-opt{j}", _covers_for(opts), doc, **opts))
    out.append(_p("parse-latin1", ["parse-input"], "<a>\u00e9</a>", encoding="iso-8859-1"))
    out.append(_p("parse-latin1-bytes", ["parse-input"], "<a>\u00e9</a>".encode("latin-1"),
                  encoding="iso-8859-1"))
    out.append(_p("parse-declared-latin1", ["parse-input"],
                  '<?xml version="1.0" encoding="iso-8859-1"?><a>\u00e9</a>'.encode("latin-1")))
    out.append(_p("parse-utf16", ["parse-input"], "<a>\u00e9</a>".encode("utf-16")))
    out.append(_p("parse-utf16-str", ["parse-input"], "<a>x\u00e9</a>", encoding="utf-16"))
    out.append(_p("parse-bad-encoding", ["parse-errors"], "<a/>", encoding="no-such-codec"))
    out.append(_p("parse-not-text", ["parse-errors"], 5))
    out.append(_p("parse-none", ["parse-errors"], None))
    for i, doc in enumerate(BAD):
        out.append(_p(f"bad-{i}", ["parse-errors"], doc))
        out.append(_p(f"bad-ns-{i}", ["parse-errors"], doc, process_namespaces=True))
    # entities
    dtd = '<!DOCTYPE a [<!ENTITY e "hello">]><a>&e; world<b>&e;</b></a>'
    ext = '<!DOCTYPE a [<!ENTITY e SYSTEM "file:///nowhere">]><a>x&e;y</a>'
    for i, doc in enumerate([dtd, ext, '<!DOCTYPE a><a>&amp;</a>', "<a>&e;</a>"]):
        out.append(_p(f"entities-{i}", ["entities"], doc))
        out.append(_p(f"entities-off-{i}", ["entities"], doc, disable_entities=False))
    # file-like and generator inputs
    for i, src in enumerate([
            "__import__('io').BytesIO(b'<a><b>1</b><b>2</b></a>')",
            "__import__('io').StringIO('<a x=\"1\">t</a>')",
            "__import__('io').BytesIO('<a>\u00e9</a>'.encode('latin-1'))",
            "(c for c in [b'<a>', b'<b>1', b'</b><b>2</b>', b'</a>'])",
            "(c for c in ['<a>', '<b>x</b>', '</a>'])",
            "(c for c in [b'<a>', b'<b>'])",
            "(c for c in [])"]):
        kw = {"encoding": "iso-8859-1"} if i == 2 else {}
        out.append({"id": f"parse-stream-input-{i}", "covers": ["parse-input"], "ops": [
            *_make("src", src), {"call": "parse", "args": ["$src"], "kwargs": kw}]})
    # dict_constructor
    for i, doc in enumerate(DOCS[5:12] + DOCS[25:28]):
        out.append({"id": f"ordered-{i}", "covers": ["parse-options"], "ops": [
            *_make("od", "__import__('collections').OrderedDict"),
            {"call": "parse", "args": [doc], "kwargs": {"dict_constructor": "$od",
                                                         "process_namespaces": True}}]})
    # postprocessors
    posts = [
        "lambda path, key, value: (key.upper(), value)",
        "lambda path, key, value: None if key in ('b', '@x') else (key, value)",
        "lambda path, key, value: (key + ':int', int(value)) if (value or '').isdigit() "
        "else (key, value)",
        "lambda path, key, value: (key, [p[0] for p in path])",
        "lambda path, key, value: (key, repr((path, value)))",
    ]
    for i, src in enumerate(posts):
        for j, doc in enumerate([DOCS[7], DOCS[11], DOCS[23], DOCS[25], DOCS[6], DOCS[8],
                                 DOCS[29]]):
            out.append({"id": f"postprocessor-{i}-{j}", "covers": ["postprocessor"], "ops": [
                *_make("pp", src),
                {"call": "parse", "args": [doc], "kwargs": {"postprocessor": "$pp"}}]})
        out.append({"id": f"postprocessor-{i}-comments", "covers": ["postprocessor"], "ops": [
            *_make("pp", src),
            {"call": "parse", "args": [DOCS[20]], "kwargs": {"postprocessor": "$pp",
                                                              "process_comments": True}}]})
    out.append({"id": "postprocessor-force-list", "covers": ["postprocessor", "force-list"],
                "ops": [*_make("pp", posts[0]),
                        {"call": "parse", "args": [DOCS[11]],
                         "kwargs": {"postprocessor": "$pp", "force_list": ("B", "@X")}}]})
    out.append({"id": "postprocessor-bad", "covers": ["postprocessor"], "ops": [
        *_make("pp", "lambda path, key, value: 'xyz'"),
        {"call": "parse", "args": [DOCS[6]], "kwargs": {"postprocessor": "$pp"}}]})
    # force_list as a function: sees the parent's path
    fls = [
        "lambda path, key, value: key == 'b'",
        "lambda path, key, value: len(path) > 1",
        "lambda path, key, value: isinstance(value, dict)",
        "lambda path, key, value: print(repr(path), key, repr(value))",
    ]
    for i, src in enumerate(fls):
        for j, doc in enumerate([DOCS[7], DOCS[11], DOCS[23], DOCS[24], DOCS[21]]):
            out.append({"id": f"force-list-fn-{i}-{j}", "covers": ["force-list"], "ops": [
                *_make("fl", src),
                {"call": "parse", "args": [doc], "kwargs": {"force_list": "$fl",
                                                             "process_comments": True}}]})
    out.append(_p("force-list-str", ["force-list"], DOCS[11], force_list="bcd"))
    # streaming: item_depth and item_callback
    logger = ("(lambda log: (log, lambda path, item: (log.append((list(path), item)), "
              "len(log) < %d)[1]))([])")
    stream_docs = [DOCS[7], DOCS[11], DOCS[17], DOCS[23], DOCS[24], DOCS[12],
                   '<a p="x">\n  <b>1</b>\n  <b><c>2</c></b>\n  <b/>\n</a>', DOCS[25]]
    for i, doc in enumerate(stream_docs):
        for depth in (1, 2, 3):
            for limit in (100, 2):
                kw = {"item_depth": depth, "item_callback": "$cb"}
                if i == 7:
                    kw["process_namespaces"] = True
                out.append({"id": f"stream-{i}-d{depth}-l{limit}", "covers": ["streaming"], "ops": [
                    *_make("pair", logger % limit),
                    {"op": "[]", "args": ["$pair", 0], "as": "log", "observe": False},
                    {"op": "[]", "args": ["$pair", 1], "as": "cb", "observe": False},
                    {"call": "parse", "args": [doc], "kwargs": kw},
                    {"op": "list", "args": ["$log"]}]})
    out.append({"id": "stream-postprocessor", "covers": ["streaming", "postprocessor"], "ops": [
        *_make("pair", logger % 100),
        {"op": "[]", "args": ["$pair", 0], "as": "log", "observe": False},
        {"op": "[]", "args": ["$pair", 1], "as": "cb", "observe": False},
        *_make("pp", posts[0]),
        {"call": "parse", "args": [DOCS[23]],
         "kwargs": {"item_depth": 2, "item_callback": "$cb", "postprocessor": "$pp"}},
        {"op": "list", "args": ["$log"]}]})
    out.append({"id": "stream-comments", "covers": ["streaming", "comments"], "ops": [
        *_make("pair", logger % 100),
        {"op": "[]", "args": ["$pair", 0], "as": "log", "observe": False},
        {"op": "[]", "args": ["$pair", 1], "as": "cb", "observe": False},
        {"call": "parse", "args": ["<a><!-- c --><b>1<!-- d --></b><b>2</b></a>"],
         "kwargs": {"item_depth": 2, "item_callback": "$cb", "process_comments": True}},
        {"op": "list", "args": ["$log"]}]})
    # the attributes in the path are built with dict_constructor
    for i, doc in enumerate(['<a p="x" q="y"><b r="1">1</b><b>2</b></a>', DOCS[23]]):
        out.append({"id": f"stream-ordered-{i}", "covers": ["streaming", "parse-options"], "ops": [
            *_make("pair", logger % 100),
            {"op": "[]", "args": ["$pair", 0], "as": "log", "observe": False},
            {"op": "[]", "args": ["$pair", 1], "as": "cb", "observe": False},
            *_make("od", "__import__('collections').OrderedDict"),
            {"call": "parse", "args": [doc],
             "kwargs": {"item_depth": 2, "item_callback": "$cb", "dict_constructor": "$od"}},
            {"op": "list", "args": ["$log"]}]})
        out.append({"id": f"postprocessor-ordered-{i}", "covers": ["postprocessor"], "ops": [
            *_make("od", "__import__('collections').OrderedDict"),
            *_make("pp", posts[4]),
            {"call": "parse", "args": [doc],
             "kwargs": {"postprocessor": "$pp", "dict_constructor": "$od"}}]})
    out.append({"id": "stream-default-callback", "covers": ["streaming"], "ops": [
        {"call": "parse", "args": [DOCS[7]], "kwargs": {"item_depth": 2}}]})
    out.append({"id": "interrupted", "covers": ["streaming"], "ops": [
        {"call": "ParsingInterrupted", "args": ["x"]},
        {"call": "ParsingInterrupted.mro"}]})
    # module attributes
    out.append({"id": "module", "covers": ["module"], "ops": [
        {"get": "__version__"}, {"get": "__author__"}, {"get": "__license__"}]})
    # unparse
    for i, d in enumerate(U_DICTS):
        out.append(_u(f"unparse-{i}", ["unparse-basic"], d))
        for j, opts in enumerate(U_OPTIONS):
            if opts:
                covers = ["unparse-options"]
                if "pretty" in opts:
                    covers.append("unparse-pretty")
                if "namespaces" in opts:
                    covers.append("unparse-namespaces")
                out.append(_u(f"unparse-{i}-opt{j}", covers, d, **opts))
    out += [
        _u("unparse-two-roots", ["unparse-errors"], {"a": "1", "b": "2"}),
        _u("unparse-no-root", ["unparse-errors"], {}),
        _u("unparse-list-root", ["unparse-errors"], {"a": ["1", "2"]}),
        _u("unparse-list-root-fragment", ["unparse-options"], {"a": ["1", "2"], "b": "3"},
           full_document=False),
        _u("unparse-empty-fragment", ["unparse-options"], {}, full_document=False),
        _u("unparse-list-root-one", ["unparse-basic"], {"a": ["1"]}),
        _u("unparse-empty-list-root", ["unparse-basic"], {"a": []}),
        _u("unparse-bad-text", ["unparse-errors"], {"a": {"#text": 5}}),
        _u("unparse-bad-key", ["unparse-errors"], {"a": {1: "x"}}),
        _u("unparse-bad-root-key", ["unparse-errors"], {1: "x"}),
        _u("unparse-bad-encoding-bytes", ["unparse-errors"], {"a": {"#text": b"x"}},
           encoding="no-such-codec"),
        _u("unparse-bad-indent", ["unparse-errors"], {"a": {"b": "c"}}, pretty=True, indent=3),
        _u("unparse-zero-indent", ["unparse-pretty"], {"a": {"b": {"c": "d"}}}, pretty=True,
           indent=0),
        _u("unparse-not-dict", ["unparse-errors"], "abc"),
        _u("unparse-depth", ["unparse-pretty"], {"a": {"b": "c"}, "d": "e"}, pretty=True,
           depth=1),
        _u("unparse-unknown-option", ["unparse-errors"], {"a": "b"}, colour="red"),
        _u("unparse-encoding-none", ["unparse-options"], {"a": "b"}, encoding=None),
        _u("unparse-prefix-xmlns", ["unparse-namespaces"],
           {"a": {"_xmlns": {"x": "u"}, "@xmlns": {"y": "v"}}}, attr_prefix="_"),
        _u("unparse-ns-attr", ["unparse-namespaces"],
           {"x:a": {"@x:k": "1", "@y:k": "2", "@k": "3", "x:b": {"@x:c": "4"}}},
           namespaces={"x": "http://x/", "y": "http://y/"}),
        _u("unparse-ns-unknown", ["unparse-namespaces"], {"z:a": {"@z:k": "1"}},
           namespaces={"x": "http://x/"}),
        _u("unparse-ns-two-separators", ["unparse-namespaces"],
           {"x:y:a": {"@x:y:k": "1", "x:b": "2", "z:y:c": "3"}},
           namespaces={"x:y": "http://xy/", "x": "http://x/"}),
        _u("unparse-negative-depth", ["unparse-errors"], {"a": {"b": ["1", "2"]}}, depth=-1),
        _u("unparse-negative-depth-one", ["unparse-pretty"], {"a": {"b": ["1"]}}, depth=-1,
           pretty=True),
        _u("unparse-ns-collide", ["unparse-namespaces"], {"a": {"@x:k": "1", "@y:k": "2"}},
           namespaces={"x": "u", "y": "u"}),
    ]
    # generators, iterators, preprocessors and output streams
    gens = [
        "{'a': {'b': (x for x in ['1', '2', None])}}",
        "{'a': {'b': iter([{'c': '1'}, {'c': '2'}])}}",
        "{'a': {'b': range(3)}}",
        "{'a': {'b': [['x', 'y'], 'z']}}",
        "{'a': {'b': {'x', }}}",
        "{'a': (x for x in ['only'])}",
        "{'a': iter(['1', '2'])}",
    ]
    for i, src in enumerate(gens):
        for j, kw in enumerate([{}, {"expand_iter": "v"}, {"full_document": False}]):
            out.append({"id": f"unparse-iter-{i}-{j}", "covers": ["unparse-options"], "ops": [
                *_make("d", src), {"call": "unparse", "args": ["$d"], "kwargs": kw}]})
    pres = [
        "lambda key, value: (key.upper(), value)",
        "lambda key, value: None if key == 'b' else (key, value)",
        "lambda key, value: (key, value * 2) if isinstance(value, str) else (key, value)",
        "lambda key, value: ('@' + key, value) if key == 'c' else (key, value)",
        "lambda key, value: 'ab'",
    ]
    for i, src in enumerate(pres):
        for j, d in enumerate([U_DICTS[8], U_DICTS[13], U_DICTS[25], {"b": "root"}]):
            out.append({"id": f"preprocessor-{i}-{j}", "covers": ["preprocessor"], "ops": [
                *_make("pre", src),
                {"call": "unparse", "args": [d], "kwargs": {"preprocessor": "$pre"}}]})
    for i, (src, kw) in enumerate([
            ("__import__('io').StringIO()", {}),
            ("__import__('io').StringIO()", {"pretty": True, "full_document": False}),
            ("__import__('io').BytesIO()", {}),
            ("__import__('io').BytesIO()", {"encoding": "ascii"}),
            ("__import__('io').BytesIO()", {"encoding": "iso-8859-1", "short_empty_elements": True}),
    ]):
        for j, d in enumerate([U_DICTS[13], U_DICTS[28], {"a": {"b": None, "#text": "\u00e9"}}]):
            out.append({"id": f"unparse-output-{i}-{j}", "covers": ["unparse-options"], "ops": [
                *_make("out", src),
                {"call": "unparse", "args": [d], "kwargs": {**kw, "output": "$out"}},
                {"call": "$out.getvalue"}]})
    # a stream that reports flush(): XMLGenerator's endDocument flushes it
    flushing = ("type('Flushing', (__import__('io').StringIO,), "
                "{'flush': lambda self: self.write('[flush]')})()")
    for i, kw in enumerate([{}, {"full_document": False}, {"pretty": True}]):
        out.append({"id": f"unparse-output-flush-{i}", "covers": ["unparse-options"], "ops": [
            *_make("out", flushing),
            {"call": "unparse", "args": [{"a": {"b": "1"}}], "kwargs": {**kw, "output": "$out"}},
            {"call": "$out.getvalue"}]})
    # round trips
    for i, doc in enumerate(DOCS):
        if doc.startswith("<!--"):  # a comment beside the root: two roots, unparse refuses
            continue
        out.append({"id": f"roundtrip-{i}", "covers": ["roundtrip"], "ops": [
            {"call": "parse", "args": [doc], "kwargs": {"process_comments": True}, "as": "d"},
            {"call": "unparse", "args": ["$d"], "kwargs": {"pretty": True}, "as": "x"},
            {"call": "parse", "args": ["$x"], "kwargs": {"process_comments": True}},
            {"call": "unparse", "args": ["$d"], "kwargs": {"short_empty_elements": True}}]})
    # random documents and dicts
    rng = random.Random(2024)
    for i in range(120):
        doc = _random_doc(rng)
        opts = _RANDOM_OPTIONS[i % len(_RANDOM_OPTIONS)]
        out.append(_p(f"random-parse-{i}", _covers_for(opts), doc, **opts))
    for i in range(120):
        d = {rng.choice(["r", "x:r"]): _random_value(rng)}
        opts = _RANDOM_U_OPTIONS[i % len(_RANDOM_U_OPTIONS)]
        out.append(_u(f"random-unparse-{i}", ["unparse-options"], d, **opts))
    # larger inputs, as the timing inputs make them
    for i in range(3):
        r = random.Random(100 + i)
        out.append(_p(f"catalog-{i}", ["parse-basic"], catalog(r, 20)))
        out.append(_p(f"catalog-ns-{i}", ["namespaces", "force-list"], catalog(r, 10),
                      process_namespaces=True, namespaces={"http://example.com/meta": "meta"},
                      force_list=("author", "tag")))
        out.append(_p(f"deep-{i}", ["parse-basic"], deep(r, 3, 40)))
        out.append(_u(f"records-{i}", ["unparse-basic"], records(r, 10)))
        out.append(_u(f"records-pretty-{i}", ["unparse-pretty"], records(r, 10), pretty=True,
                      short_empty_elements=True))
    return out


# ---- timing inputs

WORDS = ["alpha", "beta", "gamma", "delta", "omega", "fish & chips", "x<y", "  padded  ", "42",
         "3.14", "caf\u00e9"]


def catalog(rng, n):
    """An XML catalogue of n records: attributes, text, repeated children, empties."""
    out = ['<?xml version="1.0" encoding="utf-8"?>\n'
           '<catalog version="2" xmlns:m="http://example.com/meta">']
    for i in range(n):
        out.append('\n  <item id="%d" kind="%s" m:score="%d" lang="%s">' % (
            i, rng.choice(["book", "disc", "map"]), rng.randrange(100),
            rng.choice(["en", "fr", "de"])))
        title = rng.choice(WORDS).replace("&", "&amp;").replace("<", "&lt;")
        out.append("\n    <title>%s %d</title>" % (title, i))
        for _ in range(rng.randrange(1, 4)):
            out.append('\n    <author role="%s">%s</author>' % (rng.choice(["main", "co"]),
                                                                rng.choice(WORDS[:5])))
        out.append('\n    <price currency="EUR">%d.%02d</price>' % (rng.randrange(100),
                                                                   rng.randrange(100)))
        if rng.random() < 0.5:
            out.append("\n    <tags><tag>%s</tag><tag>%s</tag></tags>" % (
                rng.choice(WORDS[:5]), rng.choice(WORDS[:5])))
        if rng.random() < 0.3:
            out.append("\n    <note/>")
        out.append("\n  </item>")
    out.append("\n</catalog>\n")
    return "".join(out)


def deep(rng, chains, depth):
    """A root holding `chains` element chains, each `depth` levels deep."""
    out = ["<root>"]
    for _ in range(chains):
        names = [rng.choice(["n", "node", "level", "x"]) for _ in range(depth)]
        for d, name in enumerate(names):
            out.append('<%s d="%d">' % (name, d) if d % 3 == 0 else "<%s>" % name)
            if d % 4 == 1:
                out.append("t%d" % d)
        out.append("leaf")
        for name in reversed(names):
            out.append("</%s>" % name)
    out.append("</root>")
    return "".join(out)


def records(rng, n):
    """A dict shaped as parse() gives it: records with attributes, text, lists and None."""
    items = []
    for i in range(n):
        items.append({
            "@id": str(i), "@kind": rng.choice(["book", "disc"]),
            "@flag": rng.choice([True, False]),
            "title": rng.choice(WORDS) + " %d" % i,
            "author": [{"@role": "main", "#text": rng.choice(WORDS)}, rng.choice(WORDS)],
            "price": {"@currency": "EUR", "#text": "%d.%02d" % (rng.randrange(100),
                                                             rng.randrange(100))},
            "count": rng.randrange(1000), "note": None,
            "tags": {"tag": [rng.choice(WORDS) for _ in range(rng.randrange(4))]}})
    return {"catalog": {"@version": "2", "item": items}}


def nested(rng, depth, width):
    """A dict nested `depth` levels, `width` children per level at the top."""
    def level(d):
        if d == depth:
            return rng.choice(WORDS)
        node = {"@level": str(d)}
        for k in range(width if d < 2 else 1):
            node["k%d" % k] = level(d + 1)
        if d % 3 == 0:
            node["#text"] = "text %d" % d
        return node
    return {"root": level(0)}


def timing_inputs():
    def parse_catalog(n):
        return lambda seed: {"call": "parse", "args": [catalog(random.Random(seed), n)]}

    def parse_namespaces(n):
        return lambda seed: {
            "call": "parse", "args": [catalog(random.Random(seed), n)],
            "kwargs": {"process_namespaces": True,
                       "namespaces": {"http://example.com/meta": "meta"},
                       "force_list": ("author", "tag")}}

    def parse_deep(chains, depth):
        return lambda seed: {"call": "parse", "args": [deep(random.Random(seed), chains, depth)]}

    def unparse_records(n):
        return lambda seed: {"call": "unparse", "args": [records(random.Random(seed), n)]}

    def unparse_pretty(n):
        return lambda seed: {"call": "unparse", "args": [records(random.Random(seed), n)],
                             "kwargs": {"pretty": True, "short_empty_elements": True}}

    def unparse_nested(depth, width):
        return lambda seed: {"call": "unparse", "args": [nested(random.Random(seed), depth, width)],
                             "kwargs": {"pretty": True, "indent": "  "}}

    return [
        {"id": "parse-catalog150", "size": 150, "make": parse_catalog(150)},
        {"id": "parse-ns-catalog100", "size": 100, "make": parse_namespaces(100)},
        {"id": "parse-deep8x100", "size": 800, "make": parse_deep(8, 100)},
        {"id": "unparse-records100", "size": 100, "make": unparse_records(100)},
        {"id": "unparse-pretty100", "size": 100, "make": unparse_pretty(100)},
        {"id": "unparse-nested120", "size": 120, "make": unparse_nested(120, 4)},
    ]
