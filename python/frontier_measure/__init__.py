"""frontier-measure: decides whether a candidate is faster than its reference
without changing what it does.

Public API (everything else is internal):

    compare(reference, candidate, ...)  paired, interleaved timing of two callables or commands
    Comparison                           its result: speedup, interval, verdict, rounds
    environment()                        the machine a measurement is taken on
    sim.run(elf, ...)                    run a RISC-V program on the cycle-counting simulator

Errors: MeasureError and its subclasses SpawnError, IsolationError, SideError
(`.side` names which side failed) and SimulatorFault (`.code`, `.pc`).
"""

from __future__ import annotations

try:
    from . import _core  # noqa: F401  (import check with a helpful message)
except ImportError as exc:  # pragma: no cover - exercised only on broken installs
    raise ImportError(
        "frontier_measure's native extension (_core) is not built. "
        "Install the package with `pip install -e .` (or run `bash scripts/setup.sh`) "
        f"from the project root. Original error: {exc}"
    ) from exc

from typing import Any

from ._core import IsolationError, MeasureError, SideError, SimulatorFault, SpawnError
from .environment import environment  # (the function; it shadows its module's name)

__version__ = "0.1.0"

# Loaded on first use: a side's worker process imports this package too, and
# must not pay for numpy and the timing machinery it never uses.
_LAZY = {"compare": "perf", "Comparison": "perf"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'frontier_measure' has no attribute {name!r}")

__all__ = [
    "Comparison",
    "IsolationError",
    "MeasureError",
    "SideError",
    "SimulatorFault",
    "SpawnError",
    "compare",
    "environment",
    "__version__",
]
