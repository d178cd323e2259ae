"""The task format: a Harbor task directory plus frontier-measure's settings.

    task.toml            Harbor tables [task] [metadata] [verifier] [agent] [environment];
                         our settings under [metadata.frontier]
    instruction.md       what the agent is told
    environment/         Dockerfile + workspace/ (the reference S)
    solution/            solve.sh + workspace/ (the oracle candidate)
    tests/               test.sh + held-out data: checklist.toml (compliance rules and
                         the behaviours the cases must cover), cases.py (functional cases
                         and timing inputs), golden.json (recorded reference observations)

The verifier layout is what a Harbor trial has: only tests/ is uploaded, so an
exported task (harbor.py) carries a pristine copy of the reference in
tests/reference/ and a copy of task.toml. A directory with task.toml and tests/
but no environment/workspace/ loads from tests/reference/; the agent's and the
oracle's files (instruction.md, environment/, solution/) are not needed there.

`load()` raises `TaskError` listing every problem found, each naming its file
and field; `validate()` returns the same problems as a list (plus audits that
need the cases: behaviour coverage, golden outputs present).
"""

from __future__ import annotations

import importlib.util
import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diff import Tolerance

SCALES = ("module", "package", "kernel", "repository")
PYTHON_SCALES = ("module", "package")
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
    warmup: int = 1
    min_rounds: int = 10
    max_rounds: int = 60
    max_time_s: float = 6.0  # per timing input, rounds only
    precision: float = 0.05  # stop when the interval half-width (log) is below this
    batch_ms: float = 20.0   # calibration target for the cheaper side's batch
    max_batch_ms: float = 100.0  # ... unless the dearer side's batch would exceed this
    confidence: float = 0.95


@dataclass
class Compliance:
    """Source rules for the candidate (from tests/checklist.toml [compliance])."""

    allowed_imports: list[str] = field(default_factory=list)  # module roots; own modules implied
    prohibited_calls: list[str] = field(default_factory=list)  # dotted names, e.g. "time.sleep"
    allow: list[str] = field(default_factory=list)  # escape hatches the task permits


@dataclass
class Case:
    """A functional case: a sequence of operations (a module case has one)."""

    id: str
    ops: list[dict[str, Any]]
    covers: list[str] = field(default_factory=list)


@dataclass
class TimingInput:
    """A timing input: `make(seed)` returns the operations of one timed call.
    Each timed call gets a fresh seed, so no two calls in a process share an
    input and a cache across calls cannot pay off."""

    id: str
    make: Callable[[int], list[dict[str, Any]]]
    size: int | None = None


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
    compliance: Compliance
    behaviours: dict[str, str]
    toml: dict[str, Any]

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

    def cases(self) -> list[Case]:
        return _load_cases(self)[0]

    def timing_inputs(self) -> list[TimingInput]:
        return _load_cases(self)[1]

    def golden(self) -> dict[str, Any]:
        try:
            data = json.loads(self.golden_path.read_text())
        except FileNotFoundError:
            raise TaskError(self.path, [
                f"{self.golden_path.relative_to(self.path)}: missing; "
                f"run `frontier-measure record {self.path}`"]) from None
        except json.JSONDecodeError as exc:
            raise TaskError(self.path, [f"tests/golden.json: not valid JSON ({exc})"]) from None
        return data


REQUIRED_FILES = (
    "task.toml",
    "instruction.md",
    "environment/Dockerfile",
    "solution/solve.sh",
    "tests/test.sh",
)
PYTHON_FILES = ("tests/checklist.toml", "tests/cases.py")
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


def _get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
         problems: list[str], default: Any = None, required: bool = False) -> Any:
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


def _read_toml(path: Path, label: str, problems: list[str]) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        problems.append(f"{label}: missing")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{label}: malformed TOML ({exc})")
    except OSError as exc:
        problems.append(f"{label}: unreadable ({exc.strerror})")
    return {}


