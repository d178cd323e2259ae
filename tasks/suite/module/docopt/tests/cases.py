"""Held-out cases and timing inputs for the docopt task (docopt 0.6.2)."""

import random

NAVAL = """Naval Fate.

Usage:
  naval ship new <name>...
  naval ship <name> move <x> <y> [--speed=<kn>]
  naval ship shoot <x> <y>
  naval mine (set|remove) <x> <y> [--moored | --drifting]
  naval (-h | --help)
  naval --version

Options:
  -h --help     Show this screen.
  --version     Show version.
  --speed=<kn>  Speed in knots [default: 10].
  --moored      Moored (anchored) mine.
  --drifting    Drifting mine.
"""

COPY = """Usage: cp [options] <source> <dest>
       cp [options] <source>... <directory>

Options:
  -r, --recursive      Copy directories recursively.
  -v, --verbose        Explain what is being done.
  -f --force           Do not prompt.
  -b SUFFIX, --backup=SUFFIX  Backup suffix [default: ~].
  -t <dir>             Target directory.
  --mode=<m>           File mode.
"""

COUNT = """Usage: counter [-v | -vv | -vvv] [-q...] [--level=<n>]... go [go] <file>...

Options:
  -v            Verbose.
  -q            Quiet.
  --level=<n>   Level [default: 1 2].
"""

TOOL = """Usage:
  tool [-abc] [-o FILE] [--output=<f>] [--] [<args>...]
  tool run (--fast | --slow) [--retries=N] TARGET
  tool list [--all] [--format=<fmt>] [-]

Options:
  -a            Flag a.
  -b            Flag b.
  -c            Flag c.
  -o FILE       Output file.
  --output=<f>  Output [DEFAULT: out.txt].
  --fast        Fast.
  --slow        Slow.
  --retries=N   Retries [default: 3].
  --all         All.
  --format=<fmt>  Format.
"""

SUB = """usage: git [--version] [--exec-path=<path>] [--html-path]
           [-p|--paginate|--no-pager] [--no-replace-objects]
           [--bare] [--git-dir=<path>] [--work-tree=<path>]
           [-c <name>=<value>] [--help]
           <command> [<args>...]

options:
   -c <name=value>
   -h, --help
   -p, --paginate
"""

PREFIX = """Usage: pre [--verbose] [--version] [--vacuum=<v>] [--ver-x]

Options:
  --verbose      Verbose.
  --version      Version.
  --vacuum=<v>   Vacuum.
  --ver-x        Ver x.
"""

OPTS = """Usage: opt [options] [--] <x>...
       opt config [options]

Options:
  -n <n>, --number=<n>  A number [default: 5].
  -d --debug     Debug.
  --name NAME    A name.
"""


def _c(cid, covers, doc, argv, **kw):
    case = {"id": cid, "covers": covers, "call": "docopt", "args": [doc, argv]}
    if kw:
        case["kwargs"] = kw
    return case


EXITS = {"copy-3", "copy-13", "copy-14", "copy-16", "copy-17", "copy-18", "copy-20",
         "opts-7", "opts-9", "opts-10"}


def _r(cid, covers, doc, argv, **kw):
    """A docopt call observed through repr(): the result of a [options]
    shortcut has its keys in the order of a set, which the hash seed decides;
    Dict's repr sorts them. The argv that end in DocoptExit are observed as
    plain calls (the exception and its message)."""
    if cid in EXITS:
        return _c(cid, covers, doc, argv, **kw)
    call = {"call": "docopt", "args": [doc, argv], "as": "r", "observe": False}
    if kw:
        call["kwargs"] = kw
    return {"id": cid, "covers": covers,
            "ops": [call, {"op": "repr", "args": ["$r"]}, {"op": "len", "args": ["$r"]},
                    {"op": "type", "args": ["$r"]}]}


