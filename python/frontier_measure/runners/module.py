"""The runner for module and package scale: Python code run in worker processes.

A case is a call (module) or a short script of operations on a package's API;
each operation gives items: its return value or exception, the state of each
mutable argument afterwards, and its stdout (worker.py). Settings, in task.toml
and tests/:

    [metadata.frontier]  entry = "dedupe" (a module or, at package scale, a package)
    tests/checklist.toml [compliance] allowed_imports, prohibited_calls, allow
    tests/cases.py       cases() and timing_inputs() (docs/reference/task-format.md)

Each side runs in worker processes (frontier_measure.worker) started by the
core's process runner from a private copy of the side's directory, as the
side's own unprivileged account when we are root, in the side's own cgroup
(isolation/cgroups.py) with a pids and a memory limit. Only plain data crosses
(observe.py).

Timing, per timing input, is a plan of blocks (perf.run_blocks): each block is
a pair of fresh workers, one per side, timed against each other in AB/BA pairs
through the core's scheduler; a fresh process per block puts the variation
between processes (memory layout, start-up state) into the interval. The
measurement belongs to the evaluator (see worker.py): a batch of `loops` calls,
each on a fresh seeded input, is timed from sending its inputs to receiving
every output as plain data; `cpu` cost is the side's cgroup's CPU time over the
same window. The idle side's cgroup is frozen. Every timed call's outputs are
compared with the reference's on the same input, chosen after the replies are
in, so caching across calls or a result that differs only where nobody looks
fails the candidate.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import hashlib
import json
import os
import random
import re
import secrets
import select
import shutil
import stat
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _core
from ..compliance import Finding
from ..compliance import python as python_compliance
from ..diff import Tolerance, differences
from ..isolation import (
    Policy,
    cgroups,
    claim_uids,
    guard_acquire,
    guard_release,
    is_root,
    release_uids,
    sandbox,
    seccomp,
    sweep,
)
from ..observe import (
    DEFAULT_MAX_ITEM_MB,
    DecodeError,
    ItemCapExceeded,
    Ref,
    ReplyCapExceeded,
    TimedOutputs,
    from_timed,
    pack,
    stream_items,
    unpack_reply,
    values_cap,
)
from ..task import Task, TaskError, call_author, check_covers, check_size, get, reference_dir, run_author
from ..worker import OPERATIONS, VIOLATION_EXIT, split_call
from . import (
    Build,
    Case,
    InputTiming,
    Observation,
    Problem,
    Progress,
    SideFailure,
    SideStartError,
    TimingInput,
    fresh_timing_seed,
)

SIDES = ("reference", "candidate")
KINDS = ("call", "get", "op")
COSTS = ("wall", "cpu")
_HEADER = struct.Struct(">I")
# Caps on what the evaluator reads from a side's worker per reply: bytes, and
# values (each becomes a Python object here; see observe.unpack_reply).
MAX_REPLY = 64 << 20
MAX_REPLY_VALUES = 4_000_000
MAX_TIMEOUTS = 3  # hung cases before the rest of a side's cases are given up
CLOSE_LIMIT_S = 5.0  # a worker asked to exit that has not is killed


# --------------------------------------------------------------------- settings

@dataclass
class Compliance:
    """Source rules for the candidate (tests/checklist.toml [compliance])."""

    allowed_imports: list[str] = field(default_factory=list)  # module roots; own modules implied
    prohibited_calls: list[str] = field(default_factory=list)  # dotted names, e.g. "time.sleep"
    allow: list[str] = field(default_factory=list)  # escape hatches the task permits
    exclude: list[str] = field(default_factory=list)  # paths that are not candidate code
    # What the standard library and permitted libraries import for themselves
    # (importlib.resources importing tempfile): "any" module, or only "listed"
    # ones (allowed_imports), as if the candidate had imported them.
    library_imports: str = "any"


LIBRARY_IMPORTS = ("any", "listed")
COMPLIANCE_KEYS = ("allowed_imports", "prohibited_calls", "allow", "exclude", "library_imports")


@dataclass
class Settings:
    compliance: Compliance


def configure(task: Task) -> None:
    problems: list[str] = []
    root = task.path
    where = "task.toml [metadata.frontier]"
    if not task.entry:
        problems.append(f"{where}: missing field 'entry' (the module or package under test)")
    if task.cost not in COSTS:
        problems.append(f"{where}.cost: '{task.cost}' cannot be measured for Python code "
                        "(choose wall or cpu)")
    for rel in ("tests/checklist.toml", "tests/cases.py"):
        if not (root / rel).is_file():
            problems.append(f"{rel}: missing")
    if (root / "tests/checklist.toml").is_file() and not task.behaviours:
        problems.append("tests/checklist.toml [behaviours]: missing or empty "
                        "(list every promised behaviour)")
    comp = task.checklist.get("compliance", {})
    cw = "tests/checklist.toml [compliance]"
    rules = Compliance()
    if not isinstance(comp, dict):
        problems.append(f"{cw}: must be a table")
        comp = {}
    for key in ("allowed_imports", "prohibited_calls", "allow", "exclude"):
        v = get(comp, key, list, cw, problems, default=[])
        if not all(isinstance(x, str) for x in v):
            problems.append(f"{cw}.{key}: must be a list of strings")
            v = []
        setattr(rules, key, v)
    mode = get(comp, "library_imports", str, cw, problems, default="any")
    if mode not in LIBRARY_IMPORTS:
        problems.append(f"{cw}.library_imports: '{mode}' is not one of "
                        f"{', '.join(repr(m) for m in LIBRARY_IMPORTS)}")
    else:
        rules.library_imports = mode
    for key in sorted(set(comp) - set(COMPLIANCE_KEYS)):
        problems.append(f"{cw}.{key}: not a setting of {task.scale} scale (the settings are "
                        f"{', '.join(COMPLIANCE_KEYS)})")
    for bad in python_compliance.split_allow(rules.allow)[2]:
        problems.append(f"{cw}.allow: '{bad}' is not an escape hatch's name, nor the one exact "
                        "call that can be permitted, os.system('...') with a string literal")
    ref = reference_dir(root)
    entry = task.entry
    if entry and ref.is_dir() and not (
        (ref / f"{entry}.py").is_file() or (ref / entry / "__init__.py").is_file()
    ):
        problems.append(f"{where}.entry: '{entry}' is neither {entry}.py nor "
                        f"{entry}/__init__.py in {ref.relative_to(root)}/")
    if task.scale == "package" and entry and ref.is_dir() and (ref / f"{entry}.py").is_file():
        problems.append(f"{where}.entry: a package-scale entry must be a package directory")
    for i, name in enumerate(task.imports):
        path = ref / Path(*name.split("."))
        if ref.is_dir() and not (path.with_suffix(".py").is_file()
                                 or (path / "__init__.py").is_file()):
            problems.append(f"{where}.import[{i}]: '{name}' is neither "
                            f"{path.relative_to(ref)}.py nor {path.relative_to(ref)}/__init__.py "
                            f"in {ref.relative_to(root)}/")
    if problems:
        raise TaskError(root, problems)
    task.settings = Settings(compliance=rules)


_REF = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def _argument(value: Any, bound: set[str], where: str) -> Any:
    """One argument as the worker gets it: `"$name"` is the value an earlier
    operation kept with `"as": "name"` (a Ref), `"$$..."` the literal string
    `"$..."`; any other value is passed as it is."""
    if isinstance(value, Ref):
        value = "$" + value.name
    if isinstance(value, (list, tuple, dict)):
        _no_nested_reference(value, bound, where)
        return value
    if not isinstance(value, str) or not value.startswith("$"):
        return value
    if value.startswith("$$"):
        return value[1:]
    m = _REF.fullmatch(value)
    if m is None:
        if _REF.match(value):
            raise ValueError(f"{where}: '{value}' is not a reference: an argument names a kept "
                             "value as a whole ('$name'; take an attribute with a 'get' op and "
                             "'as' first); write '$$' for a literal '$'")
        return value  # "$5", "$": not reference syntax, a literal
    if m.group(1) not in bound:
        raise ValueError(f"{where}: '{value}' names no value kept by an earlier operation "
                         f"(kept so far: {', '.join(sorted(bound)) or 'none'}; write '$$' "
                         "for a literal '$')")
    return Ref(m.group(1))


def _no_nested_reference(value: Any, bound: set[str], where: str) -> None:
    """A "$name" naming a kept value inside a list or dict would be passed on
    as that string (references are replaced only as whole arguments), which
    is never what the author meant: say so instead of testing nothing."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(item, (list, tuple, dict)):
            _no_nested_reference(item, bound, f"{where}[{key!r}]")
        elif isinstance(item, (str, Ref)):
            m = _REF.fullmatch("$" + item.name if isinstance(item, Ref) else item)
            if m is not None and m.group(1) in bound:
                raise ValueError(
                    f"{where}[{key!r}]: '{m.group(0)}' inside a list or dict is not replaced "
                    f"by the kept value (only a whole argument is a reference): build the "
                    f"container with operations first (e.g. {{\"op\": \"list\", \"args\": "
                    f"[...]}}, or a call that appends to it) and pass it as '$name'")


