"""The report's figures, drawn with matplotlib and returned as SVG text.

The SVG must be byte-identical when drawn twice from the same results:
matplotlib's element ids are seeded by `svg.hashsalt`, and its metadata date
is dropped. Text stays text (`svg.fonttype = none`), which keeps the files
small and lets the browser render the labels crisply. Ids get a per-figure
prefix so several figures can sit inline in one HTML page without clashing.
"""

from __future__ import annotations

import io
import math
import re
from typing import Any, cast

from .model import PASS_RATE_BUCKETS, SCALES, Report

# Colour-blind-safe palette (Okabe–Ito).
GREEN, ORANGE, GREY, RED, BLUE = "#009E73", "#E69F00", "#8C8C8C", "#D55E00", "#0072B2"
PURPLE = "#CC79A7"
SCALE_COLOURS = dict(zip(SCALES, (BLUE, GREEN, ORANGE, PURPLE), strict=True))

_RC: dict[str, Any] = {
    "svg.hashsalt": "frontier-measure",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "legend.frameon": False,
}


def _svg(fig: Any, name: str) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", pad_inches=0.15,
                metadata={"Date": None, "Creator": "frontier-measure"})
    text = buf.getvalue()
    # Inline SVG in HTML needs no XML prolog or doctype.
    text = text[text.index("<svg"):]
    # The RDF metadata block says only "made by frontier-measure"; inline it is noise.
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    ids = re.findall(r'\bid="([^"]+)"', text)
    for old in sorted(set(ids), key=len, reverse=True):
        new = f"fig-{name}-{old}"
        text = text.replace(f'id="{old}"', f'id="{new}"')
        text = text.replace(f"url(#{old})", f"url(#{new})")
        text = text.replace(f'href="#{old}"', f'href="#{new}"')
    return text


def _figure(width: float, height: float) -> Any:
    # Figure without pyplot: no global figure registry, no backend selection.
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _rc() -> Any:
    import matplotlib

    return matplotlib.rc_context(cast(Any, _RC))


def funnel(report: Report) -> str:
    """Attempts and tasks through the stages, as horizontal bars."""
    f = report.funnel()
    attempt_stages = [("attempts", f.attempts), ("compliant", f.compliant),
                      ("functional", f.functional), ("genuinely faster", f.faster),
                      ("≥ threshold", f.meets_threshold)]
    task_stages = [("tasks", f.tasks), ("solved ≥ once", f.solved),
                   ("strictly solved ≥ once", f.strictly_solved),
                   ("strictly solved every time", f.always_strictly_solved)]
    with _rc():
        fig = _figure(9.0, 3.2)
        axes = fig.subplots(1, 2)
        for ax, stages, title, colour in ((axes[0], attempt_stages, "Attempts", BLUE),
                                          (axes[1], task_stages, "Tasks", GREEN)):
            labels = [s for s, _ in stages]
            values = [v for _, v in stages]
            base = max(values[0], 1)
            y = list(range(len(stages)))[::-1]
            ax.barh(y, values, color=[colour] + [colour] * (len(values) - 1), alpha=0.85,
                    height=0.65)
            ax.barh(y[:1], values[:1], color=GREY, height=0.65)
            for yi, v in zip(y, values, strict=True):
                ax.text(v + base * 0.02, yi, f"{v} ({v / base:.0%})" if values[0] else "0",
                        va="center", fontsize=9)
            ax.set_yticks(y, labels)
            ax.set_xlim(0, base * 1.3)
            ax.set_title(title)
            ax.tick_params(axis="y", length=0)
            ax.xaxis.set_major_locator(_integer_locator())
        return _svg(fig, "funnel")


def _integer_locator() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True, nbins=5)


def _ratio_label(x: float, _pos: Any = None) -> str:
    if x <= 0:
        return ""
    return f"{x:g}×" if x >= 0.1 else f"{x:.2g}×"


