"""A report from real evaluations: the bundled dedupe task's oracle, its reference
evaluated against itself, and two failing candidates, treated as four attempts."""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from frontier_measure import report as rep
from frontier_measure.report import tables

TASK = Path(__file__).resolve().parent.parent / "tasks" / "module" / "dedupe"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (TASK / "task.toml").is_file(), reason=f"{TASK} is not bundled"),
]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from frontier_measure.evaluate import evaluate

    root = tmp_path_factory.mktemp("report-eval")
    oracle = TASK / "solution" / "workspace"
    cands = {"oracle": oracle, "reference": TASK / "environment" / "workspace"}
    # Failing candidates made from the oracle: one prints a different message
    # (a near miss: only the verbose items fail), one imports ctypes (compliance).
    src = (oracle / "dedupe.py").read_text()
    assert "dedupe: kept {len(kept)} of {len(records)} records" in src
    for name, text in (
        ("wrong_message", src.replace("kept {len(kept)} of {len(records)}",
                                      "kept {len(kept)}/{len(records)}")),
        ("forbidden_import", "import ctypes  # noqa: F401\n" + src),
    ):
        d = root / "candidates" / name
        shutil.copytree(oracle, d)
        (d / "dedupe.py").write_text(text)
        cands[name] = d
    for name, cand in cands.items():
        evaluate(TASK, cand, out=root / "runs" / name)
    return root / "runs"


def results_of(runs: Path) -> dict[str, dict]:
    return {p.parent.parent.name: json.loads(p.read_text()) for p in runs.rglob("result.json")}


def test_report_from_real_results(runs: Path, tmp_path: Path):
    res = results_of(runs)
    assert sorted(res) == ["forbidden_import", "oracle", "reference", "wrong_message"]
    r = rep.build([runs])
    assert not r.skipped
    assert [t.name for t in r.tasks] == [res["oracle"]["task"]["name"]]
    by_path = {a.candidate: a for a in r.attempts}
    by_name = {name: by_path[res[name]["candidate"]["path"]] for name in res}
    # the two "workspace" directories are told apart by their parents
    assert by_name["oracle"].label == "solution/workspace"
    assert by_name["reference"].label == "environment/workspace"

    oracle, ref = by_name["oracle"], by_name["reference"]
    assert oracle.is_oracle and oracle.strict and oracle.faster
    assert ref.functional and not ref.strict  # S cannot be 3x faster than itself
    f = r.funnel()
    assert (f.attempts, f.compliant, f.functional, f.meets_threshold) == (4, 3, 2, 1)
    assert (f.solved, f.strictly_solved, f.always_strictly_solved) == (1, 1, 0)

    row = tables.scale_tasks(r, "module").rows[0]
    cells = dict(zip(tables.scale_tasks(r, "module").flat_headers, row, strict=True))
    n = {name: a.number for name, a in by_name.items()}
    assert cells[f"#{n['oracle']} strict"] == "✓"
    assert cells[f"#{n['forbidden_import']} speedup"] == "N/A"
    assert cells[f"#{n['wrong_message']} functional"] == "✗"
    assert cells["Best speedup"] == tables.ratio(
        max(res[k]["performance"]["speedup"] for k in ("oracle", "reference")))

    # every timing input of both timed attempts, with the numbers from the results
    inputs = tables.scale_inputs(r, "module")
    expected = [(a, i["id"], tables.ratio(i["speedup"]))
                for a in ("oracle", "reference") for i in res[a]["performance"]["inputs"]]
    got = [(next(k for k, v in n.items() if str(v) == row[1]), row[2], row[5])
           for row in inputs.rows]
    assert sorted(got) == sorted(expected)

    # the near miss, by name, with its real item counts
    wm = res["wrong_message"]["functional"]
    miss = tables.nearest_misses(r).rows
    assert len(miss) == 1
    assert miss[0][3] == by_name["wrong_message"].label
    assert miss[0][4] == f"{wm['passed']}/{wm['total']}"
    assert sum(r.pass_rate_buckets().values()) == 1

    # all formats; twice, byte-identical
    a, b = tmp_path / "a", tmp_path / "b"
    rep.write(r, a)
    rep.write(rep.build([runs]), b)
    for p in sorted(a.rglob("*")):
        if p.is_file():
            assert p.read_bytes() == (b / p.relative_to(a)).read_bytes(), p
    attempts = list(csv.DictReader(io.StringIO((a / "attempts.csv").read_text())))
    assert len(attempts) == 4
    assert sum(row["strict_success"] == "true" for row in attempts) == 1
    z = zipfile.ZipFile(a / "report.zip")
    assert len([m for m in z.namelist() if m.startswith("results/")]) == 4
    html = (a / "report.html").read_text()
    assert html.count("<svg") == 3  # funnel, module speedups, pass rates


def test_a_forged_or_stale_result_is_not_counted(runs: Path, tmp_path: Path):
    # A copy of a failing candidate's result, rewritten as a success: the
    # seal no longer verifies.
    src = next((runs / "wrong_message").rglob("result.json"))
    forged = json.loads(src.read_text())
    forged["strict_success"] = True
    forged["failure"] = None
    dest = tmp_path / "forged" / "result.json"
    dest.parent.mkdir()
    dest.write_text(json.dumps(forged))
    r = rep.build([dest])
    assert not r.tasks and "edited after the evaluation" in r.skipped[0].reason
    assert rep.build([dest], accept_unsealed=True).tasks  # counted only when asked to
    # A candidate edited after it was judged no longer matches its result.
    cand = Path(forged["candidate"]["path"])
    before = (cand / "dedupe.py").read_text()
    try:
        (cand / "dedupe.py").write_text(before + "\n# now different\n")
        r = rep.build([src])
        assert not r.tasks and "changed after it was judged" in r.skipped[0].reason
    finally:
        (cand / "dedupe.py").write_text(before)
    assert rep.build([src]).tasks
