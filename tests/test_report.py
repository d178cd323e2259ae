"""Reports over many tasks and attempts, from result files written to disk."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure import report as rep
from frontier_measure.cli import main
from frontier_measure.report import model, tables
from report_results import result, sealed, suite


def write_suite(root: Path) -> Path:
    runs = root / "runs"
    for rel, res in suite():
        p = runs / rel / "result.json"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(sealed(res, indent=1))
    return runs


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    return write_suite(tmp_path)


@pytest.fixture
def built(runs: Path) -> rep.Report:
    return rep.build([runs])


def row_of(t: tables.Table, first: str) -> dict[str, str]:
    for row in t.rows:
        if row[0] == first:
            return dict(zip(t.flat_headers, row, strict=True))
    raise AssertionError(f"no row {first!r} in {t.key}: {[r[0] for r in t.rows]}")


# -- loading and grouping -----------------------------------------------------------------


def test_attempts_are_grouped_by_task_and_numbered(built):
    assert [(t.scale, t.name) for t in built.tasks] == [
        ("kernel", "saxpy"), ("module", "dedupe"), ("module", "histogram"), ("module", "parse"),
        ("package", "lru"), ("repository", "grep")]
    dedupe = built.tasks[1]
    assert [(a.number, a.label) for a in dedupe.attempts] == [(1, "a1"), (2, "a2"), (3, "a3")]
    assert not built.skipped


def test_given_attempt_numbers_and_labels_are_kept(tmp_path):
    for k, cand in ((5, "z"), (2, "y")):
        p = tmp_path / cand / "result.json"
        p.parent.mkdir()
        p.write_text(sealed(result("t", candidate=cand, attempt=k, label=f"run-{k}")))
    r = rep.build([tmp_path])
    assert [(a.number, a.label) for a in r.tasks[0].attempts] == [(2, "run-2"), (5, "run-5")]
    assert tables.scale_tasks(r, "module").flat_headers[4] == "#2 functional"


def test_duplicate_attempt_numbers_fall_back_to_order(tmp_path):
    for cand in ("b", "a"):
        p = tmp_path / cand / "result.json"
        p.parent.mkdir()
        p.write_text(sealed(result("t", candidate=cand, attempt=1)))
    r = rep.build([tmp_path])
    assert [(a.number, a.label) for a in r.tasks[0].attempts] == [(1, "a"), (2, "b")]


def test_same_file_given_twice_counts_once(runs):
    one = runs / "kernel" / "saxpy" / "oracle" / "result.json"
    r = rep.build([runs, one])
    assert len(r.attempts) == 14


# -- tables -------------------------------------------------------------------------------


def test_module_task_table(built):
    t = tables.scale_tasks(built, "module")
    assert t.flat_headers == [
        "Task", "Threshold", "Strict", "Best speedup",
        "#1 functional", "#1 speedup", "#1 strict", "#1 steps",
        "#2 functional", "#2 speedup", "#2 strict", "#2 steps",
        "#3 functional", "#3 speedup", "#3 strict", "#3 steps"]
    dedupe = row_of(t, "dedupe")
    # the speedup shown is the worst input's
    first = [dedupe[f"#1 {c}"] for c in ("functional", "speedup", "strict")]
    assert first == ["✓", "3.10×", "✓"]
    assert dedupe["#3 steps"] == "7"
    assert dedupe["Best speedup"] == "3.10×"
    assert dedupe["Strict"] == "3/3"
    hist = row_of(t, "histogram")
    assert (hist["#1 speedup"], hist["#1 strict"]) == ("1.20×", "✗")  # faster, below threshold
    assert (hist["#2 speedup"], hist["#2 strict"]) == ("0.70×", "✗")  # slower
    assert (hist["#3 functional"], hist["#3 speedup"]) == ("✗", "N/A")  # functional failure
    parse = row_of(t, "parse")  # never functional: — instead of N/A
    assert [parse[f"#{n} speedup"] for n in (1, 2, 3)] == ["—", "—", "—"]
    assert parse["Best speedup"] == "—"


def test_steps_column_only_when_present(built):
    assert "#1 steps" not in tables.scale_tasks(built, "package").flat_headers
    assert "Median steps" in tables.summary(built).headers
    no_steps = rep.build([])
    assert not no_steps.has_steps


def test_ragged_attempts_leave_cells_empty(built):
    t = tables.scale_tasks(built, "kernel")
    assert t.flat_headers == ["Task", "Threshold", "Strict", "Best speedup", "#1 functional",
                              "#1 speedup", "#1 strict"]
    lru = row_of(tables.scale_tasks(built, "package"), "lru")
    assert lru["#2 speedup"] == "1.01×"


def test_funnel_counts(built):
    f = built.funnel()
    assert (f.attempts, f.compliant, f.functional, f.faster, f.meets_threshold) == (14, 12, 8, 6, 5)
    assert (f.tasks, f.solved, f.strictly_solved, f.always_strictly_solved) == (6, 4, 3, 2)
    m = built.funnel("module")
    assert (m.attempts, m.compliant, m.functional, m.faster, m.meets_threshold) == (9, 8, 5, 4, 3)
    assert (m.tasks, m.solved, m.strictly_solved, m.always_strictly_solved) == (3, 2, 1, 1)
    t = tables.funnel(built)
    assert t.headers == ["Stage", "kernel", "module", "package", "repository", "All"]
    # grep #1 broke off with an evaluator error before compliance was checked
    assert "1 of the attempts that are not compliant never reached" in t.notes[1]
    grep1 = tables.scale_attempts(built, "repository").rows[0]
    assert grep1[3] == "—"
    assert row_of(t, "→ functional")["All"] == "8/14 (57.1%)"
    assert row_of(t, "→ strictly solved on every attempt")["package"] == "0/1 (0.0%)"


def test_summary_per_scale(built):
    by_scale = {s.scale: s for s in built.summaries()}
    m = by_scale["module"]
    assert (m.tasks, m.attempts, m.functional, m.strict) == (3, 9, 5, 3)
    assert m.median_steps == 20  # median of 12 30 7 20 25 9 4 40 50
    # faster attempts: dedupe 3.1, 2.2, 1.9 and histogram 1.2 (worst inputs)
    assert m.faster == 4 and m.median_faster_speedup == pytest.approx(2.05)
    assert by_scale["repository"].functional_rate == 0.0
    row = row_of(tables.summary(built), "repository")
    assert row["Median speedup of faster attempts"] == "—"


def test_inputs_table_lists_every_timed_input(built):
    t = tables.scale_inputs(built, "module")
    assert len(t.rows) == 10  # 3 dedupe + 2 histogram attempts, 2 inputs each
    small = next(dict(zip(t.headers, r, strict=True)) for r in t.rows
                 if r[0] == "histogram" and r[1] == "1" and r[2] == "small")
    assert small["Verdict"] == "faster"
    assert small["Meets threshold"] == "✗"
    assert small["Threshold"] == "≥ 1.5×"
    assert small["95% CI"] == "1.14× – 1.26×"


def test_near_misses(built):
    assert built.pass_rate_buckets() == {"<70%": 1, "70–99%": 1, ">99%": 2}
    assert built.pass_rate_buckets("repository") == {"<70%": 0, "70–99%": 0, ">99%": 1}
    t = tables.nearest_misses(built)
    assert [(r[1], r[2], r[4], r[5]) for r in t.rows] == [
        ("grep", "2", "9995/10000", "99.9%"),  # 99.95% never reads as 100%
        ("histogram", "3", "997/1000", "99.7%"),
        ("parse", "2", "80/100", "80.0%"),
        ("parse", "3", "10/100", "10.0%")]
    assert t.rows[0][6].startswith("c9995/return, c9996/return, c9997/return (+2 more)")


def test_bucket_edges():
    assert model.bucket(0.6999) == "<70%"
    assert model.bucket(0.70) == "70–99%"
    assert model.bucket(0.99) == "70–99%"
    assert model.bucket(0.991) == ">99%"
    assert model.bucket(None) == "<70%"


def test_timing_violation_and_insufficient_inputs(tmp_path):
    res = result("t", inputs=[("a", 2.0)])
    res["performance"]["inputs"][0].update(error="cached across calls", speedup=None,
                                           ci_low=None, ci_high=None, lower_bound=None)
    res["performance"].update(speedup=None, verdict="violation", meets_threshold=False)
    res["strict_success"] = False
    p = tmp_path / "r.json"
    p.write_text(sealed(res))
    r = rep.build([p])
    a = r.attempts[0]
    assert a.functional and not a.faster and not a.strict
    row = tables.scale_inputs(r, "module").rows[0]
    assert row[5] == "N/A" and row[9] == "error: cached across calls"
    # the figure still draws (the input shows as an error, not a point)
    assert "speedups-module" in rep.figures.all_figures(r)


# -- bad files ----------------------------------------------------------------------------


def test_damaged_and_foreign_files_are_named_and_skipped(runs, tmp_path):
    bad = {
        "truncated.json": '{"schema": "frontier-measure/result", "sch',
        "list.json": "[1, 2, 3]",
        "foreign.json": json.dumps({"name": "package.json", "version": "1.0"}),
        "future.json": json.dumps({"schema": "frontier-measure/result", "schema_version": 99}),
        "noscale.json": sealed({**result("x"), "task": {"name": "x", "scale": "galaxy"}}),
        "binary.json": b"\xff\xfe\x00garbage",
    }
    for name, text in bad.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    paths = [runs] + [tmp_path / n for n in sorted(bad)] + [tmp_path / "missing.json"]
    r = rep.build(paths)
    assert len(r.attempts) == 14
    reasons = {Path(s.path).name: s.reason for s in r.skipped}
    assert set(reasons) == set(bad) | {"missing.json"}
    assert reasons["truncated.json"].startswith("not valid JSON")
    assert "not a frontier-measure result" in reasons["list.json"]
    assert "not a frontier-measure result" in reasons["foreign.json"]
    assert "schema version 99" in reasons["future.json"]
    assert "unknown scale 'galaxy'" in reasons["noscale.json"]
    assert reasons["missing.json"] == "no such file or directory"
    md = rep.markdown.render(r, {})
    assert "## Skipped files" in md
    for name in bad:
        assert name in md


def test_cli_reports_bad_files_and_writes_everything(runs, tmp_path):
    bad = runs / "module" / "broken" / "result.json"
    bad.parent.mkdir()
    bad.write_text("{not json")
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["report", str(runs), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert f"skipped {bad}: not valid JSON" in r.output
    assert "14 attempts of 6 tasks; 1 file skipped" in r.output
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert names == ["attempts.csv", "figures/funnel.svg", "figures/pass-rates.svg",
                     "figures/speedups-kernel.svg", "figures/speedups-module.svg",
                     "figures/speedups-package.svg", "inputs.csv", "report.html", "report.md",
                     "report.zip"]
    assert str(bad) in (out / "report.html").read_text()


def test_cli_nothing_usable_fails_and_writes_nothing(tmp_path):
    (tmp_path / "x.json").write_text("{}")
    r = CliRunner().invoke(main, ["report", str(tmp_path / "x.json"), "--out", str(tmp_path / "o")])
    assert r.exit_code == 3  # the report could not be made: not a "no"
    assert "no usable results" in r.output
    assert "x.json: not a frontier-measure result" in r.output
    assert not (tmp_path / "o").exists()
    r = CliRunner().invoke(main, ["report", str(tmp_path / "missing"), "--out", str(tmp_path / "o")])
    assert r.exit_code == 3 and "missing: no such file or directory" in r.output
    assert not (tmp_path / "o").exists()


def test_cli_says_how_to_count_results_whose_seal_does_not_verify(tmp_path):
    (tmp_path / "result.json").write_text(json.dumps(result("dedupe")))  # never sealed
    r = CliRunner().invoke(main, ["report", str(tmp_path), "--out", str(tmp_path / "o")])
    assert r.exit_code == 3
    assert "1 result(s) were skipped because their seal does not verify" in r.output
    assert "--accept-unsealed" in r.output
    r = CliRunner().invoke(main, ["report", str(tmp_path), "--out", str(tmp_path / "o"),
                                  "--accept-unsealed"])
    assert r.exit_code == 0, r.output


def test_cli_format_selection(runs, tmp_path):
    out = tmp_path / "o"
    r = CliRunner().invoke(main, ["report", str(runs), "--out", str(out), "--format", "csv"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["attempts.csv", "inputs.csv"]
    r = CliRunner().invoke(main, ["report", str(runs), "--format", "pdf"])
    assert r.exit_code == 2 and "--format" in r.output


# -- formats ------------------------------------------------------------------------------


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_rows(built):
    rows = read_csv(rep.csvfiles.attempts(built))
    assert len(rows) == 14
    assert list(rows[0]) == list(rep.csvfiles.ATTEMPT_COLUMNS)
    parse1 = next(r for r in rows if r["task"] == "parse" and r["attempt"] == "1")
    assert parse1["compliant"] == "false" and parse1["failure_stage"] == "compliance"
    assert parse1["speedup"] == "" and parse1["steps"] == "4"
    grep2 = next(r for r in rows if r["task"] == "grep" and r["attempt"] == "2")
    assert grep2["pass_rate"] == "0.9995" and grep2["failing_items"].split()[0] == "c9995/return"
    inputs = read_csv(rep.csvfiles.inputs(built))
    assert len(inputs) == 13  # every timed input: 10 module, 2 package, 1 kernel
    assert {r["scale"] for r in inputs} == {"kernel", "module", "package"}
    lru2 = next(r for r in inputs if r["task"] == "lru" and r["attempt"] == "2")
    assert lru2["verdict"] == "indistinguishable" and lru2["faster"] == "false"
    assert float(lru2["ci_low"]) < 1 < float(lru2["ci_high"])


def test_zip_members(built, runs, tmp_path):
    written = rep.write(built, tmp_path / "o")
    z = zipfile.ZipFile(tmp_path / "o" / "report.zip")
    names = z.namelist()
    assert names == sorted(names)
    for member in ("report.md", "report.html", "attempts.csv", "inputs.csv", "figures/funnel.svg"):
        assert member in names
        assert z.read(member) == (tmp_path / "o" / member).read_bytes()
    results_in_zip = [n for n in names if n.startswith("results/")]
    assert len(results_in_zip) == 14
    assert "results/module/histogram/003-a3/result.json" in results_in_zip
    assert (json.loads(z.read("results/kernel/saxpy/001-oracle/result.json"))
            == json.loads((runs / "kernel/saxpy/oracle/result.json").read_text()))
    assert tmp_path / "o" / "report.zip" in written


def test_rendering_twice_gives_identical_bytes(runs, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    rep.write(rep.build([runs]), a)
    rep.write(rep.build([runs]), b)
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_html_is_self_contained_with_inline_svg(built):
    figs = rep.figures.all_figures(built)
    page = rep.html.render(built, figs)
    assert page.count("<svg") == len(figs) == 5
    # nothing to fetch: no scripts, images, style sheets or remote references
    assert "<script" not in page and "<img" not in page and "<link" not in page
    assert 'src="' not in page and 'href="http' not in page
    # every figure's ids are unique across the page
    import re
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    # no dates from the renderer in the figures
    assert "<dc:date>" not in page


def test_markdown_outline(built):
    md = rep.markdown.render(built, rep.figures.all_figures(built))
    heads = [line for line in md.splitlines() if line.startswith("#")]
    assert heads[:3] == ["# frontier-measure report", "## Summary", "## Funnel"]
    assert "## Repository scale" in heads and "## How close functional failures came" in heads
    assert "![Funnel of attempts and tasks](figures/funnel.svg)" in md
    assert "No attempt at this scale was timed." in md  # repository: nothing timed
    assert "| module | 3 | 9 | 5/9 (55.6%) |" in md


def test_pipe_in_a_name_does_not_break_markdown_tables(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(sealed(result("a|b")))
    md = rep.markdown.render(rep.build([p]), {})
    assert "| a\\|b |" in md


def test_labels_tell_candidates_apart(tmp_path):
    cands = ["/t/solution/workspace", "/t/environment/workspace", "/runs/b/a1",
             "/t/solution/workspace"]
    for k, cand in enumerate(cands):
        res = result("t")
        res["candidate"]["path"] = cand
        p = tmp_path / f"r{k}" / "result.json"
        p.parent.mkdir()
        p.write_text(sealed(res))
    r = rep.build([tmp_path])
    assert [(a.number, a.label) for a in r.attempts] == [
        (1, "a1"), (2, "environment/workspace"), (3, "solution/workspace"),
        (4, "solution/workspace")]


def test_without_matplotlib_tables_still_render(built, monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import now raises ImportError
    assert "matplotlib" in (rep.figures.missing() or "")
    written = rep.write(built, tmp_path / "o", ["md", "html"])
    assert [p.name for p in written] == ["report.html", "report.md"]
    md = (tmp_path / "o" / "report.md").read_text()
    assert "No figures: figures need matplotlib" in md and "![" not in md
    assert "<svg" not in (tmp_path / "o" / "report.html").read_text()


def test_deterministic_cost_without_interval(tmp_path):
    res = result("matmul", "kernel", threshold=2.0, inputs=[("n64", 3.0)])
    inp = res["performance"]["inputs"][0]
    inp.update(ci_low=None, ci_high=None, lower_bound=3.0, rounds=1, verdict="faster",
               meets_threshold=True)
    p = tmp_path / "r.json"
    p.write_text(sealed(res))
    r = rep.build([p])
    assert r.attempts[0].faster and r.attempts[0].strict
    assert r.funnel().meets_threshold == 1
    row = dict(zip(tables.scale_inputs(r, "kernel").headers,
                   tables.scale_inputs(r, "kernel").rows[0], strict=True))
    assert row["95% CI"] == "—" and row["Speedup"] == "3.00×"
    assert "speedups-kernel" in rep.figures.all_figures(r)


def test_functional_failure_without_a_failing_item(tmp_path):
    res = result("t", "repository", inputs=[("a", 2.0)])
    res["performance"] = {"ran": False}
    res["strict_success"] = False
    res["failure"] = {"stage": "functional", "rule": "stray-process",
                      "reason": "case c1 left 1 process running after it ended"}
    p = tmp_path / "r.json"
    p.write_text(sealed(res))
    r = rep.build([p])
    a = r.attempts[0]
    assert a.pass_rate == 1.0 and not a.functional
    assert r.funnel().functional == 0
    assert r.pass_rate_buckets() == {"<70%": 0, "70–99%": 0, ">99%": 1}
    assert tables.nearest_misses(r).rows[0][7].startswith("case c1 left 1 process")


def test_exact_interval_of_a_deterministic_cost(tmp_path):
    res = result("matmul", "kernel", threshold=1.5, inputs=[("n112", 2.27)])
    res["performance"]["inputs"][0].update(ci_low=2.27, ci_high=2.27, lower_bound=2.27,
                                           confidence=1.0, rounds=1)
    p = tmp_path / "r.json"
    p.write_text(sealed(res))
    t = tables.scale_inputs(rep.build([p]), "kernel")
    assert dict(zip(t.headers, t.rows[0], strict=True))["95% CI"] == "exact"
