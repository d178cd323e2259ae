"""Mutation testing of a task's reference: what its cases miss.

`frontier-measure mutate TASK` makes small changes to the reference S's Python
source, one at a time (a mutant), runs the task's functional cases on each and
compares what they observe with the golden outputs (module and package scale:
the cases' calls in a child process; repository scale: the program built and
its commands run as the candidate side of a repository session). A mutant whose observations differ (or
that fails to import, crashes or hangs) is *killed*; one that the cases cannot
tell from S *survives*, and its diff shows the author a behaviour no case
pins down — or an equivalent mutant (the same behaviour written differently),
which the author lists in `tests/mutants.toml`:

    equivalent = ["pkg/core.py:41:12:lt-to-lte"]   # mutant ids, as reported

Score = killed / (mutants - equivalent). Mutants on lines no case runs
(coverage.py, module and package scale) are not run: they survive as "not
covered".

The mutator is our own, on the AST, because the held-out cases are not a
pytest suite: maintained tools (mutmut, cosmic-ray, mutatest) drive a test
command and read its exit status, so each mutant would need a test runner
wrapped around the evaluator's case format, its golden items and its
comparison rules — more code than the mutations themselves. Each mutation is
spliced into the source text at the node's position, so a survivor's diff is
one or two lines of the author's own code, comments and layout kept.
Operators: comparison boundaries and negations (< <=, == !=, in / not in,
is / is not), arithmetic and bitwise operators, and/or, dropping a `not`,
negating an if/while condition, integer constants +1, True/False, strings,
`return x` -> `return None`, break/continue.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import difflib
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import _mutantrun as _wire
from . import golden as golden_file
from .authoring import copy_code, run_cases
from .compliance import python as python_compliance
from .diff import compare_items
from .observe import pack, unpack
from .runners import load
from .task import Task, TaskError

MUTANTS_FILE = "tests/mutants.toml"

_COMPARE = {ast.Lt: (ast.LtE, "<", "<="), ast.LtE: (ast.Lt, "<=", "<"),
            ast.Gt: (ast.GtE, ">", ">="), ast.GtE: (ast.Gt, ">=", ">"),
            ast.Eq: (ast.NotEq, "==", "!="), ast.NotEq: (ast.Eq, "!=", "=="),
            ast.In: (ast.NotIn, "in", "not in"), ast.NotIn: (ast.In, "not in", "in"),
            ast.Is: (ast.IsNot, "is", "is not"), ast.IsNot: (ast.Is, "is not", "is")}
_BINARY = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "/"),
           ast.Div: ("/", "*"), ast.FloorDiv: ("//", "/"), ast.Mod: ("%", "//"),
           ast.Pow: ("**", "*"), ast.BitAnd: ("&", "|"), ast.BitOr: ("|", "&"),
           ast.BitXor: ("^", "&"), ast.LShift: ("<<", ">>"), ast.RShift: (">>", "<<")}
_NAMES = {"<": "lt", "<=": "lte", ">": "gt", ">=": "gte", "==": "eq", "!=": "ne", "in": "in",
          "not in": "notin", "is": "is", "is not": "isnot", "+": "add", "-": "sub",
          "*": "mul", "/": "div", "//": "floordiv", "%": "mod", "**": "pow", "&": "and",
          "|": "or", "^": "xor", "<<": "lshift", ">>": "rshift"}


@dataclass
class Mutant:
    file: str  # relative to the reference root
    line: int
    col: int
    kind: str
    start: int  # byte offsets in the file's source
    end: int
    replacement: bytes
    statement_line: int = 0  # first line of the statement it is in (what coverage reports)
    # Where the changed text starts ("@line:col"), added to the id only when
    # two mutants of the file would share it (each `+` of `a + b + c` is a
    # node starting at `a`): every id names one mutant, and ids that were
    # unique stay as they were.
    tag: str = ""

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.col}:{self.kind}{self.tag}"

    def apply(self, source: bytes) -> bytes:
        return source[:self.start] + self.replacement + source[self.end:]

    def diff(self, source: bytes) -> str:
        before = source.decode(errors="replace").splitlines(keepends=True)
        after = self.apply(source).decode(errors="replace").splitlines(keepends=True)
        return "".join(difflib.unified_diff(before, after, f"a/{self.file}", f"b/{self.file}", n=1))


@dataclass
class Outcome:
    mutant: Mutant
    status: str  # killed | survived | not-covered | equivalent
    why: str = ""
    diff: str = ""


@dataclass
class MutationReport:
    task: str
    outcomes: list[Outcome] = field(default_factory=list)
    baseline_ignored: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    setup_s: float = 0.0  # copying the task, the first plain run: not in the time budget
    drawn_from: int = 0  # every mutant of the reference (the outcomes are a sample when fewer)
    stopped: str = ""  # why the run ended before its last mutant, if it did
    unknown_equivalents: list[str] = field(default_factory=list)  # listed, but no such mutant

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def score(self) -> float | None:
        scored = len(self.outcomes) - self.count("equivalent")
        return self.count("killed") / scored if scored else None

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task, "mutants": len(self.outcomes), "drawn_from": self.drawn_from,
                "killed": self.count("killed"), "survived": self.count("survived"),
                "not_covered": self.count("not-covered"),
                "equivalent": self.count("equivalent"), "score": self.score,
                "elapsed_s": round(self.elapsed_s, 2), "setup_s": round(self.setup_s, 2),
                "stopped": self.stopped, "unknown_equivalents": self.unknown_equivalents,
                "baseline_ignored": self.baseline_ignored,
                "outcomes": [{"id": o.mutant.id, "status": o.status, "why": o.why,
                              "diff": o.diff} for o in self.outcomes]}


class _Offsets:
    """(line, column in UTF-8 bytes) -> byte offset in the source."""

    def __init__(self, source: bytes) -> None:
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def __call__(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col


def _inert(tree: ast.AST) -> set[int]:
    """Nodes whose mutants change nothing a case can observe: annotations
    (strings or not) and assert messages."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        parts: list[ast.AST | None] = []
        if isinstance(node, ast.arg):
            parts.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parts.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            parts.append(node.annotation)
        elif isinstance(node, ast.Assert):
            parts.append(node.msg)
        for part in parts:
            if part is not None:
                ids.update(id(n) for n in ast.walk(part))
    return ids


