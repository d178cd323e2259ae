"""Kernel scale: one C routine, built for RISC-V and costed in simulated cycles.

The candidate ships the routine's sources (environment/workspace/ for the
reference S, solution/workspace/ for the oracle); the evaluator holds the
harness (a main() that reads an input from stdin, calls the routine and prints
the result) and links it with each side's sources. The cost is the cycle count
of the cycle-counting simulator, a pure function of (ELF, input, machine file):
a timing input needs one run per side, and the speedup is exact.

    compliance    C source inspection (headers, inline asm, prohibited calls)
                  and ELF symbol inspection of the compiled object (every
                  external symbol must be allowed; the entry must be defined)
    functional    the program's stdout and exit status on every held-out case,
                  run with the timing model on exactly as a timed run is (the
                  cycle counter cannot tell a checked run from a timed one)
    performance   cycles(reference) / cycles(candidate) on each timing input;
                  each timed run's output is compared with the reference's on
                  the same input, and a difference is a functional failure
                  naming the input (the timed runs are the ones that count)

Cycles do not depend on the host, so this scale takes no measurement lock
(HOST_TIMED): kernel evaluations run alongside each other and alongside
evaluations timed in host time.

Settings, in task.toml:

    [metadata.frontier]
    entry = "matmul"                # the routine; its symbol must be defined
    cost = "cycles"
    [metadata.frontier.kernel]
    sources = ["kernel.c"]          # the side's files, relative to its workspace
    headers = ["cell.h"]            # fixed interface headers in tests/, used instead of
                                    # any copy the side ships (the side cannot change them)
    harness = "tests/harness.c"     # evaluator-held main()
    inputs = "tests/inputs.py"      # cases(): [{"id", "stdin": bytes, "covers"}];
                                    # timing_inputs(): [{"id", "size", "make": seed -> bytes}]
                                    # (or a fixed "stdin": public, so a candidate can know it)
    machine = "default"             # simulators/machines/<name>.machine
    opt = "-O2"
    max_instructions = 2000000000   # per run; exceeding it is a functional failure

and the C rules in tests/checklist.toml [compliance] (see compliance/c.py).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import sim
from ..compliance import Finding
from ..compliance.c import CRules, inspect_object, inspect_sources
from ..task import Task, TaskError, call_author, check_covers, check_size, get, get_strings, run_author
from . import (
    RECORDING_SEED,
    Build,
    Case,
    InputTiming,
    Observation,
    Progress,
    SideFailure,
    TimingInput,
    fresh_timing_seed,
    input_seed,
    kernel_build,
)

SIDES = ("reference", "candidate")
# Simulated cycles are a pure function of (ELF, input, machine file): no lock.
HOST_TIMED = False


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


@dataclass
class Settings:
    sources: list[str]
    headers: list[str]
    harness: str
    inputs: str
    machine: str
    opt: str
    max_instructions: int
    rules: CRules = field(default_factory=CRules)


def configure(task: Task) -> None:
    problems: list[str] = []
    where = "task.toml [metadata.frontier.kernel]"
    k = task.scale_table()
    if task.cost != "cycles":
        problems.append("task.toml [metadata.frontier].cost: kernel tasks are costed in cycles")
    if not task.entry:
        problems.append("task.toml [metadata.frontier]: missing field 'entry' (the routine)")
    sources = get(k, "sources", list, where, problems, default=["kernel.c"])
    headers = get(k, "headers", list, where, problems, default=[])
    for key, value in (("sources", sources), ("headers", headers)):
        if not all(isinstance(x, str) for x in value):
            problems.append(f"{where}.{key}: must be a list of strings")
    settings = Settings(
        sources=[str(s) for s in sources], headers=[str(h) for h in headers],
        harness=get(k, "harness", str, where, problems, default="tests/harness.c"),
        inputs=get(k, "inputs", str, where, problems, default="tests/inputs.py"),
        machine=get(k, "machine", str, where, problems, default="default"),
        opt=get(k, "opt", str, where, problems, default="-O2"),
        max_instructions=get(k, "max_instructions", int, where, problems, default=2_000_000_000),
    )
    if sim.machine_name(settings.machine) not in sim.machines() and not Path(settings.machine).is_file():
        problems.append(f"{where}.machine: unknown machine '{settings.machine}' "
                        f"(bundled: {', '.join(sim.machines())})")
    comp = task.checklist.get("compliance", {})
    cw = "tests/checklist.toml [compliance]"
    if not isinstance(comp, dict):
        problems.append(f"{cw}: must be a table")
        comp = {}
    defaults = CRules()
    settings.rules = CRules(
        allowed_headers=get_strings(comp, "allowed_headers", cw, problems,
                            default=defaults.allowed_headers),
        prohibited_calls=get_strings(comp, "prohibited_calls", cw, problems),
        allow_inline_asm=get(comp, "allow_inline_asm", bool, cw, problems, default=False),
        allowed_symbols=get_strings(comp, "allowed_symbols", cw, problems,
                            default=defaults.allowed_symbols),
        required_symbols=get_strings(comp, "required_symbols", cw, problems,
                            default=[task.entry]),
    )
    known = ("allowed_headers", "prohibited_calls", "allow_inline_asm", "allowed_symbols",
             "required_symbols")
    for key in sorted(set(comp) - set(known)):
        problems.append(f"{cw}.{key}: not a setting of kernel scale (the settings are "
                        f"{', '.join(known)})")
    for rel in (settings.harness, settings.inputs,
                *(f"tests/{h}" for h in settings.headers)):
        if not (task.path / rel).is_file():
            problems.append(f"{rel}: missing")
    for s in settings.sources:
        if not (task.reference_dir / s).is_file():
            problems.append(f"{task.reference_dir.relative_to(task.path)}/{s}: missing "
                            "(a source of the reference)")
    if problems:
        raise TaskError(task.path, problems)
    task.settings = settings


def _stdin_list(task: Task, fn: str) -> list[dict[str, Any]]:
    """The author's list, each entry checked: a unique string 'id', bytes
    'stdin' (a timing input may have a callable 'make(seed)' instead), and
    'covers' (cases) or 'size' (timing inputs) of the right type."""
    out = []
    problems: list[str] = []
    seen: set[str] = set()
    rel = task.settings.inputs
    for i, raw in enumerate(call_author(task, rel, fn)):
        where = f"{rel} {fn}()[{i}]"
        made = fn == "timing_inputs" and isinstance(raw, dict) and "stdin" not in raw \
            and callable(raw.get("make"))
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) \
                or not (made or isinstance(raw.get("stdin"), (bytes, bytearray))):
            problems.append(f"{where}: needs a string 'id' and bytes 'stdin'"
                            + (" or a callable 'make(seed)' returning bytes (not both)"
                               if fn == "timing_inputs" else ""))
            continue
        if not raw["id"] or "/" in raw["id"] or raw["id"] in seen:
            problems.append(f"{where}.id: '{raw['id']}' is empty, duplicated or contains '/'")
        seen.add(raw["id"])
        entry = dict(raw)
        entry["covers"] = check_covers(raw.get("covers"), where, problems)
        entry["size"] = check_size(raw.get("size"), where, problems)
        out.append(entry)
    if problems:
        raise TaskError(task.path, problems)
    return out


def cases(task: Task) -> list[Case]:
    return [Case(c["id"], bytes(c["stdin"]), c["covers"]) for c in _stdin_list(task, "cases")]


def timing_inputs(task: Task) -> list[TimingInput]:
    """Each input's payload is a function of the input's seed giving its stdin
    (a fixed 'stdin' ignores the seed)."""
    out = []
    for t in _stdin_list(task, "timing_inputs"):
        if "stdin" in t:
            def make(seed: int, _stdin: bytes = bytes(t["stdin"])) -> bytes:
                return _stdin
        else:
            make = _checked_make(task, t["id"], t["make"])
        out.append(TimingInput(t["id"], make, t["size"]))
    return out


def _checked_make(task: Task, input_id: str, fn: Any) -> Any:
    """The author's make(seed) as author code: what it raises, a hang, or
    anything but bytes is a TaskError naming the input."""
    rel = task.settings.inputs

    def make(seed: int) -> bytes:
        what = f"timing input '{input_id}': make({seed})"
        out = run_author(task, rel, what, fn, seed)
        if not isinstance(out, (bytes, bytearray)):
            raise TaskError(task.path, [f"{rel} {what}: must return bytes, "
                                        f"got {type(out).__name__}"])
        return bytes(out)

    return make


def held_out(task: Task) -> list[Path]:
    s: Settings = task.settings
    return [task.path / s.harness, task.path / s.inputs,
            *(task.path / "tests" / h for h in s.headers)]


def item_rule(item_id: str, expected: Any, diff: list[str]) -> str:
    return "wrong-stdout" if item_id.endswith("/stdout") else "wrong-exit-code"


def validate(task: Task) -> list[str]:
    from .. import machine_text

    problems = [f"{f}: its '{machine_text.HEADING}' section is missing or is not what "
                f"machine '{task.settings.machine}' gives (regenerate it: frontier-measure "
                f"task instructions {task.path})"
                for f in machine_text.drift(task.path, task.settings.machine)]
    for t in timing_inputs(task):
        try:
            t.payload(input_seed(RECORDING_SEED, t.id))
        except TaskError as exc:
            problems.extend(exc.problems)
    return problems


# --------------------------------------------------------------------- building


def stage(task: Task, side_dir: Path) -> Path:
    """A build directory with the side's sources and the task's fixed headers.

    Compiling from here means `#include "cell.h"` always finds the task's
    header, whatever copy the side ships. Named by content, so reused.
    """
    s: Settings = task.settings
    files = [(src, side_dir / src) for src in s.sources]
    files += [(Path(hd).name, task.path / "tests" / hd) for hd in s.headers]
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


def compiled(task: Task, side_dir: Path, side: str) -> kernel_build.Compiled:
    """The side's sources compiled to objects in a sandbox of the side's
    (kernel_build.py), with the findings of the compiler's account of what it
    read; cached by content."""
    s: Settings = task.settings
    return kernel_build.compile_side(stage(task, side_dir), s.sources, s.opt,
                                     s.rules.allowed_headers, CACHE, side)


def build_elf(task: Task, side_dir: Path, side: str = "candidate") -> Path:
    """The side's objects linked with the harness into a static riscv64 ELF (cached)."""
    s: Settings = task.settings
    c = compiled(task, side_dir, side)
    if not c.ok:
        raise sim.CompileError(c.log)
    return sim.cached_build([*c.objects, task.path / s.harness], CACHE, opt=s.opt,
                            flags=["-I", str(stage(task, side_dir))])


