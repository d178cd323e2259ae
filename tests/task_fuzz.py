"""Malformed variants of the bundled tasks, and how to judge what the loader
and the CLI say about them (tests/test_task_fuzz.py).

Every variant is a copy of a bundled task with one thing broken: task.toml cut
short, a field of another type or an impossible value, a file the task needs
taken away, author code (tests/cases.py, tests/inputs.py) that raises, hangs or
returns the wrong thing, a directory nobody may read, binary garbage, a symlink
loop, an empty directory, a file where a directory belongs and the reverse.

What is asked of every one: no traceback, ever; a variant that cannot be a
valid task fails, with a message naming the file (and the field, where a
field is wrong). Whether a variant must fail is decided here, from a small
schema of the fields the evaluator reads (FIELDS), not from the loader.

`variants(full=False)` is a deterministic sample that keeps the test quick;
`variants(full=True)` is the whole systematic sweep (every truncation offset,
every field of every bundled task with every other type). Run the sweep with

    FM_FUZZ=full .venv/bin/pytest -q tests/test_task_fuzz.py
    .venv/bin/python tests/task_fuzz.py [--full] [--cli]   # a table per class, asserts nothing
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import math
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tasks"
CLI = Path(sys.executable).parent / "frontier-measure"

# One task per scale (kernel/stencil has a fixed header) in the quick sample.
SAMPLE_TASKS = ("module/dedupe", "package/graphs", "kernel/stencil", "repository/logstat")
HANG_TIMEOUT_S = 1  # [metadata.frontier] cases_timeout_s of the hanging variants

CLASSES = ("truncated", "wrong-type", "bad-value", "missing", "raises", "hangs", "wrong-return",
           "unreadable", "garbage", "symlink-loop", "empty", "not-a-dir")


@dataclass(frozen=True)
class Info:
    """What a variant needs to know of the task it breaks."""

    rel: str  # "module/dedupe"
    scale: str
    doc: dict[str, Any]  # task.toml
    author_code: str | None  # tests/cases.py or tests/inputs.py (None: repository)
    cases_file: str  # where the cases come from
    entry: str  # the reference's entry module or routine source, relative to the task
    extra: tuple[str, ...]  # other held-out files (harness, headers, fixtures)

    @property
    def src(self) -> Path:
        return TASKS / self.rel


def info(rel: str) -> Info:
    doc = tomllib.loads((TASKS / rel / "task.toml").read_text())
    fr = doc["metadata"]["frontier"]
    scale = fr["scale"]
    ws = "environment/workspace"
    if scale in ("module", "package"):
        name = fr["entry"]
        entry = f"{ws}/{name}.py" if (TASKS / rel / ws / f"{name}.py").is_file() else f"{ws}/{name}"
        return Info(rel, scale, doc, "tests/cases.py", "tests/cases.py", entry, ())
    if scale == "kernel":
        k = fr.get("kernel", {})
        headers = tuple(f"tests/{h}" for h in k.get("headers", []))
        inputs = k.get("inputs", "tests/inputs.py")
        return Info(rel, scale, doc, inputs, inputs, f"{ws}/{k.get('sources', ['kernel.c'])[0]}",
                    (k.get("harness", "tests/harness.c"), *headers))
    r = fr.get("repository", {})
    return Info(rel, scale, doc, None, r.get("cases", "tests/cases.toml"), f"{ws}",
                (r.get("fixtures", "tests/fixtures"),))


@dataclass(frozen=True)
class Variant:
    """One malformed copy of a task. `names`: what the message must contain,
    on one line (the file, and the field where one is wrong)."""

    kind: str
    task: str
    what: str
    mutate: Callable[[Path], None]
    names: tuple[str, ...]
    must_fail: bool = True
    unreadable: bool = False  # the permissions bind only an account that is not root
    hangs: bool = False
    restamp: bool = False  # golden.json re-stamped, so `eval` gets as far as the cases

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.task}:{self.what}"


def make_copy(v: Variant, dest: Path) -> Path:
    """The variant's task directory at dest/<name> (candidates left out: no
    loader reads them)."""
    src = TASKS / v.task
    task_dir = dest / src.name
    shutil.copytree(src, task_dir, symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "candidates"))
    if v.hangs:
        set_toml(task_dir / "task.toml", ("metadata", "frontier", "cases_timeout_s"), HANG_TIMEOUT_S)
    v.mutate(task_dir)
    if v.restamp:
        restamp(task_dir)
    return task_dir


def release(path: Path) -> None:
    """Undo what an unreadable variant did, so the copy can be removed."""
    for p in [path, *path.rglob("*")] if path.is_dir() else [path]:
        try:
            if not p.is_symlink():
                p.chmod(p.stat().st_mode | stat.S_IRWXU)
        except OSError:
            pass
    if path.is_dir():
        for p in path.rglob("*"):
            try:
                if p.is_dir() and not p.is_symlink():
                    p.chmod(p.stat().st_mode | stat.S_IRWXU)
            except OSError:
                pass


def restamp(task_dir: Path) -> None:
    """Make tests/golden.json claim it was recorded from what the copy holds
    now, so a command gets past the stale-recording check to the cases."""
    from frontier_measure import golden, runners
    from frontier_measure.task import TaskError

    try:
        task, runner = runners.load(task_dir)
    except TaskError:
        return  # it does not load: nothing to re-stamp, the loader says why
    data = json.loads(task.golden_path.read_text())
    data["reference_digest"] = golden.digest(task.reference_dir, runner.held_out(task))
    task.golden_path.write_text(json.dumps(data))


# ------------------------------------------------------------------ TOML


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def dumps(doc: dict[str, Any]) -> str:
    """A TOML document (arrays of tables inline)."""
    lines: list[str] = []

    def emit(table: dict[str, Any], path: tuple[str, ...]) -> None:
        scalars = [(k, v) for k, v in table.items() if not isinstance(v, dict)]
        tables = [(k, v) for k, v in table.items() if isinstance(v, dict)]
        if path and (scalars or not tables):
            lines.append(f"\n[{'.'.join(_key(p) for p in path)}]")
        lines.extend(f"{_key(k)} = {_value(v)}" for k, v in scalars)
        for k, v in tables:
            emit(v, (*path, k))

    emit(doc, ())
    return "\n".join(lines) + "\n"


def set_path(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for p in path[:-1]:
        doc = doc[p]
    doc[path[-1]] = value


def set_toml(file: Path, path: tuple[Any, ...], value: Any) -> None:
    doc = tomllib.loads(file.read_text())
    set_path(doc, path, value)
    file.write_text(dumps(doc))


def walk(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every table, array, array element and leaf below `doc`, with its path."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        yield (*path, k), v
        yield from walk(v, (*path, k))


def kind_of(v: Any) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "table"
    return "datetime"


OTHER_TYPES: dict[str, Any] = {
    "string": "x", "integer": 7, "float": 2.5, "boolean": True, "array": [1, "a"],
    "table": {"k": 1}, "datetime": dt.datetime(1979, 5, 27, 7, 32),
}
# Values of the right type that no setting can take.
BAD_NUMBERS: dict[str, Any] = {"nan": math.nan, "inf": math.inf, "-1": -1, "0": 0}
BAD_STRINGS: dict[str, Any] = {"empty": "", "nul": "a\x00b"}


# The fields the evaluator reads, per file: (path, rule). A path component "*"
# is any key, "#" any array index. Rules: "str", "int", "float", "bool",
# "table" (any table), "table!" (a table with required content), "list[str]",
# "list[table]"; a number rule may end in ">0" or ">=0".
_FRONTIER = [
    (("metadata", "frontier"), "table!"),
    (("metadata", "frontier", "scale"), "str"),
    (("metadata", "frontier", "entry"), "str"),
    (("metadata", "frontier", "threshold"), "float>0"),
    (("metadata", "frontier", "cost"), "str"),
    (("metadata", "frontier", "repetitions"), "int>0"),
    (("metadata", "frontier", "case_timeout_s"), "float>0"),
    (("metadata", "frontier", "cases_timeout_s"), "float>0"),
    (("metadata", "frontier", "timing"), "table"),
    *((("metadata", "frontier", "timing", k), "int>0")
      for k in ("pairs_per_block", "min_blocks", "max_blocks")),
    (("metadata", "frontier", "timing", "warmup"), "int>=0"),
    *((("metadata", "frontier", "timing", k), "float>0")
      for k in ("max_time_s", "precision", "batch_ms", "max_batch_ms", "confidence")),
    (("metadata", "frontier", "tolerance"), "table"),
    (("metadata", "frontier", "tolerance", "float_rel"), "float>=0"),
    (("metadata", "frontier", "tolerance", "float_abs"), "float>=0"),
    (("metadata", "frontier", "kernel"), "table"),
    (("metadata", "frontier", "kernel", "sources"), "list[str]"),
    (("metadata", "frontier", "kernel", "headers"), "list[str]"),
    *((("metadata", "frontier", "kernel", k), "str")
      for k in ("harness", "inputs", "machine", "opt")),
    (("metadata", "frontier", "kernel", "max_instructions"), "int>0"),
    (("metadata", "frontier", "repository"), "table"),
    (("metadata", "frontier", "repository", "build"), "str"),
    (("metadata", "frontier", "repository", "reference_build"), "str"),
    (("metadata", "frontier", "repository", "fixtures"), "str"),
    (("metadata", "frontier", "repository", "cases"), "str"),
    (("metadata", "frontier", "repository", "build_timeout_s"), "float>0"),
    (("metadata", "frontier", "repository", "command_timeout_s"), "float>0"),
    *((("metadata", "frontier", "repository", k), "int>0")
      for k in ("nproc", "disk_mb", "file_size_mb", "open_files")),
]
# Harbor's own tables (harbor-framework/harbor's task config): their types.
_HARBOR = [
    (("task",), "table!"),
    (("task", "name"), "str"),
    (("task", "description"), "str"),
    (("task", "authors"), "list"),
    (("task", "keywords"), "list[str]"),
    (("metadata",), "table!"),
    (("verifier",), "table"),
    (("verifier", "timeout_sec"), "float>0"),
    (("agent",), "table"),
    (("agent", "timeout_sec"), "float>0"),
    (("environment",), "table"),
    (("environment", "build_timeout_sec"), "float>0"),
    *((("environment", k), "int>0") for k in ("cpus", "memory_mb", "storage_mb")),
    *((("environment", k), "str") for k in ("network_mode", "workdir", "docker_image")),
    (("version",), "str"),
]
FIELDS: dict[str, list[tuple[tuple[str, ...], str]]] = {
    "task.toml": _FRONTIER + _HARBOR,
    "tests/checklist.toml": [
        (("compliance",), "table"),
        *((("compliance", k), "list[str]") for k in (
            "allowed_imports", "prohibited_calls", "allow", "exclude", "allowed_headers",
            "allowed_symbols", "required_symbols")),
        (("compliance", "allow_inline_asm"), "bool"),
        (("behaviours",), "table!"),
        (("behaviours", "*"), "str"),
    ],
    "tests/cases.toml": [
        (("case",), "list[table]"),
        (("case", "#"), "table!"),
        (("case", "#", "id"), "str"),
        (("case", "#", "commands"), "list[str]"),
        (("case", "#", "covers"), "str|list[str]"),
        (("case", "#", "stdin"), "str"),
        (("timing",), "list[table]"),
        (("timing", "#"), "table!"),
        (("timing", "#", "id"), "str"),
        (("timing", "#", "size"), "int>=0"),
        (("timing", "#", "setup"), "list[str]"),
        (("timing", "#", "commands"), "list[str]"),
    ],
}
# Not every string may be empty: where an empty one is still a valid setting.
EMPTY_OK = {("metadata", "frontier", "kernel", "opt"), ("case", "#", "stdin"),
            ("task", "description"), ("metadata", "frontier", "repository", "reference_build")}


def _match(pattern: tuple[str, ...], path: tuple[Any, ...]) -> bool:
    return len(pattern) == len(path) and all(
        p == "*" and isinstance(k, str) or p == "#" and isinstance(k, int) or p == k
        for p, k in zip(pattern, path, strict=True))


def rule_for(file: str, path: tuple[Any, ...]) -> str | None:
    """The rule of the field at `path`, or of the list it is an element of
    ("str" for an element of a list[str])."""
    for pattern, rule in FIELDS.get(file, []):
        if _match(pattern, path):
            return rule
    if path and isinstance(path[-1], int):
        parent = rule_for(file, path[:-1])
        if parent == "list[str]":
            return "str"
        if parent == "list[table]":
            return "table!"
    return None


def accepts(rule: str, value: Any) -> bool:
    """Whether a field of `rule` may hold `value` (a bool is never a number)."""
    base, _, bound = rule.partition(">")
    if base in ("int", "float"):
        if isinstance(value, bool) or not isinstance(value, int if base == "int" else (int, float)):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False
        return value > 0 if bound == "0" else value >= 0 if bound == "=0" else True
    if base == "str":
        return isinstance(value, str) and "\x00" not in value
    if base == "bool":
        return isinstance(value, bool)
    if base == "table":
        return isinstance(value, dict)
    if base == "table!":
        return False  # the replacements never have what such a table needs
    if base == "list":
        return isinstance(value, list)
    if base == "str|list[str]":
        return isinstance(value, str) or accepts("list[str]", value)
    if base == "list[str]":
        return isinstance(value, list) and all(isinstance(x, str) for x in value)
    if base == "list[table]":
        return isinstance(value, list) and all(isinstance(x, dict) for x in value) and not value
    raise ValueError(rule)


def _leaf(path: tuple[Any, ...]) -> str:
    return next(str(k) for k in reversed(path) if isinstance(k, str))


# ------------------------------------------------------------------ classes


def truncated(t: Info, full: bool) -> Iterator[Variant]:
    text = (t.src / "task.toml").read_bytes()
    n = len(text)
    if full:
        offsets = list(range(n))
    else:
        # A spread of offsets, and one inside a quoted string and a table header.
        offsets = sorted({n * k // 7 for k in range(7)} | {text.index(b'scale = "') + 10,
                                                            text.index(b"[metadata.frontier]") + 5})
    for off in offsets:
        cut = text[:off]
        try:
            doc = tomllib.loads(cut.decode())
            fr = doc.get("metadata", {}).get("frontier", {})
            must = not ("scale" in fr and "threshold" in fr
                        and ("entry" in fr or t.scale == "repository"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            must = True

        def mutate(d: Path, cut: bytes = cut) -> None:
            (d / "task.toml").write_bytes(cut)

        yield Variant("truncated", t.rel, f"task.toml[:{off}]", mutate, ("task.toml",), must)


def _toml_files(t: Info) -> list[str]:
    return ["task.toml", "tests/checklist.toml"] + (
        [t.cases_file] if t.scale == "repository" else [])


def wrong_types(t: Info, full: bool) -> Iterator[Variant]:
    """Every table, array, element and leaf replaced by a value of every other
    TOML type (the sample: one other type per field, in rotation)."""
    turn = 0
    for file in _toml_files(t):
        doc = tomllib.loads((t.src / file).read_text())
        for path, old in walk(doc):
            if not full and isinstance(path[-1], int) and path[-1] > 0:
                continue  # one element of an array is enough for the sample
            others = [k for k in OTHER_TYPES if k != kind_of(old)]
            if not full:
                others = [others[turn % len(others)]]
                turn += 1
            for kind in others:
                yield _replaced("wrong-type", t, file, path, kind, OTHER_TYPES[kind])


def bad_values(t: Info, full: bool) -> Iterator[Variant]:
    """Numbers that are NaN, infinite, negative or zero; strings that are
    empty or hold NUL, in every field of that type."""
    turn = 0
    for file in _toml_files(t):
        doc = tomllib.loads((t.src / file).read_text())
        for path, old in walk(doc):
            table = BAD_NUMBERS if kind_of(old) in ("integer", "float") else \
                BAD_STRINGS if isinstance(old, str) else {}
            if not table or rule_for(file, path) is None:
                continue
            names = list(table)
            if not full:
                names = [names[turn % len(names)]]
                turn += 1
            for name in names:
                yield _replaced("bad-value", t, file, path, name, table[name])


def _replaced(kind: str, t: Info, file: str, path: tuple[Any, ...], label: str,
              value: Any) -> Variant:
    rule = rule_for(file, path)
    must = rule is not None and not accepts(rule, value)
    if kind == "bad-value" and value == "" and path_pattern(file, path) in EMPTY_OK:
        must = False

    def mutate(d: Path) -> None:
        set_toml(d / file, path, copy.deepcopy(value))

    where = ".".join(str(p) for p in path)
    return Variant(kind, t.rel, f"{file}:{where}={label}", mutate,
                   (Path(file).name, _leaf(path)) if must else (Path(file).name,), must,
                   restamp=file == t.cases_file)


def path_pattern(file: str, path: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple("#" if isinstance(k, int) else k for k in path)


def _remove(rel: str) -> Callable[[Path], None]:
    def mutate(d: Path) -> None:
        p = d / rel
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()
    return mutate


def _needed(t: Info) -> list[str]:
    out = ["task.toml", "instruction.md", "environment", "environment/Dockerfile",
           "environment/workspace", t.entry, "solution", "solution/solve.sh",
           "solution/workspace", "tests", "tests/test.sh", "tests/golden.json", t.cases_file,
           *t.extra]
    if t.scale != "repository":
        out.append("tests/checklist.toml")
    return list(dict.fromkeys(out))


def missing(t: Info, full: bool) -> Iterator[Variant]:
    for rel in _needed(t):
        yield Variant("missing", t.rel, rel, _remove(rel), (rel,))


def _append(rel: str, code: str) -> Callable[[Path], None]:
    def mutate(d: Path) -> None:
        with open(d / rel, "a") as f:
            f.write("\n\n" + code + "\n")
    return mutate


def _author_code(t: Info, kind: str) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """(what, code appended to the author's file, names) for raising or hanging code."""
    body = {"raises": "raise RuntimeError('boom')", "hangs": "while True:\n        pass",
            "sleeps": "import time\n    time.sleep(3600)"}
    stmt = {"raises": "raise RuntimeError('boom')", "hangs": "while True:\n    pass",
            "sleeps": "import time\ntime.sleep(3600)"}
    variants = ("raises",) if kind == "raises" else ("hangs", "sleeps")
    for v in variants:
        yield f"import-{v}", stmt[v], ()
        yield f"cases()-{v}", f"def cases():\n    {body[v]}", ("cases()",)
        yield f"timing_inputs()-{v}", f"def timing_inputs():\n    {body[v]}", ("timing_inputs()",)
        if t.scale in ("module", "package", "kernel"):
            yield (f"make()-{v}",
                   f"def _bad_make(seed):\n    {body[v]}\n\n"
                   "_good_timing_inputs = timing_inputs\n\n"
                   "def timing_inputs():\n"
                   "    return [dict(t, make=_bad_make) for t in _good_timing_inputs()]",
                   ("make(",))
    if kind == "raises":
        yield "import-exit", "raise SystemExit(3)", ()
        yield "import-syntax", "def (:", ()
        yield "cases()-recursion", "def cases():\n    return cases()", ("cases()",)


def raises(t: Info, full: bool) -> Iterator[Variant]:
    if t.author_code is None:
        return
    for what, code, names in _author_code(t, "raises"):
        yield Variant("raises", t.rel, what, _append(t.author_code, code),
                      (t.author_code, *names), restamp=True)


def hangs(t: Info, full: bool) -> Iterator[Variant]:
    if t.author_code is None:
        return
    for what, code, names in _author_code(t, "hangs"):
        yield Variant("hangs", t.rel, what, _append(t.author_code, code),
                      (t.author_code, *names), hangs=True, restamp=True)


# What a cases() or timing_inputs() may wrongly return, per scale: (what, code, names).
_WRONG_MODULE = [
    ("cases()=7", "def cases():\n    return 7", ("cases()",)),
    ("cases()=None", "def cases():\n    return None", ("cases()",)),
    ("cases()=dict", "def cases():\n    return {'id': 'a', 'call': 'f'}", ("cases()",)),
    ("cases()=generator", "def cases():\n    yield from _good_cases()", ("cases()",)),
    ("case=int", "def cases():\n    return [1, *_good_cases()]", ("cases()[0]",)),
    ("case.id=int", "def cases():\n    return [dict(c, id=9) if i == 0 else c "
                    "for i, c in enumerate(_good_cases())]", ("cases()[0]", "id")),
    ("case.id-duplicate", "def cases():\n    c = _good_cases()\n    return [c[0], *c]",
     ("cases()[1]", "id")),
    ("case.no-call", "def cases():\n    return [{'id': 'x'}, *_good_cases()]", ("cases()[0]",)),
    ("case.call=int", "def cases():\n    return [{'id': 'x', 'call': 5}, *_good_cases()]",
     ("cases()[0]", "call")),
    ("case.args=int", "def cases():\n    return [{'id': 'x', 'call': 'f', 'args': 5}, "
                      "*_good_cases()]", ("cases()[0]", "args")),
    ("case.kwargs=list", "def cases():\n    return [{'id': 'x', 'call': 'f', 'kwargs': [1]}, "
                         "*_good_cases()]", ("cases()[0]", "kwargs")),
    ("case.ops=empty", "def cases():\n    return [{'id': 'x', 'ops': []}, *_good_cases()]",
     ("cases()[0]", "ops")),
    ("case.covers=int", "def cases():\n    return [dict(c, covers=5) if i == 0 else c "
                        "for i, c in enumerate(_good_cases())]", ("cases()[0]", "covers")),
    ("case.covers=[[1]]", "def cases():\n    return [dict(c, covers=[[1]]) if i == 0 else c "
                          "for i, c in enumerate(_good_cases())]", ("cases()[0]", "covers")),
    ("case.args=object", "def cases():\n    return [{'id': 'x', 'call': 'f', 'args': [object()]}, "
                         "*_good_cases()]", ("cases()[0]", "plain data")),
    ("timing_inputs()=str", "def timing_inputs():\n    return 'fast'", ("timing_inputs()",)),
    ("timing.size=str", "def timing_inputs():\n    return [dict(t, size='big') for t in "
                        "_good_timing_inputs()]", ("timing_inputs()[0]", "size")),
    ("timing.size=list", "def timing_inputs():\n    return [dict(t, size=[1]) for t in "
                         "_good_timing_inputs()]", ("timing_inputs()[0]", "size")),
    ("timing.id-duplicate", "def timing_inputs():\n    t = _good_timing_inputs()\n"
                            "    return [t[0], *t]", ("timing_inputs()[1]", "id")),
    ("timing.make=None", "def timing_inputs():\n    return [dict(t, make=None) for t in "
                         "_good_timing_inputs()]", ("timing_inputs()[0]", "make")),
    ("make()=int", "def timing_inputs():\n    return [dict(t, make=lambda seed: 5) for t in "
                   "_good_timing_inputs()]", ("make(",)),
    ("make()=object", "def timing_inputs():\n    return [dict(t, make=lambda seed: {'call': "
                      "'f', 'args': [object()]}) for t in _good_timing_inputs()]", ("make(",)),
]
_WRONG_KERNEL = [
    ("cases()=7", "def cases():\n    return 7", ("cases()",)),
    ("cases()=generator", "def cases():\n    yield from _good_cases()", ("cases()",)),
    ("case=int", "def cases():\n    return [1, *_good_cases()]", ("cases()[0]",)),
    ("case.stdin=str", "def cases():\n    return [dict(c, stdin='abc') if i == 0 else c "
                       "for i, c in enumerate(_good_cases())]", ("cases()[0]", "stdin")),
    ("case.id=int", "def cases():\n    return [dict(c, id=9) if i == 0 else c "
                    "for i, c in enumerate(_good_cases())]", ("cases()[0]", "id")),
    ("case.id-duplicate", "def cases():\n    c = _good_cases()\n    return [c[0], *c]",
     ("cases()[1]", "id")),
    ("case.covers=int", "def cases():\n    return [dict(c, covers=5) if i == 0 else c "
                        "for i, c in enumerate(_good_cases())]", ("cases()[0]", "covers")),
    ("case.covers=[[1]]", "def cases():\n    return [dict(c, covers=[[1]]) if i == 0 else c "
                          "for i, c in enumerate(_good_cases())]", ("cases()[0]", "covers")),
    ("timing_inputs()=None", "def timing_inputs():\n    return None", ("timing_inputs()",)),
    ("timing.size=str", "def timing_inputs():\n    return [dict(t, size='big') for t in "
                        "_good_timing_inputs()]", ("timing_inputs()[0]", "size")),
    ("timing.size=list", "def timing_inputs():\n    return [dict(t, size=[1]) for t in "
                         "_good_timing_inputs()]", ("timing_inputs()[0]", "size")),
    ("timing.stdin=list", "def timing_inputs():\n    return [dict(t, stdin=[1]) for t in "
                          "_good_timing_inputs()]", ("timing_inputs()[0]", "stdin")),
    ("make()=str", "def timing_inputs():\n    return [dict(t, make=lambda seed: 'x') for t in "
                   "_good_timing_inputs()]", ("make(", "bytes")),
]
_GOOD = "_good_cases = cases\n_good_timing_inputs = timing_inputs\n"


def wrong_return(t: Info, full: bool) -> Iterator[Variant]:
    if t.author_code is None:
        yield from _wrong_cases_toml(t)
        return
    table = _WRONG_MODULE if t.scale in ("module", "package") else _WRONG_KERNEL
    for what, code, names in table:
        yield Variant("wrong-return", t.rel, what, _append(t.author_code, _GOOD + code),
                      (t.author_code, *names), restamp=True)


def _wrong_cases_toml(t: Info) -> Iterator[Variant]:
    """A repository task's cases are TOML: arrays of tables with the wrong content."""
    f = t.cases_file
    edits: list[tuple[str, Callable[[dict[str, Any]], None], tuple[str, ...]]] = [
        ("case=table", lambda d: d.__setitem__("case", {"id": "x"}), ("case",)),
        ("timing=int", lambda d: d.__setitem__("timing", 3), ("timing",)),
        ("case.id-duplicate", lambda d: d["case"].append(dict(d["case"][0])), ("case[", "id")),
        ("case.covers=[[1]]", lambda d: d["case"][0].__setitem__("covers", [[1]]),
         ("case[0]", "covers")),
        ("timing.setup=[1]", lambda d: d["timing"][0].__setitem__("setup", [1]),
         ("timing[0]", "setup")),
        ("timing.size=list", lambda d: d["timing"][0].__setitem__("size", [1]),
         ("timing[0]", "size")),
        ("timing.id-duplicate", lambda d: d["timing"].append(dict(d["timing"][0])),
         ("timing[", "id")),
        ("no-cases", lambda d: d.__setitem__("case", []), ("covers it",)),
    ]
    for what, edit, names in edits:
        def mutate(d: Path, edit: Callable[[dict[str, Any]], None] = edit) -> None:
            doc = tomllib.loads((d / f).read_text())
            edit(doc)
            (d / f).write_text(dumps(doc))

        yield Variant("wrong-return", t.rel, what, mutate, (f, *names), restamp=True)


def _chmod0(rel: str) -> Callable[[Path], None]:
    def mutate(d: Path) -> None:
        (d / rel).chmod(0)
    return mutate


def unreadable(t: Info, full: bool) -> Iterator[Variant]:
    rels = [".", "task.toml", "tests", "tests/golden.json", t.cases_file, "environment/workspace",
            t.entry, "solution/workspace", *t.extra]
    if t.scale != "repository":
        rels.append("tests/checklist.toml")
    for rel in dict.fromkeys(rels):
        names = (Path(t.rel).name,) if rel == "." else (rel,)
        yield Variant("unreadable", t.rel, rel, _chmod0(rel), names, unreadable=True)
    if t.scale == "repository":
        # A file deep in the held-out fixtures: the digest of what was recorded reads it.
        fx = t.extra[0]
        name = next(p for p in sorted((t.src / fx).rglob("*")) if p.is_file())
        rel = str(name.relative_to(t.src))
        yield Variant("unreadable", t.rel, rel, _chmod0(rel), (rel,), unreadable=True)


def garbage(t: Info, full: bool) -> Iterator[Variant]:
    rng = random.Random(f"garbage:{t.rel}")
    blobs = {"random": bytes(rng.randrange(256) for _ in range(300)),
             "nul": b"[task]\x00name = 'x'\n",
             "latin1": "[task]\nname = \"caf\xe9\"\n".encode("latin-1"),
             "bom-utf16": "[task]\nname = 'x'\n".encode("utf-16")}
    files = ["task.toml", "tests/checklist.toml", "tests/golden.json", t.cases_file]
    for rel in dict.fromkeys(files):
        for label, blob in blobs.items() if full or rel == "task.toml" else [("random", blobs["random"])]:
            def mutate(d: Path, rel: str = rel, blob: bytes = blob) -> None:
                (d / rel).write_bytes(blob)

            yield Variant("garbage", t.rel, f"{rel}={label}", mutate, (rel,))


def _loop(rel: str, other: str | None = None) -> Callable[[Path], None]:
    """rel -> rel (or rel -> other -> rel)."""
    def mutate(d: Path) -> None:
        p = d / rel
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        elif p.exists() or p.is_symlink():
            p.unlink()
        if other is None:
            p.symlink_to(p.name)
        else:
            (d / other).symlink_to(os.path.relpath(p, (d / other).parent))
            p.symlink_to(os.path.relpath(d / other, p.parent))
    return mutate


def symlink_loops(t: Info, full: bool) -> Iterator[Variant]:
    rels = ["task.toml", "tests", "environment/workspace", t.cases_file, "tests/golden.json", t.entry,
            *t.extra]
    if t.scale != "repository":
        rels.append("tests/checklist.toml")
    for rel in dict.fromkeys(rels):
        yield Variant("symlink-loop", t.rel, rel, _loop(rel), (rel,))
    # A loop of two, inside the reference: the digest of the recording walks it.
    yield Variant("symlink-loop", t.rel, "environment/workspace/a<->b",
                  _loop("environment/workspace/loop-a", "environment/workspace/loop-b"),
                  ("environment/workspace/loop-",))


def _emptied(rel: str) -> Callable[[Path], None]:
    def mutate(d: Path) -> None:
        p = d / rel
        if p.is_dir():
            for q in p.iterdir():
                if q.is_dir() and not q.is_symlink():
                    shutil.rmtree(q)
                else:
                    q.unlink()
        else:
            p.write_bytes(b"")
    return mutate


def empty(t: Info, full: bool) -> Iterator[Variant]:
    yield Variant("empty", t.rel, "task dir", _emptied("."), ())
    rels = ["tests", "environment/workspace", "task.toml", "tests/golden.json", t.cases_file, *t.extra]
    if t.scale != "repository":
        rels.append("tests/checklist.toml")
    for rel in dict.fromkeys(rels):
        # An empty fixtures directory is a valid (if stale) recording's premise.
        yield Variant("empty", t.rel, rel, _emptied(rel), (rel,))


def _swapped(rel: str) -> Callable[[Path], None]:
    """A directory made a file, or a file made a directory."""
    def mutate(d: Path) -> None:
        p = d / rel
        if p.is_dir():
            shutil.rmtree(p)
            p.write_text("not a directory\n")
        else:
            p.unlink()
            (p / "sub").mkdir(parents=True)
    return mutate


def not_a_dir(t: Info, full: bool) -> Iterator[Variant]:
    rels = ["tests", "environment", "environment/workspace", "solution/workspace", "task.toml",
            "tests/test.sh", "tests/golden.json", t.cases_file, "instruction.md", *t.extra]
    if t.scale != "repository":
        rels.append("tests/checklist.toml")
    if t.scale in ("module", "package"):
        rels.append(t.entry)
    for rel in dict.fromkeys(rels):
        yield Variant("not-a-dir", t.rel, rel, _swapped(rel), (rel,))


GENERATORS: dict[str, Callable[[Info, bool], Iterator[Variant]]] = {
    "truncated": truncated, "wrong-type": wrong_types, "bad-value": bad_values,
    "missing": missing, "raises": raises, "hangs": hangs, "wrong-return": wrong_return,
    "unreadable": unreadable, "garbage": garbage, "symlink-loop": symlink_loops,
    "empty": empty, "not-a-dir": not_a_dir,
}


def bundled() -> list[str]:
    return sorted(str(p.parent.relative_to(TASKS)) for p in TASKS.glob("*/*/task.toml"))


def variants(full: bool = False, tasks: list[str] | None = None) -> list[Variant]:
    out: list[Variant] = []
    for rel in tasks or (bundled() if full else list(SAMPLE_TASKS)):
        t = info(rel)
        for kind in CLASSES:
            out.extend(GENERATORS[kind](t, full))
    return out


# ------------------------------------------------------------------ judging


@dataclass
class Outcome:
    """What one run said about a variant."""

    status: str  # ok, traceback, accepted, unnamed, hung
    output: str
    code: int | None = None
    notes: list[str] = field(default_factory=list)


STALE = "recorded from a different reference, cases or fixtures"


def names(v: Variant, line: str) -> bool:
    """Whether a line of the output names what v.names asks (a file may be named
    by its path or, beside its directory, by its name). A held-out file whose
    content changed may instead be named by the stale recording it makes."""
    if all(n in line or Path(n).name in line for n in v.names):
        return True
    return v.kind in ("empty", "missing", "garbage") and STALE in line


def judge(v: Variant, failed: bool, output: str, *, traceback: bool = False) -> Outcome:
    if traceback or "Traceback (most recent call last)" in output:
        return Outcome("traceback", output)
    if v.must_fail and not failed:
        return Outcome("accepted", output)
    if failed and not any(names(v, line) for line in output.splitlines()):
        return Outcome("unnamed", output)
    return Outcome("ok", output)


def in_process(v: Variant, task_dir: Path) -> Outcome:
    """validate() in this process: every problem, or the exception that escaped."""
    import traceback

    from frontier_measure.validate import validate

    try:
        problems = validate(task_dir)
    except (Exception, SystemExit):
        return judge(v, True, traceback.format_exc(), traceback=True)
    return judge(v, bool(problems), "\n".join(problems))


def in_process_run(v: Variant, task_dir: Path, command: str) -> Outcome:
    """`record` (one recording) or `mutate` (one mutant) in this process, as the
    CLI runs them: a task problem (TaskError) is a message; any other
    exception that escapes is a traceback."""
    import traceback

    from frontier_measure import runners
    from frontier_measure.cli import _ready_for_mutants
    from frontier_measure.evaluate import EvaluationError
    from frontier_measure.mutate import mutate
    from frontier_measure.record import record
    from frontier_measure.task import TaskError

    try:
        if command == "record":
            task, runner = runners.load(task_dir)
            record(task, runner, runs=1)
        else:
            _ready_for_mutants(task_dir)
            mutate(task_dir, limit=1)
    except (TaskError, EvaluationError) as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        o = judge(v, True, "\n".join(problems))
        # What the CLI prints above the problems: the task's path.
        if o.status == "unnamed" and any(str(task_dir) in p for p in problems):
            o = Outcome("ok", o.output)
        return o
    except OSError as exc:  # the CLI's last word on a file it could not read
        return judge(v, True, f"{exc.filename or 'a task file'}: {exc.strerror or exc}")
    except (Exception, SystemExit):
        return judge(v, True, traceback.format_exc(), traceback=True)
    # Done: whatever was broken, recording put right (a stale or garbled
    # tests/golden.json is what record rewrites).
    return Outcome("ok", "")


def nobody() -> tuple[int, int] | None:
    """An account the permissions bind (the tests run as root)."""
    if os.geteuid() != 0:
        return None
    import pwd

    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return pw.pw_uid, pw.pw_gid


def run_cli(args: list[str], *, cwd: Path, user: tuple[int, int] | None = None,
            timeout: float = 120) -> tuple[int | None, str]:
    """The CLI as a subprocess: (exit status, stdout + stderr); None when it
    had to be killed."""
    env = {**os.environ, "COLUMNS": "200", "HOME": str(cwd)} if user else dict(os.environ)
    kwargs: dict[str, Any] = {"user": user[0], "group": user[1], "extra_groups": []} if user else {}
    try:
        r = subprocess.run([str(CLI), *args], cwd=cwd, capture_output=True, text=True,
                           errors="replace", timeout=timeout, env=env,
                           stdin=subprocess.DEVNULL, **kwargs)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"") + (exc.stderr or b"")
        return None, out.decode(errors="replace") if isinstance(out, bytes) else out
    return r.returncode, r.stdout + r.stderr