TABLE_SIZE = 64  # a literal container with more elements than this is data


def _tables(tree: ast.AST) -> set[int]:
    """Nodes inside literal containers of more than TABLE_SIZE elements (a
    Unicode table, a list of keywords): data, not logic. Changing one entry
    tests the table rather than the code, and a file of such tables would
    otherwise yield tens of thousands of mutants, each checked by parsing the
    whole file."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        size = len(node.keys) if isinstance(node, ast.Dict) else \
            len(node.elts) if isinstance(node, (ast.List, ast.Tuple, ast.Set)) else 0
        if size > TABLE_SIZE and id(node) not in ids:
            ids.update(id(n) for n in ast.walk(node))
    return ids


def _statement_lines(tree: ast.AST) -> dict[int, int]:
    """Each node's innermost enclosing statement's first line."""
    lines: dict[int, int] = {}
    for stmt in ast.walk(tree):  # outer statements come first: inner ones overwrite
        if isinstance(stmt, ast.stmt):
            for n in ast.walk(stmt):
                lines[id(n)] = stmt.lineno
    return lines


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            ids.add(id(node.body[0].value))
    return ids


def _skipped_lines(source: bytes, tree: ast.Module) -> set[int]:
    """Lines marked `# pragma: no mutate`, `if __name__ == "__main__":` blocks
    and `__all__` (it only matters to `import *`, which no case can do)."""
    lines = {i + 1 for i, text in enumerate(source.splitlines())
             if b"pragma: no mutate" in text}
    for node in tree.body:
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test) or \
                isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and "__all__" in [
                    getattr(t, "id", None) for t in getattr(node, "targets", [])
                    + [getattr(node, "target", None)]]:
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def mutants_of(rel: str, source: bytes) -> list[Mutant]:
    """Every mutant of one file, in source order."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    at = _Offsets(source)
    docs = _docstrings(tree) | _inert(tree) | _tables(tree)
    skip = _skipped_lines(source, tree)
    statement = _statement_lines(tree)
    out: list[Mutant] = []

    def span(node: ast.AST) -> tuple[int, int]:
        return (at(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                at(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]

    def add(node: ast.AST, kind: str, start: int, end: int, text: bytes) -> None:
        line: int = node.lineno  # type: ignore[attr-defined]
        out.append(Mutant(rel, line, node.col_offset, kind,  # type: ignore[attr-defined]
                          start, end, text, statement.get(id(node), line)))

    def swap_between(node: ast.AST, left: ast.AST, right: ast.AST, old: str, new: str,
                     kind: str) -> None:
        start, end = span(left)[1], span(right)[0]
        gap = source[start:end].decode()
        # The operator is the gap's only token besides brackets and comments.
        code = gap.split("#", 1)[0]
        i = code.find(old)
        if i < 0:
            return
        add(node, kind, start, end, (gap[:i] + new + gap[i + len(old):]).encode())

    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip or id(node) in docs:
            continue
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators, strict=True):
                new_op, old, new = _COMPARE[type(op)]
                swap_between(node, left, right, old, new, f"{_NAMES[old]}-to-{_NAMES[new]}")
                left = right
        elif isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            old, new = _BINARY[type(node.op)]
            swap_between(node, node.left, node.right, old, new,
                         f"{_NAMES[old]}-to-{_NAMES[new]}")
        elif isinstance(node, ast.AugAssign) and type(node.op) in _BINARY:
            old, new = _BINARY[type(node.op)]
            swap_between(node, node.target, node.value, old + "=", new + "=",
                         f"{_NAMES[old]}=-to-{_NAMES[new]}=")
        elif isinstance(node, ast.BoolOp):
            old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            start, end = span(node.values[0])[1], span(node.values[1])[0]
            gap = source[start:end].decode()
            i = gap.find(old)
            if i >= 0:
                add(node, f"{old}-to-{new}", start, end,
                    (gap[:i] + new + gap[i + len(old):]).encode())
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            start, end = span(node)[0], span(node.operand)[0]
            add(node, "drop-not", start, end, b"")
        elif isinstance(node, (ast.If, ast.While)) and not isinstance(node.test, ast.Compare) \
                and not (isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not)):
            start, end = span(node.test)
            add(node.test, "negate-condition", start, end,
                b"not (" + source[start:end] + b")")
        elif isinstance(node, ast.Constant):
            start, end = span(node)
            v = node.value
            if isinstance(v, bool):
                add(node, f"{v}-to-{not v}", start, end, repr(not v).encode())
            elif isinstance(v, int):
                add(node, "int-plus-1", start, end, repr(v + 1).encode())
            elif isinstance(v, str) and v and source[start:end][:1] in (b"'", b'"'):
                add(node, "string-changed", start, end, repr("XX" + v + "XX").encode())
        elif isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            start, end = span(node.value)
            add(node, "return-none", start, end, b"None")
        elif isinstance(node, ast.Break):
            start, end = span(node)
            add(node, "break-to-continue", start, end, b"continue")
        elif isinstance(node, ast.Continue):
            start, end = span(node)
            add(node, "continue-to-break", start, end, b"break")
    valid = []
    for m in sorted(out, key=lambda m: (m.start, m.kind)):
        try:
            ast.parse(m.apply(source))
        except (SyntaxError, ValueError):
            continue
        valid.append(m)
    seen = collections.Counter(m.id for m in valid)
    for m in valid:
        if seen[m.id] > 1:
            line = source.count(b"\n", 0, m.start) + 1
            col = m.start - (source.rfind(b"\n", 0, m.start) + 1)
            m.tag = f"@{line}:{col}"
    return valid


