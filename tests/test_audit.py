"""The candidate's run-time audit hook (cpp/bindings/bind_audit.cpp, installed
by worker.install_policy): whose code a frame runs is decided by provenance,
not by how its file name is spelled; and the worker's own code is out of the
candidate's sight and sealed against change.

Each test imports a small candidate in a fresh worker process, as a `load`
request would, and reads the hook's report (exit status 86, one JSON line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from frontier_measure.worker import VIOLATION_EXIT

# Loads the candidate the way the worker's `load` request does, then checks
# the seal the way the worker's main loop does between requests.
# (In a function, as the worker's main is: the seal takes the evaluator's
# names out of __main__.)
DRIVER = """
import json, sys
sys.dont_write_bytecode = True  # as the worker: nothing a loader compiles is cached anywhere
def drive():
    from frontier_measure import _core
    from frontier_measure.worker import Worker
    root, allowed, hatches = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    extra = json.loads(sys.argv[4])
    # A library directory of the test's, on sys.path before the hook is installed
    # (as the worker's site directories are).
    sys.path[:0] = extra.pop("library_dirs", [])
    intact = _core.verify_sealed
    w = Worker()
    reply = w.handle({"cmd": "load", "root": root, "entry": "cand",
                      "policy": {"root": root, "allowed": ["__future__", "cand", *allowed],
                                 "hatches": [h for h in hatches if h],
                                 "write_roots": [root, "/tmp"], **extra}})
    intact()
    print("REPLY", reply)
