"""Compliance: source inspection of a candidate against the task's rules.

A violation is zero credit: nothing else runs. Each finding names the file,
the line and the rule. Inspectors are chosen by scale; each implements

    inspect(root: Path, rules: Compliance) -> list[Finding]

Python (module and package scale) lives in `python.py`; C sources and ELF
symbols (kernel scale) go beside it and register in `INSPECTORS`.
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol


@dataclass(frozen=True)
class Finding:
    file: str  # relative to the candidate root
    line: int  # 0 when the finding is about the whole file
    rule: str  # short rule id, e.g. "forbidden-import", "escape-hatch"
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: [{self.rule}] {self.detail}"


class Inspector(Protocol):
    def inspect(self, root: Path, rules: Any) -> list[Finding]: ...


INSPECTORS: dict[str, str] = {
    "module": "frontier_measure.compliance.python",
    "package": "frontier_measure.compliance.python",
}


def inspect(root: str | Path, rules: Any, scale: str) -> list[Finding]:
    """Every finding for the candidate at `root` (empty = compliant)."""
    if scale not in INSPECTORS:
        raise NotImplementedError(f"no compliance inspector for scale '{scale}' yet")
    mod = importlib.import_module(INSPECTORS[scale])
    findings: list[Finding] = mod.inspect(Path(root), rules)
    return findings
