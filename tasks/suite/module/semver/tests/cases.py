"""Held-out cases and timing inputs for the semver task (semver 2.13.0)."""

import random

VERSIONS = [
    "0.0.0", "0.0.1", "0.1.0", "1.0.0", "1.2.3", "10.20.30", "1.0.0-alpha", "1.0.0-alpha.1",
    "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1",
    "1.0.0-0.3.7", "1.0.0-x.7.z.92", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85",
    "1.0.0-x-y-z.--", "1.2.3-rc.1+build.9", "3.4.5-pre.2+build.4", "2.0.0-rc.01a",
    "1.0.0-alpha.01b", "1.0.0-2", "1.0.0-10", "1.0.0-a.10", "1.0.0-a.9", "1.0.0-a.b.c",
    "1.0.0-a.b", "99999999999999999999.0.0", "1.0.0-rc.1\n",
]
INVALID = ["", "1", "1.2", "1.2.3.4", "01.2.3", "1.02.3", "1.2.03", "1.2.3-", "1.2.3+",
           "1.2.3-01", "1.2.3-a..b", "v1.2.3", " 1.2.3", "1.2.3 ", "-1.2.3", "a.b.c",
           "1.2.3-rc.1+", "1.2.3+a+b", "1.2.3-é"]


def _c(cid, covers, name, *args, **kw):
    case = {"id": cid, "covers": covers, "call": name, "args": list(args)}
    if kw:
        case["kwargs"] = kw
    return case


def _v(version, name="v"):
    return {"call": "VersionInfo.parse", "args": [version], "as": name, "observe": False}


