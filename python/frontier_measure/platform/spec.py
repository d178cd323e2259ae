"""The experiment spec: one TOML file says what a run is.

    [run]
    name = "smoke"            # the run's name (its directory: runs/<name>/ by default)
    attempts = 3              # independent attempts per task x agent x model x mode x regime
    concurrency = 2           # agents working at once (timed evaluations never overlap)
    timeout_s = 1800          # operational timeout of an agent's turn
    isolation = "docker"      # docker (default) | copy
    image = "frontier-measure/base:bookworm-1"   # image of performance tasks' containers
    prompt_modes = ["base"]   # descriptive | base | lazy, or ["all"]
    regimes = ["S1"]          # S1 terminal | S2 + code index | S3 + delegation, or [regimes.X]
    exclude = [{model = "fix", regime = "S[12]*"}]   # combinations not to run (globs)
    prices = "prices.toml"    # optional: merged over the bundled price table
    gate_isolation = "local"  # the evaluator's backend for repository-scale tasks

    [tasks]
    paths = ["../../tasks/module/dedupe"]       # task directories, or directories of tasks
    [tasks.refactorbench]                       # and/or RefactorBench, imported on the fly
    snapshot = "/path/refactorbench-2c93696.tar.gz"   # default: $FM_REFACTORBENCH, shared/data/
    select = ["flask/render-template-str"]      # glob patterns over repo/task; default all

    [agents.mini]             # a command agent from a template ...
    template = "mini-swe-agent"
    [agents.nop]              # ... or a built-in one: nop, oracle, replay (trajectory = FILE)

    [models.fix]              # what model-using agents are run with
    endpoint = "scripted"
    model = "fix"             # the name sent to the endpoint (default: the table's name)

    [regimes.S1-lsp]          # a regime variant (regimes.py): kind, lsp, chunker, k, ...
    kind = "S1"
    lsp = "pyright"
    [cluster]                 # only with `run --cluster ADDRESS` (cluster.py)
    agent_cpus = 1.0          # Ray CPUs an agent's turn asks for
    eval_cpus = 1.0           # Ray CPUs a timed evaluation asks for, besides one timing slot
    timing_resource = "frontier_timing"   # the custom resource each node advertises
    node_retries = 2          # runs again after a node died mid-attempt (or mid-evaluation)

    [endpoints.scripted]      # kind = "scripted": started on loopback by the runner
    kind = "scripted"
    scripts = "scripted-model"
    [endpoints.openai]        # a real endpoint: base URL and the variable holding its key
    base_url = "https://api.openai.com/v1"
    api = "openai"            # openai | anthropic
    api_key_env = "OPENAI_API_KEY"

Relative paths are taken from the spec's directory. Agents that use no model run
once per task, mode and regime (model "-"); the others once per model.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import regimes as regimes_mod
from .tasks import PROMPT_MODES

AXES = ("task", "agent", "model", "prompt_mode", "regime")
ISOLATIONS = ("docker", "copy")
DEFAULT_IMAGE = "frontier-measure/base:bookworm-1"
NO_MODEL = "-"


class SpecError(Exception):
    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


@dataclass
class EndpointSpec:
    name: str
    kind: str  # http | scripted
    base_url: str = ""
    api: str = "openai"
    api_key_env: str = ""
    scripts: Path | None = None


@dataclass
class ModelSpec:
    name: str  # the spec's name for it (reports use this)
    endpoint: str
    model: str  # the name sent to the endpoint


@dataclass
class ClusterSpec:
    """How attempts use a Ray cluster (`run --cluster ADDRESS`); ignored otherwise."""

    agent_cpus: float = 1.0  # Ray CPUs an agent's turn asks for
    eval_cpus: float = 1.0  # Ray CPUs a timed evaluation asks for (besides the slot)
    timing_resource: str = "frontier_timing"  # each node's custom resource: its quiet slots
    node_retries: int = 2  # times an attempt (or an evaluation) is run again after a node died


@dataclass
class Spec:
    path: Path
    text: str
    name: str
    attempts: int = 1
    concurrency: int = 1
    timeout_s: float = 1800.0
    gate_timeout_s: float = 900.0
    isolation: str = "docker"
    image: str = DEFAULT_IMAGE
    prompt_modes: list[str] = field(default_factory=lambda: ["base"])
    regimes: list[str] = field(default_factory=lambda: ["S1"])
    regime_defs: dict[str, regimes_mod.Regime] = field(default_factory=dict)
    exclude: list[dict[str, str]] = field(default_factory=list)
    prices: list[Path] = field(default_factory=list)
    gate_isolation: str | None = None
    task_paths: list[Path] = field(default_factory=list)
    refactorbench: dict[str, Any] | None = None
    agents: dict[str, dict[str, Any]] = field(default_factory=dict)
    models: dict[str, ModelSpec] = field(default_factory=dict)
    endpoints: dict[str, EndpointSpec] = field(default_factory=dict)
    cpus: float | None = None
    memory_mb: int | None = 4096
    cluster: ClusterSpec = field(default_factory=lambda: ClusterSpec())

    @property
    def base_dir(self) -> Path:
        return self.path.parent

    def regime(self, name: str) -> regimes_mod.Regime:
        return self.regime_defs.get(name) or regimes_mod.BUILTIN[name]

    def excluded(self, combo: dict[str, str]) -> bool:
        """Whether a combination (task, agent, model, prompt_mode, regime) is excluded."""
        import fnmatch

        return any(all(fnmatch.fnmatchcase(combo.get(k, ""), v) for k, v in rule.items())
                   for rule in self.exclude)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:12]


def _get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
         problems: list[str], default: Any = None) -> Any:
    if key not in table:
        return default
    v = table[key]
    if kind is float and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)
    if not isinstance(v, kind) or isinstance(v, bool) and kind is not bool:
        problems.append(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {v!r}")
        return default
    return v


def load(path: str | Path) -> Spec:
    path = Path(path).resolve()
    try:
        text = path.read_text()
        doc = tomllib.loads(text)
    except OSError as exc:
        raise SpecError(path, [f"cannot read: {exc.strerror}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(path, [f"malformed TOML: {exc}"]) from None
    problems: list[str] = []
    known = {"run", "tasks", "agents", "models", "endpoints", "regimes", "cluster"}
    problems += [f"[{k}]: unknown table (known: {', '.join(sorted(known))})"
                 for k in sorted(set(doc) - known)]
    run = doc.get("run", {})
    base = path.parent
    spec = Spec(path=path, text=text, name=_get(run, "name", str, "[run]", problems, path.stem))
    spec.attempts = _get(run, "attempts", int, "[run]", problems, 1)
    spec.concurrency = _get(run, "concurrency", int, "[run]", problems, 1)
    spec.timeout_s = _get(run, "timeout_s", float, "[run]", problems, 1800.0)
    spec.gate_timeout_s = _get(run, "gate_timeout_s", float, "[run]", problems, 900.0)
    spec.isolation = _get(run, "isolation", str, "[run]", problems, "docker")
    spec.image = _get(run, "image", str, "[run]", problems, DEFAULT_IMAGE)
    spec.gate_isolation = _get(run, "gate_isolation", str, "[run]", problems, None)
    spec.cpus = _get(run, "cpus", float, "[run]", problems, None)
    spec.memory_mb = _get(run, "memory_mb", int, "[run]", problems, 4096)
    for key in ("attempts", "concurrency"):
        if getattr(spec, key) < 1:
            problems.append(f"[run].{key}: must be at least 1")
    if spec.isolation not in ISOLATIONS:
        problems.append(f"[run].isolation: '{spec.isolation}' (choose from {', '.join(ISOLATIONS)})")
    modes = _get(run, "prompt_modes", list, "[run]", problems, ["base"])
    spec.prompt_modes = list(PROMPT_MODES) if modes == ["all"] else [str(m) for m in modes]
    problems += [f"[run].prompt_modes: unknown mode '{m}' (choose from "
                 f"{', '.join(PROMPT_MODES)}, or [\"all\"])"
                 for m in spec.prompt_modes if m not in PROMPT_MODES]
    for name, table in doc.get("regimes", {}).items():
        if not isinstance(table, dict):
            problems.append(f"[regimes.{name}]: expected a table")
            continue
        spec.regime_defs[name] = regimes_mod.parse(name, table, problems)
    spec.regimes = [str(r) for r in _get(run, "regimes", list, "[run]", problems, ["S1"])]
    available = sorted(set(regimes_mod.BUILTIN) | set(spec.regime_defs))
    problems += [f"[run].regimes: unknown regime '{r}' (available: {', '.join(available)}; "
                 f"or define [regimes.{r}])" for r in spec.regimes if r not in available]
    for i, rule in enumerate(_get(run, "exclude", list, "[run]", problems, [])):
        if not isinstance(rule, dict) or not rule or set(rule) - set(AXES) \
                or not all(isinstance(v, str) for v in rule.values()):
            problems.append(f"[run].exclude[{i}]: expected a table of glob strings over "
                            f"{', '.join(AXES)}, got {rule!r}")
            continue
        spec.exclude.append({str(k): str(v) for k, v in rule.items()})
    prices = _get(run, "prices", (str, list), "[run]", problems, [])
    spec.prices = [(base / p).resolve() for p in ([prices] if isinstance(prices, str) else prices)]

    cl = doc.get("cluster", {})
    spec.cluster = ClusterSpec(
        agent_cpus=_get(cl, "agent_cpus", float, "[cluster]", problems, 1.0),
        eval_cpus=_get(cl, "eval_cpus", float, "[cluster]", problems, 1.0),
        timing_resource=_get(cl, "timing_resource", str, "[cluster]", problems, "frontier_timing"),
        node_retries=_get(cl, "node_retries", int, "[cluster]", problems, 2))
    problems += [f"[cluster].{k}: must not be negative" for k in ("agent_cpus", "eval_cpus",
                                                                   "node_retries")
                 if getattr(spec.cluster, k) < 0]
    unknown_cl = set(cl) - {"agent_cpus", "eval_cpus", "timing_resource", "node_retries"}
    problems += [f"[cluster].{k}: unknown key" for k in sorted(unknown_cl)]

    tasks = doc.get("tasks", {})
    spec.task_paths = [(base / p).resolve() for p in _get(tasks, "paths", list, "[tasks]",
                                                             problems, [])]
    if isinstance(tasks.get("refactorbench"), dict):
        rb = dict(tasks["refactorbench"])
        if "snapshot" in rb:
            rb["snapshot"] = (base / str(rb["snapshot"])).resolve()
        spec.refactorbench = rb
    if not spec.task_paths and spec.refactorbench is None:
        problems.append("[tasks]: no tasks (paths = [...] and/or [tasks.refactorbench])")

    for name, ep in doc.get("endpoints", {}).items():
        where = f"[endpoints.{name}]"
        kind = _get(ep, "kind", str, where, problems, "http")
        e = EndpointSpec(name=name, kind=kind, base_url=_get(ep, "base_url", str, where, problems, ""),
                         api=_get(ep, "api", str, where, problems, "openai"),
                         api_key_env=_get(ep, "api_key_env", str, where, problems, ""))
        if kind == "scripted":
            e.scripts = (base / _get(ep, "scripts", str, where, problems, ".")).resolve()
            if not e.scripts.is_dir():
                problems.append(f"{where}.scripts: {e.scripts} is not a directory")
        elif kind == "http":
            if not e.base_url:
                problems.append(f"{where}: base_url is needed")
        else:
            problems.append(f"{where}.kind: '{kind}' (choose from http, scripted)")
        if e.api not in ("openai", "anthropic"):
            problems.append(f"{where}.api: '{e.api}' (choose from openai, anthropic)")
        spec.endpoints[name] = e
    for name, m in doc.get("models", {}).items():
        where = f"[models.{name}]"
        ep = _get(m, "endpoint", str, where, problems, "")
        if ep not in spec.endpoints:
            problems.append(f"{where}.endpoint: no [endpoints.{ep}]")
        spec.models[name] = ModelSpec(name, ep, _get(m, "model", str, where, problems, name))
    agents = doc.get("agents", {})
    if not agents:
        problems.append("[agents]: no agents")
    spec.agents = {k: dict(v) for k, v in agents.items()}
    if problems:
        raise SpecError(path, problems)
    return spec
