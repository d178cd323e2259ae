"""The command line as a benchmarking user meets it: exit statuses that gate CI,
argument errors before any work, missing extras named, progress with an
estimate, --version, --quiet, colour, cut lists that say how much was cut,
`compare` through a shell, compare.json and result.json against their shipped
JSON Schemas, attempts labelled in reports."""

from __future__ import annotations

import io
import json
import shutil
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from frontier_measure import evalview, harbor, progress, schemas
from frontier_measure.cli import EXIT_ERROR, EXIT_FAILED, EXIT_USAGE, main
from report_results import result, sealed

ROOT = Path(__file__).resolve().parents[1]
DEDUPE = ROOT / "tasks" / "module" / "dedupe"
SPIN = "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


# ------------------------------------------------------------ version, quiet, colour


def test_version():
    from importlib.metadata import version

    r = run("--version")
    assert r.exit_code == 0
    assert r.output.strip() == f"frontier-measure {version('frontier-measure')}"


def test_quiet_silences_progress_only(tmp_path):
    loud = run("compare", "--ref", "true", "--cand", "true", "--rounds", "16")
    assert loud.exit_code == 0, loud.output
    assert "measuring: " in loud.stderr and "rounds in" in loud.stderr
    quiet = run("-q", "compare", "--ref", "true", "--cand", "true", "--rounds", "16")
    assert quiet.exit_code == 0
    assert quiet.stderr == ""
    assert "verdict" in quiet.stdout


def test_no_color_in_the_environment_turns_colour_off_unless_asked(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    forced = CliRunner().invoke(main, ["compare", "--ref", SPIN, "--cand", "true", "--rounds",
                                       "16"], color=True)  # as on a terminal
    assert "\x1b[" not in forced.stdout
    asked = run("--color", "compare", "--ref", SPIN, "--cand", "true", "--rounds", "16")
    assert "\x1b[32m" in asked.stdout


def test_colour_only_when_asked_or_on_a_terminal():
    plain = run("compare", "--ref", SPIN, "--cand", "true", "--rounds", "16")
    assert "\x1b[" not in plain.stdout
    coloured = run("--color", "compare", "--ref", SPIN, "--cand", "true", "--rounds", "16")
    assert "\x1b[32m" in coloured.stdout  # 'faster' in green


# ------------------------------------------------------------ exit statuses


def test_compare_exit_status_gates_on_the_threshold():
    met = run("compare", "--ref", SPIN, "--cand", "true", "--rounds", "16", "--threshold", "1.5")
    assert met.exit_code == 0, met.output
    # A candidate far slower than the reference: shown below the threshold at any
    # load (an A/A pair's interval can reach above 2x on a busy machine: undecided, 3).
    missed = run("compare", "--ref", "true", "--cand", SPIN, "--rounds", "16", "--threshold", "2")
    assert missed.exit_code == EXIT_FAILED
    assert "threshold not met" in missed.stderr
    no_claim = run("compare", "--ref", "true", "--cand", "true", "--rounds", "16")
    assert no_claim.exit_code == 0


@pytest.mark.parametrize("args", [
    ["--threshold", "-1"], ["--threshold", "0"], ["--rounds", "1"], ["--rounds", "many"],
    ["--warmup", "-2"], ["--precision", "0"], ["--max-time", "-5"], ["--timeout", "0"],
    ["--shell", "/no/such/shell"],
])
def test_argument_errors_come_before_any_work(args):
    started = time.monotonic()
    r = run("compare", "--ref", "sleep 5", "--cand", "sleep 5", *args)
    assert time.monotonic() - started < 3  # nothing was measured
    assert r.exit_code == EXIT_USAGE
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert args[0] in r.output


def test_eval_exit_status_is_one_unless_strict_success(tmp_path):
    wrong = ROOT / "tests" / "candidates" / "module" / "wrong_value"
    r = run("-q", "eval", str(DEDUPE), "--candidate", str(wrong), "--out", str(tmp_path / "o"))
    assert r.exit_code == EXIT_FAILED, r.output
    assert "not a success" in r.stdout


def test_eval_of_a_broken_task_is_an_error_not_a_verdict(tmp_path):
    task = tmp_path / "dedupe"
    shutil.copytree(DEDUPE, task)
    (task / "task.toml").write_text("not toml [")
    r = run("eval", str(task))
    assert r.exit_code == EXIT_ERROR
    assert "malformed TOML" in r.output and "Traceback" not in r.output


def test_eval_argument_errors_before_work(tmp_path):
    r = run("eval", str(ROOT / "tasks"), "--candidate", str(tmp_path))
    assert r.exit_code == EXIT_USAGE and "single task" in r.output
    r = run("eval", str(DEDUPE), "--attempt", "0")
    assert r.exit_code == EXIT_USAGE and "--attempt" in r.output


# ------------------------------------------------------------ missing extras


def test_a_missing_extra_is_named_before_any_work(monkeypatch, tmp_path):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "docker" else real(name, *a))
    started = time.monotonic()
    r = run("eval", str(DEDUPE), "--isolation", "docker", "--out", str(tmp_path / "o"))
    assert time.monotonic() - started < 5
    assert r.exit_code == EXIT_ERROR
    assert "optional dependency 'docker'" in r.output
    assert "pip install 'frontier-measure[docker]'" in r.output
    assert "Traceback" not in r.output


