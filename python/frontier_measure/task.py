"""The task format: a Harbor task directory plus frontier-measure's settings.

    task.toml            Harbor tables [task] [metadata] [verifier] [agent] [environment];
                         our settings under [metadata.frontier] (common ones here, the
                         scale's own under [metadata.frontier.<scale>], read by its runner)
    instruction.md       what the agent is told
    environment/         Dockerfile + workspace/ (the reference S)
    solution/            solve.sh + workspace/ (the oracle candidate)
    tests/               test.sh + held-out data: checklist.toml (compliance rules and
                         the behaviours the cases must cover), the cases and timing inputs
                         (their form is the runner's), golden.json (recorded reference
                         observations)

The verifier layout is what a Harbor trial has: only tests/ is uploaded, so an
exported task (harbor.py) carries a pristine copy of the reference in
tests/reference/ and a copy of task.toml. A directory with task.toml and tests/
but no environment/workspace/ loads from tests/reference/; the agent's and the
oracle's files (instruction.md, environment/, solution/) are not needed there.

`load()` raises `TaskError` listing every problem found, each naming its file
and field. It knows nothing of any scale's settings: `runners.load()` adds
those through the scale's runner.
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import signal
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .diff import Tolerance
from .observe import DEFAULT_MAX_ITEM_MB

SCALES = ("module", "package", "kernel", "repository")
COSTS = ("wall", "cpu", "cycles", "instructions")
HARBOR_TABLES = ("task", "metadata", "verifier", "agent", "environment")


class TaskError(Exception):
    """A task directory that cannot be used; `problems` lists every issue."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


@dataclass
class TimingSettings:
    """How timing inputs are timed ([metadata.frontier.timing]); see perf.Plan."""

    warmup: int = 1
    pairs_per_block: int = 2  # AB/BA pairs per block (per pair of fresh workers)
    min_blocks: int = 8  # the pilot; the interval is built over blocks
    max_blocks: int = 24
    max_time_s: float = 6.0  # per timing input, blocks only (grows for long calls)
    max_time_cap_s: float = 120.0  # what max_time_s may grow to for calls of max_batch_ms+
    # Blocks more, at most, when the interval still straddles the threshold
    # (within max_time_cap_s); after them an undecided input is "inconclusive".
    decide_blocks: int = 16
    precision: float = 0.05  # stop when the interval half-width (log) is below this
    batch_ms: float = 20.0   # calibration target for the cheaper side's batch
    max_batch_ms: float = 100.0  # ... unless the dearer side's batch would exceed this
    confidence: float = 0.95


@dataclass
class Task:
    path: Path
    name: str
    scale: str
    entry: str
    threshold: float
    cost: str
    repetitions: int
    case_timeout_s: float
    timing: TimingSettings
    tolerance: Tolerance
    behaviours: dict[str, str]
    checklist: dict[str, Any]  # tests/checklist.toml as read ({} when there is none)
    frontier: dict[str, Any]  # [metadata.frontier] as read
    toml: dict[str, Any]
    cases_timeout_s: float = 60.0  # how long the author's code may run (cases(), make() ...)
    max_item_bytes: int = DEFAULT_MAX_ITEM_MB << 20  # the cap on one observed item (max_item_mb)
    # Submodules of the entry imported with it (package scale: an API that
    # lives in `packaging.version` is called as `version.Version`).
    imports: tuple[str, ...] = ()
    settings: Any = None  # the scale's own settings, set by its runner's configure()
    cache: dict[Any, Any] = field(default_factory=dict)  # the runner's, per loaded task

    @property
    def reference_dir(self) -> Path:
        return reference_dir(self.path)

    @property
    def oracle_dir(self) -> Path:
        return self.path / "solution" / "workspace"

    @property
    def tests_dir(self) -> Path:
        return self.path / "tests"

    @property
    def golden_path(self) -> Path:
        return self.tests_dir / "golden.json"

    @property
    def slug(self) -> str:
        return f"{self.scale}-{self.path.name}"

    def scale_table(self) -> dict[str, Any]:
        """[metadata.frontier.<scale>] (package tasks share the module table)."""
        key = "module" if self.scale == "package" else self.scale
        table = self.frontier.get(key, self.frontier.get(self.scale, {}))
        if not isinstance(table, dict):
            raise TaskError(self.path, [f"task.toml [metadata.frontier.{key}]: must be a table"])
        return table


