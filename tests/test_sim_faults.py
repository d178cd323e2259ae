"""Typed faults: every abnormal end of a run is a SimulatorFault with a code
and the PC of the instruction at fault."""

from __future__ import annotations

import pytest

from frontier_measure import MeasureError, sim
from frontier_measure._core import Simulator, parse_machine
from sim_support import PROGRAMS, build_source

FAULTS = PROGRAMS / "faults"


def _fault(name: str, **kw: object) -> tuple[sim.SimulatorFault, sim.Program]:
    prog = sim.load_elf(build_source(FAULTS / f"{name}.c"))
    with pytest.raises(sim.SimulatorFault) as ei:
        sim.run(prog, **kw)  # type: ignore[arg-type]
    return ei.value, prog


def _in_function(prog: sim.Program, pc: int, name: str) -> bool:
    return any(f.name == name and f.addr <= pc < f.addr + f.size for f in prog.functions)


@pytest.mark.needs_zig
def test_illegal_instruction_names_the_pc_in_main() -> None:
    exc, prog = _fault("illegal")
    assert exc.code == "illegal_instruction"
    assert exc.value == 0xFFFFFFFF
    assert _in_function(prog, exc.pc, "main")
    assert isinstance(exc, MeasureError)  # catchable as the package's base error


@pytest.mark.needs_zig
def test_out_of_range_load_is_an_access_fault() -> None:
    exc, prog = _fault("bad_access")
    assert exc.code == "access_fault"
    assert exc.value == 0x7000000000000000
    assert _in_function(prog, exc.pc, "main")


@pytest.mark.needs_zig
@pytest.mark.parametrize("timing", [True, False])
def test_budget_exceeded(timing: bool) -> None:
    exc, prog = _fault("spin", max_instructions=100_000, timing=timing)
    assert exc.code == "budget_exceeded"
    assert exc.value == 100_000  # instructions retired when it stopped
    assert _in_function(prog, exc.pc, "main")


@pytest.mark.needs_zig
@pytest.mark.parametrize("timing", [True, False])
def test_cycle_budget_exceeded(timing: bool) -> None:
    exc, _ = _fault("spin", max_cycles=50_000, timing=timing)
    assert exc.code == "budget_exceeded"
    cycles = int(str(exc).split(" and ")[1].split()[0])
    # Checked before every instruction: the last one may carry it a few cycles past.
    assert 50_000 <= cycles < 50_200
    if not timing:
        assert cycles == 50_000


@pytest.mark.needs_zig
def test_unknown_syscall_names_number_and_pc() -> None:
    exc, prog = _fault("bad_syscall")
    assert exc.code == "unknown_syscall"
    assert exc.value == 500
    assert "syscall 500" in str(exc)
    assert _in_function(prog, exc.pc, "syscall")


def test_fetch_outside_code_is_an_access_fault() -> None:
    s = Simulator("user", 0x10000, 1 << 20)
    s.write_memory(0x10000, (0x00000013).to_bytes(4, "little"))  # nop, then off the end
    s.set_code_range(0x10000, 0x10004)
    s.pc = 0x10000
    with pytest.raises(sim.SimulatorFault) as ei:
        s.run(10)
    assert ei.value.code == "access_fault"
    assert ei.value.pc == 0x10004


def test_bad_machine_file_is_rejected_with_its_line() -> None:
    with pytest.raises(sim.SimulatorFault, match="line 2: unknown key 'l1d.size'") as ei:
        parse_machine("name = x\nl1d.size = 32768\n")
    assert ei.value.code == "bad_config"
    with pytest.raises(sim.SimulatorFault, match="powers of two"):
        parse_machine("l1d.sets = 48\n")


def test_unknown_machine_name() -> None:
    with pytest.raises(FileNotFoundError, match="bundled: .*rocket.*default = rocket"):
        sim.load_machine("no-such-machine")


def test_machine_counters_are_not_readable_from_user_mode() -> None:
    # csrr t0, mcycle is illegal in a Linux process; rdcycle (cycle) is not.
    def run_word(word: int) -> Simulator:
        s = Simulator("user", 0x10000, 1 << 20)
        code = b"".join(w.to_bytes(4, "little") for w in (word, 0x00000073))  # then ecall (exit)
        s.write_memory(0x10000, code)
        s.set_code_range(0x10000, 0x10000 + len(code))
        s.pc = 0x10000
        s.set_reg(17, 93)
        s.run(10)
        return s

    with pytest.raises(sim.SimulatorFault) as ei:
        run_word(0xB00022F3)  # csrrs t0, mcycle, x0
    assert ei.value.code == "illegal_instruction" and ei.value.pc == 0x10000
    assert run_word(0xC00022F3).exited  # csrrs t0, cycle, x0


@pytest.mark.needs_zig
@pytest.mark.parametrize("name", ["store_to_text", "store_to_rodata"])
def test_store_to_a_read_only_segment_faults_with_its_address(name: str) -> None:
    # User mode maps the ELF's segments with their p_flags, as Linux does:
    # code and constants are not writable (the self-modifying-code attack).
    exc, prog = _fault(name)
    assert exc.code == "access_fault"
    assert "read-only page" in str(exc)
    assert any(not s.writable and s.vaddr <= exc.value < s.vaddr + s.memsz for s in prog.segments)
    assert _in_function(prog, exc.pc, "main")


@pytest.mark.needs_zig
def test_read_into_code_is_efault() -> None:
    prog = sim.load_elf(build_source(FAULTS / "read_into_text.c"))
    assert sim.run(prog, stdin=b"\x73\x00\x00\x00" * 2).exit_code == 0


@pytest.mark.needs_zig
def test_jump_to_data_is_a_fetch_fault() -> None:
    # Data pages are not executable: only the PF_X segments are code.
    prog = sim.load_elf(build_source(FAULTS / "store_to_rodata.c"))
    assert prog.read_only_pages()  # constants (and code) are protected page by page
    assert all(lo % 4096 == 0 and hi % 4096 == 0 for lo, hi in prog.read_only_pages())
