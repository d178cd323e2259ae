"""Several comparisons in one `compare`: one reference against each candidate,
at each value of a parameter, each its own paired, interleaved measurement
(perf.compare, the same statistics as a single comparison).

Data model first: `document()` turns the comparisons into the file
`compare --json` writes (schema "frontier-measure/compare", version 2); the
terminal table, the Markdown and the CSV exports and the saved baselines are
all rendered from that document, never from live objects.

Why one measurement per candidate, and not all commands interleaved in one
schedule: the statistics are those of a pair (AB/BA rounds, blocks of pairs),
and each candidate then gets the reference's cost measured under the same
conditions as its own. A candidate is never compared with another candidate.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from . import _core, stats
from .perf import Comparison, Progress

SCHEMA = "frontier-measure/compare"
# 1: one comparison at the top level. 2: `commands` as given (a reference and
# its candidates), the parameter, and `comparisons`, one entry per
# measurement; an entry holds what a version 1 file held at its top level.
SCHEMA_VERSION = 2
PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_VALUES = 1000


class PlanError(ValueError):
    """A comparison plan that cannot be made (bad parameter, no candidate):
    an error in the command line, found before anything runs."""


# ---------------------------------------------------------------- parameters

@dataclass(frozen=True)
class Parameter:
    """A name substituted as {NAME} in the commands, and its values in order."""

    name: str
    values: tuple[str, ...]


def scan_values(low: str, high: str, step: str = "1") -> tuple[str, ...]:
    """low, low + step, ... up to high (inclusive), computed in decimal so that
    0.1 + 0.2 is written 0.3, every value to the places of the finer of MIN
    and the step: '1' '3' -> 1 2 3; '0.5' '1' '0.25' -> 0.50 0.75 1.00."""
    try:
        lo, hi, d = Decimal(low), Decimal(high), Decimal(step)
    except InvalidOperation:
        raise PlanError(f"a scan needs numbers: {low!r} {high!r} step {step!r}") from None
    if not (lo.is_finite() and hi.is_finite() and d.is_finite()):
        raise PlanError("a scan needs finite numbers")
    if d <= 0:
        raise PlanError(f"the step must be above 0 (got {step})")
    if lo > hi:
        raise PlanError(f"the scan's minimum {low} is above its maximum {high}")
    count = int((hi - lo) / d) + 1
    if count > MAX_VALUES:
        raise PlanError(f"the scan has {count} values; at most {MAX_VALUES}")
    return tuple(str(lo + k * d) for k in range(count))


def list_values(text: str) -> tuple[str, ...]:
    values = tuple(v.strip() for v in text.split(","))
    if not values or any(not v for v in values):
        raise PlanError(f"give the values separated by commas, none empty (got {text!r})")
    if len(values) > MAX_VALUES:
        raise PlanError(f"{len(values)} values; at most {MAX_VALUES}")
    return values


def parameter(name: str, values: Sequence[str]) -> Parameter:
    if not PARAMETER_NAME.fullmatch(name):
        raise PlanError(f"a parameter name is a word of letters, digits and _ (got {name!r})")
    return Parameter(name, tuple(values))


def substitute(command: str, param: Parameter | None, value: str | None) -> str:
    """The command at one value: every {NAME} replaced (other braces are the shell's)."""
    if param is None or value is None:
        return command
    return command.replace("{" + param.name + "}", value)


# ---------------------------------------------------------------- the plan

@dataclass(frozen=True)
class Job:
    """One comparison to measure: commands with the parameter's value put in."""

    reference: str
    candidate: str
    value: str | None = None  # of the plan's parameter


def plan(reference: str, candidates: Sequence[str], param: Parameter | None = None,
         hooks: Sequence[str | None] = ()) -> list[Job]:
    """For each value of the parameter (once without one), the reference
    against each candidate, both at that value. The parameter must appear in
    a command or in one of the `hooks` (setup, prepare, ...)."""
    if not candidates:
        raise PlanError("give a reference and at least one candidate")
    for c in (reference, *candidates):
        if not c.strip():
            raise PlanError("a command is empty")
    if param is not None and not any("{" + param.name + "}" in c
                                     for c in (reference, *candidates, *hooks) if c):
        raise PlanError(f"the parameter {{{param.name}}} appears in no command")
    values: Sequence[str | None] = param.values if param is not None else (None,)
    return [Job(substitute(reference, param, v), substitute(c, param, v), v)
            for v in values for c in candidates]


@dataclass
class Settings:
    """How every comparison of a run is made: compare()'s options, the shell
    commands run around the measurements, and the parameter. Saved with a
    baseline, so that a check measures the same way."""

    rounds: int | str = "auto"
    warmup: int = 2
    threshold: float | None = None
    cost: str = "wall"
    precision: float = 0.01
    max_time: float = 10.0
    timeout: float = 600.0
    shell: str | None = "/bin/sh"  # None: commands split into words, run directly
    seed: int = 0
    show_output: bool = False
    ignore_failure: bool = False  # a command's non-zero exit code is not an error
    prepare: str | None = None   # before every timed run, untimed
    conclude: str | None = None  # after every timed run, untimed
    setup: str | None = None     # once before each comparison
    cleanup: str | None = None   # once after each comparison
    parameter: Parameter | None = None

    def options(self) -> dict[str, Any]:
        """The JSON `options` of a compare document."""
        d = asdict(self)
        d["shell"] = self.shell or "none"
        d["parameter"] = (None if self.parameter is None else
                          {"name": self.parameter.name, "values": list(self.parameter.values)})
        return d

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Settings:
        known = {f for f in cls.__dataclass_fields__}
        d = {k: v for k, v in options.items() if k in known}
        d["shell"] = None if d.get("shell") == "none" else d.get("shell", "/bin/sh")
        p = d.get("parameter")
        d["parameter"] = None if p is None else Parameter(str(p["name"]),
                                                          tuple(str(v) for v in p["values"]))
        return cls(**d)

    def argv(self, command: str) -> str | list[str]:
        """A command as compare() takes it: /bin/sh is compare()'s own shell
        mode, another shell the same rule with SHELL (shellcmd.py), no shell
        splits it into words."""
        if self.shell == "/bin/sh":
            return command
        if self.shell is None:
            return shlex.split(command)
        from .shellcmd import argv

        return argv(command, self.shell)


def run_untimed(what: str, command: str, settings: Settings) -> None:
    """A --setup or --cleanup command: run once, not measured; its failure
    ends the work (MeasureError: exit status 3 in the CLI)."""
    argv = settings.argv(command)
    args = ["/bin/sh", "-c", argv] if isinstance(argv, str) else argv
    try:
        r = subprocess.run(args, capture_output=not settings.show_output, timeout=settings.timeout,
                           start_new_session=True)
    except FileNotFoundError:
        raise _core.MeasureError(f"{what} command not found: {command!r}") from None
    except subprocess.TimeoutExpired:
        raise _core.MeasureError(f"{what} command timed out after {settings.timeout:g} s: "
                                 f"{command!r}") from None
    if r.returncode != 0:
        tail = (r.stderr or b"").decode(errors="replace").strip()[-400:]
        how = f"exit code {r.returncode}" if r.returncode > 0 else f"signal {-r.returncode}"
        raise _core.MeasureError(f"{what} command failed ({how}): {command!r}"
                                 + (f"; stderr: {tail}" if tail else ""))


@dataclass
class Measured:
    job: Job
    result: Comparison
    check: dict[str, Any] | None = field(default=None)


def run(jobs: Sequence[Job], settings: Settings,
        progress: Callable[[int, Job], Progress | None] | None = None) -> list[Measured]:
    """Measure every job in turn: setup, the paired comparison (prepare and
    conclude around each timed run), cleanup. `progress(k, job)` may give a
    round counter for job k.

    Without --setup every command is looked up first, so a candidate that
    cannot be found is named before the first comparison spends its rounds
    (a setup may build the programs it would look for)."""
    from .perf import compare, make_side

    param = settings.parameter

    def hook(command: str | None, job: Job) -> str | None:
        return None if command is None else substitute(command, param, job.value)

    def around(job: Job) -> tuple[str | list[str] | None, str | list[str] | None]:
        """The job's prepare and conclude commands, as the sides run them."""
        prepare, conclude = hook(settings.prepare, job), hook(settings.conclude, job)
        return (None if prepare is None else settings.argv(prepare),
                None if conclude is None else settings.argv(conclude))

    if settings.setup is None:
        for job in jobs:
            prepare, conclude = around(job)
            for side, command in (("reference", job.reference), ("candidate", job.candidate)):
                make_side(settings.argv(command), name=side, shell=settings.shell == "/bin/sh",
                          prepare=prepare, conclude=conclude)
    out: list[Measured] = []
    for k, job in enumerate(jobs):
        setup, cleanup = hook(settings.setup, job), hook(settings.cleanup, job)
        prepare, conclude = around(job)
        if setup:
            run_untimed("setup", setup, settings)
        try:
            result = compare(
                settings.argv(job.reference), settings.argv(job.candidate),
                rounds=settings.rounds,  # type: ignore[arg-type]
                warmup=settings.warmup, threshold=settings.threshold,
                cost=settings.cost,  # type: ignore[arg-type]
                precision=settings.precision, max_time=settings.max_time,
                timeout=settings.timeout, shell=settings.shell == "/bin/sh", seed=settings.seed,
                show_output=settings.show_output, prepare=prepare, conclude=conclude,
                ignore_failure=settings.ignore_failure,
                progress=None if progress is None else progress(k, job))
        except BaseException:
            if cleanup:
                # The measurement's own error is the one to report.
                with contextlib.suppress(_core.MeasureError):
                    run_untimed("cleanup", cleanup, settings)
            raise
        if cleanup:
            run_untimed("cleanup", cleanup, settings)
        out.append(Measured(job, result))
    return out


# ---------------------------------------------------------------- the document

def document(measured: Sequence[Measured], reference: str, candidates: Sequence[str],
             settings: Settings, baseline: dict[str, Any] | None = None) -> dict[str, Any]:
    """What `compare --json` writes (and a saved baseline holds): the schema and
    its version, the version of frontier-measure, the commands as given, every
    option, then one entry per comparison (its commands with the parameter's
    value put in, rounds, summary, environment). JSON Schema:
    frontier_measure/schemas/compare.schema.json."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("frontier-measure")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        ours = "unknown"
    param = settings.parameter
    entries = []
    for m in measured:
        entry: dict[str, Any] = {
            "commands": {"reference": m.job.reference, "candidate": m.job.candidate},
            "parameter": None if param is None else {"name": param.name, "value": m.job.value},
            **m.result.to_dict()}
        if m.check is not None:
            entry["check"] = m.check
        entries.append(entry)
    doc: dict[str, Any] = {
        "schema": SCHEMA, "schema_version": SCHEMA_VERSION, "frontier_measure_version": ours,
        "commands": {"reference": reference, "candidates": list(candidates)},
        "options": settings.options(), "comparisons": entries}
    if baseline is not None:
        doc["baseline"] = baseline
    return doc


def failed_threshold(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The comparisons whose --threshold was not met."""
    return [c for c in doc["comparisons"]
            if c["summary"]["threshold"] is not None and not c["summary"]["meets_threshold"]]


def undecided(missed: Sequence[dict[str, Any]]) -> bool:
    """Whether every missed threshold was left open by the noise (no interval,
    or one still reaching above it: perf.undecided), not shown to be missed."""
    def open_(c: dict[str, Any]) -> bool:
        s = c["summary"]
        return s["ci_high"] is None or s["ci_high"] > s["threshold"]

    return bool(missed) and all(open_(c) for c in missed)


# ---------------------------------------------------------------- exports

# One row per comparison; the columns of the CSV export, in order.
COLUMNS = ("reference", "candidate", "parameter", "value", "speedup", "ci_low", "ci_high",
           "confidence", "lower_bound", "verdict", "threshold", "meets_threshold", "rounds",
           "blocks", "loops", "cost", "unit", "reference_median", "candidate_median",
           "max_slowdown", "check_passed")


def rows(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The per-comparison summary of a compare document, flat."""
    out = []
    for c in doc["comparisons"]:
        s = c["summary"]
        p = c.get("parameter") or {}
        check = c.get("check") or {}
        out.append({
            "reference": c["commands"]["reference"], "candidate": c["commands"]["candidate"],
            "parameter": p.get("name"), "value": p.get("value"),
            "speedup": s["speedup"], "ci_low": s["ci_low"], "ci_high": s["ci_high"],
            "confidence": s["confidence"], "lower_bound": s.get("lower_bound"),
            "verdict": s["verdict"], "threshold": s.get("threshold"),
            "meets_threshold": s.get("meets_threshold"), "rounds": s.get("rounds"),
            "blocks": s.get("blocks"), "loops": c["loops"], "cost": c["cost"], "unit": c["unit"],
            "reference_median": c["reference_median"], "candidate_median": c["candidate_median"],
            "max_slowdown": check.get("max_slowdown"), "check_passed": check.get("passed"),
        })
    return out


def to_csv(doc: dict[str, Any]) -> str:
    """One line per comparison; costs per run in the cost's unit (ns for wall
    and cpu), empty cells for what does not apply."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows(doc):
        w.writerow({k: "" if v is None else v for k, v in r.items()})
    return buf.getvalue()


def to_markdown(doc: dict[str, Any]) -> str:
    """A Markdown table, one row per comparison, as `compare` prints it."""
    from .display import human, ratio

    rs = rows(doc)
    param = (doc.get("options") or {}).get("parameter")
    threshold = (doc.get("options") or {}).get("threshold")
    checking = any(r["max_slowdown"] is not None for r in rs)
    conf = rs[0]["confidence"] if rs else 0.95
    head = ["reference", "candidate", *([f"`{{{param['name']}}}`"] if param else []),
            "speedup", f"{conf:.0%} interval", "verdict",
            *([f"at least {threshold:g}x"] if threshold is not None else []),
            *(["check"] if checking else []),
            "rounds", "reference median", "candidate median"]
    align = ["---", "---", *(["---:"] if param else []), "---:", ":---:", "---",
             *(["---"] if threshold is not None else []), *(["---"] if checking else []),
             "---:", "---:", "---:"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    for r in rs:
        cells = [_code(r["reference"]), _code(r["candidate"]),
                 *([_cell(r["value"])] if param else []),
                 ratio(r["speedup"]), f"{ratio(r['ci_low'])} .. {ratio(r['ci_high'])}",
                 r["verdict"],
                 *(["yes" if r["meets_threshold"] else "no"] if threshold is not None else []),
                 *([_check_cell(r)] if checking else []),
                 str(r["rounds"]), human(r["reference_median"], r["unit"]),
                 human(r["candidate_median"], r["unit"])]
        lines.append("| " + " | ".join(cells) + " |")
    unit = rs[0]["cost"] if rs else "wall"
    lines += ["", f"Speedup = reference {unit} cost / candidate {unit} cost per run, paired "
              "interleaved rounds; medians per run."]
    return "\n".join(lines) + "\n"


def _check_cell(r: dict[str, Any]) -> str:
    if r["max_slowdown"] is None:
        return ""
    return f"{'passed' if r['check_passed'] else 'FAILED'} (max slowdown {r['max_slowdown']:g}x)"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def _code(text: str) -> str:
    """A command as inline code: a backtick run longer than any inside it."""
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    # GitHub's tables split cells at | even inside code; \| is its escape there.
    return f"{ticks}{pad}{text.replace('|', chr(92) + '|')}{pad}{ticks}"


def verdict_of_check(result: Comparison, max_slowdown: float) -> dict[str, Any]:
    """A check passes when the data show the candidate at most `max_slowdown`
    times slower than the reference: the one-sided lower bound of
    reference/candidate exceeds 1/max_slowdown (the margin test of
    --threshold, with the burden of proof on the candidate)."""
    lb = result.summary.lower_bound
    return {"max_slowdown": max_slowdown,
            "slowdown_bound": None if not lb else 1.0 / lb,
            "passed": stats.exceeds(lb, 1.0 / max_slowdown)}
