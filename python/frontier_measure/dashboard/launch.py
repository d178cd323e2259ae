"""The launch form: what can be chosen, and the experiment spec a choice makes.

A run launched from the browser is an ordinary spec file (platform/spec.py),
written under `specs/` beside the database and run by the platform's runner,
so it can be read, re-run or retried from a terminal like any other. The form
offers the benchmark and the four axes of a run:

    benchmark       bundled task directories and/or RefactorBench (select globs)
    agent / model   the built-in agents and the bundled templates, and the
                    agents, models and endpoints of the specs this database
                    already ran; the scripted models (for demos and tests)
    prompt mode     descriptive | base | lazy
    regime          the regimes this platform runs (regimes.KINDS; variants come from a spec)
    attempts        per task x agent x model x mode x regime

A database holds one run: attempt keys do not name their run, so a second run
planning the same attempts would find them taken. A launch therefore goes into
the database's run (same name), adding the attempts it does not have yet and
running every pending one it plans.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from ..platform import agents as agents_mod
from ..platform import regimes as regimes_mod
from ..platform import spec as spec_mod
from ..platform import tasks as tasks_mod
from ..platform.agents.command import TEMPLATES

ROOT = Path(__file__).resolve().parents[3]  # the checkout (an editable install)
BUNDLED_TASKS = ROOT / "tasks"
SCRIPTED_MODELS = ROOT / "examples" / "agents" / "scripted-model"
SCRIPTED_ENDPOINT = "scripted"
# Keys of an agent's table that name files, relative to the spec that holds them.
PATH_KEYS = ("trajectory",)


class LaunchError(Exception):
    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


# ---------------------------------------------------------------- TOML out


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    return k if _BARE.fullmatch(k) else json.dumps(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def to_toml(doc: dict[str, dict[str, Any]]) -> str:
    """Tables of tables of values (the spec's shape) as TOML."""
    out: list[str] = []

    def table(name: str, body: dict[str, Any]) -> None:
        plain = {k: v for k, v in body.items() if not isinstance(v, dict)}
        nested = {k: v for k, v in body.items() if isinstance(v, dict)}
        if plain or not nested:
            out.append(f"[{name}]")
            out.extend(f"{_key(k)} = {_value(v)}" for k, v in plain.items())
            out.append("")
        for k, v in nested.items():
            table(f"{name}.{_key(k)}", v)

    for name, body in doc.items():
        table(_key(name), body)
    return "\n".join(out)


# ---------------------------------------------------------------- the catalogue


def _stored_specs(runs: list[dict[str, Any]]) -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for r in runs:
        try:
            doc = tomllib.loads(str(r.get("spec") or ""))
        except tomllib.TOMLDecodeError:
            continue
        out.append((Path(str(r.get("spec_path") or ".")).parent, doc))
    return out


def _absolute(base: Path, table: dict[str, Any]) -> dict[str, Any]:
    """An agent's table with its file references made absolute."""
    out = dict(table)
    for k in PATH_KEYS:
        if isinstance(out.get(k), str):
            out[k] = str((base / out[k]).resolve())
    if isinstance(out.get("path"), list):
        out["path"] = [str((base / p).resolve()) for p in out["path"]]
    if isinstance(out.get("template"), str) and not (TEMPLATES / f"{out['template']}.toml").is_file():
        out["template"] = str((base / out["template"]).resolve())
    return out


def catalog(runs: list[dict[str, Any]], docker: bool) -> dict[str, Any]:
    """What the launch form offers, for a database whose runs are `runs`."""
    tasks: dict[str, dict[str, Any]] = {}
    roots = [BUNDLED_TASKS] if BUNDLED_TASKS.is_dir() else []
    for base, doc in _stored_specs(runs):
        roots += [(base / p).resolve() for p in (doc.get("tasks") or {}).get("paths", [])
                  if isinstance(p, str)]
    for root in roots:
        try:
            found = tasks_mod.find([root])
        except tasks_mod.PlatformTaskError:
            continue
        for path in found:
            try:
                task = tasks_mod.load(path)
            except tasks_mod.PlatformTaskError:
                continue
            tasks.setdefault(str(path), {"path": str(path), "name": task.name,
                                         "kind": task.kind, "scale": task.scale})
    agents: dict[str, dict[str, Any]] = {n: {} for n in ("nop", "oracle")}
    agents |= {p.stem: {"template": p.stem} for p in sorted(TEMPLATES.glob("*.toml"))}
    models: dict[str, dict[str, Any]] = {}
    endpoints: dict[str, dict[str, Any]] = {}
    if SCRIPTED_MODELS.is_dir():
        endpoints[SCRIPTED_ENDPOINT] = {"kind": "scripted", "scripts": str(SCRIPTED_MODELS)}
        models |= {p.stem: {"endpoint": SCRIPTED_ENDPOINT}
                   for p in sorted(SCRIPTED_MODELS.glob("*.toml"))}
    for base, doc in _stored_specs(runs):
        for name, table in (doc.get("agents") or {}).items():
            if isinstance(table, dict):
                agents[name] = _absolute(base, table)
        for name, table in (doc.get("endpoints") or {}).items():
            if isinstance(table, dict):
                t = dict(table)
                if isinstance(t.get("scripts"), str):
                    t["scripts"] = str((base / t["scripts"]).resolve())
                endpoints[name] = t
        for name, table in (doc.get("models") or {}).items():
            if isinstance(table, dict):
                models[name] = dict(table)
    return {
        "tasks": sorted(tasks.values(), key=lambda t: (t["kind"], t["scale"] or "", t["name"])),
        "refactorbench": _refactorbench_snapshot() is not None,
        "agents": agents, "models": models, "endpoints": endpoints,
        "uses_model": {n: _uses_model(n, t) for n, t in agents.items()},
        "prompt_modes": list(tasks_mod.PROMPT_MODES), "regimes": list(regimes_mod.KINDS),
        "isolations": list(spec_mod.ISOLATIONS),
        "defaults": {"attempts": 1, "concurrency": 2, "timeout_s": 1800,
                     "isolation": "docker" if docker else "copy", "prompt_modes": ["base"],
                     "regimes": [regimes_mod.KINDS[0]]},
        "run": runs[0]["name"] if runs else None,
    }


def _uses_model(name: str, table: dict[str, Any]) -> bool:
    try:
        return bool(agents_mod.make(name, table, ROOT).uses_model)
    except ValueError:  # the runner will say what is wrong with it
        return True


def _refactorbench_snapshot() -> Path | None:
    from ..platform import refactorbench

    snap = refactorbench.default_snapshot()
    return snap if snap is not None and snap.is_file() else None


# ---------------------------------------------------------------- the spec


def _choice(form: dict[str, Any], key: str, allowed: list[str], problems: list[str],
            default: list[str] | None = None) -> list[str]:
    got = form.get(key, default or [])
    if not isinstance(got, list) or not all(isinstance(x, str) for x in got):
        problems.append(f"{key}: expected a list of names")
        return []
    problems += [f"{key}: unknown '{x}' (choose from {', '.join(allowed)})"
                 for x in got if x not in allowed]
    return [x for x in got if x in allowed]


def _number(form: dict[str, Any], key: str, default: float, lo: float, hi: float,
            problems: list[str]) -> float:
    v = form.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
        problems.append(f"{key}: expected a number from {lo:g} to {hi:g}, got {v!r}")
        return default
    return float(v)


def compose(form: dict[str, Any], cat: dict[str, Any], name: str) -> dict[str, dict[str, Any]]:
    """The spec (as TOML tables) of a launch form; LaunchError lists every problem."""
    problems: list[str] = []
    tasks = _choice(form, "tasks", [t["path"] for t in cat["tasks"]], problems)
    rb = form.get("refactorbench") or ""
    if not isinstance(rb, str):
        problems.append("refactorbench: expected glob patterns separated by spaces or commas")
        rb = ""
    select = [s for s in re.split(r"[,\s]+", rb) if s]
    if select and not cat["refactorbench"]:
        problems.append("refactorbench: no snapshot here ($FM_REFACTORBENCH or shared/data/)")
    if not tasks and not select:
        problems.append("benchmark: choose tasks and/or RefactorBench patterns")
    agents = _choice(form, "agents", list(cat["agents"]), problems)
    if not agents:
        problems.append("agents: choose at least one")
    models = _choice(form, "models", list(cat["models"]), problems)
    if any(cat["uses_model"].get(a) for a in agents) and not models:
        problems.append("models: the chosen agents use a model; choose at least one")
    modes = _choice(form, "prompt_modes", cat["prompt_modes"], problems, ["base"]) or ["base"]
    regimes = _choice(form, "regimes", cat["regimes"], problems, cat["regimes"][:1]) \
        or cat["regimes"][:1]
    isolation = form.get("isolation", cat["defaults"]["isolation"])
    if isolation not in cat["isolations"]:
        problems.append(f"isolation: '{isolation}' (choose from {', '.join(cat['isolations'])})")
    attempts = int(_number(form, "attempts", 1, 1, 100, problems))
    concurrency = int(_number(form, "concurrency", 2, 1, 64, problems))
    timeout_s = _number(form, "timeout_s", 1800, 10, 86400, problems)
    if problems:
        raise LaunchError(problems)
    used = [m for m in models if any(cat["uses_model"].get(a) for a in agents)]
    endpoints = {cat["models"][m].get("endpoint") for m in used}
    run: dict[str, Any] = {"name": name, "attempts": attempts, "concurrency": concurrency,
                           "timeout_s": timeout_s, "isolation": isolation,
                           "prompt_modes": modes, "regimes": regimes}
    task_table: dict[str, Any] = {"paths": tasks} if tasks else {}
    if select:
        task_table["refactorbench"] = {"select": select}
    doc: dict[str, dict[str, Any]] = {"run": run, "tasks": task_table,
                                      "agents": {a: cat["agents"][a] for a in agents}}
    if used:
        doc["models"] = {m: cat["models"][m] for m in used}
        doc["endpoints"] = {e: cat["endpoints"][e] for e in sorted(endpoints)
                            if e in cat["endpoints"]}
    return doc


def write_spec(doc: dict[str, dict[str, Any]], run_dir: Path) -> Path:
    """The spec file of a launch (then checked by the platform's own loader)."""
    specs = run_dir / "specs"
    specs.mkdir(parents=True, exist_ok=True)
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = specs / f"{doc['run']['name']}-{stamp}.toml"
    path.write_text("# Launched from the dashboard (frontier-measure serve).\n" + to_toml(doc))
    try:
        spec_mod.load(path)
    except spec_mod.SpecError as exc:
        path.unlink()
        raise LaunchError(exc.problems) from None
    return path