def _sources(task: Task, root: Path) -> Iterator[tuple[str, Path]]:
    rules = task.settings.compliance
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames if not python_compliance.ignored(d)
                             and not python_compliance.excluded(
                                 os.path.normpath(os.path.join(rel_dir, d)), rules))
        for name in sorted(filenames):
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if name.endswith(".py") and not python_compliance.excluded(rel, rules):
                yield rel, Path(dirpath) / name


def equivalent_ids(task: Task) -> set[str]:
    path = task.path / MUTANTS_FILE
    if not path.is_file():
        return set()
    try:
        doc = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(task.path, [f"{MUTANTS_FILE}: malformed TOML ({exc})"]) from None
    eq = doc.get("equivalent", [])
    if not isinstance(eq, list) or not all(isinstance(x, str) for x in eq):
        raise TaskError(task.path, [f"{MUTANTS_FILE}.equivalent: must be a list of mutant ids"])
    return set(eq)


def mutate(path: str | Path, *, limit: int | None = None, seed: int = 0,
           max_time: float | None = None,
           progress: Callable[[str], None] | None = None,
           fresh: bool = False) -> MutationReport:
    """Run every mutant of a module, package or repository task's reference
    (or `limit` of them, drawn with `seed`) against its functional cases.

    The mutants run in an order drawn with `seed`, so the ones run before a
    stop (`max_time` seconds, or Ctrl-C) are a random sample of them, not
    the first lines of the first file; the report says where it stopped.

    Module and package mutants are forked from one warm worker and stopped
    at their first differing case (`_WarmJudge`); `fresh` runs each in a
    new interpreter with every case instead (the path before, for
    comparison: bench/mutate_speed.py)."""
    started = time.perf_counter()
    # The task as named is checked first, so that its errors (a missing or
    # broken directory, a kernel task) name it and nothing is copied for them.
    named, _ = load(path)
    if named.scale not in ("module", "package", "repository"):
        raise TaskError(named.path, [f"mutate works on module, package and repository tasks "
                                     f"(Python sources), not {named.scale}"])
    with tempfile.TemporaryDirectory(prefix="fm-mutate-") as tmp:
        # The task is read from a copy taken now. A run takes minutes to hours,
        # and an author who edits the cases or adds a fixture meanwhile would
        # otherwise change what the later mutants run on: a new fixture file
        # reads as a difference in every case that lists its directory, and
        # kills mutants that survive.
        snapshot = Path(tmp) / "task"
        shutil.copytree(named.path, snapshot, symlinks=True)
        try:
            return _mutate(snapshot, Path(tmp), limit=limit, seed=seed, max_time=max_time,
                           progress=progress, started=started, fresh=fresh)
        except TaskError as exc:
            raise TaskError(named.path, exc.problems) from None


