"""Reports over many tasks and attempts, rendered from result.json files only.

    report = build(["runs/"])                  # load, validate, group, count
    write(report, "out/", formats=FORMATS)     # report.md + figures/, report.html,
                                               # attempts.csv, inputs.csv, report.zip

Modules: `model` (loading and aggregation), `tables` and `figures` (what is
shown), `sections` (in what order), `markdown`, `html`, `csvfiles`, `bundle`
(the formats). Rendering twice from the same results gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from . import bundle, csvfiles, figures, html, markdown
from .model import Report, Skipped, build

__all__ = ["FORMATS", "Report", "Skipped", "build", "render", "write"]

FORMATS = ("md", "html", "csv", "zip")


def render(report: Report) -> dict[str, bytes]:
    """Every report file by its relative path, as bytes (zip excluded)."""
    figs = figures.all_figures(report)
    files = {
        "report.md": markdown.render(report, figs),
        "report.html": html.render(report, figs),
        "attempts.csv": csvfiles.attempts(report),
        "inputs.csv": csvfiles.inputs(report),
    }
    files.update({f"figures/{stem}.svg": svg for stem, svg in figs.items()})
    return {name: text.encode("utf-8") for name, text in files.items()}


def _wanted(name: str, formats: Iterable[str]) -> bool:
    fmts = set(formats)
    if name.startswith("figures/") or name.endswith(".md"):
        return "md" in fmts
    if name.endswith(".html"):
        return "html" in fmts
    return name.endswith(".csv") and "csv" in fmts


def write(report: Report, out: str | Path, formats: Iterable[str] = FORMATS) -> list[Path]:
    """Write the chosen formats under `out`; returns the files written, sorted."""
    formats = list(formats)
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        raise ValueError(f"unknown report format(s): {', '.join(unknown)} "
                         f"(choose from {', '.join(FORMATS)})")
    out = Path(out)
    files = render(report)
    written = []
    for name, data in sorted(files.items()):
        if _wanted(name, formats):
            path = out / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    if "zip" in formats:
        path = out / "report.zip"
        out.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bundle.build(files, report))
        written.append(path)
    return sorted(written)


def counts(report: Report) -> str:
    """'14 attempts of 6 tasks; 1 file skipped'"""
    from .sections import plural

    return (f"{plural(len(report.attempts), 'attempt')} of {plural(len(report.tasks), 'task')}; "
            f"{plural(len(report.skipped), 'file')} skipped"
            + (f"; {report.foreign} result.json of other tools ignored"
               if report.foreign else ""))


def console(report: Report, skipped: bool = True) -> str:
    """A few lines for the terminal: what was read and the funnel."""
    from .. import display
    from . import tables

    lines = []
    for s in report.skipped if skipped else []:
        lines.append(f"skipped {s.path}: {s.reason}")
    if report.tasks:
        t = tables.funnel(report)
        lines += ["", display.table(t.flat_headers, t.rows)]
    return "\n".join(lines).strip("\n")
