"""The benchmarks pages' figures, drawn from the measured figures in docs/data/*.csv.

The site's build calls draw_all() (docs/hooks/fm_docs.py) and serves each figure as
figures/NAME.svg; `python docs/figures.py OUTDIR` writes them as files, to look at one.
A figure is never typed in: change the CSV and the figure and its table follow.
"""

from __future__ import annotations

import csv
import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
_NUM = re.compile(r"[−-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def rows(name: str) -> list[dict[str, str]]:
    with (DATA / f"{name}.csv").open(newline="") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def numbers(text: str) -> list[float]:
    """Every number in a cell: '3.056x [2.92, 3.19]' -> [3.056, 2.92, 3.19]; '4,864' -> [4864]."""
    return [float(m.replace("−", "-").replace(",", "")) for m in _NUM.findall(text)]


def _name(cell: str) -> str:
    return cell.strip("`")


def _svg(fig: plt.Figure) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    # A fixed hash salt and no date: the same data draws the same bytes.
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    return buf.getvalue()


def bundled_oracles() -> bytes:
    data = rows("bundled_oracles")
    names = [_name(r["task"]) for r in data]
    speedup = [numbers(r["worst input speedup (threshold)"])[0] for r in data]
    threshold = [numbers(r["worst input speedup (threshold)"])[1] for r in data]
    fig, ax = plt.subplots(figsize=(8, 4))
    y = range(len(names))
    ax.barh(y, speedup, color="#4c72b0", label="oracle's speedup on its worst timing input")
    ax.scatter(threshold, y, marker="|", s=300, color="#c44e52", zorder=3, label="threshold")
    ax.set_yticks(list(y), names)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("speedup (reference / oracle), log scale")
    ax.legend(loc="lower right", fontsize=8)
    return _svg(fig)


def harness_overhead() -> bytes:
    data = rows("harness_overhead")
    fig, ax = plt.subplots(figsize=(6, 5))
    for r in data:
        ev = numbers(r["evaluator [95% CI]"])
        di = numbers(r["direct [95% CI]"])
        ax.errorbar(di[0], ev[0], xerr=[[di[0] - di[1]], [di[2] - di[0]]],
                    yerr=[[ev[0] - ev[1]], [ev[2] - ev[0]]], fmt="o", ms=4, color="#4c72b0",
                    ecolor="#8faad4", lw=1)
    lo, hi = 2, 200
    ax.plot([lo, hi], [lo, hi], color="#999", lw=1, ls="--", label="evaluator = direct")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("speedup timed directly (31 pairs of fresh processes)")
    ax.set_ylabel("speedup by the evaluator")
    ax.set_title("16 timing inputs of the bundled module and package tasks", fontsize=9)
    ax.legend(fontsize=8)
    return _svg(fig)


def suite_tasks() -> bytes:
    data = rows("suite_tasks")
    names, point, low, high, thr = [], [], [], [], []
    for r in data:
        nums = numbers(r["oracle speedup, worst input [95% CI]"])
        names.append(_name(r["task"]).removeprefix("suite/"))
        point.append(nums[0])
        has_ci = "[" in r["oracle speedup, worst input [95% CI]"]
        low.append(nums[0] - nums[1] if has_ci else 0)
        high.append(nums[2] - nums[0] if has_ci else 0)
        thr.append(numbers(r["threshold"])[0])
    fig, ax = plt.subplots(figsize=(8, 8))
    y = list(range(len(names)))
    ax.errorbar(point, y, xerr=[low, high], fmt="o", ms=4, color="#4c72b0",
                label="oracle, worst timing input [95% CI] (kernel: exact cycles)")
    ax.scatter(thr, y, marker="|", s=200, color="#c44e52", zorder=3, label="threshold")
    ax.set_yticks(y, names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("speedup (reference / oracle), log scale")
    ax.legend(loc="lower right", fontsize=8)
    return _svg(fig)


def isolation_overhead() -> bytes:
    data = rows("isolation_overhead")
    names = [re.sub(r"\*\*|\(bare [^)]*\)", "", r["way"]).strip() for r in data]
    per = [numbers(r["per command"])[0] for r in data]
    own = [numbers(r["the command's own wall"])[0] for r in data]
    fig, ax = plt.subplots(figsize=(8, 3.8))
    y = list(range(len(names)))
    ax.barh([v - 0.2 for v in y], per, height=0.4, color="#8faad4",
            label="per command, as the evaluator sees it")
    ax.barh([v + 0.2 for v in y], own, height=0.4, color="#4c72b0",
            label="the command's own wall time (what a round times)")
    ax.set_yticks(y, names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("ms per /bin/true, median, log scale")
    ax.legend(fontsize=8, loc="lower right")
    return _svg(fig)


def sim_speed() -> bytes:
    data = rows("sim_speed")
    names = [r["program"] for r in data]
    cols = [("MIPS, timing off", "#4c72b0"), ("MIPS, timing on", "#dd8452"),
            ("qemu-riscv64-static MIPS", "#999999")]
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.27
    for k, (col, colour) in enumerate(cols):
        vals = [numbers(r[col])[0] for r in data]
        ax.barh([i + (k - 1) * width for i in range(len(names))], vals, height=width,
                color=colour, label=col)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("million guest instructions per CPU second, log scale")
    ax.legend(fontsize=8, loc="lower right")
    return _svg(fig)


def retrieval() -> bytes:
    bm25 = {(r["chunker"], r["prompt mode"]): numbers(r["MRR"])[0] for r in rows("retrieval_bm25")}
    rerank = {(r["chunker"].split("+")[0], r["prompt mode"]): numbers(r["MRR"])[0]
              for r in rows("retrieval_rerank")}
    modes = ["descriptive", "base", "lazy"]
    series = [("ast, BM25", bm25, "ast", "#4c72b0"), ("naive, BM25", bm25, "naive", "#8faad4"),
              ("ast, BM25 + MiniLM re-rank", rerank, "ast", "#dd8452"),
              ("naive, BM25 + MiniLM re-rank", rerank, "naive", "#f0b98d")]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.2
    for k, (label, table, chunker, colour) in enumerate(series):
        ax.bar([i + (k - 1.5) * width for i in range(len(modes))],
               [table[(chunker, m)] for m in modes], width=width, color=colour, label=label)
    ax.set_xticks(range(len(modes)), [f"{m} statement" for m in modes])
    ax.set_ylabel("MRR over RefactorBench's 100 tasks")
    ax.legend(fontsize=7)
    return _svg(fig)


def ray_scaling() -> bytes:
    data = rows("ray_scaling")
    nodes = [numbers(r["worker nodes"])[0] for r in data]
    rate = [numbers(r["attempts/min"])[0] for r in data]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.plot(nodes, rate, "o-", color="#4c72b0")
    ax.set_xticks(nodes)
    ax.set_xlabel("worker nodes (all on one 2-vCPU machine)")
    ax.set_ylabel("attempts per minute")
    ax.set_ylim(0, max(rate) * 1.2)
    return _svg(fig)


def vs_tools() -> bytes:
    data = rows("vs_tools")
    tools = ["frontier-measure", "hyperfine", "pyperf --fast"]
    cases = list(dict.fromkeys(r["case"] for r in data))
    colours = {"frontier-measure": "#4c72b0", "hyperfine": "#dd8452", "pyperf --fast": "#999999"}
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.4))
    width = 0.27
    for k, tool in enumerate(tools):
        sel = {r["case"]: r for r in data if r["tool"] == tool}
        xs = [i + (k - 1) * width for i in range(len(cases))]
        a1.bar(xs, [numbers(sel[c]["median s to decide"])[0] for c in cases], width=width,
               color=colours[tool], label=tool)
        a2.bar(xs, [numbers(sel[c]["median error"])[0] for c in cases], width=width,
               color=colours[tool], label=tool)
    for ax, label in ((a1, "median seconds to decide"), (a2, "median error of the ratio, %")):
        ax.set_xticks(range(len(cases)), [c.split(" ")[0] for c in cases])
        ax.set_ylabel(label)
        ax.set_xlabel("true ratio")
    a1.legend(fontsize=8)
    return _svg(fig)


def budget_cap() -> bytes:
    data = rows("budget_cap")
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for procs, colour in (("0", "#4c72b0"), ("4", "#dd8452"), ("8", "#c44e52")):
        sel = [r for r in data if r["load processes"] == procs]
        t = [numbers(r["max_time"])[0] for r in sel]
        ax.plot(t, [numbers(r["max (elapsed − one block) / T"])[0] for r in sel], "o-",
                color=colour, label=f"{procs} load processes: max (elapsed − one block) / T")
        ax.plot(t, [numbers(r["median elapsed / T"])[0] for r in sel], "x:", color=colour,
                label=f"{procs}: median elapsed / T")
    ax.axhline(1.25, color="#999", ls="--", lw=1, label="the bound, 1.25")
    ax.set_xscale("log")
    ax.set_xlabel("max_time, s")
    ax.set_ylabel("elapsed / max_time")
    ax.legend(fontsize=6)
    return _svg(fig)


FIGURES: dict[str, Callable[[], bytes]] = {
    "bundled_oracles": bundled_oracles,
    "harness_overhead": harness_overhead,
    "suite_tasks": suite_tasks,
    "isolation_overhead": isolation_overhead,
    "sim_speed": sim_speed,
    "retrieval": retrieval,
    "ray_scaling": ray_scaling,
    "vs_tools": vs_tools,
    "budget_cap": budget_cap,
}


def draw_all() -> dict[str, bytes]:
    plt.rcParams["svg.hashsalt"] = "frontier-measure"
    return {name: draw() for name, draw in FIGURES.items()}


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "build/figures")
    out.mkdir(parents=True, exist_ok=True)
    for name, svg in draw_all().items():
        (out / f"{name}.svg").write_bytes(svg)
        print(out / f"{name}.svg")
