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

from typing import Any

# The function; it shadows its module's name. environment.py imports nothing
# heavy at load, so this costs little.
from .environment import environment

__version__ = "0.1.0"

# Everything else is loaded on first use: `frontier-measure --version`, and a
# side's worker process (which imports this package too), must not pay for the
# native extension, numpy and the timing machinery they never use.
_LAZY = {"compare": "perf", "Comparison": "perf", "IsolationError": "_core",
         "MeasureError": "_core", "SideError": "_core", "SimulatorFault": "_core",
         "SpawnError": "_core"}


def _load_core() -> Any:
    try:
        from . import _core
    except ImportError as exc:  # pragma: no cover - exercised only on broken installs
        raise ImportError(
            "frontier_measure's native extension (_core) is not built. "
            "Install the package with `pip install -e .` (or run `bash scripts/setup.sh`) "
            f"from the project root. Original error: {exc}"
        ) from exc
    return _core


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        where = _LAZY[name]
        module = _load_core() if where == "_core" else importlib.import_module(f".{where}",
                                                                                 __name__)
        value = getattr(module, name)
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