def cases():
    out = []
    naval = [
        ["ship", "new", "Guardian"], ["ship", "new", "a", "b", "c"],
        ["ship", "Guardian", "move", "10", "20"],
        ["ship", "Guardian", "move", "10", "20", "--speed=15"],
        ["ship", "Guardian", "move", "10", "20", "--speed", "15"],
        ["ship", "Guardian", "move", "10", "20", "--sp=15"],
        ["ship", "shoot", "1", "2"], ["mine", "set", "1", "2"],
        ["mine", "remove", "1", "2", "--moored"], ["mine", "set", "1", "2", "--drifting"],
        ["mine", "set", "1", "2", "--moored", "--drifting"], ["ship"], [],
        ["ship", "new"], ["mine", "detonate", "1", "2"], ["--speed=3"],
        ["ship", "Guardian", "move", "10", "20", "--speed"], ["--moored=x"],
        ["ship", "shoot", "1", "2", "3"], ["--unknown"], ["-x"],
        ["ship", "new", "--", "-neg"], ["ship", "new", "-"],
    ]
    for i, argv in enumerate(naval):
        out.append(_c(f"naval-{i}", ["commands", "arguments", "options", "exit"], NAVAL, argv))
    out += [
        _c("naval-help", ["help"], NAVAL, ["--help"]),
        _c("naval-help-short", ["help"], NAVAL, ["-h"]),
        _c("naval-help-off", ["help"], NAVAL, ["--help"], help=False),
        _c("naval-version", ["version"], NAVAL, ["--version"], version="Naval Fate 2.0"),
        _c("naval-version-none", ["version"], NAVAL, ["--version"]),
        _c("naval-version-prefix", ["version", "prefix"], NAVAL, ["--vers"], version=2.5),
        _c("naval-version-and-help", ["help", "version"], NAVAL, ["--version", "-h"],
           version="v"),
    ]
    copy = [
        ["a", "b"], ["-r", "a", "b"], ["-rv", "a", "b"], ["-vr", "x", "y", "z", "dir"],
        ["--recursive", "--verbose", "a", "b"], ["-b", ".bak", "a", "b"], ["-b.bak", "a", "b"],
        ["--backup=.old", "a", "b"], ["--backup", "x", "a", "b"], ["-t", "d", "a", "b"],
        ["-tdir", "a", "b"], ["--mode", "644", "a", "b"], ["--mode=", "a", "b"], ["a"],
        ["-f", "--force", "a", "b"], ["--rec", "a", "b"], ["-z", "a", "b"], ["-b"],
        ["--backup"], ["a", "b", "-v"], ["--verbose=yes", "a", "b"],
    ]
    for i, argv in enumerate(copy):
        out.append(_r(f"copy-{i}", ["options-shortcut", "options", "stacked"], COPY, argv))
    count = [
        ["go", "f"], ["-v", "go", "f"], ["-vv", "go", "go", "f", "g"], ["-vvv", "go", "f"],
        ["-qqq", "go", "f"], ["-q", "-q", "go", "f"], ["--level=3", "--level", "4", "go", "f"],
        ["go", "go", "go", "f"], ["-vvvv", "go", "f"], ["go"], ["-v", "-v", "go", "f"],
    ]
    for i, argv in enumerate(count):
        out.append(_c(f"count-{i}", ["repeated", "exit"], COUNT, argv))
    tool = [
        [], ["-abc"], ["-a", "-c", "x", "y"], ["-oout", "--", "-a", "--b"], ["-o", "f", "x"],
        ["--output=o", "p"], ["--out", "o"], ["run", "--fast", "T"],
        ["run", "--slow", "--retries=5", "T"], ["run", "--fast", "--slow", "T"],
        ["run", "T"], ["list"], ["list", "--all", "--format=json", "-"], ["list", "-"],
        ["--", "run"], ["-ab", "-o"], ["-c", "--", "--"], ["run", "--retries", "2"],
        ["-o"], ["list", "--format"], ["--fast"],
    ]
    for i, argv in enumerate(tool):
        out.append(_c(f"tool-{i}", ["options", "stacked", "double-dash", "either", "exit"],
                      TOOL, argv))
    sub = [
        ["status"], ["commit", "-m", "msg"], ["-p", "log"], ["--no-pager", "log", "-1"],
        ["--git-dir=/x", "--bare", "push", "origin"], ["-c", "a=b", "status"],
        ["--version"], ["--help"], ["-h"], ["--exec-path=/p", "--html-path", "x"],
    ]
    for i, argv in enumerate(sub):
        out.append(_c(f"git-{i}", ["options-first", "help", "version"], SUB, argv,
                      options_first=True, version="git 2"))
        out.append(_c(f"git-mixed-{i}", ["options", "help"], SUB, argv, help=False))
    prefix = [["--verb"], ["--vers"], ["--ver"], ["--va=1"], ["--v"], ["--verbose", "--ver-x"],
              ["--ver-x=1"], ["--vacuum"]]
    for i, argv in enumerate(prefix):
        out.append(_c(f"prefix-{i}", ["prefix", "exit"], PREFIX, argv))
    opts = [
        ["1"], ["-n", "3", "a", "b"], ["--number=9", "x"], ["-d", "--", "-1", "-2"],
        ["config"], ["config", "-d"], ["--name", "N", "v"], ["--nam", "x"], ["-dn7", "x"],
        ["-n"], ["x", "--number"], ["--", "config"],
    ]
    for i, argv in enumerate(opts):
        out.append(_r(f"opts-{i}", ["options-shortcut", "double-dash", "exit"], OPTS, argv))
    out.append(_r("opts-string-argv", ["argv-string"], OPTS, "-d a b"))
    out.append(_c("naval-string-argv", ["argv-string"], NAVAL, "ship new x y"))
    bad_docs = [
        ("no-usage", "Program without the word.\n"),
        ("two-usages", "Usage: a\n\nusage: b\n"),
        ("unmatched-paren", "Usage: p (a | b\n"),
        ("unmatched-bracket", "Usage: p [a\n"),
        ("unexpected", "Usage: p a ]\n"),
        ("unexpected-paren", "Usage: p a )\n"),
        ("unexpected-more", "Usage: p a ) b c\n"),
        ("ambiguous-short", "Usage: p -x\n\nOptions:\n  -x  One.\n  -x  Two.\n"),
        ("ambiguous-long", "Usage: p --opt\n\nOptions:\n  --opt  One.\n  --opt  Two.\n"),
        ("long-no-arg", "Usage: p --flag=<x>\n\nOptions:\n  --flag  A flag.\n"),
        ("long-needs-arg", "Usage: p --val\n\nOptions:\n  --val=<v>  A value.\n"),
        ("short-needs-arg", "Usage: p -v\n\nOptions:\n  -v VAL  A value.\n"),
    ]
    for name, doc in bad_docs:
        out.append(_c(f"language-{name}", ["language-errors"], doc, []))
    misc = [
        ("empty-usage", "Usage: p\n", []),
        ("empty-usage-extra", "Usage: p\n", ["x"]),
        ("upper-arg", "Usage: p NAME [AGE]\n", ["bob"]),
        ("either-args", "Usage: p (<a> | <b> <c>)\n", ["1", "2"]),
        ("either-args-1", "Usage: p (<a> | <b> <c>)\n", ["1"]),
        ("nested", "Usage: p [(<a> <b>)...] [-x]\n\n  -x  X.\n", ["1", "2", "3", "4", "-x"]),
        ("nested-odd", "Usage: p [(<a> <b>)...]\n", ["1", "2", "3"]),
        ("oneormore-cmd", "Usage: p (go <dir>)...\n", ["go", "a", "go", "b"]),
        ("default-upper", "Usage: p [--x=<v>]\n\nOptions:\n  --x=<v>  X [DeFaUlT: 7].\n", []),
        ("default-list", "Usage: p [--x=<v>]...\n\nOptions:\n  --x=<v>  X [default: a b c].\n",
         []),
        ("default-list-given", "Usage: p [--x=<v>]...\n\nOptions:\n  --x=<v>  X [default: a].\n",
         ["--x=q", "--x", "r"]),
        ("arg-default-ignored", "Usage: p [<a>]\n\n  <a>  An argument [default: 1].\n", []),
        ("options-usage-case", "USAGE: p [-v]\n\nOPTIONS:\n  -v  V.\n", ["-v"]),
        ("comma-options", "Usage: p [-o <f>]\n\nOptions:\n  -o, --out <f>  Out.\n",
         ["--out", "z"]),
        ("long-only-in-usage", "Usage: p [--zz]\n", ["--zz"]),
        ("long-arg-only-in-usage", "Usage: p [--zz=<q>]\n", ["--zz=3"]),
        ("short-only-in-usage", "Usage: p [-z]\n", ["-z"]),
        ("dash-arg", "Usage: p [-] <a>\n", ["-", "x"]),
        ("dashdash-cmd", "Usage: p [--] <a>...\n", ["--", "--", "x"]),
        ("repeated-cmd", "Usage: p go go\n", ["go", "go"]),
        ("counted-long", "Usage: p [--v --v]\n", ["--v", "--v"]),
        ("two-options", "Usage: p [-a] [-a]\n\nOptions:\n  -a  A.\n", ["-a", "-a"]),
        ("help-undeclared", "Usage: p [--help]\n", ["--help"]),
        ("help-undeclared-2", "Usage: p <a>\n", ["--help"]),
        ("version-undeclared", "Usage: p <a>\n", ["--version"]),
        ("short-upper", "Usage: p [-X] [-Y]\n", ["-XY"]),
        ("short-upper-2", "Usage: p [-X]\n\nOptions:\n  -X  Upper.\n", ["-X"]),
        ("angle-end", "Usage: p x> <y\n", ["x>", "<y"]),
        ("either-one", "Usage: p (a |)\n", ["a"]),
        ("either-empty", "Usage: p [a | ] b\n", ["b"]),
        ("either-repeat", "Usage: p (<x> | --y=<v>) (<x> | --y=<v>)\n", ["--y=1", "--y=2"]),
    ]
    for name, doc, argv in misc:
        out.append(_c(f"misc-{name}", ["patterns", "exit", "defaults"], doc, argv))
    out.append(_r("options-any-empty", ["options-shortcut"],
                  "Usage: p [options]\n\nOptions:\n  -a  A.\n  -b B  Value [default: x].\n",
                  ["-a"]))
    out.append(_r("options-any-in-pattern", ["options-shortcut"],
                  "Usage: p [options] -a\n\nOptions:\n  -a  A.\n  --bb  B.\n", ["-a", "--bb"]))
    out.append({"id": "exit-usage", "covers": ["exit"], "ops": [
        {"call": "docopt", "args": [NAVAL, ["bad"]]},
        {"get": "DocoptExit.usage"}]})
    out.append({"id": "names", "covers": ["exit"], "ops": [
        {"get": "__version__"}, {"get": "__all__"}]})
    rng = random.Random(5)
    for i in range(12):
        doc, argv = _big(rng, 4 + i, 6 + i)
        out.append(_c(f"big-{i}", ["big"], doc, argv))
    return out


