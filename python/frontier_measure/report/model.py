"""Loading result.json files and aggregating them into tasks, attempts and counts.

A benchmark run is many tasks x several attempts. Each result.json is one
attempt of one task (see results.py for its schema); attempts are grouped by
(scale, task name). Everything downstream (tables, figures, files) reads the
`Report` built here and nothing else, so every number in every format comes
from one place.

Optional fields a harness may add to a result (none are required):
    "attempt": int   the attempt's number within its task (else: numbered 1..n in
                     the order of candidate path, then result file path)
    "label":   str   a short name for the attempt (else: the candidate directory's name)
    "steps":   int   how many agent steps the attempt took (also read from
                     "candidate": {"steps"}); shown only when some result has it
    "agent":   str   who made the candidate (also read from "candidate": {"agent"}); the
                     attempt is then shown as "agent: label"
(`frontier-measure eval --agent A --label L --attempt N` records them.)

A result Harbor's verifier wrote (<trial>/verifier/... in a Harbor job directory)
without an agent of its own takes the trial's agent from <trial>/config.json (or
the trial's result.json): "oracle", "nop" or the agent that ran, with the trial's
name as its label; an oracle trial counts as the oracle's attempt.

A result.json of another tool (Harbor writes some in its job directories) found
while searching a directory is left out quietly and only counted; one named
explicitly is listed as skipped, with the reason.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from .. import results

# Display order of the scales: smallest unit of code first.
SCALES = ("kernel", "module", "package", "repository")
RESULT_NAME = "result.json"

# How close a functionally failing attempt came: buckets of its per-item pass rate.
PASS_RATE_BUCKETS = ("<70%", "70–99%", ">99%")


@dataclass(frozen=True)
class Skipped:
    """A file given to the report that could not be used, and why."""

    path: str
    reason: str


@dataclass(frozen=True)
class InputSpeedup:
    """One timing input of one timed attempt."""

    id: str
    size: Any
    speedup: float | None
    ci_low: float | None
    ci_high: float | None
    lower_bound: float | None
    confidence: float | None
    verdict: str | None
    meets_threshold: bool | None
    rounds: int | None
    loops: int | None
    error: str | None

    @property
    def faster(self) -> bool:
        """Genuinely faster: the interval excludes 1 on the fast side. A deterministic
        cost (simulated cycles) may come without an interval; then the verdict decides."""
        if self.error is not None:
            return False
        if self.ci_low is None:
            return self.verdict == "faster"
        return self.ci_low > 1.0


@dataclass
class Attempt:
    source: str  # the result file, as the user named it (or as found under a directory)
    data: dict[str, Any]
    scale: str
    task: str
    threshold: float | None
    cost: str | None
    unit: str | None
    candidate: str
    is_oracle: bool
    label: str
    agent: str
    given_number: int | None
    steps: int | None
    compliant: bool
    inspected: bool  # compliance ran; False when the evaluation broke off before it
    functional_ran: bool
    passed: int | None
    total: int | None
    pass_rate: float | None
    functional: bool
    timed: bool
    speedup: float | None  # the worst input's, as the result states it
    worst_input: str | None
    perf_verdict: str | None
    faster: bool  # every timing input's interval excludes 1
    meets_threshold: bool
    strict: bool
    failure_stage: str | None
    failure_rule: str | None
    failure_reason: str | None
    inputs: list[InputSpeedup]
    failed_items: list[str]
    started_at: str | None
    number: int = 0  # assigned when grouped into its task

    @property
    def name(self) -> str:
        return f"{self.task} #{self.number}"

    @property
    def inconclusive(self) -> bool:
        """The timing was too noisy to decide the threshold: no verdict on the
        candidate, counted apart from failures (results.outcome)."""
        return (not self.strict and self.failure_stage == "performance"
                and self.failure_rule == results.INCONCLUSIVE)


@dataclass
class TaskResult:
    scale: str
    name: str
    threshold: float | None
    attempts: list[Attempt]

    @property
    def solved(self) -> bool:
        """At least one attempt behaves like the reference."""
        return any(a.functional for a in self.attempts)

    @property
    def strictly_solved(self) -> bool:
        return any(a.strict for a in self.attempts)

    @property
    def always_strictly_solved(self) -> bool:
        return bool(self.attempts) and all(a.strict for a in self.attempts)

    @property
    def best_speedup(self) -> float | None:
        """The best speedup among functional, timed attempts; None when there is none."""
        values = [a.speedup for a in self.attempts if a.functional and a.speedup is not None]
        return max(values) if values else None


@dataclass(frozen=True)
class Funnel:
    attempts: int
    compliant: int
    functional: int
    faster: int
    meets_threshold: int
    tasks: int
    solved: int
    strictly_solved: int
    always_strictly_solved: int


@dataclass(frozen=True)
class ScaleSummary:
    scale: str
    tasks: int
    attempts: int
    functional: int
    strict: int
    median_steps: float | None
    faster: int
    median_faster_speedup: float | None
    inconclusive: int = 0  # attempts the noise left undecided (not failures)

    @property
    def functional_rate(self) -> float | None:
        return self.functional / self.attempts if self.attempts else None

    @property
    def strict_rate(self) -> float | None:
        return self.strict / self.attempts if self.attempts else None


@dataclass
class Report:
    tasks: list[TaskResult]
    skipped: list[Skipped] = field(default_factory=list)
    foreign: int = 0  # other tools' result.json found under a directory, left out quietly
    untrusted: int = 0  # of the skipped: results whose seal does not verify on this account

    @property
    def attempts(self) -> list[Attempt]:
        return [a for t in self.tasks for a in t.attempts]

    @property
    def scales(self) -> list[str]:
        present = {t.scale for t in self.tasks}
        return [s for s in SCALES if s in present]

    def tasks_of(self, scale: str) -> list[TaskResult]:
        return [t for t in self.tasks if t.scale == scale]

    @property
    def has_steps(self) -> bool:
        return any(a.steps is not None for a in self.attempts)

    def funnel(self, scale: str | None = None) -> Funnel:
        tasks = self.tasks if scale is None else self.tasks_of(scale)
        atts = [a for t in tasks for a in t.attempts]
        # Each stage only runs when the one before passed, so the counts are
        # cumulative; counting them that way also keeps the funnel monotone for
        # results written by other tools.
        compliant = [a for a in atts if a.compliant]
        functional = [a for a in compliant if a.functional]
        faster = [a for a in functional if a.faster]
        meets = [a for a in faster if a.meets_threshold]
        return Funnel(
            attempts=len(atts), compliant=len(compliant), functional=len(functional),
            faster=len(faster), meets_threshold=len(meets),
            tasks=len(tasks), solved=sum(t.solved for t in tasks),
            strictly_solved=sum(t.strictly_solved for t in tasks),
            always_strictly_solved=sum(t.always_strictly_solved for t in tasks),
        )

    def summaries(self) -> list[ScaleSummary]:
        out = []
        for scale in self.scales:
            atts = [a for t in self.tasks_of(scale) for a in t.attempts]
            steps = [a.steps for a in atts if a.steps is not None]
            faster = [a.speedup for a in atts
                      if a.functional and a.faster and a.speedup is not None]
            out.append(ScaleSummary(
                scale=scale, tasks=len(self.tasks_of(scale)), attempts=len(atts),
                functional=sum(a.functional for a in atts), strict=sum(a.strict for a in atts),
                median_steps=float(statistics.median(steps)) if steps else None,
                faster=len(faster),
                median_faster_speedup=float(statistics.median(faster)) if faster else None,
                inconclusive=sum(a.inconclusive for a in atts),
            ))
        return out

    def functional_failures(self) -> list[Attempt]:
        """Attempts whose functionality ran and failed, nearest misses first."""
        fails = [a for a in self.attempts if a.functional_ran and not a.functional]
        return sorted(fails, key=lambda a: (-(a.pass_rate or 0.0), _scale_key(a.scale),
                                            a.task, a.number))

    def pass_rate_buckets(self, scale: str | None = None) -> dict[str, int]:
        counts = dict.fromkeys(PASS_RATE_BUCKETS, 0)
        for a in self.functional_failures():
            if scale is None or a.scale == scale:
                counts[bucket(a.pass_rate)] += 1
        return counts

    def timed_attempts(self, scale: str | None = None) -> list[Attempt]:
        return [a for a in self.attempts
                if a.timed and a.inputs and (scale is None or a.scale == scale)]

    @property
    def period(self) -> tuple[str, str] | None:
        """First and last start time found in the results (ISO strings sort by time)."""
        stamps = sorted(a.started_at for a in self.attempts if a.started_at)
        return (stamps[0], stamps[-1]) if stamps else None


def bucket(pass_rate: float | None) -> str:
    """The pass-rate bucket of a functionally failing attempt (no items counts as 0%)."""
    rate = pass_rate or 0.0
    if rate < 0.70:
        return PASS_RATE_BUCKETS[0]
    if rate <= 0.99:
        return PASS_RATE_BUCKETS[1]
    return PASS_RATE_BUCKETS[2]


def _scale_key(scale: str) -> int:
    return SCALES.index(scale) if scale in SCALES else len(SCALES)


# -- loading -----------------------------------------------------------------------------


def find_results(paths: Iterable[str | Path]) -> tuple[list[Path], list[Skipped]]:
    """Expand files and directories (searched recursively for result.json) into
    a sorted, de-duplicated list of files. Missing paths are reported, not fatal."""
    found: dict[Path, Path] = {}
    problems: list[Skipped] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            hits = sorted(p.rglob(RESULT_NAME))
            if not hits:
                problems.append(Skipped(str(p), f"no {RESULT_NAME} under this directory"))
            for h in hits:
                if h.is_file():
                    found.setdefault(h.resolve(), h)
        elif p.is_file():
            found.setdefault(p.resolve(), p)
        else:
            problems.append(Skipped(str(p), "no such file or directory"))
    return sorted(found.values(), key=str), problems


def _number(value: Any, kind: type = float) -> Any:
    """A JSON number as `kind`, or None for anything else (bools included)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return kind(value)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _input(d: dict[str, Any]) -> InputSpeedup:
    meets = d.get("meets_threshold")
    return InputSpeedup(
        id=str(d.get("id", "?")), size=d.get("size"),
        speedup=_number(d.get("speedup")), ci_low=_number(d.get("ci_low")),
        ci_high=_number(d.get("ci_high")), lower_bound=_number(d.get("lower_bound")),
        confidence=_number(d.get("confidence")), verdict=_text(d.get("verdict")),
        meets_threshold=meets if isinstance(meets, bool) else None,
        rounds=_number(d.get("rounds"), int), loops=_number(d.get("loops"), int),
        error=_text(d.get("error")) or None,
    )