def _mutate(path: Path, tmp: Path, *, limit: int | None, seed: int, max_time: float | None,
            progress: Callable[[str], None] | None, started: float,
            fresh: bool = False) -> MutationReport:
    task, runner = load(path)
    recorded = golden_file.load(task, golden_file.digest(task.reference_dir,
                                                         runner.held_out(task)))
    cases = runner.cases(task)
    equivalent = equivalent_ids(task)
    report = MutationReport(task=task.name)
    judge: _Judge = _ProgramJudge(task, runner, cases, tmp) if task.scale == "repository" \
        else _FunctionJudge(task, cases, tmp) if fresh else _WarmJudge(task, cases, tmp)
    judge.excluded = list(recorded["excluded"])
    with judge:
        t0 = time.perf_counter()
        base = judge.baseline()
        base_s = time.perf_counter() - t0
        # Items this plain run cannot reproduce (they depend on the worker's
        # surroundings) cannot tell mutants apart: they are left out.
        same = {r.id for r in compare_items(recorded["items"], base,
                                                 excluded=recorded["excluded"],
                                                 tolerance=task.tolerance) if r.passed}
        compared = {k: v for k, v in recorded["items"].items() if k in same}
        report.baseline_ignored = sorted(set(recorded["items"]) - set(compared))
        judge.prepare(compared)
        mutants = [m for rel, p in judge.sources() for m in mutants_of(rel, p.read_bytes())]
        report.drawn_from = len(mutants)
        # An id in mutants.toml that names no mutant (a line moved, a typo) is
        # said, not silently ignored: the mutant it meant would count as survived.
        report.unknown_equivalents = sorted(equivalent - {m.id for m in mutants})
        mutants = random.Random(seed).sample(mutants, min(len(mutants), limit or len(mutants)))
        timeout = judge.timeout(base_s)
        # The budget is for mutants: set-up (the copies, the first plain run,
        # which may take minutes on a big task) is reported apart.
        report.setup_s = time.perf_counter() - started
        budget_start = time.perf_counter()

        def judge_one(n: int, m: Mutant) -> None:
            file = judge.root / m.file
            source = file.read_bytes()
            diff = m.diff(source)
            if m.id in equivalent:
                report.outcomes.append(Outcome(m, "equivalent", "listed in " + MUTANTS_FILE,
                                               diff))
                return
            if judge.executed is not None:
                ran = judge.executed.get(m.file, set())
                if m.line not in ran and m.statement_line not in ran:
                    report.outcomes.append(Outcome(m, "not-covered",
                                                   "no case runs this line", diff))
                    return
            if progress:
                progress(f"mutant {n + 1}/{len(mutants)}, {report.count('killed')} killed, "
                         f"{report.count('survived')} survived so far: {m.id}")
            try:
                file.write_bytes(m.apply(source))
                why = judge.killed_by(compared, timeout)
            finally:
                file.write_bytes(source)
            report.outcomes.append(Outcome(m, "killed" if why else "survived", why or "",
                                           diff))

        try:
            for n, m in enumerate(mutants):
                if max_time is not None and time.perf_counter() - budget_start > max_time:
                    report.stopped = (f"the time budget ({max_time:g} s, set-up "
                                      f"{report.setup_s:.0f} s apart) ran out after "
                                      f"{n} of {len(mutants)} mutants")
                    break
                judge_one(n, m)
        except KeyboardInterrupt:
            report.stopped = (f"interrupted after {len(report.outcomes)} of "
                              f"{len(mutants)} mutants")
        report.outcomes.sort(key=lambda o: (o.mutant.file, o.mutant.start, o.mutant.kind))
    report.elapsed_s = time.perf_counter() - started
    return report