VERBS = ["add", "commit", "push", "pull", "fetch", "merge", "rebase", "tag", "log", "show",
         "diff", "status", "init", "clone", "branch", "checkout", "reset", "revert", "stash",
         "remote", "config", "grep", "blame", "bisect", "archive", "clean", "describe",
         "notes", "prune", "gc"]
LETTERS = "abcdefgijklmnoprstuwxyz"


def _big(rng, ncmd, nopt):
    """A usage of ncmd commands over nopt options, and an argv for one of them."""
    opts = []
    for k in range(nopt):
        short = "-" + LETTERS[k] if k % 3 == 0 and k < len(LETTERS) else None
        opts.append((short, "--opt%d" % k, k % 3 != 2))
    lines = ["Usage:"]
    uses = []
    tails = ["<file>...", "[<path>]", "<name> <value>", "(-q | --quiet) <x>", "[<n>...]"]
    for c in range(ncmd):
        verb = VERBS[c % len(VERBS)] + ("" if c < len(VERBS) else str(c))
        chosen = rng.sample(range(nopt), min(4, nopt))
        tail = rng.randrange(len(tails))
        parts = ["prog", verb]
        for o in chosen:
            parts.append("[%s%s]" % (opts[o][1], "=<v%d>" % o if opts[o][2] else ""))
        parts.append(tails[tail])
        lines.append("  " + " ".join(parts))
        uses.append((verb, chosen, tail))
    lines += ["  prog (-h | --help | --version)", "", "Options:", "  -h --help     Show help.",
              "  --version     Show version.", "  -q --quiet    Quiet."]
    for o, (short, long_, arg) in enumerate(opts):
        left = (short + " " if short else "") + long_ + ("=<v%d>" % o if arg else "")
        default = " [default: d%d]" % o if arg and o % 2 else ""
        lines.append("  %-28s Option %d.%s" % (left, o, default))
    doc = "\n".join(lines) + "\n"
    verb, chosen, tail = uses[rng.randrange(len(uses))]
    argv = [verb]
    for o in chosen:
        if rng.random() < 0.6:
            short, long_, arg = opts[o]
            name = short if short and rng.random() < 0.5 else long_
            argv += [name, "x%d" % o] if arg else [name]
    argv += [["f1", "f2", "f3"], [], ["k", "v"], ["-q", "x"], ["1", "2"]][tail]
    return doc, argv


def timing_inputs():
    def make(ncmd, nopt):
        def one(seed):
            doc, argv = _big(random.Random(seed), ncmd, nopt)
            return {"call": "docopt", "args": [doc, argv]}
        return one

    return [
        {"id": "cmd12", "size": 12, "make": make(12, 20)},
        {"id": "cmd24", "size": 24, "make": make(24, 30)},
    ]
