"""Writes tests/cases.toml of the pycodestyle task (run once by the author;
the result is committed). Each command gives four items (exit code, stdout,
stderr, the files of the working directory)."""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIX = HERE / "fixtures"

# Options cycled over the example groups and the standard-library modules, so
# that every option meets many different reports.
VARIANTS = [
    "--show-source", "--show-pep8", "--format=pylint", "--first", "--hang-closing",
    "--indent-size=2", "--statistics", "--count", "--max-line-length=40",
    "--max-doc-length=30", "--select=E,W", "--ignore=E2", "--ignore=", "--select=W",
    "--format='%(path)s|%(row)d|%(col)d|%(code)s|%(text)s'", "-q", "-qq --statistics",
    "--statistics --count --first", "--max-line-length=120 --max-doc-length=72",
    "--select=E1,E5,W6 --show-source", "--ignore=E501,W291 --format=pylint",
    "--hang-closing --indent-size=8", "--show-pep8 --first", "--count -qq",
]
PHYSICAL = {"E101", "W191", "W291", "W293", "W391", "E501", "W292", "W605"}


def q(s: str) -> str:
    return json.dumps(s)


def main() -> None:
    cases: list[tuple[str, list[str], list[str]]] = []
    codes = sorted({p.name.split("_")[0] for p in (FIX / "examples").iterdir()})
    k = 0
    for code in codes:
        if code == "Okay":
            continue
        loud = [v for v in VARIANTS if "-q" not in v]
        v = loud[k % len(loud)]
        k += 1
        cover = "physical" if code in PHYSICAL else "logical"
        cases.append((f"examples-{code}", [f"pycodestyle {v} examples/{code}_*.py"], [cover]))
    okay = sorted((FIX / "examples").glob("Okay_*.py"), key=lambda p: int(p.stem.split("_")[1]))
    for i in range(0, len(okay), 10):
        names = " ".join(f"examples/{p.name}" for p in okay[i:i + 10])
        v = VARIANTS[k % len(VARIANTS)]
        k += 1
        cases.append((f"examples-okay-{i // 10}", [f"pycodestyle {names}",
                                                  f"pycodestyle {v} {names}"], ["logical"]))
    for p in sorted((FIX / "std").glob("*.py")):
        v = VARIANTS[k % len(VARIANTS)]
        k += 1
        cases.append((f"std-{p.stem}", [f"pycodestyle std/{p.name}",
                                        f"pycodestyle {v} std/{p.name}"], ["real_code"]))
    for p in sorted((FIX / "misc").iterdir()):
        v = VARIANTS[k % len(VARIANTS)]
        k += 1
        cover = {"bom.py": "encodings", "crlf.py": "encodings", "latin1.py": "encodings",
                 "empty.py": "encodings", "noqa.py": "noqa", "syntax_error.py": "errors",
                 "unterminated.py": "errors", "bad_indent.py": "errors",
                 "tabs.py": "physical", "mixed_indent.py": "physical",
                 "no_newline.py": "physical", "trailing_blank.py": "physical",
                 "long_lines.py": "physical", "escapes.py": "logical",
                 "posonly.py": "logical", "dangling_decorator.py": "errors",
                 "double_colon.py": "errors", "bom_latin1.py": "encodings",
                 "boundaries.py": "physical", "shebang_docs.py": "physical"}.get(p.name, "logical")
        cases.append((f"misc-{p.stem}", [f"pycodestyle misc/{p.name}",
                                         f"pycodestyle {v} misc/{p.name}"], [cover]))
    special = [
        ("formats-all", ["pycodestyle --format=default misc/operators.py",
                         "pycodestyle --format=pylint --show-source misc/operators.py",
                         "pycodestyle --format='%(code)s at %(row)d' misc/operators.py",
                         "pycodestyle --show-pep8 --show-source misc/classes.py"], ["formats"]),
        ("quiet", ["pycodestyle -q misc std/glob.py", "pycodestyle -qq misc; echo status=$?",
                   "pycodestyle -q examples/Okay_1.py; echo status=$?"], ["formats", "counting"]),
        ("counting", ["pycodestyle --statistics -qq std", "pycodestyle --count std/hmac.py",
                      "pycodestyle --total --count misc", "pycodestyle --statistics --count misc"],
         ["counting"]),
        ("clean-file", ["pycodestyle examples/Okay_1.py examples/Okay_2.py; echo status=$?",
                        "pycodestyle --count examples/Okay_3.py"], ["counting"]),
        ("select-ignore", ["pycodestyle --select=E501 std/calendar.py",
                           "pycodestyle --ignore=E501,E2,W misc",
                           "pycodestyle --select=E2 --ignore=E225 misc/operators.py",
                           "pycodestyle --select=W503,W504 examples misc",
                           "pycodestyle --ignore=W503 examples/W503_*.py examples/W504_*.py"],
         ["selection"]),
        ("first", ["pycodestyle --first misc", "pycodestyle --first --select=E,W misc"],
         ["selection"]),
        ("line-lengths", ["pycodestyle --max-line-length=20 misc/long_lines.py misc/noqa.py",
                          "pycodestyle --max-doc-length=20 misc/long_lines.py std/colorsys.py",
                          "pycodestyle --max-line-length=200 std/stringprep.py"], ["selection"]),
        ("hang-indent", ["pycodestyle --hang-closing misc/continuation.py",
                         "pycodestyle --indent-size=2 misc/bad_indent.py misc/continuation.py",
                         "pycodestyle --indent-size=3 std/keyword.py"], ["selection"]),
        ("noqa-codes", ["pycodestyle --select=E,W misc/noqa.py",
                        "pycodestyle --max-line-length=30 misc/noqa.py"], ["noqa"]),
        ("dirs", ["pycodestyle proj/pkg", "pycodestyle other", "pycodestyle misc proj other"],
         ["paths"]),
        ("exclude", ["pycodestyle --exclude=skip_me.py proj/pkg",
                     "pycodestyle --exclude='sub,*.txt' proj",
                     "pycodestyle --exclude=misc misc std/glob.py"], ["paths"]),
        ("filename", ["pycodestyle --filename='*.txt' proj/pkg",
                      "pycodestyle --filename='deep*,mod.py' proj",
                      "pycodestyle --filename='E7*' examples"], ["paths"]),
        ("same-file-twice", ["pycodestyle misc/operators.py misc/operators.py"], ["paths"]),
        ("stdin", ["pycodestyle - < misc/operators.py", "cat std/glob.py | pycodestyle -",
                   "printf 'x=1\\n' | pycodestyle --format=pylint -",
                   "pycodestyle - misc/tabs.py < misc/crlf.py"], ["stdin"]),
        ("diff", ["pycodestyle --diff < change.diff",
                  "pycodestyle --diff --show-source < change.diff",
                  "printf '' | pycodestyle --diff; echo status=$?"], ["diff"]),
        ("config-project", ["cd proj && pycodestyle pkg", "pycodestyle proj/pkg",
                            "cd other && pycodestyle .", "cd proj/pkg && pycodestyle mod.py"],
         ["config"]),
        ("config-file", ["pycodestyle --config=custom.cfg misc",
                         "pycodestyle --config=bad.cfg misc/long_lines.py",
                         "pycodestyle --config=nope.cfg misc/operators.py"], ["config"]),
        ("errors", ["pycodestyle nope.py", "pycodestyle misc nope", "pycodestyle --max-line-length=x misc",
                    "pycodestyle --indent-size=two misc", "pycodestyle --no-such-option misc",
                    "pycodestyle", "pycodestyle --version"], ["errors"]),
        ("unreadable", ["chmod 000 misc/operators.py && pycodestyle misc/operators.py misc/walrus.py; echo status=$?"],
         ["errors"]),
        ("help", ["pycodestyle --help", "pycodestyle -h misc | head -3"], ["errors"]),
        # -v names each file and directory, -vv adds each logical line, -vvv each
        # token, -vvvv each check run (none print the sandbox's path here).
        ("verbose", ["pycodestyle -v misc/walrus.py proj", "pycodestyle -vv misc/operators.py",
                     "pycodestyle -vvv misc/lambdas.py misc/posonly.py",
                     "pycodestyle -vvvv --select=E2 misc/classes.py", "pycodestyle -r -v -q misc"],
         ["formats"]),
        # Elapsed time and rates vary; the totals do not.
        ("benchmark", ["pycodestyle --benchmark -qq misc std/glob.py | sed -n 's/^[0-9.]* *//p'"],
         ["counting"]),
        # Written for the task where mutation testing found behaviour no other case
        # pins down: a visual indent after `with`, a group of one-line defs after
        # an indented block, a decorator at the end of a file, a backslash between
        # brackets on a line after one, comments inside a broken operator
        # expression, a user configuration (XDG_CONFIG_HOME, a relative path so
        # that -v names the same file every time), a shebang and a #! comment
        # past the doc length, escapes on the second line of a string, lengths at
        # the limits, ambiguous names after brackets, soft keywords, one-space
        # indents, options spelt with underscores, a [pep8] section, and a diff
        # whose hunks are well formed (change.diff's are not: its second hunk
        # swallows the rest, so it selects no line with a report).
        ("mutation-found", ["pycodestyle --select=E,W --ignore= misc/with_continuation.py "
                            "misc/one_liners.py misc/dangling_decorator.py misc/backslash.py",
                            "pycodestyle --select=W503,W504 misc/comment_breaks.py",
                            "XDG_CONFIG_HOME=xdg pycodestyle misc/long_lines.py",
                            "XDG_CONFIG_HOME=xdg pycodestyle -v misc/long_lines.py",
                            "pycodestyle --max-doc-length=30 misc/shebang_docs.py",
                            "pycodestyle -vvv misc/shebang_docs.py",
                            "pycodestyle --max-line-length=20 --select=E,W misc/boundaries.py",
                            "pycodestyle --select=E,W --ignore= misc/idents.py misc/soft_keywords.py "
                            "misc/escapes2.py misc/one_space.py misc/double_colon.py",
                            "pycodestyle --config=under.cfg misc/long_lines.py",
                            # The warning names the program's own path: only its text.
                            "pycodestyle --config=pep8.cfg misc/long_lines.py 2>&1 "
                            "| sed -n 's/.*UserWarning: //p;/^misc/p'",
                            "pycodestyle - < misc/bom.py", "pycodestyle --diff < good.diff",
                            "pycodestyle --diff --select=E3 --show-source < good.diff"],
         ["logical", "config"]),
        ("encodings-all", ["pycodestyle misc/bom.py misc/crlf.py misc/latin1.py misc/empty.py",
                           "pycodestyle --show-source misc/crlf.py misc/bom.py"], ["encodings"]),
        # --statistics shows each code's first message, and the order of the
        # subdirectories is the file system's (pycodestyle sorts a copy of
        # os.walk's list): the files, sorted, make it the same everywhere.
        ("whole-tree", ["pycodestyle --statistics -qq $(find . -name '*.py' | LC_ALL=C sort)",
                        "pycodestyle --count --select=E9 ."],
         ["counting"]),
    ]
    cases += special
    out = ["# Functional cases of the pycodestyle task: each runs its commands in order, in",
           "# a fresh copy of tests/fixtures/. Timing inputs: [[timing]], data made by `setup`.",
           "# Generated by make_cases.py.", ""]
    for cid, cmds, covers in cases:
        out += ["[[case]]", f"id = {q(cid)}", "commands = [" + ", ".join(q(c) for c in cmds) + "]",
                "covers = [" + ", ".join(q(c) for c in covers) + "]", ""]
    n = sum(len(c[1]) for c in cases)
    out += [
        "[[timing]]", 'id = "std-all"', "size = 43",
        'commands = ["pycodestyle std || [ $? -eq 1 ]"]', "",
        "[[timing]]", 'id = "std-half"', "size = 21",
        'commands = ["pycodestyle --statistics -qq --max-line-length=100 std/[a-m]*.py std/_*.py || [ $? -eq 1 ]"]', "",
    ]
    (HERE / "cases.toml").write_text("\n".join(out))
    print(len(cases), "cases,", n, "commands,", 4 * n, "items")


if __name__ == "__main__":
    main()
