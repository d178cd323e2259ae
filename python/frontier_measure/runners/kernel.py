"""Kernel scale: one C routine, built for RISC-V and costed in simulated cycles.

The candidate ships the routine's sources (environment/workspace/ for the
reference S, solution/workspace/ for the oracle); the evaluator holds the
harness (a main() that reads an input from stdin, calls the routine and prints
the result) and links it with each side's sources. Because the cost is the
cycle count of the cycle-counting simulator, it is identical on every run: a
timing input needs one run per side, and the speedup is exact.

    compliance    C source inspection (headers, inline asm, prohibited calls)
                  and ELF symbol inspection of the compiled object (every
                  external symbol must be allowed; the entry must be defined)
    functional    the program's stdout and exit status on every held-out case,
                  against golden outputs recorded from the reference
    performance   cycles(reference) / cycles(candidate) on each timing input,
                  with the outputs re-checked on those runs; the worst input
                  decides

Settings, in task.toml:

    [metadata.frontier.kernel]
    sources = ["kernel.c"]          # the side's files, relative to its workspace
    headers = ["cell.h"]            # fixed interface headers in tests/, used instead of
                                    # any copy the side ships (the side cannot change them)
    harness = "tests/harness.c"     # evaluator-held main()
    inputs = "tests/inputs.py"      # cases() and timing_inputs(): [{"id", "stdin": bytes}]
    machine = "default"             # simulators/machines/<name>.machine
    opt = "-O2"
    max_instructions = 2000000000   # per run; exceeding it is a functional failure

and the C rules in tests/checklist.toml [compliance] (see compliance/c.py).

Run: python -m frontier_measure.runners.kernel {record,eval} TASK [--candidate DIR]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import display, results, sim
from .. import task as task_layout
from ..compliance import Finding
from ..compliance.c import CRules, inspect_object, inspect_sources

GOLDEN_SCHEMA = 1


def _cache_dir() -> Path:
    """Where builds are kept (content-addressed): $FRONTIER_MEASURE_CACHE, the
    source tree's build/ when running from a checkout, else ~/.cache."""
    env = os.environ.get("FRONTIER_MEASURE_CACHE")
    if env:
        return Path(env) / "kernel-tasks"
    root = Path(__file__).resolve().parents[3]
    if (root / "pyproject.toml").is_file():
        return root / "build" / "kernel-tasks"
    return Path.home() / ".cache" / "frontier-measure" / "kernel-tasks"


CACHE = _cache_dir()


class KernelTaskError(Exception):
    """A kernel task directory that cannot be used."""


@dataclass
class KernelTask:
    path: Path
    name: str
    threshold: float
    repetitions: int
    sources: list[str]
    headers: list[str]
    harness: Path
    inputs: Path
    machine: str
    opt: str
    max_instructions: int
    rules: CRules
    behaviours: dict[str, str] = field(default_factory=dict)

    @property
    def reference_dir(self) -> Path:
        # environment/workspace/, or tests/reference/ where only tests/ was uploaded
        return task_layout.reference_dir(self.path)

    @property
    def oracle_dir(self) -> Path:
        return self.path / "solution" / "workspace"

    @property
    def golden_path(self) -> Path:
        return self.path / "tests" / "golden.json"

    @property
    def slug(self) -> str:
        return f"kernel-{self.path.name}"

    def _inputs_module(self) -> Any:
        spec = importlib.util.spec_from_file_location(f"_fm_kernel_{self.path.name}", self.inputs)
        if spec is None or spec.loader is None:
            raise KernelTaskError(f"{self.inputs}: cannot be loaded")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    def cases(self) -> list[dict[str, Any]]:
        return list(self._inputs_module().cases())

    def timing_inputs(self) -> list[dict[str, Any]]:
        return list(self._inputs_module().timing_inputs())