class _Judge:
    """Runs the cases on the code at `root` (a private copy of the reference
    that each mutant is written into) and says whether the observations
    differ from the golden items."""

    root: Path
    executed: dict[str, set[int]] | None = None  # lines the cases run; None: not measured
    excluded: list[str] | tuple[()] = ()  # what the recording excluded (items, keys of one)

    def sources(self) -> Iterator[tuple[str, Path]]:
        raise NotImplementedError

    def baseline(self) -> dict[str, Any]:
        """The items of the unchanged reference (and `executed`, where measured)."""
        raise NotImplementedError

    def killed_by(self, expected: dict[str, Any], timeout: float) -> str | None:
        raise NotImplementedError

    def prepare(self, expected: dict[str, Any]) -> None:
        """Called once with the items mutants are compared on, before the first."""

    def timeout(self, baseline_s: float) -> float:
        """How long a mutant may take (wall clock) before it counts as hung."""
        return max(10.0, baseline_s * 5)

    def __enter__(self) -> _Judge:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class _FunctionJudge(_Judge):
    """Module and package scale: all cases in one child process per mutant
    (authoring.run_cases), coverage.py on the baseline run."""

    def __init__(self, task: Task, cases: list[Any], tmp: Path) -> None:
        self.task = task
        self.cases = cases
        self.root = copy_code(task, task.reference_dir, tmp)

    def sources(self) -> Iterator[tuple[str, Path]]:
        return _sources(self.task, self.root)

    def baseline(self) -> dict[str, Any]:
        base = run_cases(self.task, self.root, self.cases, coverage=True, every_line=True,
                         timeout=max(60.0, self.task.case_timeout_s))
        if base.error or base.failures:
            raise TaskError(self.task.path, [
                f"the reference does not run its cases here: "
                f"{base.error or next(iter(base.failures.items()))}"])
        self.executed = {rel: set(f["executed_lines"]) for rel, f in
                         (base.coverage or {}).get("files", {}).items()}
        return base.items

    def killed_by(self, expected: dict[str, Any], timeout: float) -> str | None:
        return _killed_by(run_cases(self.task, self.root, self.cases, timeout=timeout),
                          expected, self.task, self.excluded)


