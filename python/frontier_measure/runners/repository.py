"""Repository scale: a whole program, in any language, judged by its commands.

A *case* is a sequence of shell commands run, in order, in a fresh copy of the
task's prepared working directory (tests/fixtures/). After each command four
items are observed, each compared on its own:

    <case>/<n>/exit_code   the exit status (or the signal that ended it)
    <case>/<n>/stdout      the bytes it wrote to stdout
    <case>/<n>/stderr      the bytes it wrote to stderr
    <case>/<n>/files       the working directory: every path with its type,
                           mode, size and content hash

The files item is a mapping of paths: the recorder keeps its stable paths and
excludes a single varying path without the rest (record.py).

Each side's program is a fresh copy of its source directory, built by the
task's build command as that side; a failed build of the candidate is a
functional failure that carries the build log. A *timing input* is a command
sequence on generated data, timed as whole processes through the isolation
backend, in blocks of paired, interleaved rounds (perf.run_blocks).

Settings, in task.toml:

    [metadata.frontier.repository]
    build = "make"                # run in the side's program directory
    build_timeout_s = 300
    command_timeout_s = 30
    fixtures = "tests/fixtures"   # the prepared working directory
    cases = "tests/cases.toml"    # [[case]] id, commands, covers, stdin; [[timing]] id,
                                  # size, setup (evaluator commands that make the data;
                                  # $FM_TIMING_SEED is the input's seed, secret and fresh
                                  # in every evaluation), commands
    nproc, disk_mb, file_size_mb, open_files   # limits of each side
    syscalls = ["shmget", ...]    # system calls the program needs beyond the sides'
                                  # allow-list (isolation/seccomp.py); shown in the result
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _core
from ..compliance import Finding
from ..isolation import Backend, CommandResult, Policy, open_backend, seccomp
from ..observe import describe_cap
from ..task import Task, TaskError, check_covers, check_size, get, read_toml
from . import (
    RECORDING_SEED,
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
    input_seed,
)

SIDES = ("reference", "candidate")
COSTS = ("wall", "cpu")
START_LIMIT_S = 60.0  # for a new sandbox to run its first command
PROGRAM = "program"  # the side's built program, inside its area
CASE_DIR = "case"  # the working directory of the current case, inside its area
ITEM_KINDS = ("exit_code", "stdout", "stderr", "files")
MAX_TIMEOUTS = 2  # after this many timed-out commands the rest of the cases are not run
# The cap on entries of a case directory's snapshot (stdout and stderr are
# capped by the backend's Policy.max_output, the task's max_item_mb): past it, a
# side fails, naming it.
MAX_SNAPSHOT_ENTRIES = 100_000
BUILD_LOG = 1 << 20  # bytes kept of each stream of a build (reports show its end)


class OutputCapExceeded(Exception):
    """A side's output over one of the evaluator's caps."""


def _caps(r: CommandResult, max_output: int) -> str | None:
    """Which stream of a command went over the cap on output, if any."""
    for name, over in (("stdout", r.stdout_truncated), ("stderr", r.stderr_truncated)):
        if over:
            return f"{name} exceeds {describe_cap(max_output)}"
    return None


@dataclass
class RepoCase:
    commands: list[str]
    stdin: str = ""


@dataclass
class RepoTiming:
    commands: list[str]
    setup: list[str] = field(default_factory=list)  # run by the evaluator, untimed


@dataclass
class Settings:
    build: str = ""
    reference_build: str | None = None  # default: the same as build
    build_timeout_s: float = 300.0
    command_timeout_s: float = 30.0
    fixtures: str = "tests/fixtures"
    cases_file: str = "tests/cases.toml"
    limits: dict[str, Any] = field(default_factory=dict)  # Policy fields set by the task
    doc: dict[str, Any] = field(default_factory=dict)  # the cases file as read


def configure(task: Task) -> None:
    problems: list[str] = []
    where = "task.toml [metadata.frontier.repository]"
    rep = task.scale_table()
    if task.cost not in COSTS:
        problems.append(f"task.toml [metadata.frontier].cost: '{task.cost}' cannot be measured "
                        "for commands (choose wall or cpu)")
    s = Settings(
        build=get(rep, "build", str, where, problems, default=""),
        reference_build=get(rep, "reference_build", str, where, problems),
        build_timeout_s=get(rep, "build_timeout_s", float, where, problems, default=300.0),
        command_timeout_s=get(rep, "command_timeout_s", float, where, problems,
                              default=task.case_timeout_s),
        fixtures=get(rep, "fixtures", str, where, problems, default="tests/fixtures"),
        cases_file=get(rep, "cases", str, where, problems, default="tests/cases.toml"),
    )
    env = task.toml.get("environment", {})
    if isinstance(env, dict) and isinstance(env.get("memory_mb"), int):
        s.limits["memory_mb"] = env["memory_mb"]
    for key in ("nproc", "disk_mb", "file_size_mb", "open_files"):
        v = get(rep, key, int, where, problems)
        if v is not None:
            if v <= 0:
                problems.append(f"{where}.{key}: must be a positive integer")
            else:
                s.limits[key] = v
    extra = rep.get("syscalls", [])
    if not isinstance(extra, list):
        problems.append(f"{where}.syscalls: a list of system call names")
    else:
        problems += [f"{where}.syscalls: {p}" for p in seccomp.check_extra(extra)]
        if not any(p.startswith(f"{where}.syscalls") for p in problems):
            s.limits["syscalls"] = list(extra)
    if not (task.path / s.fixtures).is_dir():
        problems.append(f"{s.fixtures}/: missing (the prepared working directory)")
    s.doc = read_toml(task.path / s.cases_file, s.cases_file, problems)
    if problems:
        raise TaskError(task.path, problems)
    task.settings = s


def cases(task: Task) -> list[Case]:
    s: Settings = task.settings
    problems: list[str] = []
    out: list[Case] = []
    seen: set[str] = set()
    raw_cases = s.doc.get("case", [])
    if not isinstance(raw_cases, list):
        raise TaskError(task.path, [f"{s.cases_file}: [[case]] must be an array of tables"])
    for i, raw in enumerate(raw_cases):
        where = f"{s.cases_file} case[{i}]"
        cid = raw.get("id") if isinstance(raw, dict) else None
        cmds = raw.get("commands") if isinstance(raw, dict) else None
        if not isinstance(cid, str) or not cid or "/" in cid or cid in seen:
            problems.append(f"{where}.id: missing, empty, duplicated or contains '/'")
            continue
        if not _strings(cmds) or not cmds:
            problems.append(f"{where}.commands: a non-empty list of strings (without NUL)")
            continue
        seen.add(cid)
        stdin = raw.get("stdin", "")
        if not isinstance(stdin, str):
            problems.append(f"{where}.stdin: expected str, got {type(stdin).__name__}")
            stdin = ""
        out.append(Case(cid, RepoCase(list(cmds), stdin),
                        check_covers(raw.get("covers"), where, problems)))
    if problems:
        raise TaskError(task.path, problems)
    return out


def _strings(raw: Any) -> bool:
    return isinstance(raw, list) and all(isinstance(c, str) and "\0" not in c for c in raw)


def timing_inputs(task: Task) -> list[TimingInput]:
    s: Settings = task.settings
    out = []
    problems: list[str] = []
    seen: set[str] = set()
    raw_inputs = s.doc.get("timing", [])
    if not isinstance(raw_inputs, list):
        raise TaskError(task.path, [f"{s.cases_file}: [[timing]] must be an array of tables"])
    for i, raw in enumerate(raw_inputs):
        where = f"{s.cases_file} timing[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) \
                or not _strings(raw.get("commands")) or not raw["commands"]:
            problems.append(f"{where}: needs 'id' and a non-empty list of 'commands' (strings)")
            continue
        if not raw["id"] or raw["id"] in seen:
            problems.append(f"{where}.id: '{raw['id']}' is empty or duplicated")
        seen.add(raw["id"])
        setup = raw.get("setup", [])
        if not _strings(setup):
            problems.append(f"{where}.setup: must be a list of strings")
            setup = []
        size = check_size(raw.get("size"), where, problems)
        out.append(TimingInput(raw["id"], RepoTiming(list(raw["commands"]), list(setup)), size))
    if problems:
        raise TaskError(task.path, problems)
    return out


def held_out(task: Task) -> list[Path]:
    s: Settings = task.settings
    fixtures = task.path / s.fixtures
    files = sorted(p for p in fixtures.rglob("*") if p.is_file())
    return [task.path / s.cases_file, *files]


def inspect(task: Task, candidate: Path) -> list[Finding]:
    # Any language, any structure: a whole program is judged by its behaviour.
    if not Path(candidate).is_dir():
        return [Finding(".", 0, "missing", f"candidate directory {candidate} does not exist")]
    return []


def item_rule(item_id: str, expected: Any, diff: list[str]) -> str:
    kind = item_id.rsplit("/", 1)[-1]
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
    return "wrong-value"


def validate(task: Task) -> list[str]:
    s: Settings = task.settings
    return [] if s.build else ["task.toml [metadata.frontier.repository].build: missing (the "
                               "candidate's build command)"]


def policy_for(task: Task) -> Policy:
    """The isolation limits of a task's sides: defaults, then the task's
    ([environment] memory_mb, [metadata.frontier.repository] nproc, disk_mb,
    file_size_mb, open_files); every command's timeout is set per call."""
    s: Settings = task.settings
    # A stream is one item: the backend keeps as much of it as the item cap.
    return Policy(**s.limits, timeout_s=s.command_timeout_s, max_output=task.max_item_bytes)


