"""Writes tests/cases.toml of the pyflakes task (run once by the author; the
result is committed). Each command gives four items (exit code, stdout,
stderr, the files of the working directory)."""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIX = HERE / "fixtures"
COVER = {"imports": "imports", "undefined_names": "names", "type_annotations": "annotations",
         "doctests": "doctests", "builtin": "names"}


def q(s: str) -> str:
    return json.dumps(s)


def unordered(cmd: str) -> str:
    """`cmd` with its stdout and stderr sorted by line, its exit status kept.
    pyflakes reports the files of a directory in the order os.walk lists them,
    which is the file system's: a golden recorded here had another order than
    the same fixtures in Harbor's container."""
    return (f"{cmd} >.out 2>.err; s=$?; LC_ALL=C sort .out; LC_ALL=C sort .err >&2; "
            "rm -f .out .err; exit $s")


def main() -> None:
    cases: list[tuple[str, list[str], list[str]]] = []
    groups: dict[str, list[str]] = {}
    for p in sorted((FIX / "snippets").iterdir()):
        groups.setdefault(p.name.rsplit("_", 1)[0], []).append(p.name)
    for module, names in groups.items():
        cover = COVER.get(module, "other")
        for i in range(0, len(names), 4):
            files = " ".join(f"snippets/{n}" for n in names[i:i + 4])
            cmds = [f"pyflakes {files}"]
            if module == "doctests":
                cmds.append(f"PYFLAKES_DOCTEST=1 pyflakes {files}")
            cases.append((f"snippets-{module}-{i // 4}", cmds, [cover]))
    for k, p in enumerate(sorted((FIX / "std").glob("*.py"))):
        cmds = [f"pyflakes std/{p.name}"]
        if k % 4 == 0:
            cmds.append(f"PYFLAKES_DOCTEST=1 pyflakes std/{p.name}")
        cases.append((f"std-{p.stem}", cmds, ["real_code"]))
    special = [
        ("misc-encodings", ["pyflakes misc/latin1_cookie.py", "pyflakes misc/latin1_nocookie.py",
                            "pyflakes misc/bom.py misc/crlf.py misc/unicode_names.py"], ["errors"]),
        ("misc-syntax", ["pyflakes misc/syntax.py", "pyflakes misc/indent.py",
                         "pyflakes misc/eof.py", "pyflakes misc/nullbyte.py"], ["errors"]),
        ("misc-empty", ["pyflakes misc/empty.py; echo status=$?"], ["real_code"]),
        ("misc-scripts", ["pyflakes misc/script misc/script_py2 misc/shell.sh misc/notes.txt",
                          unordered("pyflakes misc")], ["paths"]),
        ("misc-future", ["pyflakes misc/future.py"], ["imports"]),
        ("misc-doctests", ["pyflakes misc/doctests.py", "PYFLAKES_DOCTEST=1 pyflakes misc/doctests.py",
                           "PYFLAKES_DOCTEST= pyflakes misc/doctests.py"], ["doctests"]),
        ("tree", [unordered("pyflakes tree"), unordered("pyflakes tree/pkg/sub"),
                  "pyflakes tree/pkg/README"], ["paths"]),
        ("several", [unordered("pyflakes std/glob.py misc/future.py tree"),
                     "pyflakes std/glob.py std/glob.py"], ["paths"]),
        ("missing", ["pyflakes nope.py", "pyflakes std/glob.py nope/ misc/future.py",
                     "chmod 000 misc/crlf.py && pyflakes misc/crlf.py; echo status=$?"], ["errors"]),
        ("stdin", ["pyflakes < std/glob.py", "printf 'import os\\n' | pyflakes",
                   "printf 'def f(:\\n' | pyflakes", "pyflakes < misc/empty.py; echo status=$?"],
         ["stdin"]),
        ("usage", ["pyflakes --version", "pyflakes --help", "pyflakes -h",
                   "pyflakes --bogus std/glob.py"], ["usage"]),
        ("clean", ["pyflakes std/keyword.py; echo status=$?"], ["real_code"]),
        # Written for the task where mutation testing found behaviour no other case
        # pins down: names rebound on the two forks of an if or a try, annotations of
        # **kwargs without *args, relative star imports, a def over an argument or a
        # loop variable, 256 targets before a star, an annotated name read in a
        # function, names always counted as used, a % at the end of a format,
        # PYFLAKES_BUILTINS; and a reader that has gone
        # before pyflakes writes (its SIGPIPE handler exits quietly with status 1; the
        # interpreter's own message names addresses, so only a traceback is counted).
        ("extra", ["pyflakes extra/forks.py", "pyflakes extra/rel",
                   "pyflakes extra/rebinding.py extra/star.py extra/annotated.py",
                   "PYFLAKES_BUILTINS=Undefined1,Undefined4 pyflakes extra/rebinding.py",
                   "{ until [ -e gone ]; do sleep 0.05; done; pyflakes extra/forks.py 2>err; "
                   "echo \"status=$? tracebacks=$(grep -c Traceback err)\" >&2; rm err; } "
                   "| { exec 0<&-; touch gone; }"], ["names", "imports", "usage"]),
    ]
    cases += special
    out = ["# Functional cases of the pyflakes task: each runs its commands in order, in",
           "# a fresh copy of tests/fixtures/. Timing inputs: [[timing]].",
           "# Generated by make_cases.py.", ""]
    for cid, cmds, covers in cases:
        out += ["[[case]]", f"id = {q(cid)}", "commands = [" + ", ".join(q(c) for c in cmds) + "]",
                "covers = [" + ", ".join(q(c) for c in covers) + "]", ""]
    n = sum(len(c[1]) for c in cases)
    # Timing: pyflakes run once per file, as an editor or a hook runs it.
    out += [
        "[[timing]]", 'id = "per-file-std"', "size = 13",
        "commands = [" + q("for f in std/[a-f]*.py std/_*.py; do pyflakes \"$f\"; done; true") + "]", "",
        "[[timing]]", 'id = "per-file-std-late"', "size = 20",
        "commands = [" + q("for f in std/[p-z]*.py; do pyflakes \"$f\"; done; true") + "]", "",
    ]
    (HERE / "cases.toml").write_text("\n".join(out))
    print(len(cases), "cases,", n, "commands,", 4 * n, "items")


if __name__ == "__main__":
    main()
