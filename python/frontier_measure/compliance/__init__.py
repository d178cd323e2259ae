"""Compliance: source inspection of a candidate against the task's rules.

A violation is zero credit: nothing else runs. Each finding names the file,
the line and the rule. Python sources (module and package scale) are
inspected by `python.py`, C sources and ELF symbols (kernel scale) by `c.py`;
each scale's runner calls its inspector (runners/<scale>.py `inspect`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


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
