"""What a task's tests/fuzz.py adds to its held-out cases: the mutants of the
reference that the cases let through (survived, or on a line no case runs),
and how many of them differential fuzzing kills.

For each task: first its fuzz targets are run with the oracle as the
candidate (no difference is expected: one is a finding about the oracle or
the task, and is printed). Then the mutants come from `frontier-measure
mutate` (run here with --max and --seed, or read from the JSON it wrote with
--json, given with --mutants DIR as DIR/<name>.json). Each mutant the cases
did not kill is written into a copy of the reference and fuzzed as a
candidate exactly as `eval` fuzzes one (fuzz.differential on a session of the
task, one worker per side per target): it is killed at the first target that
finds a difference. Mutants listed equivalent in tests/mutants.toml are not
fuzzed.

Usage: python bench/fuzz_mutants.py TASK... [--max 150] [--seed 0]
       [--mutants DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from _util import show
from frontier_measure import fuzz, mutate, runners
from frontier_measure.authoring import copy_code


def _differences(session: Any, task: Any, found: list[Any], stop_first: bool) -> list[dict]:
    out = []
    for target in found:
        [outcome] = fuzz.differential(session, task, [target])
        out.append(outcome)
        if stop_first and outcome["difference"] is not None:
            break
    return out


def run_task(path: Path, args: argparse.Namespace) -> dict[str, Any]:
    task, runner = runners.load(path)
    found = fuzz.targets(task)
    if not found:
        raise SystemExit(f"{path}: no tests/fuzz.py targets")
    row: dict[str, Any] = {"task": str(path), "targets": {t.id: t.examples for t in found}}

    # The oracle against the reference: every target, every input.
    t0 = time.perf_counter()
    with runner.open_session(task, task.oracle_dir) as session:
        oracle = _differences(session, task, found, stop_first=False)
    row["oracle_s"] = round(time.perf_counter() - t0, 1)
    row["oracle"] = oracle

    # The mutants the cases let through.
    t0 = time.perf_counter()
    listed = args.mutants / f"{path.name}.json" if args.mutants else None
    if listed is not None and listed.is_file():
        report = json.loads(listed.read_text())
        row["mutate_s"] = report["elapsed_s"]
    else:
        rep = mutate.mutate(path, limit=args.max, seed=args.seed)
        report = rep.to_dict()
        row["mutate_s"] = round(time.perf_counter() - t0, 1)
    row["sample"] = {k: report[k] for k in ("mutants", "drawn_from", "killed", "survived",
                                           "not_covered", "equivalent", "stopped")}
    survivors = [o for o in report["outcomes"] if o["status"] in ("survived", "not-covered")]

    by_id: dict[str, tuple[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="fm-fuzzmut-") as tmp:
        plain = copy_code(task, task.reference_dir, Path(tmp) / "plain")
        for rel, file in mutate._sources(task, plain):
            for m in mutate.mutants_of(rel, file.read_bytes()):
                by_id[m.id] = (rel, m)
        t0 = time.perf_counter()
        row["mutants"] = []
        for k, o in enumerate(survivors):
            rel, m = by_id[o["id"]]
            side = copy_code(task, task.reference_dir, Path(tmp) / f"m{k}")
            target = side / rel
            target.write_bytes(m.apply(target.read_bytes()))
            with runner.open_session(task, side) as session:
                outs = _differences(session, task, found, stop_first=True)
            hit = next((x for x in outs if x["difference"] is not None), None)
            entry = {"id": o["id"], "status": o["status"], "killed": hit is not None}
            if hit is not None:
                entry.update(target=hit["id"], after=hit["examples"],
                             input=hit["difference"]["input_repr"][:160])
            row["mutants"].append(entry)
            print(f"  {path.name} {o['id']} ({o['status']}): "
                  + (f"killed by {hit['id']} on {entry['input']}" if hit else "survived"),
                  flush=True)
        row["fuzz_mutants_s"] = round(time.perf_counter() - t0, 1)
    row["load"] = [round(x, 1) for x in os.getloadavg()]
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+", type=Path)
    ap.add_argument("--max", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mutants", type=Path, default=None,
                    help="a directory of `mutate --json` outputs named <task>.json")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    rows = []
    for path in args.tasks:
        row = run_task(path, args)
        rows.append(row)
        for o in row["oracle"]:
            if o["difference"] is not None:
                print(f"  {path.name}: the ORACLE differs from the reference on target "
                      f"{o['id']}: {o['difference']}")
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
    date = datetime.date.today().isoformat()
    table = []
    for r in rows:
        s = r["sample"]
        through = [m for m in r["mutants"]]
        killed = sum(m["killed"] for m in through)
        oracle = ", ".join(f"{o['id']} {o['examples']}" + (" DIFFERS" if o["difference"] else "")
                           for o in r["oracle"])
        table.append([Path(r["task"]).name, oracle,
                      f"{s['mutants']} of {s['drawn_from']}" + (" (stopped)" if s["stopped"] else ""),
                      f"{s['survived']} + {s['not_covered']}", f"{killed} of {len(through)}",
                      f"{r['mutate_s']:.0f} s", f"{r['oracle_s']:.0f} s",
                      f"{r['fuzz_mutants_s']:.0f} s", " ".join(map(str, r["load"])), date])
    show("differential fuzzing on the mutants the cases let through",
         ["task", "targets (inputs, oracle vs reference)", "mutants run",
          "survived + not covered", "killed by fuzz", "mutate", "fuzz oracle", "fuzz mutants",
          "load", "date"], table)


if __name__ == "__main__":
    main()
