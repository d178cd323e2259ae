"""Terminal rendering of simulator results (frontier_measure.sim.SimResult)."""

from __future__ import annotations

from typing import Any

from . import display


def result(res: Any, profile_rows: int = 20) -> str:
    s = res.stats
    rows: list[list[object]] = [
        ["machine", res.machine + ("" if res.timing else " (functional: cycles = instructions)")],
        ["exit code", res.exit_code],
        ["instructions", s["instructions"]],
        ["cycles", s["cycles"]],
        ["CPI", s["cpi"]],
    ]
    if res.timing:
        for level in ("l1i", "l1d", "l2"):
            acc, miss = s[f"{level}_accesses"], s[f"{level}_misses"]
            rate = f"{miss / acc:.2%}" if acc else "-"
            rows.append([f"{level.upper()} accesses / misses", f"{acc} / {miss} ({rate})"])
        br = s["branches"] + s["jumps"]
        rows.append(["branches + jumps / mispredicts", f"{s['branches']} + {s['jumps']} / {s['mispredicts']}"
                     + (f" ({s['mispredicts'] / br:.2%})" if br else "")])
    rows.append(["stdout / stderr bytes", f"{len(res.stdout)} / {len(res.stderr)}"])
    out = display.table(["", "value"], rows, align="ll")
    if res.profile:
        unit = "cycles" if res.timing else "instructions"
        total = sum(c for _, c in res.profile) or 1
        prof = [[name, c, f"{c / total:.1%}"] for name, c in res.profile[:profile_rows]]
        out += "\n\n" + display.table(["function", unit, "share"], prof)
    return out
