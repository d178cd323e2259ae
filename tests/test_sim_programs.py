"""Differential suite: each program in tests/sim_programs/ runs under the
simulator and under qemu-riscv64-static; stdout, stderr and exit status must
be identical."""

from __future__ import annotations

import subprocess

import pytest

from frontier_measure import sim
from sim_support import C_PROGRAMS, build_c

pytestmark = [pytest.mark.needs_zig, pytest.mark.needs_qemu]

STDIN = {"syscalls": b"line 1\nline 22\n333 last"}
ARGS = {"syscalls": ["7", "two words"], "matmul": ["1"]}


@pytest.mark.parametrize("name", sorted(C_PROGRAMS))
@pytest.mark.parametrize("timing", [True, False], ids=["timing", "functional"])
def test_same_as_qemu(name: str, timing: bool) -> None:
    elf = build_c(name)
    stdin, args = STDIN.get(name, b""), ARGS.get(name, [])
    ref = subprocess.run(["qemu-riscv64-static", str(elf), *args], input=stdin,
                         capture_output=True, timeout=120)
    got = sim.run(elf, stdin=stdin, argv=[name, *args], timing=timing)
    assert got.stdout.decode() == ref.stdout.decode()
    assert got.stderr.decode() == ref.stderr.decode()
    assert got.exit_code == ref.returncode


# -O0 and -Os give different instruction mixes (more loads/stores, more RVC). Each level
# builds zig's libc once more (about 30 s), so CI takes -Os, the compressed-instruction one.
@pytest.mark.parametrize("opt", ["-Os", pytest.param("-O0", marks=pytest.mark.full)])
def test_optimisation_levels_agree_with_qemu(opt: str) -> None:
    elf = build_c("integer", opt=opt)
    ref = subprocess.run(["qemu-riscv64-static", str(elf)], capture_output=True, timeout=120)
    got = sim.run(elf, argv=["integer"])
    assert (got.stdout, got.exit_code) == (ref.stdout, ref.returncode), opt
