"""Plain-text rendering of evaluation results (rendering only: dict in, str out)."""

from __future__ import annotations

from typing import Any

from .display import human, ratio, table

FINDINGS_SHOWN = 10  # compliance findings listed before "N more"
FAILURES_SHOWN = 5   # failing items listed before "N more"
DIFF_LINES_SHOWN = 3  # difference lines per failing item


def _yn(b: object) -> str:
    return "yes" if b else "no"


def evaluation(res: dict[str, Any]) -> str:
    """The summary of one evaluation: compliance, items, each timing input, verdict."""
    t = res["task"]
    lines = [f"task       {t['name']} ({t['scale']}, threshold {t['threshold']:g}x, "
             f"cost {t['cost']})",
             f"candidate  {res['candidate']['path']}"
             + (" (oracle)" if res["candidate"].get("is_oracle") else "")]
    comp = res.get("compliance") or {}
    lines.append(f"compliant  {_yn(comp.get('compliant'))}")
    findings = comp.get("findings", [])
    for f in findings[:FINDINGS_SHOWN]:
        where = f"{f['file']}:{f['line']}" if f["line"] else f["file"]
        lines.append(f"           {where}: [{f['rule']}] {f['detail']}")
    if len(findings) > FINDINGS_SHOWN:
        lines.append(f"           ... {len(findings) - FINDINGS_SHOWN} more findings (in result.json)")
    fun = res.get("functional") or {}
    if fun.get("ran"):
        summary = fun.get("summary") or f"{fun.get('passed')}/{fun.get('total')} items passed"
        excluded = fun.get("excluded") or 0
        lines.append(f"functional {summary}"
                     + (f" ({excluded} unstable items excluded)" if excluded else ""))
        failed = [item for item in fun.get("items", []) if not item["passed"]]
        for item in failed[:FAILURES_SHOWN]:
            lines.append(f"           FAIL {item['id']}")
            diff = item.get("diff", [])
            lines.extend(f"             {d}" for d in diff[:DIFF_LINES_SHOWN])
            if len(diff) > DIFF_LINES_SHOWN:
                lines.append(f"             ... {len(diff) - DIFF_LINES_SHOWN} more differences")
        if len(failed) > FAILURES_SHOWN:
            lines.append(f"           ... {len(failed) - FAILURES_SHOWN} more failing items "
                         "(every item is in result.json)")
    perf = res.get("performance") or {}
    if perf.get("ran"):
        rows = []
        for i in perf.get("inputs", []):
            if i.get("error"):
                rows.append([i.get("id"), i.get("size"), "-", "-", "-", "-", "violation"])
                continue
            ci = f"{ratio(i.get('ci_low'))}..{ratio(i.get('ci_high'))}"
            verdict = i.get("verdict") or "-"
            cand = i.get("candidate_median")
            rows.append([i.get("id"), i.get("size"), i.get("rounds"), i.get("loops"),
                         human(cand, perf.get("unit", "ns")) if cand is not None else "-",
                         f"{ratio(i.get('speedup'))} [{ci}]",
                         (verdict if verdict != "indistinguishable" else "no speedup")
                         + (" >=thr" if i.get("meets_threshold") else "")])
        lines.append("")
        lines.append(table(["timing input", "size", "rounds", "loops", "candidate/call",
                            "speedup [95% CI]", "verdict"], rows, "lrrrrrl"))
    lines.append("")
    fail = res.get("failure")
    from .results import outcome

    verdict = {"success": "STRICT SUCCESS", "inconclusive": "INCONCLUSIVE (no verdict, no reward)"
               }.get(outcome(res), "not a success")
    lines.append(f"verdict    {verdict}" + (f" — {fail['stage']}: {fail['reason']}" if fail else ""))
    lines.append(f"elapsed    {res.get('elapsed_s', 0):.1f} s")
    return "\n".join(lines)


def row_name(task: dict[str, Any]) -> str:
    """A task as the summary names it: scale/name, without the name's namespace
    and without the scale repeated ("frontier-measure/kernel-histogram" of the
    kernel scale is kernel/histogram, as its directory is)."""
    scale = str(task["scale"])
    short = str(task["name"]).split("/")[-1]
    return f"{scale}/{short.removeprefix(scale + '-') or short}"


def suite(rows: list[dict[str, Any]], names: list[str] | None = None) -> str:
    """One line per evaluation (of a task's oracle, or of the candidate `names` gives)."""
    out = []
    for r in rows:
        if "error" in r:
            out.append([r["task"], "-", "-", "-", "-", f"error: {r['error']}"])
            continue
        fun = r.get("functional") or {}
        perf = r.get("performance") or {}
        rounds = ",".join(str(i.get("rounds")) for i in perf.get("inputs", []))
        fail = r.get("failure")
        out.append([
            row_name(r["task"]),
            _yn((r.get("compliance") or {}).get("compliant")),
            (fun.get("summary") or (f"{fun['passed']}/{fun['total']}" if "total" in fun else "-")
             ).replace(" items passed", ""),
            f"{ratio(perf.get('speedup'))} (>= {r['task']['threshold']:g}x)"
            if perf.get("ran") else "-",
            rounds or "-",
            "success" if r.get("strict_success") else f"{fail['stage']}: {fail['rule']}"
            if fail else "-",
        ])
    if names is not None:
        return table(["candidate", "task", "compliant", "items", "worst speedup", "rounds",
                      "verdict"], [[n, *row] for n, row in zip(names, out, strict=True)],
                     "lllrrrl")
    return table(["task", "compliant", "items", "worst speedup", "rounds", "verdict"], out,
                 "llrrrl")
