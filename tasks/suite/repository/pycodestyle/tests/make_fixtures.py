"""Builds tests/fixtures/ of the pycodestyle task (run once by the author;
the result is committed).

examples/  every example of pycodestyle 2.12.1's check docstrings ("Okay: ..."
           and "E225: ..." lines, the ones its own self-test runs), one file
           per example, named CODE_N.py (MIT, as pycodestyle).
std/       43 modules of CPython 3.11's standard library, unchanged (PSF-2.0,
           std/LICENSE.txt), as real code of many styles.
misc/      small files written for this task: tabs, CRLF, a BOM, Latin-1,
           syntax errors, noqa comments, long lines and docstrings.
proj/      a directory tree with a setup.cfg and a tox.ini for configuration.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "fixtures"
STDLIB = Path("/usr/lib/python3.11")
STD = """ntpath trace fractions uuid contextlib _strptime calendar pprint site telnetlib
profile wave weakref base64 asyncore textwrap sunau posixpath fileinput cmd shlex lzma
stringprep bz2 hashlib queue tabnanny code opcode numbers types mailcap _compat_pickle
glob py_compile hmac zipapp sndhdr _threading_local netrc sched colorsys keyword""".split()
EXAMPLE = re.compile(r"\b(Okay|[EW]\d{3}):\s(.*)")


def examples(pycodestyle_dir: Path) -> None:
    sys.path.insert(0, str(pycodestyle_dir))
    import pycodestyle
    out = OUT / "examples"
    out.mkdir(parents=True)
    counts: dict[str, int] = {}
    for kind in ("physical_line", "logical_line"):
        for check in pycodestyle._checks[kind]:
            for line in (check.__doc__ or "").splitlines():
                m = EXAMPLE.match(line.lstrip())
                if m:
                    code, source = m.groups()
                    counts[code] = counts.get(code, 0) + 1
                    text = "".join(p.replace(r"\t", "\t") + "\n" for p in source.split(r"\n"))
                    (out / f"{code}_{counts[code]}.py").write_text(text)


MISC = {
    "tabs.py": "if True:\n\tx = 1\n\tif x:\n\t\ty = 2\n        z = 3\n\t    w = 4\n",
    "mixed_indent.py": "def f():\n    a = 1\n\tb = 2\n    return a\n",
    "crlf.py": "import os\r\nimport sys\r\n\r\n\r\ndef f( a ):\r\n    return a+1 \r\n",
    "bom.py": "\ufeffimport os\nx=1\n",
    "latin1.py": b"# -*- coding: latin-1 -*-\ns = '\xe9t\xe9'  # caf\xe9\nt=1\n",
    "syntax_error.py": "def f(:\n    pass\n",
    "bad_indent.py": "def f():\n  return 1\n    x = 2\n",
    "unterminated.py": "x = (1,\n     2\n",
    "no_newline.py": "x = 1\ny = 2",
    "trailing_blank.py": "x = 1\n\n\n\n",
    "noqa.py": ("import os, sys  # noqa\nx=1  # noqa: E225\ny=2  # NOQA:E225,E261\n"
                "z=3 # noqa:W291\nurl = 1  # http://example.com/" + "a" * 90 + "\n"
                "# http://example.com/" + "b" * 90 + "\n"),
    "long_lines.py": ("def f():\n    '''" + "doc " * 30 + "'''\n    x = '" + "v" * 100 +
                      "'\n    # " + "c" * 85 + "\n    return x\n\n\n" +
                      "s = '''\n" + "m" * 90 + "\n'''\n"),
    "escapes.py": "import re\np = re.compile('\\d+\\.\\s')\nq = r'\\d'\nb = b'\\q'\nf = f'\\w{p}'\n",
    "fstrings.py": "x = 1\ny = f'{x}'\nz = f'{x!r:>{10}}'\nw = f'''{x}\n{y}'''\nv = f'{x=}'\n",
    "walrus.py": "if (n:=10) > 5:\n    pass\nif (m := 3):\n    pass\nprint(a:=1)\n",
    "decorators.py": "@property\ndef f():\n    pass\n@staticmethod\n\ndef g():\n    pass\n",
    "classes.py": ("class A:\n    def f(self):\n        pass\n    def g(self):\n        pass\n\n\n\n"
                   "class B(A):\n\n\n    x = 1\n    async def h(self):\n        await self.f()\n"),
    "lambdas.py": "f = lambda x: 2 * x\ng: object = lambda: 0\nh = (lambda: 1)\n",
    "comparisons.py": ("if x == None:\n    pass\nif None != x:\n    pass\nif x == True:\n    pass\n"
                       "if not x in y:\n    pass\nif not x is y:\n    pass\nif type(a) == type(b):\n"
                       "    pass\ntry:\n    pass\nexcept:\n    pass\n"),
    "operators.py": ("a = b+c\na = b  + c\na = b +  c\na = -1\na = b**-c\na = b if c else-d\n"
                     "x = y[1 :2]\nz = {'a' : 1}\nprint(a , b)\ndef f(a, *, b=1, **kw): pass\n"
                     "def g(a: int=1) -> int: return a\nh = i @ j\nk = l>>m\n"),
    "continuation.py": ("result = some_function(\n    arg1,\n        arg2)\nfoo = long_function_name(var_one, var_two,\n"
                        "    var_three, var_four)\nmy_list = [\n    1, 2, 3,\n    4, 5, 6,\n    ]\n"
                        "income = (gross_wages +\n          taxable_interest)\nincome = (gross_wages\n"
                        "          + taxable_interest)\nx = 1 + \\\n    2\nif (a and\n    b):\n    pass\n"),
    "empty.py": "",
    "only_comments.py": "#!/usr/bin/env python\n#comment\n#: E265\n##double\n",
    "semicolons.py": "import os; import sys\nx = 1;\nif x: y = 2\nwhile x: x -= 1\nclass C: pass\n",
    "imports.py": "'''Doc.'''\nimport os\nx = 1\nimport sys\nfrom a import (b,\n    c)\nif x:\n    import re\n",
    "identifiers.py": "l = 1\nO = 2\nI = 3\ndef l():\n    pass\nclass I:\n    pass\nfor l in x:\n    pass\nwith a as l:\n    pass\nlambda l: l\n",
}

CFG = {
    "proj/setup.cfg": "[pycodestyle]\nmax-line-length = 60\nignore = E226,W503\nstatistics = True\n",
    "proj/pkg/mod.py": "x=1\ny = 2*3\nz = '" + "q" * 70 + "'\n",
    "proj/pkg/sub/deep.py": "def f( a ):\n  return a\n",
    "proj/pkg/skip_me.py": "x=1\n",
    "proj/pkg/notes.txt": "x=1\n",
    "other/tox.ini": "[pycodestyle]\nselect = E2,W2\nmax-line-length = 100\nexclude = gen\n",
    "other/a.py": "x=1  \ny = 2\t\n\tz=3\n",
    "other/gen/b.py": "x=1\n",
    "custom.cfg": "[pycodestyle]\nselect = E1,E3,W1,W3\nhang-closing = True\nindent-size = 2\n",
    "bad.cfg": "[pycodestyle]\nmax-line-length = 100\nnot-an-option = 1\n",
    "change.diff": ("--- a/std/textwrap.py\n+++ b/std/textwrap.py\n@@ -60,7 +60,7 @@\n"
                    " x\n-y\n+y\n z\n@@ -200,4 +200,30 @@ class TextWrapper:\n"
                    "--- a/misc/operators.py\n+++ b/misc/operators.py\n@@ -1,5 +1,5 @@\n"),
}


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    examples(Path(sys.argv[1]))
    (OUT / "std").mkdir()
    for name in STD:
        shutil.copy(STDLIB / f"{name}.py", OUT / "std" / f"{name}.py")
    shutil.copy(STDLIB / "LICENSE.txt", OUT / "std" / "LICENSE.txt")
    (OUT / "misc").mkdir()
    for name, text in MISC.items():
        p = OUT / "misc" / name
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_bytes(text.encode("utf-8"))
    for name, text in CFG.items():
        p = OUT / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


if __name__ == "__main__":
    main()