# A mutant's child is ended as hung after this many times the CPU time the
# reference's own child took (import and every case), and never below the floor.
CPU_FACTOR = 20.0
CPU_FLOOR_S = 0.5


class _WarmJudge(_FunctionJudge):
    """Module and package scale, fast: one warm worker (_mutantrun.py) for
    the whole run, a fresh child forked from it per mutant, the cases that
    killed most mutants so far run first, and the child stopped at the first
    case whose items differ.

    Isolation between mutants is by fork, not by clean-up: the warm worker
    has imported the worker's modules and the standard library modules the
    reference uses, and compiled the reference's files, but never imported
    or run the reference; each mutant is imported and run in a child of it
    that ends with the mutant, so module state, caches, patched modules and
    threads left by one mutant are never seen by the next. Re-importing the
    mutated modules in one long-lived process would not give that: a mutant
    can change what it does not own (a standard-library module, builtins, a
    registry), and purging `sys.modules` undoes none of it.

    The order of the cases changes only where the reference itself does not
    care: its cases run in reverse give the golden items (checked once,
    `prepare`). A mutant that passes every case in the changed order is run
    once more in the cases' own order, so every mutant the plain run kills
    is killed here too (one whose outputs depend on what ran before
    included). Coverage is still measured by one plain run at set-up (the
    base class's `baseline`), as is the wall-clock timeout's base. Each child
    is also ended when its CPU time passes CPU_FACTOR times the reference's
    own child's (at least CPU_FLOOR_S): a loop costs that, not the wall-clock
    timeout, which a busy machine stretches (at load 18 on 2 CPUs a hung
    mutant took its full 14 s)."""

    def __init__(self, task: Task, cases: list[Any], tmp: Path) -> None:
        super().__init__(task, cases, tmp)
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None
        self.kills: collections.Counter[int] = collections.Counter()
        self.by_case: dict[str, dict[str, Any]] = {}
        self.order_free = False
        self.cpu_limit = 60.0
        self.preload: list[str] = []
        self.cold_s = 0.0

    # ---- the warm worker

    def _start(self) -> None:
        self._stop_worker()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["PYTHONHASHSEED"] = "0"
        home = self.tmp / "warm"
        home.mkdir(exist_ok=True)
        self.proc = subprocess.Popen([sys.executable, "-B", "-m", "frontier_measure._mutantrun"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=home, env=env)
        self._send({"init": {"root": str(self.root), "entry": self.task.entry,
                             "imports": list(self.task.imports),
                             "errfile": str(home / "stderr"),
                             "cases": [[c.id, c.payload] for c in self.cases]}})
        self._expect_ok()
        if self.preload:
            self._send({"preload": self.preload})
            self._expect_ok()

    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # it ended: the next read says so
            _wire.write_frame(self.proc.stdin.fileno(), b"E", pack(msg))

    def _read(self, deadline: float | None) -> tuple[bytes, Any] | None:
        """The worker's next frame; None when `deadline` passes first.
        _WorkerGone when the worker ended."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        if deadline is not None:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
        got = _wire.read_frame(fd)
        if got is None:
            raise _WorkerGone(f"the warm worker ended (status {self.proc.wait()})")
        kind, body = got
        return kind, unpack(body)

    def _expect_ok(self) -> None:
        got = self._read(time.monotonic() + 600)
        if got is None or got[0] != b"Z" or not got[1].get("ok"):
            raise TaskError(self.task.path, ["the warm worker of mutate did not start"])

    def _stop_worker(self) -> None:
        if self.proc is not None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self.proc = None

    def __exit__(self, *exc: object) -> None:
        self._stop_worker()

    # ---- one run of the cases in a fresh child

    def _run(self, order: list[int], timeout: float,
             check: Callable[[int, dict[str, Any]], str | None] | None,
             modules: bool = False) -> _WarmRun:
        """Run the cases of `order` in a child; `check(case index, frame)`
        says why the child is stopped (the first difference), or None."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        run = _WarmRun()
        self._send({"run": {"order": order, "cpu": self.cpu_limit, "modules": modules}})
        deadline = time.monotonic() + timeout
        stopped = False
        while True:
            got = self._read(None if stopped else deadline)
            if got is None:  # hung: stopped, and its end awaited without a deadline
                run.why = run.why or f"timed out after {timeout:g} s"
                self._send({"stop": True})
                stopped = True
                continue
            kind, msg = got
            if kind == b"Z":
                if "started" in msg:
                    continue
                run.cpu_s = float(msg.get("cpu_s", 0.0))
                if run.why is None and not run.done:
                    run.why = self._ended(msg)
                return run
            if "error" in msg:
                run.error = str(msg["error"])
            elif "done" in msg:
                run.done = True
                run.modules = list(msg.get("modules", []))
            elif "case" in msg:
                i = int(msg["case"])
                if "failure" in msg:
                    run.failures[self.cases[i].id] = str(msg["failure"])
                else:
                    run.items.update(msg["items"])
                if run.why is None and check is not None:
                    run.why = check(i, msg)
                    if run.why is not None:
                        run.killer = i
            if run.error and run.why is None:
                run.why = run.error
            if run.why is not None and not stopped:
                self._send({"stop": True})
                stopped = True

    def _ended(self, msg: dict[str, Any]) -> str:
        if msg.get("bad"):
            return f"wrote {msg['bad']}"
        status = int(msg.get("exit", 0))
        if msg.get("over_cpu") or status in (-signal.SIGXCPU, -signal.SIGKILL) \
                and not msg.get("stopped"):
            return f"used more than its CPU time limit ({self.cpu_limit:.2g} s)"
        tail = str(msg.get("stderr", "")).strip().splitlines()[-3:]
        return f"exited with status {status}: " + " | ".join(tail)

    # ---- the judge

    def baseline(self) -> dict[str, Any]:
        t0 = time.perf_counter()
        cold = super().baseline()
        self.cold_s = time.perf_counter() - t0
        everything = list(range(len(self.cases)))
        # A first warm run says which standard-library modules the reference
        # imports: the warm worker then imports them once, for every child.
        probe = self._run(everything, max(60.0, self.task.case_timeout_s), None, modules=True)
        self.preload = probe.modules
        self._send({"preload": self.preload})
        self._expect_ok()
        warm = self._run(everything, max(60.0, self.task.case_timeout_s), None)
        if warm.why or warm.failures:
            raise TaskError(self.task.path, [
                f"the reference does not run its cases in mutate's warm worker: "
                f"{warm.why or next(iter(warm.failures.items()))}"])
        self.cpu_limit = max(CPU_FLOOR_S, CPU_FACTOR * warm.cpu_s)
        # Only items both runs reproduce are compared (an item that depends on
        # the process it runs in cannot tell mutants apart).
        same = {r.id for r in compare_items(cold, warm.items, excluded=self.excluded,
                                            tolerance=self.task.tolerance) if r.passed}
        return {k: v for k, v in cold.items() if k in same}

    def prepare(self, expected: dict[str, Any]) -> None:
        for key, value in expected.items():
            self.by_case.setdefault(key.split("/", 1)[0], {})[key] = value
        backwards = list(range(len(self.cases)))[::-1]
        rev = self._run(backwards, max(60.0, self.task.case_timeout_s), self._differs)
        self.order_free = rev.why is None and rev.done

    def timeout(self, baseline_s: float) -> float:
        return max(10.0, self.cold_s * 5)

    def _differs(self, i: int, msg: dict[str, Any]) -> str | None:
        cid = self.cases[i].id
        if "failure" in msg:
            return f"case '{cid}' failed: {msg['failure']}"
        return _first_difference(self.by_case.get(cid, {}), msg["items"], self.task,
                                 self.excluded)

    def order(self) -> list[int]:
        plain = list(range(len(self.cases)))
        if not self.order_free:
            return plain
        return sorted(plain, key=lambda i: -self.kills[i])

    def killed_by(self, expected: dict[str, Any], timeout: float) -> str | None:
        order = self.order()
        why = self._judged(order, timeout)
        if why is None and order != list(range(len(self.cases))):
            # Passed every case in the changed order: once more in their own.
            why = self._judged(list(range(len(self.cases))), timeout)
        return why

    def _judged(self, order: list[int], timeout: float) -> str | None:
        for attempt in (1, 2):
            try:
                run = self._run(order, timeout, self._differs)
            except _WorkerGone as exc:
                # The warm worker itself ended (the machine's OOM killer, say):
                # started again, and the mutant run once more before it counts.
                self.proc = None
                if attempt == 2:
                    return str(exc)
                continue
            if run.killer is not None:
                self.kills[run.killer] += 1
            return run.why
        return None


class _WorkerGone(Exception):
    pass


@dataclass
class _WarmRun:
    items: dict[str, Any] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    why: str | None = None  # the first difference, failure or end: why it is killed
    killer: int | None = None  # the case that showed it
    done: bool = False
    modules: list[str] = field(default_factory=list)
    cpu_s: float = 0.0


class _ProgramJudge(_Judge):
    """Repository scale: the mutated program is the candidate side of a real
    repository session (built by the task's build command, its commands run in
    the sandbox), observed one case at a time. A mutant is killed at its first
    differing item, and the case that killed it is tried first on the next
    mutant: most mutants break the same few cases, so a killed mutant costs a
    build and a case or two instead of the whole functional run (minutes for a
    real program). Coverage is not measured here (the commands run other
    programs in a sandbox), so a mutant on a line no case runs survives."""

    def __init__(self, task: Task, runner: Any, cases: list[Any], tmp: Path) -> None:
        self.task = task
        self.cases = list(cases)
        self.root = tmp / "side"
        shutil.copytree(task.reference_dir, self.root, symlinks=True,
                        ignore=lambda _d, names: {n for n in names
                                                  if python_compliance.ignored(n)})
        self.session = runner.open_session(task, self.root, isolation="local")

    def sources(self) -> Iterator[tuple[str, Path]]:
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not python_compliance.ignored(d))
            for name in sorted(filenames):
                if name.endswith(".py"):
                    path = Path(dirpath) / name
                    yield os.path.relpath(path, self.root), path

    def _items(self, cases: list[Any]) -> tuple[dict[str, Any], str | None]:
        obs = self.session.observe("candidate", cases)
        failed = next(iter(obs.failures.items()), None)
        return obs.items, failed and f"case '{failed[0]}' failed: {failed[1]}"

    def baseline(self) -> dict[str, Any]:
        build = self.session.build("candidate")
        if not build.ok:
            raise TaskError(self.task.path, [f"the reference does not build here: "
                                             f"{build.status}: {build.log[-400:]}"])
        items, failed = self._items(self.cases)
        if failed:
            raise TaskError(self.task.path, [f"the reference does not run its cases here: "
                                             f"{failed}"])
        return items

    def killed_by(self, expected: dict[str, Any], timeout: float) -> str | None:
        build = self.session.build("candidate")
        if not build.ok:
            return f"the build failed: {build.status}"
        for case in list(self.cases):
            items, failed = self._items([case])
            why = failed or _first_difference(
                {k: v for k, v in expected.items() if k.split("/", 1)[0] == case.id},
                items, self.task, self.excluded)
            if why:
                self.cases.remove(case)
                self.cases.insert(0, case)
                return why
        return None

    def __exit__(self, *exc: object) -> None:
        self.session.close()


def _killed_by(run: Any, expected: dict[str, Any], task: Task,
               excluded: list[str] | tuple[()]) -> str | None:
    if run.error:
        return str(run.error)
    if run.failures:
        cid, why = next(iter(run.failures.items()))
        return f"case '{cid}' failed: {why}"
    return _first_difference(expected, run.items, task, excluded)


def _first_difference(expected: dict[str, Any], items: dict[str, Any], task: Task,
                      excluded: list[str] | tuple[()]) -> str | None:
    """The first item that differs, compared as `eval` compares it."""
    for r in compare_items(expected, items, excluded=excluded, tolerance=task.tolerance,
                           missing_reason={}):
        if not r.passed:
            return f"{r.id}: {'missing' if r.missing else r.diff[0]}"
    return None
