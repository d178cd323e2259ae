"""Bare-metal machine mode: hand-written assembly that exits through the HTIF
tohost word, takes traps through mtvec and patches its own code."""

from __future__ import annotations

import pytest

from frontier_measure import sim
from sim_support import build_bare

pytestmark = pytest.mark.needs_zig


def test_pass_exits_zero_through_tohost() -> None:
    r = sim.run(build_bare("pass"), max_instructions=100_000)
    assert r.exit_code == 0
    assert r.stats["instructions"] == 3010  # 2 + 3 * 1000 loop + checks + exit sequence


def test_failing_program_reports_its_test_number() -> None:
    r = sim.run(build_bare("fail"), max_instructions=100_000)
    assert r.exit_code == 7


def test_traps_set_mcause_mepc_mtval_and_mret_returns() -> None:
    r = sim.run(build_bare("trap"), max_instructions=100_000)
    assert r.exit_code == 0
    assert r.stdout == b"ok\n"  # printed through HTIF putchar


def test_fence_i_sees_patched_code() -> None:
    r = sim.run(build_bare("selfmod"), max_instructions=100_000)
    assert r.exit_code == 0


def test_machine_mode_is_detected_from_tohost() -> None:
    prog = sim.load_elf(build_bare("pass"))
    assert prog.machine_mode
    assert prog.entry == 0x8000_0000
    assert "tohost" in prog.symbols


def test_spinning_program_hits_the_budget() -> None:
    # With a budget of 3 instructions fail.S cannot reach its tohost store.
    with pytest.raises(sim.SimulatorFault) as ei:
        sim.run(build_bare("fail"), max_instructions=3)
    assert ei.value.code == "budget_exceeded"
    assert ei.value.pc == 0x8000_0000 + 2 + 2 + 4  # c.li, c.li, add retired
