"""`frontier-measure sim run`, in process through click's CliRunner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from frontier_measure import sim
from frontier_measure.cli import main
from sim_support import PROGRAMS, build_bare, build_c, build_source

pytestmark = pytest.mark.needs_zig


def test_sim_run_prints_output_table_and_profile(tmp_path: Path) -> None:
    elf = build_c("syscalls")
    stdin = tmp_path / "in.txt"
    stdin.write_bytes(b"12\n34\n")
    out = tmp_path / "r.json"
    r = CliRunner().invoke(main, ["sim", "run", str(elf), "5", "--profile", "--stdin", str(stdin),
                                  "--json", str(out)])
    assert r.exit_code == 5, r.output  # the program's own exit status
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
    assert r.exit_code == sim.run(elf, timing=False).exit_code == 18, r.output  # main's return value
    assert "small (functional" in r.output


def test_sim_run_fault_is_one_clear_line() -> None:
    r = CliRunner().invoke(main, ["sim", "run", str(build_c("integer")), "--max-instructions", "1000"])
    assert r.exit_code == sim.EXIT_BUDGET == 124
    assert "budget_exceeded" in r.output
    assert "Traceback" not in r.output


def test_sim_run_fault_status_differs_from_budget(tmp_path: Path) -> None:
    out = tmp_path / "f.json"
    r = CliRunner().invoke(main, ["sim", "run", str(build_source(PROGRAMS / "faults" / "illegal.c")),
                                  "--json", str(out)])
    assert r.exit_code == sim.EXIT_FAULT == 125
    assert json.loads(out.read_text())["fault"]["code"] == "illegal_instruction"


def test_sim_run_exit_status_tells_pass_from_fail() -> None:
    # As a real process, the way a script sees it: a bare-metal test that
    # fails its case 7 exits 7, one that passes exits 0.
    cmd = [sys.executable, "-m", "frontier_measure", "sim", "run"]
    failing = subprocess.run([*cmd, str(build_bare("fail"))], capture_output=True, text=True)
    assert failing.returncode == 7, failing.stderr
    passing = subprocess.run([*cmd, str(build_bare("pass"))], capture_output=True, text=True)
    assert passing.returncode == 0, passing.stderr


def test_exit_status_mapping() -> None:
    assert [sim.exit_status(c) for c in (0, 5, 255, 256, 1337, -6, -9)] == [0, 5, 255, 255, 255, 134, 137]


@pytest.mark.parametrize("content,says", [
    (b"hello\n", "not an ELF file"),
    (b"\x7fELF\x02\x01\x01", "not an ELF file"),
    (None, "not a 64-bit RISC-V ELF"),  # the host's own /bin/true
])
def test_a_file_that_is_not_a_riscv_program_is_named_not_a_traceback(tmp_path: Path, content,
                                                                      says) -> None:
    path = Path("/bin/true") if content is None else tmp_path / "prog"
    if content is not None:
        path.write_bytes(content)
    r = CliRunner().invoke(main, ["sim", "run", str(path)])
    assert r.exit_code == 3, r.output
    assert f"{path}: {says}" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
