"""Python source inspection: imports, aliases, escape hatches, native code."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_support import quick_task
from frontier_measure import runners
from frontier_measure.compliance.python import inspect
from frontier_measure.runners.module import Compliance
from frontier_measure.task import TaskError

RULES = Compliance(allowed_imports=["collections", "os.path", "re"],
                   prohibited_calls=["time.sleep", "functools.lru_cache"], allow=[])


def check(tmp_path: Path, source: str, rules: Compliance = RULES, name: str = "mod.py"):
    (tmp_path / name).write_text(source)
    return inspect(tmp_path, rules)


def rules_of(findings):
    return [(f.rule, f.line) for f in findings]


def test_clean_code_passes(tmp_path):
    src = ("import collections\nfrom collections import Counter as C\nimport os.path\n"
           "import re\nfrom . import helper\n\ndef f(x):\n    return C(x), os.path.join('a')\n")
    (tmp_path / "helper.py").write_text("from mod import f\n")
    assert check(tmp_path, src) == []


@pytest.mark.parametrize("src,rule,line", [
    ("import numpy\n", "forbidden-import", 1),
    ("\nfrom numpy.linalg import norm\n", "forbidden-import", 2),
    ("import os\n", "forbidden-import", 1),  # only os.path is permitted
    ("import importlib\n", "escape-hatch", 1),
    ("import ctypes as c\n", "escape-hatch", 1),
    ("from subprocess import run\n", "escape-hatch", 1),
    ("import threading\n", "escape-hatch", 1),
    ("from concurrent.futures import ThreadPoolExecutor\n", "escape-hatch", 1),
    ("import multiprocessing.pool\n", "escape-hatch", 1),
    ("x = __import__('re')\n", "escape-hatch", 1),
    ("eval('1')\n", "escape-hatch", 1),
    ("f = exec\n", "escape-hatch", 1),
    ("code = compile('1', 'f', 'eval')\n", "escape-hatch", 1),
    ("import builtins\nbuiltins.eval('1')\n", "escape-hatch", 2),
    ("import frontier_measure\n", "escape-hatch", 1),
    ("name = 'frontier_measure.worker'\n", "escape-hatch", 1),
    ("import gc\ngc.disable()\n", "escape-hatch", 1),
    ("import signal\n", "escape-hatch", 1),
    ("def f(:\n", "syntax-error", 1),
])
def test_violations_name_file_line_and_rule(tmp_path, src, rule, line):
    found = check(tmp_path, src)
    assert (rule, line) in rules_of(found), found
    assert all(f.file == "mod.py" for f in found)


def test_calls_resolved_through_aliases(tmp_path):
    rules = Compliance(allowed_imports=["os", "time", "functools"],
                       prohibited_calls=["time.sleep", "functools.lru_cache"])
    src = ("import os as o\nimport time as t\nfrom time import sleep as nap\n"
           "from functools import lru_cache\n"
           "o.system('ls')\nt.sleep(1)\nnap(2)\nrun = o.popen\n"
           "getattr(o, 'system')('x')\ngetattr(o, name)\n@lru_cache\ndef f(): pass\n")
    found = rules_of(check(tmp_path, src, rules))
    assert ("escape-hatch", 5) in found  # os.system through the alias
    assert ("prohibited-call", 6) in found  # time.sleep through the alias
    assert ("prohibited-call", 3) in found  # from time import sleep
    assert ("prohibited-call", 7) in found  # nap() is time.sleep
    assert ("escape-hatch", 8) in found  # a reference, not a call
    assert ("escape-hatch", 9) in found  # getattr with a constant name
    assert ("escape-hatch", 10) in found  # getattr with a computed name
    assert ("prohibited-call", 4) in found and ("prohibited-call", 11) in found
    assert ("escape-hatch", 5) in found
    assert sum(1 for r, ln in found if ln == 1) == 0  # `import os` itself is permitted


def test_allowed_escape_hatches(tmp_path):
    rules = Compliance(allowed_imports=[], allow=["threading", "exec"])
    assert check(tmp_path, "import threading\nexec('x = 1')\n", rules) == []


def test_local_names_shadow_nothing_builtin(tmp_path):
    # A local function named like a module function is not the module's.
    src = "def system(x):\n    return x\n\nsystem('ls')\n"
    assert check(tmp_path, src) == []


def test_native_files_are_flagged_and_caches_are_not_candidate_code(tmp_path):
    (tmp_path / "fast.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF....")
    (tmp_path / "blob.bin").write_bytes(b"\x7fELF\x02\x01")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\x00" * 16)
    (tmp_path / "__pycache__" / "evil.py").write_text("import ctypes\n")
    found = {(f.file, f.rule) for f in inspect(tmp_path, RULES)}
    assert found == {("fast.cpython-311-x86_64-linux-gnu.so", "native-code"),
                     ("blob.bin", "native-code")}
    # __pycache__ is never copied for a side, so never run: not inspected either.
    allowed = Compliance(allow=["native"])
    assert inspect(tmp_path, allowed) == []


def test_excluded_paths_are_not_candidate_code(tmp_path):
    (tmp_path / "lib.py").write_text("x = 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_lib.py").write_text("import pytest\nimport subprocess\n")
    assert len(inspect(tmp_path, RULES)) == 2
    assert inspect(tmp_path, Compliance(allowed_imports=RULES.allowed_imports,
                                        exclude=["tests/"])) == []


def test_symlink_out_of_the_candidate(tmp_path):
    outside = tmp_path / "outside.py"
    outside.write_text("x = 1\n")
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "link.py").symlink_to(outside)
    found = inspect(cand, RULES)
    assert [f.rule for f in found] == ["symlink-escape"]


def test_every_file_of_a_package_is_inspected(tmp_path):
    pkg = tmp_path / "pkg" / "sub"
    pkg.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("from .sub import deep\n")
    (pkg / "__init__.py").write_text("")
    (pkg / "deep.py").write_text("import re\n\n\nimport ctypes\n")
    found = inspect(tmp_path, RULES)
    assert [(f.file, f.line, f.rule) for f in found] == [("pkg/sub/deep.py", 4, "escape-hatch")]
    assert "pkg/sub/deep.py:4: [escape-hatch]" in str(found[0])


@pytest.mark.parametrize("src,rule", [
    # builtins reached by subscript, vars() or globals()
    ("f = __builtins__['__import__']\n", "escape-hatch"),
    ("import builtins\nrun = vars(builtins)['exec']\n", "escape-hatch"),
    ("b = globals()['__builtins__']['eval']\n", "escape-hatch"),
    ("e = __builtins__.__dict__['eval']\n", "escape-hatch"),
    # a module reached as an attribute of another
    ("import os.path\ns = os.path.os.system\n", "module-via-attribute"),
    ("import re\nx = re.sys\n", "module-via-attribute"),
    ("import collections\nx = collections._sys.modules\n", "module-via-attribute"),
    # a computed name in a module's namespace
    ("import os\nk = 'fo' + 'rk'\nvars(os)[k]()\n", "escape-hatch"),
    ("import os\nos.__dict__['sys' + 'tem']('x')\n", "escape-hatch"),
])
def test_evasions_are_resolved(tmp_path, src, rule):
    assert rule in [f.rule for f in check(tmp_path, src)]


def test_source_is_read_as_python_reads_it(tmp_path):
    # Under a UTF-7 coding cookie "+AAo-" is a newline: Python runs the import
    # that an inspector reading UTF-8 would take for part of a comment.
    (tmp_path / "mod.py").write_bytes(b"# -*- coding: utf-7 -*-\n# hidden +AAo-import ctypes\n")
    assert ("escape-hatch", 3) in rules_of(inspect(tmp_path, RULES))


def test_a_symlinked_directory_leading_outside_is_flagged(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.py").write_text("import ctypes\n")
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "mod.py").write_text("x = 1\n")
    (cand / "pkg").symlink_to(outside, target_is_directory=True)
    assert [(f.file, f.rule) for f in inspect(cand, RULES)] == [("pkg", "symlink-escape")]


def test_a_module_named_like_the_standard_librarys_is_flagged(tmp_path):
    (tmp_path / "json.py").write_text("x = 1\n")
    (tmp_path / "random").mkdir()
    (tmp_path / "random" / "__init__.py").write_text("")
    found = {(f.file, f.rule) for f in inspect(tmp_path, RULES)}
    assert found == {("json.py", "shadows-stdlib"), ("random/", "shadows-stdlib")}


def test_allowances_at_the_level_of_a_submodule(tmp_path):
    rules = Compliance(allowed_imports=["importlib.resources"])
    assert check(tmp_path, "import importlib.resources\nfrom importlib import resources\n"
                           "resources.files('x')\n", rules) == []
    found = rules_of(check(tmp_path, "import importlib\nimportlib.import_module('ctypes')\n",
                           rules))
    assert ("escape-hatch", 1) in found and ("escape-hatch", 2) in found


def test_dynamic_getattr_on_a_builtin_is_flagged_unless_the_task_accepts_it(tmp_path):
    src = "def f(case):\n    return getattr(str, case)('x')\n"
    [finding] = check(tmp_path, src)
    assert finding.rule == "escape-hatch" and "built-in 'str'" in finding.detail
    assert '"getattr:str"' in finding.detail
    rules = Compliance(allowed_imports=[], allow=["getattr:str"])
    assert check(tmp_path, src, rules) == []
    # Accepting it for str accepts nothing else.
    assert check(tmp_path, "def f(n):\n    return getattr(object, n)\n", rules)


def test_one_exact_shell_command_can_be_permitted(tmp_path):
    # sqlglot 1.0.0 runs os.system('') at import; a task may permit that call only.
    rules = Compliance(allowed_imports=["os"], allow=["os.system('')"])
    assert check(tmp_path, "import os\nos.system('')\n", rules) == []
    for src in ("import os\nos.system('true')\n", "import os\nc = ''\nos.system(c)\n",
                "import os\nrun = os.system\nrun('')\n", "from os import system\nsystem('')\n"):
        assert check(tmp_path, src, rules), src
    assert check(tmp_path, "import os\nos.system('')\n",
                 Compliance(allowed_imports=["os"], allow=[]))


def test_an_exact_call_other_than_os_system_with_a_literal_is_refused(tmp_path):
    task = quick_task(tmp_path, "module", "dedupe")
    chk = task / "tests" / "checklist.toml"
    chk.write_text(chk.read_text().replace("allow = []", "allow = [\"os.popen('ls')\"]"))
    with pytest.raises(TaskError) as err:
        runners.load(task)
    assert "os.popen('ls')" in str(err.value) and "os.system('...')" in str(err.value)


@pytest.mark.parametrize("src,rule,line", [
    # a module's loader runs any file as code (the hidden-file attack: a .txt loaded by path)
    ("m = type(__loader__)('x', '//work/side/NOTES.txt').load_module()\n",
     "import-machinery", 1),
    ("\nl = __spec__.loader\n", "import-machinery", 2),
    ("import importlib.machinery as m\nm.SourceFileLoader('x', 'p').get_data('p')\n",
     "import-machinery", 2),
    ("def f(loader, path):\n    return loader.get_data(path)\n", "import-machinery", 2),
    ("l = getattr(f, '__load' + 'er__', None) or __loader__\n", "import-machinery", 1),
    # builtins through an alias, as a mapping, or through a built-in function's __self__
    ("_b = __builtins__\n_b['__import__']('os')\n", "builtins-access", 1),
    ("b = __builtins__.get('__import__')\n", "builtins-access", 1),
    ("import builtins\nns = vars(builtins)\n", "builtins-access", 2),
    ("def f(x):\n    return x\nf(__builtins__)\n", "builtins-access", 3),
    ("g = len.__self__.__dict__['__import__']\n", "builtins-access", 1),
    ("g = getattr(len, '__self__')\n", "builtins-access", 1),
    ("def f(fn):\n    return fn.__globals__['__builtins__']\n", "builtins-access", 2),
    # every class of the process, and from their methods every module's globals
    ("for c in ().__class__.__base__.__subclasses__():\n    pass\n", "subclass-walk", 1),
    ("subs = object.__subclasses__()\n", "subclass-walk", 1),
    ("def f(c):\n    return c.__init__.__globals__\n", "globals-access", 2),
    # frames, tracebacks, generators: the namespaces of whatever runs below
    ("try:\n    1 / 0\nexcept Exception as e:\n    g = e.__traceback__.tb_frame.f_back.f_globals\n",
     "frame-access", 4),
    ("def f(gen):\n    return gen.gi_frame\n", "frame-access", 2),
    ("async def c():\n    pass\nx = c().cr_frame\n", "frame-access", 3),
    ("import operator\nget = operator.attrgetter('f_locals')\n", "frame-access", 2),
    ("def f(fr):\n    return fr.f_builtins\n", "frame-access", 2),
    ("name = 'f_globals'\n", "frame-access", 1),
])
def test_ways_into_the_interpreters_internals(tmp_path, src, rule, line):
    found = rules_of(check(tmp_path, src, Compliance(allowed_imports=["importlib", "builtins",
                                                                      "operator"])))
    assert (rule, line) in found, found


def test_uses_of_internals_that_lead_nowhere_pass(tmp_path):
    # Bundled libraries do these: a builtin read by a literal name, a type
    # check of __builtins__, the subclasses of their own class, counting or
    # naming frames (f_back, f_code), YAML's loader.get_data().
    src = ("import sys\nif not hasattr(__builtins__, 'cmp'):\n    pass\n"
           "ok = isinstance(__builtins__, dict)\nx = __builtins__['len']\n"
           "class Block:\n    pass\nkinds = [c for c in Block.__subclasses__()]\n"
           "def depth():\n    f = sys._getframe(1)\n    n = 0\n"
           "    while f:\n        f = f.f_back\n        n += 1\n    return n, sys._getframe().f_code\n"
           "def data(loader):\n    return loader.get_data()\n")
    assert check(tmp_path, src, Compliance(allowed_imports=["sys"])) == []


def test_internals_a_task_accepts(tmp_path):
    src = "l = __spec__.name\ns = len.__self__\n"
    assert check(tmp_path, src)
    assert check(tmp_path, src, Compliance(allow=["__spec__", "__self__"])) == []