def attempt_from(data: dict[str, Any], source: str) -> Attempt:
    """Read one validated result dict. Raises ValueError when a field the report
    needs is missing or of the wrong type."""
    task = data.get("task")
    if not isinstance(task, dict) or not isinstance(task.get("name"), str) or not task["name"]:
        raise ValueError("no task name (task.name)")
    scale = task.get("scale")
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r} (task.scale)")
    if not isinstance(data.get("strict_success"), bool):
        raise ValueError("no strict_success verdict")
    cand = _dict(data.get("candidate"))
    cand_path = _text(cand.get("path")) or ""
    fun = _dict(data.get("functional"))
    perf = _dict(data.get("performance"))
    failure = _dict(data.get("failure"))
    comp = _dict(data.get("compliance"))

    fun_ran = fun.get("ran") is True
    passed = _number(fun.get("passed"), int)
    total = _number(fun.get("total"), int)
    rate = _number(fun.get("pass_rate"))
    if rate is None and passed is not None and total:
        rate = passed / total
    # The evaluator's own verdict wins: a case can fail without a failing item (e.g. it
    # left processes running), and then the attempt is not functional.
    functional = (fun_ran and bool(total) and passed == total and fun.get("failed", 0) == 0
                  and _text(failure.get("stage")) != "functional")
    inputs = [_input(d) for d in _list(perf.get("inputs")) if isinstance(d, dict)]
    timed = perf.get("ran") is True
    items = _list(fun.get("items"))
    failed_items = [str(i.get("id")) for i in items
                    if isinstance(i, dict) and i.get("passed") is False]
    steps = _number(data.get("steps"), int)
    if steps is None:
        steps = _number(cand.get("steps"), int)
    label = _text(data.get("label")) or _text(cand.get("label")) or ""
    agent = _text(data.get("agent")) or _text(cand.get("agent")) or ""
    return Attempt(
        source=source, data=data, scale=scale, task=task["name"],
        threshold=_number(task.get("threshold")), cost=_text(task.get("cost")),
        unit=_text(perf.get("unit")), candidate=cand_path, is_oracle=cand.get("is_oracle") is True,
        label=label, agent=agent, given_number=_number(data.get("attempt"), int), steps=steps,
        compliant=comp.get("compliant") is True, inspected=isinstance(comp.get("compliant"), bool),
        functional_ran=fun_ran, passed=passed,
        total=total, pass_rate=rate, functional=functional, timed=timed,
        speedup=_number(perf.get("speedup")), worst_input=_text(perf.get("worst_input")),
        perf_verdict=_text(perf.get("verdict")),
        faster=timed and bool(inputs) and all(i.faster for i in inputs),
        meets_threshold=perf.get("meets_threshold") is True,
        strict=data["strict_success"],
        failure_stage=_text(failure.get("stage")), failure_rule=_text(failure.get("rule")),
        failure_reason=_text(failure.get("reason")), inputs=inputs,
        failed_items=failed_items, started_at=_text(data.get("started_at")),
    )


