"""Per-scale runners: how one side is built, observed and costed.

The pipeline (evaluate.py), the recorder (record.py) and validation
(validate.py) are the same for every scale; only a runner differs. A runner is
a module `runners/<name>.py` registered in `RUNNERS`, offering:

    configure(task)                  read the scale's settings ([metadata.frontier.<scale>],
                                     tests/checklist.toml) into task.settings; TaskError
                                     naming file and field for anything wrong
    cases(task) -> [Case]            the held-out functional cases
    timing_inputs(task) -> [TimingInput]
    held_out(task) -> [Path]         files besides the reference that golden outputs
                                     depend on (harness, inputs, fixtures ...)
    inspect(task, candidate) -> [Finding]           compliance of the candidate's source
    open_session(task, candidate, *, isolation, recording) -> Session
    item_rule(item_id, expected, diff) -> str       what kind of functional failure an item is
    validate(task) -> [str]          problems only this scale can see

and a Session (a context manager) over private copies of both sides:

    build(side) -> Build             compile/build the side (a no-op for Python)
    observe(side, cases, keep=None) -> Observation   (each item through keep, see Observation)
    timing_digests(side, inputs) -> {input id: digest}  (timing inputs must be deterministic;
                                     made with RECORDING_SEED)
    time(inputs, progress, seed=None) -> [InputTiming]  paired rounds per timing input, on
                                     inputs made from `seed` (None: a fresh secret one)
    describe() -> dict               isolation and measurement facts for result.json
    violations -> [dict]             what the candidate's run-time compliance checks
                                     reported (an event, its rule, the stack); any is
                                     a compliance failure
    close()

Timing inputs are made by the task's public generators from a seed that
each evaluation draws afresh and keeps to itself until the verdict
(`fresh_timing_seed`, `input_seed`): an input learned in one evaluation, or
computed from the generator with a seed someone guessed, is not the input of
the next one. Both sides of an evaluation are timed on the same inputs.

A runner whose cost is not host time (kernel: simulated cycles) sets
`HOST_TIMED = False`: its performance stage takes no machine-wide measurement
lock (lock.py), since nothing else running can change its figures.

Adding a scale means adding one runner file.
"""

from __future__ import annotations

import hashlib
import importlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from .. import _core
from ..task import Task, TaskError
from ..task import load as load_task

Progress = Callable[[str], None]
SIDES = ("reference", "candidate")

RUNNERS = {
    "module": "frontier_measure.runners.module",
    "package": "frontier_measure.runners.module",
    "kernel": "frontier_measure.runners.kernel",
    "repository": "frontier_measure.runners.repository",
}


@dataclass
class Case:
    """One held-out functional case; `payload` is the runner's own (operations,
    a program's stdin, a command sequence)."""

    id: str
    payload: Any
    covers: list[str] = field(default_factory=list)


# The seed of the timing inputs `timing_digests` makes while recording: a
# public one, since the recording only shows that the inputs are deterministic.
RECORDING_SEED = 0


def fresh_timing_seed() -> int:
    """A new secret seed for one evaluation's timing inputs (63 bits: small
    enough for any generator that wants a machine integer)."""
    return secrets.randbits(63)


def input_seed(timing_seed: int, input_id: str) -> int:
    """The seed of one timing input in an evaluation drawn with `timing_seed`:
    each input of a task gets its own, so two inputs made by one generator are
    not the same data (nor one a prefix of the other)."""
    h = hashlib.sha256(f"{timing_seed}/{input_id}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> 1


@dataclass
class TimingInput:
    """One timing input; `payload` is the runner's own (a seeded input maker,
    a maker of a program's stdin, a command sequence with its setup)."""

    id: str
    payload: Any
    size: int | None = None


@dataclass
class Build:
    """A side built from its sources (or nothing to build)."""

    ok: bool = True
    command: str = ""
    status: str = ""
    log: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "command": self.command, "status": self.status,
                "log": self.log[-20000:], "seconds": self.seconds}


@dataclass
class Problem:
    """A side's misbehaviour beyond its items (a timeout, processes left running)."""

    case: str
    rule: str
    reason: str