drive()
"""


def run(tmp_path: Path, files: dict[str, str], allowed: list[str] = (), hatches: list[str] = (),
        **policy) -> tuple[int, dict | None, str]:
    root = tmp_path / "side"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    r = subprocess.run([sys.executable, "-I", "-B", "-c", DRIVER, str(root), ",".join(allowed),
                        ",".join(hatches), json.dumps(policy, default=str)], cwd=root,
                       capture_output=True, text=True, timeout=120)
    report = next((json.loads(line) for line in reversed(r.stderr.splitlines())
                   if line.startswith('{"event"')), None)
    return r.returncode, report, r.stdout + r.stderr


def caught(result, event: str, rule: str) -> dict:
    code, report, out = result
    assert code == VIOLATION_EXIT and report is not None, out
    assert report["event"].startswith(event) and rule in report["rule"], report
    return report


def passes(result) -> None:
    code, report, out = result
    assert code == 0 and report is None and "REPLY {'ok': True}" in out, out


def test_libraries_the_task_permits_import_what_they_need(tmp_path):
    # json, logging, doctest ... import modules the task does not list: theirs, not the candidate's.
    src = ("import json, logging, doctest, dataclasses, collections, typing\n"
           "@dataclasses.dataclass\nclass P:\n    x: int = 0\n\nP()\n"
           "collections.namedtuple('T', 'a b')(1, 2)\njson.dumps({'a': [1]})\n")
    passes(run(tmp_path, {"cand.py": src},
               allowed=["json", "logging", "doctest", "dataclasses", "collections", "typing"]))


def test_numpy_imports_its_own_parts(tmp_path):
    pytest.importorskip("numpy")
    passes(run(tmp_path, {"cand.py": "import numpy\nnumpy.arange(4).sum()\n"}, allowed=["numpy"]))


def test_an_unpermitted_import_by_the_candidate(tmp_path):
    caught(run(tmp_path, {"cand.py": "import ctypes\n"}), "import", "does not permit")


@pytest.mark.parametrize("spelling", [
    '"/" + _here + "/NOTES.txt"',            # //work/side/NOTES.txt
    '_here + "/./NOTES.txt"',
    '_here + "/../side/NOTES.txt"',
    '_link + "/NOTES.txt"',                  # a link in /tmp to the candidate's directory
])
def test_a_file_loaded_by_a_loader_is_the_candidates_in_any_spelling(tmp_path, spelling):
    # The attack as found: a hidden file, not a .py, loaded by the candidate's
    # own loader's class under a path spelled so it is not "below the root".
    src = ("import os\n_here = __file__.rsplit('/', 1)[0]\n"
           "_link = '/tmp/' + os.path.basename(os.path.dirname(_here)) + '-link'\n"
           "if not os.path.islink(_link):\n    os.symlink(_here, _link)\n"
           f"type(__loader__)('notes', {spelling}).load_module()\n")
    try:
        report = caught(run(tmp_path, {"cand.py": src, "NOTES.txt": "import ctypes\n"},
                            allowed=["os"]), "import", "does not permit")
    finally:
        Path(f"/tmp/{tmp_path.name}-link").unlink(missing_ok=True)
    assert "NOTES.txt:1 in <module>" in report["stack"][0]


def test_code_compiled_under_a_library_files_name_is_the_candidates(tmp_path):
    # exec is permitted here; the code claims to be json's.
    src = "import json\nexec(compile('import ctypes', json.__file__, 'exec'))\n"
    caught(run(tmp_path, {"cand.py": src}, allowed=["json"], hatches=["exec"]),
           "import", "does not permit")


def test_a_code_objects_file_name_rewritten_is_still_the_candidates(tmp_path):
    # _imp._fix_co_filename rewrites co_filename in place, with no audit event.
    src = ("import _imp, json\n"
           "def f():\n    import ctypes\n"
           "_imp._fix_co_filename(f.__code__, json.__file__)\n"
           "assert f.__code__.co_filename == json.__file__\nf()\n")
    caught(run(tmp_path, {"cand.py": src}, allowed=["json"]), "import", "does not permit")


def test_code_claiming_to_be_the_import_machinery_hides_nothing(tmp_path):
    # A function named as frozen importlib code, between the candidate and a
    # write: were it taken for the import machinery, the write would be "not
    # started by the candidate".
    src = ("import _imp\n"
           "def g():\n    open('/proc/fm-test/x', 'w')\n"
           "_imp._fix_co_filename(g.__code__, '<frozen importlib._bootstrap>')\ng()\n")
    caught(run(tmp_path, {"cand.py": src}), "open", "writing outside")


def test_a_loader_serving_its_own_bytes_for_a_library_file(tmp_path):
    # A loader subclass whose get_data returns the candidate's source for the
    # path of a real standard-library file.
    src = ("import json\n"
           "class L(type(__loader__)):\n"
           "    def get_data(self, path):\n        return b'import ctypes\\n'\n"
           "L('json2', json.__file__).load_module()\n")
    caught(run(tmp_path, {"cand.py": src}, allowed=["json"]), "import", "does not permit")


def test_code_rebuilt_by_hand_with_a_library_file_name(tmp_path):
    src = ("import json\n"
           "def f():\n    import ctypes\n"
           "type(f)(f.__code__.replace(co_filename=json.__file__), {})()\n")
    caught(run(tmp_path, {"cand.py": src}, allowed=["json"], hatches=["code.__new__"]),
           "import", "does not permit")


@pytest.mark.parametrize("path", ["/tmp/../proc/fm-test", "../" * 12 + "proc/fm-test",
                                  "//proc/fm-test"])
def test_writes_are_judged_where_they_land(tmp_path, path):
    caught(run(tmp_path, {"cand.py": f"open({path!r}, 'w')\n"}), "open", "writing outside")


@pytest.mark.parametrize("src", [
    "import os\nos.mkdir('/proc/fm-test')\n",
    "import os\nos.symlink('/tmp', '../' * 12 + 'proc/fm-test')\n",
    "import os\nopen('x', 'w').close()\nos.rename('x', '/proc/fm-test')\n",
    "import os\nos.remove(b'/proc/fm-test')\n",
])
def test_other_changes_to_the_file_system_are_judged_where_they_land(tmp_path, src):
    # (What lies below a library root must stay as the evaluator found it: code
    # is taken for a library's when it equals a file's there.)
    caught(run(tmp_path, {"cand.py": src}, allowed=["os"]), "os.", "writing outside")


def test_writes_in_the_sides_own_directory_pass(tmp_path):
    src = ("open('out.txt', 'w').write('x')\n"
           "import os, shutil, pathlib\nopen(os.getcwd() + '/sub.txt', 'w')\n"
           "pathlib.Path('d/e').mkdir(parents=True)\nopen('d/e/f', 'w').close()\n"
           "os.rename('d/e/f', 'g')\nshutil.rmtree('d')\npathlib.Path('g').unlink()\n")
    passes(run(tmp_path, {"cand.py": src}, allowed=["os", "shutil", "pathlib"]))


def test_the_worker_is_out_of_the_candidates_sight(tmp_path):
    src = ("import sys\n"
           "names = [n for n in sys.modules if n.startswith('frontier' + '_measure.')]\n"
           "assert names == [], names\n"
           "assert not hasattr(sys.modules['frontier' + '_measure'], 'worker')\n")
    passes(run(tmp_path, {"cand.py": src}, allowed=["sys"]))


def test_a_patch_of_the_worker_through_its_frames_ends_it(tmp_path):
    # The worker's frames lie below the candidate's import: a frame's globals
    # are the worker's module. The seal sees the patch.
    src = ("import sys\n"
           "f = sys._getframe()\n"
           "while f is not None and 'Worker' not in f.f_globals:\n    f = f.f_back\n"
           "f.f_globals['Worker'].run = lambda *a, **k: {'digests': []}\n")
    report = caught(run(tmp_path, {"cand.py": src}, allowed=["sys"]),
                    "evaluator.modified", "changed the evaluator's worker")
    assert "Worker.run" in report["args"]


@pytest.mark.parametrize("patch", [
    "g['fast_digest'] = lambda v: ''",                       # a module global
    "g['OPERATIONS']['=='] = lambda a, b: True",             # a table the worker reads
    "g['_compiled'].__code__ = (lambda op: None).__code__",  # a function's code
    "g['os'].write = lambda fd, b: len(b)",                  # a name the worker reads elsewhere
    "import builtins; builtins.isinstance = lambda a, b: True",
])
def test_every_kind_of_patch_is_seen(tmp_path, patch):
    src = ("import sys\n"
           "f = sys._getframe()\n"
           "while f is not None and 'Worker' not in f.f_globals:\n    f = f.f_back\n"
           f"g = f.f_globals\n{patch}\n")
    caught(run(tmp_path, {"cand.py": src}, allowed=["sys", "builtins"]),
           "evaluator.modified", "changed the evaluator's worker")


def test_clocks_of_the_standard_library_are_the_candidates_to_change(tmp_path):
    # What the worker does not read is not sealed (tests/hostile/clock_patch).
    passes(run(tmp_path, {"cand.py": "import time\ntime.perf_counter = lambda: 0.0\n"},
               allowed=["time"]))


# ------------------------------------------------------------ whose import it is
#
# An import counts as the candidate's when the candidate's own code makes it,
# or when a library imports a name it was given on the candidate's behalf
# (laundering: importlib.resources.files("x"), pkgutil.resolve_name("x"),
# pickle's find_class). What a library's own code names -- an import statement
# of its, a part of its own package -- is the library's: permitted, unless the
# task says library_imports = "listed". (ftplib, imaplib: modules nothing in a
# worker has imported before the candidate, so importing them is an event.)

LAZYLIB = {
    "__init__.py": "from .calls import by_name, by_statement, relative, own_part\n",
    "calls.py": ("import importlib\n"
                 "def by_statement():\n    import ftplib\n    return ftplib.FTP\n"
                 "def by_name(name):\n    return __import__(name)\n"
                 "def relative():\n    from . import helpers\n    return helpers\n"
                 "def own_part():\n    return importlib.import_module('lazylib.helpers2')\n"),
    "helpers.py": "X = 1\n",
    "helpers2.py": "X = 2\n",
    "eager.py": "IMAP = __import__('imaplib')\n",
}


@pytest.fixture
def lazylib(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    (lib / "lazylib").mkdir(parents=True)
    for name, text in LAZYLIB.items():
        (lib / "lazylib" / name).write_text(text)
    return lib


def test_the_standard_librarys_own_imports_are_its_own(tmp_path):
    # netaddr's case: importlib.resources imports tempfile, zipfile ... for
    # itself; the task permits importlib.resources only.
    src = ("import importlib.resources\n"
           "import sys\nassert 'tempfile' in sys.modules\n")
    passes(run(tmp_path, {"cand.py": src}, allowed=["importlib.resources", "sys"]))


def test_listed_library_imports_name_the_standard_library(tmp_path):
    report = caught(run(tmp_path, {"cand.py": "import importlib.resources\n"},
                        allowed=["importlib.resources"], library_imports="listed"),
                    "import", "does not permit")
    assert "the standard library (importlib/resources/" in report["rule"], report
    assert 'library_imports = "listed"' in report["rule"], report


@pytest.mark.parametrize("src, allowed", [
    # A stdlib function handed the name: the candidate's import all the same.
    # (importlib.import_module raises no "import" event for the module it
    # imports: the module's body run by the import system is judged instead.)
    ("import importlib.resources\ntry:\n    importlib.resources.files('ftplib')\n"
     "except TypeError:\n    pass\n", ["importlib.resources"]),
    ("import pkgutil\npkgutil.resolve_name('ftplib')\n", ["pkgutil"]),
    ("import importlib\nimportlib.import_module('ftplib')\n", ["importlib"]),
    ("import pickle\npickle.loads(b'cftplib\\nFTP\\n.')\n", ["pickle"]),
    ("import pydoc\npydoc.locate('ftplib')\n", ["pydoc"]),
])
def test_a_name_given_to_the_standard_library_is_the_candidates_import(tmp_path, src, allowed):
    report = caught(run(tmp_path, {"cand.py": src}, allowed=allowed), "import",
                    "does not permit")
    assert "ftplib" in report["args"] and report["whose"], report


def test_a_librarys_import_statement_is_its_own_whoever_calls_it(tmp_path, lazylib):
    src = "import lazylib\nlazylib.by_statement()\nlazylib.relative()\nlazylib.own_part()\n"
    passes(run(tmp_path, {"cand.py": src}, allowed=["lazylib"], library_dirs=[str(lazylib)]))


def test_a_name_given_to_a_library_is_the_candidates_import(tmp_path, lazylib):
    src = "import lazylib\nlazylib.by_name('ftplib')\n"
    caught(run(tmp_path, {"cand.py": src}, allowed=["lazylib"], library_dirs=[str(lazylib)]),
           "import", "does not permit")


def test_a_library_import_by_name_while_it_is_imported_is_its_own(tmp_path, lazylib):
    src = "import lazylib.eager\n"
    passes(run(tmp_path, {"cand.py": src}, allowed=["lazylib"], library_dirs=[str(lazylib)]))
    (tmp_path / "listed").mkdir()
    report = caught(run(tmp_path / "listed", {"cand.py": src}, allowed=["lazylib"],
                        library_dirs=[str(lazylib)], library_imports="listed"),
                    "import", "does not permit")
    assert "the library 'lazylib'" in report["rule"], report


def test_a_relative_import_run_with_the_candidates_globals_is_the_candidates(tmp_path, lazylib):
    # The library's genuine code, run as a function over globals the candidate
    # chose: its relative import resolves against them, so its name is not the
    # library's to vouch for.
    src = ("import lazylib.calls as c\n"
           "g = {'__name__': 'ftplib.x', '__package__': 'ftplib', '__builtins__': __builtins__}\n"
           "try:\n    type(c.relative)(c.relative.__code__, g)()\n"
           "except ImportError:\n    pass\n")
    caught(run(tmp_path, {"cand.py": src}, allowed=["lazylib"], library_dirs=[str(lazylib)]),
           "import", "does not permit")


def test_a_report_only_hook_reports_every_violation_and_goes_on(tmp_path):
    # An author's audit of the reference: each distinct violation once, with its
    # stack and whose each frame is, and notices of the standard library's own
    # imports; the run goes on.
    src = ("import importlib.resources\n"
           "def bad():\n    import ftplib\n"
           "for _ in range(3):\n    bad()\n"
           "open('/proc/fm-test-report', 'w') if False else None\n"
           "try:\n    open('/proc/fm-test-report/x', 'w')\nexcept OSError:\n    pass\n")
    root = tmp_path / "side"
    root.mkdir()
    (root / "cand.py").write_text(src)
    r = subprocess.run([sys.executable, "-I", "-B", "-c", DRIVER, str(root),
                        "importlib.resources", "", json.dumps({"report": True})],
                       cwd=root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "REPLY {'ok': True}" in r.stdout, r.stdout + r.stderr
    reports = [json.loads(x) for x in r.stderr.splitlines() if x.startswith('{"event"')]
    violations = [x for x in reports if not x.get("notice")]
    notices = [x for x in reports if x.get("notice")]
    assert [v["event"] for v in violations] == ["import", "open"], violations
    assert "ftplib" in violations[0]["args"]
    assert "cand.py:3 in bad" in violations[0]["stack"][violations[0]["whose"].index("candidate")]
    assert any(n["args"] == "tempfile" and "the standard library" in n["rule"] for n in notices)
