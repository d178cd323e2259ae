"""Dhrystone and the CoreMark-derived port (bench/core_models.py's programs)
build from the shared data tarballs and run correctly on every machine file:
CoreMark checks its own CRCs, Dhrystone reports the cycles of its timed runs
through mcycle, which the simulator must count like its own cycles."""

from __future__ import annotations

import re

import pytest

from frontier_measure import refprograms, sim

pytestmark = pytest.mark.needs_riscv_gcc


def _skip_without(prefix: str) -> None:
    reason = refprograms.missing_reason(prefix)
    if reason:
        pytest.skip(reason)


@pytest.mark.parametrize("machine", sim.machines())
def test_coremark_derived_validates(machine: str) -> None:
    _skip_without("coremark")
    _skip_without("riscv-tests")
    r = sim.run(refprograms.build_coremark(["-O2"], 5), machine=machine)
    out = r.stdout.decode()
    assert r.exit_code == 0
    # CoreMark's known CRCs of a 2K performance run (it prints ERROR! lines otherwise).
    for line in ("seedcrc          : 0xe9f5", "[0]crclist       : 0xe714", "[0]crcmatrix     : 0x1fd7",
                 "[0]crcstate      : 0x8e3a"):
        assert line in out
    assert "ERROR! list" not in out and "ERROR! matrix" not in out and "ERROR! state" not in out
    ticks = int(re.search(r"Total ticks\s*:\s*(\d+)", out).group(1))  # type: ignore[union-attr]
    assert 0 < ticks < r.cycles


def test_dhrystone_counts_its_timed_runs_in_mcycle() -> None:
    _skip_without("riscv-tests")
    elf = refprograms.build_dhrystone(["-O2", "-fno-builtin-printf"])
    timed = sim.run(elf, machine="rocket")
    functional = sim.run(elf, machine="rocket", timing=False)
    out = timed.stdout.decode()
    cycles = int(re.search(r"mcycle = (\d+)", out).group(1))  # type: ignore[union-attr]
    instret = int(re.search(r"minstret = (\d+)", out).group(1))  # type: ignore[union-attr]
    assert timed.exit_code == 0 and "Dhrystones per Second" in out
    assert refprograms.dhrystone_runs() * 200 < instret < cycles < timed.cycles
    # Without the timing model a cycle is an instruction, mcycle included (the
    # runtime reads mcycle, then minstret, and runs a few more instructions
    # between the two reads when it stops than when it starts).
    f_out = functional.stdout.decode()
    f_cycles = int(re.search(r"mcycle = (\d+)", f_out).group(1))  # type: ignore[union-attr]
    f_instret = int(re.search(r"minstret = (\d+)", f_out).group(1))  # type: ignore[union-attr]
    assert 0 <= f_instret - f_cycles < 10