@dataclass
class Observation:
    """What one side produced on the functional cases.

    With `keep` (observe(..., keep=...)), what is stored of each item is
    keep(item id, value), called as the item arrives: evaluate.py compares it
    with its golden value there and keeps the outcome (diff.checker), so the
    evaluator never holds more than one of a side's items at a time."""

    items: dict[str, Any] = field(default_factory=dict)  # item id -> value
    failures: dict[str, str] = field(default_factory=dict)  # case id -> why it produced nothing
    problems: list[Problem] = field(default_factory=list)
    keep: Callable[[str, Any], Any] | None = None

    def add(self, item_id: str, value: Any) -> None:
        self.items[item_id] = value if self.keep is None else self.keep(item_id, value)


class SideFailure(Exception):
    """A side failed in a way that is not an item: while timing (a wrong timed
    output, a crash) or while being built. Charged to the side it names: a
    candidate's is a verdict, a reference's means the evaluation itself failed."""

    def __init__(self, side: str, reason: str) -> None:
        self.side = side
        self.reason = reason
        super().__init__(f"{side}: {reason}")


class SideStartError(_core.IsolationError):
    """A side's process could not be started, or died before it answered a
    first request made before any of the side's code is loaded (the sandbox
    could not be built, the interpreter is not in its view, a package is
    missing). Nothing of the side had run, so it is the evaluation's failure,
    never a verdict on either side."""

    def __init__(self, side: str, reason: str) -> None:
        self.side = side
        self.reason = reason
        super().__init__(f"the {side}'s process did not start: {reason}")


@dataclass
class InputTiming:
    """The paired comparison on one timing input."""

    id: str
    size: int | None
    loops: int
    summary: dict[str, Any]  # stats.Summary.to_dict(), or the exact figures of a deterministic cost
    rounds: list[dict[str, Any]]  # every round
    reference_median: float
    candidate_median: float
    elapsed_s: float
    warnings: list[str] = field(default_factory=list)
    error: str | None = None  # a violation found while timing
    error_side: str | None = None  # whose violation it was
    # Where the violation counts: "performance" (it bought the timing), or
    # "functional" (the timed run's output is wrong: the candidate does not
    # do the task on this input), with its rule.
    error_stage: str = "performance"
    error_rule: str | None = None
    outputs_checked: int = 0  # timed calls whose output was compared with the reference's
    extra: dict[str, Any] = field(default_factory=dict)  # the runner's own figures

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "size": self.size,
            "loops": self.loops,
            **{k: self.summary.get(k) for k in (
                "rounds", "pairs", "blocks", "speedup", "ci_low", "ci_high", "lower_bound",
                "verdict", "meets_threshold", "confidence", "half_width", "autocorrelation")},
            "reference_median": self.reference_median,
            "candidate_median": self.candidate_median,
            "elapsed_s": self.elapsed_s,
            "warnings": list(self.warnings) + list(self.summary.get("warnings", [])),
            "error": self.error,
            "error_side": self.error_side,
            "error_stage": self.error_stage if self.error else None,
            "error_rule": self.error_rule if self.error else None,
            "outputs_checked": self.outputs_checked,
            **self.extra,
            "samples": self.rounds,
        }


class Session(Protocol):
    def build(self, side: str) -> Build: ...
    def observe(self, side: str, cases: list[Case],
                keep: Callable[[str, Any], Any] | None = None) -> Observation: ...
    def timing_digests(self, side: str, inputs: list[TimingInput]) -> dict[str, str]: ...
    def time(self, inputs: list[TimingInput], progress: Progress | None = None, *,
             seed: int | None = None) -> list[InputTiming]: ...
    def describe(self) -> dict[str, Any]: ...
    @property
    def violations(self) -> list[dict[str, Any]]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Session: ...
    def __exit__(self, *exc: object) -> None: ...


def runner_for(task: Task) -> ModuleType:
    """The runner module of a task's scale."""
    if task.scale not in RUNNERS:
        raise TaskError(task.path, [f"task.toml [metadata.frontier].scale: no runner for "
                                    f"scale '{task.scale}'"])
    return importlib.import_module(RUNNERS[task.scale])


def load(path: str | Path) -> tuple[Task, ModuleType]:
    """A task with its scale's settings read and checked, and its runner."""
    task = load_task(path)
    runner = runner_for(task)
    runner.configure(task)
    return task, runner
