"""What the platform needs of a task directory.

Two kinds of Harbor task directories are run:

* performance tasks (frontier-measure's own, `[metadata.frontier]`): the pristine
  workspace is `environment/workspace/`, the gate is the evaluator (strict success);
* RefactorBench tasks (made by `refactorbench.import_snapshot`, `[metadata.refactorbench]`):
  the pristine workspace is the repository's shared checkout, the gate is the task's
  AST unit tests, every one of which must pass.

Both carry their instruction in three prompt modes, `prompts/{descriptive,base,lazy}.md`
(What+Where+How, What+Where, What); `instruction.md` is the one Harbor shows.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROMPT_MODES = ("descriptive", "base", "lazy")
KINDS = ("performance", "refactorbench")


class PlatformTaskError(Exception):
    pass


@dataclass(frozen=True)
class PlatformTask:
    path: Path
    name: str
    kind: str  # performance | refactorbench
    scale: str | None
    pristine: Path  # the workspace every attempt starts from (never written)
    workdir: str  # where the workspace is in the attempt's container
    meta: dict[str, Any]

    @property
    def solution(self) -> Path | None:
        """The oracle: solution/workspace/ (a whole workspace) or solution/solve.sh."""
        for rel in ("solution/workspace", "solution/solve.sh"):
            if (self.path / rel).exists():
                return self.path / rel
        return None

    def prompt(self, mode: str) -> str:
        if mode not in PROMPT_MODES:
            raise PlatformTaskError(f"unknown prompt mode '{mode}' (choose from "
                                    f"{', '.join(PROMPT_MODES)})")
        path = self.path / "prompts" / f"{mode}.md"
        if not path.is_file():
            raise PlatformTaskError(f"{self.path}: prompts/{mode}.md: missing")
        return path.read_text()

    def missing_prompts(self, modes: list[str]) -> list[str]:
        return [m for m in modes if not (self.path / "prompts" / f"{m}.md").is_file()]


def load(path: str | Path) -> PlatformTask:
    root = Path(path).resolve()
    try:
        doc = tomllib.loads((root / "task.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PlatformTaskError(f"{root}: task.toml: {exc}") from None
    meta = doc.get("metadata", {})
    env = doc.get("environment", {})
    name = str(doc.get("task", {}).get("name") or root.name)
    if isinstance(meta.get("frontier"), dict):
        fr = meta["frontier"]
        return PlatformTask(root, name, "performance", fr.get("scale"),
                            root / "environment" / "workspace",
                            str(env.get("workdir") or "/workspace"), fr)
    if isinstance(meta.get("refactorbench"), dict):
        rb = meta["refactorbench"]
        checkout = (root / str(rb.get("checkout", ""))).resolve()
        if not checkout.is_dir():
            raise PlatformTaskError(f"{root}: [metadata.refactorbench].checkout: {checkout} is "
                                    "not a directory (re-run the importer)")
        return PlatformTask(root, name, "refactorbench", None, checkout,
                            str(env.get("workdir") or "/workspace"), rb)
    raise PlatformTaskError(f"{root}: task.toml has neither [metadata.frontier] nor "
                            "[metadata.refactorbench]")


def find(paths: list[Path]) -> list[Path]:
    """Task directories: each path itself when it has task.toml, else every task below it."""
    from ..task import find_tasks

    out: list[Path] = []
    for p in paths:
        found = find_tasks(p)
        if not found:
            raise PlatformTaskError(f"{p}: no task.toml found")
        out += [f.resolve() for f in found]
    return out
