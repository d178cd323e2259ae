"""Real Harbor trials of one exported task per buildable scale (module, package,
repository), oracle and nop each, with Harbor's Docker environment: the full set
of tests/test_harbor_real_trial.py, of which CI runs only the module task (its
time budget). Prints each trial's reward and time; exits non-zero when an
oracle does not score 1 or nop does not score 0.

Run: .venv/bin/python bench/harbor_trials.py [TASK ...]   (needs .harbor-venv,
Docker, the base image, and docker compose v2 or Debian's docker-compose for the
adapter). TASKs (e.g. suite/module/inflection) are tried as well, oracle and nop.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    env = {**os.environ, "FM_HARBOR_TRIALS": "all", "FM_HARBOR_TASKS": ",".join(sys.argv[1:])}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v",
                           "--durations=0", str(ROOT / "tests" / "test_harbor_real_trial.py")],
                          env=env, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