def load(path: str | Path) -> Task:
    """Load and check a task directory; raise TaskError naming every problem."""
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
    doc = _read_toml(root / "task.toml", "task.toml", problems) if (root / "task.toml").is_file() \
        else {}
    if not doc:
        raise TaskError(root, problems or ["task.toml: empty"])
    for table in HARBOR_TABLES:
        if table in doc and not isinstance(doc[table], dict):
            problems.append(f"task.toml [{table}]: must be a table")
    tinfo: dict[str, Any] = doc["task"] if isinstance(doc.get("task"), dict) else {}
    if "task" not in doc:
        problems.append("task.toml [task]: missing table")
    name = _get(tinfo, "name", str, "task.toml [task]", problems, required=True) or root.name
    meta: dict[str, Any] = doc["metadata"] if isinstance(doc.get("metadata"), dict) else {}
    fr = meta.get("frontier")
    if not isinstance(fr, dict):
        problems.append("task.toml [metadata.frontier]: missing table")
        raise TaskError(root, problems)
    where = "task.toml [metadata.frontier]"
    scale = _get(fr, "scale", str, where, problems, required=True)
    if scale is not None and scale not in SCALES:
        problems.append(f"{where}.scale: unknown scale '{scale}' (choose from {', '.join(SCALES)})")
    entry = _get(fr, "entry", str, where, problems, required=True) or ""
    threshold = _get(fr, "threshold", float, where, problems, required=True) or 1.0
    if threshold <= 0:
        problems.append(f"{where}.threshold: must be positive")
    cost = _get(fr, "cost", str, where, problems, default="wall")
    if scale in PYTHON_SCALES and cost not in ("wall", "cpu"):
        problems.append(f"{where}.cost: '{cost}' cannot be measured for Python code "
                        "(choose wall or cpu)")
    elif cost not in COSTS:
        problems.append(f"{where}.cost: unknown cost '{cost}' (choose from {', '.join(COSTS)})")
    reps = _get(fr, "repetitions", int, where, problems, default=5)
    if reps < 2:
        problems.append(f"{where}.repetitions: at least 2 recordings are needed")
    case_timeout = _get(fr, "case_timeout_s", float, where, problems, default=30.0)

    timing = TimingSettings()
    tt = fr.get("timing", {})
    if not isinstance(tt, dict):
        problems.append(f"{where}.timing: must be a table")
        tt = {}
    for key, kind in (("warmup", int), ("min_rounds", int), ("max_rounds", int),
                      ("max_time_s", float), ("precision", float), ("batch_ms", float),
                      ("max_batch_ms", float),
                      ("confidence", float)):
        v = _get(tt, key, kind, f"{where}.timing", problems)
        if v is not None:
            setattr(timing, key, v)
    unknown = set(tt) - set(TimingSettings.__dataclass_fields__)
    for key in sorted(unknown):
        problems.append(f"{where}.timing.{key}: unknown setting")
    if timing.min_rounds < 6:
        problems.append(f"{where}.timing.min_rounds: at least 6 rounds are needed for an interval")
    if timing.max_rounds < timing.min_rounds:
        problems.append(f"{where}.timing.max_rounds: smaller than min_rounds")
    tol_t = fr.get("tolerance", {})
    if not isinstance(tol_t, dict):
        problems.append(f"{where}.tolerance: must be a table")
        tol_t = {}
    tolerance = Tolerance(
        rel=_get(tol_t, "float_rel", float, f"{where}.tolerance", problems, default=0.0),
        abs=_get(tol_t, "float_abs", float, f"{where}.tolerance", problems, default=0.0),
    )

    compliance = Compliance()
    behaviours: dict[str, str] = {}
    if scale in PYTHON_SCALES:
        for rel in PYTHON_FILES:
            if not (root / rel).is_file():
                problems.append(f"{rel}: missing")
        if not verifier and not (root / "solution" / "workspace").is_dir():
            problems.append("solution/workspace/: missing (the oracle candidate)")
        if (root / "tests/checklist.toml").is_file():
            chk = _read_toml(root / "tests/checklist.toml", "tests/checklist.toml", problems)
            comp = chk.get("compliance", {})
            cw = "tests/checklist.toml [compliance]"
            if not isinstance(comp, dict):
                problems.append(f"{cw}: must be a table")
                comp = {}
            for key in ("allowed_imports", "prohibited_calls", "allow"):
                v = _get(comp, key, list, cw, problems, default=[])
                if not all(isinstance(x, str) for x in v):
                    problems.append(f"{cw}.{key}: must be a list of strings")
                    v = []
                setattr(compliance, key, v)
            beh = chk.get("behaviours", {})
            if not isinstance(beh, dict) or not beh:
                problems.append("tests/checklist.toml [behaviours]: missing or empty "
                                "(list every promised behaviour)")
            else:
                behaviours = {str(k): str(v) for k, v in beh.items()}
        ref = reference_dir(root)
        if entry and ref.is_dir() and not (
            (ref / f"{entry}.py").is_file() or (ref / entry / "__init__.py").is_file()
        ):
            problems.append(f"{where}.entry: '{entry}' is neither {entry}.py nor "
                            f"{entry}/__init__.py in {ref.relative_to(root)}/")
        if scale == "package" and entry and ref.is_dir() and (ref / f"{entry}.py").is_file():
            problems.append(f"{where}.entry: a package-scale entry must be a package directory")
    if problems:
        raise TaskError(root, problems)
    return Task(
        path=root, name=name, scale=scale, entry=entry, threshold=threshold, cost=cost,
        repetitions=reps, case_timeout_s=case_timeout, timing=timing, tolerance=tolerance,
        compliance=compliance, behaviours=behaviours, toml=doc,
    )


