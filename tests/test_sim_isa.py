"""The official RISC-V ISA tests (riscv-tests, p environment) on the simulator.

Built from the riscv-tests tarball in the shared data directory with Debian's
riscv64-unknown-elf-gcc (cached under build/refprograms/). Each test reports
through the HTIF tohost word: exit code 0 is a pass, n names the failing case.
Every test of rv64ui/um/ua/uf/ud/uc/mi/si runs; none is left out.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from frontier_measure import refprograms, sim

pytestmark = pytest.mark.needs_riscv_gcc

_REASON = refprograms.missing_reason("riscv-tests")
TESTS = [] if _REASON else refprograms.isa_tests()


@pytest.fixture(scope="module")
def elfs() -> dict[str, Path]:
    if _REASON:
        pytest.skip(_REASON)
    return refprograms.build_isa(TESTS)


@pytest.mark.parametrize("test", TESTS, ids=[t.id for t in TESTS])
def test_isa(test: refprograms.IsaTest, elfs: dict[str, Path]) -> None:
    r = sim.run(elfs[test.id], max_instructions=1_000_000)
    assert r.exit_code == 0, f"{test.id}: test case {r.exit_code} failed"


def test_every_suite_is_collected() -> None:
    if _REASON:
        pytest.skip(_REASON)
    counts = {s: sum(t.suite == s for t in TESTS) for s in refprograms.ISA_SUITES}
    assert counts == {"rv64ui": 54, "rv64um": 13, "rv64ua": 19, "rv64uf": 11, "rv64ud": 12,
                      "rv64uc": 1, "rv64mi": 17, "rv64si": 7}


def test_a_wrong_result_is_reported_with_its_case(elfs: dict[str, Path], tmp_path: Path) -> None:
    # Turn the first `add` of rv64ui-p-add's test cases into `sub`: the run must
    # end with that case's number, not pass.
    path = elfs["rv64ui-p-add"]
    data = bytearray(path.read_bytes())
    code = next(s for s in sim.load_elf(path).segments if s.executable)
    start = data.find(code.data[:64]) + 0x200  # past the reset and trap code
    for i in range(start, start + len(code.data) - 0x200, 4):
        w = struct.unpack_from("<I", data, i)[0]
        if w & 0x7F == 0x33 and (w >> 12) & 7 == 0 and w >> 25 == 0:
            struct.pack_into("<I", data, i, w | (0x20 << 25))
            break
    mutated = tmp_path / "add-as-sub"
    mutated.write_bytes(data)
    assert sim.run(mutated).exit_code > 1


def test_code_written_at_run_time_executes_after_fence_i(elfs: dict[str, Path]) -> None:
    # rv64ui-p-fence_i copies instructions into its data section and jumps there.
    prog = sim.load_elf(elfs["rv64ui-p-fence_i"])
    lo, hi = prog.code_range
    assert any(not s.executable and s.vaddr >= hi for s in prog.segments)
    assert sim.run(prog).exit_code == 0
