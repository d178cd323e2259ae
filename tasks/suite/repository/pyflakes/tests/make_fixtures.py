"""Builds tests/fixtures/ of the pyflakes task (run once by the author; the
result is committed).

snippets/  every source snippet of pyflakes 3.2.0's own test suite (the string
           literal passed first to self.flakes(...) in pyflakes/test/test_*.py,
           MIT, as pyflakes), one file per snippet, MODULE_NNN.py.
std/       43 modules of CPython 3.11's standard library, unchanged (PSF-2.0,
           std/LICENSE.txt).
misc/      small files written for this task: encodings, syntax errors, null
           bytes, a script without the .py suffix, files that are not Python.
"""

from __future__ import annotations

import ast
import shutil
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "fixtures"
STDLIB = Path("/usr/lib/python3.11")
STD = """ntpath trace fractions uuid contextlib _strptime calendar pprint site telnetlib
profile wave weakref base64 asyncore textwrap sunau posixpath fileinput cmd shlex lzma
stringprep bz2 hashlib queue tabnanny code opcode numbers types mailcap _compat_pickle
glob py_compile hmac zipapp sndhdr _threading_local netrc sched colorsys keyword""".split()


def snippets(test_dir: Path) -> None:
    out = OUT / "snippets"
    out.mkdir(parents=True)
    for path in sorted(test_dir.glob("test_*.py")):
        module = path.stem[len("test_"):]
        tree = ast.parse(path.read_text())
        n = 0
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "flakes" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                n += 1
                code = textwrap.dedent(node.args[0].value)
                (out / f"{module}_{n:03d}.py").write_text(code)


MISC = {
    "latin1_cookie.py": b"# -*- coding: latin-1 -*-\ns = '\xe9t\xe9'\nimport os\n",
    "latin1_nocookie.py": b"s = '\xe9t\xe9'\nimport os\n",
    "bom.py": "\ufeffimport os\nx = undefined\n".encode("utf-8"),
    "crlf.py": b"import os\r\nimport sys\r\nprint(sys)\r\n",
    "nullbyte.py": b"x = 1\n\x00\ny = 2\n",
    "syntax.py": b"def f(:\n    pass\n",
    "indent.py": b"def f():\n  x = 1\n    y = 2\n",
    "eof.py": b"x = (1,\n",
    "empty.py": b"",
    "script": b"#!/usr/bin/env python3\nimport os\nprint(undefined_name)\n",
    "script_py2": b"#!/usr/bin/python2\nimport os\n",
    "notes.txt": b"import os\n",
    "shell.sh": b"#!/bin/sh\necho hi\n",
    "unicode_names.py": "caf\u00e9 = 1\nprint(cafe)\n\u00e9t\u00e9 = undefined\n".encode("utf-8"),
    "future.py": b'"""Doc."""\nfrom __future__ import annotations\nimport os\nfrom __future__ import division\n',
    "doctests.py": (b'def f():\n    """\n    >>> import os\n    >>> g(undefined)\n    >>> def h(:\n    """\n'
                    b'\n\nclass C:\n    """\n    >>> x = 1\n    >>> y\n    """\n'),
}


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    snippets(Path(sys.argv[1]))
    (OUT / "std").mkdir()
    for name in STD:
        shutil.copy(STDLIB / f"{name}.py", OUT / "std" / f"{name}.py")
    shutil.copy(STDLIB / "LICENSE.txt", OUT / "std" / "LICENSE.txt")
    misc = OUT / "misc"
    misc.mkdir()
    for name, data in MISC.items():
        (misc / name).write_bytes(data)
    tree = OUT / "tree" / "pkg"
    (tree / "sub").mkdir(parents=True)
    (tree / "__init__.py").write_text("from .mod import *\n")
    (tree / "mod.py").write_text("import os\n__all__ = ['missing']\n")
    (tree / "sub" / "deep.py").write_text("def f():\n    x = 1\n")
    (tree / "sub" / "run").write_text("#!/usr/bin/env python\nimport sys\n")
    (tree / "README").write_text("not python\n")


if __name__ == "__main__":
    main()
