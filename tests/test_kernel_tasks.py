"""Kernel-scale tasks end to end, through the one pipeline (evaluate.evaluate
with runners/kernel.py): the oracle reaches its threshold; a wrong candidate
fails functionality; a forbidden call fails compliance, in the source or in the
object's symbols; the reference itself is not faster than itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frontier_measure import golden, runners
from frontier_measure.compliance.c import CRules, inspect_sources, strip_c
from frontier_measure.evaluate import evaluate

TASKS = Path(__file__).resolve().parents[1] / "tasks" / "kernel"
NAMES = sorted(p.name for p in TASKS.iterdir() if (p / "task.toml").is_file())


def test_there_are_at_least_three_kernel_tasks() -> None:
    assert len(NAMES) >= 3


@pytest.mark.needs_zig
@pytest.mark.parametrize("name", NAMES)
def test_golden_outputs_are_current(name: str) -> None:
    task, runner = runners.load(TASKS / name)
    recorded = golden.load(task, golden.digest(task.reference_dir, runner.held_out(task)))
    assert {i.split("/")[0] for i in recorded["items"]} == {c.id for c in runner.cases(task)}


@pytest.mark.needs_zig
@pytest.mark.parametrize("name", NAMES)
def test_oracle_reaches_threshold(name: str, tmp_path: Path) -> None:
    res = evaluate(TASKS / name, out=tmp_path)
    assert res["strict_success"], res["failure"]
    assert res["functional"]["passed"] == res["functional"]["total"] > 0
    perf = res["performance"]
    assert perf["speedup"] > perf["threshold"]
    assert all(t["candidate_cycles"] < t["reference_cycles"] for t in perf["inputs"])
    assert all(t["deterministic"] and t["rounds"] == 1 for t in perf["inputs"])
    assert res["reward"]["reward"] == 1.0
    written = json.loads((tmp_path / f"kernel-{name}" / "result.json").read_text())
    assert written["strict_success"] is True and written["schema_version"] == 3


@pytest.mark.needs_zig
@pytest.mark.parametrize("name", NAMES)
def test_reference_is_not_faster_than_itself(name: str) -> None:
    res = evaluate(TASKS / name, TASKS / name / "environment" / "workspace")
    assert not res["strict_success"]
    assert res["functional"]["passed"] == res["functional"]["total"]
    assert res["performance"]["speedup"] == 1.0  # cycles are exact: no noise
    assert res["failure"]["rule"] == "no-speedup"


@pytest.mark.needs_zig
@pytest.mark.parametrize("name", NAMES)
def test_wrong_output_fails_functionality(name: str) -> None:
    res = evaluate(TASKS / name, TASKS / name / "tests" / "candidates" / "wrong_output")
    assert res["compliance"]["compliant"]
    assert res["failure"]["stage"] == "functional"
    assert res["failure"]["rule"] == "wrong-stdout"
    assert res["functional"]["failed"] > 0
    assert not res["performance"]["ran"]


@pytest.mark.needs_zig
@pytest.mark.parametrize("name", NAMES)
def test_forbidden_call_fails_compliance(name: str) -> None:
    res = evaluate(TASKS / name, TASKS / name / "tests" / "candidates" / "forbidden_call")
    assert not res["compliance"]["compliant"]
    assert res["failure"]["stage"] == "compliance"
    assert not res["functional"]["ran"]
    assert res["reward"]["reward"] == 0.0


@pytest.mark.needs_zig
def test_call_hidden_behind_a_macro_is_caught_in_the_object() -> None:
    res = evaluate(TASKS / "matmul", TASKS / "matmul" / "tests" / "candidates" / "hidden_call")
    assert res["failure"]["rule"] == "forbidden-symbol"
    assert "qsort" in res["failure"]["reason"]


@pytest.mark.needs_zig
def test_global_interposing_on_the_harness_is_caught() -> None:
    res = evaluate(TASKS / "histogram",
                          TASKS / "histogram" / "tests" / "candidates" / "interposer")
    assert res["failure"]["rule"] == "extra-global"
    assert "printf" in res["failure"]["reason"]


@pytest.mark.needs_zig
def test_candidate_cannot_replace_the_fixed_header(tmp_path: Path) -> None:
    # A candidate that ships its own cell.h is still compiled against the task's.
    src = TASKS / "stencil" / "solution" / "workspace"
    (tmp_path / "kernel.c").write_text((src / "kernel.c").read_text())
    (tmp_path / "cell.h").write_text("#include <stdint.h>\nstruct cell { int32_t temp; };\n")
    res = evaluate(TASKS / "stencil", tmp_path)
    assert res["strict_success"], res["failure"]


def test_strip_c_blanks_comments_and_strings_only() -> None:
    src = 'int f(void) { /* malloc(1) */ return g("free(x)") + h(); } // asm("x")\n'
    out = strip_c(src)
    assert len(out) == len(src)
    assert "malloc" not in out and "free" not in out and "asm" not in out
    assert "g(" in out and "h()" in out


def test_source_rules(tmp_path: Path) -> None:
    (tmp_path / "kernel.c").write_text(
        '#include <stdint.h>\n#include <stdio.h>\n#include "mine.h"\n'
        "void k(void) {\n  /* printf(\"no\") */\n  puts(\"x\");\n  __asm__(\"nop\");\n}\n")
    (tmp_path / "mine.h").write_text("#pragma once\n")
    rules = CRules(prohibited_calls=["puts"], required_symbols=["k"])
    found = {(f.rule, f.line) for f in inspect_sources(tmp_path, rules)}
    # Headers are judged from the compiler's account (tests/test_kernel_build.py).
    assert found == {("prohibited-call", 6), ("inline-asm", 7)}
