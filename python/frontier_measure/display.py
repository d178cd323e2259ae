"""Plain-text rendering of results for the terminal. Rendering only: every
function takes data and returns a string."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str | None = None) -> str:
    cells = [[str(h) for h in headers]] + [[_cell(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    align = align or "l" + "r" * (len(headers) - 1)
    out = []
    for n, row in enumerate(cells):
        parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, align, strict=False)]
        out.append("  ".join(parts).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def human(value: float, unit: str) -> str:
    if unit == "ns":
        for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
            if abs(value) >= scale:
                return f"{value / scale:.4g} {name}"
        return f"{value:.4g} ns"
    if abs(value) >= 1e6:
        return f"{value / 1e6:.4g} M{unit}"
    return f"{value:.4g} {unit}"


def ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}x"


def comparison(result: Any) -> str:
    """The compare table: speedup, interval, verdict, medians, counters."""
    s = result.summary
    lines = [
        table(
            ["", "value"],
            [
                ["speedup (reference/candidate)", ratio(s.speedup)],
                [f"{s.confidence:.0%} interval", f"{ratio(s.ci_low)} .. {ratio(s.ci_high)}"],
                ["verdict", s.verdict],
                *(
                    [[f"at least {s.threshold:g}x (one-sided bound {ratio(s.lower_bound)})",
                      "yes" if s.meets_threshold else "no"]]
                    if s.threshold is not None
                    else []
                ),
                ["rounds x loops", f"{s.rounds} x {result.loops}"],
                ["cost", result.cost],
            ],
            "lr",
        ),
        "",
        table(
            ["side", f"median {result.cost} per loop"],
            [
                ["reference", human(result.reference_median, result.unit)],
                ["candidate", human(result.candidate_median, result.unit)],
            ],
        ),
    ]
    if result.counters:
        rows = []
        for name, vals in result.counters.items():
            if "unavailable" in vals and "reference" not in vals:
                rows.append([name, "-", "-", f"unavailable: {vals['unavailable']}"])
            else:
                rows.append([name, f"{vals.get('reference', 0):.4g}", f"{vals.get('candidate', 0):.4g}", ""])
        lines += ["", table(["counter (per loop)", "reference", "candidate", "note"], rows, "lrrl")]
    lines += ["", measured_on(result.environment)]
    if result.warnings:
        lines += ["", *[f"warning: {w}" for w in result.warnings]]
    return "\n".join(lines)


def measured_on(env: dict[str, Any]) -> str:
    """One line saying where a number was measured (the full record is in the JSON)."""
    clk = env["clock"]
    hw = [c["name"] for c in env.get("counters", []) if c["available"]]
    load = ", ".join(f"{x:.2f}" for x in env["load_average"])
    return (f"measured on: {env['cpu_model']}, {env['cpus_online']} CPUs, clocksource {clk['source']} "
            f"(read {clk['read_overhead_ns']:.0f} ns), counters: {', '.join(hw) or 'none'}, "
            f"load {load}, Linux {env['kernel']}")


def environment(env: dict[str, Any]) -> str:
    clk = env["clock"]
    caps = env["capabilities"]
    rows = [
        ["cpu", env["cpu_model"]],
        ["cpus online / allowed", f"{env['cpus_online']} / {caps.get('cpus_allowed')}"],
        ["kernel", env["kernel"]],
        ["python", env["python"]],
        ["clocksource", f"{clk['source']} (available: {clk['available']})"],
        ["clock resolution",
         f"{clk['resolution_ns']:.0f} ns (reported {clk['reported_resolution_ns']:.0f} ns)"],
        ["clock read overhead", f"{clk['read_overhead_ns']:.1f} ns"],
        ["governor", env["governor"] or "n/a"],
        ["ASLR", env["aslr"]],
        ["perf_event_paranoid", env["perf_event_paranoid"]],
        ["can pin CPUs", _yes(caps["pin_cpus"])],
        ["can switch users", _yes(caps["switch_users"]) + _why(caps.get("switch_users_reason"))],
        ["can limit processes", _yes(caps["limit_processes"]) + _why(caps.get("limit_processes_note"))],
    ]
    out = [table(["environment", ""], rows, "ll")]
    if "counters" in env:
        crow = [[c["name"], "yes" if c["available"] else "no", c["reason"] or ""] for c in env["counters"]]
        out += ["", table(["counter", "available", "why not"], crow, "lll")]
    if clk.get("warning"):
        out += ["", f"warning: {clk['warning']}"]
    return "\n".join(out)


def _yes(b: object) -> str:
    return "yes" if b else "no"


def _why(reason: object) -> str:
    return f" ({reason})" if reason else ""


def comparison_rows(doc: dict[str, Any], width: int = 40) -> str:
    """Several comparisons of one compare document: one row each (the
    reference is named once above the table), then their warnings."""
    comps = doc["comparisons"]
    param = doc["options"].get("parameter")
    threshold = doc["options"].get("threshold")
    checking = any(c.get("check") for c in comps)
    conf = comps[0]["summary"]["confidence"] if comps else 0.95
    cost = comps[0]["cost"] if comps else "wall"
    headers = ["candidate", *([f"{{{param['name']}}}"] if param else []), "speedup",
               f"{conf:.0%} interval", "verdict", *([f"at least {threshold:g}x"] if threshold else []),
               *(["check"] if checking else []), "rounds", "reference", "candidate"]
    rows = []
    for c in comps:
        s = c["summary"]
        check = c.get("check")
        rows.append([
            _cut(c["commands"]["candidate"], width),
            *([c["parameter"]["value"]] if param else []),
            ratio(s["speedup"]), f"{ratio(s['ci_low'])} .. {ratio(s['ci_high'])}", s["verdict"],
            *(["yes" if s["meets_threshold"] else "no"] if threshold else []),
            *([("passed" if check["passed"] else "FAILED") if check else ""] if checking else []),
            s["rounds"], human(c["reference_median"], c["unit"]),
            human(c["candidate_median"], c["unit"])])
    align = "l" + ("r" if param else "") + "rrl" + ("l" if threshold else "") + \
        ("l" if checking else "") + "rrr"
    lines = [f"reference: {doc['commands']['reference']}",
             f"speedup = reference/candidate, median {cost} per run in the last two columns", "",
             table(headers, rows, align)]
    warned = [(c, w) for c in comps for w in c["warnings"]]
    if comps:
        lines += ["", measured_on(comps[-1]["environment"])]
    if warned:
        lines += [""] + [f"warning ({_cut(c['commands']['candidate'], width)}"
                         + (f", {{{param['name']}}}={c['parameter']['value']}" if param else "")
                         + f"): {w}" for c, w in warned]
    return "\n".join(lines)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."
