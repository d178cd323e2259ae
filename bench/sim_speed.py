"""Simulator speed: simulated instructions per host second (MIPS) with the
timing model off and on, next to qemu-riscv64-static's wall time on the same
ELFs. Run: .venv/bin/python bench/sim_speed.py [--repeat N]

Times only the simulation (ELF loading excluded) and takes the best of N runs
on this shared machine; qemu's time is its whole process (startup included).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from frontier_measure import display, sim

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "sim-bench"
PROGRAMS = {
    "workload": ([ROOT / "bench" / "sim_programs" / "workload.c"], []),
    "matmul ikj": ([ROOT / "tests" / "sim_programs" / "matmul.c"], ["0"]),
    "matmul jki": ([ROOT / "tests" / "sim_programs" / "matmul.c"], ["1"]),
    "integer": ([ROOT / "tests" / "sim_programs" / "integer.c"], []),
    "float": ([ROOT / "tests" / "sim_programs" / "float.c"], []),
}


def best_sim(prog: sim.Program, text: str, args: list[str], timing: bool,
             repeat: int) -> tuple[float, int, int]:
    best, ins, cyc = float("inf"), 0, 0
    for _ in range(repeat):
        s = sim.prepare(prog, machine_text=text, argv=[prog.path.name, *args], timing=timing)
        t0 = time.perf_counter()
        s.run(10**11)
        best = min(best, time.perf_counter() - t0)
        ins, cyc = s.instructions, s.cycles
    return best, ins, cyc


def best_qemu(elf: Path, args: list[str], repeat: int) -> float | None:
    if not shutil.which("qemu-riscv64-static"):
        return None
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(["qemu-riscv64-static", str(elf), *args], capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--machine", default="default")
    a = ap.parse_args()
    text = sim.load_machine(a.machine)
    rows = []
    for name, (sources, args) in PROGRAMS.items():
        elf = sim.cached_build(sources, CACHE)
        prog = sim.load_elf(elf)
        t_off, ins, _ = best_sim(prog, text, args, False, a.repeat)
        t_on, _, cyc = best_sim(prog, text, args, True, a.repeat)
        q = best_qemu(elf, args, a.repeat)
        rows.append([name, f"{ins / 1e6:.1f}", f"{cyc / ins:.2f}", f"{ins / t_off / 1e6:.0f}",
                     f"{ins / t_on / 1e6:.0f}", f"{t_off * 1e3:.1f}", f"{t_on * 1e3:.1f}",
                     "-" if q is None else f"{q * 1e3:.1f}",
                     "-" if q is None else f"{t_off / q:.2f}", "-" if q is None else f"{t_on / q:.2f}"])
    print(display.table(["program", "M instr", "CPI", "MIPS off", "MIPS on", "ms off", "ms on",
                         "qemu ms", "off/qemu", "on/qemu"], rows))
    print(f"\nmachine {a.machine}; best of {a.repeat}; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
