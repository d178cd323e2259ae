"""A whole run, out of its database: the platform report, CSV tables and a ZIP.

    write_report(db, out)   platform.md (PR_task, CE, steps, tokens, wall time per
                            configuration; per-scale tables; McNemar pairs; regimes:
                            tool costs, paired comparisons, delegation), and the
                            evaluator's own report over the performance attempts'
                            result.json files (steps added), in the same directory
    write_csv(db, out)      attempts.csv, requests.csv, checks.csv, events.csv, nodes.csv
                            (the trees of agents), tool_calls.csv (the tools' telemetry)
    write_zip(db, path)     all of it plus every attempt's artefacts (patch, transcript,
                            agent log, gate and evaluation results)
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

from . import metrics
from .db import Database, spend_of

TABLES = ("runs", "attempts", "requests", "checks", "events", "nodes", "tool_calls")
PRICE_FIELDS = ("input", "output", "cached_input", "cache_write")


def load_attempts(db: Database) -> list[dict[str, Any]]:
    """Every attempt, with what it has spent so far over all its generations (an
    unfinished or interrupted attempt's requests are on the bill too)."""
    spend = spend_of(db.conn)
    out = []
    for r in db.attempts():
        a = dict(r)
        if a["id"] in spend:
            a["spent"] = spend[a["id"]]["spent"]
            a["usage_source"] = spend[a["id"]]["usage_source"]
        out.append(a)
    return out


def platform_markdown(db: Database) -> str:
    attempts = load_attempts(db)
    runs = ", ".join(r["name"] for r in db.runs())
    out = [f"# Agent runs: {runs}\n",
           f"{sum(a['state'] == 'finished' for a in attempts)} of {len(attempts)} attempts "
           "finished.\n",
           "## Per configuration\n",
           "PR_task: mean over tasks of the share of attempts that passed the gate "
           "(RefactorPlatform's: every AST test, or strict success); gate+: the gate and a "
           "static check of the patched tree and an import smoke test (new findings only). "
           "Spent: every request of the configuration's attempts, every generation "
           "(interrupted and retried ones included), in total and per finished attempt; "
           "CE: spent / successes. Tokens from: the API's usage fields (api) or the "
           "gateway's own count (estimated). Steps: model outputs (each with the tool "
           "calls it triggered). Other figures are means per finished attempt.\n",
           metrics.markdown_table(*metrics.summary_table(metrics.summarize(attempts)))]
    scale = metrics.scale_table(attempts)
    if scale[1]:
        out += ["\n## Performance tasks per scale\n", metrics.markdown_table(*scale)]
    pairs = metrics.all_pairs(attempts)
    if pairs:
        out += ["\n## Paired configurations (McNemar's exact test)\n",
                "Pairs are (task, attempt number) run by both configurations; the two "
                "differ in one factor.\n", metrics.markdown_table(*metrics.pairs_table(pairs))]
    regimes = {a["regime"] for a in attempts}
    if len(regimes) > 1 or regimes - {"S1"} or any(a.get("tool_calls") for a in attempts):
        out += ["\n## Regimes\n",
                "What each configuration's attempts cost, and what its regime's tools cost "
                "(means per attempt, measured by the tool servers: LSP feedback, code index "
                "builds and searches, delegation). Pass rate: passed attempts / attempts.\n",
                metrics.markdown_table(*metrics.regime_table(attempts))]
        rp = metrics.regime_pairs(attempts)
        if rp:
            out += ["\n### Regimes compared on the same tasks\n",
                    "Two configurations differing only in their regime, on the (task, attempt "
                    "number) pairs both ran: pass rates, discordant pairs and McNemar's exact "
                    "test, cost per attempt and per success over the same pairs.\n",
                    metrics.markdown_table(*metrics.regime_pairs_table(rp))]
        dt = metrics.delegation_table(attempts)
        if dt[1]:
            out += ["\n### Delegation\n",
                    "Regimes with a delegate tool: the pass rate where delegation was requested "
                    "(every attempt of the regime) and where it was used (a child agent ran).\n",
                    metrics.markdown_table(*dt)]
    vague = lazy_without_target(attempts)
    if vague:
        out += ["\n## Lazy statements that name no target\n",
                "These tasks' lazy prompts (What only) name no function, file or path, though "
                "their AST tests want exact names: a lazy attempt can only guess them. Lazy "
                "attempts that passed the gate / gate+ of those finished:\n",
                metrics.markdown_table(["task", "lazy statement", "passed", "passed gate+",
                                        "finished"], vague)]
    out += ["\n## The run\n"]
    for r in db.runs():
        out += [f"### {r['name']}: spec ({r['spec_path']})\n", "```toml", (r["spec"] or "").rstrip(),
                "```\n", f"### {r['name']}: prices (dollars per million tokens)\n",
                metrics.markdown_table(["model", *PRICE_FIELDS],
                                       [[p["model"], *(p[k] for k in PRICE_FIELDS)]
                                        for p in price_rows(r)])]
    return "\n".join(out)


def lazy_without_target(attempts: list[dict[str, Any]]) -> list[list[str]]:
    """RefactorBench tasks of the run whose lazy statement names no target, with
    how their lazy attempts did."""
    from .refactorbench import lazy_names_target

    rows = []
    for path, task in sorted({(a["task_path"], a["task"]) for a in attempts
                              if a.get("kind") == "refactorbench"}, key=lambda x: x[1]):
        if lazy_names_target(Path(path)) is not False:
            continue
        lazy = [a for a in attempts if a["task"] == task and a.get("prompt_mode") == "lazy"
                and a.get("state") == "finished"]
        statement = (Path(path) / "prompts" / "lazy.md").read_text().strip().replace("|", "/")
        rows.append([task, statement, str(sum(bool(a.get("passed")) for a in lazy)),
                     str(sum(bool(a.get("passed_plus")) for a in lazy)), str(len(lazy))])
    return rows


def price_rows(run: Any) -> list[dict[str, str]]:
    """The price table a run's gateway used (recorded when the run started)."""
    try:
        entries = json.loads(run["prices"] or "{}")
    except (ValueError, IndexError, KeyError):
        entries = {}
    return [{"run": run["name"], "model": name,
             **{k: "" if rates.get(k) is None else f"{rates[k]:g}" for k in PRICE_FIELDS}}
            for name, rates in sorted(entries.items())]


def _csv(rows: list[dict[str, Any]], columns: list[str]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def csv_files(db: Database) -> dict[str, str]:
    out = {}
    for table in TABLES:
        cur = db.conn.execute(f"SELECT * FROM {table} ORDER BY id")
        cols = [d[0] for d in cur.description]
        out[f"{table}.csv"] = _csv([dict(r) for r in cur.fetchall()], cols)
    summaries = metrics.summarize(load_attempts(db))
    headers, rows = metrics.summary_table(summaries)
    out["summary.csv"] = _csv([dict(zip(headers, r, strict=True)) for r in rows], headers)
    out["prices.csv"] = _csv([p for r in db.runs() for p in price_rows(r)],
                             ["run", "model", *PRICE_FIELDS])
    for r in db.runs():
        out[f"spec-{r['name']}.toml"] = r["spec"] or ""
    return out


def _results(run_dir: Path, db: Database) -> list[Path]:
    """The evaluator's result.json of each finished performance attempt (the runner
    added the fields the evaluator's report reads: attempt number, label, steps)."""
    found = []
    for a in load_attempts(db):
        if a["state"] == "finished" and a.get("dir"):
            found += sorted((run_dir / a["dir"] / "evaluation").glob("*/result.json"))
    return found


def write_report(db_path: Path, out: Path, formats: list[str] | None = None) -> list[Path]:
    db = Database(db_path, readonly=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = [out / "platform.md"]
        written[0].write_text(platform_markdown(db))
        for name, text in csv_files(db).items():
            (out / name).write_text(text)
            written.append(out / name)
        results = _results(db_path.parent, db)
    finally:
        db.close()
    if results:
        from .. import report as rep

        built = rep.build(results)
        if built.tasks:
            written += rep.write(built, out / "evaluations", formats or ["md", "csv"])
    return written


def write_zip(db_path: Path, path: Path) -> Path:
    """The whole run: database tables as CSV, the platform report, every artefact."""
    db = Database(db_path, readonly=True)
    try:
        files = {f"tables/{k}": v.encode() for k, v in csv_files(db).items()}
        files["platform.md"] = platform_markdown(db).encode()
        run_dir = db_path.parent
        for a in load_attempts(db):
            if a["state"] != "finished" or not a.get("dir"):
                continue
            adir = run_dir / a["dir"]
            for p in sorted(adir.rglob("*")):
                if p.is_file() and not p.name.startswith("."):
                    files[f"attempts/{adir.name}/{p.relative_to(adir)}"] = p.read_bytes()
    finally:
        db.close()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, files[name])
    tmp.replace(path)
    return path
