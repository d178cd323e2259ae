"""compare with several commands, a parameter, commands around the timed runs
and exports: real commands (sleeps of known ratio), checked through verdicts,
never through timings; argument errors before any work."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time

import jsonschema
import pytest
from click.testing import CliRunner

from frontier_measure import comparisons, schemas
from frontier_measure.cli import EXIT_ERROR, EXIT_FAILED, EXIT_USAGE, main

FAST = "--rounds", "16", "--warmup", "0"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


# ------------------------------------------------------------ several commands


def test_each_candidate_is_compared_with_the_first_command(tmp_path):
    out, md, csv_out = tmp_path / "c.json", tmp_path / "c.md", tmp_path / "c.csv"
    r = run("-q", "compare", "sleep 0.03", "sleep 0.01", "sleep 0.09", *FAST,
            "--threshold", "1.2", "--json", str(out), "--export-markdown", str(md),
            "--export-csv", str(csv_out))
    # The slower candidate misses the threshold: exit status 1, after every file is written.
    assert r.exit_code == EXIT_FAILED, r.output
    assert "threshold not met by 1 of 2 comparisons" in r.stderr
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, schemas.load("compare"))
    assert doc["schema_version"] == 2
    assert doc["commands"] == {"reference": "sleep 0.03", "candidates": ["sleep 0.01", "sleep 0.09"]}
    pairs = [(c["commands"]["reference"], c["commands"]["candidate"]) for c in doc["comparisons"]]
    assert pairs == [("sleep 0.03", "sleep 0.01"), ("sleep 0.03", "sleep 0.09")]
    assert [c["summary"]["verdict"] for c in doc["comparisons"]] == ["faster", "slower"]
    assert [c["summary"]["meets_threshold"] for c in doc["comparisons"]] == [True, False]
    assert all(len(c["rounds"]) == 16 for c in doc["comparisons"])
    # The terminal: one row per candidate, the reference named once.
    assert "reference: sleep 0.03" in r.stdout
    rows = [line for line in r.stdout.splitlines() if line.startswith("sleep 0.")]
    assert len(rows) == 2 and "faster" in rows[0] and "slower" in rows[1]
    # The exports hold the same summary.
    table = list(csv.DictReader(io.StringIO(csv_out.read_text())))
    assert [t["candidate"] for t in table] == ["sleep 0.01", "sleep 0.09"]
    assert [t["verdict"] for t in table] == ["faster", "slower"]
    assert [t["meets_threshold"] for t in table] == ["True", "False"]
    assert float(table[0]["speedup"]) == doc["comparisons"][0]["summary"]["speedup"]
    assert table[0]["rounds"] == "16" and table[0]["unit"] == "ns"
    assert float(table[1]["candidate_median"]) == doc["comparisons"][1]["candidate_median"]
    lines = md.read_text().splitlines()
    assert lines[0].startswith("| reference | candidate | speedup | 95% interval | verdict | "
                               "at least 1.2x |")
    assert lines[2].startswith("| `sleep 0.03` | `sleep 0.01` |") and "| faster | yes |" in lines[2]
    assert lines[3].startswith("| `sleep 0.03` | `sleep 0.09` |") and "| slower | no |" in lines[3]


def test_ref_option_with_candidates_as_arguments():
    r = run("-q", "compare", "--ref", "sleep 0.03", "sleep 0.01", *FAST)
    assert r.exit_code == 0, r.output
    # One comparison: the detailed table, as with --ref/--cand.
    assert "speedup (reference/candidate)" in r.stdout and "faster" in r.stdout


def test_markdown_escapes_pipes_and_backticks():
    doc = {"options": {"parameter": None, "threshold": None},
           "comparisons": [{"commands": {"reference": "a | b", "candidate": "echo `x`"},
                            "parameter": None, "loops": 1, "cost": "wall", "unit": "ns",
                            "reference_median": 2e6, "candidate_median": 1e6,
                            "summary": {"speedup": 2.0, "ci_low": 1.9, "ci_high": 2.1,
                                        "confidence": 0.95, "lower_bound": 1.92,
                                        "verdict": "faster", "rounds": 16, "blocks": 8}}]}
    row = comparisons.to_markdown(doc).splitlines()[2]
    assert row.startswith("| `a \\| b` | `` echo `x` `` | 2.000x | 1.900x .. 2.100x | faster |")


# ------------------------------------------------------------ parameters


def test_parameter_values():
    assert comparisons.scan_values("1", "3") == ("1", "2", "3")
    assert comparisons.scan_values("0.1", "0.3", "0.1") == ("0.1", "0.2", "0.3")
    assert comparisons.scan_values("0", "1", "0.4") == ("0.0", "0.4", "0.8")  # one precision
    assert comparisons.scan_values("0.5", "1", "0.25") == ("0.50", "0.75", "1.00")
    assert comparisons.list_values("10, 100,x") == ("10", "100", "x")
    p = comparisons.parameter("n", ["1", "2"])
    jobs = comparisons.plan("old {n}", ["new {n}", "alt"], p)
    assert [(j.reference, j.candidate, j.value) for j in jobs] == [
        ("old 1", "new 1", "1"), ("old 1", "alt", "1"), ("old 2", "new 2", "2"), ("old 2", "alt", "2")]


def test_parameter_scan_compares_both_at_each_value(tmp_path):
    log, out = tmp_path / "log", tmp_path / "c.json"
    r = run("-q", "compare", f"echo ref {{n}} >> {log}; sleep 0.03",
            f"echo cand {{n}} >> {log}; sleep 0.01", "--parameter-scan", "n", "1", "3", *FAST,
            "--json", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, schemas.load("compare"))
    assert doc["options"]["parameter"] == {"name": "n", "values": ["1", "2", "3"]}
    assert [c["parameter"] for c in doc["comparisons"]] == [
        {"name": "n", "value": v} for v in ("1", "2", "3")]
    assert doc["comparisons"][1]["commands"]["candidate"] == f"echo cand 2 >> {log}; sleep 0.01"
    assert {c["summary"]["verdict"] for c in doc["comparisons"]} == {"faster"}
    # Each value's comparison ran the reference and the candidate at that value only.
    seen = log.read_text().splitlines()
    firsts = [seen.index(f"{side} {v}") for v in "123" for side in ("ref", "cand")]
    lasts = [len(seen) - 1 - seen[::-1].index(f"{side} {v}") for v in "123" for side in ("ref", "cand")]
    assert max(lasts[0:2]) < min(firsts[2:4]) and max(lasts[2:4]) < min(firsts[4:6])
    assert "{n}" in r.stdout  # the value column


def test_parameter_list_with_several_candidates(tmp_path):
    out = tmp_path / "c.csv"
    r = run("-q", "compare", "sleep 0.0{t}", "sleep 0.00{t}", "true",
            "--parameter-list", "t", "3,6", *FAST, "--export-csv", str(out))
    assert r.exit_code == 0, r.output
    table = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [(t["value"], t["reference"], t["candidate"]) for t in table] == [
        ("3", "sleep 0.03", "sleep 0.003"), ("3", "sleep 0.03", "true"),
        ("6", "sleep 0.06", "sleep 0.006"), ("6", "sleep 0.06", "true")]
    assert {t["verdict"] for t in table} == {"faster"} and {t["parameter"] for t in table} == {"t"}


# ------------------------------------------------------------ around the timed runs


def test_prepare_and_conclude_run_around_every_timed_run_untimed(tmp_path):
    log, out = tmp_path / "log", tmp_path / "c.json"
    r = run("-q", "compare", f"echo A >> {log}; sleep 0.02", f"echo B >> {log}; sleep 0.01",
            "--prepare", f"echo prepare >> {log}; sleep 0.2", "--conclude", f"echo conclude >> {log}",
            "--rounds", "4", "--warmup", "1", "--json", str(out))
    assert r.exit_code == 0, r.output
    seen = log.read_text().split()
    runs = [k for k, w in enumerate(seen) if w in ("A", "B")]
    assert len(runs) >= 2 * (4 + 1)  # every round and warm-up run
    assert all(seen[k - 1] == "prepare" and seen[k + 1] == "conclude" for k in runs)
    assert seen.count("prepare") == seen.count("conclude") == len(runs)
    # The 0.2 s of --prepare is not in the costs (a command is ~0.02 s; with it >= 0.22 s).
    doc = json.loads(out.read_text())
    assert doc["comparisons"][0]["reference_median"] < 0.15e9
    assert doc["options"]["prepare"] == f"echo prepare >> {log}; sleep 0.2"


def test_setup_and_cleanup_run_once_around_each_comparison(tmp_path):
    log = tmp_path / "log"
    r = run("-q", "compare", f"echo run >> {log}", f"echo run >> {log}", f"echo run >> {log}",
            "--setup", f"echo setup >> {log}", "--cleanup", f"echo cleanup >> {log}",
            "--rounds", "4", "--warmup", "0")
    assert r.exit_code == 0, r.output
    seen = log.read_text().split()
    assert [w for w in seen if w != "run"] == ["setup", "cleanup", "setup", "cleanup"]
    assert seen[0] == "setup" and seen[-1] == "cleanup" and seen[1] == "run"


def test_a_failing_hook_is_named_and_cleanup_still_runs(tmp_path):
    log = tmp_path / "log"
    r = run("-q", "compare", "true", "true", "--prepare", "exit 4", "--cleanup",
            f"echo cleanup >> {log}", "--rounds", "4")
    assert r.exit_code == EXIT_ERROR
    assert "prepare command failed (exit code 4)" in r.output and "Traceback" not in r.output
    assert log.read_text().split() == ["cleanup"]
    r = run("-q", "compare", "true", "true", "--setup", "echo nope >&2; exit 3", "--rounds", "4")
    assert r.exit_code == EXIT_ERROR
    assert "setup command failed (exit code 3): 'echo nope >&2; exit 3'; stderr: nope" in r.output


def test_a_missing_program_is_named_before_the_first_comparison(tmp_path):
    log = tmp_path / "log"
    r = run("compare", f"echo ref >> {log}", "true", "nope-not-here --x", "--rounds", "4")
    assert r.exit_code == EXIT_ERROR
    assert "candidate: command not found: 'nope-not-here'" in r.output
    assert not log.exists()  # nothing ran


@pytest.mark.parametrize("show", [False, True])
def test_show_output_lets_the_commands_write_to_the_terminal(show):
    args = [sys.executable, "-m", "frontier_measure", "-q", "compare", "echo REF-SAYS",
            "echo CAND-SAYS >&2", "--rounds", "4", "--warmup", "0", "--prepare", "echo PREP-SAYS"]
    r = subprocess.run(args + (["--show-output"] if show else []), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert ("REF-SAYS" in r.stdout) is show and ("PREP-SAYS" in r.stdout) is show
    assert ("CAND-SAYS" in r.stderr) is show
    assert "speedup (reference/candidate)" in r.stdout


# ------------------------------------------------------------ argument errors


@pytest.mark.parametrize("args,needle", [
    (["sleep 5"], "at least one candidate"),
    (["--ref", "sleep 5"], "at least one candidate"),
    (["--cand", "sleep 5", "sleep 5"], "--cand or as arguments"),
    (["sleep 5", ""], "empty"),
    (["sleep {n}", "sleep {n}", "--parameter-scan", "n", "3", "1"], "above its maximum"),
    (["sleep {n}", "sleep {n}", "--parameter-scan", "n", "1", "x"], "numbers"),
    (["sleep {n}", "sleep {n}", "--parameter-scan", "n", "1", "3", "--parameter-step", "0"],
     "step must be above 0"),
    (["sleep {n}", "sleep {n}", "--parameter-scan", "n", "1", "1e9"], "at most 1000"),
    (["sleep 5", "sleep 5", "--parameter-step", "1"], "--parameter-step"),
    (["sleep {n}", "sleep {n}", "--parameter-scan", "n", "1", "2", "--parameter-list", "n", "1"],
     "not both"),
    (["sleep {n}", "sleep {n}", "--parameter-list", "n", "1,,2"], "none empty"),
    (["sleep {n}", "sleep {n}", "--parameter-list", "n-1", "1"], "parameter name"),
    (["sleep 5", "sleep 5", "--parameter-list", "m", "1,2"], "{m} appears in no command"),
    (["sleep 5", "sleep 5", "--save", "../up"], "baseline name"),
    (["sleep 5", "sleep 5", "--export-csv", "/no/such/dir/x.csv"], "does not exist"),
    (["sleep 5", "sleep 5", "--export-markdown", "/no/such/dir/x.md"], "does not exist"),
    (["sleep 5", "sleep 5", "--parameter-scan", "n", "1"], "--parameter-scan"),
])
def test_argument_errors_come_before_any_work(args, needle):
    started = time.monotonic()
    r = run("compare", *args)
    assert time.monotonic() - started < 3  # nothing was measured
    assert r.exit_code == EXIT_USAGE, r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert needle in r.output