def cli(v: Variant, task_dir: Path, command: str = "validate", timeout: float = 120) -> Outcome:
    user = nobody() if v.unreadable else None
    args = [command, str(task_dir)]
    if command == "eval":
        args += ["--out", str(task_dir.parent / "results")]
    code, out = run_cli(args, cwd=task_dir.parent, user=user, timeout=timeout)
    if code is None:
        return Outcome("hung", out)
    o = judge(v, code != 0, out)
    o.code = code
    return o


def scratch() -> Path:
    """A directory every account can reach (pytest's are private to root)."""
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="fm-fuzz-"))
    d.chmod(0o755)
    return d


def main(argv: list[str] | None = None) -> int:
    import argparse
    import time
    from collections import Counter

    ap = argparse.ArgumentParser(description="Run malformed task variants; a table per class.")
    ap.add_argument("--full", action="store_true", help="the whole sweep, every bundled task")
    ap.add_argument("--cli", action="store_true", help="every variant through `frontier-measure "
                    "validate` too (slow); hanging and unreadable ones always go through it")
    ap.add_argument("--task", action="append", help="only these tasks (scale/name)")
    ap.add_argument("--kind", action="append", help="only these classes")
    ap.add_argument("--show", type=int, default=3, help="examples to print per class and status")
    args = ap.parse_args(argv)
    counts: dict[str, Counter[str]] = {k: Counter() for k in CLASSES}
    examples: dict[tuple[str, str], list[str]] = {}
    started = time.perf_counter()
    for v in variants(args.full, args.task):
        if args.kind and v.kind not in args.kind:
            continue
        if v.unreadable and nobody() is None and os.geteuid() == 0:
            continue
        base = scratch()
        try:
            d = make_copy(v, base)
            o = cli(v, d, timeout=60) if v.unreadable or args.cli else in_process(v, d)
        except Exception as exc:  # the variant could not even be made
            o = Outcome("not-made", repr(exc))
        finally:
            release(base)
            shutil.rmtree(base, ignore_errors=True)
        counts[v.kind][o.status] += 1
        ex = examples.setdefault((v.kind, o.status), [])
        if o.status != "ok" and len(ex) < args.show:
            last = [ln for ln in o.output.strip().splitlines() if ln.strip()][-1:] or [""]
            ex.append(f"{v.id}: {last[0][:160]}")
    statuses = ["ok", "traceback", "hung", "accepted", "unnamed", "not-made"]
    print(f"{'class':14}" + "".join(f"{s:>10}" for s in statuses))
    for kind, c in counts.items():
        if sum(c.values()):
            print(f"{kind:14}" + "".join(f"{c[s]:>10}" for s in statuses))
    for (kind, status), ex in examples.items():
        for line in ex:
            print(f"  [{kind} {status}] {line}")
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