def load(path: str | Path) -> KernelTask:
    root = Path(path).resolve()
    try:
        doc = tomllib.loads((root / "task.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise KernelTaskError(f"{root}/task.toml: {exc}") from None
    fr = doc.get("metadata", {}).get("frontier", {})
    if fr.get("scale") != "kernel":
        raise KernelTaskError(f"{root}: [metadata.frontier].scale is not 'kernel'")
    if fr.get("cost", "cycles") != "cycles":
        raise KernelTaskError(f"{root}: kernel tasks are costed in cycles")
    k = fr.get("kernel", {})
    chk: dict[str, Any] = {}
    if (root / "tests" / "checklist.toml").is_file():
        chk = tomllib.loads((root / "tests" / "checklist.toml").read_text())
    comp = chk.get("compliance", {})
    defaults = CRules()
    rules = CRules(
        allowed_headers=list(comp.get("allowed_headers", defaults.allowed_headers)),
        prohibited_calls=list(comp.get("prohibited_calls", [])),
        allow_inline_asm=bool(comp.get("allow_inline_asm", False)),
        allowed_symbols=list(comp.get("allowed_symbols", defaults.allowed_symbols)),
        required_symbols=list(comp.get("required_symbols", [fr.get("entry", "")])),
    )
    task = KernelTask(
        path=root,
        name=doc.get("task", {}).get("name", root.name),
        threshold=float(fr.get("threshold", 1.0)),
        repetitions=int(fr.get("repetitions", 5)),
        sources=list(k.get("sources", ["kernel.c"])),
        headers=list(k.get("headers", [])),
        harness=root / k.get("harness", "tests/harness.c"),
        inputs=root / k.get("inputs", "tests/inputs.py"),
        machine=str(k.get("machine", "default")),
        opt=str(k.get("opt", "-O2")),
        max_instructions=int(k.get("max_instructions", 2_000_000_000)),
        rules=rules,
        behaviours={str(a): str(b) for a, b in chk.get("behaviours", {}).items()},
    )
    for p in (task.harness, task.inputs, *(task.reference_dir / s for s in task.sources)):
        if not p.is_file():
            raise KernelTaskError(f"{root}: missing {p.relative_to(root)}")
    return task


def reference_digest(task: KernelTask) -> str:
    """What the golden outputs were recorded from: reference sources, harness, inputs."""
    h = hashlib.sha256()
    for p in [*(task.reference_dir / s for s in task.sources), task.harness, task.inputs,
              *(task.path / "tests" / hd for hd in task.headers)]:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def stage(task: KernelTask, side_dir: Path) -> Path:
    """A build directory with the side's sources and the task's fixed headers.

    Compiling from here means `#include "cell.h"` always finds the task's
    header, whatever copy the side ships. Named by content, so reused.
    """
    files = [(s, side_dir / s) for s in task.sources]
    files += [(Path(hd).name, task.path / "tests" / hd) for hd in task.headers]
    missing = [name for name, p in files if not p.is_file()]
    if missing:
        raise sim.CompileError(f"missing source(s): {', '.join(missing)}")
    h = hashlib.sha256()
    for name, p in files:
        h.update(name.encode() + b"\0" + p.read_bytes() + b"\0")
    dest = CACHE / "src" / h.hexdigest()[:20]
    if not dest.is_dir():
        tmp = dest.with_name(f"{dest.name}.tmp{os.getpid()}")
        tmp.mkdir(parents=True, exist_ok=True)
        for name, p in files:
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, tmp / name)
        try:
            tmp.rename(dest)
        except OSError:  # another process staged the same content first
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def build(task: KernelTask, side_dir: Path) -> Path:
    """The side's sources linked with the harness into a static riscv64 ELF (cached)."""
    src = stage(task, side_dir)
    return sim.cached_build([*(src / s for s in task.sources), task.harness], CACHE,
                            opt=task.opt, flags=["-I", str(src)])


def compile_object(task: KernelTask, side_dir: Path, out: Path) -> Path:
    """The side's sources alone, as one relocatable object (for symbol inspection)."""
    src = stage(task, side_dir)
    objs = []
    for s in task.sources:
        o = out.with_name(f"{Path(s).stem}.o")
        cmd = [*sim.compiler(), "-c", task.opt, "-I", str(src), str(src / s), "-o", str(o)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise sim.CompileError(r.stderr.strip())
        objs.append(o)
    return objs[0] if len(objs) == 1 else _link_relocatable(objs, out)


def _link_relocatable(objs: list[Path], out: Path) -> Path:
    cmd = [*sim.compiler(), "-r", "-nostdlib", *map(str, objs), "-o", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise sim.CompileError(r.stderr.strip())
    return out


def check_compliance(task: KernelTask, side_dir: Path) -> list[Finding]:
    findings = inspect_sources(side_dir, task.rules)
    if findings:
        return findings
    with tempfile.TemporaryDirectory() as tmp:
        try:
            obj = compile_object(task, side_dir, Path(tmp) / "kernel.o")
        except sim.CompileError as exc:
            return [Finding(task.sources[0], 0, "does-not-compile", str(exc).splitlines()[0]
                            if str(exc) else "compiler failed")]
        return inspect_object(obj, task.rules, " + ".join(task.sources) + " (object)")


@functools.lru_cache(maxsize=16)
def _program(elf: Path) -> sim.Program:
    # Builds are content-addressed files, so a path always means the same ELF.
    return sim.load_elf(elf)


def observe(task: KernelTask, elf: Path, stdin: bytes, *, timing: bool) -> dict[str, Any]:
    """One run: its items (stdout, exit_code) and, with timing, its statistics."""
    try:
        r = sim.run(_program(elf), stdin=stdin, machine=task.machine, argv=["kernel"],
                    max_instructions=task.max_instructions, timing=timing)
    except sim.SimulatorFault as exc:
        return {"stdout": None, "exit_code": f"fault: {exc.code} at pc=0x{exc.pc:x}",
                "fault": str(exc), "stats": None}
    return {"stdout": r.stdout.decode("utf-8", "replace"), "exit_code": r.exit_code,
            "stats": r.stats}


def record_task(task_dir: str | Path, runs: int | None = None,
                progress: Any = None) -> dict[str, Any]:
    """record() with the signature record.py uses for scales that record themselves."""
    if progress:
        progress("recording")
    return record(task_dir, runs)


def record(task_dir: str | Path, runs: int | None = None) -> dict[str, Any]:
    """Run the reference `repetitions` times on every case; keep the stable items."""
    task = load(task_dir)
    if runs:
        task.repetitions = runs
    elf = build(task, task.reference_dir)
    items: dict[str, Any] = {}
    excluded: dict[str, str] = {}
    for case in task.cases():
        obs = [observe(task, elf, case["stdin"], timing=False) for _ in range(task.repetitions)]
        if obs[0].get("fault"):
            raise KernelTaskError(f"the reference faults on case {case['id']}: {obs[0]['fault']}")
        for kind in ("stdout", "exit_code"):
            values = [json.dumps(r[kind]) for r in obs]
            key = f"{case['id']}/{kind}"
            if len(set(values)) == 1:
                items[key] = obs[0][kind]
            else:
                excluded[key] = f"varied across {task.repetitions} recordings"
    golden = {"schema": GOLDEN_SCHEMA, "reference_digest": reference_digest(task),
              "repetitions": task.repetitions, "items": items, "excluded": excluded}
    task.golden_path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    return golden


def _failure(stage: str, rule: str, reason: str) -> dict[str, str]:
    return {"stage": stage, "rule": rule, "reason": reason}


def _diff(expected: Any, actual: Any) -> list[str]:
    if isinstance(expected, str) and isinstance(actual, str):
        import difflib

        lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                          "reference", "candidate", lineterm="", n=1))
        return lines[:12] or ["differs in whitespace"]
    return [f"expected {expected!r}, got {actual!r}"]


def evaluate(task_dir: str | Path, candidate: str | Path | None = None, *,
             json_out: str | Path | None = None) -> dict[str, Any]:
    """Compliance, functionality, performance of one candidate; the common result schema."""
    started = time.perf_counter()
    task = load(task_dir)
    cand = Path(candidate).resolve() if candidate else task.oracle_dir
    res = results.new({"name": task.name, "path": str(task.path), "scale": "kernel",
                       "threshold": task.threshold, "cost": "cycles",
                       "entry": task.rules.required_symbols, "machine": task.machine},
                      cand, task.oracle_dir)
    try:
        _evaluate(task, cand, res)
    finally:
        res["elapsed_s"] = time.perf_counter() - started
        res["reward"] = results.reward(res)
        if json_out is not None:
            results.write_json(res, Path(json_out))
    return res


def _evaluate(task: KernelTask, cand: Path, res: dict[str, Any]) -> None:
    findings = check_compliance(task, cand)
    res["compliance"] = {"compliant": not findings, "findings": [f.to_dict() for f in findings]}
    if findings:
        res["failure"] = _failure("compliance", findings[0].rule, str(findings[0]))
        return
    golden = json.loads(task.golden_path.read_text()) if task.golden_path.is_file() else None
    if not golden or golden.get("reference_digest") != reference_digest(task):
        raise KernelTaskError(f"{task.golden_path}: missing or recorded from a different "
                              "reference (run `python -m frontier_measure.runners.kernel record`)")
    ref_elf = build(task, task.reference_dir)
    try:
        cand_elf = build(task, cand)
    except sim.CompileError as exc:
        res["functional"] = {"ran": True, "passed": 0, "failed": 0, "total": 0,
                             "pass_rate": 0.0, "build_error": str(exc)}
        res["failure"] = _failure("functional", "build-failed", str(exc).splitlines()[0])
        return
    # 2. functionality: every held-out case, item by item.
    items = []
    for case in task.cases():
        obs = observe(task, cand_elf, case["stdin"], timing=False)
        for kind in ("stdout", "exit_code"):
            key = f"{case['id']}/{kind}"
            if key not in golden["items"]:
                continue
            want, got = golden["items"][key], obs[kind]
            ok = want == got
            items.append({"id": key, "passed": ok,
                          "diff": [] if ok else ([obs["fault"]] if obs.get("fault") else [])
                          + _diff(want, got)})
    passed = sum(i["passed"] for i in items)
    res["functional"] = {"ran": True, "passed": passed, "failed": len(items) - passed,
                         "total": len(items), "excluded": len(golden.get("excluded", {})),
                         "pass_rate": passed / len(items) if items else None, "items": items,
                         "excluded_items": golden.get("excluded", {})}
    if not items or passed != len(items):
        first = next((i for i in items if not i["passed"]), None)
        rule = "no-items" if first is None else (
            "wrong-stdout" if first["id"].endswith("/stdout") else "wrong-exit-code")
        reason = "no items" if first is None else f"{first['id']}: {first['diff'][0]}"
        res["failure"] = _failure("functional", rule, reason)
        return
    # 3. performance: one run per side per timing input (cycles are deterministic).
    inputs = []
    for ti in task.timing_inputs():
        t0 = time.perf_counter()
        ref = observe(task, ref_elf, ti["stdin"], timing=True)
        got = observe(task, cand_elf, ti["stdin"], timing=True)
        entry: dict[str, Any] = {"id": ti["id"], "size": ti.get("size"), "rounds": 1, "error": None}
        if ref["stats"] is None:
            raise KernelTaskError(f"reference fails on timing input {ti['id']}: {ref['fault']}")
        if got["stats"] is None or (got["stdout"], got["exit_code"]) != (ref["stdout"], ref["exit_code"]):
            entry["error"] = got.get("fault") or "output differs from the reference's on this input"
            speedup = None
        else:
            rc, cc = ref["stats"]["cycles"], got["stats"]["cycles"]
            speedup = rc / cc
            entry.update(reference_cycles=rc, candidate_cycles=cc,
                         reference_median=float(rc), candidate_median=float(cc),
                         reference_stats=ref["stats"], candidate_stats=got["stats"])
        verdict = None if speedup is None else (
            "faster" if speedup > 1 else "slower" if speedup < 1 else "indistinguishable")
        entry.update(speedup=speedup, ci_low=speedup, ci_high=speedup, lower_bound=speedup,
                     verdict=verdict, confidence=1.0,
                     meets_threshold=speedup is not None and speedup >= task.threshold,
                     elapsed_s=time.perf_counter() - t0)
        inputs.append(entry)
    perf: dict[str, Any] = {"ran": True, "cost": "cycles", "unit": "cycles",
                            "threshold": task.threshold, "deterministic": True, "inputs": inputs}
    res["performance"] = perf
    broken = next((t for t in inputs if t["error"]), None)
    if broken is not None:
        perf.update(worst_input=broken["id"], speedup=None, verdict="violation",
                    meets_threshold=False)
        res["failure"] = _failure("performance", "timing-violation",
                                  f"timing input '{broken['id']}': {broken['error']}")
        return
    worst = min(inputs, key=lambda d: d["speedup"])
    meets = all(d["meets_threshold"] for d in inputs)
    perf.update(worst_input=worst["id"], speedup=worst["speedup"], verdict=worst["verdict"],
                meets_threshold=meets)
    if meets:
        res["strict_success"] = True
    else:
        res["failure"] = _failure(
            "performance", "slower" if worst["verdict"] == "slower" else "below-threshold",
            f"timing input '{worst['id']}': speedup {worst['speedup']:.3f}x in simulated cycles, "
            f"threshold {task.threshold:g}x")


def text_summary(res: dict[str, Any]) -> str:
    rows: list[list[object]] = [
        ["task", res["task"]["name"]],
        ["candidate", res["candidate"]["path"] + (" (oracle)" if res["candidate"]["is_oracle"] else "")],
        ["compliant", "yes" if (res["compliance"] or {}).get("compliant") else "no"],
    ]
    f = res["functional"]
    if f.get("ran"):
        rows.append(["functional items", f"{f['passed']}/{f['total']} passed"])
    p = res["performance"]
    if p.get("ran"):
        for t in p["inputs"]:
            s = "violation" if t["error"] else (
                f"{t['speedup']:.3f}x ({t['reference_cycles']} -> {t['candidate_cycles']} cycles)")
            rows.append([f"timing input {t['id']}", s])
    rows.append(["strict success", "yes" if res["strict_success"] else "no"])
    if res["failure"]:
        rows.append(["failure", f"[{res['failure']['rule']}] {res['failure']['reason']}"])
    rows.append(["elapsed", f"{res.get('elapsed_s', 0):.1f} s"])
    return display.table(["", "value"], rows, align="ll")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m frontier_measure.runners.kernel",
                                 description="Record or evaluate a kernel-scale task.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="record golden outputs from the reference")
    r.add_argument("task")
    e = sub.add_parser("eval", help="evaluate a candidate (default: the oracle)")
    e.add_argument("task")
    e.add_argument("--candidate")
    e.add_argument("--json", dest="json_out")
    a = ap.parse_args(argv)
    if a.cmd == "record":
        g = record(a.task)
        print(f"recorded {len(g['items'])} items ({len(g['excluded'])} excluded)")
        return 0
    res = evaluate(a.task, a.candidate, json_out=a.json_out)
    print(text_summary(res))
    return 0 if res["strict_success"] else 1


if __name__ == "__main__":
    sys.exit(main())