def normalise_ops(raw: Any) -> list[dict[str, Any]]:
    """A case or timed call as a list of operations.

    Module form: {"call": "fn", "args": [...], "kwargs": {...}}.
    Package form: {"ops": [op, ...]} where an op is one of
        {"call": "Name" | "$obj.method", "args", "kwargs", "as": "obj"}
        {"get": "$obj.attr" | "Name", "as": ...}
        {"op": "len" | "==" | "in" | "[]" | ..., "args": [...], "as": ...}
          (a builtin or operator applied to its args, worker.OPERATIONS)
    An argument "$obj" (top level of args or a kwargs value) is the value an
    earlier operation of the same case kept with "as": "obj"; "$$x" is the
    literal string "$x". A reference to nothing kept is an error here, not a
    string passed on.
    """
    if isinstance(raw, list):
        ops_raw = raw
    elif isinstance(raw, dict) and "ops" in raw:
        ops_raw = raw["ops"]
    elif isinstance(raw, dict) and any(k in raw for k in KINDS):
        ops_raw = [raw]
    else:
        raise ValueError("needs 'call', 'get', 'op' or 'ops'")
    if not isinstance(ops_raw, list) or not ops_raw:
        raise ValueError("'ops' must be a non-empty list")
    ops: list[dict[str, Any]] = []
    bound: set[str] = set()
    for j, op in enumerate(ops_raw):
        if not isinstance(op, dict):
            raise ValueError(f"op {j}: must be a dict")
        kinds = [k for k in KINDS if k in op]
        if len(kinds) != 1:
            raise ValueError(f"op {j}: needs exactly one of 'call', 'get' or 'op'")
        kind = kinds[0]
        target = op[kind]
        if not isinstance(target, str) or not target:
            raise ValueError(f"op {j}: '{kind}' must be a non-empty string")
        if kind == "op" and target not in OPERATIONS:
            raise ValueError(f"op {j}: unknown operation '{target}' (known: "
                             f"{' '.join(OPERATIONS)})")
        if kind != "op" and target.startswith("$"):
            name = target[1:].split(".", 1)[0]
            if name not in bound:
                raise ValueError(f"op {j}: '{target}' names no value kept by an earlier "
                                 f"operation (kept so far: {', '.join(sorted(bound)) or 'none'})")
        args = op.get("args", [])
        kwargs = op.get("kwargs", {})
        if not isinstance(args, (list, tuple)) or not isinstance(kwargs, dict):
            raise ValueError(f"op {j}: 'args' must be a list and 'kwargs' a dict")
        if kind == "get" and (args or kwargs):
            raise ValueError(f"op {j}: a 'get' takes no arguments")
        out: dict[str, Any] = {
            "kind": kind, "target": target,
            "args": [_argument(a, bound, f"op {j} args[{i}]") for i, a in enumerate(args)],
            "kwargs": {str(k): _argument(v, bound, f"op {j} kwargs.{k}")
                       for k, v in kwargs.items()}}
        if "as" in op:
            out["as"] = str(op["as"])
            bound.add(out["as"])
        if op.get("observe", True) is False:
            out["observe"] = False
        ops.append(out)
    return ops


CASES_FILE = "tests/cases.py"


def cases(task: Task) -> list[Case]:
    if "cases" in task.cache:
        return list(task.cache["cases"])
    problems: list[str] = []
    out: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(call_author(task, CASES_FILE, "cases")):
        where = f"{CASES_FILE} cases()[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            problems.append(f"{where}: each case is a dict with a string 'id'")
            continue
        cid = raw["id"]
        if "/" in cid or cid in seen or not cid:
            problems.append(f"{where}.id: '{cid}' is empty, duplicated or contains '/'")
        seen.add(cid)
        try:
            ops = normalise_ops(raw)
        except ValueError as exc:
            problems.append(f"{where} ('{cid}'): {exc}")
            continue
        covers = check_covers(raw.get("covers"), where, problems)
        try:
            pack(ops)
        except Exception as exc:
            problems.append(f"{where} ('{cid}'): not plain data ({exc})")
            continue
        out.append(Case(cid, ops, covers))
    if problems:
        raise TaskError(task.path, problems)
    task.cache["cases"] = out
    return list(out)


def timing_inputs(task: Task) -> list[TimingInput]:
    problems: list[str] = []
    out: list[TimingInput] = []
    seen: set[str] = set()
    for i, raw in enumerate(call_author(task, CASES_FILE, "timing_inputs")):
        where = f"{CASES_FILE} timing_inputs()[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) \
                or not callable(raw.get("make")):
            problems.append(f"{where}: needs a string 'id' and a callable 'make(seed)'")
            continue
        if raw["id"] in seen or not raw["id"]:
            problems.append(f"{where}.id: '{raw['id']}' is empty or duplicated")
        seen.add(raw["id"])
        size = check_size(raw.get("size"), where, problems)
        make = raw["make"]

        def made(seed: int, _make: Any = make) -> list[dict[str, Any]]:
            return normalise_ops(_make(seed))

        out.append(TimingInput(raw["id"], made, size))
    if problems:
        raise TaskError(task.path, problems)
    return out


def held_out(task: Task) -> list[Path]:
    return [task.path / CASES_FILE]


def inspect(task: Task, candidate: Path) -> list[Finding]:
    return python_compliance.inspect(candidate, task.settings.compliance)


def item_rule(item_id: str, expected: Any, diff: list[str]) -> str:
    """What kind of functional failure an item is, from its id and values."""
    kind = item_id.rsplit("/", 1)[-1]
    if kind.startswith(("arg", "kwarg:")):
        return "mutated-argument"
    if kind == "stdout":
        return "wrong-stdout"
    if isinstance(expected, dict) and "$exception" in expected:
        return "wrong-exception"
    if any("exception" in line for line in diff):
        return "unexpected-exception"
    return "wrong-value"


def validate(task: Task) -> list[str]:
    problems = []
    for t in timing_inputs(task):
        what = f"timing input '{t.id}': make(0)"
        try:
            ops = run_author(task, CASES_FILE, what, t.payload, 0)
            pack(ops)
        except TaskError as exc:
            problems.extend(exc.problems)
        except Exception as exc:
            problems.append(f"{CASES_FILE} {what}: not plain data ({exc})")
    return problems


def open_session(task: Task, candidate: Path, *, isolation: str | None = None,
                 recording: bool = False) -> ModuleSession:
    session = ModuleSession(task, candidate, guard=not recording)
    if isolation not in (None, "local"):
        session.notes.append(f"isolation '{isolation}' asked: module and package sides always "
                             "run in local workers")
    return session


# --------------------------------------------------------------------- worker processes

def _world_executable(path: str) -> bool:
    """Whether an unprivileged account can execute `path` (every directory on
    the way traversable by others, the file readable and executable by them)."""
    try:
        for p in (Path(path), Path(os.path.realpath(path))):
            if not p.is_file() or (p.stat().st_mode & 0o005) != 0o005:
                return False
            if not all(parent.stat().st_mode & 0o001 for parent in p.parents):
                return False
        return True
    except OSError:
        return False


_PYTHON_CACHE: dict[tuple[bool, bool], tuple[str, list[str]]] = {}


def _in_system_view(path: str) -> bool:
    """Whether a sandbox shows `path` at that path: it shows /usr (and the
    merged-/usr links to it), nothing else of the machine, so only a path
    that is itself below /usr. A venv's bin/python is a link to the system's
    interpreter, but the link lives in the venv, which is not in view."""
    return os.path.normpath(path).startswith("/usr/") and os.path.realpath(path).startswith("/usr/")


