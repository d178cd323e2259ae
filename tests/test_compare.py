"""compare(): the public timing API, on real callables and real commands."""

from __future__ import annotations

import json
import os
import signal
import threading

import pytest
from click.testing import CliRunner

import frontier_measure as fm
from frontier_measure.cli import main


def work(n: int):
    def f() -> int:
        return sum(range(n))

    return f


def test_callables_big_ratio_is_found():
    r = fm.compare(work(20000), work(2000), rounds=16, threshold=2.0)
    assert r.verdict == "faster"
    assert 3 < r.speedup < 30
    assert r.meets_threshold is True
    assert r.summary.rounds == 16
    assert len(r.rounds) == 16
    # One loop count shared by both sides, calibrated to a batch of >= 1 ms.
    assert r.loops >= 1
    assert all(x["reference_wall_ns"] > 0 and x["candidate_wall_ns"] > 0 for x in r.rounds)
    assert {x["reference_first"] for x in r.rounds} == {True, False}


def test_slower_candidate():
    r = fm.compare(work(2000), work(20000), rounds=16)
    assert r.verdict == "slower" and r.speedup < 0.5


def test_auto_rounds_stop_at_precision_or_budget():
    r = fm.compare(work(5000), work(5000), precision=5.0, max_time=120)
    # Any interval is narrow enough at this precision: the pilot only (32
    # rounds by default: 8 blocks of 2 pairs). The budget is a cap, so it is
    # generous: at load 20 a first block with its calibration took seconds.
    assert (r.summary.rounds, r.summary.pairs, r.summary.blocks) == (32, 16, 8)
    assert [x["block"] for x in r.rounds] == [b for b in range(8) for _ in range(4)]
    assert [x["pair"] for x in r.rounds] == [i // 2 for i in range(32)]


def test_fixed_rounds_are_split_into_enough_blocks():
    r = fm.compare(work(5000), work(4000), rounds=17)
    # 17 rounds: 8 whole pairs, each its own block, so that a claim is possible.
    assert (r.summary.rounds, r.summary.pairs, r.summary.blocks) == (16, 8, 8)
    assert r.verdict != "insufficient"


def test_threshold_must_be_positive_before_any_work():
    with pytest.raises(ValueError, match="threshold"):
        fm.compare(work(10), work(10), threshold=-1)


def test_commands_and_json_roundtrip():
    r = fm.compare(["sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done"],
                   "sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done'", rounds=16)
    assert r.verdict == "faster"
    d = json.loads(json.dumps(r.to_dict()))
    assert d["summary"]["verdict"] == "faster"
    assert d["environment"]["clock"]["source"]


def test_cpu_cost_for_commands():
    r = fm.compare("sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'",
                   "sh -c 'sleep 0.05'", rounds=16, cost="cpu")
    # Sleeping costs wall time but almost no CPU.
    assert r.speedup > 3


def test_failing_side_is_named():
    with pytest.raises(fm.SideError, match=r"candidate: command failed \(exit code 3\); stderr: boom") as e:
        fm.compare("true", "sh -c 'echo boom >&2; exit 3'", rounds=6)
    assert e.value.side == "candidate"


def test_timeout_is_named():
    with pytest.raises(fm.SideError, match="reference: command timed out") as e:
        fm.compare("sleep 5", "true", rounds=6, timeout=0.3)
    assert e.value.side == "reference"


def test_missing_command_is_named():
    with pytest.raises(fm.SpawnError, match="candidate: command not found: 'nope-not-here'"):
        fm.compare("true", "nope-not-here", rounds=6)


def test_unavailable_cost_says_why():
    from frontier_measure import _core

    cycles = _core.probe_counters(["cycles"])[0]
    if cycles.available:
        pytest.skip("hardware counters work here")
    with pytest.raises(fm.MeasureError, match="cost 'cycles' is not measurable here: not supported"):
        fm.compare(work(10), work(10), rounds=6, cost="cycles")


def test_raising_callable_propagates():
    def bad() -> None:
        raise ZeroDivisionError("side effect")

    with pytest.raises(ZeroDivisionError):
        fm.compare(work(10), bad, rounds=6)


def test_ctrl_c_stops_a_long_comparison():
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            fm.compare(work(1000), work(1000), rounds=100000, max_time=60)
    finally:
        timer.cancel()


def test_cli_compare_prints_the_table(tmp_path):
    out = tmp_path / "r.json"
    res = CliRunner().invoke(main, [
        "compare", "--ref", "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'",
        "--cand", "true", "--rounds", "16", "--threshold", "1.5", "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert "speedup (reference/candidate)" in res.output
    assert "verdict" in res.output and "faster" in res.output
    assert json.loads(out.read_text())["comparisons"][0]["summary"]["meets_threshold"] is True


def test_cli_errors_are_one_line_not_tracebacks():
    res = CliRunner().invoke(main, ["compare", "--ref", "true", "--cand", "nope-not-here",
                                    "--rounds", "6"])
    assert res.exit_code == 3
    assert "Error: candidate: command not found: 'nope-not-here'" in res.output
    assert "Traceback" not in res.output
    res = CliRunner().invoke(main, ["compare", "--ref", "true", "--cand", "false", "--rounds", "6"])
    assert res.exit_code == 3
    assert "candidate: command failed (exit code 1)" in res.output
    res = CliRunner().invoke(main, ["compare", "--ref", "true", "--cand", "true", "--rounds", "x"])
    assert res.exit_code == 2 and "--rounds" in res.output


def test_cli_info():
    res = CliRunner().invoke(main, ["info"])
    assert res.exit_code == 0, res.output
    for needle in ("clocksource", "clock read overhead", "can pin CPUs", "can switch users",
                   "can limit processes", "task-clock"):
        assert needle in res.output


def test_python_dash_m_works():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "frontier_measure", "--help"], capture_output=True,
                       text=True, check=True)
    assert "compare" in r.stdout and "info" in r.stdout
