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

import importlib.util
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .diff import Tolerance

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


def is_verifier_layout(root: Path) -> bool:
    """Only tests/ (with tests/reference/) is there: a Harbor trial's verifier side."""
    return not (root / "environment" / "workspace").is_dir() \
        and (root / "tests" / "reference").is_dir()


def reference_dir(root: Path) -> Path:
    """The reference S: environment/workspace/, or tests/reference/ in the verifier layout."""
    if is_verifier_layout(root):
        return root / "tests" / "reference"
    return root / "environment" / "workspace"


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
        problems.append(f"{where}.{key}: expected {want}, got {type(value).__name__} {value!r}")
        return default
    return value


def read_toml(path: Path, label: str, problems: list[str]) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        problems.append(f"{label}: missing")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{label}: malformed TOML ({exc})")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{label}: unreadable ({getattr(exc, 'strerror', None) or exc})")
    return {}


def load(path: str | Path) -> Task:
    """Load and check a task directory's common part; raise TaskError naming
    every problem."""
    root = Path(path).resolve()
    problems: list[str] = []
    if not root.is_dir():
        raise TaskError(root, ["not a directory"])
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
    tinfo: dict[str, Any] = doc["task"] if isinstance(doc.get("task"), dict) else {}
    if "task" not in doc:
        problems.append("task.toml [task]: missing table")
    name = get(tinfo, "name", str, "task.toml [task]", problems, required=True) or root.name
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
    threshold = get(fr, "threshold", float, where, problems, required=True) or 1.0
    if threshold <= 0:
        problems.append(f"{where}.threshold: must be positive")
    cost = get(fr, "cost", str, where, problems, default="cycles" if scale == "kernel" else "wall")
    if cost not in COSTS:
        problems.append(f"{where}.cost: unknown cost '{cost}' (choose from {', '.join(COSTS)})")
    reps = get(fr, "repetitions", int, where, problems, default=5)
    if reps < 2:
        problems.append(f"{where}.repetitions: at least 2 recordings are needed")
    case_timeout = get(fr, "case_timeout_s", float, where, problems, default=30.0)
    if case_timeout <= 0:
        problems.append(f"{where}.case_timeout_s: must be positive")

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

    checklist: dict[str, Any] = {}
    behaviours: dict[str, str] = {}
    if (root / "tests/checklist.toml").is_file():
        checklist = read_toml(root / "tests/checklist.toml", "tests/checklist.toml", problems)
        beh = checklist.get("behaviours", {})
        if not isinstance(beh, dict):
            problems.append("tests/checklist.toml [behaviours]: must be a table")
        else:
            behaviours = {str(k): str(v) for k, v in beh.items()}
    if problems:
        raise TaskError(root, problems)
    return Task(
        path=root, name=name, scale=scale, entry=entry, threshold=threshold, cost=cost,
        repetitions=reps, case_timeout_s=case_timeout, timing=timing, tolerance=tolerance,
        behaviours=behaviours, checklist=checklist, frontier=fr, toml=doc,
    )


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
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:
        raise TaskError(task.path, [f"{rel}: raised {type(exc).__name__}: {exc}"]) from None
    missing = [f"{rel}: must define {fn}()" for fn in functions
               if not callable(getattr(mod, fn, None))]
    if missing:
        raise TaskError(task.path, missing)
    task.cache[("module", rel)] = mod
    return mod


def call_author(task: Task, rel: str, fn: str) -> list[Any]:
    """The list an author's function returns (cases(), timing_inputs() ...)."""
    mod = load_module(task, rel, (fn,))
    try:
        out = getattr(mod, fn)()
    except Exception as exc:
        raise TaskError(task.path, [f"{rel}: {fn}() raised {type(exc).__name__}: {exc}"]) from None
    if not isinstance(out, (list, tuple)):
        raise TaskError(task.path, [f"{rel}: {fn}() must return a list, got {type(out).__name__}"])
    return list(out)


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