def _runnable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def worker_python(switched: bool, sandboxed: bool = False) -> tuple[str, list[str]]:
    """(interpreter, site-packages dirs) for a worker. Running as another
    account, the interpreter must be reachable by it; in a sandbox, it must
    be in the sandbox's view (the system's /usr). Ours may live under a
    private home (pyenv) or be a venv's link to the system's: then the
    system interpreter of the same minor version is started by its own path,
    given our packages explicitly (a staged, world-readable copy, which is
    all a sandbox sees of the evaluator's environment)."""
    key = (switched, sandboxed)
    if key in _PYTHON_CACHE:
        return _PYTHON_CACHE[key]
    sitedirs = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))
                and Path(p).is_dir()]
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = sys.executable
    if switched or sandboxed:
        options = [sys.executable, os.path.realpath(sys.executable),
                   f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
        if sandboxed:
            # Started by its real path: the sandbox has no venv or pyenv
            # directory for a link to go through.
            options = [os.path.realpath(o) for o in options]
        options = list(dict.fromkeys(options))
        usable = [o for o in options if _runnable(o)
                  and (not switched or _world_executable(o))
                  and (not sandboxed or _in_system_view(o))]
        if not usable:
            where = "in a sandbox's view (/usr)" if sandboxed else \
                "that an unprivileged account can execute"
            raise _core.IsolationError(
                f"no Python {version} interpreter {where} (tried {', '.join(options)}); "
                f"install python{version} system-wide")
        found = usable[0]
        import frontier_measure

        package_dir = Path(frontier_measure.__file__).resolve().parent
        if sandboxed or not all(_traversable(Path(d)) for d in [*sitedirs, str(package_dir)]):
            # The evaluator's environment is not in the side's view, or sits
            # below a private directory: the worker gets a staged copy.
            try:
                sitedirs = [str(_staged_site(package_dir))]
            except OSError as exc:
                raise _core.IsolationError(
                    f"cannot stage the worker's packages for the sides: {exc}") from exc
    _PYTHON_CACHE[key] = (found, sitedirs)
    return found, sitedirs


def _traversable(path: Path) -> bool:
    """Whether every directory from / down to `path` may be entered by others."""
    try:
        return all(q.stat().st_mode & 0o001 for q in [path, *path.parents])
    except OSError:
        return False


# What a worker imports beyond the standard library.
_WORKER_PACKAGES = ("msgpack", "numpy", "numpy.libs")
_STAGE_PARENT = Path("/var/tmp")
_stage_root_cache: Path | None = None


def _stage_root() -> Path:
    """The directory staged copies live in, reused by later evaluations: one
    per account (/var/tmp/frontier-measure-site for root, ...-site-<uid>
    otherwise), since an account cannot write into another's. Its workers
    import what is there, so it must be ours and closed to writers other than
    us: one that is not (made first by someone else in the shared /var/tmp)
    is not used, and this process stages into a fresh directory of its own,
    removed when it exits."""
    global _stage_root_cache
    if _stage_root_cache is not None:
        return _stage_root_cache
    uid = os.geteuid()
    parent = _STAGE_PARENT if _STAGE_PARENT.is_dir() else Path(tempfile.gettempdir())
    root = parent / ("frontier-measure-site" if uid == 0 else f"frontier-measure-site-{uid}")
    with contextlib.suppress(FileExistsError):
        root.mkdir(mode=0o755)
    st = os.lstat(root)
    if stat.S_ISDIR(st.st_mode) and st.st_uid == uid and not st.st_mode & 0o022:
        os.chmod(root, 0o755)  # the umask may have taken the others' bits
    else:
        root = Path(tempfile.mkdtemp(prefix=f"frontier-measure-site-{uid}-", dir=parent))
        os.chmod(root, 0o755)
        atexit.register(shutil.rmtree, root, True)
    _stage_root_cache = root
    return root


def _staged_site(package_dir: Path) -> Path:
    """A world-readable copy of the packages a worker needs (frontier_measure,
    with its built extension, and its dependencies), made once per content and
    reused. Keyed by every file's path, size and mtime, so a rebuilt extension
    or an edited source gets a fresh copy."""
    import frontier_measure._core as core_mod

    core_file = Path(core_mod.__file__).resolve()
    sources: list[tuple[str, Path]] = [("frontier_measure", package_dir)]
    for name in _WORKER_PACKAGES:
        spec_dir = next((Path(d) / name for d in sys.path
                         if d.endswith(("site-packages", "dist-packages"))
                         and (Path(d) / name).is_dir()), None)
        if spec_dir is not None:
            sources.append((name, spec_dir))
    key = hashlib.sha256()
    for name, src in sources:
        for f in sorted(src.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                st = f.stat()
                key.update(f"{name}/{f.relative_to(src)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    st = core_file.stat()
    key.update(f"{core_file.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    stage_root = _stage_root()
    dest = stage_root / key.hexdigest()[:16]
    if dest.is_dir():
        return dest
    tmp = Path(tempfile.mkdtemp(prefix=".stage-", dir=stage_root))
    try:
        for name, src in sources:
            shutil.copytree(src, tmp / name, ignore=shutil.ignore_patterns("__pycache__"))
        if not any((tmp / "frontier_measure").glob("_core*.so")):
            shutil.copy2(core_file, tmp / "frontier_measure" / core_file.name)
        for d, _dirs, files in os.walk(tmp):
            os.chmod(d, 0o755)
            for fname in files:
                shared_object = fname.endswith(".so") or ".so." in fname
                os.chmod(os.path.join(d, fname), 0o755 if shared_object else 0o644)
        try:
            tmp.rename(dest)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)  # another evaluator staged it first
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


START_LIMIT_S = 60.0  # for a new worker to answer its first request


def _handshake(w: WorkerProcess) -> None:
    """A new worker's first request, a ping, made before anything of its side
    is loaded: a worker that dies or stays silent before answering it never
    ran the side's code (the sandbox could not be built, the interpreter or
    our packages are not in its view), so that is the evaluation's failure,
    not the side's."""
    try:
        reply = w.request({"cmd": "ping"}, START_LIMIT_S)
    except WorkerFailure as exc:
        w.kill()
        raise SideStartError(w.side, exc.reason) from None
    if reply.get("ok") is not True:
        w.kill()
        raise SideStartError(w.side, f"its first reply was not the worker's: {str(reply)[:200]}")


def _worker_filter() -> str:
    """The sides' system-call filter for a worker, base64 (denied: EPERM)."""
    return base64.b64encode(seccomp.program(seccomp.EPERM)).decode()


def _thread_cpu_ns(pid: int) -> int:
    """CPU time the kernel charged a process's threads (no cgroup to ask)."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return -1
    return total


class WorkerFailure(SideFailure):
    """A worker died, timed out, or broke the protocol."""


class RuntimeViolation(WorkerFailure):
    """The worker's audit hook ended it: the side broke the task's rules while
    running (the report says what and where)."""

    def __init__(self, side: str, report: dict[str, Any]) -> None:
        self.report = report
        where = (report.get("stack") or ["?"])[0]
        super().__init__(side, f"runtime violation: {report.get('event')} "
                               f"({report.get('rule')}) at {where}")


class WorkerProcess:
    """One running frontier_measure.worker, spoken to in msgpack frames."""

    def __init__(self, side: str, area: Path, *, owner: tuple[int, int] | None,
                 policy: Policy, cgroup: cgroups.Cgroup | None, sandboxed: bool) -> None:
        self.side = side
        self.cgroup = cgroup
        self.violation: dict[str, Any] | None = None
        # What a report-only audit hook wrote (an author's audit of the
        # reference): read from its stderr once the worker has ended.
        self.reports: list[dict[str, Any]] = []
        spec = _core.ProcessSpec()
        # -I: no user site, no PYTHON* variables, no cwd on sys.path; -B: no .pyc
        # written into the side's copy. The interpreter must be one the side's
        # account can execute (and see), and it gets our packages explicitly.
        python, sitedirs = worker_python(owner is not None, sandboxed)
        self.root = f"{sandbox.WORK}/side" if sandboxed else str(area / "side")
        seal = ""
        if sandboxed:
            # The worker's first act, before anything of the side is imported:
            # the sides' system-call filter (isolation/seccomp.py; denied calls
            # fail with EPERM, the audit hook names what Python code tried).
            seal = ("from frontier_measure._container.run import install_filter\n"
                    f"install_filter(__import__('base64').b64decode({_worker_filter()!r}), "
                    f"{seccomp.seccomp_syscall_number()})\n")
        boot = ("import site, sys\n"
                # The interpreter's own site dirs (e.g. Debian's dist-packages) go:
                # only our environment's packages may be imported.
                "sys.path[:] = [p for p in sys.path if not p.endswith("
                "('site-packages', 'dist-packages'))]\n"
                f"for d in {sitedirs!r}: site.addsitedir(d)\n"
                + seal +
                "from frontier_measure.worker import main\n"
                "sys.exit(main())\n")
        command = [python, "-I", "-B", "-c", boot]
        home = sandbox.WORK if sandboxed else str(area)
        if sandboxed:
            # A user namespace of its own, made by bwrap started as the side's
            # id for this evaluation: no capability at any point.
            spec.argv = sandbox.argv(sandbox.View(
                work=area, read_only=[Path(d) for d in sitedirs], cwd=self.root,
                hostname=side, own_user=True), command)
        else:
            spec.argv = command
            spec.cwd = self.root
        if owner is not None:
            spec.uid, spec.gid = owner
        spec.inherit_env = False
        spec.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "TMPDIR": "/tmp" if sandboxed else home,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            # One thread per BLAS/OpenMP pool: the process limit counts threads,
            # and timing is single-core by design.
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        spec.keep_stdin_open = True
        spec.cpus = list(policy.cpus)
        spec.die_with_parent = True
        if cgroup is not None:
            spec.cgroups = cgroup.procs_files
            spec.kill_cgroup = cgroup.kill_dir
        lim = _core.Limits()
        if owner is not None:
            # RLIMIT_NPROC counts the processes of the real uid: the side's,
            # once the worker has become it (root, bwrap, is exempt).
            lim.nproc = policy.nproc
        lim.address_space = policy.memory_mb << 20
        lim.file_size = policy.file_size_mb << 20
        lim.open_files = policy.open_files
        spec.limits = lim
        self.handle = _core.ProcessHandle(spec)
        self._in = self.handle.stdin_fd
        self._out = self.handle.stdout_fd

    # ---- framing
    def _read_exact(self, n: int, deadline: float) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WorkerFailure(self.side, "timed out")
            ready, _, _ = select.select([self._out], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._out, min(n - len(buf), 1 << 20))
            if not chunk:
                raise WorkerFailure(self.side, self._death())
            buf += chunk
        return bytes(buf)

    def _death(self) -> str:
        try:
            r = self.handle.wait(CLOSE_LIMIT_S)
        except Exception as exc:  # the handle may already be reaped
            return f"worker exited ({exc})"
        lines = r.stderr.decode(errors="replace").strip().splitlines()
        self._keep_reports(lines)
        if r.exit_code == VIOLATION_EXIT:
            # The audit hook's report is its last line on stderr.
            report: dict[str, Any] = {"event": "?", "rule": "the report was lost", "stack": []}
            for line in reversed(lines):
                if line.startswith('{"event"'):
                    with contextlib.suppress(ValueError):
                        report = json.loads(line)
                    break
            self.violation = report
            raise RuntimeViolation(self.side, report)
        tail = lines[-3:]
        why = f"worker exited ({r.describe()})"
        return why + (": " + " | ".join(tail) if tail else "")

    def send(self, frame: bytes) -> None:
        view = memoryview(frame)
        try:
            while view:
                n = os.write(self._in, view)
                view = view[n:]
        except BrokenPipeError:
            raise WorkerFailure(self.side, self._death()) from None

    @contextlib.contextmanager
    def _reply(self, timeout: float) -> Iterator[float]:
        """Reading one reply, within `timeout`: whatever goes wrong on the way
        is the side's failure, and the worker is killed (the rest of its
        reply would be read as the next one)."""
        try:
            yield time.monotonic() + timeout
        except WorkerFailure as exc:
            if exc.reason == "timed out":
                self.kill()
                raise WorkerFailure(self.side, f"timed out after {timeout:g} s") from None
            raise
        except ReplyCapExceeded as exc:
            self.kill()
            raise WorkerFailure(self.side, str(exc)) from None
        except DecodeError as exc:
            self.kill()
            raise WorkerFailure(self.side, f"broke the protocol: {exc}") from None
        except BaseException:
            self.kill()
            raise

    def _length(self, deadline: float, cap: int) -> int:
        (n,) = _HEADER.unpack(self._read_exact(4, deadline))
        if n > cap:
            raise WorkerFailure(self.side, f"a reply of {n:,} bytes exceeds the cap of "
                                f"{cap:,} bytes on what a side may return")
        return int(n)

    def receive(self, timeout: float) -> dict[str, Any]:
        with self._reply(timeout) as deadline:
            n = self._length(deadline, MAX_REPLY)
            reply = unpack_reply(self._read_exact(n, deadline), MAX_REPLY_VALUES)
        if not isinstance(reply, dict):
            self.kill()
            raise WorkerFailure(self.side, "broke the protocol: reply is not a map")
        return reply

    def receive_outputs(self, timeout: float) -> TimedOutputs:
        """A timed batch's reply, left as the bytes it came in: the evaluator
        decodes only the calls it compares (OutputCheck)."""
        with self._reply(timeout) as deadline:
            n = self._length(deadline, MAX_REPLY)
            return TimedOutputs(self._read_exact(n, deadline))

    def receive_items(self, timeout: float, max_item_bytes: int, max_items: int,
                      on_item: Callable[[str, Any], None]) -> str | None:
        """An `observe` reply, read as it streams (observe.stream_items): each
        item is checked against the cap, decoded and handed to on_item on
        its own. Returns the error the worker reported, if any."""
        with self._reply(timeout) as deadline:
            # No cap on the whole: it is never held, and an item over its cap
            # is read past (so the failure can name it) within the deadline.
            n = self._length(deadline, 0xFFFFFFFF)
            return stream_items(_FrameReader(self, n, deadline), max_item_bytes, max_items,
                                on_item)

    def request(self, msg: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.send(frame(msg))
        return self.receive(timeout)

    def observe(self, ops: list[dict[str, Any]], timeout: float,
                max_item_bytes: int = DEFAULT_MAX_ITEM_MB << 20) -> dict[str, Any]:
        """One case's items, decoded (an item over the cap as its
        ItemCapExceeded); a reported error as {"error": ...}."""
        items: dict[str, Any] = {}
        self.send(frame({"cmd": "observe", "ops": ops}))
        most = sum(2 + len(op["args"]) + len(op["kwargs"]) for op in ops)
        error = self.receive_items(timeout, max_item_bytes, most, items.__setitem__)
        return {"error": error} if error is not None else items

    def cpu_ns(self) -> int:
        """CPU time charged to the side: its whole cgroup, else the worker's threads."""
        if self.cgroup is not None:
            return self.cgroup.cpu_ns()
        return _thread_cpu_ns(self.handle.pid)

    def kill(self) -> None:
        if self.handle.running:
            if self.cgroup is not None:
                with contextlib.suppress(OSError):
                    self.cgroup.thaw()
            self.handle.signal_group(9)
            self.handle.resume()
            self.handle.wait(CLOSE_LIMIT_S)
        if self.cgroup is not None:
            with contextlib.suppress(OSError, _core.IsolationError):
                self.cgroup.kill()

    def close(self) -> None:
        """Ask the worker to exit; kill it (and whatever it started) if it
        does not within CLOSE_LIMIT_S."""
        if self.handle.running:
            try:
                if self.cgroup is not None:
                    self.cgroup.thaw()
                self.handle.resume()
                self.request({"cmd": "exit"}, timeout=CLOSE_LIMIT_S)
                r = self.handle.wait(CLOSE_LIMIT_S)
                self._keep_reports(r.stderr.decode(errors="replace").splitlines())
            except (WorkerFailure, OSError, _core.MeasureError):
                pass
        self.kill()

    def _keep_reports(self, lines: list[str]) -> None:
        """The audit hook's report lines (JSON, one per line) among stderr's."""
        for line in lines:
            if line.startswith('{"event"'):
                with contextlib.suppress(ValueError):
                    report = json.loads(line)
                    if isinstance(report, dict) and report not in self.reports:
                        self.reports.append(report)


def frame(msg: dict[str, Any]) -> bytes:
    data = pack(msg)
    return _HEADER.pack(len(data)) + data


class _FrameReader:
    """One reply's bytes as a file, read from the worker as they are asked
    for: never past the frame's length, never after the deadline."""

    def __init__(self, worker: WorkerProcess, size: int, deadline: float) -> None:
        self.worker = worker
        self.left = size
        self.deadline = deadline

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        if n <= 0:
            return b""
        data = self.worker._read_exact(n, self.deadline)
        self.left -= len(data)
        return data


class InputMaker:
    """Fresh, seeded inputs for timed calls: the k-th batch of each side gets
    the same seeds, and the request carrying them is built once, before any
    clock starts, and sent to both sides as the same bytes."""

    def __init__(self, make: Callable[[int], list[dict[str, Any]]], base_seed: int,
                 values: bool) -> None:
        self.make = make
        self.base = base_seed
        self.values = values
        self.phase = 0
        self._cache: dict[tuple[int, int, int, bool], bytes] = {}

    WARM_PHASE = 3  # seeds of warm-up calls: never those of a timed batch (phases 1, 2)

    def seeds(self, block: int, loops: int, phase: int | None = None) -> list[int]:
        first = self.base + (self.phase if phase is None else phase) * 10**9 + block * 100_000
        return [first + i for i in range(loops)]

    def request(self, block: int, loops: int, dry: bool = False) -> bytes:
        key = (self.phase, block, loops, dry)
        if key not in self._cache:
            if len(self._cache) > 8:
                self._cache.clear()
            self._cache[key] = self._run(self.seeds(block, loops), values=self.values, dry=dry)
        return self._cache[key]

    def warm_up(self, block: int) -> bytes:
        """The untimed call before a timed batch: one call on an input of its own."""
        return self._run(self.seeds(block, 1, phase=self.WARM_PHASE), values=False, warm=True)

    def _run(self, seeds: list[int], **flags: bool) -> bytes:
        """A `run` request: each call as the index of its script (worker.split_call;
        each script once, packed, so the worker can look its compiled form up by
        those bytes) and its literal arguments."""
        scripts: dict[bytes, int] = {}
        calls = []
        for seed in seeds:
            script, literals = split_call(self.make(seed))
            calls.append([scripts.setdefault(pack(script), len(scripts)), literals])
        return frame({"cmd": "run", "scripts": list(scripts), "calls": calls, **flags})


class HarnessCost:
    """What the measurement path itself costs per call, on one timing input in
    one pair of workers: sending the inputs, decoding them, dispatching the
    operations and turning the outputs into plain data.

    Both sides pay it inside their timed window, which pulls every ratio
    towards 1 (a 13 us call under a 25 us path reads 10x as 6x). So the path
    is kept small -- each timed call runs as compiled straight-line code
    (worker.TimedScript), the evaluator waits on the sides' own CPU
    (`_on_cpus`), replies carry a digest or the values, not both -- and what
    remains is measured in the reference's worker (trusted code, frozen out
    of the candidate's reach) by a dry run after each of its real batches:
    the same request with the calls replaced by a no-op and the real run's
    outputs digested again, timed by the evaluator like any batch. A
    candidate's outputs digest to the reference's, so its path costs the same;
    whatever it costs beyond that (a lazy result, a slow type) stays in its
    own time. The candidate's own dry runs never count: a side could make
    them slow to have more taken off.

    Each batch is charged the latest dry run (the reference's batch its own,
    the candidate's the reference's last one), not the smallest seen: the
    path varies from batch to batch with a long tail, and the smallest ever
    seen takes off too little from every batch, on both sides alike, which
    pulls ratios towards 1. The latest dry run costs, in expectation, what
    the batch next to it paid; its noise goes into the rounds, and so into
    the interval. The round records keep every batch's raw time and dry run
    (bench/harness_overhead.py)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def add(self, wall_ns: int, cpu_ns: int, loops: int) -> None:
        self.wall.append(wall_ns / loops)
        if cpu_ns >= 0:
            self.cpu.append(cpu_ns / loops)

    def per_call(self) -> tuple[float, float]:
        """The cost per call to take off the next batch: the latest dry run's."""
        return (self.wall[-1] if self.wall else 0.0), (self.cpu[-1] if self.cpu else 0.0)

    def typical(self) -> float:
        """The median wall cost per call of the dry runs (for reports)."""
        return float(statistics.median(self.wall)) if self.wall else 0.0


class OutputCheck:
    """Compares the outputs of timed calls of the two sides, batch by batch.

    Exact tasks compare a digest of every call's outputs. With a float
    tolerance digests of equal-enough outputs differ, so every call's
    canonical outputs come back instead and some of them are compared with
    the tolerance: which ones is drawn after the replies are in, from a key
    the sides never see, so a side cannot be right only where we look.
    Those replies stay packed (observe.TimedOutputs) until the draw, and
    only the drawn calls are decoded, each within the task's item cap: a
    batch's outputs cost the evaluator their bytes, whatever they decode to."""

    def __init__(self, tolerance: Tolerance, per_batch: int = 6,
                 max_item_bytes: int = DEFAULT_MAX_ITEM_MB << 20) -> None:
        self.tolerance = tolerance
        self.per_batch = per_batch
        self.max_item_bytes = max_item_bytes
        self.key = secrets.randbits(64)
        # Per side, per batch: each call's digest (exact) or the packed reply (tolerance).
        self.seen: dict[str, dict[tuple[int, int, int], Any]] = {s: {} for s in SIDES}
        self.compared = 0

    def add(self, side: str, key: tuple[int, int, int], outputs: list[str] | TimedOutputs) -> None:
        self.seen[side][key] = outputs
        other = self.seen["candidate" if side == "reference" else "reference"].get(key)
        if other is None:
            return
        ref = self.seen["reference"].pop(key)
        cand = self.seen["candidate"].pop(key)
        # Calibration batches of the two sides may differ in size; the shorter
        # one's inputs are the first of the longer one's.
        n = min(len(ref), len(cand))
        if self.tolerance.exact:
            bad = [i for i in range(n) if ref[i] != cand[i]]
            self.compared += n
        else:
            rng = random.Random(hash((self.key, key)))
            picked = sorted(rng.sample(range(n), min(n, self.per_batch)))
            # One call of each side decoded at a time, compared, and let go.
            bad = []
            for (i, r), (_, c) in zip(self._each("reference", ref, picked, key),
                                      self._each("candidate", cand, picked, key), strict=True):
                if differences(r, c, self.tolerance):
                    bad.append(i)
                    break
            self.compared += len(picked)
        if bad:
            raise SideFailure(
                "candidate",
                f"timed call {bad[0] + 1} of batch {key[2] + 1} returned something different "
                "from the reference on the same input: results are not computed on each "
                "call (caching across calls, or work moved out of the timed region), or "
                "they depend on the input in a way the held-out cases did not show",
            )

    def _each(self, side: str, outputs: TimedOutputs, picked: list[int],
              key: tuple[int, int, int]) -> Iterator[tuple[int, Any]]:
        """The picked calls' outputs in canonical form, one at a time."""
        cap = values_cap(self.max_item_bytes)
        calls = outputs.pick(picked, self.max_item_bytes)
        at = picked[0] if picked else 0
        try:
            for i, call in calls:
                at = i
                yield i, _from_timed(side, call, cap)
                at = next((j for j in picked if j > i), i)
        except ItemCapExceeded as exc:
            raise SideFailure(side, f"the outputs of timed call {at + 1} of batch {key[2] + 1}: "
                                    f"{exc.reason}") from None
        except DecodeError as exc:
            raise SideFailure(side, f"a timed call's outputs are malformed: {exc}") from None


def _from_timed(side: str, call: Any, max_values: int | None = None) -> Any:
    """One timed call's outputs ([value, [mutable arguments]] per operation) in
    canonical form (observe.timed_value), each array within `max_values`."""
    try:
        return [[from_timed(v, max_values), [from_timed(a, max_values) for a in m]]
                for v, m in call]
    except ItemCapExceeded:
        raise
    except (TypeError, ValueError, DecodeError) as exc:
        raise SideFailure(side, f"a timed call's outputs are malformed: {exc}") from None


class WorkerSide(_core.Side):
    """One side of a paired comparison, backed by a worker process.

    `measure(loops)` sends a `run` request carrying `loops` fresh inputs and
    waits for every output as plain data: the batch's wall cost is the
    evaluator's clock over that exchange, its CPU cost what the kernel charged
    the side's cgroup meanwhile, each less the measurement path's own cost
    (`HarnessCost`; the reference's side measures it, with `dry_runs`)."""

    HARNESS_FLOOR = 0.1  # a batch is never taken below this share of its raw time
    # A side whose calls cost less than this each makes one untimed warm-up
    # call before every timed batch (`measure`).
    WARM_UP_BELOW_NS = 25_000_000

    def __init__(self, name: str, worker: WorkerProcess, inputs: InputMaker, check: OutputCheck,
                 timeout: float, process: int, harness: HarnessCost, dry_runs: bool) -> None:
        super().__init__()
        self.name = name
        self.worker = worker
        self.inputs = inputs
        self.check = check
        self.timeout = timeout
        self.process = process  # which pair of workers: inputs differ between them
        self.harness = harness
        self.dry_runs = dry_runs
        self.block = 0
        self.raw_wall: list[float] = []  # per call, before the harness is taken off
        # Per batch (by its net wall and CPU ns, which the rounds carry back:
        # the rounds hold copies of the Batch): its raw wall time and its dry run's, in ns,
        # for the round records (bench/harness_overhead.py refits the subtraction
        # from them). The candidate's dry runs are recorded but never count.
        self.path: dict[tuple[int, int], tuple[int, int]] = {}
        self.floored = 0  # batches held at HARNESS_FLOOR
        self.warm_up = False  # set once calibration has seen what a call costs

    def warm(self, block: int) -> None:
        """One untimed call on an input of its own (InputMaker.warm_up)."""
        self.worker.send(self.inputs.warm_up(block))
        reply = self.worker.receive(self.timeout)
        if not isinstance(reply.get("digests"), list) or len(reply["digests"]) != 1:
            raise SideFailure(self.name, "worker did not return the output of its warm-up call")

    def _receive(self) -> dict[str, Any] | TimedOutputs:
        # Values (a task with a float tolerance) stay packed: see OutputCheck.
        if self.inputs.values:
            return self.worker.receive_outputs(self.timeout)
        return self.worker.receive(self.timeout)

    def _exchange(self, request: bytes) -> tuple[dict[str, Any] | TimedOutputs, int, int]:
        cpu0 = self.worker.cpu_ns()
        t0 = _core.now_ns()
        self.worker.send(request)
        reply = self._receive()
        t1 = _core.now_ns()
        cpu1 = self.worker.cpu_ns()
        error = reply.error if isinstance(reply, TimedOutputs) else reply.get("error")
        if error is not None:
            raise SideFailure(self.name, f"worker error while timing: {str(error)[:2000]}")
        return reply, t1 - t0, cpu1 - cpu0 if cpu0 >= 0 and cpu1 >= 0 else -1

    def measure(self, loops: int) -> _core.Batch:
        block = self.process * 1000 + self.block
        request = self.inputs.request(block, loops)
        if self.warm_up:
            # Every batch follows the other side's, which left the CPU's caches
            # and predictors to its own code: the first call of a batch then
            # paid 0.2-0.5 ms more than the rest (module/rolling, module/dedupe
            # on this VM), on both sides alike, which pulls the ratio of light
            # calls towards 1. One call on an input of its own, untimed, lets
            # the batch start from the side's steady state, as a timeit loop
            # does; it sees none of the batch's inputs.
            # The timed request is built before it: nothing of ours runs between.
            self.warm(block)
        reply, wall, cpu = self._exchange(request)
        outputs = reply if isinstance(reply, TimedOutputs) else reply.get("digests")
        if not isinstance(outputs, (list, TimedOutputs)) or len(outputs) != loops or (
                isinstance(outputs, list) and not all(type(d) is str and len(d) <= 64
                                                      for d in outputs)):
            raise SideFailure(self.name, "worker did not return the outputs of every timed call")
        self.check.add(self.name, (self.inputs.phase, self.process, self.block), outputs)
        # Both sides make the dry runs, so their processes do the same things in
        # the same order (a dry run touches the outputs again: the reference's
        # alone doing it would free them from a warmer cache); only the
        # reference's is measured for the harness cost. The second one counts:
        # right after a batch of heavy calls the path's own code runs from cold
        # caches (module/rolling's reference: 105 us for a dry run of 6 calls,
        # the oracle's 54 us; the next dry run 55 us and 46 us). Light calls --
        # the cheaper side, whose ratio the path distorts most -- leave it warm
        # in their batch, and the warm path is what their batch paid.
        dry = self.inputs.request(block, loops, dry=True)
        self.worker.send(dry)
        self._receive()
        _, dry_wall, dry_cpu = self._exchange(dry)
        if self.dry_runs:
            self.harness.add(dry_wall, dry_cpu, loops)
        self.block += 1
        self.raw_wall.append(wall / loops)
        h_wall, h_cpu = self.harness.per_call()
        net_wall = wall - loops * h_wall
        if net_wall < self.HARNESS_FLOOR * wall:
            net_wall = self.HARNESS_FLOOR * wall
            self.floored += 1
        b = _core.Batch()
        b.loops = loops
        b.wall_ns = int(net_wall)
        b.cpu_ns = int(max(cpu - loops * h_cpu, self.HARNESS_FLOOR * cpu)) if cpu >= 0 else -1
        self.path[(b.wall_ns, b.cpu_ns)] = (wall, dry_wall)
        return b

    def suspend(self) -> None:
        if self.worker.cgroup is not None:
            self.worker.cgroup.freeze()
        else:
            self.worker.handle.suspend()

    def resume(self) -> None:
        if self.worker.cgroup is not None:
            self.worker.cgroup.thaw()
        else:
            self.worker.handle.resume()


@contextlib.contextmanager
def _on_cpus(cpus: list[int]) -> Iterator[None]:
    """Run the calling thread on the sides' CPU while it times them.

    A batch is an exchange: the evaluator writes the request and waits, the
    worker wakes, computes, writes the reply, the evaluator wakes. With the
    evaluator on another CPU every wake-up crosses CPUs, which on this VM
    costs tens of microseconds each (an idle virtual CPU has to be woken by
    the host): an empty request's round trip took 120 us, and a dry run of
    module/rolling 566 us, against 42 us and 269 us with both on one CPU.
    That cost is the measurement path's, paid by both sides, and pulls every
    ratio towards 1. On one CPU, the worker runs while the evaluator waits
    and the evaluator while the worker waits (the other side is frozen), so
    nothing competes for it."""
    if not cpus:
        yield
        return
    try:
        before = _core.get_affinity()
        _core.set_affinity(cpus)
    except _core.IsolationError:
        yield  # not allowed here: the path stays dearer, nothing else changes
        return
    try:
        yield
    finally:
        with contextlib.suppress(_core.IsolationError):
            _core.set_affinity(before)


# --------------------------------------------------------------------- the session


class ModuleSession:
    """Private copies of both sides, and workers over them, for one evaluation.

    Each worker runs in a sandbox of its own (isolation/sandbox.py: its own
    namespaces, no network, the system read-only, its side's copy at /work
    and nothing else of the machine), as the side's own account when we are
    root, in the side's own cgroup. Without bubblewrap the copies are closed
    to each other by their mode bits and the task's tests/ directory is closed
    to both for the session. What is not enforced here is in `notes`.
    """

    def __init__(self, task: Task, candidate_dir: Path, *, policy: Policy | None = None,
                 guard: bool = True) -> None:
        self.task = task
        self.policy = policy or Policy(nproc=32, memory_mb=4096, disk_mb=512,
                                       timeout_s=task.case_timeout_s)
        self.notes: list[str] = []
        self.owners: dict[str, tuple[int, int] | None] = {s: None for s in SIDES}
        self.cgroups: dict[str, cgroups.Cgroup | None] = {s: None for s in SIDES}
        self._guarded: list[Path] = []
        self._uid_locks: list[int] = []
        self.base = Path(tempfile.mkdtemp(prefix="fm-py-"))
        sweep.mark(self.base)  # for the sweep, should this evaluator be killed
        self.processes = 0
        self.workers: list[WorkerProcess] = []  # every worker started, for their reports
        # Workers kept open between `observe` calls while `holding` (fuzzing):
        # per side, its worker (None: start one at the next call), and the
        # reason a side's audit hook ended it (nothing more of it runs).
        self._held: dict[str, WorkerProcess | None] | None = None
        self._held_violation: dict[str, str] = {}
        # An author's audit (validate, record): the reference runs under the
        # task's run-time policy too, its hook reporting every violation
        # (with its stack) and going on, instead of ending the worker.
        self.audit_reference = False
        why_no_sandbox = sandbox.unavailable_reason()
        self.sandboxed = why_no_sandbox is None
        if not self.sandboxed:
            self.notes.append(f"no sandbox ({why_no_sandbox}): a side sees the machine's "
                              "files as its account may, and has the network")
        try:
            os.chmod(self.base, 0o711)  # sides may pass through to their own area only
            if is_root():
                ids, self._uid_locks = claim_uids()
                self.owners.update(ids)
            else:
                self.notes.append("not root: both sides run as the evaluator's own account "
                                  "(no account switch, no process limit)")
            why_not = cgroups.unavailable_reason()
            if why_not is None:
                for side in SIDES:
                    self.cgroups[side] = cgroups.Cgroup(
                        side, pids_max=self.policy.nproc, memory_max=self.policy.memory_mb << 20,
                        cpus=self.policy.cpus)
            else:
                self.notes.append(f"no cgroups ({why_not}): a side is suspended by SIGSTOP to "
                                  "its process group, which a process that leaves the group "
                                  "escapes; cpu cost counts the worker's own threads only")
            self.dirs = {
                "reference": self._private_copy("reference", task.reference_dir),
                "candidate": self._private_copy("candidate", Path(candidate_dir)),
            }
            if guard and not self.sandboxed:
                # In a sandbox the held-out data is not in view at all.
                self._guard(task.tests_dir)
        except BaseException:
            self.close()
            raise

    def _private_copy(self, side: str, source: Path) -> Path:
        area = self.base / side
        area.mkdir(mode=0o700)
        dest = area / "side"
        rules: Compliance = self.task.settings.compliance

        def leave_out(directory: str, names: list[str]) -> set[str]:
            # What is not run is not copied: compiled caches, and paths the
            # task says are not candidate code (compliance skips the same).
            rel = os.path.relpath(directory, source)
            return {n for n in names if python_compliance.ignored(n) or python_compliance.excluded(
                os.path.normpath(os.path.join(rel, n)), rules)}

        shutil.copytree(source, dest, symlinks=True, ignore=leave_out)
        owner = self.owners[side]
        if owner is not None:
            for root, dirs, files in os.walk(area):
                os.lchown(root, *owner)
                for n in dirs + files:
                    os.lchown(os.path.join(root, n), *owner)
        return dest

    def _guard(self, path: Path) -> None:
        """Close the held-out data to both sides for the session."""
        if not is_root():
            self.notes.append(f"{path} stays readable by the sides (not root)")
            return
        guard_acquire(path)
        self._guarded.append(path)
        self.notes.append(f"{path} closed to the sides (mode 0700) during the evaluation")

    def spawn(self, side: str) -> WorkerProcess:
        """A fresh worker for `side`, its entry imported."""
        cg = self.cgroups[side]
        if cg is not None and not cg.empty():
            cg.kill()  # nothing of an earlier worker may share the new one's cgroup
        w = WorkerProcess(side, self.base / side, owner=self.owners[side], policy=self.policy,
                          cgroup=cg, sandboxed=self.sandboxed)
        self.processes += 1
        self.workers.append(w)
        try:
            _handshake(w)
            audited = side == "candidate" or self.audit_reference
            reply = w.request({"cmd": "load", "root": w.root, "entry": self.task.entry,
                               "imports": list(self.task.imports),
                               "policy": self._runtime_policy(w, side) if audited else None},
                              self.task.case_timeout_s)
        except BaseException:
            w.close()
            raise
        if "error" in reply:
            w.close()
            raise WorkerFailure(side, str(reply["error"]))
        return w

    def _runtime_policy(self, w: WorkerProcess, side: str = "candidate") -> dict[str, Any]:
        """The task's compliance rules as a side's audit hook enforces them:
        its own modules, the permitted imports and escape hatches, and where it
        may write (its own directories). The reference's (an author's audit)
        only reports."""
        rules: Compliance = self.task.settings.compliance
        own = sorted(p.stem if p.suffix == ".py" else p.name
                     for p in self.dirs[side].iterdir()
                     if p.suffix == ".py" or (p.is_dir() and not p.name.startswith(".")))
        area = sandbox.WORK if self.sandboxed else str(self.base / side)
        # An exact call reaches the hook as "os.system=COMMAND" (bind_audit.cpp).
        names, commands, _ = python_compliance.split_allow(rules.allow)
        hatches = names + [f"os.system={c}" for c in commands]
        return {"root": w.root, "allowed": ["__future__", *own, *rules.allowed_imports],
                "hatches": hatches, "write_roots": [area, "/tmp", "/dev/shm"],
                "library_imports": rules.library_imports, "report": side != "candidate"}

    @property
    def violations(self) -> list[dict[str, Any]]:
        """What the candidate's audit hook reported (a worker it ended)."""
        return [w.violation for w in self.workers if w.violation is not None]

    def audit_reports(self, side: str = "reference") -> list[dict[str, Any]]:
        """What a side's report-only hook wrote, over every worker of it the
        session has ended: violations and notices ("notice": true), each once,
        the worker's root in its stack as `<side>/`."""
        out: list[dict[str, Any]] = []
        for w in self.workers:
            if w.side != side:
                continue
            for r in w.reports:
                r = {**r, "stack": [str(f).replace(w.root + "/", f"<{side}>/", 1)
                                    for f in r.get("stack", [])]}
                if r not in out:
                    out.append(r)
        return out

    def build(self, side: str) -> Build:
        return Build(ok=True)  # Python sources run as they are

    # ---- functional
    def observe(self, side: str, cases: list[Case],
                keep: Callable[[str, Any], Any] | None = None) -> Observation:
        """Run every case on a side, in one fresh worker (a new one after a
        case kills or hangs it). A side that cannot even start, or that has
        hung MAX_TIMEOUTS times, fails its remaining cases without running them.
        Items are taken one at a time as the reply streams in, each through
        `keep` (Observation); one over the task's item cap is an
        "output-cap" problem naming it, and its value is never read."""
        obs = Observation(keep=keep)
        held = self._held is not None
        worker: WorkerProcess | None = self._held.get(side) if self._held is not None else None
        timeouts = 0
        if held and side in self._held_violation:
            for case in cases:
                obs.failures[case.id] = self._held_violation[side]
            return obs
        try:
            for n, case in enumerate(cases):
                if worker is None:
                    try:
                        worker = self.spawn(side)
                    except WorkerFailure as exc:
                        for rest in cases[n:]:
                            obs.failures[rest.id] = exc.reason
                        break
                # A case's items count only once its whole reply is in.
                got = Observation(keep=keep)

                def take(key: str, value: Any, case_id: str = case.id,
                         got: Observation = got) -> None:
                    item = f"{case_id}/{key}"
                    if isinstance(value, ItemCapExceeded):
                        got.problems.append(Problem(case_id, "output-cap",
                                                    f"{item}: {value.reason}"))
                        value = {"$over-cap": value.reason}
                    got.add(item, value)

                # Each operation gives its result, its stdout and its arguments.
                most = sum(2 + len(op["args"]) + len(op["kwargs"]) for op in case.payload)
                try:
                    worker.send(frame({"cmd": "observe", "ops": case.payload}))
                    error = worker.receive_items(self.task.case_timeout_s,
                                                 self.task.max_item_bytes, most, take)
                except RuntimeViolation as exc:
                    # The side broke the rules: nothing more of it runs.
                    worker = None
                    self._held_violation[side] = exc.reason
                    for rest in cases[n:]:
                        obs.failures[rest.id] = exc.reason
                    break
                except WorkerFailure as exc:
                    obs.failures[case.id] = exc.reason
                    worker.kill()
                    worker = None
                    timeouts += exc.reason.startswith("timed out")
                    if timeouts >= MAX_TIMEOUTS:
                        for rest in cases[n + 1:]:
                            obs.failures[rest.id] = (f"not run: {timeouts} cases of the {side} "
                                                     "had timed out")
                        break
                    continue
                if error is not None:
                    obs.failures[case.id] = error
                    continue
                obs.items.update(got.items)
                obs.problems.extend(got.problems)
        finally:
            if self._held is not None:
                self._held[side] = worker
            elif worker is not None:
                worker.close()
        return obs

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """Keep each side's worker open from one `observe` call to the next
        (fuzzing: one worker per side for all the drawn inputs of a target,
        not two fresh ones per input), closing them at the end.

        The sides stay apart as ever (a worker per side, each in its own
        account, cgroup and sandbox); what changes is that a worker carries
        its state from one input to the next. `recycle` replaces both at
        once, so each worker has seen the same inputs in the same order as
        the other side's current one. A side its audit hook ended fails
        every later case at once: it is not started again."""
        if self._held is not None:
            yield
            return
        self._held = {s: None for s in SIDES}
        self._held_violation = {}
        try:
            yield
        finally:
            self.recycle()
            self._held = None

    def recycle(self) -> None:
        """Close both held workers; the next `observe` of each starts afresh."""
        for side, w in (self._held or {}).items():
            if w is not None:
                w.close()
            if self._held is not None:
                self._held[side] = None

    def timing_digests(self, side: str, inputs: list[TimingInput], seeds: int = 2) -> dict[str, str]:
        """Digests of a side's outputs on the first seeds of each timing input
        (recording uses these to prove timing inputs are deterministic)."""
        out: dict[str, str] = {}
        worker = self.spawn(side)
        try:
            for t in inputs:
                worker.send(InputMaker(t.payload, 0, values=False).request(0, seeds))
                reply = worker.receive(self.task.case_timeout_s * seeds)
                if "error" in reply or not isinstance(reply.get("digests"), list):
                    raise SideFailure(side, f"timing input '{t.id}': {reply.get('error')}")
                out[t.id] = ":".join(reply["digests"])
        finally:
            worker.close()
        return out

    # ---- performance
    def time(self, inputs: list[TimingInput], progress: Progress | None = None, *,
             seed: int | None = None) -> list[InputTiming]:
        timing_seed = fresh_timing_seed() if seed is None else seed
        results = []
        with _on_cpus(self.policy.cpus):
            for k, t in enumerate(inputs):
                if progress:
                    progress(f"timing {t.id}")
                results.append(self._time_one(t, seed=k, timing_seed=timing_seed))
                if results[-1].error:
                    break  # the candidate is disqualified; no need to time the rest
        return results

    def _time_one(self, t: TimingInput, seed: int, timing_seed: int = 0) -> InputTiming:
        from .. import perf  # numpy with it: loaded only when something is timed

        settings = self.task.timing
        started = time.perf_counter()
        # The evaluation's secret seed moves every call's seed out of the range
        # a candidate could precompute from the public generator; the input's
        # index and the batch's place stay below 10**13, so timing_seed 0 makes
        # the inputs of the fixed seeds used before.
        maker = InputMaker(t.payload, base_seed=1000 + seed * 10**11 + timing_seed * 10**13,
                           values=not self.task.tolerance.exact)
        check = OutputCheck(self.task.tolerance, max_item_bytes=self.task.max_item_bytes)
        request_timeout = max(60.0, settings.max_batch_ms / 1e3 * 50)
        loops = 0

        sides: list[WorkerSide] = []
        warm_up: dict[str, bool] = {}  # by side, from calibration, for every block

        @contextlib.contextmanager
        def fresh_workers(block: int) -> Iterator[tuple[WorkerSide, WorkerSide]]:
            # Each block is a new pair of processes. Both start, then both are
            # frozen before either is timed. Which side starts (and warms) first
            # alternates between blocks: the second process of a pair starts on
            # a machine the first has just disturbed (page cache, allocator,
            # caches), and a fixed order would give that to one side in every
            # block, where no round can cancel it.
            order = SIDES if block % 2 == 0 else SIDES[::-1]
            workers: dict[str, WorkerProcess] = {}
            harness = HarnessCost()
            try:
                for side in order:
                    workers[side] = self.spawn(side)
                ref = WorkerSide("reference", workers["reference"], maker, check,
                                 request_timeout, block, harness, dry_runs=True)
                cand = WorkerSide("candidate", workers["candidate"], maker, check,
                                  request_timeout, block, harness, dry_runs=False)
                ref.warm_up, cand.warm_up = warm_up.get("reference", False), warm_up.get(
                    "candidate", False)
                sides.extend((ref, cand))
                # A new worker's first call compiles the forms of the timing
                # input's operations (worker.TimedScript): before calibration
                # and before any timed batch.
                by_name = {"reference": ref, "candidate": cand}
                for name in order:
                    by_name[name].warm(block * 1000 + 999)
                for name in order:
                    by_name[name].suspend()
                maker.phase = 2  # calibration (phase 1) and rounds never share inputs
                yield ref, cand
            finally:
                for w in workers.values():
                    w.close()

        def calibrate(ref: _core.Side, cand: _core.Side) -> int:
            nonlocal loops
            maker.phase = 1
            loops = perf.calibrate_loops(ref, cand, int(settings.batch_ms * 1e6),
                                         int(settings.max_batch_ms * 1e6))
            maker.phase = 2
            for side in (ref, cand):
                assert isinstance(side, WorkerSide)
                # What one call of the side's last calibration batch cost, path included.
                side.warm_up = warm_up[side.name] = side.raw_wall[-1] < WorkerSide.WARM_UP_BELOW_NS
            # Rounds start from a common block count, so the k-th batch of each
            # side gets the same inputs and their outputs can be compared.
            ref.block = cand.block = 0  # type: ignore[attr-defined]
            return loops

        # At least one warm-up batch per block: it gives the harness cost its
        # first measurement before any timed batch needs it.
        plan = perf.Plan(pairs_per_block=settings.pairs_per_block, min_blocks=settings.min_blocks,
                         max_blocks=settings.max_blocks, warmup=max(1, settings.warmup),
                         warmup_every_block=True, precision=settings.precision,
                         max_time=settings.max_time_s,
                         max_time_cap=settings.max_time_cap_s, seed=seed,
                         decide_blocks=settings.decide_blocks)
        try:
            collected, summary, warnings, loops = perf.run_blocks(
                fresh_workers, cost=self.task.cost, plan=plan, calibrate=calibrate,
                confidence=settings.confidence, threshold=self.task.threshold)
        except SideFailure as exc:
            return InputTiming(
                id=t.id, size=t.size, loops=loops, summary={}, rounds=[],
                reference_median=float("nan"), candidate_median=float("nan"),
                elapsed_s=time.perf_counter() - started,
                error=exc.reason, error_side=exc.side)
        records, ref_costs, cand_costs = perf.round_records(collected, self.task.cost)
        path = {(s.name, *k): v for s in sides for k, v in s.path.items()}
        for rec, r in zip(records, collected, strict=True):
            for name, batch in (("reference", r.reference), ("candidate", r.candidate)):
                raw, dry = path.get((name, batch.wall_ns, batch.cpu_ns), (None, None))
                rec[f"{name}_raw_wall_ns"], rec[f"{name}_dry_wall_ns"] = raw, dry
        warnings.extend(perf.noise_warnings(ref_costs, cand_costs))
        harness = sorted(s.harness.typical() for s in sides if s.dry_runs)
        cand_raw = sorted(w for s in sides if s.name == "candidate" for w in s.raw_wall)
        h_call = harness[len(harness) // 2] if harness else 0.0
        raw_call = cand_raw[len(cand_raw) // 2] if cand_raw else 0.0
        floored = sum(s.floored for s in sides)
        if raw_call and h_call > 0.5 * raw_call:
            warnings.append(f"the measurement path costs {h_call / 1e3:.1f} us per call, "
                            f"{h_call / raw_call:.0%} of the candidate's: its calls are too "
                            "light for a precise ratio (make the timing input heavier)")
        if floored:
            warnings.append(f"{floored} batch(es) held at {WorkerSide.HARNESS_FLOOR:.0%} of their "
                            "raw time: the measurement path cost about as much as the calls")
        return InputTiming(
            id=t.id, size=t.size, loops=loops, summary=summary.to_dict(),
            rounds=records,
            reference_median=float(sorted(ref_costs)[len(ref_costs) // 2]),
            candidate_median=float(sorted(cand_costs)[len(cand_costs) // 2]),
            elapsed_s=time.perf_counter() - started,
            warnings=warnings,
            outputs_checked=check.compared,
            extra={"processes": summary.blocks, "harness_ns_per_call": h_call,
                   "harness_share": h_call / raw_call if raw_call else None},
        )

    def describe(self) -> dict[str, Any]:
        cg = next((c for c in self.cgroups.values() if c is not None), None)
        return {
            "backend": "local",
            "account_switch": is_root(),
            "accounts": {s: f"uid {o[0]} (this evaluation's)" for s, o in self.owners.items()
                         if o is not None} if is_root() else None,
            "cgroups": cg.guarantees() if cg is not None else None,
            "policy": {"nproc": self.policy.nproc,
                       "memory_mb": self.policy.memory_mb,
                       "file_size_mb": self.policy.file_size_mb,
                       "open_files": self.policy.open_files, "cpus": list(self.policy.cpus)},
            "worker_python": worker_python(is_root(), self.sandboxed)[0],
            "sandbox": "bubblewrap, a new one for every worker: own user (the side's id, no "
                       "capabilities), PID, IPC, mount, UTS, network and cgroup namespaces; the "
                       "system read-only, the side's copy at /work" if self.sandboxed else None,
            "syscalls": {"allowed": seccomp.allowed(), "denied_action": "EPERM"}
            if self.sandboxed else None,
            "workers": "a fresh pair of worker processes per block of timed rounds "
                       "(frontier_measure.worker); the evaluator times each batch from "
                       "sending its inputs to receiving its outputs as plain data",
            "suspension": "cgroup freezer" if cg is not None else "SIGSTOP to the process group",
            "notes": list(self.notes),
        }

    def close(self) -> None:
        for p in self._guarded:
            with contextlib.suppress(OSError):
                guard_release(p)
        self._guarded.clear()
        for side, cg in self.cgroups.items():
            if cg is not None:
                cg.remove()
                self.cgroups[side] = None
        shutil.rmtree(self.base, ignore_errors=True)
        release_uids(self._uid_locks)

    def __enter__(self) -> ModuleSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
