"""Saved baselines and `check`: compare --save stores the commands, options and
rounds; check re-runs the saved reference command against a new candidate in
fresh paired rounds and gates on --max-slowdown. Verdicts on sleeps of known
ratio, never timed assertions."""

from __future__ import annotations

import json
import time

import jsonschema
import pytest
from click.testing import CliRunner

from frontier_measure import baselines, schemas
from frontier_measure.cli import EXIT_ERROR, EXIT_FAILED, EXIT_USAGE, main

FAST = "--rounds", "16", "--warmup", "0"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def saved(tmp_path):
    """Baseline 'base': the reference logs each run, then sleeps 0.03 s."""
    log, store = tmp_path / "log", tmp_path / "store"
    ref = f"echo ref >> {log}; sleep 0.03"
    r = run("-q", "compare", ref, "sleep 0.02", *FAST, "--save", "base", "--baselines", str(store))
    assert r.exit_code == 0, r.output
    assert f"saved baseline 'base': {store / 'base.json'}" in r.stdout
    return log, store, ref


def test_a_baseline_holds_commands_options_and_every_round(saved):
    log, store, ref = saved
    doc = json.loads((store / "base.json").read_text())
    jsonschema.validate(doc, schemas.load("compare"))
    assert doc["commands"] == {"reference": ref, "candidates": ["sleep 0.02"]}
    assert doc["options"]["rounds"] == 16 and doc["options"]["warmup"] == 0
    rounds = doc["comparisons"][0]["rounds"]
    assert len(rounds) == 16 and all(x["reference"] > 0 and x["candidate"] > 0 for x in rounds)
    assert baselines.load("base", store)["comparisons"][0]["summary"]["verdict"] == "faster"


def test_check_reruns_the_saved_reference_and_passes_a_faster_candidate(saved, tmp_path):
    log, store, ref = saved
    before = log.read_text().count("ref")
    out = tmp_path / "check.json"
    r = run("-q", "check", "base", "sleep 0.01", "--baselines", str(store), "--max-slowdown", "1.5",
            "--json", str(out))
    assert r.exit_code == 0, r.output
    assert "check passed: at most 1.5x slower" in r.stdout
    # The reference command ran again, in the check's own rounds (16, with the saved options).
    assert log.read_text().count("ref") >= before + 16
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, schemas.load("compare"))
    assert doc["baseline"]["name"] == "base" and doc["baseline"]["max_slowdown"] == 1.5
    c = doc["comparisons"][0]
    assert c["commands"] == {"reference": ref, "candidate": "sleep 0.01"}
    assert c["check"]["passed"] is True and len(c["rounds"]) == 16
    assert c["check"]["saved_speedup"] > 1  # the baseline's own, for the record


def test_check_fails_a_slower_candidate(saved, tmp_path):
    _, store, _ = saved
    md = tmp_path / "check.md"
    r = run("-q", "check", "base", "sleep 0.09", "sleep 0.01", "--baselines", str(store),
            "--max-slowdown", "1.5", "--export-markdown", str(md))
    assert r.exit_code == EXIT_FAILED, r.output
    assert "check failed: 1 of 2 comparisons" in r.stderr
    rows = md.read_text().splitlines()
    assert "FAILED (max slowdown 1.5x)" in rows[2] and "passed (max slowdown 1.5x)" in rows[3]


def test_baselines_default_to_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("-q", "compare", "sleep 0.02", "sleep 0.01", *FAST, "--save", "here")
    assert r.exit_code == 0, r.output
    assert (tmp_path / ".frontier-measure" / "baselines" / "here.json").is_file()
    r = run("-q", "check", "here", "sleep 0.01", "--max-slowdown", "2")
    assert r.exit_code == 0, r.output


def test_a_parameter_is_checked_at_every_saved_value(tmp_path):
    store = tmp_path / "store"
    r = run("-q", "compare", "sleep 0.0{t}", "sleep 0.00{t}", "--parameter-list", "t", "3,6",
            *FAST, "--save", "scan", "--baselines", str(store))
    assert r.exit_code == 0, r.output
    out = tmp_path / "c.json"
    r = run("-q", "check", "scan", "sleep 0.00{t}", "--baselines", str(store), "--json", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert [(c["commands"]["reference"], c["commands"]["candidate"]) for c in doc["comparisons"]] == [
        ("sleep 0.03", "sleep 0.003"), ("sleep 0.06", "sleep 0.006")]


def test_a_missing_baseline_is_a_usage_error_naming_the_saved_ones(saved):
    _, store, _ = saved
    started = time.monotonic()
    r = run("check", "nope", "true", "--baselines", str(store))
    assert time.monotonic() - started < 3
    assert r.exit_code == EXIT_USAGE
    assert "no baseline 'nope'" in r.output and "saved there: base" in r.output
    r = run("check", "base", "true", "--baselines", str(store), "--max-slowdown", "0.5")
    assert r.exit_code == EXIT_USAGE and "--max-slowdown" in r.output
    r = run("check", "../base", "true", "--baselines", str(store))
    assert r.exit_code == EXIT_USAGE and "baseline name" in r.output


def test_a_damaged_baseline_is_named(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / "bad.json").write_text("{not json")
    (store / "old.json").write_text(json.dumps({"schema": "frontier-measure/compare",
                                                "schema_version": 1}))
    r = run("check", "bad", "true", "--baselines", str(store))
    assert r.exit_code == EXIT_ERROR and "bad.json: not a readable JSON file" in r.output
    r = run("check", "old", "true", "--baselines", str(store))
    assert r.exit_code == EXIT_ERROR and "schema_version 1" in r.output
    assert "Traceback" not in r.output
