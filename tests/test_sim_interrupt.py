"""Ctrl-C reaches Python while the simulator runs: the GIL is released during
chunks of instructions and signals are checked between them."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from sim_support import PROGRAMS, build_source

pytestmark = pytest.mark.needs_zig


def test_sigint_interrupts_a_long_run() -> None:
    elf = build_source(PROGRAMS / "faults" / "spin.c")
    code = ("import sys; from frontier_measure import sim; print('started', flush=True); "
            "sim.run(sys.argv[1], max_instructions=10**15, timing=False)")
    p = subprocess.Popen([sys.executable, "-c", code, str(elf)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "started"
    time.sleep(0.5)  # let it get into the C++ loop; not a timing assertion
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode != 0
    assert "KeyboardInterrupt" in err