def cases():
    out = []
    for i, v in enumerate(VERSIONS):
        out.append(_c(f"parse-{i}", ["parse"], "parse", v))
        out.append(_c(f"parse-info-{i}", ["parse"], "parse_version_info", v))
        out.append(_c(f"isvalid-{i}", ["parse"], "VersionInfo.isvalid", v))
        out.append({"id": f"methods-{i}", "covers": ["version-info"], "ops": [
            _v(v), {"op": "str", "args": ["$v"]}, {"op": "repr", "args": ["$v"]},
            {"call": "$v.to_tuple"}, {"call": "$v.to_dict"}, {"op": "list", "args": ["$v"]},
            {"get": "$v.major"}, {"get": "$v.minor"}, {"get": "$v.patch"},
            {"get": "$v.prerelease"}, {"get": "$v.build"},
            {"call": "$v.finalize_version"},
        ]})
        out.append({"id": f"bumps-{i}", "covers": ["bump"], "ops": [
            _v(v), {"call": "$v.bump_major"}, {"call": "$v.bump_minor"},
            {"call": "$v.bump_patch"}, {"call": "$v.bump_prerelease"},
            {"call": "$v.bump_prerelease", "args": ["dev"]},
            {"call": "$v.bump_prerelease", "args": [None]},
            {"call": "$v.bump_build"}, {"call": "$v.bump_build", "args": [""]},
            {"call": "$v.bump_build", "kwargs": {"token": "b"}}]})
        out.append({"id": f"next-{i}", "covers": ["next-version"], "ops": [
            _v(v), {"call": "$v.next_version", "args": ["major"]},
            {"call": "$v.next_version", "args": ["minor"]},
            {"call": "$v.next_version", "args": ["patch"]},
            {"call": "$v.next_version", "args": ["prerelease"]},
            {"call": "$v.next_version", "args": ["prerelease", "alpha"]}]})
        out.append({"id": f"hash-{i}", "covers": ["version-info"], "ops": [
            _v(v), _v(v, "w"), {"call": "$v.__hash__", "as": "h1", "observe": False},
            {"call": "$w.__hash__", "as": "h2", "observe": False},
            {"op": "==", "args": ["$h1", "$h2"]}]})
        for name in ("bump_major", "bump_minor", "bump_patch", "bump_prerelease", "bump_build",
                     "finalize_version"):
            out.append(_c(f"{name}-{i}", ["bump"], name, v))
        out.append(_c(f"bump_prerelease-tok-{i}", ["bump"], "bump_prerelease", v, "dev"))
        out.append(_c(f"bump_build-tok-{i}", ["bump"], "bump_build", v, token="ci"))
    for i, v in enumerate(INVALID):
        out.append(_c(f"invalid-{i}", ["invalid"], "parse", v))
        out.append(_c(f"invalid-isvalid-{i}", ["invalid"], "VersionInfo.isvalid", v))
        out.append(_c(f"invalid-compare-{i}", ["invalid"], "compare", "1.0.0", v))
    out += [
        _c("parse-bytes", ["parse"], "parse", b"1.2.3-rc.1"),
        _c("parse-int", ["invalid"], "parse", 123),
        _c("parse-none", ["invalid"], "VersionInfo.parse", None),
        _c("parse-bad-bytes", ["invalid"], "parse", b"\xff.1.2"),
        _c("ensure-str", ["parse"], "ensure_str", b"abc"),
        _c("ensure-str-str", ["parse"], "ensure_str", "abc"),
        _c("ensure-str-int", ["invalid"], "ensure_str", 1),
        _c("cmp", ["compare"], "cmp", 1, 2),
    ]
    rng = random.Random(4)
    pool = VERSIONS[:-1] + ["1.0.0-rc.1", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0-RC.1",
                            "1.0.0-rc.1.1", "1.0.0-rc", "1.0.0-1.a", "1.0.0-a.1", "2.1.0",
                            "2.0.1", "1.10.0", "1.9.0", "1.0.0-alpha+b1", "1.0.0-alpha+b2"]
    pairs = [(a, b) for a in pool for b in pool]
    rng.shuffle(pairs)
    for i, (a, b) in enumerate(pairs[:260]):
        out.append(_c(f"compare-{i}", ["compare"], "compare", a, b))
        if i < 120:
            out.append({"id": f"ops-{i}", "covers": ["operators"], "ops": [
                _v(a, "a"), _v(b, "b"), {"op": "<", "args": ["$a", "$b"]},
                {"op": "<=", "args": ["$a", "$b"]}, {"op": ">", "args": ["$a", "$b"]},
                {"op": ">=", "args": ["$a", "$b"]}, {"op": "==", "args": ["$a", "$b"]},
                {"op": "!=", "args": ["$a", "$b"]}, {"op": "==", "args": ["$a", b]},
                {"op": "<", "args": ["$a", b]}]})
        if i < 60:
            out.append(_c(f"max-{i}", ["max-min"], "max_ver", a, b))
            out.append(_c(f"min-{i}", ["max-min"], "min_ver", a, b))
    for i, (v, expr) in enumerate([
            ("2.0.0", ">=1.0.0"), ("1.0.0", ">1.0.0"), ("1.0.0", "<1.0.1"), ("1.0.0", "<=1.0.0"),
            ("1.0.0", "==1.0.0"), ("1.0.0", "!=1.0.0"), ("1.0.0-rc.1", "<1.0.0"),
            ("1.0.0", "=1.0.0"), ("1.0.0", "1.0.0"), ("1.0.0", ""), ("1.0.0", ">=x"),
            ("1.0.0", "~1.0.0"), ("1.0.0", "!=2.0.0"), ("1.0.0", "<0.9.9"),
            ("1.0.0", ">0.9.9"), ("1.0.0", ">=1.0.0-rc.1"), ("1.0.0", "<=0.1.0"),
            ("2.0.0", "!=1.0.0"), ("1.0.0", "<=2.0.0"), ("2.0.0", ">=1.0.0-rc.1")]):
        out.append(_c(f"match-{i}", ["match"], "match", v, expr))
        out.append({"id": f"match-method-{i}", "covers": ["match"], "ops": [
            _v(v), {"call": "$v.match", "args": [expr]}]})
    out += [
        _c("format", ["format"], "format_version", 3, 4, 5, "pre.2", "build.4"),
        _c("format-plain", ["format"], "format_version", 3, 4, 5),
        _c("format-build", ["format"], "format_version", 0, 0, 1, build="b"),
        _c("format-neg", ["invalid"], "format_version", -1, 0, 0),
        _c("format-str-int", ["format"], "format_version", "7", 1, 2),
        _c("format-bad", ["invalid"], "format_version", "x", 1, 2),
        _c("replace", ["replace"], "replace", "1.2.3", major=2, patch=10),
        _c("replace-pre", ["replace"], "replace", "1.2.3-rc.1+b", prerelease=None, build="x"),
        _c("replace-bad", ["replace"], "replace", "1.2.3", major=2, flavour="x"),
        _c("info-ctor", ["version-info"], "VersionInfo", 1, 2, 3, "rc.1", "b.2"),
        _c("info-ctor-str", ["version-info"], "VersionInfo", "1", "2", "3", 4, 5),
        _c("info-ctor-neg", ["invalid"], "VersionInfo", 1, -2),
        _c("info-ctor-major", ["version-info"], "VersionInfo", 5),
        _c("info-ctor-bad", ["invalid"], "VersionInfo", "a"),
        _c("max-info", ["max-min"], "max_ver", "1.0.0", "2.0.0"),
        _c("max-bad", ["invalid"], "max_ver", 1, "2.0.0"),
        _c("min-bad", ["invalid"], "min_ver", "1.0.0", 2),
        {"id": "spec", "covers": ["version-info"], "ops": [{"get": "SEMVER_SPEC_VERSION"},
                                                           {"get": "__version__"},
                                                           {"get": "__all__"},
                                                           {"get": "__author__"},
                                                           {"get": "__author_email__"},
                                                           {"get": "__maintainer__"},
                                                           {"get": "__maintainer_email__"},
                                                           {"get": "PY2"}, {"get": "PY3"}]},
        _c("latin-1", ["version-info"], "b", "abc\u00e9"),
        _c("u", ["version-info"], "u", "abc"),
        _c("max-equal", ["max-min"], "max_ver", "1.0.0+b1", "1.0.0+b2"),
        _c("min-equal", ["max-min"], "min_ver", "1.0.0+b1", "1.0.0+b2"),
    ]
    out.append({"id": "readonly", "covers": ["version-info"], "ops": [
        _v("1.2.3-rc.1+b"),
        {"get": "$v.major"},
        {"call": "$v.compare", "args": [{"major": 1, "minor": 2, "patch": 3}]},
        {"call": "$v.compare", "args": [[1, 2, 3, "rc.1"]]},
        {"call": "$v.compare", "args": [[1, 2, 3, "rc.2"]]},
        {"call": "$v.compare", "args": [b"1.2.3"]},
        {"call": "$v.compare", "args": [1.5]},
        {"call": "$v.compare", "args": ["$v"]},
        {"op": "==", "args": ["$v", {"major": 1, "minor": 2, "patch": 3, "prerelease": "rc.1"}]},
        {"op": "<", "args": ["$v", [1, 2, 4]]},
        {"op": "==", "args": ["$v", 1]},
        {"op": "<", "args": ["$v", None]},
        {"op": "[]", "args": ["$v", 0]}, {"op": "[]", "args": ["$v", 3]},
        {"op": "[]", "args": ["$v", 4]}, {"op": "[]", "args": ["$v", -1]},
        {"call": "$v.replace", "kwargs": {"minor": 9}},
        {"call": "$v.replace", "kwargs": {"nope": 9}},
        {"call": "$v.match", "args": [">=1.0.0"]},
        {"call": "$v._astuple"}, {"call": "$v._asdict"}]})
    for i, v in enumerate(["1.2.3", "1.2.3-rc.1", "1.2.3+b", "0.0.0-a.b"]):
        out.append({"id": f"getitem-{i}", "covers": ["version-info"], "ops": [
            _v(v), {"op": "[:]", "args": ["$v", 0, 2]}, {"op": "[:]", "args": ["$v", 1, None]},
            {"op": "[:]", "args": ["$v", None, None]}, {"op": "[:]", "args": ["$v", 3, 5]},
            {"op": "[:]", "args": ["$v", 0, -1]}, {"op": "[:]", "args": ["$v", -2, None]},
            {"op": "[]", "args": ["$v", 2]}, {"op": "[]", "args": ["$v", 10]},
            {"op": "[:]", "args": ["$v", 0, 5, 2]}, {"op": "[:]", "args": ["$v", 0, 0]},
            {"op": "[:]", "args": ["$v", 2, 1]}]})
    for i, (a, b) in enumerate([("1.2.3+a", "1.2.3+b"), ("1.2.3-rc.1+a", "1.2.3-rc.1"),
                                ("1.2.3", "1.2.3+x")]):
        out.append({"id": f"hash-build-{i}", "covers": ["version-info"], "ops": [
            _v(a), _v(b, "w"), {"call": "$v.__hash__", "as": "h1", "observe": False},
            {"call": "$w.__hash__", "as": "h2", "observe": False},
            {"op": "==", "args": ["$h1", "$h2"]}]})
    for part in ("major", "minor", "patch", "prerelease", "build"):
        out.append({"id": f"readonly-{part}", "covers": ["version-info"], "ops": [
            _v("1.2.3-rc.1+b"), {"call": "$v.__setattr__", "args": [part, 9]},
            {"get": f"$v.{part}"}]})
    # The deprecation warnings, recorded with warnings.catch_warnings.
    deprecated_calls = [
        ("parse", ["1.2.3"], {}), ("parse_version_info", ["1.2.3"], {}),
        ("compare", ["1.2.3", "1.2.4"], {}), ("match", ["1.2.3", ">1.0.0"], {}),
        ("max_ver", ["1.2.3", "1.2.4"], {}), ("min_ver", ["1.2.3", "1.2.4"], {}),
        ("format_version", [1, 2, 3], {}), ("bump_major", ["1.2.3"], {}),
        ("bump_minor", ["1.2.3"], {}), ("bump_patch", ["1.2.3"], {}),
        ("bump_prerelease", ["1.2.3"], {}), ("bump_build", ["1.2.3"], {}),
        ("finalize_version", ["1.2.3-rc.1"], {}), ("replace", ["1.2.3"], {"major": 4}),
        ("VersionInfo._astuple", ["$v"], {}), ("VersionInfo._asdict", ["$v"], {}),
    ]
    for name, args, kw in deprecated_calls:
        call = {"call": name, "args": args}
        if kw:
            call["kwargs"] = kw
        out.append({"id": f"warning-{name}", "covers": ["deprecation"], "ops": [
            _v("1.2.3-rc.1"),
            {"call": "warnings.catch_warnings", "kwargs": {"record": True}, "as": "cw",
             "observe": False},
            {"call": "$cw.__enter__", "as": "log", "observe": False},
            {"call": "warnings.simplefilter", "args": ["always"]},
            call,
            {"op": "len", "args": ["$log"]},
            {"op": "[]", "args": ["$log", 0], "as": "w", "observe": False},
            {"get": "$w.message"}, {"get": "$w.category.__name__"},
            {"call": "$cw.__exit__", "args": [None, None, None]}]})
    for i, argv in enumerate([
            ["compare", "1.0.0", "2.0.0"], ["compare", "2.0.0", "2.0.0"],
            ["compare", "1.0.0", "x"], ["bump", "major", "1.2.3"], ["bump", "minor", "1.2.3"],
            ["bump", "patch", "1.2.3"], ["bump", "prerelease", "1.2.3"],
            ["bump", "build", "1.2.3+b.1"], ["bump", "major", "bad"], ["check", "1.2.3"],
            ["check", "1.2"], ["nextver", "1.2.3-rc.1", "patch"], ["nextver", "1.2.3", "x"],
            ["nextver", "1.2.3", "prerelease"]]):
        out.append(_c(f"main-{i}", ["cli"], "main", argv))
    for i, argv in enumerate([[], ["bump"], ["--version"], ["nope"], ["-h"],
                              ["compare", "1.0.0"], ["nextver", "-h"], ["bump", "-h"],
                              ["compare", "-h"], ["check", "-h"]]):
        out.append(_c(f"main-exit-{i}", ["cli"], "main", argv))
    out.append({"id": "process", "covers": ["cli"], "ops": [
        {"call": "createparser", "as": "p", "observe": False},
        {"call": "$p.parse_args", "args": [["compare", "1.0.0", "1.0.1"]], "as": "a",
         "observe": False},
        {"call": "process", "args": ["$a"]},
        {"call": "cmd_compare", "args": ["$a"]}]})
    for i in range(20):
        a, b = _long_pair(rng, 3 + i)
        out.append(_c(f"long-compare-{i}", ["compare", "long"], "compare", a, b))
    return out


def _long_pair(rng, parts):
    """Two versions with the same core and long prereleases that differ late."""
    words = ["alpha", "beta", "rc", "dev", "pre", "x-y", "build"]
    items = [str(rng.randrange(100)) if rng.random() < 0.6 else rng.choice(words)
             for _ in range(parts)]
    other = list(items)
    k = parts - 1 - rng.randrange(min(3, parts))
    other[k] = rng.choice([str(rng.randrange(100)), rng.choice(words)])
    if rng.random() < 0.3:
        other.append("1")
    core = "%d.%d.%d" % (rng.randrange(3), rng.randrange(10), rng.randrange(10))
    return core + "-" + ".".join(items), core + "-" + ".".join(other) + "+b.%d" % parts


def timing_inputs():
    def make(parts):
        def one(seed):
            a, b = _long_pair(random.Random(seed), parts)
            return {"call": "compare", "args": [a, b]}
        return one

    return [
        {"id": "parts60", "size": 60, "make": make(60)},
        {"id": "parts250", "size": 250, "make": make(250)},
    ]
