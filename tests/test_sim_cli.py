"""`frontier-measure sim run`, in process through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure.cli import main
from sim_support import build_c

pytestmark = pytest.mark.needs_zig


def test_sim_run_prints_output_table_and_profile(tmp_path: Path) -> None:
    elf = build_c("syscalls")
    stdin = tmp_path / "in.txt"
    stdin.write_bytes(b"12\n34\n")
    out = tmp_path / "r.json"
    r = CliRunner().invoke(main, ["sim", "run", str(elf), "5", "--profile", "--stdin", str(stdin),
                                  "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "argc=2 [5]" in r.output
    assert "stdin: 6 bytes, 2 lines, digit sum 10" in r.output
    assert "L1D accesses / misses" in r.output
    assert "function" in r.output and "main" in r.output
    data = json.loads(out.read_text())
    assert data["exit_code"] == 5
    assert data["stats"]["cycles"] > data["stats"]["instructions"] > 0
    assert sum(p["cost"] for p in data["profile"]) == data["stats"]["cycles"]


def test_sim_run_functional_and_machine(tmp_path: Path) -> None:
    elf = build_c("integer")
    r = CliRunner().invoke(main, ["sim", "run", str(elf), "--functional", "--machine", "small"])
    assert r.exit_code == 0, r.output
    assert "small (functional" in r.output


def test_sim_run_fault_is_one_clear_line() -> None:
    r = CliRunner().invoke(main, ["sim", "run", str(build_c("integer")), "--max-instructions", "1000"])
    assert r.exit_code != 0
    assert "budget_exceeded" in r.output
    assert "Traceback" not in r.output
