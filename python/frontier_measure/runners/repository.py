"""Repository scale: a whole program, in any language, judged by its commands.

A *case* is a sequence of shell commands run, in order, in a fresh copy of the
task's prepared working directory (tests/fixtures/). After each command four
items are observed, each compared on its own:

    <case>/<n>/exit_code   the exit status (or the signal that ended it)
    <case>/<n>/stdout      the bytes it wrote to stdout
    <case>/<n>/stderr      the bytes it wrote to stderr
    <case>/<n>/files       the working directory: every path with its type,
                           mode, size and content hash

The reference is recorded `repetitions` times (5 by default), each in a fresh
copy; an item whose value varies is excluded and listed, and so is a single
path whose entry varies (the rest of that directory item is kept).

Each side's program is a fresh copy of its source directory, built by the
task's build command as that side (with its own timeout); a failed build is a
functional failure that carries the build log. A *timing input* is a command
sequence on generated data, timed as whole processes through the isolation
backend (the core's process runner locally) with paired, interleaved rounds;
the worst input decides.

Settings, in task.toml:

    [metadata.frontier.repository]
    build = "make"                # run in the side's program directory
    build_timeout_s = 300
    command_timeout_s = 30
    fixtures = "tests/fixtures"   # the prepared working directory
    cases = "tests/cases.toml"    # [[case]] id, commands, covers; [[timing]] id, size,
                                  # setup (evaluator commands that make the data), commands
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import stat
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _core, perf
from ..diff import ItemResult
from ..isolation import Backend, CommandResult, Policy, open_backend
from ..record import reference_digest
from ..task import reference_dir as task_reference_dir
from . import InputTiming

GOLDEN_SCHEMA = 1
PROGRAM = "program"  # the side's built program, inside its area
CASE_DIR = "case"  # the working directory of the current case, inside its area
ITEM_KINDS = ("exit_code", "stdout", "stderr", "files")
MAX_DIFF_LINES = 12


class RepositoryTaskError(Exception):
    """A repository task whose settings or cases cannot be used."""


@dataclass
class RepoCase:
    id: str
    commands: list[str]
    covers: list[str] = field(default_factory=list)
    stdin: str = ""


@dataclass
class RepoTimingInput:
    id: str
    commands: list[str]
    setup: list[str] = field(default_factory=list)  # run by the evaluator, untimed
    size: int | None = None


@dataclass
class RepoSettings:
    root: Path
    build: str = ""
    reference_build: str | None = None  # default: the same as build
    build_timeout_s: float = 300.0
    command_timeout_s: float = 30.0
    fixtures: str = "tests/fixtures"
    cases_file: str = "tests/cases.toml"
    repetitions: int = 5
    threshold: float = 1.0
    cost: str = "wall"
    timing: dict[str, Any] = field(default_factory=dict)
    limits: dict[str, Any] = field(default_factory=dict)  # Policy fields set by the task
    cases: list[RepoCase] = field(default_factory=list)
    timing_inputs: list[RepoTimingInput] = field(default_factory=list)

    @property
    def reference_dir(self) -> Path:
        # environment/workspace/, or tests/reference/ in a Harbor verifier's layout.
        return task_reference_dir(self.root)

    @property
    def oracle_dir(self) -> Path:
        return self.root / "solution" / "workspace"

    @property
    def tests_dir(self) -> Path:
        return self.root / "tests"

    @property
    def golden_path(self) -> Path:
        return self.tests_dir / "golden.json"

    @property
    def fixtures_dir(self) -> Path:
        return self.root / self.fixtures


def load_settings(root: str | Path) -> RepoSettings:
    """Read a repository task's settings and cases; every problem at once."""
    root = Path(root).resolve()
    problems: list[str] = []
    try:
        doc = tomllib.loads((root / "task.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RepositoryTaskError(f"{root}/task.toml: {exc}") from None
    fr = doc.get("metadata", {}).get("frontier", {})
    if fr.get("scale") != "repository":
        problems.append("task.toml [metadata.frontier].scale: not 'repository'")
    rep = fr.get("repository", {})
    s = RepoSettings(root=root)
    s.build = str(rep.get("build", ""))
    s.reference_build = rep.get("reference_build")
    s.build_timeout_s = float(rep.get("build_timeout_s", 300))
    s.command_timeout_s = float(rep.get("command_timeout_s", fr.get("case_timeout_s", 30)))
    s.fixtures = str(rep.get("fixtures", s.fixtures))
    s.cases_file = str(rep.get("cases", s.cases_file))
    s.repetitions = int(fr.get("repetitions", 5))
    s.threshold = float(fr.get("threshold", 1.0))
    s.cost = str(fr.get("cost", "wall"))
    s.timing = dict(fr.get("timing", {}))
    env = doc.get("environment", {})
    if isinstance(env.get("memory_mb"), int):
        s.limits["memory_mb"] = env["memory_mb"]
    for key in ("nproc", "disk_mb", "file_size_mb", "open_files"):
        if key in rep:
            if not isinstance(rep[key], int) or rep[key] <= 0:
                problems.append(f"task.toml [metadata.frontier.repository].{key}: "
                                "a positive integer")
            else:
                s.limits[key] = rep[key]
    if not s.fixtures_dir.is_dir():
        problems.append(f"{s.fixtures}/: missing (the prepared working directory)")
    if not s.reference_dir.is_dir():
        problems.append(f"{s.reference_dir.relative_to(root)}/: missing (the reference)")
    try:
        cases_doc = tomllib.loads((root / s.cases_file).read_text())
    except OSError:
        problems.append(f"{s.cases_file}: missing")
        cases_doc = {}
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{s.cases_file}: malformed TOML ({exc})")
        cases_doc = {}
    seen: set[str] = set()
    for i, raw in enumerate(cases_doc.get("case", [])):
        where = f"{s.cases_file} case[{i}]"
        cid = raw.get("id")
        cmds = raw.get("commands")
        if not isinstance(cid, str) or "/" in cid or cid in seen:
            problems.append(f"{where}.id: missing, duplicated or contains '/'")
            continue
        if not isinstance(cmds, list) or not cmds or not all(isinstance(c, str) for c in cmds):
            problems.append(f"{where}.commands: a non-empty list of strings")
            continue
        seen.add(cid)
        s.cases.append(RepoCase(cid, list(cmds), list(raw.get("covers", [])),
                                str(raw.get("stdin", ""))))
    for i, raw in enumerate(cases_doc.get("timing", [])):
        where = f"{s.cases_file} timing[{i}]"
        if not isinstance(raw.get("id"), str) or not raw.get("commands"):
            problems.append(f"{where}: needs 'id' and 'commands'")
            continue
        s.timing_inputs.append(RepoTimingInput(raw["id"], list(raw["commands"]),
                                               list(raw.get("setup", [])), raw.get("size")))
    if not s.cases:
        problems.append(f"{s.cases_file}: no [[case]]")
    if problems:
        raise RepositoryTaskError(f"{root}: " + "; ".join(problems))
    return s


def validate(root: str | Path) -> list[str]:
    """Every problem of a repository task's own data, as 'file: problem' lines."""
    try:
        settings = load_settings(root)
    except RepositoryTaskError as exc:
        text = str(exc)
        return text.split(": ", 1)[1].split("; ") if ": " in text else [text]
    problems = []
    if not settings.build:
        problems.append("task.toml [metadata.frontier.repository].build: missing (the "
                        "candidate's build command)")
    sizes = {t.size for t in settings.timing_inputs}
    if len(sizes) < 2:
        problems.append(f"{settings.cases_file}: [[timing]] needs inputs of at least 2 sizes")
    if not settings.oracle_dir.is_dir():
        problems.append("solution/workspace/: missing (the oracle candidate)")
    try:
        golden = load_golden(settings)
    except RepositoryTaskError as exc:
        problems.append(str(exc).replace(str(settings.root) + "/", ""))
    else:
        ids = {c.id for c in settings.cases}
        recorded = {k.split("/", 1)[0] for k in golden["items"]}
        for cid in sorted(ids - recorded):
            problems.append(f"tests/golden.json: case '{cid}' not recorded; re-record")
    return problems


# --------------------------------------------------------------------- observing


def _text(data: bytes) -> str:
    # Bytes that are not UTF-8 survive as escapes, so they still compare exactly.
    return data.decode("utf-8", "surrogateescape")


def snapshot(root: Path) -> dict[str, str]:
    """The state of a directory: relative path -> 'type mode size sha256'."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            st = p.lstat()
            mode = f"{stat.S_IMODE(st.st_mode):o}"
            if stat.S_ISLNK(st.st_mode):
                out[rel] = f"link {os.readlink(p)}"
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = f"dir {mode}"
            elif stat.S_ISREG(st.st_mode):
                h = hashlib.sha256()
                with open(p, "rb") as f:
                    while block := f.read(1 << 20):
                        h.update(block)
                out[rel] = f"file {mode} {st.st_size} {h.hexdigest()[:16]}"
            else:
                out[rel] = f"other {mode}"
    return out


def _status(r: CommandResult) -> str:
    if r.timed_out:
        return "timed out"
    if r.signal:
        return f"signal {_core.signal_name(r.signal)}"
    return str(r.exit_code)


@dataclass
class CaseRun:
    items: dict[str, Any]
    problems: list[str]  # isolation events, timeouts: reasons a side failed beyond its items


def run_case(backend: Backend, side: str, case: RepoCase, fixtures: Path,
             timeout: float) -> CaseRun:
    """Run one case as `side` in a fresh copy of the fixtures; its items."""
    backend.fresh_copy(side, fixtures, CASE_DIR)
    items: dict[str, Any] = {}
    problems: list[str] = []
    program = backend.side_path(side, PROGRAM)
    for n, command in enumerate(case.commands):
        r = backend.run(side, command, cwd=CASE_DIR, timeout=timeout,
                        stdin=case.stdin.encode() if n == 0 else b"",
                        path_prepend=[program], env={"PROGRAM_DIR": program})
        key = f"{case.id}/{n}"
        items[f"{key}/exit_code"] = _status(r)
        items[f"{key}/stdout"] = _text(r.stdout)
        items[f"{key}/stderr"] = _text(r.stderr)
        items[f"{key}/files"] = snapshot(backend.area(side) / CASE_DIR)
        if r.timed_out:
            problems.append(f"{key}: '{command}' timed out after {timeout:g} s")
        if r.leftover:
            names = getattr(backend, "last_leftover", [])
            problems.append(f"{key}: '{command}' left {r.leftover} process(es) running "
                            "after it ended (killed before the other side's turn)"
                            + (f": {', '.join(names)}" if names else ""))
    return CaseRun(items, problems)


def build(backend: Backend, side: str, source: Path, command: str,
          timeout: float) -> dict[str, Any]:
    """Fresh copy of `source` as the side's program, built by `command`."""
    backend.fresh_copy(side, source, PROGRAM)
    if not command:
        backend.seal(side, PROGRAM)
        return {"ok": True, "command": "", "log": ""}
    r = backend.run(side, command, cwd=PROGRAM, timeout=timeout)
    # From now on the program is read-only to its side: state kept next to it
    # would survive from one timed run to the next.
    backend.seal(side, PROGRAM)
    log = _text(r.stdout + r.stderr)
    return {"ok": r.ok, "command": command, "status": r.describe(), "log": log[-20000:],
            "seconds": r.wall_ns / 1e9}


# --------------------------------------------------------------------- golden


def stable_items(recordings: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """Items equal in every recording, and the ids of those that are not.
    A directory item keeps its stable paths; each varying path is listed as
    '<item>:<path>'."""
    first = recordings[0]
    keys = set().union(*(r.keys() for r in recordings))
    golden: dict[str, Any] = {}
    excluded: list[str] = []
    for key in sorted(keys):
        values = [r.get(key) for r in recordings]
        dirs = [v for v in values if isinstance(v, dict)]
        if key.endswith("/files") and len(dirs) == len(values):
            paths: set[str] = set().union(*dirs)
            keep = {}
            for p in sorted(paths):
                entries = [v.get(p) for v in dirs]
                if all(e == entries[0] for e in entries):
                    keep[p] = entries[0]
                else:
                    excluded.append(f"{key}:{p}")
            golden[key] = keep
        elif all(v == values[0] for v in values) and key in first:
            golden[key] = values[0]
        else:
            excluded.append(key)
    return golden, excluded


def record(settings: RepoSettings, backend: Backend,
           progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Record the reference `repetitions` times; the golden document."""
    b = build(backend, "reference", settings.reference_dir, _ref_build(settings),
              settings.build_timeout_s)
    if not b["ok"]:
        raise RepositoryTaskError(f"the reference does not build ({b['status']}):\n{b['log']}")
    recordings = []
    for rep in range(settings.repetitions):
        items: dict[str, Any] = {}
        for case in settings.cases:
            run = run_case(backend, "reference", case, settings.fixtures_dir,
                           settings.command_timeout_s)
            if run.problems:
                raise RepositoryTaskError("the reference misbehaves: " + "; ".join(run.problems))
            items.update(run.items)
        recordings.append(items)
        if progress:
            progress(f"recording {rep + 1}/{settings.repetitions}")
    golden, excluded = stable_items(recordings)
    return {
        "schema": GOLDEN_SCHEMA,
        "scale": "repository",
        "reference_digest": reference_digest(settings.reference_dir),
        "recordings": settings.repetitions,
        "items": golden,
        "excluded": excluded,
    }


def record_task(task_dir: str | Path, runs: int | None = None, isolation: str | None = None,
                progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Record the reference and write tests/golden.json; the golden document
    (with `runs`, as the pipeline's record command reports it)."""
    settings = load_settings(task_dir)
    if runs:
        settings.repetitions = runs
    with open_backend(isolation or os.environ.get("FM_ISOLATION", "local"),
                      policy_for(settings)) as b:
        golden = record(settings, b, progress=progress)
    settings.golden_path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    return {**golden, "runs": golden["recordings"]}


def policy_for(settings: RepoSettings) -> Policy:
    """The isolation limits of a task's sides: defaults, then the task's
    ([environment] memory_mb, [metadata.frontier.repository] nproc, disk_mb,
    file_size_mb, open_files); every command's timeout is set per call."""
    return Policy(**settings.limits, timeout_s=settings.command_timeout_s)


def _ref_build(settings: RepoSettings) -> str:
    return settings.build if settings.reference_build is None else settings.reference_build


def load_golden(settings: RepoSettings) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(settings.golden_path.read_text())
    except FileNotFoundError:
        raise RepositoryTaskError(f"{settings.golden_path}: missing; run "
                                  f"`frontier-measure record {settings.root}`") from None
    if data.get("scale") != "repository" or data.get("schema") != GOLDEN_SCHEMA:
        raise RepositoryTaskError(f"{settings.golden_path}: not a repository golden file "
                                  f"(schema {GOLDEN_SCHEMA})")
    if data.get("reference_digest") != reference_digest(settings.reference_dir):
        raise RepositoryTaskError(f"{settings.golden_path}: recorded from a different reference "
                                  f"(re-run `frontier-measure record {settings.root}`)")
    return data


# --------------------------------------------------------------------- comparing


def item_diff(item_id: str, expected: Any, actual: Any) -> list[str]:
    """Readable differences of one item; empty when it matches."""
    if expected == actual:
        return []
    kind = item_id.rsplit("/", 1)[-1]
    if kind == "files":
        exp, act = expected, {p: v for p, v in (actual or {}).items()}
        added = sorted(set(act) - set(exp))
        removed = sorted(set(exp) - set(act))
        changed = sorted(p for p in set(exp) & set(act) if exp[p] != act[p])
        out = []
        if added:
            out.append("added: " + ", ".join(added[:20]))
        if removed:
            out.append("removed: " + ", ".join(removed[:20]))
        for p in changed[:MAX_DIFF_LINES]:
            out.append(f"changed: {p}: expected {exp[p]}, got {act[p]}")
        return out
    if kind in ("stdout", "stderr"):
        lines = list(difflib.unified_diff(
            str(expected).splitlines(), str(actual).splitlines(),
            "expected", "got", lineterm="", n=1))
        if not lines:  # differ only in a trailing newline
            return [f"expected {expected!r}, got {actual!r}"[:400]]
        return lines[2:2 + MAX_DIFF_LINES] + (["..."] if len(lines) > 2 + MAX_DIFF_LINES else [])
    return [f"expected {expected}, got {actual}"]


def compare(golden: Mapping[str, Any], observed: Mapping[str, Any],
            excluded: Sequence[str] = (),
            missing_reason: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every golden item against the observation; paths excluded from a
    directory item are dropped from the observation too."""
    skip: dict[str, set[str]] = {}
    for e in excluded:
        if ":" in e:
            item, path = e.split(":", 1)
            skip.setdefault(item, set()).add(path)
    results = []
    for item_id, expected in golden.items():
        case = item_id.split("/", 1)[0]
        if item_id not in observed:
            why = (missing_reason or {}).get(case, "no observation was produced")
            results.append(ItemResult(item_id, case, False, [why]).to_dict())
            continue
        actual = observed[item_id]
        if item_id in skip and isinstance(actual, dict):
            actual = {p: v for p, v in actual.items() if p not in skip[item_id]}
        diff = item_diff(item_id, expected, actual)
        results.append(ItemResult(item_id, case, not diff, diff).to_dict())
    return results


# --------------------------------------------------------------------- timing


class CommandSequenceSide(_core.Side):
    """One side of a timing input: each loop runs the command sequence in a
    fresh copy of the input's working directory (copied outside the timed
    region). The cost is the commands' own process wall (and CPU) time. Every
    timed run's outputs are checked against the reference's, so work moved
    out of the timed commands or cached across runs shows up as a failure."""

    def __init__(self, backend: Backend, side: str, workdir: Path, commands: Sequence[str],
                 timeout: float, expected: list[tuple[str, bytes]] | None = None) -> None:
        super().__init__()
        self.backend = backend
        self.side = side
        self.workdir = workdir
        self.commands = list(commands)
        self.timeout = timeout
        self.expected = expected
        self.last: list[tuple[str, bytes]] = []

    def run_once(self) -> tuple[int, int, list[tuple[str, bytes]]]:
        self.backend.fresh_copy(self.side, self.workdir, CASE_DIR)
        program = self.backend.side_path(self.side, PROGRAM)
        wall = cpu = 0
        seen: list[tuple[str, bytes]] = []
        for command in self.commands:
            r = self.backend.run(self.side, command, cwd=CASE_DIR, timeout=self.timeout,
                                 path_prepend=[program], env={"PROGRAM_DIR": program})
            if not r.ok or r.leftover:
                raise _core.SideError(self.side, f"'{command}' {r.describe()} on a timed run: "
                                      + _text(r.stderr)[-300:])
            wall += r.wall_ns
            cpu += r.user_ns + r.sys_ns
            digest = hashlib.sha256(r.stdout).digest() + hashlib.sha256(r.stderr).digest()
            out_files = snapshot(self.backend.area(self.side) / CASE_DIR)
            seen.append((_status(r), digest + json.dumps(out_files, sort_keys=True).encode()))
        return wall, cpu, seen

    def measure(self, loops: int) -> Any:
        batch = _core.Batch()
        batch.loops = loops
        batch.wall_ns = 0
        batch.cpu_ns = 0
        for _ in range(loops):
            wall, cpu, seen = self.run_once()
            if self.expected is not None and seen != self.expected:
                raise _core.SideError(self.side, "a timed run's output differs from the "
                                      "reference's on the same input")
            self.last = seen
            batch.wall_ns += wall
            batch.cpu_ns += cpu
        return batch

    def suspend(self) -> None:
        self.backend.suspend(self.side)

    def resume(self) -> None:
        self.backend.resume(self.side)


def _prepare_timing_dir(settings: RepoSettings, ti: RepoTimingInput, dest: Path) -> None:
    """The input's working directory: the fixtures plus what `setup` makes
    (run by the evaluator, with the task's tests/ at hand as $TESTS)."""
    shutil.copytree(settings.fixtures_dir, dest, dirs_exist_ok=True)
    env = {**os.environ, "TESTS": str(settings.tests_dir)}
    for cmd in ti.setup:
        r = subprocess.run(["/bin/sh", "-c", cmd], cwd=dest, env=env, capture_output=True)
        if r.returncode != 0:
            raise RepositoryTaskError(f"timing input {ti.id}: setup '{cmd}' failed: "
                                      f"{r.stderr.decode(errors='replace')[-400:]}")
    os.chmod(dest, 0o755)


def time_inputs(settings: RepoSettings, backend: Backend, *, max_time: float | None = None,
                progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Paired interleaved timing of every timing input; one row per input."""
    t = settings.timing
    rows = []
    staging = Path(tempfile.mkdtemp(prefix="fm-timing-"))
    try:
        for ti in settings.timing_inputs:
            work = staging / ti.id
            _prepare_timing_dir(settings, ti, work)
            ref = CommandSequenceSide(backend, "reference", work, ti.commands,
                                      settings.command_timeout_s)
            # The reference's own outputs on this input are what every timed
            # candidate run must reproduce.
            ref.expected = ref.run_once()[2]
            cand = CommandSequenceSide(backend, "candidate", work, ti.commands,
                                       settings.command_timeout_s, expected=ref.expected)
            started = time.perf_counter()
            try:
                cand.run_once()
                cmp = perf.compare(
                    ref, cand, threshold=settings.threshold,
                    cost="cpu" if settings.cost == "cpu" else "wall",
                    warmup=int(t.get("warmup", 1)), min_rounds=int(t.get("min_rounds", 10)),
                    max_rounds=int(t.get("max_rounds", 40)),
                    max_time=float(max_time if max_time is not None else t.get("max_time_s", 20)),
                    precision=float(t.get("precision", 0.05)), loops=1,
                )
                timing = InputTiming(
                    id=ti.id, size=ti.size, loops=cmp.loops, summary=cmp.summary.to_dict(),
                    rounds=cmp.rounds, reference_median=cmp.reference_median,
                    candidate_median=cmp.candidate_median,
                    elapsed_s=time.perf_counter() - started, warnings=cmp.warnings)
            except _core.SideError as exc:
                # A violation found while timing: the candidate fails this input.
                timing = InputTiming(
                    id=ti.id, size=ti.size, loops=1,
                    summary={"verdict": "failed", "meets_threshold": False}, rounds=[],
                    reference_median=float("nan"), candidate_median=float("nan"),
                    elapsed_s=time.perf_counter() - started, error=str(exc))
            row = timing.to_dict()
            row["commands"] = ti.commands
            rows.append(row)
            if progress:
                progress(f"timing {ti.id}: {row.get('verdict')}")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return rows


# --------------------------------------------------------------------- evaluate


def failure_rule(item: Mapping[str, Any]) -> str:
    """What kind of functional failure a failed item is."""
    kind = item["id"].rsplit("/", 1)[-1]
    diff = item.get("diff") or [""]
    if kind == "files":
        if any(d.startswith("removed:") for d in diff):
            return "missing-file"
        if any(d.startswith("added:") for d in diff):
            return "extra-file"
        return "changed-file"
    if kind == "exit_code":
        return "wrong-exit-code"
    if kind in ("stdout", "stderr"):
        return f"wrong-{kind}"
    return "no-observation"


MAX_TIMEOUTS = 2  # after this many timed-out commands the rest of the cases are not run


def evaluate(task_dir: str | Path, candidate_dir: str | Path | None = None, *,
             isolation: str | None = None, backend: Backend | None = None, timing: bool = True,
             max_time: float | None = None, command_timeout: float | None = None,
             only_cases: Sequence[str] | None = None,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Functionality then performance of a candidate program (default: the
    task's oracle). Returns a plain dict for result.json. `only_cases`
    restricts the functional stage to those cases (for quick checks).
    `isolation` names the backend ('local' or 'docker'); by default the
    FM_ISOLATION environment variable, else 'local'."""
    isolation = isolation or os.environ.get("FM_ISOLATION", "local")
    settings = load_settings(task_dir)
    if command_timeout is not None:
        settings.command_timeout_s = command_timeout
    if only_cases is not None:
        settings.cases = [c for c in settings.cases if c.id in set(only_cases)]
    cand_dir = Path(candidate_dir).resolve() if candidate_dir else settings.oracle_dir
    golden = load_golden(settings)
    if only_cases is not None:
        keep = {c.id for c in settings.cases}
        golden = {**golden, "items": {k: v for k, v in golden["items"].items()
                                      if k.split("/", 1)[0] in keep}}
    started = time.perf_counter()
    own = backend is None
    b = backend or open_backend(isolation, policy_for(settings))
    try:
        # Held-out data and golden outputs: closed to both sides while they run.
        b.guard([settings.tests_dir])
        result: dict[str, Any] = {
            "scale": "repository",
            "task": settings.root.name,
            "candidate": str(cand_dir),
            "isolation": b.describe(),
        }
        ref_build = build(b, "reference", settings.reference_dir, _ref_build(settings),
                          settings.build_timeout_s)
        cand_build = build(b, "candidate", cand_dir, settings.build, settings.build_timeout_s)
        result["build"] = {"reference": ref_build, "candidate": cand_build}
        observed: dict[str, Any] = {}
        problems: list[str] = []
        missing: dict[str, str] = {}
        if not ref_build["ok"]:
            raise RepositoryTaskError(f"the reference does not build: {ref_build['log'][-2000:]}")
        if cand_build["ok"]:
            timeouts = 0
            for case in settings.cases:
                if timeouts >= MAX_TIMEOUTS:
                    missing[case.id] = (f"not run: {timeouts} commands of the candidate "
                                        "had timed out")
                    continue
                run = run_case(b, "candidate", case, settings.fixtures_dir,
                               settings.command_timeout_s)
                observed.update(run.items)
                problems.extend(run.problems)
                timeouts += sum("timed out" in p for p in run.problems)
        else:
            for case in settings.cases:
                missing[case.id] = f"build failed ({cand_build['status']})"
        items = compare(golden["items"], observed, golden.get("excluded", []), missing)
        passed = sum(r["passed"] for r in items)
        functional = passed == len(items) and not problems and cand_build["ok"]
        reason = rule = None
        if not cand_build["ok"]:
            reason, rule = f"build failed: {cand_build['status']}", "build-failed"
        elif problems:
            reason = problems[0]
            rule = "timeout" if "timed out" in reason else "left-processes"
        elif not functional:
            first = next(r for r in items if not r["passed"])
            reason = f"{first['id']}: " + "; ".join(first.get("diff", []))[:300]
            rule = failure_rule(first)
        result["functional"] = {
            "passed": functional,
            "items_passed": passed,
            "items_total": len(items),
            "summary": f"{passed}/{len(items)} items passed",
            "reason": reason,
            "rule": rule,
            "problems": problems,
            "excluded": golden.get("excluded", []),
            "items": items,
        }
        rows: list[dict[str, Any]] = []
        if timing and functional and settings.timing_inputs:
            rows = time_inputs(settings, b, max_time=max_time, progress=progress)
        result["timing"] = rows
        worst = min(rows, key=lambda r: r.get("speedup") or 0.0) if rows else None
        result["performance"] = {
            "threshold": settings.threshold,
            "worst_input": worst["id"] if worst else None,
            "speedup": worst.get("speedup") if worst else None,
            "verdict": worst.get("verdict") if worst else None,
            "passed": bool(rows) and all(r.get("meets_threshold") for r in rows),
        }
        result["strict_success"] = functional and result["performance"]["passed"]
        result["elapsed_s"] = time.perf_counter() - started
        return result
    finally:
        if own:
            b.close()


# --------------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m frontier_measure.runners.repository record|eval TASK ...`:
    the repository pipeline on its own (the `frontier-measure` command
    dispatches here for repository tasks)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m frontier_measure.runners.repository")
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record the reference's golden outputs")
    rec.add_argument("task")
    rec.add_argument("--isolation", choices=("local", "docker"), default=None)
    ev = sub.add_parser("eval", help="evaluate a candidate (default: the oracle)")
    ev.add_argument("task")
    ev.add_argument("--candidate")
    ev.add_argument("--isolation", choices=("local", "docker"), default=None)
    ev.add_argument("--no-timing", action="store_true")
    ev.add_argument("--max-time", type=float, default=None, help="seconds of rounds per input")
    ev.add_argument("--json", dest="json_out")
    args = ap.parse_args(argv)
    try:
        if args.command == "record":
            golden = record_task(args.task, isolation=args.isolation,
                                 progress=lambda m: print(m, flush=True))
            print(f"{len(golden['items'])} items recorded, {len(golden['excluded'])} excluded "
                  f"-> {Path(args.task) / 'tests' / 'golden.json'}")
            return 0
        result = evaluate(args.task, args.candidate, isolation=args.isolation,
                          timing=not args.no_timing, max_time=args.max_time,
                          progress=lambda m: print(m, flush=True))
    except (RepositoryTaskError, _core.MeasureError) as exc:
        print(f"error: {exc}")
        return 2
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=1, default=str) + "\n")
    print(text_summary(result))
    return 0


def text_summary(result: Mapping[str, Any]) -> str:
    f = result["functional"]
    lines = [f"task {result['task']}  candidate {result['candidate']}",
             f"isolation: {result['isolation']['backend']}"
             + ("" if result["isolation"]["account_switch"] else " (no account switch: not root)"),
             f"functional: {f['summary']}" + ("" if f["passed"] else f"  FAILED: {f['reason']}")]
    for r in result["timing"]:
        if r.get("error"):
            lines.append(f"  timing {r['id']}: failed: {r['error']}")
        else:
            lo, hi = r["ci_low"], r["ci_high"]
            lines.append(f"  timing {r['id']}: {r['speedup']:.2f}x "
                         f"[{(lo or 0):.2f}, {(hi or 0):.2f}] {r['verdict']} ({r['rounds']} rounds)")
    p = result["performance"]
    if p["speedup"] is not None:
        lines.append(f"performance: worst input {p['worst_input']} {p['speedup']:.2f}x, "
                     f"threshold {p['threshold']}x: {'met' if p['passed'] else 'not met'}")
    lines.append(f"strict success: {'yes' if result['strict_success'] else 'no'}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