_CASE_CACHE: dict[tuple[Path, int, int], tuple[list[Case], list[TimingInput]]] = {}


def _load_cases(task: Task) -> tuple[list[Case], list[TimingInput]]:
    """Run the task's tests/cases.py (author code, trusted) and normalise it."""
    path = task.tests_dir / "cases.py"
    try:
        st = path.stat()
    except OSError as exc:
        raise TaskError(task.path, [f"tests/cases.py: unreadable ({exc.strerror})"]) from None
    key = (path, st.st_mtime_ns, st.st_size)  # an edited file is read again
    if key in _CASE_CACHE:
        return _CASE_CACHE[key]
    spec = importlib.util.spec_from_file_location(f"_fm_cases_{task.path.name}", path)
    if spec is None or spec.loader is None:
        raise TaskError(task.path, ["tests/cases.py: cannot be loaded"])
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:
        raise TaskError(task.path, [f"tests/cases.py: raised {type(exc).__name__}: {exc}"]) \
            from None
    problems: list[str] = []
    for fn in ("cases", "timing_inputs"):
        if not callable(getattr(mod, fn, None)):
            problems.append(f"tests/cases.py: must define {fn}()")
    if problems:
        raise TaskError(task.path, problems)
    cases: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(mod.cases()):
        where = f"tests/cases.py cases()[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            problems.append(f"{where}: each case is a dict with a string 'id'")
            continue
        cid = raw["id"]
        if "/" in cid or cid in seen:
            problems.append(f"{where}.id: '{cid}' is duplicated or contains '/'")
        seen.add(cid)
        try:
            ops = normalise_ops(raw)
        except ValueError as exc:
            problems.append(f"{where} ('{cid}'): {exc}")
            continue
        covers = raw.get("covers", [])
        if isinstance(covers, str):
            covers = [covers]
        cases.append(Case(cid, ops, list(covers)))
    inputs: list[TimingInput] = []
    for i, raw in enumerate(mod.timing_inputs()):
        where = f"tests/cases.py timing_inputs()[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) \
                or not callable(raw.get("make")):
            problems.append(f"{where}: needs a string 'id' and a callable 'make(seed)'")
            continue
        make = raw["make"]

        def made(seed: int, _make: Any = make, _w: str = where) -> list[dict[str, Any]]:
            return normalise_ops(_make(seed))

        inputs.append(TimingInput(raw["id"], made, raw.get("size")))
    if problems:
        raise TaskError(task.path, problems)
    _CASE_CACHE[key] = (cases, inputs)
    return cases, inputs