class Untrusted(ValueError):
    """A well-formed result whose seal or digests do not verify here."""


def read_attempt(path: Path, accept_unsealed: bool = False) -> Attempt:
    """Load and validate one result file; ValueError with a short reason if
    unusable, Untrusted if its seal does not verify (see results.verify) and
    `accept_unsealed` is not set."""
    try:
        data = results.load(path)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise ValueError(f"not valid JSON: {exc.msg} ({where})") from None
    except UnicodeDecodeError:
        raise ValueError("not a text file") from None
    except AttributeError:
        # results.load() expects an object at the top; a list or number is foreign.
        raise ValueError("not a frontier-measure result (top level is not an object)") from None
    except ValueError as exc:
        # results.load() prefixes the path; the report shows it already.
        raise ValueError(str(exc).removeprefix(f"{path}: ")) from None
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None
    why = results.verify(data)
    if why is not None and not accept_unsealed:
        raise Untrusted(f"untrusted: {why}")
    try:
        attempt = attempt_from(data, str(path))
    except (TypeError, KeyError, AttributeError) as exc:
        raise ValueError(f"malformed result ({type(exc).__name__}: {exc})") from None
    trial = harbor_trial(path)
    if trial is not None and not attempt.agent:
        attempt.agent, name = trial
        attempt.label = attempt.label or name
        attempt.is_oracle = attempt.is_oracle or attempt.agent == "oracle"
    return attempt