def _object(objects: list[Path], out: Path) -> Path:
    """The side's objects as one relocatable object (for symbol inspection)."""
    if len(objects) == 1:
        return objects[0]
    r = subprocess.run([*sim.compiler(), "-r", "-nostdlib", *map(str, objects), "-o", str(out)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise sim.CompileError(r.stderr.strip())
    return out


def inspect(task: Task, candidate: Path) -> list[Finding]:
    s: Settings = task.settings
    findings = inspect_sources(candidate, s.rules)
    c = compiled(task, candidate, "candidate")
    findings += c.findings
    if findings:
        return findings
    if not c.ok:
        first = next((line for line in c.log.splitlines() if "error" in line),
                     c.log.splitlines()[0] if c.log else "compiler failed")
        return [Finding(s.sources[0], 0, "does-not-compile", first.strip())]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            obj = _object(c.objects, Path(tmp) / "kernel.o")
        except sim.CompileError as exc:
            return [Finding(s.sources[0], 0, "does-not-compile",
                            str(exc).splitlines()[0] if str(exc) else "linker failed")]
        return inspect_object(obj, s.rules, " + ".join(s.sources) + " (object)")


# --------------------------------------------------------------------- the session


@functools.lru_cache(maxsize=16)
def _program(elf: Path) -> sim.Program:
    # Builds are content-addressed files, so a path always means the same ELF.
    return sim.load_elf(elf)


class KernelSession:
    """Both sides as ELFs run on the simulator in this process: a side's code
    runs only inside the simulated machine (no host system calls: the
    simulator emulates the few it allows), so the simulator is the isolation."""

    def __init__(self, task: Task, candidate: Path) -> None:
        self.task = task
        self.settings: Settings = task.settings
        self.dirs = {"reference": task.reference_dir, "candidate": Path(candidate)}
        self.elves: dict[str, Path] = {}
        self.sandboxed: dict[str, bool] = {}  # whether each side's compile had its sandbox

    def build(self, side: str) -> Build:
        t0 = time.perf_counter()
        command = f"{' '.join(kernel_build.toolchain().argv)} -c {self.settings.opt}, in the " \
                  "side's sandbox; linked with the harness by the evaluator"
        try:
            self.elves[side] = build_elf(self.task, self.dirs[side], side)
            self.sandboxed[side] = compiled(self.task, self.dirs[side], side).sandboxed
        except sim.CompileError as exc:
            return Build(ok=False, command=command, status="failed",
                         log=str(exc), seconds=time.perf_counter() - t0)
        return Build(ok=True, command=command, status="built",
                     seconds=time.perf_counter() - t0)

    def _elf(self, side: str) -> Path:
        if side not in self.elves:
            b = self.build(side)
            if not b.ok:
                raise SideFailure(side, f"does not build: {b.log.splitlines()[0] if b.log else ''}")
        return self.elves[side]

    def _run(self, side: str, stdin: bytes, *, timing: bool) -> dict[str, Any]:
        try:
            r = sim.run(_program(self._elf(side)), stdin=stdin, machine=self.settings.machine,
                        argv=["kernel"], max_instructions=self.settings.max_instructions,
                        timing=timing)
        except sim.SimulatorFault as exc:
            return {"stdout": None, "exit_code": f"fault: {exc.code} at pc=0x{exc.pc:x}",
                    "fault": str(exc), "stats": None}
        return {"stdout": r.stdout.decode("utf-8", "replace"), "exit_code": r.exit_code,
                "stats": r.stats}

    def observe(self, side: str, cases: list[Case],
                keep: Callable[[str, Any], Any] | None = None) -> Observation:
        obs = Observation(keep=keep)
        for case in cases:
            # The timing model on, as in a timed run: with it off the cycle
            # counter would read differently, and a candidate could serve exact
            # code to the checked runs and a shortcut to the timed ones.
            r = self._run(side, case.payload, timing=True)
            obs.add(f"{case.id}/stdout", r["stdout"])
            obs.add(f"{case.id}/exit_code", r["exit_code"])
        return obs

    def timing_digests(self, side: str, inputs: list[TimingInput]) -> dict[str, str]:
        out = {}
        for t in inputs:
            r = self._run(side, t.payload(input_seed(RECORDING_SEED, t.id)), timing=False)
            out[t.id] = hashlib.sha256(repr((r["stdout"], r["exit_code"])).encode()).hexdigest()[:32]
        return out

    def time(self, inputs: list[TimingInput], progress: Progress | None = None, *,
             seed: int | None = None) -> list[InputTiming]:
        timing_seed = fresh_timing_seed() if seed is None else seed
        results = []
        for t in inputs:
            if progress:
                progress(f"timing {t.id}")
            t0 = time.perf_counter()
            # Made once: both sides run on these very bytes.
            stdin = t.payload(input_seed(timing_seed, t.id))
            ref = self._run("reference", stdin, timing=True)
            if ref["stats"] is None:
                raise SideFailure("reference", f"timing input '{t.id}': {ref['fault']}")
            got = self._run("candidate", stdin, timing=True)
            wrong = timed_difference(ref, got)
            if wrong is not None:
                results.append(InputTiming(
                    id=t.id, size=t.size, loops=1, summary={"rounds": 1}, rounds=[],
                    reference_median=float(ref["stats"]["cycles"]), candidate_median=float("nan"),
                    elapsed_s=time.perf_counter() - t0, error_side="candidate",
                    error_stage="functional", error_rule=wrong[0], error=wrong[1],
                    outputs_checked=1))
                break
            rc, cc = ref["stats"]["cycles"], got["stats"]["cycles"]
            row = exact_timing(t, rc, cc, self.task.threshold, time.perf_counter() - t0,
                               {"reference_cycles": rc, "candidate_cycles": cc,
                                "reference_stats": ref["stats"],
                                "candidate_stats": got["stats"]})
            row.outputs_checked = 1
            results.append(row)
        return results

    def describe(self) -> dict[str, Any]:
        boxed = all(self.sandboxed.values())
        return {"backend": "simulator", "machine": self.settings.machine,
                "build": ("each side's sources compiled in a sandbox of the local backend "
                          "(its staged sources, the task's headers and the toolchain in view, "
                          "nothing else)" if boxed else
                          "no sandbox could be made here (bubblewrap or user namespaces "
                          "missing): sources compiled as the side's id on the host")
                + "; what the compiler read checked from its own account (-MD, -H)",
                "build_sandboxed": dict(self.sandboxed),
                "notes": ["sides run inside the cycle-counting RISC-V simulator in the "
                          "evaluator's process; the cost is simulated cycles, identical on "
                          "every run, so no measurement lock is taken"]}

    def close(self) -> None:
        pass

    @property
    def violations(self) -> list[dict[str, Any]]:
        return []  # no run-time checks beyond the sandbox at this scale

    def __enter__(self) -> KernelSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def timed_difference(ref: dict[str, Any], got: dict[str, Any]) -> tuple[str, str] | None:
    """(rule, reason) when the candidate's timed run did not give the
    reference's output on the same input, else None."""
    if got["stats"] is None:
        return "timed-run-fault", f"the candidate's timed run faulted: {got['fault']}"
    if got["exit_code"] != ref["exit_code"]:
        return "timed-output-differs", (f"the candidate's timed run exited with "
                                        f"{got['exit_code']}, the reference's with "
                                        f"{ref['exit_code']} on the same input")
    if got["stdout"] != ref["stdout"]:
        want, have = ref["stdout"].splitlines(), got["stdout"].splitlines()
        k = next((i for i, (a, b) in enumerate(zip(want, have, strict=False)) if a != b),
                 min(len(want), len(have)))

        def show(lines: list[str]) -> str:
            return repr(lines[k][:120]) if k < len(lines) else "nothing"

        return "timed-output-differs", (f"the candidate's timed run printed something else "
                                        f"than the reference's on the same input: line {k + 1} "
                                        f"is {show(have)}, the reference's {show(want)}")
    return None


def exact_timing(t: TimingInput, reference: float, candidate: float, threshold: float,
                 elapsed_s: float, extra: dict[str, Any]) -> InputTiming:
    """A timing input whose cost is deterministic: one run per side, an exact
    ratio (its interval is the point), the threshold to be exceeded."""
    from ..stats import exceeds

    speedup = reference / candidate
    verdict = "faster" if speedup > 1 else "slower" if speedup < 1 else "indistinguishable"
    summary = {"rounds": 1, "pairs": 0, "blocks": 0, "speedup": speedup, "ci_low": speedup,
               "ci_high": speedup, "lower_bound": speedup, "verdict": verdict,
               "confidence": 1.0, "half_width": 0.0,
               "meets_threshold": exceeds(speedup, threshold)}
    return InputTiming(id=t.id, size=t.size, loops=1, summary=summary, rounds=[],
                       reference_median=float(reference), candidate_median=float(candidate),
                       elapsed_s=elapsed_s, extra={"deterministic": True, **extra})


def open_session(task: Task, candidate: Path, *, isolation: str | None = None,
                 recording: bool = False) -> KernelSession:
    return KernelSession(task, candidate)