def speedups(report: Report, scale: str) -> str | None:
    """Per-input speedups with intervals of every timed attempt of a scale,
    each task's threshold drawn across its rows. None when nothing was timed."""
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    attempts = report.timed_attempts(scale)
    if not attempts:
        return None
    rows: list[tuple[str, Any, Any]] = []  # (label, attempt, input)
    for a in attempts:
        for i in a.inputs:
            rows.append((f"{a.task} #{a.number} · {i.id}", a, i))
    n = len(rows)
    values = [v for _, a, i in rows
              for v in (i.speedup, i.ci_low, i.ci_high, a.threshold) if v is not None and v > 0]
    lo = min(values + [1.0]) / 1.3
    hi = max(values + [1.0]) * 1.3
    with _rc():
        fig = _figure(9.0, 1.3 + 0.3 * n)
        ax = fig.subplots()
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(n - 0.4, -0.6)
        ax.axvline(1.0, color=GREY, linewidth=1, zorder=1)
        # Each task's threshold spans the rows of its attempts only: thresholds differ by task.
        start = 0
        for k in range(1, n + 1):
            if k == n or rows[k][1].task != rows[start][1].task:
                thr = rows[start][1].threshold
                if thr:
                    ax.vlines(thr, start - 0.45, k - 0.55, colors=RED, linestyles="dashed",
                              linewidth=1.3, zorder=2)
                if k < n:
                    ax.axhline(k - 0.5, color="#DDDDDD", linewidth=0.8, zorder=0)
                start = k
        for y, (_, _a, i) in enumerate(rows):
            if i.speedup is None or i.speedup <= 0:
                ax.text(lo * 1.05, y, "error" if i.error else "no estimate", va="center",
                        fontsize=8, color=RED)
                continue
            slower = i.error is None and i.ci_high is not None and i.ci_high < 1.0
            colour = (GREEN if i.meets_threshold else ORANGE if i.faster
                      else PURPLE if slower else GREY)
            if i.ci_low is not None and i.ci_high is not None:
                ax.hlines(y, i.ci_low, i.ci_high, colors=colour, linewidth=2.2, zorder=3)
            hollow = i.ci_low is None
            ax.plot([i.speedup], [y], marker="o", markersize=6, zorder=4,
                    color=colour, markerfacecolor="white" if hollow else colour)
        ax.set_yticks(range(n), [r[0] for r in rows], fontsize=8.5)
        ax.tick_params(axis="y", length=0)
        ticks = [t for t in _nice_ticks(lo, hi)]
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_major_formatter(FuncFormatter(_ratio_label))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.grid(axis="x", which="major", color="#EEEEEE", linewidth=0.8, zorder=0)
        ax.set_xlabel("speedup = reference cost / candidate cost "
                      "(log scale; bars: confidence interval)")
        handles = [
            Line2D([], [], color=GREEN, marker="o", linewidth=2.2, label="meets threshold"),
            Line2D([], [], color=ORANGE, marker="o", linewidth=2.2,
                   label="faster, below threshold"),
            Line2D([], [], color=GREY, marker="o", linewidth=2.2, label="indistinguishable"),
            Line2D([], [], color=PURPLE, marker="o", linewidth=2.2, label="slower"),
            Line2D([], [], color=RED, linestyle="dashed", linewidth=1.3, label="task threshold"),
        ]
        if any(i.ci_low is None and i.speedup for _, _a, i in rows):
            handles.append(Line2D([], [], color=GREY, marker="o", markerfacecolor="white",
                                  linestyle="none", label="no interval in the result"))
        fig.legend(handles=handles, loc="outside upper right", ncols=min(len(handles), 6),
                   fontsize=8.5)
        return _svg(fig, f"speedups-{scale}")


def _nice_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 ticks covering [lo, hi]; a few only, so the labels never collide."""
    def within(mantissas: tuple[float, ...]) -> list[float]:
        out = []
        for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
            for m in mantissas:
                t = float(f"{m * 10.0**e:.12g}")
                if lo <= t <= hi:
                    out.append(t)
        return out

    ticks = within((1, 2, 5))
    if len(ticks) < 4:  # a narrow range: denser ticks so every point can be read off
        ticks = within((1, 1.5, 2, 3, 5, 7))
    if len(ticks) > 9:  # a wide range: decades only
        ticks = within((1,))
    return ticks


def pass_rates(report: Report) -> str | None:
    """How close functional failures came: attempts per pass-rate bucket, by scale."""
    fails = report.functional_failures()
    if not fails:
        return None
    scales = [s for s in report.scales if any(a.scale == s for a in fails)]
    with _rc():
        fig = _figure(6.0, 3.0)
        ax = fig.subplots()
        bottom = [0] * len(PASS_RATE_BUCKETS)
        x = list(range(len(PASS_RATE_BUCKETS)))
        for s in scales:
            counts = report.pass_rate_buckets(s)
            heights = [counts[b] for b in PASS_RATE_BUCKETS]
            ax.bar(x, heights, bottom=bottom, color=SCALE_COLOURS.get(s, GREY), label=s, width=0.6)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        for xi, total in zip(x, bottom, strict=True):
            ax.text(xi, total, str(total), ha="center", va="bottom", fontsize=9)
        ax.set_xticks(x, [f"{b} of items" for b in PASS_RATE_BUCKETS])
        ax.set_ylim(0, max(bottom) * 1.2 + 0.5)
        ax.yaxis.set_major_locator(_integer_locator())
        ax.set_ylabel("functionally failing attempts")
        ax.set_title("How close functional failures came")
        ax.legend(loc="upper left", fontsize=8.5)
        return _svg(fig, "pass-rates")


def missing() -> str | None:
    """Why figures cannot be drawn here, or None when they can."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return ("figures need matplotlib, which is not installed "
                "(pip install 'frontier-measure[report]')")
    return None


def all_figures(report: Report) -> dict[str, str]:
    """Every figure of the report by file stem, in display order; none without
    matplotlib (tables, CSV and the bundle do not need it)."""
    out: dict[str, str] = {}
    if missing():
        return out
    if report.tasks:
        out["funnel"] = funnel(report)
    for s in report.scales:
        svg = speedups(report, s)
        if svg is not None:
            out[f"speedups-{s}"] = svg
    svg = pass_rates(report)
    if svg is not None:
        out["pass-rates"] = svg
    return out