# --------------------------------------------------------------------- observing


def _text(data: bytes) -> str:
    # Bytes that are not UTF-8 survive as escapes, so they still compare exactly.
    return data.decode("utf-8", "surrogateescape")


def snapshot(root: Path, cap: int = MAX_SNAPSHOT_ENTRIES) -> dict[str, str]:
    """The state of a directory: relative path -> 'type mode size sha256'.
    Raises OutputCapExceeded past `cap` entries."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if len(out) + len(dirnames) + len(filenames) > cap:
            raise OutputCapExceeded(f"the case directory holds more than {cap:,} entries "
                                    "(the cap on files a side may leave)")
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


def _status(r: CommandResult) -> int | str:
    """The exit status as an item: the code, or how the command ended instead."""
    if r.timed_out:
        return "timed out"
    if r.signal:
        return f"signal {_core.signal_name(r.signal)}"
    return r.exit_code


class CommandSequenceSide(_core.Side):
    """One side of a timing input: each loop runs the command sequence in a
    fresh copy of the input's working directory (copied outside the timed
    region). The cost is the commands' own process wall (and CPU) time. Every
    timed run's outputs are checked against the reference's, so work moved
    out of the timed commands or cached across runs shows up as a failure."""

    def __init__(self, session: RepositorySession, side: str, workdir: Path,
                 commands: Sequence[str],
                 expected: list[tuple[int | str, bytes]] | None = None) -> None:
        super().__init__()
        self.session = session
        self.side = side
        self.workdir = workdir
        self.commands = list(commands)
        self.expected = expected

    def run_once(self) -> tuple[int, int, list[tuple[int | str, bytes]]]:
        b = self.session.backend
        b.fresh_copy(self.side, self.workdir, CASE_DIR)
        wall = cpu = 0
        seen: list[tuple[int | str, bytes]] = []
        for command in self.commands:
            r = self.session.run(self.side, command)
            if not r.ok or r.leftover:
                raise SideFailure(self.side, f"'{command}' {r.describe()} on a timed run: "
                                  + _text(r.stderr)[-300:])
            over = _caps(r, self.session.backend.policy.max_output)
            if over:
                raise SideFailure(self.side, f"'{command}' on a timed run: {over}")
            wall += r.wall_ns
            cpu += r.cpu_ns
            digest = hashlib.sha256(r.stdout).digest() + hashlib.sha256(r.stderr).digest()
            try:
                out_files = snapshot(b.area(self.side) / CASE_DIR)
            except OutputCapExceeded as exc:
                raise SideFailure(self.side, f"'{command}' on a timed run: {exc}") from None
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
                raise SideFailure(self.side, "a timed run's output differs from the "
                                  "reference's on the same input")
            batch.wall_ns += wall
            batch.cpu_ns += cpu
        return batch

    def suspend(self) -> None:
        self.session.backend.suspend(self.side)

    def resume(self) -> None:
        self.session.backend.resume(self.side)


class RepositorySession:
    """Both sides' programs, built in their private areas of an isolation
    backend (local or Docker), and their commands run there."""

    def __init__(self, task: Task, candidate: Path, *, isolation: str | None = None,
                 recording: bool = False) -> None:
        self.task = task
        self.settings: Settings = task.settings
        self.dirs = {"reference": task.reference_dir, "candidate": Path(candidate)}
        self.backend: Backend = open_backend(isolation or os.environ.get("FM_ISOLATION", "local"),
                                             policy_for(task))
        self.built: dict[str, Build] = {}
        try:
            self._check_started()
            if not recording:
                # Held-out data and golden outputs: closed to both sides while they run.
                self.backend.guard([task.tests_dir])
        except BaseException:
            self.backend.close()
            raise

    def _check_started(self) -> None:
        """Each side's sandbox (or container) runs a command that cannot fail
        before anything of the side is in it: one that cannot is a sandbox
        that could not be built, the evaluation's failure. Without this it
        would surface as the first case's command failing, a verdict on the
        candidate."""
        for side in SIDES:
            r = self.backend.run(side, ["/bin/true"], cwd="", timeout=START_LIMIT_S)
            if not r.ok:
                why = _text(r.stderr).strip().splitlines()[-3:]
                raise SideStartError(side, f"its sandbox cannot run /bin/true ({r.describe()})"
                                     + (": " + " | ".join(why) if why else ""))

    @property
    def violations(self) -> list[dict[str, Any]]:
        """System calls the candidate's commands were refused (off its
        allow-list): a compliance failure, whatever stage they came up in."""
        denied = getattr(self.backend, "denied", {}).get("candidate", [])
        return [{"event": "syscall", "rule": "a system call off the sides' allow-list "
                 "(isolation/seccomp.py; a task names what it needs beyond it)",
                 "args": name, "stack": [f"system call {name}"]} for name in denied]

    def run(self, side: str, command: str, *, cwd: str = CASE_DIR, stdin: bytes = b"",
            timeout: float | None = None) -> CommandResult:
        program = self.backend.side_path(side, PROGRAM)
        return self.backend.run(side, command, cwd=cwd, stdin=stdin,
                                timeout=timeout or self.settings.command_timeout_s,
                                path_prepend=[program], env={"PROGRAM_DIR": program})

    def build(self, side: str) -> Build:
        """A fresh copy of the side's source as its program, built by the task's
        build command; read-only to the side from then on (state kept next to
        the program would survive from one timed run to the next)."""
        s = self.settings
        command = s.reference_build if side == "reference" and s.reference_build is not None \
            else s.build
        self.backend.fresh_copy(side, self.dirs[side], PROGRAM)
        if not command:
            self.backend.seal(side, PROGRAM)
            b = Build(ok=True)
        else:
            r = self.backend.run(side, command, cwd=PROGRAM, timeout=s.build_timeout_s)
            self.backend.seal(side, PROGRAM)
            b = Build(ok=r.ok, command=command, status=r.describe(),
                      log=_text(r.stdout[-BUILD_LOG:] + r.stderr[-BUILD_LOG:]),
                      seconds=r.wall_ns / 1e9)
        self.built[side] = b
        return b

    def _ensure_built(self, side: str) -> None:
        if side not in self.built:
            self.build(side)
        if not self.built[side].ok:
            raise SideFailure(side, f"the build failed ({self.built[side].status}):\n"
                              + self.built[side].log[-2000:])

    def observe(self, side: str, cases: list[Case],
                keep: Callable[[str, Any], Any] | None = None) -> Observation:
        """Run every case's commands on a side. Each command's items go
        through `keep` as soon as it has ended (Observation), so a side's
        outputs are never all held at once; a stream past the task's item cap
        (the backend keeps no more of it) is an "output-cap" problem naming
        the item, and is not compared."""
        self._ensure_built(side)
        obs = Observation(keep=keep)
        timeouts = 0
        fixtures = self.task.path / self.settings.fixtures
        cap = self.backend.policy.max_output
        for case in cases:
            if timeouts >= MAX_TIMEOUTS:
                obs.failures[case.id] = f"not run: {timeouts} commands of the {side} had timed out"
                continue
            rc: RepoCase = case.payload
            self.backend.fresh_copy(side, fixtures, CASE_DIR)
            for n, command in enumerate(rc.commands):
                r = self.run(side, command, stdin=rc.stdin.encode() if n == 0 else b"")
                key = f"{case.id}/{n}"
                obs.add(f"{key}/exit_code", _status(r))
                for name, data, over in (("stdout", r.stdout, r.stdout_truncated),
                                         ("stderr", r.stderr, r.stderr_truncated)):
                    if over:
                        why = f"exceeds {describe_cap(cap)}: more than {cap:,} bytes"
                        obs.add(f"{key}/{name}", {"$over-cap": why})
                        obs.problems.append(Problem(case.id, "output-cap", f"{key}/{name}: {why}"))
                    else:
                        obs.add(f"{key}/{name}", _text(data))
                # The result is still read below: what was compared is let go now.
                r.stdout = r.stderr = data = b""
                try:
                    obs.add(f"{key}/files", snapshot(self.backend.area(side) / CASE_DIR))
                except OutputCapExceeded as exc:
                    obs.add(f"{key}/files", {"$over-cap": str(exc)})
                    obs.problems.append(Problem(case.id, "output-cap", f"{key}: {exc}"))
                if r.timed_out:
                    timeouts += 1
                    obs.problems.append(Problem(case.id, "timeout", f"{key}: '{command}' timed "
                                                f"out after {self.settings.command_timeout_s:g} s"))
                if r.leftover:
                    names = getattr(self.backend, "last_leftover", [])
                    obs.problems.append(Problem(
                        case.id, "left-processes",
                        f"{key}: '{command}' left {r.leftover} process(es) running after it "
                        "ended (killed before the other side's turn)"
                        + (f": {', '.join(names)}" if names else "")))
        return obs

    # ---- timing
    def _prepare(self, t: TimingInput, dest: Path, timing_seed: int) -> None:
        """The input's working directory: the fixtures plus what `setup` makes
        (run by the evaluator, with the task's tests/ at hand as $TESTS and the
        input's seed as $FM_TIMING_SEED; only the data it makes reaches a side)."""
        shutil.copytree(self.task.path / self.settings.fixtures, dest, dirs_exist_ok=True)
        env = {**os.environ, "TESTS": str(self.task.tests_dir),
               "FM_TIMING_SEED": str(input_seed(timing_seed, t.id))}
        for cmd in t.payload.setup:
            r = subprocess.run(["/bin/sh", "-c", cmd], cwd=dest, env=env, capture_output=True)
            if r.returncode != 0:
                raise TaskError(self.task.path, [
                    f"{self.settings.cases_file} timing '{t.id}': setup '{cmd}' failed: "
                    f"{r.stderr.decode(errors='replace')[-400:]}"])
        os.chmod(dest, 0o755)

    def timing_digests(self, side: str, inputs: list[TimingInput]) -> dict[str, str]:
        self._ensure_built(side)
        out: dict[str, str] = {}
        with tempfile.TemporaryDirectory(prefix="fm-timing-") as staging:
            for t in inputs:
                work = Path(staging) / t.id
                self._prepare(t, work, RECORDING_SEED)
                seen = CommandSequenceSide(self, side, work, t.payload.commands).run_once()[2]
                out[t.id] = hashlib.sha256(repr(seen).encode()).hexdigest()[:32]
        return out

    def time(self, inputs: list[TimingInput], progress: Progress | None = None, *,
             seed: int | None = None) -> list[InputTiming]:
        from .. import perf  # numpy with it: loaded only when something is timed

        timing_seed = fresh_timing_seed() if seed is None else seed
        for side in SIDES:
            self._ensure_built(side)
        timing = self.task.timing
        rows: list[InputTiming] = []
        with tempfile.TemporaryDirectory(prefix="fm-timing-") as staging:
            for k, t in enumerate(inputs):
                if progress:
                    progress(f"timing {t.id}")
                work = Path(staging) / t.id
                self._prepare(t, work, timing_seed)  # one directory, copied for both sides
                started = time.perf_counter()
                ref = CommandSequenceSide(self, "reference", work, t.payload.commands)
                # The reference's own outputs on this input are what every
                # timed candidate run must reproduce.
                ref.expected = ref.run_once()[2]
                cand = CommandSequenceSide(self, "candidate", work, t.payload.commands,
                                           expected=ref.expected)

                @contextlib.contextmanager
                def same(_b: int, r: Any = ref, c: Any = cand) -> Iterator[tuple[Any, Any]]:
                    yield r, c

                plan = perf.Plan(pairs_per_block=timing.pairs_per_block,
                                 min_blocks=timing.min_blocks, max_blocks=timing.max_blocks,
                                 warmup=timing.warmup, precision=timing.precision,
                                 max_time=timing.max_time_s,
                                 max_time_cap=timing.max_time_cap_s, seed=k,
                                 decide_blocks=timing.decide_blocks)
                try:
                    cand.run_once()
                    collected, summary, warnings, _ = perf.run_blocks(
                        same, cost=self.task.cost, plan=plan, loops=1,
                        confidence=timing.confidence, threshold=self.task.threshold)
                except SideFailure as exc:
                    rows.append(InputTiming(
                        id=t.id, size=t.size, loops=1, summary={}, rounds=[],
                        reference_median=float("nan"), candidate_median=float("nan"),
                        elapsed_s=time.perf_counter() - started, error=exc.reason,
                        error_side=exc.side, extra={"commands": t.payload.commands}))
                    break
                records, ref_costs, cand_costs = perf.round_records(collected, self.task.cost)
                warnings.extend(perf.noise_warnings(ref_costs, cand_costs))
                rows.append(InputTiming(
                    id=t.id, size=t.size, loops=1, summary=summary.to_dict(), rounds=records,
                    reference_median=float(sorted(ref_costs)[len(ref_costs) // 2]),
                    candidate_median=float(sorted(cand_costs)[len(cand_costs) // 2]),
                    elapsed_s=time.perf_counter() - started, warnings=warnings,
                    outputs_checked=len(collected), extra={"commands": t.payload.commands}))
        return rows

    def describe(self) -> dict[str, Any]:
        return self.backend.describe()

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> RepositorySession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(task: Task, candidate: Path, *, isolation: str | None = None,
                 recording: bool = False) -> RepositorySession:
    return RepositorySession(task, candidate, isolation=isolation, recording=recording)
