"""The report's outline: which headings, texts, tables and figures appear, in
what order. Markdown and HTML walk the same outline, so they never drift apart."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from . import tables
from .figures import missing as figures_missing
from .model import Report

TITLE = "frontier-measure report"


@dataclass(frozen=True)
class Block:
    kind: str  # title | heading | text | table | figure
    text: str = ""
    level: int = 1
    table: tables.Table | None = None
    figure: str = ""  # figure stem, for kind == "figure"


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def overview(report: Report) -> str:
    atts = report.attempts
    parts = [f"{plural(len(atts), 'attempt')} of {plural(len(report.tasks), 'task')}"]
    if report.scales:
        parts.append("scales: " + ", ".join(report.scales))
    period = report.period
    if period:
        parts.append(f"started {period[0]}" if period[0] == period[1]
                     else f"started {period[0]} to {period[1]}")
    if report.skipped:
        parts.append(f"{plural(len(report.skipped), 'file')} skipped (see Skipped files)")
    return " · ".join(parts) + "."


def blocks(report: Report, figures: Mapping[str, str]) -> Iterator[Block]:
    yield Block("title", TITLE)
    yield Block("text", overview(report))
    why = figures_missing()
    if why and report.tasks:
        yield Block("text", f"No figures: {why}.")
    if not report.tasks:
        yield Block("text", "No usable results were given.")
    else:
        yield Block("heading", "Summary")
        yield Block("table", table=tables.summary(report))
        yield Block("heading", "Funnel")
        yield Block("table", table=tables.funnel(report))
        if "funnel" in figures:
            yield Block("figure", "Funnel of attempts and tasks", figure="funnel")
        for scale in report.scales:
            yield Block("heading", f"{scale.capitalize()} scale")
            t = tables.scale_tasks(report, scale)
            yield Block("heading", "Tasks", level=2)
            yield Block("table", table=t)
            yield Block("heading", "Attempts", level=2)
            yield Block("table", table=tables.scale_attempts(report, scale))
            yield Block("heading", "Speedup per timing input", level=2)
            stem = f"speedups-{scale}"
            if not report.timed_attempts(scale):
                yield Block("text", "No attempt at this scale was timed.")
                continue
            if stem in figures:
                yield Block("figure", f"{scale} scale: speedup per timing input", figure=stem)
            yield Block("table", table=tables.scale_inputs(report, scale))
        yield Block("heading", "How close functional failures came")
        if report.functional_failures():
            yield Block("table", table=tables.pass_rate_distribution(report))
            if "pass-rates" in figures:
                yield Block("figure", "Pass rates of functionally failing attempts",
                            figure="pass-rates")
            yield Block("heading", "Nearest misses", level=2)
            yield Block("table", table=tables.nearest_misses(report))
        else:
            yield Block("text", "No attempt failed its functional cases.")
    if report.skipped:
        yield Block("heading", "Skipped files")
        yield Block("text", "These files were given but could not be read as results; "
                            "nothing in this report comes from them.")
        yield Block("table", table=tables.skipped(report))
