"""Builds the test programs in tests/sim_programs/ once, cached by source hash
under build/sim-tests/ (so reruns skip the compiler)."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontier_measure import sim

ROOT = Path(__file__).resolve().parent
PROGRAMS = ROOT / "sim_programs"
BARE = PROGRAMS / "bare"
CACHE = ROOT.parent / "build" / "sim-tests"

# name -> sources of the Linux user-mode programs of the differential suite.
C_PROGRAMS: dict[str, list[str]] = {
    "integer": ["integer.c"],
    "muldiv": ["muldiv.c"],
    "atomics": ["atomics.c"],
    "float": ["float.c"],
    "fflags": ["fflags.c"],
    "rmm": ["rmm.c"],
    "compressed": ["compressed_main.c", "compressed.S"],
    "syscalls": ["syscalls.c"],
    "misaligned": ["misaligned.c"],
    "isa_edges": ["isa_edges.c"],
    "abort": ["abort.c"],
    "matmul": ["matmul.c"],
}
BARE_PROGRAMS = ["pass", "fail", "trap", "selfmod"]


def build_c(name: str, opt: str = "-O2") -> Path:
    if not sim.have_zig():
        pytest.skip("ziglang package not installed")
    return sim.cached_build([PROGRAMS / s for s in C_PROGRAMS[name]], CACHE, opt=opt)


def build_source(path: Path, opt: str = "-O2") -> Path:
    if not sim.have_zig():
        pytest.skip("ziglang package not installed")
    return sim.cached_build([path], CACHE, opt=opt)


def build_bare(name: str) -> Path:
    if not sim.have_zig():
        pytest.skip("ziglang package not installed")
    return sim.cached_build([BARE / f"{name}.S"], CACHE, linker_script=BARE / "link.ld",
                            flags=["-I", str(BARE)])