def test_a_missing_extra_met_during_work_is_named(monkeypatch, tmp_path):
    from frontier_measure import report

    def build(*_a, **_k):
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")

    monkeypatch.setattr(report, "build", build)
    r = run("report", str(tmp_path), "--out", str(tmp_path / "r"))
    assert r.exit_code == EXIT_ERROR
    assert "pip install 'frontier-measure[report]'" in r.output
    assert "Traceback" not in r.output


# ------------------------------------------------------------ harbor export --force


def test_harbor_export_refuses_a_non_empty_destination(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    r = run("harbor", "export", str(DEDUPE), str(out))
    assert r.exit_code == EXIT_USAGE
    assert "--force" in r.output and "not empty" in r.output
    assert (out / "keep.txt").read_text() == "mine"
    with pytest.raises(harbor.DestinationNotEmpty):
        harbor.export(DEDUPE, out, wheels=tmp_path, force=False)
    assert (out / "keep.txt").read_text() == "mine"


@pytest.mark.slow
def test_harbor_export_with_force_replaces_it(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "frontier_measure-0-py3-none-any.whl").write_bytes(b"layout only")
    r = run("-q", "harbor", "export", str(DEDUPE), str(out), "--force", "--wheels", str(wheels))
    assert r.exit_code == 0, r.output
    assert not (out / "keep.txt").exists() and (out / "tests" / "test.sh").is_file()


# ------------------------------------------------------------ compare: shell, json, schema


def test_compare_runs_commands_through_a_shell_by_default(tmp_path):
    log = tmp_path / "log"
    r = run("-q", "compare", "--ref", f"echo a | cat >> {log}", "--cand", f"echo b >> {log}",
            "--rounds", "6", "--warmup", "0")
    assert r.exit_code == 0, r.output
    lines = log.read_text().split()
    assert set(lines) == {"a", "b"}  # the pipe and the redirection were the shell's


def test_shell_none_runs_the_words_directly(tmp_path):
    log = tmp_path / "log"
    for flag in (["--shell=none"], ["-N"]):
        r = run("-q", "compare", "--ref", f"echo a >> {log}", "--cand", f"echo b >> {log}",
                "--rounds", "6", "--warmup", "0", *flag)
        assert r.exit_code == 0, r.output
        assert not log.exists()  # '>>' was an argument of echo, not a redirection


def test_another_shell_can_be_named(tmp_path):
    log = tmp_path / "log"
    r = run("-q", "compare", "--ref", f"echo $0 >> {log}", "--cand", "true", "--rounds", "6",
            "--warmup", "0", "--shell", "bash")
    assert r.exit_code == 0, r.output
    assert "bash" in log.read_text()


def test_an_unknown_program_is_still_named_through_the_shell():
    r = run("compare", "--ref", "true", "--cand", "nope-not-here --flag", "--rounds", "6")
    assert r.exit_code == EXIT_ERROR
    assert "candidate: command not found: 'nope-not-here'" in r.output


def test_compare_json_records_commands_options_environment_and_schema(tmp_path):
    out = tmp_path / "c.json"
    r = run("-q", "compare", "--ref", SPIN, "--cand", "true", "--rounds", "16",
            "--threshold", "1.5", "--json", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, schemas.load("compare"))
    assert doc["schema"] == "frontier-measure/compare" and doc["schema_version"] == 2
    assert doc["commands"] == {"reference": SPIN, "candidates": ["true"]}
    assert doc["options"]["shell"] == "/bin/sh" and doc["options"]["rounds"] == 16
    assert doc["options"]["threshold"] == 1.5 and doc["options"]["parameter"] is None
    [c] = doc["comparisons"]
    assert c["commands"] == {"reference": SPIN, "candidate": "true"}
    assert c["environment"] and doc["frontier_measure_version"]


def test_compare_json_of_version_1_still_validates():
    v1 = {"schema": "frontier-measure/compare", "schema_version": 1, "frontier_measure_version": "0",
          "commands": {"reference": "a", "candidate": "b"},
          "options": {"rounds": 16, "warmup": 2, "threshold": None, "cost": "wall",
                      "precision": 0.01, "max_time": 10.0, "timeout": 600.0, "shell": "/bin/sh",
                      "seed": 0},
          "summary": {"speedup": 1.0, "ci_low": 0.9, "ci_high": 1.1, "verdict": "indistinguishable",
                      "confidence": 0.95},
          "cost": "wall", "unit": "ns", "loops": 1, "rounds": [], "reference_median": 1.0,
          "candidate_median": 1.0, "elapsed_s": 1.0, "warnings": [], "environment": {}}
    jsonschema.validate(v1, schemas.load("compare"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**v1, "schema_version": 2}, schemas.load("compare"))


def test_schemas_ship_with_the_package_and_print():
    for name in schemas.NAMES:
        s = schemas.load(name)
        jsonschema.Draft202012Validator.check_schema(s)
        r = run("schema", name)
        assert r.exit_code == 0 and json.loads(r.stdout) == s


def test_result_json_follows_its_schema(tmp_path):
    wrong = ROOT / "tests" / "candidates" / "module" / "wrong_value"
    run("-q", "eval", str(DEDUPE), "--candidate", str(wrong), "--out", str(tmp_path / "o"),
        "--agent", "agent-x", "--label", "try", "--attempt", "2")
    files = list((tmp_path / "o").rglob("result.json"))
    assert len(files) == 1
    doc = json.loads(files[0].read_text())
    jsonschema.validate(doc, schemas.load("result"))
    assert (doc["agent"], doc["label"], doc["attempt"]) == ("agent-x", "try", 2)
    for res in (result("t"), result("t", stage="functional", passed=3),
                result("t", stage="compliance")):
        jsonschema.validate(res, schemas.load("result"))


# ------------------------------------------------------------ progress


def test_estimates():
    assert progress.duration(5) == "5 s" and progress.duration(125) == "2 min 05 s"
    assert progress.estimate(10.0, 5, 10) == "about 10 s left"
    assert progress.estimate(10.0, 5, 10, budget_s=12) == "about 2 s left"
    assert progress.estimate(0.0, 0, 10) is None


def test_meter_writes_a_line_per_step_off_a_terminal():
    buf = io.StringIO()
    m = progress.Meter("evaluating", stream=buf)
    m.step("compliance")
    m.step("timing n300 (input 1 of 2)", "about 8 s of timing left")
    m.count("round", 1, 10)
    m.done()
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("evaluating: [0 s] compliance")
    assert "about 8 s of timing left" in lines[1]
    assert lines[-1].startswith("evaluating: done in")
    quiet = io.StringIO()
    progress.Meter("x", stream=quiet, quiet=True).step("y")
    assert quiet.getvalue() == ""


def test_compare_progress_shows_rounds_and_an_estimate():
    r = run("compare", "--ref", "true", "--cand", "true", "--rounds", "16")
    assert "measuring: round " in r.stderr and " of " in r.stderr


def test_eval_shows_its_stages_as_they_happen(tmp_path):
    wrong = ROOT / "tests" / "candidates" / "module" / "wrong_value"
    r = run("eval", str(DEDUPE), "--candidate", str(wrong), "--out", str(tmp_path / "o"))
    assert "evaluating: [" in r.stderr and "compliance" in r.stderr and "functional" in r.stderr
    assert "evaluating: done in" in r.stderr


# ------------------------------------------------------------ cut lists


def test_cut_lists_say_how_many_more():
    res = result("t", stage="functional", passed=2, total=10)
    res["functional"]["items"][5]["diff"] = [f"d{k}" for k in range(7)]
    res["compliance"]["findings"] = [{"file": "a.py", "line": k, "rule": "r", "detail": "x"}
                                     for k in range(1, 14)]
    text = evalview.evaluation(res)
    assert "... 3 more failing items" in text
    assert "... 4 more differences" in text
    assert "... 3 more findings" in text


def test_dict_key_differences_say_how_many_more():
    from frontier_measure.diff import _cut

    assert _cut([str(k) for k in range(8)]) == "[0, 1, 2, 3, 4, ... 3 more]"
    assert _cut(["a"]) == "[a]"


# ------------------------------------------------------------ report labels


def test_report_labels_attempts_by_agent_label_and_number(tmp_path):
    from frontier_measure import report as rep

    runs = tmp_path / "runs"
    for agent in ("codex", "claude"):
        for n in (1, 2):
            p = runs / agent / str(n) / "result.json"
            p.parent.mkdir(parents=True)
            p.write_text(sealed(result("dedupe", candidate="workspace", agent=agent,
                                       label="base", attempt=n if agent == "codex" else n + 2)))
    # A directory of another tool's results, found by the search: left out quietly.
    other = runs / "harbor-job" / "trial-1" / "result.json"
    other.parent.mkdir(parents=True)
    other.write_text(json.dumps({"id": "trial-1", "verifier_result": {"rewards": {"reward": 1}}}))
    built = rep.build([runs])
    labels = sorted((a.number, a.label) for a in built.attempts)
    assert labels == [(1, "codex: base"), (2, "codex: base"), (3, "claude: base"),
                      (4, "claude: base")]
    assert built.skipped == [] and built.foreign == 1
    assert "1 result.json of other tools ignored" in rep.counts(built)
    # Named explicitly, it is listed with its reason.
    assert rep.build([other]).skipped


# ------------------------------------------------------------ commands by audience


def test_help_lists_the_commands_by_audience():
    from frontier_measure.cli import PLUMBING, SECTIONS

    text = run("--help").output
    titles = [title for title, _ in SECTIONS]
    at = [text.index(f"{title}:") for title in titles]
    assert at == sorted(at), text
    for (title, names), start, end in zip(SECTIONS, at, [*at[1:], len(text)], strict=True):
        listed = [line.split()[0] for line in text[start:end].splitlines()[1:] if line.strip()]
        assert listed[:len(names)] == list(names), (title, listed)
    # Every visible command has its audience: nothing falls into "Other commands".
    assert "Other commands" not in text
    assert {n for _, names in SECTIONS for n in names} == {
        n for n, c in main.commands.items() if not c.hidden}
    # The agents' plumbing is named once, on one line, not among the commands.
    plumbing = text[text.index("Plumbing"):]
    assert ", ".join(PLUMBING) in plumbing
    for name in PLUMBING:
        assert not any(line.split()[:1] == [name] for line in text.splitlines()), name


def test_the_plumbing_stays_callable(tmp_path):
    import subprocess
    import sys

    for name in ("delegate", "index", "lsp", "scripted-model"):
        r = run(name, "--help")
        assert r.exit_code == 0 and "Usage:" in r.output, (name, r.output)
    # As the platform starts them for its agents: python -m frontier_measure NAME ...
    (tmp_path / "a.py").write_text("def spin(n):\n    return sum(range(n))\n")
    r = subprocess.run([sys.executable, "-m", "frontier_measure", "index", "query", str(tmp_path),
                        "spin", "--no-cache"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "spin" in r.stdout


def test_global_options_may_follow_the_command():
    quiet = run("compare", "--ref", "true", "--cand", "true", "--rounds", "16", "-q")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stderr == "" and "verdict" in quiet.stdout
    loud = run("compare", "--ref", "true", "--cand", "true", "--rounds", "16")
    assert "measuring: " in loud.stderr
    coloured = run("compare", "--ref", SPIN, "--cand", "true", "--rounds", "16", "--color")
    assert "\x1b[32m" in coloured.stdout
    # After the command it wins over the one before it, and over NO_COLOR.
    plain = CliRunner().invoke(main, ["--color", "compare", "--ref", SPIN, "--cand", "true",
                                      "--rounds", "16", "--no-color"], color=True)
    assert "\x1b[" not in plain.stdout
    # Every command and subcommand takes them, `run` keeps its own --quiet.
    for path in (["eval"], ["task", "new"], ["sim", "run"], ["harbor", "trial"], ["run"]):
        r = run(*path, "--help")
        assert "-q, --quiet" in r.output and "--color / --no-color" in r.output, path


# ------------------------------------------------------------ compare --ignore-failure


def test_compare_ignore_failure_takes_a_non_zero_exit_as_work(tmp_path):
    fails = "sh -c 'exit 3'"
    r = run("-q", "compare", "true", fails, "--rounds", "16")
    assert r.exit_code == EXIT_ERROR
    assert "exit code 3" in r.output
    out = tmp_path / "c.json"
    r = run("-q", "compare", "true", fails, "--rounds", "16", "--ignore-failure",
            "--json", str(out))
    assert r.exit_code == 0, r.output
    assert "verdict" in r.stdout
    doc = json.loads(out.read_text())
    assert doc["options"]["ignore_failure"] is True
    jsonschema.validate(doc, schemas.load("compare"))
    assert run("-q", "compare", "false", "true", "--rounds", "16", "-i").exit_code == 0
    # A signal is still a failure: the command did not finish its work.
    r = run("-q", "compare", "true", "sh -c 'kill -KILL $$'", "--rounds", "16", "-i")
    assert r.exit_code == EXIT_ERROR
    assert "SIGKILL" in r.output


# ------------------------------------------------------------ the summary of a run


def test_the_summary_names_kernel_tasks_by_their_directory():
    rows = [result("frontier-measure/kernel-histogram", "kernel"),
            result("frontier-measure/dedupe", "module"),
            result("frontier-measure/kernel", "kernel")]
    text = evalview.suite(rows)
    assert "kernel/histogram" in text and "kernel-histogram" not in text
    assert "module/dedupe" in text
    assert "kernel/kernel" in text  # a name that is only the scale stays whole


def test_report_labels_harbor_trials_by_their_agent(tmp_path):
    from frontier_measure import report as rep

    # A Harbor job directory as Harbor leaves it: each trial's config.json names
    # its agent, its verifier/ holds what the verifier wrote (our result.json).
    job = tmp_path / "jobs" / "2026-12-03__10-00-00"
    for trial, agent in (("dedupe__AbCdE", "oracle"), ("dedupe__FgHiJ", "nop")):
        (job / trial).mkdir(parents=True)
        (job / trial / "config.json").write_text(json.dumps(
            {"trial_name": trial, "agent": {"name": agent, "model_name": None}}))
        (job / trial / "result.json").write_text(json.dumps(
            {"trial_name": trial, "agent_info": {"name": agent, "version": "1.0"}}))
        out = job / trial / "verifier" / "out" / "module-dedupe" / "result.json"
        out.parent.mkdir(parents=True)
        out.write_text(sealed(result("dedupe", candidate="app",
                                     stage="ok" if agent == "oracle" else "functional")))
    # Harbor's result.json alone (no config.json) names the agent too.
    (job / "dedupe__FgHiJ" / "config.json").unlink()
    built = rep.build([tmp_path / "jobs"])
    labels = sorted((a.label, a.is_oracle) for a in built.attempts)
    assert labels == [("nop: dedupe__FgHiJ", False), ("oracle: dedupe__AbCdE", True)]
    assert built.foreign == 2  # Harbor's own result.json files, left out quietly
    out = tmp_path / "report"
    r = run("report", str(tmp_path / "jobs"), "--out", str(out), "--format", "md")
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    assert "oracle: dedupe__AbCdE" in md and "nop: dedupe__FgHiJ" in md
    assert "(oracle)" not in md  # the agent says it already