REQUIRED_FILES = (
    "task.toml",
    "instruction.md",
    "environment/Dockerfile",
    "solution/solve.sh",
    "tests/test.sh",
)
VERIFIER_FILES = ("task.toml", "tests/test.sh")
CASES_TIMEOUT_S = 60.0
MAX_ITEM_MB = 1024  # the most max_item_mb may be: a worker's reply frame says its length in 32 bits


def is_verifier_layout(root: Path) -> bool:
    """Only tests/ (with tests/reference/) is there: a Harbor trial's verifier side."""
    return not (root / "environment" / "workspace").is_dir() \
        and (root / "tests" / "reference").is_dir()


def reference_dir(root: Path) -> Path:
    """The reference S: environment/workspace/, or tests/reference/ in the verifier layout."""
    if is_verifier_layout(root):
        return root / "tests" / "reference"
    return root / "environment" / "workspace"


CHECKLIST_TABLES = ("compliance", "behaviours")


def get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
        problems: list[str], default: Any = None, required: bool = False) -> Any:
    """table[key] checked against `kind` (an int is a float too; a bool is
    never a number); a problem naming `where.key` otherwise."""
    if key not in table:
        if required:
            problems.append(f"{where}: missing field '{key}'")
        return default
    value = table[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        want = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        problems.append(f"{where}.{key}: expected {want}, got {type(value).__name__} "
                        f"{_short(value)}")
        return default
    if isinstance(value, float) and not math.isfinite(value):
        problems.append(f"{where}.{key}: must be a finite number, got {value!r}")
        return default
    if isinstance(value, str) and "\0" in value:
        problems.append(f"{where}.{key}: contains a NUL character")
        return default
    if isinstance(value, list) and any(isinstance(x, str) and "\0" in x for x in value):
        problems.append(f"{where}.{key}: an element contains a NUL character")
        return default
    return value


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def get_strings(table: dict[str, Any], key: str, where: str, problems: list[str],
                default: list[str] | None = None) -> list[str]:
    """table[key] checked to be a list of strings."""
    value = get(table, key, list, where, problems)
    if value is None:
        return list(default or [])
    if not all(isinstance(x, str) for x in value):
        problems.append(f"{where}.{key}: must be a list of strings")
        return list(default or [])
    return list(value)


# Harbor's own fields (its task configuration) that a task may set: their types.
# The evaluator reads few of them, but `harbor export` and a Harbor trial do.
HARBOR_FIELDS: dict[str, dict[str, tuple[type, str]]] = {
    "task": {"name": (str, ""), "description": (str, ""), "authors": (list, ""),
             "keywords": (list, "str")},
    "verifier": {"timeout_sec": (float, ">0")},
    "agent": {"timeout_sec": (float, ">0")},
    "environment": {"build_timeout_sec": (float, ">0"), "cpus": (int, ">0"),
                    "memory_mb": (int, ">0"), "storage_mb": (int, ">0"),
                    "network_mode": (str, ""), "workdir": (str, ""), "docker_image": (str, "")},
}


def _check_harbor(doc: dict[str, Any], problems: list[str]) -> None:
    if "version" in doc and not isinstance(doc["version"], str):
        problems.append(f"task.toml version: expected str, got {type(doc['version']).__name__}")
    for table, fields in HARBOR_FIELDS.items():
        t = doc.get(table)
        if not isinstance(t, dict):
            continue
        for key, (kind, rule) in fields.items():
            v = get(t, key, kind, f"task.toml [{table}]", problems)
            if v is None:
                continue
            if rule == ">0" and v <= 0:
                problems.append(f"task.toml [{table}].{key}: must be positive")
            if rule == "str" and not all(isinstance(x, str) for x in v):
                problems.append(f"task.toml [{table}].{key}: must be a list of strings")


def read_toml(path: Path, label: str, problems: list[str]) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        problems.append(f"{label}: missing")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{label}: malformed TOML ({exc})")
    except UnicodeDecodeError as exc:
        problems.append(f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        problems.append(f"{label}: unreadable ({exc.strerror or exc})")
    except RecursionError:
        problems.append(f"{label}: malformed TOML (nested too deeply)")
    return {}


def load(path: str | Path) -> Task:
    """Load and check a task directory's common part; raise TaskError naming
    every problem."""
    try:
        root = Path(path).resolve()
        if not root.is_dir():
            raise TaskError(root, ["not a directory"])
        return _load(root)
    except OSError as exc:
        # A directory the loader may not enter, a symlink loop ...: the path it
        # could not read, never a traceback.
        where = Path(exc.filename).resolve() if exc.filename else Path(path)
        raise TaskError(Path(path), [f"{_rel(where, Path(path))}: unreadable "
                                     f"({exc.strerror or exc})"]) from None
    except RuntimeError as exc:  # Path.resolve() of a symlink loop
        raise TaskError(Path(path), [f"unreadable ({exc})"]) from None


def _rel(p: Path, root: Path) -> str:
    try:
        return str(p.relative_to(root.resolve())) or "."
    except ValueError:
        return str(p)


def _load(root: Path) -> Task:
    problems: list[str] = []
    verifier = is_verifier_layout(root)
    for rel in VERIFIER_FILES if verifier else REQUIRED_FILES:
        if not (root / rel).is_file():
            problems.append(f"{rel}: missing")
    if not reference_dir(root).is_dir():
        problems.append("environment/workspace/: missing (the reference)")
    if not verifier and not (root / "solution" / "workspace").is_dir():
        problems.append("solution/workspace/: missing (the oracle candidate)")
    doc = read_toml(root / "task.toml", "task.toml", problems) \
        if (root / "task.toml").is_file() else {}
    if not doc:
        raise TaskError(root, problems or ["task.toml: empty"])
    for table in HARBOR_TABLES:
        if table in doc and not isinstance(doc[table], dict):
            problems.append(f"task.toml [{table}]: must be a table")
    _check_harbor(doc, problems)
    tinfo: dict[str, Any] = doc["task"] if isinstance(doc.get("task"), dict) else {}
    if "task" not in doc:
        problems.append("task.toml [task]: missing table")
    given = tinfo.get("name")
    name: str = given if isinstance(given, str) and given and "\0" not in given else root.name
    if "task" in doc and "name" not in tinfo:
        problems.append("task.toml [task]: missing field 'name'")
    elif isinstance(tinfo.get("name"), str) and not tinfo["name"]:
        problems.append("task.toml [task].name: empty")
    meta: dict[str, Any] = doc["metadata"] if isinstance(doc.get("metadata"), dict) else {}
    fr = meta.get("frontier")
    if not isinstance(fr, dict):
        problems.append("task.toml [metadata.frontier]: missing table")
        raise TaskError(root, problems)
    where = "task.toml [metadata.frontier]"
    scale = get(fr, "scale", str, where, problems, required=True)
    if scale is not None and scale not in SCALES:
        problems.append(f"{where}.scale: unknown scale '{scale}' (choose from {', '.join(SCALES)})")
    entry = get(fr, "entry", str, where, problems, default="")
    imports = get(fr, "import", list, where, problems, default=[]) or []
    for i, name in enumerate(imports):
        if not isinstance(name, str) or not entry or not name.startswith(f"{entry}.") or \
                not all(part.isidentifier() for part in name.split(".")):
            problems.append(f"{where}.import[{i}]: {name!r} is not a submodule of the entry "
                            f"(write it as '{entry or 'entry'}.name')")
    threshold = get(fr, "threshold", float, where, problems, required=True)
    if threshold is None:
        threshold = 1.0
    elif threshold <= 0:
        problems.append(f"{where}.threshold: must be positive")
    cost = get(fr, "cost", str, where, problems, default="cycles" if scale == "kernel" else "wall")
    if cost not in COSTS:
        problems.append(f"{where}.cost: unknown cost '{cost}' (choose from {', '.join(COSTS)})")
    reps = get(fr, "repetitions", int, where, problems, default=5)
    if not isinstance(reps, int) or reps < 2:
        problems.append(f"{where}.repetitions: at least 2 recordings are needed")
    case_timeout = get(fr, "case_timeout_s", float, where, problems, default=30.0)
    if case_timeout <= 0:
        problems.append(f"{where}.case_timeout_s: must be positive")
    cases_timeout = get(fr, "cases_timeout_s", float, where, problems, default=CASES_TIMEOUT_S)
    if cases_timeout <= 0:
        problems.append(f"{where}.cases_timeout_s: must be positive")
    # The most one item of a side may take as plain data (observe.unpack_item):
    # past it the side fails, naming the item. What the evaluator holds at once
    # is about one item, so this bounds its memory.
    item_mb = get(fr, "max_item_mb", float, where, problems, default=float(DEFAULT_MAX_ITEM_MB))
    if not 0 < item_mb <= MAX_ITEM_MB:
        problems.append(f"{where}.max_item_mb: must be above 0 and at most {MAX_ITEM_MB} "
                        f"(MiB of one item as plain data), got {item_mb:g}")
        item_mb = float(DEFAULT_MAX_ITEM_MB)

    timing = TimingSettings()
    tt = fr.get("timing", {})
    if not isinstance(tt, dict):
        problems.append(f"{where}.timing: must be a table")
        tt = {}
    for key, spec in TimingSettings.__dataclass_fields__.items():
        kind = float if spec.type in ("float", float) else int
        v = get(tt, key, kind, f"{where}.timing", problems)
        if v is not None:
            if v <= 0 and key != "warmup" or v < 0:
                problems.append(f"{where}.timing.{key}: must be positive")
            else:
                setattr(timing, key, v)
    for key in sorted(set(tt) - set(TimingSettings.__dataclass_fields__)):
        problems.append(f"{where}.timing.{key}: unknown setting "
                        f"(known: {', '.join(TimingSettings.__dataclass_fields__)})")
    if timing.max_time_cap_s < timing.max_time_s:
        problems.append(f"{where}.timing.max_time_cap_s: smaller than max_time_s")
    if timing.max_blocks < timing.min_blocks:
        problems.append(f"{where}.timing.max_blocks: smaller than min_blocks")
    if not 0.5 < timing.confidence < 1:
        problems.append(f"{where}.timing.confidence: must be between 0.5 and 1")
    tol_t = fr.get("tolerance", {})
    if not isinstance(tol_t, dict):
        problems.append(f"{where}.tolerance: must be a table")
        tol_t = {}
    tolerance = Tolerance(
        rel=get(tol_t, "float_rel", float, f"{where}.tolerance", problems, default=0.0),
        abs=get(tol_t, "float_abs", float, f"{where}.tolerance", problems, default=0.0),
    )
    for key, v in (("float_rel", tolerance.rel), ("float_abs", tolerance.abs)):
        if v < 0:
            problems.append(f"{where}.tolerance.{key}: must not be negative")

    checklist: dict[str, Any] = {}
    behaviours: dict[str, str] = {}
    if (root / "tests/checklist.toml").is_file():
        checklist = read_toml(root / "tests/checklist.toml", "tests/checklist.toml", problems)
        for key in sorted(k for k in checklist if k not in CHECKLIST_TABLES):
            problems.append(f"tests/checklist.toml [{key}]: not a table of the checklist (its "
                            f"tables are {' and '.join(f'[{t}]' for t in CHECKLIST_TABLES)})")
        beh = checklist.get("behaviours", {})
        if not isinstance(beh, dict):
            problems.append("tests/checklist.toml [behaviours]: must be a table")
        else:
            for k, v in beh.items():
                if isinstance(v, str) and "\0" not in v and v.strip():
                    behaviours[k] = v
                elif isinstance(v, str) and "\0" not in v:
                    problems.append(f"tests/checklist.toml [behaviours].{k}: empty (say what "
                                    "the behaviour is: it is what a case that covers it tests)")
                else:
                    got = "a string with NUL" if isinstance(v, str) else type(v).__name__
                    problems.append(f"tests/checklist.toml [behaviours].{k}: expected str "
                                    f"(what the behaviour is), got {got}")
    if problems:
        raise TaskError(root, problems)
    return Task(
        path=root, name=name, scale=scale, entry=entry, threshold=threshold, cost=cost,
        repetitions=reps, case_timeout_s=case_timeout, timing=timing, tolerance=tolerance,
        behaviours=behaviours, checklist=checklist, frontier=fr, toml=doc,
        cases_timeout_s=cases_timeout, max_item_bytes=int(item_mb * (1 << 20)),
        imports=tuple(n for n in imports if isinstance(n, str)),
    )


class _AuthorTimeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise _AuthorTimeout in the code run inside after `seconds` (the main
    thread only: elsewhere no limit is set)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise _AuthorTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    # An alarm already set (pytest-timeout's) is put back afterwards, less the time spent.
    started = time.monotonic()
    outer, interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer > 0:
            left = max(outer - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, interval)


def run_author(task: Task, rel: str, what: str, fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args), author code: anything it raises (an exit, a recursion too
    deep), or running past [metadata.frontier] cases_timeout_s, is a TaskError
    naming `rel` and `what`."""
    try:
        with _time_limit(task.cases_timeout_s):
            return fn(*args)
    except _AuthorTimeout:
        raise TaskError(task.path, [f"{rel}: {what or 'importing it'} did not finish within "
                                    f"{task.cases_timeout_s:g} s "
                                    "([metadata.frontier] cases_timeout_s)"]) from None
    except TaskError:
        raise
    except (Exception, SystemExit) as exc:
        text = str(exc)
        text = text if len(text) <= 300 else text[:300] + "..."
        raise TaskError(task.path, [f"{rel}: {what + ' ' if what else ''}raised "
                                    f"{type(exc).__name__}: {text}"]) from None


def load_module(task: Task, rel: str, functions: tuple[str, ...]) -> ModuleType:
    """Run one of the task's own Python files (author code, trusted: it runs in
    the evaluator, never in a side) and check it defines `functions`."""
    path = task.path / rel
    cached = task.cache.get(("module", rel))
    if cached is not None:
        return cached
    if not path.is_file():
        raise TaskError(task.path, [f"{rel}: missing"])
    spec = importlib.util.spec_from_file_location(f"_fm_{task.scale}_{task.path.name}_"
                                                  f"{Path(rel).stem}", path)
    if spec is None or spec.loader is None:
        raise TaskError(task.path, [f"{rel}: cannot be loaded"])
    mod = importlib.util.module_from_spec(spec)
    loader = spec.loader
    run_author(task, rel, "", loader.exec_module, mod)
    missing = [f"{rel}: must define {fn}()" for fn in functions
               if not callable(getattr(mod, fn, None))]
    if missing:
        raise TaskError(task.path, missing)
    task.cache[("module", rel)] = mod
    return mod


def call_author(task: Task, rel: str, fn: str) -> list[Any]:
    """The list an author's function returns (cases(), timing_inputs() ...)."""
    mod = load_module(task, rel, (fn,))
    out = run_author(task, rel, f"{fn}()", getattr(mod, fn))
    if not isinstance(out, (list, tuple)):
        raise TaskError(task.path, [f"{rel}: {fn}() must return a list, got {type(out).__name__}"])
    return list(out)


def check_covers(raw: Any, where: str, problems: list[str]) -> list[str]:
    """A case's 'covers': a behaviour's name or a list of them."""
    if raw is None:
        return []
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, (list, tuple)) and all(isinstance(x, str) for x in raw):
        return list(raw)
    problems.append(f"{where}.covers: must be a behaviour's name or a list of them, "
                    f"got {_short(raw)}")
    return []


def check_size(raw: Any, where: str, problems: list[str]) -> int | None:
    """A timing input's 'size': a non-negative integer, or absent."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        problems.append(f"{where}.size: must be a non-negative integer, got {_short(raw)}")
        return None
    return raw


SUITE_DIR = "suite"  # tasks from real code below a task root: run only when asked


def find_tasks(path: str | Path, *, full: bool = False) -> list[Path]:
    """A task directory itself, or every task directory below `path`, sorted.

    Tasks under a `suite/` directory below `path` (the suite built from real
    code, slow to evaluate) are left out unless `full`; pointing at the suite
    directory itself, or at one of its tasks, finds them."""
    p = Path(path)
    if (p / "task.toml").is_file():
        return [p]
    return sorted(t.parent for t in p.rglob("task.toml")
                  if "workspace" not in t.parts and ".venv" not in t.parts
                  and (full or SUITE_DIR not in t.relative_to(p).parts)
                  # an exported task's tests/task.toml is a copy, not another task
                  and not (t.parent.name == "tests" and (t.parent.parent / "task.toml").is_file()))