def harbor_trial(path: Path) -> tuple[str, str] | None:
    """The agent and the name of the Harbor trial whose verifier wrote `path`:
    Harbor keeps a trial as <trial>/verifier/ (the verifier's /logs/verifier)
    beside <trial>/config.json, whose agent.name is the agent that ran; the
    trial's result.json names it too (agent_info.name)."""
    for d in Path(path).absolute().parents:
        if d.name != "verifier":
            continue
        trial = d.parent
        for file, keys in (("config.json", ("agent", "name")),
                           ("result.json", ("agent_info", "name"))):
            try:
                value: Any = json.loads((trial / file).read_text())
            except (OSError, ValueError):
                continue
            for key in keys:
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, str) and value:
                return value, trial.name
        return None
    return None


def group(attempts: Sequence[Attempt]) -> list[TaskResult]:
    """Group attempts by (scale, task) and number them within their task."""
    by_task: dict[tuple[str, str], list[Attempt]] = {}
    for a in attempts:
        by_task.setdefault((a.scale, a.task), []).append(a)
    tasks = []
    order = sorted(by_task, key=lambda k: (_scale_key(k[0]), k[1]))
    for scale, name in order:
        atts = by_task[(scale, name)]
        atts.sort(key=lambda a: (a.given_number if a.given_number is not None else math.inf,
                                 a.candidate, a.source))
        given = [a.given_number for a in atts]
        # Keep the harness's numbers when every attempt has a distinct one.
        use_given = None not in given and len(set(given)) == len(given)
        for i, a in enumerate(atts, start=1):
            a.number = a.given_number if use_given and a.given_number is not None else i
        _label(atts)
        for a in atts:
            if a.agent and not a.label.startswith(f"{a.agent}: "):
                a.label = f"{a.agent}: {a.label}"
        thresholds = sorted({a.threshold for a in atts if a.threshold is not None})
        tasks.append(TaskResult(scale=scale, name=name,
                                threshold=thresholds[-1] if thresholds else None, attempts=atts))
    return tasks


def _label(attempts: Sequence[Attempt]) -> None:
    """Name unlabelled attempts by the shortest tail of their candidate paths that
    tells different candidates apart (the oracle's and the reference's
    directories are often both called "workspace"). Attempts of the very same
    directory share a name; their numbers tell them apart."""
    todo = [a for a in attempts if not a.label]
    paths = {PurePath(a.candidate).parts for a in todo}
    names: dict[tuple[str, ...], str] = {}
    for p in paths:
        depth = 1
        while depth < len(p) and any(q != p and q[-depth:] == p[-depth:] for q in paths):
            depth += 1
        names[p] = str(PurePath(*p[-depth:])) if p else "?"
    for a in todo:
        a.label = names[PurePath(a.candidate).parts]


def build(paths: Iterable[str | Path], accept_unsealed: bool = False) -> Report:
    """Read every result under `paths` into a Report; unusable files, and
    results that do not verify (unless `accept_unsealed`), are listed in
    `Report.skipped` with their reason."""
    files, skipped = find_results(paths)
    named = {Path(p).resolve() for p in paths if Path(p).is_file()}
    attempts = []
    foreign = untrusted = 0
    for f in files:
        try:
            attempts.append(read_attempt(f, accept_unsealed))
        except ValueError as exc:
            untrusted += isinstance(exc, Untrusted)
            if f.resolve() not in named and _is_foreign(f):
                foreign += 1
                continue
            skipped.append(Skipped(str(f), str(exc)))
    skipped.sort(key=lambda s: s.path)
    return Report(tasks=group(attempts), skipped=skipped, foreign=foreign, untrusted=untrusted)


def _is_foreign(path: Path) -> bool:
    """A well-formed JSON object that does not claim to be a frontier-measure result."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and not str(data.get("schema", "")).startswith("frontier-measure/")
