"""Per-scale runners: how one side is started, observed and costed.

Every runner offers the same two operations to the pipeline (evaluate.py):

    session = runner.open(task, candidate_dir)      # private copies, accounts, guards
    session.observe(side, cases) -> Observation     # canonical items per case
    session.time(inputs, progress) -> list[InputTiming]   # paired rounds per timing input
    session.close()

Compliance, comparison, statistics and results are shared by every scale; a new
scale (kernel, repository) adds a module here and registers it in `RUNNERS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

Progress = Callable[[str], None]


@dataclass
class Observation:
    """What one side produced on the functional cases."""

    items: dict[str, Any] = field(default_factory=dict)  # item id -> canonical value
    failures: dict[str, str] = field(default_factory=dict)  # case id -> why it produced nothing
    timing_digests: dict[str, str] = field(default_factory=dict)  # timing input -> digest


@dataclass
class InputTiming:
    """The paired comparison on one timing input."""

    id: str
    size: int | None
    loops: int
    summary: dict[str, Any]  # stats.Summary.to_dict()
    rounds: list[dict[str, Any]]  # every sample
    reference_median: float
    candidate_median: float
    elapsed_s: float
    warnings: list[str] = field(default_factory=list)
    error: str | None = None  # a violation found while timing (candidate fails)
    outputs_checked: int = 0  # timed calls whose output was compared with the reference's

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "size": self.size,
            "loops": self.loops,
            **{k: self.summary.get(k) for k in (
                "rounds", "speedup", "ci_low", "ci_high", "lower_bound", "verdict",
                "meets_threshold", "confidence", "half_width", "autocorrelation")},
            "reference_median": self.reference_median,
            "candidate_median": self.candidate_median,
            "elapsed_s": self.elapsed_s,
            "warnings": list(self.warnings) + list(self.summary.get("warnings", [])),
            "error": self.error,
            "outputs_checked": self.outputs_checked,
            "samples": self.rounds,
        }


class Session(Protocol):
    def observe(self, side: str, cases: list[Any]) -> Observation: ...
    def timing_digests(self, side: str, inputs: list[Any]) -> dict[str, str]: ...
    def time(self, inputs: list[Any], progress: Progress | None = None) -> list[InputTiming]: ...
    def describe(self) -> dict[str, Any]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Session: ...
    def __exit__(self, *exc: object) -> None: ...


RUNNERS = {
    "module": "frontier_measure.runners.module",
    "package": "frontier_measure.runners.module",
}


def open_session(task: Any, candidate_dir: Any, **options: Any) -> Session:
    """A session of the runner for the task's scale."""
    if task.scale not in RUNNERS:
        raise NotImplementedError(f"no runner for scale '{task.scale}' yet")
    mod = importlib.import_module(RUNNERS[task.scale])
    session: Session = mod.open_session(task, candidate_dir, **options)
    return session