def normalise_ops(raw: Any) -> list[dict[str, Any]]:
    """A case or timed call as a list of operations.

    Module form: {"call": "fn", "args": [...], "kwargs": {...}}.
    Package form: {"ops": [op, ...]} where an op is {"call": "Name" | "$obj.method",
    "args", "kwargs", "as": "obj"} or {"get": "$obj.attr" | "Name"}.
    """
    if isinstance(raw, list):
        ops_raw = raw
    elif isinstance(raw, dict) and "ops" in raw:
        ops_raw = raw["ops"]
    elif isinstance(raw, dict) and ("call" in raw or "get" in raw):
        ops_raw = [raw]
    else:
        raise ValueError("needs 'call', 'get' or 'ops'")
    if not isinstance(ops_raw, list) or not ops_raw:
        raise ValueError("'ops' must be a non-empty list")
    ops: list[dict[str, Any]] = []
    for j, op in enumerate(ops_raw):
        if not isinstance(op, dict):
            raise ValueError(f"op {j}: must be a dict")
        kind = "call" if "call" in op else "get" if "get" in op else None
        if kind is None:
            raise ValueError(f"op {j}: needs 'call' or 'get'")
        target = op[kind]
        if not isinstance(target, str) or not target:
            raise ValueError(f"op {j}: '{kind}' must be a non-empty string")
        args = op.get("args", [])
        kwargs = op.get("kwargs", {})
        if not isinstance(args, (list, tuple)) or not isinstance(kwargs, dict):
            raise ValueError(f"op {j}: 'args' must be a list and 'kwargs' a dict")
        out: dict[str, Any] = {"kind": kind, "target": target, "args": list(args),
                               "kwargs": dict(kwargs)}
        if "as" in op:
            out["as"] = str(op["as"])
        if op.get("observe", True) is False:
            out["observe"] = False
        ops.append(out)
    return ops


def find_tasks(path: str | Path) -> list[Path]:
    """A task directory itself, or every task directory below `path`, sorted."""
    p = Path(path)
    if (p / "task.toml").is_file():
        return [p]
    return sorted(t.parent for t in p.rglob("task.toml")
                  if "workspace" not in t.parts and ".venv" not in t.parts
                  # an exported task's tests/task.toml is a copy, not another task
                  and not (t.parent.name == "tests" and (t.parent.parent / "task.toml").is_file()))


def validate(path: str | Path) -> list[str]:
    """Every problem with a task, as 'file: field: problem' lines (empty = valid)."""
    try:
        task = load(path)
    except TaskError as exc:
        return exc.problems
    problems: list[str] = []
    if task.scale == "repository":
        from .runners import repository

        return repository.validate(task.path)
    if task.scale not in PYTHON_SCALES:
        return problems  # other scales validate their own data
    try:
        cases = task.cases()
        inputs = task.timing_inputs()
    except TaskError as exc:
        return exc.problems
    if not cases:
        problems.append("tests/cases.py: cases() returned no cases")
    if len(inputs) < 2:
        problems.append("tests/cases.py: timing_inputs() needs at least 2 sizes")
    covered: dict[str, list[str]] = {b: [] for b in task.behaviours}
    for c in cases:
        for b in c.covers:
            if b not in covered:
                problems.append(f"tests/cases.py case '{c.id}'.covers: unknown behaviour '{b}' "
                                "(not in tests/checklist.toml [behaviours])")
            else:
                covered[b].append(c.id)
    for b, ids in covered.items():
        if not ids:
            problems.append(f"tests/checklist.toml [behaviours].{b}: no case covers it")
    for t in inputs:
        try:
            t.make(0)
        except Exception as exc:
            problems.append(f"tests/cases.py timing input '{t.id}': make(0) raised "
                            f"{type(exc).__name__}: {exc}")
    try:
        golden = task.golden()
    except TaskError as exc:
        problems.extend(exc.problems)
        return problems
    items = golden.get("items", {})
    recorded_cases = {i.split("/", 1)[0] for i in list(items) + list(golden.get("excluded", {}))}
    for c in cases:
        if c.id not in recorded_cases:
            problems.append(f"tests/golden.json: case '{c.id}' has no recorded items "
                            "(re-run `frontier-measure record`)")
    from .record import reference_digest

    if golden.get("reference_digest") != reference_digest(task.reference_dir):
        problems.append("tests/golden.json.reference_digest: the reference changed since "
                        "recording (re-run `frontier-measure record`)")
    return problems
