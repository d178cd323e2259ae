"""(s) Start-up: what the command costs before it does anything, against
`python -c pass` from the same interpreter, side by side in one run (the
commands interleaved round by round, so the machine's load hits all alike).

  python -c pass                  the floor: the interpreter and site start-up
  frontier-measure --version      answered before the CLI framework and the
                                  native extension load (target: within 3x)
  frontier-measure -q eval        a module-scale candidate with a syntax error:
                                  refused by compliance, nothing runs (target:
                                  within 10x); it still loads the runner and
                                  records the environment in result.json

Printed: the median wall time of each and its ratio to the floor, with the
load average. The commands run with bytecode caching on (as an installed
package has it; PYTHONDONTWRITEBYTECODE is dropped from their environment) and
one untimed round first, which writes the caches. Usage: python bench/startup.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _util import show

ROOT = Path(__file__).resolve().parent.parent


def broken_candidate(into: Path) -> Path:
    """The dedupe task's starting workspace with a syntax error in its module."""
    cand = into / "candidate"
    shutil.copytree(ROOT / "tasks" / "module" / "dedupe" / "environment" / "workspace", cand)
    (cand / "dedupe.py").write_text("def dedupe(rows:\n    return rows\n")
    return cand


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="fm-startup-") as tmp:
        cand = broken_candidate(Path(tmp))
        out = Path(tmp) / "results"
        commands = {
            "python -c pass": [py, "-c", "pass"],
            "frontier-measure --version": [py, "-m", "frontier_measure", "--version"],
            "frontier-measure -V": [py, "-m", "frontier_measure", "-V"],
            "eval (syntax error)": [py, "-m", "frontier_measure", "-q", "eval",
                                    str(ROOT / "tasks" / "module" / "dedupe"),
                                    "--candidate", str(cand), "--out", str(out)],
        }
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        walls: dict[str, list[float]] = {k: [] for k in commands}
        for argv in commands.values():
            subprocess.run(argv, capture_output=True, env=env)
        load_before = os.getloadavg()
        for r in range(args.rounds):
            # Rotate the order each round: no command always runs first.
            names = list(commands)
            names = names[r % len(names):] + names[:r % len(names)]
            for name in names:
                t0 = time.perf_counter()
                p = subprocess.run(commands[name], capture_output=True, text=True, env=env)
                walls[name].append(time.perf_counter() - t0)
                # The eval exits 1 (not a strict success); anything else is a
                # broken measurement, not a slow one.
                want = 1 if name.startswith("eval") else 0
                if p.returncode != want:
                    sys.exit(f"{name}: exit {p.returncode}, expected {want}\n{p.stderr[-2000:]}")
        load_after = os.getloadavg()
    floor = statistics.median(walls["python -c pass"])
    rows = [[name, f"{statistics.median(w) * 1e3:.0f} ms", f"{statistics.median(w) / floor:.2f}x"]
            for name, w in walls.items()]
    show(f"start-up, median of {args.rounds} rounds (load {load_before[0]:.1f} before, "
         f"{load_after[0]:.1f} after)", ["command", "median wall", "vs python -c pass"], rows)


if __name__ == "__main__":
    main()
